"""Majavajengi rules as plain functions: setup, check, candidates, perform, view, outcome.

A transition thaws the state into one :class:`MajavajengiWork`, the step functions below change it
(``draw(w)``, ``end_turn(w)``…) and it is frozen again. ``check`` reads the frozen state: it is the only
place that says what is legal, and ``candidates`` only lists what ``check`` then filters.

Reading order: the working copy, the steps of a round (deal, draw, reshuffle, end of turn, knock, end
of round), setup, check, candidates, perform, view.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engines.contract import Event, IllegalAction, Outcome, Seat, maker, rank_by, rng_for
from engines.majavajengi.model import (
    CANONICAL_DECK,
    DRAW2_NEXT,
    HOLDING,
    KIND,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OVER,
    POSITIONS,
    START,
    TURN_END,
    VALUE,
    Action,
    Discard,
    Draw,
    Draw2,
    End,
    Knock,
    MajavajengiOptions,
    MajavajengiSeatView,
    MajavajengiState,
    MajavajengiView,
    Next,
    Peek,
    Replace,
    Stop,
    Swap,
    Take,
    is_special,
    validate_options,
)
from engines.work import Work


class MajavajengiWork(Work[MajavajengiState]):
    """The state's fields as mutable values for the length of one transition. The preset decks are
    only read (``KEEP``); the piles, the finished rounds' scores and the totals hold immutable
    entries, so each is one list (``SHALLOW``): a copy per action used to thaw every card of the
    draw pile and every round's scores again."""

    KEEP = frozenset({"preset_decks"})
    SHALLOW = frozenset({"draw_pile", "discard", "round_scores", "totals"})

    seed: str
    ply: int
    players: int
    options: MajavajengiOptions
    rounds: int
    round: int
    start_seat: int
    turn: int
    phase: str
    draw_pile: list[str]
    discard: list[str]
    layouts: list[list[str]]
    held: str | None
    draw2_left: int
    in_draw2: bool
    knocker: int | None
    turns_taken: int
    last_lap_left: int | None
    known: list[list[list[str | None]]]
    round_scores: list[tuple[int, ...]]
    totals: list[int]
    preset_decks: tuple[tuple[str, ...], ...]


# ---------------------------------------------------------------------------------------------
# The steps of a round


def turn_up_discard(w: MajavajengiWork) -> tuple[str, ...]:
    """Turn the top of the draw pile onto the discard pile (spec §3.2 step 3); return the kinds of
    specials put back into the pile under ``initial_special_discard = redraw``."""
    redrawn: list[str] = []
    card = w.draw_pile.pop(0)
    while w.options.initial_special_discard == "redraw" and is_special(card):
        redrawn.append(KIND[card])
        # [decided] "a random position" excludes the top, so the next card is really a new one
        w.draw_pile.insert(w.rng("redraw").randint(1, len(w.draw_pile)), card)
        card = w.draw_pile.pop(0)
    w.discard.append(card)
    return tuple(redrawn)


def reshuffle(w: MajavajengiWork) -> None:
    """Spec §3.9: only called when a card must be drawn and the draw pile is empty."""
    # at least 41 cards are outside the layouts and the held card, and the draw pile is empty
    assert len(w.discard) >= 41, len(w.discard)
    if w.options.reshuffle == "keep_top":
        cards, w.discard = w.discard[:-1], w.discard[-1:]
    else:
        cards, w.discard = w.discard, []
    w.rng("reshuffle").shuffle(cards)
    w.draw_pile = cards
    redrawn: tuple[str, ...] = ()
    if w.options.reshuffle == "all":
        redrawn = turn_up_discard(w)
    w.emit(
        "reshuffled",
        draw_pile=len(w.draw_pile),
        discard_top=KIND[w.discard[-1]] if w.discard else None,
        discard_size=len(w.discard),
        redrawn=redrawn,
    )


def draw(w: MajavajengiWork) -> str:
    if not w.draw_pile:
        reshuffle(w)
    return w.draw_pile.pop(0)


