"""The shared language toolkit: text, lemmas (both backends), numbers, typos, names, lexicon scan."""

from __future__ import annotations

import importlib.util
import json
import logging

import pytest

from chatbot.core import nlp
from chatbot.core.nlp import (
    NEG,
    Lemmatizer,
    LemmatizerUnavailable,
    Lexicon,
    card_value,
    fold,
    fuzzy_pick,
    match_seat,
    name_forms,
    normalise,
    number_noun_value,
    number_words,
    numeral_value,
    ordinal_value,
    position_values,
    tokens,
)


def _voikko_loads() -> bool:
    try:
        Lemmatizer(backend="voikko")
    except LemmatizerUnavailable:
        return False
    return True


VOIKKO = _voikko_loads()


@pytest.fixture(scope="module", params=["voikko", "table"])
def lemmatizer(request):
    if request.param == "voikko" and not VOIKKO:
        pytest.skip("libvoikko or the Finnish dictionary cannot be loaded")
    return Lemmatizer(backend=request.param)


# --- text ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Vaihda 2:een!", "vaihda 2:een"),
        ("  Otan   VITOSEN, neljänteen. ", "otan vitosen neljänteen"),
        ("Swap my 2nd with Liisa's 4th", "swap my 2nd with liisa's 4th"),
        ("don’t use it", "don't use it"),
        ("#2 ja @Matti", "#2 ja @matti"),
        ("nosta 2 -kortti", "nosta 2 kortti"),
        ("Hylkää!!!", "hylkää"),
        ("Botti 2:n kanssa", "botti 2:n kanssa"),
        ("klo: 12:30", "klo 12:30"),
        ("Åke ÖRN", "åke örn"),
        ("(kolmas) 'paikka'", "kolmas paikka"),
        ("ha\u0308n", "hän"),  # combining diaeresis
        ("Sirkka-Liisa", "sirkka-liisa"),
        ("# @ : -", ""),
    ],
)
def test_normalise(text, expected):
    assert normalise(text) == expected


@pytest.mark.parametrize(
    ("word", "expected"),
    [("hylkää", "hylkaa"), ("käytä", "kayta"), ("pöytä", "poyta"), ("åland", "aland"), ("abc", "abc")],
)
def test_fold(word, expected):
    assert fold(word) == expected


def test_tokens():
    assert tokens("Vaihdan kakkoseni Liisan neloseen!") == ["vaihdan", "kakkoseni", "liisan", "neloseen"]
    assert tokens("") == []


@pytest.mark.parametrize(
    ("word", "stem"),
    [("draws", "draw"), ("swapped", "swap"), ("peeking", "peek"), ("placed", "place"), ("liisa's", "liisa")],
)
def test_english_stems(word, stem):
    assert stem in nlp.english_stems(word)
    assert word in nlp.english_stems(word)


# --- lemmatiser ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "bases"),
    [
        ("hylkään", {"hylätä", "hyljätä"}),  # both readings are kept (spec §8.5)
        ("kurkista", {"kurkistaa"}),
        ("nostan", {"nostaa"}),
        ("nostetaan", {"nostaa"}),
        ("vaihdetaan", {"vaihtaa"}),
        ("otan", {"ottaa"}),
        ("pidä", {"pitää"}),
        ("heitä", {"heittää"}),
        ("koputan", {"koputtaa"}),
        ("käytän", {"käyttää"}),
        ("korttiin", {"kortti"}),
        ("korttiini", {"kortti"}),
        ("tilalle", {"tila"}),
        ("toiseen", {"toinen"}),
        ("kakkoseen", {"kakkonen"}),
        ("neljänteen", {"neljäs"}),
        ("nostopakasta", {"nostopakka"}),
        ("poistoon", {"poisto"}),
        ("en", {"ei"}),
        ("Hylkää", {"hylätä"}),  # case does not matter
        ("hylkaa", {"hylätä"}),  # a typed for ä
        ("kayta", {"käyttää"}),
        ("kurkistetaan", {"kurkistaa"}),
    ],
)
def test_readings(lemmatizer, word, bases):
    readings = lemmatizer.readings(word)
    assert bases <= readings
    assert word.casefold() in readings


