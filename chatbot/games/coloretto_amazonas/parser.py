"""Coloretto Amazonas: free Finnish or English text -> the actions the player meant (rules spec §3
and §8).

The parser reads the speaker's view (``ctx.view``: the hand in display order, the phase, a pending
gift, who is to act) and says what the words mean, as the engine's action objects; whether that
move is allowed now is the engine's ``check`` to say, and the core asks it. The legal actions
(``ctx.legal``) only narrow a reading that fits several moves ("anna käärme" with one receiver
protected) and choose between the moves a question offers. The phase decides what a command means
(spec §8.5): in ``TURN`` a card is played or given, in ``GIFT`` the receiver accepts or refuses and
names the neighbour card to discard; an answer said on one's own turn, or a turn move said while a
gift waits, is read as what it says, and the engine refuses it (``no_gift``, ``gift_pending``). So
is a move of a speaker who is not to act (``not_your_turn``, ``game_over``: the core answers the
first with its own line naming who is to act).

Reading order:

1. The vocabulary: :data:`FI_ANIMALS` / :data:`EN_ANIMALS` (spec §8.2), colours and nouns (§8.3) and
   :data:`WORDS`, the verbs (§8.1). Animal names are the game's own entities, so their case forms
   are listed here (Voikko does not know "punaara" or "kapybara"), and so are the forms of verbs and
   nouns that the shared word-form table lacks, so that both lemmatiser backends read the same.
2. :class:`ColorettoReading`: what a message says, from the items of :meth:`Lexicon.scan`: verbs
   said and denied, the animals, colours and hand positions named, and the receivers.
3. :class:`ColorettoParser`: one method per phase, each turning a reading into a ``ParseResult``.

``NotLegal`` codes of the parser's own, for words that name no move at all: ``unknown_animal``
(param ``word``: an animal this game does not have), ``no_such_position`` (``position``, ``count``:
"the fourth card" of three), ``no_colour_in_hand`` (``colour``: "my brown card" without one) and
``wrong_row`` (``kind``, ``colour``: a card sent to a row of another colour). A speaker who is not
to act and whose words name no one move gets ``not_your_turn`` (``game_over`` once the game is
over): the core answers that with its own line naming who is to act.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TypeVar

from chatbot.core.nlp import (
    FILLER,
    NEG,
    OWN,
    SEP,
    Item,
    Lemmatizer,
    Lexicon,
    NumberWord,
    Reading,
    fold,
    match_seat,
)
from chatbot.core.parsing import Ambiguous, NotLegal, NotUnderstood, ParseContext, Parsed, ParseResult
from chatbot.games._spoken import (
    is_hedged,
    is_question,
    without_clitics,
    without_false_questions,
    without_word_typos,
    written,
)
from engines.coloretto_amazonas.model import (
    GIFT,
    KINDS,
    OVER,
    Accept,
    Action,
    Give,
    Play,
    PrivateView,
    PublicView,
    Refuse,
    kind_of,
)

T = TypeVar("T")

# --------------------------------------------------------------------------------------------------
# 1. Vocabulary
# --------------------------------------------------------------------------------------------------

# kind -> (nominative, genitive, partitive) of the name and of each alias (spec §8.2)
FI_ANIMALS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "B1": (
        ("amazonindelfiini", "amazonindelfiinin", "amazonindelfiiniä"),
        ("delfiini", "delfiinin", "delfiiniä"),
        ("jokidelfiini", "jokidelfiinin", "jokidelfiiniä"),
        ("boto", "boton", "botoa"),
    ),
    "B2": (("piraija", "piraijan", "piraijaa"),),
    "B3": (("sähköankerias", "sähköankeriaan", "sähköankeriasta"), ("ankerias", "ankeriaan", "ankeriasta")),
    "B4": (("arapaima", "arapaiman", "arapaimaa"), ("piraruku", "pirarukun", "pirarukua")),
    "B5": (
        ("amazoninmanaatti", "amazoninmanaatin", "amazoninmanaattia"),
        ("manaatti", "manaatin", "manaattia"),
        ("lamantiini", "lamantiinin", "lamantiinia"),
    ),
    "P1": (
        ("punaara", "punaaran", "punaaraa"),
        ("ara", "aran", "araa"),
        ("papukaija", "papukaijan", "papukaijaa"),
    ),
    "P2": (("tukaani", "tukaanin", "tukaania"),),
    "P3": (("harpyija", "harpyijan", "harpyijaa"), ("kotka", "kotkan", "kotkaa")),
    "P4": (("kolibri", "kolibrin", "kolibria"),),
    "R1": (("anakonda", "anakondan", "anakondaa"), ("käärme", "käärmeen", "käärmettä")),
    "R2": (
        ("kaimaani", "kaimaanin", "kaimaania"),
        ("alligaattori", "alligaattorin", "alligaattoria"),
        ("krokotiili", "krokotiilin", "krokotiilia"),
    ),
    "R3": (("leguaani", "leguaanin", "leguaania"), ("lisko", "liskon", "liskoa")),
    "G1": (("jaguaari", "jaguaarin", "jaguaaria"),),
    "G2": (("laiskiainen", "laiskiaisen", "laiskiaista"),),
    "G3": (("tapiiri", "tapiirin", "tapiiria"),),
    "G4": (("kapybara", "kapybaran", "kapybaraa"), ("vesisika", "vesisian", "vesisikaa")),
    "G5": (
        ("nuolimyrkkysammakko", "nuolimyrkkysammakon", "nuolimyrkkysammakkoa"),
        ("myrkkysammakko", "myrkkysammakon", "myrkkysammakkoa"),
        ("sammakko", "sammakon", "sammakkoa"),
    ),
    "G6": (("hämähäkkiapina", "hämähäkkiapinan", "hämähäkkiapinaa"), ("apina", "apinan", "apinaa")),
}
EN_ANIMALS: dict[str, tuple[str, ...]] = {
    "B1": ("amazon river dolphin", "river dolphin", "dolphin", "boto"),
    "B2": ("piranha",),
    "B3": ("electric eel", "eel"),
    "B4": ("arapaima", "pirarucu"),
    "B5": ("amazonian manatee", "manatee"),
    "P1": ("scarlet macaw", "macaw", "parrot"),
    "P2": ("toucan",),
    "P3": ("harpy eagle", "harpy", "eagle"),
    "P4": ("hummingbird",),
    "R1": ("anaconda", "snake"),
    "R2": ("caiman", "alligator", "crocodile"),
    "R3": ("iguana", "lizard"),
    "G1": ("jaguar",),
    "G2": ("sloth",),
    "G3": ("tapir",),
    "G4": ("capybara",),
    "G5": ("poison dart frog", "dart frog", "frog"),
    "G6": ("spider monkey", "monkey"),
}


def noun_forms(nominative: str, genitive: str, partitive: str) -> tuple[str, ...]:
    """The case forms of a noun that commands use, from its three principal forms: the local cases,
    the translative and the plural hang on the genitive stem (tukaani-lle, sähköankeriaa-lle,
    laiskiaise-lle); the partitive's last letter gives the vowel harmony. Over-generating is harmless:
    only a player's words are looked up here. (A general helper: it could live in ``nlp``.)"""
    stem, a = genitive[:-1], partitive[-1] if partitive[-1] in "aä" else "a"
    forms = {nominative, genitive, partitive, stem + "t", stem + "ni", stem + "ksi"}
    forms |= {stem + ending for ending in ("lle", "lt" + a, "ll" + a, "ss" + a, "st" + a)}
    if nominative[-1] in "aeiouyäö":
        forms.add(nominative + nominative[-1] + "n")  # illative of a vowel stem: tukaaniin, piraijaan
    return tuple(sorted(forms))


