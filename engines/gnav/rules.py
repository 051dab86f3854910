"""Gnav's rules (spec ``shared/rules/cardavia.md`` sections 1-6): setup, legality, the deal procedure,
views and the outcome, as plain functions over one working copy, :class:`GnavWork`.

What is hidden from whom (spec 1 and 6):

- A seat's card is seen by its holder only, until it is shown: a fool in a hand (at once, or when its holder
  knocks), a matador that answers a request, and every seat card when a deal ends.
- The stock and the face-down aside cards are seen by nobody, not even after the deal; an asker whose drawn
  card went back onto the stock through a cat still knows it (knowledge follows the card).
- The two seats of an exchange see both cards; everyone else sees only that the exchange happened and that
  the card the asker received is ordinary.

Views name the cards a seat may see by instance id; the ids of all other cards are the seat's hidden tokens.

Reading order: the working copy, setup (:func:`new_game`, :func:`start_deal`), legality (:func:`check`),
the moves (:func:`perform`: :func:`knock`, :func:`keep`, :func:`ask`), their consequences (life losses, the
cat's undo, settlement, the next deal), and the read-only side (:func:`view`, :func:`outcome`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engines.contract import Event, IllegalAction, Outcome, ev, maker, rng_for
from engines.gnav.model import (
    CALLS,
    CARD_IDS,
    CARDS,
    CAT,
    CUCKOO,
    FOOL,
    HORSE,
    HOUSE,
    KNOCK,
    KNOCK_CALL,
    ORDINARY,
    OVER,
    PUBLIC,
    RANK_IDS,
    TURN,
    Action,
    Aside,
    AsideView,
    Ask,
    DealResult,
    Exchange,
    Keep,
    Knock,
    Options,
    State,
    View,
    deck_from_ranks,
    knows,
)
from engines.work import Work, make_event

# ---------------------------------------------------------------------------------------------
# The working copy: one transition of the engine, or a sampled world in an AI rollout


class GnavWork(Work[State]):
    """A :class:`State` thawed for one transition. Every event is also kept in ``history`` (views show
    the deal's events).

    With ``quiet`` set (an AI rollout) nothing is recorded, the deal's summary is not built, and the work
    stops when the deal ends (``done``): the next deal's cards are not the AI's to guess.

    Every list field holds immutable entries (numbers, frozen values, the tuples of ``eliminated`` and
    ``decks``), so each is one list (``SHALLOW``): the copy per action no longer walks every event of
    the deal's ``history`` to thaw and freeze it.
    """

    SHALLOW = frozenset(
        {
            "lives",
            "resting",
            "order",
            "hands",
            "departed",
            "stock",
            "aside",
            "log",
            "knocks",
            "know",
            "eliminated",
            "history",
            "decks",
        }
    )

    seed: str
    ply: int
    players: int
    options: Options
    lives: list[int]
    rotation: int
    deal: int
    resting: list[int]
    order: list[int]
    hands: list[int]
    departed: list[int]
    stock: list[int]
    aside: list[Aside]
    log: list[Exchange]
    turn: int
    knocks: list[int]
    know: list[int]
    eliminated: list[tuple[int, int]]
    phase: str
    history: list[Event]
    last: DealResult | None
    decks: list[tuple[str, ...]]
    #: the match is over, or (quiet) the deal is
    done: bool

    # The declared fields live in slots: a rollout of the strong AI reads them thousands of times per
    # decision, and slots are read faster than the instance dict (about 4 % of a strong game).
    __slots__ = tuple(__annotations__)

    def __init__(self, state: State, *, quiet: bool = False) -> None:
        super().__init__(state, quiet=quiet)
        self.done = False

    def clone(self) -> GnavWork:
        """A copy for one rollout from a sampled world: the lists copied, no history, nothing recorded.

        Faster than thawing the state again; the strong AI plays out two rollouts per sampled world."""
        twin = object.__new__(GnavWork)
        twin.__dict__.update(self.__dict__)  # the working copy's own (events, quiet, ...)
        twin.seed, twin.ply, twin.players, twin.options = self.seed, self.ply, self.players, self.options
        twin.rotation, twin.deal, twin.turn, twin.phase = self.rotation, self.deal, self.turn, self.phase
        twin.done = self.done
        twin.lives, twin.resting, twin.order = self.lives[:], self.resting[:], self.order[:]
        twin.hands, twin.departed, twin.stock = self.hands[:], self.departed[:], self.stock[:]
        twin.aside, twin.log, twin.knocks = self.aside[:], self.log[:], self.knocks[:]
        twin.know, twin.eliminated = self.know[:], self.eliminated[:]  # entries are never changed in place
        twin.history, twin.events, twin.last, twin.decks = [], [], None, []
        return twin

    def emit(self, code: str, audience: int | tuple[int, ...] | None = None, **params: Any) -> None:
        if self.quiet:
            return
        if audience is None:
            e = make_event(code, None, tuple(params.items()))
        elif type(audience) is int:
            e = make_event(code, (audience,), tuple(params.items()))
        else:
            e = ev(code, audience, **params)
        self.events.append(e)
        self.history.append(e)

    # --- small helpers -------------------------------------------------------------------------
    def show(self, c: int) -> None:
        self.know[c] |= PUBLIC

    def in_deal(self) -> list[int]:
        return [s for s in self.order if s not in self.departed]

    def alive(self) -> list[int]:
        return [s for s in range(self.players) if self.lives[s] > 0]

    def next_alive(self, s: int) -> int:
        for k in range(1, self.players + 1):
            t = (s + k) % self.players
            if self.lives[t] > 0:
                return t
        return s

    def next_group(self) -> int:
        return 1 + max((g for _, g in self.eliminated), default=0)


# ---------------------------------------------------------------------------------------------
# Setup (spec 3.3)


def new_game(
    players: int,
    seed: str,
    options: Options,
    decks: Iterable[Iterable[str]] = (),
    rotation: int | None = None,
) -> State:
    """A new match: the first deal is dealt. ``decks`` and ``rotation`` fix the cards and the first
    rotation pointer (tests; see :func:`engines.gnav.model.deck_from_ranks`)."""
    options.validate(players)
    fixed = tuple(tuple(d) for d in decks)
    for d in fixed:
        deck_from_ranks(d)  # validates
    if rotation is None:
        rotation = rng_for(seed, 0, "first_dealer").randrange(players)
    elif not 0 <= rotation < players:
        raise ValueError("rotation must be a seat")
    before = State(
        seed=seed,
        ply=0,
        players=players,
        options=options,
        lives=(options.lives,) * players,
        rotation=rotation,
        deal=0,
        resting=(),
        order=(),
        hands=(-1,) * players,
        departed=(),
        stock=(),
        aside=(),
        log=(),
        turn=0,
        knocks=(),
        know=(0,) * CARDS,
        eliminated=(),
        phase=OVER,
        history=(),
        last=None,
        decks=fixed,
    )
    w = GnavWork(before)
    start_deal(w, ())
    return w.freeze()


def deck(w: GnavWork) -> list[int]:
    """The cards of the deal about to start, top first."""
    # The cards of a deal depend only on the seed and the deal number, so different play never
    # reshuffles later deals (and AI choices never change the cards, spec 6.1).
    rng = rng_for(w.seed, 0, f"deck{w.deal}")
    if w.decks:
        head = deck_from_ranks(w.decks.pop(0))
        rest = [c for c in range(CARDS) if c not in head]
        rng.shuffle(rest)
        return head + rest
    cards = list(range(CARDS))
    rng.shuffle(cards)
    return cards


def start_deal(w: GnavWork, marks: tuple[int, ...]) -> None:
    """Start the next deal, skipping deals with fewer than two participants."""
    while True:
        w.deal += 1
        w.history = []
        r = w.rotation
        order = [
            s
            for s in ((r + k) % w.players for k in range(1, w.players + 1))
            if w.lives[s] > 0 and s not in marks
        ]
        resting = sorted(s for s in marks if w.lives[s] > 0)
        if len(order) >= 2:
            break
        w.emit("deal_skipped", deal=w.deal, rotation=r, participants=tuple(order), resting=tuple(resting))
        w.rotation = w.next_alive(r)
        marks = ()
    cards = deck(w)
    w.order, w.resting, w.departed = order, resting, []
    w.hands = [-1] * w.players
    for k, s in enumerate(order):
        w.hands[s] = cards[k]
    w.stock = cards[len(order) :][::-1]
    w.aside, w.log, w.knocks = [], [], []
    w.know = [0] * CARDS
    for s in order:
        w.know[w.hands[s]] = 1 << s
    w.turn, w.phase = 0, TURN
    w.emit(
        "deal_started",
        deal=w.deal,
        rotation=r,
        dealer=order[-1],
        order=tuple(order),
        resting=tuple(resting),
        stock=len(w.stock),
    )
    for s in order:
        w.emit("your_card", audience=s, rank=RANK_IDS[w.hands[s] >> 1])
    fools = [s for s in order if w.hands[s] >> 1 == FOOL]
    if w.options.fool_auto_reveal:
        for s in fools:
            w.show(w.hands[s])
            w.emit("fool_shown", seat=s, source="deal", call=KNOCK_CALL)
    elif fools:
        w.knocks, w.phase = fools, KNOCK


# ---------------------------------------------------------------------------------------------
# Turn order and legality


def to_act(state: State) -> tuple[int, ...]:
    if state.phase == OVER:
        return ()
    if state.phase == KNOCK:
        return state.knocks
    return (state.order[state.turn],)


def candidates(state: State, seat: int) -> tuple[Action, ...]:
    return (Knock(),) if state.phase == KNOCK else (Keep(), Ask())


def check(state: State, seat: int, action: Any) -> None:
    """Raise :class:`IllegalAction` with the reason code unless ``seat`` may take ``action`` now."""
    if not isinstance(action, Keep | Ask | Knock):
        raise IllegalAction("unknown_action")
    if state.phase == OVER:
        raise IllegalAction("game_over")
    if not isinstance(seat, int) or not 0 <= seat < state.players:
        raise IllegalAction("no_such_seat", seat=seat)
    if state.lives[seat] == 0:
        raise IllegalAction("eliminated", seat=seat)
    if seat in state.resting:
        raise IllegalAction("resting", seat=seat)
    if state.phase == KNOCK:
        match action:
            case Knock() if seat in state.knocks:
                return
            case Knock():
                raise IllegalAction("nothing_to_knock", seat=seat)
            case _ if seat in state.knocks:
                raise IllegalAction("must_knock", seat=seat)
            case _:
                raise IllegalAction("waiting_for_knock", seats=state.knocks)
    match action:
        case Knock():
            raise IllegalAction("nothing_to_knock", seat=seat)
        case _ if state.order[state.turn] != seat:
            raise IllegalAction("not_your_turn", seat=seat, turn=state.order[state.turn])


# ---------------------------------------------------------------------------------------------
# The moves (spec 3.4-3.5)


def perform(state: State, seat: int, action: Action) -> tuple[State, tuple[Event, ...]]:
    """Carry out a legal action; every step that needs no decision follows inside (pass-bys, stock
    draws, settlement, the next deal)."""
    w = GnavWork(state)
    match action:
        case Knock():
            knock(w, seat)
        case Keep():
            keep(w)
        case Ask():
            ask(w)
    return w.freeze(ply=state.ply + 1), tuple(w.events)


def knock(w: GnavWork, seat: int) -> None:
    w.show(w.hands[seat])
    w.emit("fool_shown", seat=seat, source="knock", call=KNOCK_CALL)
    w.knocks.remove(seat)
    if not w.knocks:
        w.phase = TURN


def keep(w: GnavWork) -> None:
    w.emit("kept", seat=w.order[w.turn])
    w.turn += 1
    advance(w)


def ask(w: GnavWork) -> None:
    """Resolve a request by the seat on turn (spec 3.5)."""
    i = w.turn
    order, hands = w.order, w.hands
    a = order[i]
    w.emit("requested", seat=a)
    j = i + 1
    while True:
        while j < len(order) and order[j] in w.departed:
            j += 1
        if j < len(order):
            src: int | None = order[j]
            c = hands[order[j]]
            r = c >> 1
            if r in (HOUSE, HORSE):
                w.show(c)
                w.emit("passed_by", seat=src, rank=RANK_IDS[r], call=CALLS[r], asker=a)
                j += 1
                continue
        else:
            src = None
            assert w.stock, "the stock ran out"  # impossible, spec G19
            c = w.stock.pop()
            r = c >> 1
            if r >= HOUSE:
                w.show(c)
                w.aside.append(Aside(c, True))
                if r <= HORSE:
                    w.emit("stock_passed_by", rank=RANK_IDS[r], call=CALLS[r], asker=a)
                    continue
        break
    if r >= CAT:
        w.show(c)
        w.emit("refused", asker=a, holder=src, rank=RANK_IDS[r], call=CALLS[r])
        if r == CUCKOO:
            settle(w, "cuckoo")
            return
        if lose_life(w, a, RANK_IDS[r]):
            return
        if r == CAT and not w.options.traditional_cat:
            undo(w, a)
        if len(w.in_deal()) < 2:
            uncontested(w)
            return
        if src is None:
            # the dealer still takes their turn if the request came through the dealer's horse/house
            w.turn = len(order) - 1 if a != order[-1] else len(order)
        else:
            w.turn = j + 1
        advance(w)
        return
    old = hands[a]
    if src is None:
        hands[a] = c
        w.aside.append(Aside(old, False))
        w.log.append(Exchange(a, None, len(w.aside) - 1))
        w.know[c] |= (1 << a) | ORDINARY
        w.emit("stock_swapped", asker=a)
        w.emit("received", audience=a, rank=RANK_IDS[r], partner=None)
        if r == FOOL:
            w.show(c)
            w.emit("fool_shown", seat=a, source="stock", call=KNOCK_CALL)
    else:
        hands[a], hands[src] = c, old
        w.know[c] |= (1 << a) | ORDINARY
        w.know[old] |= 1 << src
        w.log.append(Exchange(a, src))
        w.emit("swapped", asker=a, partner=src)
        w.emit("received", audience=a, rank=RANK_IDS[r], partner=src)
        w.emit("received", audience=src, rank=RANK_IDS[old >> 1], partner=a)
    w.turn = i + 1
    advance(w)


def advance(w: GnavWork) -> None:
    while w.turn < len(w.order) and w.order[w.turn] in w.departed:
        w.turn += 1
    if w.turn >= len(w.order):
        settle(w, "turns_done")


# ---------------------------------------------------------------------------------------------
# Consequences (spec 3.6-3.8)


def lose_life(w: GnavWork, p: int, cause: str) -> bool:
    """A dragoon or cat costs the asker a life (spec 3.6); True when that ends the match."""
    w.lives[p] -= 1
    w.emit("life_lost", seat=p, lives=w.lives[p], cause=cause)
    if w.lives[p] > 0:
        return False
    w.departed.append(p)
    w.eliminated.append((p, w.next_group()))
    w.emit("eliminated", seat=p, cause=cause)
    if len(w.alive()) == 1:
        reveal(w)
        finish(w, "match_won", (), (), ())
        return True
    return False


def undo(w: GnavWork, asker: int) -> None:
    """The cat's undo (spec 3.6.1): newest exchange first; afterwards the log is empty."""
    before = w.hands[:]
    undone = []
    for e in reversed(w.log):
        a = e.asker
        if e.partner is None:
            assert e.aside is not None
            w.stock.append(w.hands[a])
            w.hands[a] = w.aside.pop(e.aside).card
        else:
            b = e.partner
            w.hands[a], w.hands[b] = w.hands[b], w.hands[a]
        undone.append((a, e.partner))
    w.log = []
    w.emit("exchanges_undone", asker=asker, exchanges=tuple(undone))
    for s in w.order:
        if w.hands[s] != before[s] and s not in w.departed:
            w.emit("card_restored", audience=s, rank=RANK_IDS[w.hands[s] >> 1])


def reveal(w: GnavWork) -> None:
    for s in w.order:
        w.show(w.hands[s])
    w.emit(
        "cards_revealed",
        deal=w.deal,
        cards=tuple((s, RANK_IDS[w.hands[s] >> 1]) for s in w.order),
        departed=tuple(w.departed),
    )


def uncontested(w: GnavWork) -> None:
    """A departure left one seat in the deal (spec 3.6 item 3): no comparison, no rest marks."""
    reveal(w)
    w.emit("deal_uncontested", deal=w.deal, seats=tuple(w.in_deal()))
    finish(w, "uncontested", (), (), ())


def settle(w: GnavWork, end: str) -> None:
    """Settlement (spec 3.7)."""
    c = w.in_deal()
    reveal(w)
    rank = {s: w.hands[s] >> 1 for s in c}

    def lowest(seats: list[int]) -> list[int]:
        m = min(rank[s] for s in seats)
        return [s for s in seats if rank[s] == m]

    fools = [s for s in c if rank[s] == FOOL]
    if not fools:
        losers = lowest(c)
    elif len(fools) == 1:
        losers = fools + lowest([s for s in c if s not in fools])
    else:
        losers = fools
    group = w.next_group()
    out = []
    for s in losers:
        w.lives[s] -= 1
        w.emit("life_lost", seat=s, lives=w.lives[s], cause="settlement")
    for s in losers:
        if w.lives[s] == 0:
            out.append(s)
            w.eliminated.append((s, group))
            w.emit("eliminated", seat=s, cause="settlement")
    rests = tuple(s for s in fools if w.lives[s] > 0)
    w.emit(
        "deal_settled",
        deal=w.deal,
        losers=tuple(losers),
        eliminated=tuple(out),
        rests=rests,
        lives=tuple(w.lives),
    )
    finish(w, end, tuple(losers), tuple(out), rests)


def finish(
    w: GnavWork, end: str, losers: tuple[int, ...], out: tuple[int, ...], rests: tuple[int, ...]
) -> None:
    """After a deal: the match ends, or the rotation moves on and the next deal starts (spec 3.8)."""
    w.turn = len(w.order)
    if not w.quiet:
        w.last = DealResult(
            deal=w.deal,
            end=end,
            cards=tuple((s, RANK_IDS[w.hands[s] >> 1]) for s in w.order),
            departed=tuple(w.departed),
            losers=losers,
            eliminated=tuple(w.departed) + out,
            rests=rests,
        )
    w.emit("deal_ended", deal=w.deal, end=end)
    alive = w.alive()
    if len(alive) <= 1:
        w.phase = OVER
        w.done = True
        winners = tuple(alive) if alive else tuple(sorted(out))
        w.emit("match_ended", winners=winners, draw=len(winners) > 1, ranks=ranks_of(w.eliminated, w.players))
        return
    if w.quiet:
        w.done = True
        return
    # [decided] The spec's "next deal" confirmation (3.8 item 2) is not an engine step: the next deal
    # starts here, and the chat layer pauses after the `deal_ended` event until a human says "next deal".
    w.rotation = w.next_alive(w.rotation)
    start_deal(w, rests)


def ranks_of(eliminated: Sequence[Sequence[int]], players: int) -> tuple[int, ...]:
    """Final standings (spec 3.8): survivors first, then by elimination, later first; groups share."""
    group = {s: g for s, g in eliminated}
    key = [group.get(s, 1 << 30) for s in range(players)]
    return tuple(1 + sum(1 for o in key if o > k) for k in key)


# ---------------------------------------------------------------------------------------------
# Information and the result


def view(state: State, seat: int | None) -> View:
    know = state.know
    order = state.order
    hands_of = state.hands
    # knows(bits, seat), the mask taken once: a view reads every card's knowledge bits
    mask = PUBLIC if seat is None else PUBLIC | (1 << seat)
    hands = tuple([CARD_IDS[c] if c >= 0 and know[c] & mask else None for c in hands_of])
    own = hands_of[seat] if seat is not None else -1
    # a departed seat's card stays at its seat; its holder still knows it
    own_card = CARD_IDS[own] if own >= 0 else None
    stock_known = []
    stock_ordinary = []
    for depth, c in enumerate(reversed(state.stock)):
        bits = know[c]
        if bits & mask:
            stock_known.append((depth, CARD_IDS[c]))
        if bits & ORDINARY:
            stock_ordinary.append(depth)
    aside = tuple(
        [
            AsideView(
                CARD_IDS[a.card] if a.face_up or know[a.card] & mask else None,
                a.face_up,
                bool(know[a.card] & ORDINARY),
            )
            for a in state.aside
        ]
    )
    knocks = state.knocks
    # the same order as View's fields (engines.contract.maker)
    return _view(
        seat,
        state.players,
        state.options,
        state.phase,
        state.lives,
        tuple([s for s, _ in state.eliminated]),  # eliminated
        state.resting,
        state.rotation,
        state.deal,
        order,
        order[-1] if order else None,  # dealer
        to_act(state),
        state.turn,
        state.departed,
        own_card,
        hands,
        tuple([s for s in order if know[hands_of[s]] & ORDINARY]),  # ordinary
        tuple(  # not_fool
            [
                s
                for s in order
                if s not in knocks and not (hands_of[s] >> 1 == FOOL and know[hands_of[s]] & PUBLIC)
            ]
        ),
        len(state.stock),  # stock_size
        tuple(stock_known),
        tuple(stock_ordinary),
        aside,
        state.log,
        # history: the public events and the seat's own
        tuple([e for e in state.history if e.to is None or (seat is not None and seat in e.to)]),
        state.last,
        winners_of(state) if state.phase == OVER else (),  # winners
    )


#: the view made by position, without the frozen class's field-by-field __init__
_view = maker(View)


def winners_of(state: State) -> tuple[int, ...]:
    alive = tuple(s for s in range(state.players) if state.lives[s] > 0)
    if alive:
        return alive
    last_group = max(g for _, g in state.eliminated)
    return tuple(sorted(s for s, g in state.eliminated if g == last_group))


def outcome(state: State) -> Outcome | None:
    if state.phase != OVER:
        return None
    return Outcome(
        ranks=ranks_of(state.eliminated, state.players),
        scores=state.lives,
        winners=winners_of(state),
        low_wins=False,
    )


def hidden_tokens(state: State, seat: int | None) -> frozenset[str]:
    return frozenset(CARD_IDS[c] for c in range(CARDS) if not knows(state.know[c], seat))
