"""Alembic's entry point, for the repository's start-up and for the ``alembic`` command alike.

The repository hands in its own connection (``config.attributes["connection"]``), so the upgrade
runs in its transaction; the command line gets a connection from ``DATABASE_URL`` or the default
SQLite file. ``alembic upgrade head --sql`` prints the SQL instead.
"""

from __future__ import annotations

from typing import Any, Literal

from alembic import context
from sqlalchemy import create_engine, pool
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel
from sqlmodel.sql.sqltypes import AutoString, UTCDateTime

import chatbot.storage.tables  # noqa: F401  (registers the tables in SQLModel.metadata)

config = context.config
target_metadata = SQLModel.metadata


def _url() -> str:
    from chatbot.storage.repository import database_url

    return database_url()


def _render_item(kind: str, obj: Any, _autogen: Any) -> str | Literal[False]:
    """SQLModel's column types as the plain SQLAlchemy types they stand for, so that a migration
    does not import sqlmodel (and does not change when sqlmodel does)."""
    if kind == "type" and isinstance(obj, AutoString):
        return f"sa.String(length={obj.length})" if obj.length else "sa.String()"
    if kind == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def run_on(connection: Connection) -> None:
    if connection.dialect.name == "sqlite":
        from chatbot.storage.compound import sqlite_teardown

        sqlite_teardown(connection)  # the connection's TEMP triggers name the tables
    # batch mode: SQLite changes a column by copying the table, and Alembic writes that for us
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        compare_type=True,
        render_as_batch=connection.dialect.name == "sqlite",
        render_item=_render_item,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    context.configure(
        url=_url(), target_metadata=target_metadata, literal_binds=True, render_item=_render_item
    )
    with context.begin_transaction():
        context.run_migrations()
elif (given := config.attributes.get("connection")) is not None:
    run_on(given)
else:
    engine = create_engine(_url(), poolclass=pool.NullPool)
    with engine.begin() as connection:
        run_on(connection)
    engine.dispose()
