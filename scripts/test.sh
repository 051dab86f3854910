#!/usr/bin/env bash
# The whole test suite, slow suites included (pass -m "not slow" for a quick run, -n 0 for one process).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
# two pytest workers per core (at most 4): many tests wait on the processes and servers they start
# (the bot, PostgreSQL, Synapse, the fake Bot API), so one worker per core leaves the cores idle a
# third of the time (on two cores: 400 s with two workers, 313 s with four, 565 s of CPU either
# way); every test that starts a server picks free ports and directories of its own
workers=$(( $(nproc 2>/dev/null || echo 2) * 2 ))
[ "$workers" -gt 4 ] && workers=4
# byte code is kept in __pycache__ (git ignores it): with PYTHONDONTWRITEBYTECODE set, each worker and
# each bot process the tests start would compile the project and the large test tables anew
unset PYTHONDONTWRITEBYTECODE
# worksteal: each worker starts on its share, the longest tests first (tests/conftest.py orders them
# from tests/durations.json), and an idle worker takes over the back half of the other's queue
exec .venv/bin/python -m pytest -n "$workers" --dist worksteal "$@"
