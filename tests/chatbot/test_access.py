"""Issue #13 over the real core and SQLite: a press acts only where it was offered, roles, input
that once raised, the apology's language, flooding."""

from __future__ import annotations

import logging

import pytest

from chatbot.compose import new_core
from chatbot.core.access import Throttle, parse_button
from chatbot.core.commands import parse_command
from chatbot.core.types import Inbound
from tests.chatbot.table import GROUP, PLATFORM, Table

OTHER = "g2"
GAMES = ("majavajengi", "coloretto", "gnav", "afrikan tähti")


class Admins:
    """The platform's admin lookup as the core sees it (the transports' own tests use the real ones)."""

    def __init__(self, *admins: tuple[str, str]) -> None:
        self.admins = set(admins)
        self.asked: list[tuple[str, str]] = []

    def is_admin(self, chat_id: str, user_id: str) -> bool | None:
        self.asked.append((chat_id, user_id))
        return (chat_id, user_id) in self.admins


def table_with_admins(*admins: tuple[str, str], **kw) -> tuple[Table, Admins]:
    table = Table(**kw)
    members = Admins(*admins)
    table.core.members[PLATFORM] = members
    return table, members


def lobby_buttons(table: Table, group: str = GROUP) -> dict[str, str]:
    for out in reversed(table.sent):
        if out.chat_id == group and out.buttons:
            return {b.data.rpartition("@")[2]: b.data for row in out.buttons for b in row}
    raise AssertionError("no lobby buttons")


def snapshot(table: Table, group: str = GROUP):
    m = table.repo.active_match(table.repo.room(PLATFORM, group).id)
    return None if m is None else (m.id, m.version, m.status, m.seats)


# ------------------------------------------------------------------------------------------------
# 1. a press is valid only where it was offered


@pytest.mark.parametrize("game", GAMES)
def test_forged_lobby_buttons_from_a_private_chat_or_another_group_change_nothing(game):
    table = Table(seed="forge")
    table.say("matti", f"uusi {game}")
    before = snapshot(table)
    mid = before[0]
    # the attack of the report: guessed data, pressed in private and in another group
    for data in (f"{mid}:0:@join", f"{mid}:1:@start", f"{mid}:0:@add_ai", f"{mid}:0:@start"):
        for private, group in ((True, GROUP), (False, OTHER)):
            out = table.press("eve", data, private=private, group=group)
            assert len(out) == 1 and "ei toimi täällä" in out[0].text
            assert snapshot(table) == before
            # the answer is the same as for a match that does not exist: it tells nothing
            assert (
                out[0].text == table.press("eve", f"{mid + 50}:0:@join", private=private, group=group)[0].text
            )
    # eve got nothing private from that match, and the match still works in its own room
    assert not any("Majavajengi" in t or "🦫" in t for t in table.private_texts("eve"))
    buttons = lobby_buttons(table)
    out = table.press("liisa", buttons["join"], private=False)
    assert "Liisa" in out[0].text and len(table.match().seats) == 2


def test_forged_game_buttons_act_only_in_private_for_their_player_or_offered_in_the_group():
    table = Table(seed="forge-game")
    table.say("matti", "uusi majavajengi")
    table.say("liisa", "liity")
    table.say("matti", "aloita")
    acting = table.acting_users()[0]
    prompt = table.prompt_for(acting)
    before = snapshot(table)
    data = prompt.buttons[0][0].data  # a private-only move ("replace 1" while a card is held…)
    # an outsider in private, an outsider in another group, the player in another group
    for user, private, group in (("eve", True, GROUP), ("eve", False, OTHER), (acting, False, OTHER)):
        out = table.press(user, data, private=private, group=group)
        assert "ei toimi täällä" in out[0].text and snapshot(table) == before
    # the player's own private press works
    out = table.press(acting, data, private=True)
    assert snapshot(table) != before


def test_a_typed_deep_link_with_a_guessed_match_id_seats_nobody():
    table = Table(seed="link")
    table.core.link_template = "https://t.me/pelibotti?start={payload}"
    table.say("matti", "uusi gnav")
    mid = table.match().id
    for payload in (f"join-{mid}", f"join-{mid}-000000000000", f"join-{mid}-x", f"join-{mid + 7}"):
        out = table.say("eve", f"/start {payload}", private=True)
        assert [s.name for s in table.match().seats] == ["Matti"]
        # one answer for a guessed link and for a game that does not exist: nothing is told
        assert len(out) == 1 and "Tällä linkillä et pääse peliin" in out[0].text
    token = table.core.deep_link(mid).rpartition("=")[2]
    table.say("eve", f"/start {token}", private=True)
    assert [s.name for s in table.match().seats] == ["Matti", "Eve"]


