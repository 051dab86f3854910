"""Per-recipient translators over the Babel catalogs in ``locales/``.

There is no global current language: every renderer gets a :class:`Translator` for its recipient.
Catalogs are split by domain (``core`` and one per game) so that each game's texts live beside its
code; a translator merges all domains of one language. Catalogs are read from the ``.po`` files
directly, so a fresh checkout needs no compile step.
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Literal

from babel import Locale
from babel.lists import format_list
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

LOCALES_DIR = Path(__file__).resolve().parents[2] / "locales"
LANGUAGES = ("fi", "en")
DEFAULT_LANGUAGE = "fi"
#: formatted numbers and lists remembered per translator
FORMAT_MEMORY = 4096


#: Babel's list styles: "standard" joins with "ja"/"and", "or" with "tai"/"or"
ListStyle = Literal["standard", "standard-short", "or", "or-short", "unit", "unit-short", "unit-narrow"]


def N_(message: str) -> str:
    """Mark a string for extraction without translating it now."""
    return message


class Translator:
    """gettext, ngettext and pgettext for one language, plus Babel's number and list formatting."""

    def __init__(
        self,
        lang: str,
        messages: dict[tuple[str | None, str], str | tuple[str, ...]],
        plural: str = "(n != 1)",
    ) -> None:
        self.lang = lang
        self.locale = Locale.parse(lang)
        self._messages = messages
        self._plural = _gettext.c2py(plural)
        #: Babel's formatting is slow next to a lookup, and every table formats the same few numbers
        #: and lists again: formatted once per translator (bounded)
        self._numbers: dict[tuple[str, float], str] = {}
        self._lists: dict[tuple[str, tuple[str, ...]], str] = {}

    def gettext(self, message: str) -> str:
        found = self._messages.get((None, message))
        if isinstance(found, str) and found:
            return found
        return message

    _ = gettext

    def pgettext(self, context: str, message: str) -> str:
        found = self._messages.get((context, message))
        if isinstance(found, str) and found:
            return found
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        found = self._messages.get((None, singular))
        if isinstance(found, tuple) and all(found):
            return found[min(self._plural(n), len(found) - 1)]
        return singular if n == 1 else plural

    def format_number(self, n: float) -> str:
        # keyed by type too: 1 and 1.0 are equal keys but Babel writes them differently
        key = (type(n).__name__, n)
        found = self._numbers.get(key)
        if found is None:
            found = format_decimal(n, locale=self.locale)
            if len(self._numbers) >= FORMAT_MEMORY:
                self._numbers.clear()
            self._numbers[key] = found
        return found

    def format_list(self, items: Iterable[str], style: ListStyle = "standard") -> str:
        key = (style, tuple(items))
        if not key[1]:
            return ""
        found = self._lists.get(key)
        if found is None:
            found = format_list(list(key[1]), style=style, locale=self.locale)
            if len(self._lists) >= FORMAT_MEMORY:
                self._lists.clear()
            self._lists[key] = found
        return found

    def format_choices(self, items: Iterable[str]) -> str:
        """The choices of a question: "pisteet vai vihreät eläimet" (a Finnish question asks with
        *vai*; Babel's "or" list says *tai*, right for a statement), "points or green animals"."""
        text = self.format_list(items, style="or")
        if self.lang == "fi":
            head, sep, last = text.rpartition(" tai ")
            if sep:
                text = f"{head} vai {last}"
        return text

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"


def _read_language(lang: str) -> tuple[dict[tuple[str | None, str], str | tuple[str, ...]], str]:
    messages: dict[tuple[str | None, str], str | tuple[str, ...]] = {}
    plural = "(n != 1)"
    folder = LOCALES_DIR / lang / "LC_MESSAGES"
    for po in sorted(folder.glob("*.po")):
        with po.open("rb") as f:
            catalog = read_po(f, locale=lang)
        plural = catalog.plural_expr or plural
        for message in catalog:
            if not message.id or message.fuzzy:
                continue
            key_id = message.id[0] if isinstance(message.id, tuple | list) else message.id
            string = message.string
            if isinstance(string, tuple | list):
                messages[(message.context, key_id)] = tuple(string)
            elif string:
                messages[(message.context, key_id)] = string
    return messages, plural


@cache
def translator(lang: str | None) -> Translator:
    """The translator for ``lang`` (falls back to Finnish for unknown languages)."""
    code = normalise_language(lang) or DEFAULT_LANGUAGE
    messages, plural = _read_language(code)
    return Translator(code, messages, plural)


def normalise_language(lang: str | None) -> str | None:
    """Map a platform language tag (``fi-FI``, ``en_US``, ``suomi``) to a supported code, or None."""
    if not lang:
        return None
    low = lang.strip().lower().replace("_", "-")
    aliases = {"suomi": "fi", "finnish": "fi", "englanti": "en", "english": "en", "eng": "en", "fin": "fi"}
    if low in aliases:
        return aliases[low]
    base = low.split("-")[0]
    return base if base in LANGUAGES else None
