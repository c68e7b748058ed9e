"""Revision 0022 (search groups) on a database that holds data, and back.

The database is migrated to 0021 with 8-dimensional embeddings and filled through the API; the upgrade runs
without naming the width (as `scopedb migrate` on an existing database does), and the groups' copy must take the
width of the fragments it copies. A group is declared, built and searched; the downgrade drops the groups, their
copies and partitions and leaves every fragment, with the audit clean at each step.
"""

from __future__ import annotations

import os
import random

import psycopg
from psycopg import sql

from scopedb import Database, Fragment, ResourceScope, migrations
from scopedb.retrieval import VectorStrategy
from scopedb.server import Server
from scopedb.testing import ScopedbTestServer

DIM = 8
PROJECTS = {"acme/api": 60, "beta/web": 40}


def _vector(rng: random.Random) -> list[float]:
    return [rng.gauss(0, 1) for _ in range(DIM)]


def _database(server: ScopedbTestServer, dsn: str) -> Database:
    """The database as the API sees it, with the application login and a signing key (what migrate() adds)."""
    name = str(psycopg.conninfo.conninfo_to_dict(dsn)["dbname"])
    db = Database(Server(dsn=dsn, backend=server.server.backend), app_dsn=server.app_dsn(name))
    if server.external:
        db.admin().ensure_app_login("scopedb_test_app", password=server.app_password)
    else:
        db.admin().ensure_app_login()
    db.admin().ensure_signing_key()
    return db


def _errors(dsn: str) -> list[tuple[str, str]]:
    """The audit's errors as the database reports them (scopedb_audit.findings; `scopedb audit` also compares the
    audit itself with the manifest of this package, which a database left at 0021 rightly differs from)."""
    with psycopg.connect(dsn) as conn:
        return conn.execute("SELECT code, object FROM scopedb_audit.findings WHERE severity = 'error'").fetchall()


def _relations(dsn: str) -> set[str]:
    with psycopg.connect(dsn) as conn:
        rows = conn.execute(
            "SELECT c.oid::regclass::text FROM pg_class AS c WHERE c.relname ~ '^(search_group|group_vectors)'"
        ).fetchall()
    return {name for (name,) in rows}


def test_0022_upgrades_a_database_holding_data_and_its_downgrade_drops_the_groups(
    scopedb_server: ScopedbTestServer,
) -> None:
    name = f"mig_groups_{os.getpid()}"
    with psycopg.connect(scopedb_server.admin_dsn("postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    dsn = scopedb_server.admin_dsn(name)
    migrations.upgrade(dsn, "0021", embedding_dim=DIM)
    db = _database(scopedb_server, dsn)
    try:
        rng = random.Random(22)
        for project, rows in PROJECTS.items():
            db.admin().create_project(project)
            with db.scoped(ResourceScope(project_names={project})) as s:
                s.ingest_fragments([Fragment(project=project, id=f"f{i}", content=f"{project} {i}",
                                             embedding=_vector(rng)) for i in range(rows)])  # fmt: skip
        db.admin().maintain_storage(threshold=30)
    finally:
        db.close()

    migrations.upgrade(dsn)  # the default width (384) is not this database's: the copy takes the fragments' own
    db = _database(scopedb_server, dsn)
    try:
        with psycopg.connect(dsn) as conn:
            assert conn.execute(
                "SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
                "WHERE attrelid = 'scopedb_private.group_vectors'::regclass AND attname = 'embedding'"
            ).fetchone() == (f"vector({DIM})",)
        db.admin().create_search_group("both", list(PROJECTS))
        done = [a.action for a in db.admin().maintain_storage(threshold=30)]
        assert done == ["group_fill", "group_hnsw", "group_ready"]
        both = ResourceScope(project_names=set(PROJECTS))
        q = _vector(rng)
        with db.scoped(both) as s:
            grouped = [(h.fragment.project_name, h.fragment.id) for h in s.search_vector(q, limit=10)]
            direct = s.execute("SELECT count(*) FROM scopedb.group_nearest(%s, %s::vector, 10, 40, 1000)",
                               (sorted(s.project_ids), str(q))).scalar()  # fmt: skip
        assert len(grouped) == 10
        assert direct == 10  # the group answers the scope over both
        assert _errors(dsn) == []
        assert "scopedb_private.group_vectors" in _relations(dsn)
    finally:
        db.close()

    migrations.downgrade(dsn, "0021")
    assert _relations(dsn) == set()  # the tables, the group's partition and its index
    db = _database(scopedb_server, dsn)
    try:
        with db.scoped(both) as s:
            assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == sum(PROJECTS.values())
            exact = [(h.fragment.project_name, h.fragment.id)
                     for h in s.search_vector(q, limit=10, strategy=VectorStrategy(exact=True))]  # fmt: skip
        assert exact == grouped
        assert _errors(dsn) == []
    finally:
        db.close()
    migrations.upgrade(dsn)
    assert "scopedb_private.group_vectors" in _relations(dsn)
    with psycopg.connect(scopedb_server.admin_dsn("postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