def test_unknown_word_reads_as_itself(lemmatizer):
    assert lemmatizer.readings("xyzzy") == frozenset({"xyzzy"})


def test_backend_attribute(lemmatizer, request):
    assert lemmatizer.backend == request.node.callspec.params["lemmatizer"]


def test_forms_of_lists_table_forms():
    forms = Lemmatizer(backend="table").forms_of("nostaa")
    assert {"nostan", "nosta", "nostetaan"} <= forms


def test_backend_is_logged_once(monkeypatch, caplog):
    monkeypatch.setattr(nlp.lemmas, "_announced", set())
    with caplog.at_level(logging.INFO, logger="chatbot.core.nlp"):
        Lemmatizer(backend="table")
        Lemmatizer(backend="table")
    assert [r.getMessage() for r in caplog.records].count("Finnish lemmatiser backend: table") == 1


def test_falls_back_to_table_without_voikko(monkeypatch):
    def broken():
        raise OSError("libvoikko.so.1: cannot open shared object file")

    monkeypatch.setattr(nlp.lemmas, "_open_voikko", broken)
    assert Lemmatizer().backend == "table"
    with pytest.raises(LemmatizerUnavailable):
        Lemmatizer(backend="voikko")
    with pytest.raises(ValueError, match="backend"):
        Lemmatizer(backend="hunspell")


def test_vocabulary_is_in_the_table():
    table = json.loads(nlp.WORDFORMS_PATH.read_text(encoding="utf-8"))
    words = [
        w for w in nlp.VOCABULARY_PATH.read_text(encoding="utf-8").split("\n") if w and not w.startswith("#")
    ]
    bases = {b for values in table.values() for b in values}
    # "kutonen" is unknown to Voikko; number-nouns are declined by nlp itself anyway.
    assert {w for w in words if w not in bases} <= {"kutonen"}


def _build_script():
    spec = importlib.util.spec_from_file_location(
        "build_wordforms", nlp.DATA_DIR.parents[2] / "scripts" / "build_wordforms.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_build_script_candidates_and_vocabulary(tmp_path):
    build = _build_script()
    candidates = set(build.candidates("nostaa"))
    assert {"nostan", "nosta", "nostetaan", "nostakaa"} <= candidates
    assert {"hylkään", "hylkää", "hylätään"} <= set(build.candidates("hylätä"))
    assert {"kortin", "korttiin", "korttiini"} <= set(build.candidates("kortti"))
    vocabulary = tmp_path / "words.txt"
    vocabulary.write_text("# header\nnostaa\n\nkortti  # cards\nnostaa\n", encoding="utf-8")
    assert build.read_vocabulary(vocabulary) == ["nostaa", "kortti"]


@pytest.mark.skipif(not VOIKKO, reason="libvoikko or the Finnish dictionary cannot be loaded")
def test_build_script_keeps_only_forms_voikko_confirms(tmp_path):
    build = _build_script()
    spec = tmp_path / "spec.md"
    spec.write_text("Nostan kortin ja hylkään sen.", encoding="utf-8")
    table = build.build(["nostaa", "kortti"], [spec], build.Analyser())
    assert {"nostan", "nostetaan", "korttiin", "kortin"} <= table.keys()
    assert all("nostaa" in bases or "kortti" in bases for bases in table.values())
    assert "hylkään" not in table  # in the spec, but not a vocabulary word
    out = tmp_path / "forms.json"
    build.write(table, out)
    assert json.loads(out.read_text(encoding="utf-8")) == table


# --- numbers and positions ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "value"),
    [
        ("ensimmäinen", 1),
        ("ensimmäiseen", 1),
        ("ensimmaiseen", 1),
        ("ensimmäiselle", 1),
        ("eka", 1),
        ("ekaa", 1),
        ("ekaan", 1),
        ("ekan", 1),
        ("toinen", 2),
        ("toiseen", 2),
        ("toista", 2),
        ("toka", 2),
        ("tokaan", 2),
        ("kolmas", 3),
        ("kolmannen", 3),
        ("kolmatta", 3),
        ("kolmanteen", 3),
        ("kolmannelle", 3),
        ("neljäs", 4),
        ("neljänteen", 4),
        ("neljännelle", 4),
        ("neljättä", 4),
        ("viidenteen", 5),
        ("kuudennen", 6),
        ("seitsemäs", 7),
        ("kahdeksatta", 8),
        ("yhdeksänteen", 9),
        ("kymmenes", 10),
        ("first", 1),
        ("second", 2),
        ("2nd", 2),
        ("3rd", 3),
        ("tenth", 10),
        ("kakkonen", None),
        ("kaksi", None),
        ("2", None),
    ],
)
def test_ordinal_value(word, value):
    assert ordinal_value(word) == value


