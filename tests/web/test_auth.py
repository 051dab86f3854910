"""Who is looking (issue #29), without a browser: Telegram's initData signature and age, the bot's
signed links, and where the core puts the links (each transport's way of showing them)."""

from __future__ import annotations

import hashlib
import hmac
import json
from urllib.parse import parse_qsl

import pytest

from chatbot.core.types import Button, Outbound
from chatbot.transports.matrix.text import choices, message_text
from chatbot.transports.telegram.delivery import markup_of
from chatbot.web.auth import Forbidden, Grant, Signer, check_init_data, expiry, sign_init_data
from chatbot.web.server import Links
from chatbot.web.settings import WebSettings

TOKEN = "123456:ABC-the-bot-token"
NOW = 1_800_000_000.0


def fields(user: int = 42, auth_date: float = NOW, **more: str) -> dict[str, str]:
    return {"auth_date": str(int(auth_date)), "user": json.dumps({"id": user, "first_name": "Matti"}), **more}


def test_init_data_is_checked_as_telegram_documents_it() -> None:
    """The key is HMAC_SHA256("WebAppData", token) and the message the sorted key=value lines
    without ``hash``: computed here by hand, independently of sign_init_data."""
    data = fields(start_param="abc", query_id="q1")
    lines = "\n".join(f"{k}={data[k]}" for k in sorted(data))
    key = hmac.new(b"WebAppData", TOKEN.encode(), hashlib.sha256).digest()
    digest = hmac.new(key, lines.encode(), hashlib.sha256).hexdigest()
    assert dict(parse_qsl(sign_init_data(data, TOKEN)))["hash"] == digest
    user = check_init_data(sign_init_data(data, TOKEN), TOKEN, now=NOW)
    assert (user.id, user.name, user.start_param) == ("42", "Matti", "abc")


@pytest.mark.parametrize(
    "case",
    [
        "changed user",
        "other bot",
        "too old",
        "from the future",
        "no hash",
        "field twice",
        "not a query",
        "empty",
    ],
)
def test_bad_init_data_is_refused(case: str) -> None:
    good = sign_init_data(fields(), TOKEN)
    data = {
        "changed user": good.replace("42", "43", 1),
        "other bot": sign_init_data(fields(), "999:other"),
        "too old": sign_init_data(fields(auth_date=NOW - 2 * 24 * 3600), TOKEN),
        "from the future": sign_init_data(fields(auth_date=NOW + 3600), TOKEN),
        "no hash": good.rsplit("&hash=", 1)[0],
        "field twice": good + "&auth_date=1",
        "not a query": "%%%",
        "empty": "",
    }[case]
    with pytest.raises(Forbidden):
        check_init_data(data, TOKEN, now=NOW)


def test_init_data_without_a_bot_token_opens_nothing() -> None:
    with pytest.raises(Forbidden):
        check_init_data(sign_init_data(fields(), TOKEN), None, now=NOW)


def test_a_signed_link_reads_back_and_refuses_any_change() -> None:
    signer = Signer(b"0123456789abcdef-secret")
    token = signer.token(Grant(7, int(NOW) + 60, "@alice:hs", "matrix"))
    assert token.replace("-", "").replace("_", "").isalnum()  # fits Telegram's startapp
    assert signer.read(token, NOW) == Grant(7, int(NOW) + 60, "@alice:hs", "matrix")
    with pytest.raises(Forbidden):
        signer.read(token, NOW + 61)  # expired
    for i in (0, 40, len(token) - 1):  # any one character changed
        with pytest.raises(Forbidden):
            signer.read(token[:i] + ("A" if token[i] != "A" else "B") + token[i + 1 :], NOW)
    with pytest.raises(Forbidden):
        Signer(b"another-secret-of-16+").read(token, NOW)


