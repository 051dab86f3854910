"""8. Which language a message is written in, and whether it asks."""

from __future__ import annotations

from chatbot.core.nlp.lemmas import Lemmatizer
from chatbot.core.nlp.text import fold, tokens

#: words that only an English sentence has (function words, question words, common verbs of the
#: bot's talk); Finnish chat borrows few of them ("ok", "bot" and game words are left out)
_ENGLISH_WORDS = frozenset(
    [
        "the",
        "is",
        "are",
        "am",
        "was",
        "were",
        "do",
        "does",
        "did",
        "can",
        "could",
        "would",
        "should",
        "will",
        "shall",
        "what",
        "how",
        "why",
        "who",
        "whose",
        "when",
        "where",
        "which",
        "if",
        "i",
        "i'm",
        "im",
        "my",
        "mine",
        "you",
        "your",
        "we",
        "us",
        "our",
        "it",
        "its",
        "this",
        "that",
        "there",
        "a",
        "an",
        "of",
        "to",
        "in",
        "at",
        "for",
        "with",
        "from",
        "and",
        "or",
        "but",
        "not",
        "don't",
        "dont",
        "doesn't",
        "cant",
        "can't",
        "happens",
        "happen",
        "get",
        "got",
        "have",
        "has",
        "had",
        "much",
        "many",
        "any",
        "some",
        "lets",
        "let's",
        "please",
        "want",
        "like",
        "play",
        "new",
        "add",
        "join",
        "start",
        "leave",
        "switch",
        "change",
        "speak",
        "english",
        "finnish",
        "game",
        "bots",
        "bot",
        "rules",
        "rule",
        "explain",
        "turn",
        "cards",
        "card",
        "hand",
        "money",
        "points",
        "score",
        "scores",
        "lives",
        "life",
        "whats",
        "what's",
        "hows",
        "how's",
        "wheres",
        "where's",
        "who's",
        "else",
        "about",
        "when's",
        "out",
        "going",
        "go",
        "does",
        "anyone",
        "be",
        "been",
        "being",
        "help",
        "show",
        "tell",
        "again",
    ]
)
_ENGLISH_WEAK = frozenset({"ok", "bot", "bots", "game", "start", "help", "play", "new", "a", "i", "me"})
#: words that only a Finnish sentence has, for texts typed without ä/ö
_FINNISH_WORDS = frozenset(
    [
        "mita",
        "mika",
        "miten",
        "miksi",
        "kuka",
        "kenen",
        "kenella",
        "milloin",
        "montako",
        "paljonko",
        "kuinka",
        "voiko",
        "saako",
        "voinko",
        "saanko",
        "onko",
        "mulla",
        "mun",
        "mä",
        "ma",
        "mää",
        "minä",
        "mina",
        "minulla",
        "sulla",
        "sun",
        "sinä",
        "sina",
        "on",
        "oon",
        "olen",
        "ja",
        "tai",
        "ei",
        "en",
        "jos",
        "kun",
        "että",
        "etta",
        "se",
        "sen",
        "sitä",
        "sita",
        "nyt",
        "vielä",
        "viela",
        "pitää",
        "pitaa",
        "täytyy",
        "taytyy",
        "voi",
        "saa",
        "uusi",
        "uus",
        "peli",
        "pelit",
        "liity",
        "lisää",
        "lisaa",
        "botti",
        "botteja",
        "bottia",
        "aloita",
        "aloitetaan",
        "lähden",
        "lahden",
        "kieli",
        "suomeksi",
        "englanniksi",
        "kiitos",
        "moi",
        "hei",
        "no",
        "niin",
        "joo",
        "juu",
        "kyllä",
        "kylla",
        "mitäs",
        "mites",
    ]
)


