"""The entry point: open a database, migrate it, administer it, and run scoped transactions.

::

    db = Database.open()                       # SCOPEDB_DATABASE_URL, docker, or the embedded server
    db.migrate()
    with db.scoped(ResourceScope(project_names={"acme/api"})) as s:
        s.execute("SELECT id, path FROM scopedb.fragments")   # only acme/api's rows, enforced by Postgres
"""

from __future__ import annotations

import logging
import os
import threading
import weakref
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal, LiteralString

import psycopg
from psycopg import sql
from psycopg_pool import ConnectionPool, PoolTimeout

from scopedb import migrations, sqlfiles
from scopedb.admin import Admin
from scopedb.errors import (
    ConfigurationError,
    DatabaseUnavailableError,
    InvalidSignatureError,
    ScopedbError,
    translate,
)
from scopedb.resolved import ResolvedScopes
from scopedb.scope import ResourceScope
from scopedb.server import APP_LOGIN_ROLE, Backend, Server, resolve_server
from scopedb.session import ScopedSession
from scopedb.tokens import SigningKey, sign_scope

log = logging.getLogger(__name__)

ScopeEntry = Literal["function", "set_local"]


class PrivilegedLoginError(ConfigurationError):
    """refusing to run scoped transactions as a login that can step outside a scope (superuser, BYPASSRLS,
    REPLICATION, CREATEROLE, a member of scopedb_owner or of a role that reads all data, itself or through a role
    it belongs to): pass app_dsn (or SCOPEDB_APP_DATABASE_URL) for a login that is only in scopedb_app"""

    def __init__(self, message: str | None = None, *, hazards: Sequence[str] = ()) -> None:
        text = message or " ".join((self.__doc__ or "").split())
        super().__init__(f"{text} [{'; '.join(hazards)}]" if hazards else text)
        self.hazards = tuple(hazards)


