"""The measurements: text, vector and graph under RLS against their baselines, scope entry, ingest.

Each suite takes a loaded :class:`~bench.harness.Bench` and returns a JSON-able dict. Baselines get their best honest
settings: the owner's explicit-WHERE text query uses the same per-project GIN indexes scopedb does, without RLS;
the vector baseline is one HNSW index over all rows (``bench_baseline.vectors``, what a shared vector store has),
unfiltered, filtered by a metadata WHERE, and post-filtered in the application; the graph baseline is the same SQL
without RLS.
"""

from __future__ import annotations

import functools
import itertools
import random
import statistics
import threading
import time
from collections.abc import Callable
from typing import Any, LiteralString

from psycopg import sql

from bench.corpus import FRACTIONS, scope_for_fraction
from bench.harness import Bench, interleaved
from scopedb import Fragment, lifecycle, sqlfiles
from scopedb.admin import STORAGE_THRESHOLD
from scopedb.entry import enter_token
from scopedb.retrieval import VectorStrategy
from scopedb.session import ScopedSession
from scopedb.vectors import vector_literal

OWNER_TEXT = """
WITH q AS (SELECT websearch_to_tsquery('english', %(query)s) AS query),
     hits AS (SELECT s.project_id, s.id, s.path, s.content, ts_rank_cd(s.tsv, q.query) AS rank
                FROM q, scopedb_private.fragment_search AS s
               WHERE s.project_id = ANY (%(projects)s) AND s.tsv @@ q.query
               ORDER BY rank DESC, s.project_id, s.id
               LIMIT 10)
SELECT h.project_id, h.id, h.path, h.rank,
       ts_headline('english', h.content, q.query, 'MaxFragments=2, MaxWords=20, MinWords=5')
  FROM q, hits AS h
 ORDER BY h.rank DESC, h.project_id, h.id"""


def _actual(bench: Bench, projects: list[str]) -> float:
    return sum(bench.corpus.project_sizes[p] for p in projects) / bench.corpus.n


def text(bench: Bench, repeat: int, budget_ms: float = 0.0) -> dict[str, Any]:
    """Text under RLS (scopedb's search path) vs the owner's explicit WHERE, per term class and scope size."""
    rows = []
    for fraction in FRACTIONS:
        projects = scope_for_fraction(bench.corpus, fraction)
        with bench.db.scoped(bench.scope(projects)) as s:
            for kind in ("rare", "medium", "common"):
                term = bench.corpus.term(kind)
                params = {"query": term, "projects": bench.ids(projects)}
                hits: list[Any] = []
                timings = interleaved(
                    {
                        "rls": functools.partial(_search_into, hits, s, term),
                        "owner": functools.partial(_owner_rows, bench, OWNER_TEXT, params),
                    },
                    repeat,
                    budget_ms=budget_ms,
                )
                rows.append({
                    "fraction": fraction, "actual_fraction": _actual(bench, projects), "term": kind,
                    "rls_p50_ms": timings["rls"].p50, "owner_p50_ms": timings["owner"].p50,
                    "rls_p95_ms": timings["rls"].p95, "ratio_p50": timings["rls"].p50 / timings["owner"].p50,
                    "rows": len(hits[-1]), "rounds": len(timings["rls"].samples),
                })  # fmt: skip
    return {"rows": rows, "bar": "ratio_p50 <= 1.2", "worst_ratio": max(r["ratio_p50"] for r in rows)}


