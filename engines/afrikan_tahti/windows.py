"""Reaction windows and hand cards (spec §5.7, §5.8 step 1, §5.10), as a mixin of ``ExpTable``.

- :meth:`WindowsMixin.announce`: an expedition-card use is announced (event ``card_used``), the card is
  marked used, and a W1 *sabotage* window opens before the effect. The effect is a job (``ok``) run
  only if the card is still in its owner's expedition afterwards; otherwise ``ko`` runs (a sabotaged
  use is cancelled; a sabotaged reroll is not made).
- :meth:`WindowsMixin.hand_play`: a hand card is played face up (event ``hand_card_played``), goes
  to ``resolving`` and opens a W2 *gotcha* window; its effect job runs only if it is still there.
- A window prompts every eligible player who holds a hand card (hand counts are public), whether or
  not he holds an answering card: each answers ``pass`` or ``play <card>``. The first card played
  closes the window for the others.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engines.afrikan_tahti.board import TREASURE_PLACES
from engines.afrikan_tahti.cards import card_id
from engines.afrikan_tahti.model import content_id
from engines.afrikan_tahti.xdata import ACTIVE, EXP
from engines.afrikan_tahti.xmodel import Job, Pass, Play, job

if TYPE_CHECKING:
    from engines.afrikan_tahti.xhost import Host

    _Base = Host
else:
    _Base = object


class WindowsMixin(_Base):
    # --- announcements ---------------------------------------------------------------------------
    def announce(self, seat: int, inst: str, kind: str, ok: Job | None, ko: Job | None = None,
                 discard: bool = False) -> None:
        card = card_id(inst)
        self.mark_used(seat, f"{inst}:{kind}")
        self.emit("card_used", seat=seat, card=inst, ability=_ability(card, kind), discard=discard)
        self.push(job("use_then", seat, card=inst, discard=discard, ok=ok, ko=ko))
        self.open_window("sabotage", seat, inst, (seat,))

    def job_use_then(self, j: Job) -> None:
        seat, inst = j.seat, j["card"]
        if inst not in self.sx[seat].cards:
            self.emit("use_cancelled", seat=seat, card=inst)
            if j["ko"] is not None:
                self.push(j["ko"])
            return
        if j["discard"]:
            self.remove_card(seat, inst)
            self.emit("card_discarded", seat=seat, card=inst, amount=0, reason="used")
        if j["ok"] is not None:
            self.push(j["ok"])

    # --- windows --------------------------------------------------------------------------------
    def open_window(self, kind: str, owner: int, card: str | None, exclude: tuple[int, ...],
                    target: str | None = None) -> None:
        seats = self.window_seats(kind, exclude)
        if not seats:
            return
        self.push(job("window", owner, kind=kind, card=card, eligible=seats, answered=(), target=target))
        self.emit("window", kind=kind, seats=seats, owner=owner, card=card, target=target)

    def answer_window(self, j: Job, seat: int, action: Any) -> None:
        match action:
            case Pass():
                answered = (*j["answered"], seat)
                if set(answered) >= set(j["eligible"]):
                    self.stack.pop()
                    self.emit("window_closed", kind=j["kind"], card=j["card"], answered_by=None)
                else:
                    self.stack[-1] = j.but(answered=answered)
            case Play(card, _arg):
                self.stack.pop()
                self.emit("window_closed", kind=j["kind"], card=j["card"], answered_by=seat)
                hinst = self.hand_inst(seat, card)
                assert hinst is not None
                kind = j["kind"]
                if kind == "sabotage":
                    self.hand_play(seat, hinst, job("sabotage", seat, card=hinst, target=j["card"], owner=j.seat),
                                   target=j["card"])
                elif kind == "gotcha":
                    self.hand_play(seat, hinst, job("gotcha", seat, card=hinst, target=j["card"]),
                                   target=j["card"])
                else:
                    self.hand_play(seat, hinst, job("rescue", seat, card=hinst), target=None)

    # --- hand cards ------------------------------------------------------------------------------
    def hand_play(self, seat: int, hinst: str, effect: Job, target: str | None) -> None:
        self.set_sx(seat, hand=tuple(h for h in self.sx[seat].hand if h != hinst))
        self.resolving.append(hinst)
        self.emit("hand_card_played", seat=seat, card=hinst, target=target, hand=len(self.sx[seat].hand))
        self.push(effect)
        self.open_window("gotcha", seat, hinst, (seat,), target)

    def hand_alive(self, j: Job) -> bool:
        """The played hand card was not cancelled: it goes to the event discard pile now."""
        inst = j["card"]
        if inst not in self.resolving:
            return False
        self.resolving.remove(inst)
        self.discard_card("event", inst)
        return True

    def job_gotcha(self, j: Job) -> None:
        if self.hand_alive(j) and j["target"] in self.resolving:
            self.resolving.remove(j["target"])
            self.discard_card("event", j["target"])
            self.emit("hand_card_cancelled", card=j["target"], by=j.seat)

    def job_sabotage(self, j: Job) -> None:
        owner, target = j["owner"], j["target"]
        if self.hand_alive(j) and target in self.sx[owner].cards:
            self.emit("sabotaged", seat=j.seat, owner=owner, card=target)
            self.lose_card(owner, target, "sabotage")

    def job_rescue(self, j: Job) -> None:
        if not self.hand_alive(j):
            return
        for k in range(len(self.stack) - 1, -1, -1):
            if self.stack[k].kind == "duel_apply":
                d = self.stack[k]
                self.stack[k] = replace(d, kind="duel_void")
                self.emit("duel_rescued", seat=j.seat, attacker=d["attacker"], defender=d["defender"])
                return

    def job_hand_move(self, j: Job) -> None:
        if self.hand_alive(j):
            self.start_move(j.seat, "hand", j["terrain"], False, 3)
            self.offer_move(j.seat)

    def job_bribe(self, j: Job) -> None:
        if not self.hand_alive(j):
            return
        dj = self.stack[-1]
        assert dj.kind == "danger"
        self.add_cash(j.seat, -100)
        self.emit("bribed", seat=j.seat, card=dj["card"], paid=100)
        self.danger_pass("bribe")

    def job_surprise(self, j: Job) -> None:
        """Yllätys! (§5.18): the revealed token goes face down where the chosen top token lay; that
        token is revealed and resolved instead, as if at the place of the flip."""
        seat, tid, place, target = j.seat, j["tid"], j["place"], j["target"]
        if not self.hand_alive(j):
            self.push(job("token", seat, tid=tid, place=place))
            return
        i = TREASURE_PLACES.index(target)
        other = self.stacks[i][-1]
        self.stacks = (*self.stacks[:i], (*self.stacks[i][:-1], tid), *self.stacks[i + 1:])
        self.known.append(tid)
        self.revealed = [r for r in self.revealed if r[0] != tid] + [(other, place)]
        kind = self.kind(other)
        self.emit("surprise", seat=seat, token=content_id(tid, self.kind(tid)), target=target,
                  revealed=content_id(other, kind), kind=kind, place=place)
        self.push(job("token", seat, tid=other, place=place))

    def answer_reveal(self, j: Job, seat: int, action: Any) -> None:
        self.stack.pop()
        match action:
            case Play("surprise", target):
                hinst = self.hand_inst(seat, "surprise")
                assert hinst is not None
                self.hand_play(seat, hinst, job("surprise", seat, card=hinst, tid=j["tid"], place=j["place"],
                                                target=target), target=target)
            case _:
                self.push(job("token", seat, tid=j["tid"], place=j["place"]))

    def play_own(self, seat: int, card: str, arg: str | None) -> None:
        """A hand card played on the owner's own initiative (Phase 2 moves, proactive Sabotage)."""
        hinst = self.hand_inst(seat, card)
        assert hinst is not None
        if card == "sabotage":
            assert arg is not None
            owner_word, _, target_card = arg.partition(":")
            owner = int(owner_word[4:])
            target = self.inst(owner, target_card)
            self.hand_play(seat, hinst, job("sabotage", seat, card=hinst, target=target, owner=owner), target=target)
        elif card in ("forced_march", "tailwind"):
            terrain = "land" if card == "forced_march" else "sea"
            self.hand_play(seat, hinst, job("hand_move", seat, card=hinst, terrain=terrain), target=None)
        elif card == "bribe":
            self.hand_play(seat, hinst, job("bribe", seat, card=hinst), target=self.stack[-1]["card"])


def _ability(card: str, kind: str) -> str:
    if kind == "a":
        return ACTIVE.get(card, "")
    for ab in EXP[card]["abilities"]:
        if ab["use"] == "passive":
            return str(ab["effects"][0]["effect"])
    return ""
