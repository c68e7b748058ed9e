"""Verify once per transaction: the entry functions remember the token they verified in an owner-only temporary
table, and the scope accessors read that memo instead of verifying the token again on every call.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-02
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0017", "upgrade")


def downgrade() -> None:
    run_revision_sql("0017", "downgrade")
