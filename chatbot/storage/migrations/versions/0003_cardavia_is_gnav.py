"""Data only: the Gnav engine's id is ``gnav`` (it was ``cardavia``, after the site the rules come from).

Stored matches name their game by that id; rename it in place. Harmless when no such rows exist.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    _rename("cardavia", "gnav")


def downgrade() -> None:
    _rename("gnav", "cardavia")


def _rename(old: str, new: str) -> None:
    match = sa.table("match", sa.column("game", sa.String()))  # quoted: MATCH is an SQLite keyword
    op.execute(match.update().where(match.c.game == old).values(game=new))
