"""Three ``python -m chatbot telegram`` workers in webhook mode on one PostgreSQL database, the fake
Bot API POSTing updates to them: 50 matches at once (Majavajengi, Gnav, Coloretto; one person and
one AI seat each), every update to a random worker and one in five to two workers at once (the same
update id), one worker killed with -9 midway and started again under its name.

The rate limits are on, with scaled windows (``TELEGRAM_RATE_LIMITS=overall=30/0.25,group=20/6``:
a test cannot wait minutes; the shipped default is Telegram's own 30/s and 20/min), reminders after
one second. Afterwards, from the database and the fake server's log:

* every match is over; its action log replays to its snapshot; every press is the action at the
  version it was pressed at, once, and there is no human action nobody pressed (0 lost, 0 doubled);
* no row is left in the outbox and every delivered message is on the server; per chat, new messages
  and edits reached the server in outbox order;
* no reminder twice; no "someone acted at the same moment" and no "stale button" answer (one person
  per match, who presses only live buttons);
* in no window did a group get more than 20 calls, nor the bot more than 30, over all workers.

    pytest tests/transports/test_workers.py -s      # prints the figures
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import json
import os
import random
import signal
import sys
import time
from pathlib import Path

import aiohttp
import pytest
from sqlalchemy import text

from chatbot.storage import SqlRepository
from chatbot.transports.telegram.delivery import split_text
from engines import GAMES
from engines.playout import replay
from tests.conftest import free_port
from tests.telegram.fake_api import FakeTelegram
from tests.transports.conftest import fresh_pg_database
from tests.transports.test_kill import Bot

pytestmark = [pytest.mark.telegram, pytest.mark.postgres, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
WORKERS = 3
GAME_MIX = ["majavajengi rounds=1"] * 22 + ["gnav lives=1"] * 22 + ["coloretto"] * 6
GROUP_WINDOW = (20, 6.0)
OVERALL_WINDOW = (30, 0.25)
LIMITS = f"overall={OVERALL_WINDOW[0]}/{OVERALL_WINDOW[1]},group={GROUP_WINDOW[0]}/{GROUP_WINDOW[1]}"
REMIND_AFTER = 1.0
#: Bot API methods that send or change a message (what Telegram's limits count)
MESSAGE_CALLS = {
    "sendmessage",
    "sendphoto",
    "editmessagetext",
    "editmessagecaption",
    "editmessagemedia",
    "editmessagereplymarkup",
    "deletemessage",
}
SOMEONE_ACTED = "Joku ehti toimia samalla hetkellä"
STALE = "Tämä painike on vanhentunut"
REMINDERS = ("⏰ Odotetaan pelaajaa", "⏰ Muut odottavat siirtoasi")


class Worker(Bot):
    """One bot process in webhook mode, under a fixed worker name (a restart takes the same one)."""

    def __init__(self, index: int, server: FakeTelegram, db: str, log: Path) -> None:
        self.name = f"w{index}"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/hook"
        super().__init__(
            server,
            db,
            log,
            env={
                "TELEGRAM_WEBHOOK_URL": self.url,
                "TELEGRAM_WEBHOOK_PORT": str(self.port),
                "TELEGRAM_WORKERS": str(WORKERS),
                "TELEGRAM_RATE_LIMITS": LIMITS,
                "CHATBOT_WORKER": self.name,
                "CHATBOT_REMIND_AFTER": str(REMIND_AFTER),
                "CHATBOT_ACT_AFTER": "600",
            },
        )

    async def start(self) -> None:
        await self.spawn()
        deadline = time.monotonic() + 60
        while True:  # listening means started: the runtime starts before the web server
            try:
                _reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
                writer.close()
                return
            except OSError:
                if time.monotonic() > deadline or not self.alive:
                    raise AssertionError(f"worker {self.name} did not start") from None
                await asyncio.sleep(0.1)


class Router:
    """Telegram's side of a webhook behind a load balancer: each update to a random live worker,
    some to two at once; an update that got no 200 is sent again (to any worker) until one does."""

    def __init__(self, workers: list[Worker], rng: random.Random) -> None:
        self.workers = workers
        self.rng = rng
        self.session: aiohttp.ClientSession | None = None
        self.doubled = 0
        self.retried = 0
        self.updates = 0

    async def __call__(self, update: dict) -> None:
        if self.session is None:
            self.session = aiohttp.ClientSession()
        self.updates += 1
        # the balancer does not know a worker is down: what it sends there fails and is sent again
        targets = [self.rng.choice(self.workers)]
        if self.rng.random() < 0.2:
            targets.append(self.rng.choice([w for w in self.workers if w is not targets[0]]))
            self.doubled += 1
        results = await asyncio.gather(*(self._post(w, update) for w in targets))
        while not any(results):
            self.retried += 1
            await asyncio.sleep(0.2)
            alive = [w for w in self.workers if w.alive] or self.workers
            results = [await self._post(self.rng.choice(alive), update)]

    async def _post(self, worker: Worker, update: dict) -> bool:
        assert self.session is not None
        try:
            async with self.session.post(
                worker.url, json=update, timeout=aiohttp.ClientTimeout(total=60)
            ) as response:
                return response.status == 200
        except (aiohttp.ClientError, TimeoutError, ConnectionError):
            return False

    async def close(self) -> None:
        if self.session is not None:
            await self.session.close()


class Player:
    """The one person of a match: sets it up with an AI seat, then presses a live prompt button
    whenever one comes (now and then only after a reminder)."""

    def __init__(self, index: int, game: str, server: FakeTelegram, repo: SqlRepository, seed: int) -> None:
        self.group = -1000 - index
        self.uid = 5000 + index
        self.game = game
        self.server = server
        self.repo = repo
        self.rng = random.Random(seed)
        self.match_id = 0
        #: (version, notation) of every press
        self.presses: list[tuple[int, str]] = []
        self.last_version = -1
        server.add_group(self.group)
        server.add_user(self.uid, f"Pelaaja{index}", "fi", opened=True)

    def live_prompt(self):
        for m in reversed(self.server.bot_messages(self.uid)):
            datas = [d for d in m.callback_data() if d.startswith(f"{self.match_id}:")]
            if datas:
                return (m, datas) if int(datas[0].split(":")[1]) > self.last_version else None
        return None

    async def play(self, pressed: list[int]) -> None:
        await self.server.send(self.uid, self.group, f"/uusi {self.game}")
        room = self.repo.room("telegram", str(self.group))
        match = self.repo.active_match(room.id)
        assert match is not None, f"no {self.game} in {self.group}"
        self.match_id = match.id
        await self.server.send(self.uid, self.group, "/botti")
        await self.server.send(self.uid, self.group, "/aloita")
        if self.repo.match(self.match_id).status == "lobby":  # Gnav asks whether to fill the table
            await self.server.send(self.uid, self.group, "/pelataan_nain")
        # (with an AI seat to move first, a short game may be over already)
        assert self.repo.match(self.match_id).status in {"running", "over"}, f"{self.game} did not start"
        looked = time.monotonic()
        while True:
            found = self.live_prompt()
            if found is None:
                # the fake server runs on this loop: look at the database seldom (a busy loop answers
                # the workers late, their requests time out and are sent again)
                if time.monotonic() - looked > 2.0:
                    looked = time.monotonic()
                    if self.repo.match(self.match_id).status != "running":
                        return
                await asyncio.sleep(0.1)
                continue
            looked = time.monotonic()
            msg, datas = found
            data = self.rng.choice(datas)
            version = int(data.split(":")[1])
            slow = self.rng.random() < 0.1
            await asyncio.sleep(REMIND_AFTER + 0.6 if slow else self.rng.uniform(0.0, 0.15))
            self.last_version = version
            self.presses.append((version, data.split(":", 2)[2]))
            await self.server.press(self.uid, self.uid, msg.message_id, data)
            pressed[0] += 1


def _chat_id(chat: str) -> int:
    return int(chat.rsplit(":", 1)[1])


def _payload(row) -> dict:
    return row.payload if isinstance(row.payload, dict) else json.loads(row.payload)


def _call_text(name: str, params: dict) -> str | None:
    if name in {"sendmessage", "editmessagetext"}:
        return str(params.get("text") or "")
    if name in {"sendphoto", "editmessagecaption"}:
        return params.get("caption") or None
    if name == "editmessagemedia":
        media = params.get("media") or {}
        return (media.get("caption") if isinstance(media, dict) else None) or None
    return None


def _in_order(texts: list[str], rows: list[str]) -> list[str]:
    """The texts that do not follow ``rows`` in order (each text is a row's text, or a chunk of it,
    at the position of the row before or later). A text shown again later (a row sent twice after a
    kill or a timed-out call: counted as a duplicate) is no reordering; a row shown before an
    earlier row that had not been shown yet is."""
    accepted = [{row, *split_text(row)} for row in rows]
    wrong = []
    shown: set[str] = set()
    at = 0
    for t in texts:
        j = next((j for j in range(at, len(rows)) if t in accepted[j]), None)
        if j is not None:
            at = j
        elif t not in shown:
            wrong.append(t)
        shown.add(t)
    return wrong


def _stuck(player: Player, repo: SqlRepository) -> str:
    """What a player whose match did not finish saw last: the match's game, status and version,
    its last press, and the last text the bot sent the player."""
    match = repo.match(player.match_id)
    last = next(iter(reversed(player.server.bot_messages(player.uid))), None)
    return (
        f"{player.game} #{player.match_id} {match.status if match else None} v{match.version if match else None}"
        f" presses {len(player.presses)} last {player.presses[-1:]} last_version {player.last_version}"
        f" last text {((last.text or last.caption) if last is not None else None) or ''!r:.200}"
        + _chat_trail(player, repo)
    )


def _chat_trail(player: Player, repo: SqlRepository) -> str:
    """The player's private chat, for a look at a failure: its outbox rows (id, key, state, the
    versions of their buttons) and the calls that reached the server (method, message, versions)."""

    def versions(datas) -> list[str]:
        return sorted({d.split(":")[1] for d in datas if d.count(":") >= 2})

    def of_markup(markup) -> list[str]:
        markup = json.loads(markup) if isinstance(markup, str) else markup or {}
        return [b.get("callback_data") or "" for r in markup.get("inline_keyboard") or [] for b in r]

    with repo.engine.connect() as conn:
        rows = conn.execute(
            text("SELECT id, key, state, payload, sending FROM outbox WHERE chat LIKE :c ORDER BY id"),
            {"c": f"%:{player.uid}"},
        ).all()
    outbox = [
        (
            r.id,
            r.key,
            r.state,
            _payload(r).get("text", "")[:25],
            versions([d for row in _payload(r).get("buttons") or [] for _l, d in row]),
            bool(r.sending),
        )
        for r in rows[-12:]
    ]
    calls = [
        (
            round(at, 2),
            name,
            params.get("message_id"),
            str(params.get("text") or "")[:25],
            versions(of_markup(params.get("reply_markup"))),
            params.get("_error"),
        )
        for at, name, params in player.server.calls
        if str(params.get("chat_id")) == str(player.uid)
    ][-12:]
    return f"\n  outbox {outbox}\n  calls {calls}"


def _window_peak(times: list[float], period: float) -> int:
    """The most calls within any window of ``period`` seconds."""
    times = sorted(times)
    peak, lo = 0, 0
    for hi, t in enumerate(times):
        while times[lo] <= t - period:
            lo += 1
        peak = max(peak, hi - lo + 1)
    return peak


async def workers_run(tmp_path: Path, db: str) -> dict:
    server = FakeTelegram()
    await server.start()
    repo = SqlRepository(db)  # the schema, before the workers start
    workers = [Worker(i, server, db, tmp_path / f"w{i}.log") for i in range(WORKERS)]
    router = Router(workers, random.Random(5))
    server.router = router
    players = [Player(i, game, server, repo, seed=i) for i, game in enumerate(GAME_MIX)]
    pressed = [0]
    figures: dict = {"matches": len(players)}
    try:
        await asyncio.gather(*(w.start() for w in workers))
        started = time.monotonic()
        games = [asyncio.create_task(p.play(pressed)) for p in players]
        # midway (by presses; a whole run has about 400): kill -9 one worker, start it again
        while pressed[0] < 150 and not all(g.done() for g in games):
            await asyncio.sleep(0.05)
        victim = workers[1]
        await victim.kill()
        figures["killed_at_press"] = pressed[0]
        await asyncio.sleep(1.0)
        await victim.start()
        done, pending = await asyncio.wait(games, timeout=300)
        for g in done:
            g.result()
        assert not pending, f"{len(pending)} matches did not finish: " + "; ".join(
            _stuck(p, repo) for p, g in zip(players, games, strict=True) if g in pending
        )
        figures["play_seconds"] = time.monotonic() - started

        def all_sent() -> bool:
            with repo.engine.connect() as conn:
                return conn.execute(text("SELECT count(*) FROM outbox WHERE state = 'pending'")).scalar() == 0

        deadline = time.monotonic() + 60
        while not all_sent():
            assert time.monotonic() < deadline, "rows left in the outbox"
            await asyncio.sleep(0.2)
        await asyncio.sleep(0.5)  # keyboards removed in the background
        codes = [await w.stop() for w in workers]
        assert codes == [0] * WORKERS, f"SIGTERM did not stop every worker cleanly: {codes}"
    except BaseException:
        for w in workers:
            if w.alive:
                w.proc.send_signal(signal.SIGABRT)
                await asyncio.wait_for(w.proc.wait(), 10)
            sys.stderr.write(f"--- {w.name}\n" + w.log.read_text(errors="replace")[-3000:])
        raise
    finally:
        await router.close()
        await server.stop()
    figures.update(check(repo, server, players))
    figures.update(
        presses=pressed[0], updates=router.updates, doubled=router.doubled, redelivered=router.retried
    )
    return figures


def check(repo: SqlRepository, server: FakeTelegram, players: list[Player]) -> dict:
    lost = doubled = 0
    for p in players:
        match = repo.match(p.match_id)
        assert match.status == "over", (p.game, match.status)
        engine = GAMES[match.game]
        actions = repo.actions(match.id)
        state = replay(
            engine,
            len(match.seats),
            match.seed,
            engine.options_from_dict(match.options),
            [(a.seat, a.notation) for a in actions],
        )
        assert engine.dump(state) == match.state, f"{p.game}: the log does not replay to the snapshot"
        v0 = match.version - len(actions)
        human = next(s.seat for s in match.seats if s.user_id is not None)
        by_version = {v0 + i: a for i, a in enumerate(actions)}
        lost += sum(
            1
            for v, n in p.presses
            if not ((a := by_version.get(v)) is not None and a.seat == human and a.notation == n)
        )
        pressed = {v for v, _n in p.presses}
        doubled += sum(1 for v, a in by_version.items() if a.seat == human and v not in pressed)

    with repo.engine.connect() as conn:
        rows = conn.execute(text("SELECT id, chat, key, payload, state FROM outbox ORDER BY id")).all()
    if os.environ.get("WORKERS_DUMP"):  # for a look at a failure
        with open(os.environ["WORKERS_DUMP"], "w") as f:
            json.dump(
                {
                    "rows": [[r.id, r.chat, r.key, _payload(r)["text"], r.state] for r in rows],
                    "calls": [[at, name, params] for at, name, params in server.calls],
                },
                f,
                default=str,
            )
    by_chat: dict[int, list] = collections.defaultdict(list)
    for r in rows:
        by_chat[_chat_id(r.chat)].append(r)
    calls: dict[int, list[tuple[str, str]]] = collections.defaultdict(list)
    group_times: dict[int, list[float]] = collections.defaultdict(list)
    message_times = []
    for at, name, params in server.calls:
        if name not in MESSAGE_CALLS:
            continue
        message_times.append(at)
        chat = int(params.get("chat_id"))
        if chat < 0:
            group_times[chat].append(at)
        t = _call_text(name, params)
        if t and "_error" not in params:  # a refused call showed nothing (e.g. a probe after a kill)
            calls[chat].append((name, t))

    missing = duplicates = misordered = reminders_twice = 0
    for chat, chat_rows in by_chat.items():
        plain = [_payload(r)["text"] for r in chat_rows if r.key is None]
        keyed = [_payload(r)["text"] for r in chat_rows if r.key is not None]
        plain_set = {c for t in plain for c in (t, *split_text(t))}
        sent_plain = [t for name, t in calls[chat] if name in {"sendmessage", "sendphoto"} and t in plain_set]
        other = [
            t for name, t in calls[chat] if not (name in {"sendmessage", "sendphoto"} and t in plain_set)
        ]
        misordered += len(_in_order(sent_plain, plain)) + len(_in_order(other, keyed))
        wanted = collections.Counter(
            _payload(r)["text"][:4096] for r in chat_rows if r.key is None and r.state == "done"
        )
        shown = collections.Counter(t for t in sent_plain)
        toasts = {
            a.get("text") for answers in server.answers.values() for a in answers if a.get("text") is not None
        }
        missing += sum(n - shown[t] for t, n in wanted.items() if shown[t] < n and t not in toasts)
        duplicates += sum(max(0, shown[t] - n) for t, n in wanted.items())
        # a reminder is performed once: two of them with nothing between are one deadline done twice
        kinds = [any(_payload(r)["text"].startswith(x) for x in REMINDERS) for r in chat_rows]
        reminders_twice += sum(1 for a, b in itertools.pairwise(kinds) if a and b)
    reminders = sum(1 for r in rows if any(_payload(r)["text"].startswith(x) for x in REMINDERS))
    texts = [_payload(r)["text"] for r in rows] + [
        a.get("text") or "" for answers in server.answers.values() for a in answers
    ]
    someone_acted = sum(1 for t in texts if SOMEONE_ACTED in t)
    stale = sum(1 for t in texts if STALE in t)
    group_peak = max((_window_peak(ts, GROUP_WINDOW[1]) for ts in group_times.values()), default=0)
    overall_peak = _window_peak(message_times, OVERALL_WINDOW[1])
    figures = {
        "actions_lost": lost,
        "actions_doubled": doubled,
        "messages_lost": missing,
        "duplicate_new_sends": duplicates,
        "misordered": misordered,
        "reminders": reminders,
        "reminders_twice": reminders_twice,
        "someone_acted": someone_acted,
        "stale_answers": stale,
        "group_peak": group_peak,
        "overall_peak": overall_peak,
        "message_calls": len(message_times),
        "pending": sum(1 for r in rows if r.state == "pending"),
    }
    print("\n3 workers on PostgreSQL:", figures)
    assert lost == 0 and doubled == 0, figures
    assert figures["pending"] == 0 and missing == 0, figures
    assert misordered == 0, figures
    assert reminders > 0 and reminders_twice == 0, figures
    assert someone_acted == 0 and stale == 0, figures
    assert group_peak <= GROUP_WINDOW[0], figures
    assert overall_peak <= OVERALL_WINDOW[0], figures
    # a row sent just before the kill, and not yet marked sent, goes out again (Telegram has no
    # idempotency key for a new message): at most what one worker had in flight
    assert duplicates <= 8, figures
    return figures


@pytest.mark.timeout(600)
def test_three_workers_on_postgresql(tmp_path, pg_url):
    db = fresh_pg_database(pg_url, "workers")
    figures = asyncio.run(asyncio.wait_for(workers_run(tmp_path, db), 540))
    print("3 workers on PostgreSQL, the run:", {k: figures[k] for k in sorted(figures)})
    assert figures["matches"] >= 50 and figures["doubled"] > 0 and figures["redelivered"] > 0
