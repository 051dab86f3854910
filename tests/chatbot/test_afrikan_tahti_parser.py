"""Afrikan Tähti text commands (vocabulary.md §2-§6), run under both lemmatiser backends.

Each row: the text, the speaker's language, the situation (a real engine state: where the pawn
stands, its cash, the phase) and the expected result: notations joined by ``|`` for ``Parsed``,
``?a,b`` for ``Ambiguous`` (the candidates), ``!code`` for a refusal, ``-`` for ``NotUnderstood``.
A refusal is what the player is told: the parser returns the action the words mean and the engine's
``check`` refuses it with ``code`` (as the core asks it), or, where no action carries the meaning,
the parser's own ``NotLegal(code)``. The examples of vocabulary.md §6 are marked "§6.1 #n" / "§6.2 #n".
The parser works with the engine's action objects; the rows compare them in notation
(:mod:`tests.chatbot.notations`).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import replace

import pytest

from chatbot.core.parsing import Ambiguous, NotLegal, NotUnderstood, ParseContext, Parsed
from chatbot.games.afrikan_tahti.lexicon import PLACE_EN, PLACE_FI
from chatbot.games.afrikan_tahti.parser import AfrikanTahtiParser
from engines.afrikan_tahti import ENGINE
from engines.afrikan_tahti.board import LEGS, PLACES
from engines.afrikan_tahti.model import Movement, Pawn, Voyage
from engines.contract import IllegalAction
from tests.chatbot.notations import notations, written

NAMES = ("Matti", "Liisa", "Pekka")


@pytest.fixture(scope="module")
def parser(lemmatizer):
    """The parser under each lemmatiser backend (the ``lemmatizer`` fixture of conftest.py)."""
    return AfrikanTahtiParser(lemmatizer)


# --- situations: real engine states ---------------------------------------------------------------


def options(**extra):
    """Base-game options, whichever way the engine names the mode."""
    fields = {f.name for f in dataclasses.fields(ENGINE.Options)}
    base = {"expansion": False} if "expansion" in fields else {}
    return ENGINE.options_from_dict({**base, **extra})


def at(node, cash=300, *, phase="declare", roll=None, voyage=None, captured=False, seat=0, dice=()):
    """Seat 0 on ``node`` with ``cash``; ``roll`` opens the move phase with that many steps. The
    speaker is ``seat`` (another seat than 0 has no legal action)."""
    st = ENGINE.new_game(3, "parser", options(start_place="random"), first_seat=0, dice=dice)
    pawns = list(st.pawns)
    pawns[0] = Pawn(node=node, cash=cash, captured=captured, voyage=voyage)
    st = replace(st, pawns=tuple(pawns), phase="release" if captured else phase)
    if roll is not None:
        st = replace(
            st,
            phase="move",
            move=Movement(steps=roll, roll=roll, visited=(node,), arrived="start"),
            last_roll=roll,
            last_roller=0,
        )
    return st, seat


def voyage(origin, dest, done, paid=True):
    leg = LEGS[(origin, dest)]
    return Voyage(leg.id, origin, dest, done, paid), leg.path[done]


def setup_state():
    return ENGINE.new_game(3, "parser", options(start_place="choose"), first_seat=0), 0


def over_state():
    st, seat = at("cairo")
    return replace(st, phase="over", winner=1, end_reason="goal"), seat


def at_sea(paid):
    v, node = voyage("cairo", "suakin", 2, paid)
    return at(node, 300 if paid else 0, voyage=v)


SITUATIONS = {
    "setup": setup_state,
    "cairo": lambda: at("cairo"),
    "cairo_broke": lambda: at("cairo", 0),
    "suakin_500": lambda: at("suakin", 500),
    "canary_200": lambda: at("canary_islands", 200),
    "goldcoast_0": lambda: at("gold_coast", 0),
    "whalefish_300": lambda: at("whalefish_bay", 300),
    "egypt": lambda: at("egypt"),
    "timbuktu": lambda: at("timbuktu"),
    "timbuktu_0": lambda: at("timbuktu", 0),
    "egypt_5": lambda: at("egypt", roll=5),
    "darfur_6": lambda: at("dar_fur", roll=6),
    "junction_4": lambda: at("j_land_tangier_morocco_sahara", roll=4),
    "whalefish_4": lambda: at("whalefish_bay", roll=4),
    "cairo_3": lambda: at("cairo", roll=3),
    "after_move": lambda: at("timbuktu", phase="after_move"),
    "captured": lambda: at("hz_bedouins_sahara", captured=True),
    "sea_paid": lambda: at_sea(True),
    "sea_free": lambda: at_sea(False),
    "not_my_turn": lambda: at("cairo", seat=1),
    "over": over_state,
}


def situation(name: str, lang: str):
    """(the parse context, the state, the speaker's seat) of a situation."""
    state, seat = SITUATIONS[name]()
    legal = ENGINE.legal_actions(state, seat)
    return ParseContext(lang, seat, legal, ENGINE.view(state, seat), NAMES, private=True), state, seat


def context(name: str, lang: str) -> ParseContext:
    return situation(name, lang)[0]


def refusal(result, state, seat) -> str | None:
    """The reason code the player is refused with: the parser's own, or the engine's for the first
    action the parser meant (the core checks the first one and drops a follow-up that fails)."""
    if isinstance(result, NotLegal):
        return result.code
    if isinstance(result, Parsed) and state is not None:
        try:
            ENGINE.check(state, seat, result.actions[0])
        except IllegalAction as exc:
            return exc.code
    return None


def check(result, expected: str, where: str, state=None, seat=None) -> None:
    if expected == "-":
        assert isinstance(result, NotUnderstood), where
    elif expected.startswith("!"):
        assert refusal(result, state, seat) == expected[1:], (where, result)
    elif expected.startswith("?"):
        assert isinstance(result, Ambiguous), where
        assert set(notations(result.candidates)) == set(expected[1:].split(",")), where
    else:
        assert isinstance(result, Parsed) and notations(result.actions) == tuple(expected.split("|")), where


FI = [
    # choosing the start
    ("Kairo", "setup", "start cairo"),
    ("valitsen Tangerin", "setup", "start tangier"),
    ("Kairosta", "setup", "start cairo"),
    ("aloituspaikka Tanger", "setup", "start tangier"),
    ("Kongo", "setup", "!not_a_start"),
    ("heitä noppaa", "setup", "?start cairo,start tangier"),
    # declaring (§6.1)
    ("heitä noppaa", "cairo", "roll"),  # §6.1 #1
    ("heitän", "cairo", "roll"),
    ("noppa", "cairo", "roll"),
    ("liikun", "cairo", "roll"),
    ("lähden liikkeelle", "cairo", "roll"),
    ("heitä nopaa", "cairo", "roll"),  # a typo
    ("mene Kongoon", "egypt", "roll|toward congo"),  # walking: roll, then there or as near as it can
    ("menen Tripoliin", "egypt", "roll|toward tripoli"),
    ("kävele Saharaan", "cairo", "roll|toward sahara"),
    ("lennän Kairoon", "suakin_500", "fly cairo"),  # §6.1 #6
    ("lennä Kairoon", "suakin_500", "fly cairo"),
    ("lento Darfuriin", "suakin_500", "fly dar_fur"),
    ("lennä Victorianjärvelle", "suakin_500", "fly lake_victoria"),
    ("lennä Dar-Furiin", "suakin_500", "fly dar_fur"),
    ("lennä", "suakin_500", "?fly cairo,fly dar_fur,fly lake_victoria"),
    ("lennä Kairooon", "suakin_500", "fly cairo"),  # a typo in the place
    ("lennä Kongoon", "cairo", "!no_such_route"),
    ("lennä Kairoon", "egypt", "!not_an_airport"),
    ("lennä Suakiniin", "cairo_broke", "!cannot_afford"),
    ("Suakiniin", "cairo", "?board suakin,fly suakin,roll"),  # walk, sail or fly?
    ("purjehdi Tangeriin", "canary_200", "board tangier"),  # §6.1 #7
    ("laivalla Kongoon", "goldcoast_0", "free_sail congo"),  # §6.1 #8
    ("purjehdi ilmaiseksi Kongoon", "goldcoast_0", "free_sail congo"),
    ("purjehdi Kapkaupunkiin", "whalefish_300", "board capetown"),
    ("purjehdi Kapkaupunkiin", "goldcoast_0", "!no_such_leg"),
    ("nousen laivaan Suakiniin", "cairo", "board suakin"),
    ("otan laivan Tunisiin", "cairo", "board tunis"),
    ("purjehdi", "cairo", "?board suakin,board tripoli,board tunis"),
    ("purjehdi Suakiniin", "egypt", "!not_a_port"),
    ("purjehdi ilmaiseksi Suakiniin", "cairo", "board suakin"),
    ("pysyn paikallani", "cairo", "stay"),  # §6.1 #9
    ("pysy paikallasi", "cairo", "stay"),
    ("jään tähän", "cairo", "stay"),
    ("odotan", "cairo", "stay"),
    ("en liiku", "cairo", "stay"),
    ("käännä kiekko", "timbuktu", "flip"),  # §6.1 #10
    ("käännä merkki", "timbuktu", "flip"),
    ("käännän kiekon", "timbuktu", "flip"),
    ("maksan ja käännän", "timbuktu", "flip"),
    ("yritän kääntää nopalla", "timbuktu_0", "flip_roll"),  # §6.1 #11
    ("käännä nopalla", "timbuktu", "flip_roll"),
    ("käännä kiekko", "timbuktu_0", "?flip_roll"),  # broke: only the die can flip it; asked
    ("käännä kiekko", "cairo", "!no_token"),
    # after the roll: where the move ends
    ("liikun Kairoon", "egypt_5", "move cairo"),  # §6.1 #3
    ("Kairoon", "egypt_5", "move cairo"),
    ("mene Darfuriin", "egypt_5", "move dar_fur"),
    ("pysähdyn Darfuriin", "egypt_5", "move dar_fur"),
    ("pysähdy Darfurissa", "egypt_5", "move dar_fur"),
    ("jään tähän", "egypt_5", "move egypt"),
    ("kävele Bahr El Ghasalin kautta Victorianjärvelle", "darfur_6", "move lake_victoria"),  # §6.1 #4
    ("mene Egyptiin Suakinin kautta", "darfur_6", "!not_on_path"),
    ("ei", "cairo", "-"),
    ("mene Saharaan", "junction_4", "move sahara"),  # §6.1 #5
    ("mene Kapkaupunkiin", "egypt_5", "!not_reachable"),
    ("mene Kapkaupunkiin", "whalefish_4", "move capetown"),
    ("purjehdi Suakiniin", "cairo_3", "board suakin"),
    ("mene Kairoon ja käännä kiekko", "egypt_5", "move cairo|flip"),
    ("2 askelta Tunisin suuntaan", "junction_4", "!not_reachable"),
    ("4 askelta Tunisin suuntaan", "junction_4", "move p110"),
    ("lennä Kairoon", "egypt_5", "!wrong_phase"),
    ("heitä noppaa", "egypt_5", "!wrong_phase"),
    # after the move
    ("käännä kiekko", "after_move", "flip"),
    ("kyllä", "after_move", "flip"),
    ("en käännä", "after_move", "end_phase"),
    ("ei kiitos", "after_move", "end_phase"),
    ("valmis", "after_move", "end_phase"),
    ("ei", "after_move", "end_phase"),
    ("heitä noppaa", "after_move", "!wrong_phase"),
    # captured, at sea, not the speaker's turn, game over
    ("heitän", "captured", "roll"),  # §6.1 #2
    ("heitä noppaa", "captured", "roll"),
    ("mene Kairoon", "captured", "roll"),
    ("lennä Kairoon", "captured", "!wrong_phase"),
    ("jatka purjehdusta", "sea_paid", "roll"),
    ("heitä noppaa", "sea_paid", "roll"),
    ("purjehdi Tunisiin", "sea_paid", "!wrong_destination"),
    ("lennä Kairoon", "sea_paid", "!at_sea"),
    ("heitä noppaa", "sea_free", "free_sail suakin"),
    ("jatka purjehdusta", "sea_free", "free_sail suakin"),
    ("pysy paikallasi", "sea_free", "stay"),
    ("heitä noppaa", "not_my_turn", "!not_your_turn"),
    ("heitä noppaa", "over", "!game_over"),
    # chat and questions are not moves
    ("Kairo on kaunis kaupunki", "cairo", "-"),
    ("miten lentäminen toimii", "cairo", "-"),
    ("lennänkö Kairoon?", "suakin_500", "-"),
    ("hyvää huomenta", "cairo", "-"),
    ("", "cairo", "-"),
]

EN = [
    ("roll", "cairo", "roll"),  # §6.2 #1
    ("roll the die", "cairo", "roll"),
    ("throw", "cairo", "roll"),
    ("move", "cairo", "roll"),
    ("move to Cairo", "egypt_5", "move cairo"),  # §6.2 #2
    ("go to Lake Victoria via Bahr El Ghasal", "darfur_6", "move lake_victoria"),  # §6.2 #3
    ("walk to Sahara", "junction_4", "move sahara"),  # §6.2 #4
    ("go to Cape Town", "whalefish_4", "move capetown"),
    ("go to Capetown", "whalefish_4", "move capetown"),
    ("stop here", "egypt_5", "move egypt"),
    ("fly to Cairo", "suakin_500", "fly cairo"),  # §6.2 #5
    ("take a plane to Dar-Fur", "suakin_500", "fly dar_fur"),
    ("fly to Congo", "cairo", "!no_such_route"),
    ("sail to Tangier", "canary_200", "board tangier"),  # §6.2 #6
    ("take the ship to Congo", "goldcoast_0", "free_sail congo"),  # §6.2 #7
    ("sail to Cape Town", "whalefish_300", "board capetown"),
    ("stay put", "cairo", "stay"),  # §6.2 #8
    ("stay", "cairo", "stay"),
    ("wait", "cairo", "stay"),
    ("flip the token", "timbuktu", "flip"),  # §6.2 #9
    ("roll for the token", "timbuktu_0", "flip_roll"),  # §6.2 #10
    ("flip", "after_move", "flip"),
    ("done", "after_move", "end_phase"),  # §6.2 #20
    ("no", "after_move", "end_phase"),
    ("don't flip", "after_move", "end_phase"),
    ("go to Congo", "egypt", "roll|toward congo"),
    ("roll", "captured", "roll"),
    ("continue", "sea_paid", "roll"),
    ("Cairo", "setup", "start cairo"),
    ("fly to Cairo", "egypt_5", "!wrong_phase"),
    ("how does flying work", "cairo", "-"),
    ("good morning everyone", "cairo", "-"),
]

# --- spoken, written and polite forms, as players write them (issue #15) --------------------------

SPOKEN_FI = [
    # declaring: the roll in every form
    ("heitän noppaa", "cairo", "roll"),
    ("heitetään", "cairo", "roll"),
    ("heitäs noppaa", "cairo", "roll"),
    ("mä heitän", "cairo", "roll"),
    ("nakkaan noppaa", "cairo", "roll"),
    ("rollaan", "cairo", "roll"),
    ("Haluaisin heittää noppaa.", "cairo", "roll"),
    ("Heittäisin", "cairo", "roll"),
    ("lähdetään liikkeelle", "cairo", "roll"),
    ("minä heittää noppa", "cairo", "roll"),
    ("kävelen Saharaan", "cairo", "roll|toward sahara"),
    # flights and voyages
    ("lennetään Kairoon", "suakin_500", "fly cairo"),
    ("lentäisin Kairoon", "suakin_500", "fly cairo"),
    ("Haluaisin lentää Kairoon.", "suakin_500", "fly cairo"),
    ("mä lennän kairoon", "suakin_500", "fly cairo"),
    ("lenna kairoon", "suakin_500", "fly cairo"),
    ("otan lennon Kairoon", "suakin_500", "fly cairo"),
    ("lentsikalla Kairoon", "suakin_500", "fly cairo"),
    ("lennä Kairo", "suakin_500", "fly cairo"),
    ("minä lentää Kairoon", "suakin_500", "fly cairo"),
    ("purjehdin Tangeriin", "canary_200", "board tangier"),
    ("seilaan Tangeriin", "canary_200", "board tangier"),
    ("otan laivan Tangeriin", "canary_200", "board tangier"),
    ("Haluaisin purjehtia Tangeriin.", "canary_200", "board tangier"),
    ("purjehtisin Tangeriin", "canary_200", "board tangier"),
    # staying
    ("pysyn", "cairo", "stay"),
    ("mä pysyn paikallani", "cairo", "stay"),
    ("odotellaan", "cairo", "stay"),
    ("jään odottamaan", "cairo", "stay"),
    # the token: paid, or by the die when broke
    ("käännetään kiekko", "timbuktu", "flip"),
    ("avaan kiekon", "timbuktu", "flip"),
    ("ostan kiekon", "timbuktu", "flip"),
    ("Haluaisin kääntää kiekon.", "timbuktu", "flip"),
    ("kääntäisin merkin", "timbuktu", "flip"),
    ("kaanna kiekko", "timbuktu", "flip"),
    ("yritän nopalla", "timbuktu_0", "flip_roll"),
    ("koitan nopalla", "timbuktu_0", "flip_roll"),
    ("heitän kiekon nopalla", "timbuktu_0", "flip_roll"),
    ("yritetään nopalla", "timbuktu_0", "flip_roll"),
    ("kokeillaan nopalla", "timbuktu_0", "flip_roll"),
    ("heitän noppaa", "timbuktu_0", "?roll,flip_roll"),  # to move, or for the token? ask
    # after the move: one-word answers to "flip the token?"
    ("joo", "after_move", "flip"),
    ("ok", "after_move", "flip"),
    ("käy", "after_move", "flip"),
    ("joo käännä", "after_move", "flip"),
    ("pass", "after_move", "end_phase"),
    ("ei tarvii", "after_move", "end_phase"),
    ("en avaa", "after_move", "end_phase"),
    ("jätän kiekon kääntämättä", "after_move", "end_phase"),  # the abessive says *not* to flip
    # where the rolled move ends
    ("mennään Kairoon", "egypt_5", "move cairo"),
    ("kävelen Kairoon", "egypt_5", "move cairo"),
    ("Kairoon asti", "egypt_5", "move cairo"),
    ("mä meen Darfuriin", "egypt_5", "move dar_fur"),
    ("pysähdyn tähän", "egypt_5", "move egypt"),
    ("minä mennä Kairo", "egypt_5", "move cairo"),
    ("kävelen Marokon suuntaan", "junction_4", "move morocco"),
    # captured, at sea
    ("yritän päästä vapaaksi", "captured", "roll"),
    ("jatketaan", "sea_free", "free_sail suakin"),
    # questions are not moves
    ("heitänkö?", "cairo", "-"),
    ("lennänks Kairoon", "suakin_500", "-"),
    ("voinko lentää Kairoon", "suakin_500", "-"),
    ("kannattaako kääntää", "timbuktu", "-"),
    ("ehkä lennän Kairoon", "suakin_500", "-"),  # the choice is still open
    # a negation denies one move: "don't fly, roll"
    ("en lennä, heitän noppaa", "suakin_500", "roll"),
    ("Aloitan Kairosta.", "setup", "start cairo"),
    ("Lähden Tangerista", "setup", "start tangier"),
    ("Maksan 100 puntaa ja käännän kiekon", "timbuktu", "flip"),
    ("purjehdin ilmaiseks Kongoon", "goldcoast_0", "free_sail congo"),
    ("kävelen neljä askelta Tunisin suuntaan", "junction_4", "move p110"),
]

SPOKEN_EN = [
    ("I'll roll", "cairo", "roll"),
    ("let's roll", "cairo", "roll"),
    ("roll it", "cairo", "roll"),
    ("I'd like to roll the dice", "cairo", "roll"),
    ("I'll fly to Cairo", "suakin_500", "fly cairo"),
    ("take a flight to Cairo", "suakin_500", "fly cairo"),
    ("I'll sail to Tangier", "canary_200", "board tangier"),
    ("I'll stay here", "cairo", "stay"),
    ("flip it", "after_move", "flip"),
    ("yes", "after_move", "flip"),
    ("nope", "after_move", "end_phase"),
    ("pass", "after_move", "end_phase"),
    ("no thanks", "after_move", "end_phase"),
    ("try with the die", "timbuktu_0", "flip_roll"),
    ("walk to Cairo", "egypt_5", "move cairo"),
    ("I'll stop here", "egypt_5", "move egypt"),
    ("head to Darfur", "egypt_5", "move dar_fur"),
    ("can I fly to Cairo?", "suakin_500", "-"),
    ("should I flip", "timbuktu", "-"),
    ("I'll start in Cairo", "setup", "start cairo"),
    ("four steps toward Tunis", "junction_4", "move p110"),
    ("maybe I'll fly to Cairo", "suakin_500", "-"),
]


@pytest.mark.parametrize(
    ("text", "name", "expected"), FI + SPOKEN_FI, ids=[f"fi:{t}@{s}" for t, s, _ in FI + SPOKEN_FI]
)
def test_finnish(parser, text, name, expected):
    _check_row(parser, text, name, expected, "fi")


@pytest.mark.parametrize(
    ("text", "name", "expected"), EN + SPOKEN_EN, ids=[f"en:{t}@{s}" for t, s, _ in EN + SPOKEN_EN]
)
def test_english(parser, text, name, expected):
    _check_row(parser, text, name, expected, "en")


def _check_row(parser, text, name, expected, lang):
    ctx, state, seat = situation(name, lang)
    result = parser.parse(text, ctx)
    check(result, expected, f"{text!r} in {name}", state, seat)
    if isinstance(result, Parsed) and not expected.startswith("!"):
        legal = set(ctx.legal)
        assert result.actions[0] in legal, (text, name, result)  # what is applied is legal


def test_every_place_in_every_finnish_case_and_in_english(parser):
    """vocabulary.md §3: every column of the table and the English board label name the place."""
    for pid in PLACES:
        f = PLACE_FI[pid]
        for form in (f.nominative, f.genitive, f.to, f.at, f.from_, *f.aliases):
            r = parser.read(form, "fi")
            named = r.places or r.froms
            assert named and pid in named[0], (pid, form, r)
        for form in PLACE_EN[pid]:
            r = parser.read(form, "en")
            named = r.places or r.froms
            assert named and pid in named[0], (pid, form, r)


def test_hyphens_and_spaces_in_names_are_alike(parser):
    for text in ("Dar-Fur", "dar fur", "darfur", "Darfuriin", "Dar-Furiin"):
        assert parser.read(text, "fi").places == [("dar_fur",)], text
    for text in ("Ain-Galaka", "Ain Galaka", "aingalaka"):
        assert parser.read(text, "fi").places == [("ain_galaka",)], text


def test_shared_words_name_every_place_they_may_mean(parser):
    """vocabulary.md §5: "Victoria" and "Cape" are asked about unless only one fits."""
    assert set(parser.read("Victoria", "fi").places[0]) == {"lake_victoria", "victoria_falls"}
    assert set(parser.read("cape", "en").places[0]) == {
        "cape_guardafui",
        "cape_st_marie",
        "cape_verde",
        "capetown",
    }
    # from Suakin only Lake Victoria has a flight, so "lennä Victoriaan" needs no question
    assert written(parser.parse("lennä Victoriaan", context("suakin_500", "fi"))) == Parsed(
        ("fly lake_victoria",)
    )


def test_a_typed_notation_is_taken_as_it_is(parser):
    ctx = context("junction_4", "en")
    assert written(parser.parse("move p110", ctx)) == Parsed(("move p110",))
    assert written(parser.parse("MOVE  SAHARA", ctx)) == Parsed(("move sahara",))


# --- Retkikunnat (expansion) commands: the legal actions given (in notation), a real expansion view ---

X_ROWS = [
    ("valitsen seikkailijan", "fi", "character adventurer,character doctor", "character adventurer"),
    ("olen Lääkäri", "fi", "character adventurer,character doctor", "character doctor"),
    ("I'll be the doctor", "en", "character adventurer,character doctor", "character doctor"),
    ("myyn kiväärin", "fi", "sell rifle,sell horse,end_phase", "sell rifle"),
    ("sell the rifle", "en", "sell rifle,sell horse,end_phase", "sell rifle"),
    ("käytän ratsua", "fi", "use horse,sell horse,end_phase", "use horse"),
    ("use my horse", "en", "use horse,sell horse,end_phase", "use horse"),
    (
        "haastan Matin ryöstämään Afrikan tähden",
        "fi",
        "duel seat0 star,duel seat0 money:200,duel seat2 star",
        "duel seat0 star",
    ),
    (
        "ryöstän Pekalta 400 puntaa",
        "fi",
        "duel seat2 money:400,duel seat2 money:200,duel seat0 star",
        "duel seat2 money:400",
    ),
    ("rob Pekka of 200", "en", "duel seat2 money:400,duel seat2 money:200", "duel seat2 money:200"),
    ("pelaan sabotaasin", "fi", "play sabotage,pass", "play sabotage"),
    ("Ähäkutti!", "fi", "play gotcha,pass", "play gotcha"),
    ("ohitan", "fi", "play sabotage,pass", "pass"),
    ("en pelaa", "fi", "play sabotage,pass", "pass"),
    ("pass", "en", "play sabotage,pass", "pass"),
    ("hyväksyn", "fi", "accept,decline", "accept"),
    ("en hyväksy", "fi", "accept,decline", "decline"),
    ("deal", "en", "accept,decline", "accept"),
    (
        "uusin nopat 2 ja 5 kiväärillä",
        "fi",
        "reroll rifle 2,5,reroll rifle 2,reroll_done",
        "reroll rifle 2,5",
    ),
    ("valmis", "fi", "reroll rifle 2,reroll_done", "reroll_done"),
    ("heitä pois ratsu", "fi", "discard horse,sell horse", "discard horse"),
    ("säästä Kullankaivaja", "fi", "hold gold_digger,end_phase", "hold gold_digger"),
    ("vaihda pino Saharan kanssa", "fi", "swap_stack sahara,swap_stack congo", "swap_stack sahara"),
    ("kurkista", "fi", "peek,end_phase", "peek"),
    ("jalokiviheitto", "fi", "gem_roll,roll,stay", "gem_roll"),
    ("plus yksi", "fi", "adjust +1,adjust -1", "adjust +1"),
    ("osta poistopakasta", "fi", "buy_discard,end_phase", "buy_discard"),
    ("otan vaaratilannekortin", "fi", "exchange,decline", "exchange"),
    ("vesitasolla Suakiniin", "fi", "seaplane suakin,seaplane tunis,roll", "seaplane suakin"),
]


def _x_context(lang: str, legal: str, private: bool = True) -> ParseContext:
    state = ENGINE.new_game(3, "x", ENGINE.Options(quick_game=True))
    written_ = tuple(n.strip() for n in re.split(r",(?=[a-z_]+(?:[ ,]|$))", legal))
    actions = tuple(ENGINE.parse_notation(n) for n in written_)
    return ParseContext(lang, 1, actions, ENGINE.view(state, 1), NAMES, private=private)


@pytest.mark.parametrize(("text", "lang", "legal", "expected"), X_ROWS, ids=[r[0] for r in X_ROWS])
def test_expansion_commands(parser, text, lang, legal, expected):
    check(parser.parse(text, _x_context(lang, legal)), expected, f"{text} @ {legal}")


def test_a_hand_card_is_played_only_in_private(parser):
    result = parser.parse("pelaan sabotaasin", _x_context("fi", "play sabotage,pass", private=False))
    check(result, "!play_in_private", "group")


def test_an_offer_is_built_from_the_cards_each_side_holds(parser):
    state = ENGINE.new_game(
        3, "x", ENGINE.Options(quick_game=True), characters=("adventurer", "doctor", "merchant")
    )
    view = ENGINE.view(state, 0)
    mine = view.x.players[0].cards[0].split("#")[0]
    legal = tuple(ENGINE.parse_notation(n) for n in ("offer seat1 " + mine + " for 100", "end_phase"))
    ctx = ParseContext("fi", 0, legal, view, NAMES, private=True)
    from chatbot.games.afrikan_tahti.card_forms_generated import FI_FORMS

    result = parser.parse(f"tarjoan Liisalle {FI_FORMS[mine][1]} 200 puntaa vastaan", ctx)
    check(result, f"offer seat1 {mine} for 200", "offer")


def _first_state(options, seed, wanted, limit=4000):
    """The first state of an AI game (smart AI for every seat) where ``wanted(state)`` holds."""
    state = ENGINE.new_game(3, seed, options)
    for _ in range(limit):
        if wanted(state):
            return state
        seat = ENGINE.to_act(state)[0]
        legal = ENGINE.legal_actions(state, seat)
        action = ENGINE.ai_action("smart", ENGINE.view(state, seat), legal, ENGINE.ai_rng(state, seat))
        state, _events = ENGINE.apply(state, seat, action)
    raise AssertionError("no such state")


def test_a_command_of_the_phase_is_no_answer_to_a_question_on_the_table(parser):
    """While a danger card waits for its dice, "heitä pois ratsu" (discard the horse) is refused as
    no answer; the base phase's reading of "heitä" must not pass for the danger roll."""

    def danger_in_a_base_phase(state):
        x = ENGINE.view(state, None).x
        return (
            x.prompt is not None
            and x.prompt.kind == "danger"
            and state.phase in ("declare", "move")
            and "roll" in {ENGINE.notation(a) for a in ENGINE.legal_actions(state, x.prompt.seats[0])}
        )

    state = _first_state(ENGINE.Options(quick_game=True), "vaara", danger_in_a_base_phase)
    seat = ENGINE.view(state, None).x.prompt.seats[0]
    legal = ENGINE.legal_actions(state, seat)
    ctx = ParseContext("fi", seat, legal, ENGINE.view(state, seat), NAMES, private=True)
    result = parser.parse("heitä pois ratsu", ctx)
    assert result == NotLegal("wrong_prompt", (("prompt", "danger"),)), result
    assert written(parser.parse("heitä nopat", ctx)) == Parsed(("roll",))  # the answer itself is understood


def test_enough_spoken_inputs():
    assert len(SPOKEN_FI) >= 55 and len(SPOKEN_EN) >= 15  # issue #15


def test_a_lone_ok_in_the_group_flips_no_token(parser):
    """A flip costs money: a one-word yes counts in private, where it can only answer the bot."""
    ctx, _state, _seat = situation("after_move", "fi")
    group = ParseContext(ctx.lang, ctx.seat, ctx.legal, ctx.view, ctx.seat_names, private=False)
    assert not isinstance(parser.parse("ok", group), Parsed)
    assert not isinstance(parser.parse("joo", group), Parsed)
    assert written(parser.parse("ok", ctx)) == Parsed(("flip",))
    assert written(parser.parse("ei", group)) == Parsed(("end_phase",))
