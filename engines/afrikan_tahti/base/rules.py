"""Afrikan Tähti base game (spec §3.1-3.2, §4, §6 base options, §7 notation, §8, §9, §10): legality,
candidates, the transition over :class:`~engines.afrikan_tahti.model.AfrikanWork`, views, outcome.

Hidden information: only the contents of face-down tokens (and the seed). Token ``t<i>`` starts on
``TREASURE_PLACES[i - 1]``, so its id says nothing about what it is; its content id ``tok:t<i>:<kind>``
appears in views and events only once it is flipped. Everything else is public; a seat's view is the
public table with ``seat`` filled in.

Turn (spec §4.1), phases as data in :data:`~engines.afrikan_tahti.model.PHASE_ACTIONS`:

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

What Retkikunnat uses of this module (it builds on the base game): the legality both rule sets share,
written once here (:func:`check_seat`, :func:`check_start`, :func:`check_travel`, :func:`check_move`,
:func:`need_port`, :func:`need_leg`), the land part of the move menu (:func:`land_dests`,
:func:`may_land`, :func:`may_board_here`, :func:`menu_actions`), and the transition steps that are
the same in both games: :func:`arrive` (win, Capetown), :func:`board`, :func:`flip_token`,
:func:`resolve` (the Star, horseshoes), :func:`advance_seat`, :func:`finish`; :func:`view` is the base
of the expansion's view.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from functools import cache, lru_cache
from typing import Any

from engines.afrikan_tahti.board import (
    AIR,
    AIR_FROM,
    AIRPORTS,
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
    AFTER_MOVE,
    AIR_FARE,
    BASE_ACTIONS,
    DECLARE,
    FLIP_PRICE,
    FLIP_ROLL_FACES,
    MAX_SEATS,
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
    AfrikanWork,
    Board,
    EndPhase,
    Flip,
    FlipRoll,
    Fly,
    FreeSail,
    Move,
    Movement,
    MoveMenu,
    Options,
    Pawn,
    PawnView,
    Roll,
    Start,
    State,
    Stay,
    View,
    Voyage,
    chosen_path,
    content_id,
    holds_winning_item,
    kind_of,
    roll_only_when_broke,
    top_token,
)
from engines.contract import Event, IllegalAction, Outcome, Seat, maker, randint_for, replacer
from engines.work import first_purpose

# ---------------------------------------------------------------------------------------------
# Legality shared by both rule sets

#: why an action is refused: the reason code and its parameters (``IllegalAction(code, **params)``)
Refusal = tuple[str, dict[str, Any]]


def need(cond: object, code: str, **params: Any) -> None:
    if not cond:
        raise IllegalAction(code, **params)


def check_seat(state: State, seat: Seat, action: Any, actions: tuple[type, ...]) -> None:
    """What every action must pass first: an action of the game (``actions``), a game still on, a seat
    of the table."""
    if not isinstance(action, actions):
        raise IllegalAction("unknown_action")
    if state.phase == OVER:
        raise IllegalAction("game_over")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise IllegalAction("no_such_seat", seat=seat if isinstance(seat, int) else None)


def check_start(place: str) -> None:
    need(place in STARTS, "not_a_start", place=place)


def need_port(node: str | None) -> None:
    if node not in PORTS:
        raise IllegalAction("not_a_port", node=node)


def need_leg(node: str | None, to: str) -> None:
    if (node, to) not in LEGS:
        raise IllegalAction("no_such_leg", port=node, dest=to)


def check_travel(pawn: Pawn, action: Roll | Board | FreeSail | Fly, sea_fare: int, air_fare: int) -> None:
    """Phase 1 travel before the roll (spec §4.1, §4.4-4.5): ``roll`` (on a sea dot it continues a
    paid voyage), ``board``, ``free_sail``, ``fly``, at the fares of the player's rule set."""
    refused = travel_refusal(pawn, action, sea_fare, air_fare)
    if refused is not None:
        raise IllegalAction(refused[0], **refused[1])


def travel_refusal(
    pawn: Pawn, action: Roll | Board | FreeSail | Fly, sea_fare: int, air_fare: int
) -> Refusal | None:
    """Why :func:`check_travel` refuses ``action`` (``None``: it does not). Returned, not raised: the
    base game's legal actions filter every candidate of a turn through it, and most turns offer some
    that are refused (board or free_sail, a flight beyond the purse)."""
    node = pawn.node
    v = pawn.voyage
    match action:
        case Roll():
            if not (v is None or v.paid):
                return "free_passage", {"dest": v.dest}
        case Board(to):
            if v is not None:
                return "at_sea", {}
            if node not in PORTS:
                return "not_a_port", {"node": node}
            if (node, to) not in LEGS:
                return "no_such_leg", {"port": node, "dest": to}
            if pawn.cash < sea_fare:
                return "cannot_afford", {"price": sea_fare, "cash": pawn.cash}
        case FreeSail(to):
            if v is not None:
                if v.paid:
                    return "paid_voyage", {}
                if to != v.dest:
                    return "wrong_destination", {"dest": v.dest}
                return None
            if node not in PORTS:
                return "not_a_port", {"node": node}
            if (node, to) not in LEGS:
                return "no_such_leg", {"port": node, "dest": to}
            if pawn.cash >= sea_fare:
                return "can_afford_fare", {"fare": sea_fare}
        case Fly(to):
            if v is not None:
                return "at_sea", {}
            if node not in AIRPORTS:
                return "not_an_airport", {"node": node}
            if (node, to) not in AIR:
                return "no_such_route", {"start": node, "to": to}
            if pawn.cash < air_fare:
                return "cannot_afford", {"price": air_fare, "cash": pawn.cash}
    return None


def check_move(menu: MoveMenu, node: str | None, action: Move, land_ok: bool) -> None:
    """``move <node> [via <place>]`` against the move menu: stop where the pawn stands, a land
    destination (``via`` only where it tells paths apart), or (Retkikunnat) a sea target."""
    to, via = action.to, action.via
    if to == node and via is None:
        need(menu.stop_here, "not_a_place", node=node)
        return
    need(land_ok, "land_not_allowed")
    paths = menu.paths(to)
    if paths is None:
        need(via is None and menu.sea_target(to) is not None, "not_reachable", to=to)
        return
    if via is not None:
        need(any(via in p[:-1] for p in paths), "not_on_path", via=via)
        vias = next(v for d, _p, v in menu.dests if d == to)
        need(via in vias, "via_not_needed", via=via)


# ---------------------------------------------------------------------------------------------
# The move menu


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


def land_dests(
    node: str,
    steps: int,
    visited: frozenset[str],
    holding: bool,
    options: Options,
    may_stop: frozenset[str] = frozenset(),
) -> tuple[tuple[str, tuple[tuple[str, ...], ...], tuple[str, ...]], ...]:
    """The land destinations of a move (``MoveMenu.dests``): every path to each, and the places
    that tell the paths apart."""
    found = land_paths(
        node,
        steps,
        visited,
        GOALS if holding else NO_STOPS,
        options.hazard_trigger == "pass_through",
        may_stop,
    )
    return _dests(found)


def _dests(
    found: dict[str, tuple[tuple[str, ...], ...]],
) -> tuple[tuple[str, tuple[tuple[str, ...], ...], tuple[str, ...]], ...]:
    # [decided] ``move X`` takes the canonical path (shortest, then by node ids); ``via P`` is
    # offered for the places that some but not all paths to X pass (the choice that matters:
    # Capetown now, event draws in the expansion)
    dests: list[tuple[str, tuple[tuple[str, ...], ...], tuple[str, ...]]] = []
    for dest in sorted(found):
        paths = found[dest]
        sets = [frozenset(n for n in p[:-1] if n in PLACE_SET) for p in paths]
        vias = tuple(sorted(frozenset().union(*sets) - frozenset.intersection(*sets)))
        dests.append((dest, paths, vias))
    return tuple(dests)


def move_menu(node: str, move: Movement, cash: int, holding: bool, options: Options, fare: int) -> MoveMenu:
    return _move_menu(
        node,
        move,
        cash >= fare,
        holding,
        options.hazard_trigger == "pass_through",
        options.land_to_sea_same_move,
        options.sea_to_land_same_move,
    )


