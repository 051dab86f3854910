"""The runtime over the real SqlRepository (SQLite file) as its store, with a TEST DOUBLE core that
commits outbox rows through the repository's unit of work: the store semantics the runtime relies on
(claims, order, coalescing, refs, leases across two workers)."""

from __future__ import annotations

import time

from chatbot.core.ports import Answer, RuntimeCore
from chatbot.core.types import Inbound, Outbound
from chatbot.runtime import Runtime, Settings
from chatbot.storage import SqlRepository
from tests.runtime.doubles import RecordingTransport
from tests.runtime.test_runtime import FAST, run


class UnitCore(RuntimeCore):
    """ "say X" answers X; "table X" edits the table; every update in one unit with its id."""

    repo = None  # (the protocol's read-only properties, set here)
    addressed_only = None

    def __init__(self, repo: SqlRepository) -> None:
        self.repo = repo
        self.link_template = None
        self.addressed_only = set()

    def handle(self, msg: Inbound) -> Answer:
        word, _, arg = (msg.text or "").partition(" ")
        outs = [Outbound(msg.platform, arg, chat_id=msg.chat_id, key="table:1" if word == "table" else None)]
        update = (msg.platform, msg.update_key) if msg.update_key else None
        with self.repo.unit(update) as fresh:
            if not fresh:
                return Answer.seen()
            self.repo.outbox_add(outs)
        return Answer(outs)

    def run_due(self, worker: str, limit: int = 20) -> list[Outbound]:
        return []

    def next_due(self) -> float | None:
        return None


def msg(text: str, chat: str = "g", key: str | None = None) -> Inbound:
    return Inbound("test", "u", "U", chat, False, text=text, update_key=key)


def test_runtime_over_sqlite(tmp_path):
    async def body():
        repo = SqlRepository(f"sqlite:///{tmp_path / 'rt.sqlite'}")
        core = UnitCore(repo)
        for i in range(4):  # committed before any runtime ran
            core.handle(msg(f"table t{i}", key=f"a{i}"))
            core.handle(msg(f"say s{i}", key=f"b{i}"))
        tr = RecordingTransport()
        rt = Runtime(core, tr, settings=Settings(**{**FAST, "worker": "w1"}))
        await rt.start()
        assert await rt.idle(10)
        assert tr.texts() == ["s0", "s1", "s2", "t3", "s3"]
        assert await rt.handle(msg("say again", key="b0")) == []  # a redelivery
        await rt.handle(msg("table t4", key="a4"))
        assert await rt.idle(10)
        assert tr.sent[-1].out.text == "t4" and tr.sent[-1].ref == "msg4"
        await rt.stop()
        assert repo.message_ref("test:g:g", "table:1") == "msg4"
        assert repo.outbox_claim("test", "x", time.time(), 1, 10) == []  # nothing pending

    run(body())


def test_two_workers_on_one_sqlite_file(tmp_path):
    # not a failover test: a lease longer than a loaded machine's stalls (a 3 s one ran out at load 9)
    async def body():
        url = f"sqlite:///{tmp_path / 'two.sqlite'}"
        repos = [SqlRepository(url), SqlRepository(url)]
        cores = [UnitCore(r) for r in repos]
        trs = [RecordingTransport(delay=0.003), RecordingTransport(delay=0.003)]
        rts = [
            Runtime(c, t, settings=Settings(**{**FAST, "lease": 10.0, "worker": f"w{i}"}))
            for i, (c, t) in enumerate(zip(cores, trs, strict=True))
        ]
        for rt in rts:
            await rt.start()
        for i in range(60):
            await rts[i % 2].handle(msg(f"say {i}", chat=f"c{i % 4}", key=str(i)))
        for rt in rts:
            assert await rt.idle(20)
        for rt in rts:
            await rt.stop()
        sent = trs[0].sent + trs[1].sent
        assert sorted(int(s.out.text) for s in sent) == list(range(60))  # each once
        for c in range(4):
            mine = sorted((s for s in sent if s.out.chat_id == f"c{c}"), key=lambda s: s.at)
            assert [int(s.out.text) for s in mine] == sorted(int(s.out.text) for s in mine)

    run(body(), timeout=60)


def test_a_delivered_batch_costs_one_write_of_its_own(tmp_path):
    """Per update in a chat whose sender lingers: ONE bookkeeping statement (the batch's done
    marks and the table's reference), written before the sender lingers (the store says done)."""
    from sqlalchemy import event, text

    async def body():
        repo = SqlRepository(f"sqlite:///{tmp_path / 'book.sqlite'}")
        core = UnitCore(repo)
        tr = RecordingTransport()
        quiet = {"poll_every": 10.0, "lease": 30.0, "linger": 10.0}  # no claim rounds, no end of lingering
        rt = Runtime(core, tr, settings=Settings(**{**FAST, **quiet, "worker": "w1"}))
        await rt.start()
        await rt.handle(msg("say first", key="k0"))
        assert await rt.idle(5)
        writes: list[str] = []

        def statement(_conn, _cursor, sql, *_args):
            if sql.startswith(("INSERT INTO book", "UPDATE outbox", "INSERT INTO messageref")):
                writes.append(sql)

        event.listen(repo.engine, "before_cursor_execute", statement)
        for i in range(1, 6):
            await rt.handle(msg(f"table t{i}" if i % 2 else f"say s{i}", key=f"k{i}"))
            assert await rt.idle(5)
            with repo.engine.connect() as conn:
                assert conn.execute(text("SELECT count(*) FROM outbox WHERE state = 'pending'")).scalar() == 0
        assert len(writes) == 5 and all(w.startswith("INSERT INTO book") for w in writes)
        assert repo.message_ref("test:g:g", "table:1") == "msg2"  # the first table, edited since
        await rt.stop()

    run(body())
