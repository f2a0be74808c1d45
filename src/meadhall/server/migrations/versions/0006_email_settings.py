"""E-mail notifications: each user's address, whether it is confirmed, and what to send.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03 18:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    op.create_table(
        "email_settings",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("confirmed", sa.Boolean, nullable=False),
        sa.Column("turns", sa.Boolean, nullable=False),
        sa.Column("invitations", sa.Boolean, nullable=False),
        sa.Column("endings", sa.Boolean, nullable=False),
        sa.Column("digest", sa.Boolean, nullable=False),
        sa.Column("last_digest_at", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    """Revert this migration."""
    op.drop_table("email_settings")
