"""Coloretto Amazonas rules (spec sections 3-6): setup, turn order, legality, transitions, views,
scoring.

Legality is written once, in :func:`check`; :func:`legal_actions` filters :func:`candidates`
through it. A transition is :func:`perform`: it thaws the state into one :class:`ColorettoWork`,
applies the action with the plain functions below it (``_place``, ``_draw_and_pass`` …) and freezes
the result. Nothing here draws a random number after setup: the shuffle and the start seat are the
only chance in the game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from engines.coloretto_amazonas.model import (
    CANONICAL_DECK,
    CAPACITY,
    CODEC,
    COLOURS,
    END_DECK,
    END_HANDS,
    END_STACKS,
    GIFT,
    HAND_SIZE,
    KIND_SET,
    KINDS,
    NEIGHBOURS,
    OVER,
    ROW_INDEX,
    TURN,
    Accept,
    Action,
    Gift,
    GiftView,
    Give,
    Options,
    Play,
    PrivateView,
    PublicView,
    Refuse,
    RowView,
    SeatState,
    SeatView,
    State,
    colour_of,
    kind_of,
    normalise_deck,
    protection_in_play,
    sort_hand,
    stacks_needed,
)
from engines.contract import Event, IllegalAction, Outcome, Seat, ev, rank_by, rng_for
from engines.work import Work

# ---------------------------------------------------------------------------------------------
# Reading the state


def row_of(seat_state: SeatState, colour: str) -> tuple[str, ...]:
    return seat_state.rows[ROW_INDEX[colour]]


def row_kinds(row: Iterable[str]) -> tuple[str, ...]:
    return tuple(card[:2] for card in row)


def card_in(cards: Iterable[str], kind: str) -> str | None:
    """The first card of ``kind`` in ``cards``: in a hand, the copy held longest."""
    for card in cards:
        if card[:2] == kind:
            return card
    return None


def without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def with_row(seat_state: SeatState, colour: str, row: tuple[str, ...]) -> SeatState:
    i = ROW_INDEX[colour]
    rows = seat_state.rows
    return replace(seat_state, rows=(*rows[:i], row, *rows[i + 1 :]))


def may_refuse(seat_state: SeatState, kind: str) -> str | None:
    """None if the receiver may refuse a gift of ``kind``, else the reason code (§3.6)."""
    colour = colour_of(kind)
    if card_in(row_of(seat_state, colour), kind) is None:
        return "refuse_no_duplicate"
    if not any(row_of(seat_state, n) for n in NEIGHBOURS[colour]):
        return "refuse_no_neighbour"
    return None


def seat_score(seat_state: SeatState, options: Options) -> int:
    table = options.score_table
    total = sum(table[len(row)] for row in seat_state.rows)
    total += sum(table[len(stack)] for stack in seat_state.stacks)
    total += sum(options.bonus_values[ROW_INDEX[c]] for c in seat_state.bonuses)
    return total


def scores(seats: Sequence[SeatState], options: Options) -> tuple[int, ...]:
    return tuple(seat_score(s, options) for s in seats)


def claimed_bonuses(seats: Sequence[SeatState]) -> frozenset[str]:
    return frozenset(b for s in seats for b in s.bonuses)


def final_outcome(seats: Sequence[SeatState], options: Options) -> Outcome:
    tiebreak = None
    if options.tiebreak == "most_stacks":
        tiebreak = tuple(-len(s.stacks) for s in seats)
    return rank_by(scores(seats, options), low_wins=False, tiebreak=tiebreak)


def to_act(state: State) -> tuple[Seat, ...]:
    if state.phase == OVER:
        return ()
    if state.phase == GIFT:
        assert state.gift is not None
        return (state.gift.receiver,)
    return (state.active,)


# ---------------------------------------------------------------------------------------------
# Setup


def setup(players: int, seed: str, options: Options, deck: Sequence[str] | None = None) -> State:
    """Shuffle (or take the test deck), pick the start seat and deal three cards each (§3.1)."""
    if deck is None:
        cards = list(CANONICAL_DECK)
        rng_for(seed, 0, "deck").shuffle(cards)
    else:
        cards = normalise_deck(deck)
    sp = options.start_player
    if sp == "random":
        start = rng_for(seed, 0, "start").randrange(players)
    elif sp == "host":
        start = 0
    else:
        start = int(sp[4:])
        if start >= players:
            raise ValueError("start_player: no such seat")
    hands: list[list[str]] = [[] for _ in range(players)]
    top = 0
    for _ in range(HAND_SIZE):
        for step in range(players):
            if top < len(cards):
                hands[(start + step) % players].append(cards[top])
                top += 1
    state = State(
        seed=seed,
        ply=0,
        players=players,
        options=options,
        stacks_to_end=stacks_needed(options, players),
        protection_mode=protection_in_play(options, players),
        start_seat=start,
        deck=tuple(cards[top:]),
        seats=tuple(SeatState(hand=tuple(h)) for h in hands),
        active=start,
    )
    if not state.seats[start].hand:
        w = ColorettoWork(state, quiet=True)
        _pass_turn(w, start)
        state = w.freeze()
    return state


def start_events(state: State) -> tuple[Event, ...]:
    """The events of setup: public, then each hand privately."""
    out = [
        ev(
            "game_started",
            players=state.players,
            start_seat=state.start_seat,
            deck_count=len(state.deck),
            hand_sizes=tuple(len(s.hand) for s in state.seats),
            stacks_to_end=state.stacks_to_end,
            protection_mode=state.protection_mode,
        )
    ]
    out += [ev("game_started", audience=i, seat=i, hand=sort_hand(s.hand)) for i, s in enumerate(state.seats)]
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Legality


def candidates(state: State, seat: Seat) -> list[Action]:
    """Every action :func:`check` might allow ``seat`` now (kinds in its hand, seats at the table)."""
    if seat not in to_act(state):
        return []
    if state.phase == GIFT:
        assert state.gift is not None
        me = state.seats[seat]
        out: list[Action] = [Accept()]
        for colour in NEIGHBOURS[colour_of(state.gift.card)]:
            out += [Refuse(k) for k in sorted(set(row_kinds(row_of(me, colour))), key=KINDS.index)]
        return out
    kinds = sorted(set(row_kinds(state.seats[seat].hand)), key=KINDS.index)
    out = [Play(k) for k in kinds]
    out += [Give(k, n) for k in kinds for n in range(state.players) if n != seat]
    return out


def check(state: State, seat: Seat, action: object) -> None:
    """Raise :class:`IllegalAction` with the reason code if ``seat`` may not take ``action`` now."""
    if state.phase == OVER:
        raise IllegalAction("game_over")
    if seat not in to_act(state):
        raise IllegalAction("not_your_turn", seat=seat, to_act=to_act(state))
    me = state.seats[seat]
    match action:
        case Play(kind=kind):
            if state.phase != TURN:
                raise IllegalAction("gift_pending")
            if card_in(me.hand, kind) is None:
                raise IllegalAction("not_in_hand", kind=kind)
        case Give(kind=kind, to=to):
            if state.phase != TURN:
                raise IllegalAction("gift_pending")
            if card_in(me.hand, kind) is None:
                raise IllegalAction("not_in_hand", kind=kind)
            if to == seat:
                raise IllegalAction("give_self")
            if not 0 <= to < state.players:
                raise IllegalAction("no_such_seat", seat=to)
            if state.protection == to:
                if state.protection_mode == "receiver":
                    raise IllegalAction("protected", seat=to)
                if state.protection_mode == "refuser" and card_in(
                    row_of(state.seats[to], colour_of(kind)), kind
                ):
                    raise IllegalAction("protected", seat=to, kind=kind)
        case Accept():
            if state.phase != GIFT:
                raise IllegalAction("no_gift")
        case Refuse(remove=remove):
            if state.phase != GIFT or state.gift is None:
                raise IllegalAction("no_gift")
            kind = kind_of(state.gift.card)
            reason = may_refuse(me, kind)
            if reason is not None:
                raise IllegalAction(reason, kind=kind)
            if remove not in KIND_SET or colour_of(remove) not in NEIGHBOURS[colour_of(kind)]:
                raise IllegalAction("not_neighbour", kind=kind, remove=remove)
            if card_in(row_of(me, colour_of(remove)), remove) is None:
                raise IllegalAction("not_in_row", remove=remove)
        case _:
            raise IllegalAction("unknown_action")


def legal_actions(state: State, seat: Seat) -> tuple[Action, ...]:
    out = []
    for action in candidates(state, seat):
        try:
            check(state, seat, action)
        except IllegalAction:
            continue
        out.append(action)
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Transitions


class ColorettoWork(Work[State]):
    """The state being changed by one action; seats stay frozen ``SeatState`` values, replaced whole."""

    seed: str
    ply: int
    players: int
    options: Options
    stacks_to_end: int
    protection_mode: str
    start_seat: Seat
    deck: list[str]
    seats: list[SeatState]
    discard: list[str]
    active: Seat
    phase: str
    gift: Gift | None
    protection: Seat | None
    end_reason: str | None
    ender: Seat | None


def perform(state: State, seat: Seat, action: object) -> tuple[State, tuple[Event, ...]]:
    """Carry out an action already known to be legal; ``ply`` goes up by one."""
    w = ColorettoWork(state)
    act(w, seat, action)
    w.ply += 1
    return w.freeze(), tuple(w.events)


def act(w: ColorettoWork, seat: Seat, action: object) -> None:
    """The action's changes on a working copy (the strong AI's rollouts call it on quiet copies)."""
    match action:
        case Play(kind=kind):
            card = _take_from_hand(w, seat, kind)
            w.emit("played", seat=seat, kind=kind, card=card)
            _place(w, seat, card)
            if w.phase != OVER:
                _draw_and_pass(w, seat)
        case Give(kind=kind, to=to):
            card = _take_from_hand(w, seat, kind)
            pending = may_refuse(w.seats[to], kind) is None
            w.emit("gave", seat=seat, receiver=to, kind=kind, card=card, pending=pending)
            if w.protection_mode == "receiver" and w.protection != to:
                w.emit("protection_moved", seat=to, previous=w.protection)
                w.protection = to
            if pending:
                w.phase, w.gift = GIFT, Gift(seat, to, card)
            else:
                w.emit("gift_accepted", seat=to, giver=seat, kind=kind, card=card, forced=True)
                _place(w, to, card)
                if w.phase != OVER:
                    _draw_and_pass(w, seat)
        case Accept():
            gift = w.gift
            assert gift is not None
            w.emit(
                "gift_accepted",
                seat=seat,
                giver=gift.giver,
                kind=kind_of(gift.card),
                card=gift.card,
                forced=False,
            )
            w.phase, w.gift = TURN, None
            _place(w, seat, gift.card)
            if w.phase != OVER:
                _draw_and_pass(w, gift.giver)
        case Refuse(remove=remove):
            gift = w.gift
            assert gift is not None
            me = w.seats[seat]
            colour = colour_of(remove)
            row = row_of(me, colour)
            removed = card_in(row, remove)
            assert removed is not None
            w.seats[seat] = with_row(me, colour, without(row, removed))
            w.phase, w.gift = TURN, None
            w.discard += [gift.card, removed]
            w.emit(
                "gift_refused",
                seat=seat,
                giver=gift.giver,
                kind=kind_of(gift.card),
                card=gift.card,
                removed=remove,
                removed_card=removed,
                colour=colour,
            )
            if w.protection_mode == "refuser" and w.protection != seat:
                w.emit("protection_moved", seat=seat, previous=w.protection)
                w.protection = seat
            _draw_and_pass(w, gift.giver)
        case _:
            raise IllegalAction("unknown_action")


def _take_from_hand(w: ColorettoWork, seat: Seat, kind: str) -> str:
    """Remove the copy of ``kind`` held longest from ``seat``'s hand and return it."""
    me = w.seats[seat]
    card = card_in(me.hand, kind)
    assert card is not None
    w.seats[seat] = replace(me, hand=without(me.hand, card))
    return card


