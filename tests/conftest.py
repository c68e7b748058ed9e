"""Shared fixtures: two tenants with resources, links and fragments, created the way a deployment would."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import psycopg
import pytest

from scopedb import Database, Fragment, ResourceScope
from scopedb.admin import Project, Resource
from scopedb.server import Server

DATA_TABLES = ("projects", "resources", "resource_links", "fragments")


# The repository's own habit, not the installed plugin's (scopedb.testing): long cases run with --slow.
def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", default=False, help="run the long cases too")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow"):
        return
    skip_slow = pytest.mark.skip(reason="long case: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)


@dataclass
class Tenants:
    """Project A ("acme/api") and project B ("beta/web"), each with two linked resources and fragments."""

    db: Database
    a: Project
    b: Project
    resources: dict[str, Resource] = field(default_factory=dict)
    #: How tests open a scoped transaction: ``db.scoped`` by default, or the async API through a bridge.
    scoped_with: Callable[..., Any] | None = None

    def scoped(self, scope: ResourceScope, **kwargs: Any) -> Any:
        """``db.scoped(scope)`` — or its async twin, for modules that run against both APIs."""
        return (self.scoped_with or self.db.scoped)(scope, **kwargs)

    def scope(self, *names: str, **kwargs: Any) -> ResourceScope:
        return ResourceScope(project_names=set(names), **kwargs)

    def one_connection(self, **options: Any) -> Database:
        """Another Database over the tenants' database whose pool holds exactly one application connection, so
        consecutive transactions share one server session (``options`` go to :class:`Database`)."""
        server = Server(dsn=self.db.dsn, backend=self.db.server.backend)
        return Database(server, app_dsn=self.db.app_dsn, pool_size=1, **options)

    def admin_rows(self, table: str, where: str = "true") -> list[tuple[Any, ...]]:
        """Rows as the superuser/owner sees them: the ground truth the app's view is checked against."""
        project_col = "id" if table == "projects" else "project_id"
        with psycopg.connect(self.db.dsn) as conn:
            return conn.execute(f"SELECT {project_col} FROM scopedb.{table} WHERE {where} ORDER BY 1").fetchall()

    def count(self, table: str, project: Project) -> int:
        column = "id" if table == "projects" else "project_id"
        return len(self.admin_rows(table, f"{column} = {int(project.id)}"))


def make_tenants(db: Database) -> Tenants:
    admin = db.admin()
    tenants = Tenants(db=db, a=admin.create_project("acme/api"), b=admin.create_project("beta/web"))
    for key, project, alias in [
        ("a1", "acme/api", "repo"),
        ("a2", "acme/api", "docs"),
        ("b1", "beta/web", "repo"),
        ("b2", "beta/web", "docs"),
    ]:
        tenants.resources[key] = admin.create_resource(project, alias=alias)
    admin.link_resources("acme/api", tenants.resources["a1"].id, tenants.resources["a2"].id)
    admin.link_resources("beta/web", tenants.resources["b1"].id, tenants.resources["b2"].id)
    fragments: list[Fragment] = []
    for key in ("a1", "a2", "b1", "b2"):
        project = "acme/api" if key.startswith("a") else "beta/web"
        for n in range(3):
            fragments.append(
                Fragment(
                    project=project,
                    content=f"{project} {key} fragment {n} about the auth flow",
                    resource_id=tenants.resources[key].id,
                    path=f"src/{key}/file{n}.py",
                    embedding=[float(n), 1.0, 0.0] + [0.0] * 381,
                )
            )
    fragments.append(Fragment(project="acme/api", content="acme project-wide note"))
    fragments.append(Fragment(project="beta/web", content="beta project-wide secret note"))
    with db.scoped(ResourceScope(project_names={"acme/api", "beta/web"})) as s:
        s.add_fragments(fragments)
    return tenants


@pytest.fixture
def one(tenants: Tenants) -> Iterator[Database]:
    """A Database over the tenants' database with a pool of exactly one application connection, so
    consecutive transactions share one server session (modules that need it warmed define their own)."""
    db = tenants.one_connection()
    try:
        yield db
    finally:
        db.close()


@pytest.fixture
def tenants(scopedb_db: Database) -> Tenants:
    return make_tenants(scopedb_db)


@pytest.fixture
def new_tenants(scopedb_db: Database) -> Callable[[], Tenants]:
    return lambda: make_tenants(scopedb_db)


# A service's own table under the scope (issue 20): what tests of protect_table, its audit and its attacks share.

TICKETS = "support.tickets"
TICKETS_DDL = (
    "CREATE SCHEMA IF NOT EXISTS support",
    "CREATE TABLE support.tickets ("
    " project_id bigint NOT NULL DEFAULT scopedb.scope_project_id() REFERENCES scopedb.projects (id) ON DELETE CASCADE,"
    " id uuid NOT NULL DEFAULT gen_random_uuid(),"
    " repository text, path text, title text NOT NULL, status text NOT NULL DEFAULT 'open',"
    " PRIMARY KEY (project_id, id))",
)


@dataclass
class ServiceTable:
    """``support.tickets`` protected by project, resource (``repository``) and path, with three tickets per tenant."""

    tenants: Tenants
    table: str = TICKETS

    def owner_rows(self, where: str = "true") -> list[tuple[Any, ...]]:
        """(project_id, title) as the superuser sees them: the ground truth."""
        with psycopg.connect(self.tenants.db.dsn) as conn:
            return conn.execute(f"SELECT project_id, title FROM {self.table} WHERE {where} ORDER BY 2").fetchall()


def make_service_table(tenants: Tenants, *, allow_delete: bool = False) -> ServiceTable:
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        for statement in TICKETS_DDL:
            conn.execute(statement.encode())
    tenants.db.admin().protect_table(
        TICKETS, resource_column="repository", path_column="path", allow_delete=allow_delete
    )
    for name, key in (("acme/api", "a1"), ("beta/web", "b1")):
        with tenants.db.scoped(tenants.scope(name)) as s:
            for n, (repository, path) in enumerate([(None, None), (tenants.resources[key].id, None),
                                                    (tenants.resources[key].id, f"src/{key}/x.py")]):  # fmt: skip
                s.execute(
                    "INSERT INTO support.tickets (repository, path, title) VALUES (%s, %s, %s)",
                    (repository, path, f"{name} ticket {n}"),
                )
    return ServiceTable(tenants)


@pytest.fixture
def service_table(tenants: Tenants) -> ServiceTable:
    return make_service_table(tenants)
