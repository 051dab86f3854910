"""Statistics, history and replay (issue #16) through the real core on real SQLite: scripted matches
in two groups, then what "tilastot", "omat tilastot", "historia" and "näytä peli N" answer."""

from __future__ import annotations

import random
import re

import pytest
from sqlalchemy import text

from chatbot.core.ports import RUNNING
from chatbot.games import UIS
from engines import GAMES
from tests.chatbot.table import PLATFORM, Table

G1, G2 = "g1", "g2"
#: options that keep a match short (as in the UI contract test)
SHORT = {
    "majavajengi": "kierrokset=1",
    "gnav": "elämät=1",
    "afrikan_tahti": "pikapeli max_rounds=12",
    "coloretto_amazonas": "",
}


def start(table: Table, game: str, group: str, people: list[str], bots: int = 0, options: str = "") -> int:
    table.say(people[0], f"uusi {UIS[game].aliases[0]} {options}".strip(), group=group)
    for user in people[1:]:
        table.say(user, "liity", group=group)
    for _ in range(bots):
        table.say(people[0], "lisää botti", group=group)
    table.say(people[0], "aloita", group=group)
    match = table.repo.active_match(table.repo.room(PLATFORM, group).id)
    assert match is not None and match.status == RUNNING
    return match.id


def play_out(table: Table, match_id: int, rng: random.Random) -> None:
    """The people of the match press random buttons of their latest prompt until it ends."""
    for _ in range(5000):
        match = table.repo.match(match_id)
        if match.status != RUNNING:
            return
        engine = GAMES[match.game]
        state = engine.load(match.state)
        seat = next(s for s in engine.to_act(state) if match.seats[s].user_id is not None)
        user = table.repo.user_by_id(match.seats[seat].user_id).ext_id
        prompt = table.prompt_for(user)
        assert prompt is not None
        table.press(user, rng.choice([b for row in prompt.buttons for b in row]).data)
    raise AssertionError("the match did not end")


def play(table: Table, game: str, group: str, people: list[str], bots: int, rng: random.Random) -> int:
    match_id = start(table, game, group, people, bots, SHORT[game])
    play_out(table, match_id, rng)
    return match_id


def outcome_of(table: Table, match_id: int):
    match = table.repo.match(match_id)
    engine = GAMES[match.game]
    return match, engine.outcome(engine.load(match.state))


def games_fi(n: int) -> str:
    return f"{n} peli" if n == 1 else f"{n} peliä"


def wins_fi(n: int) -> str:
    return f"{n} voitto" if n == 1 else f"{n} voittoa"


def expected_figures(table: Table, match_ids: list[int], user: str) -> dict[str, tuple[int, int, list[int]]]:
    """Per game: (played, won, scores of every seat of the user), from the stored final states."""
    uid = table.repo.user(PLATFORM, user, user.capitalize()).id
    out: dict[str, tuple[int, int, list[int]]] = {}
    for match_id in match_ids:
        match, outcome = outcome_of(table, match_id)
        seats = [s.seat for s in match.seats if s.user_id == uid]
        if not seats:
            continue
        played, won, scores = out.get(match.game, (0, 0, []))
        out[match.game] = (
            played + 1,
            won + (1 if set(seats) & set(outcome.winners) else 0),
            scores + [outcome.scores[s] for s in seats],
        )
    return out


@pytest.fixture(scope="module")
def two_groups():
    """Matti plays in two groups (with Liisa in one, with Pekka in the other), AI seats in both;
    one more match is cancelled and one still runs."""
    table = Table(seed="records")
    rng = random.Random(16)
    ids = {
        G1: [
            play(table, "majavajengi", G1, ["matti", "liisa"], 1, rng),
            play(table, "majavajengi", G1, ["matti", "liisa"], 0, rng),
            play(table, "gnav", G1, ["matti", "liisa"], 2, rng),
        ],
        G2: [
            play(table, "majavajengi", G2, ["pekka", "matti"], 1, rng),
            play(table, "gnav", G2, ["matti", "pekka"], 2, rng),
        ],
    }
    start(table, "gnav", G2, ["pekka"], 3, "elämät=1")
    table.say("pekka", "peru", group=G2)
    running = start(table, "majavajengi", G1, ["liisa", "matti"], 0, "kierrokset=1")
    return table, ids, running


