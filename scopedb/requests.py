# Generated from scopedb/requests_async.py by .ci/async_to_sync.py.
# Do not edit: edit the source, run `make generate`.
"""Requests that cost one round trip: the statement travels with the entry, or with the end, in one pipeline.

Generated from :mod:`scopedb.requests_async` by ``.ci/async_to_sync.py``: edit that file, not this one.
:class:`Requests` gives the database its per-request short forms (``run``, ``search_text``, ...); the
functions below put the entry (or the statement), COMMIT and the session cleanup into one pipeline and read the
answers back, ending the transaction on the error path.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, NoReturn, TypeVar

import psycopg
from psycopg.adapt import Transformer
from psycopg.pq import TransactionStatus
from psycopg_pool import ConnectionPool, PoolTimeout

from scopedb import sqlfiles, wire
from scopedb.backends.base import GraphResult, TextHit, VectorHit
from scopedb.entry import (
    BEGIN_AS_APP,
    Entered,
    PendingEntry,
    on_the_wire,
    read_entry,
    send_batch,
    send_entry,
    send_reentry,
)
from scopedb.errors import (
    ConfigurationError,
    DatabaseUnavailableError,
    InvalidSignatureError,
    QueryError,
    ScopedbError,
    translate,
)
from scopedb.lifecycle import Ending, driver_statements, end, judge_cleanup, read_end, send_end
from scopedb.logins import CLEAN, PINNED_DEFAULTS
from scopedb.resolved import Resolved, ResolvedScopes
from scopedb.retrieval import Metric, search_graph_steps, search_text_steps, search_vector_steps
from scopedb.scope import ResourceScope
from scopedb.scopestate import ScopeState
from scopedb.session import ScopedSession
from scopedb.steps import Params, Query, Result, SessionState, Statement, Steps, column_names, result_columns

T = TypeVar("T")


class Requests:
    """The per-request short forms of :class:`~scopedb.Database`: a scoped transaction of its own around one
    statement, in as few round trips as the work allows (see docs/architecture.md, "Requests")."""

    state: ScopeState

    def _pool(self) -> ConnectionPool[psycopg.Connection[Any]]:
        raise NotImplementedError

    def sign(self, scope: ResourceScope, *, actor: str | None = None, ttl_seconds: int | None = None) -> str:
        raise NotImplementedError

    def _enter(self, conn: psycopg.Connection[Any], scope: ResourceScope, *, actor: str | None) -> Entered:
        raise NotImplementedError

    def scoped(self, scope: ResourceScope, *, actor: str | None = None) -> AbstractContextManager[ScopedSession]:
        raise NotImplementedError

    def run(self, scope: ResourceScope, query: Query, params: Params = None, *, actor: str | None = None) -> Result:
        """Run one statement in a scoped transaction of its own, in one round trip: the scope's entry (a kept
        resolved token where there is one), the statement and the session cleanup travel in one pipeline, whose
        Sync commits them (see :func:`one_round_trip`). The short form of
        ``with db.scoped(scope) as s: s.execute(query, params)``, which costs a round trip for the entry, one per
        statement and one for the end. A key rotated out since the last entry, or a
        kept token that no longer verifies, costs one more: the statement then ran under no scope, where row-level
        security let it see and change no row, and runs again under the scope (an effect outside the tables, such
        as a ``nextval``, happens twice then).
        """
        if not isinstance(scope, ResourceScope):
            raise ConfigurationError("run() takes a ResourceScope")
        if self.state.scope_entry != "function":  # SET LOCAL entry needs the resolved token back first
            with self.scoped(scope, actor=actor) as session:
                return session.execute(query, params)
        pool = self._pool()
        try:
            with pool.connection() as conn:
                kept_tokens = self.state.resolved
                key = kept_tokens.key(scope, actor)
                if key is not None and (kept := self.state.kept_or_signed(key, scope, actor)) is not None:
                    result = one_round_trip(conn, query, params, reentry=kept)
                    if result is not None:
                        return result
                    kept_tokens.discard(key, names=scope.project_names)
                for attempt in (1, 2):
                    token = self.sign(scope, actor=actor)
                    try:
                        result = one_round_trip(
                            conn, query, params, token=token, keep=None if key is None else (kept_tokens, key)
                        )
                    except InvalidSignatureError:
                        if attempt == 2 or not self.state.forget_key():
                            raise
                        continue
                    assert result is not None
                    return result
                raise AssertionError("unreachable")
        except PoolTimeout as exc:
            raise DatabaseUnavailableError("no database connection became free in time") from exc

    def search_text(
        self,
        scope: ResourceScope,
        query: str,
        *,
        limit: int = 10,
        offset: int = 0,
        config: str = "english",
        actor: str | None = None,
    ) -> list[TextHit]:
        """:meth:`ScopedSession.search_text` as a request of its own (see :meth:`_request`)."""
        return self._request(
            scope, actor, lambda state: search_text_steps(state, query, limit=limit, offset=offset, config=config)
        )

    def search_vector(
        self,
        scope: ResourceScope,
        embedding: Sequence[float],
        *,
        limit: int = 10,
        metric: Metric = "cosine",
        actor: str | None = None,
    ) -> list[VectorHit]:
        """:meth:`ScopedSession.search_vector` as a request of its own (see :meth:`_request`)."""
        return self._request(
            scope, actor, lambda state: search_vector_steps(state, embedding, limit=limit, metric=metric)
        )

    def search_graph(
        self,
        scope: ResourceScope,
        start: str | Sequence[str],
        *,
        depth: int = 2,
        relations: Sequence[str] | None = None,
        actor: str | None = None,
    ) -> GraphResult:
        """:meth:`ScopedSession.search_graph` as a request of its own (see :meth:`_request`)."""
        return self._request(
            scope, actor, lambda state: search_graph_steps(state, start, depth=depth, relations=relations)
        )

    def _request(self, scope: ResourceScope, actor: str | None, make: Callable[[SessionState], Steps[T]]) -> T:
        """A one-statement operation in a scoped transaction of its own: one round trip when the scope's resolved
        token is kept (its project ids and names are known, so the statement is built before entry and travels
        with it and the commit), two otherwise (the entry, then the statement with the commit). ``make`` builds
        one of scopedb's own searches, never a caller's SQL: the transaction then leaves nothing in the session
        past its COMMIT, and ends without the cleanup ``run`` sends (see ``send_end``)."""
        if not isinstance(scope, ResourceScope):
            raise ConfigurationError("a request takes a ResourceScope")
        if self.state.scope_entry != "function" or self.state.embedding_dim is None:
            with self.scoped(scope, actor=actor) as session:
                return session.run(make(session))
        pool = self._pool()
        try:
            with pool.connection() as conn:
                kept_tokens = self.state.resolved
                key = kept_tokens.key(scope, actor)
                kept = self.state.kept_or_signed(key, scope, actor) if key is not None else None
                if key is not None and kept is not None and kept.project_names is not None:
                    known = SessionState(project_ids=kept.project_ids, project_names=kept.project_names, scope=scope,
                                         actor=actor, embedding_dimension=self.state.embedding_dim)  # fmt: skip
                    operation = make(known)
                    first = first_statement(operation)  # a malformed argument is refused before any I/O
                    try:
                        result = one_round_trip(
                            conn,
                            first.query,
                            first.params,
                            reentry=kept,
                            clean=False,
                            prepare=sqlfiles.is_kept(first.query),
                        )
                    except ScopedbError as exc:
                        return fail(operation, exc)
                    if result is not None:
                        return finish(operation, result)
                    kept_tokens.discard(key, names=scope.project_names)
                entered = self._enter(conn, scope, actor=actor)
                session = ScopedSession(conn, scope=scope, actor=actor, entered=entered,
                                             embedding_dimension=self.state.embedding_dim)  # fmt: skip
                try:
                    operation = make(session)
                    first = first_statement(operation)
                except BaseException:
                    end(conn, "ROLLBACK")
                    raise
                try:
                    result = statement_and_end(
                        conn, first.query, first.params, clean=False, prepare=sqlfiles.is_kept(first.query)
                    )
                except ScopedbError as exc:
                    return fail(operation, exc)
                return finish(operation, result)
        except PoolTimeout as exc:
            raise DatabaseUnavailableError("no database connection became free in time") from exc


class _Rerun:
    """:func:`kept_request`'s answer when the request must go through :func:`one_round_trip` instead."""


