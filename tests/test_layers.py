"""The one dependency rule (DESIGN.md §2): arrows point down only."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

STDLIB_ONLY = {"engines"}
FORBIDDEN = {
    "engines": {"chatbot", "telegram", "nio", "sqlmodel", "sqlalchemy", "babel", "PIL", "aiohttp"},
    "chatbot/core": {
        "chatbot.games",
        "chatbot.transports",
        "chatbot.storage",
        "chatbot.compose",
        "telegram",
        "nio",
        "sqlmodel",
        "sqlalchemy",
        "aiohttp",
        "PIL",
    },
    "chatbot/games": {"chatbot.transports", "chatbot.storage", "telegram", "nio", "sqlmodel", "sqlalchemy"},
    # the web view reads the core's views and renderers, never a transport's or the database's own
    "chatbot/web": {"chatbot.transports", "chatbot.storage", "telegram", "nio", "sqlmodel", "sqlalchemy"},
}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_point_down(layer):
    bad = []
    for path in sorted((ROOT / layer).rglob("*.py")):
        for name in imports_of(path):
            for forbidden in FORBIDDEN[layer]:
                if name == forbidden or name.startswith(forbidden + "."):
                    bad.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not bad, "\n".join(bad)


def test_engines_use_no_global_random_and_no_io():
    bad = []
    for path in sorted((ROOT / "engines").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                base = node.func.value
                if isinstance(base, ast.Name) and base.id == "random" and node.func.attr != "Random":
                    bad.append(f"{path.name}:{node.lineno} random.{node.func.attr}")
            # the command-line module prints; everything else is pure (reading the package's own
            # board data once at import is allowed, writing or talking to a terminal is not)
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in {"print", "input"}
                and path.name not in {"simulate.py", "__main__.py"}
            ):
                bad.append(f"{path.name}:{node.lineno} {node.func.id}()")
    assert not bad, "\n".join(bad)


def test_every_change_of_the_core_reaches_the_outbox_through_one_place():
    """The core queues outbound messages in one place, which adds the live prompts a change left out
    (chatbot/core/live.py): a new use case cannot skip them by calling the outbox itself."""
    calls = []
    for path in sorted((ROOT / "chatbot" / "core").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "outbox_add"
            ):
                calls.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert len(calls) == 1, calls
