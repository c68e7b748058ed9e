"""Text, vector and graph search in PostgreSQL, as scopedb_app, under the entered scope."""

from __future__ import annotations

import datetime as dt
import math
import random
import subprocess
import sys

import numpy as np
import psycopg
import pytest
from pgvector import Vector

from scopedb import Database, Fragment, ResourceScope, ScopeViolationError
from scopedb.backends.postgres import PgGraphBackend, PgTextBackend, PgVectorBackend
from scopedb.errors import (
    CheckViolationError,
    ForeignKeyViolationError,
    InvalidArgumentError,
    PermissionDeniedError,
)
from scopedb.ingest import EdgeIn, NodeIn
from scopedb.retrieval import VectorStrategy
from scopedb.vectors import QueryVector
from scopedb.view import ScopedBackendSet, ScopedBackendView
from tests.conftest import Tenants

DIM = 384


def _unit(seed: int) -> list[float]:
    rng = random.Random(seed)
    vector = [rng.gauss(0, 1) for _ in range(DIM)]
    norm = math.sqrt(sum(x * x for x in vector))
    return [x / norm for x in vector]


# Ingest ----------------------------------------------------------------------------------------------------------


def test_bulk_ingest_is_idempotent_and_checked(tenants: Tenants) -> None:
    rows = [Fragment(project="acme/api", id=f"k{i}", content=f"version one {i}") for i in range(50)]
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        assert s.ingest_fragments(rows, batch_size=16) == 50
        assert s.ingest_fragments([Fragment(project="acme/api", id="k1", content="version two")]) == 1
        assert s.execute("SELECT count(*) FROM scopedb.fragments WHERE id LIKE 'k%'").scalar() == 50
        assert s.execute("SELECT content FROM scopedb.fragments WHERE id = 'k1'").scalar() == "version two"
    with pytest.raises(ScopeViolationError), tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.ingest_fragments([Fragment(project="beta/web", id="x", content="planted")])
    b1 = tenants.resources["b1"].id
    # Even a scope over both projects cannot attach A's fragment to B's resource: keys include project_id.
    with pytest.raises(ForeignKeyViolationError), tenants.db.scoped(tenants.scope("acme/api", "beta/web")) as s:
        s.ingest_fragments([Fragment(project="acme/api", id="x", content="wrong resource", resource_id=b1)])


def test_embedding_dimension_mismatch_is_a_clear_error(tenants: Tenants) -> None:
    with (
        pytest.raises(InvalidArgumentError, match="3 dimensions; the database stores 384"),
        tenants.db.scoped(tenants.scope("acme/api")) as s,
    ):
        s.ingest_fragments([Fragment(project="acme/api", id="v", content="x", embedding=[1.0, 2.0, 3.0])])
    with pytest.raises(InvalidArgumentError), tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.search_vector([1.0, 2.0])


# Text ------------------------------------------------------------------------------------------------------------


def test_text_search_ranks_snippets_and_stays_in_scope(tenants: Tenants) -> None:
    with tenants.db.scoped(tenants.scope("acme/api", "beta/web")) as s:
        s.ingest_fragments(
            [
                Fragment(project="acme/api", id="t1", content="rotate the signing key; the key rotation runbook"),
                Fragment(project="acme/api", id="t2", content="key material is never logged"),
                Fragment(project="beta/web", id="t3", content="beta rotates its key weekly: key key key"),
            ]
        )
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        hits = s.search_text("key rotation")
        assert [h.fragment.id for h in hits] == ["t1"]  # websearch: both words; stemming matches "rotate"
        assert "<b>" in hits[0].snippet
        ranked = s.search_text("key")
        assert [h.fragment.id for h in ranked][:2] == ["t1", "t2"]
        assert all(h.fragment.project_name == "acme/api" for h in ranked)
        assert [h.fragment.id for h in s.search_text("key", offset=1, limit=1)] == ["t2"]
        assert [h.fragment.id for h in s.search_text('"signing key" -logged')] == ["t1"]
        assert s.search_text("beta rotates") == []
        with pytest.raises(InvalidArgumentError, match="text-search configuration"):
            s.search_text("key", config="klingon")