@lru_cache(maxsize=1 << 15)
def _move_menu(
    node: str,
    move: Movement,
    can_pay: bool,
    holding: bool,
    pass_through: bool,
    land_to_sea: bool,
    sea_to_land: bool,
) -> MoveMenu:
    # keyed by what the menu depends on: hashing the whole Options on every call cost more than
    # the rest of the look-up (may_land, may_board_here and land_dests written out for the fields)
    steps = move.steps
    dests: tuple[tuple[str, tuple[tuple[str, ...], ...], tuple[str, ...]], ...] = ()
    if steps > 0 and (move.arrived != "sea" or sea_to_land):
        found = land_paths(
            node, steps, frozenset(move.visited), GOALS if holding else NO_STOPS, pass_through, NO_STOPS
        )
        dests = _dests(found)
    boards: list[str] = []
    board_here = steps > 0 and (
        land_to_sea if move.arrived == "land" else sea_to_land if move.arrived == "sea" else True
    )
    if node in PORTS and board_here:
        for dest in LEGS_FROM[node]:
            leg = LEGS[(node, dest)]
            # [decided] a leg whose first dot this move already visited is not offered: M2 would
            # end the voyage before its first step, and the fare would buy nothing
            if can_pay and leg.path[1] not in move.visited:
                boards.append(dest)
    return MoveMenu(dests, tuple(boards), node in PLACE_SET, land_steps=steps, sea_steps=steps)


@lru_cache(maxsize=1 << 15)
def _move_menu_actions(
    node: str,
    move: Movement,
    can_pay: bool,
    holding: bool,
    pass_through: bool,
    land_to_sea: bool,
    sea_to_land: bool,
) -> tuple[Action, ...]:
    return menu_actions(
        _move_menu(node, move, can_pay, holding, pass_through, land_to_sea, sea_to_land), node
    )


def menu_actions_of(state: State | AfrikanWork, seat: int) -> tuple[Action, ...]:
    """``menu_actions(menu_of(state, seat), node)``, kept with the menu."""
    pawn = state.pawns[seat]
    assert state.move is not None and pawn.node is not None
    return _menu_actions_at(pawn.node, state.move, pawn, state.options)


def _menu_actions_at(node: str, move: Movement, pawn: Pawn, o: Options) -> tuple[Action, ...]:
    """The move menu's actions of ``pawn`` at ``node`` in ``move`` under options ``o``."""
    return _move_menu_actions(
        node,
        move,
        pawn.cash >= SEA_FARE,
        bool(pawn.items),
        o.hazard_trigger == "pass_through",
        o.land_to_sea_same_move,
        o.sea_to_land_same_move,
    )


def menu_of(state: State | AfrikanWork, seat: int) -> MoveMenu:
    pawn = state.pawns[seat]
    assert state.move is not None and pawn.node is not None
    return move_menu(pawn.node, state.move, pawn.cash, holds_winning_item(pawn), state.options, SEA_FARE)


# Actions are values, and each one the rules offer is made once: the same object wherever and
# whenever it is offered, so that what is known of it by identity holds for every game (its
# notation, kept by the codec; check's pass for an action legal_actions offered). One made
# elsewhere (an AI's ``Stay()``) is equal to it and is read by value.
_move_action = cache(Move)
_board_action = cache(Board)
_free_sail_action = cache(FreeSail)
_fly_action = cache(Fly)
_start_action = cache(Start)
_ROLL, _STAY, _FLIP, _FLIP_ROLL, _END_PHASE = Roll(), Stay(), Flip(), FlipRoll(), EndPhase()


def menu_actions(menu: MoveMenu, node: str) -> tuple[Action, ...]:
    """The ``move``/``board`` actions of a menu (a sea target is ``move <node>`` too)."""
    out: list[Action] = []
    if menu.stop_here:
        out.append(_move_action(node))
    for dest, _paths, vias in menu.dests:
        out.append(_move_action(dest))
        out.extend(_move_action(dest, v) for v in vias)
    out.extend(_board_action(d) for d in menu.boards)
    out.extend(a for n, _leg, _steps in menu.sea if (a := _move_action(n)) not in out)
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Legality and candidates of the base game


def to_act(state: State) -> tuple[int, ...]:
    return () if state.phase == OVER else _ALONE[state.turn]


#: ``(seat,)`` of each seat
_ALONE = tuple((s,) for s in range(MAX_SEATS))


def apply(state: State, seat: Seat, action: Any) -> tuple[State, tuple[Event, ...]]:
    """Check, then perform (``Engine.apply``). :func:`check`'s first test written out: an action
    object that :func:`legal_actions` offered for this very state passes (the common case: a caller
    applies one of the legal actions), when ``seat`` is the very int of the seat to act (the seat it
    offered them to; a seat of another type, such as ``1.0``, is checked in full)."""
    last = _last_legal[0]
    if last[0] is not state or seat is not state.turn or id(action) not in last[1][1]:
        check(state, seat, action)
    return perform(state, seat, action)


def check(state: State, seat: Seat, action: Any) -> None:
    # an action object that legal_actions offered for this very situation passed this check then
    if type(seat) is int and seat == state.turn and state.phase != OVER:
        legal_actions(state, seat)  # (kept as the last entry)
        if id(action) in _last_legal[0][1][1]:
            return
    check_seat(state, seat, action, BASE_ACTIONS)
    if seat != state.turn:  # not in to_act(state): the game is not over here
        raise IllegalAction("not_your_turn", turn=state.turn)
    refused = refusal(state, seat, action)
    if refused is not None:
        raise IllegalAction(refused[0], **refused[1])


def refusal(state: State, seat: Seat, action: Action) -> Refusal | None:
    """Why :func:`check` refuses an action of the game by the seat to act in a game still on
    (``None``: it does not). The common refusals are returned; the rarer ones of a move (checked
    against its menu) are raised."""
    phase = state.phase
    if not isinstance(action, PHASE_ACTIONS[phase]):
        return "wrong_phase", {"phase": phase}
    pawn = state.pawns[seat]
    node = pawn.node
    # (isinstance in the order of how often each is asked, rather than a match statement: every
    # candidate of every turn comes here, and a class pattern costs several times an isinstance)
    if isinstance(action, Roll):
        if phase == RELEASE:
            return None
        return travel_refusal(pawn, action, SEA_FARE, AIR_FARE)
    if isinstance(action, Move):
        # phase MOVE (the only phase that accepts it)
        move = state.move
        check_move(menu_of(state, seat), node, action, may_land(move, state.options) if move else False)
        return None
    if isinstance(action, Board):
        if phase != MOVE:
            return travel_refusal(pawn, action, SEA_FARE, AIR_FARE)
        assert node is not None and state.move is not None
        need_port(node)
        need(state.move.steps > 0, "no_steps_left")
        need(may_board_here(state.move, state.options), "cannot_board_here")
        need_leg(node, action.to)
        need(pawn.cash >= SEA_FARE, "cannot_afford", price=SEA_FARE, cash=pawn.cash)
        need(LEGS[(node, action.to)].path[1] not in state.move.visited, "leg_blocked", dest=action.to)
        return None
    if isinstance(action, (FreeSail, Fly)):
        return travel_refusal(pawn, action, SEA_FARE, AIR_FARE)
    if isinstance(action, Flip):
        if top_token(state.stacks, node) is None:
            return "no_token", {}
        if state.flipped:
            return "already_flipped", {}
        if pawn.cash < FLIP_PRICE:
            return "cannot_afford", {"price": FLIP_PRICE, "cash": pawn.cash}
        return None
    if isinstance(action, FlipRoll):
        if top_token(state.stacks, node) is None:
            return "no_token", {}
        if state.flipped:
            return "already_flipped", {}
        if roll_only_when_broke(state.options) and pawn.cash >= FLIP_PRICE:
            return "can_afford_flip", {"price": FLIP_PRICE}
        return None
    if isinstance(action, Start):
        check_start(action.place)
    return None  # stay, end_phase


