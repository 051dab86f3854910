"""More words that lead to Afrikan tähti's rule topics (issue #15): synonyms, spoken forms and the
phrases players ask with, beside each topic's own keywords (texts.ALL_TOPICS) and its title (the
cards, characters and places are found by their names in both languages through their titles)."""

from __future__ import annotations

TOPIC_WORDS: dict[str, tuple[str, ...]] = {
    "afrikan_tahti.overview": ("kyse", "mistä on kyse", "tarkoitus", "idea", "what is the game about"),
    "afrikan_tahti.turn.base": ("vuorolla", "on my turn", "stay put"),
    "afrikan_tahti.setup": ("alussa", "aloitusraha", "start with", "where does everyone start"),
    "afrikan_tahti.move.land": ("askelta", "kävellä", "liikutaan", "steps", "walk"),
    "afrikan_tahti.move.sea": ("laivamatka", "laivalla", "purjehditaan", "sailing cost"),
    "afrikan_tahti.move.sea_broke": (
        "ei rahaa",
        "rahaton",
        "ilmainen merimatka",
        "broke",
        "no money",
        "free passage",
    ),
    "afrikan_tahti.move.land_sea": ("maa ja meri", "leftover steps", "combine land and sea"),
    "afrikan_tahti.move.air": ("lentäminen", "lentää", "flight", "fly from"),
    "afrikan_tahti.dice": ("noppaa", "nopan", "heitetään", "roll the die"),
    "afrikan_tahti.tokens.flip": ("kiekon kääntäminen", "kääntää kiekko", "flip a token"),
    "afrikan_tahti.tokens.values": (
        "arvoinen",
        "paljonko arvoinen",
        "worth",
        # the robber token by its synonyms
        "varas",
        "ryöstäjä",
        "rosvokiekko",
        "bandit",
        "thief",
        "robbers",
    ),
    "afrikan_tahti.hazard": ("beduiinit", "merirosvot", "vangitsee", "get free", "bedouins capture"),
    "afrikan_tahti.win": ("kuka voittaa", "who wins", "voittaja"),
    "afrikan_tahti.exp.duel": (
        "kaksintaistelu",
        "kaksintaistella",
        "yhteenotto",
        "haastaa yhteenottoon",
        "mittelö",
        "taisto",
        "challenge to a duel",
        "fight",
    ),
    "afrikan_tahti.exp.duel_roll": ("kumpi heittää", "heittää ensin", "rolls first", "duel roll"),
    "afrikan_tahti.exp.duel_penalties": (
        "hävitä kaksintaistelu",
        "hävitä yhteenotto",
        "häviäjä",
        "häviäjälle",
        "lose a duel",
        "the loser",
    ),
    "afrikan_tahti.exp.card_limit": (
        "montako korttia kädessä",
        "kädessä saa olla",
        "how many cards can i hold",
        "hold",
        "liikaa kortteja",
    ),
    "afrikan_tahti.exp.selling": ("myydä kortti", "myynnistä", "sell cards"),
    "afrikan_tahti.exp.trade": ("vaihtokauppa", "tehdä kauppaa", "kauppa toimii", "make an offer"),
    "afrikan_tahti.exp.rainy_season": ("sadekausi alkaa", "rain start", "sateella"),
    "afrikan_tahti.exp.danger_dice": ("vaaranoppaa", "danger dice"),
    "afrikan_tahti.exp.characters": ("hahmon", "hahmolla", "erikoiskyky", "character ability"),
    "afrikan_tahti.exp.quick_game": ("nopea peli", "lyhyt peli", "quick game"),
}
