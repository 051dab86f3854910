"""Cards in Retkikunnat (spec §5.3, §5.6-5.9, §5.14-5.19): decks, the expedition (gains, losses, the
card limit, selling), event cards (drawing, instant effects, hand cards, the rainy season), penalties
(money, cards, lost turns with their modifiers, robbery), peeks, and the Phase-2 actions.

A deck is a frozen value (:class:`~engines.afrikan_tahti.retkikunnat.model.Deck`); drawing from an
empty pile reshuffles the discard pile into a new draw pile with the generator the caller passes
(always a numbered stream of the working copy).
"""

from __future__ import annotations

from dataclasses import replace
from random import Random
from typing import Any, cast

from engines.afrikan_tahti.base import rules as base
from engines.afrikan_tahti.board import PLACE_SET, TREASURE_PLACES
from engines.afrikan_tahti.model import (
    Accept,
    AfrikanWork,
    BuyDiscard,
    Choose,
    Decline,
    Discard,
    Exchange,
    Hold,
    Peek,
    Play,
    Sell,
    SwapStack,
    Unhold,
    Use,
    content_id,
    seat_of,
)
from engines.afrikan_tahti.retkikunnat import danger, turn, windows
from engines.afrikan_tahti.retkikunnat import predicates as q
from engines.afrikan_tahti.retkikunnat.content import (
    ACTIVE,
    DISCARD_USES,
    EVT,
    EXTRA_STEPS,
    card_id,
    card_type,
    effect,
    sale_value,
)
from engines.afrikan_tahti.retkikunnat.model import Deck, Job, job
from engines.afrikan_tahti.retkikunnat.predicates import first_places

BUY_DISCARD_PRICE = 200
MARKET_PRICE = 200


# --- deck values -----------------------------------------------------------------------------
def shuffled(name: str, cards: tuple[str, ...], rng: Random) -> Deck:
    pile = list(cards)
    rng.shuffle(pile)
    return Deck(name, tuple(pile), ())


def draw(deck: Deck, rng: Random) -> tuple[Deck, str | None, bool]:
    """Take the top card: ``(deck, card or None, reshuffled)``. An empty draw pile is refilled from
    the shuffled discard pile first; with both empty nothing is drawn (spec §5.19 step 2)."""
    reshuffled = False
    if not deck.draw:
        if not deck.discard:
            return deck, None, False
        pile = list(deck.discard)
        rng.shuffle(pile)
        deck = replace(deck, draw=tuple(pile), discard=())
        reshuffled = True
    return replace(deck, draw=deck.draw[1:]), deck.draw[0], reshuffled


def discard(deck: Deck, card: str) -> Deck:
    return replace(deck, discard=(*deck.discard, card))


# --- decks -----------------------------------------------------------------------------------
def draw_card(w: AfrikanWork, name: str) -> str | None:
    deck = w.decks[name]
    if not deck.draw and name == "event" and w.rain is not None:
        # §5.15 step 4: the rainy season ends with the reshuffle; its card is shuffled in
        deck = discard(deck, w.rain)
        w.rain = None
        w.emit("rain_ended", reason="reshuffle")
    deck, card, reshuffled = draw(deck, w.rng(f"shuffle_{name}"))
    w.decks[name] = deck
    if reshuffled:
        w.emit("reshuffled", deck=name, cards=len(deck.draw) + (card is not None))
    return card


def discard_card(w: AfrikanWork, name: str, inst: str) -> None:
    w.decks[name] = discard(w.decks[name], inst)


# --- the expedition ---------------------------------------------------------------------------
def draw_expedition(w: AfrikanWork, seat: int, reason: str) -> None:
    inst = draw_card(w, "expedition")
    if inst is None:
        w.emit("deck_empty", deck="expedition")
        return
    gain_card(w, seat, inst, True, reason)


def gain_card(w: AfrikanWork, seat: int, inst: str, from_deck: bool, reason: str) -> None:
    w.set_sx(seat, cards=(*w.sx[seat].cards, inst))
    w.emit("card_gained", seat=seat, card=inst, reason=reason)
    if (
        from_deck
        and q.has_char(w, seat, "draw_income")
        and card_type(card_id(inst)) in ("equipment", "vehicle")
    ):
        w.add_cash(seat, 100)
        w.emit("income", seat=seat, amount=100, reason="tycoon")
    limit_check(w, seat)


