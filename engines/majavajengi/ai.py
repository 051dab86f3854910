"""The Majavajengi AI levels (spec §7.5). Every policy sees only its seat's view: its row of the
knowledge matrix, the discard pile (every card on it was shown to the table), and the public record of
who knows which card (``aware``: the initial looks, placed, taken and peeked cards, moved by swaps).

- ``easy`` plays like a casual player: it forgets cards it saw now and then, hopes unseen cards are
  better than they are, swaps at random and knocks as soon as its own cards look low, without a
  thought for the others.
- ``normal`` plays soundly: it counts the cards it has seen (its layout, the discards, what it knows
  of others), so an unseen card is worth the average of what is left, not of the deck. It knocks only
  when it is likely the lowest once everyone has had the last lap (estimated over sampled layouts),
  and never on a first look with two own cards unseen.
- ``strong`` also reads what the others did: a card its owner knows and kept is presumed low, a card
  swapped in by a seat that knew it is presumed high (its own included). Its swaps aim at the kept
  cards, and its knock is searched over worlds sampled that way: the last lap is played in each, and
  late in a round knocking now is compared with one more lap.

``smart`` (the chat's default since the first version) names ``normal``. The first AI lives in
:mod:`.classic` for the benchmark.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from math import exp
from random import Random
from typing import Any

from engines.contract import AIPolicy, random_policy
from engines.majavajengi.model import (
    COPIES,
    DRAW2_NEXT,
    HOLDING,
    NUMBER_KINDS,
    POSITIONS,
    START,
    TURN_END,
    VALUE,
    Discard,
    Draw,
    Draw2,
    End,
    Knock,
    MajavajengiSeatView,
    Next,
    Peek,
    Replace,
    Swap,
    Take,
)

_VALUES = tuple(range(10))
#: how much a kept card (its owner knows it and had a turn to replace it) leans to low values, and a
#: card handed over by a swap by a seat that knew it leans to high values: weights exp(-/+ TILT * value)
TILT = 0.25
#: a kept card leans lower the more turns its owner had to replace it: TILT x turns x KEPT_STEP, up
#: to KEPT_TURNS turns
KEPT_STEP = 1.0
KEPT_TURNS = 1
#: worlds sampled per knock decision
KNOCK_WORLDS = 120
#: the chance of being the lowest after the last lap that makes ``normal`` knock, by seats
_KNOCK_CONFIDENCE = {2: 0.7, 3: 0.6}
_KNOCK_CONFIDENCE_MANY = 0.55
#: how much a swap must gain (in points, weighted by how much the target is worth hurting)
_SWAP_NEED = 1.0


# ---------------------------------------------------------------------------------------------
# What a seat believes of every card


@dataclass(slots=True)
class Belief:
    """A seat's beliefs: ``cards[s][p]`` is a known value or a distribution name, ``mean`` its value."""

    me: int
    n: int
    dists: dict[str, tuple[float, ...]]  # "plain" / "kept1"... / "dumped": probabilities of 0-9
    cum: dict[str, list[float]]
    cards: list[list[int | str]]
    mean: list[list[float]]
    knows_own: list[list[bool]]  # [seat][pos]: the owner knows the card (public)
    special: dict[str, float]  # chance that the next drawn card is this special
    unseen_mean: float


def _tilted(base: list[float], slope: float) -> tuple[float, ...]:
    w = [b * exp(slope * v) for v, b in zip(_VALUES, base)]
    total = sum(w) or 1.0
    return tuple(x / total for x in w)


