"""The shared notation codec writes and reads Coloretto Amazonas exactly as the engine's own code did
before issue #11 (stored action logs, golden files and button data keep their strings).

``_old_notation`` / ``_old_parse`` are that code, kept verbatim as the reference.
"""

from __future__ import annotations

import itertools
import random

import pytest

from engines.codec import BadNotation
from engines.coloretto_amazonas import ENGINE
from engines.coloretto_amazonas.model import KIND_SET, MAX_PLAYERS, Accept, Give, Play, Refuse
from engines.playout import play_ai_game


def _old_notation(action):
    match action:
        case Play(kind=kind):
            return f"play {kind}"
        case Give(kind=kind, to=to):
            return f"give {kind} seat{to}"
        case Accept():
            return "accept"
        case Refuse(remove=remove):
            return f"refuse {remove}"
    raise TypeError(f"not an action: {action!r}")


def _old_parse(text):
    words = text.split()
    if not words:
        raise BadNotation(text)
    verb, args = words[0].lower(), words[1:]
    kind = args[0].upper() if args else ""
    if verb == "accept" and not args:
        return Accept()
    if kind not in KIND_SET:
        raise BadNotation(text)
    if verb == "play" and len(args) == 1:
        return Play(kind)
    if verb == "refuse" and len(args) == 1:
        return Refuse(kind)
    if verb == "give" and len(args) == 2:
        target = args[1].lower()
        if target.startswith("seat") and target[4:].isdigit() and int(target[4:]) < MAX_PLAYERS:
            return Give(kind, int(target[4:]))
    raise BadNotation(text)


def _read(parse, text):
    """The action read, or ``"refused"``. (The old reader let ``int("²")`` escape as a ValueError
    for "seat²"; the codec refuses it with BadNotation like every other bad text.)"""
    try:
        return parse(text)
    except (BadNotation, ValueError):
        return "refused"


def _seen_actions():
    """Every action legal for any seat at any step of some AI games (2-4 players)."""
    seen = set()

    def step(state, seat, action, events):
        for s in range(state.players):
            seen.update(ENGINE.legal_actions(state, s))

    for players in (2, 3, 4):
        for g in range(3):
            play_ai_game(
                ENGINE, ("smart", "random", "smart", "random")[:players], f"notation{players}:{g}", None, step
            )
    return seen


SEEN = _seen_actions()


def test_every_action_seen_in_playouts_is_written_and_read_as_before():
    assert {type(a) for a in SEEN} == {Play, Give, Accept, Refuse} and len(SEEN) > 100, len(SEEN)
    for action in SEEN:
        text = ENGINE.notation(action)
        assert text == _old_notation(action)
        assert ENGINE.parse_notation(text) == _old_parse(text) == action


def _variants(text, rng):
    """Case changes, spacing, extra or missing words, other seat numbers and digits, for one notation."""
    words = text.split()
    out = {
        text,
        text.upper(),
        text.title(),
        f"  {text}  ",
        "\t".join(words),
        "  ".join(words),
        text + " x",
        " ".join(words[:-1]),
        words[0],
        text.replace("seat", "SEAT"),
        text.replace("seat", "seat "),
        text.replace("seat", "Seat"),
        text.replace("seat", "seats"),
        text.replace("seat", ""),
    }
    for digit in ("0", "3", "4", "9", "01", "+1", "-1", "²", "٣", "1.0", ""):
        out.add(" ".join([*words[:-1], f"seat{digit}"]) if words[0] == "give" else f"{text} seat{digit}")
    for word in ("B6", "b1", "x1", "G", "G1.1", "accept", "PLAY"):
        out.add(" ".join([words[0], word, *words[2:]]))
    chars = list(text)
    rng.shuffle(chars)
    out.add("".join(chars))
    return out


def test_malformed_and_odd_texts_are_read_as_before():
    rng = random.Random(11)
    texts = {
        "",
        " ",
        "accept",
        "Accept",
        "ACCEPT",
        "accept G1",
        "play",
        "refuse",
        "give",
        "draw",
        "give G1 2",
        "give G1 seat",
        "play G1 G2",
        "accept accept",
    }
    for action in sorted(SEEN, key=repr):
        texts |= _variants(ENGINE.notation(action), rng)
    for verb, kind, seat in itertools.product(
        ("play", "give", "refuse", "accept"), ("B1", "g6", "R4"), range(6)
    ):
        texts |= {f"{verb} {kind}", f"{verb} {kind} seat{seat}"}
    for text in sorted(texts):
        assert _read(ENGINE.parse_notation, text) == _read(_old_parse, text), text


@pytest.mark.parametrize("action", [Play("B7"), Give("G1", 4), Refuse("X1")])
def test_what_the_old_reader_refused_is_refused(action):
    with pytest.raises(BadNotation):
        ENGINE.parse_notation(_old_notation(action))
