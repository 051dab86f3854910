"""Majavajengi: free Finnish or English text -> action notations (rules spec §3.3 and §8).

The parser matches only against the actions legal for the speaker now (``ctx.legal``), and the phase
decides what an ambiguous command means (spec §8.5): "vaihda 2" is ``take 2`` at the start of a turn,
``replace 2`` while holding a number card and the start of a Swap while holding a Swap card.

Reading order:

1. :data:`WORDS`, the game's vocabulary per concept and language (spec §8.1–§8.3).
2. :class:`Reading`: what a message says, from the items of :meth:`Lexicon.scan`: the concepts said
   and denied, the numbers as positions or card values, and the named seats.
3. :class:`MajavajengiParser`: one method per phase, each turning a reading into a ``ParseResult``.

``ctx.extra`` keys used: ``phase`` ("start" | "holding" | "draw2_next" | "turn_end" | "over"; inferred
from ``ctx.legal`` when missing), ``discard_top`` and ``held`` (card kinds such as "N5", "SWAP"), and
optionally ``draw2_left`` (1 when a Draw 2 still allows one more draw) and ``knocker`` (the seat that
knocked this round, or ``None``); the last two fall back to the same attributes of ``ctx.view``.

Reason codes in ``NotLegal`` are the engine's, with its parameters (``discard_top_special`` card,
``special_cannot_be_placed``, ``own_seat``, ``already_knocked`` knocker, ``knock_too_early``,
``not_your_turn`` turn, ``game_over``, ``wrong_phase`` phase, ``wrong_card`` needed), where
``wrong_phase`` also names the ``action`` the text asked for; and one of the parser's own:
``top_is`` (param ``value``: the number on the discard pile, when the text names another value).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from chatbot.core.nlp import OWN, QUESTION, SEP, Item, Lemmatizer, Lexicon
from chatbot.core.parsing import Ambiguous, NotLegal, NotUnderstood, ParseContext, Parsed, ParseResult

SIZE = 4  # positions in a layout

START, HOLDING, DRAW2_NEXT, TURN_END, OVER = "start", "holding", "draw2_next", "turn_end", "over"
NUMBER = "number"  # held card kind class: any N0…N9

# --------------------------------------------------------------------------------------------------
# 1. Vocabulary
# --------------------------------------------------------------------------------------------------

DRAW, TAKE, EXCHANGE, PUT, DISCARD, AWAY, SKIP, USE, PEEK = (
    "draw", "take", "exchange", "put", "discard", "away", "skip", "use", "peek",
)
CONTINUE, STOP, KNOCK, NO_KNOCK, DONE, NEXT, MORE, WANT = (
    "continue", "stop", "knock", "no_knock", "done", "next", "more", "want",
)
SLOT, DRAW_PILE, DISCARD_PILE, DRAW2_CARD, SPECIAL = "slot", "draw_pile", "discard_pile", "draw2_card", "special"

# Finnish entries are base forms (the lemmatiser finds nostan, nostetaan, nosta…) or colloquial surface
# forms; a phrase matches word by word on base forms, so "nostaa kakkonen" also covers "nosta kakkosen".
WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "fi": {
        DRAW: ("nostaa", "nosto", "uusi kortti"),
        TAKE: ("ottaa", "napata", "poimia"),
        EXCHANGE: ("vaihtaa", "vaihto", "vaihtokortti", "vaihdella", "swapata"),
        PUT: ("laittaa", "panna", "pistää", "pitää", "korvata", "sijoittaa", "asettaa"),
        DISCARD: ("hylätä", "hyljätä", "heittää", "poistaa", "dumpata"),
        AWAY: ("pois", "roska", "roskis", "roskiin", "roskikseen"),
        SKIP: ("ohittaa", "passata", "passaan", "antaa olla", "ei kiitos", "ei tarvitse", "skippaan", "skip"),
        USE: ("käyttää", "pelata", "ottaa käyttöön"),
        PEEK: (
            "kurkistaa", "kurkata", "kurkkia", "katsoa", "katsella", "vilkaista", "tarkistaa", "kurkistus",
            "kurkistuskortti", "suurennuslasi", "luuppi", "kurkkaan", "kurkkaus",
        ),
        CONTINUE: ("jatkaa",),
        STOP: ("lopettaa", "riittää", "ei enempää", "ei enää", "stop", "stoppi", "seis"),
        KNOCK: ("koputtaa", "koputus", "kop", "koputella"),
        NO_KNOCK: ("ilman koputusta",),  # "en koputa", "ei koputusta" are negated KNOCK
        DONE: ("valmis", "lopettaa vuoro", "vuoro loppu", "ohi", "siinä kaikki"),
        NEXT: ("seuraava",),
        MORE: ("lisää", "lisä", "vielä", "vielä yksi", "yksi lisää", "uudestaan", "uudelleen"),
        WANT: ("haluta", "tahtoa"),
        SLOT: ("paikka", "kohta", "kortti", "tila", "sija", "paikalle"),
        DRAW_PILE: ("nostopakka", "pakka", "nostopino", "pino"),
        DISCARD_PILE: ("poistopakka", "poisto", "poistopino", "avoin kortti", "päällimmäinen", "avoin"),
        DRAW2_CARD: ("nostaa 2", "nostaa kaksi", "nostaa kakkonen", "tuplanosto", "nosta2"),
        SPECIAL: ("erikoiskortti", "erikoinen"),
    },
    "en": {
        DRAW: ("draw", "drew", "draw a card", "new card"),
        TAKE: ("take", "took", "grab", "pick", "pick up", "get"),
        EXCHANGE: ("swap", "switch", "trade", "exchange"),
        PUT: ("put", "place", "keep", "replace", "set", "swap into", "swap it into"),
        DISCARD: ("discard", "throw", "threw", "toss", "bin", "reject", "dump", "ditch", "trash"),
        AWAY: ("away", "in the bin"),
        SKIP: ("skip", "pass", "decline", "no thanks", "no thank you"),
        USE: ("use", "play", "activate"),
        PEEK: ("peek", "look", "check", "see", "view", "look at"),
        CONTINUE: ("continue", "go on", "keep going"),
        STOP: ("stop", "enough", "no more", "that's enough", "halt"),
        KNOCK: ("knock", "knock knock"),
        # a phrase, so that it also holds when the speaker's language is Finnish (where "no" = "well")
        NO_KNOCK: ("no knock", "without knocking"),
        DONE: ("done", "finish", "finished", "end", "end turn", "end my turn", "i'm done"),
        NEXT: ("next",),
        MORE: ("another", "more", "again", "one more", "draw again"),
        WANT: ("want",),
        SLOT: ("slot", "position", "place", "spot", "card", "pos"),
        DRAW_PILE: ("deck", "stock", "draw pile", "pile", "the pile"),
        DISCARD_PILE: ("discard pile", "the discard", "open card", "top card", "top", "face up card", "face-up"),
        DRAW2_CARD: ("draw 2", "draw two", "double draw", "draw2"),
        SPECIAL: ("special", "special card"),
    },
}

# Concepts that make a message a game command (and not chat); their action names for ``wrong_phase``.
COMMAND_ACTIONS = {
    KNOCK: "knock", NO_KNOCK: "end", PEEK: "peek", DRAW2_CARD: "draw2", DISCARD: "discard", SKIP: "discard",
    AWAY: "discard", TAKE: "take", DISCARD_PILE: "take", EXCHANGE: "swap", PUT: "replace", USE: "use",
    DRAW: "draw", DRAW_PILE: "draw", MORE: "next", NEXT: "next", CONTINUE: "next", STOP: "stop", DONE: "end",
}


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
class Reading:
    """What a message says, whatever the phase: concepts said and denied, number mentions in order,
    and the seats named. The phase handlers of :class:`MajavajengiParser` decide what it means."""

    said: set[str] = field(default_factory=set)
    denied: set[str] = field(default_factory=set)  # concepts inside a negation ("en *koputa*")
    mentions: list[Mention] = field(default_factory=list)
    seats: list[tuple[int, ...]] = field(default_factory=list)
    unknown: int = 0  # words that are neither vocabulary, numbers nor names
    question: bool = False

    @classmethod
    def of(cls, items: Sequence[Item]) -> Reading:
        reading = cls()
        owner: tuple[int, ...] | None = None  # seats of the last name, for the position after it
        owner_at = -10
        reading.question = bool(items) and items[0].has(QUESTION)
        for index, item in enumerate(items):
            (reading.denied if item.negated else reading.said).update(item.concepts)
            reading.unknown += not item.known
            if item.seats:
                reading.seats.append(item.seats)
                owner, owner_at = item.seats, index
            elif item.has(OWN):  # "mun", "my": the next position is the speaker's own again
                owner, owner_at = None, index
            elif item.has(SEP):
                owner_at = -10
            if item.numbers:
                # A name owns the position word that follows it closely ("Matin kolmosen kanssa").
                seats = owner if index - owner_at <= 3 else None
                reading.mentions.append(_mention(item, seats, _next_to_slot(items, index)))
                owner_at = -10
        return reading

    def has(self, *concepts: str) -> bool:
        return any(c in self.said for c in concepts)

    def denies(self, *concepts: str) -> bool:
        return any(c in self.denied for c in concepts)

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
        return [m.value for m in self.mentions if m.value is not None and m.seats is None and id(m) not in positions]

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
    positions = tuple(dict.fromkeys(p for n in item.numbers for p in n.positions(SIZE)))
    values = [n.value for n in item.numbers if not n.positional and 0 <= n.value <= 9]
    strong = (
        seats is not None
        or by_slot
        or any(n.positional or n.possessive or n.case in ("illative", "allative") for n in item.numbers)
    )
    another = any(n.base == "toinen" for n in item.numbers)
    return Mention(positions, values[0] if values else None, strong, seats, another)


# --------------------------------------------------------------------------------------------------
# 3. The parser
# --------------------------------------------------------------------------------------------------


def _phase(ctx: ParseContext) -> str:
    phase = ctx.extra.get("phase")
    if phase:
        return str(phase)
    first = ctx.legal[0].split()[0] if ctx.legal else ""
    return {
        "draw": START, "take": START, "next": DRAW2_NEXT, "stop": DRAW2_NEXT, "knock": TURN_END, "end": TURN_END,
    }.get(first, HOLDING if ctx.legal else OVER)


def _held(ctx: ParseContext) -> str | None:
    """NUMBER, "SWAP", "PEEK", "DRAW2" or None: the legal actions tell; ``extra["held"]`` otherwise."""
    for prefix, kind in (("replace ", NUMBER), ("peek ", "PEEK"), ("swap ", "SWAP"), ("draw2", "DRAW2")):
        if any(a.startswith(prefix) for a in ctx.legal):
            return kind
    held = ctx.extra.get("held")
    if not held:
        return None
    return NUMBER if str(held).startswith("N") else str(held)


def _top_value(ctx: ParseContext) -> int | None:
    """The number on the discard pile ("N5" -> 5), or None for a special card or no card."""
    top = str(ctx.extra.get("discard_top") or "")
    return int(top[1:]) if top[:1] == "N" and top[1:].isdigit() else None


def _extra(ctx: ParseContext, key: str) -> object:
    return ctx.extra[key] if key in ctx.extra else getattr(ctx.view, key, None)


def _starting(legal: Sequence[str], prefix: str) -> tuple[str, ...]:
    return tuple(a for a in legal if a.startswith(prefix))


class MajavajengiParser:
    """Understands Majavajengi commands; one instance per lemmatiser (tests force each backend)."""

    def __init__(self, lemmatizer: Lemmatizer | None = None) -> None:
        self.lexicon = Lexicon(WORDS, lemmatizer)

    def parse(self, text: str, ctx: ParseContext) -> ParseResult:
        reading = Reading.of(self.lexicon.scan(text, ctx.lang, ctx.seat_names))
        if reading.question or text.rstrip().endswith("?"):
            return NotUnderstood()  # "miten kurkistus toimii?" is for the rules, not a move
        if not reading.is_command and reading.unknown:
            # Without a command word only bare positions count ("toiseen", "2"), not "odota 5 min".
            return NotUnderstood()
        phase = _phase(ctx)
        if phase == OVER or not ctx.legal:
            if not reading.is_command:
                return NotUnderstood()
            if phase == OVER:
                return NotLegal("game_over")
            turn = getattr(ctx.view, "turn", None)
            return NotLegal("not_your_turn", (("turn", turn),) if turn is not None else ())
        handler = {
            START: self._start, HOLDING: self._holding, DRAW2_NEXT: self._draw2_next, TURN_END: self._turn_end,
        }.get(phase)
        if handler is None:
            return NotUnderstood()
        return handler(reading, ctx)

    # --- START: take the discard or draw --------------------------------------------------------

    def _start(self, r: Reading, ctx: ParseContext) -> ParseResult:
        takes = _starting(ctx.legal, "take ")
        # "discard" names the pile when something is taken from it ("take the discard into slot 2").
        from_discard = r.has(DISCARD_PILE) or (r.has(DISCARD) and (r.has(TAKE) or bool(r.mentions)))
        if r.swapping:
            return _wrong_phase(ctx, "swap")
        if not from_discard and (r.has(DRAW_PILE) or r.has(DRAW, DRAW2_CARD)):
            return _parsed(ctx, ["draw"])  # "nosta 2" in START is a plain draw (spec §8.5)
        if from_discard or r.has(TAKE, EXCHANGE, PUT) or r.mentions:
            if not takes:
                return _take_refused(ctx)
            top, values = _top_value(ctx), r.values()
            if values and top is not None and top not in values:  # "otan vitosen…" but the top is a 3
                return NotLegal("top_is", (("value", top),))
            if r.own_positions():
                return self._positional(r, ctx, "take")
            if r.has(TAKE) and not from_discard and not values:
                return Ambiguous(("draw", *takes), "pile")  # "ota": from which pile?
            return Ambiguous(takes, "position")
        return _refusal(r, ctx)

    # --- HOLDING: resolve the drawn card --------------------------------------------------------

    def _holding(self, r: Reading, ctx: ParseContext) -> ParseResult:
        held = _held(ctx)
        if r.has(TAKE) and r.has(DISCARD_PILE):
            return _wrong_phase(ctx, "take")
        declines = (
            r.has(DISCARD, AWAY, SKIP)
            or r.denies(USE, PUT, WANT, EXCHANGE, PEEK, TAKE)
            or (r.has(PUT) and r.has(DISCARD_PILE))
        )
        if declines and "discard" in ctx.legal:
            return self._discard(r, ctx)
        positions = r.own_positions()
        placing = r.has(PUT, EXCHANGE, TAKE)
        if held == NUMBER:
            if r.has(PEEK):
                return _wrong_card("PEEK")
            if r.has(DRAW2_CARD):
                return _wrong_card("DRAW2")
            if r.swapping:
                return _wrong_card("SWAP")
            if positions or placing or r.has(USE):
                return self._positional(r, ctx, "replace")
        elif held == "PEEK":
            if r.swapping:
                return _wrong_card("SWAP")
            if r.has(PEEK, USE) or (positions and not placing):
                return self._positional(r, ctx, "peek")
            if placing:
                return NotLegal("special_cannot_be_placed")
            if r.has(DRAW2_CARD):
                return _wrong_card("DRAW2")
        elif held == "SWAP":
            if r.has(PEEK):
                return _wrong_card("PEEK")
            if r.has(DRAW2_CARD):
                return _wrong_card("DRAW2")
            if r.has(PUT, TAKE) and not (r.has(EXCHANGE) or r.swapping):
                return NotLegal("special_cannot_be_placed")
            if r.has(EXCHANGE, USE, SPECIAL) or r.swapping or positions:
                return self._swap(r, ctx)
        elif held == "DRAW2":
            if r.has(USE, DRAW2_CARD, DRAW, SPECIAL):
                return _parsed(ctx, ["draw2"])  # the Draw 2 keeps the turn going: no knock yet
            if r.has(PEEK):
                return _wrong_card("PEEK")
            if r.swapping:
                return _wrong_card("SWAP")
            if positions or placing:
                return NotLegal("special_cannot_be_placed")
        return _refusal(r, ctx)

    def _discard(self, r: Reading, ctx: ParseContext) -> ParseResult:
        """``discard``; in a Draw 2 with a draw left the bot also draws the next card, unless the
        command stops ("heitä pois ja lopeta") or knocks (spec §8.5)."""
        draw2_left = bool(_extra(ctx, "draw2_left"))
        if not draw2_left:
            return self._then_turn_end(r, ctx, ["discard"])
        if r.has(STOP, DONE, KNOCK) or r.no_knock or r.denies(DRAW, MORE, NEXT, CONTINUE):
            return self._then_turn_end(r, ctx, ["discard", "stop"])
        return _parsed(ctx, ["discard", "next"])

    # --- DRAW2_NEXT: one more Draw-2 card, or stop ------------------------------------------------

    def _draw2_next(self, r: Reading, ctx: ParseContext) -> ParseResult:
        stop = r.has(STOP, DONE, SKIP, KNOCK) or r.no_knock or r.denies(DRAW, MORE, NEXT, CONTINUE, WANT)
        more = r.has(DRAW, MORE, NEXT, CONTINUE, DRAW2_CARD, DRAW_PILE) or r.another
        if stop and more:
            return Ambiguous(("next", "stop"), "draw_or_stop")
        if stop:
            return self._then_turn_end(r, ctx, ["stop"])
        if more:
            return _parsed(ctx, ["next"])
        return _refusal(r, ctx)

    # --- TURN_END: knock or end -----------------------------------------------------------------

    def _turn_end(self, r: Reading, ctx: ParseContext) -> ParseResult:
        if r.has(KNOCK):
            return _parsed(ctx, ["knock"]) if "knock" in ctx.legal else _knock_refused(ctx)
        if r.no_knock or r.has(DONE, NEXT, CONTINUE, STOP, SKIP):
            return _parsed(ctx, ["end"])
        return _refusal(r, ctx)

    # --- shared steps ----------------------------------------------------------------------------

    def _positional(self, r: Reading, ctx: ParseContext, verb: str) -> ParseResult:
        """``take N`` / ``replace N`` / ``peek N`` from the own positions named; ask when none or
        several are named ("reunimmainen" names 1 and 4)."""
        everything = _starting(ctx.legal, verb + " ")
        named = [f"{verb} {p}" for m in r.own_positions() for p in m.positions]
        candidates = tuple(a for a in dict.fromkeys(named) if a in ctx.legal)
        if len(candidates) == 1:
            return self._then_turn_end(r, ctx, [candidates[0]])
        return Ambiguous(candidates or everything, "position")

    def _swap(self, r: Reading, ctx: ParseContext) -> ParseResult:
        """``swap N seatK M``: own position N, opponent K, their position M. What is not named is
        asked for, with the legal swaps that fit what was named as candidates."""
        seats = r.named_seats
        if ctx.seat is not None and ctx.seat in seats:
            seats.discard(ctx.seat)
            if not seats:
                return NotLegal("own_seat")
        own = [m for m in r.mentions if m.seats is None and m.positions]
        theirs = [m for m in r.mentions if m.seats is not None and m.positions]
        if not theirs and len(own) >= 2:
            # No position after the name ("vaihda 2 ja 4 Liisan kanssa"): the last number is theirs.
            own, theirs = own[:1], own[-1:]
        own_set = {p for m in own for p in m.positions}
        their_set = {p for m in theirs for p in m.positions}
        fits = []
        for action in _starting(ctx.legal, "swap "):
            _, mine, seat, other = action.split()
            if (
                (not own_set or int(mine) in own_set)
                and (not seats or int(seat.removeprefix("seat")) in seats)
                and (not their_set or int(other) in their_set)
            ):
                fits.append(action)
        if len(fits) == 1:
            return self._then_turn_end(r, ctx, fits)
        if not own_set:
            missing = "own_card"
        elif len(seats) > 1:
            missing = "opponent"
        else:
            missing = "opponent_card"
        return Ambiguous(tuple(fits) or _starting(ctx.legal, "swap "), missing)

    def _then_turn_end(self, r: Reading, ctx: ParseContext, steps: list[str]) -> ParseResult:
        """Add the turn-end decision said in the same command: "… ja koputan" -> ``knock``,
        "… en koputa" -> ``end`` (spec §8.5)."""
        if r.has(KNOCK):
            if refused := _already_knocked(ctx):
                return refused
            steps = [*steps, "knock"]
        elif r.no_knock:
            steps = [*steps, "end"]
        return _parsed(ctx, steps)


def _parsed(ctx: ParseContext, steps: list[str]) -> ParseResult:
    # The first step must be legal now; later steps become legal only after it.
    if steps[0] not in ctx.legal:
        return _wrong_phase(ctx, steps[0].split()[0])
    return Parsed(tuple(steps))


def _wrong_phase(ctx: ParseContext, action: str) -> NotLegal:
    return NotLegal("wrong_phase", (("phase", _phase(ctx)), ("action", action)))


def _wrong_card(needed: str) -> NotLegal:
    """The held card has no such power: ``needed`` is the card kind the action needs ("PEEK")."""
    return NotLegal("wrong_card", (("needed", needed),))


def _take_refused(ctx: ParseContext) -> NotLegal:
    top = ctx.extra.get("discard_top")
    if top and not str(top).startswith("N"):
        return NotLegal("discard_top_special", (("card", top),))
    return _wrong_phase(ctx, "take")


def _already_knocked(ctx: ParseContext) -> NotLegal | None:
    knocker = _extra(ctx, "knocker")
    return NotLegal("already_knocked", (("knocker", knocker),)) if knocker is not None else None


def _knock_refused(ctx: ParseContext) -> NotLegal:
    if refused := _already_knocked(ctx):
        return refused
    if _phase(ctx) == TURN_END:
        return NotLegal("knock_too_early")
    return _wrong_phase(ctx, "knock")


def _refusal(r: Reading, ctx: ParseContext) -> ParseResult:
    """A command that fits nothing legal now: say why, or admit not understanding."""
    if r.has(KNOCK):
        return _knock_refused(ctx)
    for concept, action in COMMAND_ACTIONS.items():
        if concept in r.said or concept in r.denied:
            return _wrong_phase(ctx, action)
    return NotUnderstood()


@lru_cache(maxsize=1)
def _default_parser() -> MajavajengiParser:
    return MajavajengiParser()


def parse(text: str, ctx: ParseContext) -> ParseResult:
    """Understand ``text`` as Majavajengi actions legal for the speaker now (see the module docstring)."""
    return _default_parser().parse(text, ctx)