def stats_lines(out) -> list[str]:
    return out[0].text.splitlines()


def game_block(lines: list[str], title: str) -> list[str]:
    """The lines of one game's part of the statistics (up to the next blank line)."""
    start = next(i for i, line in enumerate(lines) if line.startswith(title + " – "))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i]), len(lines))
    return lines[start + 1 : end]


def person_line(block: list[str], name: str) -> str:
    found = [line for line in block if re.match(rf"\d+\. {name}: ", line)]
    assert len(found) == 1, block
    return found[0]


def test_group_statistics_count_each_person_of_the_group_and_ai_seats_apart(two_groups):
    table, ids, _running = two_groups
    lines = stats_lines(table.say("liisa", "tilastot", group=G1))
    assert lines[0] == "📊 Ryhmän tilastot: 3 päättynyttä peliä"  # not the cancelled nor the running one
    for game in ("majavajengi", "gnav"):
        block = game_block(lines, _title(game))
        for user in ("matti", "liisa"):
            played, won, scores = expected_figures(table, ids[G1], user)[game]
            line = person_line(block, user.capitalize())
            assert f": {games_fi(played)}, {wins_fi(won)}" in line
            if game == "majavajengi":
                assert line.endswith(f"pienin loppusumma {min(scores)}")
        # the AI seats have a line of their own, and no bot is among the people
        assert sum(1 for line in block if line.startswith("🤖 Tekoälypelaajat: ")) == 1
        assert not [line for line in block if "Botti" in line]
        assert not [line for line in block if "Pekka" in line]  # he plays in the other group only
    heading = lines.index("🏅 Eniten voittoja")
    board = lines[heading + 1 : lines.index("", heading)]
    assert len(board) == 2
    wins = []
    for line in board:
        name = re.sub(r"^\d+\. (\w+) – .*$", r"\1", line)
        figures = expected_figures(table, ids[G1], name.lower()).values()
        won, played = sum(v[1] for v in figures), sum(v[0] for v in figures)
        assert line.endswith(f"– {wins_fi(won)} ({games_fi(played)})")
        wins.append(won)
    assert wins == sorted(wins, reverse=True)


def _title(game: str) -> str:
    from chatbot.core.i18n import translator

    return UIS[game].title(translator("fi"))


def test_my_statistics_agree_with_the_groups_and_come_in_private(two_groups):
    table, ids, _running = two_groups
    out = table.say("matti", "omat tilastot", group=G2)
    private = [o for o in out if o.user_id == "matti"]
    assert len(private) == 1 and [o.text for o in out if o.chat_id == G2] == [
        "Lähetin tilastosi sinulle yksityisviestinä."
    ]
    mine = private[0].text.splitlines()
    every = expected_figures(table, ids[G1] + ids[G2], "matti")
    played = sum(v[0] for v in every.values())
    won = sum(v[1] for v in every.values())
    assert mine[0] == f"📊 Omat tilastosi, Matti: {games_fi(played)}, {wins_fi(won)} (2 ryhmässä)"
    for game, (g_played, g_won, scores) in every.items():
        line = next(x for x in mine if x.startswith(_title(game) + ": "))
        assert line.startswith(f"{_title(game)}: {games_fi(g_played)}, {wins_fi(g_won)}")
        # the sum of what each group's statistics say of him
        per_group = []
        for group in (G1, G2):
            block = game_block(stats_lines(table.say("matti", "tilastot", group=group)), _title(game))
            found = re.search(r": (\d+) pel\w+, (\d+) voit", person_line(block, "Matti"))
            per_group.append((int(found[1]), int(found[2])))
        assert (g_played, g_won) == (sum(p for p, _ in per_group), sum(w for _, w in per_group))
        if game == "majavajengi":
            assert line.endswith(f"pienin loppusumma {min(scores)}")
    # the same in private, and in English
    assert table.say("matti", "my stats", private=True)[0].text.splitlines() == mine
    table.say("matti", "language en", private=True)
    english = table.say("matti", "my stats", private=True)[0].text
    assert english.startswith(f"📊 Your statistics, Matti: {played} game")
    table.say("matti", "kieli fi", private=True)


