# Generated from scopedb/database_async.py by .ci/async_to_sync.py.
# Do not edit: edit the source, run `make generate`.
"""The entry point: open a database, migrate it, administer it, and run scoped transactions.

Generated from :mod:`scopedb.database_async` by ``.ci/async_to_sync.py``: edit that file, not this one::

    db = Database.open()            # SCOPEDB_DATABASE_URL, docker, or the embedded server
    db.migrate()
    with db.scoped(ResourceScope(project_names={"acme/api"})) as s:
        s.execute("SELECT id, path FROM scopedb.fragments")   # only acme/api's rows, enforced by Postgres

Both APIs enter scopes with the same code (:mod:`scopedb.entry`), end transactions with the same code
(:mod:`scopedb.lifecycle`) and share their state through one :class:`~scopedb.scopestate.ScopeState`.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, LiteralString, TypeVar

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from scopedb import migrations, sqlfiles
from scopedb._compat import Lock, to_thread
from scopedb.admin import Admin
from scopedb.adminpool import AdminPool, open_admin_pool
from scopedb.entry import Entered, check_app_login, enter_token, read_signing_key, reenter, vet_connection
from scopedb.errors import (
    ConfigurationError,
    DatabaseUnavailableError,
    InvalidArgumentError,
    InvalidSignatureError,
    ScopedbError,
)
from scopedb.lifecycle import (
    app_connection_options,
    end,
    keep_only_if_clean,
    prepare_connection,
    quietly_roll_back,
)
from scopedb.logins import PrivilegedLoginError
from scopedb.pools import RecentFirstPool
from scopedb.requests import Requests
from scopedb.scope import ResourceScope
from scopedb.scopestate import ScopeEntry, ScopeState
from scopedb.server import APP_LOGIN_ROLE, Backend, Server, resolve_server
from scopedb.session import ScopedSession
from scopedb.tokens import AgentGrant, SigningKey, agent_token_key_id, sign_agent_token, verify_agent_token

T = TypeVar("T")
_SAVEPOINT_ENTRY: tuple[LiteralString, ...] = ("SET LOCAL ROLE scopedb_app", "SAVEPOINT scopedb_entry")


class Database(Requests):
    """A scopedb database: an admin pool for owner-side work and a pool of application connections.

    Use :meth:`open` rather than the constructor. Safe to share between the tasks (or threads) of a service.
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
        prepared_statements: bool = True,
    ) -> None:
        self.server = server
        #: The key, the audience and the kept resolved tokens (see :mod:`scopedb.scopestate`).
        self.state = ScopeState(signing_key=signing_key, token_ttl_seconds=token_ttl_seconds, scope_entry=scope_entry)
        self._explicit_app_dsn = app_dsn
        self._pool_size = pool_size
        self._prepared_statements = prepared_statements
        self._lock = Lock()
        self._admin_lock = threading.Lock()
        self._admin_pool: AdminPool | None = None
        self._app_pool: ConnectionPool[psycopg.Connection[Any]] | None = None
        self._closed = False

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
        prepared_statements: bool = True,
    ) -> Database:
        """Open the database the resolver finds (see :mod:`scopedb.server`).

        ``dsn`` is an administrative login (member of ``scopedb_owner``, or a superuser). Scoped transactions run
        on ``app_dsn`` (or ``SCOPEDB_APP_DATABASE_URL``): a login that is a member of ``scopedb_app`` and can
        never bypass RLS. On servers scopedb starts itself it creates that login; on an existing server without
        an app DSN it uses ``dsn`` and refuses to run scoped transactions if that login is privileged.
        Scope tokens are signed with ``signing_key`` (or ``SCOPEDB_SIGNING_KEY``), else with the database's
        active key read through the admin login. Starting a server runs in a worker thread in the async API.
        scopedb prepares its own statements on the application connections and keeps them from transaction to
        transaction; pass ``prepared_statements=False`` behind a transaction-pooling PgBouncer older than 1.21
        (or one without ``max_prepared_statements``), which cannot carry them.
        """
        server = to_thread(resolve_server, dsn, backend=backend, home=home)
        return cls(
            server,
            app_dsn=app_dsn or os.environ.get("SCOPEDB_APP_DATABASE_URL") or None,
            signing_key=signing_key or SigningKey.from_env(),
            token_ttl_seconds=token_ttl_seconds,
            pool_size=pool_size,
            scope_entry=scope_entry,
            prepared_statements=prepared_statements,
        )

    @property
    def dsn(self) -> str:
        """The administrative DSN."""
        return self.server.dsn

    def close(self) -> None:
        """Close the connection pools (the embedded server stops when the process exits)."""
        with self._lock:
            self._closed = True
            if self._app_pool is not None:
                self._app_pool.close()
            self._app_pool = None
        with self._admin_lock:
            if self._admin_pool is not None:
                self._admin_pool.close()
            self._admin_pool = None

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # Schema and administration ----------------------------------------------------------------------------------

    def migrate(self, *, embedding_dim: int = sqlfiles.DEFAULT_EMBEDDING_DIM) -> None:
        """Bring the schema to the latest revision (idempotent) and make sure a signing key exists.

        ``embedding_dim`` fixes the width of ``fragments.embedding`` on the first migration only.
        """
        to_thread(migrations.upgrade, self.dsn, embedding_dim=embedding_dim)
        admin = to_thread(self.admin)
        if not self.state.fixed_key:
            self.state.use_key(to_thread(admin.ensure_signing_key))
        if self.server.manages_logins and self._explicit_app_dsn is None:
            # Trust authentication: the servers scopedb starts listen only on a Unix socket inside their private data
            # directory (scopedb.server), so only the OS user that started them can connect at all.
            to_thread(admin.ensure_app_login)

    def admin(self) -> Admin:
        """Owner-side operations (projects, resources, keys, the audit); needs an admin login. They are blocking
        in both APIs (they are rare, and usually run at deploy time): call them through a worker thread from a
        coroutine."""
        with self._admin_lock:
            if self._closed:
                raise ScopedbError("the database has been closed")
            if self._admin_pool is None:
                self._admin_pool = open_admin_pool(self.dsn)
            return Admin(self._admin_pool)

    # Scopes -----------------------------------------------------------------------------------------------------

    def sign(self, scope: ResourceScope, *, actor: str | None = None, ttl_seconds: int | None = None) -> str:
        """A signed token for ``scope``, valid for this database only."""
        self._pool()  # learns the audience (the database name) on first use
        return self.state.sign(scope, self._signing_key(), actor=actor, ttl_seconds=ttl_seconds)

    def embedding_dimension(self) -> int:
        """The width of ``fragments.embedding`` (read when the application login is first checked)."""
        self._pool()
        if self.state.embedding_dim is None:
            raise ConfigurationError("the schema has no embedding column yet: run db.migrate()")
        return self.state.embedding_dim

    def agent_token(self, scope: ResourceScope, *, agent: str | None = None, ttl_seconds: int = 3600) -> str:
        """A token an operator hands an agent (the MCP server's bearer token): ``scope``, for this database, for
        ``ttl_seconds`` (see :func:`scopedb.tokens.sign_agent_token`)."""
        self._pool()
        assert self.state.audience is not None
        key = self._signing_key()
        return sign_agent_token(scope, key, audience=self.state.audience, ttl_seconds=ttl_seconds, agent=agent)

    def verify_agent_token(self, token: object) -> AgentGrant:
        """What an agent token grants, or the typed error saying why it grants nothing (malformed, signed with
        another key, expired, for another database). Only the database's active key verifies agent tokens: it is
        read again at most every 30 seconds (after a rotation, or a retirement), never on a caller's demand."""
        agent_token_key_id(token)  # malformed tokens are refused before anything else happens
        self._pool()
        assert self.state.audience is not None
        if self.state.agent_key_due(time.monotonic()) and self.state.forget_key():
            self._signing_key()  # the active key, at most every 30 s: a retired one stops verifying
        return verify_agent_token(token, self._signing_key(), audience=self.state.audience)

    def _signing_key(self) -> SigningKey:
        key = self.state.key
        if key is None:
            key = read_signing_key(self.dsn)
            if key is None:
                raise ConfigurationError("no active signing key: run db.migrate() or `scopedb keys rotate`")
            self.state.use_key(key)
        return key

    def resolve_resource_scope(
        self,
        project_names: Iterable[str],
        *,
        include: Iterable[str] | None = None,
        exclude: Iterable[str] | None = None,
    ) -> ResourceScope:
        """A scope narrowed to resources of ``project_names`` chosen by alias or id, with their child resources
        expanded by PostgreSQL (see :mod:`scopedb.aliases`). Reads run under the projects' own scope."""
        names = frozenset(project_names)
        if not names:
            raise InvalidArgumentError("resolve_resource_scope needs at least one project")
        with self.scoped(ResourceScope(project_names=names)) as session:
            return session.resolve_resource_scope(names, include=include, exclude=exclude)

    @contextmanager
    def scoped(self, scope: ResourceScope, *, actor: str | None = None) -> Iterator[ScopedSession]:
        """One transaction as ``scopedb_app`` with ``scope`` entered; committed on success, rolled back on error.

        Every statement in it — scopedb's or yours via :meth:`ScopedSession.execute` — sees only the scope's
        rows, because Postgres's policies verify the signed scope on every statement.
        """
        if not isinstance(scope, ResourceScope):
            raise ConfigurationError("scoped() takes a ResourceScope")
        pool = self._pool()
        try:
            with pool.connection() as conn:
                entered = self._enter(conn, scope, actor=actor)
                session = ScopedSession(
                    conn, scope=scope, actor=actor, entered=entered, embedding_dimension=self.state.embedding_dim
                )
                try:
                    yield session
                except BaseException:
                    session.close()
                    end(conn, "ROLLBACK")
                    raise
                session.close()
                end(conn, "COMMIT")
        except PoolTimeout as exc:
            raise DatabaseUnavailableError("no database connection became free in time") from exc

    def _enter(self, conn: psycopg.Connection[Any], scope: ResourceScope, *, actor: str | None) -> Entered:
        """BEGIN, become scopedb_app, enter the signed scope: one round trip. Reuses the scope's resolved token
        while it is valid (see :mod:`scopedb.resolved`); retries once after a key rotation."""
        kept_tokens = self.state.resolved
        key = kept_tokens.key(scope, actor) if self.state.scope_entry == "function" else None
        if key is not None and (kept := self.state.kept_or_signed(key, scope, actor)) is not None:
            try:
                entered = reenter(conn, kept.token, names=kept.project_names is None)
            except BaseException:
                quietly_roll_back(conn)
                raise
            if entered.project_ids and tuple(entered.project_ids) == kept.project_ids:
                if kept.project_names is None:
                    return entered
                return Entered(entered.project_ids, dict(kept.project_names))
            quietly_roll_back(conn)  # it no longer verifies (a retired key, a renamed project): resolve afresh
            kept_tokens.discard(key, names=scope.project_names)
        for attempt in (1, 2):
            token = self.sign(scope, actor=actor)
            try:
                return enter_token(
                    conn,
                    token,
                    scope_entry=self.state.scope_entry,
                    names=True,
                    keep=None if key is None else (kept_tokens, key),
                )
            except InvalidSignatureError:
                quietly_roll_back(conn)
                if attempt == 2 or not self.state.forget_key():  # a rotated-out key is read again, once
                    raise
            except BaseException:
                quietly_roll_back(conn)
                raise
        raise AssertionError("unreachable")

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
        vet_connection(conn)
        lead = _SAVEPOINT_ENTRY
        for attempt in (1, 2):
            token = self.sign(scope, actor=actor)
            try:
                entered = enter_token(
                    conn,
                    token,
                    scope_entry=self.state.scope_entry,
                    lead=lead,
                    trail=("RELEASE SAVEPOINT scopedb_entry",),
                )
                return entered.project_ids
            except InvalidSignatureError:
                if attempt == 2 or not self.state.forget_key():
                    raise
                lead = ("ROLLBACK TO SAVEPOINT scopedb_entry",)
        raise AssertionError("unreachable")

    def vet_connection(self, conn: psycopg.Connection[Any]) -> None:
        """Refuse ``conn`` if its login could step outside a scope (see :func:`scopedb.entry.vet_connection`)."""
        vet_connection(conn)

    # The application pool -----------------------------------------------------------------------------------------

    def _pool(self) -> ConnectionPool[psycopg.Connection[Any]]:
        with self._lock:
            if self._closed:
                raise ScopedbError("the database has been closed")
            if self._app_pool is None:
                app_dsn = self.checked_app_dsn()
                pool: ConnectionPool[psycopg.Connection[Any]] = RecentFirstPool(
                    app_dsn,
                    min_size=1,
                    max_size=self._pool_size,
                    open=False,
                    timeout=30.0,
                    name="scopedb-app",
                    kwargs=app_connection_options(app_dsn, prepared_statements=self._prepared_statements),
                    configure=prepare_connection,
                    reset=keep_only_if_clean,
                )
                try:
                    pool.open()
                except psycopg.Error as exc:
                    raise DatabaseUnavailableError("could not open a connection pool") from exc
                self._app_pool = pool
            return self._app_pool

    def checked_app_dsn(self) -> str:
        """The application login's DSN, after checking the login cannot step outside a scope (provisioning
        scopedb's own login where the given one is privileged and the server allows it). Learns the audience."""
        app_dsn = self.app_dsn
        try:
            self.state.audience, self.state.embedding_dim = check_app_login(app_dsn)
        except PrivilegedLoginError:
            if self._explicit_app_dsn:
                raise
            app_dsn, (self.state.audience, self.state.embedding_dim) = self._provisioned_app_login()
        return app_dsn

    def _provisioned_app_login(self) -> tuple[str, tuple[str, int | None]]:
        """The admin login is privileged and no app login was given: on a server that lets scopedb's own
        NOINHERIT login in without a password (trust or peer authentication, as on the servers it starts), use
        that; otherwise keep refusing."""
        candidate = self.server.dsn_for(user=APP_LOGIN_ROLE)
        try:
            admin = to_thread(self.admin)
            to_thread(admin.ensure_app_login)
            facts = check_app_login(candidate)
        except ScopedbError:
            raise PrivilegedLoginError() from None
        self._explicit_app_dsn = candidate
        return candidate, facts

    @property
    def app_dsn(self) -> str:
        """The DSN of the application login scoped transactions use."""
        if self._explicit_app_dsn:
            return self._explicit_app_dsn
        if self.server.manages_logins:
            return self.server.dsn_for(user=APP_LOGIN_ROLE)
        return self.dsn