class Database:
    """A scopedb database: an admin connection for owner-side work and a pool of application connections.

    Use :meth:`open` rather than the constructor. A Database is safe to share between threads.
    """

    def __init__(
        self,
        server: Server,
        *,
        app_dsn: str | None = None,
        signing_key: SigningKey | None = None,
        token_ttl_seconds: int = 300,
        pool_size: int = 4,
        scope_entry: ScopeEntry = "function",
    ) -> None:
        if scope_entry not in ("function", "set_local"):
            raise ConfigurationError("scope_entry must be 'function' or 'set_local'")
        if token_ttl_seconds <= 0:
            raise ConfigurationError("token_ttl_seconds must be positive")
        self.server = server
        self._explicit_app_dsn = app_dsn
        self._fixed_key = signing_key
        self._key: SigningKey | None = signing_key
        self._token_ttl = token_ttl_seconds
        self._pool_size = pool_size
        self._scope_entry: ScopeEntry = scope_entry
        self._lock = threading.RLock()  # _pool may call admin() while it holds the lock
        self._admin_pool: ConnectionPool[psycopg.Connection[Any]] | None = None
        self._app_pool: ConnectionPool[psycopg.Connection[Any]] | None = None
        self._audience: str | None = None
        self._closed = False
        # A kept token is reused only while at least half its lifetime is left, so a transaction entered from one
        # has as long before its scope expires as the token lifetime's half (see scopedb.resolved).
        self._resolved = ResolvedScopes(margin_seconds=token_ttl_seconds / 2)

    # Opening and closing --------------------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        dsn: str | None = None,
        *,
        app_dsn: str | None = None,
        signing_key: SigningKey | None = None,
        backend: Backend | None = None,
        home: Path | None = None,
        token_ttl_seconds: int = 300,
        pool_size: int = 4,
        scope_entry: ScopeEntry = "function",
    ) -> Database:
        """Open the database the resolver finds (see :mod:`scopedb.server`).

        ``dsn`` is an administrative login (member of ``scopedb_owner``, or a superuser). Scoped transactions run
        on ``app_dsn`` (or ``SCOPEDB_APP_DATABASE_URL``): a login that is a member of ``scopedb_app`` and can
        never bypass RLS. On servers scopedb starts itself it creates that login; on an existing server without
        an app DSN it uses ``dsn`` and refuses to run scoped transactions if that login is privileged.
        Scope tokens are signed with ``signing_key`` (or ``SCOPEDB_SIGNING_KEY``), else with the database's
        active key read through the admin login.
        """
        server = resolve_server(dsn, backend=backend, home=home)
        return cls(
            server,
            app_dsn=app_dsn or os.environ.get("SCOPEDB_APP_DATABASE_URL") or None,
            signing_key=signing_key or SigningKey.from_env(),
            token_ttl_seconds=token_ttl_seconds,
            pool_size=pool_size,
            scope_entry=scope_entry,
        )

    @property
    def dsn(self) -> str:
        """The administrative DSN."""
        return self.server.dsn

    def close(self) -> None:
        """Close the connection pools (the embedded server stops when the process exits)."""
        with self._lock:
            self._closed = True
            for pool in (self._app_pool, self._admin_pool):
                if pool is not None:
                    pool.close()
            self._app_pool = self._admin_pool = None

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # Schema -----------------------------------------------------------------------------------------------------

    def migrate(self, *, embedding_dim: int = sqlfiles.DEFAULT_EMBEDDING_DIM) -> None:
        """Bring the schema to the latest revision (idempotent) and make sure a signing key exists.

        ``embedding_dim`` fixes the width of ``fragments.embedding`` on the first migration only.
        """
        migrations.upgrade(self.dsn, embedding_dim=embedding_dim)
        admin = self.admin()
        if self._fixed_key is None:
            with self._lock:
                self._key = admin.ensure_signing_key()
        if self.server.manages_logins and self._explicit_app_dsn is None:
            # Trust authentication: the servers scopedb starts listen only on a Unix socket inside their private data
            # directory (scopedb.server), so only the OS user that started them can connect at all.
            admin.ensure_app_login()

    def admin(self) -> Admin:
        """Owner-side operations (projects, resources, keys); needs an admin login."""
        return Admin(self._pool("admin"))

    # Scopes -----------------------------------------------------------------------------------------------------

    def sign(self, scope: ResourceScope, *, actor: str | None = None, ttl_seconds: int | None = None) -> str:
        """A signed token for ``scope``, valid for this database only."""
        self._pool("app")  # learns the audience (the database name) on first use
        assert self._audience is not None
        return sign_scope(
            scope,
            self._signing_key(),
            audience=self._audience,
            ttl_seconds=ttl_seconds or self._token_ttl,
            actor=actor,
        )

    def resolve_resource_scope(
        self,
        project_names: Iterable[str],
        *,
        include: Iterable[str] | None = None,
        exclude: Iterable[str] | None = None,
    ) -> ResourceScope:
        """A scope narrowed to resources of ``project_names`` chosen by alias or id, with their child resources
        expanded by PostgreSQL (see :mod:`scopedb.aliases`). Reads run under the projects' own scope."""
        from scopedb.aliases import DatabaseResourceRegistry

        names = frozenset(project_names)
        if not names:
            raise ValueError("resolve_resource_scope needs at least one project")
        with self.scoped(ResourceScope(project_names=names)) as session:
            return DatabaseResourceRegistry(session).resolve_resource_scope(names, include=include, exclude=exclude)

    @contextmanager
    def scoped(self, scope: ResourceScope, *, actor: str | None = None) -> Iterator[ScopedSession]:
        """One transaction as ``scopedb_app`` with ``scope`` entered; committed on success, rolled back on error.

        Every statement in it — scopedb's or yours via :meth:`ScopedSession.execute` — sees only the scope's rows,
        because Postgres's policies verify the signed scope on every statement.
        """
        if not isinstance(scope, ResourceScope):
            raise ConfigurationError("scoped() takes a ResourceScope")
        pool = self._pool("app")
        try:
            with pool.connection() as conn:
                project_ids = self._enter(conn, scope, actor=actor)
                session = ScopedSession(conn, project_ids=project_ids)
                try:
                    yield session
                except BaseException:
                    session._close()
                    _end(conn, "ROLLBACK")
                    raise
                session._close()
                _end(conn, "COMMIT")
        except PoolTimeout as exc:
            raise DatabaseUnavailableError("no database connection became free in time") from exc

    def _enter(self, conn: psycopg.Connection[Any], scope: ResourceScope, *, actor: str | None) -> list[int]:
        """BEGIN, become scopedb_app, enter the signed scope: one round trip. Reuses the scope's resolved token
        while it is valid (see :mod:`scopedb.resolved`); retries once after a key rotation."""
        key = self._resolved.key(scope, actor) if self._scope_entry == "function" else None
        if key is not None and (kept := self._resolved.get(key)) is not None:
            try:
                ids = self._reenter(conn, kept.token)
            except BaseException:
                _quietly(conn, "ROLLBACK")
                raise
            if ids and tuple(ids) == kept.project_ids:
                return ids
            _quietly(conn, "ROLLBACK")  # it no longer verifies (a retired key, a renamed project): resolve afresh
            self._resolved.discard(key)
        for attempt in (1, 2):
            token = self.sign(scope, actor=actor)
            try:
                return self._enter_token(conn, token, remember=key)
            except InvalidSignatureError:
                _quietly(conn, "ROLLBACK")
                if attempt == 2 or self._fixed_key is not None:
                    raise
                with self._lock:
                    self._key = None  # the cached key was rotated out; read the active one again
            except BaseException:
                _quietly(conn, "ROLLBACK")
                raise
        raise AssertionError("unreachable")

    def _reenter(self, conn: psycopg.Connection[Any], token: str) -> list[int]:
        """BEGIN, become scopedb_app and set a resolved token kept from an earlier entry: one round trip. Returns
        the project ids the database reads from it (none when it no longer verifies)."""
        _CLEAN.discard(conn)
        try:
            with conn.pipeline():
                conn.execute(sqlfiles.query("session", "begin"))
                conn.execute("SET LOCAL ROLE scopedb_app")
                cur = conn.execute(sqlfiles.query("session", "reenter_scope"), {"token": token})
            ids = cur.fetchone()
        except psycopg.Error as exc:
            raise translate(exc) from exc
        assert ids is not None
        return [int(pid) for pid in ids[0] or ()]

    def enter_scope(
        self, conn: psycopg.Connection[Any], scope: ResourceScope, *, actor: str | None = None
    ) -> list[int]:
        """Enter ``scope`` in the transaction already open on ``conn``; returns the scope's project ids.

        For integrations that own the connection and the transaction (:mod:`scopedb.sqlalchemy`, a service's own
        pool): ``conn`` must be logged in as the application login, and not in autocommit mode, because the role
        and the scope are transaction-local and would end with the statement. Everything the transaction runs
        afterwards is under RLS for ``scope``. A key rotated and retired since the last call is picked up through
        a savepoint, without failing the caller's transaction.
        """
        if not isinstance(scope, ResourceScope):
            raise ConfigurationError("enter_scope() takes a ResourceScope")
        if conn.autocommit:
            raise ConfigurationError("enter_scope() needs a connection in a transaction, not in autocommit mode")
        self.vet_connection(conn)
        lead: tuple[LiteralString, ...] = ("SET LOCAL ROLE scopedb_app", "SAVEPOINT scopedb_entry")
        for attempt in (1, 2):
            token = self.sign(scope, actor=actor)
            try:
                return self._enter_token(conn, token, lead=lead, trail=("RELEASE SAVEPOINT scopedb_entry",))
            except InvalidSignatureError:
                if attempt == 2 or self._fixed_key is not None:
                    raise
                with self._lock:
                    self._key = None
                lead = ("ROLLBACK TO SAVEPOINT scopedb_entry",)
        raise AssertionError("unreachable")

    def vet_connection(self, conn: psycopg.Connection[Any]) -> None:
        """Refuse a connection whose login could step outside a scope (:class:`PrivilegedLoginError`), once per
        connection: a connection scopedb's own pools did not make (a service's, SQLAlchemy's) is judged on its first
        entry, in the transaction the caller has open, with one round trip."""
        if conn in _VETTED:
            return
        try:
            with conn.pipeline():
                conn.execute("SET LOCAL ROLE scopedb_app")
                cur = conn.execute(sqlfiles.query("admin", "login_hazards"))
            _judge_login(cur.fetchone())
        except psycopg.errors.InsufficientPrivilege:
            raise ConfigurationError("the connection's login is not a member of scopedb_app") from None
        except psycopg.Error as exc:
            raise translate(exc) from exc
        _VETTED.add(conn)

    def _enter_token(
        self,
        conn: psycopg.Connection[Any],
        token: str,
        *,
        lead: tuple[LiteralString, ...] = (sqlfiles.query("session", "begin"), "SET LOCAL ROLE scopedb_app"),
        trail: tuple[LiteralString, ...] = (),
        remember: str | None = None,
    ) -> list[int]:
        """Run ``lead`` (by default: BEGIN, become scopedb_app), enter the scope, then run ``trail``, in one round
        trip (a pipeline); ``trail`` is skipped when entry fails. With ``remember`` (a key of
        :class:`~scopedb.resolved.ResolvedScopes`), the resolved token is read in the same round trip and kept.

        The token travels only as a bind parameter: every application session shares one login, and a session
        that resets its role to that login can read the others' last statement in ``pg_stat_activity`` — a token
        written into the statement text could be read there and replayed while it is valid.
        """
        _CLEAN.discard(conn)
        try:
            if self._scope_entry == "function":
                with conn.pipeline():
                    for statement in lead:
                        conn.execute(statement)
                    cur = conn.execute(sqlfiles.query("session", "enter_scope"), {"token": token})
                    for statement in trail:
                        conn.execute(statement)
                    kept = conn.execute(sqlfiles.query("session", "resolved_token")) if remember else None
                entered = cur.fetchone()
                assert entered is not None
                ids = [int(pid) for pid in entered[0]["project_ids"]]
                if remember is not None and kept is not None and (row := kept.fetchone()) is not None:
                    self._resolved.put(remember, row[0], ids)
                return ids
            # The SET LOCAL form: what Citus forwards to its workers (citus.propagate_set_commands = 'local').
            # SET takes no parameters, so the resolved token is in the text of that one statement while it runs;
            # the statement after it replaces that text at once (docs/security.md, residual channels).
            with conn.pipeline():
                for statement in lead:
                    conn.execute(statement)
                cur = conn.execute(sqlfiles.query("session", "resolve_scope"), {"token": token})
            resolved = cur.fetchone()
            assert resolved is not None
            with conn.pipeline():
                conn.execute(sql.SQL("SET LOCAL scopedb.scope_token = {}").format(sql.Literal(resolved[0])))
                cur = conn.execute(sqlfiles.query("session", "scope_project_ids"))
                for statement in trail:
                    conn.execute(statement)
            row = cur.fetchone()
            assert row is not None
            return [int(pid) for pid in row[0]]
        except psycopg.Error as exc:
            raise translate(exc) from exc

    def _signing_key(self) -> SigningKey:
        with self._lock:
            if self._key is not None:
                return self._key
        key = self.admin().active_signing_key()
        if key is None:
            raise ConfigurationError("no active signing key: run db.migrate() or `scopedb keys rotate`")
        with self._lock:
            self._key = key
        return key

    # Connection pools -------------------------------------------------------------------------------------------

    def _pool(self, which: Literal["admin", "app"]) -> ConnectionPool[psycopg.Connection[Any]]:
        with self._lock:
            if self._closed:
                raise ScopedbError("the database has been closed")
            pool = self._admin_pool if which == "admin" else self._app_pool
            if pool is not None:
                return pool
            if which == "admin":
                _check_reachable(self.dsn)
                pool = self._admin_pool = _make_pool(self.dsn, min_size=0, max_size=2, name="scopedb-admin")
                return pool
            app_dsn = self._checked_app_dsn()
            pool = self._app_pool = _make_pool(
                app_dsn,
                min_size=1,
                max_size=self._pool_size,
                name="scopedb-app",
                # No server-side prepared statements: the cleanup after each transaction (DEALLOCATE ALL) and a
                # transaction-pooling PgBouncer both drop them behind the driver's back.
                kwargs={"autocommit": True, "prepare_threshold": None},
                configure=refuse_stored_settings,
                reset=_keep_only_if_clean,
            )
            return pool

    def _checked_app_dsn(self) -> str:
        """The application login's DSN, after checking the login cannot step outside a scope (provisioning
        scopedb's own login where the given one is privileged and the server allows it). Learns the audience."""
        with self._lock:
            app_dsn = self._app_dsn()
            try:
                self._audience = _check_app_login(app_dsn)
            except PrivilegedLoginError:
                if self._explicit_app_dsn:
                    raise
                app_dsn, self._audience = self._provisioned_app_login()
            return app_dsn

    def _provisioned_app_login(self) -> tuple[str, str]:
        """The admin login is privileged and no app login was given: on a server that lets scopedb's own
        NOINHERIT login in without a password (trust or peer authentication, as on the servers it starts), use
        that; otherwise keep refusing. Called with the lock held."""
        candidate = self.server.dsn_for(user=APP_LOGIN_ROLE)
        try:
            self.admin().ensure_app_login()
            audience = _check_app_login(candidate)
        except ScopedbError:
            raise PrivilegedLoginError() from None
        self._explicit_app_dsn = candidate
        return candidate, audience

    @property
    def app_dsn(self) -> str:
        """The DSN of the application login scoped transactions use."""
        return self._app_dsn()

    def _app_dsn(self) -> str:
        if self._explicit_app_dsn:
            return self._explicit_app_dsn
        if self.server.manages_logins:
            return self.server.dsn_for(user=APP_LOGIN_ROLE)
        return self.dsn