KIND, COLOUR, ROW_COLOUR = "kind:", "colour:", "row:"  # prefixes of the concepts that carry a value

# Colour words: forms that point at a row (illative "siniseen", elative "vihreästä", inessive
# "ruskeassa") name the target or source row; the others name a card's colour (spec §8.3, §8.5).
_FI_COLOURS: dict[str, tuple[tuple[str, str, str, str], ...]] = {
    # (nominative, genitive, partitive, illative)
    "B": (("sininen", "sinisen", "sinistä", "siniseen"),),
    "P": (
        ("violetti", "violetin", "violettia", "violettiin"),
        ("lila", "lilan", "lilaa", "lilaan"),
        ("liila", "liilan", "liilaa", "liilaan"),
        ("purppura", "purppuran", "purppuraa", "purppuraan"),
        ("sinipunainen", "sinipunaisen", "sinipunaista", "sinipunaiseen"),
    ),
    "R": (("ruskea", "ruskean", "ruskeaa", "ruskeaan"), ("ruskee", "ruskeen", "ruskeeta", "ruskeeseen")),
    "G": (("vihreä", "vihreän", "vihreää", "vihreään"), ("vihree", "vihreen", "vihreetä", "vihreeseen")),
}
EN_COLOURS = {"B": ("blue",), "P": ("purple", "violet"), "R": ("brown",), "G": ("green",)}


