"""Gnav in chat, through the real core and SQLite: the default table of one person and three AI players,
whole matches by buttons and by text, no hidden card in the group, the private panel, the matadors' calls
with their Finnish explanation, rules on request and refusals with the way forward."""

from __future__ import annotations

import random
import re

import pytest

from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import translator
from chatbot.games.gnav import UI
from chatbot.games.gnav.render import card_name
from chatbot.games.gnav.texts import REASON_TOPIC, REASONS, TOPIC_TEXT
from engines.gnav import ENGINE, Options
from tests.chatbot.table import GROUP, Table
from tests.golden.make_gnav import phrase

NAMES = ("Matti", "Liisa", "Pekka", "Ville")
FI = translator("fi")
EN = translator("en")
#: an engine card instance id ("n5.2", "cat.1"): renderers must print ranks, never these


def lobby(table: Table, *users: str, lang: str = "fi", options: str = "", bots: tuple[str, ...] = ()) -> None:
    """The table as seated: a smaller table than the usual four answers the fill question "as we are"."""
    words = {
        "fi": ("uusi gnav", "liity", "lisää botti", "aloita", "pelataan näin"),
        "en": ("new gnav", "join", "add bot", "start", "as we are"),
    }[lang]
    table.say(users[0], f"{words[0]} {options}".strip(), lang=lang)
    for user in users[1:]:
        table.say(user, words[1], lang=lang)
    for kind in bots:
        table.say(users[0], f"{words[2]} {kind}".strip(), lang=lang)
    table.say(users[0], words[3], lang=lang)
    if table.match() is not None and table.match().status == "lobby":
        table.say(users[0], words[4], lang=lang)


def state_of(table: Table):
    return ENGINE.load(table.match().state)


def finished(table: Table) -> bool:
    return any("🏆" in text for text in table.group_texts())


def seat_of(table: Table, user: str) -> int:
    return next(
        s.seat
        for s in table.match().seats
        if s.user_id is not None and table.repo.user_by_id(s.user_id).ext_id == user
    )


def fi_events(events, names=NAMES, seat=None) -> list[str]:
    return UI.render_events(events, RenderContext(FI, names, seat))


# --- the table ---------------------------------------------------------------------------------------


def test_new_gnav_and_start_seat_one_person_and_three_default_ai():
    table = Table(seed="gnav-default")
    lobby(table, "matti")
    seats = table.match().seats
    assert len(seats) == 4 and seats[0].user_id is not None
    assert [s.ai for s in seats[1:]] == [ENGINE.default_ai] * 3
    state = state_of(table)
    assert state.lives == (3, 3, 3, 3) and state.phase == "turn"
    text = table.group_texts()[-1]
    assert "🐦 Gnav (käkipeli) – jako 1" in text and text.count("❤️×3") == 4 and "jakaja" in text
    # the person is now on turn: keep/ask reveal nothing, so their buttons are in the group too
    group = [o for o in table.sent if o.chat_id == GROUP][-1]
    assert {b.label for row in group.buttons for b in row} <= {"Pidän", "Vaihdan", "Vaihdan pakasta"}
    assert group.buttons and "Korttisi: [" in table.private_texts("matti")[-1]


def test_a_strong_bot_can_be_added_and_options_come_in_finnish_and_english():
    table = Table(seed="gnav-strong")
    lobby(table, "matti", options="elämät=2", bots=("vahva",))
    seats = table.match().seats
    assert seats[1].ai == "strong" and len(seats) == 2  # played as we are: no filling
    assert state_of(table).lives == (2, 2)
    table.play_randomly(random.Random(1))
    assert finished(table)
    table = Table(seed="gnav-en-options")
    lobby(table, "alice", lang="en", options="lives=1 traditional=on")
    assert state_of(table).options == Options(lives=1, traditional_cat=True)


def test_whole_match_by_buttons_with_two_people():
    table = Table(seed="gnav-buttons")
    lobby(table, "matti", "liisa", bots=("",))
    table.play_randomly(random.Random(2))
    assert finished(table)
    final = [t for t in table.group_texts() if "🏁" in t][-1]
    assert "Ottelu on päättynyt" in final


