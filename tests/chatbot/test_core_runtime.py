"""The core as the runtime drives it, over real SQLite and PostgreSQL: one transaction per update,
redelivered updates, deadlines run by two cores at once, the deep link and held private messages, a
person's command that lost a race, and a database outage."""

from __future__ import annotations

import re
import threading

import pytest
from sqlalchemy import create_engine, text

from chatbot.compose import new_core
from chatbot.core.ports import AI_TURN, IDLE_MOVE, REMIND, RUNNING
from chatbot.core.types import Inbound
from chatbot.storage import SqlRepository
from tests.chatbot.table import GROUP, PLATFORM, Table

SOMEONE_ACTED = ("Joku ehti toimia", "Someone acted at the same moment", "Pöytä muuttui juuri")


#: the group's notice of a turn the bot played for an idle person
STOOD_IN = "pelasin vuoron hänen puolestaan"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def url(request, tmp_path):
    """A new, empty database: an SQLite file, or the session's PostgreSQL emptied of everything."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'core.sqlite'}"
    pg = request.getfixturevalue("pg_url")
    engine = create_engine(pg)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    return pg


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def _count(repo, sql: str, **params) -> int:
    with repo.engine.connect() as conn:
        return int(conn.execute(text(sql), params).scalar_one())


def _game(table: Table, *people: str, bots: int = 0, group: str = GROUP) -> int:
    table.say(people[0], "uusi majavajengi", group=group)
    for person in people[1:]:
        table.say(person, "liity", group=group)
    for _ in range(bots):
        table.say(people[0], "lisää botti", group=group)
    table.say(people[0], "aloita", group=group)
    return table.repo.active_match(table.repo.room(PLATFORM, group).id).id


@pytest.mark.logs_errors("error while handling")
def test_a_failure_after_the_action_insert_keeps_nothing_and_a_redelivery_then_applies(url, monkeypatch):
    table = Table(url=url, seed="atomic")
    mid = _game(table, "matti", "liisa")
    acting = table.acting_users()[0]
    before = table.repo.match(mid)
    rows = _count(table.repo, "SELECT count(*) FROM outbox")

    real = table.repo.set_deadlines
    calls = []

    def fail_after_the_action(*args, **kwargs):
        calls.append(args)
        raise RuntimeError("injected: the process fails after the action row was written")

    monkeypatch.setattr(table.repo, "set_deadlines", fail_after_the_action)
    answer = table.say(acting, "nostan", private=True, key="u-1")
    assert calls, "the failure was injected after commit_action"
    assert not answer.committed and "virhe" in answer[0].text  # the apology, sent directly
    assert table.repo.match(mid).version == before.version
    assert table.repo.actions(mid) == []
    assert _count(table.repo, "SELECT count(*) FROM outbox") == rows
    assert not table.repo.seen_update(PLATFORM, "u-1")

    monkeypatch.setattr(table.repo, "set_deadlines", real)
    answer = table.say(acting, "nostan", private=True, key="u-1")  # Telegram sends it again
    assert answer.committed and any("Nostit" in o.text for o in answer)
    assert [a.notation for a in table.repo.actions(mid)] == ["draw"]
    assert table.repo.seen_update(PLATFORM, "u-1")


def test_a_redelivered_update_text_or_button_is_a_no_op(url):
    table = Table(url=url, seed="redeliver")
    mid = _game(table, "matti", "liisa")
    acting = table.acting_users()[0]
    assert any("Nostit" in o.text for o in table.say(acting, "nostan", private=True, key="7"))
    version = table.repo.match(mid).version
    rows = _count(table.repo, "SELECT count(*) FROM outbox")
    assert table.say(acting, "nostan", private=True, key="7") == []
    assert table.say(acting, "tila", key="7") == []  # whatever the text: the update was applied once
    assert (table.repo.match(mid).version, _count(table.repo, "SELECT count(*) FROM outbox")) == (
        version,
        rows,
    )

    prompt = table.prompt_for(acting)
    data = prompt.buttons[0][0].data
    assert table.press(acting, data, key="8")
    version = table.repo.match(mid).version
    rows = _count(table.repo, "SELECT count(*) FROM outbox")
    assert table.press(acting, data, key="8") == []  # not even "that button is stale"
    assert (table.repo.match(mid).version, _count(table.repo, "SELECT count(*) FROM outbox")) == (
        version,
        rows,
    )
    assert "vanhentunut" in table.press(acting, data, key="9")[0].text  # a new press of the old button


def test_every_answer_is_in_the_outbox_in_order_and_one_commit_per_update(url):
    table = Table(url=url, seed="outbox")
    commits = []
    from sqlalchemy import event

    event.listen(table.repo.engine, "commit", lambda conn: commits.append(1))
    mid = _game(table, "matti", "liisa")
    acting = table.acting_users()[0]
    commits.clear()
    out = table.core.handle(
        Inbound(PLATFORM, acting, acting.capitalize(), acting, True, text="nostan", update_key="c1")
    )
    assert len(commits) == 1
    assert [o.text for o in table.outbox()[-len(out) :]] == [o.text for o in out]
    assert table.outbox("test:g:g1")[-1].key == f"table:{mid}"


def _run_due_in_threads(cores, clock, rounds: int = 100_000) -> list:
    """Each core runs due deadlines in its own thread until nothing is due for either."""
    sent: list = []
    lock = threading.Lock()
    errors: list = []

    def work(core, name):
        try:
            for _ in range(rounds):
                out = core.run_due(name, limit=3)
                with lock:
                    sent.extend(out)
                due = core.next_due()
                if not out and (due is None or due > clock()):
                    return
        except BaseException as exc:  # pragma: no cover - shown by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(core, f"w{i}")) for i, core in enumerate(cores)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(120)
    assert not errors, errors
    return sent


def test_two_cores_run_due_deadlines_at_once_each_fires_once_and_order_holds(url):
    clock = Clock()
    setup = Table(url=url, seed="two")
    setup.core = new_core(setup.repo, seed="two", clock=clock, remind_after=60, act_after=300)
    setup._deliver = lambda out: list(out)  # nothing runs due deadlines during the set-up
    groups = [f"g{i}" for i in range(6)]
    people = {g: f"p{i}" for i, g in enumerate(groups)}
    mids = {g: _game(setup, people[g], bots=2, group=g) for g in groups}
    cores = [
        new_core(SqlRepository(url), seed="two", clock=clock, remind_after=60, act_after=300)
        for _ in range(2)
    ]

    sent = _run_due_in_threads(cores, clock)  # the bots move until a person must act
    repo = setup.repo
    for g, mid in mids.items():
        kinds = {d.kind for d in repo.deadlines(mid)}
        assert kinds == {REMIND, IDLE_MOVE}, (g, kinds, _rows(repo, "SELECT * FROM deadline"), clock.now)

    clock.now += 61
    sent += _run_due_in_threads(cores, clock)
    for g in groups:
        reminders = [o for o in sent if o.user_id == people[g] and "odottavat" in o.text]
        assert len(reminders) == 1, (g, len(reminders))
        assert len([o for o in sent if o.chat_id == g and "Odotetaan" in o.text]) == 1

    for _ in range(3):  # the people sleep: the bot moves for them, then the bots again
        clock.now += 301
        sent += _run_due_in_threads(cores, clock)
    everything = setup.outbox()
    assert not [o for o in everything if any(s in o.text for s in SOMEONE_ACTED)]
    for g, mid in mids.items():
        actions = repo.actions(mid)
        idle = [o for o in everything if o.chat_id == g and STOOD_IN in o.text]
        assert len(idle) >= 3
        # one table row per change: 3 lobby rows, the start, and one per action (none doubled)
        tables = [o for o in setup.outbox(f"test:g:{g}") if o.key == f"table:{mid}"]
        assert len(tables) == 4 + len(actions)
        # the prompts of a private chat follow the versions of the match, in commit order
        versions = [
            int(b.data.split(":")[1])
            for o in setup.outbox(f"test:u:{people[g]}")
            for row in o.buttons[:1]
            for b in row[:1]
            if b.data.startswith(f"{mid}:")
        ]
        assert versions == sorted(versions) and len(versions) == len(set(versions))


def test_a_persons_command_that_lost_a_race_is_read_again_and_a_stale_button_stays_stale(
    tmp_path, monkeypatch
):
    url = f"sqlite:///{tmp_path / 'race.sqlite'}"
    table = Table(url=url, seed="race")
    mid = _game(table, "matti", "liisa")
    acting = table.acting_users()[0]
    other = SqlRepository(url)
    real = table.repo.commit_action
    raced = []

    def someone_first(match_id, seen_version, *args, **kwargs):
        if not raced:  # another worker changes the match just before this commit
            raced.append(1)
            m = other.match(match_id)
            assert other.update_lobby(match_id, m.version, m.seats, status=RUNNING)
        return real(match_id, seen_version, *args, **kwargs)

    monkeypatch.setattr(table.repo, "commit_action", someone_first)
    out = table.say(acting, "nostan")  # in the group, no update key: the reads come before any write
    assert raced and any("Nostit" in o.text for o in out)
    assert not any(s in o.text for o in out for s in SOMEONE_ACTED)
    assert [a.notation for a in table.repo.actions(mid)] == ["draw"]

    raced.append(1)  # no race for this press: the turn goes on to its end (knock or end)
    prompt = table.prompt_for(acting)
    table.press(acting, prompt.buttons[0][0].data, private=True)
    raced.clear()
    # a press of the group's table button (no update key: the reads come before any write)
    offered = [o for o in table.sent if o.chat_id == GROUP and o.buttons][-1]
    out = table.press(acting, offered.buttons[0][0].data, private=False)
    assert raced and "vanhentunut" in out[0].text  # pressed against a version that is gone now


def test_a_user_who_never_opened_the_bot_gets_a_deep_link_once_and_the_link_seats_and_releases(url):
    table = Table(url=url, seed="deep")
    table.core.link_template = "https://t.me/pelibotti?start={payload}"
    table.say("matti", "uusi majavajengi")
    table.say("liisa", "liity")
    table.say("matti", "aloita")
    mid = table.match().id
    chat = "test:u:liisa"
    assert table.repo.outbox_pending(chat, now=clock_now())
    notice = table.core.private_blocked(PLATFORM, "liisa")
    assert table.repo.outbox_pending(chat, now=clock_now()) == []  # held
    assert len(notice) == 1 and notice[0].chat_id == GROUP
    assert f"https://t.me/pelibotti?start=join-{mid}" in notice[0].text
    assert notice[0].buttons[0][0].data == table.core.deep_link(mid)
    assert table.core.private_blocked(PLATFORM, "liisa") == []  # once per match
    # the link opens the chat: what was held is released, and nothing more is said
    out = table.say("liisa", f"/start join-{mid}", private=True)
    assert out == [] and table.repo.outbox_pending(chat, now=clock_now())

    # someone new opens a lobby's link: seated, and told that the cards come to this chat
    table.say("matti", "peru")
    table.say("matti", "uusi majavajengi")
    lobby = table.match().id
    # a link typed from the match id alone seats nobody (the invitation word is missing)
    out = table.say("pekka", f"/start join-{lobby}", private=True)
    assert all(o.user_id == "pekka" for o in out) and table.match().seats[-1].name != "Pekka"
    out = table.say("pekka", "/start " + table.core.deep_link(lobby).rpartition("=")[2], private=True)
    assert any(o.chat_id == GROUP and "Pekka" in o.text for o in out)
    assert any(o.user_id == "pekka" and "Sinulla on paikka" in o.text for o in out)
    assert any(s.name == "Pekka" for s in table.match().seats)
    # a bare /start is the help
    assert "komennot" in table.say("pekka", "/start", private=True)[0].text.casefold()


def clock_now() -> float:
    import time

    return time.time()


def test_ai_seats_move_through_deadlines_due_at_once(url):
    table = Table(url=url, seed="ai")
    table._deliver = lambda out: list(out)
    mid = _game(table, "matti", bots=2)
    m = table.repo.match(mid)
    engine = table.core.games[m.game]
    if all(m.seats[s].ai for s in engine.to_act(engine.load(m.state))):
        assert [d.kind for d in table.repo.deadlines(mid)] == [AI_TURN]
        assert table.core.next_due() <= clock_now()
    for _ in range(50):
        if not table.core.run_due("w"):
            break
    m = table.repo.match(mid)
    acting = engine.to_act(engine.load(m.state))
    assert all(m.seats[s].user_id is not None for s in acting)
    assert {d.kind for d in table.repo.deadlines(mid)} == {REMIND, IDLE_MOVE}


def test_join_text_in_private_is_still_the_group_hint():
    table = Table()
    out = table.say("matti", "liity", private=True)
    assert re.search("ryhm", out[0].text)


def _rows(repo, sql: str) -> list:
    with repo.engine.connect() as conn:
        return [tuple(r) for r in conn.execute(text(sql))]


def test_two_worker_processes_play_whole_matches_through_deadlines(url):
    """Nobody presses anything: AI seats move, people are reminded and the bot moves for them, all as
    deadlines that two OS processes on one database take turns at. Each reminder is sent once, each
    turn played once, no "someone acted" message, and every match ends."""
    import subprocess
    import sys

    setup = Table(url=url, seed="procs")
    setup.core = new_core(setup.repo, seed="procs", remind_after=0.1, act_after=0.4)  # as the workers
    setup._deliver = lambda out: list(out)
    groups = [f"g{i}" for i in range(4)]
    people = {g: f"p{i}" for i, g in enumerate(groups)}
    mids = {}
    for g in groups:
        setup.say(people[g], "uusi majavajengi kierrokset=1", group=g)
        for _ in range(2):
            setup.say(people[g], "lisää botti", group=g)
        setup.say(people[g], "aloita", group=g)
        mids[g] = setup.repo.active_match(setup.repo.room(PLATFORM, g).id).id
    root = str(__import__("pathlib").Path(__file__).resolve().parents[2])
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.chatbot.deadline_worker", url, f"proc{i}", "120"],
            cwd=root,
            stdout=subprocess.PIPE,
            text=True,
        )
        for i in range(2)
    ]
    done = [p.communicate(timeout=180)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0]
    assert all(int(x) > 0 for x in done), done  # both processes did part of the work
    everything = setup.outbox()
    assert not [o for o in everything if any(s in o.text for s in SOMEONE_ACTED)]
    for g, mid in mids.items():
        match = setup.repo.match(mid)
        assert match.status == "over", g
        actions = setup.repo.actions(mid)
        human = [a for a in actions if a.seat == 0]
        private = setup.outbox(f"test:u:{people[g]}")
        reminders = [o for o in private if "odottavat" in o.text]
        idle = [o for o in everything if o.chat_id == g and STOOD_IN in o.text]
        # each of the person's turns (a run of their moves in the log: the bot plays the whole turn,
        # issue #27): one notice of the bot's turn for them, after at most one reminder (a worker
        # that finds the move made already drops the reminder, rightly, when a slow machine makes
        # both due at once)
        turns = sum(1 for i, a in enumerate(actions) if a.seat == 0 and (i == 0 or actions[i - 1].seat != 0))
        assert human and len(idle) == turns > 0, (g, len(idle), turns)
        assert 0 < len(reminders) <= len(idle), (g, len(reminders), len(idle))
        between = "".join(
            "R" if "odottavat" in o.text else "P" for o in private if o.buttons or "odottavat" in o.text
        )
        assert "RR" not in between, between  # never two reminders for one turn
        tables = [o for o in setup.outbox(f"test:g:{g}") if o.key == f"table:{mid}"]
        assert len(tables) == 4 + len(actions)