# ------------------------------------------------------------------------------------------------
# 3. no input raises


@pytest.mark.parametrize(
    "data",
    [
        "²:0:x",
        "1:²:draw",
        "٣:0:@join",
        "1" * 5000 + ":0:@join",
        f"{10**30}:0:@join",
        f"1:{10**30}:@join",
        "1:0:@__class__",
        "1:0:@new",
        "1:0:",
        "1:0:\x00draw",
        ":::",
        "",
        "1:0:" + "x" * 500,
        "-1:0:@join",
        " 1:0:@join",
    ],
)
def test_crafted_button_data_is_refused_without_an_exception(data, caplog):
    table = Table(seed="crafted")
    table.say("matti", "uusi majavajengi")
    before = snapshot(table)
    with caplog.at_level(logging.WARNING):
        out = table.press("matti", data, private=False)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert out and out[0].lang == "fi" and "ei toimi täällä" in out[0].text
    assert snapshot(table) == before


def test_parse_button_reads_only_well_formed_data():
    assert parse_button("12:3:replace 2") is not None
    assert parse_button("12:3:@join").verb == "join"
    for bad in ("²:0:x", "1" * 13 + ":0:x", "1:0:@drop", "1:0:" + "x" * 65, "1:0:ä", None):
        assert parse_button(bad) is None