def vector(bench: Bench, repeat: int, queries: int = 10) -> dict[str, Any]:
    """scopedb's per-project path vs one HNSW index over all rows: unfiltered, filtered, and post-filtered."""
    strategy = VectorStrategy()
    ef = max(strategy.min_ef_search, strategy.ef_search_per_k * 10)
    rows: list[dict[str, Any]] = []
    for fraction in FRACTIONS:
        projects = scope_for_fraction(bench.corpus, fraction)
        vectors = bench.corpus.query_vectors(queries, projects)
        allowed = bench.ids(projects)
        visible = sum(bench.corpus.project_sizes[p] for p in projects)
        results: dict[str, dict[str, list[float]]] = {}
        with bench.db.scoped(bench.scope(projects)) as s:
            for q in vectors:
                truth = {h.fragment.id + h.fragment.project_name for h in
                         s.search_vector(q, limit=10, strategy=VectorStrategy(exact=True))}  # fmt: skip
                answers: dict[str, set[str]] = {}
                ways = _vector_ways(bench, s, q, allowed, ef)
                timings = {}
                # The bar's pair side by side, then the other two ways side by side. Timed all four in turn, the
                # three ways that walk the shared index kept its pages in the CPU's caches for one another, and
                # the scope's index was evicted between its turns: over the same database, the same queries and
                # the same commit, the worst ratio measured 2.43 that way and 1.89 by pairs (2026-12-05).
                for pair in (("scopedb", "unfiltered_hnsw"), ("filtered_hnsw", "post_filter")):
                    actions = {name: functools.partial(_record, answers, name, ways[name]) for name in pair}
                    timings.update(interleaved(actions, repeat, warmup=1))
                for name, timing in timings.items():
                    entry = results.setdefault(name, {"p50": [], "p95": [], "rows": [], "recall": []})
                    entry["p50"].append(timing.p50)
                    entry["p95"].append(timing.p95)
                    entry["rows"].append(len(answers[name]))
                    entry["recall"].append(len(answers[name] & truth) / max(1, min(10, visible)))
        grouped = sorted(projects) in [sorted(g) for g in bench.groups.values()]
        if grouped:
            # The same scope with its search group out of use (marked not ready for this pass, as before its
            # index was built): one index search per project, against the unfiltered index again, side by side.
            _groups_in_use(bench, False)
            try:
                with bench.db.scoped(bench.scope(projects)) as s:
                    for q in vectors:
                        truth = {h.fragment.id + h.fragment.project_name for h in
                                 s.search_vector(q, limit=10, strategy=VectorStrategy(exact=True))}  # fmt: skip
                        answers = {}
                        ways = _vector_ways(bench, s, q, allowed, ef)
                        actions = {name: functools.partial(_record, answers, name, fn) for name, fn in
                                   (("scopedb_no_group", ways["scopedb"]),
                                    ("unfiltered_hnsw_no_group", ways["unfiltered_hnsw"]))}  # fmt: skip
                        for name, timing in interleaved(actions, repeat, warmup=1).items():
                            entry = results.setdefault(name, {"p50": [], "p95": [], "rows": [], "recall": []})
                            entry["p50"].append(timing.p50)
                            entry["p95"].append(timing.p95)
                            entry["rows"].append(len(answers[name]))
                            entry["recall"].append(len(answers[name] & truth) / max(1, min(10, visible)))
            finally:
                _groups_in_use(bench, True)
        for name, entry in results.items():
            rows.append({
                "fraction": fraction, "actual_fraction": _actual(bench, projects), "projects": len(projects),
                "strategy": name, "p50_ms": statistics.median(entry["p50"]), "p95_ms": statistics.median(entry["p95"]),
                "rows_min": min(entry["rows"]), "recall_at_10": statistics.mean(entry["recall"]),
                "expected_rows": min(10, visible), "search_group": grouped and name != "scopedb_no_group",
            })  # fmt: skip
    scopedb_rows = [r for r in rows if r["strategy"] == "scopedb"]
    baseline = {r["fraction"]: r["p50_ms"] for r in rows if r["strategy"] == "unfiltered_hnsw"}
    alone = [r for r in rows if r["strategy"] == "scopedb_no_group"]
    baseline_alone = {r["fraction"]: r["p50_ms"] for r in rows if r["strategy"] == "unfiltered_hnsw_no_group"}
    return {
        "rows": rows,
        "bars": {
            "always_min_k_visible": all(r["rows_min"] == r["expected_rows"] for r in scopedb_rows),
            "min_recall_at_10": min(r["recall_at_10"] for r in scopedb_rows),
            "worst_p50_vs_unfiltered": max(r["p50_ms"] / baseline[r["fraction"]] for r in scopedb_rows),
            # The same scopes searched one index per project (their groups out of use): what a scope over many
            # projects costs when no group is declared for it.
            "worst_p50_vs_unfiltered_without_groups": max(
                (r["p50_ms"] / baseline_alone[r["fraction"]] for r in alone), default=None
            ),
        },
        "ef_search": ef,
        "search_groups": {name: len(members) for name, members in bench.groups.items()},
    }