def draw_held(w: MajavajengiWork, seat: int, in_draw2: bool) -> None:
    card = draw(w)
    w.held = card
    w.phase = HOLDING
    w.emit_pairs("drew", None, (("seat", seat), ("in_draw2", in_draw2)))
    w.emit_pairs("drew_card", seat, (("seat", seat), ("card", KIND[card])))


def start_round(w: MajavajengiWork, round_no: int, start_seat: int) -> None:
    """Spec §3.2: shuffle (or take the preset deck), deal in four passes, turn up the discard."""
    if round_no <= len(w.preset_decks):
        deck = list(w.preset_decks[round_no - 1])
    else:
        deck = list(CANONICAL_DECK)
        w.rng(f"deal{round_no}:").shuffle(deck)
    n = w.players
    layouts = [[""] * POSITIONS for _ in range(n)]
    i = 0
    for k in range(POSITIONS):
        for j in range(n):
            layouts[(start_seat + j) % n][k] = deck[i]
            i += 1
    w.layouts = layouts
    w.draw_pile = deck[i:]
    w.discard = []
    w.held = None
    redrawn = turn_up_discard(w)
    w.round = round_no
    w.start_seat = start_seat
    w.turn = start_seat
    w.phase = START
    w.knocker = None
    w.turns_taken = 0
    w.last_lap_left = None
    w.draw2_left = 0
    w.in_draw2 = False
    w.known = [[[None] * POSITIONS for _ in range(n)] for _ in range(n)]
    for s in range(n):
        for k in (0, POSITIONS - 1):
            w.known[s][s][k] = KIND[layouts[s][k]]
    w.emit(
        "round_started",
        round=round_no,
        rounds=w.rounds,
        start_seat=start_seat,
        discard_top=KIND[w.discard[-1]],
        draw_pile=len(w.draw_pile),
        redrawn=redrawn,
    )
    w.emit("dealt", round=round_no, seats=n, cards=POSITIONS)
    for s in range(n):
        w.emit(
            "dealt_cards",
            audience=s,
            seat=s,
            positions=(1, POSITIONS),
            cards=(KIND[layouts[s][0]], KIND[layouts[s][POSITIONS - 1]]),
        )


def end_round(w: MajavajengiWork) -> None:
    """Spec §4.1: reveal, replace specials in turn order, score, then next round or game over."""
    n = w.players
    w.emit("revealed", round=w.round, layouts=tuple(tuple(KIND[c] for c in row) for row in w.layouts))
    for j in range(n):
        s = (w.start_seat + j) % n
        for k in range(POSITIONS):
            special = w.layouts[s][k]
            if not is_special(special):
                continue
            drawn: list[str] = []
            while True:
                card = draw(w)
                drawn.append(KIND[card])
                if not is_special(card):
                    break
                w.discard.append(card)
            w.layouts[s][k] = card
            w.discard.append(special)
            w.emit("special_replaced", seat=s, pos=k + 1, removed=KIND[special], drawn=tuple(drawn))
    public: list[list[str | None]] = [[KIND[c] for c in row] for row in w.layouts]
    w.known = [[list(row) for row in public] for _ in range(n)]
    scores = tuple(sum(VALUE[KIND[c]] for c in row) for row in w.layouts)
    w.round_scores.append(tuple(scores))
    w.totals = [a + b for a, b in zip(w.totals, scores)]
    totals = tuple(w.totals)
    w.emit("round_scored", round=w.round, scores=scores, totals=totals)
    if w.round >= w.rounds:
        w.phase = OVER
        w.held = None
        w.draw2_left = 0
        w.in_draw2 = False
        out = outcome_of(totals, w.round_scores, w.options)
        w.emit("game_over", totals=totals, ranks=out.ranks, winners=out.winners)
        return
    if w.options.next_round_start == "knocker" and w.knocker is not None:
        start = w.knocker
    else:
        start = (w.start_seat + 1) % n
    start_round(w, w.round + 1, start)


