"""Retkikunnat, the expansion (spec §5), played when ``Options.expansion`` is set (the default).

Reading order: :mod:`.content` (cards, characters, tokens from ``data/content.json``), :mod:`.model`
(the expansion's part of the state and of the views: the stack of pending jobs, seats' cards, the
turn's record), :mod:`.predicates` (read-only questions shared by checks and transitions),
:mod:`.rules` (check, candidates, view), :mod:`.turn` (the driver of the job stack, the turn,
movement, flips), then what it drives: :mod:`.cards`, :mod:`.danger`, :mod:`.duels`, :mod:`.windows`;
:mod:`.setup`, :mod:`.ai`.
"""
