"""The web view in a real headless Chromium (issue #29): every registered game's table renders with
its picture, the viewer's own panel and whose turn it is; a move made in chat shows in the open page
within 2 s; forged, expired and foreign credentials get 403 and a page that shows nothing of the
match; over whole games no other seat's hidden card reaches the page."""

from __future__ import annotations

import json
import random
import time
from urllib.parse import quote

import pytest

from chatbot.core.i18n import translator
from chatbot.core.types import Inbound
from chatbot.games import UIS
from chatbot.web.auth import Grant, sign_init_data
from tests.web.conftest import BOT_TOKEN, WebTable
from tests.web.helpers import leaks, start_game

READY = "document.body.dataset.state === 'ready'"


def open_view(page, url: str) -> None:
    page.goto(url)
    page.wait_for_function(f"{READY} || document.body.dataset.state === 'forbidden'", timeout=10_000)


@pytest.mark.parametrize("game", sorted(UIS))
def test_the_view_of_each_game_renders(web: WebTable, page, game: str) -> None:
    match = start_game(web.table, game)
    open_view(page, web.personal_link("alice"))
    assert page.evaluate("document.body.dataset.state") == "ready"
    assert page.inner_text("#title") == f"{UIS[game].title(translator('fi'))} #{match.id}"
    # the table as a picture with a text alternative, and as text
    picture = page.locator("#picture svg, #picture pre").first
    assert picture.is_visible()
    alt = page.get_attribute("#picture", "aria-label")
    assert alt and len(alt) > 5
    assert page.locator("#table-text").inner_text(timeout=1000) or page.text_content("#table-text")
    # the viewer's own panel, and nothing of the others' (one panel: Alice's)
    panels = page.locator("#private .panel")
    assert panels.count() == 1
    assert "Alice" in panels.first.inner_text()
    assert page.inner_text("#turn").strip()
    # Finnish, as the table in chat
    assert page.evaluate("document.documentElement.lang") == "fi"


def test_a_move_made_in_chat_shows_in_the_open_page_within_two_seconds(web: WebTable, page) -> None:
    start_game(web.table, "majavajengi", bots=1)
    open_view(page, web.personal_link("alice"))
    rng = random.Random(3)
    for _ in range(3):
        before = page.evaluate("document.body.dataset.version")
        moved_at = time.monotonic()
        assert web.press_move("alice", rng.choice), "Alice has no move to make"
        now = str(web.table.match().version)
        assert now != before
        page.wait_for_function(f"document.body.dataset.version === '{now}'", timeout=2000)
        assert time.monotonic() - moved_at < 2.0


def test_the_group_link_shows_the_public_table_only(web: WebTable, page) -> None:
    start_game(web.table, "gnav")
    open_view(page, web.group_link())
    assert page.evaluate("document.body.dataset.state") == "ready"
    assert page.locator("#private .panel").count() == 0
    assert page.locator("#mine").is_hidden()


# --- who is looking --------------------------------------------------------------------------------


def tg_say(web: WebTable, user: int, text: str, chat: str = "-1001") -> None:
    """A Telegram user writes in a Telegram group (the core's own path, as the transport calls it)."""
    msg = Inbound("telegram", str(user), f"User{user}", chat, False, text=text)
    web.table._deliver(web.core.handle(msg))


def init_data(user: int, *, age: float = 0, token: str = BOT_TOKEN, start: str | None = None) -> str:
    fields = {
        "auth_date": str(int(time.time() - age)),
        "query_id": "AAH-test",
        "user": json.dumps({"id": user, "first_name": f"User{user}", "language_code": "fi"}),
    }
    if start:
        fields["start_param"] = start
    return sign_init_data(fields, token)


def telegram_match(web: WebTable) -> int:
    tg_say(web, 1001, "uusi majavajengi")
    tg_say(web, 1001, "lisää botti")
    tg_say(web, 1001, "aloita")
    room = web.core.repo.room("telegram", "-1001")
    match = web.core.repo.active_match(room.id)
    assert match is not None and match.status == "running"
    return match.id


def mini_app(web: WebTable, match: int | None, data: str, token: str | None = None) -> str:
    query = f"?m={match}" if match is not None else f"?t={token}"
    return f"{web.base}{query}#tgWebAppData={quote(data)}&tgWebAppVersion=8.0&tgWebAppPlatform=tdesktop"


def state_status(page, url: str, init: str | None = None) -> tuple[int, str]:
    headers = {"Authorization": f"tma {init}"} if init else {}
    response = page.request.get(url, headers=headers)
    return response.status, response.text()


def test_a_valid_mini_app_user_sees_their_own_seat(web: WebTable, page) -> None:
    match = telegram_match(web)
    open_view(page, mini_app(web, match, init_data(1001)))
    assert page.evaluate("document.body.dataset.state") == "ready"
    assert page.locator("#private .panel").count() == 1


@pytest.mark.parametrize("case", ["forged", "expired", "other user", "other bot"])
def test_bad_init_data_gets_403_and_a_page_without_the_match(web: WebTable, page, case: str) -> None:
    match = telegram_match(web)
    tg_say(web, 2002, "hei", chat="-2002")  # a Telegram user the bot knows, with no seat in the match
    data = {
        "forged": init_data(1001).replace("User1001", "User1002"),
        "expired": init_data(1001, age=2 * 24 * 3600),
        "other user": init_data(2002),
        "other bot": init_data(1001, token="999:another-bot"),
    }[case]
    status, body = state_status(page, f"{web.base}api/state?m={match}", data)
    assert (status, json.loads(body)) == (403, {"error": "forbidden"})
    open_view(page, mini_app(web, match, data))
    assert page.evaluate("document.body.dataset.state") == "forbidden"
    assert page.locator("#main").is_hidden()
    assert "Alice" not in page.content() and "User1001" not in page.content()