def test_text_search_uses_the_gin_index(scopedb_db: Database) -> None:
    """Under RLS a plain `tsv @@ q` cannot use the GIN index; scopedb's search path must, so this reads EXPLAIN."""
    scopedb_db.admin().create_project("big")
    rng = random.Random(7)
    words = [f"common{i}" for i in range(50)]
    with scopedb_db.scoped(ResourceScope(project_names={"big"})) as s:
        s.ingest_fragments(
            Fragment(
                project="big", id=f"f{i}", content=" ".join(rng.choices(words, k=12)) + (" zephyrine" if i == 3 else "")
            )
            for i in range(5000)
        )
    built = scopedb_db.admin().maintain_storage()  # 5,000 rows: past the threshold, the project gets its indexes
    (project,) = {a.project_id for a in built if a.action == "gin"}
    with psycopg.connect(scopedb_db.dsn, autocommit=True) as admin:
        # What autovacuum would do: gather statistics.
        admin.execute("ANALYZE scopedb_private.fragment_search, scopedb.fragments")
        gin = admin.execute(
            "SELECT to_regclass(format('scopedb_parts.fragment_search_%%s_tsv_gin', %s::bigint))::oid", (project,)
        ).fetchone()[0]  # type: ignore[index]
        assert gin is not None
    with scopedb_db.scoped(ResourceScope(project_names={"big"})) as s:
        # No function shows the owner's plan (its shape would depend on every tenant's statistics): count, in this
        # transaction, the scans of the owner-only GIN index instead.
        scans = "SELECT pg_stat_get_xact_numscans(%s)"
        before = s.execute(scans, (gin,)).scalar()
        assert [h.fragment.id for h in s.search_text("zephyrine")] == ["f3"]
        assert s.execute(scans, (gin,)).scalar() > before
        # Control: the same match written directly against fragments, as scopedb_app under RLS, reaches no GIN
        # index at all (fragments has none, and "@@" is not leakproof) — not even when nothing else is allowed.
        s.execute("SET LOCAL enable_seqscan = off")
        direct = s.execute("EXPLAIN SELECT id FROM scopedb.fragments WHERE tsv @@ to_tsquery('english', 'zephyrine')")
        assert "gin" not in "\n".join(row[0] for row in direct).lower()


# Vector ----------------------------------------------------------------------------------------------------------


def test_vector_search_returns_min_k_visible_in_every_metric(tenants: Tenants) -> None:
    with tenants.db.scoped(tenants.scope("acme/api", "beta/web")) as s:
        s.ingest_fragments(
            Fragment(project=p, id=f"{p[0]}v{i}", content="v", embedding=_unit(i)) for p in ("acme/api", "beta/web")
            for i in range(30)
        )  # fmt: skip
    query = _unit(3)
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        for metric in ("cosine", "l2", "inner_product"):
            hits = s.search_vector(query, limit=5, metric=metric)
            assert len(hits) == 5
            assert hits[0].fragment.id == "av3"
            assert all(h.fragment.project_name == "acme/api" for h in hits)
            assert [h.distance for h in hits] == sorted(h.distance for h in hits)
        # 30 embedded fragments in acme plus the 6 the fixture made: limit 100 returns all 36, no more.
        assert len(s.search_vector(query, limit=100)) == 36
    narrowed = tenants.scope("acme/api", resource_ids={tenants.resources["a1"].id})
    with tenants.db.scoped(narrowed) as s:
        assert len(s.search_vector(query, limit=10)) == 3  # only a1's three embedded fragments are visible