def _groups_in_use(bench: Bench, ready: bool) -> None:
    """Mark the bench's search groups ready (searched) or filled (their copies kept, their indexes not searched)."""
    bench.owner.execute(
        "UPDATE scopedb_private.search_groups SET state = %s WHERE state = %s",
        ("ready", "filled") if ready else ("filled", "ready"),
    )


def exact_scan(bench: Bench, repeat: int) -> dict[str, Any]:
    """What the row-level security filter costs per row: exact nearest neighbours over one whole project of about
    5,000 rows (a current-time, whole-project scope: nothing for the policy to filter), scopedb's exact path
    against the owner's same query with an explicit WHERE and no RLS."""
    project = min(bench.corpus.projects, key=lambda p: abs(bench.corpus.project_sizes[p] - 5_000))
    pid = bench.project_ids[project]
    q = bench.corpus.query_vectors(1, [project])[0]
    literal = vector_literal(q)
    owner_sql = (
        "SELECT project_id, id, resource_id, path, fqn, content, d FROM (SELECT project_id, id, resource_id, path, "
        "fqn, content, embedding <=> %(q)s::vector AS d FROM scopedb.fragments WHERE project_id = %(p)s "
        "AND embedding IS NOT NULL OFFSET 0) AS v ORDER BY d, project_id, id LIMIT 10"
    )
    with bench.db.scoped(bench.scope([project])) as s:
        timings = interleaved(
            {
                "rls": lambda: s.search_vector(q, limit=10, strategy=VectorStrategy(exact=True)),
                "owner": functools.partial(_owner_rows, bench, owner_sql, {"q": literal, "p": pid}),
            },
            repeat,
        )
    return {
        "project_rows": bench.corpus.project_sizes[project],
        "rls_p50_ms": timings["rls"].p50,
        "owner_p50_ms": timings["owner"].p50,
        "ratio_p50": timings["rls"].p50 / timings["owner"].p50,
    }


# The statements scopedb.nearest_fragments runs (sql/03_functions.sql), with its variables as parameters: planned
# here under EXPLAIN, because a plan made inside a function does not show in the caller's EXPLAIN. Every project
# with an HNSW index: one branch; some with and some without: two; none: the exact statement.
_NEAREST_INDEXED = """
SELECT f.project_id, f.id, (f.embedding <=> %(q)s::vector) AS distance FROM scopedb.fragments AS f
 WHERE f.project_id = ANY (%(indexed)s) AND f.embedding IS NOT NULL
 ORDER BY f.embedding <=> %(q)s::vector LIMIT 10"""
_NEAREST_BOTH = """
SELECT u.* FROM (
    (SELECT f.project_id, f.id, (f.embedding <=> %(q)s::vector) AS distance FROM scopedb.fragments AS f
      WHERE f.project_id = ANY (%(indexed)s) AND f.embedding IS NOT NULL
      ORDER BY f.embedding <=> %(q)s::vector LIMIT 10)
    UNION ALL
    (SELECT f.project_id, f.id, (f.embedding <=> %(q)s::vector) AS distance FROM scopedb.fragments AS f
      WHERE f.project_id = ANY (%(scanned)s) AND f.embedding IS NOT NULL
      ORDER BY f.embedding <=> %(q)s::vector LIMIT 10)) AS u
 ORDER BY u.distance LIMIT 10"""
_NEAREST_EXACT = """
SELECT e.* FROM (SELECT f.project_id, f.id, (f.embedding <=> %(q)s::vector) AS distance FROM scopedb.fragments AS f
                  WHERE f.project_id = ANY (%(scanned)s) AND f.embedding IS NOT NULL OFFSET 0) AS e
 ORDER BY e.distance, e.project_id, e.id LIMIT 10"""
