"""A scope that reads its projects whole is judged by one accessor: the read policies of fragments, graph nodes and
edges, resources and resource links ask scopedb.scope_whole_project_ids first, and judge a row it leaves
undecided by every term of scopedb.scope_terms, read once (#90: separate accessors let a statement mix two tokens'
terms). The accessors left fail closed on their own with no valid scope.

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
