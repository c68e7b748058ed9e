"""A one-project vector search reads the project's own partition directly (revision 0027, ``scopedb.project_nearest``).

The function runs as the owner and names the partition, so neither the planner's pruning nor the policies of
``scopedb.fragments`` stand between it and the rows: what does is its check of the verified scope (the project
must be one the scope reads whole, now) and the partition's one policy, which admits the same rows to the owner
and nothing else. These tests ask it, as ``scopedb_app``, for what a scope may not see (another project, a
narrowed scope, another instant, no scope, a closed version) under hostile settings; read the partitions as the
owner to show what the policy alone admits; and check that scopedb's own search takes the new path and answers
what the exact statement answers.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np
import psycopg
import pytest
from psycopg import sql

from scopedb import Fragment, ResourceScope
from scopedb.retrieval import VectorStrategy
from scopedb.testing import app_connection
from tests.conftest import Tenants

DIM = 384
POLICY = "owner searches the project its entered scope reads whole"
rng = np.random.default_rng(27)
QUERY = rng.normal(size=DIM)
QUERY /= np.linalg.norm(QUERY)


def _near(seed: int, spread: float) -> list[float]:
    v = QUERY + np.random.default_rng(seed).normal(scale=spread, size=DIM)
    return list(map(float, v / np.linalg.norm(v)))


def _vec(values: Any) -> str:
    return "[" + ",".join(f"{float(x):.6f}" for x in values) + "]"


Q = _vec(QUERY)
HOSTILE = (
    "SET LOCAL hnsw.iterative_scan = off",
    "SET LOCAL hnsw.ef_search = 1",
    "SET LOCAL hnsw.max_scan_tuples = 1",
    "SET LOCAL enable_seqscan = off",
    "SET LOCAL enable_indexscan = off",
    "SET LOCAL enable_sort = off",
)


@pytest.fixture
def stored(tenants: Tenants) -> Tenants:
    """A (60 rows under src/ and docs/) and B (40 rows, all near the query) in partitions of their own, indexed."""
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.ingest_fragments(
            Fragment(project="acme/api", id=f"a{i}", content="a", path=f"{'src' if i % 2 else 'docs'}/{i}.py",
                     embedding=_near(i, 0.3))
            for i in range(60)
        )  # fmt: skip
    with tenants.db.scoped(tenants.scope("beta/web")) as s:
        s.ingest_fragments(
            Fragment(project="beta/web", id=f"b{i}", content="b", embedding=_near(100 + i, 0.01)) for i in range(40)
        )
    built = {(a.project_id, a.action) for a in tenants.db.admin().maintain_storage(threshold=25)}
    assert {(tenants.a.id, "hnsw"), (tenants.b.id, "hnsw")} <= built
    return tenants


def _ask(tenants: Tenants, scope: ResourceScope, project: int, settings: tuple[str, ...] = ()) -> list[str]:
    with tenants.db.scoped(scope) as s:
        for setting in settings:
            s.execute(setting)
        rows = s.execute(f"SELECT id FROM scopedb.project_nearest(%s, '{Q}', 10, 40, 20000)", (project,)).rows
    return [r[0] for r in rows]


def test_a_one_project_search_reads_its_own_partition_and_answers_as_the_exact_statement(stored: Tenants) -> None:
    with psycopg.connect(stored.db.dsn, autocommit=True) as conn:  # count function calls on new connections
        conn.execute(sql.SQL("ALTER DATABASE {} SET track_functions = 'pl'").format(sql.Identifier(conn.info.dbname)))
    db = stored.one_connection()
    try:
        with db.scoped(stored.scope("acme/api")) as s:
            fast = [(h.fragment.id, round(h.distance, 6)) for h in s.search_vector(list(QUERY), limit=10)]
            calls = s.execute(
                "SELECT calls FROM pg_stat_xact_user_functions WHERE schemaname = 'scopedb' AND funcname = %s",
                ("project_nearest",),
            ).rows
            exact = [(h.fragment.id, round(h.distance, 6))
                     for h in s.search_vector(list(QUERY), limit=10, strategy=VectorStrategy(exact=True))]  # fmt: skip
            assert s.last_vector_strategy == "exact"
    finally:
        db.close()
    assert calls == [(1,)]
    assert fast == exact
    assert len(fast) == 10
    assert all(i.startswith("a") for i, _ in fast)


def test_a_closed_version_is_not_returned(stored: Tenants) -> None:
    whole = stored.scope("acme/api")
    first = _ask(stored, whole, stored.a.id)[0]
    with psycopg.connect(stored.db.dsn, autocommit=True) as conn:  # the version closed (as an update closes it)
        conn.execute("UPDATE scopedb.fragments SET valid_to = now() WHERE project_id = %s AND id = %s",
                     (stored.a.id, first))  # fmt: skip
    assert first not in _ask(stored, whole, stored.a.id)
    with stored.db.scoped(whole) as s:
        assert first not in {h.fragment.id for h in s.search_vector(list(QUERY), limit=60)}


@pytest.mark.parametrize("settings", [(), HOSTILE], ids=["default", "hostile"])
def test_project_nearest_answers_nothing_a_scope_may_not_read_whole(stored: Tenants, settings: tuple[str, ...]) -> None:
    a, b = stored.a.id, stored.b.id
    assert len(_ask(stored, stored.scope("acme/api"), a, settings)) == 10  # the control: A's own, whole
    assert _ask(stored, stored.scope("acme/api"), b, settings) == []  # B's partition, asked for by A
    assert _ask(stored, stored.scope("acme/api", include_paths={"src/**"}), a, settings) == []  # narrowed
    assert _ask(stored, stored.scope("acme/api", temporal_scope="all"), a, settings) == []  # every version
    past = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)
    assert _ask(stored, stored.scope("acme/api", temporal_scope=past), a, settings) == []  # another instant
    with app_connection(stored.db) as conn:  # no scope entered at all
        conn.execute("SET LOCAL ROLE scopedb_app")
        assert conn.execute(
            f"SELECT count(*) FROM scopedb.project_nearest(%s, '{Q}', 10, 40, 20000)", (a,)
        ).fetchone() == (0,)
    # scopedb's own search of the narrowed scope still answers, through the policies of fragments
    with stored.db.scoped(stored.scope("acme/api", include_paths={"src/**"})) as s:
        hits = s.search_vector(list(QUERY), limit=10)
    assert len(hits) == 10
    assert all(h.fragment.path and h.fragment.path.startswith("src/") for h in hits)


def test_the_partition_policy_admits_to_the_owner_the_rows_of_a_whole_read_scope_alone(stored: Tenants) -> None:
    """The partition's policy on its own, read as scopedb_owner: this fails if the policy is dropped (A's own count
    falls to 0) or widened (B's, or a narrowed scope's, rises)."""

    def owner_counts(scope: ResourceScope) -> tuple[int, int]:
        token = stored.db.sign(scope)
        with psycopg.connect(stored.db.dsn) as conn:
            conn.execute("SET LOCAL ROLE scopedb_owner")
            conn.execute("SELECT scopedb.enter_scope(%s)", (token,))
            counts = []
            for project in (stored.a.id, stored.b.id):
                partition = sql.Identifier(f"fragments_{project}")
                row = conn.execute(sql.SQL("SELECT count(*) FROM scopedb_parts.{}").format(partition)).fetchone()
                assert row is not None
                counts.append(int(row[0]))
        return counts[0], counts[1]

    a_rows, b_rows = stored.count("fragments", stored.a), stored.count("fragments", stored.b)  # the superuser's count
    assert (a_rows, b_rows) == (67, 47)  # the fixture's 7 each, and this module's
    assert owner_counts(stored.scope("acme/api")) == (a_rows, 0)
    assert owner_counts(stored.scope("beta/web")) == (0, b_rows)
    assert owner_counts(stored.scope("acme/api", include_paths={"src/**"})) == (0, 0)
    assert owner_counts(stored.scope("acme/api", temporal_scope="all")) == (0, 0)
    with psycopg.connect(stored.db.dsn) as conn:
        policies = conn.execute(
            "SELECT c.relname, p.polname FROM pg_policy AS p JOIN pg_class AS c ON c.oid = p.polrelid "
            "WHERE c.relnamespace = 'scopedb_parts'::regnamespace ORDER BY 1"
        ).fetchall()
    assert policies == sorted([(f"fragments_{stored.a.id}", POLICY), (f"fragments_{stored.b.id}", POLICY)])
    assert [f for f in stored.db.admin().audit() if f.severity == "error"] == []
