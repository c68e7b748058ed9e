"""Text candidates planned without per-partition estimates: over several partitions the tsquery and the scope's time
and resources reach scopedb.text_candidates' statement as InitPlan parameters, the project ids as constants.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-02
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0018", "upgrade")


def downgrade() -> None:
    run_revision_sql("0018", "downgrade")
