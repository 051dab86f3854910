"""Seats belong to people, not names (issue #27, point 3), on the real core over SQLite.

A seat handed over goes to the person named by a mention, a reply or the one member of the room with
that name, and only they take it; display names are shown cleaned and told apart; one person keeps one
open lobby per group and a few overall; everything a person gets in private is in their one language;
group answers never name what only one seat knows, and the outbound path refuses a group text with a
hidden card's identifier; seat changes read as a Finnish player writes them.
"""

from __future__ import annotations

import logging
import random

from chatbot.compose import new_core
from chatbot.core.people import clean_name, name_key, told_apart
from chatbot.core.types import Outbound
from engines import GAMES
from tests.chatbot.table import GROUP, PLATFORM, Table


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def started(seed: str, game: str = "majavajengi", players: tuple[str, ...] = ("matti", "pekka")) -> Table:
    table = Table(seed=seed)
    table.say(players[0], f"uusi {game}")
    for user in players[1:]:
        table.say(user, "liity")
    table.say(players[0], "aloita")
    assert table.match().status == "running"
    return table


def seat_user(table: Table, seat: int) -> str | None:
    uid = table.match().seats[seat].user_id
    return table.repo.user_by_id(uid).ext_id if uid is not None else None


# --- hand-over ---------------------------------------------------------------------------------------


def test_a_seat_offered_by_a_typed_name_goes_to_the_one_member_of_that_name_and_no_one_else():
    table = started("hand")
    table.say("liisa", "moi kaikki")  # Liisa has written in the group: the bot knows who she is
    out = table.say("pekka", "anna paikkani Liisalle")
    offer = next(o.text for o in out if o.chat_id == GROUP)
    assert "Liisa" in offer and "”otan paikan”" in offer, offer
    # a newcomer who calls herself Liisa comes after the offer: the seat is not hers
    out = table.say("impostor", "otan paikan", name="Liisa")
    assert seat_user(table, 1) == "pekka"
    assert "Vain hän" in out[0].text, out[0].text
    # neither is it anyone else's, in another group or in private
    table.say("eve", "otan paikan")
    table.say("liisa", "otan paikan", group="g2")
    table.say("liisa", "otan paikan", private=True)
    assert seat_user(table, 1) == "pekka"
    table.say("liisa", "otan paikan")
    assert seat_user(table, 1) == "liisa"
    assert table.prompt_for("liisa") is not None or table.private_texts("liisa")


def test_a_seat_offered_by_a_mention_a_handle_or_a_reply_goes_to_that_user():
    table = started("mention", players=("matti", "pekka", "liisa"))
    table.say("liisa2", "hei", name="Liisa")  # two Liisas in the room now
    table.say("olli", "moro", handle="olli_k")
    # a mention names the user, whatever the text calls her
    table.say("pekka", "anna paikkani Liisa", mentions=("liisa2",))
    table.say("liisa", "otan paikan")
    assert seat_user(table, 1) == "pekka"
    table.say("liisa2", "otan paikan", name="Liisa")
    assert seat_user(table, 1) == "liisa2"
    assert table.match().seats[1].name == "Liisa (2)"  # two Liisas at one table are told apart
    # a handle the bot has seen ("@olli_k" on Telegram)
    table.say("liisa2", "anna paikkani @olli_k", handles=("olli_k",), name="Liisa")
    table.say("olli", "otan paikan")
    assert seat_user(table, 1) == "olli"
    # a reply to someone's message
    table.say("sanna", "saanko minä pelata?")
    table.say("olli", "anna paikkani", reply_to_user="sanna")
    table.say("sanna", "otan paikan")
    assert seat_user(table, 1) == "sanna"


def test_an_offer_without_a_clear_receiver_says_how_to_name_them_in_finnish_and_english():
    table = started("nobody")
    table.say("liisa", "moi", name="Liisa")
    table.say("liisa2", "moi", name="Liisa")
    for text, lang in (("anna paikkani", "fi"), ("give my seat", "en")):
        out = table.say("pekka", text, lang=lang)
        assert "@" in out[0].text and out[0].lang == lang, out[0].text
    # a name nobody here has written under
    out = table.say("pekka", "anna paikkani Sakelle", lang="fi")
    assert "En ole nähnyt" in out[0].text and "@" in out[0].text, out[0].text
    out = table.say("pekka", "give my seat to Sakke", lang="en")
    assert "I have not seen" in out[0].text, out[0].text
    # two people of that name
    out = table.say("pekka", "anna paikkani Liisalle", lang="fi")
    assert "useampi" in out[0].text and "@" in out[0].text, out[0].text
    # nothing was offered: nobody can take the seat
    for user in ("liisa", "liisa2"):
        table.say(user, "otan paikan")
    assert seat_user(table, 1) == "pekka"
    # oneself, or someone already playing
    out = table.say("pekka", "anna paikkani", mentions=("pekka",), lang="fi")
    assert "itsellesi" in out[0].text, out[0].text
    out = table.say("pekka", "anna paikkani Matille", lang="fi")
    assert "jo mukana" in out[0].text, out[0].text


