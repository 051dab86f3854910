"""Addressed or certain (issue #27, DESIGN.md §5a): when a group's text is the bot's to act on.

Text addressed to the bot (a mention, a reply to one of its messages, a slash command, a private
chat, the local console) always gets an answer. What friends write to each other in a group the
bot reads (Telegram with privacy mode off, Matrix) is theirs, unless all of it reads as one move or
one command:

- **A move**: the game's parser names one legal move of the speaker's seat, and the seat is to act;
  the text neither asks nor hedges ("vaihdanko?", "should I swap", "ehkä nostan"); and every word
  of it is the game's, as the game's parser scanned them (:meth:`GameUI.words`: move words, cards,
  places, numbers, the seats' names, with their typos and inflections) or a particle that says
  nothing by itself ("nyt", "no", "pls", "just"), with at least one word that names something of
  the game. "nostan maljan Matille" has *maljan*, so it is a toast, not a draw.
- **A command**: every word the command reader did not use (:attr:`Command.unread`) is a particle.
  A question put to the bot ("miten kurkistus toimii?") may also use question words, the game's
  words and the words of the rule topics; a question about one's own move ("voinko vaihtaa",
  "pitäisköhän vaihtaa", "should I swap?") is asked of the friends, not of the bot.

Anything else is chat: no answer and no change. A refusal, a question back or a hint is an
answer, so unaddressed text gets none of them: only a certain move is applied.

Besides, a move is never applied when its words name its card or place differently from the
move: a button's label copied with another number ("→ Kairo (5)" for the button "→ Kairo (4)")
is asked back, whatever the parser made of it (:func:`relabelled`).

This module is the one place that decides; a game takes part by giving its words.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from chatbot.core.commands import Command
from chatbot.core.explain import question_words, topic_keywords, word_scores
from chatbot.core.gameui import GameUI
from chatbot.core.nlp import (
    FILLER,
    NEG,
    OWN,
    QUESTION,
    SEP,
    WITH,
    Item,
    Lemmatizer,
    english_stems,
    fold,
    is_question,
    normalise,
    number_words,
    tokens,
)

#: the concept a game's words give talk about the game ("hauskaa", "gg", "good luck")
CHAT = "chat"
#: concepts every game shares that name nothing of a game by themselves
STRUCTURAL = frozenset({NEG, SEP, OWN, WITH, QUESTION, FILLER})

#: words that say nothing of their own in a move or a command (folded): discourse particles,
#: politeness, greetings, the future auxiliaries of English and what is left of a smiley (":D")
PARTICLES = frozenset(
    fold(w)
    for w in (
        # Finnish, written and spoken
        "jo", "nyt", "nytte", "sit", "sitte", "sitten", "vaan", "vaa", "vain", "kai", "kans", "myös",
        "vielä", "viel", "just", "justiin", "niin", "nii", "no", "noni", "nonii", "noh", "okei", "ok",
        "oki", "okk", "joo", "juu", "jep", "jees", "kiitos", "kiitti", "kiitoksia", "pliis", "pls", "plz",
        "hei", "moi", "moro", "terve", "ihan", "toi", "tuo", "tää", "tämä", "se", "sitä", "ite", "itse",
        "kyl", "kylla", "kyllä", "sitku", "heti", "kohta", "taas", "siis", "tota", "tuota", "niinku",
        "vaikka", "ny",
        # English
        "now", "just", "then", "so", "well", "ok", "okay", "k", "yeah", "yes", "yep", "yup", "please",
        "pls", "plz", "thanks", "thx", "ty", "hey", "hi", "will", "gonna", "ill", "i'll", "let", "let's",
        "lets", "go", "right", "alright", "again",
        "enää", "mitään", "mikään", "jotain", "jotakin", "mielelläni", "mieluusti", "mäkin", "minäkin",
        "nah", "sure", "i'm", "im", "i'd", "id", "i've", "too", "also", "something", "anything",
        "nothing", "gladly", "happily", "gimme", "lemme",
        # the wanting and meaning verbs in the forms a move opens with (read without Voikko too)
        "haluan", "haluun", "haluaisin", "haluisin", "haluaisin", "tahdon", "tahtoisin", "aion",
        "aattelin", "ajattelin", "meinaan", "meinasin", "voisin", "voin", "saisin",
        # the speaker, written and spoken ("mä otan", "mun kolmonen"); not "mulle": a receiver says
        # something of its own ("heitä mulle pallo" is no roll)
        "mä", "mää", "mie", "minä", "ma", "mun", "miun", "minun", "mulla", "minulla", "mua", "minua",
        "i", "my",
        # demonstratives and pronouns in their cases, written and spoken ("otan tosta", "take that")
        "tätä", "tän", "tästä", "täst", "tässä", "täs", "tähän", "tänne", "täältä", "tuon", "tuota",
        "tuosta", "tosta", "tost", "tuohon", "tohon", "ton", "tota", "tossa", "tos", "tuolla",
        "tuolta", "tolta", "tonne", "sen", "siitä", "siit", "siinä", "siin", "siihen", "sinne",
        "sieltä", "nää", "noi", "nuo", "ne", "niitä", "noita", "näitä", "it", "that", "this", "these",
        "those", "one", "ones", "the", "a", "an", "mine",
        # left of a smiley by the normaliser
        "d", "xd", "xdd", "p",
    )
)  # fmt: skip
#: base forms (Finnish) and stems (English) that say nothing of their own either: wanting, being
#: able, getting and going, and what every table game talks about (a player, a turn, a card)
PARTICLE_BASES = frozenset(
    fold(w)
    for w in (
        "haluta", "tahtoa", "aikoa", "voida", "taitaa", "meinata", "jättää", "saada", "mennä",
        "ottaa", "laittaa", "panna", "uusi", "hyvä", "tässä", "tähän", "vastaan",
        "pelaaja", "vuoro", "kortti", "peli", "pöytä", "numero",
        "want", "wanna", "like", "would", "get", "got", "have", "go", "goes", "can", "take", "put",
        "new", "good", "here", "down", "out", "over", "toward", "towards", "kohti", "päin",
        "player", "turn", "card", "game", "table", "number",
    )
)  # fmt: skip
#: the Finnish cases in which a number names a place in a row ("toiseen", "kakkoseks", "vikalle")
_PLACING_CASES = frozenset({"illative", "allative", "translative", "essive"})

#: words that leave one's own decision open: never a move, unaddressed never a command
HEDGES = frozenset(
    fold(w)
    for w in (
        "ehkä", "ehka", "kenties", "mahdollisesti", "varmaan", "varmaa", "luultavasti", "todnäk",
        "todennäköisesti", "hmm", "hmmm", "mietin", "harkitsen", "maybe", "perhaps", "possibly",
        "probably", "dunno", "idk", "hmm", "thinking", "wondering", "mayb", "mby",
    )
)  # fmt: skip
_HEDGE_PHRASES = ("en tiedä", "en tiiä", "en tie", "en tii", "not sure", "don't know", "dont know", "i think")

#: a question about one's own move, in its first words ("voinko vaihtaa", "should I swap")
_OWN_MOVE_OPENINGS = frozenset(
    fold(w)
    for w in (
        "voinko", "voisinko", "voiks", "voinks", "saanko", "saisinko", "saanks", "pitäisikö", "pitäiskö",
        "pitäisköhän", "pitäisikohän", "pitääkö", "pitäskö", "kannattaako", "kannattaisiko",
        "kannattaisko", "kannattaiskohan", "kannattaakohan", "kannattaaks", "täytyykö", "viitsinkö",
        "uskallanko", "olisiko", "oisko", "ois", "entä", "entäs", "mitäs",
    )
)  # fmt: skip
_OWN_MOVE_EN = frozenset(
    {
        ("should", "i"), ("should", "we"), ("shall", "i"), ("shall", "we"), ("can", "i"), ("could", "i"),
        ("may", "i"), ("do", "i"), ("would", "it"), ("would", "i"), ("what", "if"), ("is", "it"),
        ("am", "i"), ("must", "i"), ("do", "we"), ("can", "we"), ("could", "we"),
    }
)  # fmt: skip
#: "mitä jos kääntäisin", "what if I fly": a plan put as a question
_WHAT_IF = frozenset({("mita", "jos"), ("enta", "jos"), ("mitas", "jos"), ("what", "if"), ("how", "about")})
#: the question clitic, folded (-ko/-kö, -kohan/-köhän, spoken -ks)
_CLITICS = ("kohan", "ko", "ks")


def hedged(text: str) -> bool:
    """Whether the message leaves its decision open: "ehkä vaihdan", "maybe I'll keep it"."""
    words = tokens(text)
    joined = " " + " ".join(words) + " "
    return any(fold(w) in HEDGES for w in words) or any(f" {p} " in joined for p in _HEDGE_PHRASES)


def _clitic_question(word: str, lemmatizer: Lemmatizer) -> bool:
    """A word with the question clitic on a known stem: "vaihdanko", "pitäisköhän", "otanks",
    "lennänkö" (a number's spoken translative "tokaks" and a noun such as "Marokko" are none)."""
    folded = fold(word)
    for clitic in _CLITICS:
        stem = word[: len(word) - len(clitic)]
        if not folded.endswith(clitic) or len(stem) < 3 or number_words(stem):
            continue
        if clitic == "ks":
            # spoken: Voikko does not know "otanks" as a whole; a spoken translative ("ilmaiseks",
            # "suomeks", "kakkoseks") is the written one without its last vowel
            return lemmatizer.known(stem) and not lemmatizer.known(word + "i")
        return lemmatizer.known(stem) and (lemmatizer.backend == "table" or lemmatizer.known(word))
    return False


def asks(text: str, lemmatizer: Lemmatizer) -> bool:
    """Whether the message asks rather than tells: a question (:func:`~chatbot.core.nlp.is_question`)
    or a question clitic on any word ("mietin vielä vaihdanko")."""
    if is_question(text, lemmatizer):
        return True
    return any(_clitic_question(w, lemmatizer) for w in tokens(text) if w.isalpha() and len(w) > 4)


def about_own_move(text: str, lemmatizer: Lemmatizer) -> bool:
    """A question about one's own move, or a plan put as one: "voinko vaihtaa?", "pitäisköhän
    pitää?", "nostanko?", "should I swap?", "mitä jos kääntäisin kiekon", "maybe I'll draw". A rule
    question asks how things go in general ("miten kurkistus toimii?", "voiko kurkistaa kahdesti?")."""
    words = [fold(w) for w in tokens(text)]
    if not words:
        return False
    if hedged(text) or any(w in _OWN_MOVE_OPENINGS for w in words[:3]):
        return True
    pairs = set(itertools.pairwise(words))
    if pairs & _WHAT_IF or tuple(words[:2]) in _OWN_MOVE_EN:
        return True
    # a first-person (or conditional) verb with the clitic: "vaihdanko", "nostaisinko", "otanks";
    # "paljonko", "olenko" ask about the state of things
    return any(
        re.search(r"(n|isin|isi|mme)(ko|kohan|ks)$", w)
        and _clitic_question(w, lemmatizer)
        and not {fold(b) for b in lemmatizer.readings(re.sub(r"(ko|kohan|ks)$", "", w))} & _STATE_WORDS
        for w in words
        if w.isalpha()
    )


#: what a question with the clitic asks about when it is not one's move ("paljonko", "olenko")
_STATE_WORDS = frozenset({"olla", "paljon", "monta", "moni", "kumpi", "kuka", "mika", "mina"})


#: "roll with it", "go with that": a verb with a pronoun after "with" is an idiom, not a move (a
#: move's "with" names a card or a person: "swap with Liisa")
_IDIOM_ENDS = frozenset({("with", "it"), ("with", "that"), ("with", "this")})


def _idiom(text: str) -> bool:
    words = [fold(w) for w in tokens(text)]
    return len(words) >= 2 and (words[-2], words[-1]) in _IDIOM_ENDS


def particle(word: str, lemmatizer: Lemmatizer) -> bool:
    """A word that says nothing of its own (:data:`PARTICLES`, :data:`PARTICLE_BASES`)."""
    folded = fold(word.casefold())
    if folded in PARTICLES:
        return True
    bases = {fold(b) for b in lemmatizer.readings(word)} | {fold(s) for s in english_stems(folded)}
    return not bases.isdisjoint(PARTICLE_BASES)


def _content(item: Item) -> bool:
    """Whether a scanned item names something of the game: a move word, a card, a place, or a
    number that can only be a place in a row ("toiseen", "kakkoseks", "third")."""
    if item.concepts - STRUCTURAL:
        return True
    return any(n.positional or n.possessive or n.case in _PLACING_CASES for n in item.numbers)


def move_words_certain(items: Sequence[Item] | None, lemmatizer: Lemmatizer) -> bool:
    """Whether every word is the game's or a particle, at least one naming something of the game.
    A rule topic's word is no move's ("roll the window down": a reaction window is a topic)."""
    if not items:
        return False
    named = False
    for item in items:
        if CHAT in item.concepts:
            return False  # a word the game's parser knows as talk ("pidä hauskaa", "good game")
        if item.known and (_content(item) or not item.fuzzy):
            # a typo counts only for the game's own words: "mulle" is no typo of "mille" (what)
            named = named or _content(item)
        elif not all(particle(w, lemmatizer) for w in item.words):
            return False
    return named


_DIGITS = re.compile(r"\d+")


def _shape(text: str) -> tuple[str, tuple[str, ...]]:
    """A text as a label is compared: words without marks or emoji, ä/ö folded, numbers apart."""
    norm = " ".join(fold(normalise(text)).replace(":", " ").split())
    return _DIGITS.sub("#", norm), tuple(_DIGITS.findall(norm))


def relabelled(text: str, label: str) -> bool:
    """Whether ``text`` is the button ``label`` copied with other numbers ("→ Kairo (5)" for
    "→ Kairo (4)", "Anna tukaani → Botti 2" for "… → Botti 1"): the words name another card or
    place than the button's, so the button's move is not what was typed."""
    typed, typed_numbers = _shape(text)
    shown, shown_numbers = _shape(label)
    return bool(shown_numbers) and typed == shown and typed_numbers != shown_numbers


def labelled(text: str, label: str) -> bool:
    """Whether ``text`` is the button ``label`` as it is (marks and emoji aside): the move itself."""
    return _shape(text) == _shape(label)


class Certainty:
    """Decides whether text not addressed to the bot is a move or a command (see the module
    docstring). Built once with the games' chat sides and the lemmatiser."""

    def __init__(self, uis: dict[str, GameUI], lemmatizer: Lemmatizer) -> None:
        self.uis = uis
        self.lemmatizer = lemmatizer

    # --- moves --------------------------------------------------------------------------------
    def move(self, text: str, ui: GameUI, lang: str, names: Sequence[str]) -> bool:
        """Whether ``text`` reads wholly as a move in the game of ``ui`` (the parser has named one)."""
        if asks(text, self.lemmatizer) or hedged(text) or _idiom(text):
            return False
        return move_words_certain(ui.words(text, lang, names), self.lemmatizer)

    def never_a_move(self, text: str) -> bool:
        """A question form or a hedge is never a move, addressed or not."""
        return about_own_move(text, self.lemmatizer) or hedged(text)

    # --- commands -----------------------------------------------------------------------------
    def command(self, cmd: Command, text: str, game: str | None, lang: str, names: Sequence[str]) -> bool:
        """Whether the command ``cmd`` read from unaddressed ``text`` is certain; ``game`` is the game
        of the room's match (None: none), whose words a rule question may use."""
        if cmd.slash:
            return True
        if hedged(text):
            return False
        unread = [w for w in tokens(" ".join(cmd.unread)) if not particle(w, self.lemmatizer)]
        if cmd.name in QUESTIONS:
            if about_own_move(text, self.lemmatizer):
                return False  # asked of the friends: "voinko vaihtaa?", "should I swap?"
            bare = text.strip().rstrip("?!. ")
            if cmd.name == "rules" and text.strip().endswith("?") and not is_question(bare, self.lemmatizer):
                return False  # "swap seats?": no question word, so no question put to the bot
            uis = [self.uis[game]] if game in self.uis else list(self.uis.values())
            return all(self._question_word(w, text, uis, lang, names) for w in unread)
        return not unread

    def doubtful(self, cmd: Command) -> bool:
        """Whether an addressed command that starts, leaves or ends a game has words it does not use
        ("mennään sit seiskalta": seven o'clock is no start now): asked, never done."""
        return (
            cmd.name in _ASKED_WHEN_DOUBTFUL
            and not cmd.slash
            and any(not particle(w, self.lemmatizer) for w in tokens(" ".join(cmd.unread)))
        )

    def _question_word(
        self, word: str, text: str, uis: Iterable[GameUI], lang: str, names: Sequence[str]
    ) -> bool:
        """A word a question to the bot may have: a question word, a word of the game or of its rule
        topics."""
        if not question_words(word) or number_words(word):
            return True  # "miten", "toimii", "what", "does"; "montako korttia 2 pelaajalla"
        if {fold(b) for b in self.lemmatizer.readings(word)} & _QUESTION_VERBS:
            return True  # "mitä seikkailija osaa?", "miten pisteet lasketaan?"
        for ui in uis:
            if move_words_certain(ui.words(word, lang, names), self.lemmatizer) or self._topic_word(word, ui):
                return True
        return False

    def _topic_word(self, word: str, ui: GameUI) -> bool:
        return _topic_word(word, ui, self.lemmatizer)


#: verbs of a rule question beside those that :func:`~chatbot.core.explain.question_words` drops
_QUESTION_VERBS = frozenset(
    fold(w)
    for w in (
        "osata", "toimia", "tehdä", "tarkoittaa", "tapahtua", "käydä", "kuulua", "laskea", "voittaa",
        "loppua", "päättyä", "alkaa", "saada", "voida", "pitää", "täytyy", "kannattaa",
    )
)  # fmt: skip

#: commands asked back rather than done when their words say more (see :meth:`Certainty.doubtful`)
_ASKED_WHEN_DOUBTFUL = frozenset({"start", "leave", "cancel"})

#: commands that ask (the readers' answers to a question form), which may use the game's words
QUESTIONS = frozenset({"rules", "ask", "help", "games", "status"})


@lru_cache(maxsize=8192)
def _topic_word(word: str, ui: GameUI, lemmatizer: Lemmatizer) -> bool:
    """Whether ``word`` leads to a rule topic of ``ui`` (its keywords, synonyms or title)."""
    readings = [
        frozenset(fold(r) for r in lemmatizer.readings(word)) | {fold(s) for s in english_stems(word)}
    ]
    for topic in ui.rule_topics():
        per_word, bonus = word_scores(topic_keywords(ui, topic), word, readings, lemmatizer)
        if bonus or any(per_word):
            return True
    return False
