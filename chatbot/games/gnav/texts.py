"""Gnav's texts: the rule topics a player can ask about (spec §9) and the refusal reasons, as msgids.

Every reason code the engine's ``check`` gives, and the few of the chat layer and the parser
(``stock_dealer_only``, ``matador_give_away``, ``next_deal_auto``, ``ask_goes_left``; see ``parser``), has
its text with the way forward (``REASONS``, or ``NAMED_REASONS`` when it names a seat);
``render.reason_text`` picks and fills them.
"""

from __future__ import annotations

from chatbot.core.gameui import RuleTopic
from chatbot.core.i18n import N_

TOPICS = (
    RuleTopic(
        "gnav.goal",
        N_(
            "Everyone starts with the same number of lives, 3 by default. In each deal, try not to be left holding the lowest card, because its holder loses a life. Run out of lives and you are out; the last player still in wins."
        ),
        ("tavoite", "voitto", "voittaa", "goal", "win", "aim"),
        N_("goal"),
    ),
    RuleTopic(
        "gnav.turn",
        N_(
            "Everyone gets one card, and turns go clockwise from the dealer's left, with the dealer last. On your turn you either keep your card or ask the player on your left to swap. A number, 0, pot, owl or fool must be handed over; a matador answers in its own way instead."
        ),
        ("vuoro", "vaihto", "vaihtaa", "pitää", "turn", "swap", "keep"),
        N_("the turn"),
    ),
    RuleTopic(
        "gnav.deck",
        N_(
            "The deck has 42 cards: 21 ranks, two of each, and no suits. From lowest to highest: fool, owl, pot, 0, I to XII, house, horse, cat, dragoon, cuckoo. The top five, house to cuckoo, are the matadors."
        ),
        (
            "järjestys",
            "arvot",
            "arvo",
            "pakka",
            "kortit",
            "pöllö",
            "kukkaruukku",
            "order",
            "deck",
            "ranks",
            "owl",
            "pot",
        ),
        N_("the deck"),
    ),
    RuleTopic(
        "gnav.matador",
        N_(
            "The matadors are the five highest cards: house, horse, cat, dragoon and cuckoo. Nobody ever has to hand one over, and they act only when someone asks their holder to swap. The bot announces each one with its traditional call."
        ),
        ("matadori", "matadorit", "huuto", "matador", "matadors", "call"),
        N_("matadors"),
    ),
    RuleTopic(
        "gnav.matador.cuckoo",
        N_(
            "The cuckoo is the highest card. If you ask its holder to swap, the call is “Stå for gjøk!” (stop, cuckoo!): the deal stops right there and all cards are turned up. You keep your own card and lose nothing for asking."
        ),
        ("käki", "gjøk", "gjok", "cuckoo"),
        N_("cuckoo"),
    ),
    RuleTopic(
        "gnav.matador.dragoon",
        N_(
            "The dragoon refuses with “Hogg av!” (chop!): the player who asked loses a life and keeps their own card. Play moves on to the player on the dragoon holder's left."
        ),
        ("rakuuna", "lohikäärme", "hogg", "dragoon", "dragon"),
        N_("dragoon"),
    ),
    RuleTopic(
        "gnav.matador.cat",
        N_(
            "The cat refuses with “Kiss!” (puss!): the player who asked loses a life, and every swap made earlier in this deal is undone, so everyone gets back the card they held before those swaps. Play moves on to the player on the cat holder's left."
        ),
        ("kissa", "kiss", "cat", "puss"),
        N_("cat"),
    ),
    RuleTopic(
        "gnav.matador.cat.traditional",
        N_(
            "Under the traditional rule the cat works exactly like the dragoon: the player who asked loses a life and keeps their card, and no swaps are undone."
        ),
        ("perinteinen kissa", "perinteinen", "traditional cat", "traditional"),
        N_("traditional cat"),
    ),
    RuleTopic(
        "gnav.matador.horse",
        N_(
            "The horse refuses with “Hest forbi!” (horse, go past!) but costs nobody anything. The request passes it by and goes to the next player on the left; if the dealer holds the horse, the request goes on to the stock."
        ),
        ("hevonen", "hest", "horse"),
        N_("horse"),
    ),
    RuleTopic(
        "gnav.matador.house",
        N_(
            "The house works like the horse: the call is “Hus forbi!” (house, go past!), and the request moves on to the next player on the left, or to the stock if the dealer holds it. It ranks just below the horse and above every number."
        ),
        ("talo", "hus", "house"),
        N_("house"),
    ),
    RuleTopic(
        "gnav.fool",
        N_(
            "The fool is the lowest card and is always shown to everyone, whoever holds it. If one fool is in play at the end of a deal, its holder loses a life and so does whoever holds the next-lowest card; if both fools are in play, only their two holders lose. A fool holder who survives sits out the next deal."
        ),
        ("narri", "fool"),
        N_("fool"),
    ),
    RuleTopic(
        "gnav.knock",
        N_(
            "Knocking shows a dealt fool. By default the bot shows every fool dealt at once and nobody "
            "knocks. With the option fool_auto_reveal=off a player dealt the fool must "
            "knock first (“knock”, “kop kop”), which shows the fool to everyone; the turns begin only when "
            "every dealt fool is shown. AI players knock at once, and the bot knocks for a person whose "
            "time runs out. A fool drawn from the stock is always shown at once."
        ),
        (
            "koputus",
            "koputtaa",
            "koputtaminen",
            "koputan",
            "kop",
            "kop kop",
            "knock",
            "knocking",
            "knock knock",
        ),
        N_("knocking"),
    ),
    RuleTopic(
        "gnav.dealer",
        N_(
            "The dealer plays last and may keep or swap with the top card of the undealt stock. A horse or house drawn is set aside and another card drawn, while a cuckoo, dragoon or cat drawn acts just as it would in a player's hand. A request that passes the dealer's horse or house also goes to the stock."
        ),
        ("jakaja", "pakka", "pakasta", "dealer", "stock", "draw"),
        N_("the dealer"),
    ),
    RuleTopic(
        "gnav.settlement",
        N_(
            "When everyone has had their turn, or a cuckoo has stopped the deal, all cards are turned up. With no fool in play, the holder of the lowest card loses a life, and if several tie for lowest, each of them loses one. With a fool in play, the fool rule applies instead."
        ),
        ("tilitys", "häviää", "hävitä", "alin", "jaon loppu", "settlement", "lose", "lowest"),
        N_("settlement"),
    ),
    RuleTopic(
        "gnav.lives",
        N_(
            "Everyone starts with the same number of lives, 3 by default. You can lose a life at the end of a deal, or mid-deal to a dragoon or cat; at zero you are out at once and take no further part. The last player left wins; if all remaining players lose their last life at the same time, the match is a draw."
        ),
        ("elämä", "elämät", "pudota", "tasapeli", "lives", "life", "draw game", "out"),
        N_("lives"),
    ),
    RuleTopic(
        "gnav.resting",
        N_(
            "A player who held a fool at the end of a deal and survived sits out the next deal: no card, no turn, no lives at stake. If resting leaves fewer than two players for a deal, that deal is skipped and nobody loses a life."
        ),
        ("lepo", "levätä", "lepää", "lepäävä", "rest", "resting", "sit out"),
        N_("resting"),
    ),
    RuleTopic(
        "gnav.info",
        N_(
            "You see your own card in a private message; everyone else's stays hidden. When you swap, you see the card you get and your partner sees yours; the others only see that a swap happened. The fool, the matador calls and the cards at the end of the deal are shown to everyone."
        ),
        ("salainen", "piilossa", "piilo", "näkyä", "nähdä", "hidden", "secret", "see"),
        N_("hidden cards"),
    ),
)
TOPIC_TEXT = {topic.key: topic.text for topic in TOPICS}

