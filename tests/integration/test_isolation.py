"""Project isolation, enforced by Postgres, checked as the application role on every table.

Each test compares what scopedb_app sees or changes with the ground truth read by the superuser, and the control
test at the bottom shows the same checks fail once the policies are gone: the isolation comes from RLS, not from
the shape of the queries. Every test runs twice: through ``Database.scoped`` and through ``AsyncDatabase.scoped``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, LiteralString

import psycopg
import pytest

from scopedb import Database, ScopeViolationError
from scopedb.errors import PermissionDeniedError
from scopedb.testing import app_connection
from tests.async_bridge import AsyncBridge
from tests.conftest import DATA_TABLES, Tenants, make_tenants


@pytest.fixture(params=["sync", "async"])
def tenants(request: pytest.FixtureRequest, scopedb_db: Database) -> Iterator[Tenants]:
    """The two tenants, with scoped transactions opened through the sync or the async API."""
    tenants = make_tenants(scopedb_db)
    if request.param == "sync":
        yield tenants
        return
    bridge = AsyncBridge(scopedb_db)
    tenants.scoped_with = bridge.scoped
    try:
        yield tenants
    finally:
        bridge.close()


PROJECT_COLUMN = {
    "projects": "id",
    "resources": "project_id",
    "resource_links": "project_id",
    "fragments": "project_id",
}


def _select_projects(table: str) -> LiteralString:
    return {
        "projects": "SELECT id FROM scopedb.projects",
        "resources": "SELECT project_id FROM scopedb.resources",
        "resource_links": "SELECT project_id FROM scopedb.resource_links",
        "fragments": "SELECT project_id FROM scopedb.fragments",
    }[table]


@pytest.mark.parametrize("table", DATA_TABLES)
def test_select_sees_only_the_scoped_project(tenants: Tenants, table: str) -> None:
    with tenants.scoped(tenants.scope("acme/api")) as s:
        seen = [row[0] for row in s.execute(_select_projects(table))]
    assert seen, "project A must have rows in every table"
    assert set(seen) == {tenants.a.id}
    assert len(seen) == tenants.count(table, tenants.a)
    assert tenants.count(table, tenants.b) > 0


# A column each table lets the app update (column privileges: no table-level UPDATE, see sql/05_grants.sql).
UPDATABLE = {"resources": "alias", "fragments": "tier"}


@pytest.mark.parametrize("table", ["resources", "resource_links", "fragments"])
def test_update_and_delete_leave_other_projects_untouched(tenants: Tenants, table: str) -> None:
    before_b = tenants.admin_rows(table, f"project_id = {tenants.b.id}")
    with tenants.scoped(tenants.scope("acme/api")) as s:
        if table in UPDATABLE:
            column = UPDATABLE[table]
            updated = s.execute(f"UPDATE scopedb.{table} SET {column} = {column}")
            assert updated.rowcount == tenants.count(table, tenants.a)
        if table == "fragments":
            ids = [r[0] for r in s.execute("SELECT id FROM scopedb.fragments")]
            deleted = s.delete_fragments("acme/api", ids + [r[0] for r in _b_keys(tenants, "id", table)])
        elif table == "resources":
            ids = [r[0] for r in s.execute("SELECT id FROM scopedb.resources")]
            deleted = s.delete_resources("acme/api", ids + [r[0] for r in _b_keys(tenants, "id", table)])
        else:
            links = [(r[0], r[1]) for r in s.execute("SELECT parent_id, child_id FROM scopedb.resource_links")]
            b_links = [(r[0], r[1]) for r in _b_keys(tenants, "parent_id, child_id", table)]
            deleted = s.delete_resource_links("acme/api", links + b_links)
        assert deleted > 0
    assert tenants.admin_rows(table, f"project_id = {tenants.b.id}") == before_b
    assert tenants.count(table, tenants.a) == 0


def _b_keys(tenants: Tenants, columns: str, table: str) -> list[tuple[Any, ...]]:
    """B's keys, as the admin sees them: what an attacker would pass to a delete hoping to reach B."""
    with psycopg.connect(tenants.db.dsn) as conn:
        return conn.execute(f"SELECT {columns} FROM scopedb.{table} WHERE project_id = %s",
                            (tenants.b.id,)).fetchall()  # fmt: skip


def test_insert_into_another_project_is_refused(tenants: Tenants) -> None:
    b1, b2 = tenants.resources["b1"], tenants.resources["b2"]
    attempts: list[tuple[LiteralString, tuple[Any, ...]]] = [
        ("INSERT INTO scopedb.fragments (project_id, content) VALUES (%s, 'planted')", (tenants.b.id,)),
        (
            "INSERT INTO scopedb.resources (project_id, id) VALUES (%s, '01HQ8ZDRX50000000000000077')",
            (tenants.b.id,),
        ),
        (
            "INSERT INTO scopedb.resource_links (project_id, parent_id, child_id) VALUES (%s, %s, %s)",
            (tenants.b.id, b2.id, b1.id),
        ),
        ("INSERT INTO scopedb.projects (name) VALUES ('evil/new')", ()),
    ]
    for statement, params in attempts:
        with pytest.raises(ScopeViolationError), tenants.scoped(tenants.scope("acme/api")) as s:
            s.execute(statement, params)
    assert tenants.count("fragments", tenants.b) == 7
    assert len(tenants.admin_rows("projects")) == 2


