"""Per-project storage: fragments and their full-text copy are partitioned by project, and a project past a size
threshold gets its own HNSW and GIN index; no search structure holds more than one project's rows.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-30
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0011", "upgrade")


def downgrade() -> None:
    run_revision_sql("0011", "downgrade")