def legal_actions(state: State, seat: Seat) -> tuple[Action, ...]:
    """The candidates that pass :func:`check`: the candidates are actions of the game for the seat to
    act in a game still on (none otherwise), so what check asks first holds for all of them and
    :func:`refusal` decides. The answer depends only on the situation's key below, so it is worked
    out once per key and kept (with the ids of its actions, which let :func:`check` pass an action it
    offered without asking :func:`refusal` again).

    The key is everything :func:`candidates` and :func:`refusal` read for the seat to act, by phase:
    two states with the same key have the same legal actions. The declaration reads the place or sea
    dot, the voyage's destination and whether it is paid, a face-down token here, a flip this turn,
    the purse against the fares and the flip price, and the flip-roll option; a move reads its
    menu's key; the flip after a move the token, the flip this turn and the purse; the start and the
    release roll nothing more."""
    phase = state.phase
    if phase == OVER or seat != state.turn:
        return ()
    last = _last_legal[0]
    if last[0] is state:  # (asked for its seat to act)
        return last[1][0]
    pawn = state.pawns[seat]
    key: tuple[Any, ...]
    if phase == DECLARE:
        v = pawn.voyage
        cash = pawn.cash
        node = pawn.node
        # top_token(state.stacks, node) is not None, written out (a sea dot or None: no index)
        at = TREASURE_INDEX.get(node)  # type: ignore[arg-type]
        o = state.options
        only_broke = o.flip_roll_only_when_broke  # roll_only_when_broke(o), written out
        key = (
            phase,
            node,
            None if v is None else v.dest,
            None if v is None else v.paid,
            at is not None and bool(state.stacks[at]),
            state.flipped,
            cash >= SEA_FARE,
            cash >= AIR_FARE,
            cash >= FLIP_PRICE,
            o.expansion if only_broke is None else only_broke,
        )
    elif phase == MOVE:
        o = state.options
        move = state.move
        assert move is not None
        key = (  # the move's fields rather than the Movement: its hash and == are Python calls
            phase,
            pawn.node,
            move.steps,
            move.roll,
            move.visited,
            move.arrived,
            pawn.cash >= SEA_FARE,
            bool(pawn.items),
            o.hazard_trigger == "pass_through",
            o.land_to_sea_same_move,
            o.sea_to_land_same_move,
        )
    elif phase == AFTER_MOVE:
        key = (phase, top_token(state.stacks, pawn.node) is not None, state.flipped, pawn.cash >= FLIP_PRICE)
    else:
        key = (phase,)
    entry = _LEGAL.get(key)
    if entry is None:
        out: list[Action] = []
        for action in candidates(state, seat):
            try:
                if refusal(state, seat, action) is None:
                    out.append(action)
            except IllegalAction:
                continue
        legal = tuple(out)
        entry = (legal, frozenset(map(id, legal)))
        if len(_LEGAL) >= _LEGAL_MAX:
            _LEGAL.clear()
        _LEGAL[key] = entry
    _last_legal[0] = (state, entry)
    return entry[0]


#: legal actions (and their ids) by the key of the situation (:func:`legal_actions`), emptied when full
_LEGAL: dict[tuple[Any, ...], tuple[tuple[Action, ...], frozenset[int]]] = {}
_LEGAL_MAX = 1 << 15
#: the last state asked about for its seat to act, and its entry of ``_LEGAL`` (replaced whole): a
#: caller asks for the legal actions of a state and then applies one of them to the same state
_last_legal: list[tuple[Any, tuple[tuple[Action, ...], frozenset[int]]]] = [(None, ((), frozenset()))]


# The candidates of a phase are built once per place and shared (of the actions made once, above).
_START: tuple[Action, ...] = tuple(_start_action(p) for p in STARTS)
_RELEASE: tuple[Action, ...] = (_ROLL,)
_AFTER_MOVE: tuple[Action, ...] = (_FLIP, _END_PHASE)


@cache
def _declare_candidates(node: str, voyage_dest: str | None) -> tuple[Action, ...]:
    out: list[Action] = [_ROLL]
    if voyage_dest is not None:
        out.append(_free_sail_action(voyage_dest))
    else:
        for dest in LEGS_FROM.get(node, ()):
            out.extend((_board_action(dest), _free_sail_action(dest)))
        out.extend(_fly_action(d) for d in AIR_FROM.get(node, ()))
        out.extend((_FLIP, _FLIP_ROLL))
    out.append(_STAY)
    return tuple(out)


def candidates(state: State, seat: Seat) -> tuple[Action, ...]:
    if state.phase == OVER or seat != state.turn:
        return ()
    pawn = state.pawns[seat]
    node = pawn.node
    match state.phase:
        case "setup":
            return _START
        case "release":
            return _RELEASE
        case "move":
            return menu_actions_of(state, seat)
        case "after_move":
            return _AFTER_MOVE
        case "declare":
            assert node is not None
            v = pawn.voyage
            return _declare_candidates(node, v.dest if v is not None else None)
    return ()


# ---------------------------------------------------------------------------------------------
# The transition


def perform(state: State, seat: Seat, action: Action) -> tuple[State, tuple[Event, ...]]:
    """The fast path that covers the action (the commonest first), else the working copy."""
    kind = type(action)
    phase = state.phase
    done: tuple[State, tuple[Event, ...]] | None = None
    if (kind is Stay and phase == DECLARE) or (kind is EndPhase and phase == AFTER_MOVE):
        done = _pass_turn(state, state.pawns, (_STAYED[seat],) if kind is Stay else ())
    elif kind is Roll and phase == DECLARE:
        if state.pawns[seat].voyage is None:
            done = _roll_to_move(state, seat)
        else:
            done = _paid_voyage(state, seat, None)
    elif kind is Move and phase == MOVE:
        done = _land_move_fast(state, seat, action)  # type: ignore[arg-type]
    elif kind is FreeSail and phase == DECLARE:
        done = _free_sail_at_sea(state, seat, action.to)  # type: ignore[union-attr]
    elif kind is Fly and phase == DECLARE:
        done = _fly_fast(state, seat, action.to)  # type: ignore[union-attr]
    elif kind is Board and phase in (DECLARE, MOVE):
        done = _paid_voyage(state, seat, action.to)  # type: ignore[union-attr]
    elif kind is Roll and phase == RELEASE:
        done = _release_roll(state, seat)
    elif (kind is FlipRoll and phase == DECLARE) or (kind is Flip and phase in (DECLARE, AFTER_MOVE)):
        done = _flip_ending_turn(state, seat, kind is FlipRoll)
    elif kind is Start and phase == SETUP:
        done = _start_fast(state, seat, action.place)  # type: ignore[union-attr]
    if done is not None:
        return done
    w = AfrikanWork(state)
    act(w, seat, action)
    return w.freeze(), tuple(w.events)


# --- Fast paths ---------------------------------------------------------------------------------
# A third of a random game's actions only pass the turn (``stay``, ``end_phase``): the general path
# copies the whole state into a working copy and back for the five fields that change. These build
# the next state from the old one by position (``engines.contract.replacer``), for the cases they
# name; every other case returns None and takes the general path. They equal it field by field
# (the working copy hands every unchanged field on as the same value; tests/engines compares both
# paths over seeded games).

_make_event = maker(Event)
_turn_passed = replacer(State, ("ply", "phase", "turn", "round", "pawns", "move", "flipped"))
#: ``stayed`` of each seat (``_stay``'s event; events are values)
_STAYED = tuple(_make_event("stayed", None, (("seat", s),)) for s in range(8))


_pawn = maker(Pawn)
_rolled_to_move = replacer(State, ("ply", "phase", "move", "last_roll", "last_roller"))
#: the die of a fast path: the working copy's ``randint("d6", 1, 6)`` as the first draw of the ply
_FIRST_D6 = first_purpose("d6")


def _roll_to_move(state: State, seat: int) -> tuple[State, tuple[Event, ...]] | None:
    """``roll`` in the declaration on land (:func:`_roll`: :meth:`~AfrikanWork.die`,
    :func:`begin_move`, :func:`offer_move`) when the move has more than one possible ending: the
    ``move`` phase opens; or when its one ending is to stay where the pawn stands (carried out at
    once: :func:`end_move`) off a hazard and a face-down token: the turn passes. None on a sea dot
    (the voyage sails), with preset dice (tests), or when the one ending goes somewhere.
    The die is the one the working copy's ``rng("d6")`` draws: the first stream of the action's
    ply."""
    pawn = state.pawns[seat]
    node = pawn.node
    if pawn.voyage is not None or state.dice or node is None:
        return None
    ply = state.ply + 1
    value = randint_for(state.seed, ply, _FIRST_D6, 1, 6)
    o = state.options
    opened = _opened_move(
        node,
        value,
        pawn.cash >= SEA_FARE,
        bool(pawn.items),
        o.hazard_trigger == "pass_through",
        o.land_to_sea_same_move,
        o.sea_to_land_same_move,
        seat,
    )
    if opened is None:
        move = _movement(value, value, (node,), "start")
        (only,) = _menu_actions_at(node, move, pawn, o)
        if only is not _move_action(node) or node in HAZARDS or top_token(state.stacks, node) is not None:
            return None
        events = (_rolled_event(seat, value, "move"),)
        return _pass_turn(state, state.pawns, events, _rolled_turn_passed, (value, seat))
    return _rolled_to_move(state, ply, MOVE, opened[0], value, seat), opened[1]


@lru_cache(maxsize=1 << 13)
def _opened_move(
    node: str,
    value: int,
    can_pay: bool,
    holding: bool,
    pass_through: bool,
    land_to_sea: bool,
    sea_to_land: bool,
    seat: int,
) -> tuple[Movement, tuple[Event, ...]] | None:
    """:func:`_roll_to_move`'s movement of ``value`` steps from ``node`` and its ``rolled`` event
    (values: kept by what they depend on), or None when the move menu (:func:`_move_menu_actions`'s
    arguments but the movement) has one ending."""
    move = _movement(value, value, (node,), "start")
    if len(_move_menu_actions(node, move, can_pay, holding, pass_through, land_to_sea, sea_to_land)) == 1:
        return None
    return move, (_make_event("rolled", None, (("seat", seat), ("die", value), ("purpose", "move"))),)