@pytest.mark.parametrize(
    ("word", "value"),
    [
        ("nolla", 0),
        ("yksi", 1),
        ("yhteen", 1),
        ("yhden", 1),
        ("kaksi", 2),
        ("kahteen", 2),
        ("kaks", 2),
        ("kolmeen", 3),
        ("neljään", 4),
        ("viittä", 5),
        ("kuusi", 6),
        ("seitsemän", 7),
        ("kahdeksan", 8),
        ("yhdeksää", 9),
        ("kymmenen", 10),
        ("two", 2),
        ("ten", 10),
        ("2", 2),
        ("2:een", 2),
        ("2:seen", 2),
        ("#2", 2),
        ("p2", 2),
        ("3:lle", 3),
        ("kakkonen", None),
        ("toinen", None),
    ],
)
def test_numeral_value(word, value):
    assert numeral_value(word) == value


@pytest.mark.parametrize(
    ("word", "value"),
    [
        ("ykkönen", 1),
        ("ykkösen", 1),
        ("ykköstä", 1),
        ("ykköseen", 1),
        ("kakkoseni", 2),
        ("kakkoseeni", 2),
        ("kolmosta", 3),
        ("neloseen", 4),
        ("vitonen", 5),
        ("viitonen", 5),
        ("kutosen", 6),
        ("kuutonen", 6),
        ("seiska", 7),
        ("seiskaan", 7),
        ("seitsemäinen", 7),
        ("kasi", 8),
        ("kasiin", 8),
        ("kahdeksikko", 8),
        ("ysi", 9),
        ("ysiä", 9),
        ("yhdeksikkö", 9),
        ("kymppi", 10),
        ("kympin", 10),
        ("nolla", 0),
        ("kaksi", None),
    ],
)
def test_number_noun_value(word, value):
    assert number_noun_value(word) == value


@pytest.mark.parametrize(
    ("word", "value"),
    [
        ("nolla", 0),
        ("ykkönen", 1),
        ("kakkosen", 2),
        ("kolme", 3),
        ("nelosen", 4),
        ("vitonen", 5),
        ("vitosen", 5),
        ("kutonen", 6),
        ("seiska", 7),
        ("seiskan", 7),
        ("kasi", 8),
        ("kasin", 8),
        ("ysi", 9),
        ("ysin", 9),
        ("5", 5),
        ("five", 5),
        ("viisi", 5),
        ("zero", 0),
        ("toinen", None),
        ("kortti", None),
    ],
)
def test_card_value(word, value):
    assert card_value(word) == value


