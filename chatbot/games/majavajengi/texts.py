"""Majavajengi's texts for explaining: the rule topics ("miten kurkistus toimii?") and the refusal
reasons by the engine's reason code. Every text is an English msgid, translated where it is shown.
"""

from __future__ import annotations

from chatbot.core.gameui import RuleTopic
from chatbot.core.i18n import N_

TOPICS: tuple[RuleTopic, ...] = (
    RuleTopic(
        "majavajengi.goal",
        N_(
            "Score as few points as you can. At the end of every round the four cards in front of you are added up, and after the last round the lowest total wins."
        ),
        ("tavoite", "voittaa", "goal", "win"),
        N_("goal"),
    ),
    RuleTopic(
        "majavajengi.setup",
        N_(
            "Everyone gets a row of four face-down cards. You see your two outer cards (positions 1 and 4) once; after that you can only look at your own cards with a Peek. The top card of the deck is turned face up to start the discard pile."
        ),
        ("alku", "jako", "reunimmaiset", "setup", "deal"),
        N_("setup"),
    ),
    RuleTopic(
        "majavajengi.turn",
        N_(
            "On your turn, either take the top card of the discard pile or draw a new card from the draw pile. Then play passes clockwise."
        ),
        ("vuoro", "turn"),
        N_("the turn"),
    ),
    RuleTopic(
        "majavajengi.action.take_discard",
        N_(
            "You may take the top discard if it is a number card. It replaces one of your cards, which you may not look at first; the replaced card goes face up on the discard pile for everyone to see."
        ),
        ("poistopakka", "ottaa", "take", "discard pile"),
        N_("taking the discard"),
    ),
    RuleTopic(
        "majavajengi.action.draw",
        N_(
            "When you draw from the draw pile, only you see the card. A number card can replace one of your cards or be discarded; a special card can be used or discarded."
        ),
        ("nostaa", "nostopakka", "draw"),
        N_("drawing"),
    ),
    RuleTopic(
        "majavajengi.special",
        N_(
            "A special card's power works only when you draw it from the draw pile on your turn. A drawn special card can never be placed in your row, and a special card on top of the discard pile cannot be taken."
        ),
        ("erikoiskortti", "special"),
        N_("special cards"),
    ),
    RuleTopic(
        "majavajengi.special.swap",
        N_(
            "Swap: you may exchange one of your cards with any one card of an opponent. Neither card is looked at, and the others only see which positions changed. You don't have to use it."
        ),
        ("vaihto", "swap"),
        N_("Swap"),
    ),
    RuleTopic(
        "majavajengi.special.peek",
        N_(
            "Peek: look at one of your own cards in secret. The others see which position you looked at, but not the value."
        ),
        ("kurkistus", "kurkistaa", "peek"),
        N_("Peek"),
    ),
    RuleTopic(
        "majavajengi.special.draw2",
        N_(
            "Draw 2: draw a new card and handle it like a normal draw. If you discard it, you may draw one more. Keeping a drawn card or using its power ends the Draw 2, but using another Draw 2 gives you two fresh draws."
        ),
        ("nosta 2", "draw 2"),
        N_("Draw 2"),
    ),
    RuleTopic(
        "majavajengi.reshuffle",
        N_(
            "When the draw pile runs out, the whole discard pile is shuffled into a new draw pile, and its top card is turned up to start a new discard pile."
        ),
        ("pakka loppuu", "sekoitus", "reshuffle"),
        N_("reshuffling"),
    ),
    RuleTopic(
        "majavajengi.knock",
        N_(
            "When you think your cards are low enough, you may knock at the end of your own turn. Every other player then takes one more turn, and the round ends. Only one player can knock in a round."
        ),
        ("koputus", "koputtaa", "knock"),
        N_("knocking"),
    ),
    RuleTopic(
        "majavajengi.last_lap",
        N_(
            "The knocker plays no more turns this round, but the others can still swap cards with the knocker."
        ),
        ("viimeinen kierros", "last lap"),
        N_("the last lap"),
    ),
    RuleTopic(
        "majavajengi.round_end",
        N_(
            "At the end of a round all cards are turned face up. If your row holds a special card, you draw until you get a number card, which takes its place. This is done in turn order, starting with the player who began the round."
        ),
        ("kierroksen loppu", "round end"),
        N_("end of a round"),
    ),
    RuleTopic(
        "majavajengi.scoring",
        N_(
            "Your round score is the sum of the four numbers in your row, added to your total. Low is good: 0 is the best card and 9 the worst."
        ),
        ("pisteet", "score"),
        N_("scoring"),
    ),
    RuleTopic(
        "majavajengi.next_round",
        N_(
            "The player who knocked starts the next round. If rotation was chosen for this game, the first turn instead moves one player clockwise each round."
        ),
        ("seuraava kierros", "aloittaja", "next round"),
        N_("the next round"),
    ),
    RuleTopic(
        "majavajengi.game_end",
        N_(
            "The game ends after the agreed number of rounds, six by default. The lowest total wins; tied players share the place."
        ),
        ("pelin loppu", "kierrokset", "game end"),
        N_("end of the game"),
    ),
    RuleTopic(
        "majavajengi.memory",
        N_(
            "Majavajengi is a memory game: the bot shows you a card only at the moment you may see it and does not remind you later. If the memory aid is on for this game, your private view always shows every card you know."
        ),
        ("muisti", "muistiapu", "memory aid"),
        N_("memory"),
    ),
)
#: the general refusal, also for the codes that no chat input reaches: the discard pile is never empty
#: at the start of a turn, buttons and the parser name only the table's seats, and every notation
#: names an action
NOT_ALLOWED = N_("That move is not allowed now.")

#: why an action is refused, by the reason code of the engine's ``check``; ``wrong_card`` (needs its
#: parameter) and ``top_is`` (the parser's own: the text names a value that is not the top discard)
#: are written in :func:`chatbot.games.majavajengi.render.reason_text`
REASONS: dict[str, str] = {
    "discard_top_special": N_(
        "The top discard is a special card and cannot be taken. Draw from the draw pile instead."
    ),
    "special_cannot_be_placed": N_("A special card cannot go into your row. Use it or discard it."),
    "own_seat": N_("In a Swap, the other card must belong to an opponent."),
    "already_knocked": N_("Someone has already knocked this round."),
    "knock_too_early": N_("In this game you may knock only after everyone has had a turn."),
    "not_your_turn": N_("It is another player's turn."),
    "wrong_phase": N_("That is not possible at this point of the turn."),
    "bad_position": N_("Positions are numbered 1 to 4."),
    "game_over": N_("The game is already over."),
    "discard_empty": NOT_ALLOWED,
    "bad_seat": NOT_ALLOWED,
    "unknown_action": NOT_ALLOWED,
}
