"""The ``smart`` AI in Retkikunnat games (called by :func:`engines.afrikan_tahti.ai.smart_policy` when
the view has an expansion part), and the spec's idle defaults for expansion prompts.

It heads for the nearest token it may flip (or home with a winning item), builds its expedition
(expedition tokens, Market day, a useful card from the Merchant's pile), flips when the expected value
beats the price (counting revealed tokens and its own peeks), sells cards it does not need when broke,
uses extra steps and Forced march to reach a token, duels only for a winning item, answers danger cards
with sensible rerolls, Bribe, Dynamite or Medical kit, and sabotages the moves of a Star holder.
"""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

from engines.afrikan_tahti.base import ai as base_ai
from engines.afrikan_tahti.board import (
    DIST,
    GEM_VALUES,
    GOALS,
    GOLD_COAST,
    HAZARDS,
    LAND,
    LEGS,
    SLAVE_COAST,
)
from engines.afrikan_tahti.model import (
    NOTATION,
    Accept,
    Board,
    BuyDiscard,
    Character,
    Choose,
    Decline,
    Discard,
    Duel,
    EndPhase,
    Exchange,
    Flip,
    FlipRoll,
    Move,
    Offer,
    Pass,
    Peek,
    Play,
    Reroll,
    RerollDone,
    RerollMove,
    Roll,
    Sell,
    Start,
    Stay,
    Use,
    View,
)
from engines.afrikan_tahti.retkikunnat.content import (
    ATTRS,
    DISCOVERY_MIX,
    DNG,
    EQUIPMENT_MIX,
    EXP,
    EXTRA_STEPS,
    card_id,
    card_type,
    char_effect,
    sale_value,
)
from engines.afrikan_tahti.retkikunnat.content import complete as complete_cards

_CARD_VALUE = 250  # an expedition card drawn, in pounds
_MISSING_VALUE = 350  # ... when it gives a symbol the expedition still lacks
_TURN = 150  # a lost turn
_STAR = 3000
_HORSESHOE = 1500
CHARACTER_ORDER = (
    "sea_captain",
    "archaeologist",
    "tycoon",
    "fortune_seeker",
    "doctor",
    "merchant",
    "adventurer",
    "explorer",
    "teacher",
    "aviator",
)
_BAD_EVENTS = frozenset({"toll", "pickpocket", "porters_desert", "gear_soaked", "fever"})
_STEP_CARDS = frozenset(EXTRA_STEPS) | {"orienteering"}
_HAND_KEEP = (
    "sabotage",
    "bribe",
    "gotcha",
    "forced_march",
    "surprise",
    "tailwind",
    "favour",
    "ulterior_motive",
)


# ---------------------------------------------------------------------------------------------
# What the AI knows from its view


def _me(view: View) -> int:
    return view.seat or 0


def symbols(cards: tuple[str, ...]) -> Counter[str]:
    out: Counter[str] = Counter()
    for inst in cards:
        for a, n in EXP[card_id(inst)]["symbols"].items():
            out[a] += int(n)
    return out


def missing(view: View, seat: int) -> Counter[str]:
    """Symbols still lacking for completeness (either-or cards count half for each side)."""
    cards = view.x.players[seat].cards
    have = symbols(cards)
    for inst in cards:
        pair = EXP[card_id(inst)]["either_or"]
        if pair:
            for a in pair:
                have[a] += 0.5  # type: ignore[assignment]
    t = view.x.threshold
    return Counter({a: max(0, t - have[a]) for a in ATTRS if have[a] < t})


def card_worth(view: View, seat: int, card: str) -> float:
    """What a card is worth to ``seat``'s expedition: its sale value, more if it fills a gap or
    keeps the expedition complete."""
    mine = view.x.players[seat]
    if mine.complete:
        inst = next((i for i in mine.cards if card_id(i) == card), None)
        rest = tuple(i for i in mine.cards if i != inst)
        keeps = inst is not None and not complete_cards(rest, view.x.threshold)
        return sale_value(card) + 100 + (600 if keeps else 0)
    gaps = missing(view, seat)
    c = EXP[card]
    fills = sum(1 for a in c["symbols"] if gaps[a] > 0) + (
        1 if c["either_or"] and any(gaps[a] for a in c["either_or"]) else 0
    )
    return sale_value(card) + 100 + _MISSING_VALUE * fills


