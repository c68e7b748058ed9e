"""A service's own table under the scope (issue 20): ``Admin.protect_table`` gives ``support.tickets`` the isolation
scopedb's fragments have, refuses tables it cannot protect soundly, and undoes itself.

Every test reads and writes as the application login (``db.scoped``: ``scopedb_app``), with ``SELECT`` statements
that carry no project filter; the control at the end removes the read policy and watches the same query leak.
"""

from __future__ import annotations

import psycopg
import pytest

from scopedb import ResourceScope
from scopedb.errors import (
    AmbiguousProjectError,
    PermissionDeniedError,
    UnprotectableTableError,
)
from scopedb.testing import app_connection
from tests.conftest import TICKETS, TICKETS_DDL, ServiceTable, Tenants, make_service_table

TITLES = "SELECT title FROM support.tickets ORDER BY title"


def _titles(tenants: Tenants, scope: ResourceScope) -> list[str]:
    with tenants.db.scoped(scope) as s:
        return [row[0] for row in s.execute(TITLES).rows]


def test_an_unfiltered_select_sees_only_the_scope_s_tickets(service_table: ServiceTable) -> None:
    tenants = service_table.tenants
    assert _titles(tenants, tenants.scope("acme/api")) == [f"acme/api ticket {n}" for n in range(3)]
    assert _titles(tenants, tenants.scope("beta/web")) == [f"beta/web ticket {n}" for n in range(3)]
    assert len(_titles(tenants, tenants.scope("acme/api", "beta/web"))) == 6
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        assert s.execute("SELECT count(*) FROM support.tickets WHERE project_id = %s", (tenants.b.id,)).scalar() == 0
    assert len(service_table.owner_rows()) == 6


def test_the_scope_s_resources_and_paths_narrow_the_table_as_they_narrow_fragments(service_table: ServiceTable) -> None:
    tenants = service_table.tenants
    a1 = tenants.resources["a1"].id
    # A scope narrowed to a resource sees that resource's tickets; a ticket with no resource is in no resource.
    assert _titles(tenants, tenants.scope("acme/api", resource_ids={a1})) == ["acme/api ticket 1", "acme/api ticket 2"]
    assert _titles(tenants, tenants.scope("acme/api", include_paths={"src/a1/**"})) == ["acme/api ticket 2"]
    assert _titles(tenants, tenants.scope("acme/api", exclude_paths={"src/**"})) == [
        "acme/api ticket 0",
        "acme/api ticket 1",
    ]


def test_updates_reach_only_the_scope_and_never_move_a_row_out_of_it(service_table: ServiceTable) -> None:
    tenants = service_table.tenants
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        assert s.execute("UPDATE support.tickets SET status = 'closed'").rowcount == 3
        assert s.execute("UPDATE support.tickets SET status = 'x' WHERE project_id = %s", (tenants.b.id,)).rowcount == 0
    assert service_table.owner_rows(f"project_id = {int(tenants.b.id)} AND status = 'open'") != []
    assert len(service_table.owner_rows("status = 'closed'")) == 3
    with pytest.raises(PermissionDeniedError), tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("UPDATE support.tickets SET project_id = %s", (tenants.b.id,))  # no privilege on the column
    a1, a2 = tenants.resources["a1"].id, tenants.resources["a2"].id
    with pytest.raises(PermissionDeniedError), tenants.db.scoped(tenants.scope("acme/api", resource_ids={a1})) as s:
        # Out of the resources the scope holds: the policy's WITH CHECK refuses the changed row.
        s.execute("UPDATE support.tickets SET repository = %s", (a2,))


def test_inserts_take_the_scope_s_project_and_cannot_name_another(service_table: ServiceTable) -> None:
    tenants = service_table.tenants
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        row = s.execute("INSERT INTO support.tickets (title) VALUES ('new') RETURNING project_id").scalar()
    assert row == tenants.a.id
    with pytest.raises(PermissionDeniedError), tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("INSERT INTO support.tickets (project_id, title) VALUES (%s, 'x')", (tenants.b.id,))
    with (
        pytest.raises(AmbiguousProjectError, match="2 projects"),
        tenants.db.scoped(tenants.scope("acme/api", "beta/web")) as s,
    ):
        s.execute("INSERT INTO support.tickets (title) VALUES ('whose?')")
    with tenants.db.scoped(tenants.scope("acme/api", "beta/web")) as s:  # naming one of the scope's is fine
        s.execute("INSERT INTO support.tickets (project_id, title) VALUES (%s, 'b''s')", (tenants.b.id,))
    assert service_table.owner_rows("title IN ('x', 'whose?')") == []


