"""The statistics, history and replay benchmark (issue #16) still runs and prints its figures."""

from __future__ import annotations

import re

import pytest

from tests.scripts.test_benchmarks import NUMBER, run


@pytest.mark.slow
def test_bench_records_prints_every_figure():
    out = run("bench_records.py", "--matches", "20", "--repeat", "3", "--players", "2")
    for label in ("tilastot \\(group\\)", "omat tilastot \\(private\\)", "historia"):
        assert re.search(rf"{label}: median {NUMBER} ms, p99 {NUMBER} ms", out), out
    assert re.search(rf"opening \(the replay computed from the log\): {NUMBER} ms", out), out
    assert re.search(rf"one step \(Seuraava, the replay kept in memory\): median {NUMBER} ms", out), out
