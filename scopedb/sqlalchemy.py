"""SQLAlchemy 2 integration: Core tables for scopedb's schema and sessions whose every transaction is scoped.

::

    from sqlalchemy import select
    from scopedb import sqlalchemy as sdb

    engine = sdb.create_engine(db)                  # the application login, never the admin one
    Session = sdb.sessionmaker(db, engine)
    with Session(scope) as session:                 # every transaction enters ``scope`` when it begins
        session.scalars(select(sdb.fragments.c.path)).all()   # no WHERE: Postgres's policies filter

Why the scope is entered in ``after_begin`` rather than by the application: a query written against these tables
has no project filter, and need none; the transaction runs as ``scopedb_app`` with the signed scope from its first
statement to its last, so an ORM query a developer forgets to filter still sees only the scope. A session without a
scope fails closed: its transactions still run as ``scopedb_app``, see no rows and may write none.

Map your own ORM classes onto the Core tables (``__table__ = sdb.fragments``). A service's own tables get the same
isolation with the :class:`ProjectScoped` mixin: a ``project_id`` column that references ``scopedb.projects`` and
defaults to the entered scope's one project, and a mark that makes alembic's autogenerate emit
``op.protect_table(...)`` for the table (:mod:`scopedb.alembic`)::

    class Ticket(sdb.ProjectScoped, Base):
        __tablename__ = "tickets"
        __table_args__ = {"schema": "support"}
        id: Mapped[uuid.UUID] = mapped_column(primary_key=True, server_default=sa.text("gen_random_uuid()"))
        title: Mapped[str]

The mixin's column leads the primary key, so the model's own key columns join it: ``protect_table`` refuses a key
unique across projects (a unique violation would tell one tenant what another holds).

Engines made here translate driver
errors into :mod:`scopedb.errors` and clean each connection (held cursors, settings, prepared statements, LISTEN,
advisory locks) before it goes back to the pool, as :meth:`scopedb.Database.scoped` does.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

import psycopg
import sqlalchemy as sa
from pgvector.sqlalchemy import Vector
from sqlalchemy import orm
from sqlalchemy.dialects import postgresql as pg
from sqlalchemy.engine.interfaces import ExceptionContext

from scopedb.admin import Protection
from scopedb.database import Database
from scopedb.errors import ConfigurationError, translate
from scopedb.lifecycle import end_cleanup, prepare_connection
from scopedb.scope import ResourceScope

__all__ = [
    "PROTECT_INFO_KEY",
    "ProjectScoped",
    "Protection",
    "ScopedSessionFactory",
    "create_engine",
    "fragments",
    "graph_edges",
    "graph_nodes",
    "mark_protected",
    "metadata",
    "note_tombstones",
    "notes",
    "projects",
    "resource_links",
    "resources",
    "scope_of",
    "scoped_connection",
    "sessionmaker",
    "set_scope",
]

_SCOPE_KEY = "scopedb.scope"
_ACTOR_KEY = "scopedb.actor"

# -- Core tables -----------------------------------------------------------------------------------------------------
# Columns as sql/02_schema.sql declares them (tests/integration/test_sqlalchemy.py compares them with the migrated
# catalog). Server defaults are marked so that INSERTs leave them to Postgres. The application role's privileges still
# apply: scopedb_app may read notes' metadata but never their ``content`` column, and may not write ``projects``.

metadata = sa.MetaData(schema="scopedb")


projects = sa.Table(
    "projects",
    metadata,
    sa.Column("id", sa.BigInteger, primary_key=True),
    sa.Column("name", sa.Text, nullable=False, unique=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.text("now()")),
)

resources = sa.Table(
    "resources",
    metadata,
    sa.Column("project_id", sa.BigInteger, sa.ForeignKey("scopedb.projects.id"), primary_key=True),
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("alias", sa.Text),
    sa.Column("kind", sa.Text, nullable=False, server_default="repository"),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.text("now()")),
    sa.UniqueConstraint("project_id", "alias"),
)

resource_links = sa.Table(
    "resource_links",
    metadata,
    sa.Column("project_id", sa.BigInteger, sa.ForeignKey("scopedb.projects.id"), primary_key=True),
    sa.Column("parent_id", sa.Text, primary_key=True),
    sa.Column("child_id", sa.Text, primary_key=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.text("now()")),
    sa.ForeignKeyConstraint(["project_id", "parent_id"], ["scopedb.resources.project_id", "scopedb.resources.id"]),
    sa.ForeignKeyConstraint(["project_id", "child_id"], ["scopedb.resources.project_id", "scopedb.resources.id"]),
)

fragments = sa.Table(
    "fragments",
    metadata,
    sa.Column("project_id", sa.BigInteger, sa.ForeignKey("scopedb.projects.id"), primary_key=True),
    sa.Column("id", sa.Text, primary_key=True, server_default=sa.text("gen_random_uuid()::text")),
    sa.Column("resource_id", sa.Text),
    sa.Column("path", sa.Text),
    sa.Column("fqn", sa.Text),
    sa.Column("content", sa.Text, nullable=False),
    sa.Column("tsv", pg.TSVECTOR, sa.Computed("to_tsvector('english'::regconfig, content)", persisted=True)),
    # The width is fixed when the database is first migrated (384 by default); Postgres checks it on write.
    sa.Column("embedding", Vector()),
    sa.Column("tier", sa.Text, nullable=False, server_default="warm"),
    sa.Column("token_count", sa.Integer, nullable=False, server_default="0"),
    sa.Column("last_accessed_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.text("now()")),
    sa.Column("valid_from", sa.DateTime(timezone=True), nullable=False, server_default=sa.text("now()")),
    sa.Column("valid_to", sa.DateTime(timezone=True)),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.text("now()")),
    sa.Column("created_by", sa.Text),
    sa.ForeignKeyConstraint(["project_id", "resource_id"], ["scopedb.resources.project_id", "scopedb.resources.id"]),
)

graph_nodes = sa.Table(
    "graph_nodes",
    metadata,
    sa.Column("project_id", sa.BigInteger, sa.ForeignKey("scopedb.projects.id"), primary_key=True),
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("resource_id", sa.Text),
    sa.Column("kind", sa.Text, nullable=False, server_default="node"),
    sa.Column("label", sa.Text, nullable=False, server_default=""),
    sa.Column("path", sa.Text),
    sa.Column("fqn", sa.Text),
    sa.Column("properties", pg.JSONB, nullable=False, server_default=sa.text("'{}'::jsonb")),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.text("now()")),
    # What the read policy judges a node by, never NULL: the key graph_edges' copies reference.
    sa.Column("resource_key", sa.Text, sa.Computed("COALESCE(resource_id, '')", persisted=True), nullable=False),
    sa.Column("path_key", sa.Text, sa.Computed("COALESCE(path, '')", persisted=True), nullable=False),
    sa.Column("fqn_key", sa.Text, sa.Computed("COALESCE(fqn, '')", persisted=True), nullable=False),
    sa.ForeignKeyConstraint(["project_id", "resource_id"], ["scopedb.resources.project_id", "scopedb.resources.id"]),
    sa.UniqueConstraint("project_id", "id", "resource_key", "path_key", "fqn_key", name="graph_nodes_scope_key"),
)

graph_edges = sa.Table(
    "graph_edges",
    metadata,
    sa.Column("project_id", sa.BigInteger, sa.ForeignKey("scopedb.projects.id"), primary_key=True),
    sa.Column("src", sa.Text, primary_key=True),
    sa.Column("dst", sa.Text, primary_key=True),
    sa.Column("relation", sa.Text, primary_key=True, server_default="related"),
    sa.Column("weight", sa.REAL, nullable=False, server_default="1"),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.text("now()")),
    # Copies of each end's resource, path and name, which the edge policy tests. Leave them out of an INSERT: the
    # database fills them from the nodes the scope can see, and the foreign keys keep them equal to the nodes'.
    *(
        sa.Column(f"{end}_{part}", sa.Text, sa.FetchedValue(), nullable=False)
        for end in ("src", "dst")
        for part in ("resource", "path", "fqn")
    ),
    *(
        sa.ForeignKeyConstraint(
            ["project_id", end, f"{end}_resource", f"{end}_path", f"{end}_fqn"],
            [f"scopedb.graph_nodes.{c}" for c in ("project_id", "id", "resource_key", "path_key", "fqn_key")],
            name=f"graph_edges_{end}_fkey",
            onupdate="CASCADE",
        )
        for end in ("src", "dst")
    ),
)

notes = sa.Table(
    "notes",
    metadata,
    sa.Column("project_id", sa.BigInteger, sa.ForeignKey("scopedb.projects.id"), primary_key=True),
    sa.Column("id", sa.Text, primary_key=True),
    # Insert-only for the application: reading it is refused by column privileges (use scopedb.notes' tools).
    sa.Column("content", sa.Text, nullable=False),
    sa.Column("tags", pg.ARRAY(sa.Text), nullable=False, server_default=sa.text("'{}'::text[]")),
    sa.Column("sensitivity", sa.Text, nullable=False, server_default="normal"),
    sa.Column("retention_days", sa.Integer),
    sa.Column("provenance_source", sa.Text, nullable=False, server_default="service"),
    sa.Column("provenance_session", sa.Text),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.text("now()")),
    sa.Column("forgotten_at", sa.DateTime(timezone=True)),
)

note_tombstones = sa.Table(
    "note_tombstones",
    metadata,
    sa.Column("project_id", sa.BigInteger, primary_key=True),
    sa.Column("note_id", sa.Text, primary_key=True),
    sa.Column("forgotten_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.text("now()")),
    sa.Column("actor", sa.Text),
    sa.ForeignKeyConstraint(["project_id", "note_id"], ["scopedb.notes.project_id", "scopedb.notes.id"]),
)


# -- Engines ---------------------------------------------------------------------------------------------------------


# -- Services' own tables ---------------------------------------------------------------------------------------------

#: Where a table's :class:`Protection` is kept (``Table.info``); :mod:`scopedb.alembic`'s autogenerate reads it.
PROTECT_INFO_KEY = "scopedb.protect"


def mark_protected(table: sa.Table, protection: Protection | None = None) -> sa.Table:
    """Mark a Core table protected, so autogenerate emits ``op.protect_table`` for it (the mixin does this)."""
    table.info[PROTECT_INFO_KEY] = protection or Protection()
    return table


class ProjectScoped:
    """Declarative mixin for a service's table under the scope.

    Adds ``project_id``: ``bigint NOT NULL``, first in the table and in the primary key, referencing
    ``scopedb.projects`` (``ON DELETE CASCADE``: deleting a project deletes its rows in the service's tables too),
    and defaulting to ``scopedb.scope_project_id()`` — the entered scope's project when it has exactly one, an
    :class:`~scopedb.errors.AmbiguousProjectError` otherwise — so a service inserts without naming a project and
    could not name another. The policies refuse a row of another project anyway (``WITH CHECK``).

    Marks the table protected (:data:`PROTECT_INFO_KEY`); set ``__scopedb_protection__`` to a :class:`Protection`
    to name resource, path or name columns, or allow deletes.
    """

    __scopedb_protection__: ClassVar[Protection] = Protection()

    @orm.declared_attr
    def project_id(cls) -> orm.Mapped[int]:
        return orm.mapped_column(
            sa.BigInteger,
            sa.ForeignKey(projects.c.id, ondelete="CASCADE"),
            primary_key=True,
            nullable=False,
            server_default=sa.text("scopedb.scope_project_id()"),
            sort_order=-1,
        )

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)  # declarative maps the class here, building its table
        table = cls.__dict__.get("__table__")
        if isinstance(table, sa.Table):  # not on abstract classes or single-table subclasses
            mark_protected(table, cls.__scopedb_protection__)


def create_engine(db: Database, **kwargs: Any) -> sa.Engine:
    """An engine on ``db``'s application login (checked, as :meth:`Database.scoped` checks it, to be unable to
    leave a scope: not superuser, not BYPASSRLS, not the owner).

    Server-side prepared statements are off: SQLAlchemy's statements are the service's own SQL, which may carry a
    tenant's literals, and a prepared statement's text stays readable in the session (pg_prepared_statements) for
    whoever uses the connection next; a transaction-pooling PgBouncer may also sit in between. ``kwargs`` go to
    :func:`sqlalchemy.create_engine` (``pool_size``, ``echo``...).
    """
    app_dsn = db.checked_app_dsn()

    def connect() -> psycopg.Connection[Any]:
        conn = psycopg.connect(app_dsn, prepare_threshold=None, autocommit=True)
        try:
            prepare_connection(conn)
        except BaseException:
            conn.close()
            raise
        conn.autocommit = False
        return conn

    kwargs.setdefault("pool_pre_ping", True)
    engine = sa.create_engine("postgresql+psycopg://", creator=connect, pool_reset_on_return=None, **kwargs)
    sa.event.listen(engine, "reset", _clean_connection)
    sa.event.listen(engine, "handle_error", _translate_error)
    return engine


def _clean_connection(dbapi_connection: Any, connection_record: Any, reset_state: Any) -> None:
    """Roll back and clean a connection on its way back to the pool, so nothing of one scope's transaction — a
    cursor WITH HOLD, a session setting, a prepared statement, a LISTEN, an advisory lock — reaches the next."""
    conn: psycopg.Connection[Any] = dbapi_connection
    conn.rollback()
    if reset_state.terminate_only:
        return
    conn.autocommit = True
    try:
        end_cleanup(conn)
    finally:
        conn.autocommit = False


def _translate_error(context: ExceptionContext) -> None:
    """The one place SQLAlchemy's wrapped driver errors become :mod:`scopedb.errors` (raising replaces them).

    Lost connections too: SQLAlchemy invalidates the pooled connection after its handlers run, whatever they raise.
    """
    original = context.original_exception
    if isinstance(original, psycopg.Error):
        raise translate(original) from original


# -- Scoped transactions ---------------------------------------------------------------------------------------------


def set_scope(session: orm.Session, scope: ResourceScope | None, *, actor: str | None = None) -> None:
    """Make ``scope`` the scope of ``session``'s next transaction (``None``: no scope, so no rows).

    Refused while a transaction is open: its scope was fixed when it began, and quietly keeping the old one would
    be the kind of surprise a security boundary must not have. Commit or roll back first. A change of scope also
    empties the session's identity map, so nothing loaded under the old scope stays reachable.
    """
    if scope is not None and not isinstance(scope, ResourceScope):
        raise ConfigurationError("set_scope() takes a ResourceScope or None")
    if session.in_transaction():
        raise ConfigurationError("the session is in a transaction: commit or roll back before changing its scope")
    if scope != scope_of(session) or actor != session.info.get(_ACTOR_KEY):
        # The identity map answers session.get() and relationship loads without a query: objects loaded under the
        # old scope would still be served under the new one (with expire_on_commit=False, even their content).
        session.expunge_all()
    session.info[_SCOPE_KEY] = scope
    session.info[_ACTOR_KEY] = actor


def scope_of(session: orm.Session) -> ResourceScope | None:
    """The scope ``session``'s transactions enter."""
    scope = session.info.get(_SCOPE_KEY)
    return scope if isinstance(scope, ResourceScope) else None


