"""A live prompt for every seat (issue #26): after any change of a running match (a kick, a seat given
to an AI or back, a hand-over, a leave, a come-back, a move), each person whose seat may act holds
one prompt drawn at the match's current version, and pressing it plays. Over every registered game.
"""

from __future__ import annotations

import random

import pytest

from chatbot.core.types import PROMPT, TABLE, Outbound
from chatbot.games import UIS
from tests.chatbot.table import GROUP, PLATFORM, Table

GAMES = sorted(UIS)
GENITIVE = {"pekka": "Pekan", "liisa": "Liisan", "matti": "Matin"}
CHANGES = ("kick", "to_ai", "restore", "hand_over", "leave", "back")


#: options that shorten a long game (the whole-game test plays it to the end)
QUICK = {"afrikan_tahti": "pikapeli=kyllä"}


def started(game: str, seed: str) -> Table:
    table = Table(seed=seed)
    table.say("matti", f"uusi {game.replace('_', ' ')} {QUICK.get(game, '')}".strip())
    table.say("pekka", "liity")
    table.say("liisa", "liity")
    table.say("matti", "aloita")
    if table.match().status == "lobby":
        table.say("matti", "pelataan näin")
    assert table.match().status == "running"
    return table


def latest_prompt(table: Table, user: str) -> Outbound | None:
    for out in reversed(table.sent):
        if out.user_id == user and out.role == PROMPT:
            return out
    return None


def assert_live(table: Table, rng: random.Random | None = None) -> None:
    """Every acting person's newest prompt acts on the current version, and a press of it plays."""
    match = table.match()
    acting = table.acting_users()
    assert acting, "nobody is to act"
    current = f"{match.id}:{match.version}:"
    for user in acting:
        prompt = latest_prompt(table, user)
        assert prompt is not None and prompt.buttons, f"{user} has no prompt"
        assert prompt.version == match.version
        assert all(b.data.startswith(current) for row in prompt.buttons for b in row), (
            f"{user}'s newest prompt is stale: {prompt.buttons[0][0].data} at version {match.version}"
        )
    tables = [o for o in table.sent if o.chat_id == GROUP and o.role == TABLE and o.match_id == match.id]
    assert tables[-1].version == match.version, "the group's table is not at the current version"
    user = acting[0]
    prompt = latest_prompt(table, user)
    assert prompt is not None
    buttons = [b for row in prompt.buttons for b in row]
    out = table.press(user, (rng or random.Random(0)).choice(buttons).data)
    assert not any("vanhentunut" in o.text for o in out), [o.text for o in out]
    after = table.repo.match(match.id)
    assert after is not None and after.version > match.version


def change(table: Table, what: str) -> None:
    """One seat change, made to a seated person who is not to act when there is one."""
    acting = set(table.acting_users())
    target = next((u for u in ("pekka", "liisa", "matti") if u not in acting), "pekka")
    name = target.capitalize()
    actor = "matti" if target != "matti" else "ville"
    if what == "kick":
        table.say(actor, f"poista {name} pelistä")
    elif what == "to_ai":
        table.say(actor, f"anna {GENITIVE[target]} paikka botille")
    elif what == "restore":
        table.say(actor, f"poista {name} pelistä")
        table.say(actor, f"palauta {name} peliin")
    elif what == "hand_over":
        table.say("eeva", "moi")  # Eeva has written here: the bot knows whom "Eevalle" means
        table.say(target, "anna paikkani Eevalle")
        table.say("eeva", "otan paikan")
        assert any(s.name == "Eeva" for s in table.match().seats)
    elif what == "leave":
        table.say(target, "poistu")
    elif what == "back":
        table.say(target, "poistu")
        table.say(target, "palaan")
    seats = table.match().seats
    if what in {"kick", "to_ai", "leave"}:
        assert any(s.user_id is None and s.name == name for s in seats), what
    if what in {"restore", "back"}:
        assert any(s.user_id is not None and s.name == name for s in seats), what


@pytest.mark.parametrize("what", CHANGES)
@pytest.mark.parametrize("game", GAMES)
def test_the_player_to_act_holds_a_working_prompt_after_a_seat_change(game, what):
    table = started(game, seed=f"live:{game}:{what}")
    rng = random.Random(what)
    # a few moves first, so the change comes in the middle of play
    for _ in range(3):
        users = table.acting_users()
        prompt = latest_prompt(table, users[0]) if users else None
        if prompt is None or not prompt.buttons:
            break
        table.press(users[0], rng.choice([b for row in prompt.buttons for b in row]).data)
    change(table, what)
    assert_live(table)


#: a cycle of seat changes that leaves the seats as they were: (who types, what)
CYCLE = (
    ("matti", "poista Pekka pelistä"),
    ("matti", "palauta Pekka peliin"),
    ("liisa", "poistu"),
    ("liisa", "palaan"),
    ("matti", "anna Pekan paikka botille"),
    ("matti", "palauta Pekka peliin"),
)


@pytest.mark.parametrize("game", GAMES)
def test_prompts_stay_live_over_a_whole_game_with_seat_changes(game):
    """Seat changes between moves until the match ends: every acting person always holds a prompt
    that plays (the AI that plays a seat meanwhile moves at once); then a rematch with an option
    changed in its lobby, and an option refused mid-match, leave them live too."""
    table = started(game, seed=f"whole:{game}")
    first = table.match().id
    rng = random.Random(game)
    for step in range(1500):
        match = table.match()
        if match is None or match.status != "running":
            break
        if step % 5 == 4:
            who, text = CYCLE[(step // 5) % len(CYCLE)]
            table.say(who, text)
        if table.acting_users():
            assert_live(table, rng)
    else:
        pytest.fail("the match did not end in 1500 steps")
    # a rematch whose lobby changes an option: the new match's first seats to act hold live prompts
    table.say("matti", "uusi peli samoilla pelaajilla")
    table.say("matti", "asetukset tahti=päivä")
    table.say("pekka", "liity")
    table.say("liisa", "liity")
    rematch = table.match()
    assert rematch is not None and rematch.id != first and rematch.status == "running"
    assert rematch.meta.get("pace"), "the option said in the rematch's lobby was not kept"
    assert_live(table, rng)
    # an option asked for in a running match is refused and leaves the prompts live
    table.say("matti", "asetukset tahti=ei")
    assert_live(table, rng)


def test_a_move_stored_outbox_row_says_what_it_is():
    """The typed fields go through the outbox (what a transport reads after a restart)."""
    table = started("majavajengi", seed="rows")
    rows = table.outbox(f"{PLATFORM}:g:{GROUP}")
    match = table.match()
    assert any(r.role == TABLE and r.match_id == match.id and r.version == match.version for r in rows)
    user = table.acting_users()[0]
    private = table.outbox(f"{PLATFORM}:u:{user}")
    assert private[-1].role == PROMPT and private[-1].seat is not None
