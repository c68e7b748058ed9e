"""Query paths that plan less per call. Vector search: the indexed projects found by a lookup planned without a
subquery, one branch when every project of the scope has an index, the answer staged by one aggregate step. Graph:
edges carry copies of their ends' resource, path and name (five-column foreign keys, ON UPDATE CASCADE), tested by
the edge policy instead of two probes of the nodes; the walks run as functions that keep a generic plan made under
pinned planner settings. Every other function the app can reach whose plans the connection keeps pins the planner
settings that shape them (04_kept_plans.sql): a tenant's settings must not choose later tenants' plans.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-01
"""

from __future__ import annotations

from scopedb.migrations import run_revision_sql

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    run_revision_sql("0016", "upgrade")


def downgrade() -> None:
    run_revision_sql("0016", "downgrade")