def test_history_lists_the_rooms_finished_matches_newest_first_with_ids(two_groups):
    table, ids, running = two_groups
    out = table.say("liisa", "historia", group=G1)
    lines = out[0].text.splitlines()
    assert lines[0] == "📜 Ryhmän viimeisimmät pelit"
    listed = [int(x) for x in re.findall(r"^#(\d+) ", "\n".join(lines), flags=re.M)]
    assert listed == sorted(ids[G1], reverse=True) and running not in listed
    for line in lines[1:-1]:
        match_id = int(line[1:].split(" ")[0])
        match, outcome = outcome_of(table, match_id)
        names = [s.name for s in match.seats]
        assert _title(match.game) in line and re.search(r"· \d{1,2}\.\d{1,2}\.\d{4} ·", line)
        assert (" ja ".join([", ".join(names[:-1]), names[-1]])) in line
        winners = [names[s] for s in outcome.winners]
        assert line.endswith(("voittaja: " if len(winners) == 1 else "voittajat: ") + " ja ".join(winners))
    assert lines[-1] == f"Katso peli uudelleen sen painikkeella tai kirjoita ”näytä peli {listed[0]}”."
    # each listed match has a button that opens its replay here
    buttons = {b.label: b.data for row in out[0].buttons for b in row}
    assert list(buttons) == [f"🎬 {i}" for i in listed]
    opened = table.press("pekka", buttons[f"🎬 {listed[-1]}"], private=False, group=G1)
    assert [o.chat_id for o in opened] == [G1] and opened[0].text.startswith(
        f"🎬 Uusinta: peli {listed[-1]},"
    )
    assert opened[0].key.startswith(f"replay:{listed[-1]}:")
    # ... but nowhere else: not in another group, nor in private to someone who did not play it
    for elsewhere in (
        table.press("pekka", buttons[f"🎬 {listed[-1]}"], private=False, group=G2),
        table.press("pekka", buttons[f"🎬 {listed[-1]}"], private=True),
        table.press("matti", f"{running}:0:~0", private=False, group=G1),
    ):
        assert [o.key for o in elsewhere] == [None] and elsewhere[0].text.startswith("Tämä painike ei toimi")
    # in private: one's own matches from both groups
    own = table.say("pekka", "historia", private=True)
    assert [int(x) for x in re.findall(r"^#(\d+) ", own[0].text, flags=re.M)] == sorted(ids[G2], reverse=True)
    first = next(b.data for row in own[0].buttons for b in row)
    assert table.press("pekka", first, private=True)[0].text.startswith("🎬 Uusinta")
    assert table.say("uusi", "historia", group="g3")[0].text.startswith("Tässä ryhmässä ei ole vielä pelattu")


def test_results_of_matches_from_before_the_results_table_are_made_when_asked(two_groups):
    table, ids, _running = two_groups
    before = table.say("liisa", "tilastot", group=G1)[0].text
    with table.repo.engine.begin() as conn:
        conn.execute(text("DELETE FROM matchresult"))
    assert table.say("liisa", "tilastot", group=G1)[0].text == before
    with table.repo.engine.connect() as conn:
        assert conn.execute(text("SELECT COUNT(*) FROM matchresult")).scalar() == len(ids[G1])


# --- replay ---------------------------------------------------------------------------------------


def table_bodies(table: Table, match_id: int, group: str) -> dict[int, str]:
    """The public tables the group was sent during the match (the lobby left out), by the number of
    moves made before each."""
    rows = [
        o
        for o in table.outbox(f"{PLATFORM}:g:{group}")
        if o.key == f"table:{match_id}" and not any("@" in b.data for row in o.buttons for b in row)
    ]
    start = rows[0].version or 0
    return {(o.version or 0) - start: o.text for o in rows}


def replay_body(text_: str) -> str:
    return text_.split("\n\n", 1)[1]


