"""The PostgreSQL backends: full text, vector and graph search as scopedb_app, under the entered scope.

Every function takes a :class:`~scopedb.session.ScopedSession`; the scope was entered when it began, and RLS
filters every row these statements touch. The statements also repeat the scope's project ids as a bound array, so
the planner can use partial indexes and partition pruning. The backend classes adapt the same functions to the
:class:`~scopedb.backends.base.TextBackend` (etc.) protocols: each call enters the view's scope in a transaction
of its own, so :class:`~scopedb.view.ScopedBackendView` and :class:`~scopedb.view.ScopedBackendSet` work over
PostgreSQL exactly as over the in-memory backends.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from psycopg import sql

from scopedb import sqlfiles, steps
from scopedb.backends.base import (
    FragmentRecord,
    GraphEdge,
    GraphNode,
    GraphResult,
    TextHit,
    VectorHit,
    edge_order,
    node_order,
)
from scopedb.errors import InvalidArgumentError, ScopedbError
from scopedb.ingest import vector_literal
from scopedb.steps import SessionState, Statement, Steps

if TYPE_CHECKING:
    from scopedb.database import Database
    from scopedb.session import ScopedSession
    from scopedb.view import ScopedBackendView

Metric = Literal["cosine", "l2", "inner_product"]
_OPERATORS: dict[str, str] = {"cosine": "<=>", "l2": "<->", "inner_product": "<#>"}
MAX_ROWS = 10_000
MAX_DEPTH = 16


@dataclass(frozen=True)
class VectorStrategy:
    """How vector search is run: exactly over the visible rows up to ``exact_threshold`` of them, through the HNSW
    index with iterative scan above it. ``ef_search`` grows with k; ``max_scan_tuples`` bounds the iterative scan,
    after which a short answer falls back to the exact scan, so a search always returns min(k, visible) rows."""

    exact_threshold: int = 5_000
    min_ef_search: int = 100
    ef_search_per_k: int = 4
    max_scan_tuples: int = 200_000


def _check_limit(limit: int, offset: int = 0) -> None:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 0 <= limit <= MAX_ROWS:
        raise InvalidArgumentError(f"limit must be an integer from 0 to {MAX_ROWS}")
    if isinstance(offset, bool) or not isinstance(offset, int) or not 0 <= offset <= MAX_ROWS:
        raise InvalidArgumentError(f"offset must be an integer from 0 to {MAX_ROWS}")


def _names(state: SessionState) -> Steps[dict[int, str]]:
    projects = yield from steps.project_names(state)
    return {pid: name for name, pid in projects.items()}


def _fragment(names: dict[int, str], row: Sequence[Any]) -> FragmentRecord:
    project_id, fragment_id, resource_id, path, fqn, content = row[:6]
    return FragmentRecord(
        id=fragment_id,
        project_name=names.get(project_id, ""),
        content=content,
        resource_id=resource_id,
        path=path,
        fqn=fqn,
    )


# Text ------------------------------------------------------------------------------------------------------------


def search_text(
    session: ScopedSession,
    query: str,
    *,
    limit: int = 10,
    offset: int = 0,
    config: str = "english",
    headline: str = "MaxFragments=2, MaxWords=20, MinWords=5",
) -> list[TextHit]:
    """Ranked full-text search (``websearch_to_tsquery`` syntax: words, "phrases", or, -not) with snippets.

    ``config`` is the text-search configuration used to parse the query and build snippets; the stored index is
    built with ``english``.
    """
    return session._run(search_text_steps(session, query, limit=limit, offset=offset, config=config,
                                          headline=headline))  # fmt: skip


def search_text_steps(
    state: SessionState,
    query: str,
    *,
    limit: int = 10,
    offset: int = 0,
    config: str = "english",
    headline: str = "MaxFragments=2, MaxWords=20, MinWords=5",
) -> Steps[list[TextHit]]:
    """:func:`search_text` as steps (for the sync and the async session)."""
    _check_limit(limit, offset)
    if not isinstance(query, str):
        raise InvalidArgumentError("the text query must be a string")
    if "\x00" in query:
        raise InvalidArgumentError("the text query contains a NUL character")
    params = {
        "query": query,
        "config": config,
        "headline": headline,
        "limit": limit,
        "offset": offset,
        "max_rows": limit + offset,
    }
    try:
        result = yield from steps.run(Statement(sqlfiles.query("retrieval", "search_text"), params))
    except ScopedbError as exc:
        if "42704" in str(exc):
            raise InvalidArgumentError(f"unknown text-search configuration {config!r}") from exc
        raise
    names = yield from _names(state)
    return [TextHit(fragment=_fragment(names, row), rank=float(row[6]), snippet=row[7]) for row in result.rows]


# Vector ----------------------------------------------------------------------------------------------------------


def count_embedded(session: ScopedSession, *, cap: int) -> int:
    """How many fragments with an embedding the scope sees, counted up to ``cap``."""
    return session._run(_count_embedded(session, cap))


def _count_embedded(state: SessionState, cap: int) -> Steps[int]:
    statement = Statement(sqlfiles.query("retrieval", "count_embedded"), {"projects": list(state.project_ids),
                                                                          "cap": cap})  # fmt: skip
    result = yield from steps.run(statement)
    return int(result.scalar())


class VisibleCounts:
    """Recent answers of :func:`count_embedded` per scope, shared by a Database's sessions for ``ttl`` seconds.

    Counting costs a policy check per visible row (20 ms for 5,000 rows at 100k fragments), far more than the
    search it steers. A stale count cannot change a result, only which path runs first: a search that takes the
    index and comes back short falls back to the exact scan, and the exact scan is always complete.
    """

    def __init__(self, ttl: float = 30.0, size: int = 4096) -> None:
        self.ttl = ttl
        self.size = size
        self._lock = threading.Lock()
        self._entries: dict[str, tuple[float, int]] = {}

    def get(self, key: str) -> int | None:
        with self._lock:
            entry = self._entries.get(key)
        if entry is None or time.monotonic() - entry[0] > self.ttl:
            return None
        return entry[1]

    def put(self, key: str, count: int) -> None:
        with self._lock:
            if len(self._entries) >= self.size:
                self._entries.clear()  # a crude bound; the entries are cheap to recompute
            self._entries[key] = (time.monotonic(), count)


def _visible_embedded(state: SessionState, cap: int) -> Steps[int]:
    """:func:`count_embedded`, answered from the Database's :class:`VisibleCounts` when it is fresh."""
    memo, key = state._visible_counts, f"{state._scope_key}|{cap}"
    if memo is not None and state._scope_key:
        cached = memo.get(key)
        if cached is not None:
            return cached
    count = yield from _count_embedded(state, cap)
    if memo is not None and state._scope_key:
        memo.put(key, count)
    return count


