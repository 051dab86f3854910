"""Gnav text commands (rules spec §8), run under both lemmatiser backends.

Each row: the text, the situation (whose turn, dealer or not, knock phase…) and the expected result.
Every example of spec §8.3 and §8.4 is here, marked "§8.3" / "§8.4".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from chatbot.core.parsing import Ambiguous, NotLegal, NotUnderstood, ParseContext, Parsed
from chatbot.games.gnav import parser as gnav_parser
from chatbot.games.gnav.parser import GnavParser
from engines.contract import IllegalAction
from engines.gnav import ENGINE, Options
from tests.chatbot.notations import written

NAMES = ("Matti", "Liisa", "Pekka", "Botti 1")


@pytest.fixture(scope="module")
def parser(lemmatizer):
    """The parser under each lemmatiser backend (the ``lemmatizer`` fixture of conftest.py)."""
    return GnavParser(lemmatizer)


# --- situations: real engine states; the speaker is seat 0 (Matti) unless said -----------------------


def _deal(cards, *moves, players=4, **options):
    """A match with the rotation pointer on the last seat (order 0, 1, ..., the last seat deals), then
    ``moves`` by the seats on turn; ``cards`` is one deal's cards, or a list of them (one per deal)."""
    decks = cards if isinstance(cards[0], list) else [cards]
    state = ENGINE.new_game(players, "parser", Options(**options), decks=decks, rotation=players - 1)
    for move in moves:
        state, _ = ENGINE.apply(state, ENGINE.to_act(state)[0], ENGINE.parse_notation(move))
    return state


ORDINARY = ["n5", "n6", "n7", "n8"]


@dataclass(frozen=True)
class At:
    """The speaker's situation: a state of the engine, the speaker's seat, and whether the message came in
    the private chat."""

    label: str
    state: Any
    seat: int = 0
    private: bool = False

    def ctx(self, lang: str) -> ParseContext:
        legal = ENGINE.legal_actions(self.state, self.seat)
        view = ENGINE.view(self.state, self.seat)
        return ParseContext(lang, self.seat, legal, view, NAMES, private=self.private)

    def __str__(self) -> str:
        return self.label


TURN = At("turn", _deal(ORDINARY))  # Matti on turn; a request goes to Liisa
TURN_DM = At("turn-in-private", _deal(ORDINARY), private=True)
DEALER = At("dealer", _deal(ORDINARY, "keep", "keep", "keep"), seat=3)
MATADOR_DM = At("matador-in-private", _deal(["cat", "n6", "n7", "n8"]), private=True)
MATADOR_GROUP = At("matador-in-group", _deal(["cat", "n6", "n7", "n8"]))
KNOCKING = At("knock", _deal(["fool", "n6", "n7", "n8"], fool_auto_reveal=False))
WAIT_KNOCK = At("waiting-for-knock", _deal(["n5", "fool", "n7", "n8"], fool_auto_reveal=False))
OTHER = At("not-turn", _deal(ORDINARY, "keep", "keep"))  # Pekka (seat 2) on turn
# Matti held the fool at the end of deal 1 and survived: he rests in deal 2
RESTING = At("resting", _deal([["fool", "n6", "n7", "n8"], ORDINARY[:3]], "keep", "keep", "keep", "keep"))
OUT = At("eliminated", _deal(["n1", "n6", "n7", "n8"], "keep", "keep", "keep", "keep", lives=1))
OVER = At("over", _deal(["n1", "n6"], "keep", "keep", players=2, lives=1))


def P(*actions: str) -> Parsed:
    return Parsed(actions)


def no(code: str, **params: Any) -> NotLegal:
    return NotLegal(code, tuple(params.items()))


@dataclass(frozen=True)
class Refused:
    """The parser reads the move ``action``, and the engine's check refuses it with ``code``."""

    action: str
    code: str


KEEP, ASK, KNOCK = P("keep"), P("ask"), P("knock")
CLARIFY = Ambiguous(("keep", "ask"), "keep_or_ask")
QUESTION = Ambiguous(("keep", "ask"), "question")
CHAT = NotUnderstood()

# --- Finnish ------------------------------------------------------------------------------------

