"""Services' own tables under the scope: scopedb.protect_table / unprotect_table, the record of what they made,
the audit judging protected tables against it (E029, W029, W030), and E024 seeing column privileges, TRUNCATE and
owner-rights views.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0013", "upgrade")


def downgrade() -> None:
    run_revision_sql("0013", "downgrade")
