"""Coloretto Amazonas through the real core and SQLite: whole games by buttons and by text, hidden
hands kept out of the group, gift answers in the group, rule explanations and refusals."""

from __future__ import annotations

import random
import re

import pytest

from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import translator
from chatbot.games.coloretto_amazonas import UI
from chatbot.games.coloretto_amazonas.render import ANIMALS
from chatbot.games.coloretto_amazonas.texts import REASONS, TOPICS
from engines.coloretto_amazonas import ENGINE
from tests.chatbot.table import GROUP, Table
from tests.golden.make_coloretto import phrase


def lobby(table: Table, *users: str, bots: int = 0, lang: str = "fi") -> None:
    words = {
        "fi": ("uusi coloretto", "liity", "lisää botti", "aloita"),
        "en": ("new coloretto", "join", "add bot", "start"),
    }[lang]
    table.say(users[0], words[0], lang=lang)
    for user in users[1:]:
        table.say(user, words[1], lang=lang)
    for _ in range(bots):
        table.say(users[0], words[2], lang=lang)
    table.say(users[0], words[3], lang=lang)


def state_of(table: Table):
    return ENGINE.load(table.match().state)


def seat_of(table: Table, user: str) -> int:
    return next(
        s.seat
        for s in table.match().seats
        if s.user_id is not None and table.repo.user_by_id(s.user_id).ext_id == user
    )


def finished(table: Table) -> bool:
    return any("🏆" in text for text in table.group_texts())


def say_move(table: Table, rng: random.Random, lang: str, choose=None) -> str:
    """The acting person says a legal move in words (the first phrasing the parser takes)."""
    user = table.acting_users()[0]
    state, match = state_of(table), table.match()
    seat = seat_of(table, user)
    legal = [ENGINE.notation(a) for a in ENGINE.legal_actions(state, seat)]
    wanted = choose(state, seat, legal) if choose else rng.choice(legal)
    names = [s.name for s in match.seats]
    before = match.version
    for text in phrase(wanted, ENGINE.view(state, seat), names, lang, rng):
        table.say(user, text, private=rng.random() < 0.5, lang=lang)
        if table.match() is None or table.match().version != before:
            return wanted
    raise AssertionError(f"no phrasing of {wanted} was understood")


# --- whole games ------------------------------------------------------------------------------------


def test_whole_game_by_buttons_three_players():
    table = Table(seed="co-buttons")
    lobby(table, "matti", "liisa", "pekka")
    table.play_randomly(random.Random(3))
    assert finished(table)
    final = [t for t in table.group_texts() if "🏁" in t][-1]
    assert final.count("=") == 3 and "Käteen jääneet kortit eivät tuo pisteitä." in final


@pytest.mark.parametrize(
    ("lang", "users", "bots"), [("fi", ("matti", "liisa"), 0), ("en", ("alice", "bob"), 1)]
)
def test_whole_game_by_text(lang, users, bots):
    table = Table(seed=f"co-text-{lang}")
    lobby(table, *users, bots=bots, lang=lang)
    rng = random.Random(lang)
    for _ in range(400):
        if finished(table):
            break
        say_move(table, rng, lang)
    assert finished(table)
    winner_line = next(t for t in table.group_texts() if "🏆" in t)
    assert ("Voittaja" if lang == "fi" else "winner") in winner_line


# --- hidden information ------------------------------------------------------------------------------


def test_the_private_panel_numbers_the_hand_and_the_group_shows_only_its_size():
    table = Table(seed="co-panel")
    lobby(table, "matti", "liisa")
    state = state_of(table)
    for user in ("matti", "liisa"):
        seat = seat_of(table, user)
        panel = [t for t in table.private_texts(user) if "Kätesi:" in t][-1]
        hand = [c[:2] for c in ENGINE.view(state, seat).hand]
        names = [translator("fi").gettext(ANIMALS[k]) for k in hand]
        for number, name in enumerate(names, 1):
            assert re.search(rf"^{number}\. \[\S+ {name}\]", panel, re.M), panel
    table_text = table.group_texts()[-1]
    assert "kädessä 3 korttia" in table_text and "Vuoro:" in table_text


# --- gifts: answered in the group ------------------------------------------------------------------


def _refusable_gift(state, seat, legal):
    """A gift the receiver may refuse (its animal is in their row and a neighbour row has a card)."""
    from engines.coloretto_amazonas.rules import may_refuse

    for notation in legal:
        parts = notation.split()
        if parts[0] == "give" and may_refuse(state.seats[int(parts[2][4:])], parts[1]) is None:
            return notation
    plays = [n for n in legal if n.startswith("play")]
    return random.Random(state.ply).choice(plays or legal)


def test_a_gift_is_answered_in_the_group_by_text_and_by_its_buttons():
    table = Table(seed="co-gift")
    lobby(table, "matti", "liisa")
    rng = random.Random(11)
    for _ in range(300):
        if state_of(table).phase == "GIFT":
            break
        say_move(table, rng, "fi", choose=_refusable_gift)
    state = state_of(table)
    assert state.phase == "GIFT"
    group = [o for o in table.sent if o.chat_id == GROUP][-1]
    data = [b.data for row in group.buttons for b in row]
    assert any(d.endswith(":accept") for d in data) and any(":refuse " in d for d in data)
    assert "päättää" in group.text  # the status line names the receiver's decision
    receiver = table.acting_users()[0]
    # A gift answer reveals nothing: the bot may list the options in the group.
    assert not table.say(receiver, "hmm, mitähän tekisin")  # asked of the friends (issue #27)
    out = table.say(receiver, "hmm, mitähän tekisin", addressed=True)
    assert out and out[0].chat_id == GROUP and "Voit ottaa kortin vastaan tai kieltäytyä" in out[0].text
    out = table.say(receiver, "hyväksyn", private=False)
    assert state_of(table).phase != "GIFT" or state_of(table).ply > state.ply
    assert any("otti vastaan kortin" in o.text for o in out if o.chat_id == GROUP)


