"""Afrikan Tähti base game (spec §3.1-3.2, §4, §6 base options, §7 notation, §8, §9, §10).

Hidden information: only the contents of face-down tokens (and the seed). Token ``t<i>`` starts on
``TREASURE_PLACES[i - 1]``, so its id says nothing about what it is; its content id ``tok:t<i>:<kind>``
appears in views and events only once it is flipped. Everything else is public; a seat's view is the
public table with ``seat`` filled in.

Turn (spec §4.1), phases as data in :data:`PHASE_ACTIONS`:

- ``setup``: with ``start_place = choose`` each seat in seat order plays ``start cairo|tangier``.
- lost turns are served and skipped inside ``perform`` (event ``turn_lost``).
- ``release``: a captured pawn's turn is the release roll ``roll``.
- ``declare``: ``roll`` (a die move; on a sea dot it continues a paid voyage), ``board <port>`` (pay
  the fare, roll, sail), ``free_sail <port>`` (board or continue a free passage), ``fly <place>``,
  ``flip`` (pay 100), ``flip_roll`` (4-6 flips it), ``stay``.
- ``move``: after the roll, ``move <node> [via <place>]`` ends a land segment; ``board <port>`` puts
  the remaining steps on a sea leg; ``move <here>`` ends the move where the pawn stands (a zero-step
  move, or stopping at a port reached with steps left). A land segment that ends on a port where the
  pawn could still board keeps the phase open; otherwise the move ends. Sailing needs no decision and
  happens inside ``perform``; so does a move with exactly one possible ending.
- ``after_move``: on a place with a face-down token, ``flip`` (pay 100) or ``end_phase``.

Extension points used by Retkikunnat (:mod:`.expansion`, :mod:`.xtable`): :data:`RULESETS`
(``"base"`` / ``"expansion"``, chosen by ``Options.expansion``; the rules object also sets up the game
and says who acts); the ``Table`` methods the expansion's table overrides (``on_place`` with the E7
order win, Capetown, event draws; ``resolve`` for token effects; ``walk``/``sail``/``offer_move`` for
resumable moves; ``begin_turn``/``end_turn``); the price hooks of :class:`BaseRules` (``sea_fare``,
``air_fare``, ``flip_price``); stacks of two token ids (``d<i>`` under ``e<i>``); ``State.ext``.

Tests fix the layout, the starting player and the dice with ``new_game(..., layout={place: kind},
first_seat=s, dice=(d1, d2, ...))``: preset dice are used, in order, for every d6 roll before the
seeded generator takes over (also settable later through ``dataclasses.replace(state, dice=...)``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from random import Random
from typing import Any

from engines.afrikan_tahti.board import (
    AIR,
    AIR_FROM,
    AIRPORTS,
    BASE_TOKENS,
    CAPETOWN,
    GEM_VALUES,
    GOALS,
    GOLD_COAST,
    HAZARDS,
    LEGS,
    LEGS_FROM,
    PLACE_SET,
    PORTS,
    SLAVE_COAST,
    STARTS,
    TREASURE_PLACES,
    land_paths,
)
from engines.afrikan_tahti.model import (
    ACTION_TYPES,
    AFTER_MOVE,
    AIR_FARE,
    DECLARE,
    FLIP_PRICE,
    FLIP_ROLL_FACES,
    MOVE,
    NO_STOPS,
    OVER,
    PHASE_ACTIONS,
    RELEASE,
    SEA_FARE,
    SETUP,
    SLAVE_COAST_LOST_TURNS,
    TREASURE_INDEX,
    Action,
    Board,
    EndPhase,
    Flip,
    FlipRoll,
    Fly,
    FreeSail,
    Move,
    Movement,
    Options,
    Pawn,
    PawnView,
    Roll,
    Start,
    State,
    Stay,
    View,
    Voyage,
    content_id,
    holds_winning_item,
    kind_of,
    roll_only_when_broke,
    top_token,
)
from engines.contract import Event, IllegalAction, Outcome, Seat, ev, rng_for

# ---------------------------------------------------------------------------------------------
# Movement: the choices of the move phase


@dataclass(frozen=True, slots=True)
class MoveMenu:
    """The choices of the ``move`` phase: land destinations (with their paths and the places that
    tell paths apart), legs to board, and whether the pawn may end the move where it stands."""

    dests: tuple[tuple[str, tuple[tuple[str, ...], ...], tuple[str, ...]], ...]
    boards: tuple[str, ...]
    stop_here: bool

    def paths(self, to: str) -> tuple[tuple[str, ...], ...] | None:
        for d, ps, _vias in self.dests:
            if d == to:
                return ps
        return None


def may_land(move: Movement, options: Options) -> bool:
    return move.steps > 0 and (move.arrived != "sea" or options.sea_to_land_same_move)


def may_board_here(move: Movement, options: Options) -> bool:
    if move.steps <= 0:
        return False
    if move.arrived == "land":
        return options.land_to_sea_same_move
    if move.arrived == "sea":
        # [decided] S7's "new fare for another leg" is part of S7, so the same option governs it
        return options.sea_to_land_same_move
    return True


@lru_cache(maxsize=1 << 15)
def move_menu(node: str, move: Movement, cash: int, holding: bool, options: Options, fare: int) -> MoveMenu:
    dests: list[tuple[str, tuple[tuple[str, ...], ...], tuple[str, ...]]] = []
    if may_land(move, options):
        found = land_paths(node, move.steps, frozenset(move.visited), GOALS if holding else NO_STOPS,
                           options.hazard_trigger == "pass_through")
        # [decided] ``move X`` takes the canonical path (shortest, then by node ids); ``via P`` is
        # offered for the places that some but not all paths to X pass (the choice that matters:
        # Capetown now, event draws in the expansion)
        for dest in sorted(found):
            paths = found[dest]
            sets = [frozenset(n for n in p[:-1] if n in PLACE_SET) for p in paths]
            vias = tuple(sorted(frozenset().union(*sets) - frozenset.intersection(*sets)))
            dests.append((dest, paths, vias))
    boards: list[str] = []
    if node in PORTS and may_board_here(move, options):
        for dest in LEGS_FROM[node]:
            leg = LEGS[(node, dest)]
            # [decided] a leg whose first dot this move already visited is not offered: M2 would
            # end the voyage before its first step, and the fare would buy nothing
            if cash >= fare and leg.path[1] not in move.visited:
                boards.append(dest)
    return MoveMenu(tuple(dests), tuple(boards), node in PLACE_SET)


def menu_of(rules: BaseRules, state: State | Table, seat: int) -> MoveMenu:
    pawn = state.pawns[seat]
    assert state.move is not None and pawn.node is not None
    return move_menu(pawn.node, state.move, pawn.cash, holds_winning_item(pawn), state.options,
                     rules.sea_fare(state, seat))


def menu_actions(menu: MoveMenu, node: str) -> tuple[Action, ...]:
    out: list[Action] = []
    if menu.stop_here:
        out.append(Move(node))
    for dest, _paths, vias in menu.dests:
        out.append(Move(dest))
        out.extend(Move(dest, v) for v in vias)
    out.extend(Board(d) for d in menu.boards)
    return tuple(out)


def chosen_path(menu: MoveMenu, to: str, via: str | None) -> tuple[str, ...] | None:
    paths = menu.paths(to)
    if not paths:
        return None
    if via is None:
        return paths[0]
    return next((p for p in paths if via in p[:-1]), None)


# ---------------------------------------------------------------------------------------------
# The mutable table of one transition


class Table:
    """A scratch copy of the state for one transition, frozen again by :meth:`freeze`.

    The hooks an expansion overrides: :meth:`on_place` (entering a place: E7 order),
    :meth:`after_move` (base: the flip offer of §4.1 step 4; expansion: Phase 2), :meth:`resolve`
    (token effects), :meth:`die`; prices come from the rules object (``sea_fare``, ``air_fare``,
    ``flip_price``).
    """

    def __init__(self, s: State, rules: BaseRules) -> None:
        self.s = s
        self.rules = rules
        self.options = s.options
        self.seed = s.seed
        self.ply = s.ply
        self.n = s.players
        self.phase = s.phase
        self.turn = s.turn
        self.first_seat = s.first_seat
        self.round = s.round
        self.pawns = list(s.pawns)
        self.contents = s.contents
        self.stacks = s.stacks
        self.revealed = list(s.revealed)
        self.star_found = s.star_found
        self.capetown_claimed = s.capetown_claimed
        self.move = s.move
        self.flipped = s.flipped
        self.last_roll = s.last_roll
        self.last_roller = s.last_roller
        self.winner = s.winner
        self.end_reason = s.end_reason
        self.dice = list(s.dice)
        self.ext = s.ext
        self.events: list[Event] = []
        self.n_rng = 0

    def freeze(self) -> State:
        return replace(
            self.s, ply=self.ply, phase=self.phase, turn=self.turn, first_seat=self.first_seat,
            round=self.round, pawns=tuple(self.pawns), stacks=self.stacks,
            revealed=tuple(self.revealed), star_found=self.star_found,
            capetown_claimed=self.capetown_claimed, move=self.move, flipped=self.flipped,
            last_roll=self.last_roll, last_roller=self.last_roller, winner=self.winner,
            end_reason=self.end_reason, dice=tuple(self.dice), ext=self.ext,
        )

    # --- small helpers -------------------------------------------------------------------------
    def emit(self, code: str, audience: Seat | Iterable[Seat] | None = None, **params: Any) -> None:
        self.events.append(ev(code, audience, **params))

    def rng(self, purpose: str) -> Random:
        self.n_rng += 1  # several random steps may happen within one ply: number them
        return rng_for(self.seed, self.ply, f"{purpose}{self.n_rng}")

    def die(self, seat: int, purpose: str) -> int:
        """One d6 roll by ``seat`` (preset dice first), announced to everyone."""
        value = self.dice.pop(0) if self.dice else self.rng("d6").randint(1, 6)
        if not 1 <= value <= 6:
            raise ValueError(f"preset die {value} out of range")
        self.last_roll = value
        self.last_roller = seat
        self.emit("rolled", seat=seat, die=value, purpose=purpose)
        return value

    def set_pawn(self, seat: int, **changes: Any) -> Pawn:
        p = replace(self.pawns[seat], **changes)
        self.pawns[seat] = p
        return p

    def pay(self, seat: int, amount: int) -> None:
        cash = self.pawns[seat].cash
        assert cash >= amount, (cash, amount)
        self.set_pawn(seat, cash=cash - amount)

    def kind(self, tid: str) -> str:
        return kind_of(self.contents, tid)

    @property
    def over(self) -> bool:
        return self.phase == OVER

    # --- hooks ---------------------------------------------------------------------------------
    def on_place(self, seat: int, place: str, stop: bool) -> None:
        """Entering a place (E7): the win check, then the Capetown bonus."""
        pawn = self.pawns[seat]
        if place in GOALS and pawn.items:
            self.win(seat, place)
            return
        if place == CAPETOWN and self.capetown_claimed is None and self.options.capetown_bonus > 0:
            self.capetown_claimed = seat
            self.set_pawn(seat, cash=pawn.cash + self.options.capetown_bonus)
            self.emit("capetown_bonus", seat=seat, amount=self.options.capetown_bonus)

    def after_move(self, seat: int) -> None:
        """§4.1 step 4: after a move ending on a face-down token, the player may pay and flip it."""
        pawn = self.pawns[seat]
        if (not self.flipped and top_token(self.stacks, pawn.node) is not None
                and pawn.cash >= self.rules.flip_price(self, seat)):
            self.phase = AFTER_MOVE
        else:
            self.end_turn()

    def resolve(self, seat: int, place: str, tid: str, kind: str) -> None:
        """§4.7 token effects and the Slave Coast rule of §4.8."""
        pawn = self.pawns[seat]
        cid = content_id(tid, kind)
        if kind == "star":
            self.star_found = True
            self.set_pawn(seat, items=(*pawn.items, tid))
            self.emit("star_found", seat=seat, token=cid)
        elif kind in GEM_VALUES:
            value = self.options.emerald_value if kind == "emerald" else GEM_VALUES[kind]
            doubled = place == GOLD_COAST
            amount = value * (2 if doubled else 1)
            self.set_pawn(seat, cash=pawn.cash + amount)
            self.emit("gem", seat=seat, token=cid, kind=kind, amount=amount, doubled=doubled)
        elif kind == "robber":
            self.set_pawn(seat, cash=0)
            self.emit("robbed", seat=seat, token=cid, lost=pawn.cash)
        elif kind == "horseshoe":
            if self.star_found:
                self.set_pawn(seat, items=(*pawn.items, tid))
                self.emit("horseshoe_kept", seat=seat, token=cid)
            else:
                self.emit("horseshoe_worthless", seat=seat, token=cid)
        elif kind == "blank":
            self.emit("blank", seat=seat, token=cid)
            if place == SLAVE_COAST:
                self.lose_turns(seat, SLAVE_COAST_LOST_TURNS, "slave_coast")

    # --- turn flow -----------------------------------------------------------------------------
    def lose_turns(self, seat: int, turns: int, reason: str) -> None:
        pawn = self.set_pawn(seat, lost_turns=self.pawns[seat].lost_turns + turns)
        self.emit("turns_lost", seat=seat, turns=turns, pending=pawn.lost_turns, reason=reason)

    def advance_seat(self) -> None:
        nxt = (self.turn + 1) % self.n
        if nxt == self.first_seat:
            self.round += 1
            limit = self.options.max_rounds
            if limit and self.round > limit:
                self.round = limit
                self.finish(None, "round_limit")
                return
        self.turn = nxt

    def begin_turn(self) -> None:
        """Serve lost turns (§4.1 step 1), then open the release roll or the declaration."""
        while not self.over:
            seat = self.turn
            pawn = self.pawns[seat]
            if pawn.lost_turns > 0:
                pawn = self.set_pawn(seat, lost_turns=pawn.lost_turns - 1)
                self.emit("turn_lost", seat=seat, pending=pawn.lost_turns)
                self.advance_seat()
                continue
            self.flipped = False
            self.move = None
            self.phase = RELEASE if pawn.captured else DECLARE
            self.emit("turn", seat=seat, round=self.round)
            return

    def end_turn(self) -> None:
        self.move = None
        self.flipped = False
        self.advance_seat()
        self.begin_turn()

    def win(self, seat: int, goal: str) -> None:
        pawn = self.pawns[seat]
        kinds = [self.kind(t) for t in pawn.items]
        item = "star" if "star" in kinds else "horseshoe"
        tid = pawn.items[kinds.index(item)]
        self.emit("won", seat=seat, goal=goal, item=item, token=content_id(tid, item))
        self.finish(seat, "goal")

    def finish(self, winner: int | None, reason: str) -> None:
        self.winner = winner
        self.end_reason = reason
        self.phase = OVER
        self.move = None
        out = outcome_of(self.pawns, winner, self.contents)
        self.emit("game_over", reason=reason, winner=winner, ranks=out.ranks, cash=out.scores)

    # --- movement ------------------------------------------------------------------------------
    def begin_move(self, seat: int, steps: int, roll: int) -> None:
        node = self.pawns[seat].node
        assert node is not None
        self.move = Movement(steps=steps, roll=roll, visited=(node,), arrived="start")

    def offer_move(self, seat: int) -> None:
        """Open the ``move`` phase, or carry out the only possible ending at once."""
        pawn = self.pawns[seat]
        assert self.move is not None and pawn.node is not None
        menu = menu_of(self.rules, self, seat)
        actions = menu_actions(menu, pawn.node)
        # [decided] a move with a single possible ending needs no decision: it is carried out
        if len(actions) == 1:
            self.do_move_action(seat, actions[0], menu)
        else:
            self.phase = MOVE

    def do_move_action(self, seat: int, action: Action, menu: MoveMenu) -> None:
        pawn = self.pawns[seat]
        assert self.move is not None and pawn.node is not None
        match action:
            case Move(to, via) if to == pawn.node and via is None:
                self.end_move(seat)
            case Move(to, via):
                path = chosen_path(menu, to, via)
                assert path is not None
                self.walk(seat, path)
            case Board(to):
                self.board(seat, to, paid=True)
                self.sail(seat, self.move.steps)

    def walk(self, seat: int, path: tuple[str, ...]) -> None:
        """A land segment along ``path``; pauses on a port where the pawn could still board."""
        move = self.move
        assert move is not None
        start = self.pawns[seat].node
        self.set_pawn(seat, node=path[-1])
        self.move = move = replace(move, steps=move.steps - len(path), visited=(*move.visited, *path),
                                   arrived="land")
        self.emit("moved", seat=seat, start=start, dest=path[-1], path=path, steps=len(path), by="land")
        for i, node in enumerate(path):
            if node in PLACE_SET:
                self.on_place(seat, node, stop=i == len(path) - 1)
                if self.over:
                    return
        pawn = self.pawns[seat]
        assert pawn.node is not None
        # [decided] S6: ending a land segment on a port with steps left and a leg to board keeps the
        # move open (``board <port>``, more land steps, or ``move <port>`` to stop there)
        if move.steps > 0 and pawn.node in PORTS and menu_of(self.rules, self, seat).boards:
            self.phase = MOVE
            return
        self.end_move(seat)

    def board(self, seat: int, dest: str, paid: bool) -> None:
        pawn = self.pawns[seat]
        assert pawn.node is not None
        leg = LEGS[(pawn.node, dest)]
        fare = self.rules.sea_fare(self, seat) if paid else 0
        if fare:
            self.pay(seat, fare)
        self.set_pawn(seat, voyage=Voyage(leg.id, leg.origin, leg.dest, 0, paid))
        self.emit("boarded", seat=seat, port=pawn.node, dest=dest, leg=leg.id, fare=fare, free=not paid)

    def sail(self, seat: int, steps: int) -> None:
        """Advance the pawn's voyage by up to ``steps`` (S3/S4), then continue or end the move."""
        pawn = self.pawns[seat]
        v = pawn.voyage
        assert v is not None and self.move is not None
        leg = LEGS[(v.origin, v.dest)]
        visited = set(self.move.visited)
        at, used = v.at, 0
        path: list[str] = []
        while used < steps and at < leg.steps:
            nxt = leg.path[at + 1]
            if nxt in visited:  # M4: the voyage cannot go on without entering a visited node
                break
            at += 1
            used += 1
            path.append(nxt)
            if self.options.hazard_trigger == "pass_through" and nxt in HAZARDS:
                break
        arrived = at == leg.steps
        assert arrived or at > 0, "a voyage always leaves its port"  # boarding needs a free first node
        node = leg.path[at]
        self.set_pawn(seat, node=node, voyage=None if arrived else replace(v, at=at))
        self.move = replace(self.move, steps=steps - used if arrived else 0,
                            visited=(*self.move.visited, *path), arrived="sea")
        self.emit("sailed", seat=seat, leg=v.leg, dest=v.dest, path=tuple(path), steps=used,
                  at=at, arrived=arrived)
        if arrived:
            self.on_place(seat, node, stop=True)
            if self.over:
                return
            if v.paid and self.move.steps > 0:
                self.offer_move(seat)
                return
        self.end_move(seat)

    def end_move(self, seat: int) -> None:
        pawn = self.pawns[seat]
        assert pawn.node is not None
        if pawn.node in HAZARDS and not pawn.captured:
            self.set_pawn(seat, captured=True)
            self.emit("captured", seat=seat, node=pawn.node, hazard=HAZARDS[pawn.node])
        self.move = None
        self.after_move(seat)

    # --- tokens --------------------------------------------------------------------------------
    def flip(self, seat: int, price: int, by: str) -> None:
        pawn = self.pawns[seat]
        assert pawn.node is not None
        i = TREASURE_INDEX[pawn.node]
        tid = self.stacks[i][-1]
        self.stacks = (*self.stacks[:i], self.stacks[i][:-1], *self.stacks[i + 1:])
        if price:
            self.pay(seat, price)
        kind = self.kind(tid)
        self.flipped = True
        self.revealed.append((tid, pawn.node))
        self.emit("flipped", seat=seat, place=pawn.node, token=content_id(tid, kind), kind=kind,
                  paid=price, by=by)
        self.resolve(seat, pawn.node, tid, kind)

    # --- actions -------------------------------------------------------------------------------
    def perform(self, seat: int, action: Action) -> None:
        self.ply += 1
        pawn = self.pawns[seat]
        match action:
            case Start(place):
                self.set_pawn(seat, node=place)
                self.emit("start_chosen", seat=seat, place=place)
                nxt = next((s for s in range(self.n) if self.pawns[s].node is None), None)
                if nxt is None:
                    self.round = 1
                    self.turn = self.first_seat
                    self.begin_turn()
                else:
                    self.turn = nxt
            case Roll() if self.phase == RELEASE:
                value = self.die(seat, "release")
                if value in self.options.hazard_release_faces:
                    self.set_pawn(seat, captured=False)
                    self.emit("released", seat=seat)
                else:
                    self.emit("still_captured", seat=seat)
                self.end_turn()
            case Roll():
                value = self.die(seat, "move")
                self.begin_move(seat, value, value)
                if pawn.voyage is not None:
                    self.sail(seat, value)
                else:
                    self.offer_move(seat)
            case Move() | Board() if self.phase == MOVE:
                assert pawn.node is not None
                self.do_move_action(seat, action, menu_of(self.rules, self, seat))
            case Board(to):
                value = self.die(seat, "move")
                self.begin_move(seat, value, value)
                self.board(seat, to, paid=True)
                self.sail(seat, value)
            case FreeSail(to):
                # [decided] ``free_sail <dest>`` both boards and continues a free passage (§7 has no
                # separate continue command); a paid voyage continues with ``roll``
                steps = self.options.broke_sea_steps
                self.begin_move(seat, steps, 0)
                if pawn.voyage is None:
                    self.board(seat, to, paid=False)
                self.sail(seat, steps)
            case Fly(to):
                assert pawn.node is not None
                fare = self.rules.air_fare(self, seat)
                self.pay(seat, fare)
                self.set_pawn(seat, node=to)
                self.emit("flew", seat=seat, start=pawn.node, dest=to, fare=fare)
                self.on_place(seat, to, stop=True)
                if not self.over:
                    self.end_move(seat)
            case Flip():
                self.flip(seat, self.rules.flip_price(self, seat), "pay")
                if not self.over:
                    self.end_turn()
            case FlipRoll():
                value = self.die(seat, "flip")
                if value in FLIP_ROLL_FACES:
                    self.flip(seat, 0, "roll")
                else:
                    self.emit("flip_failed", seat=seat, place=pawn.node)
                if not self.over:
                    self.end_turn()
            case Stay():
                self.emit("stayed", seat=seat)
                self.end_turn()
            case EndPhase():
                # [decided] declining the §4.1 step 4 flip uses ``end_phase`` (the spec's "no" to a phase)
                self.end_turn()


