"""A pytest plugin that gives each test a migrated scopedb database, fast.

Installed with scopedb (entry point ``pytest11``), so services that use scopedb get the same fixtures:

``scopedb_server``
    The server, once per test session: ``SCOPEDB_DATABASE_URL`` if set (needs CREATEDB and CREATEROLE),
    ``SCOPEDB_BACKEND=docker`` for a pgvector container (skipped with the reason when no Docker engine
    answers), otherwise an embedded PostgreSQL 18 + pgvector in a throwaway directory.
``scopedb_template``
    A database migrated once per session, used as the template of every per-test database.
``scopedb_dsn`` / ``scopedb_db``
    A fresh clone of the template for one test (``CREATE DATABASE ... TEMPLATE``), as a DSN or an open
    :class:`scopedb.Database`. Measured here: a clone takes about 80 ms; the alternative, a transaction rolled back
    after each test, cannot serve scopedb, whose scoped transactions commit on their own pooled connections.
``app_connection(db)``
    A raw psycopg connection logged in as the application login, for tests that must run SQL exactly as a
    service would — never as the superuser.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql

from scopedb import migrations
from scopedb.database import Database
from scopedb.server import APP_LOGIN_ROLE, Server, docker_available, resolve_server, start_embedded

_counter = itertools.count()
TEST_APP_ROLE = "scopedb_test_app"


def pytest_configure(config: pytest.Config) -> None:
    # Only what the plugin's own fixtures use: a project's options and markers (a --slow, say) stay its own.
    config.addinivalue_line("markers", "docker: needs a Docker engine")


class ScopedbTestServer:
    """The session's server plus what tests need to log in to its databases."""

    def __init__(self, server: Server, *, app_password: str | None) -> None:
        self.server = server
        self.app_password = app_password

    @property
    def external(self) -> bool:
        return self.server.backend == "dsn"

    def admin_dsn(self, dbname: str) -> str:
        return self.server.dsn_for(dbname)

    def app_dsn(self, dbname: str) -> str:
        """The application login for ``dbname``: scopedb's own on servers it started, a test login otherwise."""
        if not self.external:
            return self.server.dsn_for(dbname, user=APP_LOGIN_ROLE)
        dsn = self.server.dsn_for(dbname, user=TEST_APP_ROLE)
        return psycopg.conninfo.make_conninfo(dsn, password=self.app_password)

    def database(self, dbname: str) -> Database:
        """An open Database on ``dbname`` (close it when done)."""
        clone = Server(dsn=self.admin_dsn(dbname), backend=self.server.backend)
        return Database(clone, app_dsn=self.app_dsn(dbname))


@contextlib.contextmanager
def embedded_home(prefix: str = "scopedb-test-") -> Iterator[Path]:
    """A fresh directory for an embedded server's data, removed afterwards.

    It lives in the system's temporary directory rather than pytest's, which is private to the user: started as
    root, the embedded server runs as its own system user, which must be able to reach its data directory, and
    scopedb will not widen the permissions of a directory it does not own to let it (see scopedb.server).
    """
    path = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def scopedb_server() -> Iterator[ScopedbTestServer]:
    """The server every scopedb test database lives on (see the module docstring)."""
    with contextlib.ExitStack() as stack:
        if os.environ.get("SCOPEDB_DATABASE_URL"):
            server = resolve_server(database="postgres")
        elif os.environ.get("SCOPEDB_BACKEND") == "docker":
            ok, why = docker_available()
            if not ok:
                pytest.skip(f"SCOPEDB_BACKEND=docker but {why}")
            server = resolve_server(backend="docker", database="postgres")
        else:
            server = start_embedded(stack.enter_context(embedded_home()), database="postgres")
            _throwaway(server)
        stack.callback(server.stop)
        password = secrets.token_hex(16) if server.backend == "dsn" else None
        yield ScopedbTestServer(server, app_password=password)


