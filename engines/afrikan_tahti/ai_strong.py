"""The ``strong`` AI of Afrikan Tähti: the smart player's answers to prompts, windows and duels, with
its own plan for where to go and what to keep.

- **Where to go.** The smart player heads for the nearest token worth flipping. The strong one weighs
  every token it may flip by what flipping it is worth to it (gems, the Star's chance among the
  tokens left, an expedition card it lacks) against the turns it takes to get there, and heads for
  the best worth per turn; it stays where it is when the token under its pawn is the best.
- **The others' tokens.** A token that is a rival's nearest and that the rival is nearer to than the
  strong player will most likely be gone when it arrives: it counts for 30 % of its worth
  (:func:`_claims`). With three rivals racing for the same tokens this is what keeps it from
  following the crowd.
- **Where to stop.** The die allows any place on the way (and exactly the count elsewhere): the
  strong player ends its move where the best token's worth per turn is highest from there, so a
  token it passes on the way to a better one is taken when it is worth more now than the detour
  (the smart player heads for one token only).
- **What to keep, what to sell.** While equipment tokens are left a complete expedition alone may
  flip the discovery tokens (where the Star is): broke, the smart player sells the card its
  expedition needs least, the strong one only cards that give no symbol its expedition still lacks,
  and with its expedition complete it leaves the last equipment token shut as long as a rival's
  expedition is incomplete (turned over, it would open every discovery token to that rival, at 200).
  Once the equipment is gone money is flips: the strong player sells a spare card to pay for the
  token under its pawn instead of rolling 5-6 for it, and buys no card while it lacks more than
  one symbol.
- **Whom to play.** The characters are not equal: the Archaeologist, who may look at the token
  under his pawn before he pays for it, won 71 % of two-player games between smart players that
  were dealt characters at random (300 games; the Sea captain 56 %, the Teacher 39 %). The strong
  player chooses by those figures at two seats. At three or more the Aviator, third at two, wins
  least: of four strong players dealt characters at random (440 games) the Archaeologist won 32 %,
  the Merchant 27 %, the Aviator 18 %, and the strong player chooses by :data:`CHARACTERS_MANY`;
  the smart one by its fixed taste (the Sea captain first).
- **When to flip.** A token the seat stands on and may flip is flipped unless it is clearly bad: every
  flip brings the Star nearer, for whoever is ahead.
- **Home with the Star** (or a horseshoe): it rolls or flies by the turns home each leaves on
  average and ends its moves where the way home is shortest (:mod:`.base.race`), as in the base
  game.

Why four seats are hard: about 2 in 3 Stars are found after the last equipment token, by a player
whose expedition is incomplete (200 a flip, or 5-6), so the Star goes by the share of discovery flips
in the last rounds, and the finder wins about 80 % of the games. Measured with Retkikunnat
(``scripts/bench_ai.py --players 4 --games 1500 --seed f24 --cell strong:normal``): 0.305
[0.283, 0.329] against three normal players (fair 0.25; 0.266 over 2000 games before these
changes), where the strong player in the third or fourth seat, left the Aviator, used to win about
0.17; two players (``--seed e4``, 400 games): 0.725 [0.679, 0.766].

In the base game (no expansion) the strong player plays the smart base player (:mod:`.base.ai`)
except in these (:func:`strong_base`). Before the Star is found: it values a token by the Star as
the game itself and a robber as the loss of the money it can use, so a rich player keeps flipping;
of the tokens a roll reaches it takes the one nearest home; it ends a move that reaches none where
the next roll reaches the best token, flies for a token when the roll would rarely reach one, and,
broke near Capetown, goes for the bonus. After the Star is found (:mod:`.base.race`): a holder of a
winning item rolls or flies by the turns home each leaves on average, ends its moves where the way
home is shortest, keeps the fare of its flight home rather than pay for a token, and turns over the
tokens it stops on when the money is not needed (a horseshoe it takes is one the others cannot win
with); a player without one goes for the token whose way home through it is shortest.

Why the levels are close in the base game: before the Star is found every token is alike, so a
player's chance of the Star is its share of the flips, and in two-player games the finder wins about
95 % of them. Money is the one lever and a weak one: a smart player given 500 more at the start
finds the Star first as often as before, one started with nothing nearly as often, and one who is
never broke (a cheat) in 59 % of two-player games; easy and normal differ by the turns easy wastes.
Measured (``scripts/bench_ai.py --option expansion=false --cell strong:normal``, seeds ``final`` and
``final2``): 0.512 [0.496, 0.527] over 4000 and 0.506 [0.494, 0.519] over 6000 two-player games,
0.256 [0.240, 0.272] over 3000 four-player games: not measurably stronger than normal. What it does
gain is after the Star: without it, it wins 8 % of the two-player games the other finds the Star in
(normal 5 %).

A policy gets only its seat's view, its legal actions and a seeded generator.
"""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

