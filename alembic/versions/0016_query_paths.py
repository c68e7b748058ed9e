"""Vector search plans less per call: the indexed projects found by a lookup planned without a subquery, one
branch when every project of the scope has an index, the answer staged by one aggregate step.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-01
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0016", "upgrade")


def downgrade() -> None:
    run_revision_sql("0016", "downgrade")