# The statement scopedb.graph_walk runs. The function keeps its plan for the connection, so this is what its first
# call on a connection plans; later calls plan nothing.
_WALK_PLANNED = """
WITH RECURSIVE walk (project_id, node, depth, src, relation) AS (
    SELECT p.id, s.id, 0, NULL::text, NULL::text
      FROM unnest(%(projects)s::bigint[]) AS p (id), unnest(%(start)s::text[]) AS s (id)
    UNION ALL
    SELECT step.project_id, step.dst, w.depth + 1, step.src, step.relation
      FROM walk AS w
     CROSS JOIN LATERAL (SELECT e.project_id, e.src, e.dst, e.relation FROM scopedb.graph_edges AS e
                          WHERE e.project_id = w.project_id AND e.src = w.node OFFSET 0) AS step
     WHERE w.depth < %(depth)s
) CYCLE project_id, node SET is_cycle USING trail
SELECT DISTINCT w.project_id, w.node, w.src, w.relation, n.kind, n.resource_id, n.label
  FROM walk AS w
 CROSS JOIN LATERAL (SELECT n.kind, n.resource_id, n.label FROM scopedb.graph_nodes AS n
                      WHERE n.project_id = w.project_id AND n.id = w.node OFFSET 0) AS n"""
# The statements scopedb.text_candidates runs as the owner, likewise (for a scope without resources or patterns),
# with its pinned settings (constraint_exclusion off; since revision 0017 the best rows come from the copy alone):
# over one project the tsquery and the scope's values are constants, over several they are sub-SELECTs (0018).
_TEXT_PLANNED = """
SELECT s.project_id, s.id, ts_rank_cd(s.tsv, q) AS rank, s.resource_id, s.path, s.fqn, s.content
  FROM scopedb_private.fragment_search AS s, websearch_to_tsquery('english', %(term)s) AS q
 WHERE s.tsv @@ q AND s.project_id = ANY (%(ids)s)
   AND (s.valid_from <= now() AND (s.valid_to IS NULL OR s.valid_to > now())) IS NOT FALSE
   AND (COALESCE(s.resource_id, '') = ANY (NULL::text[])) IS NOT FALSE
 ORDER BY 3 DESC, 1, 2 LIMIT 10"""
_TEXT_PLANNED_SEVERAL = """
SELECT s.project_id, s.id, ts_rank_cd(s.tsv, websearch_to_tsquery('english', %(term)s)) AS rank, s.resource_id,
       s.path, s.fqn, s.content
  FROM scopedb_private.fragment_search AS s
 WHERE s.tsv @@ (SELECT websearch_to_tsquery('english', %(term)s)) AND s.project_id = ANY (%(ids)s)
   AND (s.valid_from <= (SELECT now()) AND (s.valid_to IS NULL OR s.valid_to > (SELECT now()))) IS NOT FALSE
   AND (COALESCE(s.resource_id, '') = ANY ((SELECT NULL::text[])::text[])) IS NOT FALSE
 ORDER BY 3 DESC, 1, 2 LIMIT 10"""


def _planning_ms(rows: list[Any]) -> float:
    line = next(r[0] for r in rows if str(r[0]).startswith("Planning Time"))
    return float(str(line).split(":")[1].split()[0])


