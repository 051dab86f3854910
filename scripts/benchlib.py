"""Shared parts of the benchmarks (issue #12): a throwaway PostgreSQL cluster, bot child processes
against the fake Bot API, and what /proc says about a process (CPU time, peak RSS).

Not a test helper: the benchmarks print figures; their smoke tests only check that they still run.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.telegram.fake_api import FakeTelegram  # noqa: E402

#: Bot API methods that answer a person (the first of them is "the first answer")
ANSWERS = {
    "sendmessage",
    "editmessagetext",
    "editmessagereplymarkup",
    "answercallbackquery",
    "sendphoto",
    "editmessagecaption",
    "editmessagemedia",
}
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[tuple[str, int]]:
    """A PostgreSQL server of its own on a free port, as tests/conftest.py's ``pg_url`` makes it
    (Debian's postgresql; as the postgres user when run as root). Yields (URL, postmaster pid)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise SystemExit("PostgreSQL is not installed (scripts/setup.sh test installs it)")
    bindir = Path(found[-1]).parent
    workdir = Path(tempfile.mkdtemp(prefix="pgbench-"))
    datadir = workdir / "data"
    as_postgres: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(workdir, "postgres", "postgres")
        as_postgres = ["runuser", "-u", "postgres", "--"]
    port = free_port()
    initdb = [str(bindir / "initdb"), "-D", str(datadir), "-A", "trust", "-U", "postgres", "--no-sync"]
    subprocess.run([*as_postgres, *initdb], check=True, capture_output=True)
    options = f"-p {port} -k {workdir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
    pg_ctl = [str(bindir / "pg_ctl"), "-D", str(datadir), "-l", str(workdir / "log"), "-w"]
    subprocess.run(
        [*as_postgres, *pg_ctl, "-o", options, "start"],
        check=True,
        capture_output=True,
    )
    try:
        pid = int((datadir / "postmaster.pid").read_text().split()[0])
        yield f"postgresql+psycopg2://postgres@127.0.0.1:{port}/postgres", pid
    finally:
        subprocess.run(
            [*as_postgres, str(bindir / "pg_ctl"), "-D", str(datadir), "-m", "immediate", "stop"],
            capture_output=True,
        )
        shutil.rmtree(workdir, ignore_errors=True)


def reset_postgres(url: str) -> None:
    """An empty public schema (the bot migrates it again)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


# ---------------------------------------------------------------------------------------------
# /proc


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of one process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def children(pid: int) -> list[int]:
    found = []
    for task in glob.glob(f"/proc/{pid}/task/*/children"):
        with contextlib.suppress(OSError):
            found.extend(int(x) for x in Path(task).read_text().split())
    return found


def tree_cpu_seconds(pid: int) -> float:
    """CPU time of a process and its live children (PostgreSQL: the postmaster and its backends)."""
    total = 0.0
    for p in [pid, *children(pid)]:
        with contextlib.suppress(OSError):
            total += cpu_seconds(p)
    return total


def peak_rss_mb(pid: int) -> float:
    """VmHWM (peak resident set) of a live process, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


# ---------------------------------------------------------------------------------------------
# the bot as a child process


def bot_env(server: FakeTelegram, **extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "TELEGRAM_RATE_LIMITS": "off",
        "CHATBOT_FLOOD_LIMIT": "off",
        "TELEGRAM_WEBHOOK_URL": "",
        "PYTHONPATH": str(ROOT),
        "TELEGRAM_TOKEN": server.token,
        "TELEGRAM_API_URL": server.api_url,
        **extra,
    }


class Child:
    """A child process that talks to ``server``; started once it has said hello to the Bot API."""

    def __init__(self, server: FakeTelegram, argv: list[str], env: dict[str, str]) -> None:
        self.server, self.argv, self.env = server, argv, env
        self.proc: asyncio.subprocess.Process | None = None

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def _hellos(self) -> int:
        return sum(1 for c in self.server.calls if c[1] in {"deletewebhook", "setmycommands", "setwebhook"})

    async def start(self, timeout: float = 120.0, settle: float = 0.5) -> None:
        before = self._hellos()
        self.proc = await asyncio.create_subprocess_exec(
            *self.argv,
            cwd=ROOT,
            env=self.env,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=None if os.environ.get("BENCH_DEBUG") else asyncio.subprocess.DEVNULL,
        )
        await self.server.wait_for(lambda: self._hellos() > before, timeout, "the child to start")
        await asyncio.sleep(settle)  # its first getUpdates

    async def stop(self, timeout: float = 30.0) -> float:
        """SIGTERM; returns the seconds until it exited."""
        assert self.proc is not None
        started = time.monotonic()
        if self.proc.returncode is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), timeout)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        return time.monotonic() - started


def bot_argv(db: str, prefix: list[str] | None = None) -> list[str]:
    """``python -m chatbot telegram --db DB`` (``prefix`` replaces ``-m``, e.g. a profiler)."""
    prefix = prefix or os.environ.get("BENCH_BOT_PREFIX", "-m").split()
    return [sys.executable, *prefix, "chatbot", "telegram", "--db", db]


async def first_answer(
    server: FakeTelegram, since: int, timeout: float = 30.0, chat: int | None = None
) -> float:
    """The monotonic time of the first answering Bot API call after call number ``since`` (with
    ``chat``: the first one into that chat, so that a backlog's calls to other chats do not count)."""

    def found() -> float | None:
        for t, method, params in server.calls[since:]:
            if method in ANSWERS and "_error" not in params:
                if chat is not None and str(params.get("chat_id")) != str(chat):
                    continue
                return t
        return None

    value: float = await server.wait_for(found, timeout, "an answer")
    return value


def describe(url: str) -> str:
    return "SQLite" if url.startswith("sqlite") or "://" not in url else "PostgreSQL"


def stamp() -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())


def load_average() -> str:
    with contextlib.suppress(OSError):
        return Path("/proc/loadavg").read_text().split()[0]
    return "?"