_flip_turn_passed = replacer(
    State,
    (
        "ply",
        "phase",
        "turn",
        "round",
        "pawns",
        "move",
        "flipped",
        "last_roll",
        "last_roller",
        "stacks",
        "revealed",
        "star_found",
    ),
)


@cache
def _rolled_event(seat: int, value: int, purpose: str) -> Event:
    """:meth:`~AfrikanWork.die`'s ``rolled`` event (events are values)."""
    return _make_event("rolled", None, (("seat", seat), ("die", value), ("purpose", purpose)))


def _flip_ending_turn(state: State, seat: int, by_roll: bool) -> tuple[State, tuple[Event, ...]] | None:
    """``flip`` in the declaration or after a move (:func:`_flip`: pay 100, :func:`flip_token`,
    :func:`resolve`) and ``flip_roll`` (:func:`_flip_roll`: the die, then on 4-6 the same flip for
    nothing, else ``flip_failed``), then :func:`end_turn`: covers every token (the Star, a gem, the
    robber, a horseshoe, a blank, the Slave Coast's lost turns; a flip never ends the game) when the
    turn passes as :func:`_pass_turn` passes it. None with preset dice (tests) or where the general
    path serves the next seat's lost turns or ends the game at the round limit. The die is the one
    the working copy's ``rng("d6")`` draws: the first stream of the action's ply; the flip of this
    turn is cleared with the turn."""
    pawns = state.pawns
    pawn = pawns[seat]
    place = pawn.node
    assert place is not None
    ply = state.ply + 1
    last_roll = state.last_roll
    last_roller = state.last_roller
    events: tuple[Event, ...] = ()
    price = FLIP_PRICE
    if by_roll:
        if state.dice:
            return None
        last_roll = randint_for(state.seed, ply, _FIRST_D6, 1, 6)
        last_roller = seat
        events = (_rolled_event(seat, last_roll, "flip"),)
        if last_roll not in FLIP_ROLL_FACES:
            failed = _make_event("flip_failed", None, (("seat", seat), ("place", place)))
            more: tuple[Any, ...] = (last_roll, seat, state.stacks, state.revealed, state.star_found)
            return _pass_turn(state, pawns, (*events, failed), _flip_turn_passed, more)
        price = 0
    # flip_token, then resolve
    i = TREASURE_INDEX[place]
    stacks = state.stacks
    tid = stacks[i][-1]
    kind = kind_of(state.contents, tid)
    events += (_flipped_event(seat, place, tid, kind, price, "roll" if by_roll else "pay"),)
    if price:
        pawn = _pawn(place, pawn.cash - price, pawn.lost_turns, pawn.captured, pawn.voyage, pawn.items)
    after, star_found, effect = token_effect(seat, place, tid, kind, pawn, state.star_found, state.options)
    events += effect
    if after is not pawns[seat]:
        pawns = (*pawns[:seat], after, *pawns[seat + 1 :])
    stacks = (*stacks[:i], stacks[i][:-1], *stacks[i + 1 :])
    more = (last_roll, last_roller, stacks, (*state.revealed, (tid, place)), star_found)
    return _pass_turn(state, pawns, events, _flip_turn_passed, more)


_started = replacer(State, ("ply", "phase", "turn", "round", "pawns", "move", "flipped"))


def _start_fast(state: State, seat: int, place: str) -> tuple[State, tuple[Event, ...]] | None:
    """``start <place>`` (:func:`_start`): the pawn is placed, then the next seat without a pawn
    chooses, or the first round opens at the first seat (:func:`begin_turn`: its declaration; None
    if that pawn had lost turns to serve or were captured, which no pawn is at the start)."""
    pawns = state.pawns
    p = pawns[seat]
    pawns = (
        *pawns[:seat],
        _pawn(place, p.cash, p.lost_turns, p.captured, p.voyage, p.items),
        *pawns[seat + 1 :],
    )
    events: tuple[Event, ...] = (_make_event("start_chosen", None, (("seat", seat), ("place", place))),)
    nxt = next((s for s in range(state.players) if pawns[s].node is None), None)
    if nxt is not None:
        return _started(
            state, state.ply + 1, SETUP, nxt, state.round, pawns, state.move, state.flipped
        ), events
    first = state.first_seat
    if pawns[first].lost_turns > 0 or pawns[first].captured:
        return None
    turn = _TURN_EVENTS[1][first]
    return _started(state, state.ply + 1, DECLARE, first, 1, pawns, None, False), (*events, turn)


def _fly_fast(state: State, seat: int, to: str) -> tuple[State, tuple[Event, ...]] | None:
    """``fly <place>`` (:func:`_fly`: pay the air fare, :func:`arrive`, :func:`end_move`) to a place
    where the flight wins nothing (no goal for a holder of a winning item), takes no Capetown bonus
    and captures no one: the ``after_move`` phase opens where a token may be flipped
    (:func:`after_move`), else the turn passes (:func:`_pass_turn`). None otherwise."""
    pawns = state.pawns
    pawn = pawns[seat]
    if (
        (to in GOALS and pawn.items)
        or (to == CAPETOWN and state.capetown_claimed is None and state.options.capetown_bonus > 0)
        or to in HAZARDS
    ):
        return None
    flown = _pawn(to, pawn.cash - AIR_FARE, pawn.lost_turns, pawn.captured, pawn.voyage, pawn.items)
    pawns = (*pawns[:seat], flown, *pawns[seat + 1 :])
    events = (
        _make_event("flew", None, (("seat", seat), ("start", pawn.node), ("dest", to), ("fare", AIR_FARE))),
    )
    if not state.flipped and top_token(state.stacks, to) is not None and flown.cash >= FLIP_PRICE:
        return _move_ended(state, state.ply + 1, AFTER_MOVE, pawns, None), events
    return _pass_turn(state, pawns, events)


_rolled_turn_passed = replacer(
    State, ("ply", "phase", "turn", "round", "pawns", "move", "flipped", "last_roll", "last_roller")
)


def _release_roll(state: State, seat: int) -> tuple[State, tuple[Event, ...]] | None:
    """The captured pawn's ``roll`` (:func:`_roll` in the ``release`` phase: the die, released on the
    release faces, then :func:`end_turn`) when the turn passes as :func:`_pass_turn` passes it. None
    with preset dice (tests), and where the general path serves lost turns or ends the game. The die
    is the one the working copy's ``rng("d6")`` draws: the first stream of the action's ply."""
    if state.dice:
        return None
    value = randint_for(state.seed, state.ply + 1, _FIRST_D6, 1, 6)
    pawns = state.pawns
    if value in state.options.hazard_release_faces:
        p = pawns[seat]
        pawns = (
            *pawns[:seat],
            _pawn(p.node, p.cash, p.lost_turns, False, p.voyage, p.items),
            *pawns[seat + 1 :],
        )
        outcome = _make_event("released", None, (("seat", seat),))
    else:
        outcome = _make_event("still_captured", None, (("seat", seat),))
    events = (_rolled_event(seat, value, "release"), outcome)
    return _pass_turn(state, pawns, events, _rolled_turn_passed, (value, seat))


_sailed_on = replacer(State, ("ply", "phase", "pawns", "move", "last_roll", "last_roller"))


