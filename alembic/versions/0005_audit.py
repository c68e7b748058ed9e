"""The policy audit: scopedb_audit.findings, readable by scopedb_auditor from psql.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-29
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0005", "upgrade")


def downgrade() -> None:
    run_revision_sql("0005", "downgrade")
