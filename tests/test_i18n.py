"""Catalogs: every Finnish entry translated and none fuzzy; numbers and lists through Babel."""

from __future__ import annotations

from chatbot import i18n_tool
from chatbot.core.i18n import translator


def test_catalogs_are_complete_and_up_to_date():
    problems = i18n_tool.problems()
    assert not problems, "\n".join(problems[:30]) + "\nrun: .venv/bin/python -m chatbot.i18n_tool sync"


def test_finnish_formats_numbers_and_lists():
    fi = translator("fi")
    assert fi.format_number(12345) == "12\xa0345"
    assert fi.format_list(["Matti", "Liisa", "Pekka"]) == "Matti, Liisa ja Pekka"
    en = translator("en")
    assert en.format_list(["Matti", "Liisa", "Pekka"]) == "Matti, Liisa, and Pekka"


def test_plural_forms_follow_the_count():
    fi = translator("fi")
    one = fi.ngettext(
        "{name} knocked: {n} turn left in this round.", "{name} knocked: {n} turns left in this round.", 1
    )
    many = fi.ngettext(
        "{name} knocked: {n} turn left in this round.", "{name} knocked: {n} turns left in this round.", 3
    )
    assert one != many
    assert "vuoro" in one


def test_unknown_language_falls_back_to_finnish():
    assert translator("xx").lang == "fi"
    assert translator("en-GB").lang == "en"


def test_the_choices_of_a_question_are_asked_with_vai_in_finnish():
    from chatbot.core import i18n

    fi, en = i18n.translator("fi"), i18n.translator("en")
    assert fi.format_choices(["pisteet", "vihreät eläimet"]) == "pisteet vai vihreät eläimet"
    assert fi.format_choices(["a", "b", "c"]) == "a, b vai c"
    assert en.format_choices(["points", "green animals"]) == "points or green animals"