def say_move(table: Table, rng: random.Random, lang: str) -> str:
    """The acting person types a legal move (the phrasings of the golden generator)."""
    user = table.acting_users()[0]
    state = state_of(table)
    seat = seat_of(table, user)
    legal = [ENGINE.notation(a) for a in ENGINE.legal_actions(state, seat)]
    wanted = rng.choice(legal)
    dealer = state.phase == "turn" and state.order[state.turn] == state.order[-1]
    before = table.match().version
    for _ in range(10):
        table.say(user, phrase(wanted, dealer, lang, rng), private=rng.random() < 0.5, lang=lang)
        if table.match() is None or table.match().version != before:
            return wanted
    raise AssertionError(f"no phrasing of {wanted} was understood")


@pytest.mark.parametrize("lang", ["fi", "en"])
def test_whole_match_by_text(lang):
    table = Table(seed=f"gnav-text-{lang}")
    lobby(
        table,
        "matti" if lang == "fi" else "alice",
        lang=lang,
        options="elämät=2" if lang == "fi" else "lives=2",
    )
    rng = random.Random(lang)
    for _ in range(300):
        if finished(table):
            break
        say_move(table, rng, lang)
    assert finished(table)
    assert any(("Voittaja" if lang == "fi" else "winner") in t for t in table.group_texts())


# --- hidden information ------------------------------------------------------------------------------


def test_group_texts_name_seats_only_for_an_exchange():
    state = ENGINE.new_game(4, "t", Options(), decks=[["n2", "n7", "n9", "n10"]], rotation=3)
    state, events = ENGINE.apply(state, 0, ENGINE.parse_notation("ask"))
    public = fi_events([e for e in events if e.public])
    assert public == ["Matti pyytää vaihtoa.", "Matti ja Liisa vaihtavat kortit."]
    table = UI.render_table(ENGINE.view(state, None), RenderContext(FI, NAMES))
    assert not UI.cards_in(table) and "▶ Vuoro: Liisa – pidä tai pyydä vaihtoa." in table


# --- the private panel ----------------------------------------------------------------------------------


def test_the_private_panel_shows_the_own_card_and_what_an_exchange_taught():
    state = ENGINE.new_game(4, "t", Options(), decks=[["n2", "n7", "n9", "n10"]], rotation=3)
    state, events = ENGINE.apply(state, 0, ENGINE.parse_notation("ask"))
    mine = [e for e in events if e.to == (0,)]
    assert fi_events(mine, seat=0) == ["Sinä ja Liisa vaihdoitte kortit: sait kortin [VII]."]
    panel = UI.render_private(ENGINE.view(state, 0), RenderContext(FI, NAMES, 0))
    assert "Korttisi: [VII]" in panel and "Tiedät: Liisa [II]" in panel and "Elämäsi: ❤️×3" in panel
    theirs = UI.render_private(ENGINE.view(state, 1), RenderContext(FI, NAMES, 1))
    assert "Korttisi: [II]" in theirs and "Tiedät: Matti [VII]" in theirs
    assert "pyyntö menee ensin vasemmalle naapurillesi, joka on nyt Pekka" in theirs
    dealer = UI.render_private(ENGINE.view(state, 3), RenderContext(FI, NAMES, 3))
    assert "Korttisi: [X]" in dealer and "Tiedät" not in dealer and "Jakajana" in dealer


def test_a_person_in_an_exchange_gets_the_card_and_the_knowledge_in_private():
    table = Table(seed="gnav-private")
    lobby(table, "matti")
    for _ in range(200):
        if finished(table) or any("vaihdoitte kortit" in t for t in table.private_texts("matti")):
            break
        prompt = table.prompt_for("matti")
        ask = next(b.data for row in prompt.buttons for b in row if b.data.endswith(":ask"))
        table.press("matti", ask)
    swap = next(t for t in table.private_texts("matti") if "vaihdoitte kortit" in t)
    partner = re.search(r"Sinä ja (.+?) vaihdoitte kortit: sait kortin (\[[^\]]+\])", swap)
    assert partner and f"Korttisi: {partner.group(2)}" in swap
    assert re.search(rf"Tiedät: .*{re.escape(partner.group(1))} \[", swap)