def remove_card(w: AfrikanWork, seat: int, inst: str, to_discard: bool = True) -> None:
    sx = w.sx[seat]
    w.set_sx(
        seat,
        cards=tuple(c for c in sx.cards if c != inst),
        held=tuple(h for h in sx.held if h != inst),
        used=tuple(u for u in sx.used if not u.startswith(f"{inst}:")),
    )
    if to_discard:
        discard_card(w, "expedition", inst)


def lose_card(w: AfrikanWork, seat: int, inst: str, reason: str) -> None:
    """A card lost without money (penalty, sabotage, random loss); the limit may fall (§5.9)."""
    remove_card(w, seat, inst)
    w.emit("card_lost", seat=seat, card=inst, reason=reason)
    limit_check(w, seat)


def limit_check(w: AfrikanWork, seat: int) -> None:
    top = w.stack[-1] if w.stack else None
    if q.over_limit(w, seat) and not (top and top.kind == "limit_discard" and top.seat == seat):
        w.push(job("limit_discard", seat))


def sale_income(w: AfrikanWork, seat: int, card: str) -> int:
    value = sale_value(card)
    if value > 0:  # §5.9 step 4: Haggling and the Merchant, +100 each per paying card
        value += 100 * (
            (q.inst(w, seat, "haggling") is not None) + (q.has_char(w, seat, "sell_income_bonus") is not None)
        )
    return value


def cash_in(w: AfrikanWork, seat: int, inst: str, reason: str) -> None:
    amount = sale_income(w, seat, card_id(inst))
    remove_card(w, seat, inst)
    w.add_cash(seat, amount)
    w.emit(
        "sold" if reason == "sell" else "card_discarded", seat=seat, card=inst, amount=amount, reason=reason
    )


def answer_limit_discard(w: AfrikanWork, j: Job, seat: int, action: Any) -> None:
    inst = q.inst(w, seat, action.card)
    assert inst is not None
    cash_in(w, seat, inst, "limit")
    if not q.over_limit(w, seat):
        w.stack.pop()


def answer_hand_discard(w: AfrikanWork, j: Job, seat: int, action: Any) -> None:
    inst = q.hand_inst(w, seat, action.card)
    assert inst is not None
    w.set_sx(seat, hand=tuple(h for h in w.sx[seat].hand if h != inst))
    discard_card(w, "event", inst)
    w.emit("hand_card_discarded", seat=seat, card=inst, reason="limit")
    if len(w.sx[seat].hand) <= w.options.hand_limit:
        w.stack.pop()


# --- event cards (§5.6) ----------------------------------------------------------------------
def job_draw_event(w: AfrikanWork, j: Job) -> None:
    seat = j.seat
    inst = draw_card(w, "event")
    if inst is None:
        w.emit("deck_empty", deck="event")
        return
    kind = EVT[card_id(inst)]["kind"]
    if kind == "hand":
        w.set_sx(seat, hand=(*w.sx[seat].hand, inst))
        w.emit("hand_card_drawn", seat, seat=seat, card=inst)
        w.emit("drew_hand_card", seat=seat, hand=len(w.sx[seat].hand))
    else:
        w.resolving.append(inst)
        w.emit("event_card", seat=seat, card=inst, kind=kind)
    if q.has_char(w, seat, "exchange_for_danger") and kind != "unlucky":
        w.push(job("exchange", seat, what="event", card=inst, kind=kind))
    else:
        resolve_event(w, seat, inst)


def answer_exchange(w: AfrikanWork, j: Job, seat: int, action: Any) -> None:
    """E5 and §5.14 step 3: the Adventurer takes a danger card instead."""
    w.stack.pop()
    if isinstance(action, Exchange):
        if j["what"] == "event":
            inst = j["card"]
            if j["kind"] == "hand":
                w.set_sx(seat, hand=tuple(h for h in w.sx[seat].hand if h != inst))
            else:
                w.resolving.remove(inst)
            discard_card(w, "event", inst)
            w.emit("exchanged", seat=seat, card=inst)
            danger.start_danger(w, seat, "exchange", False)
        else:  # the robber token: a danger card instead, Slave Coast still costs 3 turns
            w.emit("exchanged", seat=seat, card=j["token"])
            danger.start_danger(w, seat, "exchange", j["slave"])
    elif j["what"] == "event":
        resolve_event(w, seat, j["card"])
    else:
        turn.rob(w, seat, j["slave"])


