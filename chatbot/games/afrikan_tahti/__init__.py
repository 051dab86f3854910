"""Afrikan Tähti in chat: names, rule texts, renderers, buttons and the parser entry point.

Everything on the table is public in the base game except the face-down tokens, which leave the
engine only once flipped, so the group sees every action and gets the buttons too. Renderers take
views only and read fields with defaults, so that the phases, fields and events the Retkikunnat
expansion adds render as a plain generic line instead of breaking the table.

Place names are translated as whole phrases ("to Cairo" -> "Kairoon", "in Cairo" -> "Kairossa"):
Finnish case forms come from the catalog (vocabulary.md §3), never from gluing endings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chatbot.core.i18n import N_, Translator
from chatbot.core.parsing import ParseContext, ParseResult
from chatbot.core.ports import GameUI, RenderContext, RuleTopic
from chatbot.games.afrikan_tahti import cards_generated as cards
from chatbot.games.afrikan_tahti import parser
from chatbot.games.afrikan_tahti.parser import ahead, chosen_path, dot_ends, is_base, move_paths
from engines.afrikan_tahti import ENGINE, xdata
from engines.afrikan_tahti.ai import idle_action
from engines.afrikan_tahti.board import HAZARDS, LEGS, PLACE_SET, SEA_DOTS, node_of
from engines.afrikan_tahti.model import AIR_FARE, FLIP_PRICE, SEA_FARE
from engines.afrikan_tahti.xmodel import seat_of
from engines.codec import BadNotation
from engines.contract import Event

# --------------------------------------------------------------------------------------------------
# Rule topics (vocabulary.md §7, base game)
# --------------------------------------------------------------------------------------------------

TOPICS = (
    RuleTopic("afrikan_tahti.overview", N_("Find the Star of Africa and bring it to Tangier or Cairo; the first to arrive wins. A horseshoe turned up after the Star has been found works in its place."),
              ("tavoite", "voittaa", "goal", "aim", "overview"), N_("goal")),
    RuleTopic("afrikan_tahti.turn.base", N_("On your turn choose one: move by land, sea or air, try to flip a token by rolling, or stay. If you stop on a token, you may pay 100 pounds to flip it."),
              ("vuoro", "turn", "siirto", "pysyä", "stay"), N_("the turn")),
    RuleTopic("afrikan_tahti.setup", N_("Everyone gets 300 pounds and starts in Tangier or Cairo. Treasure tokens go face down on the cities, one on each, or two stacked with the expansion."),
              ("alku", "aloitus", "lähtö", "raha", "setup", "start", "money", "aloituspaikka"), N_("setup")),
    RuleTopic("afrikan_tahti.move.land", N_("Roll and move up to that many steps along land routes. You can stop early in a city, but on a route dot only with the exact count. You cannot turn back during a move."),
              ("liikkua", "kävellä", "maa", "maareitti", "askel", "piste", "land", "walk", "walking", "step", "dot", "move", "moving"), N_("moving on land")),
    RuleTopic("afrikan_tahti.move.sea", N_("From a port you can board a ship for 100 pounds. It moves the rolled number of steps toward the port you chose, and an unfinished voyage continues on later turns without a new fare."),
              ("laiva", "meri", "purjehtia", "purjehdus", "satama", "merimatka", "sea", "ship", "sail", "sailing", "port", "voyage"), N_("sailing")),
    RuleTopic("afrikan_tahti.move.sea_broke", N_("If you can't afford a ticket, you may still sail from a port for free. The ship then moves two steps per turn without a roll until it arrives."),
              ("ilmainen", "ilmaismatka", "ilmaiseksi", "free passage", "free", "broke", "köyhä", "rahaton"), N_("free passage")),
    RuleTopic("afrikan_tahti.move.land_sea", N_("During a land move you may pay the fare at a port and continue the remaining steps at sea. Likewise, a ship that reaches its port may use leftover steps on land."),
              ("maa ja meri", "land and sea", "jäljellä", "leftover", "vaihtaa"), N_("land and sea in one move")),
    RuleTopic("afrikan_tahti.move.air", N_("From an airport you can fly one air route to the next airport for 300 pounds. The flight is your whole move for the turn, with no roll."),
              ("lentää", "lento", "lentäminen", "lentokone", "lentokenttä", "fly", "flying", "flight", "plane", "airport", "air"), N_("flying")),
    RuleTopic("afrikan_tahti.dice", N_("The ordinary die is used for movement and flip attempts. The expansion's five danger dice are used in danger situations and duels."),
              ("noppa", "heittää", "heitto", "die", "dice", "roll"), N_("the die")),
    RuleTopic("afrikan_tahti.tokens.flip", N_("Flipping a token costs 100 pounds, or you may roll: 4, 5 or 6 flips it. Only one token per turn, and with the expansion the roll is allowed only when you can't pay."),
              ("kääntää", "kiekko", "merkki", "kääntö", "flip", "flipping", "token"), N_("flipping tokens")),
    RuleTopic("afrikan_tahti.tokens.values", N_("A ruby is worth 1000, an emerald 600 and a topaz 300 pounds. A robber takes all your money, and a blank does nothing."),
              ("rubiini", "smaragdi", "topaasi", "jalokivi", "rosvo", "tyhjä", "arvo", "ruby", "emerald", "topaz", "gem", "robber", "blank", "value"), N_("token values")),
    RuleTopic("afrikan_tahti.tokens.horseshoe", N_("A horseshoe is worthless while the Star is still hidden. One flipped after the Star was found wins the game just like the Star."),
              ("hevosenkenkä", "horseshoe"), N_("horseshoes")),
    RuleTopic("afrikan_tahti.place.gold_coast", N_("A gem found on the Gold Coast is worth double."),
              ("kultarannikko", "gold coast", "tupla", "double"), N_("the Gold Coast")),
    RuleTopic("afrikan_tahti.place.slave_coast", N_("If a blank turns up on the Slave Coast, you lose your next three turns. With the expansion, a robber or danger token does this instead."),
              ("orjarannikko", "slave coast", "menettää", "lose turns"), N_("the Slave Coast")),
    RuleTopic("afrikan_tahti.place.capetown", N_("The first player to reach Capetown gets 500 pounds from the bank."),
              ("kapkaupunki", "capetown", "cape town", "palkkio", "bonus"), N_("the Capetown bonus")),
    RuleTopic("afrikan_tahti.hazard", N_("The Sahara bedouins and the St. Helena pirates capture a pawn whose move ends on their dot. You go free when you roll a 1 or 2 on your turn."),
              ("beduiini", "merirosvo", "vanki", "vangita", "vapautua", "bedouins", "pirates", "captured", "capture", "hazard"), N_("bedouins and pirates")),
    RuleTopic("afrikan_tahti.win", N_("You win the moment you bring the Star of Africa, or a horseshoe found after it, to Tangier or Cairo. Either city will do."),
              ("voitto", "voittaa", "tähti", "maali", "win", "winning", "star", "goal"), N_("winning")),
)

X_TOPICS = (
    RuleTopic("afrikan_tahti.exp.overview", N_("In the Expeditions expansion you first assemble an expedition from cards, and only then can you search the lower tokens for the Star. Event cards, danger situations and duels between players join the game."),
              ("retkikunnat", "laajennus", "expansion", "expeditions", "retkikunta peli"), N_("the Expeditions expansion")),
    RuleTopic("afrikan_tahti.exp.layers", N_("Every city holds two stacked tokens: an equipment token on top and a discovery token below. The Star is always in the lower layer."),
              ("kerros", "kerrokset", "alempi", "ylempi", "varustelukiekko", "löytöretkikiekko", "layer", "layers", "lower token", "upper token"), N_("token layers")),
    RuleTopic("afrikan_tahti.exp.expedition", N_("Your expedition is complete when your cards show at least three of each attribute: action, resources and travel. With five or six players, two of each is enough."),
              ("retkikunta", "koossa", "ominaisuus", "symboli", "expedition", "complete", "attribute", "symbols"), N_("a complete expedition")),
    RuleTopic("afrikan_tahti.exp.either_or", N_("A card with a separator between its symbols gives only one of them. The bot always counts the one that helps you."),
              ("välisymboli", "joko", "either", "separator", "tai-kortti"), N_("either-or symbols")),
    RuleTopic("afrikan_tahti.exp.discovery_flip", N_("You may flip a lower token once your expedition is complete and the token above it is gone. It then costs 100 pounds, or a roll of 4–6."),
              ("alempi kiekko", "löytöretkikiekko", "discovery", "lower token", "kääntää alempi"), N_("flipping lower tokens")),
    RuleTopic("afrikan_tahti.exp.early_flip", N_("Once every equipment token has been flipped, you may flip lower tokens even with an incomplete expedition. It costs 200 pounds; if you can't pay, you need a 5 or 6."),
              ("vajaa", "vajaalla", "early flip", "incomplete expedition", "200 puntaa"), N_("early flips")),
    RuleTopic("afrikan_tahti.exp.turn", N_("A turn has three parts: movement, then using and selling expedition cards, and finally one action: flipping a token, a duel or a trade. Before rolling, say whether you move, fly or stay."),
              ("vuoro", "vaihe", "vaiheet", "kolme osaa", "phase", "phases", "turn"), N_("the expansion turn")),
    RuleTopic("afrikan_tahti.exp.events", N_("Every time you pass through or stop in a city, you draw an event card and resolve it before moving on. No card is drawn for the city you leave, or when you arrive at a goal to win."),
              ("tapahtumakortti", "tapahtuma", "event card", "event cards", "events"), N_("event cards")),
    RuleTopic("afrikan_tahti.exp.event_moves", N_("A move made by an event card or a hand card draws no new event cards. Moving by die, by air or with an expedition card does."),
              ("tapahtumakortilla", "siirto kortilla", "event move", "card move"), N_("moves by cards")),
    RuleTopic("afrikan_tahti.exp.hand_cards", N_("Black-and-white event cards are hand cards: keep them secret and play them when the moment is right. You may hold at most four; when you get a fifth, you discard one at once."),
              ("käsikortti", "käsikortit", "käsi", "hand card", "hand cards", "hand"), N_("hand cards")),
    RuleTopic("afrikan_tahti.exp.expedition_cards", N_("There are four types of expedition cards: equipment, vehicles, allies and skills. They lie face up for all to see, and you may have at most seven."),
              ("retkikuntakortti", "retkikuntakortit", "varuste", "kulkuneuvo", "liittolainen", "taito", "expedition card", "expedition cards", "equipment", "vehicle", "ally", "skill"), N_("expedition cards")),
    RuleTopic("afrikan_tahti.exp.card_use", N_("Each expedition card can be used once per round, and every use is announced to all. If a card says \"or\", you may use only one of its abilities per round."),
              ("käyttää", "käyttö", "kortin käyttö", "use", "using cards", "once per round"), N_("using cards")),
    RuleTopic("afrikan_tahti.exp.selling", N_("On your turn you can sell equipment and vehicles: the bank pays 100 pounds per symbol plus any bonus printed on the card. Allies and skills earn nothing, except Hunter (200 pounds)."),
              ("myydä", "myynti", "myyminen", "sell", "selling", "sale"), N_("selling cards")),
    RuleTopic("afrikan_tahti.exp.card_limit", N_("If you get an eighth expedition card, discard one at once and take its sale price. Some cards, like Full kit, raise the limit by one."),
              ("korttiraja", "raja", "kahdeksas", "card limit", "limit", "eighth"), N_("the card limit")),
    RuleTopic("afrikan_tahti.exp.extra_steps", N_("After moving you may use cards that give extra steps and carry on. You can't use them after flying, though hand cards may still move you."),
              ("lisäaskel", "lisäaskeleet", "extra steps", "extra step"), N_("extra steps")),
    RuleTopic("afrikan_tahti.exp.sabotage", N_("Sabotage destroys an opponent's expedition card the moment they use it, and the use is cancelled. A card with a lasting effect can be sabotaged on your turn whenever that effect is in use."),
              ("sabotaasi", "sabotoida", "sabotage"), N_("Sabotage")),
    RuleTopic("afrikan_tahti.exp.gotcha", N_("Gotcha! cancels a hand card that has just been played, even another Gotcha!. A chain is resolved from the last card back."),
              ("ähäkutti", "gotcha"), N_("Gotcha!")),
    RuleTopic("afrikan_tahti.exp.response_window", N_("When someone uses a card or plays a hand card, the others get a short moment to respond in a private message. If you don't answer in time, the bot counts it as a pass."),
              ("vastausaika", "vastata", "ajoissa", "response", "window", "reaction", "timeout"), N_("quick answers")),
    RuleTopic("afrikan_tahti.exp.danger", N_("In a danger situation you draw a danger card and roll the five danger dice. The dice must show the card's symbols; otherwise you suffer the penalty and your turn ends at once."),
              ("vaaratilanne", "vaara", "danger", "danger situation", "danger card"), N_("danger situations")),
    RuleTopic("afrikan_tahti.exp.danger_dice", N_("Each danger die shows spears, a coin, a boot, a gem, a skull and a blank face. Danger cards ask for spears, coins, boots or gems."),
              ("vaaranoppa", "vaaranopat", "danger dice", "danger die", "pääkallo", "skull"), N_("danger dice")),
    RuleTopic("afrikan_tahti.exp.rerolls", N_("Some expedition cards let you reroll one or more danger dice. You can use several cards one after another and pick the dice each time."),
              ("uudelleenheitto", "heittää uudelleen", "reroll", "rerolls"), N_("rerolls")),
    RuleTopic("afrikan_tahti.exp.tokens", N_("A backpack token gives you the top expedition card. A mask token or an unlucky event card puts you in a danger situation."),
              ("reppu", "naamari", "reppukiekko", "naamarikiekko", "backpack", "mask"), N_("backpacks and masks")),
    RuleTopic("afrikan_tahti.exp.duel", N_("When you share a spot with another player, you can challenge them to a duel and try to take the Star, a horseshoe, an expedition card, or 200, 400 or 600 pounds. Skills cannot be stolen."),
              ("yhteenotto", "haastaa", "ryöstää", "duel", "challenge", "rob"), N_("duels")),
    RuleTopic("afrikan_tahti.exp.duel_roll", N_("The defender rolls the five danger dice first, and his most frequent symbol sets the target. The attacker must roll at least as many of that symbol to win."),
              ("puolustaja", "hyökkääjä", "defender", "attacker", "duel roll"), N_("the duel roll")),
    RuleTopic("afrikan_tahti.exp.duel_penalties", N_("A defender who loses hands over the prize and loses one turn. An attacker who loses misses one turn per symbol on the card, one per 200 pounds, or one for the Star or a horseshoe."),
              ("häviö", "hävinnyt", "duel penalty", "lose a duel", "loser"), N_("losing a duel")),
    RuleTopic("afrikan_tahti.exp.duel_rescue", N_("A third player can rescue a defender who lost by playing Ulterior motive or Favour, and then nobody loses anything. The rescue can be cancelled with Gotcha!."),
              ("pelastaa", "pelastus", "rescue", "taka-ajatus", "palvelus"), N_("rescues")),
    RuleTopic("afrikan_tahti.exp.trade", N_("Players on the same spot can swap expedition cards and money at any price they agree. Hand cards, skills, the Star and horseshoes cannot be traded."),
              ("kauppa", "vaihtokauppa", "vaihtaa", "tarjous", "trade", "trading", "offer", "swap"), N_("trading")),
    RuleTopic("afrikan_tahti.exp.slave_coast", N_("If a robber or danger token turns up on the Slave Coast, you are imprisoned on top of its effect and lose your next three turns."),
              ("orjarannikko laajennus", "slave coast expansion"), N_("the Slave Coast (expansion)")),
    RuleTopic("afrikan_tahti.exp.rainy_season", N_("During the rainy season every die move on land is one step shorter, but always at least one step. It ends when the event deck is reshuffled."),
              ("sadekausi", "sade", "rainy season", "rain"), N_("the rainy season")),
    RuleTopic("afrikan_tahti.exp.lost_turns", N_("Lost turns are skipped one at a time. Meanwhile you can still defend in duels and play response cards."),
              ("menetetty vuoro", "menetetyt vuorot", "lost turn", "lost turns", "skip turn"), N_("lost turns")),
    RuleTopic("afrikan_tahti.exp.impossible", N_("If you can't suffer a penalty in full, you suffer as much of it as you can. With nothing to lose, you get off free."),
              ("rangaistus", "penalty", "impossible penalty"), N_("penalties you can't pay")),
    RuleTopic("afrikan_tahti.exp.random_loss", N_("When a card is lost at random, the bot picks it by lot from all eligible cards. No money is paid for it."),
              ("sattumanvarainen", "arpoa", "random loss", "at random"), N_("losing cards at random")),
    RuleTopic("afrikan_tahti.exp.decks", N_("When a deck runs out, its discard pile is shuffled into a new deck. Discard piles are open for everyone to see."),
              ("pakka", "poistopakka", "sekoittaa", "deck", "decks", "discard pile", "reshuffle"), N_("decks and discard piles")),
    RuleTopic("afrikan_tahti.exp.moving_tokens", N_("When tokens are moved on the board, stacked tokens always move as a pair."),
              ("siirtää kiekko", "kiekkojen siirto", "moving tokens", "move tokens"), N_("moving tokens")),
    RuleTopic("afrikan_tahti.exp.card_moves", N_("Shortcut takes you along a land route to the first city in the direction you choose. With the Seaplane, 200 pounds takes you a whole sea leg from one port to the next in one go."),
              ("oikotie", "vesitaso", "shortcut", "seaplane"), N_("Shortcut and Seaplane")),
    RuleTopic("afrikan_tahti.exp.five_six", N_("With five or six players, two of each symbol completes an expedition. You may also spend your whole turn rolling the danger dice: two gems earn you a new expedition card."),
              ("viisi pelaajaa", "kuusi pelaajaa", "jalokiviheitto", "five players", "six players", "gem roll"), N_("five and six players")),
    RuleTopic("afrikan_tahti.exp.quick_game", N_("In the quick game only the lower tokens are used, and everyone starts with 400 pounds and two extra expedition cards. The five-and-six-player rules apply."),
              ("pikapeli", "nopea peli", "quick game", "quick"), N_("the quick game")),
    RuleTopic("afrikan_tahti.exp.characters", N_("Each character has their own starting cards and a special ability. A character ability cannot be sabotaged, stolen or lost."),
              ("hahmo", "hahmot", "erikoiskyky", "character", "characters", "ability"), N_("characters")),
    RuleTopic("afrikan_tahti.info.private", N_("Only you see your hand cards and the tokens you have peeked at, in your private chat. The group sees only how many hand cards each player holds."),
              ("yksityinen", "salainen", "näkyvyys", "private", "secret", "hidden"), N_("what is private")),
)


def _card_topics() -> tuple[RuleTopic, ...]:
    """One topic per card and character: the card's text, found by its name in either language and
    in every Finnish case form players type (vocabulary.md §4)."""
    out = []
    for group, table in (("character", cards.CHARACTERS), ("expedition", cards.EXPEDITION_CARDS),
                         ("event", cards.EVENT_CARDS), ("danger", cards.DANGER_CARDS)):
        for ident, (name, text) in table.items():
            words = {name.casefold().rstrip("!"), ident.replace("_", " "),
                     *(f.casefold() for f in cards.FI_FORMS.get(ident, ()))}
            out.append(RuleTopic(f"afrikan_tahti.{group}.{ident}", text, tuple(sorted(words)), name))
    return tuple(out)


# Why an action is refused, with the way forward (the core adds the list of what is possible now).
REASONS = {
    "game_over": N_("The game is already over. Write “new afrikan tähti” to play again."),
    "no_such_seat": N_("You are not playing in this game."),
    "unknown_action": N_("I don't know that move in Afrikan Tähti."),
    "bad_action": N_("I don't know that move in Afrikan Tähti."),
    "not_a_start": N_("You can start only in Tangier or Cairo."),
    "free_passage": N_("You are on a free passage: the ship moves two steps a turn without a roll. Choose to sail on, or stay."),
    "not_a_place": N_("You can end a move early only on a place, not on a route dot. Choose one of the destinations."),
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

# Emoji markers of the seats; the board picture uses the same colours.
SEAT_MARKERS = ("🔴", "🔵", "🟢", "🟡", "🟣", "🟠")
TOKEN_MARKERS = {"expedition": "🎒", "danger": "🎭", "star": "⭐", "ruby": "💎", "emerald": "💎", "topaz": "💎", "robber": "🦹", "horseshoe": "🐎",
                 "blank": "▫️"}
# The Finnish display order of token kinds in the table summary: valuable first.
TOKEN_ORDER = ("star", "ruby", "emerald", "topaz", "horseshoe", "robber", "blank")

# --------------------------------------------------------------------------------------------------
# Place names as phrases: name, to, in/at, from, via, toward
# --------------------------------------------------------------------------------------------------

PLACE_TEXTS: dict[str, tuple[str, str, str, str, str, str]] = {
    "cairo": (N_("Cairo"), N_("to Cairo"), N_("in Cairo"),
             N_("from Cairo"), N_("via Cairo"), N_("toward Cairo")),
    "tangier": (N_("Tangier"), N_("to Tangier"), N_("in Tangier"),
               N_("from Tangier"), N_("via Tangier"), N_("toward Tangier")),
    "addis_abeba": (N_("Addis Abeba"), N_("to Addis Abeba"), N_("in Addis Abeba"),
                   N_("from Addis Abeba"), N_("via Addis Abeba"), N_("toward Addis Abeba")),
    "ain_galaka": (N_("Ain-Galaka"), N_("to Ain-Galaka"), N_("in Ain-Galaka"),
                  N_("from Ain-Galaka"), N_("via Ain-Galaka"), N_("toward Ain-Galaka")),
    "bahr_el_ghasal": (N_("Bahr El Ghasal"), N_("to Bahr El Ghasal"), N_("in Bahr El Ghasal"),
                      N_("from Bahr El Ghasal"), N_("via Bahr El Ghasal"), N_("toward Bahr El Ghasal")),
    "canary_islands": (N_("Canary Islands"), N_("to the Canary Islands"), N_("on the Canary Islands"),
                      N_("from the Canary Islands"), N_("via the Canary Islands"), N_("toward the Canary Islands")),
    "cape_guardafui": (N_("Cape Guardafui"), N_("to Cape Guardafui"), N_("at Cape Guardafui"),
                      N_("from Cape Guardafui"), N_("via Cape Guardafui"), N_("toward Cape Guardafui")),
    "cape_st_marie": (N_("Cape St. Marie"), N_("to Cape St. Marie"), N_("at Cape St. Marie"),
                     N_("from Cape St. Marie"), N_("via Cape St. Marie"), N_("toward Cape St. Marie")),
    "cape_verde": (N_("Cape Verde"), N_("to Cape Verde"), N_("at Cape Verde"),
                  N_("from Cape Verde"), N_("via Cape Verde"), N_("toward Cape Verde")),
    "capetown": (N_("Capetown"), N_("to Capetown"), N_("in Capetown"),
                N_("from Capetown"), N_("via Capetown"), N_("toward Capetown")),
    "congo": (N_("Congo"), N_("to Congo"), N_("in Congo"),
             N_("from Congo"), N_("via Congo"), N_("toward Congo")),
    "dar_fur": (N_("Dar-Fur"), N_("to Dar-Fur"), N_("in Dar-Fur"),
               N_("from Dar-Fur"), N_("via Dar-Fur"), N_("toward Dar-Fur")),
    "daressalam": (N_("Daressalam"), N_("to Daressalam"), N_("in Daressalam"),
                  N_("from Daressalam"), N_("via Daressalam"), N_("toward Daressalam")),
    "dragon_mountain": (N_("Dragon Mountain"), N_("to Dragon Mountain"), N_("on Dragon Mountain"),
                       N_("from Dragon Mountain"), N_("via Dragon Mountain"), N_("toward Dragon Mountain")),
    "egypt": (N_("Egypt"), N_("to Egypt"), N_("in Egypt"),
             N_("from Egypt"), N_("via Egypt"), N_("toward Egypt")),
    "gold_coast": (N_("Gold Coast"), N_("to the Gold Coast"), N_("on the Gold Coast"),
                  N_("from the Gold Coast"), N_("via the Gold Coast"), N_("toward the Gold Coast")),
    "kandjama": (N_("Kandjama"), N_("to Kandjama"), N_("in Kandjama"),
                N_("from Kandjama"), N_("via Kandjama"), N_("toward Kandjama")),
    "lake_victoria": (N_("Lake Victoria"), N_("to Lake Victoria"), N_("at Lake Victoria"),
                     N_("from Lake Victoria"), N_("via Lake Victoria"), N_("toward Lake Victoria")),
    "morocco": (N_("Morocco"), N_("to Morocco"), N_("in Morocco"),
               N_("from Morocco"), N_("via Morocco"), N_("toward Morocco")),
    "mozambique": (N_("Mozambique"), N_("to Mozambique"), N_("in Mozambique"),
                  N_("from Mozambique"), N_("via Mozambique"), N_("toward Mozambique")),
    "ocomba": (N_("Ocomba"), N_("to Ocomba"), N_("in Ocomba"),
              N_("from Ocomba"), N_("via Ocomba"), N_("toward Ocomba")),
    "sahara": (N_("Sahara"), N_("to Sahara"), N_("in Sahara"),
              N_("from Sahara"), N_("via Sahara"), N_("toward Sahara")),
    "sierra_leone": (N_("Sierra Leone"), N_("to Sierra Leone"), N_("in Sierra Leone"),
                    N_("from Sierra Leone"), N_("via Sierra Leone"), N_("toward Sierra Leone")),
    "slave_coast": (N_("Slave Coast"), N_("to the Slave Coast"), N_("on the Slave Coast"),
                   N_("from the Slave Coast"), N_("via the Slave Coast"), N_("toward the Slave Coast")),
    "st_helena": (N_("St. Helena"), N_("to St. Helena"), N_("on St. Helena"),
                 N_("from St. Helena"), N_("via St. Helena"), N_("toward St. Helena")),
    "suakin": (N_("Suakin"), N_("to Suakin"), N_("in Suakin"),
              N_("from Suakin"), N_("via Suakin"), N_("toward Suakin")),
    "tamatave": (N_("Tamatave"), N_("to Tamatave"), N_("in Tamatave"),
                N_("from Tamatave"), N_("via Tamatave"), N_("toward Tamatave")),
    "timbuktu": (N_("Timbuktu"), N_("to Timbuktu"), N_("in Timbuktu"),
                N_("from Timbuktu"), N_("via Timbuktu"), N_("toward Timbuktu")),
    "tripoli": (N_("Tripoli"), N_("to Tripoli"), N_("in Tripoli"),
               N_("from Tripoli"), N_("via Tripoli"), N_("toward Tripoli")),
    "tunis": (N_("Tunis"), N_("to Tunis"), N_("in Tunis"),
             N_("from Tunis"), N_("via Tunis"), N_("toward Tunis")),
    "victoria_falls": (N_("Victoria Falls"), N_("to Victoria Falls"), N_("at Victoria Falls"),
                      N_("from Victoria Falls"), N_("via Victoria Falls"), N_("toward Victoria Falls")),
    "whalefish_bay": (N_("Whalefish Bay"), N_("to Whalefish Bay"), N_("at Whalefish Bay"),
                     N_("from Whalefish Bay"), N_("via Whalefish Bay"), N_("toward Whalefish Bay")),
}

NAME, TO, AT, FROM, VIA, TOWARD = range(6)


def place(pid: str, t: Translator, form: int = NAME) -> str:
    """A place as a phrase in the recipient's language: ``place("cairo", t, TO)`` is "to Cairo"
    in English and "Kairoon" in Finnish. An id the table lacks is shown as it is."""
    texts = PLACE_TEXTS.get(pid)
    return t.gettext(texts[form]) if texts else pid


def money(amount: int, t: Translator) -> str:
    return t.gettext("£{amount}").format(amount=t.format_number(amount))


def token_word(kind: str, t: Translator) -> str:
    """A token kind's name; a kind this module does not know (the expansion's) as it is."""
    names = {
        "star": t.pgettext("token", "Star of Africa"), "ruby": t.pgettext("token", "ruby"),
        "emerald": t.pgettext("token", "emerald"), "topaz": t.pgettext("token", "topaz"),
        "robber": t.pgettext("token", "robber"), "horseshoe": t.pgettext("token", "horseshoe"),
        "blank": t.pgettext("token", "blank"), "expedition": t.pgettext("token", "backpack"),
        "danger": t.pgettext("token", "mask"),
    }
    return names.get(kind, kind)


def token_name(kind: str, t: Translator) -> str:
    """The name with its marker, for event lines: "💎 ruby"."""
    return f"{TOKEN_MARKERS.get(kind, '🪙')} {token_word(kind, t)}"


def kind_of(content_id: str) -> str:
    """"tok:t5:ruby" -> "ruby"."""
    return content_id.rsplit(":", 1)[-1]


def captive_text(hazard: str, t: Translator) -> str:
    if hazard == "pirates":
        return t.gettext("held by the pirates")
    return t.gettext("held by the bedouins")


def dot_text(node: str, t: Translator) -> str:
    """Where a pawn on a land dot stands: "on the route Sahara–Dar-Fur", "at the bedouins' dot"."""
    if node in HAZARDS:
        return t.gettext("at the pirates' dot") if HAZARDS[node] == "pirates" else t.gettext("at the bedouins' dot")
    if node in SEA_DOTS:
        return t.gettext("at sea")
    ends = [place(p, t) for p in dot_ends(node)]
    if len(ends) >= 3:
        return t.gettext("at the crossroads {places}").format(places="–".join(ends))
    if len(ends) == 2:
        return t.gettext("on the route {places}").format(places="–".join(ends))
    return t.gettext("on a route dot")


def node_text(node: str | None, t: Translator) -> str:
    """A node as a location phrase: "in Congo", "on the route Sahara–Dar-Fur"."""
    if node is None:
        return t.gettext("not on the board")
    return place(node, t, AT) if node in PLACE_SET else dot_text(node, t)


def where(pawn: Any, t: Translator) -> str:
    """A pawn's situation in a few words, for the table."""
    node = getattr(pawn, "node", None)
    voyage = getattr(pawn, "voyage", None)
    if node is None:
        return t.gettext("choosing a start")
    if getattr(pawn, "captured", False) and node in HAZARDS:
        return captive_text(HAZARDS[node], t)
    if voyage is not None:
        leg = LEGS.get((voyage.origin, voyage.dest))
        left = leg.steps - voyage.at if leg else 0
        text = t.ngettext("at sea, {n} step {to}", "at sea, {n} steps {to}", left).format(
            n=left, to=place(voyage.dest, t, TO))
        return text + ("" if voyage.paid else " " + t.gettext("(free passage)"))
    return node_text(node, t)


