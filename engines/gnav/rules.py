"""Gnav as on Cardavia: the rules (spec ``shared/rules/cardavia.md`` sections 1-6).

What is hidden from whom (spec 1 and 6):

- A seat's card is seen by its holder only, until it is shown: a fool in a hand (at once, or when its holder
  knocks), a matador that answers a request, and every seat card when a deal ends.
- The stock and the face-down aside cards are seen by nobody, not even after the deal; an asker whose drawn
  card went back onto the stock through a cat still knows it (knowledge follows the card).
- The two seats of an exchange see both cards; everyone else sees only that the exchange happened and that
  the card the asker received is ordinary.

Knowledge is kept per card instance: ``State.know[c]`` is a bitmask with bit ``s`` for every seat that knows
the rank of card ``c``, ``PUBLIC`` when everyone does and ``ORDINARY`` when everyone knows it is ordinary
(rank 0-15). Views name the cards a seat may see by instance id (``"n5.2"``; the rank id is the part before
the dot, see :func:`rank_of`); the ids of all other cards are the seat's hidden tokens. History (events and
the previous deal's summary) names ranks only.

This module holds the values and the mutable :class:`Table` that carries out one transition. The engine
class is in ``__init__``; the AI players are in ``ai``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines.contract import Event, ev, rng_for

# ---------------------------------------------------------------------------------------------
# Constants

RANK_IDS: tuple[str, ...] = (
    "fool", "owl", "pot", "zero",
    "n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9", "n10", "n11", "n12",
    "house", "horse", "cat", "dragoon", "cuckoo",
)  # fmt: skip
RANK_INDEX: dict[str, int] = {r: i for i, r in enumerate(RANK_IDS)}
FOOL, N6, HOUSE, HORSE, CAT, DRAGOON, CUCKOO = 0, 9, 16, 17, 18, 19, 20
LAST_ORDINARY = 15
RANKS = 21
CARDS = 42  # card c has rank c >> 1; copies are c & 1
CARD_IDS: tuple[str, ...] = tuple(f"{RANK_IDS[c >> 1]}.{(c & 1) + 1}" for c in range(CARDS))
CARD_INDEX: dict[str, int] = {cid: c for c, cid in enumerate(CARD_IDS)}

#: the traditional calls, as codes in events (spec 8.5)
CALLS: dict[int, str] = {
    HOUSE: "hus_forbi",
    HORSE: "hest_forbi",
    CAT: "kiss",
    DRAGOON: "hogg_av",
    CUCKOO: "sta_for_gjok",
}
KNOCK_CALL = "knock"

#: knowledge bits besides the seat bits 0-7
PUBLIC = 1 << 8
ORDINARY = 1 << 9

KNOCK, TURN, OVER = "knock", "turn", "over"
SEAT_KINDS = ("human", "ai")
AI_LEVELS = ("easy", "normal", "strong")


def rank_of(card: str) -> str:
    """The rank id of a card instance id (``"n5.2"`` -> ``"n5"``)."""
    return card.split(".", 1)[0]


# ---------------------------------------------------------------------------------------------
# Options


@dataclass(frozen=True, slots=True)
class Options:
    """Match options (spec 4); fixed when the match starts."""

    #: True: the cat acts exactly like the dragoon and nothing is undone
    traditional_cat: bool = False
    #: starting lives of every seat, 1-9
    lives: int = 3
    #: "human"/"ai" per seat, clockwise; () = the spec's default table: seat 0 human, every other seat AI.
    #: The engine treats both kinds alike (all-AI tables are fine); the chat layer reads it.
    seats: tuple[str, ...] = ()
    #: False: a seat dealt a fool must play ``knock`` before the first turn
    fool_auto_reveal: bool = True
    #: "easy"/"normal"/"strong" per seat (entries of human seats are ignored); () = every AI seat "normal".
    #: The engine's AI names for the levels are in ``ai.LEVEL_AI``.
    ai_level: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # options may come from JSON lists; keep the fields hashable tuples
        object.__setattr__(self, "seats", tuple(self.seats))
        object.__setattr__(self, "ai_level", tuple(self.ai_level))
        if isinstance(self.lives, bool) or not isinstance(self.lives, int) or not 1 <= self.lives <= 9:
            raise ValueError("lives must be 1-9")
        if any(k not in SEAT_KINDS for k in self.seats):
            raise ValueError("seats entries must be 'human' or 'ai'")
        if any(k not in AI_LEVELS for k in self.ai_level):
            raise ValueError("ai_level entries must be 'easy', 'normal' or 'strong'")
        for name in ("traditional_cat", "fool_auto_reveal"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false")

    def seat_kinds(self, players: int) -> tuple[str, ...]:
        return self.seats or ("human",) + ("ai",) * (players - 1)

    def levels(self, players: int) -> tuple[str, ...]:
        return self.ai_level or ("normal",) * players


# ---------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True, slots=True)
class Aside:
    """A card taken out of play for the rest of the deal."""

    card: int
    face_up: bool


@dataclass(frozen=True, slots=True)
class Exchange:
    """An exchange still in effect (the log, spec 3.1). ``partner`` None: with the stock, and then
    ``aside`` is the index in the aside pile of the asker's old, face-down card."""

    asker: int
    partner: int | None
    aside: int | None = None


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a deal ended; kept in the state (and views) until the next deal ends."""

    deal: int
    #: "turns_done" | "cuckoo" | "uncontested" | "match_won" (a mid-deal loss left one seat alive)
    end: str
    #: (seat, rank id) of every seat card of the deal, departed seats included
    cards: tuple[tuple[int, str], ...]
    #: seats eliminated during the deal, before settlement (their cards are "out")
    departed: tuple[int, ...]
    #: seats that lost a life at settlement
    losers: tuple[int, ...]
    #: seats eliminated in this deal (mid-deal and at settlement)
    eliminated: tuple[int, ...]
    #: rest marks for the next deal
    rests: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class State:
    seed: str
    ply: int
    players: int
    options: Options
    lives: tuple[int, ...]
    #: the rotation pointer R (spec 3.1)
    rotation: int
    #: number of the current deal (skipped deals count)
    deal: int
    #: seats sitting out the current deal
    resting: tuple[int, ...]
    #: turn order T of the current deal; the dealer is the last
    order: tuple[int, ...]
    #: card per seat, -1 = none
    hands: tuple[int, ...]
    #: seats eliminated during the current deal
    departed: tuple[int, ...]
    #: bottom first: the top card is the last
    stock: tuple[int, ...]
    aside: tuple[Aside, ...]
    log: tuple[Exchange, ...]
    #: index in ``order`` of the seat on turn (len(order) when none)
    turn: int
    #: seats that must still knock (knock mode only)
    knocks: tuple[int, ...]
    #: per card instance: knowledge bits (seat bits, PUBLIC, ORDINARY)
    know: tuple[int, ...]
    #: (seat, group) in elimination order; seats eliminated together share a group
    eliminated: tuple[tuple[int, int], ...]
    phase: str
    #: every event of the current deal (all audiences), for views
    history: tuple[Event, ...]
    last: DealResult | None = None
    #: test decks still to use, one per dealt deal (see ``Gnav.new_game``)
    decks: tuple[tuple[str, ...], ...] = ()


# ---------------------------------------------------------------------------------------------
# Actions


@dataclass(frozen=True, slots=True)
class Keep:
    """Keep the card (notation ``keep``)."""


@dataclass(frozen=True, slots=True)
class Ask:
    """Request an exchange from the left neighbour; the dealer's goes to the stock (notation ``ask``)."""