def test_settlement_lines_tell_who_lost_and_why():
    state = ENGINE.new_game(2, "t", Options(lives=2), decks=[["fool", "n5"], ["n3", "n4"]], rotation=1)
    state, _ = ENGINE.apply(state, 0, ENGINE.parse_notation("keep"))
    state, events = ENGINE.apply(state, 1, ENGINE.parse_notation("keep"))
    lines = fi_events([e for e in events if e.public], names=NAMES[:2])
    assert "Kortit käännetään: Matti [🃏 narri], Liisa [V]" in lines
    assert "💔 Matti: narri – menettää elämän (1 elämä jäljellä)." in lines
    assert "💔 Liisa: alin kortti narrin jälkeen, [V] – menettää elämän (1 elämä jäljellä)." in lines
    assert "😴 Matti jäi narrin kanssa henkiin ja lepää seuraavan jaon." in lines
    # with only two players, the fool's rest leaves one: that deal is skipped (spec G18)
    assert any(line.startswith("Jako 2 jätetään väliin") for line in lines)


def test_a_resting_or_eliminated_seat_sees_why():
    state = ENGINE.new_game(3, "t", Options(lives=2), decks=[["fool", "n5", "n6"]], rotation=2)
    for _ in range(3):
        state, _ = ENGINE.apply(state, ENGINE.to_act(state)[0], ENGINE.parse_notation("keep"))
    assert state.resting == (0,)
    assert "😴 Lepäät tämän jaon" in UI.render_private(ENGINE.view(state, 0), RenderContext(FI, NAMES, 0))
    assert "Matti ❤️×1 · 😴 lepää" in UI.render_table(ENGINE.view(state, None), RenderContext(FI, NAMES))
    state = ENGINE.new_game(3, "t", Options(lives=1), decks=[["n2", "n5", "n6"]], rotation=2)
    for _ in range(3):
        state, _ = ENGINE.apply(state, ENGINE.to_act(state)[0], ENGINE.parse_notation("keep"))
    assert "Olet pudonnut ottelusta" in UI.render_private(ENGINE.view(state, 0), RenderContext(FI, NAMES, 0))
    assert "Matti ✖ · pudonnut" in UI.render_table(ENGINE.view(state, None), RenderContext(FI, NAMES))


# --- the matadors' calls ---------------------------------------------------------------------------------


def _deal(cards, *moves, **options):
    """Play ``moves`` (notations of the seats on turn) in a 4-seat deal with the given cards (order 0-3,
    dealer 3, then the stock top down); the public lines of the last move, in Finnish and English."""
    state = ENGINE.new_game(4, "calls", Options(**options), decks=[cards], rotation=3)
    events: tuple = ()
    for move in moves:
        state, events = ENGINE.apply(state, ENGINE.to_act(state)[0], ENGINE.parse_notation(move))
    public = [e for e in events if e.public]
    return fi_events(public), UI.render_events(public, RenderContext(EN, NAMES))


