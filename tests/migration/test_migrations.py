"""Migrations produce exactly the canonical schema, round-trip, and run without superuser rights."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from psycopg import sql

from scopedb import Database, ResourceScope, migrations
from scopedb.server import Server, start_embedded
from scopedb.testing import ScopedbTestServer, embedded_home

SCHEMAS = ("scopedb", "scopedb_private", "scopedb_audit", "scopedb_parts")

# Each entry: a name and a query returning a sorted, comparable description of one part of the catalog.
CATALOG_QUERIES: dict[str, str] = {
    "tables": """
        SELECT n.nspname, c.relname, c.relkind, c.relrowsecurity, c.relforcerowsecurity,
               pg_get_userbyid(c.relowner), obj_description(c.oid, 'pg_class')
          FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = ANY (%(schemas)s) ORDER BY 1, 2""",
    "columns": """
        SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
               pg_get_expr(d.adbin, d.adrelid), a.attgenerated, a.attidentity, a.attstattarget
          FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
          LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
         WHERE n.nspname = ANY (%(schemas)s) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY 1, 2""",
    "indexes": """
        SELECT schemaname, tablename, indexname, indexdef FROM pg_indexes
         WHERE schemaname = ANY (%(schemas)s) ORDER BY 1, 2, 3""",
    "constraints": """
        SELECT c.relname, k.conname, k.contype, pg_get_constraintdef(k.oid)
          FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = ANY (%(schemas)s) ORDER BY 1, 2""",
    "policies": """
        SELECT schemaname, tablename, policyname, permissive, roles::text, cmd, qual, with_check
          FROM pg_policies WHERE schemaname = ANY (%(schemas)s) ORDER BY 1, 2, 3""",
    "functions": """
        SELECT p.oid::regprocedure::text, pg_get_functiondef(p.oid), p.prosecdef, p.provolatile,
               pg_get_userbyid(p.proowner), p.proacl::text, obj_description(p.oid, 'pg_proc')
          FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
         WHERE n.nspname = ANY (%(schemas)s) ORDER BY 1""",
    "triggers": """
        SELECT c.relname, t.tgname, pg_get_triggerdef(t.oid)
          FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = ANY (%(schemas)s) AND NOT t.tgisinternal ORDER BY 1, 2""",
    "types": """
        SELECT n.nspname, t.typname, t.typtype, pg_get_userbyid(t.typowner)
          FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
         WHERE n.nspname = ANY (%(schemas)s) AND t.typtype IN ('c', 'e', 'd')
           AND NOT EXISTS (SELECT FROM pg_class c WHERE c.reltype = t.oid AND c.relkind <> 'c')
         ORDER BY 1, 2""",
    "table_grants": """
        SELECT table_schema, table_name, grantee, privilege_type FROM information_schema.role_table_grants
         WHERE table_schema = ANY (%(schemas)s) ORDER BY 1, 2, 3, 4""",
    "column_grants": """
        SELECT table_schema, table_name, column_name, grantee, privilege_type
          FROM information_schema.column_privileges
         WHERE table_schema = ANY (%(schemas)s) AND grantee <> grantor ORDER BY 1, 2, 3, 4, 5""",
    "schema_acl": """
        SELECT nspname, pg_get_userbyid(nspowner), nspacl::text, obj_description(oid, 'pg_namespace')
          FROM pg_namespace WHERE nspname = ANY (%(schemas)s) ORDER BY 1""",
    "default_acl": """
        SELECT pg_get_userbyid(defaclrole), defaclobjtype, defaclacl::text FROM pg_default_acl ORDER BY 1, 2""",
    "database_acl": "SELECT datacl::text FROM pg_database WHERE datname = current_database()",
}


def catalog(dsn: str) -> dict[str, list[tuple[Any, ...]]]:
    """Everything the issue names (tables, columns, indexes, constraints, policies, functions, grants)."""
    with psycopg.connect(dsn) as conn:
        return {
            name: conn.execute(query, {"schemas": list(SCHEMAS)}).fetchall() for name, query in CATALOG_QUERIES.items()
        }


def _create(server: ScopedbTestServer, name: str) -> str:
    with psycopg.connect(server.admin_dsn("postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return server.admin_dsn(name)


def test_upgrade_head_equals_a_fresh_load_of_sql(scopedb_server: ScopedbTestServer) -> None:
    fresh = _create(scopedb_server, f"mig_fresh_{os.getpid()}")
    migrated = _create(scopedb_server, f"mig_alembic_{os.getpid()}")
    migrations.load_schema(fresh)
    migrations.upgrade(migrated)
    expected, actual = catalog(fresh), catalog(migrated)
    assert expected["tables"], "the catalog query found nothing: the comparison would be vacuous"
    for part in CATALOG_QUERIES:
        assert actual[part] == expected[part], f"{part} differ between upgrade head and sql/"


def test_catalog_comparison_notices_a_difference(scopedb_server: ScopedbTestServer) -> None:
    """The equivalence check can fail: one changed policy is visible in the snapshot."""
    dsn = _create(scopedb_server, f"mig_diff_{os.getpid()}")
    migrations.load_schema(dsn)
    before = catalog(dsn)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute('ALTER POLICY "scope limits which fragments the app reads" ON scopedb.fragments USING (true)')
    assert catalog(dsn)["policies"] != before["policies"]


def test_downgrade_base_then_upgrade_head_round_trips(scopedb_server: ScopedbTestServer) -> None:
    dsn = _create(scopedb_server, f"mig_trip_{os.getpid()}")
    migrations.upgrade(dsn)
    first = catalog(dsn)
    migrations.downgrade(dsn, "base")
    gone = catalog(dsn)
    assert gone["tables"] == []
    assert gone["functions"] == []
    assert gone["schema_acl"] == []
    assert migrations.current_revision(dsn) is None
    migrations.upgrade(dsn)
    assert catalog(dsn) == first
    assert migrations.current_revision(dsn) == migrations.head_revision()
    migrations.upgrade(dsn)  # idempotent at head
    assert catalog(dsn) == first


def test_every_revision_steps_down_and_up_again(scopedb_server: ScopedbTestServer) -> None:
    """Each revision's downgrade restores exactly the catalog of the revision before it."""
    dsn = _create(scopedb_server, f"mig_steps_{os.getpid()}")
    history = migrations.revisions()
    assert len(history) >= 2
    snapshots = {}
    for revision in history:
        migrations.upgrade(dsn, revision)
        snapshots[revision] = catalog(dsn)
    for previous, revision in reversed(list(itertools.pairwise(history))):
        migrations.downgrade(dsn, previous)
        assert catalog(dsn) == snapshots[previous], f"downgrade of {revision} did not restore {previous}"
    for revision in history[1:]:
        migrations.upgrade(dsn, revision)
        assert catalog(dsn) == snapshots[revision]


