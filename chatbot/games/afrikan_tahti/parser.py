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
situation); the Retkikunnat commands are read in :mod:`.expansion_parser`.
Phases this module does not know give ``NotUnderstood``, so the buttons still work there.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from chatbot.core.nlp import NEG, QUESTION, Item, Lemmatizer, Lexicon, Reading
from chatbot.core.parsing import Ambiguous, Later, NotLegal, NotUnderstood, ParseContext, Parsed, ParseResult
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
from chatbot.games.afrikan_tahti.expansion_parser import ExpansionParser
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
    YES,
    lexicon_words,
)
from chatbot.games.afrikan_tahti.names import TOWARD_STEP, ahead, move_menu_of, path_of
from engines.afrikan_tahti import ENGINE
from engines.afrikan_tahti.board import AIR_FROM, AIRPORTS, CAPETOWN, LEGS_FROM, PLACE_SET, PORTS
from engines.afrikan_tahti.model import (
    ACTIONS,
    Board,
    EndPhase,
    Flip,
    FlipRoll,
    Fly,
    FreeSail,
    Move,
    MoveMenu,
    PawnView,
    Roll,
    Start,
    Stay,
    View,
)
from engines.codec import BadNotation

#: the Retkikunnat acts whose words no base-game move takes (a trade, a sale, a duel, a card)
_EXPANSION_ACTS = frozenset(
    {"x_offer", "x_sell", "x_duel", "x_exchange", "x_peek", "x_hold", "x_discard", "x_buyd"}
)

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

    def words(self, text: str, lang: str, names: Sequence[str] = ()) -> list[Item]:
        """The message's items as :meth:`parse` reads them (for the core's certainty check): a word
        the base game's words leave unknown counts as read when a Retkikunnat word reads it."""
        items = self._scan(text, lang, names)
        if all(item.known for item in items):
            return items
        extra = {
            index: item
            for item in self.expansion.lexicon.scan(text.replace("-", " "), lang, names)
            if item.known
            for index in range(item.start, item.start + len(item.words))
        }
        return [
            item
            if item.known or not all(i in extra for i in range(item.start, item.start + len(item.words)))
            else dataclasses.replace(
                item,
                concepts=extra[item.start].concepts,
                numbers=extra[item.start].numbers,
                seats=extra[item.start].seats,
            )
            for item in items
        ]

    def _expansion_words(self, scanned: Sequence[Item], text: str, ctx: ParseContext[View]) -> bool:
        """Whether a word the base game's words leave unknown is a Retkikunnat word ("mennään
        kauppaan": a trade): the base game's move would leave it out, so the words are no move
        of the base game (the expansion's commands are read before, by its own parser)."""
        if all(item.known for item in scanned):
            return False
        unknown = {
            i for item in scanned if not item.known for i in range(item.start, item.start + len(item.words))
        }
        return any(
            item.start in unknown
            and (item.concepts & _EXPANSION_ACTS or any(c.startswith("card:") for c in item.concepts))
            for item in self.expansion.lexicon.scan(text.replace("-", " "), ctx.lang, ctx.seat_names)
        )

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
        if isinstance(result, Parsed) and self._expansion_words(scanned, text, ctx):
            return NotUnderstood()  # "mennään kauppaan": a trade's word, which the base move leaves out
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
        return Parsed((Roll(), Later(f"{TOWARD_STEP} {dest[0]}")))

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
        if r.has(FLIP) and r.has(ROLL, TRY) and not dest:
            # the roll for a token replaces a move: after the roll it is too late (the engine says so)
            return Parsed((FlipRoll(),))
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


def words(text: str, lang: str, names: Sequence[str] = ()) -> list[Item]:
    """The items of ``text`` as :func:`parse` reads them."""
    return _default_parser().words(text, lang, names)


__all__ = ["AfrikanTahtiParser", "ExpansionParser", "parse", "words"]