def sale_income(view: View, seat: int, card: str) -> int:
    """What the bank pays ``seat`` for ``card`` sold: its sale value, and 100 more each for the
    Merchant and for Haggling (spec §5.9 step 4) when the card sells for money."""
    value = sale_value(card)
    if value > 0:
        mine = view.x.players[seat]
        value += 100 * (
            (char_effect(mine.character, "sell_income_bonus") is not None)
            + any(card_id(i) == "haggling" for i in mine.cards)
        )
    return value


def _hazard_in_reach(view: View, seat: int, card: str) -> bool:
    """Whether the extra steps of ``card`` could take the pawn onto a hazard dot. The pawn's path this
    turn (which the steps may not re-enter) is not in the view, so every dot within reach counts, in
    each direction: near a hazard the card is kept rather than risk a capture (the Camel's extra step
    from beside the bedouins could only go onto them). At sea the steps go on along the leg."""
    steps, terrain = EXTRA_STEPS.get(card, (1, "land"))  # Orienteering: one step on land
    mine = view.x.players[seat]
    if card_type(card) == "vehicle" and any(card_id(i) == "mechanic" for i in mine.cards):
        steps += 1
    pawn = view.pawns[seat]
    node = pawn.node
    if node is None:
        return False
    reach: set[str] = set()
    v = pawn.voyage
    if v is not None:  # at sea: on along the leg (a move from a port has other endings to choose)
        if terrain in ("sea", "any"):
            path = LEGS[(v.origin, v.dest)].path
            reach.update(path[v.at + 1 : v.at + 1 + steps])
    elif terrain in ("land", "any"):
        ring = {node}
        for _ in range(steps):
            ring = {n for r in ring for n in LAND.get(r, ())}
            reach |= ring
    return any(n in HAZARDS for n in reach)


