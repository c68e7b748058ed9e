"""Vector search never under-returns: min(k, visible) rows at 0.1%, 1%, 10% and 100% of a 50,000-fragment table.

Plain filtered HNSW is the known failure (the index returns its ef_search nearest rows, and RLS then drops the
ones outside the scope); the control test shows it here. scopedb picks exact search for small scopes and
iterative HNSW scans for large ones, and falls back to exact when an approximate answer comes up short.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import psycopg
import pytest
from psycopg import sql

from scopedb import Database, Fragment, ResourceScope
from scopedb.backends.postgres import VectorStrategy, search_vector
from scopedb.server import Server
from scopedb.testing import ScopedbTestServer

DIM = 16
SIZES = {"tiny": 50, "small": 500, "mid": 5_000, "big": 44_450}  # 0.1%, 1%, 10% and the rest of 50,000


def _vector(rng: random.Random) -> list[float]:
    return [rng.gauss(0, 1) for _ in range(DIM)]


@pytest.fixture(scope="module")
def big_db(scopedb_server: ScopedbTestServer) -> Iterator[Database]:
    name = f"scopedb_vec_{id(scopedb_server)}"
    with psycopg.connect(scopedb_server.admin_dsn("postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    db = Database(Server(dsn=scopedb_server.admin_dsn(name), backend=scopedb_server.server.backend),
                  app_dsn=scopedb_server.app_dsn(name))  # fmt: skip
    try:
        db.migrate(embedding_dim=DIM)
        if scopedb_server.external:
            db.admin().ensure_app_login("scopedb_test_app", password=scopedb_server.app_password)
        else:
            db.admin().ensure_app_login()
        for project in SIZES:
            db.admin().create_project(project)
        with psycopg.connect(db.dsn, autocommit=True) as admin:
            admin.execute("DROP INDEX scopedb.fragments_embedding_idx")  # built once, after the load
        rng = random.Random(50_000)
        with db.scoped(ResourceScope(project_names=set(SIZES))) as s:
            s.ingest_fragments(
                (Fragment(project=p, id=f"{p}{i}", content="v", embedding=_vector(rng)) for p, n in SIZES.items()
                 for i in range(n)),
                batch_size=5_000,
            )  # fmt: skip
        with psycopg.connect(db.dsn, autocommit=True) as admin:
            admin.execute(
                "CREATE INDEX fragments_embedding_idx ON scopedb.fragments USING hnsw (embedding vector_cosine_ops)"
            )
            admin.execute("VACUUM ANALYZE scopedb.fragments")
        yield db
    finally:
        db.close()
        if scopedb_server.external:
            with psycopg.connect(scopedb_server.admin_dsn("postgres"), autocommit=True) as conn:
                conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


SCOPES = {
    "0.1%": {"tiny"},
    "1%": {"small"},
    "10%": {"mid"},
    "100%": set(SIZES),
}


@pytest.mark.parametrize("share", sorted(SCOPES))
def test_vector_returns_min_k_visible_at_every_scope_size(big_db: Database, share: str) -> None:
    projects = SCOPES[share]
    visible = sum(SIZES[p] for p in projects)
    rng = random.Random(share)
    with big_db.scoped(ResourceScope(project_names=projects)) as s:
        for k in (1, 10, 100):
            for forced in (None, VectorStrategy(exact_threshold=0)):  # scopedb's choice, and HNSW forced
                hits = search_vector(s, _vector(rng), limit=k, strategy=forced)
                assert len(hits) == min(k, visible), f"{share} k={k} via {s.last_vector_strategy}"
                assert {h.fragment.project_name for h in hits} <= projects
        hits = search_vector(s, _vector(rng), limit=10)
        expected = "hnsw" if visible > VectorStrategy().exact_threshold else "exact"
        assert s.last_vector_strategy == expected
    with big_db.scoped(ResourceScope(project_names={"tiny"})) as s:
        assert len(search_vector(s, _vector(rng), limit=100)) == 50


def test_control_plain_filtered_hnsw_under_returns(big_db: Database) -> None:
    """Without scopedb's strategy, the same 0.1% scope through the HNSW index with default settings comes up short."""
    query = "[" + ",".join("0.5" for _ in range(DIM)) + "]"
    statement = "SELECT id FROM scopedb.fragments ORDER BY embedding <=> %s::vector LIMIT 10"
    with big_db.scoped(ResourceScope(project_names={"tiny"})) as s:
        s.execute("SET LOCAL hnsw.iterative_scan = off")  # pgvector's default
        s.execute("SET LOCAL enable_sort = off")  # make the planner take the index, as it does on large tables
        plan = "\n".join(row[0] for row in s.execute("EXPLAIN " + statement, (query,)))
        assert "fragments_embedding_idx" in plan
        rows = s.execute(statement, (query,)).rows
    assert len(rows) < 10