def scale(bench: Bench, repeat: int) -> dict[str, Any]:
    """What many projects cost: planning time of scopedb's text, vector and graph statements for a one-project and a
    ten-project scope, creating a project, the audit, and the size of the catalog."""
    largest = max(bench.corpus.projects, key=lambda p: bench.corpus.project_sizes[p])
    scopes = {
        "1 project": [largest],
        "10 projects": bench.corpus.projects[:10],  # the largest ten: each has partitions of its own
        "10 small projects": bench.corpus.projects[-10:],  # the smallest ten: all in the shared partitions
    }
    planning: dict[str, dict[str, float]] = {}
    indexed = {int(r[0]) for r in bench.owner.execute(
        "SELECT substring(relname, '^fragments_(\\d+)_embedding_hnsw$') FROM pg_class "
        "WHERE relnamespace = 'scopedb_parts'::regnamespace AND relname ~ '^fragments_\\d+_embedding_hnsw$'"
    ).fetchall()}  # fmt: skip
    for label, projects in scopes.items():
        ids = bench.ids(projects)
        q = vector_literal(bench.corpus.query_vectors(1, projects)[0])
        times: dict[str, list[float]] = {"vector": [], "graph": [], "text": []}
        with bench.db.scoped(bench.scope(projects)) as s:
            token = s.execute("SELECT current_setting('scopedb.scope_token')").scalar()
            s.execute("SET LOCAL enable_sort = off")
            split = {
                "q": q,
                "indexed": [i for i in ids if i in indexed],
                "scanned": [i for i in ids if i not in indexed],
            }
            for _ in range(repeat):
                nearest = (_NEAREST_BOTH if split["indexed"] and split["scanned"]
                           else _NEAREST_INDEXED if split["indexed"] else _NEAREST_EXACT)  # fmt: skip
                times["vector"].append(_planning_ms(s.execute("EXPLAIN (SUMMARY ON) " + nearest, split).rows))
                times["graph"].append(_planning_ms(s.execute("EXPLAIN (SUMMARY ON) " + _WALK_PLANNED, {
                    "projects": ids, "start": ["n0_1"], "depth": 2, "relations": None,
                }).rows))  # fmt: skip
        with bench.owner.transaction():
            bench.owner.execute("SET LOCAL ROLE scopedb_owner")
            bench.owner.execute("SELECT set_config('scopedb.scope_token', %s, true)", (token,))
            bench.owner.execute("SET LOCAL plan_cache_mode = force_custom_plan")
            bench.owner.execute("SET LOCAL constraint_exclusion = off")
            for _ in range(repeat):
                text = _TEXT_PLANNED if len(ids) == 1 else _TEXT_PLANNED_SEVERAL
                rows = bench.owner.execute("EXPLAIN (SUMMARY ON) " + text,
                                           {"term": bench.corpus.term("rare"), "ids": ids}).fetchall()  # fmt: skip
                times["text"].append(_planning_ms(rows))
        planning[label] = {name: statistics.median(values) for name, values in times.items()}
    admin = bench.db.admin()
    created = []
    for i in range(20):
        started = time.perf_counter()
        admin.create_project(f"scale-extra-{i}")
        created.append((time.perf_counter() - started) * 1000)
    # A project that reaches the threshold in the shared partitions: the maintenance step's move of its rows into
    # partitions of its own (the small projects' writes wait for it).
    grown = admin.create_project("scale-grown")
    rng = random.Random(7)
    with bench.db.scoped(bench.scope(["scale-grown"])) as s:
        s.ingest_fragments(Fragment(project="scale-grown", id=f"g{i}", content=f"grown {i}",
                                    embedding=[rng.random() for _ in range(bench.corpus.dim)])
                           for i in range(STORAGE_THRESHOLD))  # fmt: skip
    with admin.transaction() as conn:
        started = time.perf_counter()
        conn.execute(sqlfiles.query("admin", "create_project_storage"), {"project_id": grown.id})
        move_ms = (time.perf_counter() - started) * 1000
    audits = []
    for _ in range(3):
        started = time.perf_counter()
        findings = admin.audit()
        audits.append(time.perf_counter() - started)
    catalog = bench.owner.execute(
        "SELECT (SELECT count(*) FROM pg_class), (SELECT count(*) FROM pg_class WHERE relnamespace = "
        "'scopedb_parts'::regnamespace), (SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class AS c "
        "WHERE c.relnamespace = 'pg_catalog'::regnamespace AND c.relkind = 'r')"
    ).fetchone()
    assert catalog is not None
    return {
        "projects": len(bench.corpus.projects),
        "planning_p50_ms": planning,
        "planning_bar_ms": 1.0,
        "create_project_p50_ms": statistics.median(created),
        "create_project_bar_ms": 50,
        "move_project_rows": STORAGE_THRESHOLD,
        "move_project_ms": move_ms,
        "audit_p50_s": statistics.median(audits),
        "audit_bar_s": 2.0,
        "audit_errors": sum(1 for f in findings if f.severity == "error"),
        "catalog_relations": int(catalog[0]),
        "catalog_partition_relations": int(catalog[1]),
        "catalog_bytes": int(catalog[2]),
    }


def _search_into(hits: list[Any], s: ScopedSession, term: str) -> None:
    hits.append(s.search_text(term, limit=10))


