"""Owner-side operations: projects, resources, resource links, signing keys.

These run in an *admin session*: a login that is a member of ``scopedb_owner`` (the migrating role, or a
superuser on servers scopedb starts itself), switched to ``scopedb_owner`` for the transaction. Services should
not hold such a login; they only need :meth:`scopedb.Database.scoped`.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import math
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import sql
from psycopg_pool import ConnectionPool

from scopedb import manifest, sqlfiles
from scopedb.errors import (
    ConfigurationError,
    InvalidArgumentError,
    PermissionDeniedError,
    ScopedbError,
    UnknownProjectError,
    translate,
)
from scopedb.ids import is_ulid, new_ulid
from scopedb.server import APP_LOGIN_ROLE
from scopedb.tokens import SigningKey

log = logging.getLogger("scopedb.storage")


@dataclass(frozen=True)
class Project:
    """A tenant."""

    id: int
    name: str


@dataclass(frozen=True)
class Finding:
    """One audit finding (see ``sql/07_audit.sql`` for the codes)."""

    severity: str
    code: str
    object: str
    message: str
    fix: str


#: Rows (with an embedding, for HNSW; of text, for GIN) from which a project gets its own search index. Below it a
#: project is searched exactly: for a few hundred rows that costs about what an index scan does, and is exact.
STORAGE_THRESHOLD = 200
#: The most maintenance_work_mem one index build asks for (an HNSW build that fits in memory is several times faster).
MAX_BUILD_MEMORY_MB = 4_096
STORAGE_PLAN_BATCH = 100  # projects planned per transaction (each holds its partitions' locks until it ends)
_HNSW_BUILDS = ("hnsw", "group_hnsw")  # a project's index, a search group's


@dataclass(frozen=True)
class StorageAction:
    """One step of per-project storage maintenance (see :meth:`Admin.maintain_storage`)."""

    project_id: int | None  # None for the search groups' steps
    # create, hnsw, gin, detach or drop; for search groups group_detach, group_drop, group_unindex, group_fill,
    # group_hnsw or group_ready
    action: str
    statement: str
    row_count: int


@dataclass(frozen=True)
class SearchGroup:
    """Projects searched together through one HNSW index (see :meth:`Admin.create_search_group`)."""

    id: int
    name: str
    projects: tuple[str, ...]
    state: str  # declared (not searched yet), filled (index not built yet) or ready


@dataclass(frozen=True)
class Protection:
    """How a service's table is protected: the arguments of :meth:`Admin.protect_table` (also what
    :class:`scopedb.sqlalchemy.ProjectScoped` records on a model's table for alembic's autogenerate)."""

    project_column: str = "project_id"
    resource_column: str | None = None
    path_column: str | None = None
    name_column: str | None = None
    allow_delete: bool = False

    def params(self, table: str) -> dict[str, Any]:
        """The parameters of the ``protect_table`` query (``sql/queries/admin.sql``) for ``table``."""
        return {"table": table, **dataclasses.asdict(self)}

    def of(self, relation: str) -> ProtectedTable:
        """This protection, as the table ``relation`` has it."""
        return ProtectedTable(relation=relation, **dataclasses.asdict(self))


@dataclass(frozen=True, kw_only=True)
class ProtectedTable(Protection):
    """A service's table protected with :meth:`Admin.protect_table`, and the columns it is protected by."""

    relation: str


@dataclass(frozen=True)
class Resource:
    """A repository, document set or the like inside a project."""

    project_id: int
    id: str
    alias: str | None
    kind: str


