"""Short statistics for the full-text copy's tsvectors: a one-project text search plans without decompressing them.

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-06
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0027", "upgrade")


def downgrade() -> None:
    run_revision_sql("0027", "downgrade")