@pytest.mark.parametrize("game", sorted(UIS))
def test_a_replay_stepped_to_the_end_shows_every_recorded_public_table(game):
    table = Table(seed=f"replay:{game}")
    people = ["matti", "liisa"] if game != "gnav" else ["matti"]
    match_id = play(table, game, G1, people, 3 if game == "gnav" else 0, random.Random(game))
    recorded = table_bodies(table, match_id, G1)
    moves = len(table.repo.actions(match_id))
    if game == "gnav":
        # once the person is out, the AI seats play the match out at once and the group gets the
        # final table only (issue #27)
        played = max(k for k in recorded if k < moves)
        assert sorted(recorded) == [*range(played + 1), moves]
    else:
        assert sorted(recorded) == list(range(moves + 1))  # the start and one per action
    # the result was stored with the last move, with the game's own figures for each seat
    result = table.repo.finished_matches()[0].result
    winner = result["figures"][result["winners"][0]]
    assert (
        len(result["figures"]) == len(result["ranks"])
        and set(winner)
        >= {
            "majavajengi": {"total"},
            "gnav": {"lives"},
            "coloretto_amazonas": {"score"},
            "afrikan_tahti": {"rounds", "how"},
        }[game]
    )
    out = table.say("liisa", f"näytä peli {match_id}", group=G1)
    assert len(out) == 1 and out[0].key == f"replay:{match_id}:1" and out[0].chat_id == G1
    shown = [out[0]]
    for _ in range(moves):
        labels = {b.label: b.data for row in shown[-1].buttons for b in row}
        step = table.press("liisa", labels["Seuraava ▶"], private=False)
        assert len(step) == 1 and step[0].key == shown[0].key  # the same message, edited
        shown.append(step[0])
    for k, message in enumerate(shown):
        assert message.text.startswith(f"🎬 Uusinta: peli {match_id}, {_title(game)} – ")
        body = recorded.get(k)
        assert body is None or (
            body == replay_body(message.text) or body.endswith("\n\n" + replay_body(message.text))
        ), k
        assert "⚠️ Uusinta ei" not in message.text and "⚠️ Tallennettua" not in message.text
        # the same four buttons at every step, in the same places
        assert [[b.label for b in row] for row in message.buttons] == [
            ["◀ Edellinen", "Seuraava ▶"],
            ["⏮ Alkuun", "Loppuun ⏭"],
        ]
    last = moves
    assert f"siirto {last}/{last}" in shown[-1].text
    # "Seuraava" at the end stays at the end; "Alkuun" goes back to the start
    labels = {b.label: b.data for row in shown[-1].buttons for b in row}
    assert f"siirto {last}/{last}" in table.press("liisa", labels["Seuraava ▶"], private=False)[0].text
    assert " – alkuasetelma\n" in table.press("liisa", labels["⏮ Alkuun"], private=False)[0].text


def test_a_replay_of_a_running_match_is_refused_and_others_groups_matches_are_not_found(two_groups):
    table, ids, running = two_groups
    out = table.say("matti", f"näytä peli {running}", group=G1)
    assert [o.text for o in out] == [
        f"Peli {running} on vielä kesken. Sen voi katsoa uudelleen, kun se on päättynyt."
    ]
    assert not out[0].buttons and out[0].key is None
    # in private too, to one of its players
    out = table.say("liisa", f"replay {running}", private=True)
    assert "on vielä kesken" in out[0].text and not out[0].buttons
    # a finished match of another group is not even said to exist
    other = ids[G2][0]
    out = table.say("liisa", f"näytä peli {other}", group=G1)
    assert (
        out[0].text == f"Täältä ei löydy peliä numero {other}. Päättyneet pelit näet komennolla ”historia”."
    )
    # nor is it in private to someone who did not play it; its player may watch it there
    assert "ei löydy" in table.say("liisa", f"näytä peli {other}", private=True)[0].text
    assert table.say("pekka", f"näytä peli {other}", private=True)[0].text.startswith("🎬 Uusinta")
    # the cancelled match has no replay
    cancelled = running - 1
    out = table.say("pekka", f"näytä peli {cancelled}", group=G2)
    assert out[0].text == f"Peli {cancelled} keskeytettiin ennen loppua, joten sitä ei voi katsoa uudelleen."
    # "näytä peli" with no number during a game shows the game's table, not a replay
    out = table.say("matti", "näytä peli", group=G1)
    assert out and all(not o.text.startswith("🎬") for o in out)


