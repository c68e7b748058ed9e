"""Revision 0027 (the statistics target of the full-text copy's tsvectors) on a database that holds data, and back.

The database is migrated to 0026 and given a project with partitions of its own and one in the shared ones; the
upgrade must set the target on the parent and on every partition there is (ALTER TABLE recurses to them), gather
the shorter statistics at once, and leave create_project_storage setting it on the partitions made later, which do
not inherit it. The downgrade restores the default everywhere.
"""

from __future__ import annotations

import os

import psycopg
from psycopg import sql

from scopedb import Database, Fragment, ResourceScope, migrations
from scopedb.server import Server
from scopedb.testing import ScopedbTestServer

#: Enough distinct words for more than 100 most common lexemes at the default target.
WORDS = [f"word{i:04d}" for i in range(400)]


def _database(server: ScopedbTestServer, dsn: str) -> Database:
    name = str(psycopg.conninfo.conninfo_to_dict(dsn)["dbname"])
    db = Database(Server(dsn=dsn, backend=server.server.backend), app_dsn=server.app_dsn(name))
    if server.external:
        db.admin().ensure_app_login("scopedb_test_app", password=server.app_password)
    else:
        db.admin().ensure_app_login()
    db.admin().ensure_signing_key()
    return db


def _fill(db: Database, project: str, rows: int) -> None:
    db.admin().create_project(project)
    with db.scoped(ResourceScope(project_names={project})) as s:
        s.ingest_fragments([
            Fragment(project=project, id=f"f{i}", content=" ".join(WORDS[(i * 7 + k) % len(WORDS)] for k in range(12)))
            for i in range(rows)
        ])  # fmt: skip


def _targets(dsn: str) -> dict[str, int | None]:
    """The statistics target of tsv on scopedb_private.fragment_search and each of its partitions."""
    with psycopg.connect(dsn) as conn:
        rows = conn.execute(
            "SELECT c.oid::regclass::text, a.attstattarget"
            "  FROM pg_attribute AS a JOIN pg_class AS c ON c.oid = a.attrelid"
            " WHERE a.attname = 'tsv' AND (c.oid = 'scopedb_private.fragment_search'::regclass OR c.oid IN"
            "       (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'scopedb_private.fragment_search'::regclass))"
        ).fetchall()
    return dict(rows)


def _lexemes(dsn: str, partition: str) -> int:
    """How many most common lexemes the statistics of ``partition``'s tsv hold (0: none gathered)."""
    with psycopg.connect(dsn) as conn:
        row = conn.execute(
            "SELECT cardinality(most_common_elems) FROM pg_stats WHERE schemaname = 'scopedb_parts'"
            " AND tablename = %s AND attname = 'tsv'",
            (partition,),
        ).fetchone()
    return 0 if row is None or row[0] is None else int(row[0])


def test_0027_shortens_the_statistics_of_every_partition_and_its_downgrade_restores_them(
    scopedb_server: ScopedbTestServer,
) -> None:
    name = f"mig_tsv_stats_{os.getpid()}"
    with psycopg.connect(scopedb_server.admin_dsn("postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    dsn = scopedb_server.admin_dsn(name)
    try:
        migrations.upgrade(dsn, "0026")
        db = _database(scopedb_server, dsn)
        try:
            _fill(db, "big", 300)
            _fill(db, "small", 50)
            db.admin().maintain_storage(threshold=200)
            big_project = db.admin().project("big")
            assert big_project is not None
        finally:
            db.close()
        big = big_project.id
        own = f"scopedb_parts.fragment_search_{big}"
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("ANALYZE scopedb_private.fragment_search")
        before = _targets(dsn)
        assert set(before) == {"scopedb_private.fragment_search", "scopedb_parts.fragment_search_shared", own}
        assert set(before.values()) == {None}  # the default, before 0027
        assert _lexemes(dsn, f"fragment_search_{big}") > 100

        migrations.upgrade(dsn)
        assert set(_targets(dsn).values()) == {10}
        assert 0 < _lexemes(dsn, f"fragment_search_{big}") <= 100  # gathered again by the revision

        db = _database(scopedb_server, dsn)
        try:
            _fill(db, "later", 250)
            db.admin().maintain_storage(threshold=200)
            later_project = db.admin().project("later")
            assert later_project is not None
        finally:
            db.close()
        assert _targets(dsn)[f"scopedb_parts.fragment_search_{later_project.id}"] == 10  # made after the revision

        migrations.downgrade(dsn, "0026")
        assert set(_targets(dsn).values()) == {None}
    finally:
        with psycopg.connect(scopedb_server.admin_dsn("postgres"), autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