def _make_pool(dsn: str, **kwargs: Any) -> ConnectionPool[psycopg.Connection[Any]]:
    try:
        pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(dsn, open=True, timeout=30.0, **kwargs)
    except psycopg.Error as exc:
        raise DatabaseUnavailableError("could not open a connection pool") from exc
    return pool


def _check_reachable(dsn: str) -> None:
    """Fail fast, with the server's reason, instead of letting a pool retry a DSN that cannot work."""
    try:
        psycopg.connect(dsn, connect_timeout=10).close()
    except psycopg.OperationalError as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DatabaseUnavailableError(f"could not connect to the database: {reason}") from exc


def _check_app_login(app_dsn: str) -> str:
    """Refuse an application login that could step outside a scope; return the database name (the audience)."""
    try:
        with psycopg.connect(app_dsn, autocommit=True) as conn:
            try:
                conn.execute("SET ROLE scopedb_app")
            except psycopg.errors.InsufficientPrivilege:
                raise ConfigurationError("the application login is not a member of scopedb_app") from None
            return _judge_login(conn.execute(sqlfiles.query("admin", "login_hazards")).fetchone())
    except psycopg.OperationalError as exc:
        raise DatabaseUnavailableError(
            "could not connect as the application login (was the database migrated?)"
        ) from exc
    except psycopg.Error as exc:
        raise translate(exc) from exc


