"""Revision 0016 gives graph edges copies of their ends' resource, path and name, on a database that holds a
graph: every existing edge gets its nodes' values, the foreign keys that keep them equal are in force (a node's
move reaches its edges), the audit is clean; the downgrade drops the copies and keeps every edge."""

from __future__ import annotations

import os

import psycopg
import pytest
from psycopg import sql

from scopedb import ScopedbError, migrations
from scopedb.testing import ScopedbTestServer

DIM = 8
COPIES = "SELECT src, dst, src_path, dst_path, dst_fqn FROM scopedb.graph_edges ORDER BY src, dst"


def test_0016_copies_the_ends_of_existing_edges_and_its_downgrade_keeps_them(
    scopedb_server: ScopedbTestServer,
) -> None:
    name = f"mig_edges_{os.getpid()}"
    with psycopg.connect(scopedb_server.admin_dsn("postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    dsn = scopedb_server.admin_dsn(name)
    migrations.upgrade(dsn, "0015", embedding_dim=DIM)
    with psycopg.connect(dsn, autocommit=True) as conn:  # as revision 0015 stored a graph, as the superuser
        pid = conn.execute("INSERT INTO scopedb.projects (name) VALUES ('acme/api') RETURNING id").fetchone()[0]  # type: ignore[index]
        conn.execute(
            "INSERT INTO scopedb.graph_nodes (project_id, id, path, fqn) VALUES "
            "(%(p)s, 'a', 'src/a.py', 'pkg.a'), (%(p)s, 'b', NULL, NULL), (%(p)s, 'c', 'docs/c.md', NULL)",
            {"p": pid},
        )
        conn.execute(
            "INSERT INTO scopedb.graph_edges (project_id, src, dst, relation) VALUES "
            "(%(p)s, 'a', 'b', 'calls'), (%(p)s, 'b', 'c', 'mentions'), (%(p)s, 'c', 'a', 'links')",
            {"p": pid},
        )
        conn.execute(  # 0015 took any length; 0016 keeps path and fqn inside the node's scope key
            "INSERT INTO scopedb.graph_nodes (project_id, id, path, fqn) VALUES (%s, 'long', %s, %s)",
            (pid, "p" * 1000, "f" * 501),
        )
    with pytest.raises(ScopedbError, match=rf"more than 1500 bytes together: {pid}/long "):
        migrations.upgrade(dsn, embedding_dim=DIM)
    with psycopg.connect(dsn, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM scopedb.graph_nodes").fetchone() == (4,)  # still at 0015
        conn.execute("DELETE FROM scopedb.graph_nodes WHERE id = 'long'")
    migrations.upgrade(dsn, embedding_dim=DIM)
    with psycopg.connect(dsn, autocommit=True) as conn:
        assert conn.execute(COPIES).fetchall() == [
            ("a", "b", "src/a.py", "", ""),
            ("b", "c", "", "docs/c.md", ""),
            ("c", "a", "docs/c.md", "src/a.py", "pkg.a"),
        ]
        conn.execute("UPDATE scopedb.graph_nodes SET path = 'lib/a.py' WHERE id = 'a'")
        assert conn.execute("SELECT src_path FROM scopedb.graph_edges WHERE src = 'a'").fetchone() == ("lib/a.py",)
        assert conn.execute("SELECT dst_path FROM scopedb.graph_edges WHERE dst = 'a'").fetchone() == ("lib/a.py",)
        errors = conn.execute(
            "SELECT code, object FROM scopedb_audit.findings WHERE severity = 'error' AND code <> 'E015'"
        ).fetchall()
        assert errors == []
    migrations.downgrade(dsn, "0015")
    with psycopg.connect(dsn) as conn:
        edges = conn.execute("SELECT src, dst, relation FROM scopedb.graph_edges ORDER BY src").fetchall()
        assert edges == [("a", "b", "calls"), ("b", "c", "mentions"), ("c", "a", "links")]
        columns = conn.execute(
            "SELECT count(*) FROM pg_catalog.pg_attribute WHERE attrelid = 'scopedb.graph_edges'::regclass "
            "AND attname LIKE 'src\\_%' AND NOT attisdropped"
        ).fetchone()
        assert columns == (0,)