FI = [
    # KEEP (§8.3)
    ("Pidän.", TURN, KEEP),
    ("pidän korttini", TURN, KEEP),
    ("jään tähän", TURN, KEEP),
    ("seison", TURN, KEEP),
    ("en vaihda", TURN, KEEP),
    ("pidä", TURN, KEEP),
    ("pidetään", TURN, KEEP),
    ("pidän kortin", TURN, KEEP),
    ("älä vaihda", TURN, KEEP),
    ("ei vaihtoa", TURN, KEEP),
    ("tyydyn tähän", TURN, KEEP),
    ("en halua vaihtaa", TURN, KEEP),
    ("står", TURN, KEEP),
    ("jeg står", TURN, KEEP),
    ("pidan", TURN, KEEP),  # typed without ä
    ("jaan tahan", TURN, KEEP),
    ("seisn", TURN, KEEP),  # typo
    # REQUEST (§8.3)
    ("Vaihda!", TURN, ASK),
    ("vaihdan", TURN, ASK),
    ("pyydän vaihtoa", TURN, ASK),
    ("vaihdetaan", TURN, ASK),
    ("vaihto", TURN, ASK),
    ("vaihtoa", TURN, ASK),
    ("haluan vaihtaa", TURN, ASK),
    ("vaihtaisin", TURN, ASK),
    ("bytt", TURN, ASK),
    ("vaihdan Liisan kanssa", TURN, ASK),  # the left neighbour named
    ("vaihdam", TURN, ASK),  # typo
    ("vaihdna korttia", TURN, ASK),
    ("pyydn vaihtoa", TURN, ASK),
    ("vaihdetan", TURN, ASK),
    # the dealer and the stock (§8.3, §8.2 item 7)
    ("otan pakasta", DEALER, ASK),
    ("nostan pakasta", DEALER, ASK),
    ("vaihdan", DEALER, ASK),
    ("otan pakasta", TURN, no("stock_dealer_only")),
    ("nostan", TURN, no("stock_dealer_only")),
    ("vaihdan Pekan kanssa", TURN, no("ask_goes_left", responder=1)),
    ("vaihdan Liisan kanssa", DEALER, no("ask_goes_left", responder=None)),
    # CLARIFY and questions (§8.2 items 3-5)
    ("vaihdanko?", TURN, QUESTION),
    ("vaihdanko", TURN, QUESTION),
    ("pidänkö", TURN, QUESTION),
    ("pitäisikö vaihtaa", TURN, QUESTION),
    ("kannattaako vaihtaa", TURN, QUESTION),
    ("en pidä tästä", TURN, CLARIFY),
    ("pidän vai vaihdan", TURN, CLARIFY),
    ("passaan", TURN, CLARIFY),
    ("passi", TURN, CLARIFY),
    # the matador holder's confirmation (G9): asked in private only, so the group learns nothing
    ("vaihdan", MATADOR_DM, no("matador_give_away")),
    ("vaihdan silti", MATADOR_DM, ASK),
    ("pidän", MATADOR_DM, KEEP),
    ("vaihdan", MATADOR_GROUP, ASK),
    # knocking (fool_auto_reveal off)
    ("koputan", KNOCKING, KNOCK),
    ("kop kop", KNOCKING, KNOCK),
    ("koputus", KNOCKING, KNOCK),
    ("pidän", KNOCKING, Refused("keep", "must_knock")),
    ("koputan", TURN, Refused("knock", "nothing_to_knock")),
    ("pidän", WAIT_KNOCK, Refused("keep", "waiting_for_knock")),
    # no next-deal step; not the speaker's turn; chat and questions that are not commands
    ("seuraava jako", TURN, no("next_deal_auto")),  # §8.3
    ("jatka", TURN, no("next_deal_auto")),  # §8.3
    ("vaihdan", OTHER, Refused("ask", "not_your_turn")),
    ("pidän", RESTING, Refused("keep", "resting")),
    ("vaihdan", OUT, Refused("ask", "eliminated")),
    ("pidän", OVER, Refused("keep", "game_over")),
    ("mitä kissa tekee?", TURN, CHAT),  # §8.3: a rules question
    ("miten käki toimii", TURN, CHAT),
    ("jään pois", TURN, CHAT),  # §8.2 item 6: leaving, not a move
    ("lopetan", TURN, CHAT),
    ("pidän tästä pelistä", TURN, CHAT),
    ("hyvä peli", OTHER, CHAT),
    ("vaihtoehto", TURN, CHAT),  # §8.2 item 2: no prefix matching
    ("kuka voitti", OTHER, CHAT),
    ("vaihdanko?", OTHER, CHAT),
    ("hei kaikki", TURN, CHAT),
]

# --- English ------------------------------------------------------------------------------------