def search_vector(
    session: ScopedSession,
    embedding: Sequence[float],
    *,
    limit: int = 10,
    metric: Metric = "cosine",
    strategy: VectorStrategy | None = None,
) -> list[VectorHit]:
    """Nearest fragments by ``metric``; always min(limit, visible) rows (see :class:`VectorStrategy`).

    Returns the hits and leaves which path was taken in ``session.last_vector_strategy`` ("exact" or "hnsw").
    """
    return session._run(search_vector_steps(session, embedding, limit=limit, metric=metric, strategy=strategy))


def search_vector_steps(
    state: SessionState,
    embedding: Sequence[float],
    *,
    limit: int = 10,
    metric: Metric = "cosine",
    strategy: VectorStrategy | None = None,
) -> Steps[list[VectorHit]]:
    """:func:`search_vector` as steps."""
    _check_limit(limit)
    if not isinstance(metric, str) or metric not in _OPERATORS:
        raise InvalidArgumentError("metric must be 'cosine', 'l2' or 'inner_product'")
    plan = strategy or VectorStrategy()
    if embedding is None:
        raise InvalidArgumentError("search_vector needs an embedding")
    dimension = yield from steps.embedding_dimension(state)
    literal = vector_literal(embedding, dimension)
    if metric == "cosine" and not any(embedding):
        raise InvalidArgumentError("a zero vector has no direction: its cosine distance to anything is undefined")
    if limit == 0:
        return []
    params = {"embedding": literal, "projects": list(state.project_ids), "limit": limit}
    visible = yield from _visible_embedded(state, plan.exact_threshold + 1)
    rows: list[tuple[Any, ...]] = []
    state.last_vector_strategy = None
    if metric == "cosine" and visible > plan.exact_threshold:
        state.last_vector_strategy = "hnsw"
        ef_search = max(plan.min_ef_search, plan.ef_search_per_k * limit)
        # Under RLS the planner cannot estimate how many rows the scope keeps, and on its own it prefers an exact
        # sort of every visible row over the index; this path exists to take the index, so steer it there.
        yield from steps.run(Statement(
            sql.SQL(
                "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true),"
                " set_config('hnsw.ef_search', {}, true), set_config('hnsw.max_scan_tuples', {}, true),"
                " set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true),"
                " set_config('enable_sort', 'off', true)"
            ).format(sql.Literal(str(ef_search)), sql.Literal(str(plan.max_scan_tuples)))
        ))  # fmt: skip
        result = yield from steps.run(Statement(sqlfiles.query("retrieval", "vector_hnsw"), params))
        rows = result.rows
        yield from steps.run(Statement(
            "RESET hnsw.iterative_scan; RESET hnsw.ef_search; RESET hnsw.max_scan_tuples; RESET enable_seqscan; "
            "RESET enable_bitmapscan; RESET enable_sort"
        ))  # fmt: skip
    # The count is capped (and may be a few seconds old), so an index answer short of `limit` cannot be told from
    # a scope with fewer rows: either way the exact scan gives the complete answer.
    if state.last_vector_strategy != "hnsw" or len(rows) < limit:
        state.last_vector_strategy = "exact"
        statement = sql.SQL(sqlfiles.query("retrieval", "vector_exact")).format(operator=sql.SQL(_OPERATORS[metric]))
        result = yield from steps.run(Statement(statement, params))
        rows = result.rows
    names = yield from _names(state)
    return [VectorHit(fragment=_fragment(names, row), distance=float(row[6])) for row in rows]


