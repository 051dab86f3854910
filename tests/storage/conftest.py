"""The storage tests' ``db_url``: as the shared one, but a PostgreSQL database is emptied of
everything, ``alembic_version`` included, so that each test starts from no schema at all."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'test.sqlite'}"
    url = request.getfixturevalue("pg_url")
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    return url
