"""A worker process for the two-process test: runs due deadlines until no match is running.

    python -m tests.chatbot.deadline_worker URL NAME SECONDS

Nothing is shared with the other worker but the database.
"""

from __future__ import annotations

import sys
import time

from chatbot.compose import new_core
from chatbot.storage import SqlRepository


def main() -> None:
    url, name, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    repo = SqlRepository(url)
    core = new_core(repo, seed="procs", remind_after=0.1, act_after=0.4)
    end = time.monotonic() + seconds
    sent = 0
    while time.monotonic() < end:
        out = core.run_due(name, limit=2)
        sent += len(out)
        if not out:
            if not repo.running_versions():
                print(sent)  # how much of the work this process did
                return
            due = core.next_due()
            time.sleep(0.01 if due is None else min(0.05, max(0.0, due - time.time())))
    sys.exit("matches still running")


if __name__ == "__main__":
    main()
