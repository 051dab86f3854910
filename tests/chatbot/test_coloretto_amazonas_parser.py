"""The Coloretto Amazonas parser, table-driven over real engine views, under both lemmatiser backends.

Each case: a scenario (a state built with the engine), the speaker's seat, the language, the text and
the expected result: a notation, ``"!code"`` for a refusal with that reason, a tuple starting with
``"?"`` for a question between those candidates (``("?",)`` = any question), or ``None`` for "not
understood". Spec §8.6 and §8.7 examples are all here, with the seat names of the scenario.

A refusal is what the player gets, as the core makes it: either the parser's own code (words that
name no move, or a speaker who is not to act) or the engine's ``check`` refusing the move the parser
says was meant.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from chatbot.core.nlp import Lemmatizer
from chatbot.core.parsing import Ambiguous, NotLegal, NotUnderstood, ParseContext, Parsed
from chatbot.games.coloretto_amazonas import UI
from chatbot.games.coloretto_amazonas.parser import ColorettoParser
from engines.coloretto_amazonas import ENGINE
from engines.coloretto_amazonas.model import GIFT, OVER, Gift, Options, SeatState
from engines.contract import IllegalAction
from tests.chatbot.notations import notations, written

NAMES = {2: ("Matti", "Liisa"), 3: ("Matti", "Liisa", "Pekka"), 4: ("Matti", "Liisa", "Anna", "Jussi")}
BOT_NAMES = ("Alice", "Botti 1", "Botti 2")


def _cards(kinds: list[str], used: dict[str, int]) -> tuple[str, ...]:
    """Instance ids for kinds, each copy number used once per state."""
    out = []
    for kind in kinds:
        used[kind] = used.get(kind, 0) + 1
        out.append(f"{kind}.{used[kind]}")
    return tuple(out)


def make(
    players: int,
    hands: dict[int, list[str]],
    rows: dict[int, dict[str, list[str]]] | None = None,
    *,
    active: int = 0,
    gift: tuple[int, int, str] | None = None,
    protection: int | None = None,
    over: bool = False,
):
    """A state with the given hands and rows (seat -> colour -> kinds); ``gift`` = (giver, receiver,
    kind) puts the game in the GIFT phase."""
    state = ENGINE.new_game(players, "parser", Options(start_player="seat0"))
    used: dict[str, int] = {}
    seats = []
    for seat in range(players):
        own = (rows or {}).get(seat, {})
        seat_rows = tuple(_cards(own.get(c, []), used) for c in "BPRG")
        seats.append(SeatState(hand=_cards(hands.get(seat, ["G6", "G6", "B4"]), used), rows=seat_rows))
    state = replace(state, seats=tuple(seats), active=active, protection=protection)
    if gift is not None:
        giver, receiver, kind = gift
        state = replace(state, phase=GIFT, gift=Gift(giver, receiver, _cards([kind], used)[0]))
    if over:
        state = replace(state, phase=OVER, end_reason="deck")
    return state


SCENARIOS = {
    # Matti to act, two players: piraija, tukaani, sammakko in hand
    "A": make(2, {0: ["B2", "P2", "G5"]}),
    # two purple kinds and a brown one
    "B": make(2, {0: ["P1", "P4", "R2"]}),
    # three players; Pekka holds the protection card
    "C": make(3, {0: ["B2", "G1", "R1"]}, protection=2),
    # three players, no protection yet
    "C2": make(3, {0: ["B2", "G1", "R1"]}),
    # four players: Matti, Liisa, Anna, Jussi
    "D": make(4, {0: ["P1", "G5", "R2"]}),
    # Liisa was given a jaguar; she has one in her row and anaconda + iguana in the brown neighbour row
    "GIFT1": make(
        2, {0: ["B1", "B2"]}, {1: {"P": ["P1"], "R": ["R1", "R3"], "G": ["G1"]}}, active=0, gift=(0, 1, "G1")
    ),
    # Liisa was given a caiman: neighbours purple (macaw) and green (tapir)
    "GIFT2": make(2, {0: ["B1", "B2"]}, {1: {"R": ["R2"], "P": ["P1"], "G": ["G3"]}}, gift=(0, 1, "R2")),
    # Liisa was given a piranha: the only neighbour card is a hummingbird
    "GIFT3": make(2, {0: ["B1", "B3"]}, {1: {"B": ["B2"], "P": ["P4"]}}, gift=(0, 1, "B2")),
    "OVER": make(2, {0: ["B2", "P2"]}, over=True),
    # Alice and two AI players (the core names them "Botti N")
    "BOTS": make(3, {0: ["G5", "B2", "P2"]}),
}

PLAYS_A = ("?", "play B2", "play P2", "play G5")

FINNISH = [
    # spec §8.6 and everyday ways to play a card
    ("A", 0, "pelaan tukaanin", "play P2"),
    ("A", 0, "pelaa tukaani", "play P2"),
    ("A", 0, "laita tukaani riviin", "play P2"),
    ("A", 0, "laitan piraijan siniseen riviin", "play B2"),
    ("A", 0, "pelaa toinen kortti", "play P2"),
    ("A", 0, "pelaan toisen kortin", "play P2"),
    ("A", 0, "pelaa kortti 3", "play G5"),
    ("A", 0, "pelaa ensimmäinen", "play B2"),
    ("A", 0, "pelaa eka", "play B2"),
    ("A", 0, "pelaa viimeinen kortti", "play G5"),
    ("A", 0, "pelaa kakkonen", "play P2"),
    ("A", 0, "laita sininen riviin", "play B2"),
    ("A", 0, "pidän tukaanin itse", "play P2"),
    ("A", 0, "sijoitan piraijan riviini", "play B2"),
    ("A", 0, "pelataan sammakko", "play G5"),
    ("A", 0, "laitetaan tukaani", "play P2"),
    ("A", 0, "lisään myrkkysammakon vihreään riviin", "play G5"),
    ("A", 0, "PELAA TUKAANI!", "play P2"),
    ("A", 0, "vihrea riviin", "play G5"),
    ("A", 0, "Pelaa 🟪 tukaani", "play P2"),  # the button label typed back
    # giving
    ("A", 0, "anna piraija Liisalle", "give B2 seat1"),
    ("A", 0, "annan Liisalle piraijan", "give B2 seat1"),
    ("A", 0, "Liisalle sammakko", "give G5 seat1"),
    ("A", 0, "heitä sammakko Liisalle", "give G5 seat1"),
    ("A", 0, "anna toiselle tukaani", "give P2 seat1"),
    ("A", 0, "anna vastustajalle nuolimyrkkysammakko", "give G5 seat1"),
    ("A", 0, "lahjoitan tukaanin Liisalle", "give P2 seat1"),
    ("A", 0, "tarjoa tukaani Liisalle", "give P2 seat1"),
    ("A", 0, "annetaan piraija Liisalle", "give B2 seat1"),
    ("A", 0, "anna tukaani pelaajalle 2", "give P2 seat1"),
    ("A", 0, "Anna 🟪 tukaani → Liisa", "give P2 seat1"),  # the button label typed back
    ("A", 0, "laita tukaani Liisalle", "give P2 seat1"),  # a name in the allative makes it a gift
    ("A", 0, "pelaa piraija Liisalle", "give B2 seat1"),
    ("A", 0, "heitä tukaani pois", "!no_gift"),
    # typos
    ("A", 0, "pelaa tukani", "play P2"),
    ("A", 0, "pelaan piraijn", "play B2"),
    ("A", 0, "anan tukaani Liisalle", "give P2 seat1"),
    ("A", 0, "anna tukaani Lisalle", "give P2 seat1"),
    # impossible, ambiguous and meaningless commands
    ("A", 0, "anna kilpikonna Liisalle", "!unknown_animal"),
    ("A", 0, "pelaan jaguaarin", "!not_in_hand"),
    ("A", 0, "laita tukaani siniseen", "!wrong_row"),
    ("A", 0, "laita tukaani siniseen riviin", "!wrong_row"),
    ("A", 0, "anna tukaani itselleni", "!give_self"),
    ("A", 0, "anna tukaani Matille", "!give_self"),
    ("A", 0, "hyväksyn", "!no_gift"),
    ("A", 0, "hylkään", "!no_gift"),
    ("A", 0, "pelaa neljäs kortti", "!no_such_position"),
    ("A", 0, "pelaa ruskea", "!no_colour_in_hand"),
    ("A", 0, "tukaani", ("?", "play P2", "give P2 seat1")),
    ("A", 0, "pelaa", PLAYS_A),
    ("A", 0, "anna Liisalle", ("?", "give B2 seat1", "give P2 seat1", "give G5 seat1")),
    ("A", 0, "banaani", None),
    ("A", 0, "joo", None),
    ("B", 0, "pelaa violetti", ("?", "play P1", "play P4")),
    ("B", 0, "laitan kolibrin violettiin riviin", "play P4"),
    ("B", 0, "pelaan papukaijan", "play P1"),
    ("B", 0, "pelaan aran", "play P1"),
    ("B", 0, "anna kaimaani Liisalle", "give R2 seat1"),
    ("B", 0, "anna krokotiili Liisalle", "give R2 seat1"),
    ("B", 0, "laita ruskea riviin", "play R2"),
    ("B", 0, "anna punaara toiselle", "give P1 seat1"),
    # three and four players
    ("C", 0, "anna jaguaari Liisalle", "give G1 seat1"),
    ("C", 0, "anna jaguaari Pekalle", "!protected"),
    ("C", 0, "anna käärme", "give R1 seat1"),  # Pekka is protected: Liisa is the only receiver
    ("C", 0, "pelaa anakonda", "play R1"),
    ("C2", 0, "anna toiselle jaguaari", ("?", "give G1 seat1", "give G1 seat2")),
    ("C2", 0, "anna jaguaari Pekalle", "give G1 seat2"),
    ("D", 0, "anna papukaija Annalle", "give P1 seat2"),
    ("D", 0, "heitä sammakko Jussille", "give G5 seat3"),
    ("D", 0, "annan Jussille kaimaanin", "give R2 seat3"),
    ("D", 0, "Anna", ("?",)),  # the verb or the player? ask
    # the receiver of a gift
    ("GIFT1", 1, "hyväksyn", "accept"),
    ("GIFT1", 1, "otan vastaan", "accept"),
    ("GIFT1", 1, "ota", "accept"),
    ("GIFT1", 1, "joo", "accept"),
    ("GIFT1", 1, "pidä", "accept"),
    ("GIFT1", 1, "otan jaguaarin vastaan", "accept"),
    ("GIFT1", 1, "otan Matin jaguaarin vastaan", "accept"),
    ("GIFT1", 1, "laita se riviin", "accept"),
    ("GIFT1", 1, "hylkään ja poistan anakondan", "refuse R1"),
    ("GIFT1", 1, "en ota, heitä ruskeasta leguaani pois", "refuse R3"),
    ("GIFT1", 1, "kieltäydyn, poista käärme", "refuse R1"),
    ("GIFT1", 1, "hylkää lisko", "refuse R3"),
    ("GIFT1", 1, "hylkaa lisko", "refuse R3"),
    ("GIFT1", 1, "poista ruskeasta anakonda", "refuse R1"),
    ("GIFT1", 1, "torjun, heitä pois leguaani", "refuse R3"),
    ("GIFT1", 1, "ei", ("?", "refuse R1", "refuse R3")),
    ("GIFT1", 1, "ei kiitos", ("?", "refuse R1", "refuse R3")),
    ("GIFT1", 1, "en halua", ("?", "refuse R1", "refuse R3")),
    ("GIFT1", 1, "hylkään ja poistan punaaran", "!not_neighbour"),
    ("GIFT1", 1, "hylkään ja poistan kaimaanin", "!not_in_row"),
    ("A", 0, "pelaa se jonka juuri nostin", PLAYS_A),  # a description, not an unknown animal
    ("GIFT1", 1, "anna jaguaari Matille", "!gift_pending"),
    ("GIFT2", 1, "hylkään ja poistan punaaran", "refuse P1"),
    ("GIFT2", 1, "en ota, heitä vihreästä tapiiri pois", "refuse G3"),
    ("GIFT2", 1, "hylkään", ("?", "refuse P1", "refuse G3")),
    ("GIFT2", 1, "hylkään ja poistan vihreän", "refuse G3"),
    ("GIFT2", 1, "poista violetista", "refuse P1"),
    ("GIFT3", 1, "ei", "refuse P4"),
    ("GIFT3", 1, "hylkään", "refuse P4"),
    # someone who is not to act, and a finished game
    ("A", 1, "pelaan tukaanin", "!not_your_turn"),
    ("A", 1, "joo", None),
    ("A", 1, "jaguaari on kiva eläin", None),
    ("GIFT1", 0, "pelaan piraijan", "!not_your_turn"),
    ("OVER", 0, "pelaa tukaani", "!game_over"),
]

ENGLISH = [
    ("A", 0, "play the toucan", "play P2"),
    ("A", 0, "play toucan", "play P2"),
    ("A", 0, "put the toucan in my purple row", "play P2"),
    ("A", 0, "play card 2", "play P2"),
    ("A", 0, "play my blue card", "play B2"),
    ("A", 0, "play the second card", "play P2"),
    ("A", 0, "play the last card", "play G5"),
    ("A", 0, "give the frog to Liisa", "give G5 seat1"),
    ("A", 0, "give Liisa the piranha", "give B2 seat1"),
    ("A", 0, "pass the frog to Liisa", "give G5 seat1"),
    ("A", 0, "hand the frog to Liisa", "give G5 seat1"),
    ("A", 0, "give the frog to my opponent", "give G5 seat1"),
    ("A", 0, "give the poison dart frog to Liisa", "give G5 seat1"),
    ("A", 0, "keep the toucan for myself", "play P2"),
    ("A", 0, "offer the piranha to Liisa", "give B2 seat1"),
    ("A", 0, "play the tucan", "play P2"),
    ("A", 0, "give the turtle to Liisa", "!unknown_animal"),
    ("A", 0, "play the jaguar", "!not_in_hand"),
    ("A", 0, "put the toucan in the blue row", "!wrong_row"),
    ("A", 0, "give the toucan to myself", "!give_self"),
    ("A", 0, "accept", "!no_gift"),
    ("A", 0, "play", PLAYS_A),
    ("A", 0, "toucan", ("?", "play P2", "give P2 seat1")),
    ("A", 0, "play the fourth card", "!no_such_position"),
    ("A", 0, "play my brown card", "!no_colour_in_hand"),
    ("A", 0, "give it to Liisa", ("?", "give B2 seat1", "give P2 seat1", "give G5 seat1")),
    ("B", 0, "play the hummingbird", "play P4"),
    ("B", 0, "put the hummingbird in my purple row", "play P4"),
    ("B", 0, "give the caiman to Liisa", "give R2 seat1"),
    ("B", 0, "give parrot to Liisa", "give P1 seat1"),
    ("B", 0, "play a purple card", ("?", "play P1", "play P4")),
    ("B", 0, "give the crocodile to player 2", "give R2 seat1"),
    ("D", 0, "pass the frog to Jussi", "give G5 seat3"),
    ("D", 0, "give Anna the macaw", "give P1 seat2"),
    ("BOTS", 0, "give the frog to the bot", ("?", "give G5 seat1", "give G5 seat2")),
    ("BOTS", 0, "give the frog to Botti 2", "give G5 seat2"),
    ("GIFT1", 1, "accept", "accept"),
    ("GIFT1", 1, "take it", "accept"),
    ("GIFT1", 1, "yes", "accept"),
    ("GIFT1", 1, "keep it", "accept"),
    ("GIFT1", 1, "refuse and remove the anaconda", "refuse R1"),
    ("GIFT1", 1, "decline, drop the iguana", "refuse R3"),
    ("GIFT1", 1, "no", ("?", "refuse R1", "refuse R3")),
    ("GIFT1", 1, "no thanks", ("?", "refuse R1", "refuse R3")),
    ("GIFT1", 1, "refuse and remove the macaw", "!not_neighbour"),
    ("GIFT1", 1, "reject, discard the snake", "refuse R1"),
    ("GIFT1", 1, "refuse, drop the lizard from my brown row", "refuse R3"),
    ("GIFT2", 1, "refuse and remove the macaw", "refuse P1"),
    ("GIFT2", 1, "decline, drop the tapir", "refuse G3"),
    ("GIFT2", 1, "remove from the green row", "refuse G3"),
    ("GIFT3", 1, "no", "refuse P4"),
    ("A", 1, "play the toucan", "!not_your_turn"),
    ("A", 1, "ok", None),
]

# --- spoken, written and polite forms, as players write them (issue #15) --------------------------

KEEP_OR_GIVE = ("?", "play P2", "give P2 seat1")
REFUSE_1 = ("?", "refuse R1", "refuse R3")

SPOKEN_FI = [
    ("A", 0, "laitan tukaanin omaan riviin", "play P2"),
    ("A", 0, "mä pelaan tukaanin", "play P2"),
    ("A", 0, "pelaan tokan", "play P2"),
    ("A", 0, "pelaan tokan kortin", "play P2"),
    ("A", 0, "pelaan kakkoskortin", "play P2"),
    ("A", 0, "laitan vikan riviin", "play G5"),
    ("A", 0, "laitan ekan kortin pöytään", "play B2"),
    ("A", 0, "pidän tukaanin", "play P2"),
    ("A", 0, "pidän sammakon itelle", "play G5"),
    ("A", 0, "otan sammakon itelleni", "play G5"),
    ("A", 0, "Haluaisin pelata tukaanin.", "play P2"),
    ("A", 0, "Pelaisin piraijan", "play B2"),
    ("A", 0, "Laittaisin sammakon vihreään riviin.", "play G5"),
    ("A", 0, "minä pelata tukaani", "play P2"),
    ("A", 0, "pelaan tukaanin mun riviin", "play P2"),
    ("A", 0, "pelaan tukaanin riviini", "play P2"),
    ("A", 0, "annan Liisa piraija", "give B2 seat1"),
    ("A", 0, "anna Liisa tukaani", "give P2 seat1"),
    ("A", 0, "Liisa saa sammakon", "give G5 seat1"),
    ("A", 0, "Liisalle tokakortti", "give P2 seat1"),
    ("A", 0, "passaan tukaanin Liisalle", "give P2 seat1"),
    ("A", 0, "tarjoisin tukaanin Liisalle", "give P2 seat1"),
    ("A", 0, "Antaisin piraijan Liisalle.", "give B2 seat1"),
    ("A", 0, "annetaan tää piraija Liisalle", "give B2 seat1"),
    ("A", 0, "lahjotan tukaanin Liisalle", "give P2 seat1"),
    ("A", 0, "annan Liisalle vikan", "give G5 seat1"),
    ("A", 0, "anna Liisalle kakkoskortti", "give P2 seat1"),
    ("A", 0, "annan tukaanin liisalle", "give P2 seat1"),
    ("A", 0, "pelaanko tukaanin?", None),
    ("A", 0, "annanko piraijan Liisalle", None),
    ("A", 0, "voinko antaa sammakon Liisalle?", None),
    ("A", 0, "pidän tukaanin ja annan sen Liisalle", KEEP_OR_GIVE),
    ("A", 0, "ok", None),
    ("A", 0, "ehkä pelaan tukaanin", None),  # the choice is still open
    ("A", 0, "pelaan kolmannen kortin", "play G5"),
    ("A", 0, "sammakko pöytään", "play G5"),
    ("A", 0, "tukaani omaan riviin", "play P2"),
    (
        "A",
        0,
        "annan sammakon Liisalle, pidän tukaanin",
        ("?", "play G5", "play P2", "give G5 seat1", "give P2 seat1"),
    ),
    # the receiver of a gift: one-word answers, colloquial and polite forms, clipped typing
    ("GIFT1", 1, "otan sen", "accept"),
    ("GIFT1", 1, "kelpaa", "accept"),
    ("GIFT1", 1, "käy mulle", "accept"),
    ("GIFT1", 1, "joo otetaan", "accept"),
    ("GIFT1", 1, "ok kiitos", "accept"),
    ("GIFT1", 1, "pidän sen", "accept"),
    ("GIFT1", 1, "nappaan sen", "accept"),
    ("GIFT1", 1, "Otan lahjan mielelläni vastaan.", "accept"),
    ("GIFT1", 1, "Hyväksyisin", "accept"),
    ("GIFT1", 1, "hyvaksyn", "accept"),
    ("GIFT1", 1, "kyllä", "accept"),
    ("GIFT1", 1, "en tarvii", REFUSE_1),
    ("GIFT1", 1, "ei käy", REFUSE_1),
    ("GIFT1", 1, "ei kelpaa", REFUSE_1),
    ("GIFT1", 1, "en ota, poistan liskon", "refuse R3"),
    ("GIFT1", 1, "en huoli, heitä anakonda pois", "refuse R1"),
    ("GIFT1", 1, "poistoon anakonda", "refuse R1"),
    ("GIFT1", 1, "kieltaydyn, poista kaarme", "refuse R1"),
    ("GIFT1", 1, "otanko vastaan?", None),
    ("GIFT2", 1, "ei, heitän tapiirin pois", "refuse G3"),
    ("GIFT2", 1, "kieltäydyn ja poistan punaaran", "refuse P1"),
    ("GIFT2", 1, "hylkäisin, poista vihree", "refuse G3"),
    ("GIFT3", 1, "en tarvii", "refuse P4"),
    ("GIFT3", 1, "ei kiitos", "refuse P4"),
]

SPOKEN_EN = [
    ("A", 0, "I'll play the toucan", "play P2"),
    ("A", 0, "put my toucan down", "play P2"),
    ("A", 0, "play my 2nd", "play P2"),
    ("A", 0, "I'd like to play the frog", "play G5"),
    ("A", 0, "let's give Liisa the piranha", "give B2 seat1"),
    ("A", 0, "gonna give the frog to Liisa", "give G5 seat1"),
    ("A", 0, "should I play the toucan?", None),
    ("A", 0, "can I give the frog to Liisa", None),
    ("A", 0, "keep the toucan and give it to Liisa", KEEP_OR_GIVE),
    ("GIFT1", 1, "sure", "accept"),
    ("GIFT1", 1, "yep I'll take it", "accept"),
    ("GIFT1", 1, "nah, drop the iguana", "refuse R3"),
    ("GIFT1", 1, "I don't want it", REFUSE_1),
    ("GIFT2", 1, "nope, remove the tapir", "refuse G3"),
    ("GIFT3", 1, "nope", "refuse P4"),
    ("GIFT3", 1, "nah", "refuse P4"),
    ("A", 0, "play my third card", "play G5"),
    ("A", 0, "maybe I'll play the toucan", None),
]


@pytest.fixture(scope="module")
def parser(lemmatizer: Lemmatizer) -> ColorettoParser:
    """The parser under each lemmatiser backend (the ``lemmatizer`` fixture of conftest.py)."""
    return ColorettoParser(lemmatizer)


def context(scenario: str, seat: int, lang: str) -> ParseContext:
    state = SCENARIOS[scenario]
    legal = ENGINE.legal_actions(state, seat)
    names = BOT_NAMES if scenario == "BOTS" else NAMES[state.players]
    return ParseContext(lang, seat, legal, ENGINE.view(state, seat), names)


def outcome(result, state=None, seat=None):
    """The result as the player meets it: a notation applied, ``"!code"``, a question or ``None``."""
    match result:
        case Parsed(actions=actions):
            if state is not None:
                try:
                    ENGINE.check(state, seat, actions[0])
                except IllegalAction as refused:
                    return f"!{refused.code}"
            return " ; ".join(notations(actions))
        case NotLegal(code=code):
            return f"!{code}"
        case Ambiguous(candidates=candidates):
            return ("?", *notations(candidates))
        case NotUnderstood():
            return None
    raise AssertionError(result)


def check(parser: ColorettoParser, scenario: str, seat: int, lang: str, text: str, expected) -> None:
    ctx = context(scenario, seat, lang)
    got = outcome(parser.parse(text, ctx), SCENARIOS[scenario], seat)
    if expected == ("?",):
        assert isinstance(got, tuple), (text, got)
    elif isinstance(expected, tuple):
        assert isinstance(got, tuple) and set(got[1:]) == set(expected[1:]), (text, got)
    else:
        assert got == expected, (text, got)
    # whatever is understood and not refused is legal now, and a question offers only legal moves
    legal = notations(ctx.legal)
    if isinstance(got, str) and not got.startswith("!"):
        assert got in legal
    if isinstance(got, tuple):
        assert set(got[1:]) <= set(legal)


def test_enough_cases():
    assert len(FINNISH) >= 60 and len(ENGLISH) >= 30
    assert len(SPOKEN_FI) >= 50 and len(SPOKEN_EN) >= 15  # issue #15


@pytest.mark.parametrize(
    ("scenario", "seat", "text", "expected"), FINNISH + SPOKEN_FI, ids=[c[2] for c in FINNISH + SPOKEN_FI]
)
def test_finnish(parser, scenario, seat, text, expected):
    check(parser, scenario, seat, "fi", text, expected)


@pytest.mark.parametrize(
    ("scenario", "seat", "text", "expected"), ENGLISH + SPOKEN_EN, ids=[c[2] for c in ENGLISH + SPOKEN_EN]
)
def test_english(parser, scenario, seat, text, expected):
    check(parser, scenario, seat, "en", text, expected)


def test_a_player_named_like_an_animal_is_a_receiver_in_the_allative(parser):
    # spec §8.5: "Ara" is a macaw and a player; "Aralle" is the player, "ara" the card
    state = make(2, {0: ["P1", "G1", "B2"]})
    legal = ENGINE.legal_actions(state, 0)
    ctx = ParseContext("fi", 0, legal, ENGINE.view(state, 0), ("Matti", "Ara"))
    assert outcome(parser.parse("anna jaguaari Aralle", ctx), state, 0) == "give G1 seat1"
    assert outcome(parser.parse("pelaa ara", ctx), state, 0) == "play P1"


def test_every_button_label_reads_back_as_its_action(parser):
    """The words on the buttons are commands too (DESIGN.md §4), in both languages."""
    from chatbot.core.gameui import RenderContext
    from chatbot.core.i18n import translator

    for scenario, seat in (("A", 0), ("B", 0), ("D", 0), ("GIFT1", 1), ("GIFT2", 1)):
        for lang in ("fi", "en"):
            ctx = context(scenario, seat, lang)
            rctx = RenderContext(translator(lang), ctx.seat_names, seat)
            for notation in notations(ctx.legal):
                label = UI.action_label(notation, ctx.view, rctx)
                assert outcome(parser.parse(label, ctx), SCENARIOS[scenario], seat) == notation, (lang, label)


@pytest.mark.parametrize(
    ("scenario", "seat", "text", "meant"),
    [
        ("A", 0, "pelaan jaguaarin", "play G1"),  # not in hand: the engine says not_in_hand
        ("A", 0, "anna tukaani itselleni", "give P2 seat0"),  # the engine says give_self
        ("C", 0, "anna jaguaari Pekalle", "give G1 seat2"),  # the engine says protected
        ("A", 0, "hyväksyn", "accept"),  # no gift: the engine says no_gift
        ("GIFT1", 1, "anna jaguaari Matille", "give G1 seat0"),  # the engine says gift_pending
        ("GIFT1", 1, "hylkään ja poistan punaaran", "refuse P1"),  # the engine says not_neighbour
    ],
)
def test_the_parser_returns_the_move_meant_and_leaves_legality_to_the_engine(
    parser, scenario, seat, text, meant
):
    assert written(parser.parse(text, context(scenario, seat, "fi"))) == Parsed((meant,))


def test_words_that_contradict_themselves_are_a_question(parser):
    # the tapir lies in the green row, not the purple one: ask before discarding it
    assert written(parser.parse("poista violetista tapiiri", context("GIFT2", 1, "fi"))) == Ambiguous(
        ("refuse G3",), "neighbour_card"
    )


def test_a_speaker_who_is_not_to_act_gets_the_engines_refusal(parser):
    """The move meant, refused by the engine (the core answers ``not_your_turn`` with its own line
    naming who is to act); words that name no one move are refused by the parser alike."""
    assert (
        outcome(parser.parse("pelaan tukaanin", context("A", 1, "fi")), SCENARIOS["A"], 1) == "!not_your_turn"
    )
    assert (
        outcome(parser.parse("pelaa tukaani", context("OVER", 0, "fi")), SCENARIOS["OVER"], 0) == "!game_over"
    )
    assert parser.parse("pelaa viides kortti", context("A", 1, "fi")) == NotLegal("not_your_turn")