# --- names -------------------------------------------------------------------------------------------


def test_a_name_with_a_line_break_cannot_forge_a_table_row():
    forged = "Eve\n▸ Matti: 1:[9]  2:[9]  3:[9]  4:[9]"
    table = Table(seed="names")
    table.say("matti", "uusi majavajengi")
    table.say("eve", "liity", name=forged)
    table.say("matti", "aloita")
    eve = table.repo.find_user(PLATFORM, "eve")
    assert "\n" not in eve.name and "\n" not in table.match().seats[1].name
    rows = [line for text in table.group_texts() for line in text.splitlines()]
    assert not [line for line in rows if line.lstrip().startswith("▸ Matti: 1:")], rows
    assert any(line.startswith("Eve ▸ Matti: 1:") for line in rows), rows
    # a name already stored with a line break (before names were cleaned) is shown on one line too
    seats = table.match().seats
    from dataclasses import replace

    assert table.repo.update_lobby(
        table.match().id, table.match().version, (seats[0], replace(seats[1], name=forged)), status="running"
    )
    out = table.say("matti", "tila")
    assert not [line for o in out for line in o.text.splitlines() if line.lstrip().startswith("▸ Matti: 1:")]


def test_names_that_look_alike_are_told_apart():
    assert clean_name("  Liisa\u200b\u2066 \n\t Virtanen\u00ad ") == "Liisa Virtanen"
    assert clean_name("\u202eattiM") == "attiM"
    assert len(clean_name("Z" + "\u0301" * 40)) <= 3
    assert len(clean_name("x" * 300)) == 32
    assert clean_name("\u200b\u200c") == "?"
    assert clean_name("[🟪 kolibri]") == "(🟪 kolibri)"  # brackets mark cards in the bot's texts
    assert (
        name_key("Matti")
        == name_key("MATTI")
        == name_key("Mаtti")
        == name_key("Ｍａｔｔｉ")
        == name_key("M att i")
    )
    assert name_key("Matti") != name_key("Mätti")
    assert told_apart(["Matti", "Mаtti", "Pekka", "matti"]) == ("Matti", "Mаtti (2)", "Pekka", "matti (3)")
    table = Table(seed="alike")
    table.say("matti", "uusi gnav")
    table.say("m2", "liity", name="Mat\u2066ti")
    table.say("m3", "liity", name="Mаtti")  # a Cyrillic а
    names = [s.name for s in table.match().seats]
    assert names == ["Matti", "Matti (2)", "Mаtti (3)"], names
    lobby = table.group_texts()[-1]
    assert "Matti, Matti (2) ja Mаtti (3)" in lobby, lobby


# --- lobbies -----------------------------------------------------------------------------------------


def test_one_open_lobby_per_person_per_group_and_three_overall():
    table = Table(seed="lobbies")
    table.say("matti", "uusi majavajengi")
    # a forum topic of the same group: Matti's lobby there is still open
    out = table.say("matti", "uusi gnav", group=f"{GROUP}:7")
    assert "Majavajengi" in out[0].text and "”peru”" in out[0].text, out[0].text
    room = table.repo.room(PLATFORM, f"{GROUP}:7")
    assert table.repo.active_match(room.id) is None
    # someone else may open one there
    table.say("liisa", "uusi gnav", group=f"{GROUP}:7")
    assert table.repo.active_match(room.id) is not None
    # other groups: three open lobbies at most
    table.say("matti", "uusi gnav", group="g2")
    table.say("matti", "uusi gnav", group="g3")
    out = table.say("matti", "uusi gnav", group="g4")
    assert "3" in out[0].text and "peru" in out[0].text, out[0].text
    assert table.repo.active_match(table.repo.room(PLATFORM, "g4").id) is None
    out = table.say("matti", "new gnav", group="g4", lang="en")
    assert "cancel" in out[0].text, out[0].text
    # one of them cancelled: a new one may be opened
    table.say("matti", "peru", group="g2")
    table.say("matti", "uusi gnav", group="g4")
    assert table.repo.active_match(table.repo.room(PLATFORM, "g4").id) is not None


# --- languages ---------------------------------------------------------------------------------------


