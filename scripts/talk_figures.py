"""Pass rates of the meta-command parser and of the rule-question matcher on the phrase tables of
tests/chatbot/talk_corpus.py and tests/chatbot/rule_questions.py (issue #15).

    python scripts/talk_figures.py              # this tree
    python scripts/talk_figures.py --rev 23e9da9 --failures   # also the parser and topics of that commit

``--rev`` loads ``chatbot/core/commands.py`` and ``chatbot/core/explain.py`` of that commit from git
(and the game's rule topics as they are now) to show the figures before the change. An old parser
that has no command for a question about one's own situation counts as right when it gives the
command that shows that information (``hand`` for the hand, ``status`` for turns, scores and lives).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from chatbot.games import UIS  # noqa: E402
from tests.chatbot.rule_questions import RULE_QUESTIONS  # noqa: E402
from tests.chatbot.talk_corpus import CHAT, META_EN, META_FI  # noqa: E402

_OLD_EQUIVALENT = {
    "ask:hand": {"hand"},
    "ask:turn": {"status"},
    "ask:score": {"status"},
    "ask:lives": {"status"},
    "ask:money": {"status", "hand"},
    "ask:position": {"status", "map"},
    "ask:holder": {"status"},
}


def _module_at(rev: str, path: str, name: str) -> types.ModuleType:
    source = subprocess.run(
        ["git", "show", f"{rev}:{path}"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    module = types.ModuleType(name)
    module.__file__ = path
    sys.modules[name] = module
    exec(compile(source, path, "exec"), module.__dict__)
    return module


def _label(command: Any, uis: dict[str, Any], old: bool) -> str | None:
    if command is None:
        return None
    name = command.name
    if old:
        from chatbot.core.explain import game_named

        if name == "new":
            ui = game_named(command.args, uis.values()) if command.args else None
            return f"new:{ui.game_id}" if ui else "new"
        return name
    if name == "new":
        parts = [
            "new",
            *([command.game] if command.game else []),
            *([str(command.count)] if command.count else []),
        ]
        return ":".join(parts)
    if name in {"add_ai", "remove_ai"}:
        return f"{name}:{command.count}" if command.count else name
    if name == "lang":
        return f"lang:{command.tokens[0]}" if command.tokens else "lang"
    if name == "ask":
        return f"ask:{command.topic}"
    return str(name)


def _meta_ok(expected: str | None, got: str | None, old: bool) -> bool:
    if expected is None:
        return got is None or got == "rules"
    if got == expected:
        return True
    if old and got in _OLD_EQUIVALENT.get(expected, set()):
        return True
    # "add_ai:1" is also right without a count ("lisää botti" adds one)
    if expected.endswith(":1") and got == expected[:-2]:
        return True
    if old and expected.startswith(("add_ai", "remove_ai", "lang")) and got == expected.split(":")[0]:
        return not expected.startswith("lang") and expected.endswith(":1")
    return False


def meta_rates(parse: Callable[[str], Any], uis: dict[str, Any], old: bool, show: bool) -> dict[str, float]:
    rates = {}
    for lang, cases in (("fi", META_FI), ("en", META_EN)):
        good = 0
        for text, expected in cases:
            got = _label(parse(text), uis, old)
            if _meta_ok(expected, got, old):
                good += 1
            elif show:
                print(f"  meta {lang} FAIL {text!r}: expected {expected}, got {got}")
        rates[lang] = 100.0 * good / len(cases)
    good = 0
    for text in CHAT:
        got = _label(parse(text, addressed=False) if not old else parse(text), uis, old)
        if _meta_ok(None, got, old):
            good += 1
        elif show:
            print(f"  chat FAIL {text!r}: got {got}")
    rates["chat"] = 100.0 * good / len(CHAT)
    return rates


def rule_rates(find: Callable[[str, str | None], list[Any]], show: bool) -> dict[tuple[str, str], float]:
    totals: dict[tuple[str, str], list[int]] = {}
    for game, lang, text, key in RULE_QUESTIONS:
        found = find(text, game)
        wanted = {f"{game}.{k}" for k in key.split("|")}
        ok = bool(found) and {topic.key for _, topic in found} <= wanted
        bucket = totals.setdefault((game, lang), [0, 0])
        bucket[0] += ok
        bucket[1] += 1
        if not ok and show:
            got = [topic.key for _, topic in found] if found else None
            print(f"  rules {game} {lang} FAIL {text!r}: expected {key}, got {got}")
    return {k: 100.0 * v[0] / v[1] for k, v in totals.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", help="also measure the parser of this git commit (e.g. 23e9da9)")
    parser.add_argument("--failures", action="store_true", help="list the phrases that fail")
    args = parser.parse_args()
    from chatbot.core import commands, explain
    from chatbot.core.nlp import default_lemmatizer

    uis = dict(UIS)
    lemmatizer = default_lemmatizer()
    games = {gid: ui.aliases for gid, ui in uis.items()}
    runs: list[tuple[str, Callable[..., Any], Callable[[str, str | None], list[Any]], bool]] = []
    if args.rev:
        old_commands = _module_at(args.rev, "chatbot/core/commands.py", "_old_commands")
        old_explain = _module_at(args.rev, "chatbot/core/explain.py", "_old_explain")

        def old_parse(text: str, addressed: bool = True) -> Any:
            return old_commands.parse_command(text)

        def old_find(text: str, game: str | None) -> list[Any]:
            cmd = old_commands.parse_command(text)
            if cmd is None or cmd.name != "rules":
                return []
            return list(old_explain.find_topics(cmd.raw_args, [uis[game]], lemmatizer, prefer=game))

        runs.append((f"before ({args.rev})", old_parse, old_find, True))

    def new_parse(text: str, addressed: bool = True) -> Any:
        return commands.parse_command(text, games, "fi", addressed=addressed)

    def new_find(text: str, game: str | None) -> list[Any]:
        cmd = commands.parse_command(text, games, "fi")
        if cmd is None or cmd.name not in {"rules", "ask"}:
            return []
        return list(explain.find_topics(cmd.raw_args, [uis[game]], lemmatizer, prefer=game))

    runs.append(("now", new_parse, new_find, False))
    for title, parse, find, old in runs:
        print(f"== {title}")
        meta = meta_rates(parse, uis, old, args.failures)
        print(
            f"meta commands: fi {meta['fi']:.0f} % of {len(META_FI)}, en {meta['en']:.0f} % of {len(META_EN)}; "
            f"group chat left alone {meta['chat']:.0f} % of {len(CHAT)}"
        )
        rules = rule_rates(find, args.failures)
        for (game, lang), rate in sorted(rules.items()):
            n = sum(1 for g, la, _, _ in RULE_QUESTIONS if g == game and la == lang)
            print(f"rule questions {game:20} {lang}: {rate:5.1f} % of {n}")
        total = sum(1 for _ in RULE_QUESTIONS)
        good = sum(
            rate * sum(1 for g, la, _, _ in RULE_QUESTIONS if (g, la) == k) / 100 for k, rate in rules.items()
        )
        print(f"rule questions overall: {100 * good / total:.1f} % of {total}")


if __name__ == "__main__":
    main()
