"""The engines type-check under ``mypy --strict`` (DESIGN: "mypy strict for engines/"; see pyproject.toml)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_engines_pass_mypy_strict() -> None:
    try:
        import mypy  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("mypy is not installed (pip install -e '.[test]'); CI must run the type check")
        pytest.skip("mypy is not installed")
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "engines"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if proc.returncode != 0:
        print(proc.stdout)
        print(proc.stderr, file=sys.stderr)
    assert proc.returncode == 0, f"mypy engines failed:\n{proc.stdout}{proc.stderr}"
