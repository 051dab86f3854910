"""Fixtures of the chat-side tests."""

from __future__ import annotations

import pytest

from chatbot.core.nlp import Lemmatizer, LemmatizerUnavailable


@pytest.fixture(scope="module", params=["voikko", "table"])
def lemmatizer(request: pytest.FixtureRequest) -> Lemmatizer:
    """Each lemmatiser backend in turn, once per test module: the games' table-driven parser tests
    run under both. Voikko is skipped where libvoikko or its Finnish dictionary cannot be loaded."""
    try:
        return Lemmatizer(backend=request.param)
    except LemmatizerUnavailable:
        pytest.skip(f"lemmatiser backend {request.param} is not available")
