"""Afrikan Tähti with Retkikunnat (spec §5): the rules object registered as ``RULESETS["expansion"]``.

Legality is written once here (:meth:`ExpRules.check`, reason codes); :meth:`ExpRules.candidates`
lists a superset of the legal actions (trade offers: one card or sum each way, see :func:`offers`);
transitions are in :mod:`.xtable`. Information (§9): hands, peek results and deck orders are private or
hidden; everything else, including hand-card counts, is public. ``hidden_tokens`` lists face-down
token contents ``tok:<id>:<kind>`` and card instances as JSON strings (``'"sabotage#2"'``), so that
``trap#1`` does not match inside ``lost_city_trap#1``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.afrikan_tahti.board import (
    AIR,
    AIR_FROM,
    AIRPORTS,
    LEGS,
    LEGS_FROM,
    PLACE_SET,
    PORTS,
    STARTS,
    TREASURE_PLACES,
)
from engines.afrikan_tahti.cards import card_id
from engines.afrikan_tahti.danger import BRIBE_PRICE, DANGER_SCOPES, SURVIVAL_PRICE
from engines.afrikan_tahti.duels import ATTACK_SCOPES, DEFENCE_SCOPES, split_items
from engines.afrikan_tahti.model import (
    DECLARE,
    MOVE,
    OVER,
    RELEASE,
    SETUP,
    Board,
    EndPhase,
    Flip,
    FlipRoll,
    Fly,
    FreeSail,
    Move,
    Options,
    PawnView,
    Roll,
    Start,
    State,
    Stay,
    View,
    content_id,
)
from engines.afrikan_tahti.rules import RULESETS, BaseRules, Table
from engines.afrikan_tahti.xcards import BUY_DISCARD_PRICE
from engines.afrikan_tahti.xdata import (
    ACTIVE,
    CHARACTERS,
    DNG,
    EXP,
    EXTRA_STEPS,
    HAND_CARDS,
    PHASE2_USES,
    REROLLS,
    WINDOW_CARDS,
    card_type,
    effects,
    sellable,
    tradeable,
)
from engines.afrikan_tahti.xmodel import (
    ALL_ACTION_TYPES,
    CHARACTER,
    PHASE2,
    PHASE3,
    Accept,
    Adjust,
    BuyDiscard,
    Character,
    Choose,
    DangerView,
    Decline,
    Discard,
    Duel,
    DuelView,
    Exchange,
    GemRoll,
    Hold,
    Job,
    Offer,
    OfferView,
    Pass,
    Peek,
    Play,
    PlayerX,
    PromptView,
    Reroll,
    RerollDone,
    RerollMove,
    Seaplane,
    Sell,
    SwapStack,
    Unhold,
    Use,
    XView,
    notation,
    seat_of,
)
from engines.afrikan_tahti.xquery import MAX_OFFERS, SEAPLANE_PRICE, Q, Snap
from engines.afrikan_tahti.xsetup import thaw_presets, x_setup
from engines.afrikan_tahti.xtable import ExpTable
from engines.contract import Event, IllegalAction, Seat

OWN_TURN = (Hold, Unhold, Play, Use)
PHASE_X: dict[str, tuple[type, ...]] = {
    CHARACTER: (Character,),
    SETUP: (Start,),
    DECLARE: (Roll, Board, FreeSail, Fly, Seaplane, Stay, GemRoll, *OWN_TURN),
    RELEASE: (Roll,),
    MOVE: (Move, Board, RerollMove, Adjust),
    PHASE2: (Sell, Discard, SwapStack, Peek, BuyDiscard, EndPhase, *OWN_TURN),
    PHASE3: (Flip, FlipRoll, Duel, Offer, SwapStack, Peek, EndPhase, Hold, Unhold, Play),
    OVER: (),
}
PROMPT_X: dict[str, tuple[type, ...]] = {
    "window": (Pass, Play),
    "danger": (Roll, Play, Use, Reroll, RerollDone, Pass),
    "duel": (Roll, Reroll, RerollDone),
    "offer": (Accept, Decline),
    "choose": (Choose, Decline),
    "reveal": (Pass, Play),
    "exchange": (Exchange, Decline),
    "lost_turn": (Use, Pass),
    "hand_discard": (Discard,),
    "limit_discard": (Discard,),
    "market_day": (Accept, Decline),
}
PASSIVE_CARDS = frozenset(c for c in EXP if any(u == "passive" for u, _e in effects(c)))
OFFER_MONEY = (100, 200, 300)


def need(cond: Any, code: str, **params: Any) -> None:
    if not cond:
        raise IllegalAction(code, **params)


def _q(t: Any) -> Q:
    return t if isinstance(t, Q) else Snap(t)


class ExpRules(BaseRules):
    table_class = ExpTable
    phase_actions = PHASE_X

    def __init__(self) -> None:
        self._snap: tuple[State | None, Snap | None] = (None, None)

    def snap(self, state: State) -> Snap:
        last, q = self._snap
        if last is state and q is not None:
            return q
        q = Snap(state)
        self._snap = (state, q)
        return q

    # --- setup, prices, turn order --------------------------------------------------------------
    def setup(self, players: int, seed: str, options: Options,
              presets: Mapping[str, Any]) -> tuple[State, tuple[Event, ...]]:
        return x_setup(players, seed, options, presets, self)

    def start_events(self, state: State) -> tuple[Event, ...]:
        return x_setup(state.players, state.seed, state.options, thaw_presets(state.ext.presets), self)[1]

    def sea_fare(self, state: State | Table, seat: int) -> int:
        return _q(state).sea_fare(seat)

    def air_fare(self, state: State | Table, seat: int) -> int:
        return _q(state).air_fare(seat)

    def flip_price(self, state: State | Table, seat: int) -> int:
        return _q(state).flip_terms(seat)[1]

    def to_act(self, state: State) -> tuple[int, ...]:
        if state.phase == OVER:
            return ()
        return self.snap(state).prompt_seats()

    # --- legality --------------------------------------------------------------------------------
    def check(self, state: State, seat: Seat, action: Any) -> None:
        if not isinstance(action, ALL_ACTION_TYPES):
            raise IllegalAction("unknown_action")
        if state.phase == OVER:
            raise IllegalAction("game_over")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
            raise IllegalAction("no_such_seat", seat=seat if isinstance(seat, int) else None)
        q = self.snap(state)
        j = q.top()
        if seat not in q.prompt_seats():
            raise IllegalAction("not_your_turn" if j is None else "not_asked", turn=state.turn,
                                prompt=j.kind if j else None)
        if j is not None:
            need(isinstance(action, PROMPT_X[j.kind]), "wrong_prompt", prompt=j.kind)
            getattr(self, f"check_{j.kind}")(q, j, seat, action)
        else:
            need(isinstance(action, PHASE_X[state.phase]), "wrong_phase", phase=state.phase)
            self.check_phase(q, seat, action)

    # prompts
    def check_window(self, q: Q, j: Job, seat: int, action: Any) -> None:
        if isinstance(action, Play):
            need(action.arg is None, "bad_argument")
            need(action.card in WINDOW_CARDS[j["kind"]], "not_an_answer", window=j["kind"])
            need(q.hand_inst(seat, action.card), "not_in_hand", card=action.card)

    def check_danger(self, q: Q, j: Job, seat: int, action: Any) -> None:
        stage = j["stage"]
        match action:
            case Roll():
                need(stage == "drawn", "wrong_stage", stage=stage)
            case Play(card, arg):
                need(stage == "drawn" and card == "bribe" and arg is None, "cannot_play_now", card=card)
                need(q.hand_inst(seat, card), "not_in_hand", card=card)
                need(q.pawns[seat].cash >= BRIBE_PRICE, "cannot_afford", price=BRIBE_PRICE)
            case Use(card, arg):
                need(arg is None, "bad_argument")
                if stage == "failed":
                    need(card in ("medical_kit", "survival"), "cannot_use_now", card=card)
                    if card == "survival":
                        need(q.pawns[seat].cash >= SURVIVAL_PRICE, "cannot_afford", price=SURVIVAL_PRICE)
                else:
                    need(card == "dynamite", "cannot_use_now", card=card)
                need(q.usable(seat, card, "a"), "card_not_usable", card=card)
            case Reroll(card, dice):
                need(stage == "rolled", "wrong_stage", stage=stage)
                self.check_reroll(q, seat, card, dice, DANGER_SCOPES)
            case RerollDone():
                need(stage == "rolled", "wrong_stage", stage=stage)
            case Pass():
                need(stage == "failed", "wrong_stage", stage=stage)

    def check_reroll(self, q: Q, seat: int, card: str, dice: tuple[int, ...], scopes: tuple[str, ...]) -> None:
        options = dict(q.rerolls(seat, scopes))
        need(card in options, "card_not_usable", card=card)
        need(len(dice) <= options[card], "too_many_dice", most=options[card])

    def check_duel(self, q: Q, j: Job, seat: int, action: Any) -> None:
        stage = j["stage"]
        if isinstance(action, Roll):
            need(stage.endswith("_roll"), "wrong_stage", stage=stage)
            return
        need(stage.endswith("_reroll"), "wrong_stage", stage=stage)
        if isinstance(action, Reroll):
            scopes = DEFENCE_SCOPES if stage.startswith("defender") else ATTACK_SCOPES
            self.check_reroll(q, seat, action.card, action.dice, scopes)

    def check_offer(self, q: Q, j: Job, seat: int, action: Any) -> None:
        pass

    def check_choose(self, q: Q, j: Job, seat: int, action: Any) -> None:
        if isinstance(action, Decline):
            need(j["optional"], "must_choose")
        else:
            need(action.option in j["options"], "not_an_option", option=action.option)

    def check_reveal(self, q: Q, j: Job, seat: int, action: Any) -> None:
        if isinstance(action, Play):
            need(action.card == "surprise", "cannot_play_now", card=action.card)
            need(q.hand_inst(seat, "surprise"), "not_in_hand", card="surprise")
            target = action.arg
            tid = q.top_token(target) if target else None
            need(tid is not None and target != j["place"], "no_token", place=target)
            need(tid and tid[0] == j["tid"][0], "wrong_layer", place=target)

    def check_exchange(self, q: Q, j: Job, seat: int, action: Any) -> None:
        pass

    def check_lost_turn(self, q: Q, j: Job, seat: int, action: Any) -> None:
        if isinstance(action, Use):
            need(action.card == "tinned_food" and action.arg is None, "cannot_use_now", card=action.card)
            need(q.usable(seat, "tinned_food", "a"), "card_not_usable", card=action.card)

    def check_hand_discard(self, q: Q, j: Job, seat: int, action: Any) -> None:
        need(q.hand_inst(seat, action.card), "not_in_hand", card=action.card)

    def check_limit_discard(self, q: Q, j: Job, seat: int, action: Any) -> None:
        need(q.inst(seat, action.card), "no_such_card", card=action.card)

    def check_market_day(self, q: Q, j: Job, seat: int, action: Any) -> None:
        pass

    # phases
    def check_phase(self, q: Q, seat: int, action: Any) -> None:
        pawn = q.pawns[seat]
        node = pawn.node
        phase = q.phase
        match action:
            case Character(c):
                need(c not in (x.character for x in q.sx), "character_taken", character=c)
            case Start(place):
                need(place in STARTS, "not_a_start", place=place)
            case Roll() if phase == DECLARE:
                v = pawn.voyage
                need(v is None or v.paid, "free_passage", dest=v.dest if v else None)
            case Roll():
                pass
            case Move() | Board() if phase == MOVE:
                self.check_move(q, seat, action)
            case Board(to):
                need(pawn.voyage is None, "at_sea")
                need(node in PORTS, "not_a_port", node=node)
                need((node, to) in LEGS, "no_such_leg", port=node, dest=to)
                fare = q.sea_fare(seat)
                need(pawn.cash >= fare, "cannot_afford", price=fare, cash=pawn.cash)
            case FreeSail(to):
                v = pawn.voyage
                if v is not None:
                    need(not v.paid, "paid_voyage")
                    need(to == v.dest, "wrong_destination", dest=v.dest)
                    return
                need(node in PORTS, "not_a_port", node=node)
                need((node, to) in LEGS, "no_such_leg", port=node, dest=to)
                fare = q.sea_fare(seat)
                need(pawn.cash < fare, "can_afford_fare", fare=fare)
            case Fly(to):
                need(pawn.voyage is None, "at_sea")
                need(node in AIRPORTS, "not_an_airport", node=node)
                need((node, to) in AIR, "no_such_route", start=node, to=to)
                fare = q.air_fare(seat)
                need(pawn.cash >= fare, "cannot_afford", price=fare, cash=pawn.cash)
            case Seaplane(to):
                need(q.usable(seat, "seaplane", "a"), "card_not_usable", card="seaplane")
                need(pawn.voyage is None, "at_sea")
                need(node in PORTS, "not_a_port", node=node)
                need((node, to) in LEGS, "no_such_leg", port=node, dest=to)
                need(pawn.cash >= SEAPLANE_PRICE, "cannot_afford", price=SEAPLANE_PRICE, cash=pawn.cash)
            case Stay() | EndPhase():
                pass
            case GemRoll():
                need(q.gem_roll_allowed(), "no_gem_roll")
            case RerollMove() | Adjust():
                card = "compass" if isinstance(action, RerollMove) else "maps"
                move, mv = q.move, q.tx.mv
                need(move is not None and mv is not None and mv.kind == "die" and move.arrived == "start",
                     "not_after_roll")
                need(card not in q.tx.mods and "maps" not in q.tx.mods, "already_adjusted")
                need(q.usable(seat, card, "a"), "card_not_usable", card=card)
                if isinstance(action, Adjust):
                    need(action.delta in (1, -1), "bad_argument")
            case Flip() | FlipRoll():
                need(q.tx.action is None, "action_taken", action=q.tx.action)
                code, price, _faces, _shovel = q.flip_terms(seat)
                need(code is None, code or "", place=node)
                if isinstance(action, Flip):
                    need(pawn.cash >= price, "cannot_afford", price=price, cash=pawn.cash)
                else:
                    need(q.may_flip_roll(seat, price), "can_afford_flip", price=price)
            case Duel(other, target):
                need(q.tx.action is None, "action_taken", action=q.tx.action)
                need(other in q.same_node(seat), "not_here", seat=other)
                need(target in q.duel_targets(seat, other), "no_such_target", target=target)
            case Offer():
                self.check_offer_action(q, seat, action)
            case SwapStack(place):
                need(q.tx.action is None, "action_taken", action=q.tx.action)
                need(q.has_char(seat, "swap_token_stack"), "not_your_ability")
                need("@swap" not in q.sx[seat].used, "ability_used")
                here = q.top_token(node)
                there = q.top_token(place)
                need(here is not None, "no_token", place=node)
                need(there is not None and place != node, "no_token", place=place)
                need(here and there and here[0] == there[0], "wrong_layer", place=place)
            case Peek():
                need(q.tx.action is None, "action_taken", action=q.tx.action)
                need(q.has_char(seat, "peek_token"), "not_your_ability")
                need("@peek" not in q.sx[seat].used, "ability_used")
                need(q.top_token(node) is not None, "no_token", place=node)
            case BuyDiscard():
                need(q.has_char(seat, "buy_from_discard"), "not_your_ability")
                need("@buy" not in q.sx[seat].used, "ability_used")
                need(node in PLACE_SET, "not_a_place", node=node)
                need(q.decks["expedition"].discard, "discard_empty")
                need(pawn.cash >= BUY_DISCARD_PRICE, "cannot_afford", price=BUY_DISCARD_PRICE, cash=pawn.cash)
            case Sell(card) | Discard(card):
                need(q.inst(seat, card), "no_such_card", card=card)
                if isinstance(action, Sell):
                    need(sellable(card), "not_sellable", card=card)
                else:
                    need(not sellable(card), "sell_it", card=card)
            case Hold(card) | Unhold(card):
                inst = q.inst(seat, card)
                need(inst, "no_such_card", card=card)
                need(card in PASSIVE_CARDS, "not_passive", card=card)
                held = inst in q.sx[seat].held
                need(held != isinstance(action, Hold), "already_held" if held else "not_held", card=card)
            case Use(card, arg):
                self.check_use(q, seat, card, arg)
            case Play(card, arg):
                self.check_play(q, seat, card, arg)

    def check_move(self, q: Q, seat: int, action: Any) -> None:
        node = q.pawns[seat].node
        menu = q.menu(seat)
        match action:
            case Move(to, None) if to == node:
                need(menu.stop_here, "not_a_place", node=node)
            case Move(to, via):
                paths = menu.paths(to)
                if paths is None:
                    need(via is None and menu.sea_target(to), "not_reachable", to=to)
                    return
                if via is not None:
                    need(any(via in p[:-1] for p in paths), "not_on_path", via=via)
                    vias = next(v for d, _p, v in menu.dests if d == to)
                    need(via in vias, "via_not_needed", via=via)
            case Board(to):
                need(node in PORTS, "not_a_port", node=node)
                need((node, to) in LEGS, "no_such_leg", port=node, dest=to)
                fare = q.sea_fare(seat)
                need(q.pawns[seat].cash >= fare, "cannot_afford", price=fare)
                need(to in menu.boards, "cannot_board_here", dest=to)

    def check_use(self, q: Q, seat: int, card: str, arg: str | None) -> None:
        need(q.inst(seat, card), "no_such_card", card=card)
        need(card in PHASE2_USES, "cannot_use_now", card=card)
        name = ACTIVE[card]
        if q.phase != PHASE2:
            need(name == "cancel_lost_turn", "cannot_use_now", card=card)
        need(q.usable(seat, card, "a"), "card_used", card=card)
        pawn = q.pawns[seat]
        if name == "peek_token":
            places = q.binocular_places(seat) if card == "binoculars" else [
                p for p in q.tx.places if q.top_token(p) is not None]
            need(arg in places, "not_a_target", place=arg)
            return
        need(arg is None, "bad_argument")
        if name in ("extra_steps", "low_roll_bonus"):
            need(q.extra_steps_allowed(seat), "no_extra_steps")
            if name == "low_roll_bonus":
                need(q.tx.die in (1, 2), "not_a_low_roll")
            terrain = EXTRA_STEPS.get(card, (1, "land"))[1]
            if terrain == "land":
                need(pawn.voyage is None, "at_sea")
            elif terrain == "sea":
                need(pawn.voyage is not None or pawn.node in PORTS, "not_at_sea")
                need(pawn.voyage is not None or pawn.cash >= q.sea_fare(seat), "cannot_afford",
                     price=q.sea_fare(seat))
        elif name == "cancel_lost_turn":
            need(pawn.lost_turns > 0, "no_lost_turns")

    def check_play(self, q: Q, seat: int, card: str, arg: str | None) -> None:
        need(q.hand_inst(seat, card), "not_in_hand", card=card)
        if card == "sabotage":
            need(arg is not None and ":" in arg, "bad_argument")
            owner_word, _, target = (arg or "").partition(":")
            owner = seat_of(owner_word)
            need(owner is not None and owner != seat and owner < q.n, "not_an_opponent")
            inst = q.inst(owner or 0, target)
            need(inst and q.exposed(owner or 0, inst), "not_exposed", card=target)
        elif card in ("forced_march", "tailwind"):
            need(q.phase == PHASE2 and arg is None, "cannot_play_now", card=card)
            pawn = q.pawns[seat]
            need(not pawn.captured and q.tx.declared not in ("release", "gem_roll"), "no_movement")
            if card == "forced_march":
                need(pawn.voyage is None, "at_sea")
            else:  # Tailwind at a port needs a paid leg
                need(pawn.voyage is not None or pawn.node in PORTS, "not_at_sea")
                need(pawn.voyage is not None or pawn.cash >= q.sea_fare(seat), "cannot_afford",
                     price=q.sea_fare(seat))
        else:
            raise IllegalAction("cannot_play_now", card=card)

    def check_offer_action(self, q: Q, seat: int, action: Offer) -> None:
        need(q.tx.action in (None, "trade"), "action_taken", action=q.tx.action)
        need(q.tx.offers < MAX_OFFERS, "too_many_offers", most=MAX_OFFERS)
        other = action.seat
        need(other in q.same_node(seat), "not_here", seat=other)
        need(action.give or action.get, "empty_offer")
        need(len(notation(action).encode()) <= 45, "offer_too_long")  # [decided] the notation limit
        for items, s in ((action.give, seat), (action.get, other)):
            cards, money = split_items(items)
            need(money % 100 == 0 and money <= q.pawns[s].cash, "not_enough_money", seat=s)
            for c in cards:
                need(q.inst(s, c) and tradeable(c), "not_tradeable", card=c, seat=s)

    # --- candidates -------------------------------------------------------------------------------
    def candidates(self, state: State, seat: Seat) -> tuple[Any, ...]:
        q = self.snap(state)
        if state.phase == OVER or seat not in q.prompt_seats():
            return ()
        j = q.top()
        if j is not None:
            return tuple(self.prompt_candidates(q, j, seat))
        return tuple(self.phase_candidates(q, seat))

    def prompt_candidates(self, q: Q, j: Job, seat: int) -> list[Any]:
        hand = sorted({card_id(h) for h in q.sx[seat].hand})
        kind = j.kind
        if kind == "window":
            return [Pass(), *(Play(c) for c in hand if c in WINDOW_CARDS[j["kind"]])]
        if kind == "danger":
            scopes: tuple[str, ...] = DANGER_SCOPES
            return [Roll(), Play("bribe"), Use("dynamite"), Use("medical_kit"), Use("survival"), Pass(),
                    RerollDone(), *self.reroll_candidates(q, seat, scopes)]
        if kind == "duel":
            scopes = DEFENCE_SCOPES if j["stage"].startswith("defender") else ATTACK_SCOPES
            return [Roll(), RerollDone(), *self.reroll_candidates(q, seat, scopes)]
        if kind in ("offer", "market_day"):
            return [Accept(), Decline()]
        if kind == "choose":
            return [*(Choose(o) for o in j["options"]), Decline()]
        if kind == "reveal":
            return [Pass(), *(Play("surprise", p) for p in TREASURE_PLACES)] if "surprise" in hand else [Pass()]
        if kind == "exchange":
            return [Exchange(), Decline()]
        if kind == "lost_turn":
            return [Use("tinned_food"), Pass()]
        if kind == "hand_discard":
            return [Discard(c) for c in hand]
        if kind == "limit_discard":
            return [Discard(c) for c in sorted({card_id(i) for i in q.sx[seat].cards})]
        return []

    def reroll_candidates(self, q: Q, seat: int, scopes: tuple[str, ...]) -> list[Any]:
        out: list[Any] = []
        for card, n in q.rerolls(seat, scopes):
            out.extend(Reroll(card, (a,)) for a in range(1, 6))
            if n >= 2:
                out.extend(Reroll(card, (a, b)) for a in range(1, 6) for b in range(a + 1, 6))
        return out

    def phase_candidates(self, q: Q, seat: int) -> list[Any]:
        pawn = q.pawns[seat]
        node = pawn.node
        phase = q.phase
        mine = sorted({card_id(i) for i in q.sx[seat].cards})
        hand = sorted({card_id(h) for h in q.sx[seat].hand})
        own: list[Any] = [*(Hold(c) for c in mine if c in PASSIVE_CARDS), *(Unhold(c) for c in mine if c in PASSIVE_CARDS)]
        if "sabotage" in hand:
            own.extend(Play("sabotage", f"seat{s}:{card_id(i)}") for s in range(q.n) if s != seat
                       for i in q.sx[s].cards if q.exposed(s, i))
        if phase == CHARACTER:
            return [Character(c) for c in CHARACTERS]
        if phase == SETUP:
            return [Start(p) for p in STARTS]
        if phase == RELEASE:
            return [Roll()]
        if phase == MOVE:
            return [*q.menu_actions(seat), RerollMove(), Adjust(1), Adjust(-1)]
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
        swaps = [SwapStack(p) for p in TREASURE_PLACES] if q.has_char(seat, "swap_token_stack") else []
        if phase == PHASE2:
            uses: list[Any] = []
            for c in mine:
                if c in PHASE2_USES:
                    if ACTIVE[c] == "peek_token":
                        uses.extend(Use(c, p) for p in TREASURE_PLACES)
                    else:
                        uses.append(Use(c))
            plays = [Play(c) for c in hand if c in ("forced_march", "tailwind")]
            return [EndPhase(), *uses, *(Sell(c) for c in mine), *(Discard(c) for c in mine), *plays, *swaps,
                    Peek(), BuyDiscard(), *own]
        if phase == PHASE3:
            out = [EndPhase(), Flip(), FlipRoll(), *swaps, Peek(), *own]
            for other in q.same_node(seat):
                out.extend(Duel(other, t) for t in q.duel_targets(seat, other))
                if q.tx.action in (None, "trade") and q.tx.offers < MAX_OFFERS:
                    out.extend(offers(q, seat, other))
            return out
        return []

    # --- information (§9) ------------------------------------------------------------------------
    def view(self, state: State, seat: Seat | None) -> View:
        base = super().view(state, seat)
        q = self.snap(state)
        x = state.ext
        kinds = dict(state.contents)
        down = {t: TREASURE_PLACES[i] for i, st in enumerate(state.stacks) for t in st}
        players = tuple(PlayerX(
            character=sx.character, cards=sx.cards,
            used=tuple(dict.fromkeys(u.rpartition(":")[0] for u in sx.used if not u.startswith("@"))),
            held=sx.held, hand_count=len(sx.hand), complete=q.complete(s), card_limit=q.card_limit(s))
            for s, sx in enumerate(x.seats))
        mine = x.seats[seat] if seat is not None else None
        j = q.top()
        xv = XView(
            players=players, hand=mine.hand if mine else (),
            peeks=tuple((down[t], content_id(t, kinds[t])) for t in (mine.peeks if mine else ()) if t in down),
            known=tuple((down[t], content_id(t, kinds[t])) for t in x.known if t in down),
            decks=tuple((d.name, len(d.draw)) for d in (x.expedition, x.event, x.danger)),
            discards=tuple((d.name, d.discard) for d in (x.expedition, x.event, x.danger)),
            rain=x.rain is not None, threshold=q.threshold(), gem_roll=q.gem_roll_allowed(),
            declared=x.turn.declared, die=x.turn.die, phase3=x.turn.action, resolving=x.resolving,
            allowance=_allowance(q) if state.phase == MOVE and state.move is not None else None,
            prompt=self.prompt_view(q, j, seat) if j and state.phase != OVER else None,
            danger=_danger_view(j) if j and j.kind == "danger" else None,
            duel=_duel_view(j) if j and j.kind == "duel" else None,
            offer=OfferView(j["by"], j.seat, j["give"], j["get"]) if j and j.kind == "offer" else None,
        )
        return _with(base, prompt=j.kind if j and state.phase != OVER else None, x=xv)

    def prompt_view(self, q: Q, j: Job, seat: int | None) -> PromptView:
        private = j.kind in ("hand_discard",) or (j.kind == "exchange" and j.get("kind") == "hand")
        card = j.get("card") if not private or seat == j.seat else None
        what = j.get("kind") if j.kind == "window" else j.get("stage") or j.get("what")
        if j.kind == "exchange":
            what = j["what"]
        return PromptView(kind=j.kind, seats=q.prompt_seats(), what=what, card=card,
                          owner=j.seat, options=tuple(j.get("options") or ()) if j.kind == "choose" else (),
                          target=j.get("target") if j.kind == "window" else None)

    def hidden_tokens(self, state: State, seat: Seat | None) -> frozenset[str]:
        x = state.ext
        down = {t for st in state.stacks for t in st}
        seen = set(x.known) | (set(x.seats[seat].peeks) if seat is not None else set())
        out = {content_id(t, k) for t, k in state.contents if t in down and t not in seen}
        out |= {f'"{i}"' for d in (x.expedition, x.event, x.danger) for i in d.draw}
        out |= {f'"{h}"' for s, sx in enumerate(x.seats) if s != seat for h in sx.hand}
        return frozenset(out)


def offers(q: Q, seat: int, other: int) -> list[Offer]:
    """[decided] The offers listed as candidates: one card for a sum, a sum for one card, or one card
    for one card (any other mix is legal through the notation)."""
    mine, theirs = q.tradeable_cards(seat), q.tradeable_cards(other)
    out = [Offer(other, (c,), (str(m),)) for c in mine for m in OFFER_MONEY if m <= q.pawns[other].cash]
    out += [Offer(other, (str(m),), (c,)) for c in theirs for m in OFFER_MONEY if m <= q.pawns[seat].cash]
    out += [Offer(other, (a,), (b,)) for a in mine for b in theirs]
    return out


def _allowance(q: Q) -> tuple[int, int] | None:
    if q.move is None or q.tx.mv is None:
        return None
    menu = q.menu(q.turn)
    return menu.land_steps, menu.sea_steps


def _danger_view(j: Job) -> DangerView:
    return DangerView(j.seat, j["card"], j["stage"], j["dice"], tuple(sorted(DNG[card_id(j["card"])]["requires"].items())))


def _duel_view(j: Job) -> DuelView:
    return DuelView(j["attacker"], j["defender"], j["target"], j["stage"], j["ddice"], j["adice"], j["face"], j["k"])


def _with(view: View, **changes: Any) -> View:
    from dataclasses import replace
    return replace(view, **changes)


RULESETS["expansion"] = ExpRules()

__all__ = ["HAND_CARDS", "PHASE_X", "PROMPT_X", "REROLLS", "ExpRules", "PawnView", "card_type", "offers"]