def test_a_project_past_the_threshold_is_searched_through_its_own_index(tenants: Tenants) -> None:
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.ingest_fragments(
            Fragment(project="acme/api", id=f"h{i}", content="h", embedding=_unit(i)) for i in range(300)
        )
    done = tenants.db.admin().maintain_storage(threshold=100)
    assert {(a.project_id, a.action) for a in done} >= {(tenants.a.id, "hnsw"), (tenants.a.id, "gin")}
    assert all(a.project_id == tenants.a.id for a in done if a.action == "hnsw")  # beta/web is below it
    assert tenants.db.admin().storage_plan(threshold=100) == []
    assert [f for f in tenants.db.admin().audit() if f.severity == "error"] == []  # E026 knows the indexes
    query = _unit(11)
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        hnsw = s.search_vector(query, limit=10)
        assert s.last_vector_strategy == "index"
        exact = s.search_vector(query, limit=10, strategy=VectorStrategy(exact=True))
        assert s.last_vector_strategy == "exact"
        s.execute("SET LOCAL enable_sort = off")  # as scopedb.nearest_fragments does
        plan = "\n".join(
            r[0] for r in s.execute(
                "EXPLAIN SELECT id FROM scopedb.fragments WHERE project_id = ANY (%s) "
                "ORDER BY embedding <=> %s::vector LIMIT 10", ([tenants.a.id], str(list(query)))
            ).rows
        )  # fmt: skip
    assert f"fragments_{tenants.a.id}_embedding_hnsw" in plan
    assert len(hnsw) == 10
    recall = len({h.fragment.id for h in hnsw} & {h.fragment.id for h in exact}) / 10
    assert recall >= 0.9
    assert hnsw[0].fragment.id == "h11"
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        # The caller's own settings survive a search (the statement's settings are the function's own SET, scoped
        # to it, never a RESET of the caller's): a search in the middle of a transaction changes nothing after it.
        s.execute("SET LOCAL enable_seqscan = off; SET LOCAL hnsw.ef_search = 7; SET LOCAL work_mem = '7MB'")
        assert len(s.search_vector(query, limit=10)) == 10
        assert s.last_vector_strategy == "index"
        after = [s.execute(q).scalar() for q in ("SHOW enable_seqscan", "SHOW hnsw.ef_search", "SHOW work_mem")]
    assert after == ["off", "7", "7MB"]


def _away_from(query: list[float], seed: int) -> list[float]:
    """A unit vector near the opposite of ``query``: among the farthest from it, each at its own distance."""
    nudge = _unit(seed)
    vector = [-q + 0.05 * n for q, n in zip(query, nudge, strict=True)]
    norm = math.sqrt(sum(x * x for x in vector))
    return [x / norm for x in vector]


def test_a_short_index_answer_is_replaced_by_the_exact_one(tenants: Tenants) -> None:
    """An iterative scan that stops at max_scan_tuples before the scope's filters let k rows through comes back
    short; the exact statement then answers, so a search still returns min(k, visible) rows. The rows the scope
    keeps lie opposite the query, so an index scan in distance order reaches them last, however the graph was
    built (with random rows among the others, one build in several runs found five of them in its first batch)."""
    query = _unit(3)
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.ingest_fragments(
            Fragment(project="acme/api", id=f"h{i}", content="h",
                     embedding=_away_from(query, i) if i % 50 == 0 else _unit(i),
                     path="keep/x.py" if i % 50 == 0 else "drop/x.py")
            for i in range(300)
        )  # fmt: skip
    tenants.db.admin().maintain_storage(threshold=100)
    with tenants.db.scoped(tenants.scope("acme/api", include_paths={"keep/**"})) as s:
        tight = VectorStrategy(min_ef_search=1, ef_search_per_k=1, max_scan_tuples=1)
        hits = s.search_vector(_unit(3), limit=5, strategy=tight)
        assert s.last_vector_strategy == "exact"
        exact = s.search_vector(_unit(3), limit=5, strategy=VectorStrategy(exact=True))
        wide = s.search_vector(_unit(3), limit=5)
        assert s.last_vector_strategy == "index"
        # The function itself returns the short index answer, then the exact one, flagged, which replaces it.
        raw = s.execute(
            "SELECT id, used_index FROM scopedb.nearest_fragments(%s::vector, 5, %s, 'cosine', false, 1, 1)",
            (str(_unit(3)), [tenants.a.id]),
        ).rows
    assert len([r for r in raw if r[1]]) < 5
    assert sorted(r[0] for r in raw if not r[1]) == sorted(h.fragment.id for h in exact)
    assert len(hits) == 5
    assert all(h.fragment.path == "keep/x.py" for h in hits)
    assert [h.fragment.id for h in hits] == [h.fragment.id for h in exact] == [h.fragment.id for h in wide]


