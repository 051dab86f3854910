"""Coloretto Amazonas rule texts and refusal texts: the rule topics players can ask about, and one
msgid per reason code (the engine's ``check`` codes and the parser's own), each naming the way forward
(``render.reason_text`` fills them in).
"""

from __future__ import annotations

from chatbot.core.gameui import RuleTopic
from chatbot.core.i18n import N_

TOPICS = (
    RuleTopic(
        "coloretto_amazonas.goal",
        N_(
            "You are explorers in the Amazon jungle. Collect animals in your four coloured rows, one of each kind per row: the longer a row, the more it scores. The most points wins."
        ),
        ("tavoite", "voittaa", "voittaja", "goal", "win", "aim"),
        N_("goal"),
    ),
    RuleTopic(
        "coloretto_amazonas.setup",
        N_(
            "Everyone has four row cards in the order blue, purple, brown, green. Each player draws three animal cards, and the start player is chosen at random. With two players the protection card is not used."
        ),
        ("alku", "aloitus", "rivikortti", "setup", "start"),
        N_("setup"),
    ),
    RuleTopic(
        "coloretto_amazonas.turn",
        N_(
            "On your turn, either play a card into your own row or give a card to another player. Then you draw a new card and play passes clockwise."
        ),
        ("vuoro", "nostaa", "turn", "draw"),
        N_("turn"),
    ),
    RuleTopic(
        "coloretto_amazonas.action.play",
        N_(
            "Play an animal card from your hand into your row of the same colour. Rows are open for everyone to see."
        ),
        ("pelata", "pelaaminen", "pelaa", "play", "playing"),
        N_("playing a card"),
    ),
    RuleTopic(
        "coloretto_amazonas.row_capacity",
        N_(
            "A row is full when it holds one of each animal of its colour: 5 cards in blue, 4 in purple, 3 in brown and 6 in green."
        ),
        ("rivin koko", "täysi rivi", "koko", "mahtuu", "row size", "how many cards"),
        N_("row size"),
    ),
    RuleTopic(
        "coloretto_amazonas.duplicate",
        N_(
            "If an animal arrives in a row that already has one of the same kind, both cards go to the discard pile. A duplicate therefore never completes a row."
        ),
        ("sama eläin", "kaksoiskappale", "tupla", "duplicate", "same animal", "twice"),
        N_("duplicates"),
    ),
    RuleTopic(
        "coloretto_amazonas.full_row",
        N_(
            "When a row is full, its cards are at once turned face down into a finished stack in front of you, and the row starts again empty. You may collect several stacks of the same colour."
        ),
        (
            "pino",
            "valmis pakka",
            "täyttyä",
            "rivi täyttyy",
            "full row",
            "full",
            "filled",
            "stack",
            "stacks",
            "fills",
        ),
        N_("full row"),
    ),
    RuleTopic(
        "coloretto_amazonas.bonus",
        N_(
            "The first player to fill a row of a colour takes that colour's bonus card. There is only one bonus per colour."
        ),
        ("bonus", "bonuskortti", "bonukset", "bonus card"),
        N_("bonus"),
    ),
    RuleTopic(
        "coloretto_amazonas.action.give",
        N_(
            "You may instead give a card from your hand to another player. They must take it unless the same animal is already in their row of that colour."
        ),
        ("antaa", "antaminen", "anto", "lahja", "give", "giving", "gift"),
        N_("giving a card"),
    ),
    RuleTopic(
        "coloretto_amazonas.gift.accept",
        N_(
            "An accepted card goes into the row of its colour exactly as if the player had played it: it can fill the row, win a bonus, or, as a duplicate, remove both copies."
        ),
        ("hyväksyä", "ottaa vastaan", "vastaanottaa", "vastaanottaminen", "accept", "accepting"),
        N_("accepting a gift"),
    ),
    RuleTopic(
        "coloretto_amazonas.gift.refuse",
        N_(
            "If you refuse, the card is discarded and you must also discard one animal from a neighbouring row: blue's neighbour is purple, purple's are blue and brown, brown's are purple and green, and green's is brown. If the neighbouring rows are empty, you must accept."
        ),
        (
            "hylätä",
            "kieltäytyä",
            "kieltäytyminen",
            "viereinen rivi",
            "naapuririvi",
            "refuse",
            "decline",
            "refusing",
            "neighbour",
        ),
        N_("refusing a gift"),
    ),
    RuleTopic(
        "coloretto_amazonas.protection",
        N_(
            "With three or four players, whoever receives a card takes the protection card, and nobody may give them a card while they hold it. It moves on to the next player who is given a card."
        ),
        ("suojakortti", "suoja", "protection", "protection card", "protected"),
        N_("protection card"),
    ),
    RuleTopic(
        "coloretto_amazonas.protection.refuser",
        N_(
            "In this game the protection card goes to the player who last refused a card. Nobody may give them an animal that is already in their row."
        ),
        ("kieltäytyjän suoja", "kieltäytyjä", "muunnelma", "refuser protection", "refuser", "variant"),
        N_("protection (refuser variant)"),
    ),
    RuleTopic(
        "coloretto_amazonas.stacks_hidden",
        N_(
            "Finished stacks stay face down until scoring. Everyone can still see how many stacks each player has and their colours."
        ),
        (
            "pinojen katsominen",
            "katsoa pinoja",
            "piilossa",
            "katsoa",
            "kurkistaa",
            "pino",
            "hidden stacks",
            "look",
            "peek",
            "hidden",
            "stacks",
            "face down",
        ),
        N_("hidden stacks"),
    ),
    RuleTopic(
        "coloretto_amazonas.game_end",
        N_(
            "The game ends at once when someone completes their third stack (second with four players) or when the last card of the draw pile has been drawn. Cards left in hand score nothing."
        ),
        ("pelin loppu", "loppu", "päättyy", "game end", "end", "ends"),
        N_("game end"),
    ),
    RuleTopic(
        "coloretto_amazonas.scoring",
        N_(
            "Every row and every finished stack scores by its number of cards: 1 card 1 point, 2 cards 3, 3 cards 6, 4 cards 10, 5 cards 15, 6 cards 21. Bonus cards add blue 5, purple 4, brown 3 and green 6. The most points wins; tied players share the place."
        ),
        ("pisteet", "pistetaulukko", "pisteytys", "tasapeli", "score", "scoring", "points", "tie"),
        N_("scoring"),
    ),
)

