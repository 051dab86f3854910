#!/usr/bin/env bash
# The whole test suite, slow suites included (pass -m "not slow" for a quick run, -n 0 for one process).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
# one pytest worker per core (at most 4): the suite is CPU-bound, and every test that starts a server
# (PostgreSQL, Synapse, the fake Bot API) picks free ports and directories of its own
workers=$(nproc 2>/dev/null || echo 2)
[ "$workers" -gt 4 ] && workers=4
exec .venv/bin/python -m pytest -n "$workers" --dist worksteal "$@"