def test_the_matadors_calls_come_with_their_finnish_explanation():
    fi, en = _deal(["n5", "dragoon", "n7", "n8"], "ask")
    assert (
        "”Hogg av!” – Hakkaa poikki! Liisa paljastaa rakuunan. Matti menettää elämän (2 elämää jäljellä) ja "
        "pitää korttinsa." in fi
    )
    assert (
        "“Hogg av!” – Chop! Liisa shows a dragoon. Matti loses a life (2 lives left) and keeps their card."
        in en
    )
    fi, en = _deal(["n5", "cuckoo", "n7", "n8"], "ask")
    assert (
        "”Stå for gjøk!” – Seis, käki! Liisa paljastaa käen. Jako päättyy heti, ja Matti pitää korttinsa."
        in fi
    )
    assert any(line.startswith("Kortit käännetään: Matti [V], Liisa [🐦 käki]") for line in fi)
    fi, _ = _deal(["n5", "horse", "n7", "n8"], "ask")
    assert fi[1] == "”Hest forbi!” – Hevonen ohi! Liisa paljastaa hevosen, ja pyyntö jatkuu eteenpäin."
    assert fi[2] == "Matti ja Pekka vaihtavat kortit."
    fi, _ = _deal(["n5", "house", "n7", "n8"], "ask")
    assert fi[1] == "”Hus forbi!” – Talo ohi! Liisa paljastaa talon, ja pyyntö jatkuu eteenpäin."


def test_the_cat_undoes_the_swaps_unless_the_traditional_rule_is_on():
    fi, en = _deal(["n5", "n3", "cat", "n8"], "ask", "ask")
    assert fi[1] == (
        "”Kiss!” – Kis kis! Pekka paljastaa kissan. Liisa menettää elämän (2 elämää jäljellä), ja "
        "kaikki jaon vaihdot perutaan."
    )
    assert fi[2] == "Perutut vaihdot: Matti ↔ Liisa."
    assert en[1].startswith("“Kiss!” – Puss! Pekka shows a cat.")
    fi, _ = _deal(["n5", "n3", "cat", "n8"], "ask", "ask", traditional_cat=True)
    assert (
        fi[1]
        == "”Kiss!” – Kis kis! Pekka paljastaa kissan. Liisa menettää elämän (2 elämää jäljellä) ja pitää "
        "korttinsa."
    )
    # the card each swapper gets back is told in private
    state = ENGINE.new_game(4, "calls", Options(), decks=[["n5", "n3", "cat", "n8"]], rotation=3)
    state, _ = ENGINE.apply(state, 0, ENGINE.parse_notation("ask"))
    state, events = ENGINE.apply(state, 1, ENGINE.parse_notation("ask"))
    assert fi_events([e for e in events if e.to == (0,)], seat=0) == [
        "Kissa perui vaihdot: korttisi on taas [V]."
    ]


def test_the_stock_answers_the_dealer_with_the_same_calls():
    fi, _ = _deal(["n5", "n6", "n7", "n8", "horse", "house", "dragoon"], "keep", "keep", "keep", "ask")
    assert fi[1:4] == [
        "Pakasta nousee hevonen – ”Hest forbi!” Hevonen ohi! Nostetaan uusi kortti.",
        "Pakasta nousee talo – ”Hus forbi!” Talo ohi! Nostetaan uusi kortti.",
        "Pakasta nousee rakuuna – ”Hogg av!” Hakkaa poikki! Ville menettää elämän (2 elämää jäljellä) ja pitää "
        "korttinsa.",
    ]
    fi, _ = _deal(["n5", "n6", "n7", "n8", "cuckoo"], "keep", "keep", "keep", "ask")
    assert (
        fi[1]
        == "Pakasta nousee käki – ”Stå for gjøk!” Seis, käki! Jako päättyy heti, ja Ville pitää korttinsa."
    )
    fi, _ = _deal(["n5", "n6", "n7", "n8", "n2"], "keep", "keep", "keep", "ask")
    assert fi[1] == "Ville vaihtaa pakan päällimmäiseen korttiin."
    assert "[II]" in fi[2]  # the card drawn is shown only when all cards are turned up


def test_calls_in_chat_carry_the_finnish_words():
    """Through the chat: every call posted in the group is followed by its Finnish call and effect."""
    pairs = {
        "Hogg av!": "Hakkaa poikki!",
        "Kiss!": "Kis kis!",
        "Hest forbi!": "Hevonen ohi!",
        "Hus forbi!": "Talo ohi!",
        "Stå for gjøk!": "Seis, käki!",
    }
    seen = set()
    for game in range(6):
        table = Table(seed=f"gnav-calls{game}")
        lobby(table, "matti")
        table.play_randomly(random.Random(game))
        for text in table.group_texts():
            for line in text.splitlines():
                for call, finnish in pairs.items():
                    if f"”{call}”" in line:
                        assert finnish in line, line
                        seen.add(call)
    assert len(seen) >= 3