EN = [
    ("keep", TURN, KEEP),  # §8.4
    ("I'll keep my card", TURN, KEEP),  # §8.4
    ("stay", TURN, KEEP),  # §8.4
    ("I stand", TURN, KEEP),  # §8.4
    ("don't swap", TURN, KEEP),  # §8.4
    ("hold", TURN, KEEP),
    ("no swap", TURN, KEEP),
    ("no trade", TURN, KEEP),
    ("keep it", TURN, KEEP),
    ("keeep", TURN, KEEP),  # typo
    ("swap", TURN, ASK),  # §8.4
    ("trade please", TURN, ASK),  # §8.4
    ("exchange", TURN, ASK),  # §8.4
    ("switch", TURN, ASK),
    ("I'll trade", TURN, ASK),
    ("swap please", TURN, ASK),
    ("i want to swap", TURN, ASK),
    ("swap with Liisa", TURN, ASK),
    ("swapp", TURN, ASK),  # typos
    ("exchnage", TURN, ASK),
    ("take from the stock", DEALER, ASK),  # §8.4
    ("draw", DEALER, ASK),
    ("take from the stock", TURN, no("stock_dealer_only")),
    ("draw", TURN, no("stock_dealer_only")),
    ("swap with Pekka", TURN, no("ask_goes_left", responder=1)),
    ("should I swap?", TURN, QUESTION),  # §8.4
    ("should I swap", TURN, QUESTION),
    ("can I swap", TURN, QUESTION),
    ("what if I keep", TURN, QUESTION),
    ("keep or swap", TURN, CLARIFY),  # §8.4
    ("pass", TURN, CLARIFY),  # §8.4
    ("don't keep", TURN, CLARIFY),
    ("swap", MATADOR_DM, no("matador_give_away")),
    ("swap anyway", MATADOR_DM, ASK),
    ("knock", KNOCKING, KNOCK),
    ("knock knock", KNOCKING, KNOCK),
    ("keep", KNOCKING, Refused("keep", "must_knock")),
    ("knock", TURN, Refused("knock", "nothing_to_knock")),
    ("next deal", TURN, no("next_deal_auto")),  # §8.4
    ("continue", TURN, no("next_deal_auto")),  # §8.4
    ("swap", OTHER, Refused("ask", "not_your_turn")),
    ("keep", OVER, Refused("keep", "game_over")),
    ("what does the cuckoo do", TURN, CHAT),  # §8.4: a rules question
    ("how does the cat work", TURN, CHAT),
    ("quit", TURN, CHAT),
    ("good game", OTHER, CHAT),
    ("hello everyone", TURN, CHAT),
]

# --- spoken, written and polite forms, as players write them (issue #15) --------------------------

