"""The Retkikunnat turn (spec §5.4), movement (§5.5), flips and tokens (§5.2, §5.14), and the driver
that runs the pending work; setup is in :mod:`.setup`, cards, danger situations, duels and trading,
and reaction windows in :mod:`.cards`, :mod:`.danger`, :mod:`.duels`, :mod:`.windows`.

Work is driven by the stack ``w.stack`` (``Ext.stack``): after every action :func:`settle` runs the
automatic jobs on top (:func:`handlers`: job kind -> function) until a prompt (someone must answer:
:data:`~.predicates.PROMPTS`) is on top or the stack is empty (the phase's own actions are due,
:func:`act`). A walk is a chain of ``walk`` jobs, one stretch per place entered, so that event cards
drawn there are resolved before the pawn moves on (§5.6 E3).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import cache
from typing import Any, cast

from engines.afrikan_tahti.base import rules as base
from engines.afrikan_tahti.board import (
    GEM_VALUES,
    GOLD_COAST,
    HAZARDS,
    LEGS,
    PLACE_SET,
    PORTS,
    SLAVE_COAST,
)
from engines.afrikan_tahti.model import (
    DECLARE,
    MOVE,
    RELEASE,
    SETUP,
    SLAVE_COAST_LOST_TURNS,
    TREASURE_INDEX,
    Adjust,
    AfrikanWork,
    Ask,
    Board,
    Character,
    Duel,
    EndPhase,
    Flip,
    FlipRoll,
    Fly,
    FreeSail,
    GemRoll,
    Move,
    Movement,
    Offer,
    RerollMove,
    Roll,
    Seaplane,
    Start,
    Stay,
    Use,
    chosen_path,
    content_id,
)
from engines.afrikan_tahti.retkikunnat import cards, danger, duels, windows
from engines.afrikan_tahti.retkikunnat import predicates as q
from engines.afrikan_tahti.retkikunnat.content import EXP, card_id, effect, starting_cards
from engines.afrikan_tahti.retkikunnat.model import CHARACTER, PHASE2, PHASE3, Job, MoveCtx, TurnX, job
from engines.afrikan_tahti.retkikunnat.predicates import DISCOVERY_PRICE, PROMPTS, SEAPLANE_PRICE, sea_reach

PHASE1_KINDS = ("die", "free", "fly", "seaplane")
MOVEMENT_JOBS = frozenset({"walk", "walk_end", "sail_end", "seg_end", "draw_event"})

JobFn = Callable[[AfrikanWork, Job], None]
AnswerFn = Callable[[AfrikanWork, Job, int, Any], None]


# --- the driver ----------------------------------------------------------------------------
@cache
def handlers() -> tuple[dict[str, JobFn], dict[str, AnswerFn]]:
    """What runs each queued job, and what takes the answer to each prompt (built on first use, once
    every module of the expansion is loaded: they call each other)."""
    jobs: dict[str, JobFn] = {
        # the turn, movement, tokens (this module)
        "undeclare": job_undeclare,
        "seaplane": job_seaplane,
        "compass": job_compass,
        "maps": job_maps,
        "offer_move": job_offer_move,
        "serve_lost": job_serve_lost,
        "begin_turn": job_begin_turn,
        "end_turn": job_end_turn,
        "turn_over": job_turn_over,
        "cash": job_cash,
        "phase2": job_phase2,
        "phase3": job_phase3,
        "capture": job_capture,
        "not_captured": job_not_captured,
        "release": job_release,
        "walk": job_walk,
        "walk_end": job_walk_end,
        "sail_end": job_sail_end,
        "seg_end": job_seg_end,
        "flip_pay": job_flip_pay,
        "token": job_token,
        "gem": job_gem,
        # cards
        "draw_event": cards.job_draw_event,
        "event_done": cards.job_event_done,
        "lose_turns": cards.job_lose_turns,
        "robbery": cards.job_robbery,
        "extra": cards.job_extra,
        "peek": cards.job_peek,
        "draw_keep": cards.job_draw_keep,
        "tinned_food": cards.job_tinned_food,
        # danger situations
        "danger_reroll": danger.job_danger_reroll,
        "danger_eval": danger.job_danger_eval,
        "danger_pass": danger.job_danger_pass,
        "danger_discard": danger.job_danger_discard,
        "penalty": danger.job_penalty,
        "penalty_cancel": danger.job_penalty_cancel,
        # duels
        "duel_reroll": duels.job_duel_reroll,
        "duel_eval": duels.job_duel_eval,
        "duel_apply": duels.job_duel_apply,
        "duel_void": duels.job_duel_void,
        # windows and hand cards
        "use_then": windows.job_use_then,
        "gotcha": windows.job_gotcha,
        "sabotage": windows.job_sabotage,
        "rescue": windows.job_rescue,
        "hand_move": windows.job_hand_move,
        "bribe": windows.job_bribe,
        "surprise": windows.job_surprise,
    }
    answers: dict[str, AnswerFn] = {
        "window": windows.answer_window,
        "reveal": windows.answer_reveal,
        "danger": danger.answer_danger,
        "duel": duels.answer_duel,
        "offer": duels.answer_offer,
        "choose": cards.answer_choose,
        "exchange": cards.answer_exchange,
        "lost_turn": answer_lost_turn,
        "hand_discard": cards.answer_hand_discard,
        "limit_discard": cards.answer_limit_discard,
        "market_day": cards.answer_market_day,
    }
    assert set(answers) == PROMPTS
    return jobs, answers


def settle(w: AfrikanWork) -> None:
    """Run automatic jobs until a prompt is on top, the stack is empty or the game is over."""
    jobs = handlers()[0]
    while not w.over and w.stack:
        j = w.stack[-1]
        if j.kind in PROMPTS:
            return
        w.stack.pop()
        jobs[j.kind](w, j)


def perform(w: AfrikanWork, seat: int, action: Any) -> None:
    """One action: the answer to the prompt on top, or the phase's own action; then the work it sets off."""
    w.ply += 1
    if isinstance(action, Ask) and seat not in q.prompt_seats(w):
        windows.set_ask(w, seat, action.mode)  # a standing setting, given out of turn
        return
    before = [q.complete(w, s) for s in range(w.players)]
    j = w.top()
    if j is not None:
        handlers()[1][j.kind](w, j, seat, action)
    else:
        act(w, seat, action)
    settle(w)
    for s in range(w.players):  # a whole expedition is news for the table (issue 17)
        if q.complete(w, s) and not before[s]:
            w.emit("expedition_complete", seat=s)