def test_a_fool_must_knock_in_private_when_fools_are_not_shown_automatically():
    state = ENGINE.new_game(
        4, "k", Options(fool_auto_reveal=False), decks=[["n5", "fool", "n7", "n8"]], rotation=3
    )
    public = ENGINE.view(state, None)
    assert UI.group_actions(("knock",), public) == ()
    assert UI.group_actions(("keep", "ask"), public) == ("keep", "ask")
    assert "Narrin saanut pelaaja koputtaa ensin" in UI.render_table(public, RenderContext(FI, NAMES))
    assert UI.action_label("knock", ENGINE.view(state, 1), RenderContext(FI, NAMES, 1)) == "Kop kop"
    assert UI.idle_action(("knock",), None) == "knock" and UI.idle_action(("keep", "ask"), None) is None
    state, events = ENGINE.apply(state, 1, ENGINE.parse_notation("knock"))
    assert fi_events(events) == ["Liisa koputtaa: ”Kop kop!” Kortti on [🃏 narri]."]


# --- buttons, rules and refusals -----------------------------------------------------------------------


def test_button_labels_follow_the_seat():
    state = ENGINE.new_game(4, "t", Options(), decks=[["cat", "n7", "n9", "n10"]], rotation=3)
    ctx = RenderContext(FI, NAMES, 0)
    assert UI.button_rows(("keep", "ask"), ENGINE.view(state, 0), ctx) == [
        [("Pidän", "keep")],
        [("Vaihdan (matadori lähtee)", "ask")],
    ]
    # the group's buttons come from the public view: nothing tells the card
    assert UI.action_label("ask", ENGINE.view(state, None), RenderContext(FI, NAMES)) == "Vaihdan"
    for _ in range(3):
        state, _ = ENGINE.apply(state, ENGINE.to_act(state)[0], ENGINE.parse_notation("keep"))
    assert UI.action_label("ask", ENGINE.view(state, None), RenderContext(EN, NAMES)) == "Swap with the stock"


def test_rules_on_request_in_both_languages():
    table = Table(seed="gnav-rules")
    out = table.say("matti", "mitä kissa tekee?")
    assert "Kissa torjuu vaihdon huudolla ”Kis kis!”" in out[0].text
    out = table.say("matti", "säännöt gnav")
    assert (
        "Kaikilla on aluksi yhtä monta elämää" in out[0].text
        and "Kysy mistä tahansa säännöstä" in out[0].text
    )
    lobby(table, "matti")
    out = table.say("matti", "miten lepo toimii?")
    assert "lepää seuraavan jaon" in out[0].text
    out = table.say("matti", "mikä on rakuuna?")
    assert "Hakkaa poikki!" in out[0].text
    out = table.say("alice", "what does the cuckoo do?", lang="en")
    assert "“Stå for gjøk!” (stop, cuckoo!)" in out[0].text


def test_every_reason_has_finnish_text_and_the_topics_of_spec_9():
    ctx = RenderContext(FI, NAMES, 0)
    codes = {*REASONS, "not_your_turn", "ask_goes_left"}
    for code in codes:
        text = UI.reason_text(code, {"turn": 2, "responder": 1}, ctx)
        english = UI.reason_text(code, {"turn": 2, "responder": 1}, RenderContext(EN, NAMES, 0))
        assert text and text != english, code
    for code, topic in REASON_TOPIC.items():
        assert FI.gettext(TOPIC_TEXT[topic]) in UI.reason_text(code, {}, ctx)
    assert UI.reason_text("not_your_turn", {"turn": 2}, ctx).startswith("Vuorossa on nyt Pekka.")


