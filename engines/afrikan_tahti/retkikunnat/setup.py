"""Retkikunnat setup (spec §3.1, §3.3, §3.4) with the test presets of ``new_game``: both token layers,
characters chosen in seat order or dealt, their starting cards, the three decks, 300 each (400 and two
expedition cards each in the quick game), a random starting player."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from engines.afrikan_tahti.base.setup import initial_state
from engines.afrikan_tahti.board import STARTS, TREASURE_PLACES
from engines.afrikan_tahti.model import (
    QUICK_START_CASH,
    START_CASH,
    TREASURE_INDEX,
    AfrikanWork,
    Options,
    Pawn,
    Presets,
    State,
)
from engines.afrikan_tahti.retkikunnat import turn
from engines.afrikan_tahti.retkikunnat.content import (
    CHARACTERS,
    DANGER_CARDS,
    DISCOVERY_TOKENS,
    EQUIPMENT_TOKENS,
    EVENT_CARDS,
    EXPEDITION_CARDS,
    card_id,
)
from engines.afrikan_tahti.retkikunnat.model import CHARACTER, Deck, Ext, SeatX
from engines.contract import Event, ev, rng_for


def deal(seed: str, purpose: str, pool: tuple[str, ...], layout: Mapping[str, str]) -> tuple[str, ...]:
    left = Counter(pool)
    for place, kind in layout.items():
        if place not in TREASURE_INDEX:
            raise ValueError(f"not a treasure place: {place!r}")
        if left[kind] <= 0:
            raise ValueError(f"no {kind!r} token left for {place!r}")
        left[kind] -= 1
    rest = [k for k, n in sorted(left.items()) for _ in range(n)]
    rng_for(seed, 0, purpose).shuffle(rest)
    it = iter(rest)
    return tuple(layout[p] if p in layout else next(it) for p in TREASURE_PLACES)


def preset_deck(seed: str, name: str, cards: tuple[str, ...], top: Sequence[str]) -> Deck:
    """A shuffled deck; the cards in ``top`` (ids or instances) come first, in that order (tests)."""
    pool = list(cards)
    chosen: list[str] = []
    for c in top:
        inst = c if c in pool else next((i for i in pool if card_id(i) == c), None)
        if inst is None:
            raise ValueError(f"no {c!r} left for the {name} deck")
        pool.remove(inst)
        chosen.append(inst)
    rng_for(seed, 0, f"deck_{name}").shuffle(pool)
    return Deck(name, (*chosen, *pool), ())


def setup(players: int, seed: str, options: Options, presets: Presets) -> tuple[State, tuple[Event, ...]]:
    """A new game and its setup events."""
    quick = options.quick_game
    layout = dict(presets.layout or {})
    lower = dict(presets.lower or {})
    if quick and lower:
        raise ValueError("the quick game has one layer: use layout")
    disc = deal(seed, "tokens_d", DISCOVERY_TOKENS, layout if quick else lower)
    contents = [(f"d{i + 1}", k) for i, k in enumerate(disc)]
    if quick:
        stacks: tuple[tuple[str, ...], ...] = tuple((f"d{i + 1}",) for i in range(30))
    else:
        equip = deal(seed, "tokens_e", EQUIPMENT_TOKENS, layout)
        contents += [(f"e{i + 1}", k) for i, k in enumerate(equip)]
        stacks = tuple((f"d{i + 1}", f"e{i + 1}") for i in range(30))
    decks = dict(presets.decks or {})
    if set(decks) - {"expedition", "event", "danger"}:
        raise ValueError("decks are expedition, event and danger")
    exp = preset_deck(seed, "expedition", EXPEDITION_CARDS, decks.get("expedition", ()))
    evt = preset_deck(seed, "event", EVENT_CARDS, decks.get("event", ()))
    dng = preset_deck(seed, "danger", DANGER_CARDS, decks.get("danger", ()))
    chars: list[str | None] = list(presets.characters)
    if chars and len(chars) != players:
        raise ValueError("characters: one per seat")
    if not chars and options.character_assignment == "random":
        chars = list(rng_for(seed, 0, "characters").sample(CHARACTERS, players))
    if any(c is not None and c not in CHARACTERS for c in chars) or len({c for c in chars if c}) != len(
        [c for c in chars if c]
    ):
        raise ValueError("characters must be distinct character ids")
    events: list[Event] = [
        ev(
            "tokens_placed",
            places=TREASURE_PLACES,
            tokens=tuple(s[-1] for s in stacks),
            lower=tuple(s[0] for s in stacks) if not quick else (),
        )
    ]
    cash = QUICK_START_CASH if quick else START_CASH
    if options.start_place == "random":
        rng = rng_for(seed, 0, "start")
        pawns = tuple(Pawn(node=rng.choice(STARTS), cash=cash) for _ in range(players))
        events.extend(ev("start_assigned", seat=s, place=p.node) for s, p in enumerate(pawns))
    else:
        pawns = tuple(Pawn(node=None, cash=cash) for _ in range(players))
    first = presets.first_seat
    if first is None:
        first = rng_for(seed, 0, "first").randrange(players)  # §3.3 step 9
    elif not 0 <= first < players:
        raise ValueError("first_seat must be a seat")
    ext = Ext(
        seats=tuple(SeatX() for _ in range(players)),
        expedition=exp,
        event=evt,
        danger=dng,
        ddice=tuple(presets.danger_dice),
        presets=presets.stored(),
    )
    state = initial_state(
        seed,
        options,
        phase=CHARACTER,
        first=first,
        pawns=pawns,
        contents=tuple(contents),
        stacks=stacks,
        dice=presets.dice,
        layout=layout,
        preset_first=presets.first_seat,
        ext=ext,
    )
    w = AfrikanWork(state)
    for s, c in enumerate(chars):
        if c is not None:
            turn.choose_character(w, s, c)
    events.append(ev("first_player", seat=first))
    turn.next_setup_step(w)
    turn.settle(w)
    state = w.freeze()
    events.extend(w.events)
    return state, tuple(events)


def start_events(state: State) -> tuple[Event, ...]:
    """The setup events again (token ids only, characters, start places, the first turn)."""
    assert state.ext is not None
    return setup(state.players, state.seed, state.options, Presets.from_stored(state.ext.presets))[1]
