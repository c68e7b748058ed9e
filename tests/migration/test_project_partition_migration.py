"""Revision 0027 (a one-project search reads the project's own partition) on a database that holds data, and back.

Projects given partitions of their own before 0027 have no policy on them; the upgrade gives each the one that
scopedb_private.create_project_storage now makes, so their searches take the direct read at once, with the
audit clean. The downgrade removes the policies and the function, and the searches answer as before.
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
PROJECTS = {"acme/api": 60, "beta/web": 40, "small/one": 5}
POLICY = "owner searches the project its entered scope reads whole"


def _database(server: ScopedbTestServer, dsn: str) -> Database:
    name = str(psycopg.conninfo.conninfo_to_dict(dsn)["dbname"])
    db = Database(Server(dsn=dsn, backend=server.server.backend), app_dsn=server.app_dsn(name))
    if server.external:
        db.admin().ensure_app_login("scopedb_test_app", password=server.app_password)
    else:
        db.admin().ensure_app_login()
    db.admin().ensure_signing_key()
    return db


def _state(dsn: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]], bool]:
    """The partitions' policies, the audit's errors, and whether project_nearest exists."""
    with psycopg.connect(dsn) as conn:
        policies = conn.execute(
            "SELECT c.relname::text, p.polname::text FROM pg_policy AS p JOIN pg_class AS c ON c.oid = p.polrelid "
            "WHERE c.relnamespace = 'scopedb_parts'::regnamespace ORDER BY 1"
        ).fetchall()
        errors = conn.execute("SELECT code, object FROM scopedb_audit.findings WHERE severity = 'error'").fetchall()
        exists = conn.execute("SELECT to_regprocedure('scopedb.project_nearest(bigint, vector, integer, integer, "
                              "integer)') IS NOT NULL").fetchone()  # fmt: skip
    assert exists is not None
    return policies, errors, bool(exists[0])


def _answers(db: Database, query: list[float]) -> dict[str, tuple[list[str], list[str]]]:
    """Each project's ten nearest, by scopedb's search and by the exact statement."""
    answers = {}
    for project in PROJECTS:
        with db.scoped(ResourceScope(project_names={project})) as s:
            found = [h.fragment.id for h in s.search_vector(query, limit=10)]
            exact = [h.fragment.id for h in s.search_vector(query, limit=10, strategy=VectorStrategy(exact=True))]
        answers[project] = (found, exact)
    return answers


def test_0027_gives_existing_partitions_their_policy_and_its_downgrade_removes_it(
    scopedb_server: ScopedbTestServer,
) -> None:
    name = f"mig_partition_search_{os.getpid()}"
    with psycopg.connect(scopedb_server.admin_dsn("postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    dsn = scopedb_server.admin_dsn(name)
    rng = random.Random(27)
    query = [rng.gauss(0, 1) for _ in range(DIM)]
    try:
        migrations.upgrade(dsn, "0026", embedding_dim=DIM)
        db = _database(scopedb_server, dsn)
        try:
            for project, rows in PROJECTS.items():
                db.admin().create_project(project)
                with db.scoped(ResourceScope(project_names={project})) as s:
                    s.ingest_fragments([Fragment(project=project, id=f"f{i}", content=project,
                                                 embedding=[rng.gauss(0, 1) for _ in range(DIM)])
                                        for i in range(rows)])  # fmt: skip
            db.admin().maintain_storage(threshold=30)
            before = _answers(db, query)
        finally:
            db.close()
        ids = {}
        with psycopg.connect(dsn) as conn:
            for project in PROJECTS:
                row = conn.execute("SELECT id FROM scopedb.projects WHERE name = %s", (project,)).fetchone()
                assert row is not None
                ids[project] = int(row[0])
        assert _state(dsn) == ([], [], False)

        migrations.upgrade(dsn)
        own = sorted((f"fragments_{ids[p]}", POLICY) for p in ("acme/api", "beta/web"))  # not the small project's
        assert _state(dsn) == (own, [], True)
        db = _database(scopedb_server, dsn)
        try:
            after = _answers(db, query)
        finally:
            db.close()
        assert after == before
        assert all(found == exact for found, exact in after.values())

        migrations.downgrade(dsn, "0026")
        assert _state(dsn) == ([], [], False)
        db = _database(scopedb_server, dsn)
        try:
            assert _answers(db, query) == before
        finally:
            db.close()
    finally:
        with psycopg.connect(scopedb_server.admin_dsn("postgres"), autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