@dataclass(frozen=True, slots=True)
class Knock:
    """Show a dealt fool before the first turn, knock mode only (notation ``knock``)."""


Action = Keep | Ask | Knock
NOTATION: dict[type, str] = {Keep: "keep", Ask: "ask", Knock: "knock"}


# ---------------------------------------------------------------------------------------------
# Views


@dataclass(frozen=True, slots=True)
class AsideView:
    #: instance id when the observer knows the card (always when face up)
    card: str | None
    face_up: bool
    #: publicly known to be ordinary (rank 0-15)
    ordinary: bool


@dataclass(frozen=True, slots=True)
class View:
    """What one seat (or, with ``seat`` None, the public table) may know."""

    seat: int | None
    players: int
    options: Options
    phase: str
    lives: tuple[int, ...]
    #: seats out of the match, in elimination order
    eliminated: tuple[int, ...]
    resting: tuple[int, ...]
    rotation: int
    deal: int
    order: tuple[int, ...]
    dealer: int | None
    to_act: tuple[int, ...]
    #: index in ``order`` of the seat on turn (len(order) when none)
    turn: int
    departed: tuple[int, ...]
    #: the observer's own card (instance id), None when it has none
    own_card: str | None
    #: per seat: the card id when the observer knows it (public, own, or seen in an exchange)
    hands: tuple[str | None, ...]
    #: seats whose card is publicly known to be ordinary
    ordinary: tuple[int, ...]
    #: seats whose card is publicly known not to be a fool (every hand card not shown as one, once turns run)
    not_fool: tuple[int, ...]
    stock_size: int
    #: (depth from the top, card id) of stock cards the observer knows (only after a cat's undo)
    stock_known: tuple[tuple[int, str], ...]
    #: depths of stock cards publicly known to be ordinary
    stock_ordinary: tuple[int, ...]
    aside: tuple[AsideView, ...]
    #: the exchanges still in effect, oldest first
    log: tuple[Exchange, ...]
    #: this deal's public events plus the observer's own private events
    history: tuple[Event, ...]
    last: DealResult | None
    winners: tuple[int, ...]


