#!/usr/bin/env bash
# The main job: the real bot when TELEGRAM_TOKEN or MATRIX_* is set, else the local console table.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh run
exec .venv/bin/python -m chatbot run "$@"
