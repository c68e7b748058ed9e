"""scopedb.nearest_fragments in one statement for every project of the call, without the pg_class lookup or the
staging of the index answer in arrays: a short index answer is followed by the exact one, which replaces it.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-03
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0021", "upgrade")


def downgrade() -> None:
    run_revision_sql("0021", "downgrade")
