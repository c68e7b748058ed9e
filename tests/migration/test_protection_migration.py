"""Revision 0020 remakes the policies of every service table protect_table protected before it: they read the
scope the way scopedb's own tables do (#90: a statement that switched tokens between rows took one token's project
ids and another's missing resource filter), and the audit's record of them is the new one. A table protect_table
now refuses keeps its policies, and the migration says so, with the call to run. The downgrade puts 0019's
policies back, and the audit is clean at both ends."""

from __future__ import annotations

import logging
import os

import psycopg
import pytest
from psycopg import sql

from scopedb import migrations
from scopedb.testing import ScopedbTestServer
from tests.conftest import TICKETS_DDL

DIM = 8
POLICY = """
SELECT pg_catalog.pg_get_expr(p.polqual, p.polrelid) FROM pg_catalog.pg_policy AS p
 WHERE p.polrelid = 'support.tickets'::regclass AND p.polcmd = 'r' AND NOT p.polpermissive
"""
LATER_DDL = (
    b"CREATE TABLE support.labels (project_id bigint NOT NULL REFERENCES scopedb.projects (id) ON DELETE CASCADE,"
    b" id bigint GENERATED ALWAYS AS IDENTITY, name text NOT NULL, PRIMARY KEY (project_id, id))"
)
ERRORS = "SELECT code, object FROM scopedb_audit.findings WHERE severity = 'error' AND code <> 'E015' ORDER BY 1, 2"


def test_0020_protects_existing_service_tables_again_and_its_downgrade_restores_them(
    scopedb_server: ScopedbTestServer, caplog: pytest.LogCaptureFixture
) -> None:
    name = f"mig_protect_{os.getpid()}"
    with psycopg.connect(scopedb_server.admin_dsn("postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    dsn = scopedb_server.admin_dsn(name)
    migrations.upgrade(dsn, "0019", embedding_dim=DIM)
    with psycopg.connect(dsn, autocommit=True) as conn:  # a service protected its tables under revision 0019
        for statement in TICKETS_DDL:
            conn.execute(statement.encode())
        conn.execute("SELECT scopedb.protect_table('support.tickets', 'project_id', 'repository', 'path')")
        conn.execute(LATER_DDL)
        conn.execute("SELECT scopedb.protect_table('support.labels', 'project_id')")
        assert conn.execute(ERRORS).fetchall() == []
        # ... and later gave one of them a key protect_table refuses (unique across projects): protecting it
        # again now fails, so the migration must leave it as it is and say so, not stop.
        conn.execute("CREATE UNIQUE INDEX labels_name ON support.labels (name)")
        stale = conn.execute(POLICY.replace("support.tickets", "support.labels")).fetchone()
        before = conn.execute(POLICY).fetchone()
        assert before is not None
        assert "scope_resource_filter" in before[0]
        assert "scope_terms" not in before[0]
    with caplog.at_level(logging.WARNING, logger="scopedb.migrations"):
        migrations.upgrade(dsn, embedding_dim=DIM)
    warned = [r.getMessage() for r in caplog.records if r.name == "scopedb.migrations"]
    assert len(warned) == 1
    assert warned[0].startswith("scopedb: support.labels keeps the policies of an earlier revision: cannot protect "
                                "support.labels: its unique index or exclusion constraint labels_name")  # fmt: skip
    assert "SELECT scopedb.protect_table('support.labels', 'project_id'" in warned[0]  # the hint: what to run
    with psycopg.connect(dsn, autocommit=True) as conn:
        assert conn.execute(POLICY.replace("support.tickets", "support.labels")).fetchone() == stale
        after = conn.execute(POLICY).fetchone()
        assert after is not None
        assert "scope_terms()" in after[0]
        assert "scope_whole_project_ids(false)" in after[0]
        assert "scope_resource_filter" not in after[0]
        # Every restrictive policy of the table was made again, not only the read one.
        kinds = conn.execute(
            "SELECT p.polcmd::text FROM pg_catalog.pg_policy AS p WHERE p.polrelid = 'support.tickets'::regclass"
            " AND NOT p.polpermissive AND pg_catalog.pg_get_expr(coalesce(p.polqual, p.polwithcheck), p.polrelid)"
            " LIKE '%%scope_terms()%%' ORDER BY 1"
        ).fetchall()
        assert kinds == [("a",), ("d",), ("r",), ("w",)]
        # The record is the new policies' for tickets; labels differs from its record by the index added.
        assert conn.execute(ERRORS).fetchall() == [("E029", "table support.labels index support.labels_name")]
        conn.execute("DROP INDEX support.labels_name")
    migrations.downgrade(dsn, "0019")
    with psycopg.connect(dsn, autocommit=True) as conn:
        assert conn.execute(POLICY).fetchone() == before
        assert conn.execute(ERRORS).fetchall() == []
    with psycopg.connect(scopedb_server.admin_dsn("postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