def test_number_word_details():
    (ill,) = number_words("kakkoseen")
    assert (ill.value, ill.kind, ill.case, ill.possessive) == (2, "number_noun", "illative", False)
    assert any(w.possessive for w in number_words("kakkoseni"))
    (digit,) = number_words("2:een")
    assert (digit.kind, digit.case) == ("digit", "illative")
    assert number_words("#3")[0].kind == "position"
    assert number_words("2nd")[0].kind == "ordinal"
    assert number_words("toiseen")[0].base == "toinen"
    assert number_words("kortti") == ()


@pytest.mark.parametrize(
    ("word", "size", "positions"),
    [
        ("reunimmainen", 4, (1, 4)),
        ("reunimmaiseen", 4, (1, 4)),
        ("keskimmäinen", 4, (2, 3)),
        ("keski", 4, (2, 3)),
        ("viimeinen", 4, (4,)),
        ("viimeiseen", 4, (4,)),
        ("vika", 4, (4,)),
        ("vasen", 4, (1,)),
        ("vasempaan", 4, (1,)),
        ("oikeanpuoleinen", 4, (4,)),
        ("oikeaan", 4, (4,)),
        ("right", 4, (4,)),
        ("last", 6, (6,)),
        ("leftmost", 4, (1,)),
        ("middle", 5, (2, 3, 4)),
        ("edge", 4, (1, 4)),
        ("kolmas", 4, (3,)),
        ("viides", 4, ()),
        ("2", 4, (2,)),
    ],
)
def test_position_values(word, size, positions):
    assert position_values(word, size) == positions


# --- typos --------------------------------------------------------------------------------------

VOCAB = ("nosta", "ota", "koputa", "koputan", "hylkää", "kurkista", "discard")


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("nsota", "nosta"),  # a transposition is one edit
        ("koputn", "koputan"),  # two at one edit: the more similar wins
        ("ota", "ota"),
        ("hylkaa", "hylkää"),
        ("kurkistq", "kurkista"),
        ("discrad", "discard"),
        ("oat", None),  # up to three letters only exact matches
        ("ot", None),
        ("xyzzy", None),
        ("nostaaaa", None),
    ],
)
def test_fuzzy_pick(word, expected):
    assert fuzzy_pick(word, VOCAB) == expected


@pytest.mark.parametrize(
    ("word", "typos"), [("ota", 0), ("move", 0), ("nsota", 1), ("aloittaa", 1), ("kurkistetaan", 2)]
)
def test_max_typos(word, typos):
    assert nlp.max_typos(word) == typos


def test_fuzzy_pick_refuses_a_tie():
    assert fuzzy_pick("kaxa", ["kala", "kana"]) is None


# --- names --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "present", "absent"),
    [
        (
            "Matti",
            {
                "matti",
                "matin",
                "matille",
                "matilta",
                "mattia",
                "mattiin",
                "matilla",
                "matissa",
                "matista",
                "matti's",
            },
            {"mattille", "mattin"},
        ),
        ("Pekka", {"pekan", "pekalle", "pekalta", "pekkaa", "pekkaan", "pekassa"}, {"pekkan", "pekkalle"}),
        ("Mikko", {"mikon", "mikolle", "mikkoa", "mikkoon"}, {"mikkon"}),
        ("Liisa", {"liisan", "liisalle", "liisaa", "liisaan", "liisalta", "liisa's"}, set()),
        ("Virtanen", {"virtasen", "virtaselle", "virtasta", "virtaseen", "virtaselta"}, {"virtanen's'"}),
        ("John", {"johnin", "johnille", "johnia", "johniin", "john's"}, set()),
        ("Ville", {"villen", "villelle", "villeä", "villeen"}, set()),
        ("Markus", {"markuksen", "markukselle", "markusta"}, set()),
        ("Botti 2", {"botti 2", "botti 2:n", "botti 2:lle", "botti 2:ta", "botti 2:een"}, {"botin 2"}),
        ("Sirkka-Liisa", {"sirkka-liisan", "sirkka-liisalle"}, set()),
    ],
)
def test_name_forms(name, present, absent):
    forms = name_forms(name)
    assert present <= forms
    assert not absent & forms


