"""${message}

Revision ID: ${up_revision}
Revises: ${down_revision | comma,n}
Create Date: ${create_date}
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = ${repr(up_revision)}
down_revision = ${repr(down_revision)}
branch_labels = ${repr(branch_labels)}
depends_on = ${repr(depends_on)}


def upgrade() -> None:
    run_revision_sql(${repr(up_revision)}, "upgrade")


def downgrade() -> None:
    run_revision_sql(${repr(up_revision)}, "downgrade")
