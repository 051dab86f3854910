"""Game names in any case ("gnavin", "colorettoa", "afrikan tähteä", "Majavajengissä") and a
game's options in words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatbot.core.nlp import Lemmatizer, english_stems, fold, normalise, numeral_value, tokens


def _word_matches(word: str, alias_word: str, lemmatizer: Lemmatizer, alone: bool = False) -> bool:
    """Whether ``word`` is a form of a word of a game's name. ``alone``: the name is that one word
    ("tähti"), so a word typed without ä/ö that is itself another word ("tahti", the pace) is not it."""
    w, a = fold(word), fold(alias_word)
    if alone and a != alias_word.casefold() and word.casefold() == w:
        real = {r for r in lemmatizer.readings(word) if r != word.casefold() and fold(r) == r}
        if any(fold(r) == a for r in real) or (w == a and lemmatizer.known(word)):
            return False  # "tahti" (pace), not "tähti"
    if w == a:
        return True
    if len(a) >= 4 and w.startswith(a) and len(w) - len(a) <= 5:
        return True  # a case ending on a foreign or compound name: gnav-in, coloretto-a, majavajengi-ssä
    if len(a) >= 4 and a.endswith("ti") and w.startswith((a[:-2] + "te", a[:-2] + "de")):
        return True  # tähti: tähteä, tähden, tähdessä (the word-form table may not have them)
    return a in {fold(r) for r in lemmatizer.readings(word)}


def find_game(
    words: Sequence[str], games: Mapping[str, Sequence[str]], lemmatizer: Lemmatizer
) -> tuple[str, int, int] | None:
    """(game id, first word, word count) of the longest game name in ``words``, in any case form."""
    best: tuple[str, int, int] | None = None
    for game_id, aliases in games.items():
        for alias in aliases:
            parts = tokens(alias)
            n = len(parts)
            if not parts or (best is not None and n <= best[2]):
                continue
            for i in range(len(words) - n + 1):
                if all(_word_matches(words[i + k], parts[k], lemmatizer, n == 1) for k in range(n)):
                    best = (game_id, i, n)
                    break
    return best


#: "ilman laajennusta", "without the expansion", "no expansion": the flag after it is off
_WITHOUT = frozenset({"ilman", "without", "no"})
_ARTICLES = frozenset({"the", "a", "an"})


#: words that switch an option on or off when said next to its name ("muistiapu päälle", "memory
#: aid on", "laita muistiapu pois")
_ON = frozenset({"paalle", "paalla", "kayttoon", "on", "kylla", "yes", "mukaan", "mukana"})
_OFF = frozenset({"pois", "off", "ei", "no", "kaytosta", "paalta", "without", "ilman"})


def _switch_at(
    typed: list[str], i: int, switches: Mapping[str, str], lookup: Any
) -> tuple[int, str, str] | None:
    """An option switched on or off at ``typed[i]``: (words used, key, "on"/"off"), or None."""
    for name, key in switches.items():
        parts = name.replace("_", " ").split()
        n = len(parts)
        if i + n > len(typed):
            continue
        first = lookup(typed[i], {fold(parts[0]): key}) if n == 1 else None
        if n > 1 and [fold(normalise(w)) for w in typed[i : i + n]] != [fold(p) for p in parts]:
            continue
        if n == 1 and first is None:
            continue
        before = fold(normalise(typed[i - 1])) if i > 0 else ""
        after = fold(normalise(typed[i + n])) if i + n < len(typed) else ""
        if after in _OFF or before in _OFF:
            return (n + (after in _OFF), key, "off")
        if after in _ON or before in _ON:
            return (n + (after in _ON), key, "on")
    return None


def option_phrases(
    text: str,
    counts: Mapping[str, str],
    flags: Mapping[str, tuple[str, Any]],
    lemmatizer: Lemmatizer,
    switches: Mapping[str, str] | None = None,
    bare: bool = False,
) -> str:
    """``text`` with the options said in words written as typed options, for the game it names:
    a number and a counted noun ("kahdella kierroksella", "3 rounds", "viidellä elämällä") becomes
    ``rounds=2``, a flag word in any form ("pikapelinä") ``quick_game=on``, and "ilman" / "without"
    before a flag that turns something on ("ilman laajennusta", "without the expansion") turns it
    off. ``counts`` maps counted nouns (base forms, English singulars, or a stem that case endings
    follow) to option keys; ``flags`` are the game's option words (:meth:`GameUI.option_flags`).
    Spoken numerals and clipped cases count ("kahel kierroksel", "viiel elämäl", "kaks kierrosta"),
    and so does the number after the noun ("lives 2", "elämät kolmeksi", "kierrokset kahteen").
    ``switches`` are option names (:meth:`GameUI.option_words`; an engine key's words count too:
    "memory aid") that "päälle" / "pois" / "on" / "off" beside them switch ("muistiapu päälle").
    ``bare``: a flag word as listed becomes an option too ("pikapeli" in a lobby; after a game's name
    the lobby reads it itself). Other words stay as typed."""
    typed = text.split()

    def lookup(word: str, table: Mapping[str, Any]) -> Any:
        w = normalise(word)
        if not w:
            return None
        forms = {w, fold(w), *english_stems(w), *lemmatizer.readings(w)}
        for form in forms:
            hit = table.get(form, table.get(fold(form)))
            if hit is not None:
                return hit
        return None  # the base forms come from Voikko or the word-form table alike

    folded_counts = {fold(k.casefold()): v for k, v in counts.items()}
    all_switches = dict(switches or {})
    all_switches.update({key: key for key in (switches or {}).values()})
    folded_flags = {fold(k.casefold()): v for k, v in flags.items()}
    out: list[str] = []
    i = 0
    while i < len(typed):
        word = typed[i]
        low = fold(normalise(word))
        if "=" in word or not low:
            out.append(word)
            i += 1
            continue
        number = numeral_value(low) if i + 1 < len(typed) else None
        if number is not None:
            key = lookup(typed[i + 1], folded_counts)
            if key is not None:
                out.append(f"{key}={number}")
                i += 2
                continue
        if i + 1 < len(typed) and (after := numeral_value(fold(normalise(typed[i + 1])))) is not None:
            key = lookup(word, folded_counts)
            if key is not None:  # "lives 2", "elämät kolmeksi", "kierrokset kahteen"
                out.append(f"{key}={after}")
                i += 2
                continue
        switched = _switch_at(typed, i, all_switches, lookup) if all_switches else None
        if switched is not None:
            used, key, value = switched
            if out and fold(normalise(out[-1])) in _ON | _OFF:
                out.pop()  # "laita muistiapu pois": the switch word before the name
            out.append(f"{key}={value}")
            i += used
            continue
        if low in _WITHOUT:
            j = i + 1
            while j < len(typed) and fold(normalise(typed[j])) in _ARTICLES:
                j += 1
            flag = lookup(typed[j], folded_flags) if j < len(typed) else None
            if flag is not None and flag[1] is True:
                out.append(f"{flag[0]}=off")
                i = j + 1
                continue
        flag = lookup(word, folded_flags)
        if flag is not None and (bare or low not in folded_flags) and isinstance(flag[1], bool):
            out.append(f"{flag[0]}={'on' if flag[1] else 'off'}")  # "pikapelinä": a form of the word
        else:
            out.append(word)
        i += 1
    return " ".join(out)
