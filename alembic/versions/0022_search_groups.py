"""Search groups: projects declared to be searched together get one HNSW index over a copy of their embedded
fragments, which scopedb.nearest_fragments uses for a scope that reads every member whole at the present time.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-04
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0022", "upgrade")


def downgrade() -> None:
    run_revision_sql("0022", "downgrade")