def turn_line(view: Any, ctx: RenderContext) -> str | None:
    """What the active seat is doing now, by phase; a phase this module does not know gets the
    plain "Turn: name"."""
    t = ctx.t
    seat = getattr(view, "turn", None)
    phase = getattr(view, "phase", None)
    if phase == "over" or seat is None:
        return None
    if x_of(view) is not None:
        pending = prompt_line(view, ctx)
        if pending:
            return pending
        line = x_turn_line(view, ctx)
        if line:
            return line
    name = ctx.name(seat)
    me = view.pawns[seat]
    move = getattr(view, "move", None)
    match phase:
        case "setup":
            return t.gettext("▶ {name}, choose your start: {a} or {b}.").format(
                name=name, a=place("tangier", t), b=place("cairo", t))
        case "declare" if getattr(me, "voyage", None) is not None:
            return t.gettext("▶ Turn: {name} – sail on or stay.").format(name=name)
        case "declare":
            return t.gettext("▶ Turn: {name} – roll the die or choose another move.").format(name=name)
        case "release":
            faces = t.format_list([str(f) for f in view.options.hazard_release_faces], style="or")
            return t.gettext("▶ Turn: {name} – captured; a roll of {faces} sets you free.").format(
                name=name, faces=faces)
        case "move" if move is not None:
            return t.ngettext("▶ Turn: {name} rolled {roll} – choose where to go ({n} step left).",
                              "▶ Turn: {name} rolled {roll} – choose where to go ({n} steps left).",
                              move.steps).format(name=name, roll=move.roll, n=move.steps)
        case "after_move":
            return t.gettext("▶ Turn: {name} – flip the token {here} for {price}, or end the turn.").format(
                name=name, here=place(me.node, t, AT), price=money(FLIP_PRICE, t))
    return t.gettext("▶ Turn: {name}").format(name=name)