@pytest.mark.logs_errors("error while handling")
def test_the_last_resort_apology_is_in_the_users_stored_language(tmp_path, monkeypatch, caplog):
    url = f"sqlite:///{tmp_path / 'lang.sqlite'}"
    table = Table(url=url)
    table.say("sam", "language en", private=True, lang="fi")
    # a new process (nothing remembered) over the same database; Telegram says "fi"
    core = new_core(table.repo)

    def broken(msg):
        raise RuntimeError("a bug")

    monkeypatch.setattr(core, "_handle", broken)
    msg = Inbound(PLATFORM, "sam", "Sam", "sam", True, text="help", lang_hint="fi")
    with caplog.at_level(logging.ERROR):
        out = core.handle(msg)
    assert out[0].lang == "en" and "Something went wrong" in out[0].text
    # the traceback's log names the inbound, so the case can be found again
    assert any("text='help'" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("text", [" ", "\n\t ", "\u200b", "\x00", "\u202e \u202e"])
def test_a_blank_private_message_gets_an_answer(text):
    table = Table()
    out = table.say("sam", text, private=True)
    assert len(out) == 1 and "apua" in out[0].text and out[0].user_id == "sam"
    assert table.say("sam", text) == []  # in a group, blank chat is not for the bot


def test_very_long_texts_and_odd_names_go_through(caplog):
    table = Table(seed="long")
    table.say("matti", "uusi majavajengi")
    table.say("liisa", "liity")
    table.say("matti", "aloita")
    with caplog.at_level(logging.WARNING):
        out = table.say("matti", "vaihda " * 20_000, private=True)
        assert "liian pitkä" in out[0].text
        msg = Inbound(PLATFORM, "nul", "N\x00ul\u202e" * 40, GROUP, False, text="liity\x00")
        table._deliver(table.core.handle(msg))
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_flooding_is_throttled_for_that_user_alone_with_one_notice():
    now = [1000.0]
    table = Table(seed="flood")
    table.core.throttle = Throttle(limit=30, window=10.0, clock=lambda: now[0])
    table.say("matti", "uusi majavajengi")
    answers = []
    for _ in range(40):
        answers.append(table.say("eve", "apua", private=True))
        now[0] += 0.1
    answered = [a for a in answers if a]
    notices = [a[0].text for a in answered if "tiheään" in a[0].text]
    assert len(answered) == 31 and len(notices) == 1  # 30 answers, then one notice, then silence
    # everyone else is served meanwhile
    assert "Liisa" in table.say("liisa", "liity")[0].text
    now[0] += 11
    assert table.say("eve", "apua", private=True)  # and eve again after the window


# ------------------------------------------------------------------------------------------------
# 2. roles


def test_an_outsider_cannot_add_or_remove_ai_seats_start_or_cancel_a_lobby():
    table, _members = table_with_admins()
    table.say("matti", "uusi majavajengi")
    before = snapshot(table)
    for text in ("lisää botti", "poista botti", "aloita", "peru"):
        out = table.say("eve", text)
        assert "Vain pelin aloittaja, pelaajat tai ryhmän ylläpitäjät" in out[0].text, text
        assert snapshot(table) == before
    # the same by the lobby's buttons
    buttons = lobby_buttons(table)
    for verb in ("add_ai", "start"):
        out = table.press("eve", buttons[verb], private=False)
        assert "Vain pelin aloittaja" in out[0].text and snapshot(table) == before
    # in English for an English outsider
    table.say("sam", "language en", private=True)
    assert "Only the player who set up the game" in table.say("sam", "add bot")[0].text
    # a seated player may (join, then add a bot and start)
    table.say("liisa", "liity")
    assert "Botti 1" in table.say("liisa", "lisää botti")[0].text
    table.say("liisa", "aloita")
    assert table.match().status == "running"


def test_a_group_admin_runs_the_lobby_and_ends_any_game():
    table, members = table_with_admins((GROUP, "ville"))
    table.say("matti", "uusi majavajengi")
    assert "Botti 1" in table.say("ville", "lisää botti")[0].text
    table.say("liisa", "liity")
    table.say("ville", "aloita")
    assert table.match().status == "running"
    # a seated player who did not set the game up cannot end it; the admin can
    out = table.say("liisa", "peru")
    assert "Sen voi lopettaa vain Matti, joka perusti pelin" in out[0].text and table.match() is not None
    out = table.say("ville", "peru")
    assert "peruttiin" in out[0].text and table.match() is None
    # the admin of one group is nobody in another
    table.say("matti", "uusi gnav", group=OTHER)
    out = table.say("ville", "lisää botti", group=OTHER)
    assert "Vain pelin aloittaja" in out[0].text
    assert (OTHER, "ville") in members.asked


def test_kick_gives_the_seat_to_an_ai_tells_the_player_and_restore_gives_it_back():
    table, _ = table_with_admins((GROUP, "ville"))
    table.say("matti", "uusi majavajengi")
    table.say("pekka", "liity")
    table.say("liisa", "liity")
    table.say("matti", "aloita")
    # nobody else may
    out = table.say("liisa", "poista Pekka pelistä")
    assert "Vain pelin aloittaja tai ryhmän ylläpitäjät" in out[0].text
    assert table.match().seats[1].user_id is not None
    out = table.say("ville", "poista Pekka pelistä")
    seat = table.match().seats[1]
    assert seat.user_id is None and seat.ai and seat.name == "Pekka"
    assert any(o.chat_id == GROUP and o.text.startswith("Ville poisti Pekan pelistä; tekoäly") for o in out)
    dm = [o for o in out if o.user_id == "pekka"]
    assert dm and "poisti sinut" in dm[0].text
    # the AI plays the seat: the game goes on without Pekka's buttons working
    out = table.say("ville", "palauta Pekka peliin")
    assert any("taas mukana" in o.text for o in out)
    assert table.match().seats[1].user_id == table.repo.find_user(PLATFORM, "pekka").id
    # the host may too, in English ("kick NAME")
    out = table.say("matti", "kick Pekka")
    assert table.match().seats[1].user_id is None
    out = table.say("matti", "anna Liisan paikka botille")
    assert table.match().seats[2].user_id is None
    assert any(o.user_id == "liisa" and "toistaiseksi" in o.text for o in out)


def test_a_player_hands_their_seat_to_someone_in_the_room():
    table = Table(seed="hand")
    table.say("matti", "uusi majavajengi")
    table.say("pekka", "liity")
    table.say("matti", "aloita")
    table.say("liisa", "moi")  # Liisa has written here: "Liisalle" names her (issue #27)
    table.say("pekka", "anna paikkani Liisalle")
    # only the one it was meant for, and only in the room
    assert "Vain hän voi ottaa sen" in table.say("eve", "otan paikan")[0].text
    table.say("liisa", "otan paikan", group=OTHER)
    table.say("liisa", "otan paikan", private=True)
    assert table.match().seats[1].user_id == table.repo.find_user(PLATFORM, "pekka").id
    out = table.say("liisa", "otan paikan")
    seat = table.match().seats[1]
    assert seat.user_id == table.repo.find_user(PLATFORM, "liisa").id and seat.name == "Liisa"
    assert any(o.chat_id == GROUP and o.text == "Liisa otti Pekan paikan." for o in out)
    assert any(o.user_id == "liisa" for o in out)  # her cards come to her private chat
    assert "Kukaan ei tarjoa" in table.say("eve", "otan paikan")[0].text  # taken once


def test_seat_commands_are_recognised_in_both_languages():
    cases = {
        "poista Pekka pelistä": ("kick", "pekka"),
        "kick Pekka": ("kick", "pekka"),
        "remove Pekka from the game": ("kick", "pekka"),
        "palauta Pekka peliin": ("restore", "pekka"),
        "give Pekka's seat back": ("restore", "pekka's"),
        "anna Pekan paikka botille": ("to_ai", "pekan"),
        "give Pekka's seat to a bot": ("to_ai", "pekka's"),
        "anna paikkani Liisalle": ("hand_over", "liisalle"),
        "give my seat to Liisa": ("hand_over", "liisa"),
        "otan paikan": ("take_seat", ""),
        "take seat": ("take_seat", ""),
    }
    for text, (name, args) in cases.items():
        cmd = parse_command(text)
        assert cmd is not None and (cmd.name, cmd.raw_args) == (name, args), text
    assert parse_command("poista botti").name == "remove_ai"


def test_the_chat_platforms_compose_a_core_that_throttles_and_the_console_one_that_does_not():
    import argparse

    from chatbot.__main__ import _core

    args = argparse.Namespace(db="sqlite://", seed=None)
    assert _core(args, chat=True).throttle is not None
    assert _core(args).throttle is None


def test_whoever_runs_the_lobby_may_change_its_options_and_nobody_else():
    table, _ = table_with_admins((GROUP, "ville"))
    table.say("matti", "uusi majavajengi")
    out = table.say("eve", "asetukset kierrokset=2")
    assert "Vain pelin aloittaja, pelaajat tai ryhmän ylläpitäjät voivat muuttaa" in out[0].text
    assert table.match().options == {}
    table.say("matti", "asetukset kierrokset=2")
    assert table.match().options == {"rounds": 2}
    table.say("ville", "options muistiapu=kyllä")
    assert table.match().options == {"rounds": 2, "memory_aid": True}
    out = table.say("matti", "asetukset kierrokset=99999999999999999999999999")
    assert "Mitään ei muutettu" in out[0].text and table.match().options["rounds"] == 2
    assert "2 kierrosta · muistiapu" in table.say("eve", "asetukset")[0].text  # anyone may look, in words


def test_inbound_fields_are_cleaned_but_ordinary_messages_pass_as_they_are():
    from chatbot.core.access import clean_inbound

    plain = Inbound(PLATFORM, "u1", "Matti 👨‍👩‍👧", GROUP, False, text="vaihda 2")
    assert clean_inbound(plain) is plain  # emoji joiners are no control characters
    odd = Inbound(PLATFORM, "u1" * 200, "\x00\u202eEve\u200b " * 30, GROUP, False, text="liity\x00\x1b")
    clean = clean_inbound(odd)
    assert clean.text == "liity" and clean.user_name.startswith("Eve") and len(clean.user_name) <= 64
    assert "\x00" not in clean.user_name and len(clean.user_id) <= 255


def test_the_table_asked_for_in_private_comes_in_the_askers_language():
    table = Table(seed="tila")
    table.say("sanna", "language en", private=True)
    table.say("matti", "uusi majavajengi")
    table.say("sanna", "liity")
    out = table.say("sanna", "tila", private=True)  # found by the fuzz: it came in Finnish
    assert out and all(o.lang == "en" and o.user_id == "sanna" for o in out)
    assert "waiting for players" in out[0].text
    table.say("matti", "aloita")
    out = table.say("sanna", "status", private=True)
    assert out and all(o.lang == "en" for o in out if o.user_id == "sanna")


def test_the_flood_limit_is_a_setting_of_the_shipped_command():
    from chatbot.__main__ import _throttle
    from chatbot.core.access import Throttle

    assert _throttle("off", Throttle) is None
    default = _throttle("30/10", Throttle)
    assert default.limit == 30 and default.window == 10.0
    with pytest.raises(SystemExit):
        _throttle("many", Throttle)
