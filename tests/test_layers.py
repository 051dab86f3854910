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