from engines.afrikan_tahti.base import ai as base_ai
from engines.afrikan_tahti.base import race
from engines.afrikan_tahti.board import (
    BASE_TOKEN_MIX,
    CAPETOWN,
    DIST,
    GEM_VALUES,
    GOALS,
    GOLD_COAST,
    HAZARDS,
    LEGS,
    SLAVE_COAST,
    land_paths,
)
from engines.afrikan_tahti.model import (
    AIR_FARE,
    FLIP_PRICE,
    Board,
    BuyDiscard,
    Character,
    EndPhase,
    Flip,
    FlipRoll,
    Fly,
    FreeSail,
    Move,
    RerollMove,
    Roll,
    Sell,
    Use,
    View,
)
from engines.afrikan_tahti.retkikunnat import ai as smart_ai
from engines.afrikan_tahti.retkikunnat.content import EXP, sale_value

#: turns home that a holder counts as even, to end its move on a token
_HOME_EVEN = 0.15
#: steps from Capetown within which a broke player goes for its bonus
_CAPETOWN_REACH = 14
#: steps a die move covers per turn on average, for the turns a token is away
_STEPS_PER_TURN = 3.5
#: a flip the strong player makes although the expected gain is below zero, down to this
_FLIP_FLOOR = -120.0
#: turns a capture on a hazard dot costs (a release roll succeeds one turn in three)
_HAZARD_TURNS = 3.0
#: turns a broke pawn on a token spends rolling for it (4-6 flips it: two tries on average)
_ROLL_TURNS = 2.0
#: what a roll that reaches no token leaves of a stop's long-range worth (the turn is spent)
_MISS = 0.9
#: the base game's Star to a player without a winning item, over the money it holds
_STAR_WORTH = 3000.0
#: a horseshoe after the Star is found: a second chance to win
_HORSESHOE_WORTH = 1500.0
#: the money a base-game player can use: flips and a flight home (a robber takes more, but no matter)
_USEFUL_CASH = 600
#: a lost turn, in pounds
_TURN_WORTH = 150.0
#: money a base-game player keeps after a flight (two flips)
_FLY_RESERVE = 200
#: faces of the die that may reach a token for the base-game player still to fly instead of rolling
_FLY_HITS = 2
#: money a base-game player without a winning item keeps after a fare to fly for a token
_KEEP = 300
#: what a pound of the Capetown bonus is worth in a flip's gain, to a player short of money / not
_BROKE_BONUS = 1.0
_RICH_BONUS = 0.3
#: how much better a stop must look than the smart player's for the strong one to take it instead
_MARGIN = 1.25
#: the characters by their share of wins in two-player games of smart players dealt at random
#: (300 games, ``character_assignment=random``), best first
CHARACTERS = (
    "archaeologist",
    "sea_captain",
    "aviator",
    "merchant",
    "tycoon",
    "explorer",
    "fortune_seeker",
    "adventurer",
    "doctor",
    "teacher",
)
#: the same with three players or more, by the share of wins of strong players dealt characters at
#: random at four seats (440 games; about 175 a character, each within ±0.07): the Aviator, third at
#: two seats, is the last here
CHARACTERS_MANY = (
    "archaeologist",
    "sea_captain",
    "merchant",
    "adventurer",
    "explorer",
    "teacher",
    "fortune_seeker",
    "doctor",
    "tycoon",
    "aviator",
)


