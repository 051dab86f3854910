"""1. Text: normalising, folding and splitting a message into tokens, and English stems."""

from __future__ import annotations

import re
import unicodedata

_QUOTES = str.maketrans({"’": "'", "‘": "'", "´": "'", "`": "'", "–": "-", "—": "-", "‐": "-"})
# Everything but word characters, spaces and the marks that can carry meaning inside a token.
_DROP = re.compile(r"[^\w\s#@:'\-]")
# ':' ("2:een"), "'" ("matti's", "don't") and '-' ("sirkka-liisa") only count between word characters.
_LONE_MARK = re.compile(r"(?<!\w)[:'\-]+|[:'\-]+(?!\w)")
# '#' and '@' only count at the start of a token ("#2", "@matti").
_LONE_SIGIL = re.compile(r"[#@]+(?!\w)|(?<=\w)[#@]+")
_SPACES = re.compile(r"\s+")


def normalise(text: str) -> str:
    """Casefold, drop punctuation (keeping digits, ä/ö/å, ``:`` inside tokens, ``#``/``@`` sigils and
    apostrophes inside words) and collapse spaces: ``"Vaihda 2:een!"`` -> ``"vaihda 2:een"``."""
    text = unicodedata.normalize("NFC", text).translate(_QUOTES).casefold()
    text = _DROP.sub(" ", text)
    text = _LONE_MARK.sub(" ", text)
    text = _LONE_SIGIL.sub(" ", text)
    return _SPACES.sub(" ", text).strip()


_FOLD = str.maketrans({"ä": "a", "ö": "o", "å": "a"})


def fold(word: str) -> str:
    """ä -> a, ö -> o, å -> a, so that "hylkaa" and "hylkää" compare equal."""
    return word.translate(_FOLD)


def tokens(text: str) -> list[str]:
    """The normalised words of ``text``."""
    return normalise(text).split()


def english_stems(word: str) -> frozenset[str]:
    """The word and its likely English stems ("draws" -> "draw", "swapped" -> "swap"). English needs
    no dictionary for a closed command vocabulary; over-generating is harmless because the stems are
    only looked up in that vocabulary."""
    out = {word}
    if word.endswith("'s"):
        out.add(word[:-2])
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        out.add(word[:-1])
        if word.endswith("es"):
            out.add(word[:-2])
    for suffix in ("ing", "ed"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            stem = word[: -len(suffix)]
            out |= {stem, stem + "e"}
            if len(stem) > 2 and stem[-1] == stem[-2]:
                out.add(stem[:-1])  # swapped -> swap
    return frozenset(out)
