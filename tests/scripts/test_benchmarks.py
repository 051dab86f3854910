"""The benchmark scripts still run (issue #12): each one with the smallest sizes, checking that it
prints its figures. They are not timed: the figures themselves are for the closing note."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NUMBER = r"[0-9]+(?:\.[0-9]+)?"


def run(script: str, *args: str, timeout: float = 240) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / script), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    return done.stdout


@pytest.mark.slow
def test_bench_echo_prints_medians_p99_and_the_ratio():
    out = run("bench_echo.py", "--updates", "6", "--chunk", "3", "--db", "sqlite")
    assert re.search(rf"bot: +median {NUMBER} ms, p99 {NUMBER} ms", out), out
    assert re.search(rf"echo: +median {NUMBER} ms, p99 {NUMBER} ms", out), out
    assert re.search(rf"ratio: median {NUMBER}x, p99 {NUMBER}x", out), out


@pytest.mark.slow
@pytest.mark.postgres
def test_bench_echo_runs_on_postgresql(pg_url):
    out = run("bench_echo.py", "--updates", "4", "--chunk", "4", "--db", pg_url)
    assert "(PostgreSQL):" in out and re.search(rf"ratio: median {NUMBER}x", out), out


def _statement_rows(out: str) -> dict[str, list[float]]:
    """The per-update figures of bench_statements: label -> n, core st, co, p99, +ai st, co,
    deliver st, co, p99, ..."""
    return {
        line[:30].strip(): [float(x) for x in line[30:].split()]
        for line in out.splitlines()
        if line.startswith(("button press", "typed move"))
    }


@pytest.mark.parametrize("db", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_bench_statements_holds_the_statement_targets(db, pg_url_if_postgres):
    """An update's own transaction is at most 6 statements and 1 commit (issue #26), and the
    deliverer's bookkeeping stays well under the ~7 commits an update took before."""
    args = ["--updates", "12"] + (["--url", pg_url_if_postgres] if db == "postgres" else [])
    rows = _statement_rows(run("bench_statements.py", *args))
    assert set(rows) == {"button press, 2 people", "typed move, 2 people", "button press, 1 person + 1 AI"}
    for label, (n, core, commits, core_p99, _ai, _ai_co, _deliver, deliver_co, *_rest) in rows.items():
        assert n == 12 and core <= 6.0 and core_p99 <= 6 and commits == 1.0, (label, rows[label])
        assert deliver_co <= 5.0, (label, rows[label])


@pytest.fixture
def pg_url_if_postgres(request):
    return request.getfixturevalue("pg_url") if "postgres" in request.node.name else None


@pytest.mark.slow
def test_bench_scale_prints_every_figure():
    out = run(
        "bench_scale.py",
        "--many", "40", "--few", "4", "--updates", "10",
        "--restart-matches", "8", "--commands", "2", "--limits", "off",
    )  # fmt: skip
    assert re.search(rf"ratio 40 / 4: {NUMBER}x wall, {NUMBER}x CPU", out), out
    assert re.search(rf"one deadline tick, 40 running matches, none due: median {NUMBER} ms", out), out
    assert re.search(rf"peak RSS \(VmHWM\) .* 40 running matches: {NUMBER} MB", out), out
    assert re.search(rf"ratio median {NUMBER}x, p99 {NUMBER}x \(target <= 2x\)", out), out
    found = re.search(r"\((\d+) of (\d+) rows accounted for\)", out)
    assert found and found[1] == found[2], out  # SIGTERM during the backlog loses nothing


@pytest.mark.slow
@pytest.mark.postgres
def test_bench_workers_prints_updates_per_second(pg_url):
    out = run(
        "bench_workers.py",
        "--url",
        pg_url,
        "--workers",
        "1,2",
        "--groups",
        "2",
        "--seconds",
        "2",
        "--warmup",
        "2",
    )
    assert re.search(rf"1 worker\(s\): {NUMBER} updates/s", out), out
    assert re.search(rf"2 worker\(s\): {NUMBER} updates/s", out), out
    assert re.search(rf"CPU per update: bot {NUMBER} ms, PostgreSQL {NUMBER} ms", out), out


def test_bench_latency_prints_its_figures():
    """tests/telegram/bench_latency.py (run by hand) still runs: it had broken unnoticed on a renamed
    attribute, after all its figures were taken and before any was printed."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "telegram" / "bench_latency.py"), "--updates", "12"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    assert re.search(rf"first answer: median {NUMBER} ms, p99 {NUMBER} ms", done.stdout), done.stdout


@pytest.mark.slow
def test_bench_ai_plays_every_level_against_every_other_and_the_reference():
    out = run("bench_ai.py", "--players", "2", "--games", "2", "--jobs", "1", "--seed", "smoke")
    pair = rf"win {NUMBER} \[{NUMBER}, {NUMBER}\] \(fair 0\.50, 2 games"
    for game in ("majavajengi", "gnav", "afrikan_tahti", "coloretto_amazonas"):
        for a, b in [(lv, "reference") for lv in ("easy", "normal", "strong")] + [
            ("normal", "easy"),
            ("strong", "normal"),
            ("strong", "easy"),
        ]:
            assert re.search(rf"{game} 2p +{a} vs {b} +{pair}", out), (game, a, b, out)
    # the behaviour figures of the issue: knocks, lives, rounds
    assert re.search(rf"hero knock: on first turn {NUMBER}, hero knock: own turn {NUMBER}", out), out
    assert re.search(rf"hero knock: round score {NUMBER}", out), out
    assert "deals without a life lost" in out, out
    assert re.search(rf"hero rounds to win {NUMBER}, round-limit endings {NUMBER}, rounds {NUMBER}", out), out
    assert re.search(
        rf"decision median/p99 \(load {NUMBER}\): .*strong {NUMBER}/{NUMBER} ms \(cpu {NUMBER}/{NUMBER}\)",
        out,
    ), out


@pytest.mark.slow
def test_bench_web_prints_the_state_time_bytes_and_first_render():
    out = run("bench_web.py", "--moves", "3", "--loads", "1", "--requests", "3")
    assert re.search(rf"state endpoint, fresh version: median {NUMBER} ms, p99 {NUMBER} ms", out), out
    assert re.search(rf"bytes per update, sent \(gzip\): median {NUMBER} B, p99 {NUMBER} B", out), out
    assert re.search(rf"first render .*: median {NUMBER} ms, p99 {NUMBER} ms|first render: skipped", out), out


def test_bench_engines_prints_turns_per_second_and_where_a_turn_goes():
    """scripts/bench_engines.py (issue #28: the base game's turns per second beside the peer's) runs
    without the peer, and --parts accounts for a turn: each part of the loop and the seeded generators."""
    out = run("bench_engines.py", "--games", "2", "--runs", "1")
    assert re.search(rf"ours  afrikan_tahti base, random: {NUMBER} turns/s", out), out
    out = run("bench_engines.py", "--games", "2", "--parts")
    for part in ("outcome, to_act", "legal_actions", "view", "ai's move", "apply", "notation", "sum"):
        assert re.search(rf"  {re.escape(part)} +{NUMBER}", out), (part, out)
    assert re.search(
        rf"seeded generators: {NUMBER} a turn .*: {NUMBER} µs a turn \({NUMBER} % of the sum\)", out
    ), out