def strong(view: View, legal: tuple[Any, ...], rng: Random) -> Any:
    """The strong player: Retkikunnat's plan above, the base game's in :func:`strong_base`."""
    if view.x is None:
        return strong_base(view, legal, rng)
    if view.x.prompt is not None:
        return _smart(view, legal, rng)
    seat = view.seat or 0
    me = view.pawns[seat]
    node = me.node
    phase = view.phase
    if phase == "character":
        order = CHARACTERS if view.players == 2 else CHARACTERS_MANY
        return min((a for a in legal if isinstance(a, Character)), key=lambda a: order.index(a.id))
    if node is None or phase in ("setup", "release"):
        return _smart(view, legal, rng)
    if phase == "declare":
        chosen = smart_ai._declare(view, legal, seat, node, targets(view, seat))
        if me.items and isinstance(chosen, Roll | Fly) and Roll() in legal:
            return _race_declare(legal, node, me.cash)
        return chosen
    if phase == "move":
        if RerollMove() in legal and view.move is not None and view.move.steps <= 2:
            return RerollMove()
        if me.voyage is not None:
            return _smart(view, legal, rng)
        moves = tuple(a for a in legal if isinstance(a, Move | Board))
        chosen = base_ai._move(view, moves, node, targets(view, seat), rng)
        if me.items and isinstance(chosen, Move):
            walks = [a for a in moves if isinstance(a, Move)]
            if not any(a.to in GOALS for a in walks):
                return min(
                    walks, key=lambda a: (round(race.turns_home(a.to, me.cash) / _HOME_EVEN), _move_key(a))
                )
        if me.items or not isinstance(chosen, Move) or smart_ai._chase(view, seat) is not None:
            return chosen
        rates = {a.to: _position(view, seat, a.to) for a in moves if isinstance(a, Move)}
        best = max(rates.values())
        if best > rates[chosen.to]:
            return min((a for a in moves if isinstance(a, Move) and rates[a.to] == best), key=_move_key)
        return chosen
    if phase == "phase2":
        chosen = smart_ai._phase2(view, legal, seat, node, targets(view, seat))
        if isinstance(chosen, Sell) and _fills(view, seat, chosen.card) and _shut(view):
            return EndPhase()
        if _buys(chosen) and not _shut(view) and sum(smart_ai.missing(view, seat).values()) > 1:
            chosen = EndPhase()  # the equipment gone, money is flips: no card bought far from complete
        if chosen == EndPhase():
            return _sale_to_flip(view, legal, seat, node) or chosen
        return chosen
    if phase == "phase3":
        chosen = smart_ai._phase3(view, legal, seat, node)
        if chosen in (Flip(), FlipRoll()) and _opens(view, seat, node):
            return EndPhase()
        if (
            chosen == EndPhase()
            and not me.items
            and smart_ai.flip_gain(view, seat, node) > _FLIP_FLOOR
            and smart_ai.flip_price(view, seat, node) is not None
        ):
            for flip in (Flip(), FlipRoll()):
                if flip in legal:
                    return flip
        return chosen
    return _smart(view, legal, rng)


def strong_base(view: View, legal: tuple[Any, ...], rng: Random) -> Any:
    """The strong player in the base game: the smart player's play, except that it races home after
    the Star is found as :func:`_race` says, goes for the Capetown bonus when broke and near it
    (:func:`_capetown`), and otherwise flips, flies and ends its moves as :func:`_heuristic_base`
    says."""
    chosen = base_ai.smart(view, legal, rng)
    me = view.pawns[view.seat or 0]
    node = me.node
    if node is None or me.voyage is not None or me.captured or len(legal) < 2:
        return chosen
    if view.star_found:
        return _race(view, legal, node, chosen)
    return _capetown(view, legal, node, rng) or _heuristic_base(view, legal, rng, chosen)


def _capetown(view: View, legal: tuple[Any, ...], node: str, rng: Random) -> Any:
    """Broke, with the Capetown bonus unclaimed and Capetown within ``_CAPETOWN_REACH`` steps: roll
    for the token it stands on, else head for Capetown (500 is five paid flips); None otherwise."""
    me = view.pawns[view.seat or 0]
    if (
        view.capetown_claimed is not None
        or view.options.capetown_bonus < 2 * FLIP_PRICE
        or me.cash >= FLIP_PRICE
        or me.items
        or DIST[CAPETOWN].get(node, _CAPETOWN_REACH + 1) > _CAPETOWN_REACH
        or view.phase not in ("declare", "move")
    ):
        return None
    if view.phase == "declare":
        if any(p == node for p, _t in view.face_down) and FlipRoll() in legal:
            return FlipRoll()
        return base_ai._declare(view, legal, node, (CAPETOWN,))
    return base_ai._move(view, legal, node, (CAPETOWN,), rng)


