"""scopedb's own statements on the wire, without psycopg's cursors: what a kept-scope search request sends.

A search request on a kept scope is two statements, the reentry and the search, in one pipeline (see
:func:`scopedb.requests.one_round_trip`). Through psycopg's cursors the client spent about 60 µs of CPU per
statement on a cursor, its query conversion, its prepared-statement cache and its result bookkeeping, and as much
again for the pipeline around them: on a scratch server a one-project vector search through ``db.search_vector``
cost the client 550-640 µs of CPU, and a raw libpq pipeline of the same statements 30 µs. Under a thread pool
the GIL turns that CPU into latency for every other request too.

So for these statements alone the request path talks to libpq through psycopg's ``pq`` layer, with psycopg's
own :class:`~psycopg.adapt.Transformer` for the parameters and the rows (the adapters of the connection, the same
dumpers and loaders a cursor would use) and psycopg's own generators for the non-blocking I/O (the same waiting,
sync or async, a cursor uses). This module holds the parts without I/O: each statement's SQL turned into
``$n`` form once, the parameters dumped, and which of scopedb's statements each session has prepared under which
name.

The names are scopedb's own (``_scopedb_<n>``, never psycopg's ``_pg3_<n>``), prepared at the protocol level as
the driver's are, so the end of a scoped transaction treats them as the driver's: ``scopedb.clean_session``
keeps them, and :func:`scopedb.lifecycle.driver_statements` lists them with psycopg's, so a connection on which
a tenant removed one (``DEALLOCATE``) is discarded, not lent again. A name is never reused on a session: a
statement prepared under a name that later failed is forgotten, and the next preparation takes a new one.

Only scopedb's own statements (:data:`scopedb.sqlfiles.KEPT`) go this way, whose placeholders are all named
(``%(name)s``, ``%(name)b``, ``%(name)t``); a caller's SQL keeps psycopg's cursor and its conversion.
"""

from __future__ import annotations

import functools
import re
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from psycopg import abc, pq
from psycopg.adapt import PyFormat

#: A named placeholder of scopedb's SQL, or a literal percent sign.
_PLACEHOLDER = re.compile(rb"%%|%\((\w+)\)([sbt])")
_FORMATS = {b"s": PyFormat.AUTO, b"b": PyFormat.BINARY, b"t": PyFormat.TEXT}


@dataclass(frozen=True)
class Converted:
    """A statement in ``$n`` form: its text, and for each ``$n`` the parameter's name and format."""

    sql: bytes
    names: tuple[str, ...]
    formats: tuple[PyFormat, ...]


@functools.cache
def convert(query: str) -> Converted:
    """``query`` with its named placeholders turned into ``$1, $2, ...`` (a name used twice is one parameter, as
    psycopg binds it), computed once per statement text."""
    names: list[str] = []
    formats: list[PyFormat] = []

    def number(match: re.Match[bytes]) -> bytes:
        if match.group(0) == b"%%":
            return b"%"
        name = match.group(1).decode()
        fmt = _FORMATS[match.group(2)]
        if name in names:
            if formats[names.index(name)] != fmt:
                raise ValueError(f"placeholder {name!r} is used with two formats")
            return b"$%d" % (names.index(name) + 1)
        names.append(name)
        formats.append(fmt)
        return b"$%d" % len(names)

    sql = _PLACEHOLDER.sub(number, query.encode())
    if b"%" in _PLACEHOLDER.sub(b"", query.encode()):
        raise ValueError("scopedb's statements take named placeholders only")
    return Converted(sql, tuple(names), tuple(formats))


@dataclass(frozen=True)
class Bound:
    """A statement ready to send: its text, its parameters dumped, their types and formats."""

    sql: bytes
    params: Sequence[Any]
    types: tuple[int, ...]
    formats: tuple[pq.Format, ...]


def bind(tx: abc.Transformer, query: str, params: Mapping[str, Any]) -> Bound:
    """Dump ``params`` for ``query`` with the connection's adapters (``tx``)."""
    converted = convert(query)
    values = [params[name] for name in converted.names]
    dumped = tx.dump_sequence(values, converted.formats)
    return Bound(converted.sql, dumped, tuple(tx.types or ()), tuple(tx.formats or ()))


@dataclass
class Prepared:
    """Which of scopedb's statements a session has prepared, keyed by text and parameter types (a parameter's
    type can change with its value: psycopg dumps a list of small integers as ``int2[]``)."""

    names: dict[tuple[bytes, tuple[int, ...]], bytes] = field(default_factory=dict)
    counter: int = 0

    def name_for(self, bound: Bound) -> tuple[bytes, bool]:
        """The statement's name on this session, and whether it must be prepared first (under a new name, which
        :meth:`remember` records once the preparation is known to have succeeded)."""
        name = self.names.get((bound.sql, bound.types))
        if name is not None:
            return name, False
        self.counter += 1
        return b"_scopedb_%d" % self.counter, True

    def remember(self, bound: Bound, name: bytes) -> None:
        """Record that ``bound`` is prepared as ``name`` on this session."""
        self.names[(bound.sql, bound.types)] = name

    def forget(self) -> None:
        """Forget every name (after a failure: which preparations took effect is not known). The names are not
        reused: the counter goes on."""
        self.names.clear()


_SESSIONS: weakref.WeakKeyDictionary[Any, Prepared] = weakref.WeakKeyDictionary()


def prepared(conn: Any) -> Prepared:
    """The statements scopedb prepared on ``conn``'s session (psycopg connections are weakly referenced)."""
    found = _SESSIONS.get(conn)
    if found is None:
        found = _SESSIONS[conn] = Prepared()
    return found


def statement_names(conn: Any) -> frozenset[str]:
    """The names of scopedb's statements prepared on ``conn``'s session, as ``pg_prepared_statements`` lists them."""
    found = _SESSIONS.get(conn)
    return frozenset(name.decode() for name in found.names.values()) if found is not None else frozenset()


#: The statuses of a statement that succeeded.
OK = (pq.ExecStatus.TUPLES_OK, pq.ExecStatus.COMMAND_OK)
