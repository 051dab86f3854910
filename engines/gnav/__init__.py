"""Gnav as on Cardavia (game id ``gnav``; it was ``cardavia``, the site's name, until the rename): one card each, keep it or ask the left neighbour to swap,
do not end the deal with the lowest card; lives, matadors, resting fools. Spec: ``shared/rules/cardavia.md``.

Hidden information (details in ``rules``): a seat's card is seen by its holder only until it is shown (a
fool, a matador that answers, every seat card at the end of a deal); the stock and the face-down aside cards
are seen by nobody; the two seats of an exchange see both cards, the others only that it happened.

Package layout: ``rules`` (constants, options, state, actions, views and the deal procedure), ``ai`` (the
AI players), this module (the engine surface and ``ENGINE``).

Actions and notation: ``keep`` (:class:`Keep`), ``ask`` (:class:`Ask`; the dealer's request goes to the
stock) and, with ``fool_auto_reveal`` off, ``knock`` (:class:`Knock`) for a seat dealt a fool.

Steps that need no decision happen inside ``perform``: pass-bys, stock draws, settlement, dealing,
skipped deals and the next deal ([decided]: there is no "next deal" action; the chat layer pauses after a
``deal_ended`` event; every event after it in the same batch belongs to the next deal).

Tests fix the cards with ``new_game(..., decks=(...), rotation=R)``: ``decks`` holds one entry per dealt
deal (skipped deals use none), each a sequence of rank ids: first the cards of the turn order T[0], T[1],
..., dealer, then the stock from the top down; the rest of the deck is filled at random. Such a state
replays only through ``new_game`` with the same decks.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engines.codec import BadNotation, types_of
from engines.contract import Engine, Event, IllegalAction, Outcome, rng_for
from engines.gnav import ai
from engines.gnav.rules import (
    CARD_IDS,
    CARDS,
    KNOCK,
    NOTATION,
    OVER,
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
    Table,
    View,
    build_view,
    deck_from_ranks,
    knows,
    rank_of,
    to_act,
)

__all__ = [
    "ENGINE",
    "Action",
    "Aside",
    "AsideView",
    "Ask",
    "DealResult",
    "Exchange",
    "Gnav",
    "Keep",
    "Knock",
    "Options",
    "State",
    "View",
    "rank_of",
]

_PARSE: dict[str, Action] = {"keep": Keep(), "ask": Ask(), "knock": Knock()}


class Gnav(Engine):
    id = "gnav"
    min_players = 2
    max_players = 8
    default_players = 4
    Options = Options
    ais = ai.AIS
    default_ai = "sensible"

    # --- creation ------------------------------------------------------------------------------
    def new_game(self, players: int, seed: str, options: Any = None, *,
                 decks: Iterable[Iterable[str]] = (), rotation: int | None = None) -> State:
        """A new match; ``decks`` and ``rotation`` fix the cards and the first rotation pointer (tests)."""
        opts = options if options is not None else Options()
        if not self.min_players <= players <= self.max_players:
            raise ValueError("players must be 2-8")
        if opts.seats and len(opts.seats) != players:
            raise ValueError("seats must name every seat")
        if opts.ai_level and len(opts.ai_level) != players:
            raise ValueError("ai_level must name every seat")
        fixed = tuple(tuple(d) for d in decks)
        for d in fixed:
            deck_from_ranks(d)  # validates
        if rotation is None:
            rotation = rng_for(seed, 0, "first_dealer").randrange(players)
        elif not 0 <= rotation < players:
            raise ValueError("rotation must be a seat")
        table = Table(
            n=players, options=opts, seed=seed, lives=[opts.lives] * players, rotation=rotation, deal=0,
            resting=[], order=[], hands=[-1] * players, departed=[], stock=[], aside=[], log=[], turn=0,
            knocks=[], know=[0] * CARDS, eliminated=[], phase=OVER, history=[], last=None, decks=list(fixed),
        )
        table.start_deal(())
        return table.to_state(seed, 0)

    # --- turn order and legality -----------------------------------------------------------------
    def to_act(self, state: State) -> tuple[int, ...]:
        return to_act(state)

    def candidate_actions(self, state: State, seat: int) -> Iterable[Action]:
        return (Knock(),) if state.phase == KNOCK else (Keep(), Ask())

    def check(self, state: State, seat: int, action: Any) -> None:
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

    # --- transitions -----------------------------------------------------------------------------
    def perform(self, state: State, seat: int, action: Any) -> tuple[State, tuple[Event, ...]]:
        table = Table.from_state(state)
        match action:
            case Knock():
                table.knock(seat)
            case Keep():
                table.keep()
            case Ask():
                table.ask()
        return table.to_state(state.seed, state.ply + 1), tuple(table.events)

    # --- information -----------------------------------------------------------------------------
    def start_events(self, state: State) -> tuple[Event, ...]:
        """The first deal (and any fool shown at once), which ``new_game`` already performed: the
        deal's history holds exactly those events until the first action."""
        return tuple(state.history) if state.ply == 0 else ()

    def view(self, state: State, seat: int | None) -> View:
        return build_view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != OVER:
            return None
        table = Table.from_state(state)
        winners = build_view(state, None).winners
        return Outcome(ranks=table.ranks(), scores=state.lives, winners=winners, low_wins=False)

    def hidden_tokens(self, state: State, seat: int | None) -> frozenset[str]:
        return frozenset(CARD_IDS[c] for c in range(CARDS) if not knows(state.know[c], seat))

    # --- notation --------------------------------------------------------------------------------
    def notation(self, action: Any) -> str:
        return NOTATION[type(action)]

    def parse_notation(self, text: str) -> Action:
        action = _PARSE.get(text.strip().lower()) if isinstance(text, str) else None
        if action is None:
            raise BadNotation(text)
        return action


Gnav.types = types_of(globals())
ENGINE = Gnav()