def _race(view: View, legal: tuple[Any, ...], node: str, chosen: Any) -> Any:
    """After the Star is found (:mod:`.base.race`). A holder of a winning item rolls or flies,
    whichever brings it home in fewer turns on average, and ends its move where the way home is
    shortest. Without one, it heads for the token whose way home through it is shortest (a
    horseshoe found there must still beat the holder home) and turns over every token it reaches,
    paying when it can: only a horseshoe can win now."""
    me = view.pawns[view.seat or 0]
    if me.items:
        if view.phase == "declare":
            if isinstance(chosen, Board | FreeSail) or Roll() not in legal:
                return chosen
            best: tuple[float, str, Any] = (race.roll_turns(node, me.cash), "", Roll())
            for a in legal:
                if isinstance(a, Fly):
                    after = 1.0 if a.to in GOALS else 1.0 + race.turns_home(a.to, me.cash - AIR_FARE)
                    best = min(best, (after, a.to, a))
            return best[2]
        tokens_here = {p for p, _t in view.face_down}
        if view.phase == "move" and not isinstance(chosen, Board):
            moves = [a for a in legal if isinstance(a, Move)]
            if not moves or any(a.to in GOALS for a in moves):
                return chosen

            # the shortest way home; of stops as near, one with a token (a horseshoe turned over is
            # one the others cannot win with)
            def home(a: Move) -> tuple[float, bool, tuple[str, str]]:
                t = round(race.turns_home(a.to, me.cash) / _HOME_EVEN)
                return (t, a.to not in tokens_here, _move_key(a))

            return min(moves, key=home)
        if view.phase == "after_move" and Flip() in legal and node in tokens_here:
            if race.turns_home(node, me.cash - FLIP_PRICE) <= race.turns_home(node, me.cash):
                return Flip()  # the money is not needed for the way home
            return EndPhase()
        return chosen
    tokens = sorted(p for p, _t in view.face_down)
    if not tokens:
        return chosen
    if view.phase in ("declare", "after_move") and node in tokens:
        if Flip() in legal and me.cash >= FLIP_PRICE:
            return Flip()
        if FlipRoll() in legal:
            return FlipRoll()
        if view.phase == "after_move":
            return EndPhase()

    def way(place: str) -> float:
        steps = DIST[place].get(node)
        if steps is None:
            return 99.0
        return steps * race.STEP + race.turns_home(place, me.cash - FLIP_PRICE)

    target = (min(tokens, key=lambda p: (way(p), p)),)
    if view.phase == "declare":
        return base_ai._declare(view, legal, node, target)
    if view.phase == "move":
        return base_ai._move(view, legal, node, target, rng=Random(0))
    return chosen


def _heuristic_base(view: View, legal: tuple[Any, ...], rng: Random, chosen: Any) -> Any:
    seat = view.seat or 0
    me = view.pawns[seat]
    node = me.node
    if view.phase in ("declare", "after_move") and node is not None and me.voyage is None and not me.items:
        if any(p == node for p, _t in view.face_down):
            if Flip() in legal and me.cash >= FLIP_PRICE and worth(view, node, FLIP_PRICE) > 0:
                return Flip()
            if view.phase == "after_move":
                return EndPhase()
            if FlipRoll() in legal and worth(view, node, 0) > 0:
                return FlipRoll()
        elif view.phase == "declare" and isinstance(chosen, Roll):
            return _fly(view, legal, node) or chosen
        elif (
            view.phase == "declare"
            and isinstance(chosen, Fly)
            and me.cash - AIR_FARE < _KEEP
            and Roll() in legal
        ):
            return Roll()  # the fare is three flips: a player short of money walks
        return chosen
    if view.phase != "move" or me.items or me.node is None or not isinstance(chosen, Move):
        return chosen
    moves = [a for a in legal if isinstance(a, Move)]
    tokens = {p for p, _t in view.face_down}
    if chosen.to in tokens:  # of the tokens the roll reaches, the one nearest home (the race after)
        return min(
            (a for a in moves if a.to in tokens),
            key=lambda a: (race.turns_home(a.to, me.cash), _move_key(a)),
        )
    rates = {a.to: _base_stop(view, seat, a.to) for a in moves}
    best = max(rates.values())
    if best > _MARGIN * rates[chosen.to]:
        return min((a for a in moves if rates[a.to] == best), key=_move_key)
    return chosen