def test_a_replay_button_moves_only_its_own_message_in_its_own_chat(two_groups):
    table, ids, _running = two_groups
    match_id = ids[G2][0]
    last = len(table.repo.actions(match_id))
    first = table.say("pekka", f"näytä peli {match_id}", group=G2)[0]
    second = table.say("matti", f"replay {match_id}", group=G2)[0]
    assert first.key != second.key and "alkuasetelma" in first.text and "alkuasetelma" in second.text
    # typed words step the chat's latest replay, and only it
    typed = table.say("pekka", "seuraava", group=G2)
    assert [o.key for o in typed] == [second.key] and f"siirto 1/{last}" in typed[0].text
    next_data = next(b.data for row in first.buttons for b in row if b.label == "Seuraava ▶")
    moved = table.press("matti", next_data, private=False, group=G2)
    assert [o.key for o in moved] == [first.key] and f"siirto 1/{last}" in moved[0].text
    # the pressed one is now the chat's latest
    assert [o.key for o in table.say("pekka", "seuraava", group=G2)] == [first.key]
    assert f"siirto 1/{last}" in table.say("pekka", "edellinen", group=G2)[0].text
    assert f"siirto {last}/{last}" in table.say("pekka", "loppuun", group=G2)[0].text
    # an old button pressed again goes where it says, harmlessly
    assert f"siirto 1/{last}" in table.press("pekka", next_data, private=False, group=G2)[0].text
    # the same button pressed elsewhere (in private, in another group) does nothing there
    before = table.repo.kv_get("replay", first.key.removeprefix("replay:"))
    for elsewhere in (
        table.press("matti", next_data, private=True),
        table.press("liisa", next_data, private=False, group=G1),
    ):
        assert [o.key for o in elsewhere] == [None]
        assert elsewhere[0].text.startswith("Tämä painike ei toimi täällä.")
    assert table.repo.kv_get("replay", first.key.removeprefix("replay:")) == before
    # forged data: a replay that does not exist; a step past the end is the end
    assert table.press("matti", f"{match_id}:2:~99", private=False, group=G2)[0].key is None
    far = table.press("matti", f"{match_id}:99999:~{first.key.rsplit(':', 1)[1]}", private=False, group=G2)
    assert far[0].key == first.key and f"siirto {last}/{last}" in far[0].text
    # the second message stayed where it was
    assert table.repo.kv_get("replay", second.key.removeprefix("replay:"))["step"] == 1


def test_typed_step_words_stay_moves_for_someone_in_a_running_game(two_groups):
    table, ids, _running = two_groups
    table.say("liisa", f"näytä peli {ids[G1][0]}", group=G1)
    session = table.repo.kv_get("replay-last", f"{PLATFORM}:g:{G1}")
    step_before = table.repo.kv_get("replay", session)["step"]
    out = table.say("matti", "seuraava", group=G1)  # Matti plays the running match of this group
    assert all(not o.text.startswith("🎬") for o in out)
    assert table.repo.kv_get("replay", session)["step"] == step_before


def test_a_log_that_does_not_replay_to_the_stored_state_is_reported(two_groups):
    table, ids, _running = two_groups
    match_id = ids[G1][0]
    with table.repo.engine.begin() as conn:
        original = conn.execute(
            text("SELECT state FROM snapshot WHERE match_id = :m"), {"m": match_id}
        ).scalar_one()
        conn.execute(
            text("UPDATE snapshot SET state = :s WHERE match_id = :m"),
            {
                "s": original.replace('"ply": ', '"ply": 1', 1) if isinstance(original, str) else original,
                "m": match_id,
            },
        )
    table.core.replays.forget()
    out = table.say("liisa", f"näytä peli {match_id}", group=G1)[0]
    assert "⚠️ Uusinta ei päädy tallennettuun lopputilanteeseen" in out.text
    # an action the rules refuse: the replay stops before it and says so
    with table.repo.engine.begin() as conn:
        conn.execute(
            text("UPDATE snapshot SET state = :s WHERE match_id = :m"), {"s": original, "m": match_id}
        )
        move = conn.execute(
            text("SELECT notation FROM actionlog WHERE match_id = :m AND ply = 3"), {"m": match_id}
        ).scalar_one()
        conn.execute(
            text("UPDATE actionlog SET notation = 'no such move' WHERE match_id = :m AND ply = 3"),
            {"m": match_id},
        )
    table.core.replays.forget()
    out = table.say("liisa", f"näytä peli {match_id}", group=G1)[0]
    assert "⚠️ Tallennettua siirtolokia ei voi toistaa siirtoa 2 pidemmälle" in out.text
    end = next(b.data for row in out.buttons for b in row if b.label == "Loppuun ⏭")
    assert end.startswith(f"{match_id}:2:")
    with table.repo.engine.begin() as conn:
        conn.execute(
            text("UPDATE actionlog SET notation = :n WHERE match_id = :m AND ply = 3"),
            {"n": move, "m": match_id},
        )
    table.core.replays.forget()
    assert "⚠️ Tallennettua" not in table.say("liisa", f"näytä peli {match_id}", group=G1)[0].text