def _colour_words() -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    fi: dict[str, tuple[str, ...]] = {}
    for colour, words in _FI_COLOURS.items():
        card: set[str] = set()
        row: set[str] = set()
        for nom, gen, part, ill in words:
            stem, a = gen[:-1], part[-1]
            card |= {nom, gen, part, stem + "t", stem + "lle"}
            row |= {ill, *(stem + e for e in ("st" + a, "ss" + a, "lt" + a, "ll" + a))}
        fi[COLOUR + colour] = tuple(sorted(card))
        fi[ROW_COLOUR + colour] = tuple(sorted(row))
    en = {COLOUR + colour: words for colour, words in EN_COLOURS.items()}
    return fi, en


PLAY, GIVE, THROW, KEEP, TAKE, ACCEPT, YES, REFUSE, REMOVE, AWAY, WANT = (
    "play",
    "give",
    "throw",
    "keep",
    "take",
    "accept",
    "yes",
    "refuse",
    "remove",
    "away",
    "want",
)
ROW, CARD, HAND, SELF, OPPONENT, FROM = "row", "card", "hand", "self", "opponent", "from"
#: the gift itself ("torjun lahjan", "accept the gift"): the game's word, read by no rule of the
#: parser (the verb says what is done with it), so that friends' talk tells it from other words
GIFT_NOUN = "gift_noun"

