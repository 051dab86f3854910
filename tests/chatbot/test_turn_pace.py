"""Pace a group can live with (issue #27) and one private panel per turn (issue #28), through the
real core and SQLite, over every registered game where it applies:

- a person's time runs per turn: one reminder and one stand-in per turn, and an idle person holds
  the table once per turn (not once per step);
- the stand-in plays the whole turn and the group hears what it did, in public words only;
- a person's prompts of one turn are one message edited in place; a new message when a turn begins
  or when they ask for it;
- AI seats left alone in a match play it out at once and the group gets one summary.
"""

from __future__ import annotations

import random

import pytest

from chatbot.compose import new_core
from chatbot.core.ports import IDLE_MOVE, REMIND
from chatbot.core.types import PROMPT, TABLE
from chatbot.games import UIS
from engines import GAMES
from tests.chatbot.leaks import LeakScan
from tests.chatbot.table import GROUP, Table

REMIND_AFTER, ACT_AFTER = 60.0, 300.0
STOOD_IN = "pelasin vuoron hänen puolestaan"


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def started(
    game: str, seed: str, people: tuple[str, ...] = ("matti", "liisa", "pekka")
) -> tuple[Table, Clock]:
    clock = Clock()
    table = Table(seed=seed)
    table.core = new_core(table.repo, seed=seed, clock=clock, remind_after=REMIND_AFTER, act_after=ACT_AFTER)
    options = {"afrikan_tahti": "pikapeli=kyllä"}.get(game, "")
    table.say(people[0], f"uusi {game.replace('_', ' ')} {options}".strip())
    for person in people[1:]:
        table.say(person, "liity")
    table.say(people[0], "aloita")
    if table.match().status == "lobby":
        table.say(people[0], "pelataan näin")
    assert table.match().status == "running"
    return table, clock


def seat_of(table: Table, user: str) -> int:
    match = table.match()
    return next(
        s.seat
        for s in match.seats
        if s.user_id is not None and table.repo.user_by_id(s.user_id).ext_id == user
    )


def turn_of(table: Table, user: str) -> int | None:
    """The version at which the user's current turn began (None: not their turn)."""
    match = table.match()
    if match is None or user not in table.acting_users():
        return None
    return int(match.meta["turns"][str(seat_of(table, user))]["v"])


def smart_press(table: Table, user: str) -> None:
    match = table.match()
    engine = GAMES[match.game]
    state = engine.load(match.state)
    seat = seat_of(table, user)
    legal = engine.legal_actions(state, seat)
    action = engine.ai_action(engine.default_ai, engine.view(state, seat), legal, engine.ai_rng(state, seat))
    table.press(user, f"{match.id}:{match.version}:{engine.notation(action)}")


@pytest.mark.parametrize("game", sorted(UIS))
def test_the_stand_in_plays_the_whole_turn_once_and_says_what_it_did(game):
    table, clock = started(game, f"sijainen:{game}")
    scan = LeakScan(table.core).install()
    user = table.acting_users()[0]
    began = turn_of(table, user)
    mark = len(table.sent)
    clock.now += ACT_AFTER + 1
    table.run_due()
    notices = [o for o in table.sent[mark:] if o.chat_id == GROUP and "⏰" in o.text and o.role != TABLE]
    stood_in = [o for o in notices if STOOD_IN in o.text or "tein siirron" in o.text]
    assert len(stood_in) == 1, [o.text for o in notices]
    # the turn is over: whoever acts now (the same person too, in a game of few seats) is in a new turn
    assert turn_of(table, user) != began
    assert not scan.failures
    # what the bot did, in the public events' own words ("Matti nosti kortin.")
    if STOOD_IN in stood_in[0].text:
        name = table.match().seats[seat_of(table, user)].name
        assert all(line.startswith("· ") for line in stood_in[0].text.splitlines()[1:])
        assert name in stood_in[0].text.splitlines()[0]