def resolve_event(w: AfrikanWork, seat: int, inst: str) -> None:
    c = EVT[card_id(inst)]
    kind = c["kind"]
    if kind == "hand":
        if len(w.sx[seat].hand) > w.options.hand_limit:
            w.push(job("hand_discard", seat))
        return
    if kind == "unlucky":
        w.resolving.remove(inst)
        discard_card(w, "event", inst)
        danger.start_danger(w, seat, "event", False)
        return
    if kind == "effect":
        w.resolving.remove(inst)
        w.rain = inst
        w.emit("rain_started", seat=seat, card=inst)
        return
    w.push(job("event_done", seat, card=inst))
    instant(w, seat, inst, c["effect"])


def job_event_done(w: AfrikanWork, j: Job) -> None:
    if j["card"] in w.resolving:
        w.resolving.remove(j["card"])
        discard_card(w, "event", j["card"])


def instant(w: AfrikanWork, seat: int, inst: str, e: dict[str, Any]) -> None:
    name = e["effect"]
    pawn = w.pawns[seat]
    card = card_id(inst)
    if name == "move_to_next_place":
        options = first_places(pawn.node or "")
        if options:
            w.push(job("choose", seat, what=card, card=inst, options=options, optional=True, left=1))
    elif name == "swap_pawns":
        options = tuple(f"seat{s}" for s in range(w.players) if s != seat)
        w.push(job("choose", seat, what=card, card=inst, options=options, optional=False, left=1))
    elif name == "draw_expedition":
        draw_expedition(w, seat, card)
    elif name == "search_expedition":
        search(w, seat, e["card_type"], card)
    elif name == "buy_top_expedition":
        deck = w.decks["expedition"]
        if pawn.cash >= MARKET_PRICE and (deck.draw or deck.discard):
            w.push(job("market_day", seat, card=inst))
    elif name == "gain_money":
        w.add_cash(seat, e["amount"])
        w.emit("income", seat=seat, amount=e["amount"], reason=card)
    elif name in ("pay_money", "lose_money", "lose_card", "lose_turns"):
        apply_penalty(w, seat, e, "event")
    elif name == "peek_token":
        options = tuple(p for p in TREASURE_PLACES if q.top_token(w, p) is not None)
        if options:
            w.push(
                job(
                    "choose",
                    seat,
                    what=card,
                    card=inst,
                    options=options,
                    optional=False,
                    left=min(int(e["count"]), len(options)),
                )
            )
    elif name == "swap_token_stack":
        here = pawn.node
        if here in TREASURE_PLACES and q.top_token(w, here) is not None:  # edge 48
            options = tuple(p for p in TREASURE_PLACES if p != here and q.top_token(w, p) is not None)
            if options:
                w.push(job("choose", seat, what=card, card=inst, options=options, optional=False, left=1))
    elif name == "take_money_from_richest":
        cash = [(w.pawns[s].cash, s) for s in range(w.players) if s != seat]
        top = max(c for c, _s in cash)
        richest = tuple(f"seat{s}" for c, s in cash if c == top)
        if top <= 0:
            w.emit("penalty_void", seat=seat, card=card)
        elif len(richest) == 1:
            telegram(w, seat, seat_of(richest[0]) or 0)
        else:  # edge 65: the drawer chooses
            w.push(job("choose", seat, what=card, card=inst, options=richest, optional=False, left=1))
    elif name == "end_rain_or_draw_again":
        if w.rain is not None:
            discard_card(w, "event", w.rain)
            w.rain = None
            w.emit("rain_ended", reason="fair_weather")
        else:
            w.push(job("draw_event", seat))


def telegram(w: AfrikanWork, seat: int, other: int) -> None:
    amount = min(100, w.pawns[other].cash)
    w.add_cash(other, -amount)
    w.add_cash(seat, amount)
    w.emit("paid", seat=other, payee=seat, amount=amount, reason="telegram")


