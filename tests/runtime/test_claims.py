"""A chat's claim holds for as long as its sender works on it: a queue that takes longer than the
lease (slow platform, a rate limit's wait) is not taken over by another worker meanwhile, and a
sender whose claim is taken stops before its next row."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import time

from chatbot.runtime import Runtime, Settings
from tests.runtime.doubles import EchoCore, MemoryStore, RecordingTransport
from tests.runtime.test_runtime import FAST, msg, run


def test_a_queue_longer_than_the_lease_keeps_its_one_sender():
    async def body():
        store = MemoryStore(time.time)
        core = EchoCore(store, time.time)
        # 12 rows at 0.1 s each: 1.2 s of sending under a 0.4 s lease
        slow, other = RecordingTransport(delay=0.1), RecordingTransport(delay=0.0)
        settings = {**FAST, "lease": 0.4, "linger": 0.0}
        # w1's claim slots are all busy (max_chats=1), so no claim round renews the chat on the way
        rt1 = Runtime(
            core, slow, store=store, settings=Settings(**{**settings, "worker": "w1", "max_chats": 1})
        )
        rt2 = Runtime(core, other, store=store, settings=Settings(**{**settings, "worker": "w2"}))
        await rt1.start()
        await rt1.handle(msg("many 12", chat="c"))
        await asyncio.sleep(0.05)
        await rt2.start()  # polls for claimable chats every 0.05 s
        assert await rt1.idle(10) and await rt2.idle(10)
        await rt1.stop()
        await rt2.stop()
        sent = sorted(slow.sent + other.sent, key=lambda s: s.at)
        assert [s.txn for s in sent] == [f"ob{i}" for i in range(1, 13)]  # once each, in order
        # the second worker only ever sent after the first had let the chat go
        assert not other.sent or min(s.at for s in other.sent) > max(s.at for s in slow.sent)

    run(body())


def test_a_sender_whose_claim_was_taken_stops():
    async def body():
        store = MemoryStore(time.time)
        core = EchoCore(store, time.time)
        tr = RecordingTransport(delay=0.1)
        rt = Runtime(core, tr, store=store, settings=Settings(**{**FAST, "lease": 0.4, "worker": "w1"}))
        await rt.start()
        await rt.handle(msg("many 20", chat="c"))
        await asyncio.sleep(0.25)
        with store.lock:  # as if the claim had run out and another worker had taken it
            store.claims["test:g:c"] = ("w2", time.time() + 60)
        await asyncio.sleep(0.5)
        sent = len(tr.sent)
        await asyncio.sleep(0.5)
        assert len(tr.sent) == sent < 20  # w1 stopped sending the chat
        await rt.stop()

    run(body())


_NAME = """
import sys, time
from chatbot.runtime import default_worker
print(default_worker(sys.argv[1]), flush=True)
time.sleep(float(sys.argv[2]))
"""


def _worker_name(database: str, hold: float = 0.0) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", _NAME, database, str(hold)],
        stdout=subprocess.PIPE,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "CHATBOT_WORKER"},
    )
    assert proc.stdout is not None
    return proc, proc.stdout.readline().strip()


def test_a_worker_started_in_place_of_a_killed_one_takes_its_name_while_other_databases_run(tmp_path):
    """A bot restarted after kill -9 takes over its chats at once only under its old name. A bot of
    another database started meanwhile on the same host must not take that name."""
    ours, theirs = f"sqlite:///{tmp_path}/ours.db", f"sqlite:///{tmp_path}/theirs.db"
    procs: list[subprocess.Popen[str]] = []
    try:
        first, name = _worker_name(ours, hold=30)
        second, second_name = _worker_name(ours, hold=30)
        procs += [first, second]
        assert second_name != name  # two live workers of one database never share a name
        first.kill()
        first.wait()
        other, other_name = _worker_name(theirs, hold=30)  # another database's bot, started meanwhile
        restarted, restarted_name = _worker_name(ours)
        procs += [other, restarted]
        assert restarted_name == name
        assert other_name.rsplit(":", 1)[1] == name.rsplit(":", 1)[1]  # it counts its own slots
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


def test_a_started_worker_warms_the_core_before_its_first_update():
    """The catalogs and rule indexes are built at the start (on the core's thread), not inside the
    first person's answer; the console (inline) builds them when first needed."""

    class WarmCore(EchoCore):
        def warm(self) -> None:
            self.warmed.append(threading.current_thread().name)

    async def body():
        store = MemoryStore(time.time)
        core = WarmCore(store, time.time)
        core.warmed = []
        rt = Runtime(core, RecordingTransport(), store=store, settings=Settings(**{**FAST, "worker": "w1"}))
        await rt.start()
        assert len(core.warmed) == 1 and core.warmed[0].startswith("test-core")
        await rt.handle(msg("hello", chat="c"))
        assert await rt.idle(10)
        await rt.stop()
        inline = WarmCore(store, time.time)
        inline.warmed = []
        rt2 = Runtime(
            inline, RecordingTransport(), store=store, settings=Settings(**{**FAST, "inline": True})
        )
        await rt2.start()
        await rt2.stop()
        assert inline.warmed == []

    run(body())
