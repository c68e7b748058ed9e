"""A scope that reads its projects whole is judged by one accessor: the read policies of fragments, graph_nodes
and graph_edges ask scopedb.scope_whole_project_ids first, and run their full predicate only when it leaves a row
undecided.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-02
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0019", "upgrade")


def downgrade() -> None:
    run_revision_sql("0019", "downgrade")