# --------------------------------------------------------------------------------------------------
# Retkikunnat (expansion): names, the table's extra lines, prompts, events, labels and reasons
# --------------------------------------------------------------------------------------------------

FACE_MARKERS = {"spears": "⚔️", "coin": "🪙", "boot": "🥾", "gem": "💎", "skull": "💀", "blank": "▫️"}
DECK_NAMES = {"expedition": N_("expedition"), "event": N_("event"), "danger": N_("danger")}


def cid(inst: str) -> str:
    """A card id from a card instance ("rifle#1" -> "rifle")."""
    return inst.split("#", 1)[0]


def card_name(inst: str, t: Translator) -> str:
    """Any card's or character's name in the recipient's language."""
    i = cid(inst)
    for table in (cards.EXPEDITION_CARDS, cards.EVENT_CARDS, cards.DANGER_CARDS, cards.CHARACTERS):
        if i in table:
            return t.gettext(table[i][0])
    return i


def card_text(inst: str, t: Translator) -> str:
    i = cid(inst)
    for table in (cards.EXPEDITION_CARDS, cards.EVENT_CARDS, cards.DANGER_CARDS, cards.CHARACTERS):
        if i in table:
            return t.gettext(table[i][1])
    return ""


def face_name(face: str, t: Translator) -> str:
    return f"{FACE_MARKERS.get(face, '')}{t.gettext(cards.FACES[face])}" if face in cards.FACES else face


