"""In-memory reference backends.

Plain, obviously-correct Python: they filter every candidate through :meth:`ScopedBackendView.is_visible` and
then rank. They are the oracle for differential tests of the PostgreSQL backends, and what services can use in
unit tests without a database.
"""

from __future__ import annotations

import math
import re
from collections import deque
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    from scopedb.view import ScopedBackendView

_WORD = re.compile(r"\w+", re.UNICODE)


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


class _FragmentStore:
    def __init__(self, fragments: Iterable[FragmentRecord] = ()) -> None:
        self._fragments: dict[str, FragmentRecord] = {}
        self.add(fragments)

    def add(self, fragments: Iterable[FragmentRecord]) -> None:
        """Insert or replace fragments by id."""
        for fragment in fragments:
            self._fragments[fragment.id] = fragment

    @property
    def fragments(self) -> dict[str, FragmentRecord]:
        """Every stored fragment, by id."""
        return dict(self._fragments)

    def visible(self, view: ScopedBackendView) -> list[FragmentRecord]:
        """The stored fragments ``view`` can see."""
        return [f for f in self._fragments.values() if view.is_visible(f)]


class InMemoryTextBackend(_FragmentStore):
    """Every query word must occur in the fragment; rank is how often they occur, relative to its length."""

    def search_text(self, query: str, *, view: ScopedBackendView, limit: int = 10) -> list[TextHit]:
        terms = set(_words(query))
        if not terms or limit <= 0:
            return []
        hits = []
        for fragment in self.visible(view):
            words = _words(fragment.content)
            if terms <= set(words):
                count = sum(1 for w in words if w in terms)
                hits.append(TextHit(fragment, count / len(words), fragment.content[:160]))
        hits.sort(key=lambda h: (-h.rank, h.fragment.id))
        return hits[:limit]


class InMemoryVectorBackend(_FragmentStore):
    """Exact cosine distance over the visible fragments that have an embedding."""

    def search_vector(self, embedding: Sequence[float], *, view: ScopedBackendView, limit: int = 10) -> list[VectorHit]:
        if limit <= 0:
            return []
        query = tuple(float(x) for x in embedding)
        hits = [
            VectorHit(f, _cosine_distance(query, f.embedding))
            for f in self.visible(view)
            if f.embedding is not None and len(f.embedding) == len(query)
        ]
        hits.sort(key=lambda h: (h.distance, h.fragment.id))
        return hits[:limit]


def _cosine_distance(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return 1.0 - dot / norm if norm else 1.0


class InMemoryGraphBackend:
    """Breadth-first traversal that never enters a node the view cannot see (edges of invisible nodes vanish).

    Nodes are keyed by (project, id): an edge joins two nodes of its own project, whatever ids other projects use.
    """

    def __init__(self, nodes: Iterable[GraphNode] = (), edges: Iterable[GraphEdge] = ()) -> None:
        self.nodes: dict[tuple[str, str], GraphNode] = {(n.project_name, n.id): n for n in nodes}
        self.edges: list[GraphEdge] = list(edges)

    def _node_visible(self, node: GraphNode, view: ScopedBackendView) -> bool:
        return view.is_visible(FragmentRecord(id=node.id, project_name=node.project_name, resource_id=node.resource_id))

    def search_graph(
        self,
        start: str | Sequence[str],
        *,
        view: ScopedBackendView,
        depth: int = 2,
        relations: Sequence[str] | None = None,
    ) -> GraphResult:
        starts = {start} if isinstance(start, str) else set(start)
        allowed = set(relations) if relations is not None else None
        seen: dict[tuple[str, str], int] = {}
        queue: deque[tuple[str, str]] = deque()
        for key, node in sorted(self.nodes.items()):
            if node.id in starts and self._node_visible(node, view):
                seen[key] = 0
                queue.append(key)
        edges: set[GraphEdge] = set()
        while queue:
            current = queue.popleft()
            if seen[current] >= depth:
                continue
            project, node_id = current
            for edge in self.edges:
                if edge.project_name != project or edge.src != node_id:
                    continue
                if allowed is not None and edge.relation not in allowed:
                    continue
                target_key = (project, edge.dst)
                target = self.nodes.get(target_key)
                if target is None or not self._node_visible(target, view):
                    continue
                edges.add(edge)
                if target_key not in seen:
                    seen[target_key] = seen[current] + 1
                    queue.append(target_key)
        nodes = tuple(sorted((self.nodes[k] for k in seen), key=node_order))
        return GraphResult(nodes=nodes, edges=tuple(sorted(edges, key=edge_order)))
