"""Words for every button and option (issue 17, part 3): a button's label typed back is that
button, options may be typed as words after the game's name and show in the lobby and on the table,
and every word of the vocabulary (shared/rules/afrikan_tahti/vocabulary.md §2) is understood where
it applies."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import translator
from chatbot.core.parsing import Ambiguous, NotLegal, ParseContext, Parsed
from chatbot.core.ports import THEN
from chatbot.games.afrikan_tahti import UI, buttons
from chatbot.games.afrikan_tahti.names import card_name
from engines.afrikan_tahti import ENGINE
from engines.afrikan_tahti.model import Options
from tests.chatbot.notations import notations, written
from tests.chatbot.table import GROUP, Table

NAMES = ("Matti", "Liisa", "Pekka", "Anna")


def test_options_typed_as_words_after_the_games_name_and_shown_in_lobby_and_table():
    table = Table(seed="sanat")
    out = table.say("anna", "uusi afrikan tähti pikapeli")
    lobby = "\n".join(o.text for o in out if o.chat_id == GROUP)
    assert table.match().options.get("quick_game") is True
    assert "pikapeli" in lobby and "Retkikunnat" in lobby
    table.say("bertta", "liity")
    out = table.say("anna", "aloita")
    assert "(Retkikunnat · pikapeli)" in "\n".join(o.text for o in out if o.chat_id == GROUP)
    other = Table(seed="sanat2")
    out = other.say("anna", "uusi afrikan tähti peruspeli")
    assert other.match().options.get("expansion") is False
    assert "peruspeli" in "\n".join(o.text for o in out)
    # the explicit form leaves its trace in the lobby too
    third = Table(seed="sanat3")
    out = third.say("anna", "uusi afrikan tähti pikapeli=kyllä vastausaika=15")
    text = "\n".join(o.text for o in out)
    assert "pikapeli" in text and "vastausaika 15 s" in text


def _states(games: int = 6, per_game: int = 400):
    """States met in smart-AI games (base game and both expansion sizes), with the seat to act."""
    for g in range(games):
        options = Options(expansion=g % 3 != 0, quick_game=g % 3 == 2, max_rounds=10)
        st = ENGINE.new_game(3 + g % 3, f"words-{g}", options)
        rng = random.Random(g)
        for _ in range(per_game):
            if ENGINE.outcome(st) is not None:
                break
            seat = ENGINE.to_act(st)[0]
            yield st, seat
            legal = ENGINE.legal_actions(st, seat)
            st, _ = ENGINE.apply(st, seat, ENGINE.ai_action("smart", ENGINE.view(st, seat), legal, rng))


def test_every_buttons_label_typed_back_is_that_button():
    fi = translator("fi")
    checked = 0
    for st, seat in _states():
        legal = ENGINE.legal_actions(st, seat)
        view = ENGINE.view(st, seat)
        names = (*NAMES, "Eemeli", "Fanni")
        rows = buttons.rows(notations(legal), view, RenderContext(fi, names, seat))
        ctx = ParseContext(lang="fi", seat=seat, legal=legal, view=view, seat_names=names, private=True)
        for row in rows:
            for label, notation in row:
                # a button of several steps ("end_phase;flip") is those steps typed back
                assert written(UI.parse(label, ctx)) == Parsed(tuple(notation.split(THEN))), (label, notation)
                checked += 1
    assert checked > 2000


def test_a_hand_card_label_typed_in_the_group_is_refused_there():
    fi = translator("fi")
    for st, seat in _states(games=3):
        legal = ENGINE.legal_actions(st, seat)
        plays = [n for n in notations(legal) if n.startswith("play ")]
        if not plays:
            continue
        view = ENGINE.view(st, seat)
        label = buttons.label(plays[0], view, RenderContext(fi, NAMES, seat))
        ctx = ParseContext(lang="fi", seat=seat, legal=legal, view=view, seat_names=NAMES, private=False)
        assert UI.parse(label, ctx) == NotLegal("play_in_private")
        return
    pytest.fail("no hand card was playable")


# --- the vocabulary file ----------------------------------------------------------------------


def _vocabulary() -> str:
    root = Path(__file__).resolve().parents[2]
    for base in (root.parent / "shared", root.parent.parent / "shared", Path("/work/shared")):
        path = base / "rules" / "afrikan_tahti" / "vocabulary.md"
        if path.exists():
            return path.read_text(encoding="utf-8")
    pytest.skip("shared/rules/afrikan_tahti/vocabulary.md is not next to the checkout")


def intents() -> list[tuple[tuple[str, ...], str, list[str]]]:
    """(verbs, language, phrases) from §2's table; "A/B X" becomes "A X" and "B X"; a row of two
    verbs ("`accept` / `decline`") splits its cells at " / " when the groups match the verbs."""
    text = _vocabulary()
    section = text.split("## 2. Intents", 1)[1].split("## 3.", 1)[0]
    out = []
    for row in section.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        verbs = tuple(re.findall(r"`([a-z_]+)", cells[0]))
        for lang, cell in (("fi", cells[1]), ("en", cells[2])):
            groups = cell.split(" / ")
            pairs = zip(verbs, groups, strict=True) if len(groups) == len(verbs) > 1 else [(verbs, cell)]
            for verb, group in pairs:
                phrases: list[str] = []
                parts: list[str] = []
                for part in re.split(r",\s*", group):  # "reroll dice 1, 3 with the Rifle" is one
                    if parts and part[:1].isdigit() and re.search(r"[a-z]", part):
                        parts[-1] += f", {part}"
                    else:
                        parts.append(part)
                for part in parts:
                    part = part.strip()
                    m = re.match(r"^(\w+)/(\w+)(.*)$", part)
                    if m:
                        phrases += [m.group(1) + m.group(3), m.group(2) + m.group(3)]
                    elif part:
                        phrases.append(part)
                if "via" in cells[0]:  # "Suakinin kautta", "via": said with a destination
                    base = "mene Kairoon" if lang == "fi" else "go to Cairo"
                    phrases = [f"{base} {p}" + ("" if lang == "fi" else " Suakin") for p in phrases]
                out.append(((verb,) if isinstance(verb, str) else verb, lang, phrases))
    return out


def _pool():
    """For each verb, some states where an action with that verb is legal, with the seat."""
    pool: dict[str, list] = {}
    for st, seat in _states(games=9, per_game=600):
        heads = {ENGINE.notation(a).split()[0] for a in ENGINE.legal_actions(st, seat)}
        pr = ENGINE.view(st, None).x.prompt if ENGINE.view(st, None).x else None
        if any(ENGINE.notation(a).startswith("choose seat") for a in ENGINE.legal_actions(st, seat)):
            heads = heads | {"choose_seat"}
        for h in heads:
            key = "roll_danger" if h == "roll" and pr is not None and pr.kind in ("danger", "duel") else h
            if len(pool.setdefault(key, [])) < 4:
                pool[key].append((st, seat))
    return pool


def _with_object(phrase: str, verbs: tuple[str, ...], legal: tuple[str, ...], t) -> str | None:
    """ "drop" of "discard Horse, drop, get rid of": the phrase with a card the seat has."""
    for n in legal:
        words = n.split()
        if words[0] in verbs and len(words) == 2 and words[0] not in ("move", "board", "fly", "choose"):
            return f"{phrase} {card_name(words[1], t)}"
    return None


@pytest.mark.slow
def test_every_vocabulary_word_is_understood_where_it_applies():
    """Each phrase of §2, in a state where its action is legal (states met in smart-AI games), is
    read as that action (or as a question among such actions, or refused with the engine's reason
    when it names something not possible there)."""
    pool = _pool()
    missing = []
    tried = 0
    for verbs, lang, phrases in intents():
        states = [s for v in verbs for s in pool.get(v, [])]
        if verbs == ("choose",):  # "1, 2, first, via Suakin" need a choice; "Matti" one among players
            states = pool.get("choose", []) + pool.get("choose_seat", [])
        if not states:
            continue
        t = translator(lang)
        names = NAMES if lang == "fi" else ("Tom", "Anna", "Peter", "Matti")
        for phrase in phrases:
            ok = False
            for st, seat in states:
                legal = ENGINE.legal_actions(st, seat)
                view = ENGINE.view(st, seat)
                ctx = ParseContext(
                    lang=t.lang, seat=seat, legal=legal, view=view, seat_names=names, private=True
                )
                for text in (phrase, _with_object(phrase, verbs, notations(legal), t)):
                    if text is None:
                        continue
                    result = written(UI.parse(text, ctx))
                    said = (
                        result.actions
                        if isinstance(result, Parsed)
                        else result.candidates
                        if isinstance(result, Ambiguous)
                        else ()
                    )
                    if any(n.split()[0] in verbs for n in said) or isinstance(result, NotLegal):
                        ok = True
                        break
                if ok:
                    break
            tried += 1
            if not ok:
                missing.append((verbs, lang, phrase))
    assert tried > 150
    assert not missing, "\n".join(map(str, missing))


def _table_rows(section: str) -> list[list[str]]:
    rows = []
    for row in section.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if (
            len(cells) >= 2
            and cells[0]
            and not set(cells[0]) <= {"-"}
            and cells[0] not in ("Card", "Nominative")
        ):
            rows.append(cells)
    return rows


def test_every_card_and_character_form_of_the_vocabulary_names_its_card():
    """§4.1 and §4.2: every case form of every card and character is read as that card."""
    from chatbot.games.afrikan_tahti.cards_generated import CHARACTERS, EVENT_CARDS, EXPEDITION_CARDS
    from chatbot.games.afrikan_tahti.parser import ExpansionParser

    text = _vocabulary()
    cards_part = text.split("### 4.1 Card names", 1)[1].split("Plural card names", 1)[0]
    chars_part = text.split("**Characters:**", 1)[1].split("The essive", 1)[0]
    by_name = {
        name.casefold().rstrip("!"): ident
        for table in (CHARACTERS, EXPEDITION_CARDS, EVENT_CARDS)
        for ident, (name, _text) in table.items()
    }
    fi = translator("fi")
    reader = ExpansionParser()
    missing, tried = [], 0
    for cells in _table_rows(cards_part) + _table_rows(chars_part):
        ident = next(
            (
                i
                for name, i in by_name.items()
                if fi.gettext(name).casefold() == cells[0].casefold().rstrip("!")
            ),
            None,
        ) or next(
            (
                i
                for i, (n, _t) in {**CHARACTERS, **EXPEDITION_CARDS, **EVENT_CARDS}.items()
                if fi.gettext(n).casefold().rstrip("!") == cells[0].casefold().rstrip("!")
            ),
            None,
        )
        assert ident is not None, cells[0]
        for form in cells:
            tried += 1
            if ident not in reader.read(form, "fi", NAMES).cards:
                missing.append((ident, form))
    assert tried > 150 and not missing, missing


def test_the_window_setting_is_typed_in_private_any_time():
    st = ENGINE.new_game(3, "setting", Options(quick_game=True))
    other = (ENGINE.to_act(st)[0] + 1) % 3
    legal = ENGINE.legal_actions(st, other)
    view = ENGINE.view(st, other)
    for text, lang, notation in (
        ("älä kysy minulta", "fi", "ask never"),
        ("kysy minulta taas", "fi", "ask all"),
        ("kysy vain Sabotaasista", "fi", "ask sabotage"),
        ("don't ask me", "en", "ask never"),
        ("ask me only for Gotcha", "en", "ask gotcha"),
    ):
        ctx = ParseContext(lang=lang, seat=other, legal=legal, view=view, seat_names=NAMES, private=True)
        assert written(UI.parse(text, ctx)) == Parsed((notation,)), text
    ctx = ParseContext(lang="fi", seat=other, legal=legal, view=view, seat_names=NAMES, private=False)
    assert UI.parse("älä kysy minulta", ctx) == NotLegal("ask_in_private")
