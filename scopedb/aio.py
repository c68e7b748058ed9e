"""The asyncio API: :class:`AsyncDatabase` and ``async with db.scoped(scope) as s``.

Scoped transactions run on psycopg's :class:`~psycopg.AsyncConnection` from a
:class:`~psycopg_pool.AsyncConnectionPool`, entered exactly as the sync ones are (one pipelined round trip, the
token a bind parameter) and cleaned the same way before the connection goes back. Every operation of the session
is the same code as the sync session's (:mod:`scopedb.steps`), so the two cannot disagree about what a scope sees.

Administration — migrations, projects, keys, the audit — stays on the sync :class:`~scopedb.Database` that
:attr:`AsyncDatabase.sync` holds: it is rare, and a service usually runs it at deploy time.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal, LiteralString, TypeVar

import psycopg
from psycopg import sql
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from scopedb import deletes, sqlfiles, steps
from scopedb.admin import Admin
from scopedb.backends import postgres as pg
from scopedb.backends.base import GraphResult, TextHit, VectorHit
from scopedb.database import (
    _CLEAN,
    _VETTED,
    Database,
    DirtyConnectionError,
    ScopeEntry,
    StoredSettingsError,
    _judge_login,
)
from scopedb.errors import (
    ConfigurationError,
    DatabaseUnavailableError,
    InvalidSignatureError,
    ScopedbError,
    translate,
)
from scopedb.ingest import (
    DEFAULT_BATCH,
    EdgeIn,
    Fragment,
    NodeIn,
    add_fragments_steps,
    ingest_fragments_steps,
    ingest_graph_steps,
    register_vector_types_async,
)
from scopedb.scope import ResourceScope
from scopedb.server import Backend, Server, resolve_server
from scopedb.session import SessionClosedError
from scopedb.steps import Params, Query, Result, SessionState, Statement, Steps
from scopedb.tokens import SigningKey

T = TypeVar("T")
log = logging.getLogger(__name__)


class AsyncScopedSession(SessionState):
    """The handle of one scoped transaction on an asyncio connection: the methods of
    :class:`~scopedb.session.ScopedSession`, awaited. (``projects`` is a method here: reading it may query.)"""

    def __init__(
        self,
        conn: psycopg.AsyncConnection[Any],
        *,
        project_ids: Sequence[int],
    ) -> None:
        super().__init__(project_ids=project_ids)
        self._conn = conn
        self._closed = False
        self._lock = asyncio.Lock()  # as ScopedSession._lock: a task outliving the block never runs in the next one

    async def projects(self) -> dict[str, int]:
        """The scope's projects, name to id (read under RLS)."""
        return await self._run(steps.project_names(self))

    async def execute(self, query: Query, params: Params = None) -> Result:
        """Run any statement in this transaction, as ``scopedb_app``, still under the scope."""
        async with self._lock:
            if self._closed:
                raise SessionClosedError()
            try:
                async with self._conn.cursor() as cur:
                    await cur.execute(query, params)
                    columns = tuple(col.name for col in cur.description or ())
                    rows = await cur.fetchall() if cur.description else []
                    return Result(columns=columns, rows=rows, rowcount=cur.rowcount)
            except psycopg.Error as exc:
                raise translate(exc) from exc

    async def _close(self) -> None:
        async with self._lock:
            self._closed = True

    async def _run(self, operation: Steps[T]) -> T:
        async def execute(statement: Statement) -> Result:
            return await self.execute(statement.query, statement.params)

        async def vector_types() -> None:
            await register_vector_types_async(self._conn)

        return await steps.drive_async(operation, execute, vector_types)

    async def add_fragment(self, fragment: Fragment) -> str:
        """Insert one fragment into a project of the scope; returns its id."""
        return (await self.add_fragments([fragment]))[0]

    async def add_fragments(self, fragments: Iterable[Fragment]) -> list[str]:
        """Insert fragments into projects of the scope; returns their ids in order."""
        return await self._run(add_fragments_steps(self, fragments))

    async def ingest_fragments(self, fragments: Iterable[Fragment], *, batch_size: int = DEFAULT_BATCH) -> int:
        """Insert or update fragments in batches, keyed by project and id; returns rows written."""
        return await self._run(ingest_fragments_steps(self, fragments, batch_size=batch_size))

    async def ingest_graph(self, nodes: Iterable[NodeIn] = (), edges: Iterable[EdgeIn] = ()) -> tuple[int, int]:
        """Insert or update graph nodes and edges; returns (nodes, edges) written."""
        return await self._run(ingest_graph_steps(self, nodes, edges))

    async def delete_fragments(self, project: str, ids: Iterable[str]) -> int:
        """Delete fragments of ``project`` by id (see :mod:`scopedb.deletes`); returns how many."""
        return await self._run(deletes.delete_fragments_steps(self, project, ids))

    async def delete_resources(self, project: str, ids: Iterable[str]) -> int:
        """Delete resources with what hangs off them in the scope; refused if any of it is hidden."""
        return await self._run(deletes.delete_resources_steps(self, project, ids))

    async def delete_graph_nodes(self, project: str, ids: Iterable[str]) -> int:
        """Delete graph nodes with their visible edges; refused if one has an edge the scope hides."""
        return await self._run(deletes.delete_graph_nodes_steps(self, project, ids))

    async def delete_graph_edges(self, project: str, edges: Iterable[tuple[str, str, str]]) -> int:
        """Delete graph edges given as (source, relation, target)."""
        return await self._run(deletes.delete_graph_edges_steps(self, project, edges))

    async def delete_resource_links(self, project: str, links: Iterable[tuple[str, str]]) -> int:
        """Delete resource links given as (parent, child)."""
        return await self._run(deletes.delete_resource_links_steps(self, project, links))

    async def search_text(
        self, query: str, *, limit: int = 10, offset: int = 0, config: str = "english"
    ) -> list[TextHit]:
        """Ranked full-text search with snippets."""
        return await self._run(pg.search_text_steps(self, query, limit=limit, offset=offset, config=config))

    async def search_vector(
        self, embedding: Sequence[float], *, limit: int = 10, metric: pg.Metric = "cosine"
    ) -> list[VectorHit]:
        """Nearest fragments; always min(limit, visible) rows."""
        return await self._run(pg.search_vector_steps(self, embedding, limit=limit, metric=metric))

    async def search_graph(
        self, start: str | Sequence[str], *, depth: int = 2, relations: Sequence[str] | None = None
    ) -> GraphResult:
        """The k-hop neighbourhood of ``start`` through visible nodes and edges."""
        return await self._run(pg.search_graph_steps(self, start, depth=depth, relations=relations))

    async def shortest_path(self, source: str, target: str, *, max_depth: int = 6) -> list[str] | None:
        """A shortest path between two nodes through visible nodes and edges, or None."""
        return await self._run(pg.shortest_path_steps(self, source, target, max_depth=max_depth))

    async def subgraph(self, kinds: Sequence[str]) -> GraphResult:
        """The visible nodes of ``kinds`` and the visible edges among them."""
        return await self._run(pg.subgraph_steps(self, kinds))


