#!/usr/bin/env bash
# The whole test suite, slow suites included (pass -m "not slow" for a quick run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
exec .venv/bin/python -m pytest "$@"