def _finish(w: ColorettoWork, reason: str, ender: Seat | None = None) -> None:
    w.phase, w.gift, w.end_reason, w.ender = OVER, None, reason, ender
    out = final_outcome(w.seats, w.options)
    w.emit(
        "game_over",
        reason=reason,
        seat=ender,
        scores=out.scores,
        ranks=out.ranks,
        winners=out.winners,
        hand_sizes=tuple(len(s.hand) for s in w.seats),
    )


def _place(w: ColorettoWork, seat: Seat, card: str) -> None:
    """§3.4: a card arrives in ``seat``'s row of its colour."""
    kind, colour = card[:2], card[0]
    me = w.seats[seat]
    row = row_of(me, colour)
    twin = card_in(row, kind)
    if twin is not None:
        row = without(row, twin)
        w.emit("placed", seat=seat, kind=kind, card=card, colour=colour, result="duplicate", count=len(row))
        w.emit("duplicate_discarded", seat=seat, kind=kind, colour=colour, cards=(twin, card))
        w.seats[seat] = with_row(me, colour, row)
        w.discard += [twin, card]
        return
    row = (*row, card)
    if len(row) < CAPACITY[colour]:
        w.emit("placed", seat=seat, kind=kind, card=card, colour=colour, result="added", count=len(row))
        w.seats[seat] = with_row(me, colour, row)
        return
    w.emit("placed", seat=seat, kind=kind, card=card, colour=colour, result="stack", count=0)
    bonus_free = colour not in claimed_bonuses(w.seats)
    me = replace(with_row(me, colour, ()), stacks=(*me.stacks, row))
    w.emit("stack_completed", seat=seat, colour=colour, size=len(row), stacks=len(me.stacks))
    if bonus_free:
        me = replace(me, bonuses=(*me.bonuses, colour))
        w.emit("bonus_taken", seat=seat, colour=colour, points=w.options.bonus_values[ROW_INDEX[colour]])
    w.seats[seat] = me
    if len(me.stacks) >= w.stacks_to_end:
        _finish(w, END_STACKS, ender=seat)


