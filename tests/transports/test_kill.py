"""kill -9 at random moments: real ``python -m chatbot telegram`` processes against the fake Bot API
server, one SQLite file, whole matches; the bot is killed with SIGKILL at random moments and started
again, while two people keep pressing their private buttons (presses made while it is down wait
on the server, as on Telegram).

After every match: 0 actions lost or doubled (every press of a live button is in the action log
exactly once, at the version it was pressed at, and the log has no human action nobody pressed;
the log replays to the stored snapshot), every committed message arrived (no row left in the
outbox, every delivered row's text is on the server, every keyed message's stored reference points
at a live message showing the newest text), and after every restart the player to act got a live
prompt. The figures (kills, restarts, duplicate sends) are printed.

    pytest tests/transports/test_kill.py -s                   # >= 6 kills over majavajengi matches
    KILL_SOAK=1 pytest tests/transports/test_kill.py -s       # and >= 100 kills over all four games

Each runs on an SQLite file and on a fresh PostgreSQL database (the ``pg_url`` server).

The soak (about 10 minutes on two cores) is not part of the suite that CI runs on every change,
whose whole budget is about five minutes; run it before changing the runtime or the storage.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import os
import random
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from sqlalchemy import text

from chatbot.storage import SqlRepository
from engines import GAMES
from tests.telegram.fake_api import FakeTelegram

pytestmark = pytest.mark.telegram

ROOT = Path(__file__).resolve().parents[2]
GROUP = -300
PEOPLE = {41: "Aada", 42: "Bruno"}
#: the alias each game is set up with ("uusi <alias>")
ALIASES = {
    "majavajengi": "majavajengi rounds=1",
    "coloretto_amazonas": "coloretto",
    "cardavia": "gnav",
    "gnav": "gnav",
    "afrikan_tahti": "afrikantahti",
}


@dataclass
class Press:
    uid: int
    version: int
    notation: str
    update_id: int


@dataclass
class Figures:
    kills: int = 0
    restarts: int = 0
    presses: int = 0
    prompt_waits: list[float] = field(default_factory=list)
    duplicate_sends: int = 0
    matches: int = 0
    #: presses missing from the action log, human actions nobody pressed, committed rows never sent
    actions_lost: int = 0
    actions_doubled: int = 0
    messages_lost: int = 0
    #: (epoch time, what) of every kill, start and press, printed when something fails
    events: list[tuple[float, str]] = field(default_factory=list)


class Bot:
    """The bot as a child process; kill -9 and start again."""

    def __init__(self, server: FakeTelegram, db: str, log: Path, env: dict[str, str] | None = None) -> None:
        self.server = server
        self.db = db
        self.log = log
        self.proc: asyncio.subprocess.Process | None = None
        self.env = {
            **os.environ,
            "TELEGRAM_TOKEN": server.token,
            "TELEGRAM_API_URL": server.api_url,
            "TELEGRAM_WEBHOOK_URL": "",
            "TELEGRAM_RATE_LIMITS": "off",
            # the simulated people press faster than people can: no flood throttle here
            "CHATBOT_FLOOD_LIMIT": "off",
            "PYTHONPATH": str(ROOT),
            "LOG_LEVEL": "WARNING",
            "PYTHONFAULTHANDLER": "1",
            **(env or {}),
        }

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def spawn(self) -> None:
        """``python -m chatbot telegram`` as a child process, its stderr appended to the log."""
        with self.log.open("ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "chatbot",
                "telegram",
                "--db",
                self.db,
                cwd=ROOT,
                env=self.env,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=log,
            )

    async def start(self) -> None:
        """Start and wait until it polls (it calls deleteWebhook just before its first getUpdates)."""
        starts = sum(1 for c in self.server.calls if c[1] == "deletewebhook")
        await self.spawn()
        await self.server.wait_for(
            lambda: sum(1 for c in self.server.calls if c[1] == "deletewebhook") > starts,
            30,
            "the bot to start",
        )

    async def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()

    async def stop(self) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return await asyncio.wait_for(self.proc.wait(), 30)


def version_of(data: str) -> int:
    return int(data.split(":", 2)[1])


class Table:
    """The people's side of one match."""

    def __init__(
        self, server: FakeTelegram, repo: SqlRepository, rng: random.Random, max_gap: float = 1.2
    ) -> None:
        self.server = server
        self.max_gap = max_gap
        self.repo = repo
        self.rng = rng
        self.presses: list[Press] = []
        self.pressed: set[tuple[int, int, int]] = set()
        self.enough = asyncio.Event()
        #: monotonic time when a live prompt was last seen (by the player or by the killer)
        self.live_seen = 0.0

    def match(self):
        room = self.repo.room("telegram", str(GROUP))
        return self.repo.active_match(room.id) or self.repo.match(self.match_id)

    def live_prompt(self):
        """(uid, message, datas) of a person's newest private prompt at the match's current version."""
        match = self.repo.match(self.match_id)
        if match is None or match.status != "running":
            return None
        for uid in PEOPLE:
            for m in reversed(self.server.bot_messages(uid)):
                datas = [d for d in m.callback_data() if d.startswith(f"{self.match_id}:")]
                if m.callback_data():
                    if (
                        datas
                        and version_of(datas[0]) == match.version
                        and (uid, m.message_id, match.version) not in self.pressed
                    ):
                        self.live_seen = time.monotonic()
                        return uid, m, datas
                    break
        return None

    async def play(self, game: str, bot: Bot, figures: Figures, kills_left: list[int]) -> None:
        server = self.server
        await server.send(41, GROUP, f"/uusi {ALIASES[game]}")
        await server.send(42, GROUP, "/liity")
        room = self.repo.room("telegram", str(GROUP))

        def seated():
            match = self.repo.active_match(room.id)
            return match if match is not None and len(match.seats) == 2 else None

        self.match_id = (await server.wait_for(seated, 30, "Bruno seated")).id
        await server.send(41, GROUP, "/aloita")
        if game == "gnav":  # two people at a table of four: Gnav asks whether to fill it
            await server.send(41, GROUP, "/pelataan_nain")
        await server.wait_for(
            lambda: self.repo.match(self.match_id).status != "lobby", 30, "the match to start"
        )
        killer = asyncio.create_task(self._killer(bot, figures, kills_left))
        try:
            while True:
                match = self.repo.match(self.match_id)
                if match.status != "running" and match.state is not None:
                    break
                found = await server.wait_for(
                    lambda: self.live_prompt() or self._over() or self._failed(killer),
                    90,
                    "a live prompt for the person to act",
                )
                if found == "over":
                    break
                uid, msg, datas = found
                data = self.rng.choice(datas)
                self.pressed.add((uid, msg.message_id, version_of(data)))
                qid = await server.press(uid, uid, msg.message_id, data)
                update_id = max(server.sent_updates)
                assert server.sent_updates[update_id]["callback_query"]["id"] == qid
                self.presses.append(Press(uid, version_of(data), data.split(":", 2)[2], update_id))
                figures.events.append((time.time(), f"press {update_id} by {uid}: {data}"))
                figures.presses += 1
                pressed_at = version_of(data)
                await server.wait_for(
                    lambda v=pressed_at: self.repo.match(self.match_id).version > v or self._failed(killer),
                    90,
                    "the press to be applied",
                )
        finally:
            self.enough.set()  # the killer finishes its cycle: the bot is running afterwards
            await asyncio.wait_for(killer, 60)
        figures.matches += 1

    @staticmethod
    def _failed(task: asyncio.Task) -> bool:
        if task.done() and not task.cancelled() and task.exception() is not None:
            raise task.exception()
        return False

    def _over(self):
        match = self.repo.match(self.match_id)
        return "over" if match.status in {"over", "cancelled"} else None

    async def _killer(self, bot: Bot, figures: Figures, kills_left: list[int]) -> None:
        """Kill -9 at random moments, start again, and time the acting person's live prompt."""
        while kills_left[0] > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.enough.wait(), self.rng.uniform(0.05, self.max_gap))
            if self.enough.is_set():
                return
            await bot.kill()
            figures.events.append((time.time(), "killed"))
            figures.kills += 1
            kills_left[0] -= 1
            await asyncio.sleep(self.rng.uniform(0.0, 0.3))
            figures.events.append((time.time(), "starting"))
            await bot.start()
            figures.events.append((time.time(), "polling"))
            figures.restarts += 1
            started = time.monotonic()
            try:
                # the player may see (and press) the prompt first: whoever sees it first counts
                await self.server.wait_for(
                    lambda started=started: self.live_prompt() or self.live_seen >= started or self._over(),
                    30,
                    "a live prompt after the restart",
                )
            except AssertionError:
                raise AssertionError(f"no live prompt within 30 s after restart {figures.restarts}") from None
            seen = self.live_seen if self.live_seen >= started else time.monotonic()
            figures.prompt_waits.append(seen - started)


