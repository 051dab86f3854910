"""Afrikan Tähti: free Finnish or English text -> the action the player meant (vocabulary.md §5-§6).

The words are matched against the legal actions where they fit one (the same actions the buttons
show) and read from the speaker's view otherwise (phase, pawns, the move in progress). The phase
decides what a command means (vocabulary.md §5): "heitä" is the movement roll when declaring and
the release roll when captured; "mene Kongoon" declares the roll (and moves to Congo at once if the
die allows it) before the roll and picks the destination after it; "käännä nopalla" is the flip
roll; "en käännä" after a move ends the turn.

The parser gets the speaker's legal actions (the engine's objects) and returns the actions the words
name, legal now or not: "lennä Kongoon" from Cairo is ``Fly("congo")``, and the engine's ``check``
(the core asks it) says there is no such flight. A verb without its object stands for every action
of its kind ("lennä" alone: a flight from here); when none of them is legal, the first one stands for
all, since the engine refuses them all for the same reason (at sea, no airport or port here, the
fare, the phase). So does a command of a speaker who has nothing to do now (the engine says
``not_your_turn`` or ``game_over``; the core answers the first in its own words), and a command of
the phase that a Retkikunnat question on the table does not take (``wrong_prompt``). The parser
refuses by itself only where no action carries the meaning:

- ``wrong_phase``, for command words that name nothing in this phase ("kyllä" before the roll);
- ``wrong_prompt``, for a command of the phase that the question on the table would take for its
  answer ("heitä pois ratsu" is no roll of the danger dice);
- ``not_reachable`` with ``steps``, for a step count no move of this roll has;
- ``wrong_destination`` on a paid voyage, which goes on by a roll that names no port;
- ``play_in_private`` and ``ask_in_private``: hand cards and the window setting typed in the group
  are refused so that the hand stays secret (message privacy is not a fact of any view; see
  :func:`_in_private`).

Reading order: :class:`AtReading` (what a message says: concepts, places, "via" and "from" places,
step counts), :class:`AfrikanTahtiParser` (one method per phase), :class:`Turn` (the speaker's
situation), then the Retkikunnat commands (:class:`ExpansionReading`, :class:`ExpansionParser`).
Phases this module does not know give ``NotUnderstood``, so the buttons still work there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from chatbot.core.nlp import NEG, QUESTION, Item, Lemmatizer, Lexicon, Reading
from chatbot.core.parsing import Ambiguous, NotLegal, NotUnderstood, ParseContext, Parsed, ParseResult
from chatbot.games._spoken import YES as YES_ANSWER
from chatbot.games._spoken import (
    abessive_negated,
    answer_word,
    is_hedged,
    is_question,
    negation_once,
    without_false_questions,
    without_word_typos,
)
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
    X_ASK,
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
from engines.afrikan_tahti import ENGINE
from engines.afrikan_tahti.board import AIR_FROM, AIRPORTS, CAPETOWN, LEGS_FROM, PLACE_SET, PORTS
from engines.afrikan_tahti.model import (
    ACTIONS,
    Accept,
    Adjust,
    Ask,
    Board,
    BuyDiscard,
    Character,
    Choose,
    Decline,
    Discard,
    Duel,
    EndPhase,
    Exchange,
    Flip,
    FlipRoll,
    Fly,
    FreeSail,
    GemRoll,
    Hold,
    Move,
    MoveMenu,
    Offer,
    Pass,
    PawnView,
    Peek,
    Play,
    Reroll,
    RerollDone,
    RerollMove,
    Roll,
    Seaplane,
    Sell,
    Start,
    Stay,
    SwapStack,
    Unhold,
    Use,
    View,
    seat_of,
)
from engines.afrikan_tahti.retkikunnat.model import XView
from engines.codec import BadNotation

SETUP, DECLARE, RELEASE, MOVE, AFTER_MOVE, OVER = "setup", "declare", "release", "move", "after_move", "over"

# --------------------------------------------------------------------------------------------------
# 1. What a message says
# --------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class AtReading(Reading):
    """Besides the concepts said and denied: the places named as destinations (in order, each a
    tuple of the places one word may name), the "via" places, the "from" places, the step counts,
    and whether the message negates at all."""

    places: list[tuple[str, ...]] = field(default_factory=list)
    vias: list[tuple[str, ...]] = field(default_factory=list)
    froms: list[tuple[str, ...]] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)
    negation: bool = False

    def concepts_of(self, item: Item) -> Iterable[str]:
        # a place is a destination, not a concept; "from" only tells which kind of place
        return {c for c in item.concepts if not c.startswith("place:")} - {FROM}

    def take(self, items: Sequence[Item], index: int) -> None:
        item = items[index]
        self.negation |= item.has(NEG)
        pids = tuple(sorted(c.removeprefix("place:") for c in item.concepts if c.startswith("place:")))
        if pids:
            before = items[index - 1] if index > 0 else None
            after = items[index + 1] if index + 1 < len(items) else None
            if (after is not None and after.has(VIA_AFTER)) or (
                before is not None and before.has(VIA_BEFORE)
            ):
                self.vias.append(pids)  # "Suakinin kautta", "via Suakin"
            elif item.has(FROM) or (before is not None and before.has(FROM)):
                self.froms.append(pids)  # "Kairosta", "from Cairo"
            else:
                self.places.append(pids)
        elif item.numbers:
            self.numbers.append(item.numbers[0].value)

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
# 2. The parser
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Legal:
    """The legal actions by kind, for matching the words against them."""

    starts: dict[str, Start]
    moves: tuple[tuple[Move, str, str | None], ...]  # (action, destination node, via place)
    boards: dict[str, Board]
    frees: dict[str, FreeSail]
    flies: dict[str, Fly]
    all: frozenset[Any]

    @classmethod
    def of(cls, legal: Iterable[Any]) -> Legal:
        starts: dict[str, Start] = {}
        moves: list[tuple[Move, str, str | None]] = []
        boards: dict[str, Board] = {}
        frees: dict[str, FreeSail] = {}
        flies: dict[str, Fly] = {}
        actions = tuple(legal)
        for action in actions:
            match action:
                case Start(place=place):
                    starts[place] = action
                case Move(to=to, via=via):
                    moves.append((action, to, via))
                case Board(to=to):
                    boards[to] = action
                case FreeSail(to=to):
                    frees[to] = action
                case Fly(to=to):
                    flies[to] = action
        return cls(starts, tuple(moves), boards, frees, flies, frozenset(actions))


def meant(*actions: Any) -> Parsed:
    """The actions the words name, legal now or not."""
    return Parsed(actions)


def any_flight(node: str | None) -> str:
    """The destination that stands for "fly" without one when no flight is legal: the first route
    from here, or any airport when this is none (the engine refuses all flights alike then)."""
    routes = AIR_FROM.get(node or "", ())
    return routes[0] if routes else min(AIRPORTS)


def any_voyage(node: str | None) -> str:
    """The destination that stands for "sail" without one when no voyage is legal (see above)."""
    legs = LEGS_FROM.get(node or "", ())
    return legs[0] if legs else min(PORTS)


class AfrikanTahtiParser:
    """Understands Afrikan Tähti commands; one instance per lemmatiser (tests force each backend)."""

    def __init__(self, lemmatizer: Lemmatizer | None = None) -> None:
        self.lexicon = Lexicon(lexicon_words(), lemmatizer)
        self.expansion = ExpansionParser(lemmatizer)

    def read(self, text: str, lang: str, names: Sequence[str] = ()) -> AtReading:
        # hyphens and spaces are alike in place names ("Dar-Fur", "Ain Galaka")
        return AtReading.of(self._scan(text, lang, names), question=QUESTION)

    def _scan(self, text: str, lang: str, names: Sequence[str] = ()) -> list[Item]:
        scanned = without_word_typos(
            self.lexicon.scan(text.replace("-", " "), lang, names), self.lexicon.lemmatizer
        )
        return negation_once(abessive_negated(without_false_questions(scanned)), frozenset(COMMANDS))

    def parse(self, text: str, ctx: ParseContext[View]) -> ParseResult:
        typed = _typed_notation(text, ctx.legal)
        if typed is not None:
            return Parsed((typed,))  # a notation typed as is ("move p12", "fly cairo")
        r = self.read(text, ctx.lang, ctx.seat_names)
        scanned = self._scan(text, ctx.lang, ctx.seat_names)
        if r.question or is_question(text, scanned, self.lexicon, ctx.lang) or is_hedged(text):
            return NotUnderstood()  # "miten lentäminen toimii?" is for the rules, not a move
        word = answer_word(text)
        if word is not None and ctx.view.phase == AFTER_MOVE and ctx.view.x is None and ctx.legal:
            # "ok", "joo", "ei", "pass": the answer to "flip the token?"; a lone "ok" in the group may
            # answer someone else, and a flip costs money, so a yes counts only in private
            if word != YES_ANSWER:
                return Parsed((EndPhase(),))
            return Parsed((Flip(),)) if ctx.private else NotUnderstood()
        view = ctx.view
        if view.x is not None and ctx.seat is not None:
            answer = self.expansion.parse(text, ctx)
            if answer is not None:
                return answer
        if not r.is_command:
            return NotUnderstood()
        if ctx.seat is None:
            return NotLegal("not_your_turn")  # an onlooker: the core answers that they do not play
        if not ctx.legal:
            # nothing to do now (someone else's turn, the end of the game): the action the words name
            # by themselves, which the engine refuses; the core answers "not your turn" in its own
            # words, naming whose turn it is
            return self._elsewhere(r, Turn(view, ctx.seat, Legal.of(()))) or Turn.wrong_phase_of(view)
        handler = {
            SETUP: self._setup,
            DECLARE: self._declare,
            RELEASE: self._release,
            MOVE: self._move,
            AFTER_MOVE: self._after_move,
        }.get(view.phase)
        if handler is None:
            return NotUnderstood()  # a phase of the expansion: its buttons still work
        result = handler(r, Turn(view, ctx.seat, Legal.of(ctx.legal)))
        prompt = view.x.prompt if view.x is not None else None
        if prompt is not None and isinstance(result, Parsed) and result.actions[0] in ctx.legal:
            # a Retkikunnat question is on the table and the words answer none of its options: a
            # command of the phase is no answer, and must not pass for one ("heitä pois ratsu" is
            # no roll of the danger dice); a command the question does not take the engine refuses
            return NotLegal("wrong_prompt", (("prompt", prompt.kind),))
        return result

    # --- setup: choose Tangier or Cairo ---------------------------------------------------------

    def _setup(self, r: AtReading, turn: Turn) -> ParseResult:
        named = _flat(r.named)
        starts = [turn.legal.starts[p] for p in named if p in turn.legal.starts]
        if len(set(starts)) == 1:
            return Parsed((starts[0],))
        if starts:
            return Ambiguous(tuple(dict.fromkeys(starts)), "start")
        if named:
            return meant(Start(named[0]))
        if r.has(START, GO, ROLL):
            return Ambiguous(tuple(turn.legal.starts.values()), "start")
        return self._elsewhere(r, turn) or turn.wrong_phase()

    # --- captured: the release roll ---------------------------------------------------------------

    def _release(self, r: AtReading, turn: Turn) -> ParseResult:
        if r.has(ROLL, GO, TRY):
            return Parsed((Roll(),))
        return self._elsewhere(r, turn) or turn.wrong_phase()

    # --- words of another phase's command ----------------------------------------------------------

    def _elsewhere(self, r: AtReading, turn: Turn) -> ParseResult | None:
        """The action that the words of a command from another phase name by themselves (a flight,
        a voyage, a flip, a roll, staying), for the engine to refuse with the phase it is; None
        when they name none."""
        if r.has(FLY):
            return self._fly(_first(r.named), turn)
        if r.has(SAIL, FREE):
            return self._sail(_first(r.named), r.has(FREE), turn)
        if r.has(FLIP):
            return Parsed((FlipRoll() if r.has(ROLL, TRY) else Flip(),))
        if r.has(ROLL):
            return Parsed((Roll(),))
        if r.has(STAY, SKIP):
            return Parsed((Stay(),))
        return None

    # --- declare: roll, sail, fly, flip, roll for the token, stay -----------------------------------

    def _declare(self, r: AtReading, turn: Turn) -> ParseResult:
        me = turn.me
        dest = _first(r.named)
        legal = turn.legal.all
        if r.has(FLIP) and not r.has(ROLL, TRY, BUY) and Flip() not in legal and FlipRoll() in legal:
            # broke on a token: "käännä" can only be the die's try, which uses the turn: asked first
            return Ambiguous((FlipRoll(),), "how")
        if r.has(FLIP) or (r.has(BUY) and not r.has(SAIL) and not dest):
            return Parsed((FlipRoll() if r.has(ROLL, TRY) else Flip(),))
        if r.has(TRY) and r.has(ROLL) and not dest:
            return Parsed((FlipRoll(),))  # "yritän nopalla": the token by the die
        if r.has(ROLL) and not dest and FlipRoll() in legal and Flip() not in legal and not r.has(GO):
            # broke on a token: "heitän noppaa" may be the move's roll or the token's: ask
            return Ambiguous((Roll(), FlipRoll()), "how")
        if r.has(FLY):
            return self._fly(dest, turn)
        if r.has(SAIL, FREE) or (r.has(BUY) and dest):
            return self._sail(dest, r.has(FREE), turn)
        if me.voyage is not None:  # at sea: sail on or stay (S5)
            if r.has(STAY, SKIP, DONE) or r.denies(GO, ROLL):
                return Parsed((Stay(),))
            if r.has(ROLL, GO, STOP) or dest:
                return self._sail(dest, False, turn)
        elif (r.has(STAY, SKIP, DONE) or r.denies(GO, ROLL)) and (not dest or me.node in dest):
            return Parsed((Stay(),))  # "jää tähän"; "jään Timbuktuun" walks there
        if dest:
            return self._toward(dest, r.has(GO, ROLL, STOP, STAY), turn)
        if r.has(ROLL, GO):
            return Parsed((Roll(),))
        return turn.refusal(r)

    def _fly(self, dest: tuple[str, ...] | None, turn: Turn) -> ParseResult:
        flies = turn.legal.flies
        if dest:
            fits = [flies[p] for p in dest if p in flies]
            if len(fits) == 1:
                return Parsed((fits[0],))
            if fits:
                return Ambiguous(tuple(fits), "destination")
            return meant(Fly(dest[0]))
        if len(flies) == 1:
            return Parsed(tuple(flies.values()))
        if flies:
            return Ambiguous(tuple(flies.values()), "destination")
        return meant(Fly(any_flight(turn.me.node)))

    def _sail(self, dest: tuple[str, ...] | None, free: bool, turn: Turn) -> ParseResult:
        legal, me = turn.legal, turn.me
        voyage = me.voyage
        if voyage is not None:  # continuing: a paid voyage rolls, a free one moves on by itself
            if dest and voyage.dest not in dest:
                if voyage.paid:  # a roll names no port, so no action carries the other one
                    return NotLegal("wrong_destination", (("dest", voyage.dest),))
                return meant(FreeSail(dest[0]))
            return Parsed((Roll(),)) if voyage.paid else meant(FreeSail(voyage.dest))
        ships = {**legal.boards, **legal.frees}
        if dest:
            fits = [ships[p] for p in dest if p in ships]
            if len(fits) == 1:
                return Parsed((fits[0],))
            if fits:
                return Ambiguous(tuple(fits), "destination")
            return meant(FreeSail(dest[0]) if free else Board(dest[0]))
        if len(ships) == 1:
            return Parsed(tuple(ships.values()))
        if ships:
            return Ambiguous(tuple(ships.values()), "destination")
        to = any_voyage(me.node)
        return meant(FreeSail(to) if free else Board(to))

    def _toward(self, dest: tuple[str, ...], walking: bool, turn: Turn) -> ParseResult:
        """A destination before the roll: walking there means rolling first; the move follows in
        the same command when the die allows it (the core drops a follow-up that is not legal)."""
        legal, me = turn.legal, turn.me
        if me.node in dest and not walking:
            return Parsed((Stay(),))
        other = [table[p] for p in dest for table in (legal.boards, legal.frees, legal.flies) if p in table]
        if other and Roll() not in legal.all:
            return Ambiguous(tuple(other), "destination")
        if other and not walking:
            # "Kongoon" from a port or airport with a route to Congo: fly, sail or walk?
            return Ambiguous((*other, Roll()), "how")
        if len(dest) > 1:
            return Parsed((Roll(),))  # "Victoria": the buttons after the roll tell the two apart
        return Parsed((Roll(), Move(dest[0])))

    # --- move: where the rolled move ends -------------------------------------------------------------

    def _move(self, r: AtReading, turn: Turn) -> ParseResult:
        legal, me = turn.legal, turn.me
        here = me.node
        stop_here = next((n for n, to, via in legal.moves if to == here and via is None), None)
        dest = _first(r.named)
        if r.has(FLY):
            return self._fly(dest, turn)
        if r.has(SAIL, FREE):
            boards = legal.boards
            if dest:
                fits = [boards[p] for p in dest if p in boards]
                if len(fits) == 1:
                    return Parsed((fits[0],))
                if fits:
                    return Ambiguous(tuple(fits), "destination")
                return meant(Board(dest[0]))
            if boards:
                return (
                    Parsed(tuple(boards.values())) if len(boards) == 1 else Ambiguous(tuple(boards.values()))
                )
            return meant(Board(any_voyage(here)))
        then_flip: tuple[Any, ...] = (Flip(),) if r.has(FLIP) and not r.denies(FLIP) else ()
        if dest and here not in dest:
            return self._destination(dest, _first(r.vias), r.numbers, then_flip, turn)
        if r.numbers and (r.has(STEP, GO, STOP) or not r.said - {STEP}):
            return self._steps(r.numbers[0], None, then_flip, turn)
        if dest or r.has(STAY, HERE, SKIP, DONE) or then_flip or (r.has(STOP) and not r.has(GO)):
            if stop_here or here is None:
                return Parsed((stop_here, *then_flip)) if stop_here else turn.wrong_phase()
            return Parsed((Move(here), *then_flip))  # on a dot: the engine says why not
        if r.has(ROLL, TRY):
            return Parsed((Roll() if r.has(ROLL) else FlipRoll(),))  # the roll is behind
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
        then: tuple[Any, ...],
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
            return Parsed((Move(dest[0]), *then))
        places = {to for _n, to, _v in fits}
        if len(places) > 1:
            return Ambiguous(tuple(n for n, _to, v in fits if v is None), "destination")
        to = fits[0][1]
        plain = next(n for n, _to, v in fits if v is None)
        if via:
            exact = [n for n, _to, v in fits if v in via]
            if exact:
                return Parsed((exact[0], *then))
            if any(p in path_of(turn.menu, to, None)[:-1] for p in via):
                return Parsed((plain, *then))  # the canonical path already goes that way
            return Parsed((Move(to, via[0]), *then))  # a route no path takes
        if len(fits) > 1 and turn.via_matters(to):
            return Ambiguous(tuple(n for n, _to, _v in fits), "via")
        return Parsed((plain, *then))

    def _steps(
        self, steps: int, toward: tuple[str, ...] | None, then: tuple[Any, ...], turn: Turn
    ) -> ParseResult:
        """Moves of exactly ``steps`` steps (dots included), toward a place when one is named; of
        two dots toward the same place the one nearer to it is meant. No move of that length names
        no action, so the refusal is made here."""
        fits: list[tuple[int, Move]] = []
        for n, to, via in turn.legal.moves:
            if via is not None:
                continue
            path = path_of(turn.menu, to, None)
            if len(path) != steps:
                continue
            if not toward or to in toward:
                fits.append((0, n))
            elif to not in PLACE_SET:
                prev = path[-2] if len(path) > 1 else turn.me.node or to
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

    def _after_move(self, r: AtReading, turn: Turn) -> ParseResult:
        if r.denies(FLIP, BUY) or r.has(DONE, SKIP, STAY) or (r.negation and not r.has(FLIP, BUY, YES)):
            return Parsed((EndPhase(),))
        if r.has(FLIP, BUY, YES):
            # the roll for a token replaces a move; after one it is too late (the engine says so)
            return Parsed((FlipRoll() if r.has(ROLL, TRY) else Flip(),))
        return self._elsewhere(r, turn) or turn.refusal(r)


@dataclass(slots=True)
class Turn:
    """The speaker's situation while one message is parsed: the view, the legal actions, the
    speaker's pawn and the engine's menu of the move in progress."""

    view: View
    seat: int
    legal: Legal
    _menu: MoveMenu | None = None
    _menu_read: bool = False

    @property
    def me(self) -> PawnView:
        return self.view.pawns[self.seat]

    @property
    def menu(self) -> MoveMenu | None:
        if not self._menu_read:
            self._menu, self._menu_read = move_menu_of(self.view, self.seat), True
        return self._menu

    def wrong_phase(self) -> NotLegal:
        """Command words that name nothing in this phase."""
        return self.wrong_phase_of(self.view)

    @staticmethod
    def wrong_phase_of(view: View) -> NotLegal:
        return NotLegal("wrong_phase", (("phase", view.phase),))

    def refusal(self, r: AtReading) -> ParseResult:
        return self.wrong_phase() if (r.said | r.denied) & COMMANDS.keys() else NotUnderstood()

    def via_matters(self, to: str) -> bool:
        """Whether the paths to ``to`` differ in a way the player may care about. In the base game
        only the Capetown bonus rewards passing a place; with the expansion passing places draws
        event cards, so the choice always matters there."""
        if self.view.options.expansion:
            return True
        unclaimed = self.view.capetown_claimed is None and self.view.options.capetown_bonus > 0
        paths = (self.menu.paths(to) if self.menu is not None else None) or ()
        return unclaimed and any(CAPETOWN in p[:-1] for p in paths)


#: the first words of the actions' notations ("move", "fly", "reroll_done")
NOTATION_HEADS = frozenset(str(vars(cls)["NOTATION"]).split()[0] for cls in ACTIONS)


def _typed_notation(text: str, legal: Sequence[Any]) -> Any | None:
    """The legal action whose notation ``text`` is, typed as is ("move p12", "MOVE  SAHARA")."""
    words = text.casefold().split()
    if not legal or not words or words[0] not in NOTATION_HEADS:
        return None
    try:
        action = ENGINE.parse_notation(text)
    except BadNotation:
        return None
    return action if action in legal else None


def _first(named: list[tuple[str, ...]]) -> tuple[str, ...] | None:
    return named[0] if named else None


def _flat(named: list[tuple[str, ...]]) -> list[str]:
    return list(dict.fromkeys(p for pids in named for p in pids))


@lru_cache(maxsize=1)
def _default_parser() -> AfrikanTahtiParser:
    return AfrikanTahtiParser()


def parse(text: str, ctx: ParseContext[View]) -> ParseResult:
    """What ``text`` means as an Afrikan Tähti action for the speaker now (see the module docstring)."""
    return _default_parser().parse(text, ctx)


# --------------------------------------------------------------------------------------------------
# 3. Retkikunnat (expansion) commands: cards, characters, answers, duels and offers
# --------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class ExpansionReading(Reading):
    """Besides the concepts: the cards, places and seats named, and the bare numbers (dice, sums,
    option numbers). A lone negation ("en") counts as a denied :data:`NEG`."""

    cards: list[str] = field(default_factory=list)
    places: list[str] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)

    def concepts_of(self, item: Item) -> Iterable[str]:
        return {c for c in item.concepts if ":" not in c} - {NEG}

    def take(self, items: Sequence[Item], index: int) -> None:
        item = items[index]
        concepts = set(item.concepts)
        self.cards.extend(c[5:] for c in sorted(concepts) if c.startswith("card:"))
        self.places.extend(c[6:] for c in sorted(concepts) if c.startswith("place:"))
        if item.has(NEG) and not set(self.concepts_of(item)):
            self.denied.add(NEG)
        self.seats.extend(item.seats)
        if item.numbers and not concepts:
            self.numbers.extend(n.value for n in item.numbers[:1] if n.value is not None)


#: the verb of each card or turn action of the expansion
_HEADS: dict[type, str] = {
    Sell: X_SELL,
    Use: X_USE,
    Discard: X_DISCARD,
    Hold: X_HOLD,
    Unhold: X_UNHOLD,
    Peek: X_PEEK,
    Exchange: X_EXCHANGE,
    BuyDiscard: X_BUYD,
    SwapStack: X_SWAP,
    GemRoll: X_GEMS,
}


def _readable(notation: str) -> Any | None:
    """The action ``notation`` names, or None when the engine reads none (a card verb fits only the
    cards it is for: "play rifle" is nothing, a rifle is used, never played)."""
    try:
        return ENGINE.parse_notation(notation)
    except BadNotation:
        return None


def x_prompt_of(view: View) -> object | None:
    x: XView | None = view.x
    return x.prompt if x is not None else None


def _in_private(ctx: ParseContext[View]) -> bool:
    """Whether the message came in the private chat. It is no fact of the game, so no view holds
    it."""
    return ctx.private


class ExpansionParser:
    """Matches an expansion command against the legal actions; ``None`` when it says nothing the
    expansion knows, so the base phases' parser gets its turn."""

    def __init__(self, lemmatizer: Lemmatizer | None = None) -> None:
        self.lexicon = Lexicon(expansion_lexicon_words(), lemmatizer)

    def read(self, text: str, lang: str, names: Sequence[str]) -> ExpansionReading:
        return ExpansionReading.of(self.lexicon.scan(text.replace("-", " "), lang, names))

    def parse(self, text: str, ctx: ParseContext[View]) -> ParseResult | None:
        r = self.read(text, ctx.lang, ctx.seat_names)
        legal = list(ctx.legal)
        if (r.has(X_ASK) or X_ASK in r.denied) and ctx.view.x is not None and ctx.seat is not None:
            # the window setting (windows.py): "älä kysy minulta", "kysy minulta", "kysy vain
            # Sabotaasista"; it is private, so it is taken from the private chat only
            mode = "never" if X_ASK in r.denied else (r.cards[0] if r.cards else "all")
            if not _in_private(ctx):
                return NotLegal("ask_in_private")
            return Parsed((Ask(mode),))
        if not legal:
            return None
        fits = [a for a in legal if self._fits(a, r, ctx)]
        offer_words = r.has(X_OFFER) or (r.has(X_SELL) and bool(r.seats))  # "myyn Ratsun Matille"
        if not fits and offer_words and any(isinstance(a, Offer) for a in legal):
            return self._offer(r, ctx)
        if not fits and (r.denied & {X_PLAY, X_REROLL, X_ACCEPT, NEG} or r.has(X_PASS)):
            fits = [a for a in legal if isinstance(a, Pass | Decline | RerollDone)][:1]
        rerolls = [a.card for a in legal if isinstance(a, Reroll)]
        if not fits and rerolls and r.numbers and (r.has(X_REROLL) or r.has(X_ROLL)):
            # "reroll 2 and 5" with a card that rerolls one die: the engine says it rerolls fewer
            card = next((c for c in r.cards if c in rerolls), rerolls[0])
            return Parsed((Reroll(card, tuple(sorted(set(r.numbers)))),))
        if not fits and x_prompt_of(ctx.view) is None:
            # the words name an action that is not possible now: hand it to the engine, whose
            # refusal gives the reason and the way forward ("käännä kiekko" with an incomplete
            # expedition on the discovery layer, "myy Ratsu" without a Horse); with a question on
            # the table the base parser says "wrong_prompt" itself
            fits = [a for a in self._named(r) if self._fits(a, r, ctx)][:1]
        if not fits:
            return None
        if any(isinstance(a, Play) for a in fits) and not _in_private(ctx):
            return NotLegal("play_in_private")
        if len(fits) == 1:
            return Parsed((fits[0],))
        return Ambiguous(tuple(fits[:8]), "card")

    @staticmethod
    def _named(r: ExpansionReading) -> list[Any]:
        """Actions the words may name whether or not they are legal now (only those that need no
        other choice): the turn's own verbs, and a card verb with the card named."""
        out: list[Any] = [FlipRoll(), Flip(), Peek(), GemRoll(), BuyDiscard(), Exchange()]
        for seat in r.seats[:1]:  # "ryöstän Liisalta Tähden" away from Liisa: the engine says why
            if r.has(X_DUEL) and r.has(X_STAR):
                out.append(Duel(seat, "star"))
            elif r.has(X_DUEL) and r.has(X_HORSESHOE):
                out.append(Duel(seat, "horseshoe"))
        for card in r.cards[:1]:
            # read from the words, so that a verb names only the cards it takes
            out.extend(
                _readable(f"{verb} {card}") for verb in ("sell", "use", "discard", "hold", "unhold", "play")
            )
        return [a for a in out if a is not None]

    def _fits(self, action: Any, r: ExpansionReading, ctx: ParseContext[View]) -> bool:
        cards, places, seats = r.cards, r.places, r.seats
        x: XView | None = ctx.view.x
        match action:
            case Character(id=ident):
                return ident in cards
            case Seaplane(to=port):
                return "seaplane" in cards and (port in places or not places)
            case GemRoll():
                return r.has(X_GEMS)
            case RerollMove():
                if r.has(X_USE) and cards == ["compass"]:  # "käytä kompassia"
                    return True
                return r.has(X_REROLL) and not r.numbers and ("compass" in cards or not cards)
            case Adjust(delta=delta):
                return r.has(X_PLUS) if delta > 0 else r.has(X_MINUS)
            case Reroll(card=card, dice=dice):
                rolled = r.has(X_REROLL) or r.has(X_ROLL)
                return rolled and tuple(sorted(set(r.numbers))) == dice and (not cards or card in cards)
            case RerollDone():
                return r.has(X_DONE)
            case Use(card=card, arg=arg):
                # "käytä Ratsua", "Ratsulla Ocombaan", or the card's name alone ("Ratsulla")
                used = r.has(X_USE) or (bool(places) and not r.said - {X_CHOOSE}) or not (r.said or r.denied)
                return used and card in cards and (arg is None or not places or arg in places)
            case Sell(card=card) | Discard(card=card) | Hold(card=card) | Unhold(card=card):
                if isinstance(action, Sell) and seats:
                    return False  # "myyn Ratsun Matille": a trade offer
                if isinstance(action, Hold) and r.denied & {
                    X_UNHOLD,
                    X_USE,
                }:  # "älä käytä X:ää automaattisesti"
                    return card in cards
                if isinstance(action, Hold) and r.has(X_UNHOLD):
                    return False
                if isinstance(action, Unhold) and r.denied & {X_UNHOLD, X_USE}:
                    return False
                return r.has(_HEADS[type(action)]) and card in cards
            case Play(card=card, arg=arg):
                if card not in cards or not (r.has(X_PLAY) or (arg is None and not r.said)):
                    return False
                if arg is not None and ":" in arg:
                    s, _, target = arg.partition(":")
                    seat = seat_of(s)
                    return (not seats or seat in seats) and (target in cards or len(cards) == 1)
                return arg is None or not places or arg in places
            case Pass():
                return r.has(X_PASS)
            case Accept():
                return r.has(X_ACCEPT) and not r.denied & {X_ACCEPT}
            case Decline():
                return r.has(X_DECLINE) or bool(r.denied & {X_ACCEPT})
            case Duel(seat=seat, target=target):
                if not r.has(X_DUEL) or (seats and seat not in seats):
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
            case SwapStack(place=pid):
                return r.has(X_SWAP) and pid in places
            case Peek() | Exchange() | BuyDiscard():
                return r.has(_HEADS[type(action)])
            case Choose(option=option):
                seat = seat_of(option)
                if seat is not None:
                    return seat in seats
                if option in places or option in cards:
                    return True
                options = [a.option for a in ctx.legal if isinstance(a, Choose)]
                return (
                    len(r.numbers) == 1
                    and 1 <= r.numbers[0] <= len(options)
                    and options[r.numbers[0] - 1] == option
                )
            case Roll():
                prompt = x.prompt if x is not None else None
                return prompt is not None and prompt.kind in ("danger", "duel") and r.has(X_ROLL)
            case Flip() | FlipRoll():
                return (
                    ctx.view.phase == "phase3"
                    and r.has(X_FLIP)
                    and (isinstance(action, FlipRoll) == r.has(X_ROLL))
                )
            case EndPhase():
                return ctx.view.phase in ("phase2", "phase3") and r.has(X_END, X_DONE)
        return False

    def _offer(self, r: ExpansionReading, ctx: ParseContext[View]) -> ParseResult:
        others = [s for s in dict.fromkeys(r.seats) if s != ctx.seat]
        x: XView | None = ctx.view.x
        if len(others) != 1 or ctx.seat is None or x is None:
            return Ambiguous(tuple(a for a in ctx.legal if isinstance(a, Offer))[:6], "player")
        other = others[0]
        mine = {i.split("#")[0] for i in x.players[ctx.seat].cards}
        theirs = {i.split("#")[0] for i in x.players[other].cards}
        give = [c for c in r.cards if c in mine]
        get = [c for c in r.cards if c in theirs and c not in give]
        sums = [str(n) for n in r.numbers if n >= 100]
        if sums:
            (get if give and not get else give).append(sums[0])
        # an offer of nothing for nothing is still what was said: the engine refuses it
        return meant(Offer(other, tuple(give), tuple(get)))
