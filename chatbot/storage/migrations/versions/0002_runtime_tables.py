"""The runtime's tables (issue #12): the outbox, chat claims, message references, deadlines and the
inbound update ids already applied.

Running matches of an older database have no deadline rows yet; the core rebuilds them on its first
tick from each match's state (and the old ``meta["timer"]``), see ``BotCore.recover``.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chatclaim",
        sa.Column("chat", sa.String(), nullable=False),
        sa.Column("worker", sa.String(), nullable=False),
        sa.Column("until", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("chat"),
    )
    op.create_table(
        "messageref",
        sa.Column("chat", sa.String(), nullable=False),
        sa.Column("key", sa.String(), nullable=False),
        sa.Column("ref", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("chat", "key"),
    )
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(), nullable=False),
        sa.Column("chat", sa.String(), nullable=False),
        sa.Column("key", sa.String(), nullable=True),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("state", sa.String(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("not_before", sa.Float(), nullable=False),
        sa.Column("held", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_outbox_chat_id", "outbox", ["chat", "id"])
    op.create_index("ix_outbox_state_chat", "outbox", ["state", "chat"])
    op.create_table(
        "seenupdate",
        sa.Column("platform", sa.String(), nullable=False),
        sa.Column("key", sa.String(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("platform", "key"),
    )
    op.create_table(
        "deadline",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("due", sa.Float(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("claimed_by", sa.String(), nullable=True),
        sa.Column("claimed_until", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"]),
        sa.PrimaryKeyConstraint("match_id", "kind"),
    )
    op.create_index("ix_deadline_due", "deadline", ["due"])


def downgrade() -> None:
    for table in ("deadline", "seenupdate", "outbox", "messageref", "chatclaim"):
        op.drop_table(table)  # their indexes go with them