# --- the phases' own actions -----------------------------------------------------------------
def act(w: AfrikanWork, seat: int, action: Any) -> None:
    phase = w.phase
    pawn = w.pawns[seat]
    match action:
        case Character(c):
            choose_character(w, seat, c)
            next_setup_step(w)
        case Start(place):
            w.set_pawn(seat, node=place)
            w.emit("start_chosen", seat=seat, place=place)
            next_setup_step(w)
        case Roll() if phase == RELEASE:
            release_roll(w, seat)
        case Move() | Board() if phase == MOVE:
            do_move_action(w, seat, action)
        case Roll():
            w.tx = replace(w.tx, declared="roll")
            value = w.die(seat, "move")
            w.tx = replace(w.tx, die=value)
            start_move(w, seat, "die", "any", True, value)
            offer_move(w, seat)
        case Board(to):  # ``board`` before the roll: roll, then board this leg (§7)
            w.tx = replace(w.tx, declared="roll")
            value = w.die(seat, "move")
            w.tx = replace(w.tx, die=value)
            start_move(w, seat, "die", "any", True, value)
            do_move_action(w, seat, Board(to))
        case FreeSail(to):
            w.tx = replace(w.tx, declared="free_sail")
            steps = q.broke_steps(w, seat)
            start_move(w, seat, "free", "sea", True, steps)
            if pawn.voyage is None:
                base.board(w, seat, to, paid=False, fare=0)
            sail(w, seat, steps)
        case Fly(to):
            assert pawn.node is not None
            fare = q.air_fare(w, seat)
            w.tx = replace(
                w.tx,
                declared="fly",
                visited=(*w.tx.visited, to),
                moved=True,
                mv=MoveCtx("fly", "any", True, pawn.node),
            )
            w.pay(seat, fare)
            w.set_pawn(seat, node=to)
            w.emit("flew", seat=seat, start=pawn.node, dest=to, fare=fare)
            w.push(job("seg_end", seat))
            on_place(w, seat, to, stop=True)
        case Seaplane(to):
            inst = q.inst(w, seat, "seaplane")
            assert inst is not None
            w.tx = replace(w.tx, declared="seaplane")
            windows.announce(w, seat, inst, "a", ok=job("seaplane", seat, to=to), ko=job("undeclare", seat))
        case Stay():
            w.tx = replace(w.tx, declared="stay")
            w.emit_pairs("stayed", None, (("seat", seat),))
            enter_phase2(w, seat)
        case GemRoll():
            w.tx = replace(w.tx, declared="gem_roll")
            danger.gem_roll(w, seat)
        case RerollMove():
            inst = q.inst(w, seat, "compass")
            assert inst is not None
            w.tx = replace(w.tx, mods=(*w.tx.mods, "compass"))
            windows.announce(w, seat, inst, "a", ok=job("compass", seat), ko=job("offer_move", seat))
        case Adjust(delta):
            inst = q.inst(w, seat, "maps")
            assert inst is not None
            w.tx = replace(w.tx, mods=(*w.tx.mods, "maps"))
            windows.announce(
                w, seat, inst, "a", ok=job("maps", seat, delta=delta), ko=job("offer_move", seat)
            )
        case Flip():
            _code, price, _faces, shovel = q.flip_terms(w, seat)
            w.tx = replace(w.tx, action="flip")
            end_turn(w)
            if shovel:
                windows.announce(
                    w,
                    seat,
                    shovel,
                    "p",
                    ok=job("flip_pay", seat, price=price),
                    ko=job("flip_pay", seat, price=DISCOVERY_PRICE),
                )
            else:
                w.push(job("flip_pay", seat, price=price))
        case FlipRoll():
            _code, _price, faces, _shovel = q.flip_terms(w, seat)
            w.tx = replace(w.tx, action="flip")
            end_turn(w)
            if w.die(seat, "flip") in faces:
                flip(w, seat, 0, "roll")
            else:
                w.emit("flip_failed", seat=seat, place=pawn.node)
        case Duel():
            duels.start_duel(w, seat, action)
        case Offer():
            duels.offer(w, seat, action)
        case EndPhase() if phase == PHASE2:
            end_phase2(w, seat)
        case EndPhase():
            end_turn(w)
        case Ask(mode):
            windows.set_ask(w, seat, mode)
        case _:
            cards.act_cards(w, seat, action)


