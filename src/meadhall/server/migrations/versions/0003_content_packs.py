"""Content packs stored once, by digest: tables name them by reference.

Revision ID: 0003
Revises: 0001
Create Date: 2026-12-02 12:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    op.create_table(
        "content_packs",
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("sha256", name=op.f("pk_content_packs")),
    )


def downgrade() -> None:
    """Revert this migration."""
    op.drop_table("content_packs")
