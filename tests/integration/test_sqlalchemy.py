"""SQLAlchemy 2 on scopedb: ORM and Core queries written with no project filter run under RLS for the session's
scope, as the application login, with scopedb's typed errors and a clean connection per transaction."""

from __future__ import annotations

import re
from collections.abc import Iterator

import psycopg
import pytest
import sqlalchemy as sa
from sqlalchemy import orm
from sqlalchemy.dialects import postgresql

from scopedb import Database, ResourceScope
from scopedb import sqlalchemy as sdb
from scopedb.errors import (
    ConfigurationError,
    ConnectionLostError,
    PermissionDeniedError,
    QueryError,
    ScopeViolationError,
)
from scopedb.server import Server
from tests.conftest import Tenants


class Base(orm.DeclarativeBase):
    pass


class FragmentRow(Base):
    """How a service maps its own class onto scopedb's table."""

    __table__ = sdb.fragments
    project_id: orm.Mapped[int]
    id: orm.Mapped[str]
    content: orm.Mapped[str]


@pytest.fixture
def engine(tenants: Tenants) -> Iterator[sa.Engine]:
    engine = sdb.create_engine(tenants.db, pool_size=1, max_overflow=0)
    yield engine
    engine.dispose()


def test_an_orm_query_with_no_filter_sees_only_its_scope(tenants: Tenants, engine: sa.Engine) -> None:
    factory = sdb.sessionmaker(tenants.db, engine)
    with factory(tenants.scope("acme/api")) as session:
        rows = session.scalars(sa.select(FragmentRow)).all()
        projects = session.execute(sa.select(sdb.projects.c.name)).scalars().all()
    assert len(rows) == tenants.count("fragments", tenants.a) == 7
    assert {row.project_id for row in rows} == {tenants.a.id}
    assert projects == ["acme/api"]
    assert tenants.count("fragments", tenants.b) == 7  # the other tenant's rows are there, and hidden


def test_a_session_reused_for_another_scope_sees_only_that_one(tenants: Tenants, engine: sa.Engine) -> None:
    factory = sdb.sessionmaker(tenants.db, engine)
    count = sa.select(sa.func.count()).select_from(sdb.fragments)
    owners = sa.select(sdb.fragments.c.project_id).distinct()
    with factory(tenants.scope("acme/api")) as session:
        assert set(session.scalars(owners)) == {tenants.a.id}
        with pytest.raises(ConfigurationError, match="commit or roll back"):
            sdb.set_scope(session, tenants.scope("beta/web"))  # mid-transaction: refused, not silently ignored
        session.commit()
        sdb.set_scope(session, tenants.scope("beta/web"))
        assert set(session.scalars(owners)) == {tenants.b.id}
        session.rollback()
        sdb.set_scope(session, tenants.scope("acme/api", "beta/web"))
        assert session.scalar(count) == 14
        session.rollback()
        sdb.set_scope(session, None)  # no scope: fail closed
        assert session.scalar(count) == 0
        assert sdb.scope_of(session) is None


def test_writes_are_scoped_and_errors_are_typed(tenants: Tenants, engine: sa.Engine) -> None:
    factory = sdb.sessionmaker(tenants.db, engine)
    with factory(tenants.scope("acme/api")) as session:
        session.add(FragmentRow(project_id=tenants.a.id, id="orm-1", content="written through the ORM"))
        session.commit()

    def write(scope: ResourceScope | None, project_id: int, fragment_id: str) -> None:
        with factory(scope) as session:
            session.add(FragmentRow(project_id=project_id, id=fragment_id, content="refused"))
            session.commit()

    with pytest.raises(ScopeViolationError):
        write(tenants.scope("acme/api"), tenants.b.id, "orm-2")  # into the other tenant
    with pytest.raises(ScopeViolationError):
        write(None, tenants.a.id, "orm-3")  # with no scope at all
    with pytest.raises(PermissionDeniedError), factory(tenants.scope("acme/api")) as session:
        session.execute(sa.select(sdb.notes.c.content)).all()  # note bodies are not readable by the app
    assert tenants.admin_rows("fragments", "id LIKE 'orm-%'") == [(tenants.a.id,)]


def test_core_connection_and_pgvector_types(tenants: Tenants, engine: sa.Engine) -> None:
    query = [0.0, 1.0, 0.0] + [0.0] * 381
    nearest = (
        sa.select(sdb.fragments.c.project_id, sdb.fragments.c.path)
        .where(sdb.fragments.c.embedding.is_not(None))
        .order_by(sdb.fragments.c.embedding.cosine_distance(query))
        .limit(20)
    )
    with sdb.scoped_connection(tenants.db, engine, tenants.scope("beta/web")) as conn:
        rows = conn.execute(nearest).all()
    assert len(rows) == 6
    assert {project for project, _ in rows} == {tenants.b.id}
    docs_only = tenants.scope("acme/api", resource_ids={tenants.resources["a2"].id})
    with sdb.scoped_connection(tenants.db, engine, docs_only) as conn:
        paths = conn.execute(sa.select(sdb.fragments.c.path).order_by(sdb.fragments.c.path)).scalars().all()
    assert paths == ["src/a2/file0.py", "src/a2/file1.py", "src/a2/file2.py"]