# --- refusals and rules --------------------------------------------------------------------------------


def test_a_refused_command_names_the_reason_in_private_and_changes_nothing():
    table = Table(seed="co-refuse")
    lobby(table, "matti", "liisa")
    acting = table.acting_users()[0]
    other = "liisa" if acting == "matti" else "matti"
    version = table.match().version
    # said to the bot in the group, answered in private: the hint lists what is in the hand
    assert not table.say(acting, "anna kilpikonna toiselle")  # among friends: talk (issue #27)
    out = table.say(acting, "anna kilpikonna toiselle", addressed=True)
    assert out[0].private and "ei ole sellaista eläintä" in out[0].text
    out = table.say(acting, "anna kilpikonna toiselle", private=True)
    assert (
        "ei ole sellaista eläintä" in out[0].text
        and "Voit pelata kortin riviisi tai antaa kortin toiselle pelaajalle." in out[0].text
    )
    out = table.say(other, "pelaan tukaanin", addressed=True)
    assert "ei ole sinun vuorosi" in out[0].text.casefold()
    out = table.say(acting, "hyväksyn", addressed=True)
    assert "Kukaan ei ole antanut sinulle korttia" in out[0].text
    assert table.match().version == version


def test_rules_on_request_in_both_languages():
    table = Table(seed="co-rules")
    lobby(table, "matti", "liisa")
    out = table.say("liisa", "miten suojakortti toimii?")
    assert "suojakortin" in out[0].text and "Coloretto" in out[0].text
    out = table.say("liisa", "mitä tapahtuu kun rivi täyttyy?")
    assert "valmiiksi pinoksi" in out[0].text
    out = table.say("matti", "how does refusing work?", lang="en")
    assert "If you refuse" in out[0].text
    out = table.say("matti", "rules", lang="en")
    assert "explorers" in out[0].text


@pytest.mark.parametrize("lang", ["fi", "en"])
def test_every_rule_topic_is_found_by_its_title_and_by_a_question(lang):
    from chatbot.core.explain import find_topics
    from chatbot.core.nlp import default_lemmatizer

    t = translator(lang)
    for topic in TOPICS:  # the titles are what the "rules" overview offers as examples
        found = find_topics(t.gettext(topic.title), [UI], default_lemmatizer(), prefer=UI.game_id)
        assert found and found[0][1].key == topic.key, (t.gettext(topic.title), [x.key for _, x in found])
    questions = {
        "fi": {
            "miten suojakortti toimii": "protection",
            "mitä jos kieltäydyn": "gift.refuse",
            "paljonko pisteitä saa": "scoring",
            "milloin peli loppuu": "game_end",
            "voinko katsoa pinoja": "stacks_hidden",
            "kuinka annan kortin": "action.give",
        },
        "en": {
            "how does scoring work": "scoring",
            "when does the game end": "game_end",
            "what is a duplicate": "duplicate",
            "can I look at the stacks": "stacks_hidden",
            "what happens when a row is full": "full_row",
            "how do I give a card": "action.give",
        },
    }[lang]
    for question, key in questions.items():
        found = find_topics(question, [UI], default_lemmatizer(), prefer=UI.game_id)
        assert found and found[0][1].key == f"coloretto_amazonas.{key}", question


def test_every_text_is_translated_and_every_reason_has_a_way_forward():
    fi, en = translator("fi"), translator("en")
    for topic in TOPICS:
        assert fi.gettext(topic.text) != topic.text, topic.key
        assert fi.gettext(topic.title) != topic.title or topic.title == "bonus", topic.key
    ctx = RenderContext(fi, ("Matti", "Liisa", "Pekka"), 0)
    codes = [
        "protected",
        "give_self",
        "refuse_no_duplicate",
        "refuse_no_neighbour",
        "not_neighbour",
        "not_in_hand",
        "wrong_row",
        "not_your_turn",
        "gift_pending",
        "no_such_seat",
        "no_gift",
        "not_in_row",
        "game_over",
        "unknown_action",
        "no_such_position",
        "no_colour_in_hand",
        "unknown_animal",
    ]
    params = {"seat": 2, "kind": "G1", "remove": "P1", "colour": "R", "count": 2, "position": 3}
    texts = {code: UI.reason_text(code, params, ctx) for code in codes}
    assert len(set(texts.values())) == len(codes)  # no code falls back to a generic text
    assert "Pekka" in texts["protected"] and "vihreään riviin" in texts["wrong_row"]
    assert "ruskea" in texts["not_neighbour"] and "1–2" in texts["no_such_position"]
    assert set(REASONS) <= set(codes)
    assert UI.reason_text("give_self", {}, RenderContext(en, ("A", "B"))).startswith("You cannot give")