def test_links_stay_the_same_all_day_and_differ_by_reader() -> None:
    settings = WebSettings("https://example.org/poyta", telegram_app="https://t.me/PeliBot/poyta")
    clock = [NOW]
    links = Links(settings, Signer(b"0123456789abcdef-secret"), lambda: clock[0])
    group = links.link("matrix", 5, None)
    assert group is not None and group.startswith("https://example.org/poyta/?t=")
    clock[0] += 3600
    assert links.link("matrix", 5, None) == group or expiry(NOW) != expiry(NOW + 3600)
    assert links.link("matrix", 5, "@alice:hs") != group
    assert links.link("telegram", 5, "42") == "https://example.org/poyta/?m=5"  # initData says who
    assert str(links.link("telegram", 5, None)).startswith("https://t.me/PeliBot/poyta?startapp=")


def test_telegram_opens_the_view_as_a_mini_app_in_private_chats_only() -> None:
    buttons = ((Button("🌐", "https://example.org/poyta/?m=5"), Button("x", "5:1:draw")),)
    private = markup_of(buttons, "https://example.org/poyta/")
    assert private is not None
    web, press = private.inline_keyboard[0]
    assert web.web_app is not None and web.web_app.url == "https://example.org/poyta/?m=5"
    assert press.callback_data == "5:1:draw"
    group = markup_of(buttons, None)
    assert group is not None and group.inline_keyboard[0][0].url == "https://example.org/poyta/?m=5"


def test_matrix_shows_a_link_as_a_line_not_an_option() -> None:
    out = Outbound(
        "matrix",
        "Pöytä",
        chat_id="!r",
        buttons=(
            (Button("Nosta", "5:1:draw"),),
            (Button("🌐 Pöytä selaimessa", "https://example.org/?t=x"),),
        ),
    )
    assert choices(out) == [("Nosta", "5:1:draw")]
    assert message_text(out).endswith("🌐 Pöytä selaimessa: https://example.org/?t=x")


def test_settings_come_from_the_environment() -> None:
    assert WebSettings.from_env({}) is None
    s = WebSettings.from_env({"WEB_PUBLIC_URL": "https://example.org/poyta", "WEB_PORT": "9000"})
    assert s is not None and (s.public_url, s.path, s.port) == ("https://example.org/poyta/", "/poyta/", 9000)
    with pytest.raises(ValueError):
        WebSettings.from_env({"WEB_PUBLIC_URL": "example.org"})


def test_the_view_shares_the_webhook_servers_port(tmp_path) -> None:
    """Telegram's webhook mode mounts the view on its own aiohttp server (one port for both)."""
    import asyncio
    import urllib.error
    import urllib.request

    from aiohttp import web

    from chatbot.compose import new_core
    from chatbot.storage import SqlRepository
    from chatbot.web.server import WebServer
    from tests.conftest import free_port

    port = free_port()
    core = new_core(SqlRepository(f"sqlite:///{tmp_path}/db.sqlite"))
    view = WebServer(core, WebSettings("https://example.org/poyta/", port=port, secret=b"x" * 20), TOKEN)

    async def hook(request: web.Request) -> web.Response:
        return web.Response(text="hook")

    async def main() -> tuple[str, int, str]:
        app = web.Application()
        app.router.add_post("/telegram/hook", hook)
        view.mount(app)
        runner = web.AppRunner(app)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        try:
            base = f"http://127.0.0.1:{port}"

            def fetch() -> tuple[str, int, str]:
                page = urllib.request.urlopen(f"{base}/poyta/").read().decode()
                try:
                    urllib.request.urlopen(f"{base}/poyta/api/state?t=forged")
                    status = 200
                except urllib.error.HTTPError as exc:
                    status = exc.code
                posted = urllib.request.urlopen(urllib.request.Request(f"{base}/telegram/hook", b"{}")).read()
                return page, status, posted.decode()

            return await asyncio.to_thread(fetch)
        finally:
            await runner.cleanup()

    page, status, hooked = asyncio.run(main())
    assert "api/state" in page and status == 403 and hooked == "hook"
