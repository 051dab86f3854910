"""The adversarial fuzz of issue #13: hypothesis sends typed text and forged button data from
members, players and outsiders, in two groups (two matches, two games) and in private, over every
game and phase, through the real core on SQLite.

After every input it checks that

* nothing raised (the core logs every error it caught: any ERROR record counts),
* no match changed but the one of the chat written in (or, in private, those of the sender's seats),
* every answer to the sender and every private message is in its reader's stored language,
* no group message names a card that only a seat may see (a private panel's card that is not on
  the public table).

``python -m tests.chatbot.fuzz [--examples N] [--steps K]`` prints the figures as one JSON line
(inputs tried, exceptions, wrong-language replies, cross-chat changes, leaks); the test suite runs
a shorter round of the same (``tests/chatbot/test_fuzz.py``).
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from chatbot.core.gameui import GameUI, RenderContext
from chatbot.core.i18n import translator
from chatbot.core.types import Inbound, Outbound
from chatbot.games import UIS
from engines import GAMES
from tests.chatbot.table import PLATFORM, Table

GROUPS = ("g1", "g2")
#: who takes part: the players of each group, and outsiders; each with a stored language
LANGS = {"matti": "fi", "liisa": "en", "pekka": "fi", "sanna": "en", "eve": "en", "olli": "fi"}
SEATED = {"g1": ("matti", "liisa"), "g2": ("pekka", "sanna")}
GAME_IDS = sorted(UIS)
SHORT = {"majavajengi": "rounds=1", "gnav": "lives=1", "afrikan_tahti": "quick_game=on"}

WORDS = [
    "uusi",
    "uusi peli",
    "liity",
    "liity Liisa",
    "join",
    "aloita",
    "start",
    "peru",
    "cancel",
    "poistu",
    "leave",
    "lisää botti",
    "poista botti",
    "add bot vahva",
    "kick Matti",
    "kick Pekka",
    "kick Botti 1",
    "poista Matti pelistä",
    "palauta Matti peliin",
    "poista Liisa pelistä",
    "poista Sanna pelistä",
    "palauta Liisa peliin",
    "restore Pekka",
    "anna Matin paikka botille",
    "anna paikkani Pekalle",
    "anna paikkani Evelle",
    "give my seat to Olli",
    "anna paikkani",
    "otan paikan",
    "take seat",
    "language en",
    "language fi",
    "kieli",
    "kieli klingon",
    "apua",
    "help",
    "tila",
    "status",
    "käsi",
    "hand",
    "kartta",
    "säännöt",
    "rules gnav",
    "pelit",
    "/start",
    "/start join-1",
    "/start join-2-abcdef",
    "/start join-99999999999999999999",
    "/uusi@pelibotti majavajengi",
    "nostan",
    "koputan",
    "valmis",
    "hylkään",
    "vaihda 2",
    "laitan toiseen",
    "kurkistan",
    "otan kortin",
    "anna papukaija Matille",
    "pelaan piraijan",
    "lennän Kairoon",
    "käännän",
    "heitän noppaa",
    "pidän",
    "vaihdan",
    "swap my second card",
    "draw",
    "miten kurkistus toimii?",
    "mikä on narri?",
    "uusi majavajengi rounds=99999999999999999999999",
    "uusi gnav lives=-1",
    "uusi afrikan tähti max_rounds=abc",
    "uusi coloretto players=0",
    "uusi gnav lives=1e309",
    "uusi majavajengi =",
    "uusi x=y=z",
    # issue #16: the fill question, rematch and pace
    "täytä",
    "pelataan näin",
    "fill",
    "as we are",
    "uusi peli samoilla pelaajilla",
    "rematch",
    "uusi gnav tahti=päivä sijainen=kyllä hiljaa=22-8",
    "uusi majavajengi pace=off",
    "uusi gnav tahti=joskus",
    "asetukset hiljaa=25-99",
    "asetukset vyöhyke=Mars/Olympus",
]
CRAFTED = [
    "²:0:x",
    "1:²:draw",
    "٣:0:@join",
    "1" * 5000 + ":0:@join",
    f"{10**30}:0:@join",
    f"1:{10**30}:@start",
    "1:0:@__class__",
    "1:0:@new",
    "1:0:",
    "1:0:\x00draw",
    ":::",
    "",
    "1:0:" + "x" * 500,
    "-1:0:@join",
    "1:1:@start",
    "2:0:@join",
    "2:1:@add_ai",
    "0:0:@join",
    "1:0:@remove_ai",
    "1:0:@fill",
    "1:1:@as_is",
    "1:5:@rematch",
    "2:0:@rematch",
]


def _texts() -> st.SearchStrategy[str]:
    word = st.sampled_from(WORDS)
    return st.one_of(
        word,
        word,
        st.text(max_size=120),
        st.builds(lambda a, b: f"{a} {b}", word, st.text(max_size=30)),
        st.builds(lambda a, b: f"{a} {b}", word, word),
        st.sampled_from([" ", "\n\t", "\u200b", "\x00", "?" * 3000, "vaihda " * 1000, "🦫" * 600]),
        st.from_regex(r"[0-9]{1,40}", fullmatch=True),
    )


@dataclass
class Stats:
    inputs: int = 0
    exceptions: int = 0
    wrong_language: int = 0
    cross_chat: int = 0
    leaks: int = 0
    worlds: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "inputs": self.inputs,
            "exceptions": self.exceptions,
            "wrong_language": self.wrong_language,
            "cross_chat_changes": self.cross_chat,
            "group_leaks": self.leaks,
            "worlds": self.worlds,
            "by_kind": dict(self.by_kind),
        }


class ErrorLog(logging.Handler):
    """Every ERROR the bot logs (the core catches what raises and logs it with the inbound)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class Admins:
    """The platform's admin lookup: Olli administers g1 and Eve g2 (both have no seat at first)."""

    def __init__(self) -> None:
        self.admins = {("g1", "olli"), ("g2", "eve")}

    def is_admin(self, chat_id: str, user_id: str) -> bool | None:
        return (chat_id, user_id) in self.admins


