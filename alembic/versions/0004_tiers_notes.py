"""Context tiers (archived originals of summarised cold fragments) and scoped memory notes.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0004", "upgrade")


def downgrade() -> None:
    run_revision_sql("0004", "downgrade")
