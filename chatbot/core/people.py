"""Who is who (issue #27): a person's name as shown, the people a room has seen, and the one language
of everything a person gets in private.

* :func:`clean_name`: a display name as the bot shows it: on one line, without control, invisible
  (zero-width, soft hyphen) or direction-changing characters, without piles of combining marks,
  trimmed and at most :data:`NAME_SHOWN` characters. A name with a line break cannot add a row to a
  table any more (on Synapse one showed a made-up row of another player's cards).
* :func:`name_key`: two names that look alike have the same key: case, compatibility forms (full-width
  letters, ligatures), Cyrillic and Greek letters that imitate Latin ones, spaces and punctuation do
  not count. :func:`told_apart` marks the later of two such names at one table "Matti (2)".
* :class:`People`: what the bot remembers of the people it has seen (in the key-value store, so every
  worker knows it): who has written in a room (a seat offered by a typed name goes to the one known
  member of the room with that name), the platform handles ("@liisa" on Telegram), and each person's
  platform language, for :meth:`People.lang`, the one rule of a person's private texts: the language
  they chose, else their platform's language, else the room's.
"""

from __future__ import annotations

import re
import threading
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from chatbot.core import i18n
from chatbot.core.i18n import normalise_language
from chatbot.core.ports import Repository, RoomRec, UserRec
from chatbot.core.types import Inbound

#: the longest display name shown (longer ones are cut, with "…")
NAME_SHOWN = 32
#: kv namespaces: the members a room has seen (one namespace per room: key = platform user id), the
#: platform handles (``handles:<platform>``: handle casefolded -> platform user id) and the platform
#: language of each person (key = user id)
NS_MEMBERS = "members"
NS_HANDLES = "handles"
NS_LANG_HINT = "lang-hint"
#: how long a process trusts what it wrote or read (another worker may have seen the person since)
REMEMBER_FOR = 600.0
MEMORY = 50_000

#: line and paragraph breaks, tabs and other spacing: one space each
_SPACING = re.compile(r"[\s\u2028\u2029\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+")
#: anything that is not plain printable text: quick test before the careful pass
_ODD = re.compile(r"[^\x20-\x5a\x5c\x5e-\x7e\u00a1-\u00ac\u00ae-\u02ff]")
#: brackets mark cards in the bot's texts ("[🟪 kolibri]"): a name shows parentheses instead
_BRACKETS = str.maketrans("[]", "()")
#: letters of other scripts that look like Latin ones (a name must not pass for another's)
_LOOKALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a",
        "в": "b",
        "е": "e",
        "ё": "ë",
        "к": "k",
        "м": "m",
        "н": "h",
        "о": "o",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "х": "x",
        "і": "i",
        "ї": "ï",
        "ј": "j",
        "ѕ": "s",
        "ԁ": "d",
        "ɡ": "g",
        "ӏ": "l",
        # Greek
        "α": "a",
        "β": "b",
        "ε": "e",
        "ι": "i",
        "κ": "k",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        # Latin look-alikes
        "ı": "i",
        "ℓ": "l",
    }
)


_ZWJ = "\u200d"


def _emoji_joined(text: str, i: int) -> bool:
    """Whether the zero-width joiner at ``text[i]`` joins two emoji (a variation selector or skin
    tone may stand between the first one and the joiner)."""
    before = text[:i].rstrip("\ufe0f\U0001f3fb\U0001f3fc\U0001f3fd\U0001f3fe\U0001f3ff")
    after = text[i + 1 : i + 2]
    return (
        bool(before and after)
        and unicodedata.category(before[-1]) == "So"
        and unicodedata.category(after) == "So"
    )


