"""Full-text, vector and graph retrieval as steps (:mod:`scopedb.steps`), run by both sessions as scopedb_app.

The scope was entered when the transaction began, and RLS filters every row these statements touch. The
statements also repeat the scope's project ids as a bound array, so the planner prunes partitions (scopedb keeps a
project's rows in partitions of its own; see docs/scaling.md) — RLS still decides every row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import MISSING, dataclass, fields
from typing import Any, Literal

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
from scopedb.steps import SessionState, Statement, Steps
from scopedb.vectors import query_vector

Metric = Literal["cosine", "l2", "inner_product"]
_OPERATORS: dict[str, str] = {"cosine": "<=>", "l2": "<->", "inner_product": "<#>"}
MAX_ROWS = 10_000
MAX_DEPTH = 16


@dataclass(frozen=True)
class VectorStrategy:
    """How vector search runs (``scopedb.nearest_fragments``). By default search groups the scope reads whole
    answer when they cover its projects (one index search a group); otherwise one statement orders the scope's
    projects by distance: a project whose partition has an HNSW index (the maintenance step builds one past a
    size threshold) is read through it, with a strict iterative scan, the others exactly. ``exact=True`` scans
    every project exactly. ``ef_search`` grows with k; ``max_scan_tuples`` bounds each iterative scan, after which
    a short answer is replaced by the exact one (which the search function returns after the short one), so
    a search always returns min(k, visible) rows.

    A project's index is small, and 20 kept recall@10 at 1.00 in every project of the 1M-row bench corpus; a
    search group's index holds up to every row, as large as one shared index, and there 20 gave 0.90-1.00 from
    one build to the next of the 100,000-row medium corpus. 40 is the default: 1.3 times the cost of 20 for one
    index search. Past that, recall is the graph's, not the search's: over the whole 1M-row corpus an index built
    as a project's (m 16, ef_construction 128) stayed at 0.978 from 40 to 300, so a group's is built denser (m 24,
    ef_construction 200: 1.000 at 40)."""

    exact: bool = False
    min_ef_search: int = 40
    ef_search_per_k: int = 2
    max_scan_tuples: int = 200_000


def _check_limit(limit: int, offset: int = 0) -> None:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 0 <= limit <= MAX_ROWS:
        raise InvalidArgumentError(f"limit must be an integer from 0 to {MAX_ROWS}")
    if isinstance(offset, bool) or not isinstance(offset, int) or not 0 <= offset <= MAX_ROWS:
        raise InvalidArgumentError(f"offset must be an integer from 0 to {MAX_ROWS}")


def _names(state: SessionState) -> Steps[dict[int, str]]:
    projects = yield from steps.project_names(state)
    return {pid: name for name, pid in projects.items()}


_new = object.__new__
#: FragmentRecord's defaults, read from the class: a search's row sets the other fields.
_FRAGMENT_DEFAULTS = {f.name: f.default for f in fields(FragmentRecord) if f.default is not MISSING}


def _fragment(names: dict[int, str], row: Sequence[Any]) -> FragmentRecord:
    """The fragment of a search's row (project id, id, resource, path, name, content, ...).

    Made without the dataclass's ``__init__``, which for a frozen dataclass sets each of the nine fields through
    ``object.__setattr__``: with the hit around it, 2 µs a row, 20 µs of a ten-row search's client time, where
    filling the instance's dictionary at once costs a third of that. The instance is the one ``__init__`` makes
    (FragmentRecord has no ``__post_init__`` and no slots; tests/unit/test_hits.py compares the two, field by
    field, so a field added to the class without being added here fails there)."""
    fragment = _new(FragmentRecord)
    fragment.__dict__.update(
        _FRAGMENT_DEFAULTS,
        id=row[1], project_name=names.get(row[0], ""), content=row[5], resource_id=row[2], path=row[3], fqn=row[4],
    )  # fmt: skip
    return fragment


def _text_hit(names: dict[int, str], row: Sequence[Any]) -> TextHit:
    """A text search's hit (its row: the fragment's, then rank and snippet), made as :func:`_fragment` is."""
    hit = _new(TextHit)
    hit.__dict__.update(fragment=_fragment(names, row), rank=float(row[6]), snippet=row[7])
    return hit


def _vector_hit(names: dict[int, str], row: Sequence[Any]) -> VectorHit:
    """A vector search's hit (its row: the fragment's, then the distance), made as :func:`_fragment` is."""
    hit = _new(VectorHit)
    hit.__dict__.update(fragment=_fragment(names, row), distance=float(row[6]))
    return hit


# Text ------------------------------------------------------------------------------------------------------------


def search_text_steps(
    state: SessionState,
    query: str,
    *,
    limit: int = 10,
    offset: int = 0,
    config: str = "english",
    headline: str = "MaxFragments=2, MaxWords=20, MinWords=5",
) -> Steps[list[TextHit]]:
    """Ranked full-text search (``websearch_to_tsquery`` syntax: words, "phrases", or, -not) with snippets.

    ``config`` is the text-search configuration used to parse the query and build snippets; the stored index is
    built with ``english``.
    """
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
        if exc.sqlstate == "42704":  # undefined_object: no such text-search configuration
            raise InvalidArgumentError(f"unknown text-search configuration {config!r}") from exc
        raise
    names = yield from _names(state)
    return [_text_hit(names, row) for row in result.rows]


# Vector ----------------------------------------------------------------------------------------------------------


def search_vector_steps(
    state: SessionState,
    embedding: Sequence[float],
    *,
    limit: int = 10,
    metric: Metric = "cosine",
    strategy: VectorStrategy | None = None,
) -> Steps[list[VectorHit]]:
    """Nearest fragments by ``metric``; always min(limit, visible) rows (see :class:`VectorStrategy`).

    Leaves which statement answered in ``state.last_vector_strategy``: "index" (the projects' HNSW indexes where
    built, exact elsewhere) or "exact".
    """
    _check_limit(limit)
    if not isinstance(metric, str) or metric not in _OPERATORS:
        raise InvalidArgumentError("metric must be 'cosine', 'l2' or 'inner_product'")
    plan = strategy or VectorStrategy()
    if embedding is None:
        raise InvalidArgumentError("search_vector needs an embedding")
    dimension = yield from steps.embedding_dimension(state)
    vector = query_vector(embedding, dimension)
    if metric == "cosine" and not any(embedding):
        raise InvalidArgumentError("a zero vector has no direction: its cosine distance to anything is undefined")
    if limit == 0:
        return []
    params = {
        "embedding": vector,
        "limit": limit,
        "projects": list(state.project_ids),
        "metric": metric,
        "exact": plan.exact,
        "ef_search": max(plan.min_ef_search, plan.ef_search_per_k * limit),
        "max_scan_tuples": plan.max_scan_tuples,
    }
    result = yield from steps.run(Statement(sqlfiles.query("retrieval", "nearest"), params))
    # A short index answer is followed by the exact one (used_index false), which replaces it.
    indexed = [row for row in result.rows if row[7]]
    complete = len(indexed) >= limit
    rows = indexed if complete else [row for row in result.rows if not row[7]]
    state.last_vector_strategy = "index" if complete else "exact"
    names = yield from _names(state)
    return [_vector_hit(names, row) for row in rows]


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


def search_graph_steps(
    state: SessionState,
    start: str | Sequence[str],
    *,
    depth: int = 2,
    relations: Sequence[str] | None = None,
) -> Steps[GraphResult]:
    """The k-hop neighbourhood of ``start`` (one id or several), optionally following only ``relations``."""
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


def shortest_path_steps(
    state: SessionState,
    source: str,
    target: str,
    *,
    max_depth: int = 6,
    relations: Sequence[str] | None = None,
) -> Steps[list[str] | None]:
    """The node ids of a shortest path from ``source`` to ``target`` through visible nodes, or None."""
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


def subgraph_steps(state: SessionState, kinds: Sequence[str]) -> Steps[GraphResult]:
    """Every visible node of the given kinds, and the visible edges among them."""
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