def dice_text(dice: Sequence[str]) -> str:
    return " ".join(FACE_MARKERS.get(f, f) for f in dice)


def requires_text(requires: Sequence[Any], t: Translator) -> str:
    return t.format_list([f"{int(n)}× {face_name(f, t)}" for f, n in requires])


def names_list(seats: Sequence[int], ctx: RenderContext, style: str = "standard") -> str:
    return ctx.t.format_list([ctx.name(s) for s in seats], style=style)


def target_text(target: str, t: Translator) -> str:
    """A duel target: star | horseshoe | card:<id> | money:<n>."""
    kind, _, arg = target.partition(":")
    if target == "star":
        return t.pgettext("token", "Star of Africa")
    if target == "horseshoe":
        return t.pgettext("token", "horseshoe")
    if kind == "card":
        return card_name(arg, t)
    if kind == "money" and arg.isdigit():
        return money(int(arg), t)
    return target


def items_text(items: Sequence[str], t: Translator) -> str:
    """Offer items: card ids and one sum; nothing at all reads "nothing"."""
    if not items:
        return t.gettext("nothing")
    return t.format_list([money(int(i), t) if i.isdigit() else card_name(i, t) for i in items])


def option_text(option: str, ctx: RenderContext) -> str:
    seat = seat_of(option)
    if seat is not None:
        return ctx.name(seat)
    if option in PLACE_SET:
        return place(option, ctx.t)
    if option == "buy":
        return ctx.t.gettext("buy")
    return card_name(option, ctx.t)


def x_of(view: Any) -> Any:
    return getattr(view, "x", None)


def x_player_lines(view: Any, ctx: RenderContext) -> list[str]:
    """Under each pawn line: the character, the expedition cards (✓ used this round, ⏸ held),
    whether the expedition is complete, and the hand COUNT (never the cards)."""
    t = ctx.t
    x = x_of(view)
    out: list[str] = []
    for seat, p in enumerate(x.players):
        who = card_name(p.character, t) if p.character else t.gettext("no character yet")
        shown = []
        for inst in p.cards:
            mark = " ✓" if inst in p.used else (" ⏸" if inst in p.held else "")
            shown.append(card_name(inst, t) + mark)
        parts = [f"🎭 {who}"]
        parts.append("🎒 " + (", ".join(shown) if shown else t.gettext("no cards")) + f" ({len(p.cards)}/{p.card_limit})")
        parts.append(t.gettext("✅ expedition complete") if p.complete else t.gettext("expedition incomplete"))
        parts.append(t.ngettext("🃏 {n} hand card", "🃏 {n} hand cards", p.hand_count).format(n=p.hand_count))
        out.append(f"   {ctx.name(seat)}: " + " · ".join(parts))
    return out


def x_table_lines(view: Any, ctx: RenderContext) -> list[str]:
    t = ctx.t
    x = x_of(view)
    lines: list[str] = []
    if x.rain:
        lines.append(t.gettext("🌧 Rainy season: every die move on land is one step shorter."))
    decks = ", ".join(f"{t.gettext(DECK_NAMES.get(d, d))} {n}" for d, n in x.decks)
    lines.append(t.gettext("🂠 Decks: {decks}").format(decks=decks))
    for place_id, content in x.known:
        lines.append(t.gettext("👁 Known token {here}: {token}").format(
            here=place(place_id, t, AT), token=token_name(kind_of(content), t)))
    return lines


def prompt_line(view: Any, ctx: RenderContext) -> str | None:
    """Who must answer what now, from the public prompt; reaction windows never say who may answer
    (that would tell who holds which hand card)."""
    t = ctx.t
    x = x_of(view)
    pr = getattr(x, "prompt", None) if x is not None else None
    if pr is None:
        return None
    names = names_list(pr.seats, ctx)
    card = card_name(pr.card, t) if pr.card else ""
    owner = ctx.name(pr.owner) if isinstance(pr.owner, int) else ""
    secs = int(getattr(view.options, "response_window_seconds", 30))
    match pr.kind:
        case "window" if pr.what == "sabotage":
            return t.gettext("⏳ {name} uses {card}. Anyone may answer with Sabotage in private ({secs} s).").format(
                name=owner, card=card, secs=secs)
        case "window" if pr.what == "gotcha":
            return t.gettext("⏳ {name} played {card}. Anyone may answer with Gotcha! in private ({secs} s).").format(
                name=owner, card=card, secs=secs)
        case "window":
            return t.gettext("⏳ {name} lost the duel. Anyone may rescue them with Ulterior motive or Favour "
                             "in private ({secs} s).").format(name=owner, secs=secs)
        case "reveal":
            return t.gettext("⏳ A quick answer in private before the token is revealed ({secs} s).").format(secs=secs)
        case "danger":
            return danger_line(view, ctx)
        case "duel":
            return duel_line(view, ctx)
        case "choose":
            opts = ", ".join(option_text(o, ctx) for o in pr.options[:12])
            what = card_name(pr.what, t) if pr.what else card
            if opts:
                return t.gettext("▶ {name} chooses for {what}: {options}.").format(name=names, what=what, options=opts)
            return t.gettext("▶ {name} chooses for {what}.").format(name=names, what=what)
        case "offer" if x.offer is not None:
            o = x.offer
            return t.gettext("🤝 {name} offers {other} {give} for {get}. {other}: accept or decline.").format(
                name=ctx.name(o.seat), other=ctx.name(o.to), give=items_text(o.give, t), get=items_text(o.get, t))
        case "market_day":
            return t.gettext("🛒 Market day: {name} may buy the top expedition card, or decline.").format(name=names)
        case "exchange":
            return t.gettext("🔁 {name} may take a danger card instead, or decline.").format(name=names)
        case "lost_turn":
            return t.gettext("🥫 {name} may use Tinned food to keep the turn, or pass.").format(name=names)
        case "hand_discard":
            return t.gettext("🃏 {name} has too many hand cards and discards one.").format(name=names)
        case "limit_discard":
            return t.gettext("🎒 {name} has too many expedition cards and discards one.").format(name=names)
    return t.gettext("▶ Waiting for {name}.").format(name=names)


def danger_line(view: Any, ctx: RenderContext) -> str:
    t = ctx.t
    d = x_of(view).danger
    if d is None:
        return t.gettext("⚠️ A danger situation.")
    head = t.gettext("⚠️ {name} faces {card}: needs {needs}.").format(
        name=ctx.name(d.seat), card=card_name(d.card, t), needs=requires_text(d.requires, t))
    match d.stage:
        case "drawn":
            return head + " " + t.gettext("Roll the danger dice (or bribe).")
        case "rolled":
            return head + " " + t.gettext("Dice: {dice}. Reroll with a card, or keep them.").format(
                dice=dice_text(d.dice))
        case "failed":
            return head + " " + t.gettext("Dice: {dice}. Failed: use a card that saves you, or take the penalty.").format(
                dice=dice_text(d.dice))
    return head


