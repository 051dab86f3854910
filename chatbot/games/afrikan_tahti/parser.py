"""Afrikan Tähti: free Finnish or English text -> action notations (vocabulary.md §1-§6).

The parser matches only against the actions legal for the speaker now (``ctx.legal``) and reads the
board situation from the speaker's view (``ctx.view``: phase, pawns, the move in progress). The
phase decides what a command means (vocabulary.md §5): "heitä" is the movement roll when declaring
and the release roll when captured; "mene Kongoon" declares the roll (and moves to Congo at once if
the die allows it) before the roll and picks the destination after it; "käännä nopalla" is the flip
roll; "en käännä" after a move ends the turn.

Reading order:

1. The vocabulary (places in every Finnish case and in English, the verbs and nouns per concept and
   language) is in :mod:`.lexicon`; the paths of the move in progress (the engine's own move menu)
   and the places ahead of a dot are in :mod:`.names`.
3. :class:`Reading`: what a message says, from the items of :meth:`Lexicon.scan`: the concepts said
   and denied, the places named (destinations, "via" places, "from" places) and the step counts.
4. :class:`AfrikanTahtiParser`: one method per phase, each turning a reading into a ``ParseResult``.
   Phases this module does not know (the Retkikunnat expansion adds some) give ``NotUnderstood``,
   so the buttons still work there.

Reason codes in ``NotLegal`` are the engine's, with its parameters (``not_an_airport``,
``no_such_route``, ``cannot_afford``, ``not_a_port``, ``no_such_leg``, ``at_sea``, ``no_token``,
``already_flipped``, ``can_afford_flip``, ``can_afford_fare``, ``wrong_destination``,
``not_reachable``, ``not_on_path``, ``not_a_place``, ``not_a_start``, ``wrong_phase`` (with
``phase``), ``not_your_turn``, ``game_over``), worked out from the view the way the engine would.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from chatbot.core.nlp import NEG, QUESTION, Item, Lemmatizer, Lexicon
from chatbot.core.parsing import Ambiguous, NotLegal, NotUnderstood, ParseContext, Parsed, ParseResult
from chatbot.games.afrikan_tahti.lexicon import (
    BUY,
    COMMANDS,
    DONE,
    FLIP,
    FLY,
    FREE,
    FROM,
    GO,
    HERE,
    ROLL,
    SAIL,
    SKIP,
    START,
    STAY,
    STEP,
    STOP,
    TRY,
    VIA_AFTER,
    VIA_BEFORE,
    X_ACCEPT,
    X_BUYD,
    X_CHOOSE,
    X_DECLINE,
    X_DISCARD,
    X_DONE,
    X_DUEL,
    X_END,
    X_EXCHANGE,
    X_FLIP,
    X_GEMS,
    X_HOLD,
    X_HORSESHOE,
    X_MINUS,
    X_OFFER,
    X_PASS,
    X_PEEK,
    X_PLAY,
    X_PLUS,
    X_REROLL,
    X_ROLL,
    X_SELL,
    X_STAR,
    X_SWAP,
    X_UNHOLD,
    X_USE,
    YES,
    expansion_lexicon_words,
    lexicon_words,
)
from chatbot.games.afrikan_tahti.names import ahead, move_menu_of, path_of
from engines.afrikan_tahti.board import AIR, AIRPORTS, CAPETOWN, CODE, LEGS, PLACE_SET, PORTS, node_of
from engines.afrikan_tahti.model import AIR_FARE, FLIP_PRICE, SEA_FARE, roll_only_when_broke
from engines.afrikan_tahti.rules import MoveMenu

SETUP, DECLARE, RELEASE, MOVE, AFTER_MOVE, OVER = "setup", "declare", "release", "move", "after_move", "over"

# --------------------------------------------------------------------------------------------------
# 3. What a message says
# --------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Reading:
    """Concepts said and denied, the places named as destinations (in order, each a tuple of the
    places one word may name), the "via" places, the "from" places and the step counts."""

    said: set[str] = field(default_factory=set)
    denied: set[str] = field(default_factory=set)
    places: list[tuple[str, ...]] = field(default_factory=list)
    vias: list[tuple[str, ...]] = field(default_factory=list)
    froms: list[tuple[str, ...]] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)
    unknown: int = 0
    question: bool = False
    negation: bool = False

    @classmethod
    def of(cls, items: Sequence[Item]) -> Reading:
        r = cls()
        r.question = bool(items) and items[0].has(QUESTION)
        for i, item in enumerate(items):
            pids = tuple(sorted(c.removeprefix("place:") for c in item.concepts if c.startswith("place:")))
            concepts = {c for c in item.concepts if not c.startswith("place:")}
            (r.denied if item.negated else r.said).update(concepts - {FROM})
            r.negation |= item.has(NEG)
            if pids:
                before = items[i - 1] if i > 0 else None
                after = items[i + 1] if i + 1 < len(items) else None
                if (after is not None and after.has(VIA_AFTER)) or (
                    before is not None and before.has(VIA_BEFORE)
                ):
                    r.vias.append(pids)  # "Suakinin kautta", "via Suakin"
                elif item.has(FROM) or (before is not None and before.has(FROM)):
                    r.froms.append(pids)  # "Kairosta", "from Cairo"
                else:
                    r.places.append(pids)
            elif item.numbers:
                r.numbers.append(item.numbers[0].value)
            elif not item.known:
                r.unknown += 1
        return r

    def has(self, *concepts: str) -> bool:
        return any(c in self.said for c in concepts)

    def denies(self, *concepts: str) -> bool:
        return any(c in self.denied for c in concepts)

    @property
    def named(self) -> list[tuple[str, ...]]:
        """Destinations; a lone "from" place counts as one ("Kairosta" when choosing a start)."""
        return self.places or self.froms

    @property
    def is_command(self) -> bool:
        """A game command, not chat: a command word, or a message of nothing but place names (and
        step counts), like "Kongoon" or "Kairo"."""
        if (self.said | self.denied) & COMMANDS.keys():
            return True
        if self.unknown:
            return False
        return bool(self.places or self.froms or self.vias) or self.negation  # "Kongoon", a bare "ei"


# --------------------------------------------------------------------------------------------------
# 4. The parser
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Legal:
    """The legal notations by kind, for matching."""

    starts: dict[str, str]
    moves: tuple[tuple[str, str, str | None], ...]  # (notation, destination node, via place)
    boards: dict[str, str]
    frees: dict[str, str]
    flies: dict[str, str]
    simple: frozenset[str]  # roll, flip, flip_roll, stay, end_phase

    @classmethod
    def of(cls, legal: Iterable[str]) -> Legal:
        starts: dict[str, str] = {}
        moves: list[tuple[str, str, str | None]] = []
        boards: dict[str, str] = {}
        frees: dict[str, str] = {}
        flies: dict[str, str] = {}
        simple: set[str] = set()
        for notation in legal:
            words = notation.split()
            match words:
                case ["start", place]:
                    starts[place] = notation
                case ["move", to]:
                    moves.append((notation, node_of(to) or to, None))
                case ["move", to, "via", via]:
                    moves.append((notation, node_of(to) or to, node_of(via) or via))
                case ["board", to]:
                    boards[to] = notation
                case ["free_sail", to]:
                    frees[to] = notation
                case ["fly", to]:
                    flies[to] = notation
                case [word]:
                    simple.add(word)
        return cls(starts, tuple(moves), boards, frees, flies, frozenset(simple))


class AfrikanTahtiParser:
    """Understands Afrikan Tähti commands; one instance per lemmatiser (tests force each backend)."""

    def __init__(self, lemmatizer: Lemmatizer | None = None) -> None:
        self.lexicon = Lexicon(lexicon_words(), lemmatizer)
        self.x = XParser(lemmatizer)

    def read(self, text: str, lang: str, names: Sequence[str] = ()) -> Reading:
        # hyphens and spaces are alike in place names ("Dar-Fur", "Ain Galaka")
        return Reading.of(self.lexicon.scan(text.replace("-", " "), lang, names))

    def parse(self, text: str, ctx: ParseContext) -> ParseResult:
        typed = " ".join(text.casefold().split())
        if typed in ctx.legal:
            return Parsed((typed,))  # a notation typed as is ("move p12", "fly cairo")
        r = self.read(text, ctx.lang, ctx.seat_names)
        if r.question or text.rstrip().endswith("?"):
            return NotUnderstood()  # "miten lentäminen toimii?" is for the rules, not a move
        if getattr(ctx.view, "x", None) is not None and ctx.seat is not None:
            xresult = self.x.parse(text, ctx)
            if xresult is not None:
                return xresult
        if not r.is_command:
            return NotUnderstood()
        view = ctx.view
        phase = str(getattr(view, "phase", "") or "")
        if phase == OVER:
            return NotLegal("game_over")
        if not ctx.legal or ctx.seat is None:
            turn = getattr(view, "turn", None)
            return NotLegal("not_your_turn", (("turn", turn),) if turn is not None else ())
        handler = {
            SETUP: self._setup,
            DECLARE: self._declare,
            RELEASE: self._release,
            MOVE: self._move,
            AFTER_MOVE: self._after_move,
        }.get(phase)
        if handler is None:
            return NotUnderstood()  # a phase of the expansion: its buttons still work
        return handler(r, Turn(ctx, Legal.of(ctx.legal)))

    # --- setup: choose Tangier or Cairo ---------------------------------------------------------

    def _setup(self, r: Reading, turn: Turn) -> ParseResult:
        named = _flat(r.named)
        starts = [turn.legal.starts[p] for p in named if p in turn.legal.starts]
        if len(set(starts)) == 1:
            return Parsed((starts[0],))
        if starts:
            return Ambiguous(tuple(dict.fromkeys(starts)), "start")
        if named:
            return NotLegal("not_a_start", (("place", named[0]),))
        if r.has(START, GO, ROLL):
            return Ambiguous(tuple(turn.legal.starts.values()), "start")
        return turn.wrong_phase()

    # --- captured: the release roll ---------------------------------------------------------------

    def _release(self, r: Reading, turn: Turn) -> ParseResult:
        if r.has(ROLL, GO, TRY) and "roll" in turn.legal.simple:
            return Parsed(("roll",))
        return turn.wrong_phase()

    # --- declare: roll, sail, fly, flip, roll for the token, stay -----------------------------------

    def _declare(self, r: Reading, turn: Turn) -> ParseResult:
        me = turn.me
        dest = _first(r.named)
        if r.has(FLIP) or (r.has(BUY) and not r.has(SAIL) and not dest):
            if r.has(ROLL, TRY):
                return turn.pick("flip_roll") or turn.why_not_flip(roll=True)
            return turn.pick("flip") or turn.why_not_flip(roll=False)
        if r.has(FLY):
            return self._fly(dest, turn)
        if r.has(SAIL, FREE) or (r.has(BUY) and dest):
            return self._sail(dest, r.has(FREE), turn)
        if me.voyage is not None:  # at sea: sail on or stay (S5)
            if r.has(STAY, SKIP, DONE) or r.denies(GO, ROLL):
                return turn.pick("stay") or turn.wrong_phase()
            if r.has(ROLL, GO, STOP) or dest:
                return self._sail(dest, False, turn)
        elif (r.has(STAY, SKIP, DONE) or r.denies(GO, ROLL)) and (not dest or me.node in dest):
            return turn.pick("stay") or turn.wrong_phase()  # "jää tähän"; "jään Timbuktuun" walks there
        if dest:
            return self._toward(dest, r.has(GO, ROLL, STOP, STAY), turn)
        if r.has(ROLL, GO):
            return turn.pick("roll") or turn.wrong_phase()
        return turn.refusal(r)

    def _fly(self, dest: tuple[str, ...] | None, turn: Turn) -> ParseResult:
        flies = turn.legal.flies
        if dest:
            fits = [flies[p] for p in dest if p in flies]
            if len(fits) == 1:
                return Parsed((fits[0],))
            if fits:
                return Ambiguous(tuple(fits), "destination")
            return turn.why_not_fly(dest[0])
        if len(flies) == 1:
            return Parsed(tuple(flies.values()))
        if flies:
            return Ambiguous(tuple(flies.values()), "destination")
        return turn.why_not_fly(None)

    def _sail(self, dest: tuple[str, ...] | None, free: bool, turn: Turn) -> ParseResult:
        legal, me = turn.legal, turn.me
        if me.voyage is not None:  # continuing: a paid voyage rolls, a free one moves on by itself
            if dest and me.voyage.dest not in dest:
                return NotLegal("wrong_destination", (("dest", me.voyage.dest),))
            if me.voyage.paid:
                return turn.pick("roll") or turn.wrong_phase()
            return (
                Parsed((legal.frees[me.voyage.dest],))
                if me.voyage.dest in legal.frees
                else turn.wrong_phase()
            )
        ships = {**legal.boards, **legal.frees}
        if dest:
            fits = [ships[p] for p in dest if p in ships]
            if len(fits) == 1:
                return Parsed((fits[0],))
            if fits:
                return Ambiguous(tuple(fits), "destination")
            return turn.why_not_sail(dest[0], free)
        if len(ships) == 1:
            return Parsed(tuple(ships.values()))
        if ships:
            return Ambiguous(tuple(ships.values()), "destination")
        return turn.why_not_sail(None, free)

    def _toward(self, dest: tuple[str, ...], walking: bool, turn: Turn) -> ParseResult:
        """A destination before the roll: walking there means rolling first; the move follows in
        the same command when the die allows it (the core drops a follow-up that is not legal)."""
        legal, me = turn.legal, turn.me
        if me.node in dest and not walking:
            return turn.pick("stay") or turn.wrong_phase()
        other = [table[p] for p in dest for table in (legal.boards, legal.frees, legal.flies) if p in table]
        if "roll" not in legal.simple:
            return Ambiguous(tuple(other), "destination") if other else turn.wrong_phase()
        if other and not walking:
            # "Kongoon" from a port or airport with a route to Congo: fly, sail or walk?
            return Ambiguous((*other, "roll"), "how")
        if len(dest) > 1:
            return Parsed(("roll",))  # "Victoria": the buttons after the roll tell the two apart
        return Parsed(("roll", f"move {CODE[dest[0]]}"))

    # --- move: where the rolled move ends -------------------------------------------------------------

    def _move(self, r: Reading, turn: Turn) -> ParseResult:
        legal, me = turn.legal, turn.me
        here = me.node
        stop_here = next((n for n, to, via in legal.moves if to == here and via is None), None)
        dest = _first(r.named)
        if r.has(FLY):
            return turn.wrong_phase()
        if r.has(SAIL, FREE):
            boards = legal.boards
            if dest:
                fits = [boards[p] for p in dest if p in boards]
                if len(fits) == 1:
                    return Parsed((fits[0],))
                if fits:
                    return Ambiguous(tuple(fits), "destination")
                return turn.why_not_board_now(dest[0])
            if boards:
                return (
                    Parsed(tuple(boards.values())) if len(boards) == 1 else Ambiguous(tuple(boards.values()))
                )
            return turn.why_not_board_now(None)
        then_flip = ("flip",) if r.has(FLIP) and not r.denies(FLIP) else ()
        if dest and here not in dest:
            return self._destination(dest, _first(r.vias), r.numbers, then_flip, turn)
        if r.numbers and (r.has(STEP, GO, STOP) or not r.said - {STEP}):
            return self._steps(r.numbers[0], None, then_flip, turn)
        if dest or r.has(STAY, HERE, SKIP, DONE) or then_flip or (r.has(STOP) and not r.has(GO)):
            if stop_here:
                return Parsed((stop_here, *then_flip))
            return NotLegal("not_a_place", (("node", here),))
        if r.has(ROLL, TRY):
            return turn.wrong_phase()
        if r.has(GO, STOP, STEP):
            return Ambiguous(
                tuple(n for n, _to, _via in legal.moves) + tuple(legal.boards.values()), "destination"
            )
        return turn.refusal(r)

    def _destination(
        self,
        dest: tuple[str, ...],
        via: tuple[str, ...] | None,
        numbers: list[int],
        then: tuple[str, ...],
        turn: Turn,
    ) -> ParseResult:
        legal = turn.legal
        fits = [(n, to, v) for n, to, v in legal.moves if to in dest]
        if not fits:
            if numbers:  # "3 askelta Kongon suuntaan": a dot toward Congo
                return self._steps(numbers[0], dest, then, turn)
            ships = [legal.boards[p] for p in dest if p in legal.boards]
            if ships:
                # the place is reached only by ship: confirm the fare with a button (vocabulary.md §5)
                return Ambiguous(tuple(ships), "board")
            return NotLegal("not_reachable", (("to", dest[0]),))
        places = {to for _n, to, _v in fits}
        if len(places) > 1:
            return Ambiguous(tuple(n for n, _to, v in fits if v is None), "destination")
        if via:
            exact = [n for n, _to, v in fits if v in via]
            if exact:
                return Parsed((exact[0], *then))
            plain = next(n for n, _to, v in fits if v is None)
            canonical = path_of(turn.menu, fits[0][1], None)
            if any(p in canonical[:-1] for p in via):
                return Parsed((plain, *then))  # the canonical path already goes that way
            return NotLegal("not_on_path", (("via", via[0]),))
        if len(fits) > 1 and turn.via_matters(fits[0][1]):
            return Ambiguous(tuple(n for n, _to, _v in fits), "via")
        plain = next(n for n, _to, v in fits if v is None)
        return Parsed((plain, *then))

    def _steps(
        self, steps: int, toward: tuple[str, ...] | None, then: tuple[str, ...], turn: Turn
    ) -> ParseResult:
        """Moves of exactly ``steps`` steps (dots included), toward a place when one is named; of
        two dots toward the same place the one nearer to it is meant."""
        fits: list[tuple[int, str]] = []
        for n, to, via in turn.legal.moves:
            if via is not None:
                continue
            path = path_of(turn.menu, to, None)
            if len(path) != steps:
                continue
            if not toward or to in toward:
                fits.append((0, n))
            elif to not in PLACE_SET:
                prev = path[-2] if len(path) > 1 else turn.me.node
                near = [d for p, d in ahead(prev, to) if p in toward]
                if near:
                    fits.append((min(near), n))
        best = [n for d, n in fits if d == min((d for d, _n in fits), default=0)]
        if len(best) == 1:
            return Parsed((best[0], *then))
        if best:
            return Ambiguous(tuple(best), "destination")
        return NotLegal("not_reachable", (("steps", steps),))

    # --- after the move: flip the token here or not ------------------------------------------------

    def _after_move(self, r: Reading, turn: Turn) -> ParseResult:
        if r.denies(FLIP, BUY) or r.has(DONE, SKIP, STAY) or (r.negation and not r.has(FLIP, BUY, YES)):
            return turn.pick("end_phase") or turn.wrong_phase()
        if r.has(FLIP, BUY, YES):
            if r.has(ROLL, TRY):
                return turn.wrong_phase()  # the roll for a token replaces a move; after one it is too late
            return turn.pick("flip") or turn.why_not_flip(roll=False)
        return turn.refusal(r)


@dataclass(slots=True)
class Turn:
    """The speaker's situation while one message is parsed: legal notations, own pawn, paths."""

    ctx: ParseContext
    legal: Legal
    _menu: MoveMenu | None = None
    _menu_read: bool = False

    @property
    def view(self) -> Any:
        return self.ctx.view

    @property
    def me(self) -> Any:
        return self.view.pawns[self.ctx.seat]

    @property
    def menu(self) -> MoveMenu | None:
        """The engine's menu of the move in progress (its move paths)."""
        if not self._menu_read and self.ctx.seat is not None:
            self._menu, self._menu_read = move_menu_of(self.view, self.ctx.seat), True
        return self._menu

    def pick(self, notation: str) -> Parsed | None:
        return Parsed((notation,)) if notation in self.legal.simple else None

    def wrong_phase(self) -> NotLegal:
        return NotLegal("wrong_phase", (("phase", self.view.phase),))

    def refusal(self, r: Reading) -> ParseResult:
        return self.wrong_phase() if (r.said | r.denied) & COMMANDS.keys() else NotUnderstood()

    def via_matters(self, to: str) -> bool:
        """Whether the paths to ``to`` differ in a way the player may care about. In the base game
        only the Capetown bonus rewards passing a place; in other modes passing places draws event
        cards, so the choice always matters there."""
        if not is_base(self.view.options):
            return True
        unclaimed = self.view.capetown_claimed is None and self.view.options.capetown_bonus > 0
        paths = (self.menu.paths(to) if self.menu is not None else None) or ()
        return unclaimed and any(CAPETOWN in p[:-1] for p in paths)

    # --- reasons, worked out like the engine's check -----------------------------------------------

    def why_not_flip(self, roll: bool) -> NotLegal:
        me, view = self.me, self.view
        if view.phase not in (DECLARE, AFTER_MOVE):
            return self.wrong_phase()
        if not any(place == me.node for place, _tid in view.face_down):
            return NotLegal("no_token", (("node", me.node),))
        if view.flipped_this_turn:
            return NotLegal("already_flipped")
        if roll:
            if view.phase != DECLARE:
                return self.wrong_phase()
            if roll_only_when_broke(view.options) and me.cash >= FLIP_PRICE:
                return NotLegal("can_afford_flip", (("price", FLIP_PRICE),))
        elif me.cash < FLIP_PRICE:
            return NotLegal("cannot_afford", (("price", FLIP_PRICE), ("cash", me.cash)))
        return self.wrong_phase()

    def why_not_fly(self, to: str | None) -> NotLegal:
        me = self.me
        if me.voyage is not None:
            return NotLegal("at_sea")
        if me.node not in AIRPORTS:
            return NotLegal("not_an_airport", (("node", me.node),))
        if to is not None and (me.node, to) not in AIR:
            return NotLegal("no_such_route", (("start", me.node), ("to", to)))
        if me.cash < AIR_FARE:
            return NotLegal("cannot_afford", (("price", AIR_FARE), ("cash", me.cash)))
        return self.wrong_phase()

    def why_not_sail(self, to: str | None, free: bool) -> NotLegal:
        me = self.me
        if me.node not in PORTS:
            return NotLegal("not_a_port", (("node", me.node),))
        if to is not None and (me.node, to) not in LEGS:
            return NotLegal("no_such_leg", (("port", me.node), ("dest", to)))
        if free and me.cash >= SEA_FARE:
            return NotLegal("can_afford_fare", (("fare", SEA_FARE),))
        return self.wrong_phase()

    def why_not_board_now(self, to: str | None) -> NotLegal:
        me, move = self.me, self.view.move
        if me.node not in PORTS:
            return NotLegal("not_a_port", (("node", me.node),))
        if to is not None and (me.node, to) not in LEGS:
            return NotLegal("no_such_leg", (("port", me.node), ("dest", to)))
        if move is not None and move.steps <= 0:
            return NotLegal("no_steps_left")
        if me.cash < SEA_FARE:
            return NotLegal("cannot_afford", (("price", SEA_FARE), ("cash", me.cash)))
        if to is not None and move is not None and LEGS[(me.node, to)].path[1] in move.visited:
            return NotLegal("leg_blocked", (("dest", to),))
        return NotLegal("cannot_board_here")


