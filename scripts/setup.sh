#!/usr/bin/env bash
# Set-up shared by the two README commands. Safe to run any number of times:
# - Debian packages (libvoikko1, voikko-fi; with "test" also postgresql) when apt is usable as root;
# - a virtual environment at .venv with the packages pyproject.toml lists, reinstalled only when
#   pyproject.toml changes.
set -euo pipefail
cd "$(dirname "$0")/.."
want="${1:-run}"

debs=(libvoikko1 voikko-fi fonts-dejavu-core)
[ "$want" = test ] && debs+=(postgresql)
missing=()
for p in "${debs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "setup: installing Debian packages: ${missing[*]}" >&2
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}") >/dev/null \
      || echo "setup: could not install ${missing[*]}; continuing (Finnish falls back to the word-form table)" >&2
  else
    echo "setup: not installing ${missing[*]} (needs apt and root); Finnish falls back to the word-form table" >&2
  fi
fi

py=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$py" -m venv .venv
fi
stamp=".venv/.installed-$want-$(sha256sum pyproject.toml | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  extras=""
  [ "$want" = test ] && extras="test"
  mapfile -t reqs < <(.venv/bin/python - "$extras" <<'PY'
import sys, tomllib
data = tomllib.load(open("pyproject.toml", "rb"))["project"]
reqs = list(data["dependencies"])
for extra in filter(None, sys.argv[1].split(",")):
    reqs += data.get("optional-dependencies", {}).get(extra, [])
print("\n".join(reqs))
PY
)
  .venv/bin/python -m pip install -q --disable-pip-version-check "${reqs[@]}"
  rm -f .venv/.installed-"$want"-*
  touch "$stamp"
fi