def _own_turns(view: MajavajengiSeatView, seat: int) -> int:
    """Turns seat ``seat`` has taken this round (turns go round from the start seat)."""
    d = (seat - view.start_seat) % view.players
    return max(0, (view.turns_taken - d + view.players - 1) // view.players)


#: every kind's copies in the deck, as the floats a belief counts down from
_COUNTS: dict[str, float] = {kind: float(c) for kind, c in COPIES.items()}


def belief(view: MajavajengiSeatView, *, tilt: bool = True) -> Belief:
    """Count every card the seat has seen; an unseen number is drawn from what is left.

    With ``tilt``, a card of an opponent that the opponent knows and has had a turn to replace is
    presumed lower, and an own card that another seat knew when it was swapped in is presumed higher.
    """
    me, n = view.seat, view.players
    counts = dict(_COUNTS)
    seen: list[str] = [k for row in view.known for k in row if k is not None] + list(view.discards)
    if view.held is not None:
        seen.append(view.held)
    for k in seen:
        if counts.get(k, 0) > 0:
            counts[k] -= 1
    numbers = [max(counts[k], 0.01) for k in NUMBER_KINDS]
    total_numbers = sum(numbers)
    plain = [c / total_numbers for c in numbers]
    dists = {"plain": tuple(plain)}
    if tilt:
        for t in range(1, KEPT_TURNS + 1):
            dists[f"kept{t}"] = _tilted(plain, -TILT * t * KEPT_STEP)
        dists["dumped"] = _tilted(plain, TILT)
    cum: dict[str, list[float]] = {}
    for name, d in dists.items():
        acc, out = 0.0, []
        for x in d:
            acc += x
            out.append(acc)
        cum[name] = out
    means = {name: sum([v * x for v, x in zip(_VALUES, d)]) for name, d in dists.items()}
    aware = view.aware or _aware_unknown(view)
    cards: list[list[int | str]] = []
    mean: list[list[float]] = []
    knows_own = [list(aware[s][s]) for s in range(n)]
    for s in range(n):
        if not tilt:  # the rows below with tilt off: a known number is its value, anything else "plain"
            row_of: list[int | str] = [
                VALUE.get(kind, "plain") if kind is not None else "plain" for kind in view.known[s]
            ]
            cards.append(row_of)
            mean.append([float(c) if isinstance(c, int) else means[c] for c in row_of])
            continue
        row: list[int | str] = []
        for p in range(POSITIONS):
            kind = view.known[s][p]
            if kind is not None and kind in VALUE:
                row.append(VALUE[kind])
            elif kind is not None or not tilt:
                row.append("plain")  # a known special is replaced by a drawn number at the end
            elif s == me:
                others_knew = any(aware[o][s][p] for o in range(n) if o != me)
                row.append("dumped" if others_knew else "plain")
            elif knows_own[s][p] and _own_turns(view, s) >= 1:
                row.append(f"kept{min(_own_turns(view, s), KEPT_TURNS)}")
            elif any(aware[o][s][p] for o in range(n) if o not in (me, s)):
                row.append("dumped")
            else:
                row.append("plain")
        cards.append(row)
        mean.append([float(c) if isinstance(c, int) else means[c] for c in row])
    unseen = sum(counts.values()) or 1.0
    special = {kind: max(counts[kind], 0.0) / unseen for kind in ("SWAP", "PEEK", "DRAW2")}
    return Belief(me, n, dists, cum, cards, mean, knows_own, special, means["plain"])


def _aware_unknown(view: MajavajengiSeatView) -> tuple[tuple[tuple[bool, ...], ...], ...]:
    """Without the public record (a view built by hand): the seat's own knowledge, nobody else's."""
    mine = tuple(tuple(k is not None for k in row) for row in view.known)
    blank = ((False,) * POSITIONS,) * view.players
    return tuple(mine if o == view.seat else blank for o in range(view.players))


# ---------------------------------------------------------------------------------------------
# A quick model of a round on values only, for sampled worlds


def _draw(rng: Random, cum: list[float]) -> int:
    """A value drawn by the cumulative weights ``cum``: ``rng.choices(_VALUES, cum_weights=cum)[0]``
    written out (the same computation on the same random number; a sampled world draws many)."""
    return bisect_right(cum, rng.random() * (cum[-1] + 0.0), 0, 9)  # _VALUES[i] is i


#: what a sampled world is made from: per seat the known values (0 where unknown) and the unknown
#: positions with the cumulative weights to draw them by; the seat's own knowledge row
Plan = tuple[list[tuple[list[int], list[tuple[int, list[float]]]]], list[bool]]


def _plan(b: Belief) -> Plan:
    rows = []
    for row_of in b.cards:
        template = [c if isinstance(c, int) else 0 for c in row_of]
        draws = [(p, b.cum[c]) for p, c in enumerate(row_of) if not isinstance(c, int)]
        rows.append((template, draws))
    return rows, [isinstance(c, int) for c in b.cards[b.me]]


def _sample(b: Belief, rng: Random, plan: Plan | None = None) -> tuple[list[list[int]], list[list[bool]]]:
    """A world: every unknown card drawn from its distribution, seat by seat, position by position
    (``plan``: :func:`_plan` of ``b``, worked out once for many worlds)."""
    rows, mine = plan or _plan(b)
    draw = rng.random
    values: list[list[int]] = []
    for template, draws in rows:
        row = template[:]
        for p, cum in draws:  # _draw(rng, cum), written in: a world draws a dozen of them
            row[p] = bisect_right(cum, draw() * (cum[-1] + 0.0), 0, 9)
        values.append(row)
    knows = [list(r) for r in b.knows_own]
    knows[b.me] = mine[:]
    return values, knows


def _believed(values: list[int], knows: list[bool], mean: float) -> list[float]:
    return [float(v) if k else mean for v, k in zip(values, knows)]


def _place(values: list[int], knows: list[bool], card: int, mean: float) -> bool:
    """A sound player's use of a drawn number: over its worst believed card when that is better."""
    # the first position with the greatest (believed value, unknown): max() over the positions with
    # that key, written out (a sampled world places a dozen cards)
    i, worst, unknown = -1, 0.0, False
    for p in range(POSITIONS):
        k = knows[p]
        v = float(values[p]) if k else mean
        if i < 0 or v > worst or (v == worst and not k and not unknown):
            i, worst, unknown = p, v, not k
    if card < worst - 0.5:
        values[i], knows[i] = card, True
        return True
    return False


def _sim_turn(
    b: Belief, values: list[list[int]], knows: list[list[bool]], s: int, target: int | None, rng: Random
) -> None:
    """One turn of seat ``s`` in a sampled world: a drawn card used as a sound player would.

    A Swap hands the seat's worst known card (6 or more) to ``target`` (the knocker, who cannot react),
    or to a random other seat, for a card it does not know."""
    mean = b.unseen_mean
    r = rng.random()
    sp = b.special
    if r < sp["SWAP"]:
        believed = _believed(values[s], knows[s], mean)
        i = max(range(POSITIONS), key=lambda p: believed[p])
        if believed[i] >= 6.0:
            t = (
                target
                if target is not None and target != s
                else rng.choice([o for o in range(b.n) if o != s])
            )
            j = rng.randrange(POSITIONS)
            values[s][i], values[t][j] = values[t][j], values[s][i]
            knows[s][i], knows[t][j] = False, False
        return
    r -= sp["SWAP"]
    if r < sp["PEEK"]:
        for p in range(POSITIONS):
            if not knows[s][p]:
                knows[s][p] = True
                break
        return
    r -= sp["PEEK"]
    draws = 2 if r < sp["DRAW2"] else 1
    cum = b.cum["plain"]
    total = cum[-1] + 0.0
    row_values, row_knows = values[s], knows[s]
    for _ in range(draws):
        card = bisect_right(cum, rng.random() * total, 0, 9)  # _draw(rng, cum)
        if _place(row_values, row_knows, card, mean):
            return


def _last_lap(b: Belief, values: list[list[int]], knows: list[list[bool]], rng: Random) -> None:
    for k in range(1, b.n):
        _sim_turn(b, values, knows, (b.me + k) % b.n, b.me, rng)


def p_lowest(view: MajavajengiSeatView, b: Belief, rng: Random, worlds: int = KNOCK_WORLDS) -> float:
    """The chance that the seat is the lowest (a tie counts half) if it knocks now."""
    score = 0.0
    me = b.me
    others = [s for s in range(b.n) if s != me]
    lap = [(me + k) % b.n for k in range(1, b.n)]  # _last_lap's seats
    plan = _plan(b)
    for _ in range(worlds):
        values, knows = _sample(b, rng, plan)
        for s in lap:
            _sim_turn(b, values, knows, s, me, rng)
        mine = sum(values[me])
        best = min([sum(values[s]) for s in others])
        score += 1.0 if mine < best else 0.5 if mine == best else 0.0
    return score / worlds


def knock_gain(view: MajavajengiSeatView, b: Belief, rng: Random, worlds: int = KNOCK_WORLDS) -> float:
    """How much better (in round points against the others' average) knocking now is than playing
    one more lap and knocking then, over sampled worlds (the strong level's search)."""
    others = [s for s in range(b.n) if s != b.me]
    total = 0.0
    plan = _plan(b)
    for _ in range(worlds):
        values, knows = _sample(b, rng, plan)
        wait_v = [list(r) for r in values]
        wait_k = [list(r) for r in knows]
        _last_lap(b, values, knows, rng)
        now = sum(sum(values[s]) for s in others) / len(others) - sum(values[b.me])
        _sim_turn(b, wait_v, wait_k, b.me, None, rng)
        for s in others:
            _sim_turn(b, wait_v, wait_k, s, None, rng)
        _last_lap(b, wait_v, wait_k, rng)
        later = sum(sum(wait_v[s]) for s in others) / len(others) - sum(wait_v[b.me])
        total += now - later
    return total / worlds


# ---------------------------------------------------------------------------------------------
# The card decisions shared by normal and strong


def _offered(legal: tuple[Any, ...], action: Any) -> bool:
    """``action in legal``, comparing only actions of the same class (``in`` calls the dataclass
    ``__eq__`` of every legal action, and of the other side too for each of another class)."""
    cls = type(action)
    return any(type(a) is cls and a == action for a in legal)


def _draw_gain(b: Belief, worst: float) -> float:
    """Rough expected improvement of drawing a card when the worst own card is worth ``worst``."""
    plain = b.dists["plain"]
    numbers = 1.0 - sum(b.special.values())
    gain = numbers * sum(x * max(0.0, worst - v) for v, x in zip(_VALUES, plain))
    return gain + sum(b.special.values()) * 1.0


def _worst(b: Belief) -> int:
    me = b.me
    return max(
        range(POSITIONS), key=lambda p: b.mean[me][p] + (0.5 if not isinstance(b.cards[me][p], int) else 0)
    )


def _standing(view: MajavajengiSeatView, b: Belief, s: int) -> float:
    return view.totals[s] + sum(b.mean[s])


def _best_swap(view: MajavajengiSeatView, legal: tuple[Any, ...], b: Belief) -> Swap | None:
    me = b.me
    others = [s for s in range(b.n) if s != me]
    leader = min(others, key=lambda s: _standing(view, b, s))
    best: Swap | None = None
    best_score = _SWAP_NEED + (_draw_gain(b, max(b.mean[me])) if view.draw2_left else 0.0)
    for a in legal:
        if not isinstance(a, Swap):
            continue
        delta = b.mean[me][a.own - 1] - b.mean[a.other_seat][a.other_pos - 1]
        if not isinstance(b.cards[me][a.own - 1], int):
            delta -= 0.3  # a known card handed over is worth a little more than a guess
        weight = 1.6 if a.other_seat == view.knocker else 1.3 if a.other_seat == leader else 1.0
        if delta * weight > best_score:
            best, best_score = a, delta * weight
    return best


def _card_move(view: MajavajengiSeatView, legal: tuple[Any, ...], b: Belief) -> Any | None:
    """The move of every phase but the knock; None at the turn's end."""
    me = b.me
    worst = _worst(b)
    bias = 0.0 if isinstance(b.cards[me][worst], int) else 0.5
    worth = b.mean[me][worst] + bias
    if view.phase == START:
        top = view.discard_top
        if (
            top is not None
            and _offered(legal, Take(worst + 1))
            and worth - VALUE[top] >= _draw_gain(b, worth)
        ):
            return Take(worst + 1)
        return Draw()
    if view.phase == HOLDING:
        held = view.held
        if held in VALUE:
            need = _draw_gain(b, worth) if view.draw2_left else 0.5
            return Replace(worst + 1) if worth - VALUE[held] > need else Discard()
        if held == "DRAW2":
            return Draw2()
        if held == "PEEK":
            unknown = [p for p in range(POSITIONS) if not isinstance(b.cards[me][p], int)]
            if not unknown:
                return Discard()
            return Peek(max(unknown, key=lambda p: b.mean[me][p]) + 1)
        if held == "SWAP":
            return _best_swap(view, legal, b) or Discard()
        return Discard()
    if view.phase == DRAW2_NEXT:
        return Next()
    return None


def _unknown_own(b: Belief) -> int:
    return sum(1 for c in b.cards[b.me] if not isinstance(c, int))


def _late(view: MajavajengiSeatView) -> bool:
    """The round has gone on long enough that waiting for certainty costs more than it gains."""
    return view.turns_taken >= 5 * view.players


def _knock_normal(view: MajavajengiSeatView, b: Belief, rng: Random) -> bool:
    unknown = _unknown_own(b)
    if unknown >= 2 and not _late(view):
        return False
    need = _KNOCK_CONFIDENCE.get(view.players, _KNOCK_CONFIDENCE_MANY)
    if _late(view):
        need -= 0.15
    if view.turns_taken >= 10 * view.players:
        return True
    return p_lowest(view, b, rng) >= need


def _knock_strong(view: MajavajengiSeatView, b: Belief, rng: Random) -> bool:
    """The same test as ``normal`` over worlds in which the opponents' cards follow what they did;
    late in a round the search compares knocking now with one more lap."""
    if _knock_normal(view, b, rng):
        return True
    return _late(view) and _unknown_own(b) <= 1 and knock_gain(view, b, rng) > 1.0


# ---------------------------------------------------------------------------------------------
# The levels


def _play(
    view: MajavajengiSeatView,
    legal: tuple[Any, ...],
    rng: Random,
    b: Belief,
    knocks: Callable[[MajavajengiSeatView, Belief, Random], bool],
) -> Any:
    """A level's move from its belief ``b``: the card move it sees, else at the end of the turn a
    knock when ``knocks`` says so, else any legal action."""
    move = _card_move(view, legal, b)
    if move is not None:
        return move
    if view.phase == TURN_END:
        return Knock() if _offered(legal, Knock()) and knocks(view, b, rng) else End()
    return rng.choice(legal)


def normal_policy(view: MajavajengiSeatView, legal: tuple[Any, ...], rng: Random) -> Any:
    """Counts cards; an unseen card of anyone is worth the average of the cards left."""
    return _play(view, legal, rng, belief(view, tilt=False), _knock_normal)


def strong_policy(view: MajavajengiSeatView, legal: tuple[Any, ...], rng: Random) -> Any:
    """Also reads what the others did: kept cards are low, cards swapped in by a seat that knew them
    are high; swaps aim at kept cards, and the knock is searched over worlds sampled that way."""
    return _play(view, legal, rng, belief(view), _knock_strong)


#: a casual player's hope for a card it has not seen (the deck's average is 5)
_HOPE = 3.5
#: the chance that a casual player has forgotten one of its own cards at a decision
_FORGET = 0.35


def easy_policy(view: MajavajengiSeatView, legal: tuple[Any, ...], rng: Random) -> Any:
    """A casual player: a patchy memory, hope for unseen cards, random swaps, knocks on its own
    cards alone."""
    me = view.seat
    mine: list[float | None] = [
        float(VALUE[k]) if k in VALUE and rng.random() > _FORGET else None for k in view.known[me]
    ]
    guess = [v if v is not None else _HOPE for v in mine]
    worst = max(range(POSITIONS), key=lambda p: guess[p])
    if view.phase == START:
        top = view.discard_top
        if (
            top in VALUE
            and _offered(legal, Take(worst + 1))
            and VALUE[top] <= 2
            and guess[worst] > VALUE[top]
        ):
            return Take(worst + 1)
        return Draw()
    if view.phase == HOLDING:
        held = view.held
        if held in VALUE:
            return Replace(worst + 1) if VALUE[held] < guess[worst] else Discard()
        if held == "DRAW2":
            return Draw2()
        if held == "PEEK":
            unknown = [p for p in range(POSITIONS) if mine[p] is None]
            return Peek(rng.choice(unknown) + 1) if unknown else Discard()
        if held == "SWAP":
            swaps = [a for a in legal if isinstance(a, Swap) and a.own == worst + 1]
            return rng.choice(swaps) if swaps and guess[worst] >= 7 else Discard()
        return Discard()
    if view.phase == DRAW2_NEXT:
        return Next()
    if view.phase == TURN_END:
        if _offered(legal, Knock()) and (sum(guess) <= 13 or view.turns_taken >= 8 * view.players):
            return Knock()
        return End()
    return rng.choice(legal)


AIS: dict[str, AIPolicy] = {
    "random": random_policy,
    "easy": easy_policy,
    "normal": normal_policy,
    "strong": strong_policy,
    "smart": normal_policy,  # the name of the first AI, kept for seats stored with it
}
smart_policy = normal_policy  # the first AI's name, for callers that import it
