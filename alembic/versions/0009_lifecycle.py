"""A login is judged with every role it belongs to (scopedb.role_hazards); a kept token for a renamed project is
not reused; a secret note's size is not returned.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-30
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0009", "upgrade")


def downgrade() -> None:
    run_revision_sql("0009", "downgrade")
