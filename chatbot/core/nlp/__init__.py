"""The shared language toolkit of the games' text parsers (DESIGN.md section 4).

Every game's parser turns a player's free text into notations. The pieces that do not depend on a
game live here, one module per section, read top-down (``text``, ``lemmas``, ``numbers``,
``typos``, ``names``, ``lexicon``, ``reading``, ``language``); this package re-exports them:

1. Text: :func:`normalise`, :func:`fold`, :func:`tokens`, :func:`english_stems`.
2. Finnish base forms: :class:`Lemmatizer` (Voikko, or a committed word-form table when Voikko is
   missing; ``scripts/build_wordforms.py`` builds the table).
3. Numbers and positions: :class:`NumberWord` and :func:`number_words` (ordinals, numerals,
   number-nouns, colloquial forms, digits with suffixes, left/right/last, edge/middle), with the
   convenience functions :func:`ordinal_value`, :func:`numeral_value`, :func:`number_noun_value`,
   :func:`card_value` and :func:`position_values`.
4. Typos: :func:`fuzzy_pick` (rapidfuzz against a closed vocabulary).
5. Player names: :func:`name_forms` (Finnish case forms with consonant gradation) and
   :func:`match_seat`.
6. A game's vocabulary: :class:`Lexicon` maps words and phrases of each language to the game's own
   concept keys, and :meth:`Lexicon.scan` turns a message into items (:class:`Item`: concepts,
   numbers, seats, negation) that a game's parser matches against its legal actions.
7. What a message says: :class:`Reading` collects the concepts said and denied over the items;
   each game's parser subclasses it with the facts it cares about (positions, places, names).
8. Which language a message is written in, and whether it asks: :func:`detect_language` and
   :func:`is_question`.

Nothing here knows a game's rules; concept keys are plain strings chosen by each game.
"""

from chatbot.core.nlp.language import detect_language, is_question
from chatbot.core.nlp.lemmas import (
    DATA_DIR,
    VOCABULARY_PATH,
    WORDFORMS_PATH,
    Lemmatizer,
    LemmatizerUnavailable,
    default_lemmatizer,
    spoken_forms,
    unclipped,
)
from chatbot.core.nlp.lexicon import (
    COMMON_WORDS,
    FILLER,
    NEG,
    OWN,
    QUESTION,
    SEP,
    WITH,
    Analyser,
    Item,
    Lexicon,
    clause_starts,
)
from chatbot.core.nlp.names import match_seat, name_forms
from chatbot.core.nlp.numbers import (
    DIGIT,
    EDGE,
    MIDDLE,
    NUMBER_NOUN,
    NUMERAL,
    ORDINAL,
    POSITION,
    POSITIONAL_KINDS,
    SIDE,
    NumberWord,
    card_value,
    number_noun_value,
    number_words,
    numeral_value,
    ordinal_value,
    position_values,
)
from chatbot.core.nlp.reading import Reading
from chatbot.core.nlp.text import english_stems, fold, normalise, tokens
from chatbot.core.nlp.typos import FuzzyIndex, fuzzy_pick, max_typos

__all__ = [
    "COMMON_WORDS",
    "DATA_DIR",
    "DIGIT",
    "EDGE",
    "FILLER",
    "MIDDLE",
    "NEG",
    "NUMBER_NOUN",
    "NUMERAL",
    "ORDINAL",
    "OWN",
    "POSITION",
    "POSITIONAL_KINDS",
    "QUESTION",
    "SEP",
    "SIDE",
    "VOCABULARY_PATH",
    "WITH",
    "WORDFORMS_PATH",
    "Analyser",
    "FuzzyIndex",
    "Item",
    "Lemmatizer",
    "LemmatizerUnavailable",
    "Lexicon",
    "NumberWord",
    "Reading",
    "card_value",
    "clause_starts",
    "default_lemmatizer",
    "detect_language",
    "english_stems",
    "fold",
    "fuzzy_pick",
    "is_question",
    "match_seat",
    "max_typos",
    "name_forms",
    "normalise",
    "number_noun_value",
    "number_words",
    "numeral_value",
    "ordinal_value",
    "position_values",
    "spoken_forms",
    "tokens",
    "unclipped",
]
