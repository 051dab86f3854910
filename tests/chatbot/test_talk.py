"""Talking with the bot in natural words (issue #15): meta commands as players write them, chat that
stays chat, the hint for an addressed text, questions about one's own situation, rule questions in
the asker's language, and "why" from the last refusal."""

from __future__ import annotations

import pytest

from chatbot.core.commands import parse_command
from chatbot.core.nlp import Lemmatizer
from chatbot.core.types import Inbound, Outbound
from chatbot.games import UIS
from tests.chatbot.table import GROUP, PLATFORM, Table
from tests.chatbot.talk_corpus import CHAT, META_EN, META_FI

GAMES = {gid: ui.aliases for gid, ui in UIS.items()}


TABLE = Lemmatizer(backend="table")


def label(text: str, addressed: bool = False, lemmatizer: Lemmatizer | None = None) -> str | None:
    command = parse_command(text, GAMES, "fi", addressed=addressed, lemmatizer=lemmatizer)
    if command is None:
        return None
    name = command.name
    if name == "new":
        return ":".join(
            [
                "new",
                *([command.game] if command.game else []),
                *([str(command.count)] if command.count else []),
            ]
        )
    if name in {"add_ai", "remove_ai"}:
        return f"{name}:{command.count}" if command.count else name
    if name == "lang":
        return f"lang:{command.tokens[0]}" if command.tokens else "lang"
    if name == "ask":
        return f"ask:{command.topic}"
    return name


@pytest.mark.parametrize("backend", ["best", "table"])
@pytest.mark.parametrize(("text", "expected"), META_FI + META_EN)
def test_meta_commands_as_players_write_them(text, expected, backend):
    got = label(text, lemmatizer=TABLE if backend == "table" else None)
    assert got == expected or (expected.endswith(":1") and got == expected[:-2]), (text, got)


@pytest.mark.parametrize("backend", ["best", "table"])
@pytest.mark.parametrize("text", CHAT)
def test_group_chat_is_no_command(text, backend):
    got = label(text, lemmatizer=TABLE if backend == "table" else None)
    assert got in {None, "rules"}, text  # a question to someone else gets no rule text


@pytest.mark.parametrize(
    "text", ["lopeta", "nostan", "uusi kortti", "lähden Kairosta", "aloitan Kairosta", "otan sen", "jää"]
)
def test_words_a_game_move_uses_are_weak_or_nothing(text):
    command = parse_command(text, GAMES, "fi", addressed=True)
    assert command is None or command.weak or command.name == "take_seat", (text, command)


@pytest.mark.parametrize(
    "text",
    [
        "voinko nostaa?",
        "saako vaihtaa kaksi kertaa",
        "lopetanko?",
        "can I knock?",
        # asking leave for oneself is a request only to join, add a bot, come back or switch language
        "voinko vaihtaa jakajan kanssa?",
        "voisinko aloittaa?",
        "voinko lähteä kesken?",
        "can I swap with the dealer?",
    ],
)
def test_a_question_is_never_a_move_or_command(text):
    command = parse_command(text, GAMES, "fi")
    assert command is not None and command.name in {"rules", "ask", "help"}, (text, command)


def test_a_seat_name_is_no_command_word():
    command = parse_command("give the parrot to Botti 1", GAMES, "en", names=("Bob", "Botti 1"))
    assert command is None


# --- end to end -----------------------------------------------------------------------------------


def say(
    table: Table, user: str, text: str, *, addressed: bool = False, lang: str | None = None
) -> list[Outbound]:
    msg = Inbound(
        PLATFORM, user, user.capitalize(), GROUP, False, text=text, lang_hint=lang, addressed=addressed
    )
    return table._deliver(table.core.handle(msg))


def start(table: Table, user: str) -> None:
    """ "aloita", and "pelataan näin" when the bot asks whether to fill the table with AI players."""
    say(table, user, "aloita")
    if table.match().status == "lobby":
        say(table, user, "pelataan näin")
    assert table.match().status == "running"


