"""Aliases and child resources over the database: unique per project, a DAG inside one project."""

from __future__ import annotations

import psycopg
import pytest

from scopedb import ScopeViolationError
from scopedb.aliases import DatabaseResourceRegistry
from scopedb.errors import CheckViolationError, ForeignKeyViolationError, UniqueViolationError
from tests.conftest import Tenants


def test_aliases_are_unique_per_project_by_constraint(tenants: Tenants) -> None:
    admin = tenants.db.admin()
    with pytest.raises(UniqueViolationError):
        admin.create_resource("acme/api", alias="repo")
    # The same alias in another project is fine: uniqueness is per project.
    assert admin.create_resource("beta/web", alias="tools").alias == "tools"


def test_child_expansion_follows_links_recursively(tenants: Tenants) -> None:
    admin = tenants.db.admin()
    a1, a2 = tenants.resources["a1"], tenants.resources["a2"]
    grandchild = admin.create_resource("acme/api", alias="pkg")
    admin.link_resources("acme/api", a2.id, grandchild.id)
    scope = tenants.db.resolve_resource_scope({"acme/api"}, include={"repo"})
    assert scope.resource_ids == {a1.id, a2.id, grandchild.id}
    scope = tenants.db.resolve_resource_scope({"acme/api"}, include={"repo"}, exclude={"docs"})
    assert scope.resource_ids == {a1.id}
    assert scope.denied_resource_ids == {a2.id, grandchild.id}
    with tenants.db.scoped(scope) as s:
        assert {r[0] for r in s.execute("SELECT resource_id FROM scopedb.fragments")} == {a1.id}


def test_an_include_that_matches_nothing_sees_nothing(tenants: Tenants) -> None:
    scope = tenants.db.resolve_resource_scope({"acme/api"}, include={"nonexistent"})
    assert scope.resource_ids == frozenset()
    assert scope.narrows_resources
    with tenants.db.scoped(scope) as s:
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 0
        assert s.execute("SELECT count(*) FROM scopedb.resources").scalar() == 0


def test_cycles_are_refused(tenants: Tenants) -> None:
    a1, a2 = tenants.resources["a1"], tenants.resources["a2"]  # a1 -> a2 exists
    with pytest.raises(CheckViolationError):
        tenants.db.admin().link_resources("acme/api", a2.id, a1.id)
    # Also from the app, and also when the caller's scope hides part of the cycle.
    third = tenants.db.admin().create_resource("acme/api", alias="third")
    tenants.db.admin().link_resources("acme/api", a2.id, third.id)
    with (
        pytest.raises(CheckViolationError),
        tenants.db.scoped(tenants.scope("acme/api", resource_ids={a1.id, third.id})) as s,
    ):
        s.execute(
            "INSERT INTO scopedb.resource_links (project_id, parent_id, child_id) VALUES (%s, %s, %s)",
            (tenants.a.id, third.id, a1.id),
        )


def test_links_cannot_cross_projects(tenants: Tenants) -> None:
    a1, b1 = tenants.resources["a1"], tenants.resources["b1"]
    with pytest.raises(ForeignKeyViolationError):
        tenants.db.admin().link_resources("acme/api", a1.id, b1.id)
    with pytest.raises(ScopeViolationError), tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute(
            "INSERT INTO scopedb.resource_links (project_id, parent_id, child_id) VALUES (%s, %s, %s)",
            (tenants.b.id, b1.id, tenants.resources["b2"].id),
        )


def test_registry_reads_stay_inside_the_session_scope(tenants: Tenants) -> None:
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        registry = DatabaseResourceRegistry(s)
        projects = registry.projects({"acme/api", "beta/web"})
        by_name = {p.name: p for p in projects}
        assert {r.alias for r in by_name["acme/api"].resources} == {"repo", "docs"}
        assert by_name["beta/web"].resources == ()  # B exists but is outside the scope: no resource leaks
        assert registry.descendants({tenants.resources["b1"].id}) == frozenset()


def test_resource_ids_must_be_ulids(tenants: Tenants) -> None:
    with psycopg.connect(tenants.db.dsn) as conn, pytest.raises(psycopg.errors.CheckViolation):
        conn.execute("INSERT INTO scopedb.resources (project_id, id) VALUES (%s, 'RES01')", (tenants.a.id,))
