"""What a message says to the command reader: the concepts said and denied, the words that mean
nothing to it, counts and levels of AI players, and the people it names (a seat's name in any case
form, or a name the table does not know yet). :func:`read_items` walks the scanned items once;
:mod:`chatbot.core.commands.read` and its helpers decide what command it is.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

from chatbot.core.commands.more_words import WITHOUT
from chatbot.core.commands.vocabulary import _LEVEL_WORD, BOT, EN
from chatbot.core.nlp import (
    DIGIT,
    FILLER,
    NEG,
    NUMERAL,
    SEP,
    Item,
    Lemmatizer,
    fold,
    match_seat,
    tokens,
)

#: the allative and ablative of the bot word ("botille", "koneelta"): a receiver or a source
RECEIVER_ENDINGS = ("lle", "lta", "lt")
#: third-person pronouns: a sentence opening with one is about someone else
THIRD_PERSON = frozenset({"han", "he", "she", "they", "hankin", "hanki"})
#: words that deny the noun after them ("ilman botteja", "no bots", "without reminders"); "no" only
#: before a noun of these concepts (Finnish opens sentences with "no": "no aloitetaan")
_DENYING = frozenset({"ilman", "without", "no", "zero", "nolla"})
#: the bot word in the plural: a number after it counts them ("bots 2")
_BOTS = frozenset({"bots", "botit", "botteja", "bottia", "botteina", "boteille"})
_NOUNS_DENIED = frozenset({BOT, "remind", "standin", "player", "fill", "pace"})
#: the speaker in the first person, in the standard language, spoken Finnish and the dialects
FIRST_PERSON = frozenset(
    {
        "mulla",
        "minulla",
        "miulla",
        "mul",
        "miul",
        "mun",
        "minun",
        "miun",
        "mu",
        "ma",
        "maa",
        "mina",
        "mie",
        "mia",
        "oon",
        "olen",
        "mulle",
        "minulle",
        "miulle",
        "i",
        "my",
        "me",
        "im",
        "i'm",
        "mine",
        "minusta",
        "musta",
        "minua",
        "mua",
        "oonko",
        "olenko",
        "oonks",
        "kadessani",
        "korttini",
        "rahani",
        "pisteeni",
        "elamani",
        "makin",
        "minakin",
        "miekin",
    }
)
#: the speaker as an owner or subject ("mun tilastot", "oon voittanu", "my wins"), not as an object
#: ("show me the leaderboard", "näytä mulle")
OWNER = (FIRST_PERSON | {"oma", "omat", "omani", "omia", "omaa", "own"}) - {
    "me",
    "mulle",
    "minulle",
    "miulle",
    "mua",
    "minua",
    "musta",
    "minusta",
}
#: "mulla on": having, said with the first person's adessive
HAVING = frozenset({"mulla", "minulla", "miulla", "mul", "miul"})


@dataclass(frozen=True, slots=True)
class Person:
    """A seat's name in the text ("Pekan", "Liisalle", "@liisa") or a name the table does not know
    (capitalised, an @mention): where it is, the seats it names (none for an unknown name), its
    words (normalised, as the core matches them to a seat again) and its case ("nom", "gen", "all"
    for the allative, "other")."""

    start: int
    length: int
    seats: tuple[int, ...]
    typed: str
    case: str


@dataclass(slots=True)
class Said:
    said: set[str]
    denied: set[str]
    unknown: list[str]  # the words as typed that mean nothing to the command vocabulary
    count: int | None
    level: str | None
    game: str | None
    level_word: str = ""  # as written ("vahva", "strong"), the argument of add_ai
    #: the sentence is about someone else: it opens with a name, a word the commands do not know
    #: ("Pekka tulee mukaan") or a third-person pronoun ("hän liittyy", "it starts")
    other_subject: bool = False
    #: a bot is named by its number ("Botti 1:lle sammakko", "bot 2 takes it"): a seat, not a count
    bot_named: bool = False
    #: the bot word is a receiver or a source ("botille sammakko", "to the bot"): a move's words
    bot_receiver: bool = False
    #: the people the text names (seats, and names not seated yet)
    persons: list[Person] = field(default_factory=list)
    #: the folded words of the text (options left out)
    folded: list[str] = field(default_factory=list)
    #: unknown words in a clause of their own after a comma that says nothing to the commands
    #: ("poistakaa Pekka, se ei vastaa"): addressed text may carry a reason
    aside: list[str] = field(default_factory=list)
    #: words read as a typo of a command word ("tlastot"): understood when addressed, else doubtful
    guessed: list[str] = field(default_factory=list)
    #: the words as typed that are only numbers ("kaksi", "2", "seiskalta"): a count, or unread
    numerals: list[str] = field(default_factory=list)

    @property
    def first_person(self) -> bool:
        return any(w in FIRST_PERSON for w in self.folded)

    def only(self, *allowed: str) -> bool:
        """Whether everything said is among ``allowed`` concepts (fillers always are)."""
        return self.said <= {*allowed, FILLER, SEP}


def _case(word: str, name: str) -> str:
    """The case of ``word``, a form of the name ``name``: nominative, genitive, allative or other."""
    w, base = fold(word.casefold()), fold(tokens(name)[-1]) if tokens(name) else ""
    if w.lstrip("@") == base or w.startswith("@"):
        return "nom"
    if w.endswith(("lle", ":lle")):
        return "all"
    if w.endswith(("'s", "s'")) or (w.endswith("n") and not w.endswith(("seen", "hin", "iin", "aan", "een"))):
        return "gen"
    return "other"


def persons_in(words: Sequence[str], typed: Sequence[str], names: Sequence[str]) -> list[Person]:
    """The seats' names in ``words`` (any case form, several words for "Botti 1") and the names the
    table does not know: a capitalised word after the first or an @mention that is no command word
    is left to the caller (:func:`unknown_names`)."""
    out: list[Person] = []
    longest = max((len(tokens(n)) for n in names), default=0) + 1  # +1 for "pelaajan 2"
    i = 0
    while i < len(words):
        for n in range(min(longest, len(words) - i), 0, -1):
            seats = match_seat(" ".join(words[i : i + n]), names, loose=False)
            if seats:
                shown = " ".join(words[i : i + n])
                out.append(Person(i, n, tuple(seats), shown, _case(words[i + n - 1], names[seats[0]])))
                i += n - 1
                break
        i += 1
    return out


def unknown_names(items: Sequence[Item], typed: Sequence[str], words: Sequence[str]) -> list[Person]:
    """Names the table does not know: an @mention, a capitalised word or an allative ("liisalle")
    that is no command word (only the seat commands look at them)."""
    out = []
    for item in items:
        if item.concepts or item.numbers or item.seats or len(item.words) != 1:
            continue
        i = item.start
        raw = typed[i] if len(typed) == len(words) else words[i]
        word = fold(words[i])
        if raw.startswith("@") or raw[:1].isupper() or (word.endswith("lle") and len(word) > 5):
            out.append(Person(i, 1, (), words[i], "all" if word.endswith("lle") else "nom"))
    return out


def without_names(items: Sequence[Item], persons: Sequence[Person]) -> list[Item]:
    """The items with the words of a seat's name ("Botti 1", "Liisalle") stripped of meaning."""
    taken = {k for p in persons if p.seats for k in range(p.start, p.start + p.length)}
    if not taken:
        return list(items)
    return [
        dataclasses.replace(item, concepts=frozenset(), numbers=())
        if any(k in taken for k in range(item.start, item.start + len(item.words)))
        else item
        for item in items
    ]