def job_undeclare(w: AfrikanWork, j: Job) -> None:
    w.tx = replace(w.tx, declared=None)


def job_seaplane(w: AfrikanWork, j: Job) -> None:
    seat, to = j.seat, j["to"]
    start = w.pawns[seat].node
    assert start is not None
    leg = LEGS[(start, to)]
    w.add_cash(seat, -SEAPLANE_PRICE)
    w.set_pawn(seat, node=to, voyage=None)
    w.tx = replace(
        w.tx, visited=(*w.tx.visited, *leg.path[1:]), moved=True, mv=MoveCtx("seaplane", "any", True, start)
    )
    w.emit("seaplane", seat=seat, start=start, dest=to, leg=leg.id, paid=SEAPLANE_PRICE)
    w.push(job("seg_end", seat))
    on_place(w, seat, to, stop=True)


def job_compass(w: AfrikanWork, j: Job) -> None:
    assert w.move is not None
    value = w.die(j.seat, "compass")
    w.tx = replace(w.tx, die=value)
    w.move = replace(w.move, steps=value, roll=value)
    offer_move(w, j.seat)


def job_maps(w: AfrikanWork, j: Job) -> None:
    assert w.move is not None
    steps = min(7, max(1, w.move.steps + j["delta"]))
    w.move = replace(w.move, steps=steps, roll=steps)
    w.emit("die_adjusted", seat=j.seat, delta=j["delta"], steps=steps)
    offer_move(w, j.seat)