# Finnish entries are base forms for the lemmatiser, plus the command forms of words that the shared
# word-form table does not know yet (hyväksyä, kieltäytyä, lahjoittaa, rivi …), so that the table
# backend reads them too. Verb table: spec §8.1.
_FI_COLOURS_WORDS, _EN_COLOURS_WORDS = _colour_words()
WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "fi": {
        PLAY: (
            "pelata",
            "laittaa",
            "lisätä",
            "sijoittaa",
            "sijoita",
            "sijoitan",
            "sijoitetaan",
            "panna",
            "pistää",
            "asettaa",
            "laitetaan",
            "pelataan",
        ),
        GIVE: (
            "antaa",
            "annetaan",
            "lahjoittaa",
            "lahjoita",
            "lahjoitan",
            "lahjoitetaan",
            "tarjota",
            "tarjoa",
            "tarjoan",
            "tarjotaan",
            "ojentaa",
            "ojenna",
            "ojennan",
            "syöttää",
            "passata",
            "passaan",
        ),
        THROW: ("heittää", "heitä", "heitän", "heitetään", "viskata"),
        KEEP: ("pitää", "pidä", "pidän", "pidetään"),
        TAKE: ("ottaa", "ota", "otan", "otetaan", "napata", "nappaan"),
        ACCEPT: (
            "hyväksyä",
            "hyväksy",
            "hyväksyn",
            "hyväksytään",
            "ottaa vastaan",
            "vastaanottaa",
            "vastaanotan",
            "huolia",  # "en huoli" refuses
        ),
        YES: ("käy", "ok", "okei", "joo", "juu", "kyllä", "selvä", "sopii", "jep", "kelvata", "kelpaa"),
        REFUSE: (
            "hylätä",
            "hyljätä",
            "hylkää",
            "hylkään",
            "hylätään",
            "kieltäytyä",
            "kieltäydy",
            "kieltäydyn",
            "kieltäydytään",
            "torjua",
            "torju",
            "torjun",
            "torjutaan",
            "ei kiitos",
            "kiitos ei",
        ),
        REMOVE: (
            "poistaa",
            "poista",
            "poistan",
            "poistetaan",
            "pudottaa",
            "pudota",
            "pudotan",
            "heittää pois",
            "dumpata",
        ),
        AWAY: ("pois", "roskiin", "poistopakkaan", "poistoon"),
        WANT: ("haluta", "halua", "haluan", "tahtoa", "tarvita", "tarvii", "tarvi"),
        ROW: (
            "rivi",
            "rivin",
            "riviä",
            "riviin",
            "rivistä",
            "riviltä",
            "rivillä",
            "rivissä",
            "rivini",
            "riviini",
            "riviisi",
            "rivissäni",
            "rivistäni",
            "rivit",
            "riveistä",
            "pöytään",  # "sammakko pöytään": into the own row
        ),
        CARD: (
            "kortti",
            "kortin",
            "korttia",
            "kortit",
            "korttini",
            "kortiksi",
            "korttiin",
            "eläin",
            "eläimen",
            "eläintä",
            "eläimeni",
        ),
        HAND: ("käsi", "käden", "kädessä", "kädestä", "käteni", "kädessäni", "kädestäni"),
        SELF: (
            "itse",
            "itselle",
            "itselleni",
            "itselleen",
            "minulle",
            "mulle",
            "itselläni",
            "omaksi",
            "itelle",
            "ittelle",
            "itelleni",
            "ittelleni",
        ),
        OPPONENT: (
            "vastustaja",
            "vastustajalle",
            "vastustajan",
            "vastustajaa",
            "vastapelaaja",
            "vastapelaajalle",
            "toinen pelaaja",
            "toiselle pelaajalle",
        ),
        FROM: (),
        GIFT_NOUN: ("lahja", "lahjan", "lahjaa", "lahjana", "lahjaksi", "lahjat", "lahjasi", "lahjansa"),
        **_FI_COLOURS_WORDS,
        **{
            KIND + kind: tuple(f for names in forms for f in noun_forms(*names))
            for kind, forms in FI_ANIMALS.items()
        },
    },
    "en": {
        PLAY: ("play", "put", "place", "add", "lay", "played"),
        GIVE: ("give", "gave", "pass", "offer", "send", "gift"),
        THROW: ("throw", "toss"),
        KEEP: ("keep", "keep it", "keep for myself"),
        TAKE: ("take", "take it", "took"),
        ACCEPT: ("accept", "accepted", "i accept"),
        YES: ("yes", "ok", "okay", "sure", "fine", "yep", "yeah", "alright"),
        REFUSE: ("refuse", "reject", "decline", "no thanks", "no thank you", "refused", "nah", "nope"),
        REMOVE: ("remove", "drop", "discard", "ditch", "throw away", "throw out", "get rid of"),
        AWAY: ("away",),
        WANT: ("want",),
        ROW: ("row", "line", "rows"),
        CARD: ("card", "animal"),
        HAND: ("hand",),
        GIFT_NOUN: ("present", "the gift"),
        SELF: ("myself", "me"),
        OPPONENT: ("opponent", "other player", "other"),
        FROM: ("from", "out of"),
        **_EN_COLOURS_WORDS,
        **{KIND + kind: names for kind, names in EN_ANIMALS.items()},
    },
}

# Verbs that make a message a game command even from a player who is not to act (weak words such as
# "joo" or a bare animal name are ordinary chat then, and get no answer).
COMMAND_VERBS = frozenset({PLAY, GIVE, THROW, TAKE, ACCEPT, REFUSE, REMOVE})


# --------------------------------------------------------------------------------------------------
# 2. What a message says
# --------------------------------------------------------------------------------------------------

_POSITIONAL = ("side", "edge", "middle")  # number kinds whose positions depend on the hand size


def _allative(item: Item) -> bool:
    word = item.words[-1]
    return fold(word).endswith("lle") or word.endswith(":lle")