def check_match(repo: SqlRepository, table: Table, game: str, figures: Figures) -> None:
    match = repo.match(table.match_id)
    engine = GAMES[match.game]
    actions = repo.actions(match.id)
    # the log replays to the snapshot
    from engines.playout import replay

    state = replay(
        engine,
        len(match.seats),
        match.seed,
        engine.options_from_dict(match.options),
        [(a.seat, a.notation) for a in actions],
    )
    assert engine.dump(state) == match.state, "the action log does not replay to the snapshot"
    # every press at version v is the action made at v, exactly once; no human action unpressed
    v0 = match.version - len(actions)
    seat_of = {
        uid: next(s.seat for s in match.seats if s.user_id == repo.find_user("telegram", str(uid)).id)
        for uid in PEOPLE
    }
    by_version = {v0 + i: a for i, a in enumerate(actions)}
    lost = [
        p
        for p in table.presses
        if not (
            (action := by_version.get(p.version)) is not None
            and action.notation == p.notation
            and action.seat == seat_of[p.uid]
        )
    ]
    humans = {s.seat for s in match.seats if s.user_id is not None}
    pressed_versions = {p.version for p in table.presses}
    unpressed = [(v, a) for v, a in by_version.items() if a.seat in humans and v not in pressed_versions]
    figures.actions_lost += len(lost)
    figures.actions_doubled += len(unpressed)
    assert not lost, f"{game}: presses that are not the action at their version: {lost[:3]}"
    assert not unpressed, f"{game}: human actions nobody pressed: {unpressed[:3]}"


