"""The PostgreSQL backends: :mod:`scopedb.retrieval` behind the backend protocols of :mod:`scopedb.backends.base`.

Each call enters the view's scope in a transaction of its own, so :class:`~scopedb.view.ScopedBackendView` and
:class:`~scopedb.view.ScopedBackendSet` work over PostgreSQL exactly as over the in-memory backends.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from scopedb.backends.base import GraphResult, TextHit, VectorHit

if TYPE_CHECKING:
    from scopedb.database import Database
    from scopedb.view import ScopedBackendView


class _PgBackend:
    def __init__(self, db: Database) -> None:
        self.db = db


class PgTextBackend(_PgBackend):
    """:class:`TextBackend` over PostgreSQL: each call enters the view's scope."""

    def search_text(self, query: str, *, view: ScopedBackendView, limit: int = 10) -> list[TextHit]:
        with self.db.scoped(view.to_resource_scope()) as session:
            return session.search_text(query, limit=limit)


class PgVectorBackend(_PgBackend):
    """:class:`VectorBackend` over PostgreSQL: each call enters the view's scope."""

    def search_vector(self, embedding: Sequence[float], *, view: ScopedBackendView, limit: int = 10) -> list[VectorHit]:
        with self.db.scoped(view.to_resource_scope()) as session:
            return session.search_vector(embedding, limit=limit)


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
            return session.search_graph(start, depth=depth, relations=relations)
