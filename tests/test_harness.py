"""The suite cannot pass with a fault (issue #26): a planted logged error and a planted leak each
make it fail, wherever they happen (a person's move, an AI move in a deadline, a seat change)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from chatbot.core.types import Outbound
from tests.chatbot.leaks import Leak, LeakScan
from tests.chatbot.table import GROUP, Table
from tests.conftest import unexpected_errors

ROOT = Path(__file__).resolve().parents[1]


def _inner_pytest(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    """Run one test file under this suite's conftest, in a pytest of its own."""
    (tmp_path / "conftest.py").write_text(
        "from tests.conftest import _fail_on_logged_errors  # noqa: F401\n\n"
        "def pytest_configure(config):\n"
        "    config.addinivalue_line('markers', 'logs_errors: expected errors')\n"
    )
    (tmp_path / "test_planted.py").write_text(textwrap.dedent(body))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_logged_error_fails_a_test_that_does_not_expect_it(tmp_path):
    result = _inner_pytest(
        tmp_path,
        """
        import logging, threading
        import pytest

        def test_swallowed():
            try:
                raise RuntimeError("planted")
            except RuntimeError:
                logging.getLogger("chatbot.core.service").exception("error while handling")

        def test_in_a_thread():
            t = threading.Thread(target=lambda: logging.getLogger("chatbot.runtime").error("planted"))
            t.start(); t.join()

        @pytest.mark.logs_errors("error while handling")
        def test_expected():
            logging.getLogger("chatbot.core.service").error("error while handling x")

        def test_other_loggers_and_warnings_pass():
            logging.getLogger("telegram").error("not ours")
            logging.getLogger("chatbot.core").warning("a warning")
        """,
    )
    assert result.returncode == 1, result.stdout
    # the two planted errors fail their tests (at teardown); the expected one and the others pass
    assert "2 errors" in result.stdout and "test_swallowed" in result.stdout, result.stdout
    assert "test_in_a_thread" in result.stdout and "test_expected" not in result.stdout
    assert "RuntimeError: planted" in result.stdout


@pytest.mark.logs_errors("failed")
def test_a_leak_in_an_ai_move_fails_the_scan(caplog):
    """The review's reproduction: a fault planted only in what AI moves send, which the core's
    catch-all for deadlines logs and drops, still fails the test."""
    table = Table(seed="planted:ai")
    scan = LeakScan(table.core).install()

    def planted(outs):
        if any(o.chat_id == GROUP and "Botti" in o.text and "▸ Botti" in o.text for o in outs):
            raise Leak("planted leak after an AI move")

    table.core.outbound_checks.append(planted)
    table.say("matti", "uusi majavajengi")
    table.say("matti", "lisää botti")
    table.say("matti", "aloita")
    if table.match().status == "lobby":
        table.say("matti", "pelataan näin")
    with caplog.at_level(logging.ERROR):
        for _ in range(30):
            users = table.acting_users()
            prompt = table.prompt_for(users[0]) if users else None
            if prompt is None:
                break
            table.press(users[0], prompt.buttons[0][0].data)
    errors = unexpected_errors(caplog.records, None)
    assert any("Leak: planted leak after an AI move" in e for e in errors), errors
    assert not scan.failures  # the real scan found nothing: only the plant failed


@pytest.mark.logs_errors("error while handling")
def test_a_private_panel_sent_to_the_group_is_caught_by_the_scan(caplog):
    """A planted leak: every private prompt goes to the group instead (the classic bug)."""
    table = Table(seed="planted:leak")
    scan = LeakScan(table.core).install()
    original = table.core.renderer.private_prompt

    def to_the_group(match, room, seat, events, force, state=None, **more):
        outs = original(match, room, seat, events, force, state, **more)
        return [Outbound(o.platform, o.text, chat_id=room.ext_id, buttons=o.buttons) for o in outs]

    table.core.renderer.private_prompt = to_the_group  # type: ignore[method-assign]
    table.say("matti", "uusi coloretto")
    table.say("liisa", "liity")
    with caplog.at_level(logging.ERROR):
        table.say("matti", "aloita")
    assert scan.failures and any(k in scan.failures[0] for k in ("hidden", "shown")), scan.failures
    assert table.match().status == "lobby"  # the change was rolled back: nothing leaked out
    assert any("error while handling" in e for e in unexpected_errors(caplog.records, None))