# Graph -----------------------------------------------------------------------------------------------------------


def _check_depth(depth: int) -> None:
    if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= MAX_DEPTH:
        raise InvalidArgumentError(f"depth must be an integer from 0 to {MAX_DEPTH}")


def _names_list(values: object, what: str) -> list[str]:
    """A list of strings from a list/tuple/set of strings; anything else is an InvalidArgumentError."""
    if isinstance(values, str) or not isinstance(values, Sequence | set | frozenset):
        raise InvalidArgumentError(f"{what} must be a list of strings")
    items = list(values)
    if not all(isinstance(v, str) for v in items):
        raise InvalidArgumentError(f"{what} must be a list of strings")
    return items


def _relations(relations: Sequence[str] | None) -> list[str] | None:
    if relations is None:
        return None
    if isinstance(relations, str):
        raise InvalidArgumentError("relations must be a list of relation names, not one string")
    return _names_list(relations, "relations")


def _node_id(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise InvalidArgumentError(f"{what} must be a node id (a string)")
    return value


def _nodes(state: SessionState, statement: str, params: dict[str, Any]) -> Steps[list[GraphNode]]:
    names = yield from _names(state)
    result = yield from steps.run(Statement(sqlfiles.query("retrieval", statement), params))
    return [
        GraphNode(id=node_id, project_name=names.get(pid, ""), kind=kind, resource_id=rid, label=label)
        for pid, node_id, kind, rid, label, _path, _fqn in result.rows
    ]


def search_graph(
    session: ScopedSession,
    start: str | Sequence[str],
    *,
    depth: int = 2,
    relations: Sequence[str] | None = None,
) -> GraphResult:
    """The k-hop neighbourhood of ``start`` (one id or several), optionally following only ``relations``."""
    return session._run(search_graph_steps(session, start, depth=depth, relations=relations))


def search_graph_steps(
    state: SessionState,
    start: str | Sequence[str],
    *,
    depth: int = 2,
    relations: Sequence[str] | None = None,
) -> Steps[GraphResult]:
    """:func:`search_graph` as steps."""
    _check_depth(depth)
    starts = [start] if isinstance(start, str) else _names_list(start, "start")
    params = {
        "projects": list(state.project_ids),
        "start": starts,
        "depth": depth,
        "relations": _relations(relations),
    }
    result = yield from steps.run(Statement(sqlfiles.query("retrieval", "graph_walk"), params))
    names = yield from _names(state)
    nodes: dict[tuple[int, str], GraphNode] = {}
    edges: set[GraphEdge] = set()
    for pid, node_id, src, relation, kind, resource_id, label in result.rows:
        project = names.get(pid, "")
        nodes[(pid, node_id)] = GraphNode(node_id, project, kind=kind, resource_id=resource_id, label=label)
        if src is not None:
            edges.add(GraphEdge(src, node_id, relation, project_name=project))
    return GraphResult(nodes=tuple(sorted(nodes.values(), key=node_order)),
                       edges=tuple(sorted(edges, key=edge_order)))  # fmt: skip


def shortest_path(
    session: ScopedSession,
    source: str,
    target: str,
    *,
    max_depth: int = 6,
    relations: Sequence[str] | None = None,
) -> list[str] | None:
    """The node ids of a shortest path from ``source`` to ``target`` through visible nodes, or None."""
    return session._run(shortest_path_steps(session, source, target, max_depth=max_depth, relations=relations))


def shortest_path_steps(
    state: SessionState,
    source: str,
    target: str,
    *,
    max_depth: int = 6,
    relations: Sequence[str] | None = None,
) -> Steps[list[str] | None]:
    """:func:`shortest_path` as steps."""
    _check_depth(max_depth)
    params = {
        "projects": list(state.project_ids),
        "source": _node_id(source, "source"),
        "target": _node_id(target, "target"),
        "max_depth": max_depth,
        "relations": _relations(relations),
    }
    result = yield from steps.run(Statement(sqlfiles.query("retrieval", "graph_shortest_path"), params))
    return list(result.rows[0][1]) if result.rows else None


def subgraph(session: ScopedSession, kinds: Sequence[str]) -> GraphResult:
    """Every visible node of the given kinds, and the visible edges among them."""
    return session._run(subgraph_steps(session, kinds))


def subgraph_steps(state: SessionState, kinds: Sequence[str]) -> Steps[GraphResult]:
    """:func:`subgraph` as steps."""
    projects = list(state.project_ids)
    nodes = yield from _nodes(state, "graph_nodes_of_kinds", {"projects": projects,
                                                              "kinds": _names_list(kinds, "kinds")})  # fmt: skip
    ids_of = yield from steps.project_names(state)
    pairs = sorted({(ids_of[n.project_name], n.id) for n in nodes})
    result = yield from steps.run(Statement(sqlfiles.query("retrieval", "graph_edges_among"), {
        "projects": projects, "pids": [p for p, _ in pairs], "ids": [i for _, i in pairs],
    }))  # fmt: skip
    names = yield from _names(state)
    edges = {GraphEdge(src, dst, rel, project_name=names.get(pid, "")) for pid, src, rel, dst in result.rows}
    return GraphResult(nodes=tuple(sorted(nodes, key=node_order)), edges=tuple(sorted(edges, key=edge_order)))


# Protocol adapters -----------------------------------------------------------------------------------------------


class _PgBackend:
    def __init__(self, db: Database) -> None:
        self.db = db


class PgTextBackend(_PgBackend):
    """:class:`TextBackend` over PostgreSQL: each call enters the view's scope."""

    def search_text(self, query: str, *, view: ScopedBackendView, limit: int = 10) -> list[TextHit]:
        with self.db.scoped(view.to_resource_scope()) as session:
            return search_text(session, query, limit=limit)


class PgVectorBackend(_PgBackend):
    """:class:`VectorBackend` over PostgreSQL: each call enters the view's scope."""

    def search_vector(self, embedding: Sequence[float], *, view: ScopedBackendView, limit: int = 10) -> list[VectorHit]:
        with self.db.scoped(view.to_resource_scope()) as session:
            return search_vector(session, embedding, limit=limit)


class PgGraphBackend(_PgBackend):
    """:class:`GraphBackend` over PostgreSQL: each call enters the view's scope."""

    def search_graph(
        self,
        start: str | Sequence[str],
        *,
        view: ScopedBackendView,
        depth: int = 2,
        relations: Sequence[str] | None = None,
    ) -> GraphResult:
        with self.db.scoped(view.to_resource_scope()) as session:
            return search_graph(session, start, depth=depth, relations=relations)
