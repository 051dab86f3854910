"""Danger situations with the five danger dice (spec §5.11), and the 5-6-player gem roll (§5.20),
as a mixin of ``ExpTable``.

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
from typing import TYPE_CHECKING, Any

from engines.afrikan_tahti.cards import card_id
from engines.afrikan_tahti.model import SLAVE_COAST_LOST_TURNS, Roll
from engines.afrikan_tahti.xdata import DNG, REROLLS
from engines.afrikan_tahti.xmodel import Job, Pass, Play, Reroll, RerollDone, Use, job

if TYPE_CHECKING:
    from engines.afrikan_tahti.xhost import Host

    _Base = Host
else:
    _Base = object

SURVIVAL_PRICE = 200
BRIBE_PRICE = 100
DANGER_SCOPES = ("any", "danger")


def success(dice: tuple[str, ...], requires: dict[str, int]) -> bool:
    counts = Counter(dice)
    return all(counts[face] >= n for face, n in requires.items())


class DangerMixin(_Base):
    def start_danger(self, seat: int, source: str, slave: bool) -> None:
        inst = self.draw_card("danger")
        if inst is None:
            self.emit("deck_empty", deck="danger")
            if slave:
                self.push(job("lose_turns", seat, n=SLAVE_COAST_LOST_TURNS, source="slave_coast", tried=()))
            return
        self.resolving.append(inst)
        self.emit("danger_card", seat=seat, card=inst, source=source,
                  requires=tuple(sorted(DNG[card_id(inst)]["requires"].items())))
        self.push(job("danger", seat, card=inst, stage="drawn", dice=(), source=source, slave=slave))

    def danger_options(self, seat: int) -> bool:
        return bool(self.rerolls(seat, DANGER_SCOPES)) or self.usable(seat, "dynamite", "a") is not None

    def answer_danger(self, j: Job, seat: int, action: Any) -> None:
        match action:
            case Roll():
                dice = self.roll_dice()
                self.stack[-1] = j.but(stage="rolled", dice=dice)
                self.emit("danger_dice", seat=seat, card=j["card"], dice=dice)
                self.danger_eval()
            case Play("bribe", _):
                self.play_own(seat, "bribe", None)
            case Use("dynamite", _):
                inst = self.inst(seat, "dynamite")
                assert inst is not None
                ko = job("danger_eval", seat) if j["stage"] == "rolled" else None
                self.announce(seat, inst, "a", ok=job("danger_pass", seat, reason="dynamite"), ko=ko, discard=True)
            case Reroll("doctor", dice):
                self.mark_used(seat, "@doctor")
                self.emit("card_used", seat=seat, card="doctor", ability="reroll_danger_dice", discard=False)
                self.reroll_top(seat, dice, "doctor")
                self.danger_eval()
            case Reroll(card, dice):
                inst = self.inst(seat, card)
                assert inst is not None
                self.announce(seat, inst, "p", ok=job("danger_reroll", seat, dice=dice, card=card),
                              ko=job("danger_eval", seat))
            case RerollDone():
                self.danger_fail()
            case Use(("medical_kit" | "survival") as card, _):
                self.stack.pop()
                inst = self.inst(seat, card)
                assert inst is not None
                cost = SURVIVAL_PRICE if card == "survival" else 0
                self.announce(seat, inst, "a", ok=job("penalty_cancel", seat, cost=cost, card=card),
                              discard=card == "medical_kit")
            case Pass():
                self.stack.pop()

    def reroll_top(self, seat: int, dice: tuple[int, ...], card: str) -> None:
        """Reroll dice (1-based indices) of the danger or duel roll on top of the stack."""
        top = self.stack[-1]
        key = "dice" if top.kind == "danger" else ("ddice" if top["stage"].startswith("defender") else "adice")
        faces = list(top[key])
        for d in dice:
            faces[d - 1] = self.danger_die()
        self.stack[-1] = top.but(**{key: tuple(faces)})
        self.emit("rerolled", seat=seat, card=card, dice=dice, result=tuple(faces))

    def job_danger_reroll(self, j: Job) -> None:
        self.reroll_top(j.seat, j["dice"], j["card"])
        self.danger_eval()

    def job_danger_eval(self, j: Job) -> None:
        self.danger_eval()

    def danger_eval(self) -> None:
        dj = self.stack[-1]
        assert dj.kind == "danger"
        if success(dj["dice"], DNG[card_id(dj["card"])]["requires"]):
            self.danger_pass("roll")
        elif not self.danger_options(dj.seat):
            self.danger_fail()

    def job_danger_pass(self, j: Job) -> None:
        self.danger_pass(j["reason"])

    def danger_pass(self, reason: str) -> None:
        dj = self.stack.pop()
        assert dj.kind == "danger"
        self.resolving.remove(dj["card"])
        self.discard_card("danger", dj["card"])
        self.emit("danger_passed", seat=dj.seat, card=dj["card"], reason=reason)
        if dj["slave"]:
            self.push(job("lose_turns", dj.seat, n=SLAVE_COAST_LOST_TURNS, source="slave_coast", tried=()))

    def danger_fail(self) -> None:
        dj = self.stack.pop()
        seat = dj.seat
        self.emit("danger_failed", seat=seat, card=dj["card"])
        # §5.11 step 7: the turn ends at once; what was queued for it is dropped
        self.stack.clear()
        self.move = None
        self.push(job("turn_over", seat))
        self.push(job("danger_discard", seat, card=dj["card"]))
        if dj["slave"]:
            self.push(job("lose_turns", seat, n=SLAVE_COAST_LOST_TURNS, source="slave_coast", tried=()))
        self.push(job("penalty", seat, card=card_id(dj["card"]), i=0))
        if self.usable(seat, "medical_kit", "a") or (self.usable(seat, "survival", "a")
                                                     and self.pawns[seat].cash >= SURVIVAL_PRICE):
            self.push(dj.but(stage="failed"))

    def job_danger_discard(self, j: Job) -> None:
        self.resolving.remove(j["card"])
        self.discard_card("danger", j["card"])

    def job_penalty(self, j: Job) -> None:
        effects = DNG[j["card"]]["penalty"]
        if j["i"] >= len(effects):
            return
        self.push(j.but(i=j["i"] + 1))
        self.apply_penalty(j.seat, effects[j["i"]], "danger")

    def job_penalty_cancel(self, j: Job) -> None:
        if j["cost"]:
            self.add_cash(j.seat, -j["cost"])
        if self.stack and self.stack[-1].kind == "penalty":
            self.stack.pop()
        self.emit("penalty_cancelled", seat=j.seat, card=j["card"], paid=j["cost"])

    # --- §5.20 the gem roll --------------------------------------------------------------------
    def gem_roll(self, seat: int) -> None:
        dice = self.roll_dice()
        gems = dice.count("gem")
        self.emit("gem_roll", seat=seat, dice=dice, gems=gems, success=gems >= 2)
        self.end_turn()
        if gems >= 2:
            self.draw_expedition(seat, "gem_roll")


__all__ = ["BRIBE_PRICE", "DANGER_SCOPES", "REROLLS", "SURVIVAL_PRICE", "DangerMixin", "success"]