def _record(answers: dict[str, set[str]], name: str, way: Callable[[], set[str]]) -> None:
    answers[name] = way()


def _vector_ways(
    bench: Bench, s: ScopedSession, q: list[float], allowed: list[int], ef: int
) -> dict[str, Callable[[], set[str]]]:
    """scopedb's path and what a shared index gives, for one query vector (the baselines run as the owner)."""
    literal = vector_literal(q)

    def scopedb_way() -> set[str]:
        return {h.fragment.id + h.fragment.project_name for h in s.search_vector(q, limit=10)}

    def unfiltered() -> set[str]:  # the bar's baseline: one index over every row, nothing filtered
        bench.owner.execute(sql.SQL("SET hnsw.ef_search = {}; SET hnsw.iterative_scan = off").format(ef))
        return _ids(bench, bench.owner.execute(_KNN_SHARED, {"q": literal, "k": 10}).fetchall())

    def filtered() -> set[str]:  # a vector store's metadata filter: the shared index, iterative scan, WHERE
        bench.owner.execute(sql.SQL("SET hnsw.ef_search = {}; SET hnsw.iterative_scan = relaxed_order").format(ef))
        return _ids(bench, bench.owner.execute(_KNN_FILTERED, {"q": literal, "allowed": allowed}).fetchall())

    def postfilter() -> set[str]:  # fetch k*10 = 100 from the shared index, keep the allowed ones in the application
        bench.owner.execute("SET hnsw.ef_search = 100; SET hnsw.iterative_scan = off")
        got = bench.owner.execute(_KNN_SHARED, {"q": literal, "k": 100}).fetchall()
        keep = set(allowed)
        return _ids(bench, [r for r in got if r[0] in keep][:10])

    return {"scopedb": scopedb_way, "unfiltered_hnsw": unfiltered, "filtered_hnsw": filtered,
            "post_filter": postfilter}  # fmt: skip


_KNN_SHARED = "SELECT project_id, id FROM bench_baseline.vectors ORDER BY embedding <=> %(q)s::vector LIMIT %(k)s"
_KNN_FILTERED = """SELECT project_id, id FROM (
    SELECT project_id, id, embedding <=> %(q)s::vector AS d FROM bench_baseline.vectors
     WHERE project_id = ANY (%(allowed)s) ORDER BY embedding <=> %(q)s::vector LIMIT 10) AS v ORDER BY d"""


def _ids(bench: Bench, rows: list[Any]) -> set[str]:
    names = {pid: name for name, pid in bench.project_ids.items()}
    return {row[1] + names[row[0]] for row in rows}


def _owner_rows(bench: Bench, statement: LiteralString, params: dict[str, Any]) -> list[Any]:
    return bench.owner.execute(statement, params).fetchall()


def graph(bench: Bench, repeat: int, budget_ms: float = 0.0) -> dict[str, Any]:
    """2-hop and 4-hop neighbourhoods and a shortest path under RLS vs the same SQL run by the owner without RLS."""
    rng = random.Random(7)
    walk = sqlfiles.query("retrieval", "graph_walk")
    path = sqlfiles.query("retrieval", "graph_shortest_path")
    rows = []
    for fraction in FRACTIONS:
        projects = scope_for_fraction(bench.corpus, fraction)
        project = projects[0]
        start = f"n0_{rng.randint(0, 39)}"
        params = {"projects": bench.ids(projects), "start": [start], "relations": None}
        with bench.db.scoped(bench.scope(projects)) as s:
            visible_nodes = s.execute("SELECT count(*) FROM scopedb.graph_nodes").scalar()
            for label, depth in (("2-hop", 2), ("4-hop", 4)):
                timings = interleaved(
                    {
                        "rls": functools.partial(s.execute, walk, {**params, "depth": depth}),
                        "owner": functools.partial(_owner_rows, bench, walk, {**params, "depth": depth}),
                    },
                    repeat,
                    budget_ms=budget_ms,
                )
                rows.append({"fraction": fraction, "query": label, "visible_nodes": visible_nodes,
                             "rls_p50_ms": timings["rls"].p50, "owner_p50_ms": timings["owner"].p50,
                             "ratio_p50": timings["rls"].p50 / timings["owner"].p50,
                             "rounds": len(timings["rls"].samples)})  # fmt: skip
            sp = {"projects": bench.ids([project]), "source": start, "target": "n0_39", "max_depth": 6,
                  "relations": None}  # fmt: skip
            timings = interleaved(
                {
                    "rls": functools.partial(s.execute, path, sp),
                    "owner": functools.partial(_owner_rows, bench, path, sp),
                },
                repeat,
                budget_ms=budget_ms,
            )
            rows.append({"fraction": fraction, "query": "shortest path", "visible_nodes": visible_nodes,
                         "rls_p50_ms": timings["rls"].p50, "owner_p50_ms": timings["owner"].p50,
                         "ratio_p50": timings["rls"].p50 / timings["owner"].p50,
                         "rounds": len(timings["rls"].samples)})  # fmt: skip
    return {"rows": rows, "bar": "ratio_p50 <= 1.3", "worst_ratio": max(r["ratio_p50"] for r in rows)}


