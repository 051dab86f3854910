"""Duels (spec §5.12) and trading (§5.13).

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
from typing import Any

from engines.afrikan_tahti.model import Accept, AfrikanWork, Duel, Offer, Reroll, RerollDone, Roll
from engines.afrikan_tahti.retkikunnat import cards, danger, turn, windows
from engines.afrikan_tahti.retkikunnat import predicates as q
from engines.afrikan_tahti.retkikunnat.content import DUEL_FACES, card_id
from engines.afrikan_tahti.retkikunnat.model import Job, job

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


# --- duels ---------------------------------------------------------------------------------
def start_duel(w: AfrikanWork, seat: int, action: Duel) -> None:
    w.tx = replace(w.tx, action="duel")
    w.emit("duel", attacker=seat, defender=action.seat, target=action.target)
    w.push(
        job(
            "duel",
            action.seat,
            attacker=seat,
            defender=action.seat,
            target=action.target,
            stage="defender_roll",
            ddice=(),
            adice=(),
            face=None,
            k=None,
        )
    )


def answer_duel(w: AfrikanWork, j: Job, seat: int, action: Any) -> None:
    side = "defender" if j["stage"].startswith("defender") else "attacker"
    match action:
        case Roll():
            dice = danger.roll_dice(w)
            key = "ddice" if side == "defender" else "adice"
            w.stack[-1] = j.but(**{key: dice}, stage=f"{side}_reroll")
            w.emit("duel_dice", seat=seat, side=side, dice=dice)
            duel_eval(w, False)
        case Reroll(card, dice):
            inst = q.inst(w, seat, card)
            assert inst is not None
            windows.announce(
                w,
                seat,
                inst,
                "p",
                ok=job("duel_reroll", seat, dice=dice, card=card),
                ko=job("duel_eval", seat, done=False),
            )
        case RerollDone():
            duel_eval(w, True)


def job_duel_reroll(w: AfrikanWork, j: Job) -> None:
    danger.reroll_top(w, j.seat, j["dice"], j["card"])
    duel_eval(w, False)


def job_duel_eval(w: AfrikanWork, j: Job) -> None:
    duel_eval(w, j["done"])


def duel_eval(w: AfrikanWork, done: bool) -> None:
    """After a roll or a reroll: move the duel on when no decision is left to make."""
    j = w.stack[-1]
    if j["stage"] == "defender_reroll":
        if done or not q.rerolls(w, j["defender"], DEFENCE_SCOPES):
            face, k = defender_result(j["ddice"])
            w.emit("duel_defence", defender=j["defender"], face=face, k=k)
            if k == 0:  # edge 39: the attacker wins without rolling
                duel_over(w, j.but(face=face, k=k), True)
            else:
                w.stack[-1] = j.but(stage="attacker_roll", face=face, k=k)
    elif j["stage"] == "attacker_reroll":
        wins = j["adice"].count(j["face"]) >= j["k"]
        if wins or done or not q.rerolls(w, j["attacker"], ATTACK_SCOPES):
            duel_over(w, j, wins)


def duel_over(w: AfrikanWork, j: Job, attacker_wins: bool) -> None:
    w.stack.pop()
    attacker, defender, target = j["attacker"], j["defender"], j["target"]
    w.emit(
        "duel_result",
        attacker=attacker,
        defender=defender,
        target=target,
        winner=attacker if attacker_wins else defender,
        face=j["face"],
        k=j["k"],
        hits=j["adice"].count(j["face"]) if j["face"] else 0,
    )
    turn.end_turn(w)  # §5.12 step 7
    if attacker_wins:
        w.push(job("duel_apply", attacker, attacker=attacker, defender=defender, target=target))
        windows.open_window(w, "rescue", attacker, None, (attacker, defender), target, loser=defender)
    else:
        w.push(job("lose_turns", attacker, n=q.lost_turns_for(w, target), source="duel", tried=()))


def job_duel_apply(w: AfrikanWork, j: Job) -> None:
    attacker, defender, target = j["attacker"], j["defender"], j["target"]
    kind, _, arg = target.partition(":")
    d = w.pawns[defender]
    if kind == "money" and d.cash > 0:
        w.push(job("lose_turns", defender, n=1, source="duel", tried=()))
        w.push(
            job(
                "robbery",
                defender,
                mode="amount",
                amount=int(arg),
                token=False,
                robbery=True,
                to=attacker,
                tried=(),
                keep=None,
                reason="duel",
            )
        )
        return
    if kind == "card" and (inst := q.inst(w, defender, arg)) is not None:
        w.push(job("lose_turns", defender, n=1, source="duel", tried=()))
        cards.remove_card(w, defender, inst, to_discard=False)
        w.emit("card_taken", seat=attacker, other=defender, card=inst)
        cards.limit_check(w, defender)
        cards.gain_card(w, attacker, inst, False, "duel")
        return
    items = [t for t in d.items if w.kind(t) == kind] if kind in ("star", "horseshoe") else []
    if items:
        w.push(job("lose_turns", defender, n=1, source="duel", tried=()))
        w.set_pawn(defender, items=tuple(t for t in d.items if t != items[0]))
        w.set_pawn(attacker, items=(*w.pawns[attacker].items, items[0]))
        w.emit("item_taken", seat=attacker, other=defender, item=kind)
        return
    w.emit("duel_void", attacker=attacker, defender=defender, reason="target_gone")  # § 5.12 step 8


def job_duel_void(w: AfrikanWork, j: Job) -> None:
    w.emit("duel_void", attacker=j["attacker"], defender=j["defender"], reason="rescued")


# --- trading -------------------------------------------------------------------------------
def offer(w: AfrikanWork, seat: int, action: Offer) -> None:
    w.tx = replace(w.tx, offers=w.tx.offers + 1)
    w.emit("offer", seat=seat, receiver=action.seat, give=action.give, get=action.get)
    w.push(job("offer", action.seat, by=seat, give=action.give, get=action.get))


def answer_offer(w: AfrikanWork, j: Job, seat: int, action: Any) -> None:
    w.stack.pop()
    by = j["by"]
    if not isinstance(action, Accept):
        w.emit("offer_declined", seat=seat, by=by)
        return
    w.tx = replace(w.tx, action="trade")
    give_cards, give_money = split_items(j["give"])
    get_cards, get_money = split_items(j["get"])
    moves = [(by, seat, card_id(c)) for c in give_cards] + [(seat, by, card_id(c)) for c in get_cards]
    insts = []
    for src, dst, c in moves:
        inst = q.inst(w, src, c)
        assert inst is not None
        cards.remove_card(w, src, inst, to_discard=False)
        insts.append((dst, inst))
    for dst, inst in insts:
        w.set_sx(dst, cards=(*w.sx[dst].cards, inst))
    w.add_cash(by, get_money - give_money)
    w.add_cash(seat, give_money - get_money)
    w.emit("traded", seat=by, other=seat, give=j["give"], get=j["get"])
    for s in (by, seat):  # §5.13 step 5
        cards.limit_check(w, s)
