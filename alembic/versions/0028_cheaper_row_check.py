"""The read policies of fragments judge an undecided row with one function call, not a correlated sub-SELECT.

Revision ID: 0028
Revises: 0027
Create Date: 2026-12-07
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0028"
down_revision = "0027"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0028", "upgrade")


def downgrade() -> None:
    run_revision_sql("0028", "downgrade")