def detect_language(text: str, default: str, lemmatizer: Lemmatizer | None = None) -> str:
    """``"fi"`` or ``"en"``: the language ``text`` is written in, or ``default`` (the speaker's or the
    room's language) when the text is too short or mixed to tell ("ok", "gnav?", "start")."""
    words = tokens(text)
    if not words:
        return default
    en = fi = 0.0
    for word in words:
        if any(c in "äöå" for c in word):
            fi += 1.5
            continue
        folded = fold(word)
        if word in _ENGLISH_WORDS:
            en += 0.5 if word in _ENGLISH_WEAK else 1.0
            continue
        if folded in _FINNISH_WORDS:
            fi += 1.0
            continue
        if len(word) > 4 and word.endswith(("ko", "kö", "ksi", "lla", "llä", "ssa", "ssä", "sta", "stä")):
            fi += 0.5
            continue
        if lemmatizer is not None and len(word) > 3 and lemmatizer.known(word):
            fi += 0.5
    if en >= 1.0 and en > fi * 1.5:
        return "en"
    if fi >= 1.0 and fi > en * 1.5:
        return "fi"
    return default


_QUESTION_STARTS = frozenset(
    {
        "miten",
        "mites",
        "kuinka",
        "mita",
        "mitas",
        "mika",
        "mitka",
        "miksi",
        "miks",
        "kuka",
        "ketka",
        "kenen",
        "kenella",
        "kelle",
        "kenelta",
        "milloin",
        "montako",
        "paljonko",
        "kumpi",
        "missa",
        "mihin",
        "mista",
        "onko",
        "saako",
        "voiko",
        "voinko",
        "saanko",
        "pitaako",
        "taytyyko",
        "kayko",
        "meneeko",
        "paaseeko",
        "kannattaako",
        "how",
        "what",
        "whats",
        "what's",
        "why",
        "who",
        "whose",
        "who's",
        "when",
        "where",
        "where's",
        "which",
        "can",
        "could",
        "may",
        "do",
        "does",
        "did",
        "is",
        "are",
        "am",
        "should",
        # spoken and dialect question words ("paljo mul on rahaa", "mis mä oon", "onks mun vuoro")
        "paljo",
        "paljon",
        "kuis",
        "mite",
        "mis",
        "onks",
        "oonks",
        "ooks",
        "ookko",
        "oonko",
        "olenko",
        "ootko",
        "oliko",
        "oliks",
    }
)
#: clitics a question word takes: "kenenkä", "missäs", "kukas", "mikäs", "kenenkäs"
_QUESTION_CLITICS = ("kas", "kaan", "ka", "s", "han", "pa")


_QUESTION_LEADS = frozenset({"enta", "no", "ja", "mut", "mutta", "so", "and", "but", "ok", "okei", "entas"})


def is_question(text: str, lemmatizer: Lemmatizer | None = None) -> bool:
    """Whether ``text`` asks something: it ends with "?", opens with a question word ("miten",
    "kuka", "what if", "can I"), or its first words carry the question clitic -ko/-kö ("voinko",
    "saako", "nostanko"). A question is never a move."""
    stripped = text.strip()
    if stripped.endswith("?"):
        return True
    words = tokens(stripped)
    if not words:
        return False
    first = fold(words[0])
    if first in _QUESTION_STARTS:
        return True
    for clitic in _QUESTION_CLITICS:
        if first.endswith(clitic) and first[: -len(clitic)] in _QUESTION_STARTS:
            return True  # "kenenkä", "missäs"
    if len(words) > 1 and first in _QUESTION_LEADS and fold(words[1]) in _QUESTION_STARTS | {"jos", "if"}:
        return True  # "entä jos…", "no miten…", "and what if…"
    if lemmatizer is None:
        return False
    for word in words[:2]:
        # the spoken clitic: "pelataanks", "otetaanks", "aloitetaanks"; not a spoken translative,
        # the written one without its last vowel ("ilmaiseks", "kakkoseks")
        spoken = len(word) > 5 and word.endswith("ks") and lemmatizer.known(word[:-2])
        if spoken and not lemmatizer.known(word + "i"):
            return True
        if len(word) > 4 and word.endswith(("ko", "kö")):
            stem = word[:-2]
            if lemmatizer.known(stem) and (lemmatizer.backend == "table" or lemmatizer.known(word)):
                return True  # "voinko", "nostanko": the clitic on a verb form ("peikko" is a noun)
    return False
