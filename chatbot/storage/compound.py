"""Several writes in ONE statement (issue #26: statements and commits per update).

An update's transaction writes the version bump, the action and the snapshot; then the outbox rows
and the match's deadlines; the deliverer writes, per delivered batch, the done marks, the message
references, the send notes and the rate-limit windows. Each of those groups is one statement here:

* PostgreSQL: data-modifying CTEs (``WITH b AS (UPDATE ... RETURNING) INSERT ...``) over JSON
  parameters (``json_array_elements``), so that one statement does any number of rows and is
  compiled once;
* SQLite, which has no data-modifying CTEs: an ``INSERT`` into a TEMP view of the connection whose
  ``INSTEAD OF`` trigger does the writes (the views and triggers are made when the connection is
  opened, :func:`sqlite_setup`; they are not part of the schema and need no migration).

:class:`Compound` runs them; each method takes the transaction's connection.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Integer, String, bindparam, cast, func, text, update
from sqlalchemy import select as core_select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from chatbot.storage.statements import ACT, OUT, PENDING, SNAP, M

#: the message a SQLite trigger aborts its statement with when the match's version moved on
_MOVED_ON = "pelipoyta: the version moved on"

# ---------------------------------------------------------------------------------------------
# SQLite: TEMP views whose INSTEAD OF triggers do the writes

_SQLITE_SETUP = (
    # commit_action: the version bump (or an abort when the version moved on), the action, the snapshot
    """CREATE TEMP VIEW IF NOT EXISTS commit_action (m, seen, new, at, status, ply, seat, notation,
        events, state) AS SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL""",
    f"""CREATE TEMP TRIGGER IF NOT EXISTS commit_action INSTEAD OF INSERT ON commit_action BEGIN
        SELECT RAISE(ABORT, '{_MOVED_ON}')
            WHERE NOT EXISTS (SELECT 1 FROM "match" WHERE id = NEW.m AND version = NEW.seen);
        UPDATE "match" SET version = NEW.new, status = NEW.status, updated_at = NEW.at WHERE id = NEW.m;
        INSERT INTO actionlog (match_id, ply, seat, notation, events, at)
            VALUES (NEW.m, NEW.ply, NEW.seat, NEW.notation, NEW.events, NEW.at);
        INSERT INTO snapshot (match_id, version, state) VALUES (NEW.m, NEW.new, NEW.state)
            ON CONFLICT (match_id) DO UPDATE SET version = excluded.version, state = excluded.state;
    END""",
    # queue: a match's deadlines become exactly those of NEW.deadlines (when NEW.m is set), match
    # NEW.mm's meta becomes NEW.meta (when NEW.mm is set), and the outbox rows of NEW.rows are
    # inserted in their order
    """CREATE TEMP VIEW IF NOT EXISTS queue (rows, at, m, deadlines, mm, meta)
        AS SELECT NULL, NULL, NULL, NULL, NULL, NULL""",
    """CREATE TEMP TRIGGER IF NOT EXISTS queue INSTEAD OF INSERT ON queue BEGIN
        UPDATE "match" SET meta = NEW.meta WHERE NEW.mm IS NOT NULL AND id = NEW.mm;
        DELETE FROM deadline WHERE NEW.m IS NOT NULL AND match_id = NEW.m
            AND kind NOT IN (SELECT json_extract(value, '$.kind') FROM json_each(NEW.deadlines));
        INSERT INTO deadline (match_id, kind, due, version, seats, claimed_by, claimed_until)
            SELECT NEW.m, json_extract(value, '$.kind'), json_extract(value, '$.due'),
                   json_extract(value, '$.version'), json_extract(value, '$.seats'), NULL, NULL
            FROM json_each(NEW.deadlines) WHERE NEW.m IS NOT NULL
            ON CONFLICT (match_id, kind) DO UPDATE SET due = excluded.due, version = excluded.version,
                seats = excluded.seats, claimed_by = NULL, claimed_until = NULL;
        INSERT INTO outbox (platform, chat, "key", payload, created_at, state, attempts, not_before,
                            held, sending)
            SELECT json_extract(value, '$.platform'), json_extract(value, '$.chat'),
                   json_extract(value, '$.key'), json_extract(value, '$.payload'), NEW.at, 'pending',
                   0, 0.0, 0, NULL
            FROM json_each(NEW.rows) ORDER BY key;
    END""",
    # book: the delivery's bookkeeping of a chat (see Compound.book)
    """CREATE TEMP VIEW IF NOT EXISTS book (done, notes, kv) AS SELECT NULL, NULL, NULL""",
    """CREATE TEMP TRIGGER IF NOT EXISTS book INSTEAD OF INSERT ON book BEGIN
        UPDATE outbox SET state = 'superseded' FROM json_each(NEW.done) AS d
            WHERE json_extract(d.value, '$.key') IS NOT NULL
              AND outbox.chat = json_extract(d.value, '$.chat')
              AND outbox."key" = json_extract(d.value, '$.key')
              AND outbox.id < json_extract(d.value, '$.id') AND outbox.state = 'pending'
              AND outbox.id NOT IN (SELECT json_extract(value, '$.id') FROM json_each(NEW.done));
        UPDATE outbox SET state = 'done',
                sending = coalesce(json_extract(d.value, '$.sent'), outbox.sending)
            FROM json_each(NEW.done) AS d WHERE outbox.id = json_extract(d.value, '$.id');
        INSERT INTO messageref (chat, "key", ref)
            SELECT json_extract(value, '$.chat'), json_extract(value, '$.key'),
                   json_extract(value, '$.ref')
            FROM json_each(NEW.done)
            WHERE json_extract(value, '$.key') IS NOT NULL AND json_extract(value, '$.ref') IS NOT NULL
            ON CONFLICT (chat, "key") DO UPDATE SET ref = excluded.ref;
        UPDATE outbox SET sending = json_extract(n.value, '$.note')
            FROM json_each(NEW.notes) AS n WHERE outbox.id = json_extract(n.value, '$.id');
        INSERT INTO keyvalue (namespace, "key", value)
            SELECT json_extract(value, '$.ns'), json_extract(value, '$.k'), json_extract(value, '$.v')
            FROM json_each(NEW.kv) WHERE true
            ON CONFLICT (namespace, "key") DO UPDATE SET value = excluded.value;
    END""",
)


#: the pool record's key saying the connection has them
_MADE = "pelipoyta.compound"


def sqlite_setup(dbapi_connection: Any, record: Any, _proxy: Any = None) -> None:
    """Make the TEMP views and triggers on an SQLite connection as it is taken from the pool, unless
    it has them (a pool ``checkout`` listener)."""
    if record.info.get(_MADE):
        return
    cursor = dbapi_connection.cursor()
    try:
        for statement in _SQLITE_SETUP:
            cursor.execute(statement)
    finally:
        cursor.close()
    record.info[_MADE] = True


def sqlite_teardown(connection: Connection) -> None:
    """Drop them from a connection that is about to change the schema (a migration): SQLite checks
    every trigger that names a table when the table is renamed, and a migration that copies a table
    renames the copy when the table itself is gone. The pool makes them again at the next checkout."""
    for kind, name in (("TRIGGER", "commit_action"), ("TRIGGER", "queue"), ("TRIGGER", "book")):
        connection.exec_driver_sql(f"DROP {kind} IF EXISTS temp.{name}")
    for name in ("commit_action", "queue", "book"):
        connection.exec_driver_sql(f"DROP VIEW IF EXISTS temp.{name}")
    connection.info.pop(_MADE, None)


# ---------------------------------------------------------------------------------------------
# PostgreSQL: data-modifying CTEs

#: a match's deadlines become exactly the rows of ``:rows`` (a JSON array): the kinds not set any
#: more deleted, the others upserted (their claims dropped, as a new row has none). Written as text
#: over ``json_array_elements``: the same statement for any number of rows, compiled once
#: (SQLAlchemy does not cache a multi-row VALUES insert: it was compiled anew for every action)
_DEADLINES_CTES = """
WITH new_deadlines AS (
    SELECT d.value->>'kind' AS kind, CAST(d.value->>'due' AS float8) AS due,
           CAST(d.value->>'version' AS integer) AS version, d.value->'seats' AS seats
    FROM json_array_elements(CAST(:rows AS json)) AS d(value)
), gone AS (
    DELETE FROM deadline WHERE match_id = :m AND kind NOT IN (SELECT kind FROM new_deadlines)
)"""
_DEADLINES_UPSERT = """
INSERT INTO deadline (match_id, kind, due, version, seats, claimed_by, claimed_until)
SELECT :m, kind, due, version, seats, NULL, NULL FROM new_deadlines
ON CONFLICT (match_id, kind) DO UPDATE SET due = excluded.due, version = excluded.version,
    seats = excluded.seats, claimed_by = NULL, claimed_until = NULL"""
_DEADLINES_REPLACE = text(_DEADLINES_CTES + _DEADLINES_UPSERT)
#: the outbox rows of ``:outbox`` (a JSON array), inserted in its order
_OUTBOX_INSERT = """
INSERT INTO outbox (platform, chat, key, payload, created_at, state, attempts, not_before, held, sending)
SELECT o.value->>'platform', o.value->>'chat', o.value->>'key', o.value->'payload', :now, :pending,
       0, 0.0, false, NULL
