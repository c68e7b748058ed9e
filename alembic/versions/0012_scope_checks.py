"""Cheaper scope checks per statement and a cheaper entry: the verification helpers lose their per-call SET
clauses, scope_entered is inlined into the policies, scoped transactions no longer force custom plans on the
accessors' own lookups, and enter_scope reuses the claims it resolved.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0012", "upgrade")


def downgrade() -> None:
    run_revision_sql("0012", "downgrade")