def job_offer_move(w: AfrikanWork, j: Job) -> None:
    offer_move(w, j.seat)


def answer_lost_turn(w: AfrikanWork, j: Job, seat: int, action: Any) -> None:
    w.stack.pop()
    inst = q.inst(w, seat, "tinned_food")
    if isinstance(action, Use) and inst is not None:
        windows.announce(
            w,
            seat,
            inst,
            "a",
            ok=job("tinned_food", seat, resume=True),
            ko=job("serve_lost", seat),
            discard=True,
        )
    else:
        serve_lost(w, seat)
        begin_turn(w)


# --- setup ---------------------------------------------------------------------------------
def choose_character(w: AfrikanWork, seat: int, character: str) -> None:
    mine = starting_cards(character)
    deck = w.decks["expedition"]
    taken = tuple(next(i for i in deck.draw if card_id(i) == c) for c in mine)
    w.decks["expedition"] = replace(deck, draw=tuple(i for i in deck.draw if i not in taken))
    w.set_sx(seat, character=character, cards=taken)
    w.emit("character", seat=seat, character=character, cards=taken)


def next_setup_step(w: AfrikanWork) -> None:
    """After a character or start choice: the next seat to choose, or the first turn."""
    missing = next((s for s in range(w.players) if w.sx[s].character is None), None)
    if missing is not None:
        w.phase, w.turn = CHARACTER, missing
        return
    missing = next((s for s in range(w.players) if w.pawns[s].node is None), None)
    if missing is not None:
        w.phase, w.turn = SETUP, missing
        return
    if w.options.quick_game:  # §3.4: two expedition cards each, in seat order
        for s in range(w.players):
            for _ in range(2):
                cards.draw_expedition(w, s, "quick_game")
    w.round = 1
    w.turn = w.first_seat
    begin_turn(w)


# --- turn flow (§5.4) ----------------------------------------------------------------------
def begin_turn(w: AfrikanWork) -> None:
    while not w.over:
        seat = w.turn
        w.set_sx(seat, used=())  # refresh: cards and once-per-turn abilities become unused
        pawn = w.pawns[seat]
        w.move = None
        w.flipped = False
        w.tx = TurnX()
        if pawn.lost_turns > 0:
            if q.usable(w, seat, "tinned_food", "a"):
                w.phase = DECLARE
                w.push(job("lost_turn", seat))
                w.emit("lost_turn_prompt", seat=seat, pending=pawn.lost_turns)
                return
            serve_lost(w, seat)
            continue
        node = pawn.node
        assert node is not None
        w.tx = TurnX(visited=(node,), places=(node,) if node in PLACE_SET else ())
        w.phase = RELEASE if pawn.captured else DECLARE
        w.emit_pairs("turn", None, (("seat", seat), ("round", w.round)))
        return


def serve_lost(w: AfrikanWork, seat: int) -> None:
    pawn = w.set_pawn(seat, lost_turns=w.pawns[seat].lost_turns - 1)
    w.emit("turn_lost", seat=seat, pending=pawn.lost_turns)
    base.advance_seat(w)


def job_serve_lost(w: AfrikanWork, j: Job) -> None:
    serve_lost(w, j.seat)
    begin_turn(w)


def job_begin_turn(w: AfrikanWork, j: Job) -> None:
    begin_turn(w)


def end_turn(w: AfrikanWork) -> None:
    w.push(job("end_turn", w.turn))


def job_end_turn(w: AfrikanWork, j: Job) -> None:
    seat = j.seat
    w.push(job("turn_over", seat))
    farmer = q.usable(w, seat, "farmer", "a") if w.tx.declared == "stay" else None
    if farmer:  # edge 58: an announced use at the end of the turn
        windows.announce(w, seat, farmer, "a", ok=job("cash", seat, amount=300, reason="farmer"))


def job_turn_over(w: AfrikanWork, j: Job) -> None:
    w.move = None
    w.flipped = False
    w.tx = TurnX()
    base.advance_seat(w)
    begin_turn(w)


