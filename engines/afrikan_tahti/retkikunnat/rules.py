"""Afrikan Tähti with Retkikunnat (spec §5): legality, candidates, the transition, views.

Legality is written here (:func:`check`, reason codes) over a read-only working copy of the state
(:func:`snapshot`), with the base game's shared checks (:mod:`engines.afrikan_tahti.base.rules`);
:func:`candidates` lists a superset of the legal actions (trade offers: one card or sum each way, see
:func:`offers`); transitions are in :mod:`.turn` and the modules it drives. Information (§9): hands,
peek results and deck orders are private or hidden; everything else, including hand-card counts, is
public. ``hidden_tokens`` lists face-down token contents ``tok:<id>:<kind>`` and card instances as
JSON strings (``'"sabotage#2"'``), so that ``trap#1`` does not match inside ``lost_city_trap#1``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engines.afrikan_tahti.base import rules as base
from engines.afrikan_tahti.base.rules import need
from engines.afrikan_tahti.board import AIR_FROM, LEGS_FROM, PLACE_SET, PORTS, STARTS, TREASURE_PLACES
from engines.afrikan_tahti.model import (
    ACTIONS,
    DECLARE,
    MOVE,
    NOTATION,
    OVER,
    RELEASE,
    SETUP,
    Accept,
    Adjust,
    AfrikanWork,
    Ask,
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
    Fly,
    FreeSail,
    GemRoll,
    Hold,
    Lapse,
    Move,
    Offer,
    Pass,
    Peek,
    Play,
    Reroll,
    RerollDone,
    RerollMove,
    Roll,
    Seaplane,
    Sell,
    Start,
    State,
    Stay,
    SwapStack,
    Unhold,
    Use,
    View,
    content_id,
    seat_of,
)
from engines.afrikan_tahti.retkikunnat import predicates as q
from engines.afrikan_tahti.retkikunnat import turn
from engines.afrikan_tahti.retkikunnat.cards import BUY_DISCARD_PRICE
from engines.afrikan_tahti.retkikunnat.content import (
    ACTIVE,
    CHARACTERS,
    DNG,
    EXP,
    EXTRA_STEPS,
    PHASE2_USES,
    WINDOW_CARDS,
    card_id,
    effects,
    progress,
    sellable,
    tradeable,
)
from engines.afrikan_tahti.retkikunnat.danger import BRIBE_PRICE, DANGER_SCOPES, SURVIVAL_PRICE
from engines.afrikan_tahti.retkikunnat.duels import ATTACK_SCOPES, DEFENCE_SCOPES, split_items
from engines.afrikan_tahti.retkikunnat.model import (
    CHARACTER,
    PHASE2,
    PHASE3,
    DangerView,
    DuelView,
    Job,
    OfferView,
    PlayerX,
    PromptView,
    XView,
)
from engines.afrikan_tahti.retkikunnat.predicates import MAX_OFFERS, SEAPLANE_PRICE
from engines.contract import Event, IllegalAction, Seat

OWN_TURN = (Hold, Unhold, Play, Use, Ask)
PHASE_X: dict[str, tuple[type, ...]] = {
    CHARACTER: (Character,),
    SETUP: (Start,),
    DECLARE: (Roll, Board, FreeSail, Fly, Seaplane, Stay, GemRoll, *OWN_TURN),
    RELEASE: (Roll,),
    MOVE: (Move, Board, RerollMove, Adjust),
    PHASE2: (Sell, Discard, SwapStack, Peek, BuyDiscard, EndPhase, *OWN_TURN),
    PHASE3: (Flip, FlipRoll, Duel, Offer, SwapStack, Peek, EndPhase, Hold, Unhold, Play, Ask),
    OVER: (),
}
PROMPT_X: dict[str, tuple[type, ...]] = {
    "window": (Pass, Play, Ask, Lapse),
    "danger": (Roll, Play, Use, Reroll, RerollDone, Pass),
    "duel": (Roll, Reroll, RerollDone),
    "offer": (Accept, Decline),
    "choose": (Choose, Decline),
    "reveal": (Pass, Play, Ask, Lapse),
    "exchange": (Exchange, Decline),
    "lost_turn": (Use, Pass),
    "hand_discard": (Discard,),
    "limit_discard": (Discard,),
    "market_day": (Accept, Decline),
}
#: the settings a seat may give reaction windows (windows.py): every window, none, or only those
#: one hand card answers
ASK_MODES = ("all", "never", "sabotage", "gotcha", "favour", "ulterior_motive", "surprise")
PASSIVE_CARDS = frozenset(c for c in EXP if any(u == "passive" for u, _e in effects(c)))
OFFER_MONEY = (100, 200, 300)


def snapshot(state: State) -> AfrikanWork:
    """A read-only working copy of ``state`` for the checks, candidates and views (the last one is
    kept: ``legal_actions`` checks every candidate against the same state)."""
    slot = _last[:1]  # one read of the slot: another thread may replace it meanwhile
    if slot and slot[0][0] is state:
        return slot[0][1]
    w = AfrikanWork(state, quiet=True)
    _last[:] = [(state, w)]
    return w


_last: list[tuple[State, AfrikanWork]] = []


def to_act(state: State) -> tuple[int, ...]:
    if state.phase == OVER:
        return ()
    return q.prompt_seats(snapshot(state))


def perform(state: State, seat: Seat, action: Any) -> tuple[State, tuple[Event, ...]]:
    w = AfrikanWork(state)
    turn.perform(w, seat, action)
    return w.freeze(), tuple(w.events)


# --- legality --------------------------------------------------------------------------------
def check(state: State, seat: Seat, action: Any) -> None:
    base.check_seat(state, seat, action, ACTIONS)
    w = snapshot(state)
    j = w.top()
    if isinstance(action, Ask) and state.phase != OVER and seat not in q.prompt_seats(w):
        need(action.mode in ASK_MODES, "bad_argument")
        return  # a standing setting: any seat, any time (windows.py)
    if seat not in q.prompt_seats(w):
        raise IllegalAction(
            "not_your_turn" if j is None else "not_asked", turn=state.turn, prompt=j.kind if j else None
        )
    if isinstance(action, Ask):
        need(action.mode in ASK_MODES, "bad_argument")
    if j is not None:
        need(isinstance(action, PROMPT_X[j.kind]), "wrong_prompt", prompt=j.kind)
        CHECKS[j.kind](w, j, seat, action)
    else:
        need(isinstance(action, PHASE_X[state.phase]), "wrong_phase", phase=state.phase)
        check_phase(w, seat, action)


# prompts
def check_window(w: AfrikanWork, j: Job, seat: int, action: Any) -> None:
    if isinstance(action, Play):
        need(action.arg is None, "bad_argument")
        need(action.card in WINDOW_CARDS[j["kind"]], "not_an_answer", window=j["kind"])
        need(q.hand_inst(w, seat, action.card), "not_in_hand", card=action.card)


def check_danger(w: AfrikanWork, j: Job, seat: int, action: Any) -> None:
    stage = j["stage"]
    match action:
        case Roll():
            need(stage == "drawn", "wrong_stage", stage=stage)
        case Play(card, arg):
            need(stage == "drawn" and card == "bribe" and arg is None, "cannot_play_now", card=card)
            need(q.hand_inst(w, seat, card), "not_in_hand", card=card)
            need(w.pawns[seat].cash >= BRIBE_PRICE, "cannot_afford", price=BRIBE_PRICE)
        case Use(card, arg):
            need(arg is None, "bad_argument")
            if stage == "failed":
                need(card in ("medical_kit", "survival"), "cannot_use_now", card=card)
                if card == "survival":
                    need(w.pawns[seat].cash >= SURVIVAL_PRICE, "cannot_afford", price=SURVIVAL_PRICE)
            else:
                need(card == "dynamite", "cannot_use_now", card=card)
            need(q.usable(w, seat, card, "a"), "card_not_usable", card=card)
        case Reroll(card, dice):
            need(stage == "rolled", "wrong_stage", stage=stage)
            check_reroll(w, seat, card, dice, DANGER_SCOPES)
        case RerollDone():
            need(stage == "rolled", "wrong_stage", stage=stage)
        case Pass():
            need(stage == "failed", "wrong_stage", stage=stage)


def check_reroll(
    w: AfrikanWork, seat: int, card: str, dice: tuple[int, ...], scopes: tuple[str, ...]
) -> None:
    options = dict(q.rerolls(w, seat, scopes))
    need(card in options, "card_not_usable", card=card)
    need(len(dice) <= options[card], "too_many_dice", most=options[card])


def check_duel(w: AfrikanWork, j: Job, seat: int, action: Any) -> None:
    stage = j["stage"]
    if isinstance(action, Roll):
        need(stage.endswith("_roll"), "wrong_stage", stage=stage)
        return
    need(stage.endswith("_reroll"), "wrong_stage", stage=stage)
    if isinstance(action, Reroll):
        scopes = DEFENCE_SCOPES if stage.startswith("defender") else ATTACK_SCOPES
        check_reroll(w, seat, action.card, action.dice, scopes)


def check_offer(w: AfrikanWork, j: Job, seat: int, action: Any) -> None:
    pass


def check_choose(w: AfrikanWork, j: Job, seat: int, action: Any) -> None:
    if isinstance(action, Decline):
        need(j["optional"], "must_choose")
    else:
        need(action.option in j["options"], "not_an_option", option=action.option)


def check_reveal(w: AfrikanWork, j: Job, seat: int, action: Any) -> None:
    if isinstance(action, Play):
        need(action.card == "surprise", "cannot_play_now", card=action.card)
        need(q.hand_inst(w, seat, "surprise"), "not_in_hand", card="surprise")
        target = action.arg
        tid = q.top_token(w, target) if target else None
        need(tid is not None and target != j["place"], "no_token", place=target)
        need(tid and tid[0] == j["tid"][0], "wrong_layer", place=target)


def check_exchange(w: AfrikanWork, j: Job, seat: int, action: Any) -> None:
    pass


def check_lost_turn(w: AfrikanWork, j: Job, seat: int, action: Any) -> None:
    if isinstance(action, Use):
        need(action.card == "tinned_food" and action.arg is None, "cannot_use_now", card=action.card)
        need(q.usable(w, seat, "tinned_food", "a"), "card_not_usable", card=action.card)


def check_hand_discard(w: AfrikanWork, j: Job, seat: int, action: Any) -> None:
    need(q.hand_inst(w, seat, action.card), "not_in_hand", card=action.card)


def check_limit_discard(w: AfrikanWork, j: Job, seat: int, action: Any) -> None:
    need(q.inst(w, seat, action.card), "no_such_card", card=action.card)


def check_market_day(w: AfrikanWork, j: Job, seat: int, action: Any) -> None:
    pass


# phases
def check_phase(w: AfrikanWork, seat: int, action: Any) -> None:
    pawn = w.pawns[seat]
    node = pawn.node
    phase = w.phase
    match action:
        case Character(c):
            need(c not in (x.character for x in w.sx), "character_taken", character=c)
        case Start(place):
            base.check_start(place)
        case Roll() if phase == RELEASE:
            pass
        case Move() | Board() if phase == MOVE:
            check_move(w, seat, action)
        case Roll() | Board() | FreeSail() | Fly():
            base.check_travel(pawn, action, q.sea_fare(w, seat), q.air_fare(w, seat))
        case Seaplane(to):
            need(q.usable(w, seat, "seaplane", "a"), "card_not_usable", card="seaplane")
            need(pawn.voyage is None, "at_sea")
            base.need_port(node)
            base.need_leg(node, to)
            need(pawn.cash >= SEAPLANE_PRICE, "cannot_afford", price=SEAPLANE_PRICE, cash=pawn.cash)
        case Stay() | EndPhase():
            pass
        case GemRoll():
            need(q.gem_roll_allowed(w), "no_gem_roll")
        case RerollMove() | Adjust():
            card = "compass" if isinstance(action, RerollMove) else "maps"
            move, mv = w.move, w.tx.mv
            need(
                move is not None and mv is not None and mv.kind == "die" and move.arrived == "start",
                "not_after_roll",
            )
            need(card not in w.tx.mods and "maps" not in w.tx.mods, "already_adjusted")
            need(q.usable(w, seat, card, "a"), "card_not_usable", card=card)
            if isinstance(action, Adjust):
                need(action.delta in (1, -1), "bad_argument")
        case Flip() | FlipRoll():
            need(w.tx.action is None, "action_taken", action=w.tx.action)
            code, price, _faces, _shovel = q.flip_terms(w, seat)
            need(code is None, code or "", place=node)
            if isinstance(action, Flip):
                need(pawn.cash >= price, "cannot_afford", price=price, cash=pawn.cash)
            else:
                need(q.may_flip_roll(w, seat, price), "can_afford_flip", price=price)
        case Duel(other, target):
            need(w.tx.action is None, "action_taken", action=w.tx.action)
            need(other in q.same_node(w, seat), "not_here", seat=other)
            need(target in q.duel_targets(w, seat, other), "no_such_target", target=target)
        case Offer():
            check_offer_action(w, seat, action)
        case SwapStack(place):
            need(w.tx.action is None, "action_taken", action=w.tx.action)
            need(q.has_char(w, seat, "swap_token_stack"), "not_your_ability")
            need("@swap" not in w.sx[seat].used, "ability_used")
            here = q.top_token(w, node)
            there = q.top_token(w, place)
            need(here is not None, "no_token", place=node)
            need(there is not None and place != node, "no_token", place=place)
            need(here and there and here[0] == there[0], "wrong_layer", place=place)
        case Peek():
            need(w.tx.action is None, "action_taken", action=w.tx.action)
            need(q.has_char(w, seat, "peek_token"), "not_your_ability")
            need("@peek" not in w.sx[seat].used, "ability_used")
            need(q.top_token(w, node) is not None, "no_token", place=node)
        case BuyDiscard():
            need(q.has_char(w, seat, "buy_from_discard"), "not_your_ability")
            need("@buy" not in w.sx[seat].used, "ability_used")
            need(node in PLACE_SET, "not_a_place", node=node)
            need(w.decks["expedition"].discard, "discard_empty")
            need(pawn.cash >= BUY_DISCARD_PRICE, "cannot_afford", price=BUY_DISCARD_PRICE, cash=pawn.cash)
        case Sell(card) | Discard(card):
            need(q.inst(w, seat, card), "no_such_card", card=card)
            if isinstance(action, Sell):
                need(sellable(card), "not_sellable", card=card)
            else:
                need(not sellable(card), "sell_it", card=card)
        case Hold(card) | Unhold(card):
            inst = q.inst(w, seat, card)
            need(inst, "no_such_card", card=card)
            need(card in PASSIVE_CARDS, "not_passive", card=card)
            held = inst in w.sx[seat].held
            need(held != isinstance(action, Hold), "already_held" if held else "not_held", card=card)
        case Use(card, arg):
            check_use(w, seat, card, arg)
        case Play(card, arg):
            check_play(w, seat, card, arg)


def check_move(w: AfrikanWork, seat: int, action: Move | Board) -> None:
    node = w.pawns[seat].node
    menu = q.menu(w, seat)
    match action:
        case Move():
            base.check_move(menu, node, action, land_ok=True)
        case Board(to):
            base.need_port(node)
            base.need_leg(node, to)
            fare = q.sea_fare(w, seat)
            need(w.pawns[seat].cash >= fare, "cannot_afford", price=fare)
            need(to in menu.boards, "cannot_board_here", dest=to)


def check_use(w: AfrikanWork, seat: int, card: str, arg: str | None) -> None:
    need(q.inst(w, seat, card), "no_such_card", card=card)
    need(card in PHASE2_USES, "cannot_use_now", card=card)
    name = ACTIVE[card]
    if w.phase != PHASE2:
        need(name == "cancel_lost_turn", "cannot_use_now", card=card)
    need(q.usable(w, seat, card, "a"), "card_used", card=card)
    pawn = w.pawns[seat]
    if name == "peek_token":
        places = (
            q.binocular_places(w, seat)
            if card == "binoculars"
            else [p for p in w.tx.places if q.top_token(w, p) is not None]
        )
        need(arg in places, "not_a_target", place=arg)
        return
    need(arg is None, "bad_argument")
    if name in ("extra_steps", "low_roll_bonus"):
        need(q.extra_steps_allowed(w, seat), "no_extra_steps")
        if name == "low_roll_bonus":
            need(w.tx.die in (1, 2), "not_a_low_roll")
        terrain = EXTRA_STEPS.get(card, (1, "land"))[1]
        if terrain == "land":
            need(pawn.voyage is None, "at_sea")
        elif terrain == "sea":
            need(pawn.voyage is not None or pawn.node in PORTS, "not_at_sea")
            need(
                pawn.voyage is not None or pawn.cash >= q.sea_fare(w, seat),
                "cannot_afford",
                price=q.sea_fare(w, seat),
            )
    elif name == "cancel_lost_turn":
        need(pawn.lost_turns > 0, "no_lost_turns")


def check_play(w: AfrikanWork, seat: int, card: str, arg: str | None) -> None:
    need(q.hand_inst(w, seat, card), "not_in_hand", card=card)
    if card == "sabotage":
        need(arg is not None and ":" in arg, "bad_argument")
        owner_word, _, target = (arg or "").partition(":")
        owner = seat_of(owner_word)
        need(owner is not None and owner != seat and owner < w.players, "not_an_opponent")
        inst = q.inst(w, owner or 0, target)
        need(inst and q.exposed(w, owner or 0, inst), "not_exposed", card=target)
    elif card in ("forced_march", "tailwind"):
        need(w.phase == PHASE2 and arg is None, "cannot_play_now", card=card)
        pawn = w.pawns[seat]
        need(not pawn.captured and w.tx.declared not in ("release", "gem_roll"), "no_movement")
        if card == "forced_march":
            need(pawn.voyage is None, "at_sea")
        else:  # Tailwind at a port needs a paid leg
            need(pawn.voyage is not None or pawn.node in PORTS, "not_at_sea")
            need(
                pawn.voyage is not None or pawn.cash >= q.sea_fare(w, seat),
                "cannot_afford",
                price=q.sea_fare(w, seat),
            )
    else:
        raise IllegalAction("cannot_play_now", card=card)


def check_offer_action(w: AfrikanWork, seat: int, action: Offer) -> None:
    need(w.tx.action in (None, "trade"), "action_taken", action=w.tx.action)
    need(w.tx.offers < MAX_OFFERS, "too_many_offers", most=MAX_OFFERS)
    other = action.seat
    need(other in q.same_node(w, seat), "not_here", seat=other)
    need(action.give or action.get, "empty_offer")
    need(len(NOTATION.write(action).encode()) <= 45, "offer_too_long")  # [decided] the notation limit
    for items, s in ((action.give, seat), (action.get, other)):
        cards, money = split_items(items)
        need(money % 100 == 0 and money <= w.pawns[s].cash, "not_enough_money", seat=s)
        for c in cards:
            need(q.inst(w, s, c) and tradeable(c), "not_tradeable", card=c, seat=s)


# --- candidates -------------------------------------------------------------------------------
def candidates(state: State, seat: Seat) -> tuple[Any, ...]:
    w = snapshot(state)
    if state.phase == OVER or seat not in q.prompt_seats(w):
        return ()
    j = w.top()
    if j is not None:
        return tuple(prompt_candidates(w, j, seat))
    return tuple(phase_candidates(w, seat))


def prompt_candidates(w: AfrikanWork, j: Job, seat: int) -> list[Any]:
    hand = sorted({card_id(h) for h in w.sx[seat].hand})
    kind = j.kind
    if kind == "window":
        return [Pass(), *(Play(c) for c in hand if c in WINDOW_CARDS[j["kind"]]), Ask("never")]
    if kind == "danger":
        scopes: tuple[str, ...] = DANGER_SCOPES
        return [
            Roll(),
            Play("bribe"),
            Use("dynamite"),
            Use("medical_kit"),
            Use("survival"),
            Pass(),
            RerollDone(),
            *reroll_candidates(w, seat, scopes),
        ]
    if kind == "duel":
        scopes = DEFENCE_SCOPES if j["stage"].startswith("defender") else ATTACK_SCOPES
        return [Roll(), RerollDone(), *reroll_candidates(w, seat, scopes)]
    if kind in ("offer", "market_day"):
        return [Accept(), Decline()]
    if kind == "choose":
        return [*(Choose(o) for o in j["options"]), Decline()]
    if kind == "reveal":
        plays = [Play("surprise", p) for p in TREASURE_PLACES] if "surprise" in hand else []
        return [Pass(), *plays, Ask("never")]
    if kind == "exchange":
        return [Exchange(), Decline()]
    if kind == "lost_turn":
        return [Use("tinned_food"), Pass()]
    if kind == "hand_discard":
        return [Discard(c) for c in hand]
    if kind == "limit_discard":
        return [Discard(c) for c in sorted({card_id(i) for i in w.sx[seat].cards})]
    return []


def reroll_candidates(w: AfrikanWork, seat: int, scopes: tuple[str, ...]) -> list[Any]:
    out: list[Any] = []
    for card, n in q.rerolls(w, seat, scopes):
        out.extend(Reroll(card, (a,)) for a in range(1, 6))
        if n >= 2:
            out.extend(Reroll(card, (a, b)) for a in range(1, 6) for b in range(a + 1, 6))
    return out


def phase_candidates(w: AfrikanWork, seat: int) -> list[Any]:
    pawn = w.pawns[seat]
    node = pawn.node
    phase = w.phase
    mine = sorted({card_id(i) for i in w.sx[seat].cards})
    hand = sorted({card_id(h) for h in w.sx[seat].hand})
    own: list[Any] = [
        *(Hold(c) for c in mine if c in PASSIVE_CARDS),
        *(Unhold(c) for c in mine if c in PASSIVE_CARDS),
        *([Ask("all")] if w.sx[seat].ask != "all" else []),
    ]
    if "sabotage" in hand:
        own.extend(
            Play("sabotage", f"seat{s}:{card_id(i)}")
            for s in range(w.players)
            if s != seat
            for i in w.sx[s].cards
            if q.exposed(w, s, i)
        )
    if phase == CHARACTER:
        return [Character(c) for c in CHARACTERS]
    if phase == SETUP:
        return [Start(p) for p in STARTS]
    if phase == RELEASE:
        return [Roll()]
    if phase == MOVE:
        return [*base.menu_actions(q.menu(w, seat), node or ""), RerollMove(), Adjust(1), Adjust(-1)]
    if phase == DECLARE:
        assert node is not None
        out: list[Any] = [Roll()]
        if pawn.voyage is not None:
            out.append(FreeSail(pawn.voyage.dest))
        else:
            for dest in LEGS_FROM.get(node, ()):
                out.extend((Board(dest), FreeSail(dest), Seaplane(dest)))
            out.extend(Fly(d) for d in AIR_FROM.get(node, ()))
        return [*out, Stay(), GemRoll(), Use("tinned_food"), *own]
    swaps = [SwapStack(p) for p in TREASURE_PLACES] if q.has_char(w, seat, "swap_token_stack") else []
    if phase == PHASE2:
        uses: list[Any] = []
        for c in mine:
            if c in PHASE2_USES:
                if ACTIVE[c] == "peek_token":
                    uses.extend(Use(c, p) for p in TREASURE_PLACES)
                else:
                    uses.append(Use(c))
        plays = [Play(c) for c in hand if c in ("forced_march", "tailwind")]
        return [
            EndPhase(),
            *uses,
            *(Sell(c) for c in mine),
            *(Discard(c) for c in mine),
            *plays,
            *swaps,
            Peek(),
            BuyDiscard(),
            *own,
        ]
    if phase == PHASE3:
        out = [EndPhase(), Flip(), FlipRoll(), *swaps, Peek(), *own]
        for other in q.same_node(w, seat):
            out.extend(Duel(other, t) for t in q.duel_targets(w, seat, other))
            if w.tx.action in (None, "trade") and w.tx.offers < MAX_OFFERS:
                out.extend(offers(w, seat, other))
        return out
    return []


# --- information (§9) ------------------------------------------------------------------------
def view(state: State, seat: Seat | None) -> View:
    w = snapshot(state)
    x = state.ext
    assert x is not None
    kinds = dict(state.contents)
    down = {t: TREASURE_PLACES[i] for i, st in enumerate(state.stacks) for t in st}
    players = tuple(
        PlayerX(
            character=sx.character,
            cards=sx.cards,
            used=tuple(dict.fromkeys(u.rpartition(":")[0] for u in sx.used if not u.startswith("@"))),
            held=sx.held,
            hand_count=len(sx.hand),
            complete=q.complete(w, s),
            card_limit=q.card_limit(w, s),
            symbols=progress(sx.cards, q.threshold(w)),
        )
        for s, sx in enumerate(x.seats)
    )
    mine = x.seats[seat] if seat is not None else None
    j = w.top()
    xv = XView(
        players=players,
        hand=mine.hand if mine else (),
        peeks=tuple((down[t], content_id(t, kinds[t])) for t in (mine.peeks if mine else ()) if t in down),
        known=tuple((down[t], content_id(t, kinds[t])) for t in x.known if t in down),
        decks=tuple((d.name, len(d.draw)) for d in (x.expedition, x.event, x.danger)),
        discards=tuple((d.name, d.discard) for d in (x.expedition, x.event, x.danger)),
        rain=x.rain is not None,
        threshold=q.threshold(w),
        gem_roll=q.gem_roll_allowed(w),
        declared=x.turn.declared,
        die=x.turn.die,
        phase3=x.turn.action,
        resolving=x.resolving,
        allowance=_allowance(w) if state.phase == MOVE and state.move is not None else None,
        prompt=prompt_view(w, j, seat) if j and state.phase != OVER else None,
        danger=_danger_view(j) if j and j.kind == "danger" else None,
        duel=_duel_view(j) if j and j.kind == "duel" else None,
        offer=OfferView(j["by"], j.seat, j["give"], j["get"]) if j and j.kind == "offer" else None,
        ask=mine.ask if mine else None,
        **_prices(w, state.turn),
    )
    return replace(
        base.view(state, seat),
        to_act=to_act(state),
        prompt=j.kind if j and state.phase != OVER else None,
        x=xv,
    )


def _prices(w: AfrikanWork, turn: int | None) -> dict[str, Any]:
    if turn is None or not 0 <= turn < w.players:
        return {}
    code, price, faces, _shovel = q.flip_terms(w, turn)
    return {
        "flip_faces": faces,
        "sea_fare": q.sea_fare(w, turn),
        "air_fare": q.air_fare(w, turn),
        "flip_price": price if code is None else None,
    }


def prompt_view(w: AfrikanWork, j: Job, seat: int | None) -> PromptView:
    private = j.kind in ("hand_discard",) or (j.kind == "exchange" and j.get("kind") == "hand")
    card = j.get("card") if not private or seat == j.seat else None
    what = j.get("kind") if j.kind == "window" else j.get("stage") or j.get("what")
    if j.kind == "exchange":
        what = j["what"]
    return PromptView(
        kind=j.kind,
        seats=q.prompt_seats(w),
        what=what,
        card=card,
        owner=j.seat,
        options=tuple(j.get("options") or ()) if j.kind == "choose" else (),
        target=j.get("target") if j.kind == "window" else None,
        opened=j.get("opened"),
        loser=j.get("loser") if j.kind == "window" else None,
    )


def hidden_tokens(state: State, seat: Seat | None) -> frozenset[str]:
    x = state.ext
    assert x is not None
    down = {t for st in state.stacks for t in st}
    seen = set(x.known) | (set(x.seats[seat].peeks) if seat is not None else set())
    out = {content_id(t, k) for t, k in state.contents if t in down and t not in seen}
    out |= {f'"{i}"' for d in (x.expedition, x.event, x.danger) for i in d.draw}
    out |= {f'"{h}"' for s, sx in enumerate(x.seats) if s != seat for h in sx.hand}
    return frozenset(out)


def offers(w: AfrikanWork, seat: int, other: int) -> list[Offer]:
    """[decided] The offers listed as candidates: one card for a sum, a sum for one card, or one card
    for one card (any other mix is legal through the notation)."""
    mine, theirs = q.tradeable_cards(w, seat), q.tradeable_cards(w, other)
    out = [Offer(other, (c,), (str(m),)) for c in mine for m in OFFER_MONEY if m <= w.pawns[other].cash]
    out += [Offer(other, (str(m),), (c,)) for c in theirs for m in OFFER_MONEY if m <= w.pawns[seat].cash]
    out += [Offer(other, (a,), (b,)) for a in mine for b in theirs]
    return out


def _allowance(w: AfrikanWork) -> tuple[int, int] | None:
    if w.move is None or w.tx.mv is None:
        return None
    menu = q.menu(w, w.turn)
    return menu.land_steps, menu.sea_steps


def _danger_view(j: Job) -> DangerView:
    return DangerView(
        j.seat, j["card"], j["stage"], j["dice"], tuple(sorted(DNG[card_id(j["card"])]["requires"].items()))
    )


def _duel_view(j: Job) -> DuelView:
    return DuelView(
        j["attacker"], j["defender"], j["target"], j["stage"], j["ddice"], j["adice"], j["face"], j["k"]
    )


CHECKS: dict[str, Callable[[AfrikanWork, Job, int, Any], None]] = {
    "window": check_window,
    "danger": check_danger,
    "duel": check_duel,
    "offer": check_offer,
    "choose": check_choose,
    "reveal": check_reveal,
    "exchange": check_exchange,
    "lost_turn": check_lost_turn,
    "hand_discard": check_hand_discard,
    "limit_discard": check_limit_discard,
    "market_day": check_market_day,
}
