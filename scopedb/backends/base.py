"""What every backend returns and accepts: fragments, hits, graph results, and the three backend protocols.

The in-memory backends (:mod:`scopedb.backends.memory`) implement these protocols in plain Python; they are the
reference the PostgreSQL backends are tested against, and what unit tests use without a database.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from scopedb.view import ScopedBackendView

EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


@dataclass(frozen=True)
class FragmentRecord:
    """A fragment as backends see it. ``project_name`` "" means "belongs to no project" (never visible)."""

    id: str
    project_name: str
    content: str = ""
    resource_id: str | None = None
    path: str | None = None
    fqn: str | None = None
    embedding: tuple[float, ...] | None = None
    valid_from: dt.datetime = EPOCH
    valid_to: dt.datetime | None = None


@dataclass(frozen=True)
class TextHit:
    """A text search result: the fragment, its rank (higher is better) and a snippet."""

    fragment: FragmentRecord
    rank: float
    snippet: str


@dataclass(frozen=True)
class VectorHit:
    """A vector search result: the fragment and its distance (lower is nearer)."""

    fragment: FragmentRecord
    distance: float


@dataclass(frozen=True)
class GraphNode:
    """A node of the graph, owned by a project (and optionally a resource)."""

    id: str
    project_name: str
    kind: str = "node"
    resource_id: str | None = None
    label: str = ""


@dataclass(frozen=True)
class GraphEdge:
    """A directed edge inside one project: ``src`` and ``dst`` are ids of nodes of ``project_name``.

    A node is identified by (project, id), not by its id: two projects may both have a node "README", and an edge
    of one says nothing about the other's.
    """

    src: str
    dst: str
    relation: str = "related"
    project_name: str = field(kw_only=True)


@dataclass(frozen=True)
class GraphResult:
    """Nodes and edges reached by a traversal. Empty when nothing in scope was reached."""

    nodes: tuple[GraphNode, ...] = field(default_factory=tuple)
    edges: tuple[GraphEdge, ...] = field(default_factory=tuple)

    def __bool__(self) -> bool:
        return bool(self.nodes or self.edges)

    @property
    def node_ids(self) -> frozenset[str]:
        """The ids of the nodes reached (ambiguous when the scope spans projects that reuse ids: see node_keys)."""
        return frozenset(node.id for node in self.nodes)

    @property
    def node_keys(self) -> frozenset[tuple[str, str]]:
        """(project name, id) of every node reached: what identifies a node."""
        return frozenset((node.project_name, node.id) for node in self.nodes)


def node_order(node: GraphNode) -> tuple[str, str]:
    """How results list nodes: by project, then id."""
    return (node.project_name, node.id)


def edge_order(edge: GraphEdge) -> tuple[str, str, str, str]:
    """How results list edges: by project, source, target, relation."""
    return (edge.project_name, edge.src, edge.dst, edge.relation)


class TextBackend(Protocol):
    """Full-text search over fragments, restricted to a view."""

    def search_text(self, query: str, *, view: ScopedBackendView, limit: int = 10) -> list[TextHit]: ...


class VectorBackend(Protocol):
    """Nearest-neighbour search over fragment embeddings, restricted to a view."""

    def search_vector(
        self, embedding: Sequence[float], *, view: ScopedBackendView, limit: int = 10
    ) -> list[VectorHit]: ...


class GraphBackend(Protocol):
    """Graph traversal from start nodes, restricted to a view."""

    def search_graph(
        self,
        start: str | Sequence[str],
        *,
        view: ScopedBackendView,
        depth: int = 2,
        relations: Sequence[str] | None = None,
    ) -> GraphResult: ...