def is_base(options: Any) -> bool:
    """Whether a game plays the plain base rules (older options name the mode, newer ones say
    whether the Retkikunnat expansion is on)."""
    if hasattr(options, "expansion"):
        return not options.expansion
    return getattr(options, "mode", "base") == "base"


def _first(named: list[tuple[str, ...]]) -> tuple[str, ...] | None:
    return named[0] if named else None


def _flat(named: list[tuple[str, ...]]) -> list[str]:
    return list(dict.fromkeys(p for pids in named for p in pids))


@lru_cache(maxsize=1)
def _default_parser() -> AfrikanTahtiParser:
    return AfrikanTahtiParser()


def parse(text: str, ctx: ParseContext) -> ParseResult:
    """Understand ``text`` as Afrikan Tähti actions legal for the speaker now (see the module docstring)."""
    return _default_parser().parse(text, ctx)


# --------------------------------------------------------------------------------------------------
# 5. Retkikunnat (expansion) commands: cards, characters, answers, duels and offers


@dataclass(slots=True)
class XReading:
    said: set[str] = field(default_factory=set)
    denied: set[str] = field(default_factory=set)
    cards: list[str] = field(default_factory=list)
    places: list[str] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)

    def has(self, *concepts: str) -> bool:
        return any(c in self.said for c in concepts)