def pass_turn(w: MajavajengiWork) -> None:
    # [decided] every finished turn emits turn_ended (after knocked, if any); next_seat is None when
    # the turn ended the round
    nxt = (w.turn + 1) % w.players
    w.emit_pairs("turn_ended", None, (("seat", w.turn), ("next_seat", nxt)))
    w.turn = nxt
    w.phase = START


def knock(w: MajavajengiWork, forced: bool) -> None:
    w.knocker = w.turn
    w.last_lap_left = w.players - 1
    w.emit("knocked", seat=w.turn, forced=forced, last_lap=w.last_lap_left)
    pass_turn(w)


def knock_allowed(knocker: int | None, turns_taken: int, players: int, options: MajavajengiOptions) -> bool:
    return knocker is None and (not options.knock_after_full_lap or turns_taken >= players)


def end_turn(w: MajavajengiWork) -> None:
    """Spec §3.10: everything after the last card action of a turn that needs no decision."""
    w.draw2_left = 0
    w.in_draw2 = False
    w.held = None
    w.turns_taken += 1
    if w.knocker is not None:
        assert w.last_lap_left is not None
        w.last_lap_left -= 1
        if w.last_lap_left == 0:
            w.emit("turn_ended", seat=w.turn, next_seat=None)
            end_round(w)
        else:
            pass_turn(w)
        return
    cap = w.options.round_turn_cap
    if cap and w.turns_taken >= cap:
        knock(w, forced=True)
    elif knock_allowed(w.knocker, w.turns_taken, w.players, w.options):
        w.phase = TURN_END
    else:
        pass_turn(w)


def after_power(w: MajavajengiWork) -> None:
    """After a used Peek or Swap: the Draw 2 ends, unless ``draw2_after_power = continues``."""
    if w.draw2_left and w.options.draw2_after_power == "continues":
        w.phase = DRAW2_NEXT
    else:
        end_turn(w)


def outcome_of(
    totals: tuple[int, ...], round_scores: Sequence[Sequence[int]], options: MajavajengiOptions
) -> Outcome:
    tiebreak = tuple(round_scores[-1]) if options.tiebreak == "last_round" and round_scores else None
    return rank_by(totals, low_wins=True, tiebreak=tiebreak)


# ---------------------------------------------------------------------------------------------
# Setup


