"""Afrikan Tähti through the real core and SQLite: the lobby, whole games by text and by buttons,
the board picture on request and after moves, rule explanations, refusals with the way forward,
and the generic rendering of what the Retkikunnat expansion will add."""

from __future__ import annotations

import ast
import dataclasses
import io
import json
import random
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from chatbot.compose import new_core
from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import translator
from chatbot.games.afrikan_tahti import UI
from chatbot.games.afrikan_tahti.picture import board_png
from chatbot.games.afrikan_tahti.texts import REASONS, TOPICS
from chatbot.storage import SqlRepository
from chatbot.transports.script import run_lines
from engines import GAMES
from engines.afrikan_tahti import ENGINE
from engines.contract import Event
from tests.chatbot.table import GROUP, Table
from tests.golden.make_afrikan_tahti import phrase

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
PNG = b"\x89PNG\r\n\x1a\n"


def base_engine():
    """The engine, playing the plain base game by default. Once Retkikunnat makes the expansion
    the default, a game picks the base game with ``laajennus=ei``; the core does not yet turn such
    words into booleans, so the tests take the base game as the default here."""
    fields = {f.name for f in dataclasses.fields(ENGINE.Options)}
    if "expansion" not in fields:
        return ENGINE

    class BaseByDefault(type(ENGINE)):
        def options_from_dict(self, data):
            data = dict(data or {})
            value = data.get("expansion", False)
            data["expansion"] = (
                value if isinstance(value, bool) else str(value).casefold() in {"1", "true", "kyllä"}
            )
            return super().options_from_dict(data)

    return BaseByDefault()


def new_table(seed: str = "tahti") -> Table:
    table = Table(seed=seed)
    table.core = new_core(table.repo, seed=seed, games={**GAMES, "afrikan_tahti": base_engine()})
    return table


def lobby(table: Table, *users: str, bots: int = 0, lang: str = "fi") -> None:
    words = {
        "fi": ("uusi afrikan tähti", "liity", "lisää botti", "aloita"),
        "en": ("new afrikan tähti", "join", "add bot", "start"),
    }[lang]
    table.say(users[0], words[0], lang=lang)
    for user in users[1:]:
        table.say(user, words[1], lang=lang)
    for _ in range(bots):
        table.say(users[0], words[2], lang=lang)
    table.say(users[0], words[3], lang=lang)


def engine_of(table: Table):
    return table.core.games["afrikan_tahti"]


def state_of(table: Table):
    return engine_of(table).load(table.match().state)


def seat_of(table: Table, user: str) -> int:
    return next(
        s.seat
        for s in table.match().seats
        if s.user_id is not None and table.repo.user_by_id(s.user_id).ext_id == user
    )


def finished(table: Table) -> bool:
    return any("🏆" in text for text in table.group_texts())


def smart_move(table: Table, user: str) -> tuple[str, object]:
    """What the smart AI would play for ``user`` now, and the seat's view."""
    engine, state = engine_of(table), state_of(table)
    seat = seat_of(table, user)
    view = engine.view(state, seat)
    action = engine.ai_action("smart", view, engine.legal_actions(state, seat), engine.ai_rng(state, seat))
    return engine.notation(action), view


# --------------------------------------------------------------------------------------------------


def test_lobby_start_and_the_first_table():
    table = new_table()
    out = table.say("matti", "uusi afrikan tähti")
    assert "Afrikan tähti" in out[0].text and "Matti" in out[0].text
    table.say("liisa", "liity")
    out = table.say("matti", "aloita")
    group = [o for o in out if o.chat_id == GROUP]
    assert group and "valitse lähtöpaikka: Tanger tai Kairo" in group[0].text
    assert "Aloitusheitto" in group[0].text and "30 aarrekiekkoa" in group[0].text
    labels = {b.label for row in group[0].buttons for b in row}
    assert labels == {"Aloita Kairosta", "Aloita Tangerista"}
    assert group[0].image is not None and group[0].image.startswith(PNG)


def test_a_game_by_words_and_buttons_to_the_end():
    table = new_table("words")
    lobby(table, "matti", "liisa", "pekka")
    rng = random.Random(7)
    typed = understood = pressed = 0
    for _ in range(600):
        if finished(table):
            break
        user = table.acting_users()[0]
        wanted, view = smart_move(table, user)
        match = table.match()
        if rng.random() < 0.75:
            typed += 1
            table.say(user, phrase(wanted, view, rng), private=rng.random() < 0.3)
            if table.repo.match(match.id).version != match.version:
                understood += 1
                assert table.repo.actions(match.id)[-1].notation == wanted
                continue
        pressed += 1
        table.press(user, f"{match.id}:{match.version}:{wanted}", private=rng.random() < 0.5)
        assert table.repo.match(match.id).version != match.version
    assert finished(table)
    assert typed > 20 and understood == typed and pressed > 5
    final = [t for t in table.group_texts() if "🏆" in t]
    assert any("voitti" in t for t in final) and any("Kiitos pelistä" in t for t in final)


