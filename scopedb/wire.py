"""scopedb's statements on the wire without psycopg's cursors: the parts of that path that do no I/O.

A request on a kept scope is the reentry, the statement and (for ``run``) the session cleanup in one pipeline
(:func:`scopedb.requests.kept_request`). Through psycopg's cursors the client spent about 60 µs of CPU per
statement on a cursor, its query conversion, its prepared-statement cache and its result bookkeeping, and as much
again on the pipeline around them: on a scratch server a one-project vector search through ``db.search_vector``
cost the client 520-640 µs of CPU, and a raw libpq pipeline of the same statements 30 µs. Under a thread pool the
GIL turns that CPU into latency for every other request too.

So that path talks to libpq through psycopg's ``pq`` layer, with psycopg's own
:class:`~psycopg.adapt.Transformer` for the parameters and the rows (the connection's adapters: the same dumpers
and loaders a cursor uses), and psycopg's own waiting for the non-blocking I/O (``conn.wait``, sync or async,
as a cursor waits) over one generator, :func:`exchange`. This module holds that generator and what needs no I/O:
each statement's SQL turned into ``$n`` form once, its parameters dumped, and which of scopedb's statements each
session has prepared under which name.

The names are scopedb's own (``_scopedb_<n>``, never psycopg's ``_pg3_<n>``), prepared at the protocol level as
the driver's are, so the end of a scoped transaction treats them as the driver's: ``scopedb.clean_session``
keeps them, and :func:`scopedb.lifecycle.driver_statements` lists them with psycopg's, so a connection on which
a tenant removed one (``DEALLOCATE``) is discarded, not lent again. A name is recorded only once its preparation
succeeded, and never reused on a session.

Only scopedb's own statements (:data:`scopedb.sqlfiles.KEPT`, whose placeholders are all named: ``%(name)s``,
``%(name)b``, ``%(name)t``) are prepared. A caller's statement in ``run`` is sent unnamed, as psycopg sends it,
its placeholders read by :func:`convert_caller` as psycopg reads them, or not at all when psycopg would refuse
them (psycopg then sends it, and reports).
"""

from __future__ import annotations

import functools
import re
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg import abc, pq
from psycopg.adapt import PyFormat
from psycopg.waiting import Ready, Wait

_FORMATS = {b"s": PyFormat.AUTO, b"b": PyFormat.BINARY, b"t": PyFormat.TEXT}


@dataclass(frozen=True)
class Converted:
    """A statement in ``$n`` form: its text, and for each ``$n`` the parameter's name and format."""

    sql: bytes
    names: tuple[str, ...]
    formats: tuple[PyFormat, ...]


@functools.cache
def convert(query: str) -> Converted:
    """One of scopedb's own statements in ``$n`` form, computed once per statement text: its placeholders are all
    named, read as a caller's named placeholders are (:func:`convert_caller`)."""
    try:
        return convert_caller(query, True, "utf-8")
    except ValueError as exc:
        raise ValueError(f"scopedb's statements take named placeholders only ({exc})") from None


#: A placeholder of a caller's SQL as psycopg reads one (``%s``, ``%(name)s``, ``%%``...), or anything after a %.
_CALLER_PLACEHOLDER = re.compile(rb"%(?:\(([^)]*)\))?(.)|%$", re.DOTALL)


@functools.lru_cache(maxsize=512)
def convert_caller(query: str, named: bool, encoding: str) -> Converted:
    """A caller's ``query`` in ``$n`` form, read as psycopg reads it when parameters are passed: ``%s``, ``%b``,
    ``%t`` in order (``named`` false: the parameters are a sequence; each placeholder's ``names`` entry is its
    position), or ``%(name)s`` and the like (``named``: a mapping; a name used twice is one parameter), and
    ``%%`` for a percent sign. Anything psycopg would refuse (another character after ``%``, both kinds mixed)
    raises ValueError: the caller then sends the statement through psycopg, which reports it in its own words."""
    names: list[str] = []
    formats: list[PyFormat] = []
    kinds: set[bool] = set()

    def number(match: re.Match[bytes]) -> bytes:
        name, code = match.group(1), match.group(2)
        if code is None:
            raise ValueError("a percent sign ends the statement")
        if name is None and code == b"%":
            return b"%"
        fmt = _FORMATS.get(code)
        if fmt is None:
            raise ValueError("not a placeholder psycopg knows")
        kinds.add(name is not None)
        if name is None:
            names.append(str(len(names)))
            formats.append(fmt)
            return b"$%d" % len(names)
        key = name.decode(encoding)
        if key in names:
            if formats[names.index(key)] != fmt:
                raise ValueError(f"placeholder {key!r} is used with two formats")
            return b"$%d" % (names.index(key) + 1)
        names.append(key)
        formats.append(fmt)
        return b"$%d" % len(names)

    sql = _CALLER_PLACEHOLDER.sub(number, query.encode(encoding))
    if kinds and kinds != {named}:
        raise ValueError("the placeholders do not match the kind of parameters")
    return Converted(sql, tuple(names), tuple(formats))