def _fly(view: View, legal: tuple[Any, ...], node: str) -> Fly | None:
    """A flight to a token this turn, when the roll would reach none one time in three or more and
    the seat keeps money for two flips after the fare."""
    if view.pawns[view.seat or 0].cash < AIR_FARE + _FLY_RESERVE:
        return None
    tokens = {p for p, _t in view.face_down}
    flights = [
        a for a in legal if isinstance(a, Fly) and a.to in tokens and worth(view, a.to, FLIP_PRICE) > 0
    ]
    if not flights:
        return None
    hazards = view.options.hazard_trigger == "pass_through"
    hits = sum(
        1 for die in range(1, 7) if tokens & land_paths(node, die, frozenset(), frozenset(), hazards).keys()
    )
    if hits > _FLY_HITS:
        return None
    return max(flights, key=lambda a: (worth(view, a.to, FLIP_PRICE), a.to))


def worth(view: View, place: str, price: int) -> float:
    """The strong player's expected gain in pounds of flipping the token on ``place`` for ``price`` in
    the base game. Unlike :func:`base_ai.flip_value` it counts the Star (and a horseshoe after it) as
    the game itself, worth more than all the seat's money, and a robber as the loss of the money the
    seat can use (flips and a flight home), not of all of it: a rich player keeps flipping."""
    me = view.pawns[view.seat or 0]
    left = Counter(BASE_TOKEN_MIX)
    for _place, cid in view.revealed:
        left[cid.rsplit(":", 1)[1]] -= 1
    total = sum(n for n in left.values() if n > 0)
    if not total:
        return -1.0
    cash_after = me.cash - price
    gain = 0.0
    for kind, n in left.items():
        if n <= 0:
            continue
        if kind in GEM_VALUES:
            value = float(view.options.emerald_value if kind == "emerald" else GEM_VALUES[kind])
            v = value * (2 if place == GOLD_COAST else 1)
        elif kind == "star":
            v = _STAR_WORTH + cash_after
        elif kind == "horseshoe":
            v = _HORSESHOE_WORTH + cash_after if view.star_found else 0.0
        elif kind == "robber":
            v = -float(min(cash_after, _USEFUL_CASH))
        elif kind == "blank" and place == SLAVE_COAST:
            v = -3.0 * _TURN_WORTH
        else:
            v = 0.0
        gain += n * v
    return gain / total - price


def _gains(view: View, price: int) -> dict[str, float]:
    """What reaching each place is worth to the seat: flipping its token (:func:`worth`), and at
    Capetown while nobody has arrived there the bonus, worth more the less money the seat has (a
    broke player rolls for its tokens, a turn or two each)."""
    gains = {p: worth(view, p, price) for p, _t in view.face_down}
    bonus = view.options.capetown_bonus
    if view.capetown_claimed is None and bonus > 0:
        cash = view.pawns[view.seat or 0].cash
        extra = bonus * (_BROKE_BONUS if cash < 2 * FLIP_PRICE else _RICH_BONUS)
        gains[CAPETOWN] = max(gains.get(CAPETOWN, 0.0), 0.0) + extra
    return gains


def _base_stop(view: View, seat: int, node: str) -> float:
    """What ending a base-game move on ``node`` is worth, as gain per turn: a token here is flipped
    now (or rolled for); from elsewhere each face of the next roll reaches the best token it can
    (places on the way allowed), and a face that reaches none leaves the long-range worth of ``node``
    (:func:`_base_position`), cut by the turn it cost."""
    me = view.pawns[seat]
    pays = me.cash >= FLIP_PRICE
    price = FLIP_PRICE if pays else 0
    here = _base_position(view, seat, node)
    if node in HAZARDS or any(p == node for p, _t in view.face_down):
        return here
    gains = _gains(view, price)
    hazards = view.options.hazard_trigger == "pass_through"
    total = 0.0
    for die in range(1, 7):
        found = land_paths(node, die, frozenset(), frozenset(), hazards)
        hit = max((gains[p] for p in found if p in gains and gains[p] > 0), default=0.0)
        reach = hit / (1.5 if pays else 1.0 + _ROLL_TURNS)
        total += max(reach, _MISS * here)
    return total / 6