def search(w: AfrikanWork, seat: int, ctype: str, reason: str) -> None:
    """Vehicle for hire / An ally offers help (§5.19 step 3)."""
    deck = w.decks["expedition"]
    if not any(card_type(card_id(i)) == ctype for i in deck.draw):
        pile = list(deck.draw + deck.discard)
        w.rng("search").shuffle(pile)
        deck = replace(deck, draw=tuple(pile), discard=())
        w.emit("reshuffled", deck="expedition", cards=len(pile))
    found = next((i for i in deck.draw if card_type(card_id(i)) == ctype), None)
    if found is None:
        w.decks["expedition"] = deck
        w.emit("search_failed", seat=seat, card_type=ctype)
        return
    rest = [i for i in deck.draw if i != found]
    w.rng("search").shuffle(rest)
    w.decks["expedition"] = replace(deck, draw=tuple(rest))
    gain_card(w, seat, found, True, reason)


def answer_market_day(w: AfrikanWork, j: Job, seat: int, action: Any) -> None:
    w.stack.pop()
    if isinstance(action, Accept):
        w.add_cash(seat, -MARKET_PRICE)
        w.emit("paid", seat=seat, payee=None, amount=MARKET_PRICE, reason="market_day")
        draw_expedition(w, seat, "market_day")


def answer_choose(w: AfrikanWork, j: Job, seat: int, action: Any) -> None:
    w.stack.pop()
    what = j["what"]
    if isinstance(action, Decline):
        w.emit("declined", seat=seat, card=j["card"])
        return
    assert isinstance(action, Choose)
    option = action.option
    if what in ("shortcut", "good_guide"):
        turn.relocate(w, seat, option, what)
        if not w.over:
            turn.cut_movement(w, seat)
    elif what == "black_magic":
        black_magic(w, seat, seat_of(option) or 0)
    elif what == "old_map":
        peek(w, seat, option, what)
        if j["left"] > 1:
            rest = tuple(o for o in j["options"] if o != option)
            w.push(j.but(options=rest, left=j["left"] - 1))
    elif what == "earthquake":
        here = w.pawns[seat].node
        assert here is not None
        turn.swap_stacks(w, here, option)
        w.emit("stacks_swapped", seat=seat, places=(here, option), reason=what)
    elif what == "telegram":
        telegram(w, seat, seat_of(option) or 0)
    elif what == "devil_in_the_night":
        inst = q.inst(w, seat, option)
        assert inst is not None
        lose_card(w, seat, inst, what)
    elif what in ("trade_goods", "barter_goods"):
        for inst in j["drawn"]:
            if card_id(inst) == option and inst not in w.sx[seat].cards:
                gain_card(w, seat, inst, True, what)
                option = ""
            else:
                discard_card(w, "expedition", inst)
                w.emit("card_discarded", seat=seat, card=inst, amount=0, reason=what)


def black_magic(w: AfrikanWork, seat: int, other: int) -> None:
    """The pawns swap nodes; voyages go with the nodes; capture and winning for both (§5.18)."""
    a, b = w.pawns[seat], w.pawns[other]
    w.set_pawn(seat, node=b.node, voyage=b.voyage, captured=False)
    w.set_pawn(other, node=a.node, voyage=a.voyage, captured=False)
    w.emit("pawns_swapped", seat=seat, other=other, nodes=(b.node, a.node))
    for s in (seat, other):
        node = w.pawns[s].node
        if s == seat:
            w.tx = replace(w.tx, visited=(cast(str, node),), moved=True)  # pawns on the board
        if node in PLACE_SET:
            base.arrive(w, s, node)  # win and Capetown, no events
            if w.over:
                return
        else:
            turn.capture_check(w, s)
    turn.cut_movement(w, seat)