def _pass_turn(w: ColorettoWork, after: Seat) -> None:
    # [decided] a seat with an empty hand is skipped in every deck_end mode; with the 90-card deck
    # this happens only in `hands_out`. When every hand is empty the game ends.
    n = w.players
    for step in range(1, n + 1):
        nxt = (after + step) % n
        if w.seats[nxt].hand:
            w.active, w.phase, w.gift = nxt, TURN, None
            return
        w.emit("skipped", seat=nxt)
    _finish(w, END_HANDS)


def _draw_and_pass(w: ColorettoWork, drawer: Seat) -> None:
    """§3.7: the active seat (player or giver) draws, ``deck_end`` applies, play passes on."""
    mode = w.options.deck_end
    if w.deck:
        card = w.deck.pop(0)
        me = w.seats[drawer]
        w.seats[drawer] = replace(me, hand=(*me.hand, card), last_drawn=card)
        w.gift = None
        w.emit("drew", seat=drawer, deck_count=len(w.deck))
        w.emit("drew", drawer, seat=drawer, card=card, kind=card[:2], deck_count=len(w.deck))
        if not w.deck and mode == "last_draw":
            _finish(w, END_DECK)
            return
    elif mode != "hands_out":
        # [decided] `last_draw` also ends on a draw step that finds the pile empty (only possible
        # with a short injected deck).
        _finish(w, END_DECK)
        return
    _pass_turn(w, drawer)