def test_without_a_scope_the_app_sees_nothing_and_writes_nothing(service_table: ServiceTable) -> None:
    with app_connection(service_table.tenants.db) as conn:
        conn.execute("SET ROLE scopedb_app")
        assert conn.execute("SELECT count(*) FROM support.tickets").fetchone() == (0,)
        with pytest.raises(psycopg.DatabaseError, match="no scope is entered") as refused:
            conn.execute("INSERT INTO support.tickets (title) VALUES ('x')")
        assert refused.value.sqlstate == "SD008"
        conn.rollback()
        conn.execute("SET ROLE scopedb_app")
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
            conn.execute(
                "INSERT INTO support.tickets (project_id, title) VALUES (%s, 'x')", (service_table.tenants.a.id,)
            )


def test_truncate_lock_and_delete_are_not_granted_and_delete_is_scoped_when_allowed(tenants: Tenants) -> None:
    make_service_table(tenants)
    for statement in (
        "TRUNCATE support.tickets",
        "LOCK TABLE support.tickets IN ACCESS EXCLUSIVE MODE",
        "DELETE FROM support.tickets",
    ):
        with pytest.raises(PermissionDeniedError), tenants.db.scoped(tenants.scope("acme/api")) as s:
            s.execute(statement)
    tenants.db.admin().protect_table(TICKETS, resource_column="repository", path_column="path", allow_delete=True)
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        assert s.execute("DELETE FROM support.tickets").rowcount == 3
    with psycopg.connect(tenants.db.dsn) as conn:
        assert conn.execute("SELECT count(*) FROM support.tickets").fetchone() == (3,)


def test_protecting_is_idempotent_reads_as_sentences_and_leaves_the_audit_clean(service_table: ServiceTable) -> None:
    admin = service_table.tenants.db.admin()
    admin.protect_table(TICKETS, resource_column="repository", path_column="path")
    with psycopg.connect(service_table.tenants.db.dsn) as conn:
        names = sorted(
            str(r[0])
            for r in conn.execute("SELECT polname FROM pg_policy WHERE polrelid = 'support.tickets'::regclass")
        )
        flags = conn.execute(
            "SELECT relrowsecurity, relforcerowsecurity FROM pg_class WHERE oid = 'support.tickets'::regclass"
        ).fetchone()
    assert names == [
        "app sees nothing until a scope is entered",
        "scope limits which tickets the app changes",
        "scope limits which tickets the app creates",
        "scope limits which tickets the app deletes",
        "scope limits which tickets the app reads",
    ]
    assert flags == (True, True)
    assert [t.relation for t in admin.protected_tables()] == [TICKETS]
    assert [f for f in admin.audit() if f.severity == "error"] == []


def test_unprotect_undoes_it_and_the_app_can_no_longer_reach_the_table(service_table: ServiceTable) -> None:
    tenants = service_table.tenants
    admin = tenants.db.admin()
    assert admin.unprotect_table(TICKETS) is True
    with pytest.raises(PermissionDeniedError), tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute(TITLES)
    with psycopg.connect(tenants.db.dsn) as conn:
        flags = conn.execute(
            "SELECT relrowsecurity, relforcerowsecurity, "
            "(SELECT count(*) FROM pg_policy WHERE polrelid = 'support.tickets'::regclass) "
            "FROM pg_class WHERE oid = 'support.tickets'::regclass"
        ).fetchone()
    assert flags == (False, False, 0)
    assert admin.protected_tables() == []
    assert admin.unprotect_table(TICKETS) is False
    assert [f for f in admin.audit() if f.severity == "error"] == []


