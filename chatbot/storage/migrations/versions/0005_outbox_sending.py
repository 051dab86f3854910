"""The outbox remembers a send that may have reached the platform (issue #12, kill -9 without
duplicates): ``sending`` is written just before a new message is sent (the transport's note of where
the message would land, e.g. Telegram's newest known message id) and stays until the row is done. A
worker that finds a pending row with it asks the platform whether the message is there before it
sends it again.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("sending", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("sending")
