"""One scoped transaction: everything runs as ``scopedb_app`` under the signed scope the database verified.

A :class:`ScopedSession` is what ``with db.scoped(scope) as s:`` gives you. Whatever SQL it runs — scopedb's own
or yours through :meth:`ScopedSession.execute` — the database's row-level security sees only the scope's rows.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

import psycopg

from scopedb import deletes, steps
from scopedb.backends import postgres as pg
from scopedb.backends.base import GraphResult, TextHit, VectorHit
from scopedb.errors import ScopedbError, translate
from scopedb.ingest import (
    EdgeIn,
    Fragment,
    NodeIn,
    add_fragments_steps,
    ingest_fragments,
    ingest_graph,
    register_vector_types,
)
from scopedb.steps import Params, Query, Result, SessionState, Steps

__all__ = ["Params", "Query", "Result", "ScopedSession", "SessionClosedError"]

T = TypeVar("T")


class SessionClosedError(ScopedbError):
    """The scoped transaction has ended; open a new one with db.scoped()."""


class ScopedSession(SessionState):
    """The handle of one scoped transaction (see :meth:`scopedb.Database.scoped`)."""

    def __init__(
        self,
        conn: psycopg.Connection[Any],
        *,
        project_ids: Sequence[int],
    ) -> None:
        super().__init__(project_ids=project_ids)
        self._conn = conn
        self._closed = False
        # Held from the closed check to the end of each statement, and by _close: a thread still using the session
        # when its block ends either finishes its statement first (inside this transaction) or finds it closed —
        # never runs in the next borrower's transaction on the same connection.
        self._lock = threading.RLock()

    @property
    def projects(self) -> dict[str, int]:
        """The scope's projects, name to id (read under RLS, so it is exactly what the database admits)."""
        return self._run(steps.project_names(self))

    def execute(self, query: Query, params: Params = None) -> Result:
        """Run any statement in this transaction, as ``scopedb_app``, still under the scope.

        Driver errors come back as scopedb errors (a refused write is a :class:`ScopeViolationError`).
        """
        with self._lock:
            if self._closed:
                raise SessionClosedError()
            try:
                with self._conn.cursor() as cur:
                    cur.execute(query, params)
                    columns = tuple(col.name for col in cur.description or ())
                    rows = cur.fetchall() if cur.description else []
                    return Result(columns=columns, rows=rows, rowcount=cur.rowcount)
            except psycopg.Error as exc:
                raise translate(exc) from exc

    def _run(self, operation: Steps[T]) -> T:
        """Drive an operation's steps (:mod:`scopedb.steps`) on this transaction."""
        return steps.drive(
            operation,
            lambda statement: self.execute(statement.query, statement.params),
            lambda: register_vector_types(self._conn),
        )

    def add_fragment(self, fragment: Fragment) -> str:
        """Insert one fragment into a project of the scope; returns its id."""
        return self.add_fragments([fragment])[0]

    def add_fragments(self, fragments: Iterable[Fragment]) -> list[str]:
        """Insert fragments into projects of the scope; returns their ids in order.

        A project outside the scope is refused here with a :class:`ScopeViolationError`; a resource outside it is
        refused by the database's WITH CHECK policy, with the same error.
        """
        return self._run(add_fragments_steps(self, fragments))

    # Bulk ingest and retrieval (scopedb.ingest, scopedb.backends.postgres) ------------------------------------------

    def ingest_fragments(self, fragments: Iterable[Fragment], *, batch_size: int = 2000) -> int:
        """Insert or update fragments in batches, keyed by project and id; returns rows written."""
        return ingest_fragments(self, fragments, batch_size=batch_size)

    def ingest_graph(self, nodes: Iterable[NodeIn] = (), edges: Iterable[EdgeIn] = ()) -> tuple[int, int]:
        """Insert or update graph nodes and edges; returns (nodes, edges) written."""
        return ingest_graph(self, nodes, edges)

    # Deletes (scopedb.deletes): the app holds no DELETE privilege ---------------------------------------------------

    def delete_fragments(self, project: str, ids: Iterable[str]) -> int:
        """Delete fragments of ``project`` by id (see :mod:`scopedb.deletes`); returns how many."""
        return self._run(deletes.delete_fragments_steps(self, project, ids))

    def delete_resources(self, project: str, ids: Iterable[str]) -> int:
        """Delete resources with what hangs off them in the scope; refused if any of it is hidden."""
        return self._run(deletes.delete_resources_steps(self, project, ids))

    def delete_graph_nodes(self, project: str, ids: Iterable[str]) -> int:
        """Delete graph nodes with their visible edges; refused if one has an edge the scope hides."""
        return self._run(deletes.delete_graph_nodes_steps(self, project, ids))

    def delete_graph_edges(self, project: str, edges: Iterable[tuple[str, str, str]]) -> int:
        """Delete graph edges given as (source, relation, target)."""
        return self._run(deletes.delete_graph_edges_steps(self, project, edges))

    def delete_resource_links(self, project: str, links: Iterable[tuple[str, str]]) -> int:
        """Delete resource links given as (parent, child)."""
        return self._run(deletes.delete_resource_links_steps(self, project, links))

    def search_text(self, query: str, *, limit: int = 10, offset: int = 0, config: str = "english") -> list[TextHit]:
        """Ranked full-text search with snippets (see :func:`scopedb.backends.postgres.search_text`)."""
        return pg.search_text(self, query, limit=limit, offset=offset, config=config)

    def search_vector(
        self, embedding: Sequence[float], *, limit: int = 10, metric: pg.Metric = "cosine"
    ) -> list[VectorHit]:
        """Nearest fragments; always min(limit, visible) rows (see :func:`scopedb.backends.postgres.search_vector`)."""
        return pg.search_vector(self, embedding, limit=limit, metric=metric)

    def search_graph(
        self, start: str | Sequence[str], *, depth: int = 2, relations: Sequence[str] | None = None
    ) -> GraphResult:
        """The k-hop neighbourhood of ``start`` through visible nodes and edges."""
        return pg.search_graph(self, start, depth=depth, relations=relations)

    def shortest_path(self, source: str, target: str, *, max_depth: int = 6) -> list[str] | None:
        """A shortest path between two nodes through visible nodes and edges, or None."""
        return pg.shortest_path(self, source, target, max_depth=max_depth)

    def subgraph(self, kinds: Sequence[str]) -> GraphResult:
        """The visible nodes of ``kinds`` and the visible edges among them."""
        return pg.subgraph(self, kinds)

    def _close(self) -> None:
        with self._lock:
            self._closed = True