def check_delivery(repo: SqlRepository, server: FakeTelegram, figures: Figures) -> None:
    with repo.engine.connect() as conn:
        rows = conn.execute(text("SELECT id, chat, key, payload, state, held FROM outbox ORDER BY id")).all()
    pending = [r for r in rows if r.state == "pending"]
    assert not pending, f"{len(pending)} rows never delivered, e.g. {pending[:2]}"

    def chat_id(chat: str) -> int:
        return int(chat.split(":", 2)[2])

    # every delivered plain row's text is on the server (as often as it was committed, or more)
    wanted: collections.Counter[tuple[int, str]] = collections.Counter()
    for r in rows:
        payload = r.payload if isinstance(r.payload, dict) else json.loads(r.payload)
        if r.state == "done" and r.key is None:
            wanted[(chat_id(r.chat), payload["text"][:1000])] += 1
    shown: collections.Counter[tuple[int, str]] = collections.Counter()
    for chat in {c for c, _t in wanted}:
        for m in server.bot_messages(chat, include_deleted=True):
            shown[(chat, (m.history[0] if m.history else m.shown)[:1000])] += 1
    missing = {k: n for k, n in wanted.items() if shown[k] < n}
    # a toast consumed a row on purpose: only short answers to a button press, never in a group table
    missing = {k: n for k, n in missing.items() if not _toast(server, k[1])}
    figures.messages_lost = sum(n - shown[k] for k, n in missing.items())
    assert not missing, f"committed messages never sent: {list(missing)[:3]}"
    # over the whole run so far: a row sent, then killed before it was marked done, is sent again
    figures.duplicate_sends = sum(max(0, shown[k] - n) for k, n in wanted.items())
    if os.environ.get("KILL_DEBUG"):
        for k, n in wanted.items():
            if shown[k] > n:
                ids = [
                    m.message_id
                    for m in server.bot_messages(k[0], include_deleted=True)
                    if m.history[0][:1000] == k[1]
                ]
                with repo.engine.connect() as conn:
                    notes = conn.execute(text("SELECT id, state, sending, payload FROM outbox")).all()
                confirmed = set()
                for r in notes:
                    note = (
                        r.sending
                        if isinstance(r.sending, dict) or r.sending is None
                        else json.loads(r.sending)
                    )
                    if note and "id" in note:
                        confirmed.add(note["id"])
                print("DUPLICATE", k[0], n, shown[k], [i for i in ids if i not in confirmed], repr(k[1][:60]))
                for r in notes:
                    payload = r.payload if isinstance(r.payload, dict) else json.loads(r.payload)
                    if payload["text"][:1000] == k[1] and chat_id_of(payload) == k[0]:
                        print("   row", r.id, r.state, r.sending)
    # keyed messages: the stored reference is a live message showing the newest delivered text
    newest: dict[tuple[str, str], str] = {}
    for r in rows:
        if r.state == "done" and r.key is not None:
            payload = r.payload if isinstance(r.payload, dict) else json.loads(r.payload)
            newest[(r.chat, r.key)] = payload["text"]
    for (chat, key), text_ in newest.items():
        ref = json.loads(repo.message_ref(chat, key))
        msg = server.messages[chat_id(chat)][ref["id"]]
        assert not msg.deleted and msg.shown == text_[:4096], (chat, key, msg.shown[:80], text_[:80])