# Every reason code of the engine and of the parser, each naming the way forward (spec §9).
REASONS = {
    "protected": N_(
        "{name} holds the protection card, so nobody can give them a card now. Give it to another player or play it yourself."
    ),
    "give_self": N_("You cannot give a card to yourself. Play it into your own row instead."),
    "refuse_no_duplicate": N_(
        "You may refuse only if the same animal is already in your row, so this card must be accepted."
    ),
    "refuse_no_neighbour": N_(
        "You cannot refuse, because your neighbouring rows are empty. Accept the card."
    ),
    "not_in_row": N_(
        "That animal is not in your rows. Choose an animal from the row next to the gift's colour."
    ),
    "not_your_turn": N_("It is another player's turn. Wait for your turn."),
    "gift_pending": N_("A gift is waiting for an answer first: accept it or refuse it."),
    "no_gift": N_(
        "Nobody has given you a card, so there is nothing to accept or refuse. On your turn, play a card or give one."
    ),
    "no_such_seat": N_("There is no such player. Give the card to someone at the table."),
    "game_over": N_("The game is already over. Start a new one with “new”."),
    "unknown_action": N_(
        "That is not a move in this game. Play a card or give one; when you are given a card, accept or refuse it."
    ),
    "unknown_animal": N_(
        "There is no such animal in this game. Name a card by its animal, its colour or its number in your hand."
    ),
}
