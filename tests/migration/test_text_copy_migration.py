"""Revision 0017 gives the full-text copy the fragments' content, on a database that holds fragments: every copy
gets its fragment's text (in the shared partition and in a project's own), scoped text search then returns it from
the copy alone, later writes keep it equal, and the downgrade drops the column and keeps every copy."""

from __future__ import annotations

import os

import psycopg
from psycopg import sql

from scopedb import ResourceScope, migrations
from scopedb.testing import ScopedbTestServer

DIM = 8
COPIES = (
    "SELECT s.project_id, s.id, s.content IS NOT DISTINCT FROM f.content FROM scopedb_private.fragment_search AS s "
    "JOIN scopedb.fragments AS f USING (project_id, id) ORDER BY 1, 2"
)


def test_0017_fills_the_copy_with_the_content_and_its_downgrade_keeps_the_copies(
    scopedb_server: ScopedbTestServer, scopedb_template: str
) -> None:
    """(The template fixture makes the application login this test's database is searched through.)"""
    name = f"mig_text_{os.getpid()}"
    with psycopg.connect(scopedb_server.admin_dsn("postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    dsn = scopedb_server.admin_dsn(name)
    migrations.upgrade(dsn, "0016", embedding_dim=DIM)
    with psycopg.connect(dsn, autocommit=True) as conn:  # as revision 0016 stored fragments, as the superuser
        small = conn.execute("INSERT INTO scopedb.projects (name) VALUES ('acme/api') RETURNING id").fetchone()[0]  # type: ignore[index]
        large = conn.execute("INSERT INTO scopedb.projects (name) VALUES ('beta/web') RETURNING id").fetchone()[0]  # type: ignore[index]
        conn.execute("SELECT scopedb_private.create_project_storage(%s)", (large,))  # a partition of its own
        conn.execute(
            "INSERT INTO scopedb.fragments (project_id, id, content) "
            "SELECT p, 'f' || n, 'refresh token rotation ' || p || ' ' || n "
            "FROM unnest(%s::bigint[]) AS p, generate_series(1, 5) AS n",
            ([small, large],),
        )
        assert conn.execute("SELECT count(*) FROM scopedb_private.fragment_search").fetchone() == (10,)
    migrations.upgrade(dsn, embedding_dim=DIM)
    with psycopg.connect(dsn, autocommit=True) as conn:
        copies = conn.execute(COPIES).fetchall()
        assert len(copies) == 10
        assert all(same for _, _, same in copies)
        conn.execute("UPDATE scopedb.fragments SET content = 'rewritten text' WHERE project_id = %s AND id = 'f1'",
                     (large,))  # fmt: skip
        assert conn.execute(
            "SELECT content FROM scopedb_private.fragment_search WHERE project_id = %s AND id = 'f1'", (large,)
        ).fetchone() == ("rewritten text",)
    db = scopedb_server.database(name)
    try:
        db.migrate(embedding_dim=DIM)  # at head already: this makes the signing key
        with db.scoped(ResourceScope(project_names={"beta/web"})) as s:
            hits = s.search_text("rotation")
        assert sorted(h.fragment.id for h in hits) == ["f2", "f3", "f4", "f5"]
        assert {h.fragment.content for h in hits} == {f"refresh token rotation {large} {n}" for n in (2, 3, 4, 5)}
    finally:
        db.close()
    migrations.downgrade(dsn, "0016")
    with psycopg.connect(dsn, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM scopedb_private.fragment_search").fetchone() == (10,)
        assert conn.execute(
            "SELECT count(*) FROM pg_attribute WHERE attrelid = 'scopedb_private.fragment_search'::regclass "
            "AND attname = 'content' AND NOT attisdropped"
        ).fetchone() == (0,)
    with psycopg.connect(scopedb_server.admin_dsn("postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
