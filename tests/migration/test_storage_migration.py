"""Revision 0011 moves a database that holds data to per-project storage, and back; revision 0014 adds the
partitions the small projects share, and its downgrade moves their rows into partitions of their own again.

The data is written at revision 0010 the way that revision stored it (one table for every project's fragments,
one shared full-text copy, archived originals of cold fragments); after the upgrade every row is in its project's
partition, the full-text copy is whole, the originals still hang on their fragments, the audit is clean and the
Python API searches it; after the downgrade everything is back in one table, with the shared indexes.
"""

from __future__ import annotations

import os
import random

import psycopg
from psycopg import sql

from scopedb import Database, ResourceScope, migrations
from scopedb.server import Server
from scopedb.testing import ScopedbTestServer

DIM = 8
PROJECTS = {"acme/api": 120, "beta/web": 45, "empty/one": 0}


def _vector(rng: random.Random) -> str:
    return "[" + ",".join(f"{rng.gauss(0, 1):.5f}" for _ in range(DIM)) + "]"


def _fill(dsn: str) -> dict[str, int]:
    """Rows as revision 0010 stored them, written as the superuser (the API of this version expects 0011)."""
    rng = random.Random(11)
    counts: dict[str, int] = {}
    with psycopg.connect(dsn, autocommit=True) as conn:
        for name, n in PROJECTS.items():
            pid = conn.execute("INSERT INTO scopedb.projects (name) VALUES (%s) RETURNING id", (name,)).fetchone()[0]  # type: ignore[index]
            for i in range(n):
                conn.execute(
                    "INSERT INTO scopedb.fragments (project_id, id, path, content, embedding) "
                    "VALUES (%s, %s, %s, %s, %s::vector)",
                    (pid, f"f{i}", f"src/{i % 7}.py", f"{name.split('/')[0]} word{i % 13} text", _vector(rng)),
                )
            counts[name] = n
        # Two cold fragments keep their originals (scopedb_private.fragment_originals).
        conn.execute("UPDATE scopedb.fragments SET tier = 'cold', content = 'summary' WHERE id IN ('f1', 'f2')")
    return counts


def _per_project(dsn: str, table: str) -> dict[int, int]:
    with psycopg.connect(dsn) as conn:
        rows = conn.execute(
            sql.SQL("SELECT project_id, count(*) FROM {} GROUP BY 1").format(sql.Identifier(*table.split(".")))
        ).fetchall()
    return dict(rows)


