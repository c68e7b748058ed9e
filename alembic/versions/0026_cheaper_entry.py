"""Cheaper scope entry: a memo that cannot bloat, one names read per entry, no second verification on reentry.

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-06
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0026", "upgrade")


def downgrade() -> None:
    run_revision_sql("0026", "downgrade")