class World:
    """Two groups with a match each (``game`` in g1, another game in g2), players and outsiders."""

    def __init__(self, game: str, other: str, seed: str, moves: int, lobby2: bool) -> None:
        self.table = Table(seed=seed)
        self.table.core.members[PLATFORM] = Admins()
        self.repo = self.table.repo
        self.seq = 0
        self.buttons: list[str] = []
        for user, lang in LANGS.items():
            self._send(user, "private", text=f"language {lang}", lang_hint="en" if lang == "fi" else "fi")
        self._open("g1", game)
        self._open("g2", other, start=not lobby2)
        rng = random.Random(seed)
        for _ in range(moves):  # a later phase: the players press their own prompts for a while
            users = [u for u in self.table.acting_users() if u in SEATED["g1"]]
            prompt = self.table.prompt_for(users[0]) if users else None
            if prompt is None:
                break
            self._send(
                users[0], "private", button=rng.choice([b for row in prompt.buttons for b in row]).data
            )

    def _open(self, group: str, game: str, start: bool = True) -> None:
        host, guest = SEATED[group]
        self._send(host, group, text=f"uusi {UIS[game].aliases[0]} {SHORT.get(game, '')}".strip())
        self._send(guest, group, text="liity")
        if start:
            self._send(host, group, text="aloita")

    # --- one input ------------------------------------------------------------------------------
    def _send(
        self,
        user: str,
        where: str,
        text: str | None = None,
        button: str | None = None,
        lang_hint: str | None = None,
    ) -> tuple[Inbound, list[Outbound]]:
        self.seq += 1
        private = where == "private"
        msg = Inbound(
            PLATFORM,
            user,
            user.capitalize(),
            user if private else where,
            private,
            text=text,
            button=button,
            lang_hint=lang_hint,
            message_id=f"m{self.seq}",
            update_key=f"u{self.seq}",
        )
        outs = self.table._deliver(self.table.core.handle(msg))
        for out in outs:
            for row in out.buttons:
                self.buttons.extend(b.data for b in row if not b.data.startswith("http"))
        return msg, outs

    def matches(self) -> dict[str, Any]:
        """Per group: the open match as (id, version, status, seats), or None."""
        found = {}
        for group in GROUPS:
            m = self.repo.active_match(self.repo.room(PLATFORM, group).id)
            found[group] = None if m is None else (m.id, m.version, m.status, m.seats)
        return found

    def seated_groups(self, user: str) -> set[str]:
        rec = self.repo.find_user(PLATFORM, user)
        out = set()
        for group in GROUPS:
            m = self.repo.active_match(self.repo.room(PLATFORM, group).id)
            if m is not None and rec is not None and any(s.user_id == rec.id for s in m.seats):
                out.add(group)
        return out

    def lang_of(self, ext_id: str) -> str | None:
        rec = self.repo.find_user(PLATFORM, ext_id)
        return rec.lang if rec is not None else None

    def step(
        self,
        user: str,
        where: str,
        text: str | None,
        button: str | None,
        hint: str | None,
        stats: Stats,
        errors: ErrorLog,
    ) -> None:
        before = self.matches()
        allowed = {where} if where in GROUPS else self.seated_groups(user)
        logged = len(errors.records)
        msg, outs = self._send(user, where, text=text, button=button, lang_hint=hint)
        stats.inputs += 1
        stats.by_kind["button" if button is not None else "text"] += 1
        what = (
            f"{user} in {where}: {text!r}" if button is None else f"{user} in {where} pressed {button[:80]!r}"
        )
        if len(errors.records) > logged:
            stats.exceptions += len(errors.records) - logged
            stats.problems.append(f"error after {what}: {errors.records[-1].getMessage()[:300]}")
        after = self.matches()
        for group in GROUPS:
            if group not in allowed and before[group] != after[group]:
                stats.cross_chat += 1
                stats.problems.append(f"{group}'s match changed after {what}")
        for out in outs:
            reader = out.user_id
            if reader is None and out.reply_to == msg.message_id:
                reader = user
            if reader is None:
                continue
            wanted = self.lang_of(reader)
            if wanted is not None and out.lang != wanted:
                stats.wrong_language += 1
                stats.problems.append(f"{reader} got {out.lang} ({out.text[:80]!r}) after {what}")
        for out in outs:
            if out.chat_id in GROUPS:
                leaked = self.hidden_cards(out.chat_id) & set(
                    self._ui(out.chat_id).cards_in(out.text) if self._ui(out.chat_id) else ()
                )
                if leaked:
                    stats.leaks += 1
                    stats.problems.append(f"group {out.chat_id} was shown {sorted(leaked)} after {what}")

    def _ui(self, group: str) -> GameUI | None:
        m = self.repo.active_match(self.repo.room(PLATFORM, group).id)
        return UIS.get(m.game) if m is not None else None

    def hidden_cards(self, group: str) -> set[str]:
        """Cards on some seat's private panel that the public table does not show."""
        m = self.repo.active_match(self.repo.room(PLATFORM, group).id)
        if m is None or m.state is None:
            return set()
        engine, ui = GAMES[m.game], UIS[m.game]
        state = engine.load(m.state)
        names = tuple(s.name for s in m.seats)
        public: set[str] = set()
        hidden: set[str] = set()
        for lang in ("fi", "en"):  # the group's language may change under the fuzz
            t = translator(lang)
            table = ui.render_table(engine.view(state, None), RenderContext(t, names, None, m.options))
            public.update(ui.cards_in(table))
            for seat in range(len(m.seats)):
                ctx = RenderContext(t, names, seat, m.options)
                hidden.update(ui.cards_in(ui.render_private(engine.view(state, seat), ctx) or ""))
        return hidden - public