def job_cash(w: AfrikanWork, j: Job) -> None:
    w.add_cash(j.seat, j["amount"])
    w.emit("income", seat=j.seat, amount=j["amount"], reason=j["reason"])


def enter_phase2(w: AfrikanWork, seat: int) -> None:
    w.phase = PHASE2
    w.move = None
    if not w.sx[seat].cards and not w.sx[seat].hand and not char_phase_options(w, seat):
        end_phase2(w, seat)


def end_phase2(w: AfrikanWork, seat: int) -> None:
    w.push(job("phase3", seat))
    if w.tx.moved:
        capture_check(w, seat)


def job_phase3(w: AfrikanWork, j: Job) -> None:
    w.phase = PHASE3
    if not phase3_possible(w, j.seat):
        end_turn(w)


def char_phase_options(w: AfrikanWork, seat: int) -> bool:
    node = w.pawns[seat].node
    return bool(
        (
            q.has_char(w, seat, "swap_token_stack")
            and "@swap" not in w.sx[seat].used
            and q.top_token(w, node) is not None
        )
        or (
            q.has_char(w, seat, "peek_token")
            and "@peek" not in w.sx[seat].used
            and q.top_token(w, node) is not None
        )
        or (
            q.has_char(w, seat, "buy_from_discard")
            and "@buy" not in w.sx[seat].used
            and node in PLACE_SET
            and w.decks["expedition"].discard
        )
    )


def phase3_possible(w: AfrikanWork, seat: int) -> bool:
    """Whether Phase 3 offers anything (public facts only), else it is skipped [decided]."""
    code, price, _faces, _shovel = q.flip_terms(w, seat)
    if code is None and (w.pawns[seat].cash >= price or q.may_flip_roll(w, seat, price)):
        return True
    return bool(q.same_node(w, seat)) or char_phase_options(w, seat)


# --- captures and releases ------------------------------------------------------------------
def capture_check(w: AfrikanWork, seat: int) -> None:
    """H2 at the end of the turn's movement (end of Phase 2), or when an effect places a pawn."""
    pawn = w.pawns[seat]
    if pawn.node not in HAZARDS or pawn.captured:
        return
    hazard = HAZARDS[pawn.node]
    immune = next(
        (
            i
            for c in ("camel", "guide")
            if (i := q.usable(w, seat, c, "p"))
            and hazard in (effect(c, "hazard_immunity") or {}).get("hazards", ())
        ),
        None,
    )
    if immune:
        windows.announce(w, seat, immune, "p", ok=job("not_captured", seat), ko=job("capture", seat))
    else:
        capture(w, seat)


def capture(w: AfrikanWork, seat: int) -> None:
    pawn = w.set_pawn(seat, captured=True)
    w.emit("captured", seat=seat, node=pawn.node, hazard=HAZARDS[pawn.node or ""])


def job_capture(w: AfrikanWork, j: Job) -> None:
    capture(w, j.seat)


def job_not_captured(w: AfrikanWork, j: Job) -> None:
    w.emit("not_captured", seat=j.seat, node=w.pawns[j.seat].node)


def job_release(w: AfrikanWork, j: Job) -> None:
    w.set_pawn(j.seat, captured=False)
    w.emit("released", seat=j.seat)


def release_roll(w: AfrikanWork, seat: int) -> None:
    """H3 in the expansion: the roll, then Phase 2 without movement and Phase 3."""
    w.tx = replace(w.tx, declared="release")
    value = w.die(seat, "release")
    w.push(job("phase2", seat))
    if value in w.options.hazard_release_faces:
        w.set_pawn(seat, captured=False)
        w.emit("released", seat=seat)
        return
    hazard = HAZARDS[w.pawns[seat].node or ""]
    card = next(
        (
            i
            for c in ("old_salt", "tent", "swimming")
            if (i := q.usable(w, seat, c, "p")) and value in (e := _release(c))[0] and hazard in e[1]
        ),
        None,
    )
    w.emit("still_captured", seat=seat)
    if card:
        windows.announce(w, seat, card, "p", ok=job("release", seat))


def job_phase2(w: AfrikanWork, j: Job) -> None:
    enter_phase2(w, j.seat)