class AsyncDatabase:
    """A scopedb database for asyncio services: ``async with db.scoped(scope) as s`` is one transaction as
    ``scopedb_app`` with the signed scope entered, on a connection of an async pool."""

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
        #: The sync Database used for administration, key lookup and the checks of the application login.
        self.sync = Database(
            server,
            app_dsn=app_dsn,
            signing_key=signing_key,
            token_ttl_seconds=token_ttl_seconds,
            pool_size=1,
            scope_entry=scope_entry,
        )
        self._pool_size = pool_size
        self._scope_entry = scope_entry
        self._pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]] | None = None
        self._pool_lock = asyncio.Lock()

    @classmethod
    async def open(
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
    ) -> AsyncDatabase:
        """Open the database the resolver finds (see :mod:`scopedb.server`); starting an embedded server or a
        container runs in a worker thread."""
        server = await asyncio.to_thread(resolve_server, dsn, backend=backend, home=home)
        return cls(server, app_dsn=app_dsn, signing_key=signing_key, token_ttl_seconds=token_ttl_seconds,
                   pool_size=pool_size, scope_entry=scope_entry)  # fmt: skip

    @property
    def server(self) -> Server:
        return self.sync.server

    @property
    def dsn(self) -> str:
        """The administrative DSN."""
        return self.sync.dsn

    async def migrate(self, *, embedding_dim: int = sqlfiles.DEFAULT_EMBEDDING_DIM) -> None:
        """:meth:`Database.migrate`, in a worker thread."""
        await asyncio.to_thread(self.sync.migrate, embedding_dim=embedding_dim)

    def admin(self) -> Admin:
        """Owner-side operations (sync; see the module docstring)."""
        return self.sync.admin()

    async def sign(self, scope: ResourceScope, *, actor: str | None = None) -> str:
        """A signed token for ``scope`` (the first call reads the signing key in a worker thread)."""
        if self.sync._key is not None and self.sync._audience is not None:
            return self.sync.sign(scope, actor=actor)
        return await asyncio.to_thread(self.sync.sign, scope, actor=actor)

    async def close(self) -> None:
        """Close the async pool and the sync Database's pools."""
        if self._pool is not None:
            await self._pool.close()
        self.sync.close()

    async def __aenter__(self) -> AsyncDatabase:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _app_pool(self) -> AsyncConnectionPool[psycopg.AsyncConnection[Any]]:
        async with self._pool_lock:
            if self._pool is None:
                app_dsn = await asyncio.to_thread(self.sync._checked_app_dsn)
                pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]] = AsyncConnectionPool(
                    app_dsn,
                    min_size=1,
                    max_size=self._pool_size,
                    open=False,
                    timeout=30.0,
                    name="scopedb-app-async",
                    kwargs={"autocommit": True, "prepare_threshold": None},
                    configure=refuse_stored_settings,
                    reset=_keep_only_if_clean,
                )
                try:
                    await pool.open()
                except psycopg.Error as exc:
                    raise DatabaseUnavailableError("could not open a connection pool") from exc
                self._pool = pool
            return self._pool

    @asynccontextmanager
    async def scoped(self, scope: ResourceScope, *, actor: str | None = None) -> AsyncIterator[AsyncScopedSession]:
        """One transaction as ``scopedb_app`` with ``scope`` entered; committed on success, rolled back on error."""
        if not isinstance(scope, ResourceScope):
            raise ConfigurationError("scoped() takes a ResourceScope")
        pool = await self._app_pool()
        try:
            async with pool.connection() as conn:
                project_ids = await self._enter(conn, scope, actor=actor)
                session = AsyncScopedSession(conn, project_ids=project_ids)
                try:
                    yield session
                except BaseException:
                    await session._close()
                    await _end(conn, "ROLLBACK")
                    raise
                await session._close()
                await _end(conn, "COMMIT")
        except PoolTimeout as exc:
            raise DatabaseUnavailableError("no database connection became free in time") from exc

    async def _enter(self, conn: psycopg.AsyncConnection[Any], scope: ResourceScope, *, actor: str | None) -> list[int]:
        """As :meth:`Database._enter`, sharing its kept resolved tokens."""
        kept_tokens = self.sync._resolved
        key = kept_tokens.key(scope, actor) if self._scope_entry == "function" else None
        if key is not None and (kept := kept_tokens.get(key)) is not None:
            try:
                ids = await self._reenter(conn, kept.token)
            except BaseException:
                await _quietly(conn)
                raise
            if ids and tuple(ids) == kept.project_ids:
                return ids
            await _quietly(conn)  # it no longer verifies (a retired key): resolve afresh
            kept_tokens.discard(key)
        for attempt in (1, 2):
            token = await self.sign(scope, actor=actor)
            try:
                return await self._enter_token(conn, token, remember=key)
            except InvalidSignatureError:
                await _quietly(conn)
                if attempt == 2 or self.sync._fixed_key is not None:
                    raise
                self.sync._key = None  # rotated out: read the active key again
            except BaseException:
                await _quietly(conn)
                raise
        raise AssertionError("unreachable")

    async def enter_scope(
        self, conn: psycopg.AsyncConnection[Any], scope: ResourceScope, *, actor: str | None = None
    ) -> list[int]:
        """:meth:`Database.enter_scope` for an async connection: enter ``scope`` in the transaction the caller
        has open on ``conn`` (not in autocommit mode); a retired key is retried through a savepoint."""
        if not isinstance(scope, ResourceScope):
            raise ConfigurationError("enter_scope() takes a ResourceScope")
        if conn.autocommit:
            raise ConfigurationError("enter_scope() needs a connection in a transaction, not in autocommit mode")
        await self.vet_connection(conn)
        lead: tuple[LiteralString, ...] = ("SET LOCAL ROLE scopedb_app", "SAVEPOINT scopedb_entry")
        for attempt in (1, 2):
            token = await self.sign(scope, actor=actor)
            try:
                return await self._enter_token(conn, token, lead=lead, trail=("RELEASE SAVEPOINT scopedb_entry",))
            except InvalidSignatureError:
                if attempt == 2 or self.sync._fixed_key is not None:
                    raise
                self.sync._key = None
                lead = ("ROLLBACK TO SAVEPOINT scopedb_entry",)
        raise AssertionError("unreachable")

    async def resolve_resource_scope(
        self,
        project_names: Iterable[str],
        *,
        include: Iterable[str] | None = None,
        exclude: Iterable[str] | None = None,
    ) -> ResourceScope:
        """:meth:`Database.resolve_resource_scope`, in a worker thread (it reads under the projects' own scope)."""
        return await asyncio.to_thread(
            self.sync.resolve_resource_scope, project_names, include=include, exclude=exclude
        )

    @property
    def app_dsn(self) -> str:
        """The DSN of the application login scoped transactions use."""
        return self.sync.app_dsn

    async def vet_connection(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """:meth:`Database.vet_connection` for an async connection."""
        if conn in _VETTED:
            return
        try:
            async with conn.pipeline():
                await conn.execute("SET LOCAL ROLE scopedb_app")
                cur = await conn.execute(sqlfiles.query("admin", "login_hazards"))
            _judge_login(await cur.fetchone())
        except psycopg.errors.InsufficientPrivilege:
            raise ConfigurationError("the connection's login is not a member of scopedb_app") from None
        except psycopg.Error as exc:
            raise translate(exc) from exc
        _VETTED.add(conn)

    async def _reenter(self, conn: psycopg.AsyncConnection[Any], token: str) -> list[int]:
        """As :meth:`Database._reenter`: set a kept resolved token in one round trip; its project ids, if any."""
        _CLEAN.discard(conn)
        try:
            async with conn.pipeline():
                await conn.execute(sqlfiles.query("session", "begin"))
                await conn.execute("SET LOCAL ROLE scopedb_app")
                cur = await conn.execute(sqlfiles.query("session", "reenter_scope"), {"token": token})
            ids = await cur.fetchone()
        except psycopg.Error as exc:
            raise translate(exc) from exc
        assert ids is not None
        return [int(pid) for pid in ids[0] or ()]

    async def _enter_token(
        self,
        conn: psycopg.AsyncConnection[Any],
        token: str,
        *,
        lead: tuple[LiteralString, ...] = (sqlfiles.query("session", "begin"), "SET LOCAL ROLE scopedb_app"),
        trail: tuple[LiteralString, ...] = (),
        remember: str | None = None,
    ) -> list[int]:
        """As :meth:`Database._enter_token`: one pipelined round trip, the token only a bind parameter."""
        _CLEAN.discard(conn)
        try:
            if self._scope_entry == "function":
                async with conn.pipeline():
                    for statement in lead:
                        await conn.execute(statement)
                    cur = await conn.execute(sqlfiles.query("session", "enter_scope"), {"token": token})
                    for statement in trail:
                        await conn.execute(statement)
                    kept = await conn.execute(sqlfiles.query("session", "resolved_token")) if remember else None
                entered = await cur.fetchone()
                assert entered is not None
                ids = [int(pid) for pid in entered[0]["project_ids"]]
                if remember is not None and kept is not None and (row := await kept.fetchone()) is not None:
                    self.sync._resolved.put(remember, row[0], ids)
                return ids
            async with conn.pipeline():
                for statement in lead:
                    await conn.execute(statement)
                cur = await conn.execute(sqlfiles.query("session", "resolve_scope"), {"token": token})
            resolved = await cur.fetchone()
            assert resolved is not None
            async with conn.pipeline():
                await conn.execute(sql.SQL("SET LOCAL scopedb.scope_token = {}").format(sql.Literal(resolved[0])))
                cur = await conn.execute(sqlfiles.query("session", "scope_project_ids"))
                for statement in trail:
                    await conn.execute(statement)
            row = await cur.fetchone()
            assert row is not None
            return [int(pid) for pid in row[0]]
        except psycopg.Error as exc:
            raise translate(exc) from exc


async def _keep_only_if_clean(conn: psycopg.AsyncConnection[Any]) -> None:
    """As :func:`scopedb.database._keep_only_if_clean`, for the async pool."""
    if conn in _CLEAN:
        _CLEAN.discard(conn)
        return
    raise DirtyConnectionError()


async def _end(conn: psycopg.AsyncConnection[Any], statement: Literal["COMMIT", "ROLLBACK"]) -> None:
    """As :func:`scopedb.database._end`: end the transaction and clean the session in one round trip; a failed
    COMMIT raises, after cleaning up; only an end that completes marks the connection clean."""
    try:
        await _end_cleanup(conn, statement)
    except psycopg.Error as exc:
        await _quietly(conn, entry=False)
        try:
            await _end_cleanup(conn)
        except psycopg.Error:
            await conn.close()  # the pool replaces a closed connection rather than lend out a dirty one
            if statement == "COMMIT":
                raise translate(exc) from exc
            return
        _CLEAN.add(conn)
        if statement == "COMMIT":
            raise translate(exc) from exc
        return
    _CLEAN.add(conn)


async def _end_cleanup(conn: psycopg.AsyncConnection[Any], statement: Literal["COMMIT", "ROLLBACK", ""] = "") -> None:
    cleanup = sqlfiles.query("session", "end_cleanup")
    stored = await _last_row(await conn.execute(f"{statement}; {cleanup}" if statement else cleanup))
    if stored is not None and stored[0]:
        await _remove_stored_settings(conn)


async def _last_row(cur: psycopg.AsyncCursor[Any]) -> tuple[Any, ...] | None:
    while cur.nextset():
        pass
    return await cur.fetchone()


async def refuse_stored_settings(conn: psycopg.AsyncConnection[Any]) -> None:
    """As :func:`scopedb.database.refuse_stored_settings`, for the async pool."""
    try:
        stored = await (await conn.execute(sqlfiles.query("session", "stored_settings"))).fetchall()
    except psycopg.Error as exc:
        raise translate(exc) from exc
    if stored:
        await _remove_stored_settings(conn)
        raise StoredSettingsError()


async def _remove_stored_settings(conn: psycopg.AsyncConnection[Any]) -> None:
    """As :func:`scopedb.database._remove_stored_settings`."""
    try:
        rows = await (await conn.execute(sqlfiles.query("session", "stored_settings"))).fetchall()
        await conn.execute("SET SESSION default_transaction_read_only = off")
        await conn.execute("ALTER ROLE CURRENT_USER RESET ALL")
        await conn.execute(
            sql.SQL("ALTER ROLE CURRENT_USER IN DATABASE {} RESET ALL").format(sql.Identifier(conn.info.dbname))
        )
        await conn.execute("RESET default_transaction_read_only")
    except psycopg.Error as exc:
        log.error("could not remove settings stored for the application login: %s", type(exc).__name__)
        return
    names = sorted({entry.split("=", 1)[0] for (config,) in rows for entry in config or ()})
    log.warning("removed settings stored for the application login %s: %s", conn.info.user, ", ".join(names))


async def _quietly(conn: psycopg.AsyncConnection[Any], *, entry: bool = True) -> None:
    """As :func:`scopedb.database._quietly`."""
    try:
        await conn.execute("ROLLBACK")
    except psycopg.Error:
        return
    if entry:
        _CLEAN.add(conn)


__all__ = ["AsyncDatabase", "AsyncScopedSession", "ScopedbError"]