@pytest.mark.parametrize("table", ["resources", "resource_links", "fragments"])
def test_update_cannot_move_a_row_into_another_project(tenants: Tenants, table: str) -> None:
    with pytest.raises(ScopeViolationError), tenants.scoped(tenants.scope("acme/api")) as s:
        s.execute(f"UPDATE scopedb.{table} SET project_id = %s", (tenants.b.id,))
    assert tenants.count(table, tenants.a) > 0


def test_resource_narrowing_and_denial(tenants: Tenants) -> None:
    a1, a2 = tenants.resources["a1"], tenants.resources["a2"]
    with tenants.scoped(tenants.scope("acme/api", resource_ids={a1.id})) as s:
        rows = s.execute("SELECT resource_id FROM scopedb.fragments").rows
        assert {r[0] for r in rows} == {a1.id}  # the project-wide fragment is hidden when narrowing
        assert s.execute("SELECT id FROM scopedb.resources").rows == [(a1.id,)]
        assert s.execute("SELECT count(*) FROM scopedb.resource_links").scalar() == 0  # a2 end is hidden
    with tenants.scoped(tenants.scope("acme/api", denied_resource_ids={a1.id})) as s:
        rows = s.execute("SELECT resource_id FROM scopedb.fragments").rows
        assert {r[0] for r in rows} == {a2.id, None}  # denial keeps project-wide fragments
    with tenants.scoped(tenants.scope("acme/api", resource_ids={a1.id}, denied_resource_ids={a1.id})) as s:
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 0


def test_write_into_an_out_of_scope_resource_is_refused(tenants: Tenants) -> None:
    a1, a2 = tenants.resources["a1"], tenants.resources["a2"]
    with (
        pytest.raises(ScopeViolationError),
        tenants.scoped(tenants.scope("acme/api", resource_ids={a1.id})) as s,
    ):
        s.execute(
            "INSERT INTO scopedb.fragments (project_id, resource_id, content) VALUES (%s, %s, 'x')",
            (tenants.a.id, a2.id),
        )
    with (
        pytest.raises(ScopeViolationError),
        tenants.scoped(tenants.scope("acme/api", denied_resource_ids={a2.id})) as s,
    ):
        s.execute("UPDATE scopedb.fragments SET resource_id = %s", (a2.id,))


def test_two_project_scope_sees_both(tenants: Tenants) -> None:
    with tenants.scoped(tenants.scope("acme/api", "beta/web")) as s:
        seen = {row[0] for row in s.execute("SELECT project_id FROM scopedb.fragments")}
    assert seen == {tenants.a.id, tenants.b.id}


# No scope ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("table", DATA_TABLES)
def test_no_scope_means_zero_rows(tenants: Tenants, table: str) -> None:
    with app_connection(tenants.db) as conn:
        conn.execute("SET ROLE scopedb_app")
        assert conn.execute(_select_projects(table)).fetchall() == []


def test_no_scope_means_refused_writes(tenants: Tenants) -> None:
    with app_connection(tenants.db) as conn:
        conn.execute("SET ROLE scopedb_app")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("INSERT INTO scopedb.fragments (project_id, content) VALUES (%s, 'x')", (tenants.a.id,))
        conn.rollback()
        conn.execute("SET ROLE scopedb_app")
        assert conn.execute("UPDATE scopedb.fragments SET content = 'x'").rowcount == 0
        ids = [tenants.resources["a1"].id, tenants.resources["a2"].id]
        assert conn.execute("SELECT scopedb.delete_resources(%s, %s::text[])", (tenants.a.id, ids)).fetchone() == (0,)
    assert tenants.count("resources", tenants.a) == 2


def test_after_commit_the_scope_is_gone(tenants: Tenants) -> None:
    with tenants.scoped(tenants.scope("acme/api")) as s:
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 7
        s.execute("COMMIT")
        # The session's own role is scopedb_app (the pool's startup packet), and the transaction-local scope has
        # read back as '': zero rows, refused writes...
        assert s.execute("SELECT current_user::text").scalar() == "scopedb_app"
        assert s.execute("SELECT current_setting('scopedb.scope_token', true)").scalar() == ""
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 0
        with pytest.raises(PermissionDeniedError):
            s.execute("INSERT INTO scopedb.fragments (project_id, content) VALUES (%s, 'x')", (tenants.a.id,))
        # ...and the login itself has no privileges at all.
        s.execute("SET ROLE NONE")
        with pytest.raises(PermissionDeniedError):
            s.execute("SELECT count(*) FROM scopedb.fragments")


def test_the_app_login_alone_has_no_privileges(tenants: Tenants) -> None:
    with app_connection(tenants.db) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT count(*) FROM scopedb.fragments")


# Control: without the policies the same checks leak ---------------------------------------------------------------


def test_control_without_policies_the_app_would_see_other_projects(tenants: Tenants) -> None:
    """Proof that the isolation tests above can fail: drop RLS on fragments and project B leaks."""
    with psycopg.connect(tenants.db.dsn, autocommit=True) as admin:
        admin.execute("ALTER TABLE scopedb.fragments DISABLE ROW LEVEL SECURITY")
    with tenants.scoped(tenants.scope("acme/api")) as s:
        seen = {row[0] for row in s.execute(_select_projects("fragments"))}
    assert tenants.b.id in seen