def test_an_idle_majavajengi_turn_holds_the_table_once_not_once_per_step():
    """A turn of three steps (draw, place, end) costs one stand-in delay, and its notice tells what
    the bot did."""
    table, clock = started("majavajengi", "kolme askelta", ("matti", "liisa"))
    first = table.acting_users()[0]
    start = clock.now
    version = table.match().version
    clock.now = start + ACT_AFTER - 1
    assert not [o for o in table.run_due() if STOOD_IN in o.text]
    clock.now = start + ACT_AFTER
    out = table.run_due()
    assert table.acting_users() != [first]  # the whole turn was played at the first stand-in
    assert table.match().version >= version + 2  # a draw or a take, then the end of the turn
    notice = next(o.text for o in out if STOOD_IN in o.text)
    assert "nosti" in notice or "otti" in notice, notice


def test_one_reminder_per_turn_and_a_step_does_not_push_the_stand_in_on():
    table, clock = started("majavajengi", "muistutus", ("matti", "liisa"))
    first = table.acting_users()[0]
    start = clock.now
    clock.now = start + REMIND_AFTER
    reminded = [o for o in table.run_due() if o.user_id == first and "odottavat" in o.text]
    assert len(reminded) == 1
    table.say(first, "nostan", private=True)  # a step, long after the turn began
    kinds = {d.kind: d.due for d in table.repo.deadlines(table.match().id)}
    assert REMIND not in kinds  # reminded once in this turn
    assert kinds[IDLE_MOVE] == start + ACT_AFTER  # the turn's own time, not the step's
    clock.now = start + ACT_AFTER
    out = table.run_due()
    assert any(STOOD_IN in o.text for o in out)
    assert not [o for o in out if o.user_id == first and "odottavat" in o.text]


@pytest.mark.parametrize("game", ["majavajengi", "afrikan_tahti"])
def test_a_persons_prompts_of_one_turn_are_one_message_edited_in_place(game):
    """Every prompt of one turn has the turn's key (edited in place); a new turn has a new one; the
    new private messages of a whole game are about one per turn, where every step was one."""
    table, _clock = started(game, f"paneeli:{game}")
    rng = random.Random(game)
    keys_of_turn: dict[tuple[str, int], set[str]] = {}
    turns: dict[str, set[int]] = {}
    for _ in range(400):
        users = table.acting_users()
        if not users:
            break
        user = users[0]
        began = turn_of(table, user)
        assert began is not None
        turns.setdefault(user, set()).add(began)
        mark = len(table.sent)
        if rng.random() < 0.05:
            table.say(user, "käsi", private=True)  # asked for: the panel comes anew
        smart_press(table, user)
        for o in table.sent[mark:]:
            if o.user_id == user and o.role == PROMPT and o.buttons and turn_of(table, user) == began:
                keys_of_turn.setdefault((user, began), set()).add(o.key or "")
    # within a turn the prompts share one key, unless the person asked for the panel (a new message)
    assert all("" not in keys for keys in keys_of_turn.values())
    assert sum(len(keys) for keys in keys_of_turn.values()) <= len(keys_of_turn) + 40
    for user, began in turns.items():
        prompts = [o for o in table.sent if o.user_id == user and o.role == PROMPT]
        new = {o.key for o in prompts if o.key is not None} | {id(o) for o in prompts if o.key is None}
        # one message per turn, and the ones that told of something out of the person's turn
        assert len(new) < len(prompts) / 1.5, (user, len(new), len(prompts), len(began))


def test_asking_for_the_hand_brings_the_panel_anew_and_the_next_step_edits_that_one():
    table, _clock = started("majavajengi", "käsi", ("matti", "liisa"))
    user = table.acting_users()[0]
    before = next(o.key for o in reversed(table.sent) if o.user_id == user and o.role == PROMPT)
    out = table.say(user, "näytä käteni", private=True)
    asked = [o for o in out if o.user_id == user and o.role == PROMPT]
    assert asked and asked[0].key != before
    table.say(user, "nostan", private=True)
    after = next(o.key for o in reversed(table.sent) if o.user_id == user and o.role == PROMPT)
    assert after == asked[0].key