def test_embedding_dimension_is_chosen_at_migration_time(scopedb_server: ScopedbTestServer) -> None:
    dsn = _create(scopedb_server, f"mig_dim_{os.getpid()}")
    migrations.upgrade(dsn, embedding_dim=768)
    with psycopg.connect(dsn) as conn:
        column = conn.execute(
            "SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
            "WHERE attrelid = 'scopedb.fragments'::regclass AND attname = 'embedding'"
        ).fetchone()
    assert column == ("vector(768)",)


@pytest.fixture(scope="module")
def managed_server() -> Iterator[Server]:
    """A second, empty cluster: no scopedb roles exist yet, as on a new managed server."""
    if os.environ.get("SCOPEDB_DATABASE_URL") or os.environ.get("SCOPEDB_BACKEND") == "docker":
        pytest.skip("needs its own embedded cluster to create roles from scratch")
    with embedded_home("scopedb-managed-") as home:
        server = start_embedded(home, database="postgres")
        yield server
        server.stop()


def test_migrating_as_a_non_superuser(managed_server: Server) -> None:
    """A managed server: the migrating login has CREATEROLE and CREATE on the database, pgvector is installed."""
    with psycopg.connect(managed_server.dsn, autocommit=True) as su:
        su.execute("CREATE ROLE migrator LOGIN CREATEROLE NOSUPERUSER NOBYPASSRLS")
        su.execute("CREATE DATABASE app")
    with psycopg.connect(managed_server.dsn_for("app"), autocommit=True) as su:
        su.execute("CREATE EXTENSION vector")
        su.execute("GRANT CREATE ON DATABASE app TO migrator")
    migrator_dsn = managed_server.dsn_for("app", user="migrator")
    migrations.upgrade(migrator_dsn)
    with psycopg.connect(migrator_dsn, autocommit=True) as conn:
        conn.execute("CREATE ROLE service LOGIN NOINHERIT")
        conn.execute("GRANT scopedb_app TO service")
        owner = conn.execute("SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = 'scopedb.fragments'::regclass")
        assert owner.fetchone() == ("scopedb_owner",)
    db = Database(Server(dsn=migrator_dsn, backend="dsn"), app_dsn=managed_server.dsn_for("app", user="service"))
    try:
        db.migrate()  # idempotent; creates the first signing key as the non-superuser
        db.admin().create_project("acme/api")
        db.admin().create_project("beta/web")
        with db.scoped(ResourceScope(project_names={"acme/api"})) as s:
            assert s.execute("SELECT name FROM scopedb.projects").rows == [("acme/api",)]
    finally:
        db.close()
    # CREATEROLE leaves the migrator ADMIN on the roles it made: not a way to act as scopedb_app, so no finding.
    with psycopg.connect(migrator_dsn) as conn:
        errors = conn.execute("SELECT code, object FROM scopedb_audit.findings WHERE severity = 'error'").fetchall()
    assert errors == [], errors
