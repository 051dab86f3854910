"""Gnav as on Cardavia: free Finnish or English text -> action notations (rules spec §8.1–§8.4).

A turn has only two moves, ``keep`` and ``ask`` (the dealer's ask goes to the stock), plus ``knock`` for a
player dealt the fool when fools are not shown automatically. The work of the parser is therefore less
finding the move than *not* finding one where none was meant (spec §8.2):

- a question is never a move ("vaihdanko", "should I swap", a final "?"); asked on one's turn it gets the
  two choices back (``Ambiguous(("keep", "ask"), "question")``);
- a negation within two words before a swap word keeps ("en vaihda", "don't swap"); a negated keep word
  ("en pidä tästä") or keep and swap words together, or "pass", ask back (``missing="keep_or_ask"``);
- "jään pois", "lopetan", "quit" leave the table: never a move; chat about the game is not a move either;
- stock words ("otan pakasta", "draw") from anyone but the dealer: ``NotLegal("stock_dealer_only")``.

Reading order: :data:`WORDS` (the vocabulary per concept and language), :class:`Reading` (what a message
says), :class:`GnavParser` (the decision). The situation comes from ``ctx.view`` (the speaker's
:class:`engines.gnav.View`) or, in tests, from ``ctx.extra``: ``phase`` ("knock" | "turn" | "over"),
``dealer`` (the speaker is the dealer), ``matador`` (the speaker holds a matador), ``responder`` (the seat
a request goes to first; ``None``: the stock), ``resting``, ``eliminated`` and ``private`` (the message
came in the private chat).

Reason codes in ``NotLegal``: the engine's (``not_your_turn`` turn, ``resting``, ``eliminated``,
``game_over``, ``must_knock``, ``waiting_for_knock``, ``nothing_to_knock``), the spec's chat-layer codes
``stock_dealer_only`` and ``matador_give_away`` (G9: a matador holder's unconfirmed request, asked only in
the private chat: a question in the group would tell everyone that the card is a matador), and two of the
parser's own: ``next_deal_auto`` (there is no "next deal" step: the next deal starts by itself) and
``ask_goes_left`` (param ``responder``: the request goes to the left neighbour, not to the player named).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from chatbot.core.nlp import NEG, QUESTION, Item, Lemmatizer, Lexicon, fold
from chatbot.core.parsing import Ambiguous, NotLegal, NotUnderstood, ParseContext, Parsed, ParseResult

KEEP, ASK, KNOCK = "keep", "ask", "knock"
MATADORS = ("house", "horse", "cat", "dragoon", "cuckoo")

# --------------------------------------------------------------------------------------------------
# 1. Vocabulary (spec §8.1; Finnish entries are base forms or colloquial surface forms)
# --------------------------------------------------------------------------------------------------

STAY, SWAP, STOCK, TAKE, KNOCKING, NEXT, PASS, LEAVE, CONFIRM, ADVICE, CARD, WANT, CHAT, RANK = (
    "stay", "swap", "stock", "take", "knocking", "next", "pass", "leave", "confirm", "advice", "card", "want",
    "chat", "rank",
)

WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "fi": {
        # "pidän", "pidä", "pidetään", "jään tähän", "seison", "tyydyn tähän"; Norwegian "står"
        STAY: ("pitää", "jäädä", "jäädä tähän", "seisoa", "seistä", "tyytyä", "pito", "står", "jeg står", "stå"),
        # "vaihda", "vaihdan", "vaihdetaan", "vaihtoa", "pyydän vaihtoa", "vaihtaisin"; Norwegian "bytt"
        SWAP: ("vaihtaa", "vaihto", "pyytää vaihto", "pyytää", "swapata", "bytt", "bytte", "bytta"),
        STOCK: ("pakka", "pakasta", "nostaa", "nostopakka"),
        TAKE: ("ottaa",),
        KNOCKING: ("koputtaa", "koputus", "kop", "kop kop", "koputella"),
        NEXT: ("seuraava", "seuraava jako", "jatkaa", "uusi jako", "jakaa", "jaa"),
        PASS: ("passata", "passi", "passaan", "pass"),
        LEAVE: ("jäädä pois", "lopettaa", "luovuttaa", "poistua", "lähteä"),
        CONFIRM: ("silti", "kuitenkin", "varmasti", "vaikka"),
        ADVICE: ("kannattaa", "pitäisi", "täytyä", "pitäisikö", "kannattaako"),
        CARD: ("kortti", "korttini", "tämä", "tähän", "tästä", "tässä", "tää"),
        WANT: ("haluta", "tahtoa", "aikoa"),
        CHAT: ("peli", "hyvä", "kiva", "hauska", "jännä", "huono", "onni", "tuuri", "voittaa", "hävitä", "sääntö"),
        RANK: (
            "narri", "pöllö", "kukkaruukku", "ruukku", "talo", "hevonen", "kissa", "rakuuna", "käki", "matadori",
            "lohikäärme", "jakaja", "elämä",
        ),
    },
    "en": {
        # "no swap" is a phrase so that it also holds for a Finnish speaker, for whom "no" is a filler
        STAY: ("keep", "stay", "stand", "hold", "keep it", "står", "jeg står", "stick", "no swap", "no trade",
               "no swapping", "no exchange"),
        SWAP: ("swap", "trade", "exchange", "switch", "bytt", "swap please", "ask"),
        STOCK: ("stock", "draw", "deck", "pile", "the stock", "top card"),
        TAKE: ("take", "get"),
        KNOCKING: ("knock", "knock knock"),
        NEXT: ("next", "next deal", "continue", "go on", "deal", "deal again"),
        PASS: ("pass",),
        LEAVE: ("quit", "leave", "give up", "resign"),
        CONFIRM: ("anyway", "still", "sure", "really"),
        ADVICE: ("should", "shall", "can i", "what if", "could", "is it", "do i"),
        CARD: ("card", "my card", "mine"),
        WANT: ("want", "like", "i'd", "would like", "wanna", "i want to"),
        CHAT: ("game", "good", "nice", "fun", "luck", "lucky", "win", "lose", "gg", "rule", "rules", "lol"),
        RANK: (
            "fool", "owl", "pot", "house", "horse", "cat", "dragoon", "dragon", "cuckoo", "matador", "dealer",
            "lives", "life",
        ),
    },
}

#: concepts that make a message a game command (and not chat)
COMMANDS = frozenset({STAY, SWAP, STOCK, KNOCKING, NEXT, PASS})


# --------------------------------------------------------------------------------------------------
# 2. What a message says
# --------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Reading:
    """The concepts said and denied in a message, the seats it names, and whether it is a question."""

    said: set[str] = field(default_factory=set)
    #: concepts negated by a word at most two words before them ("en vaihda", "don't swap")
    denied: set[str] = field(default_factory=set)
    seats: set[int] = field(default_factory=set)
    unknown: int = 0
    question: bool = False

    @classmethod
    def of(cls, items: Sequence[Item], text: str, lexicon: Lexicon, lang: str) -> Reading:
        reading = cls()
        last_neg = -10
        for index, item in enumerate(items):
            if item.has(NEG):
                last_neg = index
            # Spec §8.2 item 4: a negation counts for the two words after it ("en halua vaihtaa"), so a
            # "no" early in a longer message does not turn a later swap word into a keep.
            negated = item.negated and index - last_neg <= 2
            concepts = item.concepts - {NEG, QUESTION}
            (reading.denied if negated else reading.said).update(concepts)
            reading.seats.update(item.seats)
            reading.unknown += not item.known
        reading.question = (
            text.rstrip().endswith("?")
            or (bool(items) and items[0].has(QUESTION))
            or ADVICE in reading.said
            or any(_clitic_question(item, lexicon, lang) for item in items)
        )
        return reading

    def has(self, *concepts: str) -> bool:
        return any(c in self.said for c in concepts)

    def denies(self, *concepts: str) -> bool:
        return any(c in self.denied for c in concepts)

    @property
    def is_command(self) -> bool:
        return bool((self.said | self.denied) & COMMANDS)


def _clitic_question(item: Item, lexicon: Lexicon, lang: str) -> bool:
    """A -ko/-kö question of a move verb: "vaihdanko", "pidänkö", "nostanko" (spec §8.2 item 3). The
    lemmatiser reads "vaihdanko" as *vaihtaa*, so the clitic is looked for on the word itself; the
    word without it must be a move word, which keeps "pakko" or "kukko" from counting."""
    if len(item.words) != 1:
        return False
    word = fold(item.words[0])
    if not word.endswith("ko") or len(word) < 6:
        return False
    return bool(lexicon.concepts(item.words[0][:-2], lang) & {STAY, SWAP, STOCK})


# --------------------------------------------------------------------------------------------------
# 3. The situation of the speaker
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Situation:
    """What the parser needs to know about the speaker now, from ``ctx.extra`` or else the view."""

    phase: str
    dealer: bool
    matador: bool
    responder: int | None
    resting: bool
    eliminated: bool
    turn: int | None
    private: bool

    @classmethod
    def of(cls, ctx: ParseContext) -> Situation:
        view, seat = ctx.view, ctx.seat
        get = ctx.extra.get
        order = tuple(getattr(view, "order", ()) or ())
        turn_index = getattr(view, "turn", len(order))
        on_turn = order[turn_index] if order and 0 <= turn_index < len(order) else None
        own = getattr(view, "own_card", None)
        lives = getattr(view, "lives", ())
        return cls(
            phase=str(get("phase", getattr(view, "phase", "turn" if ctx.legal else "over"))),
            dealer=bool(get("dealer", view is not None and seat is not None and seat == getattr(view, "dealer", None))),
            matador=bool(get("matador", own is not None and own.split(".")[0] in MATADORS)),
            responder=get("responder", responder_of(view, seat)),
            resting=bool(get("resting", seat is not None and seat in getattr(view, "resting", ()))),
            eliminated=bool(get("eliminated", seat is not None and seat < len(lives) and lives[seat] == 0)),
            turn=get("turn", on_turn),
            private=bool(get("private", False)),
        )


def responder_of(view: Any, seat: int | None) -> int | None:
    """The seat a request by ``seat`` goes to first: the next seat of the turn order still in the deal;
    ``None`` for the stock (the dealer, or nobody after the speaker). Pass-bys come later and are the
    engine's business."""
    order = tuple(getattr(view, "order", ()) or ())
    if view is None or seat not in order:
        return None
    departed = set(getattr(view, "departed", ()))
    for s in order[order.index(seat) + 1:]:
        if s not in departed:
            return s
    return None