REFUSALS = [
    ("no such table", (), "support.nothing", "project_id", "no such table"),
    ("a view", ("CREATE VIEW support.v AS SELECT 1 AS project_id",), "support.v", "project_id", "not a table"),
    ("scopedb's own", (), "scopedb.fragments", "project_id", "belongs to scopedb"),
    ("no project column", ("CREATE TABLE support.t (id int PRIMARY KEY)",), "support.t", "project_id", "ADD COLUMN"),
    (
        "a text project column",
        ("CREATE TABLE support.t (project_id text NOT NULL, id int, PRIMARY KEY (project_id, id))",),
        "support.t",
        "project_id",
        "TYPE bigint",
    ),
    (
        "a nullable project column",
        ("CREATE TABLE support.t (project_id bigint, id int UNIQUE NULLS NOT DISTINCT)",),
        "support.t",
        "project_id",
        "SET NOT NULL",
    ),
    (
        "a key unique across projects",
        ("CREATE TABLE support.t (project_id bigint NOT NULL, id int PRIMARY KEY)",),
        "support.t",
        "project_id",
        "does not compare project_id by equality",
    ),
    (
        "a unique index unique across projects",
        (
            "CREATE TABLE support.t (project_id bigint NOT NULL, id int, email text, PRIMARY KEY (project_id, id))",
            "CREATE UNIQUE INDEX t_email ON support.t (email)",
        ),
        "support.t",
        "project_id",
        "t_email",
    ),
    (
        "a foreign key across projects",
        (
            "CREATE TABLE support.t (project_id bigint NOT NULL, id int, other_project bigint, resource text,"
            " PRIMARY KEY (project_id, id),"
            " FOREIGN KEY (other_project, resource) REFERENCES scopedb.resources (project_id, id) ON DELETE CASCADE)",
        ),
        "support.t",
        "project_id",
        "joins rows of different projects",
    ),
    (
        "a partitioned table",
        (
            "CREATE TABLE support.p (project_id bigint NOT NULL, id int, PRIMARY KEY (project_id, id))"
            " PARTITION BY LIST (project_id)",
        ),
        "support.p",
        "project_id",
        "partitioned",
    ),
    (
        "an inheritance child",
        (
            "CREATE TABLE support.parent (project_id bigint NOT NULL, id int, PRIMARY KEY (project_id, id))",
            "CREATE TABLE support.t (PRIMARY KEY (project_id, id)) INHERITS (support.parent)",
        ),
        "support.t",
        "project_id",
        "inheritance",
    ),
    (
        "a rule (it runs with the owner's rights)",
        (
            "CREATE TABLE support.t (project_id bigint NOT NULL, id int, title text, PRIMARY KEY (project_id, id))",
            "CREATE RULE dedupe AS ON INSERT TO support.t WHERE EXISTS (SELECT FROM support.t AS o"
            " WHERE o.title = NEW.title) DO INSTEAD NOTHING",
        ),
        "support.t",
        "project_id",
        "DROP RULE dedupe",
    ),
    (
        "a policy of its own",
        (
            "CREATE TABLE support.t (project_id bigint NOT NULL, id int, PRIMARY KEY (project_id, id))",
            "ALTER TABLE support.t ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY",
            "CREATE POLICY reporting_reads_all ON support.t FOR SELECT TO PUBLIC USING (true)",
        ),
        "support.t",
        "project_id",
        "DROP POLICY reporting_reads_all",
    ),
    (
        "a grant to a role the app belongs to",
        (
            "CREATE TABLE support.t (project_id bigint NOT NULL, id int, PRIMARY KEY (project_id, id))",
            "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'support_readers') THEN"
            " CREATE ROLE support_readers NOLOGIN; END IF; END $$",
            "GRANT support_readers TO scopedb_app",
            "GRANT SELECT ON support.t TO support_readers",
        ),
        "support.t",
        "project_id",
        "REVOKE ALL ON support.t FROM support_readers",
    ),
    (
        "a privilege another role granted the app (the owner cannot revoke it)",
        (
            "CREATE TABLE support.t (project_id bigint NOT NULL, id int, PRIMARY KEY (project_id, id))",
            "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'support_grantor') THEN"
            " CREATE ROLE support_grantor NOLOGIN; END IF; END $$",
            "GRANT USAGE ON SCHEMA support TO support_grantor",
            "GRANT ALL ON support.t TO support_grantor WITH GRANT OPTION",
            "SET ROLE support_grantor",
            "GRANT DELETE, MAINTAIN ON support.t TO scopedb_app",
            "RESET ROLE",
        ),
        "support.t",
        "project_id",
        "REVOKE GRANT OPTION FOR ALL ON support.t FROM support_grantor CASCADE",
    ),
    (
        "a partition",
        (
            "CREATE TABLE support.p (project_id bigint NOT NULL, id int, PRIMARY KEY (project_id, id))"
            " PARTITION BY LIST (project_id)",
            "CREATE TABLE support.p1 PARTITION OF support.p FOR VALUES IN (1)",
        ),
        "support.p1",
        "project_id",
        "a partition",
    ),
]


