"""Property tests (hypothesis): arbitrary action choices keep every engine's contract, and no text
at all can crash a game's parser or the bot, or make a parser propose a first move that is neither
legal nor refused by the engine's check."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import translator
from chatbot.core.parsing import Ambiguous, NotLegal, NotUnderstood, ParseContext, Parsed
from chatbot.games import UIS
from engines import GAMES
from engines.contract import IllegalAction
from engines.playout import replay
from tests.chatbot.table import Table

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# words players really type, mixed with noise, so that generated texts reach deep into the parsers
WORDS = [
    "nostan",
    "otan",
    "vaihda",
    "toiseen",
    "kolmanteen",
    "2",
    "4",
    "hylkään",
    "koputan",
    "valmis",
    "kurkistan",
    "Matin",
    "Liisalle",
    "pelaan",
    "papukaijan",
    "anna",
    "hyväksyn",
    "kieltäydyn",
    "pidän",
    "vaihdan",
    "mene",
    "Kairoon",
    "lennä",
    "Kongoon",
    "heitä",
    "noppaa",
    "käännä",
    "myyn",
    "kiväärin",
    "draw",
    "swap",
    "my",
    "second",
    "card",
    "with",
    "knock",
    "keep",
    "go",
    "to",
    "stay",
    "ja",
    "en",
    "?",
    "!",
    "@matti",
    "pelaaja 2",
    "ÄÖå",
    "🦫",
    "",
]
texts = st.one_of(
    st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join),
    st.text(max_size=40),
)


@pytest.mark.parametrize("game", sorted(GAMES))
@SETTINGS
@given(
    seed=st.text(max_size=8),
    choices=st.lists(st.integers(min_value=0, max_value=10_000), max_size=120),
    extra=st.integers(min_value=0, max_value=4),
)
def test_any_choice_of_legal_actions_keeps_the_contract(game, seed, choices, extra):
    engine = GAMES[game]
    players = min(engine.max_players, engine.min_players + extra)
    state = engine.new_game(players, seed)
    log = []
    for choice in choices:
        if engine.outcome(state) is not None:
            break
        seat = engine.to_act(state)[choice % len(engine.to_act(state))]
        legal = engine.legal_actions(state, seat)
        assert legal, "a seat to act always has a legal action"
        action = legal[choice % len(legal)]
        state, _ = engine.apply(state, seat, action)
        log.append((seat, engine.notation(action)))
    assert replay(engine, players, seed, None, log) == state
    assert engine.load(json.loads(json.dumps(engine.dump(state)))) == state
    for observer in (None, *range(players)):
        text = json.dumps(engine.dump(engine.view(state, observer)))
        assert not any(token in text for token in engine.hidden_tokens(state, observer))


@pytest.mark.parametrize("game", sorted(UIS))
@SETTINGS
@given(text=texts, steps=st.integers(min_value=0, max_value=30), lang=st.sampled_from(["fi", "en"]))
@example(text="kiväärin en", steps=0, lang="fi")  # was "play rifle", a notation the engine cannot read
def test_no_text_crashes_a_parser_or_proposes_an_illegal_move(game, text, steps, lang):
    engine = GAMES[game]
    ui = UIS[game]
    state = engine.new_game(
        3 if engine.min_players <= 3 <= engine.max_players else engine.min_players, "prop"
    )
    for i in range(steps):  # walk into the game so that other phases are tried too
        if engine.outcome(state) is not None:
            break
        seat = engine.to_act(state)[0]
        legal = engine.legal_actions(state, seat)
        state, _ = engine.apply(state, seat, legal[(i * 7) % len(legal)])
    acting = engine.to_act(state)
    seat = acting[0] if acting else 0
    legal = engine.legal_actions(state, seat)
    names = tuple(["Matti", "Liisa", "Pekka", "Botti 1", "Botti 2", "Anna"][: engine.seat_count(state)])
    ctx = ParseContext(
        lang=lang, seat=seat, legal=legal, view=engine.view(state, seat), seat_names=names, private=True
    )
    result = ui.parse(text, ctx)
    assert isinstance(result, Parsed | NotUnderstood | NotLegal | Ambiguous)
    if isinstance(result, Parsed):
        # a parser returns what the text meant: an action of the engine, with a notation; a first
        # move that is not legal now is refused by the engine's check, with a reason that has a text
        assert result.actions
        action = result.actions[0]
        assert engine.parse_notation(engine.notation(action)) == action
        if action not in legal:
            with pytest.raises(IllegalAction) as refused:
                engine.check(state, seat, action)
            assert ui.reason_text(
                refused.value.code, refused.value.params, RenderContext(translator(lang), names, seat)
            )
    if isinstance(result, Ambiguous):
        assert set(result.candidates) <= set(legal)


@SETTINGS
@given(messages=st.lists(st.tuples(st.sampled_from(["matti", "liisa"]), texts, st.booleans()), max_size=12))
def test_no_message_makes_the_bot_fail(messages):
    table = Table(seed="props")
    table.say("matti", "uusi majavajengi")
    table.say("liisa", "liity")
    table.say("matti", "aloita")
    for user, text, private in messages:
        for out in table.say(user, text, private=private):
            assert "Minulle sattui virhe" not in out.text and "went wrong" not in out.text