# Graph -----------------------------------------------------------------------------------------------------------


def _graph(tenants: Tenants) -> None:
    a1, a2 = tenants.resources["a1"].id, tenants.resources["a2"].id
    nodes = [
        NodeIn("acme/api", "n1", kind="module", resource_id=a1),
        NodeIn("acme/api", "n2", kind="function", resource_id=a2),
        NodeIn("acme/api", "n3", kind="function", resource_id=a1),
        NodeIn("acme/api", "n4", kind="module", resource_id=a1),
        NodeIn("beta/web", "n1", kind="module"),
    ]
    edges = [
        EdgeIn("acme/api", "n1", "n2", "calls"),
        EdgeIn("acme/api", "n2", "n3", "calls"),
        EdgeIn("acme/api", "n1", "n4", "imports"),
        EdgeIn("acme/api", "n4", "n3", "calls"),
        EdgeIn("acme/api", "n3", "n1", "calls"),  # a cycle
    ]
    with tenants.db.scoped(tenants.scope("acme/api", "beta/web")) as s:
        assert s.ingest_graph(nodes, edges) == (5, 5)


def test_graph_neighbourhood_respects_depth_relations_and_cycles(tenants: Tenants) -> None:
    _graph(tenants)
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        assert s.search_graph("n1", depth=1).node_ids == {"n1", "n2", "n4"}
        assert s.search_graph("n1", depth=3).node_ids == {"n1", "n2", "n3", "n4"}
        calls = s.search_graph("n1", depth=3, relations=["calls"])
        assert calls.node_ids == {"n1", "n2", "n3"}
        assert {(e.src, e.dst) for e in calls.edges} == {("n1", "n2"), ("n2", "n3"), ("n3", "n1")}
        assert all(n.project_name == "acme/api" for n in s.search_graph("n1", depth=5).nodes)
        assert s.shortest_path("n1", "n3") in (["n1", "n2", "n3"], ["n1", "n4", "n3"])
        modules = s.subgraph(["module"])
        assert modules.node_ids == {"n1", "n4"}
        assert {(e.src, e.dst) for e in modules.edges} == {("n1", "n4")}


def test_a_node_is_its_project_and_id(tenants: Tenants) -> None:
    """Both projects have a README and an X -> Y pair; only acme/api links start -> README, only beta/web links
    X -> Y. A scope over both must not mix them: the walk used to re-read nodes by id alone (returning
    beta/web's README), and subgraph matched edges by id alone (reporting acme/api's X -> Y)."""
    nodes = [NodeIn("acme/api", i, kind="doc") for i in ("start", "README", "X", "Y")]
    nodes += [NodeIn("beta/web", i, kind="doc") for i in ("README", "X", "Y")]
    edges = [EdgeIn("acme/api", "start", "README", "mentions"), EdgeIn("beta/web", "X", "Y", "imports")]
    with tenants.db.scoped(tenants.scope("acme/api", "beta/web")) as s:
        s.ingest_graph(nodes, edges)
        walked = s.search_graph("start", depth=1)
        assert walked.node_keys == {("acme/api", "start"), ("acme/api", "README")}
        assert [(e.project_name, e.src, e.dst) for e in walked.edges] == [("acme/api", "start", "README")]
        both = s.search_graph("X", depth=1)
        assert both.node_keys == {("acme/api", "X"), ("beta/web", "X"), ("beta/web", "Y")}
        sub = s.subgraph(["doc"])
        assert len(sub.nodes) == 7
        assert [(e.project_name, e.src, e.relation, e.dst) for e in sub.edges] == [
            ("acme/api", "start", "mentions", "README"),
            ("beta/web", "X", "imports", "Y"),
        ]


