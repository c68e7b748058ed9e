"""Close what an outside review broke: pinned settings, no plans, statement-time expiry, no cascades or table
locks for the app, per-project row locks, bounded pattern cost, and the audit lints that would have caught them.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-30
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0008", "upgrade")


def downgrade() -> None:
    run_revision_sql("0008", "downgrade")
