"""Actions a seat took back (undo) stay in the record, marked with when they were taken back.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-03 08:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    # A nullable column with no default: SQLite adds it in place (no table copy), as PostgreSQL does.
    op.add_column("actions", sa.Column("taken_back_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    """Revert this migration."""
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("taken_back_at")
