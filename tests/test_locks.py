"""The lock files install what pyproject.toml asks for, and the run set is the test set's subset."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]


def pins(name: str) -> dict[str, str]:
    text = (ROOT / name).read_text(encoding="utf-8")
    return {
        m[1].lower().replace("_", "-"): m[2] for m in re.finditer(r"^([A-Za-z0-9_.\-]+)==(\S+)", text, re.M)
    }


def test_every_dependency_is_pinned_within_its_range():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for lock, reqs in (
        ("requirements.lock", project["dependencies"]),
        ("requirements-test.lock", project["dependencies"] + project["optional-dependencies"]["test"]),
    ):
        pinned = pins(lock)
        for line in reqs:
            req = Requirement(line)
            name = req.name.lower().replace("_", "-")
            assert name in pinned, f"{lock} does not pin {name}"
            assert req.specifier.contains(pinned[name], prereleases=True), (
                lock,
                name,
                pinned[name],
                str(req),
            )


def test_the_run_lock_is_the_test_lock_without_the_test_tools():
    run, test = pins("requirements.lock"), pins("requirements-test.lock")
    assert set(run) <= set(test)
    assert {name: test[name] for name in run} == run
