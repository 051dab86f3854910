"""Meta commands (new, join, add bots, start, leave, language, questions…) read from natural text.

A message goes through the same language pipeline as a game move (:class:`chatbot.core.nlp.Lexicon`:
Finnish base forms by Voikko or the word-form table, English stems, numerals in digits or words,
negation), so word order is free and polite or spoken forms work: "haluaisin aloittaa uuden gnavin",
"voisitko lisätä kaksi bottia", "uus gnav 5 bottia", "let's play coloretto with 2 bots", "mä lähden
pois", "vaihda kieli englanniksi". Slash commands (``/uusi``, ``/new``; Telegram allows ASCII only)
are read by their first word as before.

Three rules keep the chat and the games safe:

* A question (``?``, a question word, the clitic *-ko/-kö*) is never a command that changes
  anything: it becomes a question about one's own situation (``ask``), a ``help``/``games`` request,
  or a rule question (``rules``).
* A command made only of words that may also be a game move ("lopeta", "aloitan", "lähden",
  "uusi kortti") is ``weak``: the core lets the game's parser read it first, and uses the command
  only when the game does not understand it.
* Text not addressed to the bot must read as a command: words the command pipeline does not know
  make it chat (``None``). Addressed text with a doubtful destructive command ("lähden kauppaan")
  becomes ``unsure`` and the core asks instead of acting.

Beyond the first game (issue #27) the same mechanisms read everything else the bot offers: the
concepts of the words (Voikko or the word-form table, spoken and dialect forms the dictionary lacks,
typos of the listed words), the table's own entities (a seat's name in any case form) and the
structure around them, not lists of sentences. Inside a running game a game's words win: a command
that shares them is ``weak`` unless it is said outright ("uusiks" may be a reroll, "seuraava" a
move, "kartta" a card, but "revanssi", "näytä kartta" are certain).

The package: :mod:`~chatbot.core.commands.vocabulary` and :mod:`~chatbot.core.commands.more_words`
(the words), :mod:`~chatbot.core.commands.game_names` (game names and options in words),
:mod:`~chatbot.core.commands.said` (what a message says: concepts, unknown words, people named),
:mod:`~chatbot.core.commands.read` (:func:`parse_command` and the lobby's commands),
:mod:`~chatbot.core.commands.seats` (remove, to an AI, back, hand over, take a seat),
:mod:`~chatbot.core.commands.lobby_words` (the fill question's answers, the pace and options in
words), :mod:`~chatbot.core.commands.after` (rematch, statistics, history, replays and their steps)
and :mod:`~chatbot.core.commands.asking` (questions); this module re-exports the parser's API.
"""

from chatbot.core.commands.command import Command
from chatbot.core.commands.game_names import find_game, option_phrases
from chatbot.core.commands.read import UNSEEN, _lexicon, game_in, parse_command
from chatbot.core.commands.vocabulary import (
    _VOCABULARY,
    ADD,
    AWAY,
    BACK,
    BE,
    BOT,
    CANCEL,
    DO,
    EN,
    END,
    FI,
    GAME,
    GAMES,
    HAND,
    HELP,
    HISTORY,
    JOIN,
    LANG,
    LEARNT,
    LEAVE,
    LEVELS,
    LIVES,
    MAP,
    MONEY,
    NEW,
    OPTIONS,
    PLAY,
    PLAYER,
    REMATCH,
    REMOVE,
    REPLAY,
    RULES,
    SCORE,
    SHOW,
    START,
    STATS,
    STATUS,
    SWITCH,
    TURN,
    WANT,
    WHERE,
    WHO_HAS,
    WHY,
)

__all__ = [
    "ADD",
    "AWAY",
    "BACK",
    "BE",
    "BOT",
    "CANCEL",
    "DO",
    "EN",
    "END",
    "FI",
    "GAME",
    "GAMES",
    "HAND",
    "HELP",
    "HISTORY",
    "JOIN",
    "LANG",
    "LEARNT",
    "LEAVE",
    "LEVELS",
    "LIVES",
    "MAP",
    "MONEY",
    "NEW",
    "OPTIONS",
    "PLAY",
    "PLAYER",
    "REMATCH",
    "REMOVE",
    "REPLAY",
    "RULES",
    "SCORE",
    "SHOW",
    "START",
    "STATS",
    "STATUS",
    "SWITCH",
    "TURN",
    "UNSEEN",
    "WANT",
    "WHERE",
    "WHO_HAS",
    "WHY",
    "_VOCABULARY",
    "Command",
    "_lexicon",
    "find_game",
    "game_in",
    "option_phrases",
    "parse_command",
]