def knows(state_know: int, seat: int | None) -> bool:
    mask = PUBLIC if seat is None else PUBLIC | (1 << seat)
    return bool(state_know & mask)


def build_view(state: State, seat: int | None) -> View:
    know = state.know
    order = state.order
    hands = tuple(
        CARD_IDS[c] if c >= 0 and knows(know[c], seat) else None for c in state.hands
    )
    own = state.hands[seat] if seat is not None else -1
    # a departed seat's card stays at its seat; its holder still knows it
    own_card = CARD_IDS[own] if own >= 0 else None
    stock_known = []
    stock_ordinary = []
    for depth, c in enumerate(reversed(state.stock)):
        if knows(know[c], seat):
            stock_known.append((depth, CARD_IDS[c]))
        if know[c] & ORDINARY:
            stock_ordinary.append(depth)
    aside = tuple(
        AsideView(CARD_IDS[a.card] if a.face_up or knows(know[a.card], seat) else None, a.face_up,
                  bool(know[a.card] & ORDINARY))
        for a in state.aside
    )
    return View(
        seat=seat,
        players=state.players,
        options=state.options,
        phase=state.phase,
        lives=state.lives,
        eliminated=tuple(s for s, _ in state.eliminated),
        resting=state.resting,
        rotation=state.rotation,
        deal=state.deal,
        order=order,
        dealer=order[-1] if order else None,
        to_act=to_act(state),
        turn=state.turn,
        departed=state.departed,
        own_card=own_card,
        hands=hands,
        ordinary=tuple(s for s in order if know[state.hands[s]] & ORDINARY),
        not_fool=tuple(
            s for s in order
            if s not in state.knocks and not (state.hands[s] >> 1 == FOOL and know[state.hands[s]] & PUBLIC)
        ),
        stock_size=len(state.stock),
        stock_known=tuple(stock_known),
        stock_ordinary=tuple(stock_ordinary),
        aside=aside,
        log=state.log,
        history=tuple(e for e in state.history if e.visible_to(seat)),
        last=state.last,
        winners=winners_of(state) if state.phase == OVER else (),
    )


def to_act(state: State) -> tuple[int, ...]:
    if state.phase == OVER:
        return ()
    if state.phase == KNOCK:
        return state.knocks
    return (state.order[state.turn],)


def winners_of(state: State) -> tuple[int, ...]:
    alive = tuple(s for s in range(state.players) if state.lives[s] > 0)
    if alive:
        return alive
    last_group = max(g for _, g in state.eliminated)
    return tuple(sorted(s for s, g in state.eliminated if g == last_group))


# ---------------------------------------------------------------------------------------------
# Decks


def deck_from_ranks(ranks: tuple[str, ...]) -> list[int]:
    """Card indexes for a test deck given as rank ids: the first use of a rank is copy 1, the second copy 2."""
    used: dict[str, int] = {}
    out = []
    for r in ranks:
        if r not in RANK_INDEX:
            raise ValueError(f"unknown rank {r!r}")
        k = used.get(r, 0)
        if k >= 2:
            raise ValueError(f"rank {r!r} used more than twice")
        used[r] = k + 1
        out.append(2 * RANK_INDEX[r] + k)
    return out


