"""The base game of 1951 (spec §3.1-3.2, §4): :mod:`.rules` (legality, transition, views; also the
checks and steps Retkikunnat shares), :mod:`.setup`, :mod:`.ai`."""