RERUN = _Rerun()


def kept_request(
    conn: psycopg.Connection[Any], reentry: Resolved, query: Query, params: Params, *, prepare: bool, clean: bool
) -> Result | _Rerun | None:
    """What :func:`one_round_trip` does with ``reentry`` (a kept token) on a session whose transactions start READ
    COMMITTED and read-write as scopedb_app by its startup packet (:data:`~scopedb.logins.PINNED_DEFAULTS`): the
    reentry, ``query`` and (with ``clean``) the session cleanup in one pipeline, whose Sync commits its implicit
    transaction; sent through libpq without psycopg's cursors (:mod:`scopedb.wire` says why), at a fraction of
    their client CPU. Returns the statement's result; None when the kept token no longer verifies (the statement
    ran under no scope, where it saw and changed nothing; the caller enters afresh).

    ``prepare``: ``query`` is one of scopedb's own statements (:data:`scopedb.sqlfiles.KEPT`, named parameters),
    kept prepared under scopedb's names and answered in binary; otherwise it is the caller's, sent unnamed, its
    placeholders read as psycopg reads them and its rows in text, as a cursor's are. A statement this path cannot
    send as psycopg would (another kind of query or parameters, a placeholder psycopg would refuse) answers
    :data:`RERUN` before anything is sent: :func:`one_round_trip` then sends it through psycopg, which reports
    it. So does a search whose prepared statement the session no longer has, once the session is cleaned.

    A statement that fails ends the request as :func:`one_round_trip` ends it: the Sync rolled the implicit
    transaction back and the server skipped the rest, the session is cleaned (:func:`~scopedb.lifecycle.end`,
    which discards it if one of the driver's or scopedb's statements is gone), the error raised, translated. A
    failure of the connection itself closes it, and so does an interruption (:func:`~scopedb.entry.send_batch`)."""
    if not on_the_wire(conn) or not isinstance(query, str):
        return RERUN
    encoding = conn.info.encoding
    tx = Transformer(conn)
    batch = wire.Batch(conn.pgconn, wire.prepared(conn))
    try:
        if prepare:
            if not sqlfiles.is_kept(query) or not isinstance(params, Mapping):
                return RERUN
            statement = wire.bind(tx, query, params)
        else:
            sql, values, types, formats = wire.bind_caller(tx, query, params, encoding)
        reenter = wire.bind(tx, sqlfiles.query("session", "reenter_scope"), {"token": reentry.token})
    except (ValueError, psycopg.Error):  # nothing sent: psycopg's path reports it (a value it cannot dump...)
        return RERUN
    batch.prepared(reenter, "entry")
    if prepare:
        batch.prepared(statement, "statement")
    else:
        batch.unnamed(sql, values, types, formats, "statement")
    expected = None
    if clean:
        expected = driver_statements(conn)
        batch.prepared(wire.bind(tx, sqlfiles.query("session", "clean_session"), {}), "clean")
    outcome = batch.outcome(send_batch(conn, batch), encoding)
    answers = outcome.answers
    if answers is None:
        # One of scopedb's statements is gone, and nothing of the caller's ran (a search is scopedb's own; a
        # caller's statement had not been reached when the reentry failed): prepare them afresh, and send again.
        rerun = outcome.statement_gone and (prepare or outcome.failed == "entry")
        if rerun:
            batch.session.forget()
        end(conn, "ROLLBACK")  # the implicit transaction is over: this cleans the session
        if rerun:
            return RERUN
        if outcome.error is None:
            raise ScopedbError("the request's answers did not match what it sent")
        raise translate(outcome.error) from outcome.error
    _refuse_open_transaction(conn)
    if expected is None:
        CLEAN.add(conn)
    else:
        tx.set_pgresult(answers["clean"])
        judge_cleanup(conn, expected, tx.load_row(0, tuple))
    tx.set_pgresult(answers["entry"])
    ids = tx.load_row(0, tuple)[0] if answers["entry"].ntuples else None
    if tuple(int(pid) for pid in ids or ()) != reentry.project_ids:
        return None
    found = answers["statement"]
    columns = result_columns(found, encoding)
    if columns is None:  # a command: no rows, as a cursor reads it
        rows = found.command_tuples
        return Result(columns=(), rows=[], rowcount=rows if rows is not None else -1)
    tx.set_pgresult(found)
    return Result(columns=columns, rows=tx.load_rows(0, found.ntuples, tuple), rowcount=found.ntuples)


