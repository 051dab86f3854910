"""How the bot treats everyday talk in a game group (issue #27): for each sentence of
``chatter_corpus`` said unaddressed in the group by the person whose turn it is (in a lobby: by a
seated player), whether it changed anything (a move or a command applied, a language set) and
whether the bot answered; addressed (a mention or a reply), whether it answered.
``python -m tests.chatbot.chatter_figures [--backend voikko|table]`` prints the figures and each
sentence that went wrong; the lemmatiser backend is Voikko where it loads, unless told.

A table is set up once per context and used for sentence after sentence while nothing changes
(a sentence that changed something gets a fresh table for the next one)."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from dataclasses import dataclass, field

from tests.chatbot.chatter_corpus import CHATTER
from tests.chatbot.table import PLATFORM, Table


@dataclass
class Figures:
    said: int = 0
    changed: list[str] = field(default_factory=list)
    answered: list[str] = field(default_factory=list)
    silent_when_addressed: list[str] = field(default_factory=list)
    #: addressed and answered, but by a change (a move or a command applied)
    changed_when_addressed: list[str] = field(default_factory=list)


def setup(context: str, seed: str) -> tuple[Table, str]:
    """A table of ``context`` ("lobby" or a game id) and the speaker: the seat to act in a game, a
    seated player in a lobby."""
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
    if context == "afrikan_tahti":
        _to_the_first_roll(table)
    return table, table.acting_users()[0]


def _to_the_first_roll(table: Table) -> None:
    """Afrikan Tähti opens with choices (characters, start places): the first button of each prompt
    until a player is to declare a roll, where most of the game's words are moves."""
    from engines import GAMES

    engine = GAMES["afrikan_tahti"]
    for _ in range(20):
        m = table.match()
        if engine.load(m.state).phase == "declare":
            return
        user = table.acting_users()[0]
        prompt = table.prompt_for(user)
        assert prompt is not None, "no prompt before the first roll"
        table.press(user, prompt.buttons[0][0].data)
    raise AssertionError("no roll to declare")


def fingerprint(table: Table) -> tuple[object, ...]:
    """What a sentence could change: the match (version, status, seats, options) and the languages
    of the people and the room."""
    m = table.match()
    match = None if m is None else (m.id, m.version, m.status, m.seats, m.options)
    langs = tuple(
        (u, user.lang) for u in ("matti", "liisa", "pekka") if (user := table.repo.find_user(PLATFORM, u))
    )
    return match, langs, table.repo.room(PLATFORM, "g1").lang


def measure(contexts: Iterable[str] | None = None) -> dict[str, Figures]:
    out: dict[str, Figures] = {}
    for context in contexts or CHATTER:
        figures = out[context] = Figures()
        table, speaker = setup(context, f"chatter:{context}")
        for text in CHATTER[context]:
            figures.said += 1
            before = fingerprint(table)
            answer = table.say(speaker, text)
            if fingerprint(table) != before:
                figures.changed.append(text)
                table, speaker = setup(context, f"chatter:{context}")
            elif answer:
                figures.answered.append(text)
        table, speaker = setup(context, f"chatter:{context}")
        for text in CHATTER[context]:
            before = fingerprint(table)
            if not table.say(speaker, text, addressed=True):
                figures.silent_when_addressed.append(text)
            if fingerprint(table) != before:
                figures.changed_when_addressed.append(text)
                table, speaker = setup(context, f"chatter:{context}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--backend", choices=("voikko", "table"))
    args = parser.parse_args()
    if args.backend:
        from tests.chatbot.backends import use_backend

        use_backend(args.backend)
    total = Figures()
    for context, f in measure().items():
        print(
            f"{context:20} said {f.said:3}  changed {len(f.changed):3}  answered {len(f.answered):3}  "
            f"silent when addressed {len(f.silent_when_addressed):3}  "
            f"changed when addressed {len(f.changed_when_addressed):3}"
        )
        for text in f.changed:
            print(f"    changed: {text}")
        for text in f.answered:
            print(f"    answered: {text}")
        for text in f.silent_when_addressed:
            print(f"    silent when addressed: {text}")
        for text in f.changed_when_addressed:
            print(f"    changed when addressed: {text}")
        total.said += f.said
        total.changed += f.changed
        total.answered += f.answered
        total.silent_when_addressed += f.silent_when_addressed
        total.changed_when_addressed += f.changed_when_addressed
    print(
        f"{'all':20} said {total.said:3}  changed {len(total.changed):3}  answered {len(total.answered):3}  "
        f"silent when addressed {len(total.silent_when_addressed):3}  "
        f"changed when addressed {len(total.changed_when_addressed):3}"
    )


if __name__ == "__main__":
    main()
