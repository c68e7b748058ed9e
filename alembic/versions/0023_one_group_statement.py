"""scopedb.group_nearest chooses its group in one statement when one ready group's members are the call's projects.

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-05
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0023", "upgrade")


def downgrade() -> None:
    run_revision_sql("0023", "downgrade")
