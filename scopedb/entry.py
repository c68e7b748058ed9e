# Generated from scopedb/entry_async.py by .ci/async_to_sync.py.
# Do not edit: edit the source, run `make generate`.
"""Scope entry on one connection: the statements that begin a scoped transaction and set its scope.

Generated from :mod:`scopedb.entry_async` by ``.ci/async_to_sync.py``: edit that file, not this one. The
database classes decide *which* token to enter (a kept resolved one, or a freshly signed one, retried once after a
key rotation); these functions send it, pipelined, in one round trip.

The token travels only as a bind parameter: every application session shares one login, and a session that resets
its role to that login can read the others' last statement in ``pg_stat_activity`` — a token written into the
statement text could be read there and replayed while it is valid.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, LiteralString

import psycopg
from psycopg import pq, sql
from psycopg.adapt import Transformer
from psycopg.pq import TransactionStatus

from scopedb import sqlfiles, wire
from scopedb.errors import ConfigurationError, DatabaseUnavailableError, translate
from scopedb.logins import CLEAN, PINNED_DEFAULTS, VETTED, judge_login
from scopedb.resolved import ResolvedScopes
from scopedb.scopestate import ScopeEntry
from scopedb.tokens import SigningKey

#: What a scoped transaction starts with: BEGIN (read-write, READ COMMITTED whatever the session's defaults), then
#: become scopedb_app.
BEGIN_AS_APP: tuple[LiteralString, ...] = (sqlfiles.query("session", "begin"), "SET LOCAL ROLE scopedb_app")

#: What it starts with on a session that is scopedb_app already, by its startup packet
#: (:data:`scopedb.logins.PINNED_DEFAULTS`). A one-round-trip request there starts with nothing at all.
BEGIN: tuple[LiteralString, ...] = (sqlfiles.query("session", "begin"),)


def lead_for(conn: psycopg.Connection[Any]) -> tuple[LiteralString, ...]:
    """The statements a scoped transaction on ``conn`` begins with: no role statement on a session whose own role
    is scopedb_app (the statement cost a request 20-40 µs, client and server)."""
    return BEGIN if conn in PINNED_DEFAULTS else BEGIN_AS_APP


@dataclass(frozen=True)
class Entered:
    """What entry learned: the scope's project ids as the database resolved them, and (when asked for, in the
    same round trip) their names, read under RLS."""

    project_ids: list[int]
    project_names: dict[str, int] | None = None


@dataclass
class PendingEntry:
    """The cursors of an entry sent in a pipeline that is still open; :func:`read_entry` reads them once the
    pipeline has synced. ``reentry``: the entry set a kept resolved token (reenter_scope) rather than entering a
    signed one; ``keep``: where to keep the resolved token an entry reads back."""

    entered: psycopg.Cursor[Any]
    names: psycopg.Cursor[Any] | None = None
    keep: tuple[ResolvedScopes, str] | None = None
    reentry: bool = False


def send_entry(
    conn: psycopg.Connection[Any],
    token: str,
    *,
    lead: tuple[LiteralString, ...] | None = None,
    trail: tuple[LiteralString, ...] = (),
    keep: tuple[ResolvedScopes, str] | None = None,
) -> PendingEntry:
    """Queue ``lead`` (by default :func:`lead_for` ``conn``), the entry of ``token`` (the function form) and
    ``trail`` in the caller's open pipeline.
    The entry's answer carries the scope's project names; with ``keep`` (the kept tokens and a key of them) the
    resolved token it also carries is kept for reentry. Nothing is sent until the pipeline syncs, so the caller
    may queue its own statements behind: they run under the scope, or are skipped if entry fails."""
    CLEAN.discard(conn)
    _send_quietly(conn, lead_for(conn) if lead is None else lead)
    # The entry's answer carries the resolved token and the projects' names too (a kept token keeps the names, so
    # a later request on it needs no lookup): ``names`` costs no statement of its own.
    entered = conn.execute(sqlfiles.query("session", "enter_scope"), {"token": token}, prepare=True)
    _send_quietly(conn, trail)
    return PendingEntry(entered, keep=keep)


def send_reentry(
    conn: psycopg.Connection[Any],
    token: str,
    *,
    names: bool = True,
    lead: tuple[LiteralString, ...] | None = None,
) -> PendingEntry:
    """Queue ``lead`` (by default :func:`lead_for` ``conn``), and the reentry of a resolved token kept from an
    earlier entry (with ``names``, the scope's project names too) in the caller's open pipeline. A token kept with
    its names needs no lookup: reenter_scope returns its ids only if the database still gives those ids the
    token's names."""
    CLEAN.discard(conn)
    _send_quietly(conn, lead_for(conn) if lead is None else lead)
    entered = conn.execute(sqlfiles.query("session", "reenter_scope"), {"token": token}, prepare=True)
    named = conn.execute(sqlfiles.query("session", "scope_projects")) if names else None
    return PendingEntry(entered, names=named, reentry=True)


def _send_quietly(conn: psycopg.Connection[Any], statements: tuple[LiteralString, ...]) -> None:
    """Queue ``statements``, whose answers nobody reads, prepared, through one cursor (a cursor each cost ~7 µs),
    and none when there are none (a request on a session that is scopedb_app by its startup packet)."""
    if statements:
        quiet = conn.cursor()
        for statement in statements:
            quiet.execute(statement, prepare=True)


def read_entry(pending: PendingEntry) -> Entered:
    """What a synced entry learned. No project ids from a reentry means its token no longer verifies."""
    row = pending.entered.fetchone()
    assert row is not None
    names = None if pending.names is None else pending.names.fetchall()
    return _entered(row, names, reentry=pending.reentry, keep=pending.keep)


def _entered(
    row: tuple[Any, ...],
    names: list[tuple[Any, ...]] | None,
    *,
    reentry: bool,
    keep: tuple[ResolvedScopes, str] | None,
) -> Entered:
    """What an entry learned from its answer (``row``) and, for a reentry asked for them, its ``names`` rows."""
    if reentry:  # reenter_scope returns the ids (or none)
        ids = [int(pid) for pid in row[0] or ()]
        return Entered(ids, None if names is None else _project_names(names))
    # enter_scope: a document with the ids, the resolved token and the projects' names.
    document = row[0]
    ids = [int(pid) for pid in document["project_ids"]]
    found = {str(name): int(pid) for name, pid in (document.get("projects") or {}).items()}
    if keep is not None and document.get("resolved"):
        keep[0].put(keep[1], str(document["resolved"]), ids, found)
    return Entered(ids, found)


def on_the_wire(conn: psycopg.Connection[Any]) -> bool:
    """Whether ``conn`` can take scopedb's statements without psycopg's cursors (:mod:`scopedb.wire`): a session
    of scopedb's pools that is scopedb_app, READ COMMITTED and read-write by its startup packet
    (:data:`~scopedb.logins.PINNED_DEFAULTS`), with prepared statements on (not behind a transaction-pooling
    PgBouncer), between transactions and out of pipeline mode."""
    return (
        conn in PINNED_DEFAULTS
        and conn.prepare_threshold is not None
        and conn.pgconn.pipeline_status == pq.PipelineStatus.OFF
        and conn.info.transaction_status == TransactionStatus.IDLE
    )


def send_batch(conn: psycopg.Connection[Any], batch: wire.Batch) -> list[pq.abc.PGresult]:
    """Send ``batch`` and a Sync in one pipeline and read every result, with one wait (:func:`scopedb.wire.exchange`).
    The connection is no longer known clean. A failure of the connection itself closes it, and so does an
    interruption (after psycopg's wait has cancelled the statement): a session left in pipeline mode, or halfway
    through a statement, is never lent again (the pool replaces a closed connection)."""
    pg = conn.pgconn
    batch.commands.append(pg.pipeline_sync)
    CLEAN.discard(conn)
    try:
        pg.enter_pipeline_mode()
        fetched = conn.wait(wire.exchange(pg, batch.commands))
        pg.exit_pipeline_mode()
    except psycopg.Error as exc:
        conn.close()
        raise translate(exc) from exc
    except BaseException:
        conn.close()
        raise
    return fetched


def wire_entry(
    conn: psycopg.Connection[Any],
    token: str,
    *,
    reentry: bool,
    names: bool = False,
    keep: tuple[ResolvedScopes, str] | None = None,
) -> Entered | None:
    """BEGIN and the entry of ``token`` (``reentry``: a resolved token kept from an earlier entry, with ``names``
    the scope's project names read too) in one pipeline, without psycopg's cursors, on a connection
    :func:`on_the_wire`; None on any other (the caller sends the entry through psycopg). The transaction stays
    open under the scope. Through psycopg's pipeline the same statements cost the client about 150 µs of CPU, a
    kept scope's server about 60 (docs/architecture.md, "Without psycopg's cursors").

    A statement that fails raises its error, translated, with the transaction left failed for the caller to roll
    back, as psycopg's path leaves it. If the statement that failed is one of scopedb's that the session no longer
    has (a tenant's ``DEALLOCATE`` is caught by the cleanup, which discards the session; psycopg's own ``DEALLOCATE
    ALL`` after a ROLLBACK is followed by :func:`scopedb.lifecycle.end`), scopedb forgets its names, rolls the
    failed transaction back and answers None, and the caller enters through psycopg."""
    if not on_the_wire(conn):
        return None
    tx = Transformer(conn)
    batch = wire.Batch(conn.pgconn, wire.prepared(conn))
    entry = sqlfiles.query("session", "reenter_scope" if reentry else "enter_scope")
    try:
        batch.prepared(wire.bind(tx, sqlfiles.query("session", "begin"), {}), "begin")
        batch.prepared(wire.bind(tx, entry, {"token": token}), "entry")
    except (ValueError, psycopg.Error):  # nothing sent: psycopg's path reports it
        return None
    if reentry and names:  # a read of a table: never kept prepared (its plan would outlive the transaction)
        batch.unnamed(sqlfiles.query("session", "scope_projects").encode(conn.info.encoding), (), None, None, "names")
    outcome = batch.outcome(send_batch(conn, batch), conn.info.encoding)
    answers = outcome.answers
    if answers is None:
        if outcome.error is None:  # what the session is in is not known: it is not lent again
            conn.close()
            raise DatabaseUnavailableError("the entry's answers did not match what it sent; the connection is closed")
        if outcome.statement_gone:  # one of scopedb's statements is gone: forget them all, and enter through
            batch.session.forget()  # psycopg this time, once the failed transaction is rolled back
            try:
                conn.execute("ROLLBACK")
            except psycopg.Error as exc:
                raise translate(exc) from exc
            return None
        raise translate(outcome.error) from outcome.error
    if conn.info.transaction_status != TransactionStatus.INTRANS:  # BEGIN did not begin one: never run unscoped
        conn.close()
        raise DatabaseUnavailableError("the scoped transaction did not begin; the connection is discarded")
    tx.set_pgresult(answers["entry"])
    row = tx.load_row(0, tuple)
    found = None
    if "names" in answers:
        tx.set_pgresult(answers["names"])
        found = tx.load_rows(0, answers["names"].ntuples, tuple)
    return _entered(row, found, reentry=reentry, keep=keep)


def _project_names(rows: list[tuple[Any, ...]]) -> dict[str, int]:
    """The rows of ``scope_projects`` (id, name) as name to id."""
    return {name: int(pid) for pid, name in rows}


def enter_token(
    conn: psycopg.Connection[Any],
    token: str,
    *,
    scope_entry: ScopeEntry,
    lead: tuple[LiteralString, ...] | None = None,
    trail: tuple[LiteralString, ...] = (),
    names: bool = False,
    keep: tuple[ResolvedScopes, str] | None = None,
) -> Entered:
    """Run ``lead``, enter the scope, then ``trail`` (skipped when entry fails), in one round trip (see
    :func:`send_entry`).

    ``scope_entry="set_local"`` is the form Citus forwards to its workers (``citus.propagate_set_commands =
    'local'``): SET takes no parameters, so the resolved token is in the text of that one statement while it
    runs, and the statement after it replaces that text at once (docs/security.md, residual channels). It costs a
    second round trip.
    """
    if scope_entry == "function" and lead is None and not trail:
        entered = wire_entry(conn, token, reentry=False, keep=keep)
        if entered is not None:
            return entered
    try:
        if scope_entry == "function":
            with conn.pipeline():
                pending = send_entry(conn, token, lead=lead, trail=trail, keep=keep)
            return read_entry(pending)
        CLEAN.discard(conn)
        with conn.pipeline():
            for statement in BEGIN_AS_APP if lead is None else lead:  # as it always was on Citus: not measured there
                conn.execute(statement)
            cur = conn.execute(sqlfiles.query("session", "resolve_scope"), {"token": token})
        resolved = cur.fetchone()
        assert resolved is not None
        with conn.pipeline():
            conn.execute(sql.SQL("SET LOCAL scopedb.scope_token = {}").format(sql.Literal(resolved[0])))
            cur = conn.execute(sqlfiles.query("session", "scope_project_ids"))
            for statement in trail:
                conn.execute(statement)
            named = conn.execute(sqlfiles.query("session", "scope_projects")) if names else None
        row = cur.fetchone()
        assert row is not None
        project_names = None if named is None else _project_names(named.fetchall())
    except psycopg.Error as exc:
        raise translate(exc) from exc
    return Entered([int(pid) for pid in row[0]], project_names)


def reenter(conn: psycopg.Connection[Any], token: str, *, names: bool = True) -> Entered:
    """BEGIN, become scopedb_app and set a resolved token kept from an earlier entry (with ``names``, reading the
    scope's project names): one round trip. No project ids means the token no longer verifies."""
    entered = wire_entry(conn, token, reentry=True, names=names)
    if entered is not None:
        return entered
    try:
        with conn.pipeline():
            pending = send_reentry(conn, token, names=names)
        return read_entry(pending)
    except psycopg.Error as exc:
        raise translate(exc) from exc


def vet_connection(conn: psycopg.Connection[Any]) -> None:
    """Refuse a connection whose login could step outside a scope (:class:`~scopedb.logins.PrivilegedLoginError`),
    once per connection: a connection scopedb's own pools did not make (a service's, SQLAlchemy's) is judged on its
    first entry, in the transaction the caller has open, with one round trip."""
    if conn in VETTED:
        return
    try:
        with conn.pipeline():
            conn.execute("SET LOCAL ROLE scopedb_app")
            cur = conn.execute(sqlfiles.query("admin", "login_hazards"))
        judge_login(cur.fetchone())
    except psycopg.errors.InsufficientPrivilege:
        raise ConfigurationError("the connection's login is not a member of scopedb_app") from None
    except psycopg.Error as exc:
        raise translate(exc) from exc
    VETTED.add(conn)


def check_app_login(app_dsn: str) -> tuple[str, int | None]:
    """Refuse an application login that could step outside a scope; return the database name (the audience) and
    the width of ``fragments.embedding`` (None before the first migration), which every vector operation needs
    and which never changes, so no request asks for it again."""
    try:
        with psycopg.Connection.connect(app_dsn, autocommit=True) as conn:
            try:
                conn.execute("SET ROLE scopedb_app")
            except psycopg.errors.InsufficientPrivilege:
                raise ConfigurationError("the application login is not a member of scopedb_app") from None
            audience = judge_login((conn.execute(sqlfiles.query("admin", "login_hazards"))).fetchone())
            width = (conn.execute(sqlfiles.query("session", "embedding_width"))).fetchone()
            return audience, None if width is None else int(width[0])
    except psycopg.OperationalError as exc:
        raise DatabaseUnavailableError(
            "could not connect as the application login (was the database migrated?)"
        ) from exc
    except psycopg.Error as exc:
        raise translate(exc) from exc


def read_signing_key(admin_dsn: str) -> SigningKey | None:
    """The database's active signing key, read through the admin login on a connection of its own (so an async
    database reads it without blocking the loop and keeps no sync connection afterwards)."""
    try:
        with psycopg.Connection.connect(admin_dsn, autocommit=True, connect_timeout=10) as conn:
            row = (conn.execute(sqlfiles.query("admin", "active_signing_key"))).fetchone()
    except psycopg.OperationalError as exc:
        raise DatabaseUnavailableError("could not connect as the admin login to read the signing key") from exc
    except psycopg.Error as exc:
        raise translate(exc) from exc
    return SigningKey(row[0], bytes(row[1])) if row else None
