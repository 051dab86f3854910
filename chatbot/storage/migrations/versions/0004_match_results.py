"""The results of finished matches (issue #16: statistics, history): one row per finished match.

Matches that finished before this revision get no row here; the core computes their result from the
stored final state the first time statistics or history need it, and their time is the match's
``updated_at`` until then.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("matchresult"):
        return  # a database whose revision was set back by hand (tests of older revisions) has it
    op.create_table(
        "matchresult",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"]),
        sa.PrimaryKeyConstraint("match_id"),
    )
    op.create_index("ix_matchresult_finished_at", "matchresult", ["finished_at"])


def downgrade() -> None:
    op.drop_table("matchresult")  # its index goes with it
