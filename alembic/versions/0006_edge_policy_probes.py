"""Graph edge policies probe their endpoint nodes by key instead of hashing every visible node.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-29
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0006", "upgrade")


def downgrade() -> None:
    run_revision_sql("0006", "downgrade")
