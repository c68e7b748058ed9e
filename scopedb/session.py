# Generated from scopedb/session_async.py by .ci/async_to_sync.py.
# Do not edit: edit the source, run `make generate`.
"""One scoped transaction: everything runs as ``scopedb_app`` under the signed scope the database verified.

Generated from :mod:`scopedb.session_async` by ``.ci/async_to_sync.py``: edit that file, not this one. An
:class:`ScopedSession` is what ``with db.scoped(scope) as s:`` gives you. Whatever SQL it runs —
scopedb's own or yours through :meth:`ScopedSession.execute` — the database's row-level security sees only
the scope's rows. Every operation is a generator of statements (:mod:`scopedb.steps`) that this module drives.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

import psycopg
from pgvector.psycopg.vector import register_vector_info
from psycopg.types import TypeInfo

from scopedb import aliases, deletes, sqlfiles, steps
from scopedb._compat import Lock
from scopedb.backends.base import GraphResult, TextHit, VectorHit
from scopedb.entry import Entered
from scopedb.errors import InvalidArgumentError, ScopedbError, translate
from scopedb.ingest import (
    DEFAULT_BATCH,
    EdgeIn,
    Fragment,
    NodeIn,
    add_fragments_steps,
    ingest_fragments_steps,
    ingest_graph_steps,
)
from scopedb.lifecycle import driver_holds_statements, follow_driver
from scopedb.retrieval import (
    Metric,
    VectorStrategy,
    search_graph_steps,
    search_text_steps,
    search_vector_steps,
    shortest_path_steps,
    subgraph_steps,
)
from scopedb.scope import ResourceScope
from scopedb.steps import Params, Query, Result, SessionState, Statement, Steps, column_names
from scopedb.vectors import VECTOR_READY

T = TypeVar("T")


class SessionClosedError(ScopedbError):
    """The scoped transaction has ended; open a new one with db.scoped()."""


class ScopedSession(SessionState):
    """The handle of one scoped transaction (see :meth:`scopedb.Database.scoped`)."""

    def __init__(
        self,
        conn: psycopg.Connection[Any],
        *,
        entered: Entered,
        scope: ResourceScope | None = None,
        actor: str | None = None,
        embedding_dimension: int | None = None,
    ) -> None:
        super().__init__(project_ids=entered.project_ids, project_names=entered.project_names, scope=scope,
                         actor=actor, embedding_dimension=embedding_dimension)  # fmt: skip
        self._conn = conn
        self._closed = False
        # Held from the closed check to the end of each statement, and by close(): a thread or task still using the
        # session when its block ends either finishes its statement first (inside this transaction) or finds it
        # closed — never runs in the next borrower's transaction on the same connection.
        self._lock = Lock()
        # One cursor for every statement of the transaction, made at the first: a new one per statement cost about
        # 9 µs of a statement's client time (the cursor copies the connection's adapters). Dropped when the
        # connection learns pgvector's types, so that the next one sees them.
        self._cursor: psycopg.Cursor[Any] | None = None

    @property
    def projects(self) -> dict[str, int]:
        """The scope's projects, name to id, read under RLS when the scope was entered (so exactly what the
        database admits)."""
        return dict(self._project_names or {})

    def execute(self, query: Query, params: Params = None) -> Result:
        """Run any statement in this transaction, as ``scopedb_app``, still under the scope.

        Driver errors come back as scopedb errors (a refused write is a :class:`ScopeViolationError`). A statement
        whose text is word for word one of scopedb's own (:data:`scopedb.sqlfiles.KEPT`, such as the graph walk)
        is kept prepared, as it is when scopedb's methods or :meth:`Database.run` send it; any other text is
        not (docs/security.md #92).
        """
        return self._execute(query, params, prepare=sqlfiles.is_kept(query))

    def _execute(self, query: Query, params: Params, *, prepare: bool) -> Result:
        """:meth:`execute`; ``prepare`` keeps the statement prepared in the session (only the statements of
        :data:`scopedb.sqlfiles.KEPT`)."""
        with self._lock:
            if self._closed:
                raise SessionClosedError()
            try:
                cur = self._cursor
                if cur is None:
                    cur = self._cursor = self._conn.cursor()
                had = driver_holds_statements(self._conn)
                try:
                    cur.execute(query, params, prepare=prepare)
                finally:
                    follow_driver(self._conn, had)  # a caller's ROLLBACK TO SAVEPOINT: psycopg deallocated them all
                columns = column_names(cur)
                rows = cur.fetchall() if columns is not None else []
                return Result(columns=columns or (), rows=rows, rowcount=cur.rowcount)
            except psycopg.Error as exc:
                raise translate(exc) from exc

    def run(self, operation: Steps[T]) -> T:
        """Drive an operation written as steps (:mod:`scopedb.steps`) in this transaction: scopedb's own, or a
        service's, which then runs the same in both APIs."""
        try:
            step = next(operation)
            while True:
                if isinstance(step, Statement):
                    try:
                        result = self._execute(step.query, step.params, prepare=sqlfiles.is_kept(step.query))
                    except ScopedbError as exc:
                        step = operation.throw(exc)
                        continue
                    step = operation.send(result)
                else:
                    self._vector_types()
                    step = operation.send(None)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]

    def _vector_types(self) -> None:
        """Teach the connection pgvector's binary format (once per connection; the type's oid differs from database
        to database, so it is looked up rather than assumed)."""
        if self._conn in VECTOR_READY:
            return
        info = TypeInfo.fetch(self._conn, "vector")
        if info is None:  # pragma: no cover - migrations create the extension before any scoped session exists
            raise InvalidArgumentError("the vector type is missing: run scopedb migrate")
        register_vector_info(self._conn, info)
        VECTOR_READY.add(self._conn)
        self._drop_cursor()  # made before the types were known

    def _drop_cursor(self) -> None:
        """Close the session's cursor; the next statement makes a new one."""
        if self._cursor is not None:
            self._cursor.close()
            self._cursor = None

    def close(self) -> None:
        """End this handle (the block that opened it ends the transaction); later calls raise
        :class:`SessionClosedError`."""
        with self._lock:
            self._closed = True
            self._drop_cursor()

    def embedding_dimension(self) -> int:
        """The width of ``fragments.embedding``, fixed when the database was first migrated."""
        return self.run(steps.embedding_dimension(self))

    # Writes (scopedb.ingest) and deletes (scopedb.deletes: the app holds no DELETE privilege) -------------------------

    def add_fragment(self, fragment: Fragment) -> str:
        """Insert one fragment into a project of the scope; returns its id."""
        return (self.add_fragments([fragment]))[0]

    def add_fragments(self, fragments: Iterable[Fragment]) -> list[str]:
        """Insert fragments into projects of the scope; returns their ids in order.

        A project outside the scope is refused here with a :class:`ScopeViolationError`; a resource outside it is
        refused by the database's WITH CHECK policy, with the same error.
        """
        return self.run(add_fragments_steps(self, fragments))

    def ingest_fragments(self, fragments: Iterable[Fragment], *, batch_size: int = DEFAULT_BATCH) -> int:
        """Insert or update fragments in batches, keyed by project and id; returns rows written."""
        return self.run(ingest_fragments_steps(self, fragments, batch_size=batch_size))

    def ingest_graph(self, nodes: Iterable[NodeIn] = (), edges: Iterable[EdgeIn] = ()) -> tuple[int, int]:
        """Insert or update graph nodes and edges; returns (nodes, edges) written."""
        return self.run(ingest_graph_steps(self, nodes, edges))

    def delete_fragments(self, project: str, ids: Iterable[str]) -> int:
        """Delete fragments of ``project`` by id (see :mod:`scopedb.deletes`); returns how many."""
        return self.run(deletes.delete_fragments_steps(self, project, ids))

    def delete_resources(self, project: str, ids: Iterable[str]) -> int:
        """Delete resources with what hangs off them in the scope; refused if any of it is hidden."""
        return self.run(deletes.delete_resources_steps(self, project, ids))

    def delete_graph_nodes(self, project: str, ids: Iterable[str]) -> int:
        """Delete graph nodes with their visible edges; refused if one has an edge the scope hides."""
        return self.run(deletes.delete_graph_nodes_steps(self, project, ids))

    def delete_graph_edges(self, project: str, edges: Iterable[tuple[str, str, str]]) -> int:
        """Delete graph edges given as (source, relation, target)."""
        return self.run(deletes.delete_graph_edges_steps(self, project, edges))

    def delete_resource_links(self, project: str, links: Iterable[tuple[str, str]]) -> int:
        """Delete resource links given as (parent, child)."""
        return self.run(deletes.delete_resource_links_steps(self, project, links))

    # Retrieval (scopedb.retrieval) and resources (scopedb.aliases) ---------------------------------------------------

    def search_text(self, query: str, *, limit: int = 10, offset: int = 0, config: str = "english") -> list[TextHit]:
        """Ranked full-text search with snippets (see :func:`scopedb.retrieval.search_text_steps`)."""
        return self.run(search_text_steps(self, query, limit=limit, offset=offset, config=config))

    def search_vector(
        self,
        embedding: Sequence[float],
        *,
        limit: int = 10,
        metric: Metric = "cosine",
        strategy: VectorStrategy | None = None,
    ) -> list[VectorHit]:
        """Nearest fragments; always min(limit, visible) rows (see :func:`scopedb.retrieval.search_vector_steps`)."""
        return self.run(search_vector_steps(self, embedding, limit=limit, metric=metric, strategy=strategy))

    def search_graph(
        self, start: str | Sequence[str], *, depth: int = 2, relations: Sequence[str] | None = None
    ) -> GraphResult:
        """The k-hop neighbourhood of ``start`` through visible nodes and edges."""
        return self.run(search_graph_steps(self, start, depth=depth, relations=relations))

    def shortest_path(
        self, source: str, target: str, *, max_depth: int = 6, relations: Sequence[str] | None = None
    ) -> list[str] | None:
        """A shortest path between two nodes through visible nodes and edges, or None."""
        return self.run(shortest_path_steps(self, source, target, max_depth=max_depth, relations=relations))

    def subgraph(self, kinds: Sequence[str]) -> GraphResult:
        """The visible nodes of ``kinds`` and the visible edges among them."""
        return self.run(subgraph_steps(self, kinds))

    def resolve_resource_scope(
        self, project_names: Iterable[str], *, include: Iterable[str] | None = None,
        exclude: Iterable[str] | None = None,
    ) -> ResourceScope:  # fmt: skip
        """A scope narrowed to resources of ``project_names`` chosen by alias or id, children expanded by
        PostgreSQL, as far as this transaction's scope reaches (see :mod:`scopedb.aliases`)."""
        return self.run(aliases.resolve_resource_scope_steps(project_names, include=include, exclude=exclude))
