"""The attack catalogue against a service's own protected table as well as scopedb's own (issue 20).

Each attack runs as ``scopedb_app`` inside a transaction legitimately scoped to project A ("acme/api"), against
``scopedb.fragments`` and against ``support.tickets`` (protected with ``Admin.protect_table``), and tries to read or
change project B's rows: reads with no filter and with B's id, writes into B, role changes, forged and unsigned
tokens, a non-leakproof expression that would fail on B's rows, copies, upserts on B's keys, and cascades. Each
checks a control on A's own rows, so it fails if the defence goes; ``test_protected_tables.py`` removes the read
policy and watches the same query leak.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import LiteralString

import psycopg
import pytest

from scopedb import ScopedbError
from scopedb.errors import PermissionDeniedError
from scopedb.session import ScopedSession
from tests.conftest import ServiceTable, Tenants, make_service_table


@dataclass(frozen=True)
class Target:
    """A protected table, how the app writes a row of a given project into it, and a text column to probe."""

    table: LiteralString
    text: LiteralString
    insert: LiteralString  # one %s: the project id
    per_tenant: int  # rows each tenant holds


TARGETS = [
    Target(
        "scopedb.fragments",
        "content",
        "INSERT INTO scopedb.fragments (project_id, content) VALUES (%s, 'planted')",
        7,
    ),
    Target(
        "support.tickets",
        "title",
        "INSERT INTO support.tickets (project_id, title) VALUES (%s, 'planted')",
        3,
    ),
]


@pytest.fixture(params=TARGETS, ids=[t.table for t in TARGETS])
def target(request: pytest.FixtureRequest, tenants: Tenants) -> Target:
    make_service_table(tenants)  # both targets live in the same database
    return request.param  # type: ignore[no-any-return]


def _count(s: ScopedSession, target: Target, where: LiteralString = "true", params: tuple[object, ...] = ()) -> int:
    return int(s.execute(f"SELECT count(*) FROM {target.table} WHERE {where}", params).scalar())


def _owner_count(tenants: Tenants, target: Target, project_id: int) -> int:
    with psycopg.connect(tenants.db.dsn) as conn:
        row = conn.execute(f"SELECT count(*) FROM {target.table} WHERE project_id = %s", (project_id,)).fetchone()
    assert row is not None
    return int(row[0])


def test_reads_see_only_a_whatever_they_ask_for(tenants: Tenants, target: Target) -> None:
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        assert _count(s, target) == target.per_tenant
        assert _count(s, target, "project_id = %s", (tenants.b.id,)) == 0
        assert _count(s, target, "project_id <> %s", (tenants.a.id,)) == 0
        conn = s._conn
        with conn.cursor() as cur, cur.copy(f"COPY (SELECT project_id FROM {target.table}) TO STDOUT") as copy:
            assert {int(row[0]) for row in copy.rows()} == {tenants.a.id}
    assert _owner_count(tenants, target, tenants.b.id) == target.per_tenant  # B's rows exist, and were hidden


def test_writes_into_b_are_refused_and_changes_reach_only_a(tenants: Tenants, target: Target) -> None:
    with pytest.raises(PermissionDeniedError), tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute(target.insert, (tenants.b.id,))
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute(target.insert, (tenants.a.id,))  # the control: A's own project
        changed = s.execute(
            f"UPDATE {target.table} SET {target.text} = {target.text} WHERE project_id = %s",
            (tenants.b.id,),
        ).rowcount
    assert changed == 0
    assert _owner_count(tenants, target, tenants.b.id) == target.per_tenant
    assert _owner_count(tenants, target, tenants.a.id) == target.per_tenant + 1


def test_data_modifying_ctes_and_returning_reach_nothing_of_b(tenants: Tenants, target: Target) -> None:
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        returned = s.execute(
            f"WITH u AS (UPDATE {target.table} SET {target.text} = {target.text} RETURNING project_id) "
            "SELECT DISTINCT project_id FROM u"
        ).rows
    assert returned == [(tenants.a.id,)]


@pytest.mark.parametrize(
    "attempt",
    [
        "SET ROLE scopedb_owner",
        "SET ROLE postgres",
        "SET SESSION AUTHORIZATION postgres",
        "SET LOCAL ROLE scopedb_auditor",
    ],
)
def test_role_changes_do_not_escape(tenants: Tenants, target: Target, attempt: LiteralString) -> None:
    with pytest.raises(ScopedbError), tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute(attempt)
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("SET ROLE NONE")  # the login itself holds no privilege on either table
        with pytest.raises(PermissionDeniedError):
            _count(s, target)


def _resolved_token(tenants: Tenants) -> str:
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        return str(s.execute("SELECT current_setting('scopedb.scope_token')").scalar())


def test_forged_and_unsigned_tokens_see_nothing(tenants: Tenants, target: Target) -> None:
    version, key_id, signature, body = _resolved_token(tenants).split(".", 3)
    claims = json.loads(body)
    claims.update(project_ids=[tenants.a.id, tenants.b.id], projects=["acme/api", "beta/web"])
    forged = ".".join([version, key_id, signature, json.dumps(claims)])
    unsigned = "v1.nokey." + "0" * 64 + "." + json.dumps({"project_ids": [tenants.b.id], "projects": ["beta/web"]})
    for token in (forged, unsigned):
        with tenants.db.scoped(tenants.scope("acme/api")) as s:
            assert _count(s, target) == target.per_tenant  # the control: the genuine scope
            s.execute("SELECT set_config('scopedb.scope_token', %s, true)", (token,))
            assert _count(s, target) == 0
            assert _count(s, target, "project_id = %s", (tenants.b.id,)) == 0


def test_a_non_leakproof_qual_never_sees_b_s_rows(tenants: Tenants, target: Target) -> None:
    """An expression that divides by zero on any row of B: it runs only on rows the policies admitted."""
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        rows = _count(
            s,
            target,
            f"(CASE WHEN project_id = %s THEN 1 / (length({target.text}) - length({target.text})) ELSE 1 END) = 1",
            (tenants.b.id,),
        )
    assert rows == target.per_tenant
    with pytest.raises(ScopedbError), tenants.db.scoped(tenants.scope("acme/api")) as s:  # the control: A's rows
        _count(
            s,
            target,
            f"(CASE WHEN project_id = %s THEN 1 / (length({target.text}) - length({target.text})) ELSE 1 END) = 1",
            (tenants.a.id,),
        )


def test_an_upsert_on_b_s_key_cannot_touch_b(service_table: ServiceTable) -> None:
    tenants = service_table.tenants
    with psycopg.connect(tenants.db.dsn) as conn:
        b_key = conn.execute("SELECT id FROM support.tickets WHERE project_id = %s LIMIT 1", (tenants.b.id,)).fetchone()
    assert b_key is not None
    with pytest.raises(PermissionDeniedError), tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute(
            "INSERT INTO support.tickets (project_id, id, title) VALUES (%s, %s, 'mine') "
            "ON CONFLICT (project_id, id) DO UPDATE SET title = 'mine'",
            (tenants.b.id, b_key[0]),
        )
    with tenants.db.scoped(tenants.scope("acme/api")) as s:  # B's key in A's project is simply a new row of A
        s.execute("INSERT INTO support.tickets (id, title) VALUES (%s, 'mine')", (b_key[0],))
    assert service_table.owner_rows(f"project_id = {int(tenants.b.id)} AND title = 'mine'") == []


def test_cascades_stay_inside_a_project(tenants: Tenants) -> None:
    """A child table keyed by project cascades only within it, and deleting project B removes only B's rows."""
    make_service_table(tenants, allow_delete=True)
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE support.comments (project_id bigint NOT NULL DEFAULT scopedb.scope_project_id(),"
            " ticket uuid NOT NULL, body text, PRIMARY KEY (project_id, ticket, body),"
            " FOREIGN KEY (project_id, ticket) REFERENCES support.tickets (project_id, id) ON DELETE CASCADE)"
        )
    tenants.db.admin().protect_table("support.comments")
    for name in ("acme/api", "beta/web"):
        with tenants.db.scoped(tenants.scope(name)) as s:
            s.execute("INSERT INTO support.comments (ticket, body) SELECT id, 'c' FROM support.tickets")
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        assert s.execute("DELETE FROM support.tickets").rowcount == 3
    with psycopg.connect(tenants.db.dsn) as conn:
        left = conn.execute("SELECT project_id, count(*) FROM support.comments GROUP BY 1").fetchall()
    assert left == [(tenants.b.id, 3)]
    assert tenants.db.admin().delete_project("beta/web")
    with psycopg.connect(tenants.db.dsn) as conn:
        assert conn.execute("SELECT count(*) FROM support.tickets").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM support.comments").fetchone() == (0,)
    assert [f for f in tenants.db.admin().audit() if f.severity == "error"] == []