def _paid_voyage(state: State, seat: int, to: str | None) -> tuple[State, tuple[Event, ...]] | None:
    """A paid voyage's sail (:func:`sail`): ``roll`` on a sea dot (``to`` None; :func:`_roll`: the
    die, :func:`begin_move`, sail), ``board <to>`` in the declaration (:func:`_board`: the die,
    begin_move, :func:`board` at the fare, sail) or in a move (:func:`do_move_action`: board, sail
    the steps left). Covers a voyage that arrives where it wins nothing and takes no Capetown bonus
    (with steps left, the ``move`` phase opens when the menu there offers more than one ending), or
    stops (or arrives with no steps left) on a node that captures no one: the ``after_move`` phase
    opens where a token may be flipped, else the turn passes (:func:`_pass_turn`). None with preset
    dice (tests) and otherwise. The die is the one the working copy's ``rng("d6")`` draws: the first
    stream of the action's ply."""
    pawns = state.pawns
    pawn = pawns[seat]
    node = pawn.node
    assert node is not None
    last_roll = state.last_roll
    last_roller = state.last_roller
    events: tuple[Event, ...] = ()
    if state.phase == DECLARE:
        if state.dice:
            return None
        last_roll = randint_for(state.seed, state.ply + 1, _FIRST_D6, 1, 6)
        last_roller = seat
        events = (_rolled_event(seat, last_roll, "move"),)
        move = _movement(last_roll, last_roll, (node,), "start")
    else:
        assert state.move is not None
        move = state.move
    steps = move.steps
    if to is not None:  # board
        leg = LEGS[(node, to)]
        boarded = _voyage(leg.id, leg.origin, leg.dest, 0, True)
        pawn = _pawn(node, pawn.cash - SEA_FARE, pawn.lost_turns, pawn.captured, boarded, pawn.items)
        pairs = (
            ("seat", seat),
            ("port", node),
            ("dest", to),
            ("leg", leg.id),
            ("fare", SEA_FARE),
            ("free", False),
        )
        events += (_make_event("boarded", None, pairs),)
    v = pawn.voyage
    assert v is not None
    leg = LEGS[(v.origin, v.dest)]
    o = state.options
    at, path = _sail_leg(leg.path, v.at, steps, move.visited, o.hazard_trigger == "pass_through")
    arrived = at == len(leg.path) - 1
    stop = leg.path[at]
    left = None if arrived else _voyage(v.leg, v.origin, v.dest, at, v.paid)
    pawn = _pawn(stop, pawn.cash, pawn.lost_turns, pawn.captured, left, pawn.items)
    pawns = (*pawns[:seat], pawn, *pawns[seat + 1 :])
    move = _movement(steps - len(path) if arrived else 0, move.roll, (*move.visited, *path), "sea")
    events += (_make_event("sailed", None, _sailed_pairs(seat, v, path, at, arrived)),)
    if arrived:
        if (stop in GOALS and pawn.items) or (
            stop == CAPETOWN and state.capetown_claimed is None and o.capetown_bonus > 0
        ):
            return None  # arrive: a win, or the Capetown bonus
        if v.paid and move.steps > 0:  # offer_move
            if len(_menu_actions_at(stop, move, pawn, o)) == 1:
                return None  # carried out at once
            return _sailed_on(state, state.ply + 1, MOVE, pawns, move, last_roll, last_roller), events
    if stop in HAZARDS and not pawn.captured:
        return None  # end_move: captured
    if not state.flipped and top_token(state.stacks, stop) is not None and pawn.cash >= FLIP_PRICE:
        return _sailed_on(state, state.ply + 1, AFTER_MOVE, pawns, None, last_roll, last_roller), events
    return _pass_turn(state, pawns, events, _rolled_turn_passed, (last_roll, last_roller))


def _free_sail_at_sea(state: State, seat: int, to: str) -> tuple[State, tuple[Event, ...]] | None:
    """``free_sail`` (:func:`_free_sail`: :func:`board` a free passage unless on one, then
    :func:`sail` the broke steps) when the voyage stops on a sea dot short of its port, or arrives
    at its port where :func:`arrive` does nothing (no win: the pawn holds no winning item or the
    port is no goal; no Capetown bonus to take); a free passage offers no move after the arrival
    (only a paid voyage's steps go on). On a node that captures no one (:func:`end_move`) and where
    no token may be flipped (:func:`after_move`): the turn passes. None otherwise. The move the
    general path opens for the sail is cleared with the turn, and a free passage pays no fare."""
    pawns = state.pawns
    pawn = pawns[seat]
    node = pawn.node
    v = pawn.voyage
    assert node is not None
    o = state.options
    if v is None:
        key: tuple[Any, ...] = (seat, node, to, o.broke_sea_steps, o.hazard_trigger)
    else:
        key = (seat, node, v.leg, v.dest, v.at, v.paid, o.broke_sea_steps, o.hazard_trigger)
    sailed = _FREE_SAILS.get(key, _MISSING)
    if sailed is _MISSING:
        if len(_FREE_SAILS) >= _FREE_SAILS_MAX:
            _FREE_SAILS.clear()
        _FREE_SAILS[key] = sailed = _free_sail_voyage(seat, node, to, v, o.broke_sea_steps, o.hazard_trigger)
    if sailed is None:
        return None
    stop, arrived, voyage, events = sailed
    if arrived and (
        (stop in GOALS and pawn.items)
        or (stop == CAPETOWN and state.capetown_claimed is None and o.capetown_bonus > 0)
    ):
        return None  # arrive: a win, or the Capetown bonus
    if not state.flipped and top_token(state.stacks, stop) is not None and pawn.cash >= FLIP_PRICE:
        return None
    moved = _pawn(stop, pawn.cash, pawn.lost_turns, pawn.captured, voyage, pawn.items)
    return _pass_turn(state, (*pawns[:seat], moved, *pawns[seat + 1 :]), events)


#: :func:`_free_sail_voyage`'s answers by what they depend on, emptied when full
_FREE_SAILS: dict[tuple[Any, ...], Any] = {}
_FREE_SAILS_MAX = 1 << 13
_MISSING = object()


def _free_sail_voyage(
    seat: int, node: str, to: str, v: Voyage | None, steps: int, hazard_trigger: str
) -> tuple[str, bool, Voyage | None, tuple[Event, ...]] | None:
    """The part of :func:`_free_sail_at_sea` that depends only on the seat, where the pawn stands,
    its voyage (or the port it boards for) and the options (values: kept by these): the dot where
    the passage stops, whether it arrived, the voyage left (None on arrival) and the events
    (``boarded`` when boarding, ``sailed``); None when the passage does not move or stops on a
    hazard."""
    events: tuple[Event, ...] = ()
    if v is None:
        leg = LEGS[(node, to)]
        v = _voyage(leg.id, leg.origin, leg.dest, 0, False)
        events = (
            _make_event(
                "boarded",
                None,
                (("seat", seat), ("port", node), ("dest", to), ("leg", leg.id), ("fare", 0), ("free", True)),
            ),
        )
    else:
        leg = LEGS[(v.origin, v.dest)]
    # the move has visited only ``node``
    at, path = _sail_leg(leg.path, v.at, steps, (node,), hazard_trigger == "pass_through")
    stop = leg.path[at]
    arrived = at == len(leg.path) - 1
    if at == 0 or stop in HAZARDS:
        return None
    sailed = _make_event("sailed", None, _sailed_pairs(seat, v, path, at, arrived))
    voyage = None if arrived else _voyage(v.leg, v.origin, v.dest, at, v.paid)
    return stop, arrived, voyage, (*events, sailed)


def _land_move_fast(state: State, seat: int, action: Move) -> tuple[State, tuple[Event, ...]] | None:
    """``move <node> [via <place>]`` (:func:`do_move_action`: :func:`walk` the chosen path, or stop
    where the pawn stands) on a path that wins nothing (no goal reached by a holder of a winning
    item) and takes no Capetown bonus, ending on no hazard (no capture): the move is kept open on a
    port reached with steps left and a leg to board (``walk``), the ``after_move`` phase opens where
    a token may be flipped (:func:`end_move`, :func:`after_move`), or else the turn passes
    (:func:`_pass_turn`). None otherwise."""
    pawns = state.pawns
    pawn = pawns[seat]
    move = state.move
    node = pawn.node
    assert move is not None and node is not None
    o = state.options
    can_pay = pawn.cash >= SEA_FARE
    key = (
        seat,
        node,
        move.steps,
        move.roll,
        move.visited,
        move.arrived,
        action.to,
        action.via,
        can_pay,
        bool(pawn.items),
        o.hazard_trigger,
        o.land_to_sea_same_move,
        o.sea_to_land_same_move,
    )
    walked = _LAND_MOVES.get(key, _MISSING)
    if walked is _MISSING:
        if len(_LAND_MOVES) >= _LAND_MOVES_MAX:
            _LAND_MOVES.clear()
        _LAND_MOVES[key] = walked = _land_move(seat, node, move, action, can_pay, bool(pawn.items), o)
    if walked is None:
        return None
    dest, capetown, events, kept_open = walked
    if capetown and state.capetown_claimed is None and o.capetown_bonus > 0:
        return None
    if dest != node:
        pawn = _pawn(dest, pawn.cash, pawn.lost_turns, pawn.captured, pawn.voyage, pawn.items)
        pawns = (*pawns[:seat], pawn, *pawns[seat + 1 :])
    if kept_open is not None:
        return _move_kept_open(state, state.ply + 1, pawns, kept_open), events
    if not state.flipped and top_token(state.stacks, dest) is not None and pawn.cash >= FLIP_PRICE:
        return _move_ended(state, state.ply + 1, AFTER_MOVE, pawns, None), events
    return _pass_turn(state, pawns, events)


_move_kept_open = replacer(State, ("ply", "pawns", "move"))
_move_ended = replacer(State, ("ply", "phase", "pawns", "move"))
#: :func:`_land_move`'s answers by what they depend on, emptied when full
_LAND_MOVES: dict[tuple[Any, ...], Any] = {}
_LAND_MOVES_MAX = 1 << 14