def receivers_named(items: Sequence[Item], names: Sequence[str], seat: int | None) -> list[Item]:
    """The items as a command reads them, before :class:`ColorettoReading` walks them (spec §8.5):

    - a word in the allative that is a player's name is a receiver even when it is also a card word
      ("Aralle" when a player is called Ara);
    - a verb that is not the first word but is exactly a player's name is that player ("give Anna
      the macaw"): a verb at the start of a command is the verb;
    - the speaker's own name, not in the allative, is no receiver ("Matti: pelaan jaguaarin"): it
      reads as a filler word;
    - "hand" as the first word is a verb ("hand the capybara to Pekka").
    """
    out: list[Item] = []
    for index, item in enumerate(items):
        concepts = item.concepts
        allative = _allative(item)
        verb_later = index > 0 and bool(concepts) and concepts <= COMMAND_VERBS | {FILLER}
        if not item.seats and (allative or verb_later) and names:
            seats = match_seat(item.text, names, loose=False)
            if seats:
                item = Item(item.start, item.words, seats=tuple(seats))
        if item.seats:
            if seat is not None and item.seats == (seat,) and not allative:
                item = Item(item.start, item.words, frozenset({FILLER}))
        elif index == 0 and HAND in concepts and len(items) > 1:
            item = dataclasses.replace(item, concepts=concepts | {GIVE})
        out.append(item)
    return out


@dataclass(slots=True)
class ColorettoReading(Reading):
    """The parts of a command. ``names`` are (seats, allative) pairs of the player names said;
    ``positions`` hand positions 1–3 ("toinen kortti", "card 2"); ``row_colours`` colours that name a
    row ("siniseen", "the blue row"); ``card_colours`` colours that name a card ("sininen kortti").

    Read the items of :func:`receivers_named`, then call :meth:`for_hand` with the speaker's hand size:
    "the last card" or "keskimmäinen" is a position only in a hand of a known size."""

    kinds: list[str] = field(default_factory=list)
    card_colours: list[str] = field(default_factory=list)
    row_colours: list[str] = field(default_factory=list)
    names: list[tuple[tuple[int, ...], bool]] = field(default_factory=list)
    other_player: bool = False  # "toiselle", "vastustajalle", "my opponent"
    unknown_words: list[str] = field(default_factory=list)  # words that mean nothing here
    position_words: list[NumberWord] = field(default_factory=list)
    positions: list[int] = field(default_factory=list)  # by for_hand()
    only_negation: bool = False  # by for_hand(): "ei", "no": the whole message is a no

    def concepts_of(self, item: Item) -> Iterable[str]:
        if item.seats:
            return ()
        return [c for c in item.concepts if not c.startswith((KIND, COLOUR, ROW_COLOUR))]

    def take(self, items: Sequence[Item], index: int) -> None:
        item = items[index]
        if item.seats:
            self.names.append((item.seats, _allative(item)))
            return
        for concept in sorted(item.concepts):
            if concept.startswith(KIND):
                self.kinds.append(concept.removeprefix(KIND))
            elif concept.startswith(ROW_COLOUR):
                self.row_colours.append(concept.removeprefix(ROW_COLOUR))
            elif concept.startswith(COLOUR):
                colour = concept.removeprefix(COLOUR)
                # "the blue row", "sinisen rivin", "from the blue row": the colour names a row
                nxt = items[index + 1] if index + 1 < len(items) else None
                prev = items[index - 1] if index > 0 else None
                if (nxt is not None and nxt.has(ROW)) or (prev is not None and prev.has(FROM)):
                    self.row_colours.append(colour)
                else:
                    self.card_colours.append(colour)
        if item.numbers and HAND not in item.concepts:
            self._number(items, index)
        if not item.known:
            self.unknown_words.append(item.text)

    def _number(self, items: Sequence[Item], index: int) -> None:
        """A hand position ("toinen kortti", "kakkonen", "2", "card two", "viimeinen"), or "toiselle":
        the other player (spec §8.5)."""
        near_card = any(0 <= j < len(items) and items[j].has(CARD) for j in (index - 1, index + 1))
        for number in items[index].numbers:
            if number.case == "allative":
                if number.base == "toinen":
                    self.other_player = True
                return
            if number.kind == "numeral" and not near_card:
                continue  # "one" in "the blue one", "kolme" as a count: not a position
            if number.kind in _POSITIONAL or number.value >= 1:
                self.position_words.append(number)
            return

    def for_hand(self, hand_size: int) -> ColorettoReading:
        """Resolve the hand positions for a hand of ``hand_size`` cards; returns ``self``."""
        for number in self.position_words:
            if number.kind in _POSITIONAL:
                self.positions.extend(
                    p for p in number.positions(max(hand_size, 1)) if p not in self.positions
                )
            elif number.value not in self.positions:
                self.positions.append(number.value)
        self.only_negation = (
            self.said <= {NEG, SEP, FILLER, OWN}
            and NEG in self.said
            and not self.denied
            and not self.names_card
            and not self.names
        )
        return self

    @property
    def verbs(self) -> set[str]:
        return (self.said | self.denied) & COMMAND_VERBS

    @property
    def names_card(self) -> bool:
        return bool(self.kinds or self.positions or self.card_colours or self.row_colours)