class ScopedSessionFactory:
    """Makes ORM sessions bound to one engine whose transactions enter a scope on begin (see :func:`sessionmaker`)."""

    def __init__(self, db: Database, engine: sa.Engine, **kwargs: Any) -> None:
        self.db = db
        self.engine = engine
        self._maker: orm.sessionmaker[orm.Session] = orm.sessionmaker(bind=engine, **kwargs)
        sa.event.listen(self._maker, "after_begin", self._enter)

    def __call__(self, scope: ResourceScope | None, *, actor: str | None = None) -> orm.Session:
        session = self._maker()
        set_scope(session, scope, actor=actor)
        return session

    def _enter(self, session: orm.Session, transaction: orm.SessionTransaction, connection: sa.Connection) -> None:
        _enter(self.db, connection, scope_of(session), session.info.get(_ACTOR_KEY))


def sessionmaker(db: Database, engine: sa.Engine | None = None, **kwargs: Any) -> ScopedSessionFactory:
    """A factory of ORM sessions on ``engine`` (by default :func:`create_engine` ``(db)``): ``factory(scope)``.

    ``kwargs`` go to :class:`sqlalchemy.orm.sessionmaker` (``expire_on_commit``...).
    """
    return ScopedSessionFactory(db, engine if engine is not None else create_engine(db), **kwargs)


@contextmanager
def scoped_connection(
    db: Database, engine: sa.Engine, scope: ResourceScope, *, actor: str | None = None
) -> Iterator[sa.Connection]:
    """A Core connection in one transaction with ``scope`` entered; committed on success, rolled back on error."""
    with engine.begin() as connection:
        _enter(db, connection, scope, actor)
        yield connection


def _enter(db: Database, connection: sa.Connection, scope: ResourceScope | None, actor: str | None) -> None:
    """Become scopedb_app and enter ``scope`` on the transaction SQLAlchemy just began (psycopg begins it itself
    on the first statement). Without a scope, only the role: every policy then sees no scope and admits nothing."""
    driver = connection.connection.driver_connection
    if not isinstance(driver, psycopg.Connection):
        raise ConfigurationError("scopedb.sqlalchemy needs the psycopg (version 3) driver")
    if scope is None:
        db.vet_connection(driver)  # becomes scopedb_app (SET LOCAL ROLE) once the login is judged fit
        try:
            driver.execute("SET LOCAL ROLE scopedb_app")
        except psycopg.Error as exc:
            raise translate(exc) from exc
        return
    db.enter_scope(driver, scope, actor=actor)