def setup(
    players: int, seed: str, options: MajavajengiOptions, decks: tuple[tuple[str, ...], ...]
) -> tuple[MajavajengiState, tuple[Event, ...]]:
    """The first deal and its events; round r is dealt from ``decks[r - 1]`` where given (tests)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError("players must be 2-6")
    rounds = validate_options(options, players)
    if options.first_round_start == "host":
        start = options.first_start_seat
    else:
        start = rng_for(seed, 0, "first_start").randrange(players)
    blank = MajavajengiState(
        seed=seed,
        ply=0,
        players=players,
        options=options,
        rounds=rounds,
        round=0,
        start_seat=start,
        turn=start,
        phase=START,
        draw_pile=(),
        discard=(),
        layouts=(),
        held=None,
        draw2_left=0,
        in_draw2=False,
        knocker=None,
        turns_taken=0,
        last_lap_left=None,
        known=(),
        round_scores=(),
        totals=(0,) * players,
        preset_decks=decks,
    )
    w = MajavajengiWork(blank)
    start_round(w, 1, start)
    return w.freeze(), tuple(w.events)


# ---------------------------------------------------------------------------------------------
# Legality


#: why an action is refused: the reason code and its parameters (``IllegalAction(code, **params)``)
Refusal = tuple[str, dict[str, Any]]


def _bad_pos(pos: object) -> Refusal | None:
    if isinstance(pos, bool) or not isinstance(pos, int) or not 1 <= pos <= POSITIONS:
        return "bad_position", {"pos": pos if isinstance(pos, int) else None}
    return None


def _wrong_held(state: MajavajengiState, kind: str) -> Refusal | None:
    # [decided] own reason code; the held kind is not a parameter, so the reason may be shown anywhere
    assert state.held is not None
    if KIND[state.held] != kind:
        return "wrong_card", {"needed": kind}
    return None


def check(state: MajavajengiState, seat: Seat, action: Any) -> None:
    """Raise :class:`IllegalAction` with the reason code if ``seat`` may not take ``action`` now."""
    refused = refusal(state, seat, action)
    if refused is not None:
        raise IllegalAction(refused[0], **refused[1])


def refusal(state: MajavajengiState, seat: Seat, action: Any) -> Refusal | None:
    """Why :func:`check` refuses ``action`` (``None``: it does not). Returned, not raised: the legal
    actions filter every candidate through it, and a Swap's turn offers dozens that are refused."""
    if state.phase == OVER:
        return "game_over", {}
    if seat != state.turn:
        return "not_your_turn", {"turn": state.turn}
    phase = state.phase
    wrong_phase: Refusal = ("wrong_phase", {"phase": phase})
    # (isinstance tests rather than a match statement: a class pattern costs several times as much)
    if isinstance(action, Take):
        if phase != START:
            return wrong_phase
        refused = _bad_pos(action.pos)
        if refused is not None:
            return refused
        if not state.discard:
            return "discard_empty", {}
        if is_special(state.discard[-1]):
            return "discard_top_special", {"card": KIND[state.discard[-1]]}
        return None
    if isinstance(action, Draw):
        return wrong_phase if phase != START else None
    if isinstance(action, Replace):
        if phase != HOLDING:
            return wrong_phase
        refused = _bad_pos(action.pos)
        if refused is not None:
            return refused
        assert state.held is not None
        if is_special(state.held):
            return "special_cannot_be_placed", {}
        return None
    if isinstance(action, Discard):
        return wrong_phase if phase != HOLDING else None
    if isinstance(action, Peek):
        if phase != HOLDING:
            return wrong_phase
        return _wrong_held(state, "PEEK") or _bad_pos(action.pos)
    if isinstance(action, Swap):
        if phase != HOLDING:
            return wrong_phase
        refused = _wrong_held(state, "SWAP")
        if refused is not None:
            return refused
        other_seat = action.other_seat
        if other_seat == seat:
            return "own_seat", {}
        if (
            isinstance(other_seat, bool)
            or not isinstance(other_seat, int)
            or not 0 <= other_seat < state.players
        ):
            return "bad_seat", {"seat": other_seat if isinstance(other_seat, int) else None}
        return _bad_pos(action.own) or _bad_pos(action.other_pos)
    if isinstance(action, Draw2):
        if phase != HOLDING:
            return wrong_phase
        return _wrong_held(state, "DRAW2")
    if isinstance(action, (Next, Stop)):
        return wrong_phase if phase != DRAW2_NEXT else None
    if isinstance(action, Knock):
        # [decided] the most helpful reason first: already_knocked, knock_too_early, then phase
        if state.knocker is not None:
            return "already_knocked", {"knocker": state.knocker}
        # the turn being played counts as taken when it ends, where the knock happens
        taken = state.turns_taken + (0 if phase == TURN_END else 1)
        if not knock_allowed(None, taken, state.players, state.options):
            return "knock_too_early", {}
        return wrong_phase if phase != TURN_END else None
    if isinstance(action, End):
        return wrong_phase if phase != TURN_END else None
    return "unknown_action", {}


def legal_actions(state: MajavajengiState, seat: Seat) -> tuple[Action, ...]:
    """The candidates that pass :func:`check` (filtered by :func:`refusal`, nothing raised). They
    depend only on the state's :func:`legality_key`, so they are worked out once per key and kept."""
    if state.phase == OVER or seat != state.turn:
        return ()
    key = legality_key(state, seat)
    legal = _LEGAL.get(key)
    if legal is None:
        legal = tuple([a for a in candidates(state, seat) if refusal(state, seat, a) is None])
        if len(_LEGAL) >= 4096:
            _LEGAL.clear()
        _LEGAL[key] = legal
    return legal