def _judge_login(row: tuple[Any, ...] | None) -> str:
    """The one place a login is judged (``login_hazards``, ``scopedb.role_hazards`` in SQL): refuse it if it has
    any hazard; otherwise return the database name, the audience of its tokens."""
    assert row is not None
    hazards, database = row
    if hazards:
        raise PrivilegedLoginError(hazards=hazards)
    return str(database)


# Connections judged fit to enter a scope (see Database.enter_scope): each is judged once, on its first entry.
_VETTED: weakref.WeakSet[Any] = weakref.WeakSet()


# Connections that ended their last scoped transaction cleanly (COMMIT or ROLLBACK and the session cleanup both
# completed, or an entry that failed was rolled back). The pool's reset hook keeps only these: a connection whose
# end was interrupted — a task cancelled by a timeout while the COMMIT ran, KeyboardInterrupt, a lost connection —
# may still carry the session state a tenant prepared (a role, settings, locks, LISTENs, held cursors), and is
# discarded instead of lent to the next tenant.
_CLEAN: weakref.WeakSet[Any] = weakref.WeakSet()


class DirtyConnectionError(ScopedbError):
    """the connection's last scoped transaction did not end cleanly; it is discarded, not reused"""


def _keep_only_if_clean(conn: psycopg.Connection[Any]) -> None:
    """Pool ``reset`` hook: raising makes the pool close the connection rather than lend it out again."""
    if conn in _CLEAN:
        _CLEAN.discard(conn)
        return
    raise DirtyConnectionError()


