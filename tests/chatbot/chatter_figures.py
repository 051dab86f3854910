"""How the bot treats everyday talk in a game group (issue #27): for each sentence of
``chatter_corpus`` said unaddressed in the group by the person whose turn it is (in a lobby: by a
seated player), whether it changed the match (a move or a command applied) and whether the bot
answered; addressed, whether it answered. ``python -m tests.chatbot.chatter_figures`` prints the
figures and each sentence that went wrong."""

from __future__ import annotations

from dataclasses import dataclass, field

from tests.chatbot.chatter_corpus import CHATTER
from tests.chatbot.table import Table

#: options that make a match start at once with three people
START = {"gnav": "pelataan näin"}


@dataclass
class Figures:
    said: int = 0
    changed: list[str] = field(default_factory=list)
    answered: list[str] = field(default_factory=list)
    silent_when_addressed: list[str] = field(default_factory=list)


def _table(context: str, seed: str) -> tuple[Table, str]:
    table = Table(seed=seed)
    game = "majavajengi" if context == "lobby" else context
    table.say("matti", f"uusi {game.replace('_', ' ')}")
    table.say("liisa", "liity")
    if context == "lobby":
        return table, "liisa"
    table.say("pekka", "liity")
    table.say("matti", "aloita")
    if table.match().status == "lobby":
        table.say("matti", "pelataan näin")
    return table, table.acting_users()[0]


def _state(table: Table):
    m = table.match()
    return None if m is None else (m.id, m.version, m.status, m.seats, m.options)


def measure(contexts=None) -> dict[str, Figures]:
    out: dict[str, Figures] = {}
    for context in contexts or CHATTER:
        figures = out[context] = Figures()
        for i, text in enumerate(CHATTER[context]):
            figures.said += 1
            table, speaker = _table(context, f"chatter:{context}:{i}")
            before = _state(table)
            answer = table.say(speaker, text)
            if _state(table) != before:
                figures.changed.append(text)
            elif answer:
                figures.answered.append(text)
            table, speaker = _table(context, f"chatter:{context}:{i}")
            if not table.say(speaker, text, addressed=True):
                figures.silent_when_addressed.append(text)
    return out


def main() -> None:
    total = Figures()
    for context, f in measure().items():
        print(
            f"{context:20} said {f.said:3}  changed {len(f.changed):3}  answered {len(f.answered):3}  "
            f"silent when addressed {len(f.silent_when_addressed):3}"
        )
        for text in f.changed:
            print(f"    changed: {text}")
        for text in f.answered:
            print(f"    answered: {text}")
        for text in f.silent_when_addressed:
            print(f"    silent when addressed: {text}")
        total.said += f.said
        total.changed += f.changed
        total.answered += f.answered
        total.silent_when_addressed += f.silent_when_addressed
    print(
        f"{'all':20} said {total.said:3}  changed {len(total.changed):3}  answered {len(total.answered):3}  "
        f"silent when addressed {len(total.silent_when_addressed):3}"
    )


if __name__ == "__main__":
    main()