def test_a_database_holding_data_moves_to_per_project_storage_and_back(scopedb_server: ScopedbTestServer) -> None:
    name = f"mig_storage_{os.getpid()}"
    with psycopg.connect(scopedb_server.admin_dsn("postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    dsn = scopedb_server.admin_dsn(name)
    migrations.upgrade(dsn, "0010", embedding_dim=DIM)
    _fill(dsn)
    fragments = _per_project(dsn, "scopedb.fragments")
    search = _per_project(dsn, "scopedb_private.fragment_search")
    originals = _per_project(dsn, "scopedb_private.fragment_originals")
    assert sum(fragments.values()) == 165
    assert search == fragments
    assert sum(originals.values()) == 4

    migrations.upgrade(dsn, embedding_dim=DIM)
    assert _per_project(dsn, "scopedb.fragments") == fragments
    assert _per_project(dsn, "scopedb_private.fragment_search") == fragments
    assert _per_project(dsn, "scopedb_private.fragment_originals") == originals
    with psycopg.connect(dsn) as conn:
        kinds = conn.execute(
            "SELECT relname, relkind FROM pg_class WHERE oid IN "
            "('scopedb.fragments'::regclass, 'scopedb_private.fragment_search'::regclass)"
        ).fetchall()
        assert sorted(k for _, k in kinds) == ["p", "p"]
        parts = conn.execute(
            "SELECT count(*) FROM pg_inherits WHERE inhparent = 'scopedb.fragments'::regclass"
        ).fetchone()
        assert parts == (len(PROJECTS) + 1,)  # the empty project has its partition too; and the shared one (0014)
        for pid, count in fragments.items():
            in_part = conn.execute(
                sql.SQL("SELECT count(*) FROM ONLY {}").format(sql.Identifier("scopedb_parts", f"fragments_{pid}"))
            ).fetchone()
            assert in_part == (count,)
        width = conn.execute(
            "SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
            "WHERE attrelid = 'scopedb.fragments'::regclass AND attname = 'embedding'"
        ).fetchone()
        assert width == (f"vector({DIM})",)
        errors = conn.execute(
            "SELECT code, object FROM scopedb_audit.findings WHERE severity = 'error' AND code <> 'E015'"
        ).fetchall()
        assert errors == []

    db = Database(Server(dsn=dsn, backend=scopedb_server.server.backend), app_dsn=scopedb_server.app_dsn(name))
    try:
        if scopedb_server.external:
            db.admin().ensure_app_login("scopedb_test_app", password=scopedb_server.app_password)
        else:
            db.admin().ensure_app_login()
        db.admin().rotate_signing_key()
        built = db.admin().maintain_storage(threshold=100)
        assert [a.action for a in built] == ["hnsw", "gin"]  # acme/api only: 120 rows
        with db.scoped(ResourceScope(project_names={"acme/api", "beta/web"})) as s:
            assert len(s.search_text("acme")) == 10
            assert {h.fragment.project_name for h in s.search_text("beta", limit=100)} == {"beta/web"}
            assert len(s.search_vector([1.0] * DIM, limit=20)) == 20
    finally:
        db.close()

    migrations.downgrade(dsn, "0010")
    assert _per_project(dsn, "scopedb.fragments") == fragments
    assert _per_project(dsn, "scopedb_private.fragment_search") == fragments
    assert _per_project(dsn, "scopedb_private.fragment_originals") == originals
    with psycopg.connect(dsn) as conn:
        assert conn.execute("SELECT relkind FROM pg_class WHERE oid = 'scopedb.fragments'::regclass").fetchone() == (
            "r",
        )
        assert conn.execute("SELECT to_regclass('scopedb.fragments_embedding_idx') IS NOT NULL").fetchone() == (True,)
        assert conn.execute("SELECT to_regnamespace('scopedb_parts')").fetchone() == (None,)


def test_0014_keeps_existing_partitions_and_its_downgrade_gives_shared_projects_their_own(
    scopedb_server: ScopedbTestServer,
) -> None:
    name = f"mig_shared_{os.getpid()}"
    with psycopg.connect(scopedb_server.admin_dsn("postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    dsn = scopedb_server.admin_dsn(name)
    migrations.upgrade(dsn, "0013", embedding_dim=DIM)
    _fill(dsn)  # at 0013 each project got its partitions when it was made
    before = _per_project(dsn, "scopedb.fragments")

    def partitions() -> set[str]:
        with psycopg.connect(dsn) as conn:
            rows = conn.execute(
                "SELECT c.relname FROM pg_inherits AS i JOIN pg_class AS c ON c.oid = i.inhrelid "
                "WHERE i.inhparent = 'scopedb.fragments'::regclass"
            ).fetchall()
        return {r for (r,) in rows}

    old_parts = partitions()
    assert len(old_parts) == len(PROJECTS)
    migrations.upgrade(dsn, embedding_dim=DIM)
    assert partitions() == old_parts | {"fragments_shared"}
    assert _per_project(dsn, "scopedb.fragments") == before
    with psycopg.connect(dsn, autocommit=True) as conn:
        new = conn.execute("INSERT INTO scopedb.projects (name) VALUES ('new/one') RETURNING id").fetchone()
        assert new is not None
        for i in range(5):
            conn.execute("INSERT INTO scopedb.fragments (project_id, id, content) VALUES (%s, %s, 'shared row')",
                         (new[0], f"s{i}"))  # fmt: skip
        conn.execute("INSERT INTO scopedb_private.fragment_originals (project_id, id, content) "
                     "VALUES (%s, 's0', 'the original')", (new[0],))  # fmt: skip
        assert conn.execute("SELECT count(*) FROM ONLY scopedb_parts.fragments_shared").fetchone() == (5,)
        errors = conn.execute(
            "SELECT code, object FROM scopedb_audit.findings WHERE severity = 'error' AND code <> 'E015'"
        ).fetchall()
        assert errors == []
    assert partitions() == old_parts | {"fragments_shared"}  # the new project made no table

    migrations.downgrade(dsn, "0013")
    assert partitions() == old_parts | {f"fragments_{new[0]}"}
    assert _per_project(dsn, "scopedb.fragments") == {**before, new[0]: 5}
    assert _per_project(dsn, "scopedb_private.fragment_search") == {**before, new[0]: 5}
    assert _per_project(dsn, "scopedb_private.fragment_originals")[new[0]] == 1
    with psycopg.connect(dsn) as conn:
        errors = conn.execute(
            "SELECT code, object FROM scopedb_audit.findings WHERE severity = 'error' AND code <> 'E015'"
        ).fetchall()
        assert errors == []
