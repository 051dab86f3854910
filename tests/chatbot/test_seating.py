"""Before and after a match (issue #16): a small table is asked once whether to fill its empty seats,
and the final message's "Rematch" sets up the same game, options, pace and seats again."""

from __future__ import annotations

import random

from chatbot.core.commands import parse_command
from chatbot.core.ports import LOBBY, OVER, RUNNING
from engines.keyed import KEYED_SEED
from tests.chatbot.table import Table


def lobby_of_two(game: str = "gnav", options: str = "") -> Table:
    table = Table(seed="seating")
    table.say("matti", f"uusi {game} {options}".strip())
    table.say("liisa", "liity")
    return table


def buttons_of(out) -> list[tuple[str, str]]:
    return [(b.label, b.data) for o in out for row in o.buttons for b in row]


def test_two_people_starting_gnav_are_asked_once_and_fill_to_four():
    table = lobby_of_two()
    out = table.say("matti", "aloita")
    assert table.match().status == LOBBY  # nothing dealt yet: first the question
    question = [o for o in out if o.chat_id == "g1"]
    assert len(question) == 1 and question[0].key == f"table:{table.match().id}"  # in the lobby's place
    assert "2 pelaajaa" in question[0].text and "4" in question[0].text
    assert "täytetäänkö" in question[0].text.casefold() or "täytänkö" in question[0].text.casefold()
    labels = [label for label, _ in buttons_of(question)]
    assert len(labels) == 2
    fill = next(data for label, data in buttons_of(question) if "tekoäly" in label.casefold())
    # a press in private (not where it was offered) changes nothing
    table.press("liisa", fill, private=True)
    assert table.match().status == LOBBY
    table.press("liisa", fill, private=False)
    match = table.match()
    assert match.status == RUNNING
    assert [s.name for s in match.seats] == ["Matti", "Liisa", "Botti 1", "Botti 2"]
    assert [s.user_id is None for s in match.seats] == [False, False, True, True]


def test_as_we_are_deals_two_seats_and_words_answer_too():
    table = lobby_of_two()
    table.say("matti", "aloita")
    table.say("liisa", "pelataan näin")
    match = table.match()
    assert match.status == RUNNING and len(match.seats) == 2
    english = lobby_of_two()
    english.say("matti", "start", lang="en")
    out = english.say("liisa", "fill", lang="en")
    assert english.match().status == RUNNING and len(english.match().seats) == 4
    assert out  # the table is dealt


def test_no_question_where_nothing_can_be_asked():
    # below the minimum the game cannot be played as it is: filled at once to the usual table
    alone = Table(seed="seating")
    alone.say("matti", "uusi gnav")
    alone.say("matti", "aloita")
    assert alone.match().status == RUNNING and len(alone.match().seats) == 4
    # a game whose usual table is its minimum never asks
    two = lobby_of_two("majavajengi")
    two.say("matti", "aloita")
    assert two.match().status == RUNNING and len(two.match().seats) == 2
    # nor does a table already at its usual size
    four = lobby_of_two()
    four.say("matti", "lisää botti")
    four.say("matti", "lisää botti")
    four.say("matti", "aloita")
    assert four.match().status == RUNNING and len(four.match().seats) == 4


def test_fill_words_outside_a_lobby_are_not_commands():
    assert parse_command("täytä").name == "fill"
    assert parse_command("Pelataan näin").name == "as_is"
    assert parse_command("as we are").name == "as_is"
    table = Table(seed="seating")
    assert table.say("matti", "täytä") == []  # plain chat in a group without a game


def play_to_the_end(table: Table) -> None:
    table.play_randomly(random.Random(3))
    assert table.repo.match(1).status == OVER


def final_message(table: Table):
    return [o for o in table.sent if o.chat_id == "g1" and "🏆" in o.text][-1]


def test_a_rematch_starts_with_the_same_seats_options_and_pace():
    table = Table(seed="seating")
    table.say("matti", "uusi majavajengi kierrokset=2 muistiapu=on tahti=päivä")
    table.say("liisa", "liity")
    table.say("matti", "lisää vahva botti")
    table.say("matti", "aloita")
    first = table.match()
    play_to_the_end(table)
    final = final_message(table)
    [(label, data)] = buttons_of([final])
    assert label == "🔁 Uusi peli samoilla pelaajilla"
    # someone who did not play, and the press outside the room, change nothing
    table.press("pekka", data, private=False)
    table.press("matti", data, private=True)
    other = table.press("matti", data, private=False, group="g2")
    assert "ei toimi täällä" in other[0].text
    assert table.match() is None and table.repo.active_match(table.repo.room("test", "g2").id) is None
    out = table.press("matti", data, private=False)
    lobby = table.match()
    assert lobby.status == LOBBY and lobby.id != first.id
    assert "Liisa" in out[-1].text  # the lobby says whom it waits for
    assert table.repo.match(first.id).status == OVER
    # Liisa confirms with the lobby's button: the game starts at once
    [(_, yes)] = buttons_of(out[-1:])
    table.press("liisa", yes, private=False)
    again = table.repo.match(lobby.id)
    assert again.status == RUNNING
    assert [(s.name, s.user_id, s.ai) for s in again.seats] == [
        (s.name, s.user_id, s.ai) for s in first.seats
    ]
    assert again.options == first.options
    assert again.meta["pace"] == first.meta["pace"]
    # the old final message's button has done its work
    table.press("liisa", data, private=False)
    assert table.match().id == again.id and table.match().status == RUNNING