def test_refusals_in_chat_name_the_reason_and_the_way_forward():
    table = Table(seed="gnav-refuse")
    lobby(table, "matti")
    state = state_of(table)
    dealer = state.order[state.turn] == state.order[-1]
    out = table.say("matti", "otan pakasta" if not dealer else "kop kop", addressed=True)
    expected = "Vain jakaja voi vaihtaa pakasta." if not dealer else "Vain narrin saanut pelaaja koputtaa."
    assert expected in out[0].text and "Voit pitää korttisi tai pyytää vaihtoa." in out[0].text
    assert state_of(table).ply == state.ply  # nothing changed
    out = table.say("matti", "seuraava jako", addressed=True)
    assert "alkaa itsestään" in out[0].text


def test_a_person_waiting_for_their_turn_gets_the_cores_short_answer():
    """The one refusal the parser still works out for a seat of the deal (see the parser's docstring): the
    core answers it with one line, where an engine refusal would add the turn rule and a hint."""
    table = Table(seed="gnav-waiting")
    lobby(table, "matti", "liisa")
    state = state_of(table)
    waiting = next(u for u in ("matti", "liisa") if u not in table.acting_users())
    for text in ("vaihdan", "pidän", "koputan"):
        assert not table.say(waiting, text)  # not the move of the player to act: talk (issue #27)
        out = table.say(waiting, text, addressed=True)
        assert [o.text for o in out] == [
            f"Nyt ei ole sinun vuorosi. Vuorossa: {table.acting_users()[0].capitalize()}."
        ]
    assert state_of(table).ply == state.ply


def test_a_card_name_is_a_rank_never_an_instance_id():
    assert card_name("n5.2", FI) == "[V]" and card_name("zero", FI) == "[0]"
    assert card_name("dragoon.1", FI) == "[⚔️ rakuuna]" and card_name("dragoon", EN) == "[⚔️ dragoon]"
    assert UI.cards_in("Kortit käännetään: Matti [V], Liisa [🐦 käki]") == ["V", "käki"]


# --- the rename from "cardavia" ---------------------------------------------------------------------------


def test_match_stored_under_the_old_id_continues(tmp_path):
    """A match stored before the engine id became ``gnav`` (its ``game`` column says "cardavia") goes on
    after the bot starts again on the same database: migration 0003 rewrites the id, no runtime alias."""
    from alembic import command

    from chatbot.storage.repository import alembic_config

    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    first = Table(url=url, seed="gnav-old-id")
    lobby(first, "matti")
    with first.repo.engine.begin() as connection:
        # as a database written before the rename: every later migration undone, down to 0002
        # (0003's downgrade writes "cardavia" back)
        command.downgrade(alembic_config(connection), "0002")
    before = first.match()
    assert before.game == "cardavia"
    press = next(b.data for row in first.prompt_for("matti").buttons for b in row)
    table = Table(url=url, seed="gnav-old-id")  # the repository reopened, as after a restart
    table.press("matti", press)
    assert table.match().version > before.version
    table.play_randomly(random.Random(7))
    assert finished(table)
    assert table.repo.match(before.id).game == "gnav"


def test_jaa_on_ones_own_turn_asks_and_keeps_nothing():
    """Issue #15: "jaa" (deal) typed on one's own turn once applied *keep*, read as a folded *jää*. Now the
    bot asks in words, with the two buttons, and nothing changes until the player chooses."""
    table = Table(seed="gnav-jaa")
    lobby(table, "matti", bots=("botti",))
    for _ in range(20):
        if "matti" in table.acting_users() or finished(table):
            break
        table.run_due()
    assert table.acting_users() == ["matti"]
    before = table.match().version
    out = table.say("matti", "jaa", private=True)
    # the dealer's other choice is the stock
    assert out[0].text in (
        "Haluatko pitää korttisi vai pyytää vaihtoa?",
        "Haluatko pitää korttisi vai vaihtaa pakasta?",
    )
    assert [b.data.split(":")[-1] for row in out[0].buttons for b in row] == ["keep", "ask"]
    assert table.match().version == before
    table.say("matti", "pidän", private=True)
    assert table.match().version > before
