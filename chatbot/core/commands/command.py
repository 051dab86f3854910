"""The result of reading a message: a :class:`Command`."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Command:
    name: str
    args: tuple[str, ...] = ()
    raw_args: str = ""
    #: the arguments as typed (case and punctuation kept), for options such as ``rounds=3``
    tokens: tuple[str, ...] = ()
    #: the game a ``new`` names (a game id of the ``games`` given to :func:`parse_command`)
    game: str | None = None
    #: how many AI players ("lisää kaksi bottia", "uus gnav 5 bottia"), None when not said
    count: int | None = None
    #: the AI level word said ("vahva", "easy"), None when not said
    level: str | None = None
    #: made only of words a game move may also use: the game's parser reads the text first
    weak: bool = False
    #: the language the text is written in ("fi", "en"), for answering a question in kind
    lang: str | None = None
    #: for ``ask``: what the question is about (``hand``, ``money``, ``score``, ``lives``,
    #: ``position``, ``turn``, ``holder``, ``learnt``); for ``unsure``: the command it might be
    topic: str = ""
    slash: bool = field(default=False, compare=False)
    #: the words of the text (normalised) that the command does not use: chat words, or numbers it
    #: does not count; the core's certainty check (:mod:`chatbot.core.certainty`) reads them
    unread: tuple[str, ...] = field(default=(), compare=False)
