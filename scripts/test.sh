#!/usr/bin/env bash
# The whole test suite, slow suites included (pass -m "not slow" for a quick run, -n 0 for one process).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
# one pytest worker per core (at most 4): the suite is CPU-bound, and every test that starts a server
# (PostgreSQL, Synapse, the fake Bot API) picks free ports and directories of its own
workers=$(nproc 2>/dev/null || echo 2)
[ "$workers" -gt 4 ] && workers=4
# byte code is kept in __pycache__ (git ignores it): with PYTHONDONTWRITEBYTECODE set, each worker and
# each bot process the tests start would compile the project and the large test tables anew
unset PYTHONDONTWRITEBYTECODE
# worksteal: each worker starts on its share, the longest tests first (tests/conftest.py orders them
# from tests/durations.json), and an idle worker takes over the back half of the other's queue
exec .venv/bin/python -m pytest -n "$workers" --dist worksteal "$@"
