"""Everything tenant A can observe, run the same way in each world.

Each observation is a name and a value: the result of a public API call (results in order, scores exact), of a
SQL statement A runs as ``scopedb_app`` inside its legitimate scope (rows in order, or the error's type), under
each of several settings profiles A may set for itself (planner switches, pgvector's and GIN's search settings,
memory, JIT), plus plan shapes, EXPLAIN ANALYZE output, sizes, statistics counters and settings. Every statement
runs in a savepoint that is rolled back, so writes A is allowed are observed (their outcome) without changing
what the next observation sees.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

import psycopg

from scopedb import Database, ResourceScope, ScopedbError
from scopedb.aliases import DatabaseResourceRegistry
from scopedb.notes import NoteStore
from scopedb.session import ScopedSession
from scopedb.tiers import ContextTierService
from tests.noninterference.worlds import (
    A_ONLY,
    A_RESOURCES,
    B_RESOURCES,
    FAR,
    QUERY,
    SHARED_HEAVY,
    SHARED_RARE,
    A,
    B,
)

Value = Any
WORDS = [A_ONLY, SHARED_HEAVY, SHARED_RARE, "quarter", "memo", "canary", "revised"]
SCOPE = ResourceScope(project_names={A})


def _vec(v: Iterable[float]) -> str:
    return "[" + ",".join(repr(float(x)) for x in v) + "]"


def outcome(run: Callable[[], Value]) -> Value:
    """The value of ``run()``, or the type of the error it raised (never the message: it may carry a value)."""
    try:
        return ("ok", run())
    except ScopedbError as exc:
        return ("error", type(exc).__name__)
    except psycopg.Error as exc:
        return ("error", exc.sqlstate)
    except (TypeError, ValueError, AttributeError) as exc:
        return ("error", type(exc).__name__)


# -- The public API -------------------------------------------------------------------------------------------------


def _api(db: Database) -> dict[str, Callable[[], Value]]:
    def in_scope(call: Callable[[ScopedSession], Value], scope: ResourceScope = SCOPE) -> Callable[[], Value]:
        def run() -> Value:
            with db.scoped(scope) as s:
                s.execute("SAVEPOINT observed")
                try:
                    return call(s)
                finally:
                    s.execute("ROLLBACK TO SAVEPOINT observed")

        return run

    def graph(result: Any) -> Value:
        return (
            [(n.project_name, n.id, n.kind) for n in result.nodes],
            [(e.src, e.dst, e.relation) for e in result.edges],
        )

    def text(word: str) -> Callable[[ScopedSession], Value]:
        return lambda s: [
            (h.fragment.project_name, h.fragment.id, h.rank, h.snippet) for h in s.search_text(word, limit=25)
        ]

    def vector(v: list[float], metric: Any) -> Callable[[ScopedSession], Value]:
        return lambda s: [(h.fragment.id, h.distance) for h in s.search_vector(v, limit=10, metric=metric)]

    out: dict[str, Callable[[], Value]] = {}
    for word in WORDS:
        out[f"text.{word}"] = in_scope(text(word))
    out["text.phrase"] = in_scope(lambda s: [h.fragment.id for h in s.search_text('"report number" -filler')])
    for name, v in (("near", QUERY), ("far", FAR)):
        out[f"vector.{name}"] = in_scope(vector(v.tolist(), "cosine"))
        out[f"vector.{name}.l2"] = in_scope(vector(v.tolist(), "l2"))
    out["graph.walk"] = in_scope(lambda s: graph(s.search_graph("n0", depth=3)))
    out["graph.walk.many"] = in_scope(lambda s: graph(s.search_graph(["n1", "n5", "bn1"], depth=1)))
    out["graph.path"] = in_scope(lambda s: s.shortest_path("n0", "n9"))
    out["graph.subgraph"] = in_scope(lambda s: graph(s.subgraph(["doc"])))
    out["projects"] = in_scope(lambda s: s.projects)
    # The one-round-trip request paths (issue 19), twice each: the second call enters with the kept token.
    for attempt in ("first", "again"):
        out[f"request.text.{attempt}"] = lambda: [
            (h.fragment.project_name, h.fragment.id, h.rank, h.snippet) for h in db.search_text(SCOPE, SHARED_HEAVY)
        ]
        out[f"request.vector.{attempt}"] = lambda: [
            (h.fragment.id, h.distance) for h in db.search_vector(SCOPE, QUERY.tolist())
        ]
        out[f"request.graph.{attempt}"] = lambda: graph(db.search_graph(SCOPE, "n0", depth=3))
        out[f"run.{attempt}"] = lambda: db.run(SCOPE, "SELECT project_id, id FROM scopedb.fragments ORDER BY 1, 2").rows
    notes = NoteStore(db, A)
    out["notes.search"] = lambda: [
        (d.id, d.tags, d.content_bytes, d.snippet, d.truncated) for d in notes.search("canary", limit=25)
    ]
    out["notes.tags"] = lambda: [d.id for d in notes.search(tag_prefix="t1")]
    out["notes.fetch"] = lambda: [(n.id, n.content) for n in notes.fetch([f"mem-a{n:031x}" for n in range(3)])]
    out["notes.fetch.foreign"] = lambda: [n.id for n in notes.fetch([f"mem-b{0:031x}"])]
    tiers = ContextTierService(db, projects=[A], actor="agent")
    out["tiers.visible"] = lambda: sorted(
        (f.id, f.tier, f.content, f.token_count) for f in tiers.get_scoped_by_resource(SCOPE)
    )[:50]
    out["tiers.metrics"] = lambda: (tiers.get_scoped_metrics(A).fragments, tiers.get_scoped_metrics(A).tokens)
    out["tiers.actor"] = lambda: sorted(f.id for f in tiers.get_for_actor("agent", [A]))

    def validate(fragment_id: str) -> Callable[[], Value]:
        return lambda: tiers.validate_fragment_scope(fragment_id, SCOPE)

    def aliases(alias: str) -> Callable[[ScopedSession], Value]:
        return lambda s: sorted(DatabaseResourceRegistry(s).resolve_resource_scope([A], include=[alias]).resource_ids)

    for fid in ("a-tier0", "b-tier0", "nowhere"):
        out[f"tiers.validate.{fid}"] = validate(fid)
    for alias in ("repo", "docs", "nosuch"):
        out[f"aliases.{alias}"] = in_scope(aliases(alias))
    out["aliases.db"] = lambda: sorted(db.resolve_resource_scope([A], include=["repo"]).resource_ids)
    narrowed = ResourceScope(project_names={A}, include_paths={"src/m1/**"}, exclude_names={"**::f8"})
    out["narrowed.fragments"] = in_scope(
        lambda s: [r[0] for r in s.execute("SELECT id FROM scopedb.fragments ORDER BY id")], narrowed
    )
    out["narrowed.text"] = in_scope(lambda s: [h.fragment.id for h in s.search_text(SHARED_HEAVY, limit=50)], narrowed)
    for name, call in _writes().items():
        out[f"write.{name}"] = in_scope(call)
    return out


def _writes() -> dict[str, Callable[[ScopedSession], Value]]:
    """Writes A may attempt; each is rolled back (a savepoint) after its outcome is observed."""
    from scopedb import Fragment

    def delete(name: str, *args: Any) -> Callable[[ScopedSession], Value]:
        return lambda s: getattr(s, name)(*args)

    return {
        "insert.own": lambda s: s.add_fragment(Fragment(project=A, id="a-new", content="new")),
        "insert.key_of_b": lambda s: s.add_fragment(Fragment(project=A, id="b1", content="same key as B")),
        "insert.existing": lambda s: s.add_fragment(Fragment(project=A, id="a1", content="dup")),
        "insert.into_b": lambda s: s.execute(
            "INSERT INTO scopedb.fragments (project_id, id, content) "
            "SELECT id, 'x', 'x' FROM scopedb.projects WHERE name = %s",
            (B,),
        ),
        "update.own": lambda s: s.execute("UPDATE scopedb.fragments SET tier = 'hot' WHERE id LIKE 'a1%%'").rowcount,
        "update.alias": lambda s: (
            s.execute("UPDATE scopedb.resources SET alias = 'repo' WHERE id = %s", (A_RESOURCES["docs"],)).rowcount
        ),
        "delete.fragments": delete("delete_fragments", A, ["a1", "a2", "b1", "nowhere"]),
        "delete.resource": delete("delete_resources", A, [A_RESOURCES["docs"], B_RESOURCES["docs"]]),
        "delete.nodes": delete("delete_graph_nodes", A, ["n1", "bn1"]),
        "ingest.graph": lambda s: s.ingest_graph([], []),
        "sql.delete": lambda s: s.execute("DELETE FROM scopedb.fragments WHERE id = 'a3'").rowcount,
        "sql.upsert": lambda s: (
            s.execute(
                "INSERT INTO scopedb.fragments (project_id, id, content) SELECT p.id, 'a4', 'upserted' "
                "FROM scopedb.projects AS p WHERE p.name = %s ON CONFLICT (project_id, id) DO UPDATE SET content = "
                "EXCLUDED.content RETURNING id",
                (A,),
            ).rows
        ),
        "lock.tiers.b": lambda s: s.execute("SELECT scopedb.lock_project_tiers(id) FROM scopedb.projects").rows,
        # The service's protected table: a new ticket, one with B's key, one named into B, and changes to all.
        "tickets.insert": lambda s: (
            s.execute("INSERT INTO support.tickets (id, title) VALUES ('new', 'new') RETURNING project_id, id").rows
        ),
        "tickets.insert_key_of_b": lambda s: (
            s.execute("INSERT INTO support.tickets (id, title) VALUES ('bt1', 'same key as B') RETURNING id").rows
        ),
        "tickets.insert_into_b": lambda s: s.execute(
            "INSERT INTO support.tickets (project_id, id, title) SELECT id, 'x', 'x' FROM scopedb.projects "
            "WHERE name = %s",
            (B,),
        ),
        "tickets.update_all": lambda s: s.execute("UPDATE support.tickets SET status = 'closed'").rowcount,
        "tickets.upsert_b_key": lambda s: (
            s.execute(
                "INSERT INTO support.tickets (id, title) VALUES ('bt2', 'u') ON CONFLICT (project_id, id) "
                "DO UPDATE SET title = 'u' RETURNING id"
            ).rows
        ),
    }


# -- SQL as scopedb_app, under settings A may choose --------------------------------------------------------------

PROFILES: dict[str, list[str]] = {
    "default": [],
    "no_seqscan": ["SET LOCAL enable_seqscan = off"],
    "no_index": ["SET LOCAL enable_indexscan = off", "SET LOCAL enable_bitmapscan = off"],
    "hnsw_small": [
        "SET LOCAL enable_seqscan = off",
        "SET LOCAL enable_bitmapscan = off",
        "SET LOCAL enable_sort = off",
        "SET LOCAL hnsw.iterative_scan = off",
        "SET LOCAL hnsw.ef_search = 10",
    ],
    "gin_fuzzy": ["SET LOCAL enable_seqscan = off", "SET LOCAL gin_fuzzy_search_limit = 20"],
    "memory_jit": ["SET LOCAL work_mem = '64kB'", "SET LOCAL jit = on", "SET LOCAL jit_above_cost = 0"],
}

TABLES: dict[str, str] = {
    "projects": "SELECT id, name FROM scopedb.projects ORDER BY 1",
    "resources": "SELECT project_id, id, alias, kind FROM scopedb.resources ORDER BY 1, 2",
    "resource_links": "SELECT project_id, parent_id, child_id FROM scopedb.resource_links ORDER BY 1, 2, 3",
    "fragments": "SELECT project_id, id, resource_id, path, fqn, content, tier, token_count, valid_from, valid_to, "
    "created_by, embedding IS NULL FROM scopedb.fragments ORDER BY 1, 2",
    "graph_nodes": "SELECT project_id, id, resource_id, kind, label, path FROM scopedb.graph_nodes ORDER BY 1, 2",
    "graph_edges": "SELECT project_id, src, relation, dst, weight FROM scopedb.graph_edges ORDER BY 1, 2, 3, 4",
    "notes": "SELECT project_id, id, tags, sensitivity, retention_days, created_at FROM scopedb.notes ORDER BY 1, 2",
    "service_tickets": "SELECT project_id, id, title, status FROM support.tickets ORDER BY 1, 2",
    "note_tombstones": "SELECT count(*) FROM scopedb.note_tombstones",
}


def _sql_corpus() -> dict[str, tuple[str, tuple[Any, ...]]]:
    q = _vec(QUERY)
    corpus: dict[str, tuple[str, tuple[Any, ...]]] = {f"table.{t}": (query, ()) for t, query in TABLES.items()}
    corpus |= {
        "count.fragments": ("SELECT count(*) FROM scopedb.fragments", ()),
        "count.where_b_key": ("SELECT count(*) FROM scopedb.fragments WHERE id = 'b7'", ()),
        "count.tickets_where_b": ("SELECT count(*) FROM support.tickets WHERE title LIKE 'b%%'", ()),
        "count.where_b_path": ("SELECT count(*) FROM scopedb.fragments WHERE path LIKE 'lib/%%'", ()),
        "exists.b_node": ("SELECT EXISTS (SELECT FROM scopedb.graph_nodes WHERE id = 'bn3')", ()),
        "join.nodes_edges": (
            "SELECT n.id, count(e.dst) FROM scopedb.graph_nodes AS n LEFT JOIN scopedb.graph_edges "
            "AS e ON e.project_id = n.project_id AND e.src = n.id GROUP BY 1 ORDER BY 1",
            (),
        ),
        "nearest.exact": (
            f"SELECT id FROM (SELECT id, embedding <=> '{q}' AS d FROM scopedb.fragments "
            "WHERE embedding IS NOT NULL OFFSET 0) AS x ORDER BY d, id LIMIT 10",
            (),
        ),
        "hnsw_probe.count": (
            f"SELECT count(*) FROM (SELECT id FROM scopedb.fragments ORDER BY embedding <=> '{q}' LIMIT 10) AS x",
            (),
        ),
        "hnsw_probe.ids": (f"SELECT id FROM scopedb.fragments ORDER BY embedding <=> '{q}' LIMIT 10", ()),
        # The same probe pruned to both projects' partitions by name (A may name B's id), and through scopedb's
        # own search function with A's choice of ef_search and scan bound.
        "hnsw_probe.both": (
            f"SELECT id FROM scopedb.fragments WHERE project_id = ANY (ARRAY[1, 2, 3]::bigint[]) "
            f"ORDER BY embedding <=> '{q}' LIMIT 10",
            (),
        ),
        "fn.nearest_fragments": (
            f"SELECT id FROM scopedb.nearest_fragments('{q}', 10, ARRAY[1, 2, 3]::bigint[], 'cosine', false, 1, 1) "
            "ORDER BY distance, id",
            (),
        ),
        "fts.direct": (
            "SELECT id FROM scopedb.fragments WHERE tsv @@ to_tsquery('english', %s) ORDER BY id",
            (SHARED_HEAVY,),
        ),
        "fn.scope_project_ids": ("SELECT scopedb.scope_project_ids()", ()),
        "fn.scope_resource_filter": ("SELECT scopedb.scope_resource_filter()", ()),
        "fn.search_notes": ("SELECT id, content_bytes, snippet FROM scopedb.search_notes(NULL, NULL, 25, 40)", ()),
        "fn.fetch_notes.foreign": (
            "SELECT id FROM scopedb.fetch_notes(ARRAY['mem-b0000000000000000000000000000000'])",
            (),
        ),
        "fn.role_hazards": ("SELECT scopedb.role_hazards(session_user)", ()),
        "fn.patterns_admit": ("SELECT scopedb.patterns_admit('src/a.py', ARRAY['src/[^/]*'], NULL)", ()),
        "fn.delete_b": ("SELECT scopedb.delete_fragments(p.id, ARRAY['b1', 'b2']) FROM scopedb.projects AS p", ()),
    }
    for word in WORDS:
        corpus[f"fn.text_candidates.{word}"] = (
            "SELECT project_id, id, rank FROM scopedb.text_candidates(to_tsquery('english', %s), 1000)",
            (word,),
        )
        corpus[f"fn.explain_text_candidates.{word}"] = (
            "SELECT scopedb.explain_text_candidates(to_tsquery('english', %s), 1000)",
            (word,),
        )
    corpus["unordered.fragments"] = ("SELECT id FROM scopedb.fragments WHERE id LIKE 'a1%%'", ())
    corpus["unordered.nodes"] = ("SELECT id FROM scopedb.graph_nodes", ())
    return corpus


EXPLAINED = [
    "table.fragments",
    "count.where_b_key",
    "join.nodes_edges",
    "fts.direct",
    "hnsw_probe.ids",
    "hnsw_probe.both",
    "nearest.exact",
]


def _digits(text: str) -> str:
    return re.sub(r"\d+(\.\d+)?", "#", text)


def _statement(s: ScopedSession, query: str, params: tuple[Any, ...]) -> Value:
    s.execute("SAVEPOINT observed")
    try:
        result = outcome(lambda: s.execute(query, params or None).rows)
    finally:
        s.execute("ROLLBACK TO SAVEPOINT observed")
    return result


def observe(db: Database, *, profiles: Iterable[str] = PROFILES) -> dict[str, Value]:
    """Every observation of A's, by name."""
    seen: dict[str, Value] = {}
    for name, run in _api(db).items():
        seen[f"api.{name}"] = outcome(run)
    corpus = _sql_corpus()
    for profile in profiles:
        with db.scoped(SCOPE) as s:
            for setting in PROFILES[profile]:
                s.execute(setting)
            for name, (query, params) in corpus.items():
                seen[f"sql.{profile}.{name}"] = _statement(s, query, params)
            for name in EXPLAINED:
                query, params = corpus[name]
                plan = _statement(s, f"EXPLAIN (COSTS OFF) {query}", params)
                seen[f"explain.{profile}.{name}"] = plan
                analyzed = _statement(s, f"EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) {query}", params)
                seen[f"analyze.{profile}.{name}"] = (
                    analyzed[0],
                    [_digits(r[0]) for r in analyzed[1]] if analyzed[0] == "ok" else analyzed[1],
                )
    with db.scoped(SCOPE) as s:
        seen["settings"] = _statement(
            s, "SELECT name, setting FROM pg_settings WHERE name NOT IN ('application_name') ORDER BY 1", ()
        )
        seen["catalog.sizes"] = _statement(
            s,
            "SELECT c.relname, c.reltuples, c.relpages, pg_relation_size(c.oid) "
            "FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace "
            "WHERE n.nspname IN ('scopedb', 'scopedb_parts') ORDER BY 1",
            (),
        )
        seen["catalog.stats"] = _statement(
            s,
            "SELECT relname, n_live_tup, n_dead_tup, n_tup_ins, n_tup_del "
            "FROM pg_stat_user_tables WHERE schemaname IN ('scopedb', 'scopedb_parts') ORDER BY 1",
            (),
        )
        seen["catalog.pg_stats"] = _statement(s, "SELECT count(*) FROM pg_stats WHERE schemaname LIKE 'scopedb%%'", ())
    return seen
