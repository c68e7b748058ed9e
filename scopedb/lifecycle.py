# Generated from scopedb/lifecycle_async.py by .ci/async_to_sync.py.
# Do not edit: edit the source, run `make generate`.
"""How a scoped transaction ends, and what a pooled application connection must be before it is lent out.

Generated from :mod:`scopedb.lifecycle_async` by ``.ci/async_to_sync.py``: edit that file, not this one.
Only an end that completes marks a connection clean (:data:`scopedb.logins.CLEAN`); the pools' reset hook
discards any other, so a transaction interrupted mid-COMMIT never hands its session state to the next tenant.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import psycopg
from psycopg import sql
from psycopg.pq import TransactionStatus

from scopedb import sqlfiles, wire
from scopedb.errors import translate
from scopedb.logins import CLEAN, PINNED_DEFAULTS, DirtyConnectionError, StoredSettingsError, stored_setting_names
from scopedb.vectors import teach_query_vectors

log = logging.getLogger("scopedb.database")

#: A prepare threshold no statement reaches by repetition: the driver then prepares a statement only when asked
#: to (``prepare=True``), which scopedb does for BEGIN, the role, COMMIT and the statements of
#: :data:`scopedb.sqlfiles.KEPT` alone, never for a caller's SQL nor a text carrying a token or a literal.
ONLY_WHEN_ASKED = sys.maxsize


def app_connection_options(app_dsn: str, *, prepared_statements: bool = True) -> dict[str, Any]:
    """Options of every application pool's connections. With ``prepared_statements``, scopedb's own statements
    are prepared on the server once per connection and kept from transaction to transaction (about 0.1-0.2 ms of
    a search request: no parsing, no planning); without, nothing is prepared, as a transaction-pooling PgBouncer
    before 1.21 (or one without ``max_prepared_statements``) requires.

    A kept plan carries the JIT decision made when it was planned, perhaps in another tenant's transaction under
    its ``jit_above_cost``; the session therefore starts with ``jit = off`` (a startup option, which ``RESET ALL``
    returns to), and a plan compiles nothing unless the transaction running it turned JIT on itself.

    The startup options also fix what every transaction of the session starts as (READ COMMITTED, read-write, not
    deferrable), above any setting stored for the login and whatever the server's configuration says: the
    one-round-trip requests then send no BEGIN to say so, and no COMMIT (:data:`scopedb.logins.PINNED_DEFAULTS`).
    And they make ``scopedb_app`` the session's role: what ``RESET ROLE`` (in the session cleanup, or a tenant's
    SQL) returns to, so no request or scoped block sends a statement to become it. The login is still reachable
    (``SET ROLE NONE``), as it was; it is just never what a pooled session is between two requests.
    A PgBouncer that cannot carry prepared statements is assumed not to pass startup options either: those
    connections get none of this, and their transactions keep BEGIN, the role and COMMIT."""
    if not prepared_statements:
        return {"autocommit": True, "prepare_threshold": None}
    # Added to the options the DSN (or PGOPTIONS) already gives, which an ``options`` argument would replace.
    given = psycopg.conninfo.conninfo_to_dict(app_dsn).get("options") or os.environ.get("PGOPTIONS") or ""
    options = f"{given} -c jit=off {_TRANSACTION_DEFAULTS} -c role=scopedb_app".strip()
    return {"autocommit": True, "prepare_threshold": ONLY_WHEN_ASKED, "options": options}


#: What every transaction of an application session starts as, in the startup packet's syntax (a space in a value
#: is escaped): what ``BEGIN ISOLATION LEVEL READ COMMITTED, READ WRITE, NOT DEFERRABLE`` says for one transaction.
_TRANSACTION_DEFAULTS = (
    "-c default_transaction_isolation=read\\ committed -c default_transaction_read_only=off"
    " -c default_transaction_deferrable=off"
)


def driver_statements(conn: psycopg.Connection[Any]) -> frozenset[str]:
    """The names of the statements the driver believes prepared on ``conn``'s session: psycopg's, and those
    scopedb prepared itself (:mod:`scopedb.wire`). psycopg has no public list: its cache is read here and in
    :func:`driver_holds_statements`, and a test holds it to the server's own view."""
    return frozenset(name.decode() for name in conn._prepared._names.values()) | wire.statement_names(conn)


def driver_holds_statements(conn: psycopg.Connection[Any]) -> bool:
    """Whether psycopg's own cache of prepared statements holds any (see :func:`follow_driver`)."""
    return bool(conn._prepared._names)


def follow_driver(conn: psycopg.Connection[Any], had: bool) -> None:
    """psycopg answers a ROLLBACK it runs (a ``ROLLBACK TO SAVEPOINT`` too, or a DROP, an ALTER) by removing every
    prepared statement of the session (``DEALLOCATE ALL``) when its own cache holds any (``had``: it held some
    before the statement, :func:`driver_holds_statements`). That removes scopedb's own statements too: scopedb
    forgets them as well, and prepares them afresh on the next request, rather than send it to a name that is
    gone, or discard a connection whose statements only psycopg removed."""
    if had and not driver_holds_statements(conn):
        wire.prepared(conn).forget()


