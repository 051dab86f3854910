"""Turns over time: when a person's turn begins and ends, for the timers and the private panel
(issue #27). Not :mod:`chatbot.core.turn`, the context of one update (a state and its facts).

A turn may take several steps (a Majavajengi turn: draw, place, knock or end), and in between others
may answer a reaction window. The person's time runs from the turn's beginning, they are reminded
once in it and the bot stands in once for it; their private panel is one message for the whole turn,
edited in place at each step.

What a turn is, for every game alike: the game's own counters where its public view has them (the
round, the deal, the turns taken, the seat on turn), else the seats to act. A seat's turn goes on
while those marks stay the same and the same person plays the seat; a reaction window is a turn of
its own for the seats it asks (its :meth:`~chatbot.core.gameui.GameUI.window_key`), and the seat on
turn keeps its turn through the windows of others.

Each seat's latest turn is a small record in the match's ``meta["turns"]``, written by the schedule
with the match's deadlines (:func:`advance` is pure and gives the same records when applied again at
the same version, so a renderer may apply it to records read before or after they were stored).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

#: the match's meta key of the turn records
META = "turns"
#: public view attributes that tell whose turn it is in which round, deal or rotation (any that a
#: game's view has); not counters that move within a turn (Majavajengi counts a turn as taken once
#: the drawn card is placed, before the knock)
COUNTERS = ("round", "deal", "rotation", "turn", "active")


def marks(public_view: Any, acting: Sequence[int]) -> list[Any]:
    """The marks of the turn now: the game's counters, or the seats to act when it has none."""
    found = [_plain(getattr(public_view, name)) for name in COUNTERS if hasattr(public_view, name)]
    if found:
        return found
    return ["to_act", *sorted(acting)]


def window_of(quick: float | None, window_key: str | None, version: int) -> str | None:
    """The reaction window now open, None outside one (a window without a key is new at every change)."""
    if quick is None:
        return None
    return window_key if window_key is not None else f"v{version}"


def advance(
    records: Mapping[str, Any] | None,
    now_marks: list[Any],
    window: str | None,
    acting: Mapping[int, int],
    version: int,
    now: float,
) -> dict[str, dict[str, Any]]:
    """The turn records after a change: ``acting`` maps each seat a person may act for now to that
    person's user id. A record whose marks differ from the turn now is closed (its seat's next turn
    is a new one even if the marks come back, as the seat on turn does in a small game); an acting
    seat without an open record of the same turn, window and person begins a turn at ``version``."""
    out: dict[str, dict[str, Any]] = {}
    for name, kept in (records or {}).items():
        if not isinstance(kept, Mapping):
            continue
        rec = dict(kept)
        if rec.get("m") != now_marks:
            rec["open"] = False
        out[str(name)] = rec
    for seat, user in acting.items():
        going = out.get(str(seat))
        if (
            going is not None
            and going.get("open")
            and going.get("m") == now_marks
            and going.get("w") == window
            and going.get("u") == user
        ):
            continue
        out[str(seat)] = {
            "m": now_marks,
            "w": window,
            "u": user,
            "v": version,
            "t": now,
            "r": False,
            "g": 0,
            "open": True,
        }
    return out


def record(records: Mapping[str, Any] | None, seat: int) -> Mapping[str, Any] | None:
    """The seat's latest turn record, None when it has had no turn yet."""
    found = (records or {}).get(str(seat))
    return found if isinstance(found, Mapping) else None


def panel_key(match_id: int, seat: int, rec: Mapping[str, Any]) -> str:
    """The key of the seat's private panel in the turn of ``rec``: one message per turn (and per
    time the person asked to see it again), edited in place at each step."""
    generation = int(rec.get("g", 0) or 0)
    suffix = f".{generation}" if generation else ""
    return f"prompt:{match_id}:{seat}:{int(rec.get('v', 0))}{suffix}"


def shown_again(records: Mapping[str, Any] | None, seat: int) -> dict[str, Any] | None:
    """The records after the person asked to see their panel again (their hand, the table): the
    turn's panel continues in a new message, which the next steps edit. None when the seat has no
    turn going on."""
    rec = record(records, seat)
    if rec is None or not rec.get("open"):
        return None
    out = {str(k): dict(v) for k, v in (records or {}).items() if isinstance(v, Mapping)}
    out[str(seat)]["g"] = int(rec.get("g", 0) or 0) + 1
    return out


def people_in_play(seats: Sequence[Any], public_view: Any) -> list[int]:
    """The seats of people still in the game: seated, and not out of it (a seat the game's public
    view lists as ``eliminated``, as Gnav's does with those who lost their lives)."""
    out = set(getattr(public_view, "eliminated", ()) or ())
    return [s.seat for s in seats if s.user_id is not None and s.seat not in out]


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return str(value)