# --- movement (§5.5) -------------------------------------------------------------------------
def start_move(w: AfrikanWork, seat: int, kind: str, terrain: str, events: bool, steps: int) -> None:
    node = w.pawns[seat].node
    assert node is not None
    visited = (node,) if kind == "hand" else w.tx.visited
    if kind == "hand":
        w.tx = replace(w.tx, visited=visited)
    w.move = Movement(steps=steps, roll=steps, visited=visited, arrived="start")
    w.tx = replace(w.tx, mv=MoveCtx(kind, terrain, events, node))


def offer_move(w: AfrikanWork, seat: int) -> None:
    """Open the movement decision, or carry out its only possible ending at once."""
    actions = base.menu_actions(q.menu(w, seat), w.pawns[seat].node or "")
    if not actions:
        seg_end_now(w, seat)
    elif len(actions) == 1 and not die_mods_possible(w, seat):
        do_move_action(w, seat, actions[0])
    else:
        w.phase = MOVE


def die_mods_possible(w: AfrikanWork, seat: int) -> bool:
    move, mv = w.move, w.tx.mv
    if move is None or mv is None or mv.kind != "die" or move.arrived != "start":
        return False
    compass = "compass" not in w.tx.mods and "maps" not in w.tx.mods and q.usable(w, seat, "compass", "a")
    maps = "maps" not in w.tx.mods and q.usable(w, seat, "maps", "a")
    return bool(compass or maps)


def do_move_action(w: AfrikanWork, seat: int, action: Any) -> None:
    menu = q.menu(w, seat)
    pawn = w.pawns[seat]
    move = w.move
    assert move is not None and pawn.node is not None
    first = move.arrived == "start"
    w.phase = MOVE
    match action:
        case Move(to, None) if to == pawn.node:
            seg_end_now(w, seat)
        case Move(to, via) if menu.paths(to):
            if first:
                w.move = replace(move, steps=menu.land_steps)
            path = chosen_path(menu.paths(to), via)
            assert path is not None
            walk(w, seat, path)
        case Move(to, None):
            target = menu.sea_target(to)
            assert target is not None
            leg_dest = target[1]
            allowance = menu.sea_steps if first else move.steps
            w.move = replace(move, steps=allowance)
            if leg_dest is not None:
                base.board(w, seat, leg_dest, paid=True, fare=q.sea_fare(w, seat))
            sail(w, seat, allowance, upto=to)
        case Board(to):
            if first:
                w.move = replace(move, steps=menu.sea_steps)
            base.board(w, seat, to, paid=True, fare=q.sea_fare(w, seat))
            assert w.move is not None
            sail(w, seat, w.move.steps)


def walk(w: AfrikanWork, seat: int, path: tuple[str, ...]) -> None:
    w.push(job("walk", seat, path=path))


def job_walk(w: AfrikanWork, j: Job) -> None:
    """One stretch of a land walk: up to the next place entered (whose events come first)."""
    seat, path = j.seat, j["path"]
    i = next((k for k, node in enumerate(path) if node in PLACE_SET), len(path) - 1)
    seg, rest = path[: i + 1], path[i + 1 :]
    start = w.pawns[seat].node
    move = w.move
    assert move is not None and w.tx.mv is not None
    w.set_pawn(seat, node=seg[-1])
    w.move = replace(move, steps=move.steps - len(seg), visited=(*move.visited, *seg), arrived="land")
    w.tx = replace(w.tx, visited=(*w.tx.visited, *seg), moved=True)
    w.emit(
        "moved",
        seat=seat,
        start=start,
        dest=seg[-1],
        path=seg,
        steps=len(seg),
        by="land",
        how=cast(MoveCtx, w.tx.mv).kind,
    )  # asserted above; w.tx was replaced since
    w.push(job("walk", seat, path=rest) if rest else job("walk_end", seat))
    if seg[-1] in PLACE_SET:
        on_place(w, seat, seg[-1], stop=not rest)
    elif w.options.hazard_trigger == "pass_through" and seg[-1] in HAZARDS:
        capture(w, seat)


