"""Finding the games of a package: every module or subpackage that defines a given attribute.

Used for the engines (``ENGINE``) and for their chat side (``UI`` in ``chatbot.games``), so adding a
game edits no registry file. One broken module must not take the other games down: its error is
recorded (tests assert that none is) and the rest load.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

T = TypeVar("T")


def discover(
    package: str,
    path: Iterable[str],
    attribute: str,
    kind: type[T],
    key: Callable[[T], str],
    skip: Callable[[str], bool],
) -> tuple[dict[str, T], dict[str, str]]:
    """``(found, broken)``: objects of ``kind`` at ``module.attribute`` by ``key``, and errors by module."""
    found: dict[str, T] = {}
    broken: dict[str, str] = {}
    for info in sorted(pkgutil.iter_modules(list(path)), key=lambda i: i.name):
        if info.name.startswith("_") or skip(info.name):
            continue
        try:
            module: Any = importlib.import_module(f"{package}.{info.name}")
        except Exception as exc:
            broken[info.name] = repr(exc)
            logging.getLogger(package).exception("cannot load game module %s", info.name)
            continue
        obj = getattr(module, attribute, None)
        if isinstance(obj, kind):
            found[key(obj)] = obj
    return found, broken
