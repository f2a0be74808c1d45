"""Seats that left a game under way (a loss for them) and async players' vacation days.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04 16:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    # Tables made before leaving was possible have nobody who left (NULL).
    op.add_column("game_tables", sa.Column("absences", sa.JSON, nullable=True))
    op.create_table(
        "vacations",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("year", sa.Integer, nullable=False),
        sa.Column("used_days", sa.Float, nullable=False),
        sa.Column("since", sa.Float, nullable=True),
    )


def downgrade() -> None:
    """Revert this migration."""
    op.drop_table("vacations")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("absences")
