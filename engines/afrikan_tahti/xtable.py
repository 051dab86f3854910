"""The Retkikunnat transition: :class:`ExpTable`, the base ``Table`` with the expansion's turn (§5.4),
movement (§5.5) and flips (§5.2); setup is in :mod:`.xsetup`. Cards, danger situations, duels and trading,
and reaction windows are mixins from :mod:`.xcards`, :mod:`.danger`, :mod:`.duels`, :mod:`.windows`.

Work is driven by ``self.stack`` (``Ext.stack``): after every action :meth:`ExpTable.settle` runs the
automatic jobs on top until a prompt (someone must answer) is on top or the stack is empty (the
phase's own actions are due). A walk is a chain of ``walk`` jobs, one stretch per place entered, so
that event cards drawn there are resolved before the pawn moves on (§5.6 E3).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

from engines.afrikan_tahti.board import (
    GEM_VALUES,
    GOLD_COAST,
    HAZARDS,
    LEGS,
    PLACE_SET,
    PORTS,
    SLAVE_COAST,
)
from engines.afrikan_tahti.cards import Deck, card_id
from engines.afrikan_tahti.danger import DangerMixin
from engines.afrikan_tahti.duels import DuelsMixin
from engines.afrikan_tahti.model import (
    DECLARE,
    MOVE,
    RELEASE,
    SETUP,
    SLAVE_COAST_LOST_TURNS,
    TREASURE_INDEX,
    Board,
    EndPhase,
    Flip,
    FlipRoll,
    Fly,
    FreeSail,
    Move,
    Movement,
    Roll,
    Start,
    State,
    Stay,
    content_id,
)
from engines.afrikan_tahti.rules import BaseRules, Table, chosen_path
from engines.afrikan_tahti.windows import WindowsMixin
from engines.afrikan_tahti.xcards import CardsMixin
from engines.afrikan_tahti.xdata import (
    EXP,
    FACES,
    effect,
    starting_cards,
)
from engines.afrikan_tahti.xmodel import (
    CHARACTER,
    PHASE2,
    PHASE3,
    Adjust,
    Character,
    Duel,
    Ext,
    GemRoll,
    Job,
    MoveCtx,
    Offer,
    RerollMove,
    Seaplane,
    SeatX,
    TurnX,
    Use,
    job,
)
from engines.afrikan_tahti.xquery import DISCOVERY_PRICE, PROMPTS, SEAPLANE_PRICE, Q, first_places, sea_reach

PHASE1_KINDS = ("die", "free", "fly", "seaplane")
MOVEMENT_JOBS = frozenset({"walk", "walk_end", "sail_end", "seg_end", "draw_event"})


class ExpTable(WindowsMixin, CardsMixin, DangerMixin, DuelsMixin, Q, Table):
    def __init__(self, s: State, rules: BaseRules) -> None:
        super().__init__(s, rules)
        x: Ext = s.ext
        self.sx: list[SeatX] = list(x.seats)
        self.decks: dict[str, Deck] = {"expedition": x.expedition, "event": x.event, "danger": x.danger}
        self.rain = x.rain
        self.known: list[str] = list(x.known)
        self.stack: list[Job] = list(x.stack)
        self.tx: TurnX = x.turn
        self.resolving: list[str] = list(x.resolving)
        self.ddice: list[str] = list(x.ddice)
        self.presets = x.presets

    def freeze(self) -> State:
        ext = Ext(seats=tuple(self.sx), expedition=self.decks["expedition"], event=self.decks["event"],
                  danger=self.decks["danger"], rain=self.rain,
                  known=tuple(t for t in self.known if any(t in st for st in self.stacks)),
                  stack=tuple(self.stack), turn=self.tx, resolving=tuple(self.resolving),
                  ddice=tuple(self.ddice), presets=self.presets)
        self.ext = ext
        return replace(super().freeze(), ext=ext)

    # --- small helpers -----------------------------------------------------------------------
    def push(self, j: Job) -> None:
        self.stack.append(j)

    def set_sx(self, seat: int, **changes: Any) -> SeatX:
        v = replace(self.sx[seat], **changes)
        self.sx[seat] = v
        return v

    def add_cash(self, seat: int, amount: int) -> None:
        self.set_pawn(seat, cash=max(0, self.pawns[seat].cash + amount))

    def danger_die(self) -> str:
        if self.ddice:
            face = self.ddice.pop(0)
            if face not in FACES:
                raise ValueError(f"preset danger die {face!r} is not a face")
            return face
        return self.rng("dd").choice(FACES)

    def roll_dice(self, n: int = 5) -> tuple[str, ...]:
        return tuple(self.danger_die() for _ in range(n))

    def mark_used(self, seat: int, key: str) -> None:
        self.set_sx(seat, used=(*self.sx[seat].used, key))

    # --- the driver ----------------------------------------------------------------------------
    def settle(self) -> None:
        """Run automatic jobs until a prompt is on top, the stack is empty or the game is over."""
        while not self.over and self.stack:
            j = self.stack[-1]
            if j.kind in PROMPTS:
                return
            self.stack.pop()
            getattr(self, f"job_{j.kind}")(j)

    def perform(self, seat: int, action: Any) -> None:
        self.ply += 1
        j = self.stack[-1] if self.stack else None
        if j is not None:
            getattr(self, f"answer_{j.kind}")(j, seat, action)
        else:
            self.act(seat, action)
        self.settle()

    # --- the phases' own actions -----------------------------------------------------------------
    def act(self, seat: int, action: Any) -> None:
        phase = self.phase
        pawn = self.pawns[seat]
        match action:
            case Character(c):
                self.choose_character(seat, c)
                self.next_setup_step()
            case Start(place):
                self.set_pawn(seat, node=place)
                self.emit("start_chosen", seat=seat, place=place)
                self.next_setup_step()
            case Roll() if phase == RELEASE:
                self.release_roll(seat)
            case Move() | Board() if phase == MOVE:
                self.do_move_action(seat, action, None)
            case Roll():
                self.tx = replace(self.tx, declared="roll")
                value = self.die(seat, "move")
                self.tx = replace(self.tx, die=value)
                self.start_move(seat, "die", "any", True, value)
                self.offer_move(seat)
            case Board(to):  # ``board`` before the roll: roll, then board this leg (§7)
                self.tx = replace(self.tx, declared="roll")
                value = self.die(seat, "move")
                self.tx = replace(self.tx, die=value)
                self.start_move(seat, "die", "any", True, value)
                self.do_move_action(seat, Board(to), None)
            case FreeSail(to):
                self.tx = replace(self.tx, declared="free_sail")
                steps = self.broke_steps(seat)
                self.start_move(seat, "free", "sea", True, steps)
                if pawn.voyage is None:
                    self.board(seat, to, paid=False)
                self.sail(seat, steps)
            case Fly(to):
                assert pawn.node is not None
                fare = self.air_fare(seat)
                self.tx = replace(self.tx, declared="fly", visited=(*self.tx.visited, to), moved=True,
                                  mv=MoveCtx("fly", "any", True, pawn.node))
                self.pay(seat, fare)
                self.set_pawn(seat, node=to)
                self.emit("flew", seat=seat, start=pawn.node, dest=to, fare=fare)
                self.push(job("seg_end", seat))
                self.on_place(seat, to, stop=True)
            case Seaplane(to):
                inst = self.inst(seat, "seaplane")
                assert inst is not None
                self.tx = replace(self.tx, declared="seaplane")
                self.announce(seat, inst, "a", ok=job("seaplane", seat, to=to), ko=job("undeclare", seat))
            case Stay():
                self.tx = replace(self.tx, declared="stay")
                self.emit("stayed", seat=seat)
                self.enter_phase2(seat)
            case GemRoll():
                self.tx = replace(self.tx, declared="gem_roll")
                self.gem_roll(seat)
            case RerollMove():
                inst = self.inst(seat, "compass")
                assert inst is not None
                self.tx = replace(self.tx, mods=(*self.tx.mods, "compass"))
                self.announce(seat, inst, "a", ok=job("compass", seat), ko=job("offer_move", seat))
            case Adjust(delta):
                inst = self.inst(seat, "maps")
                assert inst is not None
                self.tx = replace(self.tx, mods=(*self.tx.mods, "maps"))
                self.announce(seat, inst, "a", ok=job("maps", seat, delta=delta), ko=job("offer_move", seat))
            case Flip():
                _code, price, _faces, shovel = self.flip_terms(seat)
                self.tx = replace(self.tx, action="flip")
                self.end_turn()
                if shovel:
                    self.announce(seat, shovel, "p", ok=job("flip_pay", seat, price=price),
                                  ko=job("flip_pay", seat, price=DISCOVERY_PRICE))
                else:
                    self.push(job("flip_pay", seat, price=price))
            case FlipRoll():
                _code, _price, faces, _shovel = self.flip_terms(seat)
                self.tx = replace(self.tx, action="flip")
                self.end_turn()
                if self.die(seat, "flip") in faces:
                    self.flip(seat, 0, "roll")
                else:
                    self.emit("flip_failed", seat=seat, place=pawn.node)
            case Duel():
                self.start_duel(seat, action)
            case Offer():
                self.offer(seat, action)
            case EndPhase() if phase == PHASE2:
                self.end_phase2(seat)
            case EndPhase():
                self.end_turn()
            case _:
                self.act_cards(seat, action)

    def job_undeclare(self, j: Job) -> None:
        self.tx = replace(self.tx, declared=None)

    def job_seaplane(self, j: Job) -> None:
        seat, to = j.seat, j["to"]
        start = self.pawns[seat].node
        assert start is not None
        leg = LEGS[(start, to)]
        self.add_cash(seat, -SEAPLANE_PRICE)
        self.set_pawn(seat, node=to, voyage=None)
        self.tx = replace(self.tx, visited=(*self.tx.visited, *leg.path[1:]), moved=True,
                          mv=MoveCtx("seaplane", "any", True, start))
        self.emit("seaplane", seat=seat, start=start, dest=to, leg=leg.id, paid=SEAPLANE_PRICE)
        self.push(job("seg_end", seat))
        self.on_place(seat, to, stop=True)

    def job_compass(self, j: Job) -> None:
        assert self.move is not None
        value = self.die(j.seat, "compass")
        self.tx = replace(self.tx, die=value)
        self.move = replace(self.move, steps=value, roll=value)
        self.offer_move(j.seat)

    def job_maps(self, j: Job) -> None:
        assert self.move is not None
        steps = min(7, max(1, self.move.steps + j["delta"]))
        self.move = replace(self.move, steps=steps, roll=steps)
        self.emit("die_adjusted", seat=j.seat, delta=j["delta"], steps=steps)
        self.offer_move(j.seat)

    def job_offer_move(self, j: Job) -> None:
        self.offer_move(j.seat)

    def answer_lost_turn(self, j: Job, seat: int, action: Any) -> None:
        self.stack.pop()
        inst = self.inst(seat, "tinned_food")
        if isinstance(action, Use) and inst is not None:
            self.announce(seat, inst, "a", ok=job("tinned_food", seat, resume=True), ko=job("serve_lost", seat),
                          discard=True)
        else:
            self.serve_lost(seat)
            self.begin_turn()

    # --- setup ---------------------------------------------------------------------------------
    def choose_character(self, seat: int, character: str) -> None:
        mine = starting_cards(character)
        deck = self.decks["expedition"]
        taken = tuple(next(i for i in deck.draw if card_id(i) == c) for c in mine)
        self.decks["expedition"] = replace(deck, draw=tuple(i for i in deck.draw if i not in taken))
        self.set_sx(seat, character=character, cards=taken)
        self.emit("character", seat=seat, character=character, cards=taken)

    def next_setup_step(self) -> None:
        """After a character or start choice: the next seat to choose, or the first turn."""
        missing = next((s for s in range(self.n) if self.sx[s].character is None), None)
        if missing is not None:
            self.phase, self.turn = CHARACTER, missing
            return
        missing = next((s for s in range(self.n) if self.pawns[s].node is None), None)
        if missing is not None:
            self.phase, self.turn = SETUP, missing
            return
        if self.options.quick_game:  # §3.4: two expedition cards each, in seat order
            for s in range(self.n):
                for _ in range(2):
                    self.draw_expedition(s, "quick_game")
        self.round = 1
        self.turn = self.first_seat
        self.begin_turn()

    # --- turn flow (§5.4) ----------------------------------------------------------------------
    def begin_turn(self) -> None:
        while not self.over:
            seat = self.turn
            self.set_sx(seat, used=())  # refresh: cards and once-per-turn abilities become unused
            pawn = self.pawns[seat]
            self.move = None
            self.flipped = False
            self.tx = TurnX()
            if pawn.lost_turns > 0:
                if self.usable(seat, "tinned_food", "a"):
                    self.phase = DECLARE
                    self.push(job("lost_turn", seat))
                    self.emit("lost_turn_prompt", seat=seat, pending=pawn.lost_turns)
                    return
                self.serve_lost(seat)
                continue
            node = pawn.node
            assert node is not None
            self.tx = TurnX(visited=(node,), places=(node,) if node in PLACE_SET else ())
            self.phase = RELEASE if pawn.captured else DECLARE
            self.emit("turn", seat=seat, round=self.round)
            return

    def serve_lost(self, seat: int) -> None:
        pawn = self.set_pawn(seat, lost_turns=self.pawns[seat].lost_turns - 1)
        self.emit("turn_lost", seat=seat, pending=pawn.lost_turns)
        self.advance_seat()

    def job_serve_lost(self, j: Job) -> None:
        self.serve_lost(j.seat)
        self.begin_turn()

    def job_begin_turn(self, j: Job) -> None:
        self.begin_turn()

    def end_turn(self) -> None:
        self.push(job("end_turn", self.turn))

    def job_end_turn(self, j: Job) -> None:
        seat = j.seat
        self.push(job("turn_over", seat))
        farmer = self.usable(seat, "farmer", "a") if self.tx.declared == "stay" else None
        if farmer:  # edge 58: an announced use at the end of the turn
            self.announce(seat, farmer, "a", ok=job("cash", seat, amount=300, reason="farmer"))

    def job_turn_over(self, j: Job) -> None:
        self.move = None
        self.flipped = False
        self.tx = TurnX()
        self.advance_seat()
        self.begin_turn()

    def job_cash(self, j: Job) -> None:
        self.add_cash(j.seat, j["amount"])
        self.emit("income", seat=j.seat, amount=j["amount"], reason=j["reason"])

    def enter_phase2(self, seat: int) -> None:
        self.phase = PHASE2
        self.move = None
        if not self.sx[seat].cards and not self.sx[seat].hand and not self.char_phase_options(seat):
            self.end_phase2(seat)

    def end_phase2(self, seat: int) -> None:
        self.push(job("phase3", seat))
        if self.tx.moved:
            self.capture_check(seat)

    def job_phase3(self, j: Job) -> None:
        self.phase = PHASE3
        if not self.phase3_possible(j.seat):
            self.end_turn()

    def char_phase_options(self, seat: int) -> bool:
        node = self.pawns[seat].node
        return bool(
            (self.has_char(seat, "swap_token_stack") and "@swap" not in self.sx[seat].used
             and self.top_token(node) is not None)
            or (self.has_char(seat, "peek_token") and "@peek" not in self.sx[seat].used
                and self.top_token(node) is not None)
            or (self.has_char(seat, "buy_from_discard") and "@buy" not in self.sx[seat].used
                and node in PLACE_SET and self.decks["expedition"].discard))

    def phase3_possible(self, seat: int) -> bool:
        """Whether Phase 3 offers anything (public facts only), else it is skipped [decided]."""
        code, price, _faces, _shovel = self.flip_terms(seat)
        if code is None and (self.pawns[seat].cash >= price or self.may_flip_roll(seat, price)):
            return True
        return bool(self.same_node(seat)) or self.char_phase_options(seat)

    # --- captures and releases ------------------------------------------------------------------
    def capture_check(self, seat: int) -> None:
        """H2 at the end of the turn's movement (end of Phase 2), or when an effect places a pawn."""
        pawn = self.pawns[seat]
        if pawn.node not in HAZARDS or pawn.captured:
            return
        hazard = HAZARDS[pawn.node]
        immune = next((i for c in ("camel", "guide") if (i := self.usable(seat, c, "p"))
                       and hazard in (effect(c, "hazard_immunity") or {}).get("hazards", ())), None)
        if immune:
            self.announce(seat, immune, "p", ok=job("not_captured", seat), ko=job("capture", seat))
        else:
            self.capture(seat)

    def capture(self, seat: int) -> None:
        pawn = self.set_pawn(seat, captured=True)
        self.emit("captured", seat=seat, node=pawn.node, hazard=HAZARDS[pawn.node or ""])

    def job_capture(self, j: Job) -> None:
        self.capture(j.seat)

    def job_not_captured(self, j: Job) -> None:
        self.emit("not_captured", seat=j.seat, node=self.pawns[j.seat].node)

    def job_release(self, j: Job) -> None:
        self.set_pawn(j.seat, captured=False)
        self.emit("released", seat=j.seat)

    def release_roll(self, seat: int) -> None:
        """H3 in the expansion: the roll, then Phase 2 without movement and Phase 3."""
        self.tx = replace(self.tx, declared="release")
        value = self.die(seat, "release")
        self.push(job("phase2", seat))
        if value in self.options.hazard_release_faces:
            self.set_pawn(seat, captured=False)
            self.emit("released", seat=seat)
            return
        hazard = HAZARDS[self.pawns[seat].node or ""]
        card = next((i for c in ("old_salt", "tent", "swimming") if (i := self.usable(seat, c, "p"))
                     and value in (e := _release(c))[0] and hazard in e[1]), None)
        self.emit("still_captured", seat=seat)
        if card:
            self.announce(seat, card, "p", ok=job("release", seat))

    def job_phase2(self, j: Job) -> None:
        self.enter_phase2(j.seat)

    # --- movement (§5.5) -------------------------------------------------------------------------
    def start_move(self, seat: int, kind: str, terrain: str, events: bool, steps: int) -> None:
        node = self.pawns[seat].node
        assert node is not None
        visited = (node,) if kind == "hand" else self.tx.visited
        if kind == "hand":
            self.tx = replace(self.tx, visited=visited)
        self.move = Movement(steps=steps, roll=steps, visited=visited, arrived="start")
        self.tx = replace(self.tx, mv=MoveCtx(kind, terrain, events, node))

    def offer_move(self, seat: int) -> None:
        """Open the movement decision, or carry out its only possible ending at once."""
        actions = self.menu_actions(seat)
        if not actions:
            self.seg_end_now(seat)
        elif len(actions) == 1 and not self.die_mods_possible(seat):
            self.do_move_action(seat, actions[0], None)
        else:
            self.phase = MOVE

    def die_mods_possible(self, seat: int) -> bool:
        move, mv = self.move, self.tx.mv
        if move is None or mv is None or mv.kind != "die" or move.arrived != "start":
            return False
        compass = "compass" not in self.tx.mods and "maps" not in self.tx.mods and self.usable(seat, "compass", "a")
        maps = "maps" not in self.tx.mods and self.usable(seat, "maps", "a")
        return bool(compass or maps)

    def do_move_action(self, seat: int, action: Any, menu: Any) -> None:
        menu = self.menu(seat)
        pawn = self.pawns[seat]
        move = self.move
        assert move is not None and pawn.node is not None
        first = move.arrived == "start"
        self.phase = MOVE
        match action:
            case Move(to, None) if to == pawn.node:
                self.seg_end_now(seat)
            case Move(to, via) if menu.paths(to):
                if first:
                    self.move = replace(move, steps=menu.land_steps)
                path = chosen_path(menu, to, via)
                assert path is not None
                self.walk(seat, path)
            case Move(to, None):
                target = menu.sea_target(to)
                assert target is not None
                leg_dest = target[1]
                allowance = menu.sea_steps if first else move.steps
                self.move = replace(move, steps=allowance)
                if leg_dest is not None:
                    self.board(seat, leg_dest, paid=True)
                self.sail(seat, allowance, upto=to)
            case Board(to):
                if first:
                    self.move = replace(move, steps=menu.sea_steps)
                self.board(seat, to, paid=True)
                assert self.move is not None
                self.sail(seat, self.move.steps)

    def walk(self, seat: int, path: tuple[str, ...]) -> None:
        self.push(job("walk", seat, path=path))

    def job_walk(self, j: Job) -> None:
        """One stretch of a land walk: up to the next place entered (whose events come first)."""
        seat, path = j.seat, j["path"]
        i = next((k for k, node in enumerate(path) if node in PLACE_SET), len(path) - 1)
        seg, rest = path[:i + 1], path[i + 1:]
        start = self.pawns[seat].node
        move = self.move
        assert move is not None and self.tx.mv is not None
        self.set_pawn(seat, node=seg[-1])
        self.move = replace(move, steps=move.steps - len(seg), visited=(*move.visited, *seg), arrived="land")
        self.tx = replace(self.tx, visited=(*self.tx.visited, *seg), moved=True)
        self.emit("moved", seat=seat, start=start, dest=seg[-1], path=seg, steps=len(seg), by="land",
                  how=cast(MoveCtx, self.tx.mv).kind)  # asserted above; self.tx was replaced since
        self.push(job("walk", seat, path=rest) if rest else job("walk_end", seat))
        if seg[-1] in PLACE_SET:
            self.on_place(seat, seg[-1], stop=not rest)
        elif self.options.hazard_trigger == "pass_through" and seg[-1] in HAZARDS:
            self.capture(seat)

    def job_walk_end(self, j: Job) -> None:
        seat = j.seat
        if self.move is not None and self.move.steps > 0 and self.pawns[seat].node in PORTS:
            menu = self.menu(seat)
            if menu.boards:
                self.phase = MOVE
                return
        self.seg_end_now(seat)

    def sail(self, seat: int, steps: int, upto: str | None = None) -> None:
        pawn = self.pawns[seat]
        v = pawn.voyage
        assert v is not None and self.move is not None and self.tx.mv is not None
        leg = LEGS[(v.origin, v.dest)]
        end = sea_reach(leg.path, v.at, steps, frozenset(self.move.visited),
                        self.options.hazard_trigger == "pass_through")
        if upto is not None:
            end = min(end, leg.path.index(upto, v.at))
        path = leg.path[v.at + 1:end + 1]
        used = end - v.at
        arrived = end == leg.steps
        node = leg.path[end]
        self.set_pawn(seat, node=node, voyage=None if arrived else replace(v, at=end))
        self.move = replace(self.move, steps=steps - used if arrived else 0,
                            visited=(*self.move.visited, *path), arrived="sea")
        self.tx = replace(self.tx, visited=(*self.tx.visited, *path), moved=self.tx.moved or used > 0)
        self.emit("sailed", seat=seat, leg=v.leg, dest=v.dest, path=path, steps=used, at=end,
                  arrived=arrived, how=cast(MoveCtx, self.tx.mv).kind)  # asserted above; self.tx was replaced since
        if arrived:
            self.push(job("sail_end", seat, paid=v.paid))
            self.on_place(seat, node, stop=True)
            return
        if self.options.hazard_trigger == "pass_through" and node in HAZARDS:
            self.capture(seat)
        self.seg_end_now(seat)

    def job_sail_end(self, j: Job) -> None:
        mv = self.tx.mv
        if self.move is not None and self.move.steps > 0 and j["paid"] and mv is not None and mv.kind != "free":
            self.offer_move(j.seat)
        else:
            self.seg_end_now(j.seat)

    def seg_end_now(self, seat: int) -> None:
        """The end of a movement segment: Phase 1 ends, or Phase 2 resumes after a card's move."""
        mv = self.tx.mv
        self.move = None
        self.tx = replace(self.tx, mv=None)
        if mv is None or mv.kind in PHASE1_KINDS:
            self.enter_phase2(seat)
        else:
            self.phase = PHASE2

    def job_seg_end(self, j: Job) -> None:
        self.seg_end_now(j.seat)

    def on_place(self, seat: int, place: str, stop: bool) -> None:
        """E7: the win check, the Capetown bonus, then the event draws of a movement that draws them."""
        super().on_place(seat, place, stop)
        if self.over:
            return
        if place not in self.tx.places:
            self.tx = replace(self.tx, places=(*self.tx.places, place))
        mv = self.tx.mv
        if mv is not None and mv.events and seat == self.turn:
            draws = 2 if stop and self.has_char(seat, "event_draws_on_stop") else 1
            for _ in range(draws):
                self.push(job("draw_event", seat))

    def relocate(self, seat: int, node: str, how: str) -> None:
        """A pawn moved by a card (Shortcut, Good guide, Black magic): no event, the rest of the
        movement is lost, M2 starts again; Capetown, winning and capture still apply (§5.18)."""
        start = self.pawns[seat].node
        self.set_pawn(seat, node=node, voyage=None)
        self.emit("moved", seat=seat, start=start, dest=node, path=(node,), steps=0, by="card", how=how)
        if seat == self.turn:
            self.tx = replace(self.tx, visited=(node,), moved=True)
        if node in PLACE_SET:
            Table.on_place(self, seat, node, True)

    def cut_movement(self, seat: int) -> None:
        """After a relocation of the active pawn: drop the rest of the movement, end the segment
        once the card in resolution is done."""
        if self.tx.mv is None:
            return
        self.stack = [j for j in self.stack if j.kind not in MOVEMENT_JOBS]
        i = next((k for k in range(len(self.stack) - 1, -1, -1) if self.stack[k].kind == "event_done"),
                 len(self.stack))
        self.stack.insert(i, job("seg_end", seat))

    # --- flips and tokens (§5.2, §5.14) --------------------------------------------------------
    def resolve(self, seat: int, place: str, tid: str, kind: str) -> None:
        """Called by the base flip after the reveal: the Surprise! moment, then the token's effect."""
        if self.sx[seat].hand:
            self.push(job("reveal", seat, tid=tid, place=place))
        else:
            self.push(job("token", seat, tid=tid, place=place))

    def job_flip_pay(self, j: Job) -> None:
        seat = j.seat
        if self.pawns[seat].cash >= j["price"]:
            self.flip(seat, j["price"], "pay")
            return
        self.emit("flip_cancelled", seat=seat, price=j["price"])  # the Shovel was sabotaged
        self.tx = replace(self.tx, action=None)
        if self.stack and self.stack[-1].kind == "end_turn":
            self.stack.pop()

    def job_token(self, j: Job) -> None:
        seat, tid, place = j.seat, j["tid"], j["place"]
        kind = self.kind(tid)
        cid = content_id(tid, kind)
        slave = place == SLAVE_COAST
        if kind in ("star", "horseshoe"):
            Table.resolve(self, seat, place, tid, kind)
        elif kind in GEM_VALUES:
            value = self.options.emerald_value if kind == "emerald" else GEM_VALUES[kind]
            amount = value * (2 if place == GOLD_COAST else 1)
            gem = job("gem", seat, token=cid, kind=kind, amount=amount, doubled=place == GOLD_COAST, bonus=0)
            digger = self.usable(seat, "gold_digger", "p")
            if digger:
                self.announce(seat, digger, "p", ok=gem.but(amount=amount + 100, bonus=100), ko=gem)
            else:
                self.push(gem)
        elif kind == "robber":
            if self.has_char(seat, "exchange_for_danger"):
                self.push(job("exchange", seat, what="robber", token=cid, place=place, slave=slave))
            else:
                self.rob(seat, slave)
        elif kind == "expedition":
            self.emit("expedition_token", seat=seat, token=cid)
            self.draw_expedition(seat, "token")
        elif kind == "danger":
            self.emit("danger_token", seat=seat, token=cid)
            self.start_danger(seat, "token", slave)

    def rob(self, seat: int, slave: bool) -> None:
        """A robber token (§5.14 step 3, 7): all cash, less Bookkeeping / Money belt; Slave Coast."""
        if slave:
            self.push(job("lose_turns", seat, n=SLAVE_COAST_LOST_TURNS, source="slave_coast", tried=()))
        self.push(job("robbery", seat, mode="all", amount=0, token=True, robbery=True, to=None, tried=(),
                      keep=None, reason="robber"))

    def job_gem(self, j: Job) -> None:
        self.add_cash(j.seat, j["amount"])
        self.emit("gem", seat=j.seat, token=j["token"], kind=j["kind"], amount=j["amount"],
                  doubled=j["doubled"], bonus=j["bonus"])

    def swap_stacks(self, a: str, b: str) -> None:
        i, k = TREASURE_INDEX[a], TREASURE_INDEX[b]
        stacks = list(self.stacks)
        stacks[i], stacks[k] = stacks[k], stacks[i]
        self.stacks = tuple(stacks)


def _release(card: str) -> tuple[tuple[int, ...], tuple[str, ...]]:
    for ab in EXP[card]["abilities"]:
        for e in ab["effects"]:
            if e["effect"] == "hazard_release":
                return tuple(e["faces"]), tuple(e["hazards"])
    return (), ()


__all__ = ["PHASE2", "PHASE3", "ExpTable", "first_places"]