# --------------------------------------------------------------------------------------------------
# 4. The parser
# --------------------------------------------------------------------------------------------------

CHOICE = (KEEP, ASK)


class GnavParser:
    """Understands Gnav commands; one instance per lemmatiser (tests force each backend)."""

    def __init__(self, lemmatizer: Lemmatizer | None = None) -> None:
        self.lexicon = Lexicon(WORDS, lemmatizer)

    def parse(self, text: str, ctx: ParseContext) -> ParseResult:
        items = self.lexicon.scan(text, ctx.lang, ctx.seat_names)
        r = Reading.of(items, text, self.lexicon, ctx.lang)
        on_turn = set(CHOICE) <= set(ctx.legal)
        if r.question:
            # "vaihdanko?", "should I swap": the two choices, never a move (and no strategy advice)
            return Ambiguous(CHOICE, "question") if on_turn and r.is_command else NotUnderstood()
        if r.has(LEAVE) or r.has(CHAT) or not r.is_command or r.unknown > 2:
            return NotUnderstood()
        sit = Situation.of(ctx)
        if not ctx.legal:
            return _not_acting(sit)
        if KNOCK in ctx.legal:  # knock phase: the speaker holds a fool that is not shown yet
            return Parsed((KNOCK,)) if r.has(KNOCKING) else NotLegal("must_knock")
        if r.has(KNOCKING):
            return NotLegal("nothing_to_knock")
        if r.has(NEXT) and not r.has(STAY, SWAP, STOCK):
            return NotLegal("next_deal_auto")
        return self._turn(r, ctx, sit)

    def _turn(self, r: Reading, ctx: ParseContext, sit: Situation) -> ParseResult:
        asks = r.has(SWAP, STOCK) or (r.has(TAKE) and r.has(STOCK))
        keeps = r.has(STAY) or r.denies(SWAP, STOCK)
        if r.has(PASS) or r.denies(STAY) or (asks and keeps):
            # "passaan" may mean standing or passing the card on; "en pidä tästä" says no move at all
            return Ambiguous(CHOICE, "keep_or_ask")
        if keeps:
            return Parsed((KEEP,))
        if not asks:
            return NotUnderstood()
        if r.has(STOCK) and not sit.dealer:
            return NotLegal("stock_dealer_only")
        named = r.seats - ({ctx.seat} if ctx.seat is not None else set())
        if named and named != {sit.responder}:
            return NotLegal("ask_goes_left", (("responder", sit.responder),))
        if sit.matador and sit.private and not r.has(CONFIRM):
            return NotLegal("matador_give_away")
        return Parsed((ASK,))


def _not_acting(sit: Situation) -> NotLegal:
    """Why a move from this speaker changes nothing now (spec G25)."""
    if sit.phase == "over":
        return NotLegal("game_over")
    if sit.eliminated:
        return NotLegal("eliminated")
    if sit.resting:
        return NotLegal("resting")
    if sit.phase == "knock":
        return NotLegal("waiting_for_knock")
    return NotLegal("not_your_turn", (("turn", sit.turn),) if sit.turn is not None else ())


@lru_cache(maxsize=1)
def _default_parser() -> GnavParser:
    return GnavParser()


def parse(text: str, ctx: ParseContext) -> ParseResult:
    """Understand ``text`` as a Gnav move legal for the speaker now (see the module docstring)."""
    return _default_parser().parse(text, ctx)
