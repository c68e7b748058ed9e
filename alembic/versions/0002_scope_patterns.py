"""Scope patterns: path globs, :: names and the temporal scope, enforced by the fragment policies.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0002", "upgrade")


def downgrade() -> None:
    run_revision_sql("0002", "downgrade")
