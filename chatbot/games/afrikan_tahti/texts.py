"""Afrikan Tähti texts that are not a rendering of the table: the rule topics players ask about
(vocabulary.md §7: the base game, then Retkikunnat, then one topic per card and character) and why
an action is refused (the engine's reason codes -> msgids, with the way forward; the core adds the
list of what is possible now).

Order: base topics, expansion topics, card topics, :data:`ALL_TOPICS`; base reasons, expansion
reasons, :func:`reason_text` (the reasons whose text names a place, a price or a player).
"""

from __future__ import annotations

from typing import Any

from chatbot.core.gameui import RenderContext, RuleTopic
from chatbot.core.i18n import N_, Translator
from chatbot.games.afrikan_tahti import cards_generated as cards
from chatbot.games.afrikan_tahti.card_forms_generated import FI_FORMS
from chatbot.games.afrikan_tahti.names import FROM, TO, VIA, money, node_text, place
from engines.afrikan_tahti.board import PLACE_SET
from engines.afrikan_tahti.model import FLIP_PRICE, SEA_FARE

# --------------------------------------------------------------------------------------------------
# Rule topics: the base game
# --------------------------------------------------------------------------------------------------

TOPICS = (
    RuleTopic(
        "afrikan_tahti.overview",
        N_(
            "Find the Star of Africa and bring it to Tangier or Cairo; the first to arrive wins. A horseshoe turned up after the Star has been found works in its place."
        ),
        ("tavoite", "voittaa", "goal", "aim", "overview"),
        N_("goal"),
    ),
    RuleTopic(
        "afrikan_tahti.turn.base",
        N_(
            "On your turn choose one: move by land, sea or air, try to flip a token by rolling, or stay. If you stop on a token, you may pay 100 pounds to flip it."
        ),
        ("vuoro", "turn", "siirto", "pysyä", "stay"),
        N_("the turn"),
    ),
    RuleTopic(
        "afrikan_tahti.setup",
        N_(
            "Everyone gets 300 pounds and starts in Tangier or Cairo. Treasure tokens go face down on the cities, one on each, or two stacked with the expansion."
        ),
        ("alku", "aloitus", "lähtö", "raha", "setup", "start", "money", "aloituspaikka"),
        N_("setup"),
    ),
    RuleTopic(
        "afrikan_tahti.move.land",
        N_(
            "Roll and move up to that many steps along land routes. You can stop early in a city, but on a route dot only with the exact count. You cannot turn back during a move."
        ),
        (
            "liikkua",
            "kävellä",
            "maa",
            "maareitti",
            "askel",
            "piste",
            "land",
            "walk",
            "walking",
            "step",
            "dot",
            "move",
            "moving",
        ),
        N_("moving on land"),
    ),
    RuleTopic(
        "afrikan_tahti.move.sea",
        N_(
            "From a port you can board a ship for 100 pounds. It moves the rolled number of steps toward the port you chose, and an unfinished voyage continues on later turns without a new fare."
        ),
        (
            "laiva",
            "meri",
            "purjehtia",
            "purjehdus",
            "satama",
            "merimatka",
            "sea",
            "ship",
            "sail",
            "sailing",
            "port",
            "voyage",
        ),
        N_("sailing"),
    ),
    RuleTopic(
        "afrikan_tahti.move.sea_broke",
        N_(
            "If you can't afford a ticket, you may still sail from a port for free. The ship then moves two steps per turn without a roll until it arrives."
        ),
        ("ilmainen", "ilmaismatka", "ilmaiseksi", "free passage", "free", "broke", "köyhä", "rahaton"),
        N_("free passage"),
    ),
    RuleTopic(
        "afrikan_tahti.move.land_sea",
        N_(
            "During a land move you may pay the fare at a port and continue the remaining steps at sea. Likewise, a ship that reaches its port may use leftover steps on land."
        ),
        ("maa ja meri", "land and sea", "jäljellä", "leftover", "vaihtaa"),
        N_("land and sea in one move"),
    ),
    RuleTopic(
        "afrikan_tahti.move.air",
        N_(
            "From an airport you can fly one air route to the next airport for 300 pounds. The flight is your whole move for the turn, with no roll."
        ),
        (
            "lentää",
            "lento",
            "lentäminen",
            "lentokone",
            "lentokenttä",
            "fly",
            "flying",
            "flight",
            "plane",
            "airport",
            "air",
        ),
        N_("flying"),
    ),
    RuleTopic(
        "afrikan_tahti.dice",
        N_(
            "The ordinary die is used for movement and flip attempts. The expansion's five danger dice are used in danger situations and duels."
        ),
        ("noppa", "heittää", "heitto", "die", "dice", "roll"),
        N_("the die"),
    ),
    RuleTopic(
        "afrikan_tahti.tokens.flip",
        N_(
            "Flipping a token costs 100 pounds, or you may roll: 4, 5 or 6 flips it. Only one token per turn, and with the expansion the roll is allowed only when you can't pay."
        ),
        ("kääntää", "kiekko", "merkki", "kääntö", "flip", "flipping", "token"),
        N_("flipping tokens"),
    ),
    RuleTopic(
        "afrikan_tahti.tokens.values",
        N_(
            "A ruby is worth 1000, an emerald 600 and a topaz 300 pounds. A robber takes all your money, and a blank does nothing."
        ),
        (
            "rubiini",
            "smaragdi",
            "topaasi",
            "jalokivi",
            "rosvo",
            "tyhjä",
            "arvo",
            "ruby",
            "emerald",
            "topaz",
            "gem",
            "robber",
            "blank",
            "value",
        ),
        N_("token values"),
    ),
    RuleTopic(
        "afrikan_tahti.tokens.horseshoe",
        N_(
            "A horseshoe is worthless while the Star is still hidden. One flipped after the Star was found wins the game just like the Star."
        ),
        ("hevosenkenkä", "horseshoe"),
        N_("horseshoes"),
    ),
    RuleTopic(
        "afrikan_tahti.place.gold_coast",
        N_("A gem found on the Gold Coast is worth double."),
        ("kultarannikko", "gold coast", "tupla", "double"),
        N_("the Gold Coast"),
    ),
    RuleTopic(
        "afrikan_tahti.place.slave_coast",
        N_(
            "If a blank turns up on the Slave Coast, you lose your next three turns. With the expansion, a robber or danger token does this instead."
        ),
        ("orjarannikko", "slave coast", "menettää", "lose turns"),
        N_("the Slave Coast"),
    ),
    RuleTopic(
        "afrikan_tahti.place.capetown",
        N_("The first player to reach Capetown gets 500 pounds from the bank."),
        ("kapkaupunki", "capetown", "cape town", "palkkio", "bonus"),
        N_("the Capetown bonus"),
    ),
    RuleTopic(
        "afrikan_tahti.hazard",
        N_(
            "The Sahara bedouins and the St. Helena pirates capture a pawn whose move ends on their dot. You go free when you roll a 1 or 2 on your turn."
        ),
        (
            "beduiini",
            "merirosvo",
            "vanki",
            "vangita",
            "vapautua",
            "bedouins",
            "pirates",
            "captured",
            "capture",
            "hazard",
        ),
        N_("bedouins and pirates"),
    ),
    RuleTopic(
        "afrikan_tahti.win",
        N_(
            "You win the moment you bring the Star of Africa, or a horseshoe found after it, to Tangier or Cairo. Either city will do."
        ),
        ("voitto", "voittaa", "tähti", "maali", "win", "winning", "star", "goal"),
        N_("winning"),
    ),
)

