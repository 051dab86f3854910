"""More words that lead to Gnav's rule topics (issue #15): synonyms, spoken forms and the phrases
players ask with, beside each topic's own keywords (texts.TOPICS) and its title."""

from __future__ import annotations

TOPIC_WORDS: dict[str, tuple[str, ...]] = {
    "gnav.goal": ("tarkoitus", "idea", "voittaja", "win the game"),
    "gnav.turn": ("pitää antaa", "vuorolla", "on my turn", "have to swap"),
    "gnav.deck": (
        "montako korttia pakassa",
        "korttien järjestys",
        "how many cards in the deck",
        "highest",
        "lowest card",
    ),
    "gnav.matador": ("matadoreja", "matadorin", "matadorille", "which cards are matadors"),
    "gnav.matador.cuckoo": ("pyytää käeltä", "käeltä", "käelle", "käen", "gjøk", "ask the cuckoo"),
    "gnav.matador.dragoon": (
        "pyytää rakuunalta",
        "rakuunalta",
        "rakuunalle",
        "rakuunan",
        "hogg av",
        "ask the dragoon",
    ),
    "gnav.matador.cat": ("kissalta", "kissalle", "kissan", "kiss"),
    "gnav.matador.horse": ("hevoselta", "hevoselle", "hevosen", "hest forbi"),
    "gnav.matador.house": ("talolta", "talolle", "talon", "hus forbi"),
    "gnav.fool": ("narrin", "narrilla", "narrilta", "hold the fool"),
    "gnav.knock": ("kop kop", "knock knock", "miksi koputetaan", "pitääkö koputtaa", "koputuksen"),
    "gnav.dealer": ("jakaa", "jakaja", "jakajan", "deals", "deal", "who deals"),
    "gnav.settlement": ("jaon lopussa", "jaon loppu", "tie for lowest", "end of a deal", "lowest card"),
    "gnav.lives": ("elämää", "elämiä", "run out of lives", "how many lives"),
    "gnav.resting": ("levätä", "lepää", "sitting out", "sits out", "skip a deal"),
    "gnav.info": ("näkee", "nähdä kortti", "who can see", "see my card"),
}