def test_nothing_of_one_transaction_reaches_the_next_on_the_pooled_connection(
    tenants: Tenants, engine: sa.Engine
) -> None:
    with sdb.scoped_connection(tenants.db, engine, tenants.scope("beta/web")) as conn:
        conn.exec_driver_sql("DECLARE held CURSOR WITH HOLD FOR SELECT project_id FROM scopedb.fragments")
        conn.exec_driver_sql("SELECT set_config('application_name', 'beta-session', false)")
    with sdb.scoped_connection(tenants.db, engine, tenants.scope("acme/api")) as conn:
        assert conn.exec_driver_sql("SHOW application_name").scalar() != "beta-session"
    with pytest.raises(QueryError), sdb.scoped_connection(tenants.db, engine, tenants.scope("acme/api")) as conn:
        conn.exec_driver_sql("FETCH ALL FROM held")  # the held cursor (beta's rows) did not survive the checkin


def test_a_lost_connection_is_one_typed_error_and_the_pool_recovers(tenants: Tenants, engine: sa.Engine) -> None:
    factory = sdb.sessionmaker(tenants.db, engine)
    with factory(tenants.scope("acme/api")) as session:
        pid = session.scalar(sa.text("SELECT pg_backend_pid()"))
        with psycopg.connect(tenants.db.dsn, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        with pytest.raises(ConnectionLostError):
            session.execute(sa.text("SELECT count(*) FROM scopedb.fragments"))
    with factory(tenants.scope("acme/api")) as session:  # a new connection, scoped as before
        assert session.scalar(sa.select(sa.func.count()).select_from(sdb.fragments)) == 7


def test_a_rotated_and_retired_key_does_not_fail_the_transaction(tenants: Tenants, engine: sa.Engine) -> None:
    factory = sdb.sessionmaker(tenants.db, engine)
    count = sa.select(sa.func.count()).select_from(sdb.fragments)
    with factory(tenants.scope("acme/api")) as session:
        assert session.scalar(count) == 7
    admin = tenants.db.admin()
    old = admin.active_signing_key()
    assert old is not None
    admin.rotate_signing_key()
    admin.retire_signing_key(old.key_id)
    with factory(tenants.scope("acme/api")) as session:
        assert session.scalar(count) == 7


def test_connections_must_be_in_a_transaction_and_scopes_typed(tenants: Tenants) -> None:
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn, pytest.raises(ConfigurationError):
        tenants.db.enter_scope(conn, tenants.scope("acme/api"))
    with pytest.raises(ConfigurationError), orm.Session() as session:
        sdb.set_scope(session, {"project_names": ["beta/web"]})  # type: ignore[arg-type]


def _ddl(column_type: sa.types.TypeEngine[object]) -> str:
    """The type as Postgres DDL, without a vector's width (fixed at migration time, not in the Core table)."""
    ddl = str(column_type.compile(dialect=postgresql.dialect()))  # type: ignore[no-untyped-call]
    return re.sub(r"VECTOR\(\d+\)", "VECTOR", ddl)


def test_the_core_tables_match_the_migrated_catalog(tenants: Tenants) -> None:
    owner = sa.create_engine("postgresql+psycopg://", creator=lambda: psycopg.connect(tenants.db.dsn))
    try:
        reflected = sa.MetaData(schema="scopedb")
        reflected.reflect(owner, schema="scopedb")
    finally:
        owner.dispose()
    for table in sdb.metadata.sorted_tables:
        actual = reflected.tables[table.fullname]
        assert [c.name for c in table.columns] == [c.name for c in actual.columns], table.name
        for ours, theirs in zip(table.columns, actual.columns, strict=True):
            assert ours.nullable == theirs.nullable, f"{table.name}.{ours.name}"
            assert ours.primary_key == theirs.primary_key, f"{table.name}.{ours.name}"
            assert _ddl(ours.type) == _ddl(theirs.type), f"{table.name}.{ours.name}"
        assert {frozenset(c.column_keys) for c in table.foreign_key_constraints} == {
            frozenset(c.column_keys) for c in actual.foreign_key_constraints
        }, table.name


def test_the_set_local_form_of_scope_entry_works_too(tenants: Tenants) -> None:
    """The form Citus forwards to its workers (docs/scaling.md)."""
    db = Database(
        Server(dsn=tenants.db.dsn, backend=tenants.db.server.backend),
        app_dsn=tenants.db.app_dsn,
        scope_entry="set_local",
    )
    engine = sdb.create_engine(db)
    try:
        with sdb.sessionmaker(db, engine)(tenants.scope("beta/web")) as session:
            owners = set(session.scalars(sa.select(sdb.fragments.c.project_id)))
    finally:
        engine.dispose()
        db.close()
    assert owners == {tenants.b.id}
