"""Bulk ingest of fragments and graph nodes/edges into a scoped session.

PostgreSQL refuses ``COPY FROM`` into tables with row-level security, so each batch is one
``INSERT ... SELECT FROM unnest(typed arrays)`` (see ``sql/queries/ingest.sql``): one round trip per batch, and
every row still passes the policies' ``WITH CHECK``. Re-ingesting a key updates the row, so an ingest can be
retried as a whole.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING, Any, TypeVar

from scopedb import sqlfiles
from scopedb.errors import InvalidArgumentError, ScopeViolationError

if TYPE_CHECKING:
    from scopedb.session import Fragment, ScopedSession

T = TypeVar("T")
DEFAULT_BATCH = 2000


@dataclass(frozen=True)
class NodeIn:
    """A graph node to ingest. ``project`` is a project name of the scope."""

    project: str
    id: str
    kind: str = "node"
    label: str = ""
    resource_id: str | None = None
    path: str | None = None
    fqn: str | None = None


@dataclass(frozen=True)
class EdgeIn:
    """A directed edge to ingest, between two nodes of the same project."""

    project: str
    src: str
    dst: str
    relation: str = "related"
    weight: float = 1.0


def _batches(items: Iterable[T], size: int) -> Iterator[list[T]]:
    iterator = iter(items)
    while batch := list(islice(iterator, size)):
        yield batch


def _project_id(projects: dict[str, int], name: str, resource_id: str | None = None) -> int:
    try:
        return projects[name]
    except KeyError:
        raise ScopeViolationError(
            "a row's project is outside the scope",
            resource_ids=[resource_id] if resource_id else [],
            scope_project_names=projects,
            outside_project_names=[name],
        ) from None


def vector_literal(values: Sequence[float] | None, dimension: int | None = None) -> str | None:
    """pgvector's text form of an embedding, after checking its width against the column's."""
    if values is None:
        return None
    if dimension is not None and len(values) != dimension:
        raise InvalidArgumentError(f"embedding has {len(values)} dimensions; the database stores {dimension}")
    return "[" + ",".join(repr(float(v)) for v in values) + "]"


def embedding_dimension(session: ScopedSession) -> int:
    """The width of ``fragments.embedding`` (cached on the session)."""
    if session._embedding_dimension is None:
        session._embedding_dimension = int(session.execute(sqlfiles.query("ingest", "embedding_dimension")).scalar())
    return session._embedding_dimension


def ingest_fragments(session: ScopedSession, fragments: Iterable[Fragment], *, batch_size: int = DEFAULT_BATCH) -> int:
    """Insert or update fragments (keyed by project and id) in batches; returns how many rows were written.

    Fragments need an ``id`` (the caller's idempotency key). Within one call the last fragment with a key wins.
    """
    projects = session.projects
    dimension = embedding_dimension(session)
    written = 0
    statement = sqlfiles.query("ingest", "ingest_fragments")
    for batch in _batches(fragments, batch_size):
        rows: dict[tuple[int, str], Fragment] = {}
        for fragment in batch:
            if not fragment.id:
                raise InvalidArgumentError("bulk ingest needs an id on every fragment (its idempotency key)")
            rows[(_project_id(projects, fragment.project, fragment.resource_id), fragment.id)] = fragment
        columns: dict[str, list[Any]] = {
            "project_id": [], "id": [], "resource_id": [], "path": [], "fqn": [], "content": [], "embedding": [],
            "tier": [], "token_count": [], "valid_from": [], "valid_to": [],
        }  # fmt: skip
        for (project_id, fragment_id), fragment in rows.items():
            columns["project_id"].append(project_id)
            columns["id"].append(fragment_id)
            columns["resource_id"].append(fragment.resource_id)
            columns["path"].append(fragment.path)
            columns["fqn"].append(fragment.fqn)
            columns["content"].append(fragment.content)
            columns["embedding"].append(vector_literal(fragment.embedding, dimension))
            columns["tier"].append(fragment.tier)
            columns["token_count"].append(fragment.token_count)
            columns["valid_from"].append(fragment.valid_from)
            columns["valid_to"].append(fragment.valid_to)
        written += session.execute(statement, columns).rowcount
    return written


def ingest_graph(
    session: ScopedSession,
    nodes: Iterable[NodeIn] = (),
    edges: Iterable[EdgeIn] = (),
    *,
    batch_size: int = DEFAULT_BATCH,
) -> tuple[int, int]:
    """Insert or update graph nodes, then edges; returns (nodes written, edges written).

    An edge whose endpoints are not both visible in the scope is refused by the database, as is any row outside
    the scope; an edge between projects cannot even be expressed (both ends share the edge's project).
    """
    projects = session.projects
    node_count = edge_count = 0
    for batch in _batches(nodes, batch_size):
        by_key = {(_project_id(projects, n.project, n.resource_id), n.id): n for n in batch}
        node_columns: dict[str, list[Any]] = {k: [] for k in ("project_id", "id", "resource_id", "kind", "label",
                                                              "path", "fqn")}  # fmt: skip
        for (project_id, node_id), node in by_key.items():
            node_columns["project_id"].append(project_id)
            node_columns["id"].append(node_id)
            node_columns["resource_id"].append(node.resource_id)
            node_columns["kind"].append(node.kind)
            node_columns["label"].append(node.label)
            node_columns["path"].append(node.path)
            node_columns["fqn"].append(node.fqn)
        node_count += session.execute(sqlfiles.query("ingest", "ingest_graph_nodes"), node_columns).rowcount
    for edge_batch in _batches(edges, batch_size):
        edge_keys = {(_project_id(projects, e.project), e.src, e.relation, e.dst): e for e in edge_batch}
        edge_columns: dict[str, list[Any]] = {k: [] for k in ("project_id", "src", "relation", "dst", "weight")}
        for (project_id, src, relation, dst), edge in edge_keys.items():
            edge_columns["project_id"].append(project_id)
            edge_columns["src"].append(src)
            edge_columns["relation"].append(relation)
            edge_columns["dst"].append(dst)
            edge_columns["weight"].append(edge.weight)
        edge_count += session.execute(sqlfiles.query("ingest", "ingest_graph_edges"), edge_columns).rowcount
    return node_count, edge_count
