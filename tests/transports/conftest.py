"""Databases for the process-level transport tests: an SQLite file, or a fresh PostgreSQL database
(CREATE DATABASE on the session's server) that only this test uses."""

from __future__ import annotations

import itertools
import os

import pytest
from sqlalchemy import create_engine, text

_numbers = itertools.count(1)


def fresh_pg_database(pg_url: str, prefix: str = "t") -> str:
    """A new, empty database on the server of ``pg_url``; its URL."""
    name = f"{prefix}_{os.getpid()}_{next(_numbers)}"
    engine = create_engine(pg_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return pg_url.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def process_db(request, tmp_path):
    """The URL of a database for bot processes: an SQLite file or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'bot.sqlite'}"
    return fresh_pg_database(request.getfixturevalue("pg_url"), "bot")
