"""More words that lead to Majavajengi's rule topics (issue #15): synonyms, spoken forms and the
phrases players ask with, beside each topic's own keywords (texts.TOPICS) and its title."""

from __future__ import annotations

TOPIC_WORDS: dict[str, tuple[str, ...]] = {
    "majavajengi.goal": ("voitto", "voittaja", "tarkoitus", "idea", "aim", "point of the game"),
    "majavajengi.setup": ("aloitus", "alussa", "jaetaan", "katsoa jaon jälkeen", "start", "beginning"),
    "majavajengi.turn": ("vuorolla", "omalla vuorolla", "on my turn", "my turn"),
    "majavajengi.action.take_discard": ("päällimmäinen", "poistopakasta", "top discard", "discard"),
    "majavajengi.action.draw": ("nostettu kortti", "nostettu", "nostaa kortti", "drawn card", "drawn"),
    "majavajengi.special": ("erikoinen", "erityiskortti", "special card"),
    "majavajengi.special.swap": ("vaihtaa", "vaihtokortti", "vaihtaa kortti", "exchange", "swap with"),
    "majavajengi.special.peek": ("kurkata", "kurkistan", "katsoa oma kortti", "look at my card"),
    "majavajengi.special.draw2": ("nosta kaksi", "kaksi nostoa", "nosta 2:lla", "draw two"),
    "majavajengi.reshuffle": (
        "nostopakka loppua",
        "pakka loppua",
        "runs out",
        "run out",
        "shuffle",
        "sekoittaa",
    ),
    "majavajengi.knock": ("koputan", "koputtaminen", "knocking", "knocker"),
    "majavajengi.last_lap": ("viimeinen kierros", "viimeisellä kierroksella", "koputtaja", "after a knock"),
    "majavajengi.round_end": ("kierroksen loppu", "kierroksen lopussa", "end of a round", "end of round"),
    "majavajengi.scoring": ("laskea pisteet", "pistelasku", "arvoinen", "worth", "points", "counted"),
    "majavajengi.next_round": ("seuraava kierros", "aloittaa seuraava kierros", "begins", "starts"),
    "majavajengi.game_end": (
        "peli loppua",
        "peli päättyä",
        "montako kierrosta",
        "how many rounds",
        "game end",
        "end of the game",
    ),
    "majavajengi.memory": ("muistaa", "muistuttaa", "remind", "remember"),
}