# --------------------------------------------------------------------------------------------------
# 3. The parser
# --------------------------------------------------------------------------------------------------


def _dedupe(items: Iterable[T]) -> list[T]:
    return list(dict.fromkeys(items))


def _meant(
    candidates: Sequence[Action],
    ctx: ParseContext[PublicView],
    missing: str,
    *,
    ask: bool = False,
    fallback: Action | None = None,
) -> ParseResult:
    """What the words mean, given every action they fit (in the order a question lists them).

    The legal ones among them narrow the reading: one is the move, several are a question (so is
    one when ``ask``: the words leave the choice open, or contradict themselves). When none is
    allowed now, the move meant is ``fallback`` (else the first candidate), and the engine's
    ``check`` says why it is refused."""
    actions = _dedupe(candidates)
    if not actions:
        return NotUnderstood()
    legal = [a for a in actions if a in ctx.legal]
    if len(legal) == 1 and not ask:
        return Parsed((legal[0],))
    if legal:
        return Ambiguous(tuple(legal), missing)
    return Parsed((fallback if fallback is not None else actions[0],))


class ColorettoParser:
    """Understands Coloretto Amazonas commands; one instance per lemmatiser (tests force each backend)."""

    def __init__(self, lemmatizer: Lemmatizer | None = None) -> None:
        self.lexicon = Lexicon(WORDS, lemmatizer)

    def words(self, text: str, lang: str, names: Sequence[str] = ()) -> list[Item]:
        """The message's items as :meth:`parse` reads them (for the core's certainty check)."""
        text = without_clitics(written(text), self.lexicon.lemmatizer)  # "tokakortti", "kakkoskortin"
        scanned = without_word_typos(self.lexicon.scan(text, lang, names), self.lexicon.lemmatizer)
        return without_false_questions(scanned)

    def parse(self, text: str, ctx: ParseContext[PublicView]) -> ParseResult:
        view = ctx.view
        hand = tuple(kind_of(c) for c in view.hand) if isinstance(view, PrivateView) else ()
        scanned = self.words(text, ctx.lang, ctx.seat_names)
        text = without_clitics(written(text), self.lexicon.lemmatizer)  # "tokakortti", "kakkoskortin"
        if is_question(text, scanned, self.lexicon, ctx.lang) or is_hedged(text):
            return NotUnderstood()  # "pelaanko tukaanin?", "can I give the frog to Liisa": not a move
        items = receivers_named(scanned, ctx.seat_names, ctx.seat)
        r = ColorettoReading.of(items).for_hand(len(hand))
        to_act = ctx.seat is not None and ctx.seat in view.to_act
        if not to_act and not r.verbs:
            return NotUnderstood()  # weak words of someone not to act ("joo", an animal's name): chat
        meant = self._gift(r, ctx, hand) if view.phase == GIFT else self._turn(r, ctx, hand)
        if not to_act and not isinstance(meant, Parsed):
            # words that name no one move, from someone whose move it is not (see the module docstring)
            return NotLegal("game_over" if view.phase == OVER else "not_your_turn")
        return meant

    # --- TURN: play a card or give it ---------------------------------------------------------

    def _turn(self, r: ColorettoReading, ctx: ParseContext[PublicView], hand: tuple[str, ...]) -> ParseResult:
        gives_to_self = r.has(GIVE) and r.has(SELF) and not r.names and not r.other_player
        giving = r.has(GIVE) or bool(r.names) or r.other_player
        playing = r.has(PLAY, KEEP) or r.has(SELF) or r.has(ROW) or bool(r.row_colours)
        if r.has(REMOVE, AWAY) and not giving:
            return self._answer(r, ctx)  # "heitä tukaani pois": discarding is a refusal's
        if not (giving or playing or r.has(THROW)):
            if r.has(ACCEPT, REFUSE, REMOVE, TAKE) or r.denies(ACCEPT, TAKE):
                return self._answer(r, ctx)  # "hyväksyn" on one's own turn: an answer, to no gift
            if not r.names_card:
                return NotUnderstood()
        kinds = self._hand_cards(r, hand)
        if isinstance(kinds, NotLegal):
            return kinds
        if kinds is None and len(r.unknown_words) == 1 and (giving or playing or r.has(THROW)):
            # "anna kilpikonna Matille": the player named an animal this game does not have (one
            # unknown word; a longer unknown phrase is more likely a description, so ask instead)
            return NotLegal("unknown_animal", (("word", r.unknown_words[0]),))
        if kinds is not None and r.row_colours and set(kinds) <= set(hand):
            row = r.row_colours[0]
            wrong = [k for k in kinds if k[0] != row]
            if wrong and len(wrong) == len(kinds):
                return NotLegal("wrong_row", (("kind", wrong[0]), ("colour", row)))
            kinds = [k for k in kinds if k[0] == row]
        choices = kinds if kinds is not None else _dedupe(hand)
        if giving and r.has(KEEP) and not gives_to_self:
            # "pidän tukaanin ja annan sen Liisalle" keeps and gives away: ask which
            given = self._give(r, ctx, choices, to_self=False, missing_card=kinds is None)
            gifts = (
                given.candidates
                if isinstance(given, Ambiguous)
                else given.actions
                if isinstance(given, Parsed)
                else ()
            )
            return _meant([*(Play(k) for k in choices), *gifts], ctx, "action", ask=True)
        if giving or gives_to_self:
            return self._give(r, ctx, choices, to_self=gives_to_self, missing_card=kinds is None)
        plays: list[Action] = [Play(k) for k in choices]
        if playing or r.has(THROW):
            return _meant(plays, ctx, "card")
        # A card named without a verb: play it or give it? Ask, offering both (spec §8.5).
        others = [s for s in range(ctx.view.players) if s != ctx.seat]
        return _meant([*plays, *(Give(k, s) for k in choices for s in others)], ctx, "action")

    def _hand_cards(self, r: ColorettoReading, hand: tuple[str, ...]) -> list[str] | NotLegal | None:
        """The kinds the command names, ``None`` when it names none (spec §8.3: by animal, by hand
        position or by colour). Animals named but not held are still what was meant (the engine
        answers ``not_in_hand``); a position or colour that fits no card of the hand names nothing."""
        if r.kinds:
            named = _dedupe(r.kinds)
            return [k for k in named if k in hand] or named
        if r.positions:
            bad = [p for p in r.positions if not 1 <= p <= len(hand)]
            if bad:
                return NotLegal("no_such_position", (("position", bad[0]), ("count", len(hand))))
            return _dedupe(hand[p - 1] for p in r.positions)
        colours = r.card_colours or r.row_colours
        if colours:
            held = _dedupe(k for k in hand if k[0] in colours)
            if not held:
                return NotLegal("no_colour_in_hand", (("colour", colours[0]),))
            return held
        return None

    def _give(
        self,
        r: ColorettoReading,
        ctx: ParseContext[PublicView],
        kinds: Sequence[str],
        *,
        to_self: bool,
        missing_card: bool,
    ) -> ParseResult:
        me = ctx.seat
        others = [s for s in range(ctx.view.players) if s != me]
        if to_self and me is not None:
            targets = {me}  # "anna tukaani itselleni": the engine answers give_self
        else:
            allative = [seats for seats, is_allative in r.names if is_allative or ctx.lang == "en"]
            named = allative or [seats for seats, _ in r.names]
            targets = {s for seats in named for s in seats}
            if r.other_player or (not targets and r.has(OPPONENT)):
                targets |= set(others)  # "toiselle": the other seat with two players, else ask which
            if targets != {me}:
                targets.discard(-1 if me is None else me)
            if not targets:
                targets = set(others)
        gives = [Give(k, s) for k in kinds for s in sorted(targets)]
        return _meant(gives, ctx, "card" if missing_card else "receiver")

    # --- GIFT: the receiver accepts or refuses ----------------------------------------------------

    def _gift(self, r: ColorettoReading, ctx: ParseContext[PublicView], hand: tuple[str, ...]) -> ParseResult:
        gift_kind = ctx.view.gift.kind if ctx.view.gift is not None else None
        kinds = [k for k in _dedupe(r.kinds) if k != gift_kind]
        # Names do not matter here: "otan Matin lahjan vastaan" names the giver.
        if r.has(GIVE) or (r.has(PLAY) and kinds and not _refusing(r)):
            return self._turn(r, ctx, hand)  # a turn move while the gift waits: the engine says gift_pending
        return self._answer(r, ctx)

    def _answer(self, r: ColorettoReading, ctx: ParseContext[PublicView]) -> ParseResult:
        """Accept or refuse the pending gift (in ``TURN`` there is none: the engine says so)."""
        gift_kind = ctx.view.gift.kind if ctx.view.gift is not None else None
        # What the receiver names besides the gift itself: the neighbour card to discard.
        kinds = [k for k in _dedupe(r.kinds) if k != gift_kind]
        colours = _dedupe(
            [c for c in r.card_colours if gift_kind is None or c != gift_kind[0]] + r.row_colours
        )
        accepting = r.has(ACCEPT, TAKE, KEEP, YES, PLAY) or r.denies(REFUSE)
        refusing = _refusing(r)
        if refusing or kinds or colours:
            if accepting and not refusing and not kinds:
                return Parsed((Accept(),))
            return self._refuse(ctx, kinds, colours, ask_accept=not refusing)
        if accepting:
            return Parsed((Accept(),))
        if r.kinds and gift_kind in r.kinds:  # "tukaani": the gift, but what of it?
            return _meant([Accept(), *(Refuse(k) for k in KINDS)], ctx, "action", ask=True)
        return NotUnderstood()

    def _refuse(
        self, ctx: ParseContext[PublicView], kinds: Sequence[str], colours: Sequence[str], *, ask_accept: bool
    ) -> ParseResult:
        if kinds:
            named = [k for k in KINDS if k in kinds]
            fitting = [k for k in named if k[0] in colours] if colours else named
            # "poista violetista tapiiri" when the tapir is green: the words disagree, so ask
            pool = fitting or named
            said_first = next(k for k in kinds if k in pool)  # when none is allowed, the engine says why
            return _meant(
                [Refuse(k) for k in pool], ctx, "neighbour_card", ask=not fitting, fallback=Refuse(said_first)
            )
        meant: list[Action] = [Refuse(k) for k in KINDS if not colours or k[0] in colours]
        if ask_accept:
            # a bare colour with no verb: accepting is as likely as refusing
            legal = [a for a in meant if a in ctx.legal]
            if legal:
                return _meant([Accept(), *legal], ctx, "action", ask=True)
        # when no card of the colour said first may go, the engine says why (not a neighbour, not in the row)
        return _meant(meant, ctx, "neighbour_card", fallback=Refuse(f"{colours[0]}1") if colours else None)


def _refusing(r: ColorettoReading) -> bool:
    return r.has(REFUSE, REMOVE, THROW, AWAY) or r.denies(ACCEPT, TAKE, KEEP, WANT, YES) or r.only_negation


@lru_cache(maxsize=1)
def _default_parser() -> ColorettoParser:
    return ColorettoParser()


def parse(text: str, ctx: ParseContext[PublicView]) -> ParseResult:
    """What ``text`` means as a Coloretto Amazonas move of the speaker (module docstring)."""
    return _default_parser().parse(text, ctx)


def words(text: str, lang: str, names: Sequence[str] = ()) -> list[Item]:
    """The items of ``text`` as :func:`parse` reads them."""
    return _default_parser().words(text, lang, names)