def test_everything_a_person_gets_in_private_is_in_their_language():
    clock = Clock()
    table = Table(seed="lang")
    table.core = new_core(table.repo, seed="lang", clock=clock, remind_after=60, act_after=600)
    table.say("matti", "uusi majavajengi")  # a Finnish group
    table.say("pekka", "liity", lang="en")  # Pekka's Telegram speaks English
    table.say("matti", "aloita")
    rng = random.Random(3)
    for _ in range(4):  # both play a few moves; the hands and prompts go to both
        user = table.acting_users()[0]
        prompt = table.prompt_for(user)
        table.press(user, rng.choice([b for row in prompt.buttons for b in row]).data)
    # a stale button's answer, a reminder, a seat given to an AI and back
    table.press("pekka", f"{table.match().id}:0:draw", lang="en")
    clock.now += 61
    table.run_due()
    table.say("matti", "poista Pekka pelistä")
    table.say("matti", "palauta Pekka peliin")
    mine = [o for o in table.sent if o.user_id == "pekka"]
    assert len(mine) >= 5
    assert [o.text for o in mine if o.lang != "en"] == []
    assert any("Your turn" in o.text or "waiting for your move" in o.text for o in mine)
    assert [o.text for o in table.sent if o.user_id == "matti" and o.lang != "fi"] == []
    # the group's own messages stay in the group's language
    assert {o.lang for o in table.sent if o.chat_id == GROUP and o.role == "table"} == {"fi"}


# --- hidden information ------------------------------------------------------------------------------


def test_a_why_question_in_the_group_never_names_the_askers_hidden_card():
    table = started("why", game="coloretto")
    match = table.match()
    engine = GAMES[match.game]
    asker = table.acting_users()[0]
    seat = next(s.seat for s in match.seats if s.user_id == table.repo.find_user(PLATFORM, asker).id)
    hand = table.prompt_for(asker).text
    playable = next(b.label.removeprefix("Pelaa ") for row in table.prompt_for(asker).buttons for b in row)
    animal = playable.split(" ", 1)[1]
    assert engine.view(engine.load(match.state), seat) is not None and animal in hand
    before = len(table.group_texts())
    out = table.say(asker, f"miksi en voi pelata {animal}a?")
    group = [o.text for o in out if o.chat_id == GROUP]
    assert group and not [t for t in group if animal in t], group
    assert any("yksityis" in t for t in group), group
    assert any(o.user_id == asker and animal in o.text for o in out), [o.text for o in out]
    # a card the asker does not hold: the reason may name their hand, so it goes to private too
    held = {b.label.split(" ", 2)[-1] for row in table.prompt_for(asker).buttons for b in row}
    out = table.say(asker, "miksi en voi pelata kolibria?")
    group = [o.text for o in out if o.chat_id == GROUP]
    assert group and all("yksityis" in t for t in group), group
    assert not [t for t in table.group_texts()[before:] for card in held if card in t]


def test_the_outbound_path_holds_back_a_group_text_with_a_hidden_identifier(caplog):
    table = started("guard", game="coloretto")
    match = table.match()
    engine = GAMES[match.game]
    token = sorted(t.strip('"') for t in engine.hidden_tokens(engine.load(match.state), None))[0]
    leak = Outbound(PLATFORM, f"katsokaa: {token}", chat_id=GROUP, buttons=())
    fine = Outbound(PLATFORM, f"{token} yksityisesti", user_id="matti")
    with caplog.at_level(logging.WARNING, logger="chatbot"), table.repo.unit():
        queued = table.core.outbox.commit([leak, fine])
    group = [o for o in queued if o.chat_id == GROUP]
    assert len(group) == 1 and token not in group[0].text and "piilossa" in group[0].text, group
    assert any(o.user_id == "matti" and token in o.text for o in queued)  # private texts are the seat's own
    assert any(r.levelname == "WARNING" and token in r.getMessage() for r in caplog.records)


# --- how seat changes read ---------------------------------------------------------------------------


def test_a_seat_change_names_the_player_in_a_form_a_finn_writes():
    table = started("genitive", players=("matti", "pekka", "kaisa"))
    for user, name in (("liisa", "Liisa"), ("zyx", "Zyxw"), ("olli", "Olli")):
        table.say(user, "moi", name=name)

    def group_line(out: list[Outbound]) -> list[str]:
        return [o.text for o in out if o.chat_id == GROUP and o.role != "table"]

    table.say("pekka", "anna paikkani Liisalle")
    assert group_line(table.say("liisa", "otan paikan")) == ["Liisa otti Pekan paikan."]
    table.say("liisa", "anna paikkani Zyxwille")
    assert group_line(table.say("zyx", "otan paikan", name="Zyxw")) == ["Zyxw otti Liisan paikan."]
    # a name whose forms the bot does not know stays in the nominative
    table.say("zyx", "anna paikkani Ollille", name="Zyxw")
    assert group_line(table.say("olli", "otan paikan")) == ["Olli otti paikan, jolla Zyxw pelasi."]
    out = group_line(table.say("matti", "poista Olli pelistä"))
    assert out == ["Matti poisti Ollin pelistä; tekoäly jatkaa hänen paikallaan."], out
    out = group_line(table.say("matti", "anna Kaisan paikka botille"))
    assert out == ["Matti antoi Kaisan paikan tekoälylle toistaiseksi."], out
    table.say("matti", "palauta Kaisa peliin")
    table.say("kaisa", "anna paikkani Zyxwille")
    table.say("zyx", "otan paikan", name="Zyxw")
    out = group_line(table.say("matti", "poista Zyxw pelistä"))
    assert out == ["Zyxw ei enää pelaa: Matti poisti hänet pelistä. Tekoäly jatkaa hänen paikallaan."], out
    assert not [o.text for o in table.sent if o.chat_id == GROUP and "pelaajan " in o.text]


