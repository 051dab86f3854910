"""A database outage mid-match: PostgreSQL stopped (pg_ctl), then started again. Nothing raises, the
person is answered with an apology in their own language, and play continues when it is back."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from chatbot.compose import new_core
from chatbot.core.types import Inbound
from chatbot.storage import SqlRepository
from tests.conftest import _pg_bin, free_port

pytestmark = pytest.mark.postgres


class Cluster:
    """A PostgreSQL server of this test's own, so that stopping it disturbs no other test."""

    def __init__(self) -> None:
        bindir = _pg_bin()
        if bindir is None:
            pytest.skip("PostgreSQL is not installed")
        self.bindir = bindir
        self.workdir = Path(tempfile.mkdtemp(prefix="pgoutage-"))
        self.datadir = self.workdir / "data"
        self.as_postgres: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.workdir, "postgres", "postgres")
            self.as_postgres = ["runuser", "-u", "postgres", "--"]
        self.port = free_port()
        subprocess.run([*self.as_postgres, str(bindir / "initdb"), "-D", str(self.datadir), "-A", "trust",
                        "-U", "postgres", "--no-sync"], check=True, capture_output=True)
        self.url = f"postgresql+psycopg2://postgres@127.0.0.1:{self.port}/postgres"

    def _ctl(self, *args: str) -> None:
        subprocess.run([*self.as_postgres, str(self.bindir / "pg_ctl"), "-D", str(self.datadir), *args],
                       check=True, capture_output=True)

    def start(self) -> None:
        self._ctl("-l", str(self.workdir / "log"), "-w", "-o",
                  f"-p {self.port} -k {self.workdir} -c listen_addresses=127.0.0.1 -c fsync=off", "start")

    def stop(self) -> None:
        self._ctl("-m", "fast", "-w", "stop")

    def remove(self) -> None:
        subprocess.run([*self.as_postgres, str(self.bindir / "pg_ctl"), "-D", str(self.datadir), "-m",
                        "immediate", "stop"], capture_output=True)
        shutil.rmtree(self.workdir, ignore_errors=True)


@pytest.fixture
def cluster():
    c = Cluster()
    c.start()
    try:
        yield c
    finally:
        c.remove()


def _say(core, user: str, text: str, private: bool = False, key: str | None = None):
    return core.handle(Inbound("test", user, user.capitalize(), user if private else "g1", private, text=text,
                               update_key=key))


def _run_ai(core) -> None:
    for _ in range(1000):
        due = core.next_due()
        if due is None or due > core.clock() or not core.run_due("w"):
            return


def test_postgresql_stopped_and_started_mid_match(cluster):
    core = new_core(SqlRepository(cluster.url), seed="outage")
    _say(core, "matti", "uusi majavajengi")
    _say(core, "liisa", "liity")
    _say(core, "liisa", "language en", private=True)
    _say(core, "matti", "aloita")
    _run_ai(core)
    repo = core.repo
    match = repo.active_match(repo.room("test", "g1").id)
    engine = core.games[match.game]
    acting = [repo.user_by_id(match.seats[s].user_id).ext_id for s in engine.to_act(engine.load(match.state))]
    assert acting
    version = match.version

    cluster.stop()
    # every entry point keeps working: the people get an apology in their own language
    answer = _say(core, acting[0], "nostan", private=True, key="1")
    assert not answer.committed and len(answer) == 1
    expected = "Sorry, I cannot reach" if acting[0] == "liisa" else "en tavoita muistiani"
    assert expected in answer[0].text and answer[0].user_id == acting[0]
    other = "matti" if acting[0] == "liisa" else "liisa"
    answer = _say(core, other, "tila", key="2")
    assert not answer.committed
    assert ("Sorry" if other == "liisa" else "Pahoittelen") in answer[0].text
    assert core.run_due("w") == []
    assert core.next_due() is not None and core.next_due() <= core.clock() + 10  # "try again soon"
    assert core.private_blocked("test", "matti") == []

    cluster.start()
    # the same update, delivered again by the platform, is applied now, and play goes on
    answer = _say(core, acting[0], "nostan", private=True, key="1")
    assert answer.committed and any("Nostit" in o.text or "You drew" in o.text for o in answer)
    assert repo.match(match.id).version == version + 1
    _run_ai(core)
    assert repo.match(match.id).status == "running"
