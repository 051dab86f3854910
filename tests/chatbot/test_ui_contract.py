"""One contract over every registered game UI (DESIGN §8, PettingZoo's ``api_test`` in spirit).

- No group message ever names a card that only one seat may see: every card a group message
  names is on the public table or in a public event of the actions it covers.
- Every button of every prompt has a label, and the labels of one prompt tell the buttons apart.
- Every reason code the engine gives for a refused action has its own text in both languages.

The games are played in chat through the real core on SQLite, people pressing random buttons of
their private prompts and AI seats filling the table.
"""

from __future__ import annotations

import random

import pytest

from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import translator
from chatbot.games import UIS
from engines import GAMES
from engines.contract import Engine, IllegalAction
from tests.chatbot.leaks import LeakScan
from tests.chatbot.table import Table

#: options that keep a chat game short enough for a test (engine option keys)
SHORT = {
    "majavajengi": "rounds=1",
    "gnav": "lives=1",
    "afrikan_tahti": "quick_game=true max_rounds=30",
}
#: option variants the games are played with in turn (options that change what is shown)
VARIANTS = {
    "gnav": ("", "narri_näkyy=ei", "perinteinen_kissa=kyllä"),
    "majavajengi": ("", "muistiapu=kyllä"),
}
#: headings of a private panel, which never reach the group (by language)
PRIVATE_ONLY = {
    "gnav": {"fi": ("Korttisi", "Tiedät"), "en": ("Your card", "You know")},
    "coloretto_amazonas": {"fi": ("Kätesi",), "en": ("Your hand",)},
}
#: moves whose button in the group would tell something hidden (a knock shows the fool)
PRIVATE_VERBS = {"gnav": {"knock"}}
GAME_IDS = sorted(UIS)


#: the scans of the games played in this module, by game
SCANS: dict[str, list[LeakScan]] = {}


def _play(game: str, seed: str, humans: list[str], bots: int, rng: random.Random) -> Table:
    table = Table(seed=seed)
    scan = LeakScan(table.core, PRIVATE_ONLY, PRIVATE_VERBS).install()
    SCANS.setdefault(game, []).append(scan)
    variants = VARIANTS.get(game, ("",))
    variant = variants[sum(map(ord, seed)) % len(variants)]
    table.say(humans[0], f"uusi {UIS[game].aliases[0]} {SHORT.get(game, '')} {variant}".strip())
    for user in humans[1:]:
        table.say(user, "liity")
    for _ in range(bots):
        table.say(humans[0], "lisää botti")
    table.say(humans[0], "aloita")
    if table.match().status == "lobby":  # a table smaller than the game's usual one is asked
        table.say(humans[0], "pelataan näin")
    table.play_randomly(rng)
    assert not scan.failures, scan.failures
    return table


@pytest.mark.parametrize("game", GAME_IDS)
def test_no_group_message_names_a_hidden_card(game):
    rng = random.Random(f"leak:{game}")
    checked = 0
    for n in range(3):
        humans = ["matti", "liisa", "pekka"][: 1 + n % 3]
        table = _play(game, f"leak:{game}:{n}", humans, bots=1 if len(humans) == 1 else n % 2, rng=rng)
        checked += SCANS[game][-1].checked
        # the detailed table and a "why" question in the group pass the same scan
        table.say("matti", "tila")
    assert checked >= 10  # the scan really looked at group messages


@pytest.mark.slow
@pytest.mark.parametrize("game", GAME_IDS)
def test_many_chat_games_name_no_hidden_card(game):
    """The same scan over many games with one to three people, for the rare positions."""
    rng = random.Random(f"many:{game}")
    for n in range({"afrikan_tahti": 3, "coloretto_amazonas": 12}.get(game, 20)):
        humans = ["matti", "liisa", "pekka"][: rng.randint(1, 3)]
        _play(game, f"many:{game}:{n}", humans, bots=rng.randint(0 if len(humans) > 1 else 1, 2), rng=rng)


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_prompt_button_has_a_label_that_tells_it_apart(game):
    table = _play(game, f"labels:{game}", ["matti", "liisa"], bots=0, rng=random.Random(game))
    prompts = [o for o in table.sent if o.private and o.buttons]
    assert prompts
    for o in prompts:
        labels = [b.label for row in o.buttons for b in row]
        assert all(label.strip() for label in labels), o.text
        assert len(labels) == len(set(labels)), (o.text, labels)


def _refusals(engine: Engine, seed: str, players: int) -> dict[str, dict[str, object]]:
    """Reason codes (with the parameters of their first occurrence) that ``check`` gives over a
    random game, for the candidate actions and for every action seen legal at some point, tried by
    every seat at every step (out of turn, in the wrong phase, no longer affordable…)."""
    from engines.playout import play_ai_game

    found: dict[str, dict[str, object]] = {}
    seen: dict[str, object] = {}
    rng = random.Random(seed)

    def on_step(state, seat, action, events):  # type: ignore[no-untyped-def]
        if engine.outcome(state) is not None:
            return
        for s in range(players):
            for legal in engine.legal_actions(state, s):
                seen.setdefault(engine.notation(legal), legal)
            tries = [
                *engine.candidate_actions(state, s),
                *rng.sample(list(seen.values()), min(20, len(seen))),
            ]
            for candidate in tries:
                try:
                    engine.check(state, s, candidate)
                except IllegalAction as exc:
                    found.setdefault(exc.code, dict(exc.params))

    play_ai_game(engine, ("random",) * players, seed, None, on_step)
    return found


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_reason_code_has_its_own_text(game):
    engine, ui = GAMES[game], UIS[game]
    refusals = _refusals(engine, f"reasons:{game}", engine.default_players)
    assert "not_your_turn" in refusals or len(refusals) > 1, refusals
    for lang in ("fi", "en"):
        ctx = RenderContext(translator(lang), ("Matti", "Liisa", "Pekka", "Anna", "Ville", "Eeva"), 0)
        fallback = ui.reason_text("__no_such_code__", {}, ctx)
        for code, params in sorted(refusals.items()):
            text = ui.reason_text(code, params, ctx)
            # the code itself ("not_in_hand") must not show; a plain word ("resting") may
            assert text.strip() and ("_" not in code or code not in text), (lang, code, text)
            assert text != fallback, (lang, code, params, "falls back to the generic refusal")