def test_traversal_never_passes_through_or_returns_an_invisible_node(tenants: Tenants) -> None:
    _graph(tenants)
    a1 = tenants.resources["a1"].id
    with tenants.db.scoped(tenants.scope("acme/api", resource_ids={a1})) as s:  # n2 (resource a2) is hidden
        result = s.search_graph("n1", depth=3, relations=["calls"])
        assert result.node_ids == {"n1"}  # n3 is reachable by calls only through hidden n2
        assert all("n2" not in (e.src, e.dst) for e in s.search_graph("n1", depth=5).edges)
        assert s.search_graph("n1", depth=5).node_ids == {"n1", "n3", "n4"}
        assert s.shortest_path("n1", "n3", max_depth=5) == ["n1", "n4", "n3"]
        assert s.execute("SELECT count(*) FROM scopedb.graph_edges WHERE src = 'n2' OR dst = 'n2'").scalar() == 0
        with pytest.raises(ScopeViolationError):
            s.ingest_graph(edges=[EdgeIn("acme/api", "n4", "n2", "calls")])  # an edge to a hidden node


def test_an_edge_follows_its_ends_when_they_move(tenants: Tenants) -> None:
    """Edges carry copies of their ends' resource, path and name, which the edge policy tests. A node's move
    reaches every edge of it, also the edges the moving scope cannot see (n2 -> n3 below, hidden from the a1 scope
    by n2), so no edge is ever judged by a place its node has left."""
    _graph(tenants)
    a1, a2 = tenants.resources["a1"].id, tenants.resources["a2"].id
    narrow = tenants.scope("acme/api", resource_ids={a1})
    with tenants.db.scoped(narrow) as s:
        s.ingest_graph([NodeIn("acme/api", "n3", kind="function", resource_id=a1, path="lib/n3.py")])
    copies = "SELECT dst_resource, dst_path FROM scopedb.graph_edges WHERE src = 'n2' AND dst = 'n3'"
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        assert s.execute(copies).all() == [(a1, "lib/n3.py")]
    with tenants.db.scoped(tenants.scope("acme/api", exclude_paths={"lib/**"})) as s:
        assert s.search_graph("n1", depth=1).node_ids == {"n1", "n2", "n4"}
        assert s.execute("SELECT count(*) FROM scopedb.graph_edges WHERE dst = 'n3' OR src = 'n3'").scalar() == 0
    with tenants.db.scoped(tenants.scope("acme/api")) as s:  # n2 joins resource a1: its edges come into view
        s.ingest_graph([NodeIn("acme/api", "n2", kind="function", resource_id=a1)])
    with tenants.db.scoped(narrow) as s:
        assert s.search_graph("n1", depth=3, relations=["calls"]).node_ids == {"n1", "n2", "n3"}
    with tenants.db.scoped(tenants.scope("acme/api")) as s:  # and back out again
        s.ingest_graph([NodeIn("acme/api", "n2", kind="function", resource_id=a2)])
    with tenants.db.scoped(narrow) as s:
        assert s.search_graph("n1", depth=3, relations=["calls"]).node_ids == {"n1"}


def test_a_node_whose_path_and_fqn_do_not_fit_its_scope_key_is_refused_clearly(tenants: Tenants) -> None:
    """A node's path and fqn are part of the key its edges reference, which must fit a btree entry: at most 1,500
    bytes together. Ingest says so before the database is asked; a row written by hand meets the constraint."""
    pid = int(tenants.a.id)
    too_long = pytest.raises(InvalidArgumentError, match="1501 bytes together; at most 1500")
    with too_long, tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.ingest_graph([NodeIn("acme/api", "big", path="p" * 1000, fqn="f" * 501)])
    with pytest.raises(CheckViolationError), tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute(
            "INSERT INTO scopedb.graph_nodes (project_id, id, kind, path, fqn) VALUES (%s, 'big', 'node', %s, %s)",
            (pid, "p" * 1000, "f" * 501),
        )
    with tenants.db.scoped(tenants.scope("acme/api")) as s:  # 700 + 400 two-byte characters: exactly the limit
        assert s.ingest_graph([NodeIn("acme/api", "big", path="p" * 700, fqn="\u00e9" * 400)]) == (1, 0)
    not_text = pytest.raises(InvalidArgumentError, match="a node's kind must be a string")
    with not_text, tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.ingest_graph([NodeIn("acme/api", "odd", kind=7)])  # type: ignore[arg-type]


