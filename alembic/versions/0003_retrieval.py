"""Scoped retrieval: graph nodes and edges, and the owner-only full-text index for scoped search.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0003", "upgrade")


def downgrade() -> None:
    run_revision_sql("0003", "downgrade")
