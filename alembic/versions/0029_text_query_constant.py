"""scopedb.text_candidates searches with one statement, every term of the scope a constant of its plan.

Revision ID: 0029
Revises: 0028
Create Date: 2026-12-07
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0029"
down_revision = "0028"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0029", "upgrade")


def downgrade() -> None:
    run_revision_sql("0029", "downgrade")
