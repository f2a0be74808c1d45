"""One seat per user and table; repair the tables the lobby races broke.

Before this revision two joins at once could seat one user twice at a table, and a
start racing a leave could start a game with an empty seat. Such games wait forever
for a seat nobody can play: they are abandoned here. A user's second seat at a table
that has not started is freed. Then a unique index on ``seats (table_id, user_id)``
keeps it so.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02 10:00:00
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_tables = sa.table(
    "game_tables",
    sa.column("id", sa.String),
    sa.column("status", sa.String),
    sa.column("finished_at", sa.DateTime(timezone=True)),
)
_seats = sa.table(
    "seats",
    sa.column("table_id", sa.String),
    sa.column("seat", sa.Integer),
    sa.column("kind", sa.String),
    sa.column("user_id", sa.Integer),
    sa.column("invited", sa.String),
)


def upgrade() -> None:
    """Apply this migration."""
    connection = op.get_bind()
    broken: set[str] = set()
    first_seat: dict[tuple[str, int], int] = {}
    rows = connection.execute(
        sa.select(_seats.c.table_id, _seats.c.seat, _seats.c.user_id, _seats.c.invited)
        .where(_seats.c.user_id.is_not(None))
        .order_by(_seats.c.table_id, _seats.c.seat)
    ).all()
    for table_id, seat, user_id, invited in rows:
        if (table_id, user_id) not in first_seat:
            first_seat[table_id, user_id] = seat
            continue
        broken.add(table_id)
        connection.execute(
            sa.update(_seats)
            .where(sa.and_(_seats.c.table_id == table_id, _seats.c.seat == seat))
            .values(kind="invite" if invited else "open", user_id=None)
        )
    empty = connection.execute(
        sa.select(_seats.c.table_id).where(_seats.c.kind.not_in(("user", "bot"))).distinct()
    ).all()
    broken |= {row[0] for row in empty}
    if broken:
        connection.execute(
            sa.update(_tables)
            .where(sa.and_(_tables.c.id.in_(sorted(broken)), _tables.c.status == "active"))
            .values(status="abandoned", finished_at=datetime.now(UTC))
        )
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.create_index("uq_seats_table_id_user_id", ["table_id", "user_id"], unique=True)


def downgrade() -> None:
    """Revert this migration (the repaired tables stay repaired)."""
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_index("uq_seats_table_id_user_id")