# --- penalties (§5.16, §5.17) ---------------------------------------------------------------
def apply_penalty(w: AfrikanWork, seat: int, e: dict[str, Any], source: str) -> None:
    name = e["effect"]
    cash = w.pawns[seat].cash
    if name == "lose_turns":
        w.push(job("lose_turns", seat, n=int(e["turns"]), source=source, tried=()))
    elif name == "pay_money" or (name == "lose_money" and not e.get("robbery")):
        amount = min(int(e["amount"]), cash)
        w.add_cash(seat, -amount)
        w.emit("paid", seat=seat, payee=None, amount=amount, reason=source)
    elif name in ("lose_money", "lose_money_half"):
        mode = "half" if name == "lose_money_half" else "amount"
        w.push(
            job(
                "robbery",
                seat,
                mode=mode,
                amount=int(e.get("amount", 0)),
                token=False,
                robbery=True,
                to=None,
                tried=(),
                keep=None,
                reason=source,
            )
        )
    elif name == "lose_card":
        ctype, immune = e["card_type"], q.has_char(w, seat, "ally_loss_immunity") is not None
        pool = [
            i
            for i in w.sx[seat].cards
            if (card_type(card_id(i)) == ctype or (ctype == "not_skill" and card_type(card_id(i)) != "skill"))
            and not (immune and card_type(card_id(i)) == "ally")
        ]
        if not pool:
            w.emit("penalty_void", seat=seat, card=source)
        elif e["selection"] == "random":
            lose_card(w, seat, w.rng("loss").choice(pool), "random")
        else:
            options = tuple(dict.fromkeys(card_id(i) for i in pool))
            w.push(
                job(
                    "choose",
                    seat,
                    what="devil_in_the_night",
                    card=None,
                    options=options,
                    optional=False,
                    left=1,
                )
            )


def job_lose_turns(w: AfrikanWork, j: Job) -> None:
    seat, n, tried = j.seat, j["n"], j["tried"]
    if n >= 2 and "first_aid" not in tried and (fa := q.usable(w, seat, "first_aid", "p")):
        windows.announce(
            w,
            seat,
            fa,
            "p",
            ok=j.but(n=n - 1, tried=(*tried, "first_aid")),
            ko=j.but(tried=(*tried, "first_aid")),
        )
        return
    if (
        n == 1
        and j["source"] == "danger"
        and "cook" not in tried
        and (cook := q.usable(w, seat, "cook", "p"))
    ):
        windows.announce(
            w, seat, cook, "p", ok=j.but(n=0, tried=(*tried, "cook")), ko=j.but(tried=(*tried, "cook"))
        )
        return
    if n <= 0:
        return
    pending = w.pawns[seat].lost_turns + n
    if q.has_char(w, seat, "lost_turn_cap"):
        pending = min(pending, 1)
    w.set_pawn(seat, lost_turns=pending)
    w.emit("turns_lost", seat=seat, turns=n, pending=pending, reason=j["source"])


def job_robbery(w: AfrikanWork, j: Job) -> None:
    """Money lost to a robber, a duel or a robbery card, with Money belt / Bookkeeping (§5.14)."""
    seat = j.seat
    cash = w.pawns[seat].cash
    loss = (
        cash if j["mode"] == "all" else min(j["amount"], cash) if j["mode"] == "amount" else cash // 200 * 100
    )
    keep = j["keep"]
    if keep is None:
        keep = 0
        for card, amount, ok in (("bookkeeping", 200, j["token"]), ("money_belt", 100, True)):
            inst = q.usable(w, seat, card, "p") if ok and card not in j["tried"] else None
            if inst and loss > max(0, cash - amount):
                windows.announce(
                    w, seat, inst, "p", ok=j.but(keep=amount), ko=j.but(tried=(*j["tried"], card))
                )
                return
    lost = min(loss, max(0, cash - keep))
    w.add_cash(seat, -lost)
    if j["to"] is not None:
        w.add_cash(j["to"], lost)
    w.emit("robbed", seat=seat, lost=lost, kept=keep, taker=j["to"], reason=j["reason"])


# --- peeks and stacks ------------------------------------------------------------------------
def peek(w: AfrikanWork, seat: int, place: str, how: str) -> None:
    tid = q.top_token(w, place)
    assert tid is not None
    if tid not in w.sx[seat].peeks:
        w.set_sx(seat, peeks=(*w.sx[seat].peeks, tid))
    w.emit("peeked", seat=seat, place=place, how=how)
    w.emit("peek_result", seat, seat=seat, place=place, token=content_id(tid, w.kind(tid)))