def _base_position(view: View, seat: int, node: str) -> float:
    """What ending a base-game move on ``node`` is worth: the best token's gain per turn from there."""
    me = view.pawns[seat]
    pays = me.cash >= FLIP_PRICE
    delay = _HAZARD_TURNS if node in HAZARDS else 0.0
    best = 0.0
    for place, gain in sorted(_gains(view, FLIP_PRICE if pays else 0).items()):
        steps = DIST[place].get(node)
        if steps is None or gain <= 0:
            continue
        turns = steps / _STEPS_PER_TURN + 0.5 if steps else 0.0  # the turns of travel
        # paying flips on arrival; a flip roll takes a turn of its own and succeeds one turn in two;
        # the Capetown bonus is paid on arrival
        if place == CAPETOWN and place not in {p for p, _t in view.face_down}:
            turns += 0.5
        else:
            turns += 0.5 if pays and not view.flipped_this_turn else _ROLL_TURNS
        best = max(best, gain / (turns + delay))
    return best


def _move_key(a: Move) -> tuple[str, str]:
    return (a.to, a.via or "")


def _position(view: View, seat: int, node: str) -> float:
    """What ending the move on ``node`` is worth: the best token's gain per turn from there (a token
    on ``node`` itself is flipped this turn; a hazard dot costs the turns of the release rolls)."""
    best = 0.0
    delay = _HAZARD_TURNS if node in HAZARDS else 0.0
    for place in smart_ai.flippable(view, seat):
        gain = _gain(view, seat, place, node)
        if gain <= 0:
            continue
        steps = DIST[place].get(node)
        if steps is None:
            continue
        turns = (steps / _STEPS_PER_TURN + 1.0 if steps else 0.5) + delay
        best = max(best, gain / turns)
    return best


def _race_declare(legal: tuple[Any, ...], node: str, cash: int) -> Any:
    """A holder of a winning item rolls or flies, whichever brings it home in fewer turns on average
    (:mod:`.base.race`)."""
    best: tuple[float, str, Any] = (race.roll_turns(node, cash), "", Roll())
    for a in legal:
        if isinstance(a, Fly):
            after = 1.0 if a.to in GOALS else 1.0 + race.turns_home(a.to, cash - AIR_FARE)
            best = min(best, (after, a.to, a))
    return best[2]


def _opens(view: View, seat: int, place: str) -> bool:
    """Whether flipping the token on ``place`` would turn over the last equipment token while the
    seat's expedition is complete and a rival's is not: the discovery tokens (where the Star is)
    would then be open to the rival too, at 200 or a roll."""
    facts = smart_ai._facts(view)  # the top tokens and the equipment count, once per view
    top = facts.tops.get(place)
    if top is None or not top.startswith("e") or not view.x.players[seat].complete:
        return False
    if facts.equip > 1:
        return False
    if facts.equip == len(facts.tops):
        return False  # nothing else left to flip: it must open the way on
    return any(not px.complete for s, px in enumerate(view.x.players) if s != seat)


def _buys(action: Any) -> bool:
    """Whether ``action`` spends money or a saleable card on a new expedition card."""
    return isinstance(action, BuyDiscard) or (
        isinstance(action, Use) and action.card in ("trade_goods", "barter_goods")
    )


def _shut(view: View) -> bool:
    """Whether a face-down equipment token is left: until then a complete expedition alone may flip
    the discovery tokens."""
    return smart_ai._facts(view).equip > 0


def _sale_to_flip(view: View, legal: tuple[Any, ...], seat: int, node: str) -> Sell | None:
    """A card to sell so as to pay for the token under the pawn instead of rolling for it (a roll
    of 5-6 for a discovery token without a complete expedition): the one the expedition needs
    least, keeping the cards it lacks while equipment tokens are left and a complete expedition
    whole; None when the sales cannot reach the price or the token is not worth it."""
    me = view.pawns[seat]
    terms = smart_ai.flip_price(view, seat, node)
    if me.items or terms is None or me.cash >= terms[0] or view.flipped_this_turn:
        return None
    if smart_ai.token_value(view, seat, node, terms[0]) <= 0:
        return None
    mine = view.x.players[seat]
    shut = _shut(view)

    def spare(card: str) -> bool:
        if sale_value(card) <= 0:
            return False
        if shut and _fills(view, seat, card):
            return False
        return not (mine.complete and smart_ai.card_worth(view, seat, card) > sale_value(card) + 600)

    sells = [a for a in legal if isinstance(a, Sell) and spare(a.card)]
    if me.cash + sum(sale_value(a.card) for a in sells) < terms[0]:
        return None
    return min(sells, key=lambda a: (smart_ai.card_worth(view, seat, a.card) - sale_value(a.card), a.card))


