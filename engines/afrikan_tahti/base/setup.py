"""Setup of the base game (spec §3.1-3.2): the tokens dealt face down, the start places (chosen in
seat order, or dealt), the roll-off for the starting player; with the test presets of ``new_game``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from engines.afrikan_tahti.base.rules import begin_turn
from engines.afrikan_tahti.board import BASE_TOKENS, STARTS, TREASURE_PLACES
from engines.afrikan_tahti.model import SETUP, TREASURE_INDEX, AfrikanWork, Options, Pawn, Presets, State
from engines.afrikan_tahti.retkikunnat.model import Ext
from engines.contract import Event, ev, rng_for

PRESETS = frozenset({"layout", "first_seat", "dice"})


def deal_tokens(seed: str, layout: Mapping[str, str]) -> tuple[str, ...]:
    """The kind on each treasure place: ``layout`` fixes some, the rest are shuffled."""
    pool = Counter(BASE_TOKENS)
    for place, kind in layout.items():
        if place not in TREASURE_INDEX:
            raise ValueError(f"not a treasure place: {place!r}")
        if pool[kind] <= 0:
            raise ValueError(f"no {kind!r} token left for {place!r}")
        pool[kind] -= 1
    rest = [k for k in BASE_TOKENS if pool[k] > 0 and _take(pool, k)]
    rng_for(seed, 0, "tokens").shuffle(rest)
    it = iter(rest)
    return tuple(layout[p] if p in layout else next(it) for p in TREASURE_PLACES)


def _take(pool: Counter[str], kind: str) -> bool:
    pool[kind] -= 1
    return True


def setup(players: int, seed: str, options: Options, presets: Presets) -> tuple[State, tuple[Event, ...]]:
    """A new game and its setup events."""
    unknown = set(presets.given()) - PRESETS
    if unknown:
        raise ValueError(f"presets not used by the base game: {sorted(unknown)}")
    layout = dict(presets.layout or {})
    first_seat = presets.first_seat
    kinds = deal_tokens(seed, layout)
    tids = tuple(f"t{i + 1}" for i in range(len(TREASURE_PLACES)))
    events: list[Event] = [ev("tokens_placed", places=TREASURE_PLACES, tokens=tids)]
    if options.start_place == "random":
        rng = rng_for(seed, 0, "start")
        pawns = tuple(Pawn(node=rng.choice(STARTS)) for _ in range(players))
        events.extend(ev("start_assigned", seat=s, place=p.node) for s, p in enumerate(pawns))
    else:
        pawns = tuple(Pawn(node=None) for _ in range(players))
    if first_seat is None:
        # §3.2 step 5: everyone rolls; the tied highest roll again. [decided] the roll-off involves
        # no choice, so the engine rolls for everyone at setup (public events, seeded generator)
        contenders = tuple(range(players))
        k = 0
        while True:
            k += 1
            rng = rng_for(seed, 0, f"rolloff{k}")
            rolls = tuple(rng.randint(1, 6) for _ in contenders)
            events.append(ev("rolloff", seats=contenders, rolls=rolls))
            top = max(rolls)
            contenders = tuple(s for s, r in zip(contenders, rolls) if r == top)
            if len(contenders) == 1:
                first = contenders[0]
                break
    else:
        if not 0 <= first_seat < players:
            raise ValueError("first_seat must be a seat")
        first = first_seat
    events.append(ev("first_player", seat=first))
    state = initial_state(
        seed,
        options,
        phase=SETUP,
        first=first,
        pawns=pawns,
        contents=tuple(zip(tids, kinds)),
        stacks=tuple((t,) for t in tids),
        dice=presets.dice,
        layout=layout,
        preset_first=first_seat,
    )
    if options.start_place == "random":
        w = AfrikanWork(state)
        w.round = 1
        w.turn = first
        begin_turn(w)
        state = w.freeze()
        events.extend(w.events)
    return state, tuple(events)


def initial_state(
    seed: str,
    options: Options,
    *,
    phase: str,
    first: int,
    pawns: tuple[Pawn, ...],
    contents: tuple[tuple[str, str], ...],
    stacks: tuple[tuple[str, ...], ...],
    dice: Sequence[int],
    layout: Mapping[str, str],
    preset_first: int | None,
    ext: Ext | None = None,
) -> State:
    """The state before the first move, shared by the base game and Retkikunnat: what differs is
    passed in (phase, pawns, the tokens and their stacks, the expansion's part), every per-turn field
    starts fresh."""
    return State(
        seed=seed,
        ply=0,
        players=len(pawns),
        options=options,
        phase=phase,
        turn=0,
        first_seat=first,
        round=0,
        pawns=pawns,
        contents=contents,
        stacks=stacks,
        revealed=(),
        star_found=False,
        capetown_claimed=None,
        move=None,
        flipped=False,
        last_roll=None,
        last_roller=None,
        winner=None,
        end_reason=None,
        dice=tuple(dice),
        preset_layout=tuple(sorted(layout.items())),
        preset_first=preset_first,
        ext=ext,
    )


def start_events(state: State) -> tuple[Event, ...]:
    """The setup events again (token ids only, the start places, the roll-off, the first turn)."""
    presets = Presets(layout=dict(state.preset_layout), first_seat=state.preset_first)
    return setup(state.players, state.seed, state.options, presets)[1]
