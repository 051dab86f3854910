"""Majavajengi: free Finnish or English text -> the actions the player meant (rules spec §3.3, §8).

The parser gets the speaker's legal actions (the engine's objects) and returns the actions meant. The
phase of the speaker's view decides what a command means (spec §8.5): "vaihda 2" is ``Take(2)`` at
the start of a turn, ``Replace(2)`` while holding a number card and the start of a Swap while holding a
Swap card. Where the text leaves something open (which position, which opponent), the legal actions
that fit are offered (``Ambiguous``). An action the text names that is not possible now is returned
all the same, with what the text left open filled by the first value (position 1, the next seat), and
the engine's ``check`` says why it is refused ("kurkistan" while holding a number: ``wrong_card``). A
command from a seat that is not to act is the first action its words name, and the engine refuses it
(``not_your_turn``, ``game_over``; the core answers the first with its own line naming whose turn it
is).

Three answers are the parser's own, because no action carries what the words say:

- ``NotLegal("top_is", value=...)``: the text names a value that is not the top discard ("otan
  vitosen…" while the top is a 3), a contradiction with the table rather than a rule;
- ``NotLegal("already_knocked")`` for a move with a knock added ("vaihdan toiseen ja koputan") after
  someone has knocked: the core would apply the move and drop the knock unsaid, so the whole
  command is refused as it always was (the knocker is a public fact of the view);
- ``NotLegal("wrong_phase")`` for command words that are all negated and fit nothing ("en nosta" at
  the start of a turn): they name no action, and the answer stays the one it always was.

Reading order:

1. :data:`WORDS`, the game's vocabulary per concept and language (spec §8.1–§8.3).
2. :class:`MajavajengiReading`: what a message says: the concepts said and denied (from the shared
   :class:`~chatbot.core.nlp.Reading`), the numbers as positions or card values, and the named seats.
3. :class:`MajavajengiParser`: one method per phase, each turning a reading into a ``ParseResult``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TypeVar

from chatbot.core.nlp import OWN, QUESTION, SEP, Item, Lemmatizer, Lexicon, Reading
from chatbot.core.parsing import Ambiguous, NotLegal, NotUnderstood, ParseContext, Parsed, ParseResult
from chatbot.games._spoken import (
    YES,
    abessive_negated,
    answer_word,
    is_hedged,
    is_question,
    without_clitics,
    without_false_questions,
    without_word_typos,
    written,
)
from engines.majavajengi.model import (
    DRAW2_NEXT,
    HOLDING,
    OVER,
    POSITIONS,
    START,
    TURN_END,
    Action,
    Discard,
    Draw,
    Draw2,
    End,
    Knock,
    MajavajengiSeatView,
    MajavajengiView,
    Next,
    Peek,
    Replace,
    Stop,
    Swap,
    Take,
)

NUMBER = "number"  # held card kind class: any N0…N9
A = TypeVar("A", bound=Action)

# --------------------------------------------------------------------------------------------------
# 1. Vocabulary
# --------------------------------------------------------------------------------------------------

DRAW, TAKE, EXCHANGE, PUT, DISCARD, AWAY, SKIP, USE, PEEK = (
    "draw", "take", "exchange", "put", "discard", "away", "skip", "use", "peek",
)  # fmt: skip
CONTINUE, STOP, KNOCK, NO_KNOCK, DONE, NEXT, MORE, WANT, KEEPING = (
    "continue", "stop", "knock", "no_knock", "done", "next", "more", "want", "keeping",
)  # fmt: skip
SLOT, DRAW_PILE, DISCARD_PILE, DRAW2_CARD, SPECIAL = (
    "slot",
    "draw_pile",
    "discard_pile",
    "draw2_card",
    "special",
)

# Finnish entries are base forms (the lemmatiser finds nostan, nostetaan, nosta…) or colloquial surface
# forms; a phrase matches word by word on base forms, so "nostaa kakkonen" also covers "nosta kakkosen".
WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "fi": {
        DRAW: ("nostaa", "nosto", "uusi kortti", "vetää"),
        TAKE: ("ottaa", "napata", "poimia"),
        EXCHANGE: (
            "vaihtaa",
            "vaihto",
            "vaihtokortti",
            "vaihdella",
            "swapata",
            "swappaan",
            "swappaa",
            "vaihetaan",
        ),
        # "menee kolmospaikalle", "kelpaa": the held card goes into the row
        PUT: (
            "laittaa",
            "panna",
            "pistää",
            "pitää",
            "korvata",
            "sijoittaa",
            "asettaa",
            "mennä",
            "kelvata",
            "kelpaa",
        ),
        KEEPING: ("pitää",),
        DISCARD: ("hylätä", "hyljätä", "heittää", "poistaa", "dumpata", "dumppaan", "dumppaa"),
        AWAY: ("pois", "roska", "roskis", "roskiin", "roskikseen"),
        SKIP: ("ohittaa", "passata", "passaan", "antaa olla", "ei kiitos", "ei tarvitse", "skippaan", "skip"),
        USE: ("käyttää", "pelata", "ottaa käyttöön"),
        PEEK: (
            "kurkistaa",
            "kurkata",
            "kurkkia",
            "katsoa",
            "katsella",
            "vilkaista",
            "tarkistaa",
            "kurkistus",
            "kurkistuskortti",
            "suurennuslasi",
            "luuppi",
            "kurkkaan",
            "kurkkaus",
            "tsekata",
            "tsekkaan",
            "tsekkaa",
            "tsekataan",
            "katon",
            "kattoo",
            "katotaan",
            "kattelen",
            "vilkasen",
            "vilkasta",
        ),
        CONTINUE: ("jatkaa",),
        STOP: (
            "lopettaa",
            "riittää",
            "ei enempää",
            "ei enää",
            "stop",
            "stoppi",
            "seis",
            "lopettaa nostaminen",
        ),
        KNOCK: ("koputtaa", "koputus", "kop", "koputella", "koputeta"),
        NO_KNOCK: ("ilman koputusta",),  # "en koputa", "ei koputusta" are negated KNOCK
        DONE: ("valmis", "lopettaa vuoro", "vuoro loppu", "ohi", "siinä kaikki", "vuoro vaihtuu"),
        NEXT: ("seuraava",),
        MORE: ("lisää", "lisä", "vielä", "vielä yksi", "yksi lisää", "uudestaan", "uudelleen"),
        WANT: ("haluta", "tahtoa", "tarvita", "tarvii", "tarvi"),
        SLOT: ("paikka", "kohta", "kortti", "tila", "sija", "paikalle"),
        DRAW_PILE: ("nostopakka", "pakka", "nostopino", "pino"),
        DISCARD_PILE: ("poistopakka", "poisto", "poistopino", "avoin kortti", "päällimmäinen", "avoin"),
        DRAW2_CARD: ("nostaa 2", "nostaa kaksi", "nostaa kaks", "nostaa kakkonen", "tuplanosto", "nosta2"),
        SPECIAL: ("erikoiskortti", "erikoinen"),
    },
    "en": {
        DRAW: ("draw", "drew", "draw a card", "new card"),
        TAKE: ("take", "took", "grab", "pick", "pick up", "get"),
        EXCHANGE: ("swap", "switch", "trade", "exchange", "change"),
        PUT: ("put", "place", "keep", "replace", "set", "swap into", "swap it into"),
        KEEPING: ("keep",),
        DISCARD: ("discard", "throw", "threw", "toss", "bin", "reject", "dump", "ditch", "trash", "chuck"),
        AWAY: ("away", "in the bin"),
        SKIP: ("skip", "pass", "decline", "no thanks", "no thank you"),
        USE: ("use", "play", "activate"),
        PEEK: ("peek", "look", "check", "see", "view", "look at"),
        CONTINUE: ("continue", "go on", "keep going"),
        STOP: ("stop", "enough", "no more", "that's enough", "halt", "stop drawing"),
        KNOCK: ("knock", "knock knock"),
        # a phrase, so that it also holds when the speaker's language is Finnish (where "no" = "well")
        NO_KNOCK: ("no knock", "without knocking"),
        DONE: ("done", "finish", "finished", "end", "end turn", "end my turn", "i'm done"),
        NEXT: ("next",),
        MORE: ("another", "more", "again", "one more", "draw again"),
        WANT: ("want", "need"),
        SLOT: ("slot", "position", "place", "spot", "card", "pos"),
        DRAW_PILE: ("deck", "stock", "draw pile", "pile", "the pile"),
        DISCARD_PILE: (
            "discard pile",
            "the discard",
            "open card",
            "top card",
            "top",
            "face up card",
            "face-up",
        ),
        DRAW2_CARD: ("draw 2", "draw two", "double draw", "draw2"),
        SPECIAL: ("special", "special card"),
    },
}

# Concepts that make a message a game command (and not chat), each with the kind of action it names
# when nothing else in the phase fits (then the engine says why it is not possible now). "use" with
# no drawn card in hand names using a power card; Draw 2 stands for it.
COMMAND_ACTIONS: dict[str, type[Action]] = {
    KNOCK: Knock, NO_KNOCK: End, PEEK: Peek, DRAW2_CARD: Draw2, DISCARD: Discard, SKIP: Discard,
    AWAY: Discard, TAKE: Take, DISCARD_PILE: Take, EXCHANGE: Swap, PUT: Replace, USE: Draw2,
    DRAW: Draw, DRAW_PILE: Draw, MORE: Next, NEXT: Next, CONTINUE: Next, STOP: Stop, DONE: End,
}  # fmt: skip


# --------------------------------------------------------------------------------------------------
# 2. What a message says
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mention:
    """A number or position word. ``positions`` are the layout positions it can name (empty for
    values 0 and 5–9); ``value`` the card value it can name (``None`` for ordinals and side words);
    ``strong`` when it can only be a position (an ordinal, an illative "kakkoseen", a possessive
    "kakkoseni", next to a slot word "ykkösen tilalle", or after a name); ``seats`` the owner named
    before it ("Liisan neloseen"), ``None`` for the speaker's own or unstated; ``another`` for "toinen"
    (also "another card")."""

    positions: tuple[int, ...]
    value: int | None
    strong: bool
    seats: tuple[int, ...] | None = None
    another: bool = False


@dataclass(slots=True)
class MajavajengiReading(Reading):
    """What a message says, whatever the phase: besides the concepts, the number mentions in order
    and the seats named. The phase handlers of :class:`MajavajengiParser` decide what it means."""

    mentions: list[Mention] = field(default_factory=list)
    seats: list[tuple[int, ...]] = field(default_factory=list)
    # the seats of the last name and where it was, for the position word that follows it
    _owner: tuple[int, ...] | None = field(default=None, repr=False)
    _owner_at: int = field(default=-10, repr=False)

    def take(self, items: Sequence[Item], index: int) -> None:
        item = items[index]
        if item.seats:
            self.seats.append(item.seats)
            self._owner, self._owner_at = item.seats, index
        elif item.has(OWN):  # "mun", "my": the next position is the speaker's own again
            self._owner, self._owner_at = None, index
        elif item.has(SEP):
            self._owner_at = -10
        if item.numbers:
            # A name owns the position word that follows it closely ("Matin kolmosen kanssa").
            seats = self._owner if index - self._owner_at <= 3 else None
            self.mentions.append(_mention(item, seats, _next_to_slot(items, index)))
            self._owner_at = -10

    @property
    def is_command(self) -> bool:
        return bool((self.said | self.denied) & COMMAND_ACTIONS.keys())

    @property
    def no_knock(self) -> bool:
        """The text declines to knock: "en koputa", "ei koputusta", "no knock"."""
        return self.denies(KNOCK) or self.has(NO_KNOCK)

    @property
    def another(self) -> bool:
        return any(m.another for m in self.mentions)

    def own_positions(self) -> list[Mention]:
        """The mentions that name positions of the speaker's own layout: the strong ones, or else every
        number that fits a position (spec §8.5: a numeral 1–4 is a position when one is expected)."""
        own = [m for m in self.mentions if m.seats is None and m.positions]
        return [m for m in own if m.strong] or own

    def values(self) -> list[int]:
        """Numbers left over as card values ("otan *vitosen* neljänteen")."""
        positions = {id(m) for m in self.own_positions()}
        return [
            m.value
            for m in self.mentions
            if m.value is not None and m.seats is None and id(m) not in positions
        ]

    @property
    def named_seats(self) -> set[int]:
        return {seat for seats in self.seats for seat in seats}

    @property
    def swapping(self) -> bool:
        """A Swap is meant: an exchange with a named player, or a position of a named player. A name
        alone is chat ("Matti on hyvä")."""
        return bool(self.seats) and (self.has(EXCHANGE, USE) or any(m.seats for m in self.mentions))


def _next_to_slot(items: Sequence[Item], index: int) -> bool:
    return any(0 <= j < len(items) and items[j].has(SLOT) for j in (index - 1, index + 1))


def _mention(item: Item, seats: tuple[int, ...] | None, by_slot: bool) -> Mention:
    positions = tuple(dict.fromkeys(p for n in item.numbers for p in n.positions(POSITIONS)))
    values = [n.value for n in item.numbers if not n.positional and 0 <= n.value <= 9]
    strong = (
        seats is not None
        or by_slot
        or any(
            n.positional or n.possessive or n.case in ("illative", "allative", "translative", "essive")
            for n in item.numbers
        )
    )
    another = any(n.base == "toinen" for n in item.numbers)
    return Mention(positions, values[0] if values else None, strong, seats, another)


# --------------------------------------------------------------------------------------------------
# 3. The parser
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Turn:
    """The speaker's turn as the parser sees it: the view, the seat and the legal actions."""

    view: MajavajengiView
    seat: int
    legal: tuple[Action, ...]

    @property
    def held(self) -> str | None:
        """NUMBER, "SWAP", "PEEK", "DRAW2" or None: the kind of the drawn card in the speaker's hand."""
        held = self.view.held if isinstance(self.view, MajavajengiSeatView) else None
        if held is None:
            return None
        return NUMBER if held.startswith("N") else held

    @property
    def top_value(self) -> int | None:
        """The number on the discard pile ("N5" -> 5), or None for a special card or no card."""
        top = self.view.discard_top or ""
        return int(top[1:]) if top[:1] == "N" and top[1:].isdigit() else None

    def of(self, kind: type[A]) -> tuple[A, ...]:
        return tuple(a for a in self.legal if isinstance(a, kind))