MANY_SCOPES = 3_000  # new scopes entered on one connection before the new-scope entry is measured again


def entry(bench: Bench, repeat: int, seconds: float = 5.0, workers: int = 4) -> dict[str, Any]:
    """Entering a signed scope, and scoped vs unscoped point lookups over a pool."""
    project = bench.corpus.projects[-1]
    scope = bench.scope([project])
    pid = bench.project_ids[project]
    lookup = "SELECT content FROM scopedb.fragments WHERE project_id = %s AND id = 'f7'"
    pool = bench.db._pool()
    with pool.connection() as conn:
        # A scoped transaction ends, usually with COMMIT; with it the memo of verified tokens keeps what the entry
        # verified (sql/03_functions.sql), as it does for a service. Ending with ROLLBACK undoes the memo's write
        # too, so every entry pays it again: both are measured, and the bar reads the COMMIT ones.
        def enter(end: str) -> None:  # signed by the client, resolved by the database (the first entry of a scope)
            enter_token(conn, bench.db.sign(scope), scope_entry="function")
            conn.execute(end)

        def enter_again(end: str) -> None:  # the scope's resolved token kept from an earlier entry (scopedb.resolved)
            bench.db._enter(conn, scope, actor=None)
            conn.execute(end)

        # A scope entered for the first time over projects the process has seen before (a new actor each time:
        # a service's common case, a new user or agent over known projects): resolved where it is signed
        # (ScopeState.kept_or_signed), verified and checked against the projects' names by the database.
        actors = itertools.count()

        def enter_new(end: str) -> None:
            bench.db._enter(conn, scope, actor=f"bench-actor-{next(actors)}")
            conn.execute(end)

        timings = interleaved(
            {
                "enter+commit": functools.partial(enter, "COMMIT"),
                "again+commit": functools.partial(enter_again, "COMMIT"),
                "new+commit": functools.partial(enter_new, "COMMIT"),
                "enter+rollback": functools.partial(enter, "ROLLBACK"),
                "again+rollback": functools.partial(enter_again, "ROLLBACK"),
                "new+rollback": functools.partial(enter_new, "ROLLBACK"),
                "round_trip": lambda: conn.execute("SELECT 1"),
            },
            repeat,
        )
        # The last round trip opened a transaction, and the raw COMMITs above did not mark the connection clean:
        # end it as scopedb does (here, and after the next measure), so the pool takes it back.
        lifecycle.end(conn, "ROLLBACK")
        # A service's connection meets scope after scope. Each new one is remembered in the session's memo of
        # verified tokens, a temporary table no vacuum reaches: the same new-scope entry, measured again after
        # MANY_SCOPES more on this connection, shows whether the memo's upkeep grows with them (until revision 0026
        # its size grew without end; its time, at medium size, did not measurably).
        for _ in range(MANY_SCOPES):
            enter_new("COMMIT")
        late = interleaved(
            {"new+commit": functools.partial(enter_new, "COMMIT"), "round_trip": lambda: conn.execute("SELECT 1")},
            repeat,
        )
        lifecycle.end(conn, "ROLLBACK")
    enter_ms = timings["enter+commit"].p50 - timings["round_trip"].p50
    enter_new_late_ms = late["new+commit"].p50 - late["round_trip"].p50
    enter_again_ms = timings["again+commit"].p50 - timings["round_trip"].p50
    enter_new_ms = timings["new+commit"].p50 - timings["round_trip"].p50
    rolled_back = {name: timings[f"{name}+rollback"].p50 - timings["round_trip"].p50
                   for name in ("enter", "again", "new")}  # fmt: skip

    def throughput(task: Any) -> float:
        done = [0] * workers
        stop = time.perf_counter() + seconds

        def run(i: int) -> None:
            while time.perf_counter() < stop:
                task()
                done[i] += 1

        threads = [threading.Thread(target=run, args=(i,)) for i in range(workers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return sum(done) / seconds

    from psycopg_pool import ConnectionPool

    owner_pool: ConnectionPool[Any] = ConnectionPool(bench.db.dsn, min_size=workers, max_size=workers, open=True)

    def unscoped() -> None:
        with owner_pool.connection() as c:
            c.execute(lookup, (pid,)).fetchall()

    def scoped() -> None:
        with bench.db.scoped(scope) as s:
            s.execute(lookup, (pid,))

    def run() -> None:  # the one-round-trip request (db.run)
        bench.db.run(scope, lookup, (pid,))

    def in_scope() -> None:
        s_lookup.execute(lookup, (pid,))

    unscoped_tps = throughput(unscoped)
    scoped_tps = throughput(scoped)
    run_tps = throughput(run)
    owner_pool.close()
    with bench.db.scoped(scope) as s_lookup:
        statement = interleaved({"lookup": in_scope}, repeat)
    return {
        "enter_ms": enter_ms,
        "enter_again_ms": enter_again_ms,
        "enter_rolled_back_ms": rolled_back["enter"],
        "enter_again_rolled_back_ms": rolled_back["again"],
        "enter_new_scope_ms": enter_new_ms,
        "enter_new_scope_rolled_back_ms": rolled_back["new"],
        "enter_new_scope_after_many_ms": enter_new_late_ms,
        "many_scopes": MANY_SCOPES,
        "enter_bar_ms": 0.3,
        "round_trip_ms": timings["round_trip"].p50,
        "scoped_lookup_tps": scoped_tps,
        "run_lookup_tps": run_tps,
        "unscoped_lookup_tps": unscoped_tps,
        "throughput_ratio": run_tps / unscoped_tps,
        "block_throughput_ratio": scoped_tps / unscoped_tps,
        "throughput_bar": 0.8,
        "lookup_in_entered_scope_ms": statement["lookup"].p50,
    }


def ingest(bench: Bench, rows: int = 5_000) -> dict[str, Any]:
    """Fragments per second through the bulk path: the initial load (then index build), and into indexed tables."""
    project = bench.corpus.projects[0]
    vectors = bench.corpus.query_vectors(rows, seed=1)
    fragments = [Fragment(project=project, id=f"ingest{i}", content=f"ingest benchmark row {i}", embedding=v)
                 for i, v in enumerate(vectors)]  # fmt: skip
    started = time.perf_counter()
    with bench.db.scoped(bench.scope([project])) as s:
        s.ingest_fragments(fragments, batch_size=1_000)
    indexed = rows / (time.perf_counter() - started)
    total = bench.corpus.n
    return {
        "bulk_load_rows": total,
        "bulk_load_seconds": bench.load_seconds,
        "index_build_seconds": bench.index_seconds,
        "bulk_load_rows_per_s": total / (bench.load_seconds + bench.index_seconds),
        "bulk_load_only_rows_per_s": total / bench.load_seconds,
        # The search groups of the measured scopes, declared and built after the projects' own indexes.
        "search_groups": len(bench.groups),
        "search_group_rows": sum(bench.corpus.project_sizes[p] for g in bench.groups.values() for p in g),
        "group_build_seconds": bench.group_seconds,
        "with_groups_rows_per_s": total / (bench.load_seconds + bench.index_seconds + bench.group_seconds),
        "indexed_table_rows_per_s": indexed,
        "bar_rows_per_s": 2_500,
    }
