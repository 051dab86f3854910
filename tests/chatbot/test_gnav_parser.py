"""Gnav text commands (rules spec §8), run under both lemmatiser backends.

Each row: the text, the situation (whose turn, dealer or not, knock phase…) and the expected result.
Every example of spec §8.3 and §8.4 is here, marked "§8.3" / "§8.4".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from chatbot.core.nlp import Lemmatizer, LemmatizerUnavailable
from chatbot.core.parsing import Ambiguous, NotLegal, NotUnderstood, ParseContext, Parsed
from chatbot.games import gnav_parser
from chatbot.games.gnav_parser import GnavParser
from engines.gnav import ENGINE, Options

NAMES = ("Matti", "Liisa", "Pekka", "Botti 1")


@pytest.fixture(scope="module", params=["voikko", "table"])
def parser(request):
    try:
        lemmatizer = Lemmatizer(backend=request.param)
    except LemmatizerUnavailable:
        pytest.skip("libvoikko or the Finnish dictionary cannot be loaded")
    return GnavParser(lemmatizer)


# --- situations ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class At:
    """The speaker's situation: ``legal`` are the engine's legal actions for the speaker (empty when it is
    not their turn); ``extra`` the facts the parser reads (see the parser's docstring)."""

    label: str
    legal: tuple[str, ...] = ("keep", "ask")
    extra: dict[str, Any] = field(default_factory=dict)

    def ctx(self, lang: str) -> ParseContext:
        extra = {"phase": "turn", "dealer": False, "matador": False, "responder": 1, **self.extra}
        return ParseContext(lang, 0, self.legal, None, NAMES, extra)

    def __str__(self) -> str:
        return self.label


TURN = At("turn")
DEALER = At("dealer", extra={"dealer": True, "responder": None})
MATADOR_DM = At("matador-in-private", extra={"matador": True, "private": True})
MATADOR_GROUP = At("matador-in-group", extra={"matador": True, "private": False})
KNOCKING = At("knock", legal=("knock",), extra={"phase": "knock"})
WAIT_KNOCK = At("waiting-for-knock", legal=(), extra={"phase": "knock"})
OTHER = At("not-turn", legal=(), extra={"turn": 2})
RESTING = At("resting", legal=(), extra={"resting": True, "turn": 2})
OUT = At("eliminated", legal=(), extra={"eliminated": True, "turn": 2})
OVER = At("over", legal=(), extra={"phase": "over"})


def P(*actions: str) -> Parsed:
    return Parsed(actions)


def no(code: str, **params: Any) -> NotLegal:
    return NotLegal(code, tuple(params.items()))


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
    ("pidän", KNOCKING, no("must_knock")),
    ("koputan", TURN, no("nothing_to_knock")),
    ("pidän", WAIT_KNOCK, no("waiting_for_knock")),
    # no next-deal step; not the speaker's turn; chat and questions that are not commands
    ("seuraava jako", TURN, no("next_deal_auto")),  # §8.3
    ("jatka", TURN, no("next_deal_auto")),  # §8.3
    ("vaihdan", OTHER, no("not_your_turn", turn=2)),
    ("pidän", RESTING, no("resting")),
    ("vaihdan", OUT, no("eliminated")),
    ("pidän", OVER, no("game_over")),
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
    ("keep", KNOCKING, no("must_knock")),
    ("knock", TURN, no("nothing_to_knock")),
    ("next deal", TURN, no("next_deal_auto")),  # §8.4
    ("continue", TURN, no("next_deal_auto")),  # §8.4
    ("swap", OTHER, no("not_your_turn", turn=2)),
    ("keep", OVER, no("game_over")),
    ("what does the cuckoo do", TURN, CHAT),  # §8.4: a rules question
    ("how does the cat work", TURN, CHAT),
    ("quit", TURN, CHAT),
    ("good game", OTHER, CHAT),
    ("hello everyone", TURN, CHAT),
]

# Both languages are accepted whatever the speaker's language is.
MIXED = [
    ("no swap", "fi", TURN, KEEP),
    ("vaihdan", "en", TURN, ASK),
    ("keep", "fi", TURN, KEEP),
    ("pidän", "en", TURN, KEEP),
]

ROWS = [(text, "fi", at, expected) for text, at, expected in FI] + [
    (text, "en", at, expected) for text, at, expected in EN
] + MIXED


@pytest.mark.parametrize(("text", "lang", "at", "expected"), ROWS, ids=[f"{r[1]}:{r[0]}@{r[2]}" for r in ROWS])
def test_parse(parser, text, lang, at, expected):
    ctx = at.ctx(lang)
    result = parser.parse(text, ctx)
    assert result == expected, f"{text!r} in {at}: got {result}, expected {expected}"
    if isinstance(result, Parsed):
        assert set(result.actions) <= set(ctx.legal)
    if isinstance(result, Ambiguous):
        assert set(result.candidates) <= set(ctx.legal)


def test_enough_inputs():
    assert len(FI) >= 40
    assert len(EN) >= 20


# --- the situation read from a real view -----------------------------------------------------------


def _state_where(seat_on_turn_is_dealer: bool, own: str):
    """A 4-seat deal (rotation 3: order 0, 1, 2, 3; seat 3 deals) with ``own`` at the seat on turn."""
    cards = ["n5", "n6", "n7", "n8"]
    seat = 3 if seat_on_turn_is_dealer else 0
    cards[seat] = own
    state = ENGINE.new_game(4, "parser", Options(), decks=[cards], rotation=3)
    for _ in range(seat):
        state, _ = ENGINE.apply(state, state.order[state.turn], ENGINE.parse_notation("keep"))
    return state, seat


def _ctx(state, seat: int, lang: str = "fi", **extra: Any) -> ParseContext:
    legal = tuple(ENGINE.notation(a) for a in ENGINE.legal_actions(state, seat))
    return ParseContext(lang, seat, legal, ENGINE.view(state, seat), NAMES, extra)


def test_the_view_tells_dealer_responder_and_matador(parser):
    state, seat = _state_where(True, "n3")
    assert parser.parse("otan pakasta", _ctx(state, seat)) == ASK
    state, seat = _state_where(False, "n3")
    assert parser.parse("otan pakasta", _ctx(state, seat)) == no("stock_dealer_only")
    assert parser.parse("vaihdan Liisan kanssa", _ctx(state, seat)) == ASK
    assert parser.parse("vaihdan Pekan kanssa", _ctx(state, seat)) == no("ask_goes_left", responder=1)
    state, seat = _state_where(False, "cat")
    assert parser.parse("vaihdan", _ctx(state, seat, private=True)) == no("matador_give_away")
    assert parser.parse("vaihdan", _ctx(state, seat)) == ASK  # no private flag: never ask in the group


def test_the_view_tells_why_a_seat_cannot_act(parser):
    state, _ = _state_where(False, "n3")
    assert parser.parse("pidän", _ctx(state, 2)) == no("not_your_turn", turn=0)
    knock = ENGINE.new_game(4, "parser", Options(fool_auto_reveal=False), decks=[["fool", "n6", "n7", "n8"]],
                            rotation=3)
    assert parser.parse("koputan", _ctx(knock, 0)) == KNOCK
    assert parser.parse("pidän", _ctx(knock, 0)) == no("must_knock")
    assert parser.parse("pidän", _ctx(knock, 1)) == no("waiting_for_knock")


def test_module_level_parse():
    assert gnav_parser.parse("pidän", TURN.ctx("fi")) == KEEP