@pytest.mark.parametrize("case", ["tampered", "expired", "other match", "forged user"])
def test_a_bad_matrix_link_gets_403(web: WebTable, page, case: str) -> None:
    match = start_game(web.table, "gnav")
    link = web.personal_link("alice")
    token = link.split("?t=", 1)[1]
    signer = web.server.signer
    if case == "tampered":
        bad = token[:-3] + ("A" if token[-3] != "A" else "B") + token[-2:]
        url = f"{web.base}?t={bad}"
    elif case == "expired":
        url = f"{web.base}?t={signer.token(Grant(match.id, int(time.time()) - 60, 'alice', 'test'))}"
    elif case == "other match":
        url = f"{link}&m={match.id + 1}"
    else:  # a token signed with another secret, for a user of the match
        from chatbot.web.auth import Signer

        url = f"{web.base}?t={Signer(b'not-the-secret-of-this-server').token(Grant(match.id, int(time.time()) + 999, 'alice', 'test'))}"
    status, body = state_status(page, url.replace(web.base + "?", web.base + "api/state?"))
    assert (status, json.loads(body)) == (403, {"error": "forbidden"})
    open_view(page, url)
    assert page.evaluate("document.body.dataset.state") == "forbidden"
    assert "Alice" not in page.content()


# --- hidden cards --------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(UIS))
def test_no_hidden_card_of_another_seat_reaches_the_page_over_a_whole_game(
    web: WebTable, page, game: str
) -> None:
    """Alice plays a whole game against AI players with her page open: every state response the page
    received and the page itself at every tenth move show nothing only another seat may know."""
    bodies: list[str] = []

    def keep(response) -> None:
        if "/api/state" in response.url and response.status == 200:
            bodies.append(response.text())

    page.on("response", keep)
    options = "pikapeli=kyllä" if game == "afrikan_tahti" else ""
    match = start_game(web.table, game, options=options)
    open_view(page, web.personal_link("alice"))
    seat = next(s.seat for s in match.seats if s.user_id is not None)
    rng = random.Random(7)
    pages: list[str] = []
    for moves in range(3000):
        current = web.table.match()
        if current is None or current.status != "running":
            break
        if not web.press_move("alice", rng.choice):
            raise AssertionError("Alice has no move in a running game")
        if moves % 10 == 0:
            time.sleep(0.3)  # let the page catch up now and then
            pages.append(page.content())
    else:
        raise AssertionError("the game did not end")
    page.wait_for_function(
        "document.body.dataset.state === 'ready' && !document.getElementById('live').textContent",
        timeout=5000,
    )
    pages.append(page.content())
    assert len(bodies) >= 3, "the page followed the game"
    found = []
    for body in bodies:
        found += leaks(web.core, match.id, seat, body, json.loads(body)["ply"])
    for html in pages:
        found += leaks(web.core, match.id, seat, html, int(html.split('data-ply="', 1)[1].split('"', 1)[0]))
    assert not found, found[:5]


def test_a_finished_game_replays_in_the_view_from_the_history(web: WebTable, page) -> None:
    match = start_game(web.table, "gnav", bots=3)
    rng = random.Random(5)
    while web.table.match() is not None and web.table.match().status == "running":
        assert web.press_move("alice", rng.choice)
    answer = web.table.say("alice", "historia")
    links = web.links(list(answer))
    assert links, "the history links each game into the view"
    open_view(page, links[0])
    assert page.locator("#replay").is_visible()
    last = web.core.replays.replay_of(web.core.repo.match(match.id)).last
    assert page.inner_text("#r-where").endswith(f"{last}/{last}")
    page.click("#r-start")
    page.wait_for_function(f"document.getElementById('r-where').textContent.endsWith(' 0/{last}')")
    page.click("#r-next")
    page.wait_for_function(f"document.getElementById('r-where').textContent.endsWith(' 1/{last}')")
    assert page.evaluate("document.body.dataset.ply") == "1"
    # the replay's first move, as the chat's replay tells it
    assert page.locator("#events li").count() >= 1


def test_a_move_pressed_in_the_page_goes_through_the_core_as_a_press_in_private(web: WebTable, page) -> None:
    match = start_game(web.table, "majavajengi", bots=1)
    open_view(page, web.personal_link("alice"))
    page.wait_for_selector("#private .moves button", timeout=5000)
    labels = page.locator("#private .moves button").all_inner_texts()
    prompt = web.table.prompt_for("alice")
    assert prompt is not None
    assert labels == [b.label for row in prompt.buttons for b in row if not b.data.startswith("http")]
    before = web.core.repo.match(match.id).version
    logged = len(web.core.repo.actions(match.id))
    page.locator("#private .moves button").first.click()
    page.wait_for_function(f"Number(document.body.dataset.version) > {before}", timeout=5000)
    actions = web.core.repo.actions(match.id)
    seat = next(s.seat for s in match.seats if s.user_id is not None)
    assert actions[logged].seat == seat  # Alice's move, logged as any move


def test_the_group_link_cannot_press_a_move(web: WebTable, page) -> None:
    match = start_game(web.table, "majavajengi", bots=1)
    link = web.group_link()
    version = web.core.repo.match(match.id).version
    response = page.request.post(
        link.replace(web.base + "?", web.base + "api/act?"), data={"data": f"{match.id}:{version}:draw"}
    )
    assert response.status == 403
    assert web.core.repo.match(match.id).version == version