class Admin:
    """Owner-side operations; obtain one with :meth:`scopedb.Database.admin`."""

    def __init__(self, pool: ConnectionPool[psycopg.Connection[Any]]) -> None:
        self._pool = pool

    @contextmanager
    def transaction(self) -> Iterator[psycopg.Connection[Any]]:
        """One transaction as ``scopedb_owner`` (driver errors translated)."""
        try:
            with self._pool.connection() as conn, conn.transaction():
                try:
                    conn.execute("SET LOCAL ROLE scopedb_owner")
                except psycopg.errors.InsufficientPrivilege as exc:
                    raise PermissionDeniedError(
                        "admin operations need a login that is a member of scopedb_owner"
                    ) from exc
                yield conn
        except psycopg.Error as exc:
            raise translate(exc) from exc

    @contextmanager
    def login_transaction(self) -> Iterator[psycopg.Connection[Any]]:
        """One transaction as the admin login itself (driver errors translated): for what needs the owner of a
        service's table rather than scopedb_owner, such as :meth:`protect_table`."""
        try:
            with self._pool.connection() as conn, conn.transaction():
                yield conn
        except psycopg.Error as exc:
            raise translate(exc) from exc

    def _one(self, concern_query: str, params: dict[str, Any]) -> tuple[Any, ...] | None:
        with self.transaction() as conn:
            return conn.execute(sqlfiles.query("admin", concern_query), params).fetchone()

    # Projects -------------------------------------------------------------------------------------------------

    def create_project(self, name: str, *, own_storage: bool = False) -> Project:
        """Create a project named ``name``.

        A new project is one row: its fragments go to the partitions the small projects share, which have no
        search index, and :meth:`maintain_storage` gives it partitions of its own (and their indexes) once it
        reaches the threshold. ``own_storage=True`` gives it them now, for a project known to be large before it
        is loaded: its rows then never have to be moved. That attaches two partitions, which costs more as the
        number of partitioned projects grows (docs/scaling.md).
        """
        with self.transaction() as conn:
            row = conn.execute(sqlfiles.query("admin", "create_project"), {"name": name}).fetchone()
            assert row is not None
            if own_storage:
                conn.execute(sqlfiles.query("admin", "create_project_storage"), {"project_id": row[0]})
        return Project(id=row[0], name=name)

    def project(self, name: str) -> Project | None:
        """The project named ``name``, if any."""
        row = self._one("project_by_name", {"name": name})
        return Project(id=row[0], name=row[1]) if row else None

    def projects(self) -> list[Project]:
        """Every project, by name."""
        with self.transaction() as conn:
            rows = conn.execute(sqlfiles.query("admin", "list_projects")).fetchall()
        return [Project(id=r[0], name=r[1]) for r in rows]

    def ensure_project(self, name: str) -> Project:
        """The project named ``name``, created if it does not exist."""
        return self.project(name) or self.create_project(name)

    def delete_project(self, name: str) -> bool:
        """Delete the project named ``name`` with everything in it, and drop its partitions. False if none."""
        row = self._one("delete_project", {"name": name})
        if row is None:
            return False
        for action in self._plan_batch(None, online=True, projects=[]):  # the deleted projects' partitions only
            self._outside_transaction(action, _build_memory_mb(action, 0))
        return True

    # Per-project storage ----------------------------------------------------------------------------------------

    def storage_plan(self, threshold: int | None = STORAGE_THRESHOLD, *, online: bool = True) -> list[StorageAction]:
        """What :meth:`maintain_storage` would do now (``threshold=None``: drop, and complete half-made storage).

        Planned a batch of projects per transaction: counting a project's rows locks its partitions until the
        transaction ends, and one transaction over thousands of projects runs out of lock slots.
        """
        with self.transaction() as conn:
            ids = [row[0] for row in conn.execute(sqlfiles.query("admin", "list_projects")).fetchall()]
        plan: list[StorageAction] = []
        batches = [ids[i : i + STORAGE_PLAN_BATCH] for i in range(0, len(ids), STORAGE_PLAN_BATCH)]
        for batch in [*batches, []]:  # the last, empty batch plans the partitions of deleted projects
            plan.extend(self._plan_batch(threshold, online=online, projects=batch))
        return plan

    def _plan_batch(self, threshold: int | None, *, online: bool, projects: list[int]) -> list[StorageAction]:
        """scopedb_private.storage_plan for ``projects`` in one transaction (empty: deleted projects' partitions)."""
        with self.transaction() as conn:
            rows = conn.execute(
                sqlfiles.query("admin", "storage_plan"),
                {"threshold": threshold, "online": online, "projects": projects},
            ).fetchall()
        return [StorageAction(*row) for row in rows]

    def maintain_storage(
        self, threshold: int | None = STORAGE_THRESHOLD, *, online: bool = True, jobs: int = 1
    ) -> list[StorageAction]:
        """Bring per-project storage up to date; returns what was done, in order.

        A project whose fragments reach ``threshold`` rows gets partitions of its own, its rows moved there from
        the shared ones (the small projects' writes wait for the move, and their reads for the final check that
        no row of it is left there), then an HNSW index on its partition, and on its full-text partition a GIN
        index; partitions of deleted projects are detached (each with a brief lock on its parent, asked for
        with a short ``lock_timeout`` and asked again) and dropped. Search groups (:meth:`create_search_group`)
        are filled, indexed and marked ready, and a group whose members changed is dropped and filled anew. Run
        it after a bulk load and periodically (``scopedb storage``).
        ``online`` builds with ``CREATE INDEX CONCURRENTLY`` (no reads or writes wait, not even the project's
        own); ``online=False`` builds in one pass without waiting for older transactions, and holds back writes to
        that one project's partition while it runs — the choice right after a bulk load, when nothing writes.
        ``jobs`` builds that many indexes at a time, largest first (like ``pg_restore -j``), each in one backend
        without parallel workers: ``jobs`` builds at once keep ``jobs`` cores busy, and parallel workers on top of
        them only crowded the cores (an HNSW build of 43,500 rows: 16.3 s alone in one process, 9.0 s with one
        worker, 10.1 s with two, on two cores). A build that would outlast all the others spread over the other
        cores would then finish alone on one core, so it runs first, by itself, with ``jobs - 1`` parallel
        workers (see :func:`schedule_builds`). Each step is logged, with its time, on ``scopedb.storage``.
        """
        if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= 16:
            raise ConfigurationError("jobs must be an integer from 1 to 16")
        plan = self.storage_plan(threshold, online=online)
        dimension = self._embedding_dimension() if any(a.action in _HNSW_BUILDS for a in plan) else 0

        def run(action: StorageAction, workers: int = 0) -> None:
            self._outside_transaction(action, _build_memory_mb(action, dimension), workers=workers)

        for action in plan:
            if action.action == "create":
                run(action)
        for action in plan:  # search groups: stale copies out, declared groups filled (in the plan's order)
            if action.action in ("group_detach", "group_drop", "group_unindex", "group_fill"):
                run(action)
        alone, builds = schedule_builds(plan, jobs)
        if alone is not None:
            run(alone, workers=jobs - 1)
        if jobs > 1 and len(builds) > 1:
            with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="scopedb-storage") as pool:
                for _ in pool.map(run, builds):  # re-raises the first failure
                    pass
        else:
            for action in builds:
                run(action, workers=jobs - 1)
        for action in plan:
            if action.action == "group_ready":
                run(action)
        for action in plan:
            if action.action in ("detach", "drop"):
                run(action)
        return plan

    def _embedding_dimension(self) -> int:
        with self.transaction() as conn:
            row = conn.execute(sqlfiles.query("ingest", "embedding_dimension")).fetchone()
        return int(row[0]) if row else 0

    def _outside_transaction(self, action: StorageAction, memory_mb: int, *, workers: int = 0) -> None:
        """Run one maintenance statement in autocommit, as scopedb_owner (CONCURRENTLY refuses a transaction).

        Each runs on a connection of its own, opened for it: a build holds its connection for minutes, longer than
        the pool lends one, and ``jobs`` builds at a time would exhaust the admin pool.
        """
        # The statement comes from scopedb_private.storage_plan, which builds it with format(): identifiers and
        # integers only, nothing a caller supplied.
        statement = action.statement
        locking = action.action in _PARENT_LOCKS and " CONCURRENTLY" not in statement
        try:
            conninfo = self._pool.conninfo
            with psycopg.connect(conninfo() if callable(conninfo) else conninfo, autocommit=True) as conn:
                conn.execute("SET ROLE scopedb_owner")
                conn.execute(sql.SQL("SET maintenance_work_mem = {}").format(sql.Literal(f"{memory_mb}MB")))
                conn.execute(sql.SQL("SET max_parallel_maintenance_workers = {}").format(sql.Literal(workers)))
                started = time.perf_counter()
                if locking:
                    _with_short_locks(conn, statement)
                else:
                    conn.execute(statement)
        except psycopg.Error as exc:
            raise translate(exc) from exc
        # What a build costs is the figure an operator sizes the maintenance window by (and the bench reads).
        log.info(
            "storage: %s for project %s (%d rows, %d workers) took %.1f s",
            action.action,
            action.project_id,
            action.row_count,
            workers,
            time.perf_counter() - started,
        )

    # Search groups --------------------------------------------------------------------------------------------

    def create_search_group(self, name: str, projects: Iterable[str]) -> SearchGroup:
        """Declare that ``projects`` are searched together: one HNSW index over all their fragments.

        A scope over many projects otherwise makes one index search per project (each project's index holds its
        own rows only, so that no index answers questions about a project a scope may not see). A group's index
        is consulted only by a scope that reads every member whole, at the present time, with no resource, path
        or name narrowing: everything it holds is then visible to that scope. Any other scope searches the
        members' own indexes as before, and so does a scope over the members and a project outside every group
        (groups answer a search when they cover every project of it). Declare the sets your service searches as
        one (a customer's projects); each costs a second copy of its members' embeddings and an index build.
        :meth:`maintain_storage` fills the group and builds its index; until then searches do not use it. A
        member's deletion sends the group back to be filled anew.
        """
        if isinstance(projects, str):
            raise InvalidArgumentError("projects must be a collection of project names, not one name")
        names = sorted(set(projects))
        if len(names) < 2:
            raise InvalidArgumentError("a search group needs at least two projects")
        with self.transaction() as conn:
            found = dict(conn.execute(sqlfiles.query("admin", "project_ids_by_name"), {"names": names}).fetchall())
            missing = [n for n in names if n not in found]
            if missing:
                raise UnknownProjectError(f"no project named {', '.join(map(repr, missing))}")
            row = conn.execute(
                sqlfiles.query("admin", "create_search_group"),
                {"name": name, "project_ids": [found[n] for n in names]},
            ).fetchone()
        assert row is not None
        return SearchGroup(id=row[0], name=name, projects=tuple(names), state="declared")

    def search_groups(self) -> list[SearchGroup]:
        """Every search group, by name."""
        with self.transaction() as conn:
            rows = conn.execute(sqlfiles.query("admin", "search_groups")).fetchall()
        return [SearchGroup(id=r[0], name=r[1], state=r[2], projects=tuple(r[3])) for r in rows]

    def drop_search_group(self, name: str) -> bool:
        """Remove the search group ``name`` and drop its copy; its members are untouched. False if none."""
        row = self._one("drop_search_group", {"name": name})
        if row is None:
            return False
        for action in self._plan_batch(None, online=True, projects=[]):  # the dropped group's partition only
            self._outside_transaction(action, _build_memory_mb(action, 0))
        return True

    # Resources ------------------------------------------------------------------------------------------------

    def create_resource(
        self,
        project: str,
        *,
        alias: str | None = None,
        kind: str = "repository",
        resource_id: str | None = None,
    ) -> Resource:
        """Create a resource in ``project``; its id is a fresh ULID unless given."""
        rid = resource_id or new_ulid()
        if not is_ulid(rid):
            raise ConfigurationError("a resource id must be a ULID (26 characters of Crockford base32)")
        target = self.project(project)
        if target is None:
            raise ScopedbError(f"no project named {project!r}")
        row = self._one("create_resource", {"project_id": target.id, "id": rid, "alias": alias, "kind": kind})
        assert row is not None
        return Resource(project_id=row[0], id=row[1], alias=row[2], kind=row[3])

    def resource_by_alias(self, project: str, alias: str) -> Resource | None:
        """The resource of ``project`` with ``alias``, if any."""
        row = self._one("resource_by_alias", {"project": project, "alias": alias})
        return Resource(project_id=row[0], id=row[1], alias=row[2], kind=row[3]) if row else None

    def ensure_resource(self, project: str, alias: str, *, kind: str = "repository") -> Resource:
        """The resource of ``project`` with ``alias``, created (with the project) if missing."""
        self.ensure_project(project)
        return self.resource_by_alias(project, alias) or self.create_resource(project, alias=alias, kind=kind)

    def link_resources(self, project: str, parent_id: str, child_id: str) -> None:
        """Make ``child_id`` a child of ``parent_id`` (same project; a cycle is refused)."""
        target = self.project(project)
        if target is None:
            raise ScopedbError(f"no project named {project!r}")
        with self.transaction() as conn:
            conn.execute(
                sqlfiles.query("admin", "link_resources"),
                {"project_id": target.id, "parent_id": parent_id, "child_id": child_id},
            )

    # Services' own tables ---------------------------------------------------------------------------------------

    def protect_table(
        self,
        table: str,
        *,
        project_column: str = "project_id",
        resource_column: str | None = None,
        path_column: str | None = None,
        name_column: str | None = None,
        allow_delete: bool = False,
    ) -> ProtectedTable:
        """Put a service's own table under the scope, as scopedb's own tables are (``sql/04_protected_tables.sql``).

        Row-level security enabled and forced; the "nothing until a scope is entered" gate and one restrictive
        policy per command reading the verified scope (the project column, and the resource, path and name
        columns when given); SELECT, INSERT and column UPDATE for ``scopedb_app`` (DELETE only with
        ``allow_delete``: it also lets one tenant LOCK the whole table); and a record the audit holds the table to
        (E029). Idempotent. A table that cannot be protected soundly raises
        :class:`~scopedb.errors.UnprotectableTableError` naming the fix.

        Runs as the admin login itself, not ``scopedb_owner``: the login must own the table (policies are its
        owner's to change) and be a member of ``scopedb_owner`` (to record it).
        """
        protection = Protection(project_column, resource_column, path_column, name_column, allow_delete)
        with self.login_transaction() as conn:
            row = conn.execute(sqlfiles.query("admin", "protect_table"), protection.params(table)).fetchone()
        assert row is not None
        return protection.of(str(row[0]))

    def unprotect_table(self, table: str) -> bool:
        """Undo :meth:`protect_table`: its policies, the row-level security flags, every privilege of
        ``scopedb_app`` on the table, the audit's record. False if scopedb had no record of protecting it."""
        with self.login_transaction() as conn:
            row = conn.execute(sqlfiles.query("admin", "unprotect_table"), {"table": table}).fetchone()
        return bool(row and row[0])

    def protected_tables(self) -> list[ProtectedTable]:
        """The service tables protected with :meth:`protect_table`, by name."""
        with self.transaction() as conn:
            rows = conn.execute(sqlfiles.query("admin", "protected_tables")).fetchall()
        return [Protection(*row[1:]).of(row[0]) for row in rows]

    # Tiers and notes --------------------------------------------------------------------------------------------

    def original_content(self, project: str, fragment_id: str) -> str | None:
        """The full text of a fragment whose cold-tier content is a summary (None if it was never summarised)."""
        target = self.project(project)
        if target is None:
            raise ScopedbError(f"no project named {project!r}")
        row = self._one("original_content", {"project_id": target.id, "id": fragment_id})
        return str(row[0]) if row else None

    def sweep_notes(self) -> tuple[int, int]:
        """Physically remove expired and forgotten notes; returns (expired, forgotten) removed."""
        row = self._one("sweep_notes", {})
        assert row is not None
        return int(row[0]), int(row[1])

    # Audit ------------------------------------------------------------------------------------------------------

    def audit(self) -> list[Finding]:
        """The policy audit (``scopedb_audit.findings``) and its check of itself (E025, :mod:`scopedb.manifest`).

        Runs as ``scopedb_auditor`` when the login may become it (an auditor needs nothing else), else as
        ``scopedb_owner``. Errors first.
        """
        try:
            with self._pool.connection() as conn, conn.transaction():
                role = conn.execute(sqlfiles.query("admin", "audit_role")).fetchone()
                if role is None or role[0] is None:
                    raise PermissionDeniedError("the audit needs a login that is a member of scopedb_auditor")
                conn.execute(sql.SQL("SET LOCAL ROLE {}").format(sql.Identifier(role[0])))
                rows = conn.execute(sqlfiles.query("admin", "audit")).fetchall()
                machinery = conn.execute(sqlfiles.query("admin", "audit_machinery")).fetchall()
        except psycopg.Error as exc:
            raise translate(exc) from exc
        own = [Finding("error", "E025", d.object, d.message, d.fix) for d in manifest.compare(machinery)]
        return own + [Finding(*row) for row in rows]

    # Signing keys ---------------------------------------------------------------------------------------------

    def active_signing_key(self) -> SigningKey | None:
        """The key new tokens are signed with (None before the first rotation)."""
        row = self._one("active_signing_key", {})
        return SigningKey(row[0], bytes(row[1])) if row else None

    def rotate_signing_key(self, *, grace: dt.timedelta = dt.timedelta(hours=1)) -> str:
        """Add a new signing key; earlier keys keep verifying for ``grace``, then are refused. Returns the key id."""
        row = self._one("rotate_signing_key", {"grace": grace})
        assert row is not None
        return str(row[0])

    def retire_signing_key(self, key_id: str, *, at: dt.datetime | None = None) -> None:
        """Refuse tokens signed by ``key_id`` from ``at`` (default: now) on."""
        with self.transaction() as conn:
            conn.execute(sqlfiles.query("admin", "retire_signing_key"), {"key_id": key_id, "at": at})

    def ensure_signing_key(self) -> SigningKey:
        """The active key, created on first use."""
        key = self.active_signing_key()
        if key is None:
            self.rotate_signing_key()
            key = self.active_signing_key()
        assert key is not None
        return key

    def ensure_app_login(self, role: str = APP_LOGIN_ROLE, *, password: str | None = None) -> None:
        """Create (or update) a NOINHERIT login that is a member of scopedb_app and nothing else.

        Without a password it suits the servers scopedb starts (trust authentication on a local socket); with one,
        any server. Needs CREATEROLE (or a superuser) on the admin login.
        """
        options: sql.Composable = sql.SQL("LOGIN NOINHERIT NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS")
        if password is not None:
            options = sql.SQL("{} PASSWORD {}").format(options, sql.Literal(password))
        try:
            with self._pool.connection() as conn, conn.transaction():
                exists = conn.execute("SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = %s", (role,)).fetchone()
                verb = sql.SQL("ALTER ROLE" if exists else "CREATE ROLE")
                conn.execute(sql.SQL("{} {} {}").format(verb, sql.Identifier(role), options))
                conn.execute(sql.SQL("GRANT scopedb_app TO {}").format(sql.Identifier(role)))
        except psycopg.Error as exc:
            raise translate(exc) from exc


