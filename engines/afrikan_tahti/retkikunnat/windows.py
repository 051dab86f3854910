"""Reaction windows and hand cards (spec §5.7, §5.8 step 1, §5.10).

- :func:`announce`: an expedition-card use is announced (event ``card_used``), the card is marked
  used, and a W1 *sabotage* window opens before the effect. The effect is a job (``ok``) run only
  if the card is still in its owner's expedition afterwards; otherwise ``ko`` runs (a sabotaged use
  is cancelled; a sabotaged reroll is not made).
- :func:`hand_play`: a hand card is played face up (event ``hand_card_played``), goes to
  ``resolving`` and opens a W2 *gotcha* window; its effect job runs only if it is still there.
- After a flip the flipper gets the *reveal* moment (Surprise!, §5.18), a window of one seat.

Windows keep secrets without stalling (issue 17)
-------------------------------------------------

The rule: **what the table does is a function of public information and of the players' own
inputs only, never of which cards a hand holds.** Then the group learns from the table's behaviour
nothing beyond what is public anyway (hand counts, cards played face up, the discard piles) and what
each player chooses to show by his own answers. Concretely:

1. *Who is asked* (:func:`~.predicates.window_seats`): every eligible seat that holds any hand card
   (the count is public) and whose setting asks it, whether or not it holds an answering card;
   nobody when every copy of the answering cards lies face up. The reveal moment likewise asks the
   flipper whenever he holds a hand card, Surprise! or not. A seat is never skipped because of what
   it holds.
2. *Each seat's setting* (``SeatX.ask``, private, action ``ask <mode>``): ``all`` (the default),
   ``never`` (pass for me at once) or one hand card id ("ask me only for Sabotage"): a window that
   card does not answer passes for the seat at once. The setting is the player's own standing
   answer, like a "pass" typed in advance; the bot never changes it from the hand.
3. *Silence*: the chat layer answers for a seat whose window time ran out with ``lapse`` (never a
   button); two lapses in a row set the seat to ``never`` and tell only that seat (private event
   ``window_muted``), and an answer of its own (pass, play, ask) resets the count. Lapses depend
   only on whether the seat answered, so a table of people who never tap stops being asked after
   their second window each, whatever they hold.
4. *Length* (chat layer, ``buttons.deadline``): a window lasts the same fixed time for everyone,
   counted from its opening (``PromptView.opened``; a pass does not extend it), and ends early only
   when every asked seat has answered, by its own tap or setting, or when a card is played (which
   is public anyway).

So an observer sees, for each window, who was asked (a function of public hand counts and of
settings the players chose themselves), when each answered (their own taps), and any card played.
Two tables that differ only in which cards the hands hold, given the same inputs, produce the same
messages at the same times (tested in tests/engines/test_afrikan_tahti_windows.py).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engines.afrikan_tahti.board import TREASURE_PLACES
from engines.afrikan_tahti.model import AfrikanWork, Ask, Lapse, Pass, Play, content_id
from engines.afrikan_tahti.retkikunnat import cards, danger, turn
from engines.afrikan_tahti.retkikunnat import predicates as q
from engines.afrikan_tahti.retkikunnat.content import ACTIVE, EXP, card_id
from engines.afrikan_tahti.retkikunnat.model import Job, job


# --- announcements ---------------------------------------------------------------------------
def announce(
    w: AfrikanWork,
    seat: int,
    inst: str,
    kind: str,
    ok: Job | None,
    ko: Job | None = None,
    discard: bool = False,
) -> None:
    card = card_id(inst)
    w.mark_used(seat, f"{inst}:{kind}")
    w.emit("card_used", seat=seat, card=inst, ability=_ability(card, kind), discard=discard)
    w.push(job("use_then", seat, card=inst, discard=discard, ok=ok, ko=ko))
    open_window(w, "sabotage", seat, inst, (seat,))


def job_use_then(w: AfrikanWork, j: Job) -> None:
    seat, inst = j.seat, j["card"]
    if inst not in w.sx[seat].cards:
        w.emit("use_cancelled", seat=seat, card=inst)
        if j["ko"] is not None:
            w.push(j["ko"])
        return
    if j["discard"]:
        cards.remove_card(w, seat, inst)
        w.emit("card_discarded", seat=seat, card=inst, amount=0, reason="used")
    if j["ok"] is not None:
        w.push(j["ok"])


# --- windows --------------------------------------------------------------------------------
def open_window(
    w: AfrikanWork,
    kind: str,
    owner: int,
    card: str | None,
    exclude: tuple[int, ...],
    target: str | None = None,
    loser: int | None = None,
) -> None:
    seats = q.window_seats(w, kind, exclude)
    if not seats:
        return
    w.push(
        job(
            "window",
            owner,
            kind=kind,
            card=card,
            eligible=seats,
            answered=(),
            target=target,
            opened=w.ply,
            loser=loser,
        )
    )
    w.emit("window", kind=kind, seats=seats, owner=owner, card=card, target=target)


def set_ask(w: AfrikanWork, seat: int, mode: str) -> None:
    """The seat's standing window setting (private event ``window_setting``); its own answer, so
    the run of lapses starts again."""
    w.set_sx(seat, ask=mode, lapses=0)
    w.emit("window_setting", seat, seat=seat, mode=mode)


def note_answer(w: AfrikanWork, seat: int, action: Any) -> None:
    """Count lapses (a window the seat let run out); two in a row set ``ask never``."""
    if isinstance(action, Lapse):
        lapses = w.sx[seat].lapses + 1
        w.set_sx(seat, lapses=lapses)
        if lapses >= 2 and w.sx[seat].ask != "never":
            w.set_sx(seat, ask="never", lapses=0)
            w.emit("window_muted", seat, seat=seat)
    elif isinstance(action, Ask):
        set_ask(w, seat, action.mode)
    else:
        w.set_sx(seat, lapses=0)


def answer_window(w: AfrikanWork, j: Job, seat: int, action: Any) -> None:
    note_answer(w, seat, action)
    match action:
        case Pass() | Lapse() | Ask():
            answered = (*j["answered"], seat)
            if set(answered) >= set(j["eligible"]):
                w.stack.pop()
                w.emit("window_closed", kind=j["kind"], card=j["card"], answered_by=None)
            else:
                w.stack[-1] = j.but(answered=answered)
        case Play(card, _arg):
            w.stack.pop()
            w.emit("window_closed", kind=j["kind"], card=j["card"], answered_by=seat)
            hinst = q.hand_inst(w, seat, card)
            assert hinst is not None
            kind = j["kind"]
            if kind == "sabotage":
                hand_play(
                    w,
                    seat,
                    hinst,
                    job("sabotage", seat, card=hinst, target=j["card"], owner=j.seat),
                    target=j["card"],
                )
            elif kind == "gotcha":
                hand_play(w, seat, hinst, job("gotcha", seat, card=hinst, target=j["card"]), target=j["card"])
            else:
                hand_play(w, seat, hinst, job("rescue", seat, card=hinst), target=None)


# --- hand cards ------------------------------------------------------------------------------
def hand_play(w: AfrikanWork, seat: int, hinst: str, effect: Job, target: str | None) -> None:
    w.set_sx(seat, hand=tuple(h for h in w.sx[seat].hand if h != hinst))
    w.resolving.append(hinst)
    w.emit("hand_card_played", seat=seat, card=hinst, target=target, hand=len(w.sx[seat].hand))
    w.push(effect)
    open_window(w, "gotcha", seat, hinst, (seat,), target)


def hand_alive(w: AfrikanWork, j: Job) -> bool:
    """The played hand card was not cancelled: it goes to the event discard pile now."""
    inst = j["card"]
    if inst not in w.resolving:
        return False
    w.resolving.remove(inst)
    cards.discard_card(w, "event", inst)
    return True


def job_gotcha(w: AfrikanWork, j: Job) -> None:
    if hand_alive(w, j) and j["target"] in w.resolving:
        w.resolving.remove(j["target"])
        cards.discard_card(w, "event", j["target"])
        w.emit("hand_card_cancelled", card=j["target"], by=j.seat)


def job_sabotage(w: AfrikanWork, j: Job) -> None:
    owner, target = j["owner"], j["target"]
    if hand_alive(w, j) and target in w.sx[owner].cards:
        w.emit("sabotaged", seat=j.seat, owner=owner, card=target)
        cards.lose_card(w, owner, target, "sabotage")


def job_rescue(w: AfrikanWork, j: Job) -> None:
    if not hand_alive(w, j):
        return
    for k in range(len(w.stack) - 1, -1, -1):
        if w.stack[k].kind == "duel_apply":
            d = w.stack[k]
            w.stack[k] = replace(d, kind="duel_void")
            w.emit("duel_rescued", seat=j.seat, attacker=d["attacker"], defender=d["defender"])
            return


def job_hand_move(w: AfrikanWork, j: Job) -> None:
    if hand_alive(w, j):
        turn.start_move(w, j.seat, "hand", j["terrain"], False, 3)
        turn.offer_move(w, j.seat)


def job_bribe(w: AfrikanWork, j: Job) -> None:
    if not hand_alive(w, j):
        return
    dj = w.stack[-1]
    assert dj.kind == "danger"
    w.add_cash(j.seat, -100)
    w.emit("bribed", seat=j.seat, card=dj["card"], paid=100)
    danger.danger_pass(w, "bribe")


def job_surprise(w: AfrikanWork, j: Job) -> None:
    """Yllätys! (§5.18): the revealed token goes face down where the chosen top token lay; that
    token is revealed and resolved instead, as if at the place of the flip."""
    seat, tid, place, target = j.seat, j["tid"], j["place"], j["target"]
    if not hand_alive(w, j):
        w.push(job("token", seat, tid=tid, place=place))
        return
    i = TREASURE_PLACES.index(target)
    stacks = w.stacks
    other = stacks[i][-1]
    w.stacks = (*stacks[:i], (*stacks[i][:-1], tid), *stacks[i + 1 :])
    w.known.append(tid)
    w.revealed = (*(r for r in w.revealed if r[0] != tid), (other, place))
    kind = w.kind(other)
    w.emit(
        "surprise",
        seat=seat,
        token=content_id(tid, w.kind(tid)),
        target=target,
        revealed=content_id(other, kind),
        kind=kind,
        place=place,
    )
    w.push(job("token", seat, tid=other, place=place))


def answer_reveal(w: AfrikanWork, j: Job, seat: int, action: Any) -> None:
    note_answer(w, seat, action)
    w.stack.pop()
    match action:
        case Play("surprise", target):
            hinst = q.hand_inst(w, seat, "surprise")
            assert hinst is not None
            hand_play(
                w,
                seat,
                hinst,
                job("surprise", seat, card=hinst, tid=j["tid"], place=j["place"], target=target),
                target=target,
            )
        case _:
            w.push(job("token", seat, tid=j["tid"], place=j["place"]))


def play_own(w: AfrikanWork, seat: int, card: str, arg: str | None) -> None:
    """A hand card played on the owner's own initiative (Phase 2 moves, proactive Sabotage)."""
    hinst = q.hand_inst(w, seat, card)
    assert hinst is not None
    if card == "sabotage":
        assert arg is not None
        owner_word, _, target_card = arg.partition(":")
        owner = int(owner_word[4:])
        target = q.inst(w, owner, target_card)
        hand_play(
            w, seat, hinst, job("sabotage", seat, card=hinst, target=target, owner=owner), target=target
        )
    elif card in ("forced_march", "tailwind"):
        terrain = "land" if card == "forced_march" else "sea"
        hand_play(w, seat, hinst, job("hand_move", seat, card=hinst, terrain=terrain), target=None)
    elif card == "bribe":
        hand_play(w, seat, hinst, job("bribe", seat, card=hinst), target=w.stack[-1]["card"])


def _ability(card: str, kind: str) -> str:
    if kind == "a":
        return ACTIVE.get(card, "")
    for ab in EXP[card]["abilities"]:
        if ab["use"] == "passive":
            return str(ab["effects"][0]["effect"])
    return ""