def test_edge_copies_cannot_be_forged_or_changed(tenants: Tenants) -> None:
    """Copies that claim a hidden end is visible are refused before the row meets the primary key (n1 -calls-> n2
    exists, hidden from this scope: a collision with it would say so), exactly as for an end that does not exist;
    false copies of visible ends are refused by the foreign key; an edge written by hand gets its copies from the
    nodes the writer can see; the app cannot change a copy afterwards."""
    _graph(tenants)
    a1 = tenants.resources["a1"].id
    pid = int(tenants.a.id)
    narrow = tenants.scope("acme/api", resource_ids={a1})  # n2 (resource a2) is hidden
    forged = (
        "INSERT INTO scopedb.graph_edges (project_id, src, relation, dst, src_resource, src_path, src_fqn, "
        "dst_resource, dst_path, dst_fqn) VALUES (%s, 'n1', 'calls', %s, %s, '', '', %s, '', '')"
    )
    by_hand = "INSERT INTO scopedb.graph_edges (project_id, src, relation, dst) VALUES (%s, %s, 'by-hand', %s)"
    errors = {}
    for target in ("n2", "nowhere"):  # "nowhere" does not exist
        with pytest.raises(ScopeViolationError) as raised, tenants.db.scoped(narrow) as s:
            s.execute(forged, (pid, target, a1, a1))  # claims the target is in resource a1, which the scope sees
        errors[target] = str(raised.value)
        with pytest.raises(ScopeViolationError), tenants.db.scoped(narrow) as s:
            s.execute(by_hand, (pid, "n1", target))
    assert errors["n2"] == errors["nowhere"]
    with pytest.raises(ForeignKeyViolationError), tenants.db.scoped(narrow) as s:
        s.execute(forged.replace("'', '')", "'elsewhere/', '')"), (pid, "n3", a1, a1))  # n3's path is not that
    with tenants.db.scoped(narrow) as s:
        s.execute(by_hand, (pid, "n1", "n3"))
        assert s.execute("SELECT src_resource, dst_resource FROM scopedb.graph_edges "
                         "WHERE relation = 'by-hand'").all() == [(a1, a1)]  # fmt: skip
    with pytest.raises(PermissionDeniedError), tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("UPDATE scopedb.graph_edges SET dst_path = 'elsewhere' WHERE src = 'n1'")


# The database, not Python, is what isolates ----------------------------------------------------------------------


HAND_WRITTEN = {
    "text": "SELECT project_id FROM scopedb.fragments WHERE tsv @@ websearch_to_tsquery('english', 'auth flow')",
    "vector": "SELECT project_id FROM scopedb.fragments WHERE embedding IS NOT NULL "
    "ORDER BY embedding <=> (SELECT embedding FROM scopedb.fragments WHERE embedding IS NOT NULL LIMIT 1) LIMIT 50",
    "graph": "WITH RECURSIVE w(p, n, d) AS (SELECT project_id, id, 0 FROM scopedb.graph_nodes "
    "UNION ALL SELECT e.project_id, e.dst, w.d + 1 FROM w JOIN scopedb.graph_edges e "
    "ON e.project_id = w.p AND e.src = w.n WHERE w.d < 3) SELECT p FROM w",
}


@pytest.mark.parametrize("kind", sorted(HAND_WRITTEN))
def test_hand_written_queries_without_a_scope_predicate_stay_in_scope(tenants: Tenants, kind: str) -> None:
    _graph(tenants)
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        projects = {row[0] for row in s.execute(HAND_WRITTEN[kind])}
    assert projects == {tenants.a.id}


@pytest.mark.parametrize("kind", sorted(HAND_WRITTEN))
def test_the_same_queries_leak_once_the_policies_are_gone(tenants: Tenants, kind: str) -> None:
    """Control for the test above: the isolation is the database's, not the query's."""
    _graph(tenants)
    with psycopg.connect(tenants.db.dsn, autocommit=True) as admin:
        for table in ("fragments", "graph_nodes", "graph_edges"):
            admin.execute(f"ALTER TABLE scopedb.{table} DISABLE ROW LEVEL SECURITY")
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        projects = {row[0] for row in s.execute(HAND_WRITTEN[kind])}
    assert tenants.b.id in projects


