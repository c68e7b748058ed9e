"""Foundation: roles, projects, resources, resource links, fragments, signing keys, forced RLS.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0001", "upgrade")


def downgrade() -> None:
    run_revision_sql("0001", "downgrade")
