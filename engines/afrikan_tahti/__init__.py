"""Afrikan Tähti (Kari Mannerla 1951, Peliko) on the real board: game id ``afrikan_tahti``.

Spec: ``shared/rules/afrikan_tahti/spec.md``. ``Options.expansion`` (default True) plays the game with
Retkikunnat (§5); ``expansion=False`` is the plain base game (§3.1-3.2, §4).

What is hidden from whom. Base game: only face-down token contents (a seat's view is the public
table). Retkikunnat: also the hand cards and peek results of each seat (``view(state, seat).x.hand``
/ ``.x.peeks``; events with an audience) and the order of the decks (from everyone).

Reading order:

- :mod:`.board`: the map (places, dots, routes, sea legs, flights) and node codes;
- :mod:`.model`: what both layers share -- options, the state and its working copy ``AfrikanWork``,
  every action with its notation, the views, the move menu, the test presets;
- :mod:`.rules`: the entry points (check, candidates, perform, view, outcome), dispatching to
- :mod:`.base` (the 1951 game: ``rules``, ``setup``, ``ai``) or :mod:`.retkikunnat` (the expansion;
  its package docstring gives its own reading order);
- :mod:`.ai`: the AI policies and the idle default.

Tests fix the setup with ``new_game(players, seed, options, layout={place: kind}, first_seat=s,
dice=(...))``; Retkikunnat adds ``lower={place: kind}`` (discovery tokens under the equipment tokens),
``characters=(id, ...)``, ``decks={"event": (ids or instances on top, ...), ...}`` and
``danger_dice=(face, ...)`` (:class:`~.model.Presets`). Such a state replays through ``new_game`` with
the same keywords.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import ModuleType
from typing import Any, ClassVar

from engines.afrikan_tahti import ai, board, model, rules
from engines.afrikan_tahti.base import rules as base_rules
from engines.afrikan_tahti.model import (
    MAX_SEATS,
    NOTATION,
    Action,
    Options,
    Presets,
    State,
    normalize_options,
)
from engines.afrikan_tahti.retkikunnat import model as retkikunnat_model
from engines.codec import Notation, types_of
from engines.contract import Engine, Event, Seat


def entry_points(module: ModuleType) -> tuple[Any, ...]:
    """An engine's entry points taken from its rules ``module``: its ``to_act``, ``check``,
    ``legal_actions``, ``perform``, ``apply`` and ``view``, as static methods."""
    names = ("to_act", "check", "legal_actions", "perform", "apply", "view")
    return tuple(staticmethod(getattr(module, name)) for name in names)


class AfrikanTahti(Engine):
    id = "afrikan_tahti"
    min_players = 2
    max_players = MAX_SEATS
    default_players = 2
    Options = Options
    ais = ai.AIS
    default_ai = "smart"
    # the round limit (Options.max_rounds) ends every game well before this
    max_plies = 40_000
    notation_codec: ClassVar[Notation] = NOTATION

    # --- creation ------------------------------------------------------------------------------
    def new_game(
        self,
        players: int,
        seed: str,
        options: Any = None,
        *,
        layout: Mapping[str, str] | None = None,
        lower: Mapping[str, str] | None = None,
        first_seat: int | None = None,
        dice: Sequence[int] = (),
        characters: Sequence[str | None] = (),
        decks: Mapping[str, Sequence[str]] | None = None,
        danger_dice: Sequence[str] = (),
    ) -> State:
        """A new game. Test presets (:class:`~.model.Presets`): ``layout`` fixes the (top) token on
        some treasure places, ``first_seat`` the starting player, ``dice`` the next d6 results;
        Retkikunnat only: ``lower``, ``characters``, ``decks``, ``danger_dice``."""
        if not self.min_players <= players <= self.max_players:
            raise ValueError("players must be 2-6")
        presets = Presets(
            layout=layout,
            lower=lower,
            first_seat=first_seat,
            dice=dice,
            characters=characters,
            decks=decks,
            danger_dice=danger_dice,
        )
        return rules.setup(players, seed, normalize_options(options), presets)[0]

    def start_events(self, state: State) -> tuple[Event, ...]:
        """Token placement (ids only), characters and start places dealt at random, the starting
        player (base game: the roll-off), the quick game's first cards, and the first turn."""
        return rules.start_events(state)

    # --- turn order, legality, transitions, information ---------------------------------------------
    # The rules' own entry points (:func:`entry_points` of :attr:`rules`), not methods that call them:
    # these are called for every action of every game and AI look-ahead. ``legal_actions`` is the
    # candidates that pass ``check`` (the same filter with the calls through the engine left out);
    # ``apply`` is check, then perform.
    #: the module of the rules: :mod:`.rules`, which dispatches to the base game or Retkikunnat
    rules: ClassVar[ModuleType] = rules
    to_act, check, legal_actions, perform, apply, view = entry_points(rules)
    outcome = staticmethod(rules.outcome)
    #: the codec's own method (``Engine.notation`` calls it; one call less for every action)
    notation = staticmethod(NOTATION.write)

    def candidate_actions(self, state: State, seat: Seat) -> Iterable[Action]:
        candidates: Iterable[Action] = self.rules.candidates(state, seat)
        return candidates

    def hidden_tokens(self, state: State, seat: Seat | None) -> frozenset[str]:
        hidden: frozenset[str] = self.rules.hidden_tokens(state, seat)
        return hidden

    def for_game(self, state: State) -> AfrikanTahti:
        """A game without Retkikunnat is asked of :data:`BASE_GAME` (the base game's rules as its
        entry points), one with it of this engine."""
        return ENGINE if state.options.expansion else BASE_GAME


class BaseGame(AfrikanTahti):
    """The engine of the games of ``expansion=False`` (:meth:`AfrikanTahti.for_game`): the base game's
    rules (:mod:`.base.rules`) are its entry points, without the dispatch on the option that
    :mod:`.rules` makes in every call. A game with Retkikunnat is not one of its games."""

    rules: ClassVar[ModuleType] = base_rules
    to_act, check, legal_actions, perform, apply, view = entry_points(base_rules)


AfrikanTahti.types = {**types_of(vars(board)), **types_of(vars(model)), **types_of(vars(retkikunnat_model))}
ENGINE = AfrikanTahti()
BASE_GAME = BaseGame()
