"""At most one new table picture per moment of a game (issue #28: Afrikan Tähti sent a new board
picture at every move, six a round at a table of three).

A game names its moments (:meth:`~chatbot.core.gameui.GameUI.picture_moment`: Afrikan Tähti's round,
or the end): the picture drawn at the first change of a moment stays on the table, byte for byte,
until the moment changes, so the transports (which upload a picture only when its bytes change)
send one picture per moment, and the text table carries the moves in between.

The schedule stores the moment's mark with the commit that began it (``meta["picture"]``: the
moment and the ply of the state the picture shows); the renderer draws the picture from that ply's
state. Both apply the same rule to the mark as they read it (before or after the commit stored it),
so they agree without the renderer storing anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: the match's meta key of the picture's mark
META = "picture"


def _plain(moment: Any) -> Any:
    return moment if moment is None or isinstance(moment, bool | int | float | str) else str(moment)


def mark(meta: Mapping[str, Any] | None, moment: Any, ply: int | None) -> dict[str, Any] | None:
    """The mark to store after a change to a state at ``ply`` in ``moment``; None when the stored
    one stands (the same moment, or a game whose pictures follow every change)."""
    moment = _plain(moment)
    if moment is None or ply is None:
        return None
    kept = (meta or {}).get(META)
    if isinstance(kept, Mapping) and kept.get("k") == moment:
        return None
    return {"k": moment, "p": int(ply)}


def ply_shown(meta: Mapping[str, Any] | None, moment: Any, ply: int | None) -> int | None:
    """The ply of the state the table's picture shows now: the mark's when it is of this moment,
    else the state's own (this change begins the moment); None: draw the state as it is."""
    moment = _plain(moment)
    kept = (meta or {}).get(META)
    if moment is None or ply is None or not isinstance(kept, Mapping) or kept.get("k") != moment:
        return None
    shown = int(kept.get("p", ply))
    return shown if shown != ply else None