NAMES = ("Matti", "Liisa", "Pekka", "Virtanen", "Botti 2", "John")


@pytest.mark.parametrize(
    ("phrase", "seats"),
    [
        ("Matin", [0]),
        ("matilta", [0]),
        ("@liisa", [1]),
        ("Liisan", [1]),
        ("liisalle", [1]),
        ("pekan", [2]),
        ("virtasen", [3]),
        ("botti 2:n", [4]),
        ("@botti2", [4]),
        ("johnin", [5]),
        ("matti's", [0]),
        ("pelaajan 2", [1]),
        ("pelaaja 3", [2]),
        ("pelaajalle 1", [0]),
        ("player 1", [0]),
        ("player 9", []),
        ("pek", [2]),
        ("mat", [0]),
        ("bot", [4]),
        ("ma", []),
        ("liisn", [1]),
        ("virtasn", [3]),
        ("xyz", []),
        ("kortti", []),
    ],
)
def test_match_seat(phrase, seats):
    assert match_seat(phrase, NAMES) == seats


def test_match_seat_loose_and_ambiguous():
    assert match_seat("pek", NAMES, loose=False) == []
    assert match_seat("mik", ("Mikko", "Mika")) == [0, 1]  # two players fit: the caller asks
    assert match_seat("Matin", ("Matti A", "Matti B", "Liisa")) == [0, 1]
    assert match_seat("matin", ()) == []


# --- lexicon ------------------------------------------------------------------------------------

WORDS = {
    "fi": {"draw": ("nostaa",), "knock": ("koputtaa",), "draw2": ("nostaa kakkonen",), "use": ("käyttää",)},
    "en": {"draw": ("draw",), "knock": ("knock",), "draw2": ("draw two",)},
}


@pytest.fixture(scope="module")
def lexicon(lemmatizer):
    return Lexicon(WORDS, lemmatizer)


def test_scan_negation_and_separator(lexicon):
    items = lexicon.scan("en koputa vaan nostan", "fi")
    assert [(i.text, set(i.concepts), i.negated) for i in items] == [
        ("en", {NEG}, False),
        ("koputa", {"knock"}, True),
        ("vaan", {"sep"}, False),
        ("nostan", {"draw"}, False),
    ]


def test_scan_phrase_wins_over_its_parts(lexicon):
    (item,) = lexicon.scan("nosta kakkosen", "fi")
    assert item.concepts == {"draw2"} and item.numbers == ()
    items = lexicon.scan("käytän draw two", "fi")
    assert [set(i.concepts) for i in items] == [{"use"}, {"draw2"}]


def test_scan_prefers_the_speakers_language(lexicon):
    assert lexicon.scan("no koputan", "fi")[1].negated is False  # Finnish "no" = "well"
    assert lexicon.scan("no knock", "en")[1].negated is True


def test_scan_names_numbers_and_typos(lexicon):
    items = lexicon.scan("nostan Botti 2:n kolmoseen", "fi", NAMES)
    assert [i.text for i in items] == ["nostan", "botti 2:n", "kolmoseen"]
    assert items[1].seats == (4,)
    assert items[2].numbers[0].value == 3
    typo = lexicon.scan("koputn", "fi")[0]
    assert typo.concepts == {"knock"} and typo.fuzzy
    assert lexicon.scan("neljänten", "fi")[0].numbers[0].value == 4  # typo of "neljänteen"
    unknown = lexicon.scan("moikka", "fi")[0]
    assert not unknown.known


def test_lexicon_concepts_folded(lexicon):
    assert lexicon.concepts("kayta", "fi") == {"use"}
    assert lexicon.concepts("draws", "en") == {"draw"}
    assert lexicon.concepts("nostaa", "en") == {"draw"}  # the other language is a fallback