def test_ai_seats_left_alone_play_the_match_out_and_end_in_one_summary():
    """Gnav: once the last person is out of the match, the AI seats play the remaining deals at once;
    the group gets the final table and one message with the standings, not a result per deal."""
    table = Table(seed="ulos7")
    table.say("matti", "uusi gnav elämät=2")
    for _ in range(3):
        table.say("matti", "lisää botti")
    table.say("matti", "aloita")
    rng = random.Random(7)
    mid = table.match().id
    mark = 0
    while table.repo.match(mid).status == "running" and table.acting_users():
        prompt = table.prompt_for("matti")
        mark = len(table.sent)
        table.press("matti", rng.choice([b for row in prompt.buttons for b in row]).data)
    match = table.repo.match(mid)
    assert match.status == "over"
    engine = GAMES["gnav"]
    final = engine.view(engine.load(match.state), None)
    new = [o for o in table.sent[mark:] if o.chat_id == GROUP and o.key is None]
    results = [o for o in new if "tulos:" in o.text]
    assert len(results) == 1 and "Matti" in results[0].text  # the deal in which he went out
    assert "Jaon 2 tulos" in results[0].text and final.deal >= 5  # deals 3… were played at once
    assert new[-1] is not results[0] and len(new) == 2
    assert new[-1].text.startswith("🤖 Pelissä oli jäljellä vain tekoälypelaajia")
    assert "🏆" in new[-1].text
    tables = [o for o in table.sent[mark:] if o.chat_id == GROUP and o.role == TABLE]
    assert tables[-1].version == match.version  # the final table, edited in place


def test_a_sleeping_afrikan_tahti_table_hears_of_each_stand_in_turn_once():
    """Nobody answers: the bot stands in turn after turn, one notice per turn (the setup's choices
    are turns of their own)."""
    table, clock = started("afrikan_tahti", "nukkuva pöytä", ("anna", "bertta", "ceder"))
    engine = GAMES["afrikan_tahti"]
    turns_seen: set[tuple[int, int]] = set()  # (seat, the version its turn began at)
    notices = 0
    for _ in range(150):
        match = table.match()
        if match is None:
            break
        view = engine.view(engine.load(match.state), None)
        if view.turn is not None and match.seats[view.turn].user_id is not None:
            turns_seen.add((view.turn, match.meta["turns"][str(view.turn)]["v"]))
        due = table.core.next_due()
        assert due is not None
        clock.now = max(clock.now, due)
        notices += sum(1 for o in table.run_due() if STOOD_IN in o.text or "tein siirron" in o.text)
    assert len(turns_seen) >= 10
    assert 0 < notices <= len(turns_seen), (notices, len(turns_seen))


def test_a_turn_the_bot_stood_in_for_already_is_finished_without_a_second_notice():
    """When another seat's reaction window interrupted the turn the bot stands in for, it finishes
    the turn once the window has passed, and the group, told already, hears nothing new."""
    table, clock = started("majavajengi", "toinen kerta", ("matti", "liisa"))
    first = table.acting_users()[0]
    match = table.match()
    records = {k: dict(v) for k, v in match.meta["turns"].items()}
    records[str(seat_of(table, first))]["s"] = True  # as a first part of the turn left it
    table.repo.set_meta(match.id, "turns", records)
    clock.now += ACT_AFTER
    out = table.run_due()
    assert table.acting_users() != [first]
    assert not [o for o in out if STOOD_IN in o.text or "tein siirron" in o.text]