def duel_line(view: Any, ctx: RenderContext) -> str:
    t = ctx.t
    d = x_of(view).duel
    if d is None:
        return t.gettext("⚔️ A duel.")
    head = t.gettext("⚔️ {attacker} challenges {defender} for {target}.").format(
        attacker=ctx.name(d.attacker), defender=ctx.name(d.defender), target=target_text(d.target, t))
    if d.defender_dice:
        head += " " + t.gettext("Defender: {dice}.").format(dice=dice_text(d.defender_dice))
    if d.face is not None and d.k is not None:
        head += " " + t.gettext("To beat: {k}× {face}.").format(k=d.k, face=face_name(d.face, t))
    if d.attacker_dice:
        head += " " + t.gettext("Attacker: {dice}.").format(dice=dice_text(d.attacker_dice))
    match d.stage:
        case "defender_roll":
            return head + " " + t.gettext("{name} rolls first.").format(name=ctx.name(d.defender))
        case "defender_reroll":
            return head + " " + t.gettext("{name} may reroll or keep the dice.").format(name=ctx.name(d.defender))
        case "attacker_roll":
            return head + " " + t.gettext("{name} rolls now.").format(name=ctx.name(d.attacker))
        case "attacker_reroll":
            return head + " " + t.gettext("{name} may reroll or keep the dice.").format(name=ctx.name(d.attacker))
    return head


def x_turn_line(view: Any, ctx: RenderContext) -> str | None:
    """The turn line for the expansion's own phases (the base phases keep theirs)."""
    t = ctx.t
    seat = getattr(view, "turn", None)
    name = ctx.name(seat) if isinstance(seat, int) else ""
    match view.phase:
        case "character":
            return t.gettext("▶ {name}, choose your character.").format(name=name)
        case "phase2":
            return t.gettext("▶ Turn: {name} – use or sell expedition cards, then go on.").format(name=name)
        case "phase3":
            return t.gettext("▶ Turn: {name} – flip a token, challenge someone to a duel, trade, or end the turn.").format(
                name=name)
    return None


def x_private_lines(view: Any, ctx: RenderContext) -> list[str]:
    """The seat's own secrets: the hand cards and the tokens peeked at."""
    t = ctx.t
    x = x_of(view)
    out: list[str] = []
    me = x.players[view.seat] if view.seat is not None and view.seat < len(x.players) else None
    if me is not None and me.character:
        out.append(t.gettext("🎭 You are the {character}: {text}").format(
            character=card_name(me.character, t), text=card_text(me.character, t)))
    if x.hand:
        out.append(t.gettext("🃏 Your hand: {cards}").format(cards=", ".join(card_name(c, t) for c in x.hand)))
    else:
        out.append(t.gettext("🃏 Your hand is empty."))
    for place_id, content in x.peeks:
        out.append(t.gettext("👁 You peeked {here}: {token}").format(
            here=place(place_id, t, AT), token=token_name(kind_of(content), t)))
    return out


SELL_REASONS = {"sell": None, "limit": N_("over the card limit"), "discard": N_("discarded")}


def x_event(e: Event, ctx: RenderContext) -> str | bool | None:
    """A line for an expansion event; ``False`` when the code is not an expansion event."""
    t = ctx.t
    p = e.p
    name = ctx.name(p["seat"]) if isinstance(p.get("seat"), int) else ""
    other = ctx.name(p["other"]) if isinstance(p.get("other"), int) else ""
    card = card_name(p["card"], t) if isinstance(p.get("card"), str) else ""
    match e.code:
        case "character":
            return t.gettext("🎭 {name} is the {character}; starting cards: {cards}.").format(
                name=name, character=card_name(p["character"], t),
                cards=t.format_list([card_name(c, t) for c in p.get("cards", ())]) or t.gettext("nothing"))
        case "seaplane":
            return t.gettext("🛩 {name} flew the seaplane {to} ({fare}).").format(
                name=name, to=place(p["dest"], t, TO), fare=money(int(p.get("paid", 0)), t))
        case "die_adjusted":
            return t.gettext("🗺 {name} changed the die by {delta:+d}: {n} steps.").format(
                name=name, delta=int(p["delta"]), n=p["steps"])
        case "not_captured":
            return t.gettext("{name} slips past the captors.").format(name=name)
        case "event_card":
            return t.gettext("📜 {name} drew the event card {card}: {text}").format(
                name=name, card=card, text=card_text(p["card"], t))
        case "rain_started":
            return t.gettext("🌧 The rainy season begins: die moves on land are one step shorter.")
        case "rain_ended":
            return t.gettext("☀️ The rainy season is over.")
        case "reshuffled":
            return t.gettext("🔀 The {deck} deck was reshuffled ({n} cards).").format(
                deck=t.gettext(DECK_NAMES.get(p["deck"], p["deck"])), n=p.get("cards", 0))
        case "deck_empty":
            return t.gettext("🂠 The {deck} deck is empty.").format(deck=t.gettext(DECK_NAMES.get(p["deck"], p["deck"])))
        case "card_gained":
            return t.gettext("🎒 {name} gets {card}.").format(name=name, card=card)
        case "card_lost":
            return t.gettext("🎒 {name} loses {card}.").format(name=name, card=card)
        case "card_discarded":
            if p.get("reason") == "used":
                return t.gettext("{name} used up {card}.").format(name=name, card=card)
            if int(p.get("amount", 0)):
                return t.gettext("🗑 {name} discarded {card} and got {amount}.").format(
                    name=name, card=card, amount=money(int(p["amount"]), t))
            return t.gettext("🗑 {name} discarded {card}.").format(name=name, card=card)
        case "sold":
            return t.gettext("💰 {name} sold {card} for {amount}.").format(
                name=name, card=card, amount=money(int(p.get("amount", 0)), t))
        case "cards_drawn":
            return t.gettext("🎒 {name} draws {cards}.").format(
                name=name, cards=t.format_list([card_name(c, t) for c in p.get("cards", ())]))
        case "income":
            return t.gettext("💰 {name} gets {amount}.").format(name=name, amount=money(int(p["amount"]), t))
        case "paid":
            if isinstance(p.get("payee"), int):
                return t.gettext("💸 {name} pays {amount} to {other}.").format(
                    name=name, amount=money(int(p["amount"]), t), other=ctx.name(p["payee"]))
            return t.gettext("💸 {name} pays {amount}.").format(name=name, amount=money(int(p["amount"]), t))
        case "robbed" if isinstance(p.get("taker"), int):
            return t.gettext("🦹 {name} loses {amount} to {other}.").format(
                name=name, amount=money(int(p.get("lost", 0)), t), other=ctx.name(p["taker"]))
        case "penalty_void":
            return t.gettext("{name} had nothing to lose and gets off free.").format(name=name)
        case "penalty_cancelled":
            return t.gettext("🩹 {name} avoided the penalty with {card}.").format(name=name, card=card)
        case "exchanged":
            return t.gettext("🔁 {name} takes a danger card instead.").format(name=name)
        case "pawns_swapped":
            return t.gettext("🔄 {name} and {other} swapped places.").format(name=name, other=other)
        case "stacks_swapped":
            a, b = p["places"]
            return t.gettext("🔄 The tokens {a} and {b} swapped places.").format(a=place(a, t, AT), b=place(b, t, AT))
        case "held":
            return t.gettext("⏸ {name} holds {card} for later.").format(name=name, card=card)
        case "unheld":
            return t.gettext("▶ {name} lets {card} work again.").format(name=name, card=card)
        case "lost_turn_prompt" | "window":
            return None  # the table's prompt line says it
        case "lost_turn_cancelled":
            return t.gettext("🥫 {name} keeps the turn.").format(name=name)
        case "search_failed":
            return t.gettext("{name} found no card of that type.").format(name=name)
        case "declined":
            return t.gettext("{name} declined {card}.").format(name=name, card=card) if card else \
                t.gettext("{name} declined.").format(name=name)
        case "card_used":
            if p.get("card") == "doctor":
                return t.gettext("🩺 {name} uses the Doctor's reroll.").format(name=name)
            return t.gettext("✨ {name} uses {card}.").format(name=name, card=card)
        case "use_cancelled":
            return t.gettext("🚫 The use of {card} was cancelled.").format(card=card)
        case "window_closed":
            if isinstance(p.get("answered_by"), int):
                return None  # the answer's own event says it
            return t.gettext("Nobody answered.")
        case "hand_card_played":
            target = p.get("target")
            text = t.gettext("🃏 {name} plays {card}.").format(name=name, card=card)
            if isinstance(target, str) and ":" in target:
                s, _, c = target.partition(":")
                seat = seat_of(s)
                if seat is not None:
                    text = t.gettext("🃏 {name} plays {card} on {other}'s {target}.").format(
                        name=name, card=card, other=ctx.name(seat), target=card_name(c, t))
            elif isinstance(target, str) and target in PLACE_SET:
                text = t.gettext("🃏 {name} plays {card}: {place}.").format(name=name, card=card, place=place(target, t))
            return text
        case "hand_card_cancelled":
            return t.gettext("🚫 {card} was cancelled by {name}.").format(card=card, name=ctx.name(p["by"]))
        case "hand_card_discarded":
            return t.gettext("🗑 {name} discards the hand card {card}.").format(name=name, card=card)
        case "hand_card_drawn":
            return t.gettext("🃏 You drew {card}: {text}").format(card=card, text=card_text(p["card"], t))
        case "drew_hand_card":
            return t.gettext("🃏 {name} drew a hand card.").format(name=name)
        case "peek_result":
            return t.gettext("👁 The token {here} is: {token}.").format(
                here=place(p["place"], t, AT), token=token_name(kind_of(p["token"]), t))
        case "peeked":
            return t.gettext("👁 {name} peeked at the token {here}.").format(name=name, here=place(p["place"], t, AT))
        case "sabotaged":
            return t.gettext("💥 {name} sabotaged {other}'s {card}!").format(
                name=name, other=ctx.name(p["owner"]), card=card)
        case "bribed":
            return t.gettext("💰 {name} bribed their way out ({amount}).").format(
                name=name, amount=money(int(p.get("paid", 0)), t))
        case "surprise":
            return t.gettext("🎁 {name} played Surprise!: the token goes {to}, and {here} lies {token}.").format(
                name=name, to=place(p["target"], t, TO), here=place(p["place"], t, AT),
                token=token_name(str(p.get("kind", "")), t))
        case "expedition_token":
            return t.gettext("🎒 A backpack: {name} gets an expedition card.").format(name=name)
        case "danger_token":
            return t.gettext("🎭 A mask: {name} faces a danger situation!").format(name=name)
        case "flip_cancelled":
            return t.gettext("{name} did not flip the token.").format(name=name)
        case "danger_card":
            return t.gettext("⚠️ {name} faces {card}: needs {needs}.").format(
                name=name, card=card, needs=requires_text(p.get("requires", ()), t))
        case "danger_dice":
            return t.gettext("🎲 {name} rolled {dice}.").format(name=name, dice=dice_text(p["dice"]))
        case "rerolled":
            return t.gettext("🎲 {name} rerolled with {card}: {dice}.").format(
                name=name, card=card_name(p["card"], t), dice=dice_text(p.get("result", ())))
        case "danger_passed":
            return t.gettext("✅ {name} survived {card}!").format(name=name, card=card)
        case "danger_failed":
            return t.gettext("❌ {name} failed {card}.").format(name=name, card=card)
        case "gem_roll":
            key = "✅" if p.get("success") else "❌"
            return t.gettext("{mark} {name} rolled for gems: {dice}.").format(mark=key, name=name, dice=dice_text(p["dice"]))
        case "duel":
            return t.gettext("⚔️ {attacker} challenges {defender} to a duel for {target}!").format(
                attacker=ctx.name(p["attacker"]), defender=ctx.name(p["defender"]), target=target_text(p["target"], t))
        case "duel_dice":
            return t.gettext("🎲 {name} rolled {dice}.").format(name=name, dice=dice_text(p["dice"]))
        case "duel_defence":
            return t.gettext("🛡 {name} sets the mark: {k}× {face}.").format(
                name=ctx.name(p["defender"]), k=p["k"], face=face_name(p["face"], t))
        case "duel_result":
            winner = ctx.name(p["winner"])
            return t.gettext("🏅 {name} wins the duel ({hits} of {k}× {face}).").format(
                name=winner, hits=p.get("hits", 0), k=p.get("k", 0), face=face_name(str(p.get("face", "")), t))
        case "duel_rescued":
            return t.gettext("🤝 {name} rescues {other}!").format(name=name, other=ctx.name(p["defender"]))
        case "duel_void":
            return t.gettext("The duel ends with no loser.")
        case "card_taken":
            return t.gettext("⚔️ {name} takes {card} from {other}.").format(name=name, card=card, other=other)
        case "item_taken":
            return t.gettext("⚔️ {name} takes the {item} from {other}.").format(
                name=name, item=token_word(str(p.get("item", "")), t), other=other)
        case "offer":
            return t.gettext("🤝 {name} offers {other} {give} for {get}.").format(
                name=name, other=ctx.name(p["receiver"]), give=items_text(p.get("give", ()), t),
                get=items_text(p.get("get", ()), t))
        case "offer_declined":
            return t.gettext("{name} declined the offer.").format(name=name)
        case "traded":
            return t.gettext("🤝 {name} and {other} traded: {give} for {get}.").format(
                name=name, other=other, give=items_text(p.get("give", ()), t), get=items_text(p.get("get", ()), t))
    return False