def clean_name(name: str, fallback: str = "?") -> str:
    """``name`` as shown: one line, printable, trimmed, at most :data:`NAME_SHOWN` characters; the
    ``fallback`` when nothing is left."""
    if len(name) <= NAME_SHOWN and not _ODD.search(name) and name == name.strip() and "  " not in name:
        return name or fallback  # the usual name: plain letters
    text = unicodedata.normalize("NFC", name[: NAME_SHOWN * 8])
    out: list[str] = []
    marks = 0
    spaced = _SPACING.sub(" ", text)
    for i, ch in enumerate(spaced):
        category = unicodedata.category(ch)
        if ch == _ZWJ and _emoji_joined(spaced, i):
            pass  # the joiner inside one emoji ("👨‍👩‍👧"), which cannot make a name look like another
        elif category in {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}:
            continue  # controls, zero-width and direction marks, unassigned code points
        if category in {"Mn", "Me"}:
            marks += 1
            if marks > 2:
                continue  # a pile of combining marks (a name that spills over the lines around it)
        else:
            marks = 0
        out.append(ch)
    shown = " ".join("".join(out).translate(_BRACKETS).split())
    if len(shown) > NAME_SHOWN:
        shown = shown[: NAME_SHOWN - 1].rstrip() + "…"
    return shown or fallback


def name_key(name: str) -> str:
    """What two names that look alike share: "Matti", "matti", "Mаtti" (a Cyrillic а), "M a t t i"
    and "Ｍａｔｔｉ" have one key."""
    text = unicodedata.normalize("NFKC", clean_name(name, "")).casefold().translate(_LOOKALIKES)
    return "".join(ch for ch in text if ch.isalnum()) or "".join(text.split())


def told_apart(names: Iterable[str]) -> tuple[str, ...]:
    """The names of one table, cleaned, each that looks like an earlier one marked "Matti (2)"."""
    shown: list[str] = []
    keys: set[str] = set()
    for name in names:
        name = clean_name(name)
        candidate, n = name, 1
        while name_key(candidate) in keys:
            n += 1
            candidate = f"{name} ({n})"
        keys.add(name_key(candidate))
        shown.append(candidate)
    return tuple(shown)


def new_seat_name(taken: Iterable[str], name: str) -> str:
    """The name of a new seat at a table whose seats are named ``taken``: ``name`` cleaned, or
    "name (2)", "name (3)"… when it looks like one of them."""
    keys = {name_key(t) for t in taken}
    name = clean_name(name)
    candidate, n = name, 1
    while name_key(candidate) in keys:
        n += 1
        candidate = f"{name} ({n})"
    return candidate


def genitive(name: str, readings: Callable[[str], frozenset[str]]) -> str | None:
    """The Finnish genitive of a one-word name when the dictionary confirms it ("Sanna" -> "Sannan",
    "Pekka" -> "Pekan", "David" -> "Davidin"), else None: the caller then keeps the name in the
    nominative (DESIGN.md §10: never "Mattille"). ``readings`` gives a word's base forms (the
    lemmatiser's; the word-form table knows no names, so without Voikko every name stays as it is)."""
    if not name.isalpha() or len(name) < 2:
        return None
    low = name.casefold()
    if low.endswith("nen") and len(low) > 4:
        candidates = [name[:-3] + "sen"]  # Virtanen -> Virtasen
    elif low[-1] in "aeiouyäö":
        # a double stop weakens (Matti -> Matin, Bertta -> Bertan), a name may keep it (Otto -> Oton?)
        weak = name[:-3] + name[-2] + name[-1] if len(low) > 3 and low[-3:-1] in {"kk", "pp", "tt"} else None
        candidates = [c for c in (weak, name) if c is not None]
        candidates = [c + "n" for c in candidates]
    else:
        candidates = [name + "in"]  # David -> Davidin
    for form in candidates:
        if low in readings(form.casefold()) and form.casefold() != low:
            return form
    return None


def person_lang(chosen: str | None, hint: str | None, room_lang: str | None) -> str:
    """The one language rule of what a person gets in private (their hand, prompts, notices, a
    button's toast, an apology): the language they chose ("kieli en"), else their platform's
    language, else the room's."""
    return chosen or normalise_language(hint) or room_lang or i18n.DEFAULT_LANGUAGE


@dataclass(frozen=True, slots=True)
class Member:
    """Someone the bot has seen write in a room."""

    ext_id: str
    name: str
    handle: str | None = None


