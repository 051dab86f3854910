"""Every text that may reach the group passes the same hidden-information check as the table (issue
#27, point 3): in every registered game, the person to act asks in the group about each move their
private prompt offers ("miksi en voi …?", the button's own words as a question), why their last move
was refused, what they can do, and types a move the bot does not understand, all addressed to the bot;
the scan of tests/chatbot/leaks.py looks at every message each of these makes, as it does at the table.

The "why" answer once said "Voit tehdä sen nyt: Pelaa 🟪 kolibri" in the group: the asker's hidden
card. A planted fault (questions._why_text marks nothing hidden) fails this test in every game whose
moves are not all shown in the group.
"""

from __future__ import annotations

import random

import pytest

from chatbot.games import UIS
from tests.chatbot.leaks import LeakScan
from tests.chatbot.table import GROUP, Table
from tests.chatbot.test_ui_contract import PRIVATE_ONLY, PRIVATE_VERBS, SHORT

GAME_IDS = sorted(UIS)
#: said in the group at every turn, besides the questions about each offered move: why the last move
#: was refused, and a text the bot does not understand (answered with what one can do now)
ALWAYS = ("miksi?", "miksi ei käy?", "why not?", "blorp zzz", "vaihdan sen kolmanteen kiveen")


def _questions(label: str) -> list[str]:
    return [f"miksi en voi {label.casefold()}?", f"why can't I {label.casefold()}?", f"{label}?"]


@pytest.mark.parametrize("game", GAME_IDS)
def test_no_answer_in_the_group_names_a_hidden_card(game):
    rng = random.Random(f"answers:{game}")
    table = Table(seed=f"answers:{game}")
    scan = LeakScan(table.core, PRIVATE_ONLY, PRIVATE_VERBS).install()
    table.say("matti", f"uusi {UIS[game].aliases[0]} {SHORT.get(game, '')}".strip())
    table.say("liisa", "liity")
    table.say("matti", "aloita")
    if table.match().status == "lobby":
        table.say("matti", "pelataan näin")
    asked = answered = 0
    for _ in range(12):
        users = table.acting_users()
        if not users:
            break
        user = users[0]
        prompt = table.prompt_for(user)
        assert prompt is not None
        labels = list(dict.fromkeys(b.label for row in prompt.buttons for b in row))
        tables = [o for o in table.sent if o.chat_id == GROUP and o.role == "table"]
        public = {b.label for row in tables[-1].buttons for b in row} if tables else set()
        secret = [label for label in labels if label not in public]  # offered to the asker alone
        before = len(table.group_texts())
        for label in rng.sample(labels, min(4, len(labels))):
            for text in _questions(label):
                version = table.match().version
                table.say(user, text, addressed=True)
                asked += 1
                if table.match() is None or table.match().version != version:
                    break  # the question form was read as that move (point 1's business): go on
        for text in ALWAYS:
            table.say(user, text, addressed=True)
            asked += 1
        said = table.group_texts()[before:]
        answered += len(said)
        told = [(label, text) for text in said for label in secret if label in text]
        assert not told, told  # a move only the asker was offered, named in the group
        users = table.acting_users()
        if not users:
            break
        prompt = table.prompt_for(users[0])
        table.press(users[0], rng.choice([b for row in prompt.buttons for b in row]).data)
    assert not scan.failures, scan.failures
    assert asked >= 10 and answered >= 5 and scan.checked >= 5, (asked, answered, scan.checked)
