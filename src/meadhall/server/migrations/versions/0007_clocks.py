"""A table's time control (chosen at creation) and its seats' clocks (kept through restarts).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03 19:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    # Tables made before clocks have none (NULL).
    op.add_column("game_tables", sa.Column("time_control", sa.JSON, nullable=True))
    op.add_column("game_tables", sa.Column("clocks", sa.JSON, nullable=True))


def downgrade() -> None:
    """Revert this migration."""
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("clocks")
        batch.drop_column("time_control")