def _refuse_open_transaction(conn: psycopg.Connection[Any]) -> None:
    """After the Sync of a request's implicit transaction: if the statement was BEGIN, it turned that transaction
    into one that outlives the Sync. Nothing of it is kept (it would stay open on a pooled session, around the next
    borrower's statements): it is rolled back, the session cleaned, and the request refused."""
    if conn.info.transaction_status != TransactionStatus.IDLE:
        end(conn, "ROLLBACK")
        raise QueryError("a request's statement may not begin a transaction; use db.scoped() for several statements")


def one_round_trip(
    conn: psycopg.Connection[Any],
    query: Query,
    params: Params,
    *,
    token: str = "",
    reentry: Resolved | None = None,
    keep: tuple[ResolvedScopes, str] | None = None,
    clean: bool = True,
    prepare: bool = False,
) -> Result | None:
    """BEGIN, the entry of ``token`` (or the reentry of a kept token), ``query``, COMMIT and the cleanup in one
    pipeline (without the cleanup when ``clean`` is false: see :func:`send_end`). None when the kept token no
    longer verifies: the statement then ran under no scope (it saw and changed nothing) and the transaction has
    been ended; the caller enters afresh. ``prepare``: keep ``query`` prepared in the session (only the statements
    of :data:`scopedb.sqlfiles.KEPT`, never a caller's SQL).

    On a session whose transactions start READ COMMITTED and read-write by its startup packet, which also makes
    scopedb_app its role (:data:`scopedb.logins.PINNED_DEFAULTS`, every connection of scopedb's pools with prepared
    statements) there is no BEGIN, no role statement and no COMMIT: what the pipeline sends before its Sync is one
    implicit transaction, which the Sync commits, or rolls back when a statement failed (the server then skips the
    rest). Three statements fewer: BEGIN and COMMIT 20-30 µs of a request on one thread, the role 20-40 µs, more
    under concurrency (docs/architecture.md, "Requests").

    A kept token's reentry goes first to :func:`kept_request`, the same pipeline without psycopg's cursors; what it
    cannot send (:data:`RERUN`) is sent here, through them."""
    if reentry is not None:
        lean = kept_request(conn, reentry, query, params, prepare=prepare, clean=clean)
        if not isinstance(lean, _Rerun):
            return lean
    failure: psycopg.Error | None = None
    pending: PendingEntry | None = None
    last = None
    implicit = conn in PINNED_DEFAULTS
    lead = () if implicit else BEGIN_AS_APP
    cur = conn.cursor()
    try:
        with conn.pipeline():
            pending = (
                send_reentry(conn, reentry.token, names=False, lead=lead)
                if reentry is not None
                else send_entry(conn, token, keep=keep, lead=lead)
            )
            cur.execute(query, params, prepare=prepare)
            last = send_end(conn, None if implicit else "COMMIT", clean=clean)
    except psycopg.Error as exc:
        failure = exc  # the pipeline skipped everything after the failing statement, the end included
    if implicit and failure is None:
        _refuse_open_transaction(conn)
    entered = None
    if pending is not None:
        try:
            entered = read_entry(pending)
        except psycopg.Error:
            entered = None  # the entry itself failed: `failure` says why
    if reentry is not None and (entered is None or tuple(entered.project_ids) != reentry.project_ids):
        if failure is None and last is not None:
            read_end(conn, last)
        else:
            end(conn, "ROLLBACK")
        return None
    return _answer(conn, cur, last, failure)