def _end(conn: psycopg.Connection[Any], statement: Literal["COMMIT", "ROLLBACK"]) -> None:
    """End the scoped transaction and clean the session (``end_cleanup`` in ``sql/queries/session.sql``) in one
    round trip; a failed COMMIT raises, after cleaning up. Only an end that completes marks the connection clean:
    anything that interrupts it (KeyboardInterrupt, a cancelled task) leaves it to be discarded."""
    try:
        _end_cleanup(conn, statement)
    except psycopg.Error as exc:
        _quietly(conn, "ROLLBACK", entry=False)
        try:
            _end_cleanup(conn)
        except psycopg.Error:
            conn.close()  # the pool replaces a closed connection rather than lend out a dirty one
            if statement == "COMMIT":
                raise translate(exc) from exc
            return
        _CLEAN.add(conn)
        if statement == "COMMIT":
            raise translate(exc) from exc
        log.debug("rollback failed: %s", type(exc).__name__)
        return
    _CLEAN.add(conn)


def _end_cleanup(conn: psycopg.Connection[Any], statement: Literal["COMMIT", "ROLLBACK", ""] = "") -> None:
    """Run ``statement`` (if any) and the session cleanup as one string; remove settings found stored for the
    login (see :func:`refuse_stored_settings`)."""
    cleanup = sqlfiles.query("session", "end_cleanup")
    stored = _last_row(conn.execute(f"{statement}; {cleanup}" if statement else cleanup))
    if stored is not None and stored[0]:
        _remove_stored_settings(conn)


