#!/usr/bin/env bash
# Set-up shared by the two README commands. Safe to run any number of times:
# - Debian packages (libvoikko1, voikko-fi; with "test" also postgresql, and chromium with
#   chromium-driver for the web view's browser tests) when apt is usable as root;
# - a virtual environment at .venv with the exact versions of the lock file, requirements.lock for
#   "run" and requirements-test.lock (the same pins plus the test tools) for "test", installed by uv
#   (SETUP_NO_UV=1: by pip), again only when that lock file changes. The project itself is not
#   installed: it runs from here.
#
# `bash scripts/setup.sh lock` writes both lock files anew from pyproject.toml, pinned to what .venv
# has now: after changing a dependency, install or upgrade it in .venv, run the tests, then lock.
set -euo pipefail
cd "$(dirname "$0")/.."
want="${1:-run}"
py=${PYTHON:-python3}
# uv installs the locked pins in seconds (pip asks the index about every package anew on every run:
# half a minute to minutes) and compiles the locks. It is no part of what .venv holds: its binary is
# kept in the user's cache, shared by every clone; where it cannot be had, pip installs instead. Both
# compile the byte code at install time (a shell with PYTHONDONTWRITEBYTECODE set would otherwise
# compile every imported module anew in every process).
uv_version=0.13.9
uv_home="${XDG_CACHE_HOME:-$HOME/.cache}/chatbot-setup/uv-$uv_version"
get_uv() {  # the path of uv on stdout, fetched once with the pip of $1; fails where it cannot be had
  if [ ! -x "$uv_home/bin/uv" ]; then
    rm -rf "$uv_home.tmp"
    "$1" -m pip install -q --disable-pip-version-check --no-deps --target "$uv_home.tmp" "uv==$uv_version" \
      >/dev/null 2>&1 && rm -rf "$uv_home" && mv "$uv_home.tmp" "$uv_home" || { rm -rf "$uv_home.tmp"; return 1; }
  fi
  echo "$uv_home/bin/uv"
}

if [ "$want" = lock ]; then
  [ -x .venv/bin/python ] || { echo "setup: no .venv to lock; run 'bash scripts/setup.sh test' first" >&2; exit 1; }
  uv=$(get_uv .venv/bin/python) || { echo "setup: could not install uv" >&2; exit 1; }
  installed=$(mktemp)
  trap 'rm -f "$installed"' EXIT
  .venv/bin/python -m pip freeze --all --exclude-editable >"$installed"
  for set in run test; do
    lock=requirements.lock extras=()
    [ "$set" = test ] && lock=requirements-test.lock extras=(--extra test)
    "$uv" pip compile --quiet pyproject.toml "${extras[@]}" --constraint "$installed" \
      --python .venv/bin/python --generate-hashes \
      --custom-compile-command "bash scripts/setup.sh lock" --output-file "$lock"
    sed -i "\\|^ *# *-c $installed\$|d" "$lock"  # the temporary constraint file is no reason to list
  done
  exit 0
fi

debs=(libvoikko1 voikko-fi fonts-dejavu-core)
[ "$want" = test ] && debs+=(postgresql chromium chromium-driver)
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

if [ ! -x .venv/bin/python ]; then
  "$py" -m venv .venv
fi
lock=requirements.lock
[ "$want" = test ] && lock=requirements-test.lock
stamp=".venv/.installed-$want-$(sha256sum "$lock" | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  if [ -n "${SETUP_NO_UV:-}" ] || ! uv=$(get_uv .venv/bin/python) \
    || ! "$uv" pip install --quiet --compile-bytecode --python .venv/bin/python --require-hashes -r "$lock"; then
    [ -n "${SETUP_NO_UV:-}" ] || echo "setup: uv could not install $lock; pip does" >&2
    .venv/bin/python -m pip install -q --disable-pip-version-check --require-hashes -r "$lock"
  fi
  rm -f .venv/.installed-"$want"-*
  touch "$stamp"
fi
