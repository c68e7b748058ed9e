"""scopedb's operations written once, as generators of statements, and driven by the sync and the async session.

The model is psycopg's own: the logic of an operation (validate, build parameters, run one statement, read its
rows, maybe run another) is a generator that yields :class:`Statement` objects and receives each one's
:class:`Result`; ``run`` of a session drives it (``AsyncScopedSession.run`` is written once and
``ScopedSession.run`` generated from it). So ``ScopedSession.search_vector`` and ``AsyncScopedSession.search_vector``
cannot drift apart: they are the same code, and the tests that run against both check one implementation.

A step may also yield :data:`VECTOR_TYPES`, asking the driver to teach the connection pgvector's binary format
(which needs a catalog lookup the driver does in its own way).
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, LiteralString, TypeVar

import psycopg
from psycopg import sql
from psycopg.pq import ExecStatus
from psycopg.pq.abc import PGresult

from scopedb import sqlfiles
from scopedb.errors import ScopedbError
from scopedb.scope import ResourceScope

T = TypeVar("T")
Params = Sequence[Any] | Mapping[str, Any] | None
Query = LiteralString | bytes | sql.SQL | sql.Composed


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


#: Result statuses that carry rows (and so columns), as psycopg's ``Cursor.description`` reads them.
_ROWS = (ExecStatus.TUPLES_OK, ExecStatus.SINGLE_TUPLE, ExecStatus.TUPLES_CHUNK)


def column_names(cur: psycopg.Cursor[Any] | psycopg.AsyncCursor[Any]) -> tuple[str, ...] | None:
    """The column names of a psycopg cursor's current result (sync or async); None when it returned no rows,
    as ``cur.description`` is. Read from the result itself: the description makes a ``Column`` per column, type
    lookup included, on every read (14 µs for a search's eight columns, against 2 µs here, per request)."""
    res = cur.pgresult
    return None if res is None else result_columns(res, cur.connection.info.encoding)


def result_columns(res: PGresult, encoding: str) -> tuple[str, ...] | None:
    """:func:`column_names` of a libpq result itself (a request sent without a cursor, :mod:`scopedb.wire`)."""
    if not (res.nfields or res.status in _ROWS):
        return None
    return tuple(name.decode(encoding) if (name := res.fname(i)) else f"column_{i + 1}" for i in range(res.nfields))


@dataclass(frozen=True)
class Statement:
    """One statement an operation wants run in the scoped transaction."""

    query: Query
    params: Params = None


class _VectorTypes:
    """Marker: register pgvector's types on the connection before the next statement."""


VECTOR_TYPES = _VectorTypes()

Step = Statement | _VectorTypes
Steps = Generator[Step, Result | None, T]


class SessionState:
    """What a scoped transaction knows besides its connection, shared by the sync and the async session: the
    scope it entered, as given and as the database resolved it."""

    def __init__(
        self,
        *,
        project_ids: Sequence[int],
        project_names: Mapping[str, int] | None = None,
        scope: ResourceScope | None = None,
        actor: str | None = None,
        embedding_dimension: int | None = None,
    ) -> None:
        self._project_ids = tuple(project_ids)
        self._project_names = None if project_names is None else dict(project_names)
        self._embedding_dimension = embedding_dimension
        #: The scope the transaction entered (None for a state made outside :meth:`Database.scoped`).
        self.scope = scope
        #: The actor its token names.
        self.actor = actor
        #: Which statement answered the last vector search: "index" or "exact".
        self.last_vector_strategy: str | None = None

    @property
    def project_ids(self) -> tuple[int, ...]:
        """The ids of the scope's projects, as the database resolved them."""
        return self._project_ids


def run(statement: Statement) -> Generator[Step, Result | None, Result]:
    """One statement as a step (``rows = (yield from run(Statement(...))).rows``)."""
    result = yield statement
    assert result is not None
    return result


def project_names(state: SessionState) -> Steps[dict[str, int]]:
    """The scope's projects, name to id, read under RLS (so exactly what the database admits); cached."""
    if state._project_names is None:
        result = yield from run(Statement(sqlfiles.query("session", "scope_projects")))
        state._project_names = {name: pid for pid, name in result.rows}
    return dict(state._project_names)


def embedding_dimension(state: SessionState) -> Steps[int]:
    """The width of ``fragments.embedding`` (cached on the session)."""
    if state._embedding_dimension is None:
        result = yield from run(Statement(sqlfiles.query("ingest", "embedding_dimension")))
        state._embedding_dimension = int(result.scalar())
    return state._embedding_dimension


def vector_types() -> Steps[None]:
    """Ask the driver to register pgvector's binary format on the connection."""
    yield VECTOR_TYPES
