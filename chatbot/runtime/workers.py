"""Worker names: each process that shares a database has a name of its own in the claims."""

from __future__ import annotations

import contextlib
import hashlib
import os
import socket
import tempfile
from pathlib import Path
from typing import Any

_WORKERS: dict[str, str] = {}
_SLOT_FILES: list[Any] = []


def default_worker(database: str = "") -> str:
    """This process's worker name on ``database`` (its URL): ``$CHATBOT_WORKER``, else
    ``<host>:<slot>``.

    The slot is the lowest number whose lock file no live process holds, in a folder of the
    temporary directory kept for that database. A process killed with -9 loses its lock, so the
    process started in its place has the same name and takes over its chat claims at once instead
    of waiting for their leases to end; two live processes on one host never share a name. The
    folder is the database's: with one for the whole host, a bot of another database started
    meanwhile took the lowest slot, and the restarted worker waited out its old claims' leases."""
    if database not in _WORKERS:
        _WORKERS[database] = (
            os.environ.get("CHATBOT_WORKER") or f"{socket.gethostname()}:{_take_slot(database)}"
        )
    return _WORKERS[database]


def _take_slot(database: str) -> str:
    try:
        import fcntl
    except ImportError:  # not on POSIX: no takeover, the leases end as usual
        return f"pid{os.getpid()}"
    key = hashlib.sha256(database.encode()).hexdigest()[:16]
    folder = Path(tempfile.gettempdir()) / "chatbot-workers" / key
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
    for slot in range(256):
        try:
            handle = open(folder / f"{slot}.lock", "a")  # noqa: SIM115 - held for the process's life
        except OSError:
            break
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            continue
        _SLOT_FILES.append(handle)
        return str(slot)
    return f"pid{os.getpid()}"
