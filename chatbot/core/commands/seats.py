"""Seat commands (issues #13 and #27): remove a player (``kick``), give a person's seat to an AI
(``to_ai``) and back (``restore``), hand one's own seat over (``hand_over``) and take a seat handed
over (``take_seat``), said in any words: "potki Pekka pihalle", "Pekan paikalle botti", "Pekka saa
palata", "Liisa voi jatkaa mun puolesta", "jatkan Liisan puolesta", "kick out Pekka", "let a bot play
for Pekka", "give my seat to Liisa".

The person is found by the seat's name in any case form (the table's own entities, as a move finds
a card), or, for a name the table does not know yet, by an @mention, a capital letter or an
allative; what is done to them by the concepts said around the name, so word order is free. The
argument of the command is the name as typed; the core matches it to the seat again.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from chatbot.core.commands.command import Command
from chatbot.core.commands.more_words import CONTINUE, GIVE, INSTEAD, KICK, RESTORE, SEAT, TAKE
from chatbot.core.commands.said import Person, Said, is_name_of_bot
from chatbot.core.commands.vocabulary import (
    ADD,
    AWAY,
    BACK,
    BE,
    BOT,
    GAME,
    JOIN,
    PLAY,
    PLAYER,
    REMOVE,
    SWITCH,
    TURN,
    WANT,
)
from chatbot.core.nlp import OWN, fold, normalise  # noqa: F401

#: whole texts that take a seat offered; "otan sen" / "I take it" also accept a gift or a card, so
#: the running game reads them first (weak)
_TAKE_IT = frozenset({"otan sen", "i take it", "otan", "i'll take it", "ill take it"})
#: the possessive forms of the seat word: one's own seat
_MY_SEAT = frozenset({"paikkani", "paikkaani", "paikaltani", "paikallani", "puolestani", "tilallani"})
#: the possessives of the speaker, and the seat words of English
_MINE = frozenset({"mun", "minun", "miun", "mu", "my", "oma", "oman", "omaa", "omani"})
_SEAT_FORMS = frozenset({"seat", "place", "spot", "chair"})
#: what may be said around a seat command besides its own words
_AROUND = frozenset({OWN, WANT, BE, GAME, PLAYER, SEAT, INSTEAD, "neg", "sep", "filler"})


def _is_seat_word(word: str) -> bool:
    return word in _SEAT_FORMS or word.startswith(("paik", "puole", "tila", "sija"))


def _own_seat(s: Said) -> bool:
    """One's own seat or place: "paikkani", "mun paikka", "miun paikan", "my seat", "mun puolesta",
    "for me", "instead of me" (a possessive right before the seat word, or the speaker after a
    preposition); "otan Liisan paikan" is Liisa's."""
    words = s.folded
    if any(w in _MY_SEAT for w in words):
        return True
    if any(w in _MINE and i + 1 < len(words) and _is_seat_word(words[i + 1]) for i, w in enumerate(words)):
        return True
    return bool(set(itertools.pairwise(words)) & {("for", "me"), ("of", "me")})


def _receiver(s: Said, people: Sequence[Person]) -> Person | None:
    """Whom one's seat goes to: an allative ("Liisalle"), "to Liisa", or the subject who gets it
    ("Liisa saa mun paikan", "let Liisa play for me")."""
    for p in people:
        if p.case == "all" or (p.start > 0 and s.folded[p.start - 1] == "to"):
            return p
    nominative = [p for p in people if p.case == "nom"]
    return nominative[0] if len(nominative) == 1 else None


def _command(name: str, person: Person | None, *, weak: bool = False) -> Command:
    args = tuple(person.typed.split()) if person is not None else ()
    return Command(name, args, " ".join(args), args, weak=weak)


def seat_command(s: Said, names: Sequence[str], addressed: bool) -> Command | None:
    """The seat command ``s`` says, or None."""
    joined = " ".join(s.folded)
    if joined in _TAKE_IT:
        return Command("take_seat", weak=True)
    said = s.said
    people = [p for p in s.persons if not is_name_of_bot(p, names)]
    # a sentence's first "anna" is the verb "give" ("anna paikkani" in reply to someone), not Anna
    verb = [p for p in people if p.start == 0 and normalise(p.typed) == "anna"]
    # the words of a name are no doubt ("poista Pekka", "anna paikkani Olli Virtaselle")
    named = {w for p in people for w in p.typed.split()}
    if verb and _own_seat(s) and not said & {TAKE, CONTINUE, PLAY}:  # "Anna saa mun paikan": Anna
        said = said | {GIVE}
        people = [p for p in people if p not in verb]
    loose = [w for w in s.unknown if normalise(w) not in named]
    doubtful = bool(loose) and not (addressed and set(loose) <= set(s.aside))
    # one's own seat handed over, to a person or to an AI
    if _own_seat(s) and said & {GIVE, TAKE, CONTINUE, PLAY, WANT, INSTEAD, SEAT} and not said & {JOIN}:
        receiver = _receiver(s, people)
        if receiver is None and BOT in said and not people:
            return Command("leave")  # "anna paikkani botille": an AI takes the seat, as on leaving
        if receiver is not None or (GIVE in said and not doubtful):
            return _command("hand_over", receiver)
    # a seat someone offers, taken: "otan paikan", "jatkan Liisan puolesta", "I'll take the seat"
    if (
        said & {SEAT, INSTEAD}
        and said & {TAKE, CONTINUE}
        and not _own_seat(s)
        and BOT not in said
        and (s.first_person or not people or people[0].case == "gen")
        and not doubtful
    ):
        return Command("take_seat")
    # the person done something to: a seat's name; a name the table does not know only without a
    # table ("poista Pekka pelistä" read alone) or after an outright kick ("kick Bob": the core says
    # who is at the table; weak, for "poista Kirjanpito" may drop a card of that name)
    targets = [p for p in people if p.seats]
    if not targets and people and not names:
        targets = people
    elif not targets:
        if KICK in said and len(people) == 1 and not doubtful:
            return _command("kick", people[0], weak=True)
        return None
    if len(targets) != 1:
        return None
    person = targets[0]
    # a person's seat to an AI: "anna Pekan paikka botille", "botti Pekan tilalle", "vaihda Pekka bottiin"
    to_ai = said & {SEAT, INSTEAD, GIVE, PLAY, SWITCH, CONTINUE, TAKE, TURN}
    if BOT in said and to_ai and not doubtful and not said & {REMOVE, KICK}:
        return _command("to_ai", person)
    if BOT in said:
        return None
    # back from an AI: "palauta Pekka", "Pekka takaisin peliin", "Pekka saa palata", "bring Pekka back"
    if RESTORE in said or (BACK in said and (WANT in said or not loose)):
        if not said & {KICK, REMOVE, AWAY} and not doubtful:
            return _command("restore", person)
        return None
    # removed: "potki Pekka pihalle", "poista Pekka", "Pekka pois pelistä", "kick Pekka he is afk"
    if said & {KICK, REMOVE}:
        if loose and not addressed:
            return None
        return _command("kick", person)
    if AWAY in said and said <= _AROUND | {AWAY, ADD, KICK, TAKE} and not doubtful:
        return _command("kick", person)
    return None
