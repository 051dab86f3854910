"""The bot core end to end over real SQLite: lobby, turns, privacy, hints, languages, buttons."""

from __future__ import annotations

import random

from tests.chatbot.table import GROUP, Table


def lobby(table: Table, *users: str, bots: int = 0, options: str = "") -> None:
    table.say(users[0], f"uusi majavajengi {options}".strip())
    for u in users[1:]:
        table.say(u, "liity")
    for _ in range(bots):
        table.say(users[0], "lisää botti")
    table.say(users[0], "aloita")


def test_lobby_join_add_bot_and_start():
    table = Table()
    out = table.say("matti", "uusi majavajengi")
    assert out and out[0].chat_id == GROUP and "Majavajengi" in out[0].text and "Matti" in out[0].text
    out = table.say("liisa", "liity")
    assert "Matti ja Liisa" in out[0].text
    assert "on jo paikka" in table.say("liisa", "liity")[0].text
    out = table.say("matti", "lisää botti")
    assert "Botti 1" in out[0].text
    out = table.say("matti", "aloita")
    match = table.match()
    assert match.status == "running" and [s.name for s in match.seats] == ["Matti", "Liisa", "Botti 1"]
    # each person saw their two outer cards in private, never in the group
    for user in ("matti", "liisa"):
        assert any("reunimmaiset" in t.casefold() for t in table.private_texts(user))
    assert not any("reunimmaiset kortti" in t.casefold() for t in table.group_texts())


def test_start_fills_empty_seats_with_ai():
    table = Table()
    table.say("matti", "uusi majavajengi")
    table.say("matti", "aloita")
    match = table.match()
    assert len(match.seats) == 2 and match.seats[1].ai == "smart"


def test_only_the_seat_to_act_may_act_and_others_are_told():
    table = Table(seed="turns")
    lobby(table, "matti", "liisa")
    acting = table.acting_users()[0]
    other = "liisa" if acting == "matti" else "matti"
    before = table.match().version
    assert not table.say(other, "nostan")  # not the player to act: friends' talk (issue #27)
    out = table.say(other, "nostan", addressed=True)
    assert out and "vuoro" in out[0].text.casefold()
    assert table.match().version == before
    # a button press by the wrong user is refused as well
    prompt = table.prompt_for(acting)
    out = table.press(other, prompt.buttons[0][0].data)
    assert "ei ole sinun vuorosi" in out[0].text.casefold()
    assert table.match().version == before


def test_bad_command_gets_a_hint_in_the_players_language_and_changes_nothing():
    table = Table(seed="hint")
    lobby(table, "matti", "liisa")
    acting = table.acting_users()[0]
    before = table.match().version
    out = table.say(acting, "banaani", private=True)
    assert "En ymmärtänyt" in out[0].text and "nostaa kortin" in out[0].text
    table.say(acting, "language en", private=True)
    out = table.say(acting, "banana", private=True)
    assert "I did not understand" in out[0].text and "draw a card" in out[0].text
    assert table.match().version == before


def test_text_commands_play_a_turn():
    table = Table(seed="text")
    lobby(table, "matti", "liisa")
    acting = table.acting_users()[0]
    out = table.say(acting, "nostan", private=True)
    private = [o for o in out if o.user_id == acting]
    assert private and any("Nostit" in o.text for o in private)
    # the group learns that a card was drawn, not which
    group = [o for o in out if o.chat_id == GROUP]
    assert group and "nosti kortin" in group[0].text
    assert "Nostit" not in group[0].text


def test_stale_and_forged_buttons_are_refused():
    table = Table(seed="stale")
    lobby(table, "matti", "liisa")
    acting = table.acting_users()[0]
    prompt = table.prompt_for(acting)
    data = prompt.buttons[0][0].data
    table.press(acting, data)
    version = table.match().version
    out = table.press(acting, data)
    assert "vanhentunut" in out[0].text
    # data naming no match, or no data at all, is refused without saying anything about a match
    out = table.press(acting, f"999:{version}:draw")
    assert "ei toimi täällä" in out[0].text
    out = table.press(acting, "garbage")
    assert "ei toimi täällä" in out[0].text
    assert table.match().version == version