SPOKEN_FI = [
    # colloquial verbs and their kin
    ("pidän tän", TURN, KEEP),
    ("mä pidän tän kortin", TURN, KEEP),
    ("pidetään vaan", TURN, KEEP),
    ("pysyn", TURN, KEEP),
    ("mä pysyn tässä", TURN, KEEP),
    ("kelpaa", TURN, KEEP),
    ("tää kelpaa mulle", TURN, KEEP),
    ("en tarvii vaihtaa", TURN, KEEP),
    ("ei tarvii vaihtaa", TURN, KEEP),
    ("en mä vaihda", TURN, KEEP),
    ("jätän vaihtamatta", TURN, KEEP),  # the abessive says *not* to swap
    ("en mä viitti vaihtaa", TURN, KEEP),  # "mä" does not carry the swap out of the negation's reach
    ("no mä pidän sit tän", TURN, KEEP),
    ("okei vaihdetaan vaan", TURN, ASK),
    ("otan riskin ja vaihdan", TURN, ASK),
    ("vaihtoon!", TURN, ASK),
    ("annan tän eteenpäin", TURN, ASK),
    ("en vaihdakaan", TURN, KEEP),  # -kaan/-kään is no question clitic
    ("pidänkin", TURN, KEEP),
    ("vaihdankin sittenkin", TURN, ASK),
    ("en halua luopua tästä", TURN, KEEP),
    ("pidän kiinni tästä kortista", TURN, KEEP),
    ("I'll pass it on", TURN, CLARIFY),  # "pass" may be standing or passing the card on: ask
    ("jään", TURN, KEEP),
    ("nyt pidän", TURN, KEEP),
    ("kyllä mä pidän tän", TURN, KEEP),
    ("seison tässä", TURN, KEEP),
    ("tyydyn", TURN, KEEP),
    ("swappaan", TURN, ASK),
    ("swapataan", TURN, ASK),
    ("mä vaihdan", TURN, ASK),
    ("vaihetaan", TURN, ASK),
    ("vaihto kiitos", TURN, ASK),
    ("vaihda pliis", TURN, ASK),
    ("vaihetaan korttia", TURN, ASK),
    ("nappaan pakasta", DEALER, ASK),
    ("otan uuden pakasta", DEALER, ASK),
    ("nostan uuden kortin pakasta", DEALER, ASK),
    ("vaihdan pakan kanssa", DEALER, ASK),
    ("kop kop kop", KNOCKING, KNOCK),
    ("koputetaan", KNOCKING, KNOCK),
    ("mä koputan", KNOCKING, KNOCK),
    # clipped phone typing without umlauts; "jaa" is *deal*, not *jää*: never a keep, the bot asks
    ("pidan tan", TURN, KEEP),
    ("ma pidan", TURN, KEEP),
    ("en vaihda tata", TURN, KEEP),
    ("jaa", TURN, CLARIFY),
    ("jaan", TURN, CLARIFY),
    ("jaa kortit", TURN, CLARIFY),
    ("jaetaan", TURN, no("next_deal_auto")),
    ("jaan tahan", TURN, KEEP),
    # polite full sentences and conditionals
    ("Haluaisin pitää korttini.", TURN, KEEP),
    ("Pitäisin tämän kortin, kiitos.", TURN, KEEP),
    ("Haluaisin vaihtaa.", TURN, ASK),
    ("Vaihtaisin mielelläni korttia.", TURN, ASK),
    ("Ottaisin kortin pakasta.", DEALER, ASK),
    # the small slips of a Swedish-speaking Finn
    ("minä pitää", TURN, KEEP),
    ("mä haluan pitää tämä kortti", TURN, KEEP),
    ("minä vaihtaa kortti", TURN, ASK),
    ("mä haluan vaihda", TURN, ASK),
    ("jag byter", TURN, ASK),
    ("jag behåller", TURN, KEEP),
    # one-word answers to the prompt in front of the player
    ("ok", KNOCKING, KNOCK),
    ("joo", KNOCKING, KNOCK),
    ("ok", TURN_DM, CLARIFY),
    ("joo", TURN_DM, CLARIFY),
    ("ei", TURN_DM, CLARIFY),
    ("käy", TURN_DM, CLARIFY),
    ("pass", TURN_DM, CLARIFY),
    ("joo", TURN, CHAT),  # in the group a lone "joo" is talk
    # a question is never a move; keeping and giving away together asks
    ("voinko vaihtaa?", TURN, QUESTION),
    ("voisinko vaihtaa", TURN, QUESTION),
    ("vaihdetaanko", TURN, QUESTION),
    ("pitäisköhän vaihtaa", TURN, QUESTION),
    ("pidän?", TURN, QUESTION),
    ("ehkä vaihdan", TURN, QUESTION),  # the choice is still open: the two choices back
    ("en tiedä, pidänkö", TURN, QUESTION),
    ("pidän tän ja vaihdan", TURN, CLARIFY),
    ("en pidä, vaihdan", TURN, ASK),
    # the button labels typed back
    ("Pidän", TURN, KEEP),
    ("Vaihdan", TURN, ASK),
    ("Vaihdan pakan kanssa", DEALER, ASK),
    ("Kop kop", KNOCKING, KNOCK),
    ("Vaihdan (matadori lähtee)", MATADOR_DM, ASK),
]

SPOKEN_EN = [
    ("I'll keep", TURN, KEEP),
    ("keeping it", TURN, KEEP),
    ("I'm good", TURN, KEEP),
    ("stay put", TURN, KEEP),
    ("nah I'll keep it", TURN, KEEP),
    ("I'll stick with this one", TURN, KEEP),
    ("im keeping this one", TURN, KEEP),
    ("let's swap", TURN, ASK),
    ("I'd like to swap", TURN, ASK),
    ("swap it", TURN, ASK),
    ("trade with Liisa", TURN, ASK),
    ("I would like to trade my card", TURN, ASK),
    ("draw from the deck", DEALER, ASK),
    ("gimme a new one from the deck", DEALER, ASK),
    ("knock knock knock", KNOCKING, KNOCK),
    ("ok", KNOCKING, KNOCK),
    ("yes", TURN_DM, CLARIFY),
    ("ok", TURN, CHAT),
    ("should i keep?", TURN, QUESTION),
    ("keep and swap", TURN, CLARIFY),
    ("maybe I'll swap", TURN, QUESTION),
    ("Swap with the stock", DEALER, ASK),
    ("Swap (give the matador away)", MATADOR_DM, ASK),
]