def job_walk_end(w: AfrikanWork, j: Job) -> None:
    seat = j.seat
    if w.move is not None and w.move.steps > 0 and w.pawns[seat].node in PORTS:
        menu = q.menu(w, seat)
        if menu.boards:
            w.phase = MOVE
            return
    seg_end_now(w, seat)


def sail(w: AfrikanWork, seat: int, steps: int, upto: str | None = None) -> None:
    pawn = w.pawns[seat]
    v = pawn.voyage
    assert v is not None and w.move is not None and w.tx.mv is not None
    leg = LEGS[(v.origin, v.dest)]
    end = sea_reach(
        leg.path, v.at, steps, frozenset(w.move.visited), w.options.hazard_trigger == "pass_through"
    )
    if upto is not None:
        end = min(end, leg.path.index(upto, v.at))
    path = leg.path[v.at + 1 : end + 1]
    used = end - v.at
    arrived = end == leg.steps
    node = leg.path[end]
    w.set_pawn(seat, node=node, voyage=None if arrived else replace(v, at=end))
    w.move = replace(
        w.move, steps=steps - used if arrived else 0, visited=(*w.move.visited, *path), arrived="sea"
    )
    w.tx = replace(w.tx, visited=(*w.tx.visited, *path), moved=w.tx.moved or used > 0)
    w.emit(
        "sailed",
        seat=seat,
        leg=v.leg,
        dest=v.dest,
        path=path,
        steps=used,
        at=end,
        arrived=arrived,
        how=cast(MoveCtx, w.tx.mv).kind,
    )  # asserted above; w.tx was replaced since
    if arrived:
        w.push(job("sail_end", seat, paid=v.paid))
        on_place(w, seat, node, stop=True)
        return
    if w.options.hazard_trigger == "pass_through" and node in HAZARDS:
        capture(w, seat)
    seg_end_now(w, seat)


def job_sail_end(w: AfrikanWork, j: Job) -> None:
    mv = w.tx.mv
    if w.move is not None and w.move.steps > 0 and j["paid"] and mv is not None and mv.kind != "free":
        offer_move(w, j.seat)
    else:
        seg_end_now(w, j.seat)


def seg_end_now(w: AfrikanWork, seat: int) -> None:
    """The end of a movement segment: Phase 1 ends, or Phase 2 resumes after a card's move."""
    mv = w.tx.mv
    w.move = None
    w.tx = replace(w.tx, mv=None)
    if mv is None or mv.kind in PHASE1_KINDS:
        enter_phase2(w, seat)
    else:
        w.phase = PHASE2


def job_seg_end(w: AfrikanWork, j: Job) -> None:
    seg_end_now(w, j.seat)


def on_place(w: AfrikanWork, seat: int, place: str, stop: bool) -> None:
    """E7: the win check, the Capetown bonus, then the event draws of a movement that draws them."""
    base.arrive(w, seat, place)
    if w.over:
        return
    if place not in w.tx.places:
        w.tx = replace(w.tx, places=(*w.tx.places, place))
    mv = w.tx.mv
    if mv is not None and mv.events and seat == w.turn:
        draws = 2 if stop and q.has_char(w, seat, "event_draws_on_stop") else 1
        for _ in range(draws):
            w.push(job("draw_event", seat))


def relocate(w: AfrikanWork, seat: int, node: str, how: str) -> None:
    """A pawn moved by a card (Shortcut, Good guide, Black magic): no event, the rest of the
    movement is lost, M2 starts again; Capetown, winning and capture still apply (§5.18)."""
    start = w.pawns[seat].node
    w.set_pawn(seat, node=node, voyage=None)
    w.emit("moved", seat=seat, start=start, dest=node, path=(node,), steps=0, by="card", how=how)
    if seat == w.turn:
        w.tx = replace(w.tx, visited=(node,), moved=True)
    if node in PLACE_SET:
        base.arrive(w, seat, node)


def cut_movement(w: AfrikanWork, seat: int) -> None:
    """After a relocation of the active pawn: drop the rest of the movement, end the segment
    once the card in resolution is done."""
    if w.tx.mv is None:
        return
    w.stack = [j for j in w.stack if j.kind not in MOVEMENT_JOBS]
    i = next((k for k in range(len(w.stack) - 1, -1, -1) if w.stack[k].kind == "event_done"), len(w.stack))
    w.stack.insert(i, job("seg_end", seat))


