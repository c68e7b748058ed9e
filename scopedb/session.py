"""One scoped transaction: everything runs as ``scopedb_app`` under the signed scope the database verified.

A :class:`ScopedSession` is what ``with db.scoped(scope) as s:`` gives you. Whatever SQL it runs — scopedb's own
or yours through :meth:`ScopedSession.execute` — the database's row-level security sees only the scope's rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, LiteralString

import psycopg
from psycopg import sql

from scopedb import sqlfiles
from scopedb.backends import postgres as pg
from scopedb.backends.base import GraphResult, TextHit, VectorHit
from scopedb.errors import ScopedbError, ScopeViolationError, translate
from scopedb.ingest import (
    EdgeIn,
    Fragment,
    NodeIn,
    check_fragment,
    embedding_dimension,
    ingest_fragments,
    ingest_graph,
    vector_literal,
)

Params = Sequence[Any] | Mapping[str, Any] | None
Query = LiteralString | bytes | sql.SQL | sql.Composed


class SessionClosedError(ScopedbError):
    """The scoped transaction has ended; open a new one with db.scoped()."""


@dataclass(frozen=True)
class Result:
    """Rows returned by a statement (empty for statements that return none)."""

    columns: tuple[str, ...]
    rows: list[tuple[Any, ...]]
    rowcount: int

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def all(self) -> list[tuple[Any, ...]]:
        """Every row."""
        return list(self.rows)

    def one(self) -> tuple[Any, ...]:
        """The only row; anything else is an error."""
        if len(self.rows) != 1:
            raise ScopedbError(f"expected exactly one row, got {len(self.rows)}")
        return self.rows[0]

    def scalar(self) -> Any:
        """The first column of the first row, or None when there is no row."""
        return self.rows[0][0] if self.rows else None

    def dicts(self) -> list[dict[str, Any]]:
        """Rows as dictionaries keyed by column name."""
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]


class ScopedSession:
    """The handle of one scoped transaction (see :meth:`scopedb.Database.scoped`)."""

    def __init__(
        self,
        conn: psycopg.Connection[Any],
        *,
        project_ids: Sequence[int],
        scope_key: str = "",
        visible_counts: pg.VisibleCounts | None = None,
    ) -> None:
        self._conn = conn
        self._project_ids = tuple(project_ids)
        self._scope_key = scope_key
        self._visible_counts = visible_counts
        self._project_names: dict[str, int] | None = None
        self._closed = False
        self._embedding_dimension: int | None = None
        #: Which path the last :meth:`search_vector` took: "exact" or "hnsw".
        self.last_vector_strategy: str | None = None

    @property
    def project_ids(self) -> tuple[int, ...]:
        """The ids of the scope's projects, as the database resolved them."""
        return self._project_ids

    @property
    def projects(self) -> dict[str, int]:
        """The scope's projects, name to id (read under RLS, so it is exactly what the database admits)."""
        if self._project_names is None:
            result = self.execute(sqlfiles.query("session", "scope_projects"))
            self._project_names = {name: pid for pid, name in result.rows}
        return dict(self._project_names)

    def execute(self, query: Query, params: Params = None) -> Result:
        """Run any statement in this transaction, as ``scopedb_app``, still under the scope.

        Driver errors come back as scopedb errors (a refused write is a :class:`ScopeViolationError`).
        """
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

    def add_fragment(self, fragment: Fragment) -> str:
        """Insert one fragment into a project of the scope; returns its id."""
        return self.add_fragments([fragment])[0]

    def add_fragments(self, fragments: Iterable[Fragment]) -> list[str]:
        """Insert fragments into projects of the scope; returns their ids in order.

        A project outside the scope is refused here with a :class:`ScopeViolationError`; a resource outside it is
        refused by the database's WITH CHECK policy, with the same error.
        """
        projects = self.projects
        ids: list[str] = []
        insert = sqlfiles.query("session", "insert_fragment")
        for fragment in map(check_fragment, fragments):
            project_id = projects.get(fragment.project)
            if project_id is None:
                raise ScopeViolationError(
                    "the fragment's project is outside the scope",
                    resource_ids=[fragment.resource_id] if fragment.resource_id else [],
                    scope_project_names=projects,
                    outside_project_names=[fragment.project],
                )
            params = {
                "project_id": project_id,
                "id": fragment.id,
                "resource_id": fragment.resource_id,
                "path": fragment.path,
                "fqn": fragment.fqn,
                "content": fragment.content,
                "embedding": vector_literal(fragment.embedding, embedding_dimension(self)),
                "tier": fragment.tier,
                "token_count": fragment.token_count,
                "valid_from": fragment.valid_from,
                "valid_to": fragment.valid_to,
            }
            ids.append(str(self.execute(insert, params).scalar()))
        return ids

    # Bulk ingest and retrieval (scopedb.ingest, scopedb.backends.postgres) ------------------------------------------

    def ingest_fragments(self, fragments: Iterable[Fragment], *, batch_size: int = 2000) -> int:
        """Insert or update fragments in batches, keyed by project and id; returns rows written."""
        return ingest_fragments(self, fragments, batch_size=batch_size)

    def ingest_graph(self, nodes: Iterable[NodeIn] = (), edges: Iterable[EdgeIn] = ()) -> tuple[int, int]:
        """Insert or update graph nodes and edges; returns (nodes, edges) written."""
        return ingest_graph(self, nodes, edges)

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
        self._closed = True