def statement_and_end(
    conn: psycopg.Connection[Any], query: Query, params: Params, *, clean: bool = True, prepare: bool = False
) -> Result:
    """In a transaction already entered: ``query``, COMMIT and the cleanup (unless ``clean`` is false: see
    :func:`send_end`) in one pipeline (``prepare`` as in :func:`one_round_trip`)."""
    failure: psycopg.Error | None = None
    last = None
    cur = conn.cursor()
    try:
        with conn.pipeline():
            cur.execute(query, params, prepare=prepare)
            last = send_end(conn, "COMMIT", clean=clean)
    except psycopg.Error as exc:
        failure = exc
    return _answer(conn, cur, last, failure)


def _answer(
    conn: psycopg.Connection[Any],
    cur: psycopg.Cursor[Any],
    last: Ending | None,
    failure: psycopg.Error | None,
) -> Result:
    if failure is not None or last is None:
        end(conn, "ROLLBACK")  # roll back what the pipeline left open, and clean the session
        if failure is None:
            raise ScopedbError("the scoped statement was not sent")
        raise translate(failure) from failure
    columns = column_names(cur)
    rows = cur.fetchall() if columns is not None else []
    result = Result(columns=columns or (), rows=rows, rowcount=cur.rowcount)
    read_end(conn, last)
    return result


def first_statement(operation: Steps[Any]) -> Statement:
    """The statement a one-statement operation runs (its arguments are checked on the way)."""
    step = next(operation)
    if not isinstance(step, Statement):
        raise ScopedbError("this operation cannot run as a single-statement request")
    return step


def finish(operation: Steps[T], result: Result) -> T:
    """Hand the statement's result to the operation, which must then be done."""
    try:
        operation.send(result)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    raise ScopedbError("this operation needs more than one statement; run it in db.scoped()")


def fail(operation: Steps[Any], error: ScopedbError) -> NoReturn:
    """Hand the statement's error to the operation, which may translate it (and must not go on)."""
    try:
        operation.throw(error)  # raises the error, or the one the operation turns it into
    except StopIteration:
        raise error from None
    raise ScopedbError("this operation needs more than one statement; run it in db.scoped()") from error