def _keep_if_intact(conn: psycopg.Connection[Any], expected: frozenset[str], present: Sequence[str]) -> None:
    """Mark ``conn`` clean only if every statement the driver believed prepared before the cleanup is still on the
    server. SQL cannot prepare a statement under the driver's names, but it can remove one (``DEALLOCATE name``,
    or ``DEALLOCATE ALL`` inside a function, out of the driver's sight); the driver would then send the next
    tenant's statement to a name that is gone, or that a ``PREPARE`` took over. Such a connection is discarded."""
    missing = expected.difference(present or ())
    if missing:
        log.warning("a transaction removed %d prepared statement(s) of the driver; the connection is discarded",
                    len(missing))  # fmt: skip
        return
    CLEAN.add(conn)


def keep_only_if_clean(conn: psycopg.Connection[Any]) -> None:
    """Pool ``reset`` hook: raising makes the pool close the connection rather than lend it out again."""
    if conn in CLEAN:
        CLEAN.discard(conn)
        return
    raise DirtyConnectionError()


def end(conn: psycopg.Connection[Any], statement: Literal["COMMIT", "ROLLBACK", ""]) -> None:
    """End the scoped transaction and clean the session (``end_cleanup`` in ``sql/queries/session.sql``) in one
    round trip; a failed COMMIT raises, after cleaning up. Anything that interrupts the end (KeyboardInterrupt, a
    cancelled task) leaves the connection unmarked, to be discarded, as does a transaction that removed one of
    the driver's prepared statements (:func:`_keep_if_intact`).

    A ROLLBACK of a transaction that has already ended (the implicit transaction of a failed pipeline, which the
    server rolled back at its Sync) is not sent: the session is cleaned alone."""
    expected = driver_statements(conn)
    had = driver_holds_statements(conn)
    if statement == "ROLLBACK" and conn.info.transaction_status == TransactionStatus.IDLE:
        statement = ""
    try:
        present = end_cleanup(conn, statement)
    except psycopg.Error as exc:
        quietly_roll_back(conn, entry=False)
        try:
            present = end_cleanup(conn)
        except psycopg.Error:
            conn.close()  # the pool replaces a closed connection rather than lend out a dirty one
            if statement == "COMMIT":
                raise translate(exc) from exc
            return
        _keep_if_intact(conn, expected, present)
        follow_driver(conn, had)
        if statement == "COMMIT":
            raise translate(exc) from exc
        log.debug("rollback failed: %s", type(exc).__name__)
        return
    _keep_if_intact(conn, expected, present)
    follow_driver(conn, had)


def end_cleanup(conn: psycopg.Connection[Any], statement: Literal["COMMIT", "ROLLBACK", ""] = "") -> list[str]:
    """Run ``statement`` (if any) and the session cleanup as one string; remove settings found stored for the
    login (see :func:`refuse_stored_settings`). Returns the names of the prepared statements left."""
    cleanup = sqlfiles.query("session", "end_cleanup")
    cur = conn.execute(f"{statement}; {cleanup}" if statement else cleanup)
    while cur.nextset():
        pass  # the last result is the stored-settings check and the statements left
    row = cur.fetchone()
    assert row is not None
    if row[0]:
        remove_stored_settings(conn)
    return list(row[2] or ())


@dataclass
class Ending:
    """An end queued by :func:`send_end`: the cursor that answers it, and (when the cleanup was queued) the
    statements the driver believed prepared just before it."""

    cursor: psycopg.Cursor[Any] | None
    prepared: frozenset[str] | None = None


def send_end(
    conn: psycopg.Connection[Any], statement: Literal["COMMIT", "ROLLBACK"] | None, *, clean: bool = True
) -> Ending:
    """Queue the session cleanup and ``statement`` in the caller's open pipeline, behind the transaction's own
    statements: the end then costs no round trip of its own, and two statements (``scopedb.clean_session``, inside
    the transaction, says why). Returns what :func:`read_end` needs once the pipeline has synced; if anything
    before it failed, the pipeline skipped the rest, and the caller ends with :func:`end` instead.

    ``statement=None``: the transaction is the implicit one of the pipeline (no BEGIN was sent), which the Sync
    that closes the pipeline commits; only the cleanup is queued, or nothing at all.

    ``clean=False`` queues ``statement`` alone: only for a transaction whose statements are all scopedb's own
    searches (the requests' ``search_text``, ``search_vector`` and ``search_graph``). They change nothing that
    outlives the transaction (their settings are transaction-local: ``set_config(..., true)``, SET LOCAL, the
    functions' SET clauses; they leave no cursor open, and prepare (by SQL), listen, lock or store nothing), and
    the session was clean when the transaction began, so the cleanup would undo nothing; it costs a statement
    (about 60 µs of a request, client and server)."""
    if not clean:
        return Ending(None if statement is None else conn.execute(statement, prepare=True))
    prepared = driver_statements(conn)
    cleaned = conn.execute(sqlfiles.query("session", "clean_session"), prepare=True)
    if statement is not None:
        conn.execute(statement, prepare=True)
    return Ending(cleaned, prepared)