# ---------------------------------------------------------------------------------------------
# Outcome (spec §4.10)


def outcome_of(pawns: Iterable[Pawn], winner: int | None, contents: tuple[tuple[str, str], ...]) -> Outcome:
    """The winner first; [decided] the others share places by cash (the spec ranks only the
    winner). At the round limit: holders of a winning item first (the Star before horseshoes), then
    cash. ``scores`` are the final cash."""
    pawns = tuple(pawns)
    cash = tuple(p.cash for p in pawns)

    def item_rank(p: Pawn) -> int:
        kinds = {kind_of(contents, t) for t in p.items}
        return 2 if "star" in kinds else 1 if kinds else 0

    keys = [((0 if s == winner else 1) if winner is not None else -item_rank(p), -cash[s])
            for s, p in enumerate(pawns)]
    ranks = tuple(1 + sum(1 for k in keys if k < mine) for mine in keys)
    winners = tuple(s for s, r in enumerate(ranks) if r == 1)
    return Outcome(ranks=ranks, scores=cash, winners=winners, low_wins=False)


# ---------------------------------------------------------------------------------------------
# Setup (spec §3.1-3.2)


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


def setup(players: int, seed: str, options: Options, layout: Mapping[str, str],
          first_seat: int | None, dice: tuple[int, ...]) -> tuple[State, tuple[Event, ...]]:
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
    state = State(
        seed=seed, ply=0, players=players, options=options, phase=SETUP, turn=0, first_seat=first,
        round=0, pawns=pawns, contents=tuple(zip(tids, kinds)), stacks=tuple((t,) for t in tids),
        revealed=(), star_found=False, capetown_claimed=None, move=None, flipped=False, last_roll=None,
        last_roller=None, winner=None, end_reason=None, dice=tuple(dice),
        preset_layout=tuple(sorted(layout.items())), preset_first=first_seat,
    )
    if options.start_place == "random":
        t = rules_for(options).table_class(state, rules_for(options))
        t.round = 1
        t.turn = first
        t.begin_turn()
        state = t.freeze()
        events.extend(t.events)
    return state, tuple(events)