def x_label(notation: str, view: Any, ctx: RenderContext) -> str | None:
    """A button label for an expansion action (None: not one)."""
    t = ctx.t
    x = x_of(view)
    pr = getattr(x, "prompt", None) if x is not None else None
    match notation.split():
        case ["character", i]:
            return f"🎭 {card_name(i, t)}"
        case ["seaplane", pid]:
            return t.gettext("🛩 Seaplane {to}").format(to=place(pid, t, TO))
        case ["gem_roll"]:
            return t.gettext("💎 Roll for gems")
        case ["reroll_move"]:
            return t.gettext("🧭 Reroll the move")
        case ["adjust", d]:
            return t.gettext("🗺 {delta} step").format(delta=d)
        case ["use", c]:
            return t.gettext("✨ Use {card}").format(card=card_name(c, t))
        case ["use", c, arg]:
            return t.gettext("✨ {card}: {place}").format(card=card_name(c, t), place=place(arg, t))
        case ["reroll", c, dice]:
            return t.gettext("🎲 Reroll {dice} ({card})").format(dice=dice.replace(",", "+"), card=card_name(c, t))
        case ["reroll_done"]:
            return t.gettext("✅ Keep the dice")
        case ["sell", c]:
            return t.gettext("💰 Sell {card} ({amount})").format(card=card_name(c, t), amount=money(sale_value(c), t))
        case ["discard", c]:
            return t.gettext("🗑 Discard {card}").format(card=card_name(c, t))
        case ["hold", c]:
            return t.gettext("⏸ Hold {card}").format(card=card_name(c, t))
        case ["unhold", c]:
            return t.gettext("▶ Auto-use {card}").format(card=card_name(c, t))
        case ["play", c]:
            return t.gettext("🃏 Play {card}").format(card=card_name(c, t))
        case ["play", c, arg] if ":" in arg:
            s, _, target = arg.partition(":")
            seat = seat_of(s)
            return t.gettext("🃏 {card} → {name}: {target}").format(
                card=card_name(c, t), name=ctx.name(seat) if seat is not None else s, target=card_name(target, t))
        case ["play", c, arg]:
            return t.gettext("🃏 {card} → {place}").format(card=card_name(c, t), place=place(arg, t))
        case ["pass"]:
            return t.gettext("⏭ Pass")
        case ["duel", s, target]:
            seat = seat_of(s)
            return t.gettext("⚔️ {name}: {target}").format(name=ctx.name(seat) if seat is not None else s,
                                                           target=target_text(target, t))
        case ["offer", s, give, "for", get]:
            seat = seat_of(s)
            return t.gettext("🤝 {name}: {give} for {get}").format(
                name=ctx.name(seat) if seat is not None else s, give=items_text(_items(give), t),
                get=items_text(_items(get), t))
        case ["accept"]:
            if pr is not None and pr.kind == "market_day":
                return t.gettext("🛒 Buy")
            return t.gettext("✅ Accept")
        case ["decline"]:
            return t.gettext("❌ Decline")
        case ["swap_stack", pid]:
            return t.gettext("🔄 Swap with {place}").format(place=place(pid, t))
        case ["peek"]:
            return t.gettext("👁 Peek")
        case ["exchange"]:
            return t.gettext("🔁 Danger card instead")
        case ["buy_discard"]:
            return t.gettext("🛒 Buy from the discard pile")
        case ["choose", o]:
            return option_text(o, ctx)
        case ["roll"] if pr is not None and pr.kind in ("danger", "duel"):
            return t.gettext("🎲 Roll the danger dice")
        case ["end_phase"] if getattr(view, "phase", None) == "phase2":
            return t.gettext("➡ Go on")
        case ["end_phase"] if getattr(view, "phase", None) == "phase3":
            return t.gettext("✋ End the turn")
        case ["flip"] if getattr(view, "phase", None) == "phase3":
            return t.gettext("🪙 Flip the token")
    return None


def _items(word: str) -> tuple[str, ...]:
    return () if word == "-" else tuple(word.split(","))


def sale_value(card: str) -> int:
    try:
        return xdata.sale_value(cid(card))
    except KeyError:
        return 0


#: the expansion's reason codes (the core adds the list of what is possible now)
X_REASONS = {
    "not_asked": N_("Nobody is asking you right now. Wait for your turn or a prompt."),
    "wrong_prompt": N_("That is not an answer to the question on the table now."),
    "wrong_stage": N_("That does not fit this stage. Look at the buttons for what comes next."),
    "character_taken": N_("Someone already took that character. Choose another one."),
    "expedition_incomplete": N_("Your expedition is not complete yet: collect three of each symbol first (two with five or six players)."),
    "action_taken": N_("You have already taken this turn's action (a flip, a duel or a trade). End the turn."),
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
}