MEASURES = {
    "majavajengi": (
        [{"total": 31}, {"total": 12}, {"total": 20}],
        [{"total": 12}],
        "pienin loppusumma 12",
        "lowest total 12",
    ),
    "coloretto_amazonas": (
        [{"score": 14}, {"score": 27}],
        [{"score": 27}],
        "paras tulos 27",
        "best score 27",
    ),
    "gnav": (
        [{"lives": 0}, {"lives": 2}, {"lives": 1}],
        [{"lives": 2}, {"lives": 1}],
        "parhaassa voitossa 2 elämää jäljellä",
        "best win with 2 lives left",
    ),
    "afrikan_tahti": (
        [
            {"rounds": 20, "how": "star", "found": "self"},
            {"rounds": 18, "how": "star", "found": "self"},
            {"rounds": 25, "how": "star", "found": "other"},
            {"rounds": 14, "how": "horseshoe"},
            {"rounds": 30, "how": "limit"},
            {"rounds": 30},
        ],
        [
            {"rounds": 20, "how": "star", "found": "self"},
            {"rounds": 18, "how": "star", "found": "self"},
            {"rounds": 25, "how": "star", "found": "other"},
            {"rounds": 14, "how": "horseshoe"},
            {"rounds": 30, "how": "limit"},
        ],
        "2 itse löydetyllä tähdellä, 1 toiselta viedyllä tähdellä, 1 hevosenkengällä ja 1 kierrosrajalla, "
        "nopein voitto 14 kierroksessa",
        "2 with a Star they found, 1 with a Star taken from another, 1 with a horseshoe, and 1 at the "
        "round limit, fastest win in 14 rounds",
    ),
}


@pytest.mark.parametrize("game", sorted(MEASURES))
def test_each_game_words_its_own_measure(game):
    from chatbot.core.i18n import translator

    played, wins, fi, en = MEASURES[game]
    assert UIS[game].figures_text(played, wins, translator("fi")) == fi
    assert UIS[game].figures_text(played, wins, translator("en")) == en
    # no win: Gnav and Afrikan Tähti measure wins only
    alone = UIS[game].figures_text(played[:1], [], translator("fi"))
    assert (alone is None) == (game in {"gnav", "afrikan_tahti"})


def test_history_dates_are_the_rooms_own():
    """A match that ended at 23.30 UTC ended the next day in Helsinki (a room's default zone), and
    on that day in the zone the room chose."""
    from datetime import UTC, datetime

    from chatbot.compose import new_core

    table = Table(seed="zone")
    late = datetime(2026, 12, 2, 23, 30, tzinfo=UTC).timestamp()
    table.core = new_core(table.repo, seed="zone", clock=lambda: late)
    play(table, "majavajengi", G1, ["matti", "liisa"], 0, random.Random(1))
    assert " · 3.12.2026 · " in table.say("matti", "historia", group=G1)[0].text
    table.repo.kv_set("room-zone", str(table.repo.room(PLATFORM, G1).id), "America/New_York")
    assert " · 2.12.2026 · " in table.say("matti", "historia", group=G1)[0].text


def test_a_big_group_sees_its_ten_best_and_how_many_more():
    from tests.chatbot.finished import finished_match

    table = Table(seed="big")
    people = [(f"p{i}", f"Pelaaja{i:02}") for i in range(12)]
    for chunk in (people[:6], people[6:]):
        finished_match(table.repo, PLATFORM, "g9", chunk)
    lines = table.say("p0", "tilastot", group="g9")[0].text.splitlines()
    assert lines[0] == "📊 Ryhmän tilastot: 2 päättynyttä peliä"
    heading = lines.index("🏅 Eniten voittoja")
    assert len(lines[heading + 1 : lines.index("", heading)]) == 10
    block = game_block(lines, _title("majavajengi"))
    assert len(block) == 11 and block[-1] == "… ja 2 muuta pelaajaa"
    assert all(re.match(r"\d+\. \w+: 1 peli, [01] voitto", line) for line in block[:-1])


