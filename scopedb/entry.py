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
from psycopg import sql

from scopedb import sqlfiles
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
    if pending.reentry:  # reenter_scope returns the ids (or none)
        ids = [int(pid) for pid in row[0] or ()]
        names = None if pending.names is None else _project_names(pending.names.fetchall())
        return Entered(ids, names)
    # enter_scope: a document with the ids, the resolved token and the projects' names.
    document = row[0]
    ids = [int(pid) for pid in document["project_ids"]]
    names = {str(name): int(pid) for name, pid in (document.get("projects") or {}).items()}
    if pending.keep is not None and document.get("resolved"):
        pending.keep[0].put(pending.keep[1], str(document["resolved"]), ids, names)
    return Entered(ids, names)


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