def _land_move(
    seat: int, node: str, move: Movement, action: Move, can_pay: bool, holding: bool, o: Options
) -> tuple[str, bool, tuple[Event, ...], Movement | None] | None:
    """The part of :func:`_land_move_fast` that depends only on the seat, the pawn's node, the move,
    the action, whether the pawn can pay a fare and holds a winning item, and the options the move
    menu reads (values: kept by these): where the pawn ends, whether its path passes Capetown, the
    events (``moved``, or none when it stops where it stands) and the move kept open on a port (None
    when it ends); None when a holder reaches a goal or the move ends on a hazard."""
    to = action.to
    kept_open = None
    if to == node and action.via is None:
        dest = node
        capetown = False
        events: tuple[Event, ...] = ()
    else:
        path = chosen_path(
            move_menu(node, move, SEA_FARE if can_pay else 0, holding, o, SEA_FARE).paths(to), action.via
        )
        assert path is not None
        if holding and any(n in GOALS for n in path):
            return None  # arrive: the win
        dest = path[-1]
        moved = _movement(move.steps - len(path), move.roll, (*move.visited, *path), "land")
        # walk: the cash the menu reads is the pawn's before the move (a Capetown bonus is not
        # taken here); a kept-open move never captures (end_move is not reached)
        if (
            moved.steps > 0
            and dest in PORTS
            and move_menu(dest, moved, SEA_FARE if can_pay else 0, holding, o, SEA_FARE).boards
        ):
            kept_open = moved
        capetown = CAPETOWN in path
        events = (
            _make_event(
                "moved",
                None,
                (
                    ("seat", seat),
                    ("start", node),
                    ("dest", dest),
                    ("path", path),
                    ("steps", len(path)),
                    ("by", "land"),
                ),
            ),
        )
    if kept_open is None and dest in HAZARDS:
        return None
    return dest, capetown, events, kept_open


def _pass_turn(
    state: State,
    pawns: tuple[Pawn, ...],
    events: tuple[Event, ...],
    make: Any = None,
    more: tuple[Any, ...] = (),
) -> tuple[State, tuple[Event, ...]] | None:
    """The action's ply, then :func:`end_turn` over the frozen state with ``pawns`` and the action's
    ``events``: the next seat's turn opens (with ``more`` fields of the state, after those that
    :data:`_turn_passed` sets, by a replacer ``make`` of them all). Covers a next seat with no lost turn to serve (the
    general path loops over those) in a round within the limit (past it the game ends): None
    otherwise. ``end_turn`` clears the move and the flip, :func:`advance_seat` counts the round at
    the first seat, :func:`begin_turn` opens the release roll or the declaration."""
    nxt = (state.turn + 1) % state.players
    rnd = state.round
    if nxt == state.first_seat:
        rnd += 1
        limit = state.options.max_rounds
        if limit and rnd > limit:
            return None
    pawn = pawns[nxt]
    if pawn.lost_turns > 0:
        return None
    phase = RELEASE if pawn.captured else DECLARE
    turn = _TURN_EVENTS[rnd][nxt] if rnd <= _KEPT_ROUNDS else _turn_event(nxt, rnd)
    if more:
        return make(state, state.ply + 1, phase, nxt, rnd, pawns, None, False, *more), (*events, turn)
    return _turn_passed(state, state.ply + 1, phase, nxt, rnd, pawns, None, False), (*events, turn)


def _turn_event(seat: int, rnd: int) -> Event:
    """The ``turn`` event of ``seat`` in round ``rnd`` (:func:`begin_turn`'s)."""
    return _make_event("turn", None, (("seat", seat), ("round", rnd)))


#: ``turn`` events by round and seat, of the rounds most games see (events are values: one made
#: for every turn cost a tenth of a pass)
_KEPT_ROUNDS = 200
_TURN_EVENTS: tuple[tuple[Event, ...], ...] = tuple(
    tuple(_turn_event(s, r) for s in range(MAX_SEATS)) for r in range(_KEPT_ROUNDS + 1)
)


def act(w: AfrikanWork, seat: int, action: Action) -> None:
    w.ply += 1
    handler = _ACT.get(type(action))
    if handler is None:  # a subclass of an action (the classes in order, as a match would test them)
        handler = next((h for cls, h in _ACT.items() if isinstance(action, cls)), _ignore)
    handler(w, seat, action)


# One function per action class, found by the action's class (a match statement over the classes cost
# several times the look-up: every action of every game passes here).


def _start(w: AfrikanWork, seat: int, action: Start) -> None:
    place = action.place
    w.place_pawn(seat, place, w.pawns[seat].voyage)
    w.emit_pairs("start_chosen", None, (("seat", seat), ("place", place)))
    nxt = next((s for s in range(w.players) if w.pawns[s].node is None), None)
    if nxt is None:
        w.round = 1
        w.turn = w.first_seat
        begin_turn(w)
    else:
        w.turn = nxt


def _roll(w: AfrikanWork, seat: int, action: Roll) -> None:
    if w.phase == RELEASE:
        value = w.die(seat, "release")
        if value in w.options.hazard_release_faces:
            w.set_captured(seat, False)
            w.emit_pairs("released", None, (("seat", seat),))
        else:
            w.emit_pairs("still_captured", None, (("seat", seat),))
        end_turn(w)
        return
    pawn = w.pawns[seat]
    value = w.die(seat, "move")
    begin_move(w, seat, value, value)
    if pawn.voyage is not None:
        sail(w, seat, value)
    else:
        offer_move(w, seat)


def _move(w: AfrikanWork, seat: int, action: Move | Board) -> None:
    if w.phase == MOVE:
        assert w.pawns[seat].node is not None
        do_move_action(w, seat, action, menu_of(w, seat))


def _board(w: AfrikanWork, seat: int, action: Board) -> None:
    if w.phase == MOVE:
        _move(w, seat, action)
        return
    value = w.die(seat, "move")
    begin_move(w, seat, value, value)
    board(w, seat, action.to, paid=True, fare=SEA_FARE)
    sail(w, seat, value)


def _free_sail(w: AfrikanWork, seat: int, action: FreeSail) -> None:
    # [decided] ``free_sail <dest>`` both boards and continues a free passage (§7 has no separate
    # continue command); a paid voyage continues with ``roll``
    steps = w.options.broke_sea_steps
    begin_move(w, seat, steps, 0)
    if w.pawns[seat].voyage is None:
        board(w, seat, action.to, paid=False, fare=0)
    sail(w, seat, steps)


def _fly(w: AfrikanWork, seat: int, action: Fly) -> None:
    to = action.to
    pawn = w.pawns[seat]
    assert pawn.node is not None
    w.pay(seat, AIR_FARE)
    w.place_pawn(seat, to, w.pawns[seat].voyage)
    w.emit_pairs("flew", None, (("seat", seat), ("start", pawn.node), ("dest", to), ("fare", AIR_FARE)))
    arrive(w, seat, to)
    if w.phase != OVER:
        end_move(w, seat)


def _flip(w: AfrikanWork, seat: int, action: Flip) -> None:
    flip(w, seat, FLIP_PRICE, "pay")
    if w.phase != OVER:
        end_turn(w)


def _flip_roll(w: AfrikanWork, seat: int, action: FlipRoll) -> None:
    place = w.pawns[seat].node
    value = w.die(seat, "flip")
    if value in FLIP_ROLL_FACES:
        flip(w, seat, 0, "roll")
    else:
        w.emit_pairs("flip_failed", None, (("seat", seat), ("place", place)))
    if w.phase != OVER:
        end_turn(w)


def _stay(w: AfrikanWork, seat: int, action: Stay) -> None:
    w.emit_pairs("stayed", None, (("seat", seat),))
    end_turn(w)


def _end_phase(w: AfrikanWork, seat: int, action: EndPhase) -> None:
    # [decided] declining the §4.1 step 4 flip uses ``end_phase`` (the spec's "no" to a phase)
    end_turn(w)


def _ignore(w: AfrikanWork, seat: int, action: Any) -> None:
    return None


_ACT: dict[type, Any] = {
    Start: _start,
    Roll: _roll,
    Move: _move,
    Board: _board,
    FreeSail: _free_sail,
    Fly: _fly,
    Flip: _flip,
    FlipRoll: _flip_roll,
    Stay: _stay,
    EndPhase: _end_phase,
}


# --- entering places, tokens -------------------------------------------------------------------
def arrive(w: AfrikanWork, seat: int, place: str) -> None:
    """Entering a place (E7): the win check, then the Capetown bonus."""
    pawn = w.pawns[seat]
    if place in GOALS and pawn.items:
        win(w, seat, place)
        return
    if place == CAPETOWN and w.capetown_claimed is None and w.options.capetown_bonus > 0:
        w.capetown_claimed = seat
        bonus = w.options.capetown_bonus
        w.set_cash(seat, pawn.cash + bonus)
        w.emit_pairs("capetown_bonus", None, (("seat", seat), ("amount", bonus)))


