"""A new scope over projects already seen is resolved where it is signed (``ScopeState.kept_or_signed``).

Entering a scope the database resolves (verify, look the names up, sign the result) costs about twice entering
a resolved token. Every entry's answer gives the ids of its projects' names, so a later scope over the same
projects (another actor, another narrowing) can carry its ids from the start. Such a token is held to two things:
its claims are exactly the ones the database would sign for the scope (the policies read them, so a difference
would be a different scope), and ``scopedb.reenter_scope`` admits its ids only if the database still gives them
those names (a rename or deletion since then makes the database resolve the scope again).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest

from bench.requests import counted_round_trips
from scopedb import Database, ResourceScope
from scopedb.errors import UnknownProjectError
from scopedb.testing import app_connection
from tests.conftest import Tenants


@pytest.fixture
def one(tenants: Tenants) -> Iterator[Database]:
    db = tenants.one_connection()
    try:
        db.run(tenants.scope("acme/api", "beta/web"), "SELECT 1")  # learns both projects' ids
        yield db
    finally:
        db.close()


def _claims(token: str) -> dict[str, Any]:
    claims: dict[str, Any] = json.loads(token.split(".", 3)[3])
    return claims


def _resolved_by_the_database(tenants: Tenants, token: str) -> dict[str, Any]:
    with app_connection(tenants.db) as conn:
        conn.execute("SET LOCAL ROLE scopedb_app")
        row = conn.execute("SELECT scopedb.resolve_scope(%s)", (token,)).fetchone()
        conn.rollback()
    assert row is not None
    return _claims(row[0])


SHAPES: dict[str, Callable[[Tenants], ResourceScope]] = {
    "one project": lambda t: t.scope("acme/api"),
    "two projects": lambda t: t.scope("acme/api", "beta/web"),
    "named resources": lambda t: t.scope("acme/api", resource_ids={t.resources["a1"].id}),
    "named and denied": lambda t: t.scope(
        "acme/api",
        resource_ids={t.resources["a1"].id, t.resources["a2"].id},
        denied_resource_ids={t.resources["a2"].id},
    ),
    "narrowed to none": lambda t: t.scope("acme/api", resources_narrowed=True),
    "patterns": lambda t: t.scope(
        "acme/api", "beta/web", include_paths={"src/**"}, exclude_paths={"**/file1.py"}, include_names={"acme::**"}
    ),
    "every version": lambda t: t.scope("beta/web", temporal_scope="all"),
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_the_claims_signed_here_are_the_ones_the_database_signs(one: Database, tenants: Tenants, shape: str) -> None:
    scope = SHAPES[shape](tenants)
    for actor in (None, "agent-7"):
        key = one.state.resolved.key(scope, actor)
        assert key is not None
        local = one.state.kept_or_signed(key, scope, actor)
        assert local is not None
        here = _claims(local.token)
        there = _resolved_by_the_database(tenants, one.sign(scope, actor=actor))
        for claims in (here, there):  # the token's own lifetime: signed a moment apart
            del claims["iat"], claims["exp"]
        assert here == there
        # And what the scope reads through it is what the database-resolved scope reads.
        statement = "SELECT id FROM scopedb.fragments ORDER BY id"
        assert one.run(scope, statement, actor=actor).rows == _fresh_rows(tenants, scope, statement, actor)


def _fresh_rows(tenants: Tenants, scope: ResourceScope, statement: str, actor: str | None) -> list[Any]:
    """The rows a process that has seen no project reads (the database resolves the scope)."""
    fresh = tenants.one_connection()
    try:
        assert fresh.state.resolved.ids_of(scope.project_names) is None
        return fresh.run(scope, statement, actor=actor).rows
    finally:
        fresh.close()


def test_a_scope_that_denies_without_naming_is_left_to_the_database(one: Database, tenants: Tenants) -> None:
    """Its resource filter lists the projects' other resources, which only the database knows."""
    scope = tenants.scope("acme/api", denied_resource_ids={tenants.resources["a2"].id})
    assert one.state.resolved.key(scope, None) is None
    assert one.state.kept_or_signed("any", scope, None) is None
    rows = one.run(scope, "SELECT DISTINCT resource_id FROM scopedb.fragments WHERE resource_id IS NOT NULL").rows
    assert rows == [(tenants.resources["a1"].id,)]


def test_a_new_scope_over_known_projects_is_one_round_trip_without_resolution(one: Database, tenants: Tenants) -> None:
    scope = tenants.scope("acme/api", include_paths={"src/a1/**"})  # never entered
    assert one.state.resolved.key(scope, None) not in (None, *one.state.resolved._entries)
    with counted_round_trips(one) as trips:
        rows = one.run(scope, "SELECT path FROM scopedb.fragments ORDER BY path").rows
    assert trips == [1]
    assert rows == [(f"src/a1/file{n}.py",) for n in range(3)]


def test_62_a_new_scope_does_not_reach_a_renamed_project_by_its_old_name(one: Database, tenants: Tenants) -> None:
    """The sibling of test_62 in tests/adversarial/test_lifecycle.py for a scope never entered before: its ids
    come from what an entry before the rename answered. "beta/web" renamed and its name given to a new project:
    a new scope over "beta/web" reaches the new project, not the old one's rows."""
    with psycopg.connect(tenants.db.dsn) as admin:
        admin.execute("UPDATE scopedb.projects SET name = 'beta/web-archived' WHERE id = %s", (tenants.b.id,))
    new = tenants.db.admin().create_project("beta/web")
    assert one.state.resolved.ids_of({"beta/web"}) == {"beta/web": tenants.b.id}  # what the process learned
    with one.scoped(tenants.scope("beta/web"), actor="someone-new") as s:
        assert s.project_ids == (new.id,)
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 0
    count = one.run(tenants.scope("beta/web", include_paths={"**"}), "SELECT count(*) FROM scopedb.fragments")
    assert count.rows == [(0,)]
    assert one.state.resolved.ids_of({"beta/web"}) == {"beta/web": new.id}


def test_62_a_new_scope_over_a_deleted_project_is_refused(one: Database, tenants: Tenants) -> None:
    assert tenants.db.admin().delete_project("beta/web")
    with pytest.raises(UnknownProjectError):
        one.run(tenants.scope("beta/web"), "SELECT 1", actor="someone-new")
    assert one.state.resolved.ids_of({"beta/web"}) is None