# --------------------------------------------------------------------------------------------------
# Rule topics: Retkikunnat (the expansion)
# --------------------------------------------------------------------------------------------------

EXPANSION_TOPICS = (
    RuleTopic(
        "afrikan_tahti.exp.overview",
        N_(
            "In the Expeditions expansion you first assemble an expedition from cards, and only then can you search the lower tokens for the Star. Event cards, danger situations and duels between players join the game."
        ),
        ("retkikunnat", "laajennus", "expansion", "expeditions", "retkikunta peli"),
        N_("the Expeditions expansion"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.layers",
        N_(
            "Every city holds two stacked tokens: an equipment token on top and a discovery token below. The Star is always in the lower layer."
        ),
        (
            "kerros",
            "kerrokset",
            "alempi",
            "ylempi",
            "varustelukiekko",
            "löytöretkikiekko",
            "layer",
            "layers",
            "lower token",
            "upper token",
        ),
        N_("token layers"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.expedition",
        N_(
            "Your expedition is complete when your cards show at least three of each attribute: action, resources and travel. With five or six players, two of each is enough."
        ),
        ("retkikunta", "koossa", "ominaisuus", "symboli", "expedition", "complete", "attribute", "symbols"),
        N_("a complete expedition"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.either_or",
        N_(
            "A card with a separator between its symbols gives only one of them. The bot always counts the one that helps you."
        ),
        ("välisymboli", "joko", "either", "separator", "tai-kortti"),
        N_("either-or symbols"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.discovery_flip",
        N_(
            "You may flip a lower token once your expedition is complete and the token above it is gone. It then costs 100 pounds, or a roll of 4–6."
        ),
        ("alempi kiekko", "löytöretkikiekko", "discovery", "lower token", "kääntää alempi"),
        N_("flipping lower tokens"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.early_flip",
        N_(
            "Once every equipment token has been flipped, you may flip lower tokens even with an incomplete expedition. It costs 200 pounds; if you can't pay, you need a 5 or 6."
        ),
        ("vajaa", "vajaalla", "early flip", "incomplete expedition", "200 puntaa"),
        N_("early flips"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.turn",
        N_(
            "A turn has three parts: movement, then using and selling expedition cards, and finally one action: flipping a token, a duel or a trade. Before rolling, say whether you move, fly or stay."
        ),
        ("vuoro", "vaihe", "vaiheet", "kolme osaa", "phase", "phases", "turn"),
        N_("the expansion turn"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.events",
        N_(
            "Every time you pass through or stop in a city, you draw an event card and resolve it before moving on. No card is drawn for the city you leave, or when you arrive at a goal to win."
        ),
        ("tapahtumakortti", "tapahtuma", "event card", "event cards", "events"),
        N_("event cards"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.event_moves",
        N_(
            "A move made by an event card or a hand card draws no new event cards. Moving by die, by air or with an expedition card does."
        ),
        ("tapahtumakortilla", "siirto kortilla", "event move", "card move"),
        N_("moves by cards"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.hand_cards",
        N_(
            "Black-and-white event cards are hand cards: keep them secret and play them when the moment is right. You may hold at most four; when you get a fifth, you discard one at once."
        ),
        ("käsikortti", "käsikortit", "käsi", "hand card", "hand cards", "hand"),
        N_("hand cards"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.expedition_cards",
        N_(
            "There are four types of expedition cards: equipment, vehicles, allies and skills. They lie face up for all to see, and you may have at most seven."
        ),
        (
            "retkikuntakortti",
            "retkikuntakortit",
            "varuste",
            "kulkuneuvo",
            "liittolainen",
            "taito",
            "expedition card",
            "expedition cards",
            "equipment",
            "vehicle",
            "ally",
            "skill",
        ),
        N_("expedition cards"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.card_use",
        N_(
            'Each expedition card can be used once per round, and every use is announced to all. If a card says "or", you may use only one of its abilities per round.'
        ),
        ("käyttää", "käyttö", "kortin käyttö", "use", "using cards", "once per round"),
        N_("using cards"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.selling",
        N_(
            "On your turn you can sell equipment and vehicles: the bank pays 100 pounds per symbol plus any bonus printed on the card. Allies and skills earn nothing, except Hunter (200 pounds)."
        ),
        ("myydä", "myynti", "myyminen", "sell", "selling", "sale"),
        N_("selling cards"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.card_limit",
        N_(
            "If you get an eighth expedition card, discard one at once and take its sale price. Some cards, like Full kit, raise the limit by one."
        ),
        ("korttiraja", "raja", "kahdeksas", "card limit", "limit", "eighth"),
        N_("the card limit"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.extra_steps",
        N_(
            "After moving you may use cards that give extra steps and carry on. You can't use them after flying, though hand cards may still move you."
        ),
        ("lisäaskel", "lisäaskeleet", "extra steps", "extra step"),
        N_("extra steps"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.sabotage",
        N_(
            "Sabotage destroys an opponent's expedition card the moment they use it, and the use is cancelled. A card with a lasting effect can be sabotaged on your turn whenever that effect is in use."
        ),
        ("sabotaasi", "sabotoida", "sabotage"),
        N_("sabotaging"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.gotcha",
        N_(
            "Gotcha! cancels a hand card that has just been played, even another Gotcha!. A chain is resolved from the last card back."
        ),
        ("ähäkutti", "gotcha"),
        N_("Gotcha! chains"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.response_window",
        N_(
            "When someone uses a card or plays a hand card, the others get a short moment to respond in a private message. If you don't answer in time, the bot counts it as a pass."
        ),
        ("vastausaika", "vastata", "ajoissa", "response", "window", "reaction", "timeout"),
        N_("quick answers"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.danger",
        N_(
            "In a danger situation you draw a danger card and roll the five danger dice. The dice must show the card's symbols; otherwise you suffer the penalty and your turn ends at once."
        ),
        ("vaaratilanne", "vaara", "danger", "danger situation", "danger card"),
        N_("danger situations"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.danger_dice",
        N_(
            "Each danger die shows spears, a coin, a boot, a gem, a skull and a blank face. Danger cards ask for spears, coins, boots or gems."
        ),
        ("vaaranoppa", "vaaranopat", "danger dice", "danger die", "pääkallo", "skull"),
        N_("danger dice"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.rerolls",
        N_(
            "Some expedition cards let you reroll one or more danger dice. You can use several cards one after another and pick the dice each time."
        ),
        ("uudelleenheitto", "heittää uudelleen", "reroll", "rerolls"),
        N_("rerolls"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.tokens",
        N_(
            "A backpack token gives you the top expedition card. A mask token or an unlucky event card puts you in a danger situation."
        ),
        ("reppu", "naamari", "reppukiekko", "naamarikiekko", "backpack", "mask"),
        N_("backpacks and masks"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.duel",
        N_(
            "When you share a spot with another player, you can challenge them to a duel and try to take the Star, a horseshoe, an expedition card, or 200, 400 or 600 pounds. Skills cannot be stolen."
        ),
        ("yhteenotto", "haastaa", "ryöstää", "duel", "challenge", "rob"),
        N_("duels"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.duel_roll",
        N_(
            "The defender rolls the five danger dice first, and his most frequent symbol sets the target. The attacker must roll at least as many of that symbol to win."
        ),
        ("puolustaja", "hyökkääjä", "defender", "attacker", "duel roll"),
        N_("the duel roll"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.duel_penalties",
        N_(
            "A defender who loses hands over the prize and loses one turn. An attacker who loses misses one turn per symbol on the card, one per 200 pounds, or one for the Star or a horseshoe."
        ),
        ("häviö", "hävinnyt", "duel penalty", "lose a duel", "loser"),
        N_("losing a duel"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.duel_rescue",
        N_(
            "A third player can rescue a defender who lost by playing Ulterior motive or Favour, and then nobody loses anything. The rescue can be cancelled with Gotcha!."
        ),
        ("pelastaa", "pelastus", "rescue", "taka-ajatus", "palvelus"),
        N_("rescues"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.trade",
        N_(
            "Players on the same spot can swap expedition cards and money at any price they agree. Hand cards, skills, the Star and horseshoes cannot be traded."
        ),
        ("kauppa", "vaihtokauppa", "vaihtaa", "tarjous", "trade", "trading", "offer", "swap"),
        N_("trading"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.slave_coast",
        N_(
            "If a robber or danger token turns up on the Slave Coast, you are imprisoned on top of its effect and lose your next three turns."
        ),
        ("orjarannikko laajennus", "slave coast expansion"),
        N_("the Slave Coast (expansion)"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.rainy_season",
        N_(
            "During the rainy season every die move on land is one step shorter, but always at least one step. It ends when the event deck is reshuffled."
        ),
        ("sadekausi", "sade", "rainy season", "rain"),
        N_("the rainy season"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.lost_turns",
        N_(
            "Lost turns are skipped one at a time. Meanwhile you can still defend in duels and play response cards."
        ),
        ("menetetty vuoro", "menetetyt vuorot", "lost turn", "lost turns", "skip turn"),
        N_("lost turns"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.impossible",
        N_(
            "If you can't suffer a penalty in full, you suffer as much of it as you can. With nothing to lose, you get off free."
        ),
        ("rangaistus", "penalty", "impossible penalty"),
        N_("penalties you can't pay"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.random_loss",
        N_(
            "When a card is lost at random, the bot picks it by lot from all eligible cards. No money is paid for it."
        ),
        ("sattumanvarainen", "arpoa", "random loss", "at random"),
        N_("losing cards at random"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.decks",
        N_(
            "When a deck runs out, its discard pile is shuffled into a new deck. Discard piles are open for everyone to see."
        ),
        ("pakka", "poistopakka", "sekoittaa", "deck", "decks", "discard pile", "reshuffle"),
        N_("decks and discard piles"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.moving_tokens",
        N_("When tokens are moved on the board, stacked tokens always move as a pair."),
        ("siirtää kiekko", "kiekkojen siirto", "moving tokens", "move tokens"),
        N_("moving tokens"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.card_moves",
        N_(
            "Shortcut takes you along a land route to the first city in the direction you choose. With the Seaplane, 200 pounds takes you a whole sea leg from one port to the next in one go."
        ),
        ("oikotie", "vesitaso", "shortcut", "seaplane"),
        N_("Shortcut and Seaplane"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.five_six",
        N_(
            "With five or six players, two of each symbol completes an expedition. You may also spend your whole turn rolling the danger dice: two gems earn you a new expedition card."
        ),
        ("viisi pelaajaa", "kuusi pelaajaa", "jalokiviheitto", "five players", "six players", "gem roll"),
        N_("five and six players"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.quick_game",
        N_(
            "In the quick game only the lower tokens are used, and everyone starts with 400 pounds and two extra expedition cards. The five-and-six-player rules apply."
        ),
        ("pikapeli", "nopea peli", "quick game", "quick"),
        N_("the quick game"),
    ),
    RuleTopic(
        "afrikan_tahti.exp.characters",
        N_(
            "Each character has their own starting cards and a special ability. A character ability cannot be sabotaged, stolen or lost."
        ),
        ("hahmo", "hahmot", "erikoiskyky", "character", "characters", "ability"),
        N_("characters"),
    ),
    RuleTopic(
        "afrikan_tahti.info.private",
        N_(
            "Only you see your hand cards and the tokens you have peeked at, in your private chat. The group sees only how many hand cards each player holds."
        ),
        ("yksityinen", "salainen", "näkyvyys", "private", "secret", "hidden"),
        N_("what is private"),
    ),
)


def _card_topics() -> tuple[RuleTopic, ...]:
    """One topic per card and character: the card's text, found by its name in either language and
    in every Finnish case form players type (vocabulary.md §4)."""
    out = []
    for group, table in (
        ("character", cards.CHARACTERS),
        ("expedition", cards.EXPEDITION_CARDS),
        ("event", cards.EVENT_CARDS),
        ("danger", cards.DANGER_CARDS),
    ):
        for ident, (name, text) in table.items():
            words = {
                name.casefold().rstrip("!"),
                ident.replace("_", " "),
                *(f.casefold() for f in FI_FORMS.get(ident, ())),
            }
            out.append(RuleTopic(f"afrikan_tahti.{group}.{ident}", text, tuple(sorted(words)), name))
    return tuple(out)


ALL_TOPICS = (*TOPICS, *EXPANSION_TOPICS, *_card_topics())

# --------------------------------------------------------------------------------------------------
# Why an action is refused: the base game
# --------------------------------------------------------------------------------------------------

REASONS = {
    "game_over": N_("The game is already over. Write “new afrikan tähti” to play again."),
    "no_such_seat": N_("You are not playing in this game."),
    "unknown_action": N_("I don't know that move in Afrikan Tähti."),
    "bad_action": N_("I don't know that move in Afrikan Tähti."),
    "not_a_start": N_("You can start only in Tangier or Cairo."),
    "free_passage": N_(
        "You are on a free passage: the ship moves two steps a turn without a roll. Choose to sail on, or stay."
    ),
    "not_a_place": N_(
        "You can end a move early only on a place, not on a route dot. Choose one of the destinations."
    ),
    "land_not_allowed": N_("After this voyage you cannot go on by land in the same move."),
    "not_on_path": N_("No route there goes via that place. Choose one of the routes offered."),
    "via_not_needed": N_("Every route there goes that way anyway: just choose the destination."),
    "not_a_port": N_("There is no harbour here: ships leave only from ports."),
    "no_steps_left": N_("You have no steps left for a voyage."),
    "cannot_board_here": N_("You cannot board a ship at this point of the move."),
    "at_sea": N_("You are at sea: sail on or stay until the ship reaches a port."),
    "paid_voyage": N_("Your voyage is paid for: roll the die to sail on."),
    "not_an_airport": N_("There is no airport here. Flights leave only from airports."),
    "no_token": N_("There is no face-down token here."),
    "already_flipped": N_("You have already flipped a token this turn."),
}

# --------------------------------------------------------------------------------------------------
# Why an action is refused: Retkikunnat
# --------------------------------------------------------------------------------------------------

EXPANSION_REASONS = {
    "not_asked": N_("Nobody is asking you right now. Wait for your turn or a prompt."),
    "wrong_prompt": N_("That is not an answer to the question on the table now."),
    "wrong_stage": N_("That does not fit this stage. Look at the buttons for what comes next."),
    "character_taken": N_("Someone already took that character. Choose another one."),
    "expedition_incomplete": N_(
        "This token lies on the discovery layer: you may flip it only once your expedition is complete "
        "(three of each symbol; two in the quick game and with five or six players). Collect symbols "
        "first, or flip an equipment token elsewhere."
    ),
    "flip_in_phase3": N_(
        "With Retkikunnat a token is flipped at the end of the turn, after your move and your cards: "
        "first move or stay."
    ),
    "action_taken": N_(
        "You have already taken this turn's action (a flip, a duel or a trade). End the turn."
    ),
    "card_not_usable": N_("That card cannot be used like that. Look at the buttons for what it can do now."),
    "card_used": N_("That card has already been used this round."),
    "cannot_use_now": N_("That card cannot be used at this moment."),
    "cannot_play_now": N_("That hand card cannot be played at this moment; keep it for later."),
    "not_in_hand": N_("You don't have that card in your hand."),
    "not_an_answer": N_("That card does not answer this; play a card that fits, or pass."),
    "not_exposed": N_("That card's lasting effect is not in use now, so it cannot be sabotaged."),
    "not_an_opponent": N_("Choose another player, not yourself."),
    "no_extra_steps": N_("You have no extra steps to use now."),
    "not_a_low_roll": N_("That works only after a low roll."),
    "no_movement": N_("There is no move to change now."),
    "not_at_sea": N_("That works only at sea."),
    "not_sellable": N_("Allies and skills cannot be sold; you can discard them instead."),
    "sell_it": N_("Sell that card instead of discarding it: the bank pays for it."),
    "not_passive": N_("Only cards that work by themselves can be held or released."),
    "already_held": N_("That card is already held."),
    "not_held": N_("That card is not held."),
    "no_such_card": N_("There is no such card here. Name one of the cards on the table."),
    "no_such_target": N_("That player has no such thing to take. Choose another target."),
    "not_here": N_("That player is not on the same spot as you."),
    "not_tradeable": N_("Hand cards, skills, the Star and horseshoes cannot be traded."),
    "not_enough_money": N_("There is not enough money for that."),
    "empty_offer": N_("An offer must give or ask for something."),
    "too_many_offers": N_("You have made all the offers you may make this turn."),
    "offer_too_long": N_("That offer is too long; offer fewer things at once."),
    "too_many_dice": N_("That card rerolls fewer dice. Choose fewer dice."),
    "not_after_roll": N_("That is possible only before the roll."),
    "already_adjusted": N_("You have already adjusted this move."),
    "not_your_ability": N_("That is another character's ability."),
    "ability_used": N_("You have already used that ability this round."),
    "wrong_layer": N_("That token is in the wrong layer for this."),
    "discard_empty": N_("The discard pile is empty."),
    "no_gem_roll": N_("The gem roll is only for games of five or six players, or the quick game."),
    "no_lost_turns": N_("You have no lost turns to cancel."),
    "not_a_target": N_("That cannot be targeted."),
    "not_an_option": N_("That is not one of the options. Choose one of the buttons."),
    "must_choose": N_("You have to choose one of the options."),
    "bad_argument": N_("I did not get the details of that move. Try the buttons."),
    "play_in_private": N_("Play hand cards in our private chat, so that nobody sees your hand."),
    "ask_in_private": N_(
        "Tell me in our private chat whether to ask you in reaction windows, so that the others don't see it."
    ),
}

#: why a card left a seat's expedition; nothing reads these yet, they keep their translated
#: catalog entries for the card-limit texts
SELL_REASONS = {"sell": None, "limit": N_("over the card limit"), "discard": N_("discarded")}


def reason_text(code: str, params: dict[str, Any], ctx: RenderContext) -> str:
    """Why an action is refused, with the way forward, in the recipient's language; the texts that
    name a place, a price or a player first, then the plain msgids."""
    t = ctx.t
    match code:
        case "not_your_turn" if isinstance(params.get("turn"), int):
            return t.gettext("It is not your turn: now it is {name}'s turn.").format(
                name=ctx.name(params["turn"])
            )
        case "wrong_phase" if params.get("phase") == "declare" and ctx.options.get("expansion", True):
            # Retkikunnat flips in Phase 3, never as the declaration (spec §5.4)
            return t.gettext("First declare your move: roll the die, sail, fly or stay.")
        case "wrong_phase":
            return _wrong_phase(str(params.get("phase", "")), t)
        case "not_reachable" if params.get("to"):
            return t.gettext("{place} is out of reach now. Choose one of the places offered.").format(
                place=place(params["to"], t) if params["to"] in PLACE_SET else node_text(params["to"], t)
            )
        case "not_reachable" if params.get("steps"):
            n = int(params["steps"])
            return t.ngettext(
                "No move of exactly {n} step fits. Choose one of the places offered.",
                "No move of exactly {n} steps fits. Choose one of the places offered.",
                n,
            ).format(n=n)
        case "not_reachable":
            return t.gettext("You cannot get there with this roll. Choose one of the places offered.")
        case "not_on_path" if params.get("via") in PLACE_SET:
            return t.gettext("This move cannot go {via}. Choose one of the routes offered.").format(
                via=place(params["via"], t, VIA)
            )
        case "no_such_leg" if params.get("port") in PLACE_SET and params.get("dest") in PLACE_SET:
            return t.gettext("No ship sails {start} {to}.").format(
                start=place(params["port"], t, FROM), to=place(params["dest"], t, TO)
            )
        case "no_such_route" if params.get("start") in PLACE_SET and params.get("to") in PLACE_SET:
            return t.gettext("There is no flight {start} {to}.").format(
                start=place(params["start"], t, FROM), to=place(params["to"], t, TO)
            )
        case "cannot_afford" if "price" in params and "cash" in params:
            return t.gettext("That costs {price} and you have {cash}.").format(
                price=money(int(params["price"]), t), cash=money(int(params["cash"]), t)
            )
        case "leg_blocked":
            return t.gettext("That ship would take you back the way you came. Choose another route.")
        case "wrong_destination" if params.get("dest") in PLACE_SET:
            return t.gettext("Your ship is bound {to}: sail on or stay.").format(
                to=place(params["dest"], t, TO)
            )
        case "can_afford_fare":
            return t.gettext(
                "You can pay the fare ({fare}), so the passage is not free: buy a ticket."
            ).format(fare=money(int(params.get("fare", SEA_FARE)), t))
        case "can_afford_flip":
            return t.gettext("You can pay for the flip ({price}), so rolling for it is not allowed.").format(
                price=money(int(params.get("price", FLIP_PRICE)), t)
            )
    if code in REASONS:
        return t.gettext(REASONS[code])
    if code in EXPANSION_REASONS:
        return t.gettext(EXPANSION_REASONS[code])
    return t.gettext("That move is not possible now.")


def _wrong_phase(phase: str, t: Translator) -> str:
    match phase:
        case "setup":
            return t.gettext("First choose where you start: Tangier or Cairo.")
        case "declare":
            return t.gettext("First declare your move: roll the die, sail, fly, flip a token or stay.")
        case "release":
            return t.gettext("You are held captive: roll the die to try to get free.")
        case "move":
            return t.gettext("You have already rolled: now choose where your pawn goes.")
        case "after_move":
            return t.gettext("Your move is done: flip the token here or end your turn.")
        case "character":
            return t.gettext("First everyone chooses a character: choose yours from the buttons.")
        case "phase2":
            return t.gettext("Now is phase 2: use or sell expedition cards, then go on.")
        case "phase3":
            return t.gettext(
                "Now is phase 3: flip a token, challenge someone to a duel or trade where this place "
                "allows it, or end the turn."
            )
    return t.gettext("That is not possible at this point of the turn.")
