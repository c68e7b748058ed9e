"""The scope accessors read the memo of verified tokens with a plan made once per session.

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-06
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0025", "upgrade")


def downgrade() -> None:
    run_revision_sql("0025", "downgrade")