class _Facts:
    """What the AI derives once per view: top tokens, known ones, the tokens left per layer."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.tops: dict[str, str] = {}
        for place, tid in view.face_down:
            self.tops[place] = tid
        self.equip = sum(1 for t in self.tops.values() if t.startswith("e"))
        self.known = {p: cid.rsplit(":", 1)[1] for p, cid in (*view.x.known, *view.x.peeks)}
        self.left = {"e": Counter(EQUIPMENT_MIX), "d": Counter(DISCOVERY_MIX)}
        for _p, cid in (*view.revealed, *view.x.known):
            tid, kind = cid.split(":")[1:]
            self.left[tid[0]][kind] -= 1
        self.left = {k: +v for k, v in self.left.items()}
        self.disc_left = max(1, sum(self.left["d"].values()))
        self.values: dict[tuple[int, str, int], float] = {}
        self.flippable: dict[int, set[str]] = {}  # by seat (shared: callers only read it)


_LAST: list[_Facts] = []


def _facts(view: View) -> _Facts:
    if _LAST and _LAST[0].view is view:
        return _LAST[0]
    f = _Facts(view)
    _LAST[:] = [f]
    return f


def _top_tokens(view: View) -> dict[str, str]:
    return _facts(view).tops


def flippable(view: View, seat: int) -> set[str]:
    """The places whose top token ``seat`` may flip (kept per view: the caller must not change it)."""
    f = _facts(view)
    found = f.flippable.get(seat)
    if found is None:
        complete = view.x.players[seat].complete
        found = f.flippable[seat] = {
            p for p, t in f.tops.items() if t.startswith("e") or complete or not f.equip
        }
    return found


def _known_kind(view: View, place: str) -> str | None:
    return _facts(view).known.get(place)


def token_value(view: View, seat: int, place: str, price: int) -> float:
    """Expected gain in pounds of flipping the top token of ``place`` for ``price``."""
    f = _facts(view)
    key = (seat, place, price)
    if key not in f.values:
        f.values[key] = _token_value(view, f, seat, place, price)
    return f.values[key]


def _token_value(view: View, f: _Facts, seat: int, place: str, price: int) -> float:
    me = view.pawns[seat]
    top = f.tops.get(place)
    if top is None:
        return -1.0
    known = f.known.get(place)
    left = Counter({known: 1}) if known is not None else f.left[top[0]]
    total = sum(left.values())
    if not total:
        return -1.0
    holding = bool(me.items)
    bonus = 0.0
    if top.startswith("e") and not holding:
        # flipping it opens the discovery token below; the last ones open every discovery token
        bonus = 0.5 * _STAR / f.disc_left
        if not view.x.players[seat].complete and f.equip <= 3:
            bonus += 600 / f.equip
    cash_after = me.cash - price
    gain = 0.0
    for kind, n in left.items():
        if kind in GEM_VALUES:
            v = float(view.options.emerald_value if kind == "emerald" else GEM_VALUES[kind]) * (
                2 if place == GOLD_COAST else 1
            )
        elif kind == "star":
            v = 0.0 if holding else _STAR
        elif kind == "horseshoe":
            v = _HORSESHOE if view.star_found and not holding else 0.0
        elif kind == "robber":  # cash beyond what flips and fares need is worth less
            v = -float(min(cash_after, 500)) - (3 * _TURN if place == SLAVE_COAST else 0)
        elif kind == "expedition":
            v = _MISSING_VALUE if not view.x.players[seat].complete else _CARD_VALUE
        elif kind == "danger":
            v = -150.0 - (3 * _TURN if place == SLAVE_COAST else 0)
        else:
            v = 0.0
        gain += n * v
    return gain / total - price + bonus


def flip_price(view: View, seat: int, place: str) -> tuple[int, float] | None:
    """(price, roll chance when broke) of flipping the top token of ``place``, None if not allowed."""
    top = _top_tokens(view).get(place)
    if top is None or place not in flippable(view, seat):
        return None
    if top.startswith("e") or view.x.players[seat].complete:
        return 100, 0.5
    mine = view.x.players[seat]
    shovel = any(card_id(i) == "shovel" and i not in mine.used and i not in mine.held for i in mine.cards)
    return (100 if shovel else 200), 1 / 3


def flip_gain(view: View, seat: int, place: str) -> float:
    """Expected gain of flipping at ``place``: pay if the cash allows, else roll for it."""
    terms = flip_price(view, seat, place)
    if terms is None:
        return -1.0
    price, chance = terms
    if view.pawns[seat].cash >= price:
        return token_value(view, seat, place, price)
    return chance * token_value(view, seat, place, 0) - 50


def _chase(view: View, seat: int) -> str | None:
    """The node of another player holding a winning item, worth a duel when near."""
    me = view.pawns[seat]
    if me.items or me.node is None:
        return None
    for s, p in enumerate(view.pawns):
        if s != seat and p.items and p.node in DIST and DIST[p.node].get(me.node, 99) <= 14:
            return p.node
    return None


def targets(view: View, seat: int) -> tuple[str, ...]:
    """Where to go: home with a winning item; a near holder of one (to duel); the tokens worth
    flipping; else any token."""
    me = view.pawns[seat]
    if me.items:
        return tuple(sorted(GOALS))
    chase = _chase(view, seat)
    if chase is not None:
        return (chase,)
    return _token_targets(view, seat)[0] or tuple(sorted(GOALS))


def _token_targets(view: View, seat: int) -> tuple[tuple[str, ...], bool]:
    """The places worth flipping; when there are none, the least bad ones (True): flipping them is
    the only way the game goes on (the last equipment tokens open the discovery layer)."""
    gains = {p: flip_gain(view, seat, p) for p in flippable(view, seat)}
    places = [p for p, g in gains.items() if g > 0]
    if places or not gains:
        return tuple(sorted(places)), False
    best = max(gains.values())
    return tuple(sorted(p for p, g in gains.items() if g == best)), True


def worth_flipping(view: View, seat: int, place: str) -> bool:
    if flip_gain(view, seat, place) > 0:
        return True
    places, forced = _token_targets(view, seat)
    return forced and place in places and flip_gain(view, seat, place) > -700


# ---------------------------------------------------------------------------------------------
# The policy


def smart(view: View, legal: tuple[Any, ...], rng: Random) -> Any:
    seat = _me(view)
    prompt = view.x.prompt
    if prompt is not None:
        return _answer(view, legal, rng, seat, prompt.kind)
    phase = view.phase
    if phase == "character":
        return min((a for a in legal if isinstance(a, Character)), key=lambda a: CHARACTER_ORDER.index(a.id))
    if phase == "setup":
        face_down = tuple(p for p, _t in view.face_down)
        return min(
            (a for a in legal if isinstance(a, Start)),
            key=lambda a: (sum(DIST[p].get(a.place, 99) for p in face_down), a.place),
        )
    if phase == "release":
        return legal[0]
    node = view.pawns[seat].node
    assert node is not None
    tg = targets(view, seat)
    if phase == "declare":
        return _declare(view, legal, seat, node, tg)
    if phase == "move":
        if RerollMove() in legal and view.move is not None and view.move.steps <= 2:
            return RerollMove()
        moves = tuple(a for a in legal if isinstance(a, Move | Board))
        voyage = view.pawns[seat].voyage
        if voyage is not None:  # sailing on: as far as the leg allows
            path = LEGS[(voyage.origin, voyage.dest)].path
            return max(moves, key=lambda a: path.index(a.to) if a.to in path else -1)
        return base_ai._move(view, moves, node, tg, rng)
    if phase == "phase2":
        return _phase2(view, legal, seat, node, tg)
    if phase == "phase3":
        return _phase3(view, legal, seat, node)
    return legal[0]


def _declare(view: View, legal: tuple[Any, ...], seat: int, node: str, tg: tuple[str, ...]) -> Any:
    if Use("tinned_food") in legal:
        return Use("tinned_food")
    base_legal = tuple(a for a in legal if type(a).__name__ in ("Roll", "Board", "FreeSail", "Fly", "Stay"))
    me = view.pawns[seat]
    if (
        node in tg
        and Stay() in legal
        and (
            (not me.items and worth_flipping(view, seat, node))
            or any(s != seat and p.node == node and p.items for s, p in enumerate(view.pawns))
        )
    ):
        return Stay()  # already on a token (or beside a Star holder): stay put for Phase 3
    return base_ai._declare(view, base_legal, node, tg)


def _phase2(view: View, legal: tuple[Any, ...], seat: int, node: str, tg: tuple[str, ...]) -> Any:
    me = view.pawns[seat]
    mex = view.x.players[seat]
    if Use("tinned_food") in legal:
        return Use("tinned_food")
    if Peek() in legal and _known_kind(view, node) is None:
        return Peek()
    if node not in tg or me.items:
        for a in legal:
            if (
                isinstance(a, Use)
                and a.arg is None
                and a.card in _STEP_CARDS
                and not _hazard_in_reach(view, seat, a.card)
            ):
                return a
        for a in legal:
            if isinstance(a, Play) and a.card in ("forced_march", "tailwind"):
                return a
    if not mex.complete:
        for card in ("barter_goods", "trade_goods"):
            # discarded for a draw only when the card drawn is worth more than this one sold (the
            # Merchant gets 400 for its Trade goods; a card it lacks is worth about 350)
            if Use(card) in legal and me.cash >= 100 and sale_income(view, seat, card) < _MISSING_VALUE:
                return Use(card)
        if BuyDiscard() in legal and me.cash >= 400:
            top = view.x.discards[0][1][-1] if view.x.discards[0][1] else None
            if top and card_worth(view, seat, card_id(top)) > 300:
                return BuyDiscard()
    # broke: sell what the expedition needs least
    if me.cash < 100:
        sells = [a for a in legal if isinstance(a, Sell)]
        if sells:
            return min(sells, key=lambda a: (card_worth(view, seat, a.card) - sale_value(a.card), a.card))
    return EndPhase()


def _phase3(view: View, legal: tuple[Any, ...], seat: int, node: str) -> Any:
    me = view.pawns[seat]
    if not me.items:
        for item in ("star", "horseshoe"):
            duel = next((a for a in legal if isinstance(a, Duel) and a.target == item), None)
            if duel is not None:
                return duel
    if Peek() in legal and _known_kind(view, node) is None:
        return Peek()
    if not me.items and worth_flipping(view, seat, node):
        if Flip() in legal:
            return Flip()
        if FlipRoll() in legal:
            return FlipRoll()
    offer = _buy_offer(view, legal, seat)
    if offer is not None:
        return offer
    return EndPhase()


def _buy_offer(view: View, legal: tuple[Any, ...], seat: int) -> Any:
    """An incomplete expedition buys a card it lacks from a player on the same node."""
    if view.x.players[seat].complete or view.pawns[seat].cash < 400:
        return None
    offers = [
        a
        for a in legal
        if isinstance(a, Offer)
        and len(a.give) == 1
        and a.give[0].isdigit()
        and len(a.get) == 1
        and not a.get[0].isdigit()
    ]
    useful = [a for a in offers if card_worth(view, seat, a.get[0]) - sale_value(a.get[0]) >= _MISSING_VALUE]
    return max(
        useful, key=lambda a: (card_worth(view, seat, a.get[0]) - int(a.give[0]), a.get[0]), default=None
    )


# ---------------------------------------------------------------------------------------------
# Prompts


def _answer(view: View, legal: tuple[Any, ...], rng: Random, seat: int, kind: str) -> Any:
    p = view.x.prompt
    assert p is not None
    if kind == "window":
        return _window(view, legal, seat)
    if kind == "danger":
        return _danger(view, legal, seat)
    if kind == "duel":
        return _duel(view, legal, seat)
    if kind == "offer":
        return _offer(view, seat)
    if kind == "market_day":
        return Accept() if not view.x.players[seat].complete and view.pawns[seat].cash >= 400 else Decline()
    if kind == "exchange":
        if p.what == "robber":
            return Exchange() if view.pawns[seat].cash >= 300 else Decline()
        card = card_id(p.card or "")
        return Exchange() if card in _BAD_EVENTS else Decline()
    if kind == "lost_turn":
        return Use("tinned_food") if Use("tinned_food") in legal else Pass()
    if kind == "reveal":
        return _reveal(view, legal, seat)
    if kind == "hand_discard":
        return max(
            (a for a in legal if isinstance(a, Discard)),
            key=lambda a: (_HAND_KEEP.index(a.card) if a.card in _HAND_KEEP else 99, a.card),
        )
    if kind == "limit_discard":
        return min(
            (a for a in legal if isinstance(a, Discard)),
            key=lambda a: (card_worth(view, seat, a.card) - sale_value(a.card), a.card),
        )
    if kind == "choose":
        return _choose(view, legal, seat, p.what or "")
    return legal[0]


def _window(view: View, legal: tuple[Any, ...], seat: int) -> Any:
    p = view.x.prompt
    assert p is not None
    plays = [a for a in legal if isinstance(a, Play)]
    if not plays or p.owner is None:
        return Pass()
    owner = p.owner
    star_holder = view.star_holder
    if p.what == "sabotage":
        duel = view.x.duel
        against_me = duel is not None and seat in (duel.attacker, duel.defender)
        if against_me or (star_holder == owner and owner != seat):
            return plays[0]
    elif p.what == "gotcha":
        # cancel a Sabotage aimed at one of my cards, or a move of the Star holder
        card = card_id(p.card or "")
        mine = set(view.x.players[seat].cards)
        if (card == "sabotage" and p.target in mine) or (star_holder == owner and owner != seat):
            return plays[0]
    elif p.what == "rescue":
        duel_target = p.target or ""
        if duel_target in ("star", "horseshoe"):
            return plays[0]
    return Pass()


def _danger(view: View, legal: tuple[Any, ...], seat: int) -> Any:
    d = view.x.danger
    assert d is not None
    severe = _severity(view, seat, d.card)
    if d.stage == "drawn":
        if Play("bribe") in legal and severe >= 150 and view.pawns[seat].cash >= 200:
            return Play("bribe")
        return Roll()
    if d.stage == "failed":
        if Use("medical_kit") in legal and severe >= 150:
            return Use("medical_kit")
        if Use("survival") in legal and severe >= 250 and view.pawns[seat].cash >= 500:
            return Use("survival")
        return Pass()
    need = Counter(dict(d.requires))
    spare = []  # dice that no requirement needs (beyond the count required)
    for i, f in enumerate(d.dice):
        if need[f] > 0:
            need[f] -= 1
        else:
            spare.append(i + 1)
    best = _best_reroll(legal, spare)
    if best is not None:
        return best
    if Use("dynamite") in legal and severe >= 150:
        return Use("dynamite")
    return RerollDone()


def _best_reroll(legal: tuple[Any, ...], spare: list[int]) -> Any:
    rerolls = [a for a in legal if isinstance(a, Reroll) and set(a.dice) <= set(spare)]
    if not rerolls:
        return None
    return max(rerolls, key=lambda a: (len(a.dice), a.card == "doctor", a.card, a.dice))


def _severity(view: View, seat: int, inst: str) -> float:
    cost = 0.0
    for e in DNG[card_id(inst)]["penalty"]:
        name = e["effect"]
        if name == "lose_turns":
            cost += _TURN * int(e["turns"])
        elif name in ("lose_money", "pay_money"):
            cost += min(int(e["amount"]), view.pawns[seat].cash)
        elif name == "lose_money_half":
            cost += view.pawns[seat].cash // 2
        elif name == "lose_card":
            cards = view.x.players[seat].cards
            pool = [c for c in cards if e["card_type"] in (card_type(card_id(c)), "not_skill")]
            cost += max((card_worth(view, seat, card_id(c)) for c in pool), default=0) / 2
    return cost


def _duel(view: View, legal: tuple[Any, ...], seat: int) -> Any:
    d = view.x.duel
    assert d is not None
    if Roll() in legal:
        return Roll()
    if d.stage == "defender_reroll":
        counts = Counter(f for f in d.defender_dice if f != "blank")
        face = max(counts, key=lambda f: counts[f]) if counts else None
        spare = [i + 1 for i, f in enumerate(d.defender_dice) if f != face]
    else:
        spare = [i + 1 for i, f in enumerate(d.attacker_dice) if f != d.face]
    best = _best_reroll(legal, spare)
    return best if best is not None else RerollDone()


def _offer(view: View, seat: int) -> Any:
    o = view.x.offer
    assert o is not None

    def worth(items: tuple[str, ...], owner: int) -> float:
        return sum(int(i) if i.isdigit() else card_worth(view, owner, i) for i in items)

    gain = worth(o.give, seat)
    loss = worth(o.get, seat)
    return Accept() if gain >= loss + 100 else Decline()


def _reveal(view: View, legal: tuple[Any, ...], seat: int) -> Any:
    plays = [a for a in legal if isinstance(a, Play)]
    if not plays:
        return Pass()
    kind = view.revealed[-1][1].rsplit(":", 1)[1] if view.revealed else ""
    if kind not in ("robber", "danger"):
        return Pass()
    good: list[Play | Pass] = [
        a
        for a in plays
        if _known_kind(view, a.arg or "") in ("star", "ruby", "emerald", "topaz", "expedition")
    ]
    unknown: list[Play | Pass] = [a for a in plays if _known_kind(view, a.arg or "") is None]
    return (good or unknown or [Pass()])[0]


def _choose(view: View, legal: tuple[Any, ...], seat: int, what: str) -> Any:
    options = [a for a in legal if isinstance(a, Choose)]
    me = view.pawns[seat]
    node = me.node or ""
    tg = targets(view, seat)

    def dist(place: str) -> int:
        return base_ai._dist(place, tg)

    if what in ("shortcut", "good_guide"):
        best = min(options, key=lambda a: (dist(a.option), a.option))
        return best if dist(best.option) < dist(node) else Decline()
    if what == "black_magic":
        return min(
            options,
            key=lambda a: (
                dist(view.pawns[int(a.option[4:])].node or "")
                if view.pawns[int(a.option[4:])].node in DIST.get(tg[0], {})
                else 99,
                a.option,
            ),
        )
    if what == "old_map":
        return min(options, key=lambda a: (DIST[a.option].get(node, 99), a.option))
    if what in ("devil_in_the_night", "trade_goods", "barter_goods"):
        worth = {a.option: card_worth(view, seat, a.option) for a in options}
        pick = min if what == "devil_in_the_night" else max
        return pick(options, key=lambda a: (worth[a.option], a.option))
    return options[0] if options else legal[0]


# ---------------------------------------------------------------------------------------------
# Idle defaults (spec §7)


def idle(view: View, legal: tuple[Any, ...]) -> Any:
    p = view.x.prompt
    if p is not None:
        for a in (Pass(), RerollDone(), Decline()):
            if a in legal:
                return a
        if p.kind in ("danger", "duel") and Roll() in legal:
            return Roll()
        if p.kind == "limit_discard":
            newest = view.x.players[view.seat or 0].cards[-1]
            return Discard(card_id(newest))
        if p.kind == "hand_discard" and view.x.hand:
            return Discard(card_id(view.x.hand[-1]))
        return min(legal, key=_id_order)
    if view.phase in ("phase2", "phase3") and EndPhase() in legal:
        return EndPhase()
    if view.phase == "character":
        return min(legal, key=_id_order)
    return None


def _id_order(a: Any) -> str:
    return NOTATION.write(a)