# --- Phase 2 (§5.4 step 6, §5.8, §5.9) and own-turn actions -----------------------------------
def act_cards(w: AfrikanWork, seat: int, action: Any) -> None:
    match action:
        case Use(card, arg):
            use(w, seat, card, arg)
        case Sell(card):
            inst = q.inst(w, seat, card)
            assert inst is not None
            cash_in(w, seat, inst, "sell")
        case Discard(card):
            inst = q.inst(w, seat, card)
            assert inst is not None
            cash_in(w, seat, inst, "discard")
        case Hold(card):
            inst = q.inst(w, seat, card)
            w.set_sx(seat, held=(*w.sx[seat].held, inst))
            w.emit("held", seat=seat, card=inst)
        case Unhold(card):
            inst = q.inst(w, seat, card)
            w.set_sx(seat, held=tuple(h for h in w.sx[seat].held if h != inst))
            w.emit("unheld", seat=seat, card=inst)
        case Play(card, arg):
            windows.play_own(w, seat, card, arg)
        case SwapStack(place):
            here = w.pawns[seat].node
            assert here is not None
            w.mark_used(seat, "@swap")
            turn.swap_stacks(w, here, place)
            w.emit("stacks_swapped", seat=seat, places=(here, place), reason="fortune_seeker")
        case Peek():
            w.mark_used(seat, "@peek")
            peek(w, seat, w.pawns[seat].node or "", "archaeologist")
        case BuyDiscard():
            w.mark_used(seat, "@buy")
            deck = w.decks["expedition"]
            inst = deck.discard[-1]
            w.decks["expedition"] = replace(deck, discard=deck.discard[:-1])
            w.add_cash(seat, -BUY_DISCARD_PRICE)
            w.emit("paid", seat=seat, payee=None, amount=BUY_DISCARD_PRICE, reason="buy_discard")
            gain_card(w, seat, inst, False, "buy_discard")


def use(w: AfrikanWork, seat: int, card: str, arg: str | None) -> None:
    inst = q.inst(w, seat, card)
    assert inst is not None
    name = ACTIVE[card]
    discard_use = card in DISCARD_USES
    if name in ("extra_steps", "low_roll_bonus"):
        steps, terrain = EXTRA_STEPS.get(card, (1, "land"))
        if card_type(card) == "vehicle" and q.inst(w, seat, "mechanic") is not None:
            steps += 1
        ok = job("extra", seat, steps=steps, terrain=terrain)
    elif name == "peek_token":
        ok = job("peek", seat, place=arg, how=card)
    elif name == "draw_expedition":
        e = effect(card, name) or {}
        ok = job("draw_keep", seat, draw=int(e["draw"]), keep=int(e["keep"]), card=card)
    elif name == "cancel_lost_turn":
        ok = job("tinned_food", seat, resume=False)
    else:
        raise AssertionError(name)
    windows.announce(w, seat, inst, "a", ok=ok, discard=discard_use)


def job_extra(w: AfrikanWork, j: Job) -> None:
    turn.start_move(w, j.seat, "extra", j["terrain"], True, j["steps"])
    turn.offer_move(w, j.seat)


def job_peek(w: AfrikanWork, j: Job) -> None:
    if q.top_token(w, j["place"]) is not None:
        peek(w, j.seat, j["place"], j["how"])


def job_draw_keep(w: AfrikanWork, j: Job) -> None:
    drawn = tuple(i for _ in range(j["draw"]) if (i := draw_card(w, "expedition")) is not None)
    if len(drawn) <= j["keep"]:
        for inst in drawn:
            gain_card(w, j.seat, inst, True, j["card"])
        return
    w.emit("cards_drawn", seat=j.seat, cards=drawn, reason=j["card"])
    w.push(
        job(
            "choose",
            j.seat,
            what=j["card"],
            card=None,
            options=tuple(card_id(i) for i in drawn),
            optional=False,
            left=1,
            drawn=drawn,
        )
    )


def job_tinned_food(w: AfrikanWork, j: Job) -> None:
    pawn = w.set_pawn(j.seat, lost_turns=max(0, w.pawns[j.seat].lost_turns - 1))
    w.emit("lost_turn_cancelled", seat=j.seat, pending=pawn.lost_turns)
    if j["resume"]:
        turn.begin_turn(w)