def test_a_replay_message_stays_one_message_however_much_happened(monkeypatch):
    """What happened at a step is cut (the oldest lines first, what was private before that) so that
    the replay message fits in one Telegram message; the table itself is always whole."""
    import chatbot.core.replay as replay

    table = Table(seed="long-step")
    match_id = play(table, "majavajengi", G1, ["matti", "liisa"], 0, random.Random(3))
    whole = table.say("liisa", f"näytä peli {match_id}", group=G1)[0]
    end = next(b.data for row in whole.buttons for b in row if b.label == "Loppuun ⏭")
    full = table.press("liisa", end, private=False)[0].text
    monkeypatch.setattr(replay, "REPLAY_TEXT_LIMIT", len(full) - 40)
    cut = table.press("liisa", end, private=False)[0].text
    assert len(cut) < len(full) and replay_body(cut).endswith(replay_body(full).split("\n\n", 1)[-1])
    body = full.split("\n\n")[-1]
    assert cut.endswith(body) and "🔒" not in cut and "▸ …" in cut


@pytest.mark.parametrize("options", [{"expansion": False}, {}], ids=["base", "retkikunnat"])
def test_afrikan_tahti_tells_how_the_winner_won_and_who_found_the_star(options):
    """The result (made from the final state and the public log when first asked) says whether the
    winner won with the Star they found, one taken from another, a horseshoe or at the round limit."""
    from tests.chatbot.finished import finished_match

    table = Table(seed="star")
    match_id = finished_match(
        table.repo, PLATFORM, "g5", [("a", "Anna"), ("b", "Bertta")], "afrikan_tahti", options
    )
    lines = table.say("c", "tilastot", group="g5")[0].text.splitlines()  # not a player: names stay
    result = table.repo.finished_matches(room_id=table.repo.room(PLATFORM, "g5").id)[0].result
    assert result is not None
    winner = result["winners"][0]
    figure = result["figures"][winner]
    finder = [
        dict(e["params"])["seat"]
        for a in table.repo.actions(match_id)
        for e in a.events
        if e.get("code") == "star_found"
    ]
    if figure["how"] == "star":
        assert figure["found"] == ("self" if finder[-1] == winner else "other")
    phrase = {
        ("star", "self"): "1 itse löydetyllä tähdellä",
        ("star", "other"): "1 toiselta viedyllä tähdellä",
        ("horseshoe", None): "1 hevosenkengällä",
        ("limit", None): "1 kierrosrajalla",
    }[(figure["how"], figure.get("found"))]
    name = ["Anna", "Bertta"][winner]
    assert f"1. {name}: 1 peli, 1 voitto, {phrase}" in "\n".join(lines)
    if options == {"expansion": False}:
        assert figure == {"rounds": figure["rounds"], "how": "star", "found": "self"}  # this seed's game


def test_without_a_number_the_latest_finished_match_is_replayed_and_stats_in_private_are_ones_own(two_groups):
    table, ids, _running = two_groups
    out = table.say("pekka", "näytä peli", group=G2)  # no game runs in G2 now
    assert out[0].text.startswith(f"🎬 Uusinta: peli {max(ids[G2])}, ")
    out = table.say("pekka", "replay", private=True)
    assert out[0].text.startswith(f"🎬 Uusinta: peli {max(ids[G2])}, ") and out[0].user_id == "pekka"
    assert table.say("pekka", "näytä peli kolme", group=G2)[0].text.startswith(
        "Mikä peli? Kirjoita sen numero"
    )
    mine = table.say("pekka", "tilastot", private=True)[0].text
    assert (
        mine.startswith("📊 Omat tilastosi, Pekka: ")
        and mine == table.say("pekka", "omat tilastot", private=True)[0].text
    )
    assert (
        table.say("uusi", "omat tilastot", private=True)[0].text
        == "Et ole vielä pelannut yhtään peliä loppuun."
    )
