"""Cards in Retkikunnat (spec §5.3, §5.6-5.9, §5.14-5.19), as a mixin of ``ExpTable``: decks, the
expedition (gains, losses, the card limit, selling), event cards (drawing, instant effects, hand cards,
the rainy season), penalties (money, cards, lost turns with their modifiers, robbery), peeks, and the
Phase-2 actions.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from engines.afrikan_tahti.board import PLACE_SET, TREASURE_PLACES
from engines.afrikan_tahti.cards import card_id, discard, draw
from engines.afrikan_tahti.model import content_id
from engines.afrikan_tahti.rules import Table
from engines.afrikan_tahti.xdata import ACTIVE, DISCARD_USES, EVT, EXTRA_STEPS, card_type, effect, sale_value
from engines.afrikan_tahti.xmodel import (
    Accept,
    BuyDiscard,
    Choose,
    Decline,
    Discard,
    Exchange,
    Hold,
    Job,
    Peek,
    Play,
    Sell,
    SwapStack,
    Unhold,
    Use,
    job,
    seat_of,
)
from engines.afrikan_tahti.xquery import first_places

if TYPE_CHECKING:
    from engines.afrikan_tahti.xhost import Host

    _Base = Host
else:
    _Base = object

BUY_DISCARD_PRICE = 200
MARKET_PRICE = 200


class CardsMixin(_Base):
    # --- decks -----------------------------------------------------------------------------------
    def draw_card(self, name: str) -> str | None:
        deck = self.decks[name]
        if not deck.draw and name == "event" and self.rain is not None:
            # §5.15 step 4: the rainy season ends with the reshuffle; its card is shuffled in
            deck = discard(deck, self.rain)
            self.rain = None
            self.emit("rain_ended", reason="reshuffle")
        deck, card, reshuffled = draw(deck, self.rng(f"shuffle_{name}"))
        self.decks[name] = deck
        if reshuffled:
            self.emit("reshuffled", deck=name, cards=len(deck.draw) + (card is not None))
        return card

    def discard_card(self, name: str, inst: str) -> None:
        self.decks[name] = discard(self.decks[name], inst)

    # --- the expedition ---------------------------------------------------------------------------
    def draw_expedition(self, seat: int, reason: str) -> None:
        inst = self.draw_card("expedition")
        if inst is None:
            self.emit("deck_empty", deck="expedition")
            return
        self.gain_card(seat, inst, True, reason)

    def gain_card(self, seat: int, inst: str, from_deck: bool, reason: str) -> None:
        self.set_sx(seat, cards=(*self.sx[seat].cards, inst))
        self.emit("card_gained", seat=seat, card=inst, reason=reason)
        if from_deck and self.has_char(seat, "draw_income") and card_type(card_id(inst)) in ("equipment", "vehicle"):
            self.add_cash(seat, 100)
            self.emit("income", seat=seat, amount=100, reason="tycoon")
        self.limit_check(seat)

    def remove_card(self, seat: int, inst: str, to_discard: bool = True) -> None:
        sx = self.sx[seat]
        self.set_sx(seat, cards=tuple(c for c in sx.cards if c != inst), held=tuple(h for h in sx.held if h != inst),
                    used=tuple(u for u in sx.used if not u.startswith(f"{inst}:")))
        if to_discard:
            self.discard_card("expedition", inst)

    def lose_card(self, seat: int, inst: str, reason: str) -> None:
        """A card lost without money (penalty, sabotage, random loss); the limit may fall (§5.9)."""
        self.remove_card(seat, inst)
        self.emit("card_lost", seat=seat, card=inst, reason=reason)
        self.limit_check(seat)

    def limit_check(self, seat: int) -> None:
        top = self.stack[-1] if self.stack else None
        if self.over_limit(seat) and not (top and top.kind == "limit_discard" and top.seat == seat):
            self.push(job("limit_discard", seat))

    def sale_income(self, seat: int, card: str) -> int:
        value = sale_value(card)
        if value > 0:  # §5.9 step 4: Haggling and the Merchant, +100 each per paying card
            value += 100 * ((self.inst(seat, "haggling") is not None) + (self.has_char(seat, "sell_income_bonus")
                                                                         is not None))
        return value

    def cash_in(self, seat: int, inst: str, reason: str) -> None:
        amount = self.sale_income(seat, card_id(inst))
        self.remove_card(seat, inst)
        self.add_cash(seat, amount)
        self.emit("sold" if reason == "sell" else "card_discarded", seat=seat, card=inst, amount=amount,
                  reason=reason)

    def answer_limit_discard(self, j: Job, seat: int, action: Any) -> None:
        inst = self.inst(seat, action.card)
        assert inst is not None
        self.cash_in(seat, inst, "limit")
        if not self.over_limit(seat):
            self.stack.pop()

    def answer_hand_discard(self, j: Job, seat: int, action: Any) -> None:
        inst = self.hand_inst(seat, action.card)
        assert inst is not None
        self.set_sx(seat, hand=tuple(h for h in self.sx[seat].hand if h != inst))
        self.discard_card("event", inst)
        self.emit("hand_card_discarded", seat=seat, card=inst, reason="limit")
        if len(self.sx[seat].hand) <= self.options.hand_limit:
            self.stack.pop()

    # --- event cards (§5.6) ----------------------------------------------------------------------
    def job_draw_event(self, j: Job) -> None:
        seat = j.seat
        inst = self.draw_card("event")
        if inst is None:
            self.emit("deck_empty", deck="event")
            return
        kind = EVT[card_id(inst)]["kind"]
        if kind == "hand":
            self.set_sx(seat, hand=(*self.sx[seat].hand, inst))
            self.emit("hand_card_drawn", seat, seat=seat, card=inst)
            self.emit("drew_hand_card", seat=seat, hand=len(self.sx[seat].hand))
        else:
            self.resolving.append(inst)
            self.emit("event_card", seat=seat, card=inst, kind=kind)
        if self.has_char(seat, "exchange_for_danger") and kind != "unlucky":
            self.push(job("exchange", seat, what="event", card=inst, kind=kind))
        else:
            self.resolve_event(seat, inst)

    def answer_exchange(self, j: Job, seat: int, action: Any) -> None:
        """E5 and §5.14 step 3: the Adventurer takes a danger card instead."""
        self.stack.pop()
        if isinstance(action, Exchange):
            if j["what"] == "event":
                inst = j["card"]
                if j["kind"] == "hand":
                    self.set_sx(seat, hand=tuple(h for h in self.sx[seat].hand if h != inst))
                else:
                    self.resolving.remove(inst)
                self.discard_card("event", inst)
                self.emit("exchanged", seat=seat, card=inst)
                self.start_danger(seat, "exchange", False)
            else:  # the robber token: a danger card instead, Slave Coast still costs 3 turns
                self.emit("exchanged", seat=seat, card=j["token"])
                self.start_danger(seat, "exchange", j["slave"])
        elif j["what"] == "event":
            self.resolve_event(seat, j["card"])
        else:
            self.rob(seat, j["slave"])

    def resolve_event(self, seat: int, inst: str) -> None:
        c = EVT[card_id(inst)]
        kind = c["kind"]
        if kind == "hand":
            if len(self.sx[seat].hand) > self.options.hand_limit:
                self.push(job("hand_discard", seat))
            return
        if kind == "unlucky":
            self.resolving.remove(inst)
            self.discard_card("event", inst)
            self.start_danger(seat, "event", False)
            return
        if kind == "effect":
            self.resolving.remove(inst)
            self.rain = inst
            self.emit("rain_started", seat=seat, card=inst)
            return
        self.push(job("event_done", seat, card=inst))
        self.instant(seat, inst, c["effect"])

    def job_event_done(self, j: Job) -> None:
        if j["card"] in self.resolving:
            self.resolving.remove(j["card"])
            self.discard_card("event", j["card"])

    def instant(self, seat: int, inst: str, e: dict[str, Any]) -> None:
        name = e["effect"]
        pawn = self.pawns[seat]
        card = card_id(inst)
        if name == "move_to_next_place":
            options = first_places(pawn.node or "")
            if options:
                self.push(job("choose", seat, what=card, card=inst, options=options, optional=True, left=1))
        elif name == "swap_pawns":
            options = tuple(f"seat{s}" for s in range(self.n) if s != seat)
            self.push(job("choose", seat, what=card, card=inst, options=options, optional=False, left=1))
        elif name == "draw_expedition":
            self.draw_expedition(seat, card)
        elif name == "search_expedition":
            self.search(seat, e["card_type"], card)
        elif name == "buy_top_expedition":
            deck = self.decks["expedition"]
            if pawn.cash >= MARKET_PRICE and (deck.draw or deck.discard):
                self.push(job("market_day", seat, card=inst))
        elif name == "gain_money":
            self.add_cash(seat, e["amount"])
            self.emit("income", seat=seat, amount=e["amount"], reason=card)
        elif name in ("pay_money", "lose_money", "lose_card", "lose_turns"):
            self.apply_penalty(seat, e, "event")
        elif name == "peek_token":
            options = tuple(p for p in TREASURE_PLACES if self.top_token(p) is not None)
            if options:
                self.push(job("choose", seat, what=card, card=inst, options=options, optional=False,
                              left=min(int(e["count"]), len(options))))
        elif name == "swap_token_stack":
            here = pawn.node
            if here in TREASURE_PLACES and self.top_token(here) is not None:  # edge 48
                options = tuple(p for p in TREASURE_PLACES if p != here and self.top_token(p) is not None)
                if options:
                    self.push(job("choose", seat, what=card, card=inst, options=options, optional=False, left=1))
        elif name == "take_money_from_richest":
            cash = [(self.pawns[s].cash, s) for s in range(self.n) if s != seat]
            top = max(c for c, _s in cash)
            richest = tuple(f"seat{s}" for c, s in cash if c == top)
            if top <= 0:
                self.emit("penalty_void", seat=seat, card=card)
            elif len(richest) == 1:
                self.telegram(seat, seat_of(richest[0]) or 0)
            else:  # edge 65: the drawer chooses
                self.push(job("choose", seat, what=card, card=inst, options=richest, optional=False, left=1))
        elif name == "end_rain_or_draw_again":
            if self.rain is not None:
                self.discard_card("event", self.rain)
                self.rain = None
                self.emit("rain_ended", reason="fair_weather")
            else:
                self.push(job("draw_event", seat))

    def telegram(self, seat: int, other: int) -> None:
        amount = min(100, self.pawns[other].cash)
        self.add_cash(other, -amount)
        self.add_cash(seat, amount)
        self.emit("paid", seat=other, payee=seat, amount=amount, reason="telegram")

    def search(self, seat: int, ctype: str, reason: str) -> None:
        """Vehicle for hire / An ally offers help (§5.19 step 3)."""
        deck = self.decks["expedition"]
        if not any(card_type(card_id(i)) == ctype for i in deck.draw):
            pile = list(deck.draw + deck.discard)
            self.rng("search").shuffle(pile)
            deck = replace(deck, draw=tuple(pile), discard=())
            self.emit("reshuffled", deck="expedition", cards=len(pile))
        found = next((i for i in deck.draw if card_type(card_id(i)) == ctype), None)
        if found is None:
            self.decks["expedition"] = deck
            self.emit("search_failed", seat=seat, card_type=ctype)
            return
        rest = [i for i in deck.draw if i != found]
        self.rng("search").shuffle(rest)
        self.decks["expedition"] = replace(deck, draw=tuple(rest))
        self.gain_card(seat, found, True, reason)

    def answer_market_day(self, j: Job, seat: int, action: Any) -> None:
        self.stack.pop()
        if isinstance(action, Accept):
            self.add_cash(seat, -MARKET_PRICE)
            self.emit("paid", seat=seat, payee=None, amount=MARKET_PRICE, reason="market_day")
            self.draw_expedition(seat, "market_day")

    def answer_choose(self, j: Job, seat: int, action: Any) -> None:
        self.stack.pop()
        what = j["what"]
        if isinstance(action, Decline):
            self.emit("declined", seat=seat, card=j["card"])
            return
        assert isinstance(action, Choose)
        option = action.option
        if what in ("shortcut", "good_guide"):
            self.relocate(seat, option, what)
            if not self.over:
                self.cut_movement(seat)
        elif what == "black_magic":
            self.black_magic(seat, seat_of(option) or 0)
        elif what == "old_map":
            self.peek(seat, option, what)
            if j["left"] > 1:
                rest = tuple(o for o in j["options"] if o != option)
                self.push(j.but(options=rest, left=j["left"] - 1))
        elif what == "earthquake":
            here = self.pawns[seat].node
            assert here is not None
            self.swap_stacks(here, option)
            self.emit("stacks_swapped", seat=seat, places=(here, option), reason=what)
        elif what == "telegram":
            self.telegram(seat, seat_of(option) or 0)
        elif what == "devil_in_the_night":
            inst = self.inst(seat, option)
            assert inst is not None
            self.lose_card(seat, inst, what)
        elif what in ("trade_goods", "barter_goods"):
            for inst in j["drawn"]:
                if card_id(inst) == option and inst not in self.sx[seat].cards:
                    self.gain_card(seat, inst, True, what)
                    option = ""
                else:
                    self.discard_card("expedition", inst)
                    self.emit("card_discarded", seat=seat, card=inst, amount=0, reason=what)

    def black_magic(self, seat: int, other: int) -> None:
        """The pawns swap nodes; voyages go with the nodes; capture and winning for both (§5.18)."""
        a, b = self.pawns[seat], self.pawns[other]
        self.set_pawn(seat, node=b.node, voyage=b.voyage, captured=False)
        self.set_pawn(other, node=a.node, voyage=a.voyage, captured=False)
        self.emit("pawns_swapped", seat=seat, other=other, nodes=(b.node, a.node))
        for s in (seat, other):
            node = self.pawns[s].node
            if s == seat:
                self.tx = replace(self.tx, visited=(cast(str, node),), moved=True)  # pawns on the board
            if node in PLACE_SET:
                Table.on_place(self, s, node, True)  # win and Capetown, no events
                if self.over:
                    return
            else:
                self.capture_check(s)
        self.cut_movement(seat)

    # --- penalties (§5.16, §5.17) ---------------------------------------------------------------
    def apply_penalty(self, seat: int, e: dict[str, Any], source: str) -> None:
        name = e["effect"]
        cash = self.pawns[seat].cash
        if name == "lose_turns":
            self.push(job("lose_turns", seat, n=int(e["turns"]), source=source, tried=()))
        elif name == "pay_money" or (name == "lose_money" and not e.get("robbery")):
            amount = min(int(e["amount"]), cash)
            self.add_cash(seat, -amount)
            self.emit("paid", seat=seat, payee=None, amount=amount, reason=source)
        elif name in ("lose_money", "lose_money_half"):
            mode = "half" if name == "lose_money_half" else "amount"
            self.push(job("robbery", seat, mode=mode, amount=int(e.get("amount", 0)), token=False, robbery=True,
                          to=None, tried=(), keep=None, reason=source))
        elif name == "lose_card":
            ctype, immune = e["card_type"], self.has_char(seat, "ally_loss_immunity") is not None
            pool = [i for i in self.sx[seat].cards
                    if (card_type(card_id(i)) == ctype or (ctype == "not_skill" and card_type(card_id(i)) != "skill"))
                    and not (immune and card_type(card_id(i)) == "ally")]
            if not pool:
                self.emit("penalty_void", seat=seat, card=source)
            elif e["selection"] == "random":
                self.lose_card(seat, self.rng("loss").choice(pool), "random")
            else:
                options = tuple(dict.fromkeys(card_id(i) for i in pool))
                self.push(job("choose", seat, what="devil_in_the_night", card=None, options=options, optional=False,
                              left=1))

    def job_lose_turns(self, j: Job) -> None:
        seat, n, tried = j.seat, j["n"], j["tried"]
        if n >= 2 and "first_aid" not in tried and (fa := self.usable(seat, "first_aid", "p")):
            self.announce(seat, fa, "p", ok=j.but(n=n - 1, tried=(*tried, "first_aid")),
                          ko=j.but(tried=(*tried, "first_aid")))
            return
        if n == 1 and j["source"] == "danger" and "cook" not in tried and (cook := self.usable(seat, "cook", "p")):
            self.announce(seat, cook, "p", ok=j.but(n=0, tried=(*tried, "cook")), ko=j.but(tried=(*tried, "cook")))
            return
        if n <= 0:
            return
        pending = self.pawns[seat].lost_turns + n
        if self.has_char(seat, "lost_turn_cap"):
            pending = min(pending, 1)
        self.set_pawn(seat, lost_turns=pending)
        self.emit("turns_lost", seat=seat, turns=n, pending=pending, reason=j["source"])

    def job_robbery(self, j: Job) -> None:
        """Money lost to a robber, a duel or a robbery card, with Money belt / Bookkeeping (§5.14)."""
        seat = j.seat
        cash = self.pawns[seat].cash
        loss = cash if j["mode"] == "all" else min(j["amount"], cash) if j["mode"] == "amount" else cash // 200 * 100
        keep = j["keep"]
        if keep is None:
            keep = 0
            for card, amount, ok in (("bookkeeping", 200, j["token"]), ("money_belt", 100, True)):
                inst = self.usable(seat, card, "p") if ok and card not in j["tried"] else None
                if inst and loss > max(0, cash - amount):
                    self.announce(seat, inst, "p", ok=j.but(keep=amount), ko=j.but(tried=(*j["tried"], card)))
                    return
        lost = min(loss, max(0, cash - keep))
        self.add_cash(seat, -lost)
        if j["to"] is not None:
            self.add_cash(j["to"], lost)
        self.emit("robbed", seat=seat, lost=lost, kept=keep, taker=j["to"], reason=j["reason"])

    # --- peeks and stacks ------------------------------------------------------------------------
    def peek(self, seat: int, place: str, how: str) -> None:
        tid = self.top_token(place)
        assert tid is not None
        if tid not in self.sx[seat].peeks:
            self.set_sx(seat, peeks=(*self.sx[seat].peeks, tid))
        self.emit("peeked", seat=seat, place=place, how=how)
        self.emit("peek_result", seat, seat=seat, place=place, token=content_id(tid, self.kind(tid)))

    # --- Phase 2 (§5.4 step 6, §5.8, §5.9) and own-turn actions -----------------------------------
    def act_cards(self, seat: int, action: Any) -> None:
        match action:
            case Use(card, arg):
                self.use(seat, card, arg)
            case Sell(card):
                inst = self.inst(seat, card)
                assert inst is not None
                self.cash_in(seat, inst, "sell")
            case Discard(card):
                inst = self.inst(seat, card)
                assert inst is not None
                self.cash_in(seat, inst, "discard")
            case Hold(card):
                inst = self.inst(seat, card)
                self.set_sx(seat, held=(*self.sx[seat].held, inst))
                self.emit("held", seat=seat, card=inst)
            case Unhold(card):
                inst = self.inst(seat, card)
                self.set_sx(seat, held=tuple(h for h in self.sx[seat].held if h != inst))
                self.emit("unheld", seat=seat, card=inst)
            case Play(card, arg):
                self.play_own(seat, card, arg)
            case SwapStack(place):
                here = self.pawns[seat].node
                assert here is not None
                self.mark_used(seat, "@swap")
                self.swap_stacks(here, place)
                self.emit("stacks_swapped", seat=seat, places=(here, place), reason="fortune_seeker")
            case Peek():
                self.mark_used(seat, "@peek")
                self.peek(seat, self.pawns[seat].node or "", "archaeologist")
            case BuyDiscard():
                self.mark_used(seat, "@buy")
                deck = self.decks["expedition"]
                inst = deck.discard[-1]
                self.decks["expedition"] = replace(deck, discard=deck.discard[:-1])
                self.add_cash(seat, -BUY_DISCARD_PRICE)
                self.emit("paid", seat=seat, payee=None, amount=BUY_DISCARD_PRICE, reason="buy_discard")
                self.gain_card(seat, inst, False, "buy_discard")

    def use(self, seat: int, card: str, arg: str | None) -> None:
        inst = self.inst(seat, card)
        assert inst is not None
        name = ACTIVE[card]
        discard_use = card in DISCARD_USES
        if name in ("extra_steps", "low_roll_bonus"):
            steps, terrain = EXTRA_STEPS.get(card, (1, "land"))
            if card_type(card) == "vehicle" and self.inst(seat, "mechanic") is not None:
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
        self.announce(seat, inst, "a", ok=ok, discard=discard_use)

    def job_extra(self, j: Job) -> None:
        self.start_move(j.seat, "extra", j["terrain"], True, j["steps"])
        self.offer_move(j.seat)

    def job_peek(self, j: Job) -> None:
        if self.top_token(j["place"]) is not None:
            self.peek(j.seat, j["place"], j["how"])

    def job_draw_keep(self, j: Job) -> None:
        drawn = tuple(i for _ in range(j["draw"]) if (i := self.draw_card("expedition")) is not None)
        if len(drawn) <= j["keep"]:
            for inst in drawn:
                self.gain_card(j.seat, inst, True, j["card"])
            return
        self.emit("cards_drawn", seat=j.seat, cards=drawn, reason=j["card"])
        self.push(job("choose", j.seat, what=j["card"], card=None, options=tuple(card_id(i) for i in drawn),
                      optional=False, left=1, drawn=drawn))

    def job_tinned_food(self, j: Job) -> None:
        pawn = self.set_pawn(j.seat, lost_turns=max(0, self.pawns[j.seat].lost_turns - 1))
        self.emit("lost_turn_cancelled", seat=j.seat, pending=pawn.lost_turns)
        if j["resume"]:
            self.begin_turn()
