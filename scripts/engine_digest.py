"""A digest of seeded AI games per engine, to show that a change for speed changed nothing a caller sees
(issue #28): run it before and after, the lines must be equal.

    .venv/bin/python scripts/engine_digest.py [--games N] [GAME[:variant] ...]

Per game and variant, ``N`` games through :func:`engines.playout.play_ai_game` (the default AI against
``random``, and ``random`` alone; 2 seats and the most seats), hashing: the start events, every
action's notation and events, after every action every seat's view and the public one, the legal
actions of every seat to act (their notation), ``outcome``, ``hidden_tokens`` of each seat, a
dump/load round trip of the state, and the final dump. It also fails on a list inside a frozen state
(a working copy must freeze what it thawed). Afrikan Tähti has two variants: ``base``
(``expansion=false``) and ``expansion``. Prints ``game:variant sha256-prefix`` per line.

The seeds (``digest:…``) are of the old form: their generators are ``Random(str)``, as in every match
stored before issue #28, so these lines must never change. ``--keyed``: the same games with seeds of
the keyed form (``k:digest:…``, the chat's seeds since issue #28, :mod:`engines.keyed`): other
lines, to compare two checkouts that both have the keyed form.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import GAMES
from engines.codec import encode
from engines.contract import Engine, Event
from engines.keyed import KEYED_SEED
from engines.playout import play_ai_game

#: option sets per game (name -> options); games not listed play their defaults
VARIANTS: dict[str, dict[str, dict[str, Any]]] = {
    "afrikan_tahti": {"base": {"expansion": False}, "expansion": {"expansion": True}},
}


def _no_list(value: Any, depth: int = 0) -> None:
    if isinstance(value, list):
        raise AssertionError("a list in a frozen state")
    if isinstance(value, tuple):
        for v in value:
            _no_list(v, depth + 1)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type) and depth < 4:
        for f in dataclasses.fields(value):
            _no_list(getattr(value, f.name), depth + 1)


def _dumps(value: Any) -> bytes:
    return json.dumps(encode(value), sort_keys=True, default=str).encode()


def digest(engine: Engine, options: dict[str, Any], games: int, prefix: str = "") -> str:
    h = hashlib.sha256()
    opts = engine.options_from_dict(options)
    for players in sorted({engine.min_players, engine.max_players}):
        for ais in ((engine.default_ai, "random"), ("random",)):
            for g in range(games):
                seats = tuple(ais[(s + g) % len(ais)] for s in range(players))
                seed = f"{prefix}digest:{players}:{','.join(ais)}:{g}"
                first = engine.new_game(players, seed, opts)
                h.update(_dumps(list(engine.start_events(first))))

                def on_step(state: Any, seat: int, action: Any, events: tuple[Event, ...]) -> None:
                    _no_list(state)
                    h.update(f"{seat} {engine.notation(action)}".encode())
                    h.update(_dumps(list(events)))
                    h.update(_dumps(engine.outcome(state)))
                    if engine.outcome(state) is not None:
                        return
                    for s in (None, *range(engine.seat_count(state))):
                        h.update(_dumps(engine.view(state, s)))
                        h.update(" ".join(sorted(engine.hidden_tokens(state, s))).encode())
                    for s in engine.to_act(state):
                        h.update(
                            f"{s}: {' | '.join(engine.notation(a) for a in engine.legal_actions(state, s))}".encode()
                        )
                    if state.ply % 17 == 0:
                        assert engine.load(engine.dump(state)) == state, "dump/load changed the state"

                final, log = play_ai_game(engine, seats, seed, opts, on_step=on_step)
                h.update(_dumps(engine.dump(final)))
                h.update(str(len(log)).encode())
    return h.hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--keyed", action="store_true", help="seeds of the keyed form (k:digest:…)")
    parser.add_argument("only", nargs="*", help="game or game:variant (default: all)")
    args = parser.parse_args(argv)
    for game in sorted(GAMES):
        for variant, options in VARIANTS.get(game, {"default": {}}).items():
            name = f"{game}:{variant}"
            if args.only and game not in args.only and name not in args.only:
                continue
            prefix = KEYED_SEED if args.keyed else ""
            print(name, digest(GAMES[game], options, args.games, prefix), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