# ---------------------------------------------------------------------------------------------
# The mutable table: one transition of the engine, or a sampled world in an AI rollout


@dataclass(slots=True)
class Table:
    """Working copy of a :class:`State`. The rules of the deal procedure (spec 3) live here, once.

    With ``rollout`` set, events are not collected and the table stops when the deal ends (``done``).
    """

    n: int
    options: Options
    seed: str
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
    rollout: bool = False
    events: list[Event] = field(default_factory=list)
    done: bool = False

    @classmethod
    def from_state(cls, s: State) -> Table:
        return cls(
            n=s.players, options=s.options, seed=s.seed, lives=list(s.lives), rotation=s.rotation,
            deal=s.deal, resting=list(s.resting), order=list(s.order), hands=list(s.hands),
            departed=list(s.departed), stock=list(s.stock), aside=list(s.aside), log=list(s.log),
            turn=s.turn, knocks=list(s.knocks), know=list(s.know), eliminated=list(s.eliminated),
            phase=s.phase, history=list(s.history), last=s.last, decks=list(s.decks),
        )

    def to_state(self, seed: str, ply: int) -> State:
        return State(
            seed=seed, ply=ply, players=self.n, options=self.options, lives=tuple(self.lives),
            rotation=self.rotation, deal=self.deal, resting=tuple(self.resting), order=tuple(self.order),
            hands=tuple(self.hands), departed=tuple(self.departed), stock=tuple(self.stock),
            aside=tuple(self.aside), log=tuple(self.log), turn=self.turn, knocks=tuple(self.knocks),
            know=tuple(self.know), eliminated=tuple(self.eliminated), phase=self.phase,
            history=tuple(self.history), last=self.last, decks=tuple(self.decks),
        )

    def clone(self) -> Table:
        return Table(
            n=self.n, options=self.options, seed=self.seed, lives=self.lives[:], rotation=self.rotation,
            deal=self.deal, resting=self.resting[:], order=self.order[:], hands=self.hands[:],
            departed=self.departed[:], stock=self.stock[:], aside=self.aside[:], log=self.log[:],
            turn=self.turn, knocks=self.knocks[:], know=self.know[:], eliminated=self.eliminated[:],
            phase=self.phase, history=[], last=None, decks=[], rollout=self.rollout,
        )

    # --- small helpers -------------------------------------------------------------------------
    def emit(self, code: str, audience: int | None = None, **params: Any) -> None:
        if self.rollout:
            return
        e = ev(code, audience, **params)
        self.events.append(e)
        self.history.append(e)

    def show(self, c: int) -> None:
        self.know[c] |= PUBLIC

    def in_deal(self) -> list[int]:
        return [s for s in self.order if s not in self.departed]

    def alive(self) -> list[int]:
        return [s for s in range(self.n) if self.lives[s] > 0]

    def next_alive(self, s: int) -> int:
        for k in range(1, self.n + 1):
            t = (s + k) % self.n
            if self.lives[t] > 0:
                return t
        return s

    def next_group(self) -> int:
        return 1 + max((g for _, g in self.eliminated), default=0)

    # --- deal setup (spec 3.3) -----------------------------------------------------------------
    def deck(self) -> list[int]:
        # The cards of a deal depend only on the seed and the deal number, so different play never
        # reshuffles later deals (and AI choices never change the cards, spec 6.1).
        rng = rng_for(self.seed, 0, f"deck{self.deal}")
        if self.decks:
            head = deck_from_ranks(self.decks.pop(0))
            rest = [c for c in range(CARDS) if c not in head]
            rng.shuffle(rest)
            return head + rest
        cards = list(range(CARDS))
        rng.shuffle(cards)
        return cards

    def start_deal(self, marks: tuple[int, ...]) -> None:
        """Start the next deal, skipping deals with fewer than two participants."""
        while True:
            self.deal += 1
            self.history = []
            r = self.rotation
            order = [s for s in ((r + k) % self.n for k in range(1, self.n + 1))
                     if self.lives[s] > 0 and s not in marks]
            resting = sorted(s for s in marks if self.lives[s] > 0)
            if len(order) >= 2:
                break
            self.emit("deal_skipped", deal=self.deal, rotation=r, participants=tuple(order),
                      resting=tuple(resting))
            self.rotation = self.next_alive(r)
            marks = ()
        deck = self.deck()
        self.order, self.resting, self.departed = order, resting, []
        self.hands = [-1] * self.n
        for k, s in enumerate(order):
            self.hands[s] = deck[k]
        self.stock = deck[len(order):][::-1]
        self.aside, self.log, self.knocks = [], [], []
        self.know = [0] * CARDS
        for s in order:
            self.know[self.hands[s]] = 1 << s
        self.turn, self.phase = 0, TURN
        self.emit("deal_started", deal=self.deal, rotation=r, dealer=order[-1], order=tuple(order),
                  resting=tuple(resting), stock=len(self.stock))
        for s in order:
            self.emit("your_card", audience=s, rank=RANK_IDS[self.hands[s] >> 1])
        fools = [s for s in order if self.hands[s] >> 1 == FOOL]
        if self.options.fool_auto_reveal:
            for s in fools:
                self.show(self.hands[s])
                self.emit("fool_shown", seat=s, source="deal", call=KNOCK_CALL)
        elif fools:
            self.knocks, self.phase = fools, KNOCK

    # --- actions -----------------------------------------------------------------------------
    def knock(self, seat: int) -> None:
        self.show(self.hands[seat])
        self.emit("fool_shown", seat=seat, source="knock", call=KNOCK_CALL)
        self.knocks.remove(seat)
        if not self.knocks:
            self.phase = TURN

    def keep(self) -> None:
        self.emit("kept", seat=self.order[self.turn])
        self.turn += 1
        self.advance()

    def ask(self) -> None:
        """Resolve a request by the seat on turn (spec 3.5)."""
        i = self.turn
        order, hands = self.order, self.hands
        a = order[i]
        self.emit("requested", seat=a)
        j = i + 1
        while True:
            while j < len(order) and order[j] in self.departed:
                j += 1
            if j < len(order):
                src: int | None = order[j]
                c = hands[order[j]]
                r = c >> 1
                if r in (HOUSE, HORSE):
                    self.show(c)
                    self.emit("passed_by", seat=src, rank=RANK_IDS[r], call=CALLS[r], asker=a)
                    j += 1
                    continue
            else:
                src = None
                assert self.stock, "the stock ran out"  # impossible, spec G19
                c = self.stock.pop()
                r = c >> 1
                if r >= HOUSE:
                    self.show(c)
                    self.aside.append(Aside(c, True))
                    if r <= HORSE:
                        self.emit("stock_passed_by", rank=RANK_IDS[r], call=CALLS[r], asker=a)
                        continue
            break
        if r >= CAT:
            self.show(c)
            self.emit("refused", asker=a, holder=src, rank=RANK_IDS[r], call=CALLS[r])
            if r == CUCKOO:
                self.settle("cuckoo")
                return
            if self.lose_life(a, RANK_IDS[r]):
                return
            if r == CAT and not self.options.traditional_cat:
                self.undo(a)
            if len(self.in_deal()) < 2:
                self.uncontested()
                return
            if src is None:
                # the dealer still takes their turn if the request came through the dealer's horse/house
                self.turn = len(order) - 1 if a != order[-1] else len(order)
            else:
                self.turn = j + 1
            self.advance()
            return
        old = hands[a]
        if src is None:
            hands[a] = c
            self.aside.append(Aside(old, False))
            self.log.append(Exchange(a, None, len(self.aside) - 1))
            self.know[c] |= (1 << a) | ORDINARY
            self.emit("stock_swapped", asker=a)
            self.emit("received", audience=a, rank=RANK_IDS[r], partner=None)
            if r == FOOL:
                self.show(c)
                self.emit("fool_shown", seat=a, source="stock", call=KNOCK_CALL)
        else:
            hands[a], hands[src] = c, old
            self.know[c] |= (1 << a) | ORDINARY
            self.know[old] |= 1 << src
            self.log.append(Exchange(a, src))
            self.emit("swapped", asker=a, partner=src)
            self.emit("received", audience=a, rank=RANK_IDS[r], partner=src)
            self.emit("received", audience=src, rank=RANK_IDS[old >> 1], partner=a)
        self.turn = i + 1
        self.advance()

    def advance(self) -> None:
        while self.turn < len(self.order) and self.order[self.turn] in self.departed:
            self.turn += 1
        if self.turn >= len(self.order):
            self.settle("turns_done")

    # --- consequences ------------------------------------------------------------------------------
    def lose_life(self, p: int, cause: str) -> bool:
        """A dragoon or cat costs the asker a life (spec 3.6); True when that ends the match."""
        self.lives[p] -= 1
        self.emit("life_lost", seat=p, lives=self.lives[p], cause=cause)
        if self.lives[p] > 0:
            return False
        self.departed.append(p)
        self.eliminated.append((p, self.next_group()))
        self.emit("eliminated", seat=p, cause=cause)
        if len(self.alive()) == 1:
            self.reveal()
            self.finish("match_won", (), (), ())
            return True
        return False

    def undo(self, asker: int) -> None:
        """The cat's undo (spec 3.6.1): newest exchange first; afterwards the log is empty."""
        before = self.hands[:]
        undone = []
        for e in reversed(self.log):
            a = e.asker
            if e.partner is None:
                assert e.aside is not None
                self.stock.append(self.hands[a])
                self.hands[a] = self.aside.pop(e.aside).card
            else:
                b = e.partner
                self.hands[a], self.hands[b] = self.hands[b], self.hands[a]
            undone.append((a, e.partner))
        self.log = []
        self.emit("exchanges_undone", asker=asker, exchanges=tuple(undone))
        for s in self.order:
            if self.hands[s] != before[s] and s not in self.departed:
                self.emit("card_restored", audience=s, rank=RANK_IDS[self.hands[s] >> 1])

    def reveal(self) -> None:
        for s in self.order:
            self.show(self.hands[s])
        self.emit("cards_revealed", deal=self.deal,
                  cards=tuple((s, RANK_IDS[self.hands[s] >> 1]) for s in self.order),
                  departed=tuple(self.departed))

    def uncontested(self) -> None:
        """A departure left one seat in the deal (spec 3.6 item 3): no comparison, no rest marks."""
        self.reveal()
        self.emit("deal_uncontested", deal=self.deal, seats=tuple(self.in_deal()))
        self.finish("uncontested", (), (), ())

    def settle(self, end: str) -> None:
        """Settlement (spec 3.7)."""
        c = self.in_deal()
        self.reveal()
        rank = {s: self.hands[s] >> 1 for s in c}

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
        group = self.next_group()
        out = []
        for s in losers:
            self.lives[s] -= 1
            self.emit("life_lost", seat=s, lives=self.lives[s], cause="settlement")
        for s in losers:
            if self.lives[s] == 0:
                out.append(s)
                self.eliminated.append((s, group))
                self.emit("eliminated", seat=s, cause="settlement")
        rests = tuple(s for s in fools if self.lives[s] > 0)
        self.emit("deal_settled", deal=self.deal, losers=tuple(losers), eliminated=tuple(out),
                  rests=rests, lives=tuple(self.lives))
        self.finish(end, tuple(losers), tuple(out), rests)

    def finish(self, end: str, losers: tuple[int, ...], out: tuple[int, ...], rests: tuple[int, ...]) -> None:
        """After a deal: the match ends, or the rotation moves on and the next deal starts (spec 3.8)."""
        self.turn = len(self.order)
        if not self.rollout:
            self.last = DealResult(
                deal=self.deal, end=end,
                cards=tuple((s, RANK_IDS[self.hands[s] >> 1]) for s in self.order),
                departed=tuple(self.departed), losers=losers, eliminated=tuple(self.departed) + out,
                rests=rests,
            )
        self.emit("deal_ended", deal=self.deal, end=end)
        alive = self.alive()
        if len(alive) <= 1:
            self.phase = OVER
            self.done = True
            winners = tuple(alive) if alive else tuple(sorted(out))
            self.emit("match_ended", winners=winners, draw=len(winners) > 1, ranks=self.ranks())
            return
        if self.rollout:
            self.done = True
            return
        # [decided] The spec's "next deal" confirmation (3.8 item 2) is not an engine step: the next deal
        # starts here, and the chat layer pauses after the `deal_ended` event until a human says "next deal".
        self.rotation = self.next_alive(self.rotation)
        self.start_deal(rests)

    def ranks(self) -> tuple[int, ...]:
        """Final standings (spec 3.8): survivors first, then by elimination, later first; groups share."""
        group = dict(self.eliminated)
        key = [group.get(s, 1 << 30) for s in range(self.n)]
        return tuple(1 + sum(1 for o in key if o > k) for k in key)
