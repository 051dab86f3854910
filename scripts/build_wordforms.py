"""Build the Finnish word-form table (``chatbot/core/data/fi_wordforms.json``) with Voikko.

The lemmatiser (``chatbot.core.nlp.Lemmatizer``) falls back to this table when Voikko is not
installed. Voikko analyses words but cannot generate them, so for every base word of
``fi_vocabulary.txt`` this script generates candidate forms by suffix rules (a few stems with and
without consonant gradation, times the common case, possessive and verb endings) and keeps exactly
the candidates that Voikko analyses back to that base word. Over-generating is fine: Voikko is the
filter. Words of the rules specs (``--spec``) whose analysis hits a vocabulary word are added
verbatim, which brings in irregular forms (yhden, kahteen) that no suffix rule makes.

The base words are also taken from the code: every Finnish word of the meta-command vocabulary
(``chatbot/core/commands.py``), of the games' parsers and the shared words (``Lexicon.listed_words``)
and every word the games count or flag options with
(``GameUI.option_counts`` / ``option_flags``: "kierros", "henki", "laajennus"), by the base forms
Voikko gives them ("kädessä" brings *käsi*), so that the table reads them as Voikko does and the
option reading needs no stem guessing.

Each kept form maps to *all* its Voikko base forms ("pakasta" -> ["pakastaa", "pakka"]) so that both
backends give the same readings.

Usage::

    .venv/bin/python scripts/build_wordforms.py [--vocabulary FILE] [--spec FILE ...] [--output FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from chatbot.core.nlp import VOCABULARY_PATH, WORDFORMS_PATH, tokens  # noqa: E402

DEFAULT_SPECS = sorted((REPO.parent / "shared" / "rules").rglob("*.md"))

VOWELS = "aeiouyäö"

# Endings appended to every stem. "A"/"O" follow vowel harmony (a/ä, o/ö); "V" repeats the stem's last
# vowel (illative "korttiin", long-vowel verb forms "hylkään", "korvaa").
NOUN_ENDINGS = (
    "",
    "n",
    "A",
    "tA",
    "ttA",
    "Vn",
    "hVn",
    "ssA",
    "stA",
    "llA",
    "ltA",
    "lle",
    "nA",
    "ksi",
    "t",
    "ni",
    "si",
    "Vni",
    "Ani",
    "tAni",
    "ssAni",
    "stAni",
    "llAni",
    "ltAni",
    "lleni",
    "nsA",
    # -nen words: kakkonen -> kakkosen, kakkosta, kakkoseen, kakkoseni
    "nen",
    "sen",
    "seen",
    "selle",
    "seltA",
    "sellA",
    "sessA",
    "sestA",
    "senA",
    "seksi",
    "set",
    "seni",
    "seeni",
    "stAni",
    # -s words: kolmas -> kolmannen, kolmatta, kolmanteen; koputus -> koputuksen, koputusta
    "s",
    "nnen",
    "nteen",
    "nnelle",
    "nneltA",
    "nnellA",
    "nnessA",
    "nnestA",
    "ntenA",
    "nneksi",
    "ksen",
    "kseen",
    "kselle",
    "kseltA",
    "ksellA",
    "ksessA",
    "ksestA",
    "ksenA",
    "kseksi",
    "kset",
    # -in words: avoin -> avoimen, avointa, avoimeen
    "men",
    "ntA",
    "meen",
    "melle",
    "mellA",
    "mestA",
    # e-stems: henki -> hengellä, käsi -> kädessä, kädet
    "e",
    "et",
    "ellA",
    "elle",
    "eltA",
    "estA",
    "enA",
    "eksi",
    # plurals: retkikuntia, retkikuntien, kierroksilla, botteja
    "ia",
    "iA",
    "ien",
    "issA",
    "istA",
    "illA",
    "iltA",
    "ille",
    "ihin",
    "iin",
    "iksi",
    "inA",
    "ineen",
    "jA",
    "jen",
    "itA",
    # plurals of -s words: laajennuksia, kierroksilla
    "ksiA",
    "ksien",
    "ksiin",
    "ksillA",
    "ksiltA",
    "ksissA",
    "ksistA",
    "ksine",
)
VERB_ENDINGS = (
    "",
    "n",
    "t",
    "mme",
    "tte",
    "vAt",
    "V",
    "Vn",
    "Vt",
    "Vmme",
    "Vtte",
    "VvAt",
    "kAA",
    "kAAmme",
    "kOOn",
    "kO",
    "tAAn",
    "ttAAn",
    "dAAn",
    "etAAn",
    "tiin",
    "ttiin",
    "ettiin",
    "i",
    "in",
    "it",
    "imme",
    "itte",
    "ivAt",
    "isin",
    "isi",
    "isit",
    "isimme",
    "isit",
    "en",
    "et",
    "ee",
    "emme",
    "ette",
    "evAt",
    "nut",
    "nyt",
    "lut",
    "lyt",
    "rut",
    "tu",
    "ttu",
    "ty",
    "tty",
    "A",
    "tA",
    "dA",
    "mAAn",
    "mAllA",
    "mAssA",
    "minen",
    "mAstA",
    "essA",
)
ENDINGS = tuple(dict.fromkeys(NOUN_ENDINGS + VERB_ENDINGS))

# Consonant gradation, tried in both directions within the last four letters of a stem.
GRADATION = (
    ("kk", "k"),
    ("pp", "p"),
    ("tt", "t"),
    ("t", "d"),
    ("p", "v"),
    ("nt", "nn"),
    ("nk", "ng"),
    ("lt", "ll"),
    ("rt", "rr"),
    ("mp", "mm"),
    ("ht", "hd"),
    ("lk", "l"),
    ("rk", "r"),
    ("hk", "h"),
    ("s", "d"),
    ("s", "t"),
)


def read_vocabulary(path: Path) -> list[str]:
    words = []
    for line in path.read_text(encoding="utf-8").splitlines():
        word = line.split("#", 1)[0].strip().casefold()
        if word:
            words.append(word)
    return list(dict.fromkeys(words))


def gradations(stem: str) -> set[str]:
    out = {stem}
    start = max(0, len(stem) - 4)
    for strong, weak in GRADATION:
        for old, new in ((strong, weak), (weak, strong)):
            i = stem.find(old, start)
            while i != -1:
                out.add(stem[:i] + new + stem[i + len(old) :])
                i = stem.find(old, i + 1)
    return out


def candidates(base: str) -> Iterator[str]:
    """Possible inflected forms of ``base``: stems (the base minus 0–3 letters, each with and without
    gradation) times :data:`ENDINGS`."""
    # both harmonies: a compound follows its last part ("pikapeli" -> pikapelinä), which the letters
    # alone do not tell; Voikko keeps the right one
    harmonies = [str.maketrans({"A": a, "O": o}) for a, o in (("a", "o"), ("ä", "ö"))]
    stems: set[str] = set()
    for cut in range(4):
        if len(base) - cut >= 2:
            stems |= gradations(base[: len(base) - cut])
    for stem in stems:
        for ending in ENDINGS:
            if "V" in ending:
                if stem[-1] not in VOWELS:
                    continue
                ending = ending.replace("V", stem[-1])
            for harmony in dict.fromkeys(ending.translate(h) for h in harmonies):
                yield stem + harmony


class Analyser:
    def __init__(self) -> None:
        import libvoikko  # the build needs Voikko; the bot does not

        self._voikko = libvoikko.Voikko("fi")
        self._cache: dict[str, frozenset[str]] = {}

    def bases(self, word: str) -> frozenset[str]:
        if word not in self._cache:
            self._cache[word] = frozenset(
                a["BASEFORM"].casefold() for a in self._voikko.analyze(word) if a.get("BASEFORM")
            )
        return self._cache[word]


def code_words() -> list[str]:
    """The Finnish words the code matches by base form: the meta-command vocabulary and the games'
    option words (see the module docstring)."""
    from chatbot.core.commands import _VOCABULARY
    from chatbot.core.nlp import Lemmatizer, Lexicon
    from chatbot.games import UIS
    from chatbot.games.afrikan_tahti.parser import AfrikanTahtiParser, ExpansionParser
    from chatbot.games.coloretto_amazonas.parser import ColorettoParser
    from chatbot.games.gnav.parser import GnavParser
    from chatbot.games.majavajengi.parser import MajavajengiParser

    words: list[str] = []
    for entries in _VOCABULARY["fi"].values():
        for entry in entries:
            words.extend(tokens(entry))
    lemmatizer = Lemmatizer(backend="table")
    words.extend(Lexicon({}, lemmatizer).listed_words("fi"))  # the shared words (negation, pronouns)
    for parser in (AfrikanTahtiParser, ExpansionParser, ColorettoParser, GnavParser, MajavajengiParser):
        words.extend(parser(lemmatizer).lexicon.listed_words("fi"))
    for ui in UIS.values():
        words.extend(w for key in (*ui.option_counts(), *ui.option_flags()) for w in tokens(key))
    return list(dict.fromkeys(words))


def bases_of(words: Iterable[str], analyser: Analyser) -> list[str]:
    """The base forms Voikko gives ``words`` (words it does not know are left out)."""
    out: list[str] = []
    for word in words:
        out.extend(sorted(b for b in analyser.bases(word) if b.isalpha() and len(b) > 2))
    return list(dict.fromkeys(out))


def build(vocabulary: list[str], specs: Iterable[Path], analyser: Analyser) -> dict[str, list[str]]:
    wanted = set(vocabulary)
    table: dict[str, set[str]] = {}
    for base in vocabulary:
        found = 0
        for form in candidates(base):
            bases = analyser.bases(form)
            if base in bases:
                table.setdefault(form, set()).update(bases)
                found += 1
        if not found:
            print(f"warning: Voikko does not know {base!r}; no forms", file=sys.stderr)
    for spec in specs:
        for word in tokens(spec.read_text(encoding="utf-8")):
            bases = analyser.bases(word)
            if bases & wanted:
                table.setdefault(word, set()).update(bases)
    return {form: sorted(bases) for form, bases in sorted(table.items())}


def write(table: dict[str, list[str]], path: Path) -> None:
    # One entry a line keeps the committed file diffable.
    lines = [
        f"{json.dumps(form, ensure_ascii=False)}: {json.dumps(bases, ensure_ascii=False)}"
        for form, bases in table.items()
    ]
    path.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vocabulary", type=Path, default=VOCABULARY_PATH)
    parser.add_argument("--spec", type=Path, action="append", help="rules text to take forms from verbatim")
    parser.add_argument("--output", type=Path, default=WORDFORMS_PATH)
    args = parser.parse_args(argv)
    specs = args.spec if args.spec is not None else DEFAULT_SPECS
    if not specs:
        print(
            "warning: no rules specs found; pass them with --spec (a worktree has no ../shared)",
            file=sys.stderr,
        )
    analyser = Analyser()
    vocabulary = read_vocabulary(args.vocabulary)
    vocabulary += [w for w in bases_of(code_words(), analyser) if w not in vocabulary]
    table = build(vocabulary, specs, analyser)
    write(table, args.output)
    print(f"{len(table)} forms -> {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