FROM json_array_elements(CAST(:outbox AS json)) WITH ORDINALITY AS o(value, n)
ORDER BY o.n"""
_RETURNING = " RETURNING id, chat, key, payload, attempts, not_before, sending"
#: the pending rows of chat ``:c`` after the insert, as ``sql.pending`` reads them (the statement's
#: own rows are not in the table for its other parts: they come from the insert's RETURNING)
_PENDING_AFTER_INSERT = """
SELECT q.id, q.chat, q.key, q.payload, q.attempts, q.not_before, q.sending, r.ref
FROM (
    SELECT id, chat, key, payload, attempts, not_before, sending FROM outbox
    WHERE chat = :c AND state = :pending AND NOT held
    UNION ALL
    SELECT id, chat, key, payload, attempts, not_before, sending FROM inserted WHERE chat = :c
) AS q LEFT OUTER JOIN messageref AS r ON r.chat = q.chat AND r.key = q.key
ORDER BY q.id LIMIT :limit"""
#: a match's meta written along (``:mm``, ``:meta``)
_META_CTE = 'metaed AS (UPDATE "match" SET meta = CAST(:meta AS json) WHERE id = :mm RETURNING id)'


def _pg_insert(deadlines: bool, wanted: bool, meta: bool) -> str:
    """The outbox insert, with the deadline CTEs, the meta update and the read of a chat queue as
    asked."""
    ctes = []
    if deadlines:
        ctes.append("upserted AS (" + _DEADLINES_UPSERT + ")")
    if meta:
        ctes.append(_META_CTE)
    if wanted:
        ctes.append("inserted AS (" + _OUTBOX_INSERT + _RETURNING + ")")
    tail = _PENDING_AFTER_INSERT if wanted else _OUTBOX_INSERT
    if deadlines:
        head = _DEADLINES_CTES + (", " + ", ".join(ctes) if ctes else "")
    else:
        head = ("WITH " + ", ".join(ctes)) if ctes else ""
    return head + tail


#: (with deadlines, with the read of a chat queue, with a meta) -> the outbox insert
_INSERTS: dict[tuple[bool, bool, bool], Any] = {
    (d, w, m): text(_pg_insert(d, w, m)) for d in (False, True) for w in (False, True) for m in (False, True)
}
#: the delivery's bookkeeping (see Compound.book): the rows of ``:done`` done (an older pending row
#: of a done row's key superseded, a sent row's landing kept as its note), their references kept,
#: the notes of ``:notes`` and the key/value pairs of ``:kv`` written
_BOOK = text("""
WITH d AS (
    SELECT CAST(v->>'id' AS bigint) AS id, v->>'chat' AS chat, v->>'key' AS key, v->>'ref' AS ref,
           v->>'sent' AS sent
    FROM json_array_elements(CAST(:done AS json)) AS x(v)
), superseded AS (
    UPDATE outbox AS o SET state = 'superseded' FROM d
    WHERE d.key IS NOT NULL AND o.chat = d.chat AND o.key = d.key AND o.id < d.id
      AND o.state = :pending AND o.id NOT IN (SELECT id FROM d)
    RETURNING o.id
), marked AS (
    UPDATE outbox AS o SET state = 'done',
        sending = CASE WHEN d.sent IS NULL THEN o.sending ELSE CAST(d.sent AS json) END
    FROM d WHERE o.id = d.id
    RETURNING o.id
), refs AS (
    INSERT INTO messageref (chat, key, ref)
    SELECT chat, key, ref FROM d WHERE key IS NOT NULL AND ref IS NOT NULL
    ON CONFLICT (chat, key) DO UPDATE SET ref = excluded.ref
    RETURNING chat
), noted AS (
    UPDATE outbox AS o SET sending = CAST(n.v->>'note' AS json)
    FROM json_array_elements(CAST(:notes AS json)) AS n(v) WHERE o.id = CAST(n.v->>'id' AS bigint)
    RETURNING o.id
), kept AS (
    INSERT INTO keyvalue (namespace, key, value)
    SELECT v->>'ns', v->>'k', CAST(v->>'v' AS json) FROM json_array_elements(CAST(:kv AS json)) AS x(v)
    ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value
    RETURNING key
)
SELECT (SELECT count(*) FROM marked)""")


def _pg_action_commit() -> Any:
    """``WITH b AS (UPDATE match ... WHERE id AND version RETURNING id)``, the action row and the
    snapshot upsert inserted from ``b`` (nothing when the version had moved on), and the count of
    ``b``: 1 when the action was committed."""
    bumped = (
        update(M)
        .where(M.c.id == bindparam("m"), M.c.version == bindparam("seen"))
        .values(version=bindparam("new"), updated_at=bindparam("now"), status=bindparam("status"))
        .returning(M.c.id)
        .cte("bumped")
    )
    stamp = DateTime(timezone=True)
    action = (
        pg_insert(ACT)
        .from_select(
            ["match_id", "ply", "seat", "notation", "events", "at"],
            core_select(
                bumped.c.id,
                cast(bindparam("ply", type_=Integer), Integer),
                cast(bindparam("seat", type_=Integer), Integer),
                cast(bindparam("notation", type_=String), String),
                cast(bindparam("events", type_=JSON), JSON),
                cast(bindparam("now", type_=stamp), stamp),
            ),
        )
        .cte("action")
    )
    upsert = pg_insert(SNAP).from_select(
        ["match_id", "version", "state"],
        core_select(
            bumped.c.id,
            cast(bindparam("new", type_=Integer), Integer),
            cast(bindparam("state", type_=JSON), JSON),
        ),
    )
    snapshot = upsert.on_conflict_do_update(
        index_elements=["match_id"],
        set_={"version": upsert.excluded.version, "state": upsert.excluded.state},
    ).cte("snapshot")
    return core_select(func.count()).select_from(bumped).add_cte(action).add_cte(snapshot)


class Compound:
    """The compound statements of one dialect (see the module docstring)."""

    def __init__(self, dialect: str) -> None:
        self.postgres = dialect == "postgresql"
        if self.postgres:
            self._action = _pg_action_commit()
        else:
            self._action = text(
                "INSERT INTO commit_action (m, seen, new, at, status, ply, seat, notation, events, state)"
                " VALUES (:m, :seen, :new, :now, :status, :ply, :seat, :notation, :events, :state)"
            ).bindparams(
                bindparam("now", type_=M.c.updated_at.type),
                bindparam("events", type_=ACT.c.events.type),
                bindparam("state", type_=SNAP.c.state.type),
            )
            self._queue = text(
                "INSERT INTO queue (rows, at, m, deadlines, mm, meta)"
                " VALUES (:rows, :at, :m, :deadlines, :mm, :meta)"
            ).bindparams(bindparam("at", type_=OUT.c.created_at.type))
            self._book = text("INSERT INTO book (done, notes, kv) VALUES (:done, :notes, :kv)")

    def commit_action(self, c: Connection, params: dict[str, Any]) -> bool:
        """The version bump from ``seen`` to ``new``, the action row and the snapshot; False (and
        nothing written) when the match's version had moved on."""
        if self.postgres:
            return bool(c.execute(self._action, params).scalar_one())
        try:
            c.execute(self._action, params)
        except IntegrityError as exc:
            if _MOVED_ON in str(exc.orig):
                return False
            raise
        return True

    def queue(
        self,
        c: Connection,
        rows: list[dict[str, Any]],
        at: datetime,
        deadlines: tuple[int, list[dict[str, Any]]] | None,
        wanted: tuple[str, int] | None = None,
        meta: tuple[int, dict[str, Any]] | None = None,
    ) -> list[Any] | None:
        """Insert the outbox ``rows`` (platform, chat, key, payload) made ``at``, in their order,
        make a match's deadlines exactly ``deadlines`` (match id, rows) and a match's meta ``meta``
        (match id, the whole meta); on PostgreSQL also read the pending rows of ``wanted`` (chat,
        limit) as they are after the insert (returned)."""
        meta_id, meta_value = meta if meta is not None else (None, None)
        if self.postgres:
            params: dict[str, Any] = {"outbox": json.dumps(rows), "now": at, "pending": PENDING}
            if deadlines is not None:
                params.update(_deadline_params(*deadlines))
            if wanted is not None:
                params["c"], params["limit"] = wanted
            if meta is not None:
                params["mm"], params["meta"] = meta_id, json.dumps(meta_value)
            statement = _INSERTS[(deadlines is not None, wanted is not None, meta is not None)]
            result = c.execute(statement, params)
            return list(result) if wanted is not None else None
        match_id, dl_rows = deadlines if deadlines is not None else (None, [])
        c.execute(
            self._queue,
            {
                "rows": json.dumps(rows),
                "at": at,
                "m": match_id,
                "deadlines": json.dumps(_deadline_rows(dl_rows)),
                "mm": meta_id,
                "meta": json.dumps(meta_value) if meta is not None else None,
            },
        )
        return None

    def replace_deadlines(self, c: Connection, match_id: int, rows: list[dict[str, Any]]) -> None:
        """Make a match's deadlines exactly ``rows``."""
        if self.postgres:
            c.execute(_DEADLINES_REPLACE, _deadline_params(match_id, rows))
        else:
            self.queue(c, [], datetime.now(UTC), (match_id, rows))

    def book(
        self,
        c: Connection,
        done: Sequence[dict[str, Any]],
        notes: Sequence[tuple[int, Any]],
        kv: Sequence[tuple[str, str, Any]],
    ) -> None:
        """The delivery's bookkeeping in one statement. ``done``: rows the platform accepted, each
        ``{"id", "chat", "key", "ref", "sent"}`` (``sent``: where a keyless row's message landed, kept
        as its note); a keyed row's reference is kept and the older pending rows of its key are
        superseded. ``notes``: (row id, note) of rows about to be sent. ``kv``: key/value pairs."""
        seen: dict[tuple[str, str], int] = {}
        for i, row in enumerate(done):  # one reference per key (the newest): an upsert takes a key once
            if row["key"] is not None and row["ref"] is not None:
                seen[(row["chat"], row["key"])] = i
        rows = [
            {**row, "ref": row["ref"] if seen.get((row["chat"], row["key"])) == i else None}
            for i, row in enumerate(done)
        ]
        params = {
            "done": json.dumps(rows),
            "notes": json.dumps([{"id": row_id, "note": json.dumps(note)} for row_id, note in notes]),
            "kv": json.dumps([{"ns": ns, "k": key, "v": json.dumps(value)} for ns, key, value in kv]),
        }
        if self.postgres:
            c.execute(_BOOK, {**params, "pending": PENDING})
        else:
            c.execute(self._book, params)


def _deadline_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"kind": r["kind"], "due": r["due"], "version": r["version"], "seats": r["seats"]} for r in rows]


def _deadline_params(match_id: int, rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {"m": match_id, "rows": json.dumps(_deadline_rows(rows))}
