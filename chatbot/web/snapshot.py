"""What the web view shows of a match to one viewer, as JSON: built from the same views and renderers
as the chat, never from the state itself.

The public part (the table as a picture and as text, the latest events, whose turn, the deadline)
comes from ``view(state, None)`` and the public events, rendered in the viewer's language; a private
part comes only for the seats the viewer was found to hold (:mod:`chatbot.web.server` decides which),
each from that seat's own view: its panel as the chat's private prompt shows it. A finished match
can be stepped through as the chat's replay does (the match is over, so what each seat saw in private
is shown as well).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chatbot.core import i18n, pace
from chatbot.core.decoded import RECENT_ACTIONS
from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import Translator
from chatbot.core.ports import AI_TURN, LOBBY, OVER, RUNNING, MatchRec
from chatbot.core.schedule import room_zone
from chatbot.web.pictures import picture

#: event lines of the latest actions the view lists (newest last)
EVENT_LINES = 12


def labels(t: Translator) -> dict[str, str]:
    """The page's own words in the viewer's language."""
    return {
        "table": t.gettext("Table"),
        "yours": t.gettext("Your cards"),
        "events": t.gettext("Latest events"),
        "text": t.gettext("The table as text"),
        "deadline": t.gettext("Deadline"),
        "live": t.gettext("Live: the view follows the game."),
        "offline": t.gettext("Connection lost; trying again…"),
        "replay": t.gettext("Replay"),
        "previous": t.gettext("◀ Previous"),
        "next": t.gettext("Next ▶"),
        "start": t.gettext("⏮ From the start"),
        "end": t.gettext("To the end ⏭"),
        "forbidden": t.gettext(
            "This link does not open the table (it is not valid, or no longer). Open the table again from the chat."
        ),
    }


def snapshot(
    core: Any, match: MatchRec, seats: Sequence[int], lang: str, step: int | None = None, moves: bool = False
) -> dict[str, Any]:
    """The view of ``match`` for a viewer holding ``seats``, in ``lang``; ``step`` (a finished
    match only) is the replay's step: the position after that many actions."""
    t = i18n.translator(lang)
    ui = core.uis[match.game]
    engine = core.games[match.game]
    room = core.repo.room_by_id(match.room_id)
    names = core.renderer.table_names(match, t)
    ctx = RenderContext(t, names, None, match.options)
    out: dict[str, Any] = {
        "match": match.id,
        "version": match.version,
        "game": match.game,
        "title": ui.title(t),
        "status": match.status,
        "lang": t.lang,
        "labels": labels(t),
        "seats": [{"seat": s.seat, "name": names[s.seat], "yours": s.seat in seats} for s in match.seats],
    }
    if match.status == LOBBY or match.state is None:
        lobby = core.renderer.lobby(match, room)
        out["notice"] = lobby[0].text if lobby else ""
        return out
    replay = None
    if match.status == OVER and step is not None:
        replay = core.replays.replay_of(match)
    if replay is not None and replay.steps:
        step = max(0, min(step or 0, replay.last))
        state, step_events = replay.steps[step]
        out["replay"] = {"step": step, "last": replay.last}
        events = _replay_lines(core, match, ui, step_events, names, t, ctx)
    else:
        state = core.decoded.state(match)
        # the log is read after the match: actions committed meanwhile are not this position's news
        ply = int(match.state.get("ply", 0))
        since = max(0, ply - RECENT_ACTIONS)
        steps = core.decoded.public_events_since(match, since)[: ply - since]
        events = [line for step_events in steps for line in ui.render_events(step_events, ctx)]
        if match.status == OVER:
            out["replay"] = {"step": None, "last": int(match.state.get("ply", 0))}
    out["ply"] = int(getattr(state, "ply", 0) or 0)
    public_view = engine.view(state, None)
    pic = picture(match.game, ui, public_view, ctx)
    out["table"] = {"html": pic.html, "alt": pic.alt, "text": ui.render_table(public_view, ctx)}
    out["events"] = events[-EVENT_LINES:]
    outcome = engine.outcome(state)
    acting = tuple(engine.to_act(state)) if outcome is None else ()
    if outcome is not None:
        out["turn"] = core.renderer.final_text(ctx, outcome, ui, public_view).split("\n")[0]
    elif acting:
        out["turn"] = t.gettext("Now it is {name}’s turn.").format(
            name=t.format_list([names[s] for s in acting])
        )
    out["deadline"] = _deadline(core, match, t) if match.status == RUNNING and replay is None else None
    out["private"] = []
    for seat in seats:
        view = engine.view(state, seat)
        seat_ctx = RenderContext(t, names, seat, match.options)
        panel = ui.render_private(view, seat_ctx)
        to_act = seat in acting and replay is None
        mine: dict[str, Any] = {"seat": seat, "name": names[seat], "text": panel or "", "to_act": to_act}
        if moves and to_act:
            # the seat's buttons as its private prompt has them: pressed, they go the chat's way
            notations = core.decoded.turn(match, seat, state).notations
            mine["moves"] = [
                [{"label": label, "data": f"{match.id}:{match.version}:{n}"} for label, n in row]
                for row in ui.button_rows(notations, view, seat_ctx)
            ]
        out["private"].append(mine)
    return out


def _replay_lines(
    core: Any,
    match: MatchRec,
    ui: Any,
    events: Sequence[Any],
    names: tuple[str, ...],
    t: Translator,
    ctx: RenderContext,
) -> list[str]:
    """A replay step's lines as the chat's replay shows them: the public ones, then (the match is
    over) what each seat saw in private."""
    lines = [f"▸ {x}" for x in ui.render_events([e for e in events if e.public], ctx)]
    for seat in range(len(names)):
        mine = [e for e in events if e.to is not None and seat in e.to]
        if mine:
            seat_ctx = RenderContext(t, names, seat, match.options)
            lines += [
                t.gettext("🔒 {name}: {line}").format(name=names[seat], line=x)
                for x in ui.render_events(mine, seat_ctx)
            ]
    return lines


def _deadline(core: Any, match: MatchRec, t: Translator) -> dict[str, Any] | None:
    """When the bot acts next for the people it waits for (a reaction window's end, a stand-in move,
    a reminder): the earliest such stored deadline; AI turns are not a person's deadline."""
    due = [d for d in core.repo.deadlines(match.id) if d.kind != AI_TURN and d.version == match.version]
    if not due:
        return None
    first = min(due, key=lambda d: d.due)
    when = pace.when_text(first.due, core.clock(), room_zone(core.repo, match.room_id), t)
    return {"at": first.due, "text": f"⏰ {when}"}