def _about_someone_else(item: Item, lemmatizer: Lemmatizer) -> bool:
    """Whether the first item makes a third party the subject: a third-person pronoun, a seat's
    name, or a word that is neither a command word nor an inflected dictionary word, as a name is
    ("Pekka tulee mukaan", "Botti 1 aloittaa"; "tarvitaan botti" opens with a verb). The small
    words a command may open with ("kohta", "okei", "no") are known fillers."""
    if fold(item.text) in THIRD_PERSON:
        return True
    if item.numbers or (item.known and item.concepts):
        return False
    return not lemmatizer.known(item.words[0])


def read_items(
    items: Sequence[Item],
    typed: Sequence[str],
    game_span: tuple[int, int] | None,
    lemmatizer: Lemmatizer,
    clause_starts: frozenset[int] = frozenset(),
) -> Said:
    """Walk the items once: the concepts said and denied, the unknown words, the count and level of
    AI players, and whether a bot is a seat, a receiver or the subject."""
    said: set[str] = set()
    denied: set[str] = set()
    unknown: list[str] = []
    counts: list[int] = []
    level: str | None = None
    level_word = ""
    first = True
    other_subject = bot_named = bot_receiver = False
    previous: Item | None = None
    deny_next = False
    clauses: list[tuple[bool, list[str]]] = [(False, [])]  # per clause: anything said, unknown words
    guessed: list[str] = []
    numerals: list[str] = []
    for item in items:
        if game_span is not None and game_span[0] <= item.start < game_span[0] + game_span[1]:
            continue
        if item.start in clause_starts:
            clauses.append((False, []))
        if first:
            first = False
            other_subject = _about_someone_else(item, lemmatizer)
        concepts = set(item.concepts)
        if BOT in concepts and fold(item.text).endswith(RECEIVER_ENDINGS):
            bot_receiver = True
        if (
            previous is not None
            and BOT in previous.concepts
            and item.numbers
            and not item.concepts
            and fold(previous.text) not in _BOTS
            and item.start not in clause_starts
        ):
            bot_named = True  # "Botti 1:lle", "bot 2": the seat's name, not how many
            previous = item
            continue
        if BOT in concepts and previous is not None and fold(previous.text) in {"to", "for", "from"}:
            bot_receiver = True
        previous = item
        if item.fuzzy and len(item.text) < 6:
            concepts = set()  # a short word near a command word is another word ("tulee", "tulen")
        elif item.fuzzy and concepts:
            guessed.extend(typed[item.start : item.start + len(item.words)])
        span = range(item.start, min(item.start + len(item.words), len(typed)))
        if "=" in item.text or any("=" in typed[i] for i in span):
            continue  # an option ("kierrokset=3")
        if EN in concepts and NEG in concepts:
            concepts.discard(NEG)  # "kieli en"
        folded = fold(item.text)
        if folded in _DENYING and not concepts - {FILLER, NEG, WITHOUT}:
            deny_next = True
            continue
        negated = item.negated or (deny_next and bool(concepts & _NOUNS_DENIED))
        if concepts - {FILLER}:
            deny_next = False
        (denied if negated else said).update(concepts)
        if concepts - {FILLER, SEP}:
            clauses[-1] = (True, clauses[-1][1])
        for concept in concepts:
            if concept in _LEVEL_WORD and not negated:
                level = _LEVEL_WORD[concept]
                level_word = item.text
        values = [n.value for n in item.numbers if n.kind in (NUMERAL, DIGIT)]
        if item.numbers and not item.concepts - {FILLER}:
            numerals.extend(typed[item.start : item.start + len(item.words)])
        if values and not item.concepts - {FILLER}:
            counts.append(values[0])
        elif item.text in {"pari", "couple"}:
            counts.append(2)
        timed = bool(item.numbers) and not concepts and not values and not item.text.startswith("#")
        if (not item.known or (not concepts and item.fuzzy) or timed) and item.text not in {"pari", "couple"}:
            # a number-noun ("seiskalta", "kasilta") is a time or a card, never a command's count
            words = typed[item.start : item.start + len(item.words)]
            unknown.extend(words)
            clauses[-1][1].extend(words)
    # unknown words of a later clause that says nothing to the commands are an aside
    aside = [w for meaningful, words in clauses[1:] if not meaningful for w in words]
    return Said(
        said,
        denied,
        unknown,
        counts[0] if counts else None,
        level,
        None,
        level_word,
        other_subject,
        bot_named,
        bot_receiver,
        aside=aside,
        guessed=guessed,
        numerals=numerals,
    )


def is_name_of_bot(person: Person, names: Sequence[str]) -> bool:
    """Whether a seat named is an AI's by its name ("Botti 1")."""
    return any(fold(tokens(names[s])[0]) in {"botti", "bot", "ai"} for s in person.seats if tokens(names[s]))