def _last_row(cur: psycopg.Cursor[Any]) -> tuple[Any, ...] | None:
    """The first row of the last result of a multi-statement string."""
    while cur.nextset():
        pass
    return cur.fetchone()


class StoredSettingsError(DatabaseUnavailableError):
    """settings were stored for the application login (ALTER ROLE ... SET); scopedb removed them and discarded the
    connection that had started with them"""


def refuse_stored_settings(conn: psycopg.Connection[Any]) -> None:
    """Pool ``configure`` hook: a new application connection must not start with settings stored for the login.

    Stored settings become the session's defaults at login and what ``RESET ALL`` goes back to, so a tenant that
    stored them (after ``RESET ROLE``, as the shared login) would reach every session opened afterwards. scopedb
    pins what its results depend on in every transaction; this removes the rest at its source and discards the
    connection that started with them (the pool opens another).
    """
    try:
        stored = conn.execute(sqlfiles.query("session", "stored_settings")).fetchall()
    except psycopg.Error as exc:
        raise translate(exc) from exc
    if stored:
        _remove_stored_settings(conn)
        raise StoredSettingsError()


def _remove_stored_settings(conn: psycopg.Connection[Any]) -> None:
    """``ALTER ROLE CURRENT_USER [IN DATABASE ...] RESET ALL`` as the login (a role may always reset its own), and
    say which settings were found — their names only."""
    try:
        rows = conn.execute(sqlfiles.query("session", "stored_settings")).fetchall()
        conn.execute("SET SESSION default_transaction_read_only = off")  # a stored 'on' would refuse ALTER ROLE
        conn.execute("ALTER ROLE CURRENT_USER RESET ALL")
        conn.execute(
            sql.SQL("ALTER ROLE CURRENT_USER IN DATABASE {} RESET ALL").format(sql.Identifier(conn.info.dbname))
        )
        conn.execute("RESET default_transaction_read_only")
    except psycopg.Error as exc:
        log.error("could not remove settings stored for the application login: %s", type(exc).__name__)
        return
    names = sorted({entry.split("=", 1)[0] for (config,) in rows for entry in config or ()})
    log.warning("removed settings stored for the application login %s: %s", conn.info.user, ", ".join(names))


def _quietly(conn: psycopg.Connection[Any], statement: Literal["ROLLBACK"], *, entry: bool = True) -> None:
    """End a transaction without masking the exception on its way out. For a failed ``entry`` (before any of the
    caller's SQL ran) a completed rollback leaves nothing behind: the connection is clean."""
    try:
        conn.execute(statement)
    except psycopg.Error:
        log.debug("could not %s after an error", statement.lower())
        return
    if entry:
        _CLEAN.add(conn)