def test_a_game_is_set_up_and_started_in_polite_spoken_finnish():
    table = Table(seed="talk-1")
    say(table, "matti", "haluaisin aloittaa uuden gnavin")
    match = table.match()
    assert match is not None and match.game == "gnav" and match.status == "lobby"
    say(table, "matti", "voisitko lisätä kaksi bottia")
    assert [s.name for s in table.match().seats] == ["Matti", "Botti 1", "Botti 2"]
    say(table, "matti", "ota yks botti pois")
    assert [s.name for s in table.match().seats] == ["Matti", "Botti 1"]
    say(table, "liisa", "mäkin tuun mukaan")
    assert [s.name for s in table.match().seats] == ["Matti", "Botti 1", "Liisa"]
    out = say(table, "matti", "antaa mennä")
    if table.match().status == "lobby":  # asked once whether to fill the table with AI players
        assert out and "?" in out[-1].text
        say(table, "matti", "pelataan näin")
    assert table.match().status == "running" and len(table.match().seats) == 3


def test_new_game_with_bots_in_one_line_and_a_full_table_is_told():
    table = Table(seed="talk-2")
    say(table, "matti", "uus gnav 5 bottia")
    assert [s.ai is not None for s in table.match().seats] == [False, True, True, True, True, True]
    table2 = Table(seed="talk-3")
    out = say(table2, "bob", "let's play coloretto with 9 bots", lang="en")
    assert len(table2.match().seats) == 4 and any("at most 4 players" in o.text for o in out)


def test_chat_in_a_group_stays_unanswered_but_an_addressed_text_gets_a_hint():
    table = Table(seed="talk-4")
    assert say(table, "matti", "mä lähden kauppaan") == []
    assert say(table, "matti", "kiitos pelistä kaikille") == []
    assert say(table, "matti", "mitä kuuluu?") == []
    out = say(table, "matti", "banaani", addressed=True)
    assert out and "uusi" in out[0].text and "gnav" in out[0].text
    say(table, "matti", "uusi majavajengi")
    out = say(table, "matti", "banaani", addressed=True)
    assert "liity" in out[0].text and "aloita" in out[0].text


def test_a_doubtful_leave_is_asked_and_changes_nothing():
    table = Table(seed="talk-5")
    say(table, "matti", "uusi majavajengi")
    say(table, "liisa", "liity")
    start(table, "matti")
    before = table.match().version
    out = say(table, "liisa", "mä lähden kauppaan", addressed=True)
    assert out and "Haluatko lähteä pelistä" in out[0].text
    assert table.match().version == before and table.match().seats[1].user_id is not None
    say(table, "liisa", "mä lähden pois")
    assert table.match().seats[1].user_id is None


def test_lopeta_in_a_game_is_never_the_end_of_the_game():
    table = Table(seed="talk-6")
    say(table, "matti", "uusi majavajengi")
    say(table, "liisa", "liity")
    start(table, "matti")
    for user in ("matti", "liisa"):
        say(table, user, "lopeta")
    assert table.match() is not None and table.match().status == "running"
    say(table, "matti", "lopeta peli")
    assert table.match() is None


def test_an_english_question_is_answered_in_english_in_a_finnish_room():
    table = Table(seed="talk-7")
    say(table, "matti", "uusi majavajengi")
    out = say(table, "matti", "how does peek work?")
    assert out and "look at one of your own cards" in out[0].text
    out = say(table, "matti", "miten kurkistus toimii?")
    assert "Kurkistus" in out[0].text
    # other replies follow the player's own language
    out = say(table, "matti", "liity")
    assert "on jo paikka" in out[0].text


def test_rule_synonyms_and_question_words():
    table = Table(seed="talk-8")
    out = say(table, "matti", "miten kaksintaistelu toimii afrikan tähdessä?")
    assert out and "yhteenot" in out[0].text.casefold()
    out = say(table, "matti", "kuka jakaa gnavissa?", addressed=True)
    assert out and "jakaja" in out[0].text.casefold()


def test_own_situation_private_when_hidden_public_when_public():
    table = Table(seed="talk-9")
    say(table, "matti", "uusi gnav")
    say(table, "liisa", "liity")
    start(table, "matti")
    sent = len(table.sent)
    out = say(table, "liisa", "paljonko mulla on elämiä?")
    assert out and out[0].chat_id == GROUP and "Sinulla on 3 elämää jäljellä" in out[0].text
    assert "Liisa (3)" in out[0].text  # a number beside a name that may end in one ("Botti 1")
    out = say(table, "liisa", "mikä mun kortti on")
    private = [o for o in out if o.user_id == "liisa"]
    group = [o for o in out if o.chat_id == GROUP]
    assert private and private[0].text.startswith("Korttisi: [")
    card = private[0].text.split(": ", 1)[1]
    assert group and all(card not in o.text for o in group)  # the card never reaches the group
    out = say(table, "liisa", "whose turn is it?")  # asked in English: answered in English
    assert out and out[0].chat_id == GROUP and "turn" in out[0].text
    out = say(table, "liisa", "paljonko mulla on rahaa")
    assert "Gnavissa ei ole rahaa" in out[0].text
    assert len(table.sent) > sent


