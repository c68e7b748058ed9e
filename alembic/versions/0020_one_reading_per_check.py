"""One derivation of a scope's terms (scopedb_private.terms_of), and one reading of the setting for every check
that needs more than one term: the write policies and the owner's policies of resources, resource links, fragments,
graph nodes and edges ask the read policies' two questions, and protect_table makes (and remakes) service tables'
policies the same way (#90's siblings: separate accessors let a statement mix two tokens' terms).

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-02
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0020", "upgrade")


def downgrade() -> None:
    run_revision_sql("0020", "downgrade")