# ---------------------------------------------------------------------------------------------
# Legality (written once) and the candidate actions


def to_act(state: State) -> tuple[int, ...]:
    return rules_for(state.options).to_act(state)


def _need(cond: bool, code: str, **params: Any) -> None:
    if not cond:
        raise IllegalAction(code, **params)


class BaseRules:
    """The base game. The expansion's rules subclass this and its ``Table``."""

    table_class: type[Table] = Table
    phase_actions: dict[str, tuple[type, ...]] = PHASE_ACTIONS

    def setup(self, players: int, seed: str, options: Options,
              presets: Mapping[str, Any]) -> tuple[State, tuple[Event, ...]]:
        """A new game and its setup events; ``presets`` are the test keywords of ``new_game``."""
        unknown = set(presets) - {"layout", "first_seat", "dice"}
        if unknown:
            raise ValueError(f"presets not used by the base game: {sorted(unknown)}")
        return setup(players, seed, options, dict(presets.get("layout") or {}), presets.get("first_seat"),
                     tuple(presets.get("dice") or ()))

    def start_events(self, state: State) -> tuple[Event, ...]:
        return setup(state.players, state.seed, state.options, dict(state.preset_layout),
                     state.preset_first, ())[1]

    def to_act(self, state: State) -> tuple[int, ...]:
        return () if state.phase == OVER else (state.turn,)

    def check(self, state: State, seat: Seat, action: Any) -> None:
        if not isinstance(action, ACTION_TYPES):
            raise IllegalAction("unknown_action")
        if state.phase == OVER:
            raise IllegalAction("game_over")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
            raise IllegalAction("no_such_seat", seat=seat if isinstance(seat, int) else None)
        if seat not in to_act(state):
            raise IllegalAction("not_your_turn", turn=state.turn)
        if not isinstance(action, self.phase_actions[state.phase]):
            raise IllegalAction("wrong_phase", phase=state.phase)
        pawn = state.pawns[seat]
        node = pawn.node
        phase = state.phase
        match action:
            case Start(place):
                _need(place in STARTS, "not_a_start", place=place)
            case Roll() if phase == DECLARE:
                v = pawn.voyage
                _need(v is None or v.paid, "free_passage", dest=v.dest if v is not None else None)
            case Roll():
                pass
            case Move(to, via) if phase == MOVE:
                assert node is not None
                menu = menu_of(self, state, seat)
                if to == node and via is None:
                    _need(menu.stop_here, "not_a_place", node=node)
                    return
                _need(may_land(state.move, state.options) if state.move else False, "land_not_allowed")
                paths = menu.paths(to)
                _need(paths is not None, "not_reachable", to=to)
                if via is not None:
                    _need(any(via in p[:-1] for p in paths or ()), "not_on_path", via=via)
                    vias = next(v for d, _p, v in menu.dests if d == to)
                    _need(via in vias, "via_not_needed", via=via)
            case Board(to) if phase == MOVE:
                assert node is not None and state.move is not None
                _need(node in PORTS, "not_a_port", node=node)
                _need(state.move.steps > 0, "no_steps_left")
                _need(may_board_here(state.move, state.options), "cannot_board_here")
                _need((node, to) in LEGS, "no_such_leg", port=node, dest=to)
                fare = self.sea_fare(state, seat)
                _need(pawn.cash >= fare, "cannot_afford", price=fare, cash=pawn.cash)
                _need(LEGS[(node, to)].path[1] not in state.move.visited, "leg_blocked", dest=to)
            case Board(to):
                _need(pawn.voyage is None, "at_sea")
                _need(node in PORTS, "not_a_port", node=node)
                _need((node, to) in LEGS, "no_such_leg", port=node, dest=to)
                fare = self.sea_fare(state, seat)
                _need(pawn.cash >= fare, "cannot_afford", price=fare, cash=pawn.cash)
            case FreeSail(to):
                v = pawn.voyage
                if v is not None:
                    _need(not v.paid, "paid_voyage")
                    _need(to == v.dest, "wrong_destination", dest=v.dest)
                    return
                _need(node in PORTS, "not_a_port", node=node)
                _need((node, to) in LEGS, "no_such_leg", port=node, dest=to)
                fare = self.sea_fare(state, seat)
                _need(pawn.cash < fare, "can_afford_fare", fare=fare)
            case Fly(to):
                _need(pawn.voyage is None, "at_sea")
                _need(node in AIRPORTS, "not_an_airport", node=node)
                _need((node, to) in AIR, "no_such_route", start=node, to=to)
                fare = self.air_fare(state, seat)
                _need(pawn.cash >= fare, "cannot_afford", price=fare, cash=pawn.cash)
            case Flip():
                _need(top_token(state.stacks, node) is not None, "no_token")
                _need(not state.flipped, "already_flipped")
                price = self.flip_price(state, seat)
                _need(pawn.cash >= price, "cannot_afford", price=price, cash=pawn.cash)
            case FlipRoll():
                _need(top_token(state.stacks, node) is not None, "no_token")
                _need(not state.flipped, "already_flipped")
                if roll_only_when_broke(state.options):
                    price = self.flip_price(state, seat)
                    _need(pawn.cash < price, "can_afford_flip", price=price)
            case Stay() | EndPhase():
                pass

    def candidates(self, state: State, seat: Seat) -> tuple[Action, ...]:
        if seat not in to_act(state):
            return ()
        pawn = state.pawns[seat]
        node = pawn.node
        match state.phase:
            case "setup":
                return tuple(Start(p) for p in STARTS)
            case "release":
                return (Roll(),)
            case "move":
                assert node is not None
                return menu_actions(menu_of(self, state, seat), node)
            case "after_move":
                return (Flip(), EndPhase())
            case "declare":
                assert node is not None
                out: list[Action] = [Roll()]
                if pawn.voyage is not None:
                    out.append(FreeSail(pawn.voyage.dest))
                else:
                    for dest in LEGS_FROM.get(node, ()):
                        out.extend((Board(dest), FreeSail(dest)))
                    out.extend(Fly(d) for d in AIR_FROM.get(node, ()))
                    out.extend((Flip(), FlipRoll()))
                out.append(Stay())
                return tuple(out)
        return ()

    # --- prices (hooks: Retkikunnat's characters and cards change them) -------------------------
    def sea_fare(self, state: State | Table, seat: int) -> int:
        return SEA_FARE

    def air_fare(self, state: State | Table, seat: int) -> int:
        return AIR_FARE

    def flip_price(self, state: State | Table, seat: int) -> int:
        return FLIP_PRICE

    def perform(self, state: State, seat: Seat, action: Action) -> tuple[State, tuple[Event, ...]]:
        t = self.table_class(state, self)
        t.perform(seat, action)
        return t.freeze(), tuple(t.events)

    def view(self, state: State, seat: Seat | None) -> View:
        kinds = dict(state.contents)
        return View(
            seat=seat, players=state.players, options=state.options, phase=state.phase,
            turn=None if state.phase == OVER else state.turn, to_act=to_act(state), round=state.round,
            first_seat=state.first_seat,
            pawns=tuple(PawnView(p.node, p.cash, p.lost_turns, p.captured, p.voyage,
                                 tuple(content_id(t, kinds[t]) for t in p.items))
                        for p in state.pawns),
            face_down=tuple((TREASURE_PLACES[i], t) for i, st in enumerate(state.stacks) for t in st),
            revealed=tuple((place, content_id(t, kinds[t])) for t, place in state.revealed),
            star_found=state.star_found,
            star_holder=next((s for s, p in enumerate(state.pawns)
                              for t in p.items if kinds[t] == "star"), None),
            capetown_claimed=state.capetown_claimed, last_roll=state.last_roll,
            last_roller=state.last_roller, move=state.move, flipped_this_turn=state.flipped,
            winner=state.winner, end_reason=state.end_reason,
        )

    def hidden_tokens(self, state: State, seat: Seat | None) -> frozenset[str]:
        down = {t for st in state.stacks for t in st}
        return frozenset(content_id(t, k) for t, k in state.contents if t in down)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != OVER:
            return None
        return outcome_of(state.pawns, state.winner, state.contents)


RULESETS: dict[str, BaseRules] = {"base": BaseRules()}


def rules_for(options: Options) -> BaseRules:
    return RULESETS["expansion" if options.expansion else "base"]