# --- flips and tokens (§5.2, §5.14) --------------------------------------------------------
def flip(w: AfrikanWork, seat: int, price: int, by: str) -> None:
    resolve(w, seat, *base.flip_token(w, seat, price, by))


def resolve(w: AfrikanWork, seat: int, place: str, tid: str, kind: str) -> None:
    """Called by the base flip after the reveal: the Surprise! moment, then the token's effect."""
    if w.sx[seat].hand and q.wants(w, seat, "reveal") and q.answerable(w, "reveal"):
        w.push(job("reveal", seat, tid=tid, place=place, opened=w.ply))
    else:
        w.push(job("token", seat, tid=tid, place=place))


def job_flip_pay(w: AfrikanWork, j: Job) -> None:
    seat = j.seat
    if w.pawns[seat].cash >= j["price"]:
        flip(w, seat, j["price"], "pay")
        return
    w.emit("flip_cancelled", seat=seat, price=j["price"])  # the Shovel was sabotaged
    w.tx = replace(w.tx, action=None)
    if w.stack and w.stack[-1].kind == "end_turn":
        w.stack.pop()


def job_token(w: AfrikanWork, j: Job) -> None:
    seat, tid, place = j.seat, j["tid"], j["place"]
    kind = w.kind(tid)
    cid = content_id(tid, kind)
    slave = place == SLAVE_COAST
    if kind in ("star", "horseshoe"):
        base.resolve(w, seat, place, tid, kind)
    elif kind in GEM_VALUES:
        value = w.options.emerald_value if kind == "emerald" else GEM_VALUES[kind]
        amount = value * (2 if place == GOLD_COAST else 1)
        gem = job("gem", seat, token=cid, kind=kind, amount=amount, doubled=place == GOLD_COAST, bonus=0)
        digger = q.usable(w, seat, "gold_digger", "p")
        if digger:
            windows.announce(w, seat, digger, "p", ok=gem.but(amount=amount + 100, bonus=100), ko=gem)
        else:
            w.push(gem)
    elif kind == "robber":
        if q.has_char(w, seat, "exchange_for_danger"):
            w.push(job("exchange", seat, what="robber", token=cid, place=place, slave=slave))
        else:
            rob(w, seat, slave)
    elif kind == "expedition":
        w.emit("expedition_token", seat=seat, token=cid)
        cards.draw_expedition(w, seat, "token")
    elif kind == "danger":
        w.emit("danger_token", seat=seat, token=cid)
        danger.start_danger(w, seat, "token", slave)


def rob(w: AfrikanWork, seat: int, slave: bool) -> None:
    """A robber token (§5.14 step 3, 7): all cash, less Bookkeeping / Money belt; Slave Coast."""
    if slave:
        w.push(job("lose_turns", seat, n=SLAVE_COAST_LOST_TURNS, source="slave_coast", tried=()))
    w.push(
        job(
            "robbery",
            seat,
            mode="all",
            amount=0,
            token=True,
            robbery=True,
            to=None,
            tried=(),
            keep=None,
            reason="robber",
        )
    )


def job_gem(w: AfrikanWork, j: Job) -> None:
    w.add_cash(j.seat, j["amount"])
    w.emit(
        "gem",
        seat=j.seat,
        token=j["token"],
        kind=j["kind"],
        amount=j["amount"],
        doubled=j["doubled"],
        bonus=j["bonus"],
    )


def swap_stacks(w: AfrikanWork, a: str, b: str) -> None:
    i, k = TREASURE_INDEX[a], TREASURE_INDEX[b]
    stacks = list(w.stacks)
    stacks[i], stacks[k] = stacks[k], stacks[i]
    w.stacks = tuple(stacks)


def _release(card: str) -> tuple[tuple[int, ...], tuple[str, ...]]:
    for ab in EXP[card]["abilities"]:
        for e in ab["effects"]:
            if e["effect"] == "hazard_release":
                return tuple(e["faces"]), tuple(e["hazards"])
    return (), ()
