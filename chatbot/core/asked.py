"""Buttons that answer a clarifying question (issue #27: "a clarifying question comes without
buttons"): which rule, which game, whether to leave, end or start.

A press stands for the words the question asked the person to write, and only for the person who was
asked: the button's data is ``<match or 0>:<the asker's user id>:!<verb> [<argument>]``. Pressed by
anyone else it is answered and does nothing; pressed where it was not offered it is what typing the
same words there would be (the asker could write them anywhere), so it needs no version.
"""

from __future__ import annotations

from chatbot.core.access import ButtonData
from chatbot.core.types import Button

#: the notation of an answer button starts with this
ASK_MARK = "!"
#: what an answer button may say: a rule topic (its key), a game to set up (its id), or a command
VERBS = frozenset({"rule", "new", "leave", "cancel", "start"})


def answer_button(label: str, user_id: int, verb: str, arg: str = "", match_id: int = 0) -> Button:
    """The button that answers the question put to ``user_id`` with ``verb`` (and ``arg``)."""
    assert verb in VERBS and arg.isascii() and " " not in arg
    return Button(label, f"{match_id}:{user_id}:{ASK_MARK}{verb}" + (f" {arg}" if arg else ""))


def answer_of(data: ButtonData) -> tuple[int, str, str] | None:
    """(the asker's user id, verb, argument) of an answer button, or None for other data."""
    if not data.notation.startswith(ASK_MARK):
        return None
    verb, _, arg = data.notation[len(ASK_MARK) :].partition(" ")
    if verb not in VERBS or " " in arg:
        return None
    return data.version, verb, arg