@pytest.mark.parametrize("question", ["mitä mulla on kädessä", "what's in my hand"])
def test_the_hand_asked_in_the_group_comes_privately_and_the_group_is_told_so(question):
    table = Table(seed="hand-1")
    say(table, "matti", "uusi coloretto")
    say(table, "liisa", "liity")
    start(table, "matti")
    out = say(table, "liisa", question)
    private = [o for o in out if o.user_id == "liisa"]
    group = [o for o in out if o.chat_id == GROUP]
    assert private and "sähköankerias" in private[0].text  # her hand, in her private chat
    assert [o.text for o in group] in (
        ["Vastasin sinulle yksityisviestillä."],
        ["I answered you in our private chat."],
    )


def test_protection_holder_and_money_are_public_answers():
    table = Table(seed="talk-12")
    say(table, "matti", "uusi coloretto")
    say(table, "liisa", "liity")
    say(table, "pekka", "liity")
    start(table, "matti")
    out = say(table, "liisa", "kenellä on suojakortti?")
    assert out and out[0].chat_id == GROUP and "Suojakortti" in out[0].text
    table = Table(seed="talk-13")
    say(table, "matti", "uusi afrikan tähti")
    say(table, "liisa", "liity")
    start(table, "matti")
    out = say(table, "liisa", "paljonko mulla on rahaa")
    assert out and out[0].chat_id == GROUP and "Sinulla on 300" in out[0].text
    out = say(table, "liisa", "how much money do I have")
    assert "You have £300" in out[0].text


def test_why_is_answered_from_the_last_refusal():
    table = Table(seed="talk-10")
    say(table, "matti", "uusi majavajengi")
    say(table, "liisa", "liity")
    start(table, "matti")
    acting = table.acting_users()[0]
    out = table.say(acting, "koputan", private=True)
    refusal = out[0].text.split("\n")[0]
    out = table.say(acting, "miksi?", private=True)
    assert out and refusal in out[0].text


def test_language_switch_in_words():
    table = Table(seed="talk-11")
    out = say(table, "matti", "vaihda kieli englanniksi")
    assert out and "English" in out[0].text
    out = say(table, "matti", "switch to finnish")
    assert out and "suomea" in out[0].text.casefold()


def test_a_situation_question_without_a_game_is_chat_unless_addressed():
    table = Table(seed="talk-14")
    assert say(table, "matti", "paljonko mulla on rahaa?") == []
    out = say(table, "matti", "paljonko mulla on rahaa?", addressed=True)
    assert out and "ei ole peliä" in out[0].text


def test_options_are_kept_as_typed_and_odd_input_never_raises():
    import random

    command = parse_command("/uusi majavajengi rounds=1", GAMES, "fi")
    assert command is not None and command.game == "majavajengi" and "rounds=1" in command.tokens
    command = parse_command("uus gnav tahti=päivä 2 bottia", GAMES, "fi")
    assert (
        command is not None
        and command.game == "gnav"
        and command.count == 2
        and "tahti=päivä" in command.tokens
    )
    rng = random.Random(15)
    pieces = [
        "/uusi",
        "=",
        "a=b",
        "?",
        "botti",
        "2",
        "@x",
        "lisää",
        "kieli",
        "en",
        "'",
        "—",
        "ä",
        "gnav",
        "",
        "!",
    ]
    for _ in range(500):
        text = " ".join(rng.choice(pieces) for _ in range(rng.randint(0, 6)))
        parse_command(text, GAMES, "fi", addressed=rng.random() < 0.5, names=("Botti 1", "Liisa"))


@pytest.mark.parametrize(
    "text", ["Botti 1:lle sammakko", "botille sammakko", "Pekka tulee mukaan", "botit on tyhmiä"]
)
def test_a_sentence_about_a_seat_or_another_person_changes_no_lobby(text):
    table = Table(seed="lobby-grab")
    say(table, "matti", "uusi coloretto")
    say(table, "matti", "lisää botti")
    seats = [s.name for s in table.match().seats]
    assert seats == ["Matti", "Botti 1"]
    assert say(table, "liisa", text) == []  # chat in the group: no answer
    assert [s.name for s in table.match().seats] == seats
