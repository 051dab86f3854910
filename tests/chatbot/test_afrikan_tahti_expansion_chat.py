"""Afrikan Tähti with Retkikunnat through the real core and SQLite: the lobby and character choice,
a whole match by buttons (the smart AI's choice for each person), no hand card ever in a group
message, a reaction window that passes when its time runs out, card explanations, and every
phase, prompt and event rendered in both languages."""

from __future__ import annotations

import collections

from chatbot.compose import new_core
from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import translator
from chatbot.core.types import TABLE
from chatbot.games.afrikan_tahti import UI
from chatbot.games.afrikan_tahti.cards_generated import CHARACTERS, EXPEDITION_CARDS
from chatbot.games.afrikan_tahti.names import card_name
from chatbot.games.afrikan_tahti.texts import EXPANSION_REASONS
from engines.afrikan_tahti import ENGINE
from engines.contract import rng_for
from tests.chatbot.table import GROUP, Table

PEOPLE = ("anna", "bertta", "ceder")
NAMES = ("Anna", "Bertta", "Ceder", "Botti")


def start(table: Table, *users: str, options: str = "pikapeli=kyllä") -> None:
    table.say(users[0], f"uusi afrikan tähti {options}".strip())
    for user in users[1:]:
        table.say(user, "liity")
    table.say(users[0], "aloita")


def state_of(table: Table):
    return ENGINE.load(table.match().state)


def user_seat(table: Table, user: str) -> int:
    return next(
        s.seat
        for s in table.match().seats
        if s.user_id is not None and table.repo.user_by_id(s.user_id).ext_id == user
    )


def secret_names(state) -> set[str]:
    """Finnish and English names of hand cards some seat holds that are public nowhere."""
    public = ENGINE.view(state, None).x
    shown = {c.split("#")[0] for _deck, pile in public.discards for c in pile} | {
        c.split("#")[0] for c in public.resolving
    }
    names: set[str] = set()
    for seat in range(len(state.pawns)):
        for inst in ENGINE.view(state, seat).x.hand:
            if inst.split("#")[0] not in shown:
                names |= {card_name(inst, translator(lang)) for lang in ("fi", "en")}
    return names


def press_smart(table: Table, user: str) -> None:
    state = state_of(table)
    seat = user_seat(table, user)
    legal = ENGINE.legal_actions(state, seat)
    wanted = ENGINE.notation(
        ENGINE.ai_action("smart", ENGINE.view(state, seat), legal, rng_for(state.seed, state.ply, "test"))
    )
    prompt = table.prompt_for(user)
    assert prompt is not None
    datas = [b.data for row in prompt.buttons for b in row]
    version = table.match().version
    data = next((d for d in datas if d.split(":", 2)[2] == wanted and d.split(":")[1] == str(version)), None)
    if data is None:  # an offer or a choice that is typed, not a button
        data = f"{table.match().id}:{version}:{wanted}"
    table.press(user, data)


def test_character_choice_and_a_whole_match_by_buttons_without_leaking_a_hand():
    table = Table(seed="retki")
    start(table, *PEOPLE)
    first = table.group_texts()[-1]
    assert "hahmo" in first.casefold()
    prompt = table.prompt_for(table.acting_users()[0])
    labels = [b.label for row in prompt.buttons for b in row]
    assert any(CHARACTERS["adventurer"][0] in lab or "Seikkailija" in lab for lab in labels)
    kinds: collections.Counter[str] = collections.Counter()
    for _ in range(3000):
        if table.match() is None:
            break  # the match is over: the room has no active match
        state = state_of(table)
        secret = secret_names(state)
        prompt = ENGINE.view(state, None).x.prompt
        if prompt is not None:
            kinds[prompt.kind] += 1
        before = len(table.sent)
        users = table.acting_users()
        assert users, "a human seat must be acting"
        press_smart(table, users[0])
        for out in table.sent[before:]:
            if out.chat_id == GROUP:
                body = "\n".join(line for line in out.text.splitlines() if not line.startswith("⏳"))
                after = secret_names(state_of(table)) if table.match() else secret
                leaked = {n for n in secret & after if n in body}
                assert not leaked, (leaked, out.text)
                assert not set(UI.cards_in(body)) & secret & after, out.text
                for row in out.buttons:
                    assert not any(b.data.split(":", 2)[2].startswith(("play ", "offer ")) for b in row)
    assert table.match() is None, "the match did not end"
    assert "🏆" in "\n".join(table.group_texts())
    assert kinds  # some prompt (a window, a danger, a choice) was answered on the way


def test_a_reaction_window_passes_when_its_time_runs_out():
    now = [1000.0]
    table = Table(seed="ikkuna")
    table.core = new_core(table.repo, seed="ikkuna", clock=lambda: now[0], remind_after=600, act_after=1800)
    start(table, *PEOPLE)
    for _ in range(3000):
        state = state_of(table)
        prompt = ENGINE.view(state, None).x.prompt
        if prompt is not None and prompt.kind == "window":
            break
        press_smart(table, table.acting_users()[0])
    else:
        raise AssertionError("no reaction window opened")
    public = ENGINE.view(state, None)
    assert UI.deadline(public) == 30
    version = table.match().version
    now[0] += 10
    assert not table.core.tick()  # not yet
    now[0] += 25
    out = table.core.tick()
    assert table.match().version > version
    # the group hears only that time is up: naming who could have answered might tell a hand; and
    # it hears it on the table, not as a message of its own (issue #28)
    group = [o.text for o in out if o.chat_id is not None]
    assert "⏰ Vastausaika päättyi." not in group
    tables = [o.text for o in out if o.chat_id is not None and o.role == TABLE]
    assert "▸ ⏰ Vastausaika päättyi." in tables[0].splitlines()
    assert not any("ei vastannut ajoissa" in text or "pelasin vuoron" in text for text in group)
    after = ENGINE.view(state_of(table), None).x.prompt
    assert after is None or after != prompt


