"""Shared fixtures: a throwaway PostgreSQL cluster, repositories, a core with a fixed seed; and the
order of the tests on pytest-xdist's workers (the longest first)."""

from __future__ import annotations

import glob
import json
import logging
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest


class _ErrorRecords(logging.Handler):
    """Every record at ERROR or above from the bot's own loggers (``chatbot.*``), whatever thread
    wrote it: the core's catch-alls log a failure and carry on, so a failing assertion or a crash
    inside them would otherwise leave a test green."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name == "chatbot" or record.name.startswith("chatbot."):
            self.records.append(record)


def unexpected_errors(records: list[logging.LogRecord], marker: pytest.Mark | None) -> list[str]:
    """The logged errors a test did not say it expects: ``@pytest.mark.logs_errors`` expects any,
    ``@pytest.mark.logs_errors("text", ...)`` those whose message contains one of the texts."""
    if marker is not None and not marker.args:
        return []
    allowed = tuple(str(a) for a in marker.args) if marker is not None else ()
    found = []
    for record in records:
        text = record.getMessage()
        if any(a in text for a in allowed):
            continue
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            text += f" ({type(exc).__name__}: {exc})"
        found.append(f"{record.name}: {text}")
    return found


@pytest.fixture(autouse=True)
def _fail_on_logged_errors(request):
    """A test fails when the bot logged an error it did not expect (tests/test_harness.py plants
    one and sees this fail)."""
    handler = _ErrorRecords()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
    found = unexpected_errors(handler.records, request.node.get_closest_marker("logs_errors"))
    if found:
        pytest.fail("the bot logged errors:\n" + "\n".join(found[:10]), pytrace=False)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


@pytest.fixture(scope="session")
def pg_url():
    """A PostgreSQL server of its own on a free port (Debian's postgresql; initdb refuses root, so it
    runs as the postgres user). Skipped only where PostgreSQL is not installed and not in CI."""
    bindir = _pg_bin()
    if bindir is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL is not installed (scripts/setup.sh test installs it)")
        pytest.skip("PostgreSQL is not installed")
    workdir = Path(tempfile.mkdtemp(prefix="pgtest-"))
    datadir = workdir / "data"
    as_postgres: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(workdir, "postgres", "postgres")
        as_postgres = ["runuser", "-u", "postgres", "--"]
    port = free_port()
    subprocess.run(
        [
            *as_postgres,
            str(bindir / "initdb"),
            "-D",
            str(datadir),
            "-A",
            "trust",
            "-U",
            "postgres",
            "--no-sync",
        ],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [
            *as_postgres,
            str(bindir / "pg_ctl"),
            "-D",
            str(datadir),
            "-l",
            str(workdir / "log"),
            "-w",
            "-o",
            f"-p {port} -k {workdir} -c listen_addresses=127.0.0.1 -c fsync=off",
            "start",
        ],
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql+psycopg2://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*as_postgres, str(bindir / "pg_ctl"), "-D", str(datadir), "-m", "immediate", "stop"],
            capture_output=True,
        )
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture
def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path / 'test.sqlite'}"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'test.sqlite'}"
    url = request.getfixturevalue("pg_url")
    # a fresh database per test: no tables and no alembic_version, so every test starts from nothing
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    return url


@pytest.fixture
def wait_until():
    def wait(predicate, timeout=10.0, interval=0.02):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = predicate()
            if value:
                return value
            time.sleep(interval)
        raise AssertionError("condition not met in time")

    return wait


# --- the order on xdist's workers ---------------------------------------------------------------------
#: seconds per test (setup + call + teardown) of the tests that take long, by node id
DURATIONS = Path(__file__).with_name("durations.json")
#: a test at least this long (s) is placed by its own estimate; shorter ones keep the collection order
LONG = 1.0


def _estimates() -> dict[str, float]:
    try:
        found = json.loads(DURATIONS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: float(v) for k, v in found.items()} if isinstance(found, dict) else {}


def pytest_collection_modifyitems(config, items):
    """With ``--dist worksteal`` each worker is first handed an equal share of the collection in order,
    runs it from the front, and an idle one takes the back half of the longest queue: a long test
    near the end of a share would make the tail. So the shares are laid out here: the long tests
    (tests/durations.json) spread so that each share gets about the same sum, each share's longest
    first, then the short tests in collection order (module fixtures stay together), which are what
    the workers steal at the end. Every worker collects the same items and orders them alike, as
    xdist requires."""
    given = getattr(config, "workerinput", {})
    workers = int(given.get("workercount", 0))
    if workers < 2 or given.get("chatbot_dist") != "worksteal":
        return
    est = _estimates()
    units: list[list[pytest.Item]] = []  # placed one by one, each unit on one worker
    # run one after the other on one worker: the tests on the session's Synapse (one start), the two
    # mypy runs (the second reads the first one's cache in .mypy_cache)
    together: dict[str, list[pytest.Item]] = {"synapse": [], "mypy": []}
    short: list[pytest.Item] = []
    for item in items:
        if "synapse" in getattr(item, "fixturenames", ()):
            together["synapse"].append(item)
        elif item.nodeid.startswith("tests/test_typing.py::"):
            together["mypy"].append(item)
        elif est.get(item.nodeid, 0.0) >= LONG:
            units.append([item])
        else:
            short.append(item)
    units.extend(unit for unit in together.values() if unit)

    def cost(unit: list[pytest.Item]) -> float:
        return sum(est.get(i.nodeid, 0.05) for i in unit)

    # the sizes xdist hands out: len(pending) // (nodes left), first to last
    sizes, left = [], len(items)
    for k in range(workers):
        sizes.append(left // (workers - k))
        left -= sizes[-1]
    shares: list[list[pytest.Item]] = [[] for _ in range(workers)]
    loads = [0.0] * workers
    for unit in sorted(units, key=cost, reverse=True):
        room = [k for k in range(workers) if len(shares[k]) + len(unit) <= sizes[k]] or list(range(workers))
        k = min(room, key=lambda k: loads[k])
        shares[k].extend(unit)
        loads[k] += cost(unit)
    # short tests in collection order, a contiguous run per share, to fill each share to its size
    rest = iter(short)
    for k in range(workers):
        for _ in range(max(0, sizes[k] - len(shares[k]))):
            item = next(rest, None)
            if item is not None:
                shares[k].append(item)
    shares[-1].extend(rest)
    items[:] = [item for share in shares for item in share]


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """(pytest-xdist, on the controller) a worker's own options say ``--dist no``: tell it the mode."""
    node.workerinput["chatbot_dist"] = node.config.getoption("dist", "no")


_durations: dict[str, float] = {}


def pytest_runtest_logreport(report):
    if os.environ.get("TEST_DURATIONS") == "write":
        _durations[report.nodeid] = _durations.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session):
    """``TEST_DURATIONS=write bash scripts/test.sh`` (on a quiet machine) writes tests/durations.json
    anew from the run's times: the tests of a second or more."""
    if os.environ.get("TEST_DURATIONS") != "write" or hasattr(session.config, "workerinput"):
        return
    long = {k: round(v, 1) for k, v in sorted(_durations.items()) if v >= LONG}
    DURATIONS.write_text(json.dumps(long, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