# Temporal scope and the protocol adapters ------------------------------------------------------------------------


def test_search_honours_the_temporal_scope(tenants: Tenants) -> None:
    t0 = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    with tenants.db.scoped(tenants.scope("acme/api", temporal_scope="all")) as s:
        s.ingest_fragments(
            [
                Fragment(
                    project="acme/api", id="old", content="quokka v1", valid_from=t0, valid_to=t0 + dt.timedelta(1)
                ),
                Fragment(project="acme/api", id="new", content="quokka v2", valid_from=t0 + dt.timedelta(1)),
            ]
        )
    for temporal, expected in (("current", ["new"]), ("all", ["new", "old"]), (t0, ["old"])):
        with tenants.db.scoped(tenants.scope("acme/api", temporal_scope=temporal)) as s:
            assert sorted(h.fragment.id for h in s.search_text("quokka")) == expected


def test_views_and_sets_work_over_the_postgres_backends(tenants: Tenants) -> None:
    _graph(tenants)
    scope = tenants.scope("acme/api")
    backends = ScopedBackendSet.from_resource_scope(
        scope, text=PgTextBackend(tenants.db), vector=PgVectorBackend(tenants.db), graph=PgGraphBackend(tenants.db)
    )
    assert {h.fragment.project_name for h in backends.search_text("auth flow")} == {"acme/api"}
    assert len(backends.search_vector([0.0, 1.0, 0.0] + [0.0] * 381, limit=4)) == 4
    assert backends.search_graph("n1", depth=1).node_ids == {"n1", "n2", "n4"}
    denied = ScopedBackendView(allowed_projects={"acme/api"}, resource_ids={"R1"}, denied_resource_ids={"R1"})
    with pytest.raises(ScopeViolationError):
        denied.search_text(PgTextBackend(tenants.db), "auth")


def test_search_functions_are_not_a_way_around_rls(tenants: Tenants) -> None:
    """text_candidates runs as the owner, but only returns what the entered scope admits."""
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        rows = s.execute(
            "SELECT project_id FROM scopedb.text_candidates(websearch_to_tsquery('english', 'fragment'), 100)"
        ).rows
        assert {r[0] for r in rows} == {tenants.a.id}
        s.execute("SELECT set_config('scopedb.scope_token', 'v1.x', true)")
        assert (
            s.execute(
                "SELECT count(*) FROM scopedb.text_candidates(websearch_to_tsquery('english', 'fragment'), 100)"
            ).scalar()
            == 0
        )
    with pytest.raises(PermissionDeniedError), tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("SELECT * FROM scopedb_private.fragment_search")


def test_the_walks_called_directly_with_another_project_s_ids_reach_nothing(tenants: Tenants) -> None:
    """The walks seed every (project, start id) pair they are given and read the nodes only at the end (revision
    0017): a caller that names B's project and B's node ids directly, from A's scope, gets no row — B's edges and
    nodes are B's, and the policies decide, not the arguments."""
    nodes = [NodeIn(p, i, kind="doc") for p in ("acme/api", "beta/web") for i in ("s", "t", "u")]
    edges = [EdgeIn(p, "s", "t", "calls") for p in ("acme/api", "beta/web")] + [EdgeIn("beta/web", "t", "u", "calls")]
    with tenants.db.scoped(tenants.scope("acme/api", "beta/web")) as s:
        s.ingest_graph(nodes, edges)
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        walked = s.execute(
            "SELECT DISTINCT project_id, node FROM scopedb.graph_walk(%s, '{s,t,u}', 3, NULL) ORDER BY 1, 2",
            ([tenants.a.id, tenants.b.id],),
        ).rows
        assert walked == [(tenants.a.id, "s"), (tenants.a.id, "t"), (tenants.a.id, "u")]  # A's own three, no more
        assert s.execute("SELECT * FROM scopedb.graph_walk(%s, '{s}', 3, NULL)", ([tenants.b.id],)).rows == []
        for source, target in (("s", "u"), ("s", "s"), ("t", "u")):
            assert s.execute("SELECT * FROM scopedb.graph_shortest_path(%s, %s, %s, 6, NULL)",
                             ([tenants.b.id], source, target)).rows == []  # fmt: skip
        assert s.execute("SELECT path FROM scopedb.graph_shortest_path(%s, 's', 's', 6, NULL)",
                         ([tenants.a.id],)).rows == [(["s"],)]  # fmt: skip
        assert s.execute("SELECT path FROM scopedb.graph_shortest_path(%s, 'nowhere', 'nowhere', 6, NULL)",
                         ([tenants.a.id],)).rows == []  # fmt: skip