def read_end(conn: psycopg.Connection[Any], last: Ending) -> None:
    """Finish an end sent by :func:`send_end`: when the cleanup ran, remove settings found stored for the login
    and check the driver's prepared statements (:func:`_keep_if_intact`); mark the connection clean."""
    if last.prepared is None or last.cursor is None:
        CLEAN.add(conn)
        return
    row = last.cursor.fetchone()
    assert row is not None
    judge_cleanup(conn, last.prepared, row)


def judge_cleanup(conn: psycopg.Connection[Any], expected: frozenset[str], row: Sequence[Any]) -> None:
    """What ``scopedb.clean_session`` answered (``row``: whether settings are stored for the login, the prepared
    statements left), judged: remove the stored settings, and mark the connection clean only if every statement
    in ``expected`` (:func:`driver_statements` before the cleanup) is still there."""
    if row[0]:
        remove_stored_settings(conn)
    _keep_if_intact(conn, expected, row[1])


def refuse_stored_settings(conn: psycopg.Connection[Any]) -> None:
    """Pool ``configure`` hook: a new application connection must not start with settings stored for the login.

    Stored settings become the session's defaults at login and what ``RESET ALL`` goes back to, so a tenant that
    stored them (after ``RESET ROLE``, as the shared login) would reach every session opened afterwards. scopedb
    pins what its results depend on in every transaction; this removes the rest at its source and discards the
    connection that started with them (the pool opens another).
    """
    try:
        stored = (conn.execute(sqlfiles.query("session", "stored_settings"))).fetchall()
    except psycopg.Error as exc:
        raise translate(exc) from exc
    if stored:
        remove_stored_settings(conn)
        raise StoredSettingsError()


def prepare_connection(conn: psycopg.Connection[Any]) -> None:
    """Pool ``configure`` hook: refuse a connection that starts with settings stored for the login
    (:func:`refuse_stored_settings`), then make the session's memo of verified tokens (``prepare_session`` in
    ``sql/queries/session.sql``) in a transaction that commits, so no scoped transaction pays for the table, and a
    rolled-back one cannot undo it. A database migrated before the memo existed has no such function: the
    connection then simply has no memo, and every statement verifies its scope in full. The connection also
    learns to bind query vectors (:func:`scopedb.vectors.teach_query_vectors`), and is marked
    :data:`~scopedb.logins.PINNED_DEFAULTS` if its startup packet fixed what its transactions start as and its
    role."""
    teach_query_vectors(conn)
    refuse_stored_settings(conn)
    try:
        pinned = (conn.execute(sqlfiles.query("session", "pinned_session_defaults"))).fetchone()
    except psycopg.Error as exc:
        raise translate(exc) from exc
    if pinned is not None and pinned[0]:
        PINNED_DEFAULTS.add(conn)
    try:
        cur = conn.execute(sqlfiles.query("session", "prepare_session"))
        while cur.nextset():
            pass
    except psycopg.errors.UndefinedFunction:
        conn.execute("ROLLBACK")
    except psycopg.Error as exc:
        raise translate(exc) from exc


def remove_stored_settings(conn: psycopg.Connection[Any]) -> None:
    """``ALTER ROLE CURRENT_USER [IN DATABASE ...] RESET ALL`` as the login (a role may always reset its own), and
    say which settings were found — their names only. The session's role is the login's for that (``SET ROLE
    NONE``: a pooled session's own role is scopedb_app, see :func:`app_connection_options`) and is reset after."""
    try:
        rows = (conn.execute(sqlfiles.query("session", "stored_settings"))).fetchall()
        conn.execute("SET SESSION default_transaction_read_only = off")  # a stored 'on' refuses ALTER ROLE
        conn.execute("SET ROLE NONE")
        conn.execute("ALTER ROLE CURRENT_USER RESET ALL")
        conn.execute(
            sql.SQL("ALTER ROLE CURRENT_USER IN DATABASE {} RESET ALL").format(sql.Identifier(conn.info.dbname))
        )
    except psycopg.Error as exc:
        log.error("could not remove settings stored for the application login: %s", type(exc).__name__)
        return
    finally:
        with contextlib.suppress(psycopg.Error):  # back to the session's own role, whatever failed above
            conn.execute("RESET ROLE")
            conn.execute("RESET default_transaction_read_only")
    log.warning("removed settings stored for the application login %s: %s", conn.info.user, stored_setting_names(rows))


def quietly_roll_back(conn: psycopg.Connection[Any], *, entry: bool = True) -> None:
    """End a transaction without masking the exception on its way out. For a failed ``entry`` (before any of the
    caller's SQL ran) a completed rollback leaves nothing behind: the connection is clean."""
    had = driver_holds_statements(conn)
    try:
        conn.execute("ROLLBACK")
    except psycopg.Error:
        log.debug("could not roll back after an error")
        return
    follow_driver(conn, had)
    if entry:
        CLEAN.add(conn)
