"""More words that lead to Coloretto Amazonas' rule topics (issue #15): synonyms, spoken forms and
the phrases players ask with, beside each topic's own keywords (texts.TOPICS) and its title."""

from __future__ import annotations

TOPIC_WORDS: dict[str, tuple[str, ...]] = {
    "coloretto_amazonas.goal": ("tarkoitus", "idea", "voitto", "win the game"),
    "coloretto_amazonas.setup": ("aloittaa", "alussa", "set up", "row cards", "beginning"),
    "coloretto_amazonas.turn": ("vuorolla", "nostetaan", "on my turn"),
    "coloretto_amazonas.action.play": ("pelata kortti", "kortin pelaaminen", "play a card", "mihin riviin"),
    "coloretto_amazonas.row_capacity": ("montako korttia riviin", "riviin mahtuu", "fit in a row", "fit"),
    "coloretto_amazonas.duplicate": ("sama eläin", "tuplat", "same kind", "comes twice"),
    "coloretto_amazonas.full_row": ("täysi", "täydelle", "täyttyy", "rivi täynnä", "fills up", "row is full"),
    "coloretto_amazonas.bonus": ("bonuksen", "bonusta", "bonuses"),
    "coloretto_amazonas.action.give": ("antaa kortti", "kortin antaminen", "give a card"),
    "coloretto_amazonas.gift.accept": (
        "vastaan",
        "ottaa lahja vastaan",
        "hyväksyä kortti",
        "accept the gift",
        "have to accept",
    ),
    "coloretto_amazonas.gift.refuse": (
        "kieltäytyä kortista",
        "hylätä kortti",
        "decline a gift",
        "refuse a card",
    ),
    "coloretto_amazonas.protection": ("suojakortin", "suojaa", "protection card"),
    "coloretto_amazonas.protection.refuser": ("kieltäytyjän", "refuser protection variant"),
    "coloretto_amazonas.stacks_hidden": ("pinot", "pinoja", "face down", "hidden stacks"),
    "coloretto_amazonas.game_end": ("lopettaa peli", "peli päättyy", "peli loppuu", "when does the game end"),
    "coloretto_amazonas.scoring": (
        "pisteitä",
        "laskea pisteet",
        "saa pisteitä",
        "pisteitä saa",
        "worth",
        "points",
        "how many points",
    ),
}