def test_rules_on_request_in_both_languages_also_outside_a_game():
    table = Table()
    out = table.say("matti", "miten kurkistus toimii majavajengissä?")
    assert "Kurkistus: saat katsoa salaa" in out[0].text
    out = table.say("liisa", "explain knocking in majavajengi", lang="en")
    assert "knock at the end of your own turn" in out[0].text
    lobby(table, "matti", "liisa")
    out = table.say("matti", "/rules peek")
    assert "Kurkistus" in out[0].text
    out = table.say("matti", "säännöt")
    assert "mahdollisimman vähän pisteitä" in out[0].text


def test_a_whole_game_by_buttons_reaches_final_scores_and_leaks_nothing():
    table = Table(seed="whole")
    lobby(table, "matti", "liisa", bots=1, options="rounds=1")
    table.play_randomly(random.Random(3))
    texts = table.group_texts()
    assert any("voittaja" in t.casefold() for t in texts)
    assert table.repo.active_match(table.repo.room("test", GROUP).id) is None
    private_lines = {
        line
        for user in ("matti", "liisa")
        for t in table.private_texts(user)
        for line in t.splitlines()
        if line.startswith("▸")
    }
    for text in texts:
        for line in private_lines:
            assert line not in text.splitlines()
        # the wording of private news (a drawn card, a peek, the first look) never reaches the group
        assert not any(
            marker in text for marker in ("Nostit", "Kädessäsi", "Katsot reunimmaiset", "Korttisi ")
        )


def test_leave_hands_the_seat_to_an_ai_and_cancel_ends():
    table = Table(seed="leave")
    lobby(table, "matti", "liisa")
    out = table.say("liisa", "poistu")
    assert "tekoäly" in out[0].text.casefold()
    match = table.match()
    assert match.seats[1].ai and match.seats[1].user_id is None
    out = table.say("matti", "peru")
    assert "peruttiin" in out[0].text
    assert table.match() is None


def test_meta_commands_are_recognised_in_both_languages():
    from chatbot.core.commands import parse_command

    cases = {
        "uusi majavajengi": "new",
        "/new majavajengi": "new",
        "/uusi@pelibotti majavajengi": "new",
        "liity": "join",
        "join": "join",
        "lisää botti": "add_ai",
        "add bot": "add_ai",
        "poista botti": "remove_ai",
        "aloita": "start",
        "/start": "start",
        "poistu": "leave",
        "peru": "cancel",
        "lopeta peli": "cancel",
        "tila": "status",
        "kenen vuoro": "ask",
        "apua": "help",
        "/help": "help",
        "kieli en": "lang",
        "language fi": "lang",
        "säännöt": "rules",
        "/saannot kurkistus": "rules",
        "miten kurkistus toimii?": "rules",
        "explain knocking": "rules",
        "näytä kartta": "map",
        "show map": "map",
        "pelit": "games",
    }
    for text, name in cases.items():
        command = parse_command(text)
        assert command is not None and command.name == name, text
    # game commands stay game commands
    for text in (
        "nostan",
        "lopeta",
        "vaihda 2",
        "uusi kortti",
        "hylkään",
        "koputan",
        "mene Kongoon",
        "kartta on hieno",
    ):
        command = parse_command(text)
        assert command is None or command.name == "new", text


def test_a_slash_lopeta_is_the_games_move_where_it_is_one_else_the_question_of_ending():
    """ "/lopeta" (Telegram's command form of "stop"): where the game reads "lopeta" as a move now it
    is that move's answer; elsewhere the bot asks whether the whole game should end and says how,
    instead of "not understood". Nothing ends by it."""
    table = Table(seed="lopeta")
    table.say("anna", "uusi afrikan tähti")
    table.say("bertta", "liity")
    table.say("anna", "aloita")  # the character phase: no move is "lopeta" here
    out = table.say("anna", "/lopeta", addressed=True)
    assert [o.text for o in out] == ["Haluatko lopettaa koko pelin? Kirjoita silloin “lopeta peli”."]
    assert table.match() is not None and table.match().status == "running"
    table.say("anna", "lopeta peli")
    table.say("anna", "uusi majavajengi")
    table.say("bertta", "liity")
    table.say("anna", "aloita")
    acting = table.acting_users()[0]
    out = table.say(acting, "/lopeta", addressed=True)
    assert "lopeta koko pelin" not in out[0].text and "Se ei onnistu" in out[0].text, out[0].text
    assert table.match().status == "running"


