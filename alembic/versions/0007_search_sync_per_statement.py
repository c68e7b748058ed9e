"""The full-text side table is kept in step once per statement, not once per row.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-29
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0007", "upgrade")


def downgrade() -> None:
    run_revision_sql("0007", "downgrade")