#: Steps that lock a partition's parent ACCESS EXCLUSIVE (a detach beside a DEFAULT partition, which PostgreSQL
#: will not do concurrently, and the drop of a partition still attached): every tenant's query on the parent
#: queues behind such a lock while it waits for the running ones, so it is asked for briefly and asked again.
_PARENT_LOCKS = ("detach", "group_detach")
LOCK_TIMEOUT_MS = 200
LOCK_ATTEMPTS = 50


def _with_short_locks(conn: psycopg.Connection[Any], statement: str) -> None:
    """Run ``statement`` with a short lock_timeout, trying again (with a growing pause) while the lock is busy:
    a statement waiting for an ACCESS EXCLUSIVE lock makes every later query on the table wait behind it, so no
    query waits longer than LOCK_TIMEOUT_MS for one attempt."""
    conn.execute(sql.SQL("SET lock_timeout = {}").format(sql.Literal(f"{LOCK_TIMEOUT_MS}ms")))
    for attempt in range(LOCK_ATTEMPTS):
        try:
            conn.execute(statement)
            return
        except psycopg.errors.LockNotAvailable:
            if attempt == LOCK_ATTEMPTS - 1:
                raise
            time.sleep(min(2.0, 0.05 * (attempt + 1)))


def build_cost(action: StorageAction) -> float:
    """A build's expected time, in arbitrary units, for ordering builds and deciding which runs alone.

    An HNSW build's time per row grows with the graph (each insertion searches it): measured on 2 cores, one
    process each, d=128, m 16, ef_construction 128, 10,213 rows took 2.2 s, 53,072 rows 20.9 s, 150,113 rows
    71 s and 424,618 rows 257 s — about ``rows ** 1.2``. A GIN build of the same rows takes a few percent of that
    (after the 1M-row load, under 10 s for all its GIN builds against 390 s of HNSW), and the plan counts a GIN
    build's rows only up to the threshold, so GIN builds weigh their rows at 1.
    """
    if action.action in _HNSW_BUILDS:
        return math.pow(action.row_count, 1.2)
    return float(action.row_count)