def test_cards_and_characters_are_explained_in_both_languages():
    table = Table(seed="selitys")
    out = table.say("anna", "mitä rahavyö tekee?")
    fi = translator("fi")
    assert any(fi.gettext(EXPEDITION_CARDS["money_belt"][1]) in o.text for o in out)
    out = table.say("anna", "what does the rifle do?", lang="en")
    assert any(EXPEDITION_CARDS["rifle"][1] in o.text for o in out)
    out = table.say("anna", "mitä seikkailija osaa?")
    assert any(fi.gettext(CHARACTERS["adventurer"][1]) in o.text for o in out)
    out = table.say("anna", "miten sadekausi toimii?")
    assert any("Sadekauden aikana" in o.text for o in out)


def test_every_phase_prompt_and_event_renders_in_both_languages():
    unknown: collections.Counter[str] = collections.Counter()
    for lang in ("fi", "en"):
        t = translator(lang)
        state = ENGINE.new_game(4, f"render-{lang}", ENGINE.Options(quick_game=True))
        events = list(ENGINE.start_events(state))
        for _ in range(2500):
            for e in events:
                seat = e.to[0] if e.to else None
                for line in UI.render_events([e], RenderContext(t, NAMES, seat)):
                    label = e.code.replace("_", " ")
                    if line == f"({label})" or line.endswith(f": {label}"):  # the generic fallback
                        unknown[e.code] += 1
            public = ENGINE.view(state, None)
            assert UI.render_table(public, RenderContext(t, NAMES))
            if ENGINE.outcome(state) is not None:
                break
            seat = ENGINE.to_act(state)[0]
            view = ENGINE.view(state, seat)
            assert UI.render_private(view, RenderContext(t, NAMES, seat))
            legal = ENGINE.legal_actions(state, seat)
            notations = [ENGINE.notation(a) for a in legal]
            for row in UI.button_rows(notations, view, RenderContext(t, NAMES, seat)):
                for label, notation in row:
                    assert label != notation, notation
            group = UI.group_actions(notations, public)
            assert not any(n.startswith(("play ", "offer ")) for n in group)
            action = ENGINE.ai_action("smart", view, legal, ENGINE.ai_rng(state, seat))
            state, events = ENGINE.apply(state, seat, action)
    assert not unknown, unknown


def test_every_new_reason_code_has_a_text_in_finnish():
    fi = translator("fi")
    ctx = RenderContext(fi, NAMES, 0)
    for code, text in EXPANSION_REASONS.items():
        assert UI.reason_text(code, {}, ctx) == fi.gettext(text) != text, code


def test_cards_in_finds_the_card_names_a_text_carries():
    """Cards are named plainly, not in brackets: the UI's own finder (for the no-leak checks) finds
    them in either language, a longer name as one."""
    fi, en = translator("fi"), translator("en")
    text = f"🃏 Kätesi: {card_name('sabotage', fi)}, {card_name('rifle', fi)} · {card_name('doctor', en)}"
    assert UI.cards_in(text) == [card_name("sabotage", fi), card_name("rifle", fi), card_name("doctor", en)]
    assert UI.cards_in("⭐ Afrikan tähti – kierros 1\n🔴 Anna: Kairossa · 400 £") == []


def test_an_ai_seat_answers_a_reaction_window_at_once():
    """AI moves are paced (``ai_delay``), but an AI seat in an open reaction window answers at once:
    with the clock standing still, no window ever waits for a bot, only for people."""
    now = [1000.0]
    table = Table(seed="botti-ikkuna")
    table.core = new_core(
        table.repo, seed="botti-ikkuna", clock=lambda: now[0], remind_after=600, act_after=1800, ai_delay=5.0
    )
    table.say("anna", "uusi afrikan tähti pikapeli=kyllä")
    table.say("bertta", "liity")
    table.say("anna", "lisää botti")
    table.say("anna", "lisää botti")
    table.say("anna", "aloita")
    match = table.match()
    bots = {s.seat for s in match.seats if s.user_id is None}
    assert len(bots) == 2
    asked, seen = 0, 0
    for _ in range(4000):
        if table.match() is None or asked:
            break
        state = state_of(table)
        prompt = ENGINE.view(state, None).x.prompt
        if prompt is not None and prompt.kind == "window":
            assert not bots & set(ENGINE.to_act(state)), "a bot keeps a reaction window waiting"
        users = table.acting_users()
        if users:
            press_smart(table, users[0])
        else:
            now[0] += 5.0  # a bot's paced turn
            table.run_due()
        for rec in table.repo.actions(match.id, since_ply=seen):
            seen = max(seen, rec.ply)
            asked += sum(
                1 for e in rec.events if e["code"] == "window" and bots & set(dict(e["params"])["seats"])
            )
    assert asked, "no reaction window asked a bot"