def flip_token(w: AfrikanWork, seat: int, price: int, by: str) -> tuple[str, str, str]:
    """Turn the top token under the pawn face up (paying ``price``): ``(place, token id, kind)``."""
    place = w.pawns[seat].node
    assert place is not None
    i = TREASURE_INDEX[place]
    stacks = w.stacks
    tid = stacks[i][-1]
    w.stacks = (*stacks[:i], stacks[i][:-1], *stacks[i + 1 :])
    if price:
        w.pay(seat, price)
    kind = w.kind(tid)
    w.flipped = True
    w.revealed = (*w.revealed, (tid, place))
    if not w.quiet:
        w.events.append(_flipped_event(seat, place, tid, kind, price, by))
    return place, tid, kind


def _flipped_event(seat: int, place: str, tid: str, kind: str, price: int, by: str) -> Event:
    """:func:`flip_token`'s ``flipped`` event."""
    return _make_event(
        "flipped",
        None,
        (
            ("seat", seat),
            ("place", place),
            ("token", content_id(tid, kind)),
            ("kind", kind),
            ("paid", price),
            ("by", by),
        ),
    )


def flip(w: AfrikanWork, seat: int, price: int, by: str) -> None:
    resolve(w, seat, *flip_token(w, seat, price, by))


def resolve(w: AfrikanWork, seat: int, place: str, tid: str, kind: str) -> None:
    """§4.7 token effects and the Slave Coast rule of §4.8 (:func:`token_effect`)."""
    pawn, w.star_found, events = token_effect(seat, place, tid, kind, w.pawns[seat], w.star_found, w.options)
    w.pawns[seat] = pawn
    if not w.quiet:
        w.events.extend(events)


def token_effect(
    seat: int, place: str, tid: str, kind: str, pawn: Pawn, star_found: bool, o: Options
) -> tuple[Pawn, bool, tuple[Event, ...]]:
    """What the token ``tid`` of ``kind`` turned face up at ``place`` does to ``seat``'s ``pawn``
    (§4.7, and §4.8's lost turns on the Slave Coast): the pawn after it (the same object when
    unchanged), whether the Star is found, and the events. Shared by :func:`resolve` and the flip's
    fast path."""
    cid = content_id(tid, kind)
    cash, items, lost_turns = pawn.cash, pawn.items, pawn.lost_turns
    events: tuple[Event, ...] = ()
    if kind == "star":
        star_found = True
        items = (*items, tid)
        events = (_make_event("star_found", None, (("seat", seat), ("token", cid))),)
    elif kind in GEM_VALUES:
        value = o.emerald_value if kind == "emerald" else GEM_VALUES[kind]
        doubled = place == GOLD_COAST
        amount = value * (2 if doubled else 1)
        cash += amount
        events = (
            _make_event(
                "gem",
                None,
                (("seat", seat), ("token", cid), ("kind", kind), ("amount", amount), ("doubled", doubled)),
            ),
        )
    elif kind == "robber":
        events = (_make_event("robbed", None, (("seat", seat), ("token", cid), ("lost", cash))),)
        cash = 0
    elif kind == "horseshoe":
        code = "horseshoe_kept" if star_found else "horseshoe_worthless"
        if star_found:
            items = (*items, tid)
        events = (_make_event(code, None, (("seat", seat), ("token", cid))),)
    elif kind == "blank":
        events = (_make_event("blank", None, (("seat", seat), ("token", cid))),)
        if place == SLAVE_COAST:
            lost_turns += SLAVE_COAST_LOST_TURNS
            events += (_turns_lost_event(seat, SLAVE_COAST_LOST_TURNS, lost_turns, "slave_coast"),)
    if cash != pawn.cash or items is not pawn.items or lost_turns != pawn.lost_turns:
        pawn = _pawn(pawn.node, cash, lost_turns, pawn.captured, pawn.voyage, items)
    return pawn, star_found, events


# --- turn flow ---------------------------------------------------------------------------------
def lose_turns(w: AfrikanWork, seat: int, turns: int, reason: str) -> None:
    pawn = w.set_lost_turns(seat, w.pawns[seat].lost_turns + turns)
    if not w.quiet:
        w.events.append(_turns_lost_event(seat, turns, pawn.lost_turns, reason))


def _turns_lost_event(seat: int, turns: int, pending: int, reason: str) -> Event:
    return _make_event(
        "turns_lost", None, (("seat", seat), ("turns", turns), ("pending", pending), ("reason", reason))
    )


def advance_seat(w: AfrikanWork) -> None:
    nxt = (w.turn + 1) % w.players
    if nxt == w.first_seat:
        w.round += 1
        limit = w.options.max_rounds
        if limit and w.round > limit:
            w.round = limit
            finish(w, None, "round_limit")
            return
    w.turn = nxt


def begin_turn(w: AfrikanWork) -> None:
    """Serve lost turns (§4.1 step 1), then open the release roll or the declaration."""
    while w.phase != OVER:
        seat = w.turn
        pawn = w.pawns[seat]
        if pawn.lost_turns > 0:
            pawn = w.set_lost_turns(seat, pawn.lost_turns - 1)
            w.emit_pairs("turn_lost", None, (("seat", seat), ("pending", pawn.lost_turns)))
            advance_seat(w)
            continue
        w.flipped = False
        w.move = None
        w.phase = RELEASE if pawn.captured else DECLARE
        w.emit_pairs("turn", None, (("seat", seat), ("round", w.round)))
        return


def end_turn(w: AfrikanWork) -> None:
    w.move = None
    w.flipped = False
    advance_seat(w)
    begin_turn(w)


def after_move(w: AfrikanWork, seat: int) -> None:
    """§4.1 step 4: after a move ending on a face-down token, the player may pay and flip it."""
    pawn = w.pawns[seat]
    if not w.flipped and top_token(w.stacks, pawn.node) is not None and pawn.cash >= FLIP_PRICE:
        w.phase = AFTER_MOVE
    else:
        end_turn(w)


def win(w: AfrikanWork, seat: int, goal: str) -> None:
    pawn = w.pawns[seat]
    kinds = [w.kind(t) for t in pawn.items]
    item = "star" if "star" in kinds else "horseshoe"
    tid = pawn.items[kinds.index(item)]
    w.emit("won", seat=seat, goal=goal, item=item, token=content_id(tid, item))
    finish(w, seat, "goal")


def finish(w: AfrikanWork, winner: int | None, reason: str) -> None:
    w.winner = winner
    w.end_reason = reason
    w.phase = OVER
    w.move = None
    out = outcome_of(w.pawns, winner, w.contents)
    w.emit("game_over", reason=reason, winner=winner, ranks=out.ranks, cash=out.scores)


# --- movement ----------------------------------------------------------------------------------
_movement = maker(Movement)
_voyage = maker(Voyage)


def begin_move(w: AfrikanWork, seat: int, steps: int, roll: int) -> None:
    node = w.pawns[seat].node
    assert node is not None
    w.move = _movement(steps, roll, (node,), "start")


def offer_move(w: AfrikanWork, seat: int) -> None:
    """Open the ``move`` phase, or carry out the only possible ending at once."""
    pawn = w.pawns[seat]
    assert w.move is not None and pawn.node is not None
    actions = menu_actions_of(w, seat)
    # [decided] a move with a single possible ending needs no decision: it is carried out
    if len(actions) == 1:
        do_move_action(w, seat, actions[0], menu_of(w, seat))
    else:
        w.phase = MOVE


def do_move_action(w: AfrikanWork, seat: int, action: Action, menu: MoveMenu) -> None:
    pawn = w.pawns[seat]
    assert w.move is not None and pawn.node is not None
    match action:
        case Move(to, via) if to == pawn.node and via is None:
            end_move(w, seat)
        case Move(to, via):
            path = chosen_path(menu.paths(to), via)
            assert path is not None
            walk(w, seat, path)
        case Board(to):
            board(w, seat, to, paid=True, fare=SEA_FARE)
            sail(w, seat, w.move.steps)


def walk(w: AfrikanWork, seat: int, path: tuple[str, ...]) -> None:
    """A land segment along ``path``; pauses on a port where the pawn could still board."""
    move = w.move
    assert move is not None
    pawn = w.pawns[seat]
    start = pawn.node
    w.place_pawn(seat, path[-1], pawn.voyage)
    w.move = move = _movement(move.steps - len(path), move.roll, (*move.visited, *path), "land")
    w.emit_pairs(
        "moved",
        None,
        (
            ("seat", seat),
            ("start", start),
            ("dest", path[-1]),
            ("path", path),
            ("steps", len(path)),
            ("by", "land"),
        ),
    )
    for node in path:
        if node in PLACE_SET:
            arrive(w, seat, node)
            if w.phase == OVER:
                return
    pawn = w.pawns[seat]
    assert pawn.node is not None
    # [decided] S6: ending a land segment on a port with steps left and a leg to board keeps the
    # move open (``board <port>``, more land steps, or ``move <port>`` to stop there)
    if move.steps > 0 and pawn.node in PORTS and menu_of(w, seat).boards:
        w.phase = MOVE
        return
    end_move(w, seat)


