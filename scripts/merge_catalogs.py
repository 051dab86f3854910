"""Merge the translations of a branch after ``git merge BRANCH`` stopped on conflicts in locales/.

    .venv/bin/python scripts/merge_catalogs.py BRANCH     # mid-merge, after the .py files are resolved

The catalogs are generated from the code, so a conflict in them is resolved by taking ours, running
``i18n_tool sync`` over the merged code, and then taking, entry by entry, the branch's translation where
only the branch changed it since the merge base (or where ours is empty). Ends with ``i18n_tool check``
and stages locales/.
"""

from __future__ import annotations

import os
import subprocess
import sys
from io import BytesIO
from pathlib import Path

from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]


def git(*a: str, check: bool = True) -> bytes:
    return subprocess.run(["git", *a], capture_output=True, check=check).stdout


def load(rev: str, path: str) -> dict:
    data = git("show", f"{rev}:{path}", check=False)
    if not data:
        return {}
    cat = read_po(BytesIO(data))
    return {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)): m.string for m in cat if m.id}


def main(branch: str) -> int:
    os.chdir(ROOT)
    conflicted = [
        f for f in git("diff", "--name-only", "--diff-filter=U").decode().split() if f.startswith("locales/")
    ]
    for f in conflicted:
        git("checkout", "--ours", "--", f)
    base = git("merge-base", "HEAD", branch).decode().strip()
    subprocess.run([sys.executable, "-m", "chatbot.i18n_tool", "sync"], check=True, capture_output=True)

    changed = 0
    for po in sorted(Path("locales").glob("*/LC_MESSAGES/*.po")):
        p = str(po)
        theirs, based = load(branch, p), load(base, p)
        with po.open("rb") as fh:
            cat = read_po(fh, locale=po.parts[1])
        dirty = False
        for m in cat:
            if not m.id:
                continue
            k = (m.context, m.id if isinstance(m.id, str) else tuple(m.id))
            if k not in theirs:
                continue
            t, b = theirs[k], based.get(k)
            empty = not m.string or (isinstance(m.string, tuple) and not any(m.string)) or "fuzzy" in m.flags
            if (empty and t) or (t != b and m.string == b and t):
                m.string = t
                m.flags.discard("fuzzy")
                dirty = True
                changed += 1
        if dirty:
            with po.open("wb") as fh:
                write_po(
                    fh,
                    cat,
                    omit_header=False,
                    sort_output=True,
                    width=100,
                    ignore_obsolete=True,
                    include_lineno=False,
                )
    print(changed, "entries taken from", branch)
    r = subprocess.run([sys.executable, "-m", "chatbot.i18n_tool", "check"])
    git("add", "locales")
    return r.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