class AfrikanTahtiUI(GameUI):
    game_id = "afrikan_tahti"
    domain = "afrikan_tahti"
    aliases = ("afrikan tähti", "afrikantahti", "afrikan tahti", "afrikan_tahti", "tähti", "africa star",
               "star of africa")

    def title(self, t: Translator) -> str:
        return "⭐ " + t.gettext("Afrikan Tähti")

    def rule_topics(self) -> Sequence[RuleTopic]:
        return ALL_TOPICS

    def option_words(self) -> dict[str, str]:
        return {"laajennus": "expansion", "retkikunnat": "expansion", "smaragdi": "emerald_value",
                "lähtöpaikka": "start_place", "lähtö": "start_place", "kierrosraja": "max_rounds",
                "kapkaupunki": "capetown_bonus", "ilmaisaskeleet": "broke_sea_steps",
                "pikapeli": "quick_game", "quick": "quick_game", "hahmot": "character_assignment",
                "käsiraja": "hand_limit", "korttiraja": "expedition_card_limit",
                "vastausaika": "response_window_seconds"}

    # --- the table ---------------------------------------------------------------------------
    def render_table(self, view: Any, ctx: RenderContext) -> str:
        t = ctx.t
        if view.phase in ("setup", "character"):
            lines = [t.gettext("{game} – getting ready").format(game=self.title(t))]
        else:
            lines = [t.gettext("{game} – round {round}").format(game=self.title(t), round=view.round)]
        line = turn_line(view, ctx)
        if line:
            lines.append(line)
        x = x_of(view)
        for seat, pawn in enumerate(view.pawns):
            lines.append(self._pawn_line(seat, pawn, ctx))
            if x is not None and seat < len(x.players):
                lines.append(x_player_lines(view, ctx)[seat])
        lines.append(self._tokens_line(view, t))
        if x is not None:
            lines.extend(x_table_lines(view, ctx))
        if view.phase == "over":
            return "\n".join(lines)  # the events and the final standings tell the rest
        holder = getattr(view, "star_holder", None)
        if holder is not None:
            lines.append(t.gettext("⭐ The Star is with {name}: next stop Tangier or Cairo!").format(
                name=ctx.name(holder)))
        elif not getattr(view, "star_found", False):
            lines.append(t.gettext("⭐ The Star of Africa is still hidden."))
        bonus = view.options.capetown_bonus
        if getattr(view, "capetown_claimed", None) is None and bonus:
            lines.append(t.gettext("💰 The first to reach Capetown gets {amount}.").format(amount=money(bonus, t)))
        if getattr(view, "last_roll", None) is not None and view.last_roller is not None:
            lines.append(t.gettext("🎲 Last roll: {name} {die}").format(name=ctx.name(view.last_roller),
                                                                       die=view.last_roll))
        return "\n".join(lines)

    def _pawn_line(self, seat: int, pawn: Any, ctx: RenderContext) -> str:
        t = ctx.t
        marks = "".join(TOKEN_MARKERS.get(kind_of(item), "") for item in getattr(pawn, "items", ()))
        text = t.gettext("{marker} {name}: {where} · {cash}").format(
            marker=SEAT_MARKERS[seat % len(SEAT_MARKERS)], name=ctx.name(seat), where=where(pawn, t),
            cash=money(pawn.cash, t))
        lost = getattr(pawn, "lost_turns", 0)
        if lost:
            text += " · " + t.ngettext("skips {n} turn", "skips {n} turns", lost).format(n=lost)
        return f"{text} {marks}".rstrip()

    def _tokens_line(self, view: Any, t: Translator) -> str:
        down = len(view.face_down)
        flipped: dict[str, int] = {}
        for _place, cid in view.revealed:
            flipped[kind_of(cid)] = flipped.get(kind_of(cid), 0) + 1
        order = [k for k in TOKEN_ORDER if k in flipped] + sorted(k for k in flipped if k not in TOKEN_ORDER)
        text = t.gettext("🪙 Tokens face down: {down}/{total}").format(down=down, total=down + len(view.revealed))
        if order:
            counts = ", ".join(f"{token_word(k, t)} {flipped[k]}" for k in order)
            text += " · " + t.gettext("flipped: {counts}").format(counts=counts)
        return text

    def render_private(self, view: Any, ctx: RenderContext) -> str | None:
        # Nothing is private in the base game; the prompt repeats the seat's own situation so the
        # private chat makes sense without the group's table.
        seat = view.seat
        if seat is None or not 0 <= seat < len(view.pawns):
            return None
        lines = [self._pawn_line(seat, view.pawns[seat], ctx)]
        x = x_of(view)
        if x is not None:
            lines.extend(x_private_lines(view, ctx))
            pr = x.prompt
            if pr is not None and seat in pr.seats:
                lines.append(prompt_line(view, ctx) or "")
                if pr.card and pr.kind == "window" and cid(pr.card) in cards.EXPEDITION_CARDS:
                    lines.append(f"{card_name(pr.card, ctx.t)}: {card_text(pr.card, ctx.t)}")
                return "\n".join(lines)
        if getattr(view, "turn", None) == seat:
            line = turn_line(view, ctx)
            if line:
                lines.append(line)
        return "\n".join(lines)

    # --- events ------------------------------------------------------------------------------
    def render_events(self, events: Sequence[Event], ctx: RenderContext) -> list[str]:
        out: list[str] = []
        for e in events:
            try:
                line = self._event(e, ctx)
            except (KeyError, TypeError, ValueError):
                # an event whose parameters changed shape (the expansion reuses codes): a plain
                # line keeps the table readable where a crash would lose the whole message
                line = self._generic(e, ctx)
            if line:
                out.append(line)
        return out

    @staticmethod
    def _generic(e: Event, ctx: RenderContext) -> str:
        seat = e.get("seat")
        label = e.code.replace("_", " ")
        return f"{ctx.name(seat)}: {label}" if isinstance(seat, int) else f"({label})"

    def _event(self, e: Event, ctx: RenderContext) -> str | None:
        t = ctx.t
        p = e.p
        xline = x_event(e, ctx)
        if xline is not False:
            return xline if isinstance(xline, str) else None
        name = ctx.name(p["seat"]) if isinstance(p.get("seat"), int) else ""
        match e.code:
            case "tokens_placed":
                n = len(p.get("tokens", ())) + len(p.get("lower", ()))
                return t.ngettext("{n} treasure token was placed face down.",
                                  "{n} treasure tokens were placed face down.", n).format(n=n)
            case "start_assigned" | "start_chosen":
                return t.gettext("{name} starts {place}.").format(name=name, place=place(p["place"], t, FROM))
            case "rolloff":
                rolls = ", ".join(f"{ctx.name(s)} {r}" for s, r in zip(p["seats"], p["rolls"]))
                return t.gettext("🎲 Roll for the first turn: {rolls}.").format(rolls=rolls)
            case "first_player":
                return t.gettext("{name} gets the first turn.").format(name=name)
            case "turn":
                return None  # the table's turn line says it
            case "turn_lost":
                pending = int(p.get("pending", 0))
                if pending:
                    return t.ngettext("{name} misses this turn; {n} more turn to miss.",
                                      "{name} misses this turn; {n} more turns to miss.", pending).format(
                        name=name, n=pending)
                return t.gettext("{name} misses this turn.").format(name=name)
            case "rolled":
                if p.get("purpose") == "release":
                    return t.gettext("🎲 {name} rolled {die} to get free.").format(name=name, die=p["die"])
                if p.get("purpose") == "flip":
                    return t.gettext("🎲 {name} rolled {die} for the token.").format(name=name, die=p["die"])
                return t.gettext("🎲 {name} rolled {die}.").format(name=name, die=p["die"])
            case "moved":
                return self._moved(name, p, t)
            case "boarded":
                if p.get("free"):
                    return t.gettext("⛵ {name} sails for free {to}.").format(name=name, to=place(p["dest"], t, TO))
                return t.gettext("⛵ {name} bought a ticket {to} ({fare}).").format(
                    name=name, to=place(p["dest"], t, TO), fare=money(p["fare"], t))
            case "sailed":
                steps = int(p.get("steps", 0))
                if p.get("arrived"):
                    return t.ngettext("⛵ {name} sailed {n} step and arrived {to}.",
                                      "⛵ {name} sailed {n} steps and arrived {to}.", steps).format(
                        name=name, n=steps, to=place(p["dest"], t, TO))
                leg = next((leg for leg in LEGS.values() if leg.id == p.get("leg") and leg.dest == p.get("dest")), None)
                left = leg.steps - int(p.get("at", 0)) if leg else 0
                return t.ngettext("⛵ {name} is sailing {to}: {left} step to go.",
                                  "⛵ {name} is sailing {to}: {left} steps to go.", left).format(
                    name=name, left=left, to=place(p["dest"], t, TO))
            case "flew":
                return t.gettext("✈️ {name} flew {start} {to} ({fare}).").format(
                    name=name, start=place(p["start"], t, FROM), to=place(p["dest"], t, TO), fare=money(p["fare"], t))
            case "stayed":
                return t.gettext("{name} stays put.").format(name=name)
            case "capetown_bonus":
                return t.gettext("💰 {name} reached Capetown first and gets {amount}!").format(
                    name=name, amount=money(p["amount"], t))
            case "captured":
                if p.get("hazard") == "pirates":
                    return t.gettext("⛓ {name} was captured by the pirates!").format(name=name)
                return t.gettext("⛓ {name} was captured by the bedouins!").format(name=name)
            case "released":
                return t.gettext("🔓 {name} is free again!").format(name=name)
            case "still_captured":
                return t.gettext("{name} is still held captive.").format(name=name)
            case "flipped":
                return t.gettext("🪙 {name} flipped the token {here}: {token}.").format(
                    name=name, here=place(p["place"], t, AT), token=token_name(p["kind"], t))
            case "flip_failed":
                return t.gettext("{name} did not get the token flipped.").format(name=name)
            case "star_found":
                return t.gettext("⭐ {name} found the Star of Africa! Next stop Tangier or Cairo.").format(name=name)
            case "gem":
                # the "flipped" line just named the gem; this one says what it pays
                if p.get("doubled"):
                    return t.gettext("💰 {name} gets {amount}, double on the Gold Coast!").format(
                        name=name, amount=money(p["amount"], t))
                return t.gettext("💰 {name} gets {amount}.").format(name=name, amount=money(p["amount"], t))
            case "robbed":
                if not p.get("lost"):
                    return t.gettext("{name} had no money for the robber to take.").format(name=name)
                return t.gettext("{name} loses all their money ({amount}).").format(
                    name=name, amount=money(p["lost"], t))
            case "horseshoe_kept":
                return t.gettext("🐎 A horseshoe after the Star: {name} can win with it too!").format(name=name)
            case "horseshoe_worthless":
                return t.gettext("🐎 A horseshoe, but worthless while the Star is still hidden.")
            case "blank":
                return None  # the "flipped" line said it; at the Slave Coast "turns_lost" follows
            case "turns_lost":
                turns = int(p.get("turns", 0))
                if p.get("reason") == "slave_coast":
                    return t.ngettext("⛓ The slave traders caught {name}: {n} turn lost.",
                                      "⛓ The slave traders caught {name}: {n} turns lost.", turns).format(
                        name=name, n=turns)
                return t.ngettext("{name} loses {n} turn.", "{name} loses {n} turns.", turns).format(name=name, n=turns)
            case "won":
                goal = place(p["goal"], t, TO)
                if p.get("item") == "horseshoe":
                    return t.gettext("🏆 {name} brought a horseshoe {goal} and wins!").format(name=name, goal=goal)
                return t.gettext("🏆 {name} brought the Star of Africa {goal} and wins!").format(name=name, goal=goal)
            case "game_over":
                if p.get("reason") == "round_limit":
                    return t.gettext("The round limit was reached and the game ends.")
                return None  # "won" said it
        # An event this module does not know (the expansion adds some): a plain line, not silence.
        return self._generic(e, ctx)

    def _moved(self, name: str, p: dict[str, Any], t: Translator) -> str:
        steps = int(p.get("steps", 0))
        dest = p["dest"]
        if dest in PLACE_SET:
            return t.ngettext("{name} walked {n} step {to}.", "{name} walked {n} steps {to}.", steps).format(
                name=name, n=steps, to=place(dest, t, TO))
        return t.ngettext("{name} walked {n} step and is now {where}.",
                          "{name} walked {n} steps and is now {where}.", steps).format(
            name=name, n=steps, where=dot_text(dest, t))

    # --- actions -------------------------------------------------------------------------------
    def action_label(self, notation: str, view: Any, ctx: RenderContext) -> str:
        t = ctx.t
        if x_of(view) is not None:
            label = x_label(notation, view, ctx)
            if label is not None:
                return label
        phase = getattr(view, "phase", None)
        mover = getattr(view, "turn", None)
        me = view.pawns[mover] if isinstance(mover, int) and 0 <= mover < len(view.pawns) else None
        match notation.split():
            case ["start", pid]:
                return t.gettext("Start {place}").format(place=place(pid, t, FROM))
            case ["roll"]:
                if phase == "release":
                    return t.gettext("🎲 Roll to get free")
                if me is not None and getattr(me, "voyage", None) is not None:
                    return t.gettext("🎲 Roll and sail on")
                return t.gettext("🎲 Roll the die")
            case ["board", pid]:
                return t.gettext("⛵ Sail {to} ({fare})").format(to=place(pid, t, TO), fare=money(SEA_FARE, t))
            case ["free_sail", pid]:
                if me is not None and getattr(me, "voyage", None) is not None:
                    return t.gettext("⛵ Sail on {to}").format(to=place(pid, t, TO))
                return t.gettext("⛵ Free passage {to}").format(to=place(pid, t, TO))
            case ["fly", pid]:
                return t.gettext("✈️ Fly {to} ({fare})").format(to=place(pid, t, TO), fare=money(AIR_FARE, t))
            case ["flip"]:
                return t.gettext("🪙 Flip the token ({price})").format(price=money(FLIP_PRICE, t))
            case ["flip_roll"]:
                return t.gettext("🎲 Roll for the token (4–6)")
            case ["stay"]:
                return t.gettext("⏸ Stay")
            case ["end_phase"]:
                return t.gettext("✋ Don't flip") if phase == "after_move" else t.gettext("End the phase")
            case ["move", code, *rest]:
                return self._move_label(code, rest, view, me, ctx)
        return notation

    def _move_label(self, code: str, rest: list[str], view: Any, me: Any, ctx: RenderContext) -> str:
        t = ctx.t
        to = node_of(code) or code
        via = node_of(rest[1]) if len(rest) == 2 else None
        if me is not None and to == me.node and via is None:
            return t.gettext("⏹ Stop here ({place})").format(place=place(to, t)) if to in PLACE_SET \
                else t.gettext("⏹ Stop here")
        paths = move_paths(view, view.turn) if me is not None else {}
        path = chosen_path(paths, to, via)
        steps = len(path)
        if to not in PLACE_SET:
            prev = path[-2] if len(path) > 1 else (me.node if me is not None else to)
            toward = ahead(prev, to)
            # the nearest place ahead and how far it still is: two dots toward the same place differ
            text = (t.ngettext("{n} step {toward} ({k} to go)", "{n} steps {toward} ({k} to go)", steps).format(
                n=steps, toward=place(toward[0][0], t, TOWARD), k=toward[0][1]) if toward else
                t.ngettext("{n} step", "{n} steps", steps).format(n=steps))
            return ("⚠️ " + text) if to in HAZARDS else text
        options = paths.get(to, ())
        if via is None and len(options) > 1:
            # name the canonical path's distinguishing place, so both buttons read differently
            others = {p for path_ in options[1:] for p in path_[:-1] if p in PLACE_SET}
            mine = [p for p in path[:-1] if p in PLACE_SET and p not in others]
            via = mine[0] if mine else None
        if via is not None:
            return t.gettext("→ {place} {via} ({n})").format(place=place(to, t), via=place(via, t, VIA), n=steps)
        return t.gettext("→ {place} ({n})").format(place=place(to, t), n=steps)

    def button_rows(self, legal: Sequence[str], view: Any, ctx: RenderContext) -> list[list[tuple[str, str]]]:
        groups: dict[str, list[tuple[str, str]]] = {}
        seen: dict[str, int] = {}
        for notation in legal:
            label = self.action_label(notation, view, ctx)
            seen[label] = seen.get(label, 0) + 1
            if seen[label] > 1:  # two dots can read alike; keep every button distinct
                label = f"{label} #{seen[label]}"
            groups.setdefault(self._group(notation, view), []).append((label, notation))
        rows: list[list[tuple[str, str]]] = []
        for key in ("stop", "roll", "place", "dot", "board", "free_sail", "fly", "flip", "start", "answer",
                    "character", "use", "reroll", "choose", "play", "duel", "sell", "hold", "swap", "offer",
                    "discard", "other"):
            items = groups.get(key, [])
            if key == "offer":
                items = items[:OFFER_BUTTONS]  # other offers are typed ("tarjoan Matille Ratsun 200:lla")
            width = {"place": 3, "start": 3, "reroll": 3, "swap": 3, "choose": 3, "character": 2}.get(key, 2)
            rows.extend(items[i:i + width] for i in range(0, len(items), width))
        return rows

    @staticmethod
    def _group(notation: str, view: Any) -> str:
        words = notation.split()
        verb = words[0]
        if verb == "move":
            to = node_of(words[1]) or words[1]
            mover = getattr(view, "turn", None)
            if isinstance(mover, int) and to == view.pawns[mover].node and len(words) == 2:
                return "stop"
            return "place" if to in PLACE_SET else "dot"
        if verb in ("roll", "stay", "gem_roll", "reroll_move", "adjust", "seaplane"):
            return "roll"
        if verb in ("pass", "accept", "decline", "reroll_done", "exchange", "peek", "buy_discard"):
            return "answer"
        if verb in X_GROUPS:
            return X_GROUPS[verb]
        if verb in ("flip", "flip_roll", "end_phase"):
            return "flip"
        return verb if verb in ("board", "free_sail", "fly", "start") else "other"

    def group_actions(self, legal: Sequence[str], public_view: Any) -> tuple[str, ...]:
        # The base game hides nothing a button could reveal, so the group gets every button. Other
        # modes may have hand cards; there only the base verbs are shown until their UI says more.
        if is_base(public_view.options):
            return tuple(legal)
        x = x_of(public_view)
        pr = getattr(x, "prompt", None)
        if pr is not None and pr.kind not in ("danger", "duel", "choose", "market_day", "exchange"):
            return ()  # windows, Surprise!, offers, lost turns and discards are answered in private
        if pr is not None and pr.kind == "choose" and not pr.options:
            return ()  # a choice among hidden things
        return tuple(n for n in legal if n.split()[0] in GROUP_VERBS)

    def prompt_line(self, view: Any, ctx: RenderContext) -> str | None:
        # someone else's turn: this seat is asked to answer (a window, a duel roll, an offer)
        if view.seat is not None and view.turn is not None and view.turn != view.seat:
            return ctx.t.gettext("{name}, your answer is needed: choose below.").format(name=ctx.name(view.seat))
        return None

    def deadline(self, public_view: Any) -> float | None:
        # reaction windows (Sabotage, Gotcha!, rescue) and the Surprise! question: silence is a pass
        x = x_of(public_view)
        pr = getattr(x, "prompt", None)
        if pr is not None and pr.kind in ("window", "reveal"):
            return float(getattr(public_view.options, "response_window_seconds", 30))
        return None

    def idle_action(self, legal: Sequence[str], view: Any) -> str | None:
        # spec §7 defaults (stay, the nearest stop, no flip), not the smart AI's choice
        try:
            actions = tuple(ENGINE.parse_notation(n) for n in legal)
        except BadNotation:
            return None
        chosen = idle_action(view, actions)
        return ENGINE.notation(chosen) if chosen is not None else None

    def parse(self, text: str, ctx: ParseContext) -> ParseResult:
        return parser.parse(text, ctx)

    def reason_text(self, code: str, params: dict[str, Any], ctx: RenderContext) -> str:
        t = ctx.t
        match code:
            case "not_your_turn" if isinstance(params.get("turn"), int):
                return t.gettext("It is not your turn: now it is {name}'s turn.").format(name=ctx.name(params["turn"]))
            case "wrong_phase":
                return self._wrong_phase(str(params.get("phase", "")), t)
            case "not_reachable" if params.get("to"):
                return t.gettext("{place} is out of reach now. Choose one of the places offered.").format(
                    place=place(params["to"], t) if params["to"] in PLACE_SET else node_text(params["to"], t))
            case "not_reachable" if params.get("steps"):
                n = int(params["steps"])
                return t.ngettext("No move of exactly {n} step fits. Choose one of the places offered.",
                                  "No move of exactly {n} steps fits. Choose one of the places offered.", n).format(n=n)
            case "not_reachable":
                return t.gettext("You cannot get there with this roll. Choose one of the places offered.")
            case "not_on_path" if params.get("via") in PLACE_SET:
                return t.gettext("This move cannot go {via}. Choose one of the routes offered.").format(
                    via=place(params["via"], t, VIA))
            case "no_such_leg" if params.get("port") in PLACE_SET and params.get("dest") in PLACE_SET:
                return t.gettext("No ship sails {start} {to}.").format(
                    start=place(params["port"], t, FROM), to=place(params["dest"], t, TO))
            case "no_such_route" if params.get("start") in PLACE_SET and params.get("to") in PLACE_SET:
                return t.gettext("There is no flight {start} {to}.").format(
                    start=place(params["start"], t, FROM), to=place(params["to"], t, TO))
            case "cannot_afford" if "price" in params and "cash" in params:
                return t.gettext("That costs {price} and you have {cash}.").format(
                    price=money(int(params["price"]), t), cash=money(int(params["cash"]), t))
            case "leg_blocked":
                return t.gettext("That ship would take you back the way you came. Choose another route.")
            case "wrong_destination" if params.get("dest") in PLACE_SET:
                return t.gettext("Your ship is bound {to}: sail on or stay.").format(to=place(params["dest"], t, TO))
            case "can_afford_fare":
                return t.gettext("You can pay the fare ({fare}), so the passage is not free: buy a ticket.").format(
                    fare=money(int(params.get("fare", SEA_FARE)), t))
            case "can_afford_flip":
                return t.gettext("You can pay for the flip ({price}), so rolling for it is not allowed.").format(
                    price=money(int(params.get("price", FLIP_PRICE)), t))
        if code in REASONS:
            return t.gettext(REASONS[code])
        if code in X_REASONS:
            return t.gettext(X_REASONS[code])
        return t.gettext("That move is not possible now.")

    @staticmethod
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
        return t.gettext("That is not possible at this point of the turn.")

    def render_image(self, view: Any, ctx: RenderContext) -> bytes | None:
        # The board picture depends only on positions, tokens and names, so transports that skip an
        # unchanged picture (Telegram edits only the caption, Matrix compares hashes) upload a new
        # one only when something moved; renders of the same position come from a cache.
        from chatbot.games.afrikan_tahti.picture import board_png

        return board_png(view, ctx)


BASE_VERBS = frozenset({"start", "roll", "move", "board", "free_sail", "fly", "flip", "flip_roll", "stay",
                        "end_phase"})
#: expansion verbs whose buttons reveal nothing hidden (hand cards, peeks, offers stay private)
GROUP_VERBS = BASE_VERBS | {"character", "seaplane", "gem_roll", "reroll_move", "adjust", "use", "reroll_done",
                            "sell", "peek", "buy_discard", "duel", "exchange", "accept", "decline"}
X_GROUPS = {"character": "character", "use": "use", "reroll": "reroll", "choose": "choose", "play": "play",
            "duel": "duel", "sell": "sell", "hold": "hold", "unhold": "hold", "swap_stack": "swap",
            "offer": "offer", "discard": "discard"}
OFFER_BUTTONS = 6
ALL_TOPICS = (*TOPICS, *X_TOPICS, *_card_topics())

UI = AfrikanTahtiUI()
