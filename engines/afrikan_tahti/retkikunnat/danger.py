"""Danger situations with the five danger dice (spec §5.11), and the 5-6-player gem roll (§5.20).

The situation is a ``danger`` prompt for the active player with a stage:

- ``drawn``: the card is shown; ``roll`` the dice, ``play bribe`` (pay 100, the card is discarded
  unresolved), or ``use dynamite`` (the card counts as passed);
- ``rolled``: the dice failed so far; ``reroll <card> <i,j>`` (each use announced, so it may be
  sabotaged), ``reroll doctor <i>`` (the Doctor's once per round), ``use dynamite``, or
  ``reroll_done`` to accept the failure. A success needs no answer: it is applied at once;
- ``failed``: ``use medical_kit`` or ``use survival`` (pay 200) cancel the penalty, ``pass`` takes it.

A failure ends the active player's turn at once: everything queued for the turn is dropped, the
penalty is applied (with Cook, First aid, the Doctor and the Explorer), the card is discarded.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engines.afrikan_tahti.model import (
    SLAVE_COAST_LOST_TURNS,
    AfrikanWork,
    Pass,
    Play,
    Reroll,
    RerollDone,
    Roll,
    Use,
)
from engines.afrikan_tahti.retkikunnat import cards, turn, windows
from engines.afrikan_tahti.retkikunnat import predicates as q
from engines.afrikan_tahti.retkikunnat.content import DNG, FACES, card_id
from engines.afrikan_tahti.retkikunnat.model import Job, job

SURVIVAL_PRICE = 200
BRIBE_PRICE = 100
DANGER_SCOPES = ("any", "danger")


def success(dice: tuple[str, ...], requires: dict[str, int]) -> bool:
    counts = Counter(dice)
    return all(counts[face] >= n for face, n in requires.items())


def danger_die(w: AfrikanWork) -> str:
    """One danger die (preset faces first)."""
    if w.ddice:
        face = w.ddice.pop(0)
        if face not in FACES:
            raise ValueError(f"preset danger die {face!r} is not a face")
        return face
    return w.rng("dd").choice(FACES)


def roll_dice(w: AfrikanWork, n: int = 5) -> tuple[str, ...]:
    return tuple(danger_die(w) for _ in range(n))


def start_danger(w: AfrikanWork, seat: int, source: str, slave: bool) -> None:
    inst = cards.draw_card(w, "danger")
    if inst is None:
        w.emit("deck_empty", deck="danger")
        if slave:
            w.push(job("lose_turns", seat, n=SLAVE_COAST_LOST_TURNS, source="slave_coast", tried=()))
        return
    w.resolving.append(inst)
    w.emit(
        "danger_card",
        seat=seat,
        card=inst,
        source=source,
        requires=tuple(sorted(DNG[card_id(inst)]["requires"].items())),
    )
    w.push(job("danger", seat, card=inst, stage="drawn", dice=(), source=source, slave=slave))


def danger_options(w: AfrikanWork, seat: int) -> bool:
    return bool(q.rerolls(w, seat, DANGER_SCOPES)) or q.usable(w, seat, "dynamite", "a") is not None


def answer_danger(w: AfrikanWork, j: Job, seat: int, action: Any) -> None:
    match action:
        case Roll():
            dice = roll_dice(w)
            w.stack[-1] = j.but(stage="rolled", dice=dice)
            w.emit("danger_dice", seat=seat, card=j["card"], dice=dice)
            danger_eval(w)
        case Play("bribe", _):
            windows.play_own(w, seat, "bribe", None)
        case Use("dynamite", _):
            inst = q.inst(w, seat, "dynamite")
            assert inst is not None
            ko = job("danger_eval", seat) if j["stage"] == "rolled" else None
            windows.announce(
                w, seat, inst, "a", ok=job("danger_pass", seat, reason="dynamite"), ko=ko, discard=True
            )
        case Reroll("doctor", dice):
            w.mark_used(seat, "@doctor")
            w.emit("card_used", seat=seat, card="doctor", ability="reroll_danger_dice", discard=False)
            reroll_top(w, seat, dice, "doctor")
            danger_eval(w)
        case Reroll(card, dice):
            inst = q.inst(w, seat, card)
            assert inst is not None
            windows.announce(
                w,
                seat,
                inst,
                "p",
                ok=job("danger_reroll", seat, dice=dice, card=card),
                ko=job("danger_eval", seat),
            )
        case RerollDone():
            danger_fail(w)
        case Use(("medical_kit" | "survival") as card, _):
            w.stack.pop()
            inst = q.inst(w, seat, card)
            assert inst is not None
            cost = SURVIVAL_PRICE if card == "survival" else 0
            windows.announce(
                w,
                seat,
                inst,
                "a",
                ok=job("penalty_cancel", seat, cost=cost, card=card),
                discard=card == "medical_kit",
            )
        case Pass():
            w.stack.pop()


def reroll_top(w: AfrikanWork, seat: int, dice: tuple[int, ...], card: str) -> None:
    """Reroll dice (1-based indices) of the danger or duel roll on top of the stack."""
    top = w.stack[-1]
    key = "dice" if top.kind == "danger" else ("ddice" if top["stage"].startswith("defender") else "adice")
    faces = list(top[key])
    for d in dice:
        faces[d - 1] = danger_die(w)
    w.stack[-1] = top.but(**{key: tuple(faces)})
    w.emit("rerolled", seat=seat, card=card, dice=dice, result=tuple(faces))


def job_danger_reroll(w: AfrikanWork, j: Job) -> None:
    reroll_top(w, j.seat, j["dice"], j["card"])
    danger_eval(w)


def job_danger_eval(w: AfrikanWork, j: Job) -> None:
    danger_eval(w)


def danger_eval(w: AfrikanWork) -> None:
    dj = w.stack[-1]
    assert dj.kind == "danger"
    if success(dj["dice"], DNG[card_id(dj["card"])]["requires"]):
        danger_pass(w, "roll")
    elif not danger_options(w, dj.seat):
        danger_fail(w)


def job_danger_pass(w: AfrikanWork, j: Job) -> None:
    danger_pass(w, j["reason"])


def danger_pass(w: AfrikanWork, reason: str) -> None:
    dj = w.stack.pop()
    assert dj.kind == "danger"
    w.resolving.remove(dj["card"])
    cards.discard_card(w, "danger", dj["card"])
    w.emit("danger_passed", seat=dj.seat, card=dj["card"], reason=reason)
    if dj["slave"]:
        w.push(job("lose_turns", dj.seat, n=SLAVE_COAST_LOST_TURNS, source="slave_coast", tried=()))


def danger_fail(w: AfrikanWork) -> None:
    dj = w.stack.pop()
    seat = dj.seat
    w.emit("danger_failed", seat=seat, card=dj["card"])
    # §5.11 step 7: the turn ends at once; what was queued for it is dropped
    w.stack.clear()
    w.move = None
    w.push(job("turn_over", seat))
    w.push(job("danger_discard", seat, card=dj["card"]))
    if dj["slave"]:
        w.push(job("lose_turns", seat, n=SLAVE_COAST_LOST_TURNS, source="slave_coast", tried=()))
    w.push(job("penalty", seat, card=card_id(dj["card"]), i=0))
    if q.usable(w, seat, "medical_kit", "a") or (
        q.usable(w, seat, "survival", "a") and w.pawns[seat].cash >= SURVIVAL_PRICE
    ):
        w.push(dj.but(stage="failed"))


def job_danger_discard(w: AfrikanWork, j: Job) -> None:
    w.resolving.remove(j["card"])
    cards.discard_card(w, "danger", j["card"])


def job_penalty(w: AfrikanWork, j: Job) -> None:
    effects = DNG[j["card"]]["penalty"]
    if j["i"] >= len(effects):
        return
    w.push(j.but(i=j["i"] + 1))
    cards.apply_penalty(w, j.seat, effects[j["i"]], "danger")


def job_penalty_cancel(w: AfrikanWork, j: Job) -> None:
    if j["cost"]:
        w.add_cash(j.seat, -j["cost"])
    if w.stack and w.stack[-1].kind == "penalty":
        w.stack.pop()
    w.emit("penalty_cancelled", seat=j.seat, card=j["card"], paid=j["cost"])


# --- §5.20 the gem roll --------------------------------------------------------------------
def gem_roll(w: AfrikanWork, seat: int) -> None:
    dice = roll_dice(w)
    gems = dice.count("gem")
    w.emit("gem_roll", seat=seat, dice=dice, gems=gems, success=gems >= 2)
    turn.end_turn(w)
    if gems >= 2:
        cards.draw_expedition(w, seat, "gem_roll")