_X_HEADS = {
    "sell": X_SELL,
    "use": X_USE,
    "discard": X_DISCARD,
    "hold": X_HOLD,
    "unhold": X_UNHOLD,
    "peek": X_PEEK,
    "exchange": X_EXCHANGE,
    "buy_discard": X_BUYD,
    "swap_stack": X_SWAP,
    "gem_roll": X_GEMS,
}


class XParser:
    """Matches an expansion command against the legal notations; ``None`` when it says nothing the
    expansion knows, so the base phases' parser gets its turn."""

    def __init__(self, lemmatizer: Lemmatizer | None = None) -> None:
        self.lexicon = Lexicon(expansion_lexicon_words(), lemmatizer)

    def read(self, text: str, lang: str, names: Sequence[str]) -> XReading:
        r = XReading()
        for item in self.lexicon.scan(text.replace("-", " "), lang, names):
            concepts = set(item.concepts)
            r.cards.extend(c[5:] for c in sorted(concepts) if c.startswith("card:"))
            r.places.extend(c[6:] for c in sorted(concepts) if c.startswith("place:"))
            plain = {c for c in concepts if ":" not in c}
            (r.denied if item.negated else r.said).update(plain - {NEG})
            if item.has(NEG) and not plain - {NEG}:
                r.denied.add(NEG)
            r.seats.extend(item.seats)
            if item.numbers and not concepts:
                r.numbers.extend(n.value for n in item.numbers[:1] if n.value is not None)
        return r

    def parse(self, text: str, ctx: ParseContext) -> ParseResult | None:
        r = self.read(text, ctx.lang, ctx.seat_names)
        legal = list(ctx.legal)
        if not legal:
            return None
        fits = [n for n in legal if self._fits(n.split(), r, ctx)]
        if not fits and r.has(X_OFFER) and any(n.startswith("offer ") for n in legal):
            return self._offer(r, ctx)
        if not fits and (r.denied & {X_PLAY, X_REROLL, X_ACCEPT, NEG} or r.has(X_PASS)):
            fits = [n for n in legal if n in ("pass", "decline", "reroll_done")][:1]
        if not fits:
            return None
        if any(n.startswith("play ") for n in fits) and not ctx.extra.get("private", True):
            return NotLegal("play_in_private")
        if len(fits) == 1:
            return Parsed((fits[0],))
        return Ambiguous(tuple(fits[:8]), "card")

    def _fits(self, w: list[str], r: XReading, ctx: ParseContext) -> bool:
        head = w[0]
        cards, places, seats = r.cards, r.places, r.seats
        match w:
            case ["character", ident]:
                return ident in cards
            case ["seaplane", port]:
                return "seaplane" in cards and port in places
            case ["gem_roll"]:
                return r.has(X_GEMS)
            case ["reroll_move"]:
                return r.has(X_REROLL) and not r.numbers and ("compass" in cards or not cards)
            case ["adjust", delta]:
                return r.has(X_PLUS) if delta == "+1" else r.has(X_MINUS)
            case ["reroll", card, dice]:
                wanted = ",".join(str(n) for n in sorted(set(r.numbers)))
                return r.has(X_REROLL, X_ROLL) and wanted == dice and (not cards or card in cards)
            case ["reroll_done"]:
                return r.has(X_DONE)
            case ["use", card, *arg]:
                used = r.has(X_USE) or (bool(places) and not r.said - {X_CHOOSE})
                return used and card in cards and (not arg or not places or arg[0] in places)
            case [("sell" | "discard" | "hold" | "unhold"), card]:
                if head == "sell" and seats:
                    return False  # "myyn Ratsun Matille": a trade offer
                if head == "hold" and r.has(X_UNHOLD):
                    return False
                return r.has(_X_HEADS[head]) and card in cards
            case ["play", card, *arg]:
                if card not in cards or not (r.has(X_PLAY) or (len(w) == 2 and not r.said)):
                    return False
                if arg and ":" in arg[0]:
                    s, _, target = arg[0].partition(":")
                    seat = seat_of_word(s)
                    return (not seats or seat in seats) and (target in cards or len(cards) == 1)
                return not arg or not places or arg[0] in places
            case ["pass"]:
                return r.has(X_PASS)
            case ["accept"]:
                return r.has(X_ACCEPT) and not r.denied & {X_ACCEPT}
            case ["decline"]:
                return r.has(X_DECLINE) or bool(r.denied & {X_ACCEPT})
            case ["duel", s, target]:
                if not r.has(X_DUEL) or (seats and seat_of_word(s) not in seats):
                    return False
                kind, _, arg_ = target.partition(":")
                if r.has(X_STAR):
                    return target == "star"
                if r.has(X_HORSESHOE):
                    return target == "horseshoe"
                if cards:
                    return kind == "card" and arg_ in cards
                if r.numbers:
                    return kind == "money" and int(arg_) in r.numbers
                return True
            case ["swap_stack", pid]:
                return r.has(X_SWAP) and pid in places
            case ["peek" | "exchange" | "buy_discard" | "gem_roll"]:
                return r.has(_X_HEADS[head])
            case ["choose", option]:
                seat = seat_of_word(option)
                if seat is not None:
                    return seat in seats
                if option in places or option in cards:
                    return True
                options = [n.split()[1] for n in ctx.legal if n.startswith("choose ")]
                return (
                    len(r.numbers) == 1
                    and 1 <= r.numbers[0] <= len(options)
                    and options[r.numbers[0] - 1] == option
                )
            case ["roll"]:
                prompt = getattr(getattr(ctx.view, "x", None), "prompt", None)
                return prompt is not None and prompt.kind in ("danger", "duel") and r.has(X_ROLL)
            case ["flip" | "flip_roll"]:
                return (
                    getattr(ctx.view, "phase", None) == "phase3"
                    and r.has(X_FLIP)
                    and ((head == "flip_roll") == r.has(X_ROLL))
                )
            case ["end_phase"]:
                return getattr(ctx.view, "phase", None) in ("phase2", "phase3") and r.has(X_END, X_DONE)
        return False

    def _offer(self, r: XReading, ctx: ParseContext) -> ParseResult:
        others = [s for s in dict.fromkeys(r.seats) if s != ctx.seat]
        if len(others) != 1 or ctx.seat is None:
            targets = sorted({n.split()[1] for n in ctx.legal if n.startswith("offer ")})
            return Ambiguous(
                tuple(n for n in ctx.legal if n.startswith("offer ") and n.split()[1] in targets)[:6],
                "player",
            )
        other = others[0]
        players = ctx.view.x.players
        mine = {i.split("#")[0] for i in players[ctx.seat].cards}
        theirs = {i.split("#")[0] for i in players[other].cards}
        give = [c for c in r.cards if c in mine]
        get = [c for c in r.cards if c in theirs and c not in give]
        sums = [str(n) for n in r.numbers if n >= 100]
        if sums:
            (get if give and not get else give).append(sums[0])
        if not give and not get:
            return NotLegal("empty_offer")
        return Parsed((f"offer seat{other} {','.join(give) or '-'} for {','.join(get) or '-'}",))


def seat_of_word(word: str) -> int | None:
    return int(word[4:]) if word.startswith("seat") and word[4:].isdigit() else None
