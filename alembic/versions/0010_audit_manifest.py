"""An audit that proves isolation: the manifest of what scopedb installs and the lints that compare the catalog
with it, the role graph followed, data leaving the protected tables reported.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-30
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0010", "upgrade")


def downgrade() -> None:
    run_revision_sql("0010", "downgrade")
