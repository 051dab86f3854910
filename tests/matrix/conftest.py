"""Fixtures of the Matrix suite: one Synapse per session, and bots on a fresh database per test.

Outside CI a missing Synapse skips the suite; in CI (``CI`` set) it fails it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def synapse():
    try:
        import signedjson.key
        import synapse as _synapse  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("matrix-synapse is not installed (it is a test dependency)")
        pytest.skip("matrix-synapse is not installed")
    from tests.matrix.homeserver import Synapse, write_config

    workdir = Path(tempfile.mkdtemp(prefix="synapse-test-"))
    config, url = write_config(workdir)
    with (workdir / "signing.key").open("w") as f:
        signedjson.key.write_signing_keys(f, [signedjson.key.generate_signing_key("a_test")])
    started = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "synapse.app.homeserver", "-c", str(config)],
        cwd=workdir,
        stdout=subprocess.DEVNULL,
        stderr=(workdir / "stderr.log").open("wb"),
    )
    deadline = started + 60
    while True:
        try:
            with urllib.request.urlopen(url + "/_matrix/client/versions", timeout=1):
                break
        except (urllib.error.URLError, OSError):
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                log = (workdir / "stderr.log").read_text(errors="replace")[-3000:]
                pytest.fail(f"Synapse did not start:\n{log}")
            time.sleep(0.02)
    server = Synapse(url, workdir, process, time.monotonic() - started)
    try:
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture
def bot_factory(synapse, tmp_path):
    """``make(account=None, db="bot.sqlite", **options) -> MatrixBot`` on a database in tmp_path."""
    from chatbot.compose import new_core
    from chatbot.storage import SqlRepository
    from chatbot.transports.matrix import MatrixBot

    def make(account=None, db: str = "bot.sqlite", seed: str = "7", **options):
        account = account or synapse.register("pelibotti", "Pelibotti")
        core = new_core(SqlRepository(f"sqlite:///{tmp_path / db}"), seed=seed)
        options.setdefault("store_path", tmp_path / f"store-{account.localpart}")
        options.setdefault("ai_delay", 0)
        # the players of most tests are plain clients, which cannot read an encrypted direct room
        options.setdefault("encrypt_dms", False)
        bot = MatrixBot(core, synapse.url, account.user_id, password=account.password, **options)
        bot.account = account
        return bot

    return make