def inputs(world: World) -> st.SearchStrategy[tuple[str, str, str | None, str | None, str | None]]:
    """One input: (user, where, text, button, language hint)."""
    seen = world.buttons[-200:] or ["1:0:@join"]

    def mutate(data: str, dm: int, dv: int, other: str) -> str:
        parts = data.split(":", 2)
        if len(parts) != 3 or not parts[0].isdigit() or not parts[1].isdigit():
            return data
        notation = other.split(":", 2)[-1] if dm % 3 == 0 else parts[2]
        return f"{max(0, int(parts[0]) + dm)}:{max(0, int(parts[1]) + dv)}:{notation}"

    button = st.one_of(
        st.sampled_from(seen),
        st.builds(
            mutate, st.sampled_from(seen), st.integers(-2, 2), st.integers(-3, 3), st.sampled_from(seen)
        ),
        st.sampled_from(CRAFTED),
        st.text(max_size=80),
        st.from_regex(r"[0-9]{1,14}:[0-9]{1,14}:@?[a-z_ 0-9]{0,20}", fullmatch=True),
    )
    user = st.sampled_from(sorted(LANGS))
    where = st.sampled_from(["g1", "g1", "g2", "private"])
    hint = st.sampled_from([None, "fi", "en", "en-US", "xx"])
    as_text = st.tuples(user, where, _texts(), st.none(), hint)
    as_button = st.tuples(user, where, st.none(), button, hint)
    return st.one_of(as_text, as_button)


