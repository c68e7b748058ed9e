"""Small projects share one partition of fragments and of the full-text copy (the DEFAULT partitions, with no
search index); the maintenance step gives a project that reaches the threshold partitions of its own and moves its
rows there. A new project is a row, not two tables.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-01
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0014", "upgrade")


def downgrade() -> None:
    run_revision_sql("0014", "downgrade")