def test_options_are_checked_when_the_game_is_set_up():
    table = Table()
    out = table.say("matti", "uusi majavajengi kierrokset=0")
    assert "kierrokset=0" in out[0].text and table.match() is None
    out = table.say("matti", "uusi majavajengi outo=1")
    assert "outo=1" in out[0].text and table.match() is None
    table.say("matti", "uusi majavajengi muistiapu=on kierrokset=2")
    assert table.match().options == {"memory_aid": True, "rounds": 2}


def test_rules_overview_names_topics_in_the_askers_language():
    table = Table()
    out = table.say("matti", "säännöt majavajengi")
    assert "poistopakasta ottaminen" in out[0].text and "taking the discard" not in out[0].text
    out = table.say("liisa", "rules majavajengi", lang="en")
    assert "taking the discard" in out[0].text


def test_one_person_may_play_two_seats():
    table = Table(seed="hotseat")
    table.say("matti", "uusi majavajengi")
    out = table.say("matti", "liity Pekka")
    assert "Matti ja Pekka" in out[0].text
    table.say("matti", "aloita")
    match = table.match()
    assert [s.name for s in match.seats] == ["Matti", "Pekka"] and match.seats[0].user_id == match.seats[
        1
    ].user_id
    # the person acts for whichever of their seats is to act, and prompts say which seat
    for _ in range(6):
        prompt = table.prompt_for("matti")
        assert "– Matti" in prompt.text or "– Pekka" in prompt.text
        table.press("matti", prompt.buttons[0][0].data)
    assert table.match().version > match.version + 5


def test_status_asked_in_private_is_answered_in_private():
    """ "tila" in a private chat shows the table there: no new copy of the table in the group, and
    none of the group's buttons in the private chat."""
    table = Table(seed="status")
    lobby(table, "matti", "liisa")
    before = len(table.group_texts())
    out = table.say("matti", "tila", private=True)
    assert out and all(o.chat_id is None and o.user_id == "matti" for o in out)
    assert "Majavajengi" in out[0].text and out[0].buttons == () and out[0].key is None
    assert len(table.group_texts()) == before


def test_a_player_who_left_comes_back_to_their_seat():
    table = Table(seed="back")
    lobby(table, "matti", "liisa", "pekka")
    out = table.say("liisa", "poistu")
    assert "palaan" in out[0].text  # the way back is told at once
    match = table.match()
    assert match.seats[1].user_id is None and match.seats[1].ai
    table.run_due()  # the AI plays the seat meanwhile if it is to act
    assert any("Liisa (tekoäly)" in t for t in table.group_texts())
    # only the one who left may come back to that seat
    assert "jo mukana" in table.say("pekka", "palaan")[0].text
    assert "ei ole" in table.say("outsider", "palaan")[0].text
    out = table.say("liisa", "Palaan peliin!")
    match = table.match()
    assert match.seats[1].user_id is not None and match.seats[1].ai is None
    assert any("Liisa palasi" in o.text for o in out)
    table_text = [o.text for o in out if o.key and o.key.startswith("table:")][-1]
    # the seat is hers again; only the lines of what the AI did for her meanwhile still say so
    # ("· Liisa (tekoäly) nosti kortin.", issue #27: a line keeps the name it was played under)
    assert not [x for x in table_text.splitlines() if "Liisa (tekoäly)" in x and not x.startswith("· ")]
    # leaving once more and "liity" (as after rejoining a Matrix room) also brings the seat back
    table.say("liisa", "poistu")
    table.say("liisa", "liity")
    assert table.match().seats[1].ai is None
    # English works the same way
    table.say("liisa", "leave")
    table.say("liisa", "I'm back")
    assert table.match().seats[1].ai is None