class People:
    """The people the bot has seen: members of rooms, handles, platform languages (stored in the
    repository's key-value store; remembered for a while per process so a message costs no write
    when nothing changed)."""

    def __init__(self, repo: Repository, clock: Callable[[], float] = time.monotonic) -> None:
        self.repo = repo
        self.clock = clock
        self._memory: OrderedDict[tuple[str, str], tuple[float, Any]] = OrderedDict()
        self._lock = threading.Lock()

    # --- memory ----------------------------------------------------------------------------------
    def _recall(self, namespace: str, key: str) -> tuple[bool, Any]:
        with self._lock:
            item = self._memory.get((namespace, key))
        if item is None or item[0] < self.clock():
            return False, None
        return True, item[1]

    def _keep(self, namespace: str, key: str, value: Any) -> None:
        with self._lock:
            self._memory[(namespace, key)] = (self.clock() + REMEMBER_FOR, value)
            self._memory.move_to_end((namespace, key))
            while len(self._memory) > MEMORY:
                self._memory.popitem(last=False)

    def _store(self, namespace: str, key: str, value: Any) -> None:
        """``value`` under ``key``, written only when it differs from what is known."""
        known, was = self._recall(namespace, key)
        if known and was == value:
            return
        if not known:
            was = self.repo.kv_get(namespace, key)
        if was != value:
            self.repo.kv_set(namespace, key, value)
        self._keep(namespace, key, value)

    # --- what a message tells ------------------------------------------------------------------------
    def seen(self, msg: Inbound, user: UserRec, room: RoomRec | None) -> None:
        """Remember what ``msg`` tells of its sender: their platform language, their handle and, in a
        group, that they are a member of the room."""
        hint = normalise_language(msg.lang_hint)
        if hint is not None:
            self._store(NS_LANG_HINT, str(user.id), hint)
        handle = (msg.user_handle or "").lstrip("@").casefold() or None
        if handle is not None:
            self._store(f"{NS_HANDLES}:{msg.platform}", handle, msg.user_id)
        if room is not None:
            self._store(f"{NS_MEMBERS}:{room.id}", msg.user_id, {"name": user.name, "handle": handle})

    # --- who is who ------------------------------------------------------------------------------------
    def members(self, room: RoomRec) -> list[Member]:
        """The people seen writing in ``room`` (the latest name each wrote under)."""
        found = self.repo.kv_items(f"{NS_MEMBERS}:{room.id}")
        out = []
        for ext_id, value in sorted(found.items()):
            if isinstance(value, dict) and isinstance(value.get("name"), str):
                handle = value.get("handle")
                out.append(Member(ext_id, value["name"], handle if isinstance(handle, str) else None))
        return out

    def by_handle(self, platform: str, handle: str) -> str | None:
        """The platform user id of the person with ``handle`` ("@liisa"), if the bot has seen them."""
        key = handle.lstrip("@").casefold()
        if not key:
            return None
        found = self.repo.kv_get(f"{NS_HANDLES}:{platform}", key)
        return found if isinstance(found, str) else None

    # --- languages ---------------------------------------------------------------------------------------
    def hint(self, user: UserRec) -> str | None:
        """The platform's language of ``user``, as last seen."""
        known, value = self._recall(NS_LANG_HINT, str(user.id))
        if not known:
            value = self.repo.kv_get(NS_LANG_HINT, str(user.id))
            self._keep(NS_LANG_HINT, str(user.id), value)
        return value if isinstance(value, str) else None

    def lang(self, user: UserRec, room: RoomRec | None, hint: str | None = None) -> str:
        """The language of everything ``user`` gets in private (:func:`person_lang`); ``hint`` is the
        platform's language of the message being answered, when there is one."""
        if user.lang:
            return user.lang
        return person_lang(None, hint or self.hint(user), room.lang if room is not None else None)


def seat_names(seats: Sequence[Any]) -> tuple[str, ...]:
    """The names of a match's seats as shown: cleaned and told apart."""
    return told_apart(s.name for s in seats)