# Both languages are accepted whatever the speaker's language is.
MIXED = [
    ("no swap", "fi", TURN, KEEP),
    ("vaihdan", "en", TURN, ASK),
    ("keep", "fi", TURN, KEEP),
    ("pidän", "en", TURN, KEEP),
]

ROWS = (
    [(text, "fi", at, expected) for text, at, expected in FI + SPOKEN_FI]
    + [(text, "en", at, expected) for text, at, expected in EN + SPOKEN_EN]
    + MIXED
)


@pytest.mark.parametrize(
    ("text", "lang", "at", "expected"), ROWS, ids=[f"{r[1]}:{r[0]}@{r[2]}" for r in ROWS]
)
def test_parse(parser, text, lang, at, expected):
    ctx = at.ctx(lang)
    result = parser.parse(text, ctx)
    if isinstance(expected, Refused):
        # what the player meant, and the engine's check gives the reason the player is told
        assert written(result) == P(expected.action), f"{text!r} in {at}: got {result}, expected {expected}"
        with pytest.raises(IllegalAction) as refused:
            ENGINE.check(at.state, at.seat, ENGINE.parse_notation(expected.action))
        assert refused.value.code == expected.code
        return
    assert written(result) == expected, f"{text!r} in {at}: got {result}, expected {expected}"
    if isinstance(result, Parsed):
        assert set(result.actions) <= set(ctx.legal)
    if isinstance(result, Ambiguous):
        assert set(result.candidates) <= set(ctx.legal)


def test_enough_inputs():
    assert len(FI) >= 40
    assert len(EN) >= 20
    assert len(SPOKEN_FI) >= 60 and len(SPOKEN_EN) >= 20  # issue #15


#: the refusals the parser gives itself (its docstring says why); every other reason is the engine's
PARSER_CODES = {"stock_dealer_only", "ask_goes_left", "next_deal_auto", "matador_give_away"}


def test_the_parser_refuses_only_what_the_engine_cannot_judge():
    assert {e.code for _, _, _, e in ROWS if isinstance(e, NotLegal)} == PARSER_CODES


@pytest.mark.parametrize("at", [OTHER, RESTING, OUT, WAIT_KNOCK, OVER], ids=str)
def test_a_speaker_who_cannot_act_is_told_why_whatever_the_command(parser, at):
    """Every command of a speaker without a move now gets the one reason of the situation, as it did when
    the parser worked the reason out itself: the engine's (the core answers ``not_your_turn`` with its
    short line naming whose turn it is)."""
    commands = [
        "pidän",
        "vaihdan",
        "passaan",
        "otan pakasta",
        "koputan",
        "seuraava jako",
        "vaihdan Pekan kanssa",
        "keep",
        "swap",
        "draw",
        "next deal",
    ]
    expected = {
        "not-turn": "not_your_turn",
        "resting": "resting",
        "eliminated": "eliminated",
        "waiting-for-knock": "waiting_for_knock",
        "over": "game_over",
    }[at.label]
    for text in commands:
        result = parser.parse(text, at.ctx("fi"))
        assert isinstance(result, Parsed), (text, result)
        with pytest.raises(IllegalAction) as refused:
            ENGINE.check(at.state, at.seat, result.actions[0])
        # [decided] a knock by someone who holds no fool is told so, rather than to wait for the knock
        assert refused.value.code == (
            "nothing_to_knock" if text == "koputan" and at is WAIT_KNOCK else expected
        )


def test_the_fool_holder_must_knock_whatever_else_they_say(parser):
    for text in ("pidän", "vaihdan", "passaan", "seuraava jako", "otan pakasta", "swap"):
        result = parser.parse(text, KNOCKING.ctx("fi"))
        assert isinstance(result, Parsed), (text, result)
        with pytest.raises(IllegalAction) as refused:
            ENGINE.check(KNOCKING.state, 0, result.actions[0])
        assert refused.value.code == "must_knock"


def test_the_situations_are_what_they_say():
    assert ENGINE.view(TURN.state, 0).responder() == 1 and ENGINE.view(DEALER.state, 3).responder() is None
    assert ENGINE.view(OTHER.state, 0).on_turn == 2 and ENGINE.legal_actions(OTHER.state, 0) == ()
    assert RESTING.state.resting == (0,) and OUT.state.lives[0] == 0 and OVER.state.phase == "over"
    assert ENGINE.to_act(KNOCKING.state) == (0,) and ENGINE.to_act(WAIT_KNOCK.state) == (1,)


def test_module_level_parse():
    assert written(gnav_parser.parse("pidän", TURN.ctx("fi"))) == KEEP