def test_after_the_roll_the_reachable_places_and_dots_are_buttons():
    table = new_table("moves")
    lobby(table, "matti", "liisa")
    for user in ("matti", "liisa"):
        table.say(user, "Kairo")
    user = table.acting_users()[0]
    table.say(user, "heitä noppaa")
    state = state_of(table)
    assert state.phase == "move"
    group = [o for o in table.sent if o.chat_id == GROUP][-1]
    buttons = {b.data.split(":", 2)[2]: b.label for row in group.buttons for b in row}
    legal = {ENGINE.notation(a) for a in ENGINE.legal_actions(state, state.turn)}
    assert set(buttons) == legal  # everything is public in the base game
    assert buttons["move cairo"].startswith("⏹ Jää tähän")
    assert any(label.startswith("→ ") for label in buttons.values())
    dots = [label for n, label in buttons.items() if n.split()[1].startswith("p")]
    assert all("askel" in label and "suuntaan" in label for label in dots)


def test_map_on_request_returns_the_picture():
    table = new_table("map")
    lobby(table, "matti", "liisa")
    for text, lang in (("näytä kartta", "fi"), ("show map", "en"), ("kartta", "fi")):
        out = table.say("liisa", text, lang=lang)
        assert out and out[0].image is not None and out[0].image.startswith(PNG), text
    assert "Matti" in out[0].text  # the text table goes with it


def test_rules_on_request_in_both_languages():
    table = new_table("rules")
    lobby(table, "matti", "liisa")
    fi = table.say("matti", "miten lentäminen toimii?")[0].text
    assert "Lentokentältä voit lentää" in fi
    en = table.say("liisa", "how does flying work?", lang="en")[0].text
    assert "From an airport you can fly" in en
    assert "Saharan beduiinit" in table.say("matti", "säännöt beduiinit")[0].text
    overview = table.say("matti", "säännöt")[0].text
    assert "Etsikää Afrikan tähti" in overview


def test_refusals_name_the_reason_and_the_way_forward():
    table = new_table("refuse")
    lobby(table, "matti", "liisa")
    for user in ("matti", "liisa"):
        table.say(user, "Kairo")
    user = table.acting_users()[0]
    # a move that is not possible gets its answer when said to the bot; among friends it is talk
    assert not table.say(user, "lennä Kongoon")
    text = table.say(user, "lennä Kongoon", addressed=True)[0].text
    assert "Kairosta ei ole lentoa Kongoon." in text and "Voit heittää noppaa" in text
    text = table.say(user, "käännä kiekko", addressed=True)[0].text
    assert "Täällä ei ole kääntämätöntä kiekkoa." in text
    other = "liisa" if user == "matti" else "matti"
    assert "vuoro" in table.say(other, "heitä noppaa", addressed=True)[0].text.casefold()


def test_english_table_and_events():
    table = new_table("english")
    lobby(table, "alice", "bob", lang="en")
    table.say("alice", "Cairo", lang="en")
    table.say("bob", "Tangier", lang="en")
    text = [o for o in table.sent if o.chat_id == GROUP][-1].text
    assert "Alice: in Cairo" in text and "Bob: in Tangier" in text and "Round 1 · " in text


def test_every_reason_code_has_a_text_in_both_languages():
    codes = [
        "game_over",
        "no_such_seat",
        "not_your_turn",
        "wrong_phase",
        "unknown_action",
        "not_a_start",
        "free_passage",
        "not_a_place",
        "land_not_allowed",
        "not_reachable",
        "not_on_path",
        "via_not_needed",
        "not_a_port",
        "no_steps_left",
        "cannot_board_here",
        "no_such_leg",
        "cannot_afford",
        "leg_blocked",
        "at_sea",
        "paid_voyage",
        "wrong_destination",
        "can_afford_fare",
        "not_an_airport",
        "no_such_route",
        "no_token",
        "already_flipped",
        "can_afford_flip",
    ]
    params = {
        "turn": 1,
        "phase": "move",
        "to": "congo",
        "via": "sahara",
        "port": "cairo",
        "dest": "congo",
        "start": "cairo",
        "price": 100,
        "cash": 0,
        "fare": 100,
    }
    generic = {
        lang: UI.reason_text("no_such_code", {}, RenderContext(translator(lang), ("A", "B")))
        for lang in ("fi", "en")
    }
    for lang in ("fi", "en"):
        ctx = RenderContext(translator(lang), ("Matti", "Liisa"))
        for code in codes:
            text = UI.reason_text(code, params, ctx)
            assert text and text != generic[lang], (lang, code)
    assert set(REASONS) <= set(codes) | {"bad_action"}


def test_rule_topics_cover_the_base_game_in_both_languages():
    keys = {t.key for t in TOPICS}
    assert {
        "afrikan_tahti.overview",
        "afrikan_tahti.move.sea_broke",
        "afrikan_tahti.hazard",
        "afrikan_tahti.win",
        "afrikan_tahti.place.capetown",
    } <= keys and len(keys) == 17
    fi = translator("fi")
    for topic in TOPICS:
        assert fi.gettext(topic.text) != topic.text and fi.gettext(topic.title) != "", topic.key