def legality_key(state: MajavajengiState, seat: Seat) -> tuple[Any, ...]:
    """Everything :func:`candidates` and :func:`refusal` read for ``seat`` when it is the seat to act
    in a game still on, by phase: the discard pile's top (taking it), the held card's kind, the seat
    and the table's size (placing it, the targets of a swap), whether a knock is allowed."""
    phase = state.phase
    if phase == START:
        d = state.discard
        return (phase, bool(d), bool(d) and is_special(d[-1]))
    if phase == HOLDING:
        assert state.held is not None
        return (phase, KIND[state.held], seat, state.players)
    if phase == TURN_END:
        allowed = knock_allowed(state.knocker, state.turns_taken, state.players, state.options)
        return (phase, state.knocker is None, allowed)
    return (phase,)


#: legal actions by :func:`legality_key` (emptied when full)
_LEGAL: dict[tuple[Any, ...], tuple[Action, ...]] = {}


def candidates(state: MajavajengiState, seat: Seat) -> Iterable[Action]:
    """A superset of the legal actions (the engine filters it through :func:`check`)."""
    if state.phase == OVER or seat != state.turn:
        return ()
    positions = range(1, POSITIONS + 1)
    match state.phase:
        case "start":
            return (*(Take(p) for p in positions), Draw())
        case "holding":
            assert state.held is not None
            kind = KIND[state.held]
            if kind == "SWAP":
                return (
                    *(Swap(p, k, m) for p in positions for k in range(state.players) for m in positions),
                    Discard(),
                )
            if kind == "PEEK":
                return (*(Peek(p) for p in positions), Discard())
            if kind == "DRAW2":
                return (Draw2(), Discard())
            return (*(Replace(p) for p in positions), Discard())
        case "draw2_next":
            return (Next(), Stop())
        case _:
            return (Knock(), End())


# ---------------------------------------------------------------------------------------------
# Transitions


def apply(state: MajavajengiState, seat: Seat, action: Any) -> tuple[MajavajengiState, tuple[Event, ...]]:
    """Check, then perform (``Engine.apply``)."""
    check(state, seat, action)
    return perform(state, seat, action)


def perform(state: MajavajengiState, seat: Seat, action: Any) -> tuple[MajavajengiState, tuple[Event, ...]]:
    """Carry out an action that :func:`check` allowed."""
    w = MajavajengiWork(state)
    w.ply += 1
    n = w.players
    card: str | None  # a card id in every branch; the held card may be None until checked
    # (the commonest actions first: each class pattern tried costs about 450 machine instructions)
    match action:
        case Draw():
            draw_held(w, seat, in_draw2=False)
        case End():
            pass_turn(w)
        case Knock():
            knock(w, forced=False)
        case Take(pos):
            i = pos - 1
            card = w.discard.pop()
            removed = w.layouts[seat][i]
            w.layouts[seat][i] = card
            w.discard.append(removed)
            for o in range(n):
                w.known[o][seat][i] = KIND[card]
            w.emit("took_discard", seat=seat, card=KIND[card], pos=pos, removed=KIND[removed])
            end_turn(w)
        case Replace(pos):
            i = pos - 1
            card = w.held
            assert card is not None
            removed = w.layouts[seat][i]
            w.layouts[seat][i] = card
            w.held = None
            w.discard.append(removed)
            for o in range(n):
                w.known[o][seat][i] = KIND[card] if o == seat else None
            w.emit("replaced", seat=seat, pos=pos, removed=KIND[removed])
            w.emit("replaced_card", audience=seat, seat=seat, pos=pos, card=KIND[card])
            end_turn(w)
        case Discard():
            card = w.held
            assert card is not None
            w.held = None
            w.discard.append(card)
            w.emit("discarded", seat=seat, card=KIND[card])
            if w.draw2_left:
                w.phase = DRAW2_NEXT
            else:
                end_turn(w)
        case Peek(pos):
            assert w.held is not None
            w.discard.append(w.held)
            w.held = None
            card = w.layouts[seat][pos - 1]
            w.known[seat][seat][pos - 1] = KIND[card]
            w.emit("peeked", seat=seat, pos=pos)
            w.emit("peeked_card", audience=seat, seat=seat, pos=pos, card=KIND[card])
            after_power(w)
        case Swap(own, k, m):
            assert w.held is not None
            w.discard.append(w.held)
            w.held = None
            i, j = own - 1, m - 1
            w.layouts[seat][i], w.layouts[k][j] = w.layouts[k][j], w.layouts[seat][i]
            for o in range(n):
                row = w.known[o]
                row[seat][i], row[k][j] = row[k][j], row[seat][i]
            w.emit("swapped", seat=seat, pos=own, other_seat=k, other_pos=m)
            after_power(w)
        case Draw2():
            assert w.held is not None
            w.discard.append(w.held)
            w.held = None
            w.emit("draw2_used", seat=seat)
            w.in_draw2 = True
            w.draw2_left = 1
            draw_held(w, seat, in_draw2=True)
        case Next():
            w.draw2_left = 0
            draw_held(w, seat, in_draw2=True)
        case Stop():
            w.emit("draw2_stopped", seat=seat)
            end_turn(w)
        case _:
            raise IllegalAction("unknown_action")
    return w.freeze(), tuple(w.events)