def fuzz(
    game: str,
    examples: int,
    steps: int,
    stats: Stats,
    strict: bool,
    seed: int | None = None,
    max_moves: int = 40,
) -> None:
    """``examples`` worlds of ``game`` (hypothesis chooses the phase and the inputs), ``steps``
    inputs each; with ``strict`` the first problem fails (and hypothesis shrinks it). The suite's
    round is the same every time (derandomized); ``seed`` picks another round, None a random one."""
    errors = ErrorLog()
    logger = logging.getLogger("chatbot")
    others = [g for g in GAME_IDS if g != game]

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=strict and seed is None,
        phases=[Phase.explicit, Phase.reuse, Phase.generate, *([Phase.shrink] if strict else [])],
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        other = data.draw(st.sampled_from(others), label="g2 game")
        moves = data.draw(st.integers(0, max_moves), label="moves in g1 first")
        lobby2 = data.draw(st.booleans(), label="g2 still a lobby")
        world = World(game, other, f"fuzz:{game}:{moves}:{other}", moves, lobby2)
        stats.worlds += 1
        for _ in range(steps):
            user, where, text, button, hint = data.draw(inputs(world), label="input")
            known = len(stats.problems)
            world.step(user, where, text, button, hint, stats, errors)
            if strict and len(stats.problems) > known:
                raise AssertionError(stats.problems[-1])

    level = logger.level
    if seed is not None:
        run = hypothesis_seed(seed)(run)
    logger.addHandler(errors)
    logger.setLevel(min(level or logging.WARNING, logging.WARNING))  # ERROR records reach the handler
    try:
        run()
    finally:
        logger.removeHandler(errors)
        logger.setLevel(level)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.chatbot.fuzz", description=__doc__)
    parser.add_argument("--examples", type=int, default=12, help="worlds per game")
    parser.add_argument("--steps", type=int, default=25, help="inputs per world")
    parser.add_argument("--games", nargs="*", default=GAME_IDS)
    parser.add_argument("--seed", type=int, default=None, help="the same round again (default: a new one)")
    args = parser.parse_args(argv)
    logging.getLogger("chatbot").propagate = False  # errors are counted, not printed
    stats = Stats()
    started = time.monotonic()
    for game in args.games:
        fuzz(game, args.examples, args.steps, stats, strict=False, seed=args.seed)
    figures = {**stats.as_dict(), "seconds": round(time.monotonic() - started, 1)}
    print(json.dumps(figures, ensure_ascii=False))
    for problem in stats.problems[:20]:
        print(problem, file=sys.stderr)
    return 0 if not stats.problems else 1


if __name__ == "__main__":
    sys.exit(main())