def _gain(view: View, seat: int, place: str, node: str) -> float:
    """:func:`smart_ai.flip_gain` of ``place`` reckoned from ``node``, cut by the chance that a rival
    turns the token over first (:func:`_claims`); nothing for the last equipment token that a
    complete expedition keeps shut (:func:`_opens`)."""
    if _opens(view, seat, place):
        return -1.0
    gain = smart_ai.flip_gain(view, seat, place)
    if gain <= 0:
        return gain
    mine = DIST[place].get(node)
    if mine is None or mine == 0:
        return gain
    for steps in _claims(view, seat).get(place, ()):
        if steps < mine:
            gain *= 1.0 - _RIVAL_CUT
    return gain


#: the chance that a rival nearer to a token, and heading for it, turns it over first
_RIVAL_CUT = 0.7
_CLAIMS: list[tuple[View, int, dict[str, tuple[int, ...]]]] = []


def _claims(view: View, seat: int) -> dict[str, tuple[int, ...]]:
    """For each token place, the steps to it of the rivals it is the nearest token for (one they may
    turn over: an equipment token, or a discovery token for a complete expedition or once the
    equipment is gone); rivals holding a winning item, at sea or captured do not count."""
    if _CLAIMS and _CLAIMS[0][0] is view and _CLAIMS[0][1] == seat:
        return _CLAIMS[0][2]
    facts = smart_ai._facts(view)
    tops, equip = facts.tops, facts.equip > 0
    out: dict[str, list[int]] = {}
    for s, pawn in enumerate(view.pawns):
        if s == seat or pawn.items or pawn.node is None or pawn.captured:
            continue
        complete = view.x.players[s].complete
        near: list[tuple[int, str]] = []
        for p, t in tops.items():
            if t.startswith("e") or complete or not equip:
                d = DIST[p].get(pawn.node)
                if d is not None:
                    near.append((d, p))
        if near:
            d0 = min(near)[0]
            for d, p in near:
                if d == d0:
                    out.setdefault(p, []).append(d)
    claims = {p: tuple(v) for p, v in out.items()}
    _CLAIMS[:] = [(view, seat, claims)]
    return claims


def _smart(view: View, legal: tuple[Any, ...], rng: Random) -> Any:
    from engines.afrikan_tahti.ai import smart_policy

    return smart_policy(view, legal, rng)


def _fills(view: View, seat: int, card: str) -> bool:
    """Whether ``card`` gives a symbol the seat's expedition still lacks."""
    gaps = smart_ai.missing(view, seat)
    c = EXP[card]
    return any(gaps[a] > 0 for a in c["symbols"]) or bool(
        c["either_or"] and any(gaps[a] > 0 for a in c["either_or"])
    )


def targets(view: View, seat: int) -> tuple[str, ...]:
    """Home with a winning item; a near holder of one (to duel); else the token worth most per turn."""
    me = view.pawns[seat]
    if me.items:
        return tuple(sorted(GOALS))
    chase = smart_ai._chase(view, seat)
    if chase is not None:
        return (chase,)
    node = me.node or ""
    if me.voyage is not None and (me.voyage.origin, me.voyage.dest) in LEGS:
        node = me.voyage.dest  # at sea: reckoned from the port ahead
    best: tuple[float, str] | None = None
    for place in sorted(smart_ai.flippable(view, seat)):
        gain = _gain(view, seat, place, node)
        if gain <= 0:
            continue
        steps = DIST[place].get(node)
        if steps is None:
            continue
        rate = gain / (steps / _STEPS_PER_TURN + 0.5)
        if best is None or rate > best[0]:
            best = (rate, place)
    if best is not None:
        return (best[1],)
    return smart_ai.targets(view, seat)