def test_every_person_pressing_starts_it_and_a_lone_person_starts_at_once():
    table = lobby_of_two("majavajengi", "kierrokset=2")
    table.say("matti", "aloita")
    play_to_the_end(table)
    [(_, data)] = buttons_of([final_message(table)])
    table.press("liisa", data, private=False)
    assert table.match().status == LOBBY
    table.press("matti", data, private=False)
    assert table.match().status == RUNNING and table.match().id == 2
    # one person and AI players: the press starts the game itself
    solo = Table(seed="seating")
    solo.say("matti", "uusi coloretto")
    solo.say("matti", "aloita")
    play_to_the_end(solo)
    [(_, data)] = buttons_of([final_message(solo)])
    solo.press("matti", data, private=False)
    assert solo.match().status == RUNNING and len(solo.match().seats) == 2


def test_a_typed_rematch_and_a_player_who_declines():
    table = lobby_of_two("majavajengi", "kierrokset=2")
    table.say("matti", "aloita")
    play_to_the_end(table)
    table.say("matti", "uusi peli samoilla pelaajilla")
    assert table.match().status == LOBBY
    out = table.say("matti", "aloita")
    assert table.match().status == LOBBY and "Liisa" in out[0].text  # waits for Liisa's yes
    table.say("liisa", "poistu")  # Liisa will not play: Matti alone cannot, so the lobby waits
    assert table.match().status == LOBBY and len(table.match().seats) == 1
    table.say("liisa", "pelataan uudestaan")  # she changes her mind: back in, and it starts
    assert table.match().status == RUNNING and len(table.match().seats) == 2
    table.say("matti", "peru")
    assert table.say("pekka", "rematch") and table.match() is None  # not seated: refused


def test_a_rematch_gives_a_seat_back_to_its_person_but_not_to_one_who_left():
    table = Table(seed="seating")
    table.say("matti", "uusi majavajengi kierrokset=2")
    table.say("liisa", "liity")
    table.say("pekka", "liity")
    table.say("matti", "aloita")
    table.say("matti", "anna Liisan paikka botille")
    table.say("pekka", "poistu")
    first = table.match()
    assert [s.user_id is None for s in first.seats] == [False, True, True]
    play_to_the_end(table)
    [(_, data)] = buttons_of([final_message(table)])
    out = table.press("pekka", data, private=False)
    assert table.match() is None and "Vain sen pelin pelaajat" in out[0].text
    table.press("liisa", data, private=False)
    lobby = table.match()
    people = [table.repo.user_by_id(s.user_id).ext_id if s.user_id else None for s in lobby.seats]
    assert people == ["matti", "liisa", None] and lobby.seats[2].ai is not None
    assert lobby.status == LOBBY  # Matti has not said yes yet
    table.say("matti", "liity")
    assert table.repo.match(lobby.id).status == RUNNING


def test_a_rematch_and_a_daily_pace_on_either_database(db_url):
    """The rematch's lobby, its pace and its start happen in one unit each, on SQLite and PostgreSQL."""
    table = Table(url=db_url, seed="seating-db")
    table.say("matti", "uusi coloretto tahti=päivä hiljaa=22-8")
    table.say("matti", "aloita")
    first = table.match()
    table.play_randomly(random.Random(5))
    [(_, data)] = buttons_of([final_message(table)])
    table.press("matti", data, private=False)
    again = table.match()
    assert again.id != first.id and again.status == RUNNING
    assert again.meta["pace"] == first.meta["pace"] and again.meta["pace"]["quiet"] == [1320, 480]
    assert [(s.name, s.ai) for s in again.seats] == [(s.name, s.ai) for s in first.seats]


def test_the_chat_makes_keyed_seeds_for_new_games_and_rematches_and_they_replay():
    # issue #28: the chat's own seeds (no base seed set) are of the keyed form, whose generators are
    # cheap; a finished match still replays from its log to the stored final state
    table = Table(seed=None)
    table.say("matti", "uusi majavajengi kierrokset=2")
    table.say("matti", "aloita")
    first = table.match()
    assert first.seed.startswith(KEYED_SEED) and len(first.seed) > len(KEYED_SEED) + 8
    play_to_the_end(table)
    finished = table.repo.match(first.id)
    replay = table.core.replays.replay_of(finished)
    assert replay.problem is None and replay.last == len(table.repo.actions(first.id)) > 0
    [(_, data)] = buttons_of([final_message(table)])
    table.press("matti", data, private=False)
    again = table.match()
    assert again.status == RUNNING and again.id != first.id
    assert again.seed.startswith(KEYED_SEED) and again.seed != first.seed
