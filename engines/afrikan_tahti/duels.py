"""Duels (spec §5.12) and trading (§5.13), as a mixin of ``ExpTable``.

A duel is a ``duel`` prompt with a stage: ``defender_roll`` (the defender answers ``roll``),
``defender_reroll`` (``reroll <card> <i,j>`` / ``reroll_done``), ``attacker_roll``, ``attacker_reroll``.
The defender's result is his largest group of equal non-blank faces X (ties: spears, coin, boot, gem,
skull †), k its size; the attacker wins with at least k dice showing X. When the attacker wins, a W3
rescue window opens for the other players before the loss is applied.

A trade is an ``offer`` prompt for the other player (``accept`` / ``decline``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engines.afrikan_tahti.cards import card_id
from engines.afrikan_tahti.model import Roll
from engines.afrikan_tahti.xdata import DUEL_FACES
from engines.afrikan_tahti.xmodel import Accept, Duel, Job, Offer, Reroll, RerollDone, job

if TYPE_CHECKING:
    from engines.afrikan_tahti.xhost import Host

    _Base = Host
else:
    _Base = object

DEFENCE_SCOPES = ("any", "duel", "duel_defence")
ATTACK_SCOPES = ("any", "duel", "duel_attack")


def defender_result(dice: tuple[str, ...]) -> tuple[str | None, int]:
    counts = Counter(d for d in dice if d != "blank")
    if not counts:
        return None, 0
    k = max(counts.values())
    return next(f for f in DUEL_FACES if counts[f] == k), k


def split_items(items: tuple[str, ...]) -> tuple[tuple[str, ...], int]:
    money = sum(int(i) for i in items if i.isdigit())
    return tuple(i for i in items if not i.isdigit()), money


class DuelsMixin(_Base):
    # --- duels ---------------------------------------------------------------------------------
    def start_duel(self, seat: int, action: Duel) -> None:
        self.tx = replace(self.tx, action="duel")
        self.emit("duel", attacker=seat, defender=action.seat, target=action.target)
        self.push(job("duel", action.seat, attacker=seat, defender=action.seat, target=action.target,
                      stage="defender_roll", ddice=(), adice=(), face=None, k=None))

    def answer_duel(self, j: Job, seat: int, action: Any) -> None:
        side = "defender" if j["stage"].startswith("defender") else "attacker"
        match action:
            case Roll():
                dice = self.roll_dice()
                key = "ddice" if side == "defender" else "adice"
                self.stack[-1] = j.but(**{key: dice}, stage=f"{side}_reroll")
                self.emit("duel_dice", seat=seat, side=side, dice=dice)
                self.duel_eval(False)
            case Reroll(card, dice):
                inst = self.inst(seat, card)
                assert inst is not None
                self.announce(seat, inst, "p", ok=job("duel_reroll", seat, dice=dice, card=card),
                              ko=job("duel_eval", seat, done=False))
            case RerollDone():
                self.duel_eval(True)

    def job_duel_reroll(self, j: Job) -> None:
        self.reroll_top(j.seat, j["dice"], j["card"])
        self.duel_eval(False)

    def job_duel_eval(self, j: Job) -> None:
        self.duel_eval(j["done"])

    def duel_eval(self, done: bool) -> None:
        """After a roll or a reroll: move the duel on when no decision is left to make."""
        j = self.stack[-1]
        if j["stage"] == "defender_reroll":
            if done or not self.rerolls(j["defender"], DEFENCE_SCOPES):
                face, k = defender_result(j["ddice"])
                self.emit("duel_defence", defender=j["defender"], face=face, k=k)
                if k == 0:  # edge 39: the attacker wins without rolling
                    self.duel_over(j.but(face=face, k=k), True)
                else:
                    self.stack[-1] = j.but(stage="attacker_roll", face=face, k=k)
        elif j["stage"] == "attacker_reroll":
            wins = j["adice"].count(j["face"]) >= j["k"]
            if wins or done or not self.rerolls(j["attacker"], ATTACK_SCOPES):
                self.duel_over(j, wins)

    def duel_over(self, j: Job, attacker_wins: bool) -> None:
        self.stack.pop()
        attacker, defender, target = j["attacker"], j["defender"], j["target"]
        self.emit("duel_result", attacker=attacker, defender=defender, target=target,
                  winner=attacker if attacker_wins else defender, face=j["face"], k=j["k"],
                  hits=j["adice"].count(j["face"]) if j["face"] else 0)
        self.end_turn()  # §5.12 step 7
        if attacker_wins:
            self.push(job("duel_apply", attacker, attacker=attacker, defender=defender, target=target))
            self.open_window("rescue", attacker, None, (attacker, defender), target)
        else:
            self.push(job("lose_turns", attacker, n=self.lost_turns_for(target), source="duel", tried=()))

    def job_duel_apply(self, j: Job) -> None:
        attacker, defender, target = j["attacker"], j["defender"], j["target"]
        kind, _, arg = target.partition(":")
        d = self.pawns[defender]
        if kind == "money" and d.cash > 0:
            self.push(job("lose_turns", defender, n=1, source="duel", tried=()))
            self.push(job("robbery", defender, mode="amount", amount=int(arg), token=False, robbery=True,
                          to=attacker, tried=(), keep=None, reason="duel"))
            return
        if kind == "card" and (inst := self.inst(defender, arg)) is not None:
            self.push(job("lose_turns", defender, n=1, source="duel", tried=()))
            self.remove_card(defender, inst, to_discard=False)
            self.emit("card_taken", seat=attacker, other=defender, card=inst)
            self.limit_check(defender)
            self.gain_card(attacker, inst, False, "duel")
            return
        items = [t for t in d.items if self.kind(t) == kind] if kind in ("star", "horseshoe") else []
        if items:
            self.push(job("lose_turns", defender, n=1, source="duel", tried=()))
            self.set_pawn(defender, items=tuple(t for t in d.items if t != items[0]))
            self.set_pawn(attacker, items=(*self.pawns[attacker].items, items[0]))
            self.emit("item_taken", seat=attacker, other=defender, item=kind)
            return
        self.emit("duel_void", attacker=attacker, defender=defender, reason="target_gone")  # § 5.12 step 8

    def job_duel_void(self, j: Job) -> None:
        self.emit("duel_void", attacker=j["attacker"], defender=j["defender"], reason="rescued")

    # --- trading -------------------------------------------------------------------------------
    def offer(self, seat: int, action: Offer) -> None:
        self.tx = replace(self.tx, offers=self.tx.offers + 1)
        self.emit("offer", seat=seat, receiver=action.seat, give=action.give, get=action.get)
        self.push(job("offer", action.seat, by=seat, give=action.give, get=action.get))

    def answer_offer(self, j: Job, seat: int, action: Any) -> None:
        self.stack.pop()
        by = j["by"]
        if not isinstance(action, Accept):
            self.emit("offer_declined", seat=seat, by=by)
            return
        self.tx = replace(self.tx, action="trade")
        give_cards, give_money = split_items(j["give"])
        get_cards, get_money = split_items(j["get"])
        moves = [(by, seat, card_id(c)) for c in give_cards] + [(seat, by, card_id(c)) for c in get_cards]
        insts = []
        for src, dst, c in moves:
            inst = self.inst(src, c)
            assert inst is not None
            self.remove_card(src, inst, to_discard=False)
            insts.append((dst, inst))
        for dst, inst in insts:
            self.set_sx(dst, cards=(*self.sx[dst].cards, inst))
        self.add_cash(by, get_money - give_money)
        self.add_cash(seat, give_money - get_money)
        self.emit("traded", seat=by, other=seat, give=j["give"], get=j["get"])
        for s in (by, seat):  # §5.13 step 5
            self.limit_check(s)