# ---------------------------------------------------------------------------------------------
# Information


def view(state: State, seat: Seat | None) -> PublicView:
    """The public table (``seat=None``) or ``seat``'s view: the same plus its hand and legal actions."""
    totals = scores(state.seats, state.options)
    seats = tuple(
        SeatView(
            seat=i,
            hand_size=len(s.hand),
            rows=tuple(
                RowView(c, s.rows[j], row_kinds(s.rows[j]), CAPACITY[c]) for j, c in enumerate(COLOURS)
            ),
            stacks=tuple(stack[0][0] for stack in s.stacks),
            bonuses=s.bonuses,
            protected=state.protection == i,
            score=totals[i],
        )
        for i, s in enumerate(state.seats)
    )
    claimed = claimed_bonuses(state.seats)
    gift = None
    if state.gift is not None:
        g = state.gift
        choices = tuple(CODEC.write(a) for a in legal_actions(state, g.receiver))
        gift = GiftView(g.giver, g.receiver, kind_of(g.card), g.card, choices)
    over = state.phase == OVER
    common: dict[str, Any] = dict(
        players=state.players,
        phase=state.phase,
        active=None if over else state.active,
        to_act=to_act(state),
        start_seat=state.start_seat,
        deck_count=len(state.deck),
        discard_count=len(state.discard),
        discarded=tuple(sorted((c[:2] for c in state.discard), key=KINDS.index)),
        seats=seats,
        bonuses_free=tuple(c for c in COLOURS if c not in claimed),
        protection_holder=state.protection,
        protection_mode=state.protection_mode,
        stacks_to_end=state.stacks_to_end,
        options=state.options,
        gift=gift,
        end_reason=state.end_reason,
        ranks=final_outcome(state.seats, state.options).ranks if over else (),
    )
    if seat is None:
        return PublicView(**common)
    me = state.seats[seat]
    legal = tuple(CODEC.write(a) for a in legal_actions(state, seat))
    return PrivateView(**common, seat=seat, hand=sort_hand(me.hand), last_drawn=me.last_drawn, legal=legal)


def outcome(state: State) -> Outcome | None:
    return final_outcome(state.seats, state.options) if state.phase == OVER else None


def hidden_tokens(state: State, seat: Seat | None) -> frozenset[str]:
    """The draw pile and the other seats' hands: instance ids ``seat`` must not find in its view."""
    hidden = set(state.deck)
    for i, s in enumerate(state.seats):
        if i != seat:
            hidden.update(s.hand)
    return frozenset(hidden)
