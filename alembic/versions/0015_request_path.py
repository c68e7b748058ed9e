"""A pipelined request ends with scopedb.clean_session() inside its transaction and COMMIT: two statements
where it sent COMMIT and six cleanup statements.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-01
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0015", "upgrade")


def downgrade() -> None:
    run_revision_sql("0015", "downgrade")