def stale_panels(table: Table, match_id: int) -> list[tuple[str, str | None, list[str]]]:
    """The people whose live prompt offers buttons of a version of the match gone by (or any once it
    is over). A person's live prompt is the message that last got buttons of the match: a
    transport takes the buttons off the older prompts of the chat when it delivers it (in the
    chat's order), and edits a keyed message (a panel) in place, so its latest content is what
    the person sees. Only a panel's own key takes its buttons away once nothing newer came
    (issue #28's three-worker run: a transport's memory of another chat may be old)."""
    match = table.repo.match(match_id)
    live = match.version if match.status == "running" else None
    head = f"{match_id}:"
    latest: dict[tuple[str, str], object] = {}
    prompt: dict[str, object] = {}  # user -> the key of their live prompt, or the message itself
    for o in table.sent:
        if o.user_id is None:
            continue
        if o.key is not None:
            latest[(o.user_id, o.key)] = o
        if any(b.data.startswith(head) for row in o.buttons for b in row):
            prompt[o.user_id] = o.key if o.key is not None else o
    stale = []
    for user, found in prompt.items():
        shown = latest[(user, found)] if isinstance(found, str) else found
        datas = [b.data for row in shown.buttons for b in row if b.data.startswith(head)]
        if any(int(d.split(":")[1]) != live for d in datas):
            stale.append((user, shown.key, datas[:2]))
    return stale


@pytest.mark.parametrize("game", sorted(UIS))
def test_a_panel_the_bot_stood_in_for_keeps_no_buttons(game):
    """Nobody answers: after each stand-in, no person's panel of an earlier turn still offers the
    buttons of its step."""
    table, clock = started(game, f"ei nappeja {game}")
    match_id = table.match().id
    checked = 0
    for _ in range(40):
        match = table.match()
        if match is None or match.status != "running":
            break
        due = table.core.next_due()
        assert due is not None
        clock.now = max(clock.now, due)
        table.run_due()
        if table.match() is None or table.match().status != "running":
            break
        assert not stale_panels(table, match_id), stale_panels(table, match_id)
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("game", sorted(UIS))
def test_no_panel_keeps_stale_buttons_in_a_whole_game(game):
    """People press random buttons of their prompts to the end of the game: after every press, and
    once it is over, no panel of theirs offers buttons of a version gone by."""
    table, _clock = started(game, f"vanhat napit {game}")
    match_id = table.match().id
    rng = random.Random(game)
    for _ in range(3000):
        assert not stale_panels(table, match_id), stale_panels(table, match_id)
        users = table.acting_users()
        if not users:
            break
        prompt = table.prompt_for(users[0])
        assert prompt is not None
        table.press(users[0], rng.choice([b for row in prompt.buttons for b in row]).data)
    assert table.repo.match(match_id).status == "over"
    assert not stale_panels(table, match_id), stale_panels(table, match_id)


@pytest.mark.parametrize("game", sorted(UIS))
def test_a_person_put_out_of_their_seat_keeps_no_buttons_of_it(game):
    """The person to act leaves the game (their seat goes to the bot), or the game's starter removes
    them: the panel they held loses its buttons and says that they no longer play the seat, with
    nothing of its hand."""
    table, _clock = started(game, f"poistettu {game}")
    match_id = table.match().id
    target = table.acting_users()[0]
    before = table.prompt_for(target)
    assert before is not None and before.key is not None
    if target == "matti":
        table.say(target, "poistu")
    else:
        table.say("matti", f"poista {target.title()} pelistä")
    assert all(
        table.repo.user_by_id(s.user_id).ext_id != target
        for s in table.repo.match(match_id).seats
        if s.user_id is not None
    ), "the person is still seated"
    assert not stale_panels(table, match_id), stale_panels(table, match_id)
    edited = [o for o in table.sent if o.user_id == target and o.key == before.key][-1]
    assert edited.text.endswith("et pelaa enää tällä paikalla."), edited.text
    assert not any(b.data.startswith(f"{match_id}:") for row in edited.buttons for b in row)