def schedule_builds(plan: list[StorageAction], jobs: int) -> tuple[StorageAction | None, list[StorageAction]]:
    """The index builds of ``plan``: the one to run first by itself with ``jobs - 1`` parallel workers (if any),
    then the rest, costliest first, ``jobs`` at a time.

    Run ``jobs`` at a time, the costliest build would still be running long after the other cores had finished
    everything else when its cost exceeds the rest's spread over the other ``jobs - 1`` cores: after a 1M-row load
    over 60 tenants the largest project's HNSW build took 257 s on one core, while the other core built the
    other 59 projects' indexes in 135 s and then idled. Such a build goes first, alone, with parallel workers
    (one worker made a 150,000-row build 1.55 times as fast: 58 → 38 s).
    """
    builds = sorted((a for a in plan if a.action in (*_HNSW_BUILDS, "gin")), key=lambda a: -build_cost(a))
    if jobs > 1 and builds and build_cost(builds[0]) > sum(build_cost(a) for a in builds[1:]) / (jobs - 1):
        return builds[0], builds[1:]
    return None, builds


def _build_memory_mb(action: StorageAction, dimension: int) -> int:
    """maintenance_work_mem for one build: an HNSW graph of ``row_count`` vectors with room to spare."""
    if action.action not in _HNSW_BUILDS:
        return 256
    # The vector plus its neighbour lists: a project's index has m = 16 (32 on the base layer), a search
    # group's m = 24 (48); 8 bytes a neighbour with the layers above, and the tuple's own header.
    neighbours = 48 if action.action == "group_hnsw" else 32
    per_row = dimension * 4 + neighbours * 10 + 80
    wanted = action.row_count * per_row * 3 // 2 // (1024 * 1024)
    return max(64, min(MAX_BUILD_MEMORY_MB, wanted))
