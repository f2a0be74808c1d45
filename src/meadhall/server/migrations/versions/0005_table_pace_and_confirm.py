"""A table's pace (live or async) and its confirm-turn setting, chosen at creation.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-03 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    # Tables made before these settings were live tables without a confirmation step.
    op.add_column("game_tables", sa.Column("pace", sa.String(8), nullable=False, server_default="live"))
    op.add_column("game_tables", sa.Column("confirm_turns", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    """Revert this migration."""
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("confirm_turns")
        batch.drop_column("pace")
