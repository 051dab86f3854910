"""Gnav in text: free Finnish or English -> what the player meant (rules spec §8.1–§8.4).

A turn has only two moves, ``keep`` and ``ask`` (the dealer's ask goes to the stock), plus ``knock`` for a
player dealt the fool when fools are not shown automatically. The work of the parser is therefore less
finding the move than *not* finding one where none was meant (spec §8.2):

- a question is never a move ("vaihdanko", "should I swap", a final "?"); asked on one's turn it gets the
  two choices back (``Ambiguous((Keep(), Ask()), "question")``);
- a negation within two words before a swap word keeps ("en vaihda", "don't swap"); a negated keep word
  ("en pidä tästä") or keep and swap words together, or "pass", ask back (``missing="keep_or_ask"``);
- "jään pois", "lopetan", "quit" leave the table: never a move; chat about the game is not a move either;
- a word typed without ä/ö that is another word as typed asks back: "jaa" is *deal* as typed and *jää*
  (keep) folded, so it is never read as a keep (issue #15; :func:`chatbot.games._spoken.fold_doubts`);
- a one-word answer ("ok", "joo", "ei", "pass") knocks when the knock is the only move, and on a turn asks
  back in private (in the group it is talk); a hedge ("ehkä vaihdan") is a question.

The parser gets the speaker's legal actions (the engine's objects: ``Keep()``, ``Ask()``, ``Knock()``)
and returns the move meant even when it is not allowed now; the engine's ``check`` gives the reason (a
knock on an ordinary turn, a keep while a fool must knock, a resting or eliminated speaker, a speaker
of the deal waiting for their turn, whom the core answers with its own short line "Now it is Liisa's
turn"). When the speaker cannot play a turn move at all, which of keep and ask was meant does not
matter: the engine refuses both for the same reasons. What the parser still refuses itself:

- what names no move of the game, so that the engine cannot be asked: a stock draw by anyone but the dealer
  (``stock_dealer_only``), a swap with someone else than the seat the request goes to (``ask_goes_left``,
  param ``responder``), the next deal (``next_deal_auto``: it starts by itself);
- ``matador_give_away``: a matador holder's request without "silti"/"anyway" is confirmed first (spec G9),
  and only in the private chat, since a question in the group would tell everyone the card is a matador.

Reading order: :data:`WORDS` (the vocabulary per concept and language), :class:`GnavReading` (what a
message says), :class:`GnavParser` (what it means for the speaker, from their
:class:`engines.gnav.View`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from chatbot.core.nlp import FILLER, NEG, OWN, QUESTION, Item, Lemmatizer, Lexicon, Reading, fold
from chatbot.core.parsing import Ambiguous, NotLegal, NotUnderstood, ParseContext, Parsed, ParseResult
from chatbot.games._spoken import (
    YES,
    Unfolded,
    abessive_negated,
    answer_word,
    fold_doubts,
    is_hedged,
    is_question,
    without_clitics,
    without_false_questions,
    without_word_typos,
)
from engines.gnav.model import MATADORS, TURN, Ask, Keep, Knock, View, rank_of

KEEP, ASK, KNOCK = Keep(), Ask(), Knock()
#: the two moves of a turn, in the order a question offers them
CHOICE = (KEEP, ASK)

# --------------------------------------------------------------------------------------------------
# 1. Vocabulary (spec §8.1; Finnish entries are base forms or colloquial surface forms)
# --------------------------------------------------------------------------------------------------

#: the card of the one asked ("korttis", "your card") and giving it ("annappa", "give me"): a request
YOURS, GIVE = "yours", "give"

STAY, SWAP, STOCK, TAKE, KNOCKING, NEXT, PASS, LEAVE, CONFIRM, ADVICE, CARD, WANT, CHAT, RANK = (
    "stay",
    "swap",
    "stock",
    "take",
    "knocking",
    "next",
    "pass",
    "leave",
    "confirm",
    "advice",
    "card",
    "want",
    "chat",
    "rank",
)

WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "fi": {
        # "pidän", "pidä", "pidetään", "jään tähän", "seison", "tyydyn tähän"; Norwegian "står"
        STAY: (
            "pitää",
            "jäädä",
            "jäädä tähän",
            "seisoa",
            "seistä",
            "tyytyä",
            "pito",
            "pysyä",
            "kelvata",
            "kelpaa",
            "kelpaa mulle",
            "behålla",
            "behåller",
            "jag behåller",
            "står",
            "jeg står",
            "stå",
            # "jätän kortin itselleni", "pidän itelläni": the card stays with the speaker
            "itselleni",
            "itelleni",
            "itselläni",
            "itelläni",
        ),
        YOURS: (
            "korttisi",
            "korttis",
            "sun kortti",
            "sinun kortti",
            "sun korttis",
            "sun kortin",
            "sinun korttisi",
        ),
        GIVE: ("antaa", "anna", "annappa", "annas", "annatko", "luovuttaa"),
        # "vaihda", "vaihdan", "vaihdetaan", "vaihtoa", "pyydän vaihtoa", "vaihtaisin"; Norwegian "bytt"
        # spoken "swappaan", "vaihetaan"; Swedish "byter", "jag byter"
        SWAP: (
            "vaihtaa",
            "vaihto",
            "pyytää vaihto",
            "pyytää",
            "kysyä vaihto",
            "kysyä vaihtoa",
            "swapata",
            "swappaan",
            "swappaa",
            "swapataan",
            "vaihetaan",
            "vaihetaa",
            "bytt",
            "bytte",
            "bytta",
            "byta",
            "byter",
            "byt",
            "vaihtamatta",  # the abessive: denied (see _spoken.abessive_negated)
            "luopua",  # "en halua luopua tästä" keeps
            "eteenpäin",  # "annan tän eteenpäin"
        ),
        STOCK: ("pakka", "pakasta", "nostaa", "nostopakka"),
        TAKE: ("ottaa", "napata"),
        KNOCKING: ("koputtaa", "koputus", "kop", "kop kop", "koputella"),
        NEXT: ("seuraava", "seuraava jako", "jatkaa", "uusi jako", "jakaa", "jaa"),
        PASS: ("passata", "passi", "passaan", "pass"),
        LEAVE: ("jäädä pois", "lopettaa", "luovuttaa", "poistua", "lähteä"),
        # "matadori lähtee" is the button's own confirmation typed back (spec G9)
        CONFIRM: ("silti", "kuitenkin", "varmasti", "vaikka", "matadori lähtee", "matadori lähteköön"),
        ADVICE: ("kannattaa", "pitäisi", "täytyä", "pitäisikö", "kannattaako"),
        CARD: ("kortti", "korttini", "tämä", "tähän", "tästä", "tässä", "tää"),
        WANT: (
            "haluta",
            "tahtoa",
            "aikoa",
            "jättää",
            "jätän",
            "viitsiä",  # "en mä viitti vaihtaa"
            "viitti",
            "tarvita",
            "tarvii",
        ),  # "jätän vaihtamatta" keeps: jättää is no typo of a move
        CHAT: (
            "peli",
            "hyvä",
            "kiva",
            "hauska",
            "jännä",
            "huono",
            "onni",
            "tuuri",
            "voittaa",
            "hävitä",
            "sääntö",
        ),
        RANK: (
            "narri",
            "pöllö",
            "kukkaruukku",
            "ruukku",
            "talo",
            "hevonen",
            "kissa",
            "rakuuna",
            "käki",
            "matadori",
            "lohikäärme",
            "jakaja",
            "elämä",
        ),
    },
    "en": {
        # "no swap" is a phrase so that it also holds for a Finnish speaker, for whom "no" is a filler
        STAY: (
            "keep",
            "stay",
            "stand",
            "hold",
            "keep it",
            "står",
            "jeg står",
            "stick",
            "no swap",
            "no trade",
            "no swapping",
            "no exchange",
            "no change",
            "i'm good",
            "im good",
            "i'm fine",
            "stick with",
            "keeping",
            "happy with",
            "i'm happy",
            "im happy",
            "fine with",
            "fine by me",
            "content",
        ),
        YOURS: ("your card", "yours", "your one"),
        GIVE: ("give", "hand", "pass me"),
        SWAP: ("swap", "trade", "exchange", "switch", "bytt", "swap please", "ask", "change"),
        STOCK: ("stock", "draw", "deck", "pile", "the stock", "top card"),
        TAKE: ("take", "get"),
        KNOCKING: ("knock", "knock knock"),
        NEXT: ("next", "next deal", "continue", "go on", "deal", "deal again"),
        PASS: ("pass",),
        LEAVE: ("quit", "leave", "give up", "resign"),
        CONFIRM: ("anyway", "still", "sure", "really", "give the matador away"),
        ADVICE: ("should", "shall", "can i", "what if", "could", "is it", "do i"),
        CARD: ("card", "my card", "mine"),
        WANT: ("want", "like", "i'd", "would like", "wanna", "i want to"),
        CHAT: ("game", "good", "nice", "fun", "luck", "lucky", "win", "lose", "gg", "rule", "rules", "lol"),
        RANK: (
            "fool",
            "owl",
            "pot",
            "house",
            "horse",
            "cat",
            "dragoon",
            "dragon",
            "cuckoo",
            "matador",
            "dealer",
            "lives",
            "life",
        ),
    },
}

#: concepts that make a message a game command (and not chat)
COMMANDS = frozenset({STAY, SWAP, STOCK, KNOCKING, NEXT, PASS, YOURS})


#: localised option names of "uusi gnav elämät=2", "perinteinen_kissa=kyllä", "narri_näkyy=ei" (then a fool
#: holder knocks) -> engine option keys
OPTION_WORDS = {
    "elämät": "lives",
    "elämiä": "lives",
    "elamat": "lives",
    "elamia": "lives",
    "henget": "lives",
    "perinteinen_kissa": "traditional_cat",
    "perinteinen": "traditional_cat",
    "traditional": "traditional_cat",
    "narri_näkyy": "fool_auto_reveal",
    "narri_nakyy": "fool_auto_reveal",
    "auto_reveal": "fool_auto_reveal",
}


# --------------------------------------------------------------------------------------------------
# 2. What a message says
# --------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class GnavReading(Reading):
    """The shared reading (concepts said and denied) plus the seats a message names and Gnav's wider
    idea of a question."""

    seats: set[int] = field(default_factory=set)

    @classmethod
    def read(cls, items: Sequence[Item], text: str, lexicon: Lexicon, lang: str) -> GnavReading:
        items = without_false_questions(items)
        reading = cls.of(abessive_negated(_within_reach_of_negation(items)), question=QUESTION)
        reading.question = (
            reading.question
            or ADVICE in reading.said
            or is_question(text, items, lexicon, lang)
            or is_hedged(text)  # "ehkä vaihdan": the choice is still open
            or any(_clitic_question(item, lexicon, lang) for item in items)
        )
        return reading

    def concepts_of(self, item: Item) -> Iterable[str]:
        return item.concepts - {NEG, QUESTION}

    def take(self, items: Sequence[Item], index: int) -> None:
        self.seats.update(items[index].seats)

    @property
    def is_command(self) -> bool:
        return bool((self.said | self.denied) & COMMANDS) or (self.has(TAKE) and bool(self.seats))

    def turn_move(self) -> Keep | Ask | Ambiguous | None:
        """``KEEP`` or ``ASK`` when the message says one of them, the question back when it says both or
        neither clearly ("passaan", "en pidä tästä", "pidän vai vaihdan"), ``None`` when it says no
        turn move."""
        # "annappa korttis", "give me your card", "otan Liisan kortin": the neighbour's card asked for
        wants_theirs = (self.has(YOURS) and self.has(GIVE, TAKE, WANT)) or (
            self.has(TAKE) and bool(self.seats)
        )
        asks = self.has(SWAP, STOCK) or (self.has(TAKE) and self.has(STOCK)) or wants_theirs
        keeps = self.has(STAY) or self.denies(SWAP, STOCK)
        if self.denies(STAY) and asks and not keeps:
            return ASK  # "en pidä, vaihdan"
        if self.has(PASS) or self.denies(STAY) or (asks and keeps):
            # "passaan" may mean standing or passing the card on; "en pidä tästä" says no move at all
            return Ambiguous(CHOICE, "keep_or_ask")
        if keeps:
            return KEEP
        return ASK if asks else None


def _within_reach_of_negation(items: Sequence[Item]) -> list[Item]:
    """Spec §8.2 item 4: a negation counts for the two words after it ("en halua vaihtaa"), so a "no"
    early in a longer message does not turn a later swap word into a keep; and for one move word only
    ("en pidä, vaihdan" keeps nothing and asks for a swap). "mä", "sit" and the like do not count as
    words here ("en mä viitti vaihtaa" keeps)."""
    out = []
    last_neg = -10
    spent = False
    words = 0  # the words counted so far, fillers and "mä" left out
    for item in items:
        if not item.has(FILLER, OWN) or item.has(NEG):
            words += 1
        if item.has(NEG):
            last_neg, spent = words, False
        if item.negated and (words - last_neg > 2 or spent):
            item = dataclasses.replace(item, negated=False)
        if item.negated and item.concepts & COMMANDS:
            spent = True
        out.append(item)
    return out


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
# 3. What it means for the speaker
# --------------------------------------------------------------------------------------------------


class GnavParser:
    """Understands Gnav commands; one instance per lemmatiser (tests force each backend)."""

    def __init__(self, lemmatizer: Lemmatizer | None = None) -> None:
        self.lexicon = Lexicon(WORDS, lemmatizer)
        self.strict = Lexicon(WORDS, Unfolded(self.lexicon.lemmatizer))

    def words(self, text: str, lang: str, names: Sequence[str] = ()) -> list[Item]:
        """The message's items as :meth:`parse` reads them (for the core's certainty check)."""
        text = without_clitics(text, self.lexicon.lemmatizer)  # "pidänkin" for the word-form table
        return without_word_typos(self.lexicon.scan(text, lang, names), self.lexicon.lemmatizer)

    def parse(self, text: str, ctx: ParseContext[View]) -> ParseResult:
        items = self.words(text, ctx.lang, ctx.seat_names)
        text = without_clitics(text, self.lexicon.lemmatizer)
        result = self._parse(items, text, ctx)
        as_typed = fold_doubts(items, self.strict, ctx.lang)
        if as_typed is not None and self._parse(as_typed, text, ctx) != result:
            # "jaa" is *deal* as typed and *jää* folded: a guess that changes the move is a question
            on_turn = set(CHOICE) <= set(ctx.legal)
            return Ambiguous(CHOICE, "keep_or_ask") if on_turn else NotUnderstood()
        return result

    def _parse(self, items: Sequence[Item], text: str, ctx: ParseContext[View]) -> ParseResult:
        r = GnavReading.read(items, text, self.lexicon, ctx.lang)
        on_turn = set(CHOICE) <= set(ctx.legal)
        answer = answer_word(text)
        if answer is not None and not r.is_command:
            return _answer(answer, ctx)
        if r.question:
            # "vaihdanko?", "should I swap": the two choices, never a move (and no strategy advice)
            return Ambiguous(CHOICE, "question") if on_turn and r.is_command else NotUnderstood()
        if r.has(LEAVE) or r.has(CHAT) or not r.is_command or r.unknown > 2:
            return NotUnderstood()
        if not on_turn:
            return _off_turn(r, ctx)
        if r.has(KNOCKING):
            return Parsed((KNOCK,))  # the engine says there is nothing to knock
        if r.has(NEXT) and not r.has(STAY, SWAP, STOCK):
            return NotLegal("next_deal_auto")
        move = r.turn_move()
        if isinstance(move, Ambiguous):
            return move
        if move is None:
            return NotUnderstood()
        return Parsed((KEEP,)) if move == KEEP else _ask(r, ctx)


def _answer(answer: str, ctx: ParseContext[View]) -> ParseResult:
    """A one-word answer ("ok", "joo", "ei", "pass") to the prompt in front of the speaker: the knock
    when it is the only move; on a turn, in private, the two choices back (neither is meant more
    than the other); in the group it is chat."""
    if ctx.legal == (KNOCK,) and answer == YES:
        return Parsed((KNOCK,))
    if set(CHOICE) <= set(ctx.legal) and ctx.private:
        return Ambiguous(CHOICE, "keep_or_ask")
    return NotUnderstood()


def _off_turn(r: GnavReading, ctx: ParseContext[View]) -> ParseResult:
    """A command from a speaker who cannot keep or ask now: the engine says why (resting, out, a fool
    still to knock, waiting for the turn). A seat of the deal that only waits for its turn is refused
    every move alike, a knock too: its turn move stands for whatever it said."""
    view, seat = ctx.view, ctx.seat
    waiting = view.phase == TURN and seat in view.order and seat not in view.departed and seat != view.on_turn
    if r.has(KNOCKING) and not waiting:
        return Parsed((KNOCK,))
    move = r.turn_move()
    return Parsed((move if isinstance(move, Keep | Ask) else KEEP,))


def _ask(r: GnavReading, ctx: ParseContext[View]) -> ParseResult:
    """A request by the seat on turn, unless the words ask for something no request does."""
    view, seat = ctx.view, ctx.seat
    if r.has(STOCK) and seat != view.dealer:
        return NotLegal("stock_dealer_only")
    responder = view.responder(seat)
    named = r.seats - {seat}
    if named and named != {responder}:
        return NotLegal("ask_goes_left", (("responder", responder),))
    holds_matador = view.own_card is not None and rank_of(view.own_card) in MATADORS
    if holds_matador and _in_private(ctx) and not r.has(CONFIRM):
        return NotLegal("matador_give_away")
    return Parsed((ASK,))


def _in_private(ctx: ParseContext[View]) -> bool:
    """Whether the message came in the private chat: the one fact a parser needs that no view holds."""
    return ctx.private


@lru_cache(maxsize=1)
def _default_parser() -> GnavParser:
    return GnavParser()


def parse(text: str, ctx: ParseContext[View]) -> ParseResult:
    """What ``text`` means as a Gnav move of the speaker (see the module docstring)."""
    return _default_parser().parse(text, ctx)


def words(text: str, lang: str, names: Sequence[str] = ()) -> list[Item]:
    """The items of ``text`` as :func:`parse` reads them."""
    return _default_parser().words(text, lang, names)
