"""The driver's prepared statements outlive a scoped transaction: clean_session deallocates only SQL ones.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-05
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0024", "upgrade")


def downgrade() -> None:
    run_revision_sql("0024", "downgrade")