def board(w: AfrikanWork, seat: int, dest: str, paid: bool, fare: int) -> None:
    """Onto the leg to ``dest`` (a paid voyage at ``fare``, or a free passage)."""
    pawn = w.pawns[seat]
    assert pawn.node is not None
    leg = LEGS[(pawn.node, dest)]
    if fare:
        w.pay(seat, fare)
    w.set_voyage(seat, _voyage(leg.id, leg.origin, leg.dest, 0, paid))
    w.emit_pairs(
        "boarded",
        None,
        (
            ("seat", seat),
            ("port", pawn.node),
            ("dest", dest),
            ("leg", leg.id),
            ("fare", fare),
            ("free", not paid),
        ),
    )


def _sail_leg(
    leg_path: tuple[str, ...], at: int, steps: int, visited: Collection[str], pass_through: bool
) -> tuple[int, list[str]]:
    """Up to ``steps`` dots along a leg from dot ``at``: where the voyage stops and the dots it
    passed. It stops before a node the move has visited (M4: it cannot go on without entering
    it) and, with pass-through hazards, on a hazard."""
    end = len(leg_path) - 1
    path: list[str] = []
    while len(path) < steps and at < end:
        nxt = leg_path[at + 1]
        if nxt in visited:
            break
        at += 1
        path.append(nxt)
        if pass_through and nxt in HAZARDS:
            break
    return at, path


def _sailed_pairs(
    seat: int, v: Voyage, path: list[str], at: int, arrived: bool
) -> tuple[tuple[str, Any], ...]:
    """The ``sailed`` event's fields: the voyage ``v`` sailed ``path`` to dot ``at``."""
    return (
        ("seat", seat),
        ("leg", v.leg),
        ("dest", v.dest),
        ("path", tuple(path)),
        ("steps", len(path)),
        ("at", at),
        ("arrived", arrived),
    )


def sail(w: AfrikanWork, seat: int, steps: int) -> None:
    """Advance the pawn's voyage by up to ``steps`` (S3/S4), then continue or end the move."""
    pawn = w.pawns[seat]
    v = pawn.voyage
    assert v is not None and w.move is not None
    leg = LEGS[(v.origin, v.dest)]
    at, path = _sail_leg(leg.path, v.at, steps, w.move.visited, w.options.hazard_trigger == "pass_through")
    used = len(path)
    arrived = at == len(leg.path) - 1  # leg.steps
    assert arrived or at > 0, "a voyage always leaves its port"  # boarding needs a free first node
    node = leg.path[at]
    w.place_pawn(seat, node, None if arrived else _voyage(v.leg, v.origin, v.dest, at, v.paid))
    w.move = _movement(steps - used if arrived else 0, w.move.roll, (*w.move.visited, *path), "sea")
    w.emit_pairs("sailed", None, _sailed_pairs(seat, v, path, at, arrived))
    if arrived:
        arrive(w, seat, node)
        if w.phase == OVER:
            return
        if v.paid and w.move.steps > 0:
            offer_move(w, seat)
            return
    end_move(w, seat)


def end_move(w: AfrikanWork, seat: int) -> None:
    pawn = w.pawns[seat]
    assert pawn.node is not None
    if pawn.node in HAZARDS and not pawn.captured:
        w.set_captured(seat, True)
        w.emit_pairs("captured", None, (("seat", seat), ("node", pawn.node), ("hazard", HAZARDS[pawn.node])))
    w.move = None
    after_move(w, seat)


# ---------------------------------------------------------------------------------------------
# Information and outcome (spec §4.10, §9)


_view = maker(View)
_pawn_view = maker(PawnView)
# The parts of a view that change only when a token is flipped, for the last stacks and the last
# revealed list shown (a state's working copy hands an unchanged field on as the same tuple, see
# engines/work.py): one slot each, replaced whole, so that another thread reads a matching pair
_face_down_of: list[tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, str], ...]]] = [((), ())]
_revealed_of: list[
    tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]
] = [((), (), ())]


def _face_down(stacks: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, str], ...]:
    last = _face_down_of[0]
    if last[0] is stacks:
        return last[1]
    out = tuple([(TREASURE_PLACES[i], t) for i, st in enumerate(stacks) for t in st])
    _face_down_of[0] = (stacks, out)
    return out


def _revealed(
    revealed: tuple[tuple[str, str], ...], contents: tuple[tuple[str, str], ...]
) -> tuple[tuple[str, str], ...]:
    last = _revealed_of[0]
    if last[0] is revealed and last[1] is contents:
        return last[2]
    kinds = dict(contents)
    out = tuple([(place, content_id(t, kinds[t])) for t, place in revealed])
    _revealed_of[0] = (revealed, contents, out)
    return out


#: each pawn's view by the pawn's identity (and the contents', which name its items): a working
#: copy hands an unchanged pawn on as the same value, so most pawns of a view were shown before
_pawn_views: dict[int, tuple[Pawn, tuple[tuple[str, str], ...], PawnView]] = {}


def _pawn_view_of(p: Pawn, contents: tuple[tuple[str, str], ...]) -> PawnView:
    known = _pawn_views.get(id(p))
    if known is not None and known[0] is p and known[1] is contents:
        return known[2]
    made = _pawn_view(
        p.node,
        p.cash,
        p.lost_turns,
        p.captured,
        p.voyage,
        tuple([content_id(t, kind_of(contents, t)) for t in p.items]) if p.items else (),
    )
    if len(_pawn_views) >= 4096:
        _pawn_views.clear()
    _pawn_views[id(p)] = (p, contents, made)
    return made


def _pawn_views_of(pawns: tuple[Pawn, ...], contents: tuple[tuple[str, str], ...]) -> tuple[PawnView, ...]:
    last = _pawn_views_last[0]
    if last[0] is pawns and last[1] is contents:
        return last[2]
    made = tuple([_pawn_view_of(p, contents) for p in pawns])
    _pawn_views_last[0] = (pawns, contents, made)
    return made


#: the pawns' views of the last pawns tuple shown (a turn that moves no pawn hands it on unchanged)
_pawn_views_last: list[tuple[Any, Any, tuple[PawnView, ...]]] = [((), (), ())]


def view(state: State, seat: Seat | None) -> View:
    contents = state.contents
    pawns = state.pawns
    over = state.phase == OVER
    star_holder = None
    if state.star_found:
        star_holder = next(
            (s for s, p in enumerate(pawns) for t in p.items if kind_of(contents, t) == "star"), None
        )
    return _view(
        seat,
        state.players,
        state.options,
        state.phase,
        None if over else state.turn,
        () if over else (state.turn,),  # to_act(state)
        state.round,
        state.first_seat,
        _pawn_views_of(pawns, contents),
        _face_down(state.stacks),
        _revealed(state.revealed, contents),
        state.star_found,
        star_holder,
        state.capetown_claimed,
        state.last_roll,
        state.last_roller,
        state.move,
        state.flipped,
        state.winner,
        state.end_reason,
        None,  # prompt
        None,  # x
    )


def hidden_tokens(state: State, seat: Seat | None) -> frozenset[str]:
    down = {t for st in state.stacks for t in st}
    return frozenset(content_id(t, k) for t, k in state.contents if t in down)


def outcome(state: State) -> Outcome | None:
    if state.phase != OVER:
        return None
    return outcome_of(state.pawns, state.winner, state.contents)


def outcome_of(pawns: Iterable[Pawn], winner: int | None, contents: Sequence[Sequence[str]]) -> Outcome:
    """The winner first; [decided] the others share places by cash (the spec ranks only the
    winner). At the round limit: holders of a winning item first (the Star before horseshoes), then
    cash. ``scores`` are the final cash."""
    pawns = tuple(pawns)
    cash = tuple(p.cash for p in pawns)

    def item_rank(p: Pawn) -> int:
        kinds = {kind_of(contents, t) for t in p.items}
        return 2 if "star" in kinds else 1 if kinds else 0

    keys = [
        ((0 if s == winner else 1) if winner is not None else -item_rank(p), -cash[s])
        for s, p in enumerate(pawns)
    ]
    ranks = tuple(1 + sum(1 for k in keys if k < mine) for mine in keys)
    winners = tuple(s for s, r in enumerate(ranks) if r == 1)
    return Outcome(ranks=ranks, scores=cash, winners=winners, low_wins=False)