def _meant(kind: type[Action], position: int = 1) -> Action:
    """An action of ``kind`` at ``position`` (the first one when the text names none): the engine then
    says why it is not possible now, whatever the position."""
    if kind is Take:
        return Take(position)
    if kind is Replace:
        return Replace(position)
    if kind is Peek:
        return Peek(position)
    return _SIMPLE[kind]


_SIMPLE: dict[type[Action], Action] = {
    Draw: Draw(),
    Discard: Discard(),
    Draw2: Draw2(),
    Next: Next(),
    Stop: Stop(),
    Knock: Knock(),
    End: End(),
}


class MajavajengiParser:
    """Understands Majavajengi commands; one instance per lemmatiser (tests force each backend)."""

    def __init__(self, lemmatizer: Lemmatizer | None = None) -> None:
        self.lexicon = Lexicon(WORDS, lemmatizer)

    def words(self, text: str, lang: str, names: Sequence[str] = ()) -> list[Item]:
        """The message's items as :meth:`parse` reads them (for the core's certainty check)."""
        text = without_clitics(written(text), self.lexicon.lemmatizer)  # "tokaks", "ykköspaikalle", "yhen"
        scanned = without_word_typos(self.lexicon.scan(text, lang, names), self.lexicon.lemmatizer)
        return abessive_negated(without_false_questions(scanned))

    def parse(self, text: str, ctx: ParseContext[MajavajengiView]) -> ParseResult:
        items = self.words(text, ctx.lang, ctx.seat_names)
        text = without_clitics(written(text), self.lexicon.lemmatizer)
        reading = MajavajengiReading.of(items, question=QUESTION)
        if reading.question or is_question(text, items, self.lexicon, ctx.lang) or is_hedged(text):
            return NotUnderstood()  # "miten kurkistus toimii?" is for the rules, not a move
        answer = answer_word(text)
        if (
            answer is not None
            and not reading.is_command
            and ctx.seat is not None
            and ctx.view.turn == ctx.seat
        ):
            answered = _answer(answer, ctx.view.phase)
            if answered is not None:
                return answered
        if not reading.is_command and reading.unknown:
            # Without a command word only bare positions count ("toiseen", "2"), not "odota 5 min".
            return NotUnderstood()
        view = ctx.view
        if view.phase == OVER or ctx.seat is None or view.turn != ctx.seat:
            if not reading.is_command:
                return NotUnderstood()
            # not the speaker's turn: the first action the words name, which the engine refuses
            return self._other(reading, _Turn(view, -1 if ctx.seat is None else ctx.seat, ()))
        turn = _Turn(view, ctx.seat, ctx.legal)
        handler = {
            START: self._start, HOLDING: self._holding, DRAW2_NEXT: self._draw2_next, TURN_END: self._turn_end,
        }.get(view.phase)  # fmt: skip
        if handler is None:
            return NotUnderstood()
        return handler(reading, turn)

    # --- START: take the discard or draw --------------------------------------------------------

    def _start(self, r: MajavajengiReading, at: _Turn) -> ParseResult:
        # "discard" names the pile when something is taken from it ("take the discard into slot 2").
        from_discard = r.has(DISCARD_PILE) or (r.has(DISCARD) and (r.has(TAKE) or bool(r.mentions)))
        if r.swapping:
            return self._swap(r, at)
        if r.has(PEEK) and not r.has(TAKE, EXCHANGE, PUT, DRAW, DRAW2_CARD, USE):
            # "kurkistan toiseen" before drawing: a peek meant, never the discard taken into the
            # second place; no Peek card is held, so the engine says why not (issue #27)
            return self._positional(r, at, Peek)
        if not from_discard and (r.has(DRAW_PILE) or r.has(DRAW, DRAW2_CARD)):
            return Parsed((Draw(),))  # "nosta 2" in START is a plain draw (spec §8.5)
        if from_discard or r.has(TAKE, EXCHANGE, PUT) or r.mentions:
            takes = at.of(Take)
            if not takes:  # a special card on top: the engine says so
                return self._positional(r, at, Take)
            top, values = at.top_value, r.values()
            if values and top is not None and top not in values:  # "otan vitosen…" but the top is a 3
                return NotLegal("top_is", (("value", top),))
            if r.own_positions():
                return self._positional(r, at, Take)
            if r.has(TAKE) and not from_discard and not values:
                return Ambiguous((Draw(), *takes), "pile")  # "ota": from which pile?
            return Ambiguous(takes, "position")
        return self._other(r, at)

    # --- HOLDING: resolve the drawn card --------------------------------------------------------

    def _holding(self, r: MajavajengiReading, at: _Turn) -> ParseResult:
        held = at.held
        if r.has(TAKE) and r.has(DISCARD_PILE):
            return self._positional(r, at, Take)
        declines = (
            r.has(DISCARD, AWAY, SKIP)
            or r.denies(USE, PUT, WANT, EXCHANGE, PEEK, TAKE)
            or r.has(DISCARD_PILE)  # "poistoon", "laita poistopakkaan": the discard pile is where it goes
        )
        if (
            declines
            and (r.has(KEEPING) or (r.has(PUT, EXCHANGE) and r.own_positions()))
            and r.has(DISCARD, AWAY)
        ):
            # "pidän tän ja heitän pois" keeps and gives away: ask
            return Ambiguous((*at.of(Replace), *at.of(Discard)), "keep_or_discard")
        if declines:
            return self._discard(r, at)
        positions = r.own_positions()
        placing = r.has(PUT, EXCHANGE, TAKE)
        # A power the held card does not have, or a special card put into the row, is still what the
        # text says: the engine answers wrong_card or special_cannot_be_placed.
        if held == NUMBER:
            if r.has(PEEK):
                return self._positional(r, at, Peek)
            if r.has(DRAW2_CARD):
                return Parsed((Draw2(),))
            if r.swapping:
                return self._swap(r, at)
            if positions or placing or r.has(USE):
                return self._positional(r, at, Replace)
        elif held == "PEEK":
            if r.swapping:
                return self._swap(r, at)
            if r.has(PEEK, USE) or (positions and not placing):
                return self._positional(r, at, Peek)
            if placing:
                return self._positional(r, at, Replace)
            if r.has(DRAW2_CARD):
                return Parsed((Draw2(),))
        elif held == "SWAP":
            if r.has(PEEK):
                return self._positional(r, at, Peek)
            if r.has(DRAW2_CARD):
                return Parsed((Draw2(),))
            if r.has(PUT, TAKE) and not (r.has(EXCHANGE) or r.swapping):
                return self._positional(r, at, Replace)
            if r.has(EXCHANGE, USE, SPECIAL) or r.swapping or positions:
                return self._swap(r, at)
        elif held == "DRAW2":
            if r.has(USE, DRAW2_CARD, DRAW, SPECIAL):
                return Parsed((Draw2(),))  # the Draw 2 keeps the turn going: no knock yet
            if r.has(PEEK):
                return self._positional(r, at, Peek)
            if r.swapping:
                return self._swap(r, at)
            if positions or placing:
                return self._positional(r, at, Replace)
        return self._other(r, at)

    def _discard(self, r: MajavajengiReading, at: _Turn) -> ParseResult:
        """``discard``; in a Draw 2 with a draw left the bot also draws the next card, unless the
        command stops ("heitä pois ja lopeta") or knocks (spec §8.5)."""
        if not at.view.draw2_left:
            return self._then_turn_end(r, at, [Discard()])
        if r.has(STOP, DONE, KNOCK) or r.no_knock or r.denies(DRAW, MORE, NEXT, CONTINUE):
            return self._then_turn_end(r, at, [Discard(), Stop()])
        return Parsed((Discard(), Next()))

    # --- DRAW2_NEXT: one more Draw-2 card, or stop ------------------------------------------------

    def _draw2_next(self, r: MajavajengiReading, at: _Turn) -> ParseResult:
        stop = r.has(STOP, DONE, SKIP, KNOCK) or r.no_knock or r.denies(DRAW, MORE, NEXT, CONTINUE, WANT)
        more = r.has(DRAW, MORE, NEXT, CONTINUE, DRAW2_CARD, DRAW_PILE) or r.another
        if stop and more:
            return Ambiguous((Next(), Stop()), "draw_or_stop")
        if stop:
            return self._then_turn_end(r, at, [Stop()])
        if more:
            return Parsed((Next(),))
        return self._other(r, at)

    # --- TURN_END: knock or end -----------------------------------------------------------------

    def _turn_end(self, r: MajavajengiReading, at: _Turn) -> ParseResult:
        if r.has(KNOCK):
            return Parsed((Knock(),))
        if r.no_knock or r.has(DONE, NEXT, CONTINUE, STOP, SKIP):
            return Parsed((End(),))
        return self._other(r, at)

    # --- shared steps ----------------------------------------------------------------------------

    def _positional(self, r: MajavajengiReading, at: _Turn, kind: type[Action]) -> ParseResult:
        """``take N`` / ``replace N`` / ``peek N`` from the own positions named; ask when none or
        several are named ("reunimmainen" names 1 and 4)."""
        named = [p for m in r.own_positions() for p in m.positions]
        everything = at.of(kind)
        if not everything:  # not possible now at any position: the engine says why
            return Parsed((_meant(kind, named[0] if named else 1),))
        candidates = tuple(a for a in dict.fromkeys(_meant(kind, p) for p in named) if a in everything)
        if len(candidates) == 1:
            return self._then_turn_end(r, at, [candidates[0]])
        return Ambiguous(candidates or everything, "position")

    def _swap(self, r: MajavajengiReading, at: _Turn) -> ParseResult:
        """``swap N seatK M``: own position N, opponent K, their position M. What is not named is
        asked for, with the legal swaps that fit what was named as candidates."""
        seats = r.named_seats
        own = [m for m in r.mentions if m.seats is None and m.positions]
        theirs = [m for m in r.mentions if m.seats is not None and m.positions]
        if not theirs and len(own) >= 2:
            # No position after the name ("vaihda 2 ja 4 Liisan kanssa"): the last number is theirs.
            own, theirs = own[:1], own[-1:]
        own_set = {p for m in own for p in m.positions}
        their_set = {p for m in theirs for p in m.positions}
        if at.seat in seats:
            seats.discard(at.seat)
            if not seats:  # a swap with oneself: the engine answers own_seat (or why no swap at all)
                return Parsed((Swap(min(own_set, default=1), at.seat, min(their_set, default=1)),))
        swaps = at.of(Swap)
        if not swaps:  # no Swap in hand: the engine says why
            other = min(seats, default=(at.seat + 1) % at.view.players)
            return Parsed((Swap(min(own_set, default=1), other, min(their_set, default=1)),))
        fits = [
            a
            for a in swaps
            if (not own_set or a.own in own_set)
            and (not seats or a.other_seat in seats)
            and (not their_set or a.other_pos in their_set)
        ]
        if len(fits) == 1:
            return self._then_turn_end(r, at, fits)
        if not own_set:
            missing = "own_card"
        elif len(seats) > 1:
            missing = "opponent"
        else:
            missing = "opponent_card"
        return Ambiguous(tuple(fits) or swaps, missing)

    def _then_turn_end(self, r: MajavajengiReading, at: _Turn, steps: Sequence[Action]) -> ParseResult:
        """Add the turn-end decision said in the same command: "… ja koputan" -> ``knock``,
        "… en koputa" -> ``end`` (spec §8.5)."""
        if r.has(KNOCK):
            if at.view.knocker is not None:  # see the module docstring: refused whole, as before
                return NotLegal("already_knocked", (("knocker", at.view.knocker),))
            steps = [*steps, Knock()]
        elif r.no_knock:
            steps = [*steps, End()]
        return Parsed(tuple(steps))

    def _other(self, r: MajavajengiReading, at: _Turn) -> ParseResult:
        """A command that fits nothing of the phase: the first action it names, for the engine to
        refuse with its reason ("en koputa" names ending the turn); or not understood."""
        if r.has(KNOCK):
            return Parsed((Knock(),))
        for concept, kind in COMMAND_ACTIONS.items():
            if concept in r.said:
                return self._swap(r, at) if kind is Swap else Parsed((_meant(kind),))
        if r.no_knock:
            return Parsed((End(),))
        if r.is_command:
            # Only negated command words ("en nosta", "älä hylkää"): no action is meant, and the
            # answer stays the one it always was.
            return NotLegal("wrong_phase", (("phase", at.view.phase),))
        return NotUnderstood()


def _answer(answer: str, phase: str) -> ParseResult | None:
    """A one-word answer to the prompt in front of the speaker: after a Draw 2 card "ei" stops and
    "joo" asks which (one more, or stop?); at the end of the turn "ei" and "pass" end it without a
    knock and "ok" asks (knock, or end?). Elsewhere the words are read as they are (``None``)."""
    if phase == DRAW2_NEXT:
        return Parsed((Stop(),)) if answer != YES else Ambiguous((Next(), Stop()), "draw_or_stop")
    if phase == TURN_END:
        return Parsed((End(),)) if answer != YES else Ambiguous((Knock(), End()), "knock_or_end")
    return None


@lru_cache(maxsize=1)
def _default_parser() -> MajavajengiParser:
    return MajavajengiParser()


def parse(text: str, ctx: ParseContext[MajavajengiView]) -> ParseResult:
    """What ``text`` means as Majavajengi actions for the speaker now (see the module docstring)."""
    return _default_parser().parse(text, ctx)


def words(text: str, lang: str, names: Sequence[str] = ()) -> list[Item]:
    """The items of ``text`` as :func:`parse` reads them."""
    return _default_parser().words(text, lang, names)