def bind_caller(tx: abc.Transformer, query: str, params: Any, encoding: str) -> tuple[bytes, Sequence[Any], Any, Any]:
    """A caller's statement and parameters, dumped as psycopg would: its text, the parameters, their types and
    formats (no parameters: the text as it is, as psycopg sends it). ValueError for anything else."""
    if params is None:
        return query.encode(encoding), (), None, None
    if isinstance(params, Mapping):
        converted = convert_caller(query, True, encoding)
        try:
            values = [params[name] for name in converted.names]
        except KeyError:
            raise ValueError("a placeholder has no parameter") from None
    elif isinstance(params, Sequence) and not isinstance(params, (str, bytes, bytearray)):
        converted = convert_caller(query, False, encoding)
        if len(params) != len(converted.names):
            raise ValueError("as many parameters as placeholders are needed")
        values = list(params)
    else:
        raise ValueError("parameters are a sequence or a mapping")
    dumped = tx.dump_sequence(values, converted.formats)
    return converted.sql, dumped, tuple(tx.types or ()), tuple(tx.formats or ())


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


class Batch:
    """The statements of one pipeline on one session, queued as libpq calls for :func:`exchange`: scopedb's own
    prepared under the session's names (a statement the session has not prepared yet is prepared first, in the
    same pipeline), a caller's sent unnamed. Each is queued with a kind, by which :meth:`outcome` returns its
    result; the names prepared on the way are recorded once every result is known good."""

    def __init__(self, pgconn: pq.abc.PGconn, session: Prepared) -> None:
        self.pgconn = pgconn
        self.session = session
        self.commands: list[Callable[[], None]] = []
        self.kinds: list[str] = []  # what each command answers: "parse" for a preparation, or its kind
        self.new: list[tuple[Bound, bytes]] = []

    def prepared(self, bound: Bound, kind: str) -> None:
        """Queue one of scopedb's statements, prepared under its name on this session; its rows in binary."""
        name, new = self.session.name_for(bound)
        if new:
            self.commands.append(functools.partial(self.pgconn.send_prepare, name, bound.sql, param_types=bound.types))
            self.kinds.append("parse")
            self.new.append((bound, name))
        send = self.pgconn.send_query_prepared
        self.commands.append(functools.partial(send, name, bound.params, param_formats=bound.formats,
                                               result_format=pq.Format.BINARY))  # fmt: skip
        self.kinds.append(kind)

    def unnamed(self, sql: bytes, values: Sequence[Any], types: Any, formats: Any, kind: str) -> None:
        """Queue a caller's statement (:func:`bind_caller`), unnamed, its rows in text as a cursor's are."""
        self.commands.append(functools.partial(self.pgconn.send_query_params, sql, values, param_types=types,
                                               param_formats=formats))  # fmt: skip
        self.kinds.append(kind)

    def outcome(self, fetched: Sequence[pq.abc.PGresult], encoding: str) -> Outcome:
        """What :func:`exchange` returned for this batch, read: each kind's result when every statement succeeded
        (the names prepared on the way are then recorded), or the first error (the server skipped the statements
        after it) and the kind that raised it; neither when the results do not match what was sent. Kinds are one
        statement each (only "parse" repeats, and its answer is not read)."""
        if len(fetched) != len(self.kinds) + 1:
            return Outcome(None, None, None)
        for kind, result in zip(self.kinds, fetched, strict=False):
            if result.status == pq.ExecStatus.FATAL_ERROR:
                return Outcome(None, psycopg.errors.error_from_result(result, encoding=encoding), kind)
        for bound, name in self.new:
            self.session.remember(bound, name)
        return Outcome(dict(zip(self.kinds, fetched[:-1], strict=True)), None, None)


@dataclass(frozen=True)
class Outcome:
    """A batch's results, read (:meth:`Batch.outcome`)."""

    answers: dict[str, pq.abc.PGresult] | None
    error: psycopg.Error | None
    failed: str | None  # the kind of the statement that raised ``error``

    @property
    def statement_gone(self) -> bool:
        """Whether the error is a prepared statement the session does not have."""
        return self.error is not None and self.error.sqlstate == NO_SUCH_STATEMENT


#: The SQLSTATE of a prepared statement the session does not have (``invalid_sql_statement_name``).
NO_SUCH_STATEMENT = "26000"


def exchange(pgconn: pq.abc.PGconn, commands: Sequence[Callable[[], None]]) -> abc.PQGen[list[pq.abc.PGresult]]:
    """Send ``commands`` (libpq's ``send_*`` calls and a final ``pipeline_sync``) on a connection in pipeline
    mode, and read every result up to the Sync's: a generator for psycopg's ``conn.wait``, which does the waiting
    (sync or async) as it does for a cursor, and cancels the statement on an interruption. psycopg's own
    ``pipeline_communicate`` and ``fetch_many`` cost a wait (and its system calls) per statement; this is one wait
    for the whole exchange. Returns the results in order, the Sync's last (``pq.abc.PGresult``)."""
    for command in commands:
        command()
    fetched: list[pq.abc.PGresult] = []
    flushing = True
    while True:
        ready = yield Wait.RW if flushing else Wait.R
        if not ready:
            continue
        if ready & Ready.W and flushing:
            flushing = pgconn.flush() != 0
        if ready & Ready.R:
            pgconn.consume_input()
            boundary = False  # a NULL from get_result: the end of one statement's results
            while not pgconn.is_busy():
                result = pgconn.get_result()
                if result is None:
                    if boundary:
                        break  # two in a row: nothing more has arrived
                    boundary = True
                    continue
                boundary = False
                fetched.append(result)
                if result.status == pq.ExecStatus.PIPELINE_SYNC:
                    return fetched
