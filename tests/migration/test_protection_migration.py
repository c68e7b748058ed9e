"""Revision 0020 remakes the policies of every service table protect_table protected before it: they read the
scope the way scopedb's own tables do (#90: a statement that switched tokens between rows took one token's project
ids and another's missing resource filter), and the audit's record of them is the new one. The downgrade puts
0019's policies back, and the audit is clean at both ends."""

from __future__ import annotations

import os

import psycopg
from psycopg import sql

from scopedb import migrations
from scopedb.testing import ScopedbTestServer
from tests.conftest import TICKETS_DDL

DIM = 8
POLICY = """
SELECT pg_catalog.pg_get_expr(p.polqual, p.polrelid) FROM pg_catalog.pg_policy AS p
 WHERE p.polrelid = 'support.tickets'::regclass AND p.polcmd = 'r' AND NOT p.polpermissive
"""
ERRORS = "SELECT code, object FROM scopedb_audit.findings WHERE severity = 'error' AND code <> 'E015' ORDER BY 1, 2"


def test_0020_protects_existing_service_tables_again_and_its_downgrade_restores_them(
    scopedb_server: ScopedbTestServer,
) -> None:
    name = f"mig_protect_{os.getpid()}"
    with psycopg.connect(scopedb_server.admin_dsn("postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    dsn = scopedb_server.admin_dsn(name)
    migrations.upgrade(dsn, "0019", embedding_dim=DIM)
    with psycopg.connect(dsn, autocommit=True) as conn:  # a service protected its table under revision 0019
        for statement in TICKETS_DDL:
            conn.execute(statement.encode())
        conn.execute("SELECT scopedb.protect_table('support.tickets', 'project_id', 'repository', 'path')")
        before = conn.execute(POLICY).fetchone()
        assert before is not None
        assert "scope_resource_filter" in before[0]
        assert "scope_terms" not in before[0]
        assert conn.execute(ERRORS).fetchall() == []
    migrations.upgrade(dsn, embedding_dim=DIM)
    with psycopg.connect(dsn, autocommit=True) as conn:
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
        assert conn.execute(ERRORS).fetchall() == []  # the record is the new policies'
    migrations.downgrade(dsn, "0019")
    with psycopg.connect(dsn, autocommit=True) as conn:
        assert conn.execute(POLICY).fetchone() == before
        assert conn.execute(ERRORS).fetchall() == []
    with psycopg.connect(scopedb_server.admin_dsn("postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
