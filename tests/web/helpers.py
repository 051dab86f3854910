"""What the web view's tests share: starting a game of any registered game, and the hidden-card
check of what a viewer's page received (tests/chatbot/leaks.py's idea: the identifiers the engine
says the viewer may not know, and the cards that only another seat's private panel names)."""

from __future__ import annotations

import json
from typing import Any

from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import translator
from chatbot.games import UIS
from tests.chatbot.table import Table


def start_game(table: Table, game: str, user: str = "alice", bots: int = 2, options: str = "") -> Any:
    """``user`` and ``bots`` AI players at a new table of ``game``; the running match."""
    ui = UIS[game]
    name = ui.aliases[0] if ui.aliases else game
    table.say(user, f"uusi {name} {options}".strip())
    for _ in range(bots):
        table.say(user, "lisää botti")
    table.say(user, "aloita")
    match = table.match()
    if match is not None and match.status == "lobby":  # the table is small for this game: fill it
        table.say(user, "täytä")
        match = table.match()
    assert match is not None and match.status == "running", f"{game} did not start"
    return match


def leaks(core: Any, match_id: int, seat: int, body: str, ply: int | None = None) -> list[str]:
    """What ``body`` (a response or the page) shows that the viewer of ``seat`` may not know at the
    position after ``ply`` actions (the finished match's replay gives the state): an identifier the
    engine hides from the seat, or a card named in brackets that only another seat's private panel
    names (not the public table, a public event so far, nor the seat's own panel or events)."""
    match = core.repo.match(match_id)
    engine, ui = core.games[match.game], core.uis[match.game]
    replay = core.replays.replay_of(match)
    if ply is None:
        ply = replay.last
    state = replay.steps[ply][0]
    found = [f"hidden id {token}" for token in engine.hidden_tokens(state, seat) if token.strip('"') in body]
    t = translator("fi")
    names = tuple(s.name for s in match.seats)
    ctx = RenderContext(t, names, None, match.options)
    allowed = set(ui.cards_in(ui.render_table(engine.view(state, None), ctx)))
    own_ctx = RenderContext(t, names, seat, match.options)
    allowed |= set(ui.cards_in(ui.render_private(engine.view(state, seat), own_ctx) or ""))
    for _state, events in replay.steps[: ply + 1]:
        for line in ui.render_events([e for e in events if e.public], ctx):
            allowed |= set(ui.cards_in(line))
        for line in ui.render_events([e for e in events if e.to is not None and seat in e.to], own_ctx):
            allowed |= set(ui.cards_in(line))
    texts = _texts(body)
    shown = {card for text in texts for card in ui.cards_in(text)}
    lines = {line.strip() for text in texts for line in text.splitlines()}
    own = ui.render_private(engine.view(state, seat), own_ctx) or ""
    public = set(ui.render_table(engine.view(state, None), ctx).splitlines()) | set(own.splitlines())
    for other in range(len(names)):
        if other == seat:
            continue
        panel = (
            ui.render_private(engine.view(state, other), RenderContext(t, names, other, match.options)) or ""
        )
        found += [f"{names[other]}'s card [{card}]" for card in (set(ui.cards_in(panel)) - allowed) & shown]
        # a line of another seat's panel that names a card is theirs alone (leaks.py: private lines)
        secret = {x.strip() for x in panel.splitlines() if ui.cards_in(x) and x not in public}
        found += [f"{names[other]}'s line {x!r}" for x in secret & lines]
    return found


def _texts(body: str) -> list[str]:
    """The strings of a JSON body (each read alone: a JSON list's brackets are no card's), or the
    page's HTML as it is."""
    try:
        data = json.loads(body)
    except ValueError:
        return [body]
    out: list[str] = []

    def walk(x: Any) -> None:
        if isinstance(x, str):
            out.append(x)
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(data)
    return out