def test_unknown_phases_fields_and_events_degrade_to_a_plain_line():
    state = ENGINE.new_game(2, "x", base_engine().options_from_dict({}), first_seat=0)
    view = dataclasses.replace(ENGINE.view(state, None), phase="phase2", turn=1)
    ctx = RenderContext(translator("en"), ("Matti", "Liisa"))
    assert "▶ Turn: Liisa" in UI.render_table(view, ctx)
    lines = UI.render_events([Event("duel_won", None, (("seat", 0), ("card", "rifle")))], ctx)
    assert lines == ["Matti: duel won"]
    assert UI.action_label("use horse", view, ctx) == "use horse"


def test_idle_player_gets_the_spec_default():
    state = ENGINE.new_game(
        2, "idle", base_engine().options_from_dict({"start_place": "random"}), first_seat=0
    )
    legal = tuple(ENGINE.notation(a) for a in ENGINE.legal_actions(state, 0))
    assert UI.idle_action(legal, ENGINE.view(state, 0)) == "stay"


def test_picture_changes_only_when_the_board_does():
    # render time is measured by scripts/bench_board_picture.py, not asserted here
    state = ENGINE.new_game(
        3, "pic", base_engine().options_from_dict({"start_place": "random"}), first_seat=0
    )
    ctx = RenderContext(translator("fi"), ("Matti", "Liisa", "Pekka"))
    view = ENGINE.view(state, None)
    first = board_png(view, ctx)
    assert first.startswith(PNG)
    assert board_png(view, ctx) == first
    moved = dataclasses.replace(
        view, pawns=(dataclasses.replace(view.pawns[0], node="congo"), *view.pawns[1:])
    )
    assert board_png(moved, ctx) != first
    last_roll_only = dataclasses.replace(view, last_roll=6, last_roller=1)
    assert board_png(last_roll_only, ctx) == first  # no new upload when nothing on the board moved


def _final_view_of_golden():
    lines = (GOLDEN / "afrikan_tahti_3p_fi.in.jsonl").read_text(encoding="utf-8").splitlines()
    seed = json.loads(lines[0])["seed"]
    core = new_core(SqlRepository("sqlite://"), seed=seed, games={**GAMES, "afrikan_tahti": base_engine()})
    list(run_lines(core, lines))
    match = core.repo.match(1)
    state = ENGINE.load(match.state)
    assert ENGINE.outcome(state) is not None
    return ENGINE.view(state, None), tuple(s.name for s in match.seats)


def test_the_final_picture_of_the_golden_game_matches():
    """Tolerant: same size and a small mean difference, so fonts and zlib may differ a little."""
    expected_path = GOLDEN / "afrikan_tahti_3p_final.png"
    if not expected_path.exists():
        pytest.skip("run python -m tests.golden.make_afrikan_tahti")
    view, names = _final_view_of_golden()
    got = Image.open(io.BytesIO(board_png(view, RenderContext(translator("fi"), names)))).convert("RGB")
    expected = Image.open(expected_path).convert("RGB")
    assert got.size == expected.size
    diff = ImageStat.Stat(ImageChops.difference(got, expected)).mean
    assert sum(diff) / 3 < 2.0, diff


def _codes_the_engine_raises() -> dict[str, set[str]]:
    """Every literal reason code in the engine's source, with the parameter names it is raised with
    (``IllegalAction(code, ...)`` and the ``need``/``_need`` helpers that raise it)."""
    codes: dict[str, set[str]] = {}
    for path in (Path(__file__).resolve().parents[2] / "engines" / "afrikan_tahti").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", "")
            if name == "IllegalAction" and node.args:
                arg = node.args[0]
            elif name.endswith("need") and len(node.args) >= 2:
                arg = node.args[1]
            else:
                continue
            for literal in (arg.body, arg.orelse) if isinstance(arg, ast.IfExp) else (arg,):
                if isinstance(literal, ast.Constant) and isinstance(literal.value, str):
                    codes.setdefault(literal.value, set()).update(k.arg for k in node.keywords if k.arg)
    return codes


def test_every_reason_code_the_engine_raises_has_a_text():
    """The parser leaves legality to the engine, so each of its refusals reaches the player as the
    engine's reason code: each needs its own text in both languages (with the parameters it comes with)."""
    codes = _codes_the_engine_raises()
    assert len(codes) > 50, sorted(codes)  # the walk found the engine's checks
    values = {
        "turn": 1,
        "phase": "move",
        "to": "congo",
        "via": "sahara",
        "port": "cairo",
        "dest": "congo",
        "start": "cairo",
        "place": "congo",
        "node": "congo",
        "price": 100,
        "cash": 0,
        "fare": 100,
    }
    for lang in ("fi", "en"):
        ctx = RenderContext(translator(lang), ("Matti", "Liisa"))
        generic = UI.reason_text("no_such_code", {}, ctx)
        for code, keys in codes.items():
            text = UI.reason_text(code, {k: values.get(k, 1) for k in keys}, ctx)
            assert text and text != generic, (lang, code)
            if lang == "fi":
                assert text != UI.reason_text(
                    code,
                    {k: values.get(k, 1) for k in keys},
                    RenderContext(translator("en"), ("Matti", "Liisa")),
                ), code