# Every reason code of the engine, of the spec's chat layer and of the parser, each with the way forward.
REASONS = {
    "unknown_action": N_("That is not a move in Gnav. On your turn, keep your card or ask for a swap."),
    "bad_action": N_("That is not a move in Gnav. On your turn, keep your card or ask for a swap."),
    "game_over": N_("The match is already over. Start a new one with “new gnav”."),
    "no_such_seat": N_(
        "There is no such player at this table. A swap is always asked from the player on your left."
    ),
    "eliminated": N_(
        "You are out of this match: your lives have run out. You can still follow the game here."
    ),
    "resting": N_(
        "You are resting this deal because you held the fool and survived. You play again in the next deal."
    ),
    "must_knock": N_("You were dealt the fool: knock first (“knock”), then the turns begin."),
    "waiting_for_knock": N_(
        "The deal waits for a player dealt the fool to knock. The turns begin right after that."
    ),
    "nothing_to_knock": N_(
        "Only a player dealt the fool knocks. On your turn, keep your card or ask for a swap."
    ),
    "stock_dealer_only": N_(
        "Only the dealer swaps with the stock. On your turn, keep your card or ask the player on your left to swap."
    ),
    "matador_give_away": N_(
        "You hold a matador, and nobody can make you hand it over. To give it away anyway, write “swap anyway”; to keep it, write “keep”."
    ),
    "next_deal_auto": N_("The next deal starts by itself when a deal ends, and it is already running."),
}
#: reasons that name a seat when the refusal knows it: code -> (parameter, text with {name}, text without)
NAMED_REASONS = {
    "not_your_turn": (
        "turn",
        N_("It is {name}’s turn now. Wait for your turn."),
        N_("It is not your turn. Wait for your turn."),
    ),
    "ask_goes_left": (
        "responder",
        N_("A swap is always asked from the next player on your left, now {name}."),
        N_("As the dealer you swap with the top card of the stock, not with a player."),
    ),
}
# Spec §9: a refusal adds the rule text that explains it.
REASON_TOPIC = {
    "not_your_turn": "gnav.turn",
    "stock_dealer_only": "gnav.dealer",
    "resting": "gnav.resting",
    "eliminated": "gnav.lives",
    "matador_give_away": "gnav.matador",
}