def test_a_removed_players_back_says_an_admin_can_bring_them_back():
    table = started("removed")
    table.say("matti", "poista Pekka pelistä")
    out = table.say("pekka", "palaan")
    assert "”palauta Pekka peliin”" in out[0].text, out[0].text
    out = table.say("pekka", "i'm back", lang="en")
    assert "“restore Pekka”" in out[0].text, out[0].text


def test_after_someone_leaves_their_own_earlier_lines_keep_their_name():
    table = started("leave", players=("matti", "pekka", "liisa"))
    rng = random.Random(1)
    for _ in range(6):
        user = table.acting_users()[0]
        prompt = table.prompt_for(user)
        table.press(user, rng.choice([b for row in prompt.buttons for b in row]).data)
    before = [line for line in table.group_texts()[-1].splitlines() if line.startswith("· Pekka")]
    assert before
    out = table.say("pekka", "poistu")
    tables = [o.text for o in out if o.role == "table"]
    assert tables
    lines = tables[-1].splitlines()
    assert [line for line in lines if line.startswith("· Pekka:")] == before
    assert not [line for line in lines if line.startswith("· Pekka (tekoäly)")]
    assert "Pekka (tekoäly): 1:" in tables[-1]  # the table itself shows who plays the seat now
    # the AI's own moves are told as the AI's
    for _ in range(30):
        if "pekka" in table.acting_users() or not table.acting_users():
            break
        user = table.acting_users()[0]
        prompt = table.prompt_for(user)
        table.press(user, rng.choice([b for row in prompt.buttons for b in row]).data)
    assert any("▸ Pekka (tekoäly)" in t or "· Pekka (tekoäly)" in t for t in table.group_texts())


def test_the_script_transport_names_the_receiver_by_mention_or_reply():
    import json

    from chatbot.storage import SqlRepository
    from chatbot.transports.script import run_lines

    core = new_core(SqlRepository("sqlite://"), seed="script")
    lines = [
        {"user": "anna", "text": "uusi majavajengi"},
        {"user": "bob", "text": "liity"},
        {"user": "anna", "text": "aloita"},
        {"user": "cara", "name": "Bob", "text": "moi"},  # two more Bobs in the group
        {"user": "dave", "name": "Bob", "text": "moi"},
        {"user": "bob", "text": "anna paikkani Bobille"},
        {"user": "bob", "text": "anna paikkani", "reply_to": "cara"},
        {"user": "cara", "name": "Bob", "text": "otan paikan"},
    ]
    out = list(run_lines(core, [json.dumps(line) for line in lines]))
    texts = [o["text"] for o in out if o.get("chat") == "group"]
    assert any("useampi" in t for t in texts), texts
    assert any(t.startswith("Bob (2) otti") or t.startswith("Bob otti") for t in texts), texts
    room = core.repo.room("script", "group")
    seat = core.repo.active_match(room.id).seats[1]
    assert seat.user_id == core.repo.find_user("script", "cara").id


def test_on_the_console_a_hand_over_says_there_is_nobody_else_to_take_the_seat():
    """The console table has one person: "anna paikkani Liisalle" there once asked to mention Liisa
    or answer her message, which nobody can do on the console."""
    import io

    from chatbot.storage import SqlRepository
    from chatbot.transports.console import ConsoleTable

    out = io.StringIO()
    console = ConsoleTable(
        new_core(SqlRepository("sqlite://"), seed="console"), name="Matti\u200b\nEve", delay=0, out=out
    )
    for line in ("uusi majavajengi", "lisää botti", "aloita", "anna paikkani Liisalle"):
        console.send(line)
    console.close()
    text = out.getvalue()
    assert "Kukaan muu ei ole vielä kirjoittanut tänne" in text, text[-600:]
    assert "Matti Eve" in text and "Matti\nEve" not in text  # the name shown on one line