@pytest.fixture(scope="session")
def scopedb_template(scopedb_server: ScopedbTestServer) -> Iterator[str]:
    """The name of a database migrated once for the session; every test database is a clone of it."""
    name = f"scopedb_tpl_{os.getpid()}"
    _create_database(scopedb_server, name)
    db = Database(Server(dsn=scopedb_server.admin_dsn(name), backend=scopedb_server.server.backend))
    try:
        db.migrate()
    finally:
        db.close()
    if scopedb_server.external:
        _ensure_test_app_role(scopedb_server, name)
    yield name
    if scopedb_server.external:
        _drop_database(scopedb_server, name)


@contextlib.contextmanager
def cloned_database(server: ScopedbTestServer, template: str) -> Iterator[str]:
    """A fresh clone of ``template`` (its administrative DSN) for as long as the block runs.

    The clone is dropped when the block ends, on the embedded server too: a session makes hundreds of clones of
    about 15 MB each, and deleting them all with the data directory at the end of scopedb's own suite took 27 s,
    where dropping one takes 5-9 ms."""
    name = f"scopedb_t_{os.getpid()}_{next(_counter)}"
    _create_database(server, name, template=template)
    dsn = server.admin_dsn(name)
    try:
        migrations.harden_database(dsn)  # database ACLs are not copied from the template
        yield dsn
    finally:
        _drop_database(server, name)


@pytest.fixture
def scopedb_dsn(scopedb_server: ScopedbTestServer, scopedb_template: str) -> Iterator[str]:
    """A fresh, migrated database for this test, as an administrative DSN."""
    with cloned_database(scopedb_server, scopedb_template) as dsn:
        yield dsn


@pytest.fixture
def scopedb_db(scopedb_server: ScopedbTestServer, scopedb_dsn: str) -> Iterator[Database]:
    """An open :class:`scopedb.Database` on a fresh, migrated database."""
    dbname = psycopg.conninfo.conninfo_to_dict(scopedb_dsn)["dbname"]
    db = scopedb_server.database(str(dbname))
    try:
        yield db
    finally:
        db.close()


def app_connection(db: Database, *, autocommit: bool = False) -> psycopg.Connection[Any]:
    """A raw connection as the application login of ``db``: what an attacker inside a service would hold."""
    return psycopg.connect(db.app_dsn, autocommit=autocommit)


def _throwaway(server: Server) -> None:
    """Settings for an embedded server whose data is deleted when the session ends: nothing is flushed to disk
    for durability. A session clones the template hundreds of times, and every checkpoint, the last one at
    shutdown too, synced each file of every clone: the shutdown alone took a minute after a full run of scopedb's
    own suite. What the tests observe does not depend on durability (a crash test that needs it kills the server
    it started itself)."""
    with psycopg.connect(server.dsn_for("postgres"), autocommit=True) as conn:
        for setting in ("fsync", "synchronous_commit", "full_page_writes"):
            conn.execute(sql.SQL("ALTER SYSTEM SET {} = off").format(sql.Identifier(setting)))
        conn.execute("SELECT pg_reload_conf()")


def _create_database(server: ScopedbTestServer, name: str, *, template: str | None = None) -> None:
    with psycopg.connect(server.admin_dsn("postgres"), autocommit=True) as conn:
        statement = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
        if template:
            statement = sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(sql.Identifier(name), sql.Identifier(template))
            if server.server.backend == "embedded":
                # On the session's own throwaway server (no fsync), copying the template's files is about 15 ms
                # faster a clone than writing them through the WAL. A server that others use keeps PostgreSQL's
                # default: FILE_COPY checkpoints, which there would flush their work to disk too.
                statement += sql.SQL(" STRATEGY FILE_COPY")
        conn.execute(statement)


def _drop_database(server: ScopedbTestServer, name: str) -> None:
    with psycopg.connect(server.admin_dsn("postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def _ensure_test_app_role(server: ScopedbTestServer, template: str) -> None:
    """On an existing server: a NOINHERIT login in scopedb_app with a per-session random password."""
    db = Database(Server(dsn=server.admin_dsn(template), backend="dsn"))
    try:
        db.admin().ensure_app_login(TEST_APP_ROLE, password=server.app_password)
    finally:
        db.close()
