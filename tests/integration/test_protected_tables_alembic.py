"""Protecting a service's table from its own alembic migrations (issue 20): ``op.protect_table`` and
``scopedb.alembic.protect_table(op, ...)`` in a migration's transaction, and autogenerate emitting the operation for
a model made with :class:`scopedb.sqlalchemy.ProjectScoped`. The generated migration is run, and the model is then
used through scopedb's SQLAlchemy sessions as the application role."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
import sqlalchemy as sa
from alembic.autogenerate import produce_migrations, render_python_code
from alembic.operations import Operations
from alembic.runtime.migration import MigrationContext
from sqlalchemy import orm
from sqlalchemy.pool import NullPool

import scopedb.alembic
from scopedb import Database
from scopedb import sqlalchemy as sdb
from scopedb.errors import UnprotectableTableError
from tests.conftest import TICKETS, TICKETS_DDL, Tenants


class Base(orm.DeclarativeBase):
    pass


class Ticket(sdb.ProjectScoped, Base):
    __tablename__ = "tickets"
    __table_args__ = {"schema": "support"}  # noqa: RUF012 - declarative reads it once
    __scopedb_protection__ = sdb.Protection(resource_column="repository")

    id: orm.Mapped[uuid.UUID] = orm.mapped_column(primary_key=True, server_default=sa.text("gen_random_uuid()"))
    repository: orm.Mapped[str | None]
    title: orm.Mapped[str]


@pytest.fixture
def owner_engine(scopedb_db: Database) -> Iterator[sa.Engine]:
    """The migrating login (the table's owner and an admin), as a service's alembic env would hold it."""
    engine = sa.create_engine(
        "postgresql+psycopg://", creator=lambda: psycopg.connect(scopedb_db.dsn), poolclass=NullPool
    )
    yield engine
    engine.dispose()


def _migrate(engine: sa.Engine, body: str) -> None:
    """Run ``body`` as the upgrade() of a migration script, in one transaction."""
    namespace: dict[str, Any] = {}
    source = "import sqlalchemy as sa\nfrom alembic import op\nimport scopedb.alembic\n\ndef upgrade():\n" + body
    exec(compile(source, "<migration>", "exec"), namespace)  # noqa: S102 - the text alembic rendered
    with engine.begin() as conn, Operations.context(MigrationContext.configure(conn)):
        namespace["upgrade"]()


def _autogenerate(engine: sa.Engine) -> tuple[str, str]:
    with engine.connect() as conn:
        context = MigrationContext.configure(
            conn,
            opts={
                "include_schemas": True,
                "include_name": lambda name, type_, parent: type_ != "schema" or name == "support",
            },
        )
        script = produce_migrations(context, Base.metadata)
    assert script.upgrade_ops is not None
    assert script.downgrade_ops is not None
    return render_python_code(script.upgrade_ops), render_python_code(script.downgrade_ops)


def test_protect_table_in_a_migration_and_its_downgrade(tenants: Tenants, owner_engine: sa.Engine) -> None:
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        for statement in TICKETS_DDL:
            conn.execute(statement.encode())
    _migrate(owner_engine, f"    scopedb.alembic.protect_table(op, {TICKETS!r}, resource_column='repository')\n")
    admin = tenants.db.admin()
    assert [(t.relation, t.resource_column) for t in admin.protected_tables()] == [(TICKETS, "repository")]
    assert [f for f in admin.audit() if f.severity == "error"] == []
    _migrate(owner_engine, f"    op.unprotect_table({TICKETS!r})\n")
    assert admin.protected_tables() == []


def test_a_refused_table_rolls_the_migration_back(tenants: Tenants, owner_engine: sa.Engine) -> None:
    body = (
        "    op.execute('CREATE SCHEMA support')\n"
        "    op.create_table('bad', sa.Column('project_id', sa.BigInteger, nullable=False),\n"
        "                    sa.Column('id', sa.Integer, primary_key=True), schema='support')\n"
        "    op.protect_table('support.bad')\n"
    )
    with pytest.raises(UnprotectableTableError, match="does not compare project_id by equality"):
        _migrate(owner_engine, body)
    with psycopg.connect(tenants.db.dsn) as conn:
        assert conn.execute("SELECT to_regnamespace('support')").fetchone() == (None,)


def test_autogenerate_protects_a_project_scoped_model_after_creating_it(
    tenants: Tenants, owner_engine: sa.Engine
) -> None:
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA support")
    upgrade, downgrade = _autogenerate(owner_engine)
    assert "info=" not in upgrade
    assert upgrade.index("op.create_table('tickets'") < upgrade.index(
        "op.protect_table('support.tickets', project_column='project_id', resource_column='repository')"
    )
    assert downgrade.index("op.unprotect_table('support.tickets')") < downgrade.index("op.drop_table('tickets'")

    _migrate(owner_engine, upgrade)
    assert [t.relation for t in tenants.db.admin().protected_tables()] == [TICKETS]
    again, _ = _autogenerate(owner_engine)
    assert "protect_table" not in again

    # The model in use: no project named on insert, none filtered on read.
    engine = sdb.create_engine(tenants.db, pool_size=1, max_overflow=0)
    try:
        factory = sdb.sessionmaker(tenants.db, engine)
        for name in ("acme/api", "beta/web"):
            with factory(tenants.scope(name)) as session, session.begin():
                session.add(Ticket(title=f"{name}'s ticket"))
        with factory(tenants.scope("acme/api")) as session:
            seen = session.scalars(sa.select(Ticket)).all()
        assert [(t.project_id, t.title) for t in seen] == [(tenants.a.id, "acme/api's ticket")]
    finally:
        engine.dispose()


def test_the_mixin_marks_the_table_and_leads_its_key_with_the_project() -> None:
    table = Ticket.__table__
    assert isinstance(table, sa.Table)
    assert table.info[sdb.PROTECT_INFO_KEY] == sdb.Protection(resource_column="repository")
    assert [c.name for c in table.primary_key.columns] == ["project_id", "id"]
    (fk,) = table.c.project_id.foreign_keys
    assert fk.target_fullname == "scopedb.projects.id"
    assert fk.ondelete == "CASCADE"
    assert scopedb.alembic.ProtectTableOp("x.y", sdb.Protection()).reverse().table == "x.y"


def test_autogenerate_names_tables_as_the_database_records_them() -> None:
    """Mixed-case names are quoted, as regclass prints them: "Svc"."Tickets" is not svc.tickets."""
    from scopedb.alembic import _qualified

    assert _qualified("support", "tickets", "public") == "support.tickets"
    assert _qualified(None, "tickets", "public") == "public.tickets"
    assert _qualified("Svc", "Tickets", "public") == '"Svc"."Tickets"'
    assert _qualified("svc", 'we"ird', "public") == 'svc."we""ird"'