def chat_id_of(payload: dict) -> int:
    return int(payload.get("user_id") or payload.get("chat_id"))


def _toast(server: FakeTelegram, text_: str) -> bool:
    return any(c[1] == "answercallbackquery" and c[2].get("text") == text_ for c in server.calls)


async def kill_run(
    tmp_path: Path, db: str, games: list[str], kills: int, seed: int, max_gap: float = 1.2
) -> Figures:
    server = FakeTelegram()
    await server.start()
    server.add_group(GROUP)
    for uid, name in PEOPLE.items():
        server.add_user(uid, name, "fi", opened=True)
    repo = SqlRepository(db)
    bot = Bot(server, db, tmp_path / "bot.log")
    figures = Figures()
    rng = random.Random(seed)
    await bot.start()
    try:
        i = 0
        while True:
            game = games[i % len(games)]
            per_match = max(1, kills // len(games)) if i < len(games) else kills - figures.kills
            left = [min(per_match, kills - figures.kills)]
            table = Table(server, repo, rng, max_gap)
            await table.play(game, bot, figures, left)
            try:
                await server.wait_for(lambda: _all_sent(repo), 30, "the outbox to empty")
            except AssertionError:
                with repo.engine.connect() as conn:
                    left = conn.execute(
                        text(
                            "SELECT id, chat, key, state, held, attempts, not_before FROM outbox "
                            "WHERE state = 'pending'"
                        )
                    ).all()
                    claims = conn.execute(text("SELECT * FROM chatclaim")).all()
                raise AssertionError(
                    f"rows left in the outbox: {left[:5]}; claims {claims}; now {time.time():.1f}"
                ) from None
            check_match(repo, table, game, figures)
            check_delivery(repo, server, figures)
            i += 1
            if i >= len(games) and figures.kills >= kills:
                break
        assert await bot.stop() == 0, "SIGTERM did not stop the bot cleanly"
    except BaseException:
        if bot.proc is not None and bot.proc.returncode is None:
            bot.proc.send_signal(signal.SIGABRT)  # faulthandler writes every thread's stack to the log
            await asyncio.wait_for(bot.proc.wait(), 10)
        sys.stderr.write(bot.log.read_text(errors="replace")[-4000:])
        for at, what in figures.events[-80:]:
            sys.stderr.write(f"{at:.3f} {what}\n")
        raise
    finally:
        await server.stop()
    waits = sorted(figures.prompt_waits) or [0.0]
    backend = "PostgreSQL" if db.startswith("postgresql") else "SQLite"
    print(
        f"\nkill -9 run on {backend} over {games}: {figures.kills} kills, {figures.restarts} restarts, "
        f"{figures.matches} matches, {figures.presses} presses; actions lost {figures.actions_lost}, "
        f"doubled {figures.actions_doubled}; messages lost {figures.messages_lost}; duplicate new sends "
        f"{figures.duplicate_sends}; live prompt after a restart: median {waits[len(waits) // 2]:.2f} s, "
        f"max {waits[-1]:.2f} s"
    )
    return figures


def _all_sent(repo: SqlRepository) -> bool:
    with repo.engine.connect() as conn:
        return conn.execute(text("SELECT count(*) FROM outbox WHERE state = 'pending'")).scalar() == 0


@pytest.mark.timeout(900)
def test_kill_9_during_matches(tmp_path, process_db):
    figures = asyncio.run(
        asyncio.wait_for(kill_run(tmp_path, process_db, ["majavajengi"], kills=6, seed=1, max_gap=0.6), 600)
    )
    assert figures.kills >= 6


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("KILL_SOAK"), reason="the 100-kill soak runs with KILL_SOAK=1")
@pytest.mark.timeout(3600)
def test_kill_9_over_all_four_games(tmp_path, process_db):
    games = ["majavajengi", "coloretto_amazonas", "gnav", "afrikan_tahti"]
    figures = asyncio.run(asyncio.wait_for(kill_run(tmp_path, process_db, games, kills=100, seed=2), 3000))
    assert figures.kills >= 100