# ---------------------------------------------------------------------------------------------
# Information


def view(state: MajavajengiState, seat: Seat | None) -> MajavajengiView:
    over = state.phase == OVER
    # [decided] rounds before the last are revealed only through the `revealed` event (the next
    # deal follows at once); the final layouts stay visible once the game is over
    if over:
        layouts: tuple[tuple[str | None, ...], ...] = tuple(
            tuple(KIND[c] for c in row) for row in state.layouts
        )
    else:
        layouts = ((None,) * POSITIONS,) * state.players
    public = (
        state.players,
        state.options,
        state.round,
        state.rounds,
        state.start_seat,
        None if over else state.turn,  # turn
        state.phase,
        len(state.draw_pile),  # draw_pile
        KIND[state.discard[-1]] if state.discard else None,  # discard_top
        len(state.discard),  # discard_size
        layouts,
        over,  # revealed
        state.knocker,
        state.last_lap_left,
        state.turns_taken,
        state.round_scores,
        state.totals,
        state.held is not None,  # holding
        state.in_draw2,  # draw2_active
        state.draw2_left,
    )
    if seat is None:
        return _view(*public)
    held = KIND[state.held] if state.held is not None and seat == state.turn else None
    return _seat_view(
        *public,
        seat,
        held,
        state.known[seat],  # known
        _discards(state.discard),
        _aware(state.known),
    )


# What a seat's view derives from the discard pile and the knowledge matrix, for the last pile and
# matrix shown (a working copy hands an unchanged field on as the same tuple, see engines/work.py):
# one slot each, replaced whole
_discards_of: list[tuple[tuple[str, ...], tuple[str, ...]]] = [((), ())]
_aware_of: list[tuple[Any, tuple[tuple[tuple[bool, ...], ...], ...]]] = [((), ())]


def _discards(discard: tuple[str, ...]) -> tuple[str, ...]:
    last = _discards_of[0]
    if last[0] is discard:
        return last[1]
    kinds = tuple([KIND[c] for c in discard])
    _discards_of[0] = (discard, kinds)
    return kinds


def _aware(known: tuple[tuple[tuple[str | None, ...], ...], ...]) -> tuple[tuple[tuple[bool, ...], ...], ...]:
    last = _aware_of[0]
    if last[0] is known:
        return last[1]
    aware = tuple([tuple([tuple([k is not None for k in row]) for row in rows]) for rows in known])
    _aware_of[0] = (known, aware)
    return aware


# the views by position, without the frozen classes' field-by-field __init__ (engines.contract.maker)
_view = maker(MajavajengiView)
_seat_view = maker(MajavajengiSeatView)


def outcome(state: MajavajengiState) -> Outcome | None:
    if state.phase != OVER:
        return None
    return outcome_of(state.totals, state.round_scores, state.options)


def hidden_tokens(state: MajavajengiState, seat: Seat | None) -> frozenset[str]:
    hidden = set(state.draw_pile)
    if state.held is not None and seat != state.turn:
        hidden.add(state.held)
    if state.phase != OVER:
        for row in state.layouts:
            hidden.update(row)
    return frozenset(hidden)
