"""The entry paths services build on — SQLAlchemy sessions, Core connections, their own psycopg connections — hold
the same line as ``Database.scoped`` (catalogue #63, #64).

The attacker controls what a scope change leaves in an ORM session, and the login a careless service hands to
scopedb. It runs arbitrary SQL as ``scopedb_app`` in A's scope and tries to read B.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
import sqlalchemy as sa
from sqlalchemy import orm

from scopedb import Database
from scopedb import sqlalchemy as sdb
from scopedb.logins import PrivilegedLoginError
from scopedb.server import Server
from tests.conftest import Tenants


class Base(orm.DeclarativeBase):
    pass


class Frag(Base):
    __table__ = sdb.fragments
    project_id: orm.Mapped[int]
    id: orm.Mapped[str]
    content: orm.Mapped[str]


def _b_fragment(tenants: Tenants) -> str:
    with psycopg.connect(tenants.db.dsn) as conn:
        row = conn.execute("SELECT id FROM scopedb.fragments WHERE project_id = %s LIMIT 1", (tenants.b.id,)).fetchone()
    assert row is not None
    return str(row[0])


def test_63_a_scope_change_leaves_nothing_of_the_old_scope_in_the_session(tenants: Tenants) -> None:
    """With ``expire_on_commit=False`` (forwarded to SQLAlchemy), load B's row, commit, ``set_scope`` to A: the
    identity map used to answer ``session.get`` for B's key with B's content, without a query."""
    engine = sdb.create_engine(tenants.db, pool_size=1, max_overflow=0)
    try:
        factory = sdb.sessionmaker(tenants.db, engine, expire_on_commit=False)
        key = (tenants.b.id, _b_fragment(tenants))
        with factory(tenants.scope("beta/web")) as session:
            b_row = session.get(Frag, key)
            assert b_row is not None  # control: B's scope sees it
            session.commit()
            sdb.set_scope(session, tenants.scope("acme/api"))
            assert session.get(Frag, key) is None
            assert b_row not in session
            assert session.scalars(sa.select(Frag.project_id).distinct()).all() == [tenants.a.id]
    finally:
        engine.dispose()


@pytest.fixture
def admin_engine(tenants: Tenants) -> Iterator[sa.Engine]:
    """An engine on the admin login (a superuser on the servers scopedb starts): a service's mistake."""
    engine = sa.create_engine("postgresql+psycopg://", creator=lambda: psycopg.connect(tenants.db.dsn))
    yield engine
    engine.dispose()


def _superuser(tenants: Tenants) -> bool:
    with psycopg.connect(tenants.db.dsn) as conn:
        return conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone() == (True,)


ESCAPE = "RESET ROLE; SELECT DISTINCT project_id FROM scopedb.fragments"


def test_64_sessionmaker_on_a_privileged_engine_is_refused(tenants: Tenants, admin_engine: sa.Engine) -> None:
    """``sdb.sessionmaker(db, engine)`` with the admin engine entered scopes on a superuser login, where an injected
    ``RESET ROLE`` read both tenants' rows."""
    if not _superuser(tenants):
        pytest.skip("needs the admin login to be a superuser")
    factory = sdb.sessionmaker(tenants.db, admin_engine)
    with pytest.raises(PrivilegedLoginError), factory(tenants.scope("acme/api")) as session:
        session.execute(sa.text(ESCAPE)).all()


def test_64_scoped_connection_on_a_privileged_engine_is_refused(tenants: Tenants, admin_engine: sa.Engine) -> None:
    if not _superuser(tenants):
        pytest.skip("needs the admin login to be a superuser")
    with (
        pytest.raises(PrivilegedLoginError),
        sdb.scoped_connection(tenants.db, admin_engine, tenants.scope("acme/api")) as c,
    ):
        c.execute(sa.text(ESCAPE)).all()


def test_64_enter_scope_on_a_privileged_connection_is_refused(tenants: Tenants) -> None:
    if not _superuser(tenants):
        pytest.skip("needs the admin login to be a superuser")
    with psycopg.connect(tenants.db.dsn) as conn, pytest.raises(PrivilegedLoginError):
        tenants.db.enter_scope(conn, tenants.scope("acme/api"))


def test_64_enter_scope_on_the_application_login_works(tenants: Tenants) -> None:
    """Control: the same path on the application login enters, and RESET ROLE then reads nothing."""
    with psycopg.connect(tenants.db.app_dsn) as conn:
        assert tenants.db.enter_scope(conn, tenants.scope("acme/api")) == [tenants.a.id]
        assert conn.execute("SELECT DISTINCT project_id FROM scopedb.fragments").fetchall() == [(tenants.a.id,)]


@pytest.fixture
def make_login(tenants: Tenants) -> Iterator[Callable[..., str]]:
    """Creates a login (and its groups) on the server, returns its DSN, and drops them all afterwards."""
    made: list[str] = []

    def make(*grants: str, group: str | None = None) -> str:
        if tenants.db.server.backend == "dsn":
            pytest.skip("logs in without a password: needs a server scopedb started (trust)")
        login = f"svc_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(tenants.db.dsn, autocommit=True) as admin:
            if group:
                admin.execute(f"CREATE ROLE {login}_grp NOLOGIN {group}")
                made.append(f"{login}_grp")
            admin.execute(f"CREATE ROLE {login} LOGIN NOINHERIT IN ROLE scopedb_app")
            made.insert(0, login)
            if group:
                admin.execute(f"GRANT {login}_grp TO {login}")
            for granted in grants:
                admin.execute(f"GRANT {granted} TO {login}")
        return str(psycopg.conninfo.make_conninfo(tenants.db.app_dsn, user=login))

    yield make
    with psycopg.connect(tenants.db.dsn, autocommit=True) as admin:
        for role in made:
            admin.execute(f"DROP ROLE IF EXISTS {role}")


LOGINS: list[tuple[str, dict[str, Any]]] = [
    ("a BYPASSRLS group the login belongs to", {"group": "BYPASSRLS"}),
    ("a superuser group", {"group": "SUPERUSER"}),
    ("pg_read_all_data (reads the signing keys)", {"grants": ("pg_read_all_data",)}),
    ("scopedb_owner", {"grants": ("scopedb_owner",)}),
]


@pytest.mark.parametrize(("what", "how"), LOGINS, ids=[w for w, _ in LOGINS])
def test_64_a_login_that_can_become_privileged_is_refused(
    tenants: Tenants, make_login: Callable[..., str], what: str, how: dict[str, Any]
) -> None:
    """The login check read the login's own attributes only: a login that is a member of a BYPASSRLS group (and
    can ``SET ROLE`` to it) passed, and then read B's rows."""
    dsn = make_login(*how.get("grants", ()), group=how.get("group"))
    db = Database(Server(dsn=tenants.db.dsn, backend=tenants.db.server.backend), app_dsn=dsn)
    try:
        with pytest.raises(PrivilegedLoginError), db.scoped(tenants.scope("acme/api")):
            pass
    finally:
        db.close()