def test_a_query_vector_binds_in_binary_on_any_connection(tenants: Tenants) -> None:
    """Searches bind the embedding in pgvector's binary format with no type lookup (scopedb.vectors.QueryVector):
    the server reads it back as the same values, on a connection that never registered the vector type, and a
    value that is no vector of the column's width is refused by the server's cast, not misread."""
    values = [1.0, -2.5, 0.125] + [0.0] * (DIM - 3)
    with psycopg.connect(tenants.db.dsn) as conn:
        text = conn.execute("SELECT %b::vector::text", (QueryVector(np.array(values, dtype=np.float32)),)).fetchone()
        assert text == ("[" + ",".join(f"{v:g}" for v in values) + "]",)
        with pytest.raises(psycopg.errors.DataException):
            conn.execute("SELECT %b::vector(3)", (QueryVector(np.array(values, dtype=np.float32)),))
    with tenants.scoped(tenants.scope("acme/api")) as s:
        binary = s.search_vector(values, limit=3)
        literal = s.execute(
            "SELECT id FROM scopedb.fragments WHERE embedding IS NOT NULL "
            "ORDER BY embedding <=> %s::vector, id LIMIT 3",
            ("[" + ",".join(map(str, values)) + "]",),
        )
        assert [h.fragment.id for h in binary] == [r[0] for r in literal]


EARLY_CONNECTION = """
import sys, psycopg
conn = psycopg.connect(sys.argv[1])  # made and used before scopedb is imported: it holds the adapters of then
conn.execute("SELECT 1")
import numpy as np
from scopedb.vectors import QueryVector, teach_query_vectors
vector = QueryVector(np.array([1.0, 2.0], dtype=np.float32))
try:
    conn.execute("SELECT %b::vector", (vector,))
    print("bound before teaching")
except psycopg.ProgrammingError:
    print("unknown before teaching")
teach_query_vectors(conn)
print(conn.execute("SELECT %b::vector::text", (vector,)).fetchone()[0])
"""


def test_a_connection_made_before_scopedb_was_imported_learns_query_vectors(tenants: Tenants) -> None:
    """scopedb prepares every connection it lends with teach_query_vectors, so the binary query vector binds even
    on a connection whose adapters were copied before scopedb.vectors registered its dumper."""
    done = subprocess.run([sys.executable, "-c", EARLY_CONNECTION, tenants.db.dsn], capture_output=True, text=True,
                          timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["unknown", "before", "teaching", "[1,2]"]


def test_a_session_s_statements_see_the_vector_types_it_learns_midway(tenants: Tenants) -> None:
    """A session sends all its statements through one cursor, made at its first statement, and a cursor keeps the
    types the connection knew when it was made. On a new connection the session learns pgvector's types only at
    its first bulk ingest, after that cursor exists: the statements from then on must still see them (the
    embedding sent in binary, and read back as a vector, not as its text)."""
    db = tenants.one_connection()
    try:
        with db.scoped(tenants.scope("acme/api")) as s:
            assert s.execute("SELECT 1").scalar() == 1  # the session's cursor, before the types are known
            assert s.ingest_fragments([Fragment(project="acme/api", id="midway", content="x", embedding=_unit(9))]) == 1
            stored = s.execute("SELECT embedding FROM scopedb.fragments WHERE id = 'midway'").scalar()
        assert isinstance(stored, Vector)
        assert np.allclose(stored.to_numpy(), _unit(9), atol=1e-6)
    finally:
        db.close()