@pytest.mark.parametrize(("case", "ddl", "table", "column", "says"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_a_table_that_cannot_be_protected_soundly_is_refused_with_the_fix(
    tenants: Tenants, case: str, ddl: tuple[str, ...], table: str, column: str, says: str
) -> None:
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA support")
        for statement in ddl:
            conn.execute(statement.encode())
    with pytest.raises(UnprotectableTableError, match="cannot protect") as refused:
        tenants.db.admin().protect_table(table, project_column=column)
    assert says in str(refused.value)
    assert "fix:" in str(refused.value) or case == "no such table"
    assert tenants.db.admin().protected_tables() == []
    for role in ("support_readers", "support_grantor"):  # roles are cluster-wide
        if role in " ".join(ddl):
            with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
                conn.execute(f"REVOKE {role} FROM scopedb_app".encode())
                conn.execute(f"DROP OWNED BY {role}".encode())
                conn.execute(f"DROP ROLE {role}".encode())


def test_a_resource_column_that_is_not_text_is_refused(tenants: Tenants) -> None:
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        for statement in TICKETS_WITH_INT_RESOURCE:
            conn.execute(statement.encode())
    with pytest.raises(UnprotectableTableError, match="no text column"):
        tenants.db.admin().protect_table("support.t", resource_column="repo")


TICKETS_WITH_INT_RESOURCE = (
    "CREATE SCHEMA support",
    "CREATE TABLE support.t (project_id bigint NOT NULL, id int, repo int, PRIMARY KEY (project_id, id))",
)


def test_protecting_needs_the_table_s_owner(service_table: ServiceTable) -> None:
    """The application login may not even call it, and owns no table whose policies it could change."""
    with app_connection(service_table.tenants.db) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT scopedb.protect_table('support.tickets', 'project_id')")


def test_control_without_the_read_policy_the_same_query_leaks(service_table: ServiceTable) -> None:
    tenants = service_table.tenants
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        conn.execute('DROP POLICY "scope limits which tickets the app reads" ON support.tickets')
    assert len(_titles(tenants, tenants.scope("acme/api"))) == 6  # B's three tickets too
    findings = tenants.db.admin().audit()
    assert any(f.code == "E029" and "the app reads" in f.object for f in findings)


def test_grants_to_public_are_revoked_and_the_login_reads_nothing_after_reset_role(tenants: Tenants) -> None:
    """PUBLIC includes the application login, whose own rows no restrictive policy TO scopedb_app filters."""
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        for statement in TICKETS_DDL:
            conn.execute(statement.encode())
        conn.execute("GRANT SELECT, UPDATE, DELETE ON support.tickets TO PUBLIC")
        conn.execute("GRANT USAGE ON SCHEMA support TO PUBLIC")
    tenants.db.admin().protect_table(TICKETS)
    with tenants.db.scoped(tenants.scope("beta/web")) as s:
        s.execute("INSERT INTO support.tickets (title) VALUES ('B confidential')")
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("SET ROLE NONE")
        with pytest.raises(PermissionDeniedError):
            s.execute("SELECT title FROM support.tickets")
    with app_connection(tenants.db) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("DELETE FROM support.tickets")
    with psycopg.connect(tenants.db.dsn) as conn:
        acl = conn.execute("SELECT relacl::text FROM pg_class WHERE oid = 'support.tickets'::regclass").fetchone()
    assert acl is not None
    assert "=r" not in str(acl[0])  # no privilege left for PUBLIC (an entry without a grantee name)
