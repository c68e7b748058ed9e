"""The catalog keeps the security model's promises (what an auditor checks from psql)."""

from __future__ import annotations

import psycopg
import pytest

from scopedb import Database

COMMANDS = {"r": "SELECT", "a": "INSERT", "w": "UPDATE", "d": "DELETE"}


def _admin(db: Database) -> psycopg.Connection[tuple[object, ...]]:
    return psycopg.connect(db.dsn, autocommit=True)


def test_every_data_table_has_forced_rls_and_a_restrictive_policy_per_command(scopedb_db: Database) -> None:
    with _admin(scopedb_db) as conn:
        tables = conn.execute(
            "SELECT c.oid, c.relname, c.relrowsecurity, c.relforcerowsecurity FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'scopedb' AND c.relkind IN ('r', 'p')"
        ).fetchall()
        assert {t[1] for t in tables} >= {"projects", "resources", "resource_links", "fragments"}
        for oid, name, enabled, forced in tables:
            assert enabled, f"{name}: RLS must be enabled"
            assert forced, f"{name}: RLS must be forced"
            policies = conn.execute(
                "SELECT p.polcmd, p.polpermissive FROM pg_policy p WHERE p.polrelid = %s "
                "AND 'scopedb_app'::regrole = ANY (p.polroles)",
                (oid,),
            ).fetchall()
            restrictive = {cmd for cmd, permissive in policies if not permissive}
            for cmd, label in COMMANDS.items():
                assert cmd in restrictive or "*" in restrictive, f"{name}: no restrictive {label} policy"
            assert any(permissive for _, permissive in policies), f"{name}: the app needs one permissive policy"


def test_app_role_cannot_bypass_or_own_or_create(scopedb_db: Database) -> None:
    with _admin(scopedb_db) as conn:
        role = conn.execute(
            "SELECT rolsuper, rolbypassrls, rolcreaterole, rolcreatedb, rolcanlogin FROM pg_roles "
            "WHERE rolname = 'scopedb_app'"
        ).fetchone()
        assert role == (False, False, False, False, False)
        owned = conn.execute(
            "SELECT count(*) FROM ("
            " SELECT relowner AS o FROM pg_class UNION ALL SELECT proowner FROM pg_proc"
            " UNION ALL SELECT nspowner FROM pg_namespace UNION ALL SELECT typowner FROM pg_type) x "
            "WHERE o = 'scopedb_app'::regrole"
        ).fetchone()
        assert owned == (0,)
        can_create = conn.execute(
            "SELECT nspname FROM pg_namespace WHERE has_schema_privilege('scopedb_app', oid, 'CREATE')"
        ).fetchall()
        assert can_create == []
        temp = conn.execute(
            "SELECT has_database_privilege('scopedb_app', current_database(), 'TEMP'),"
            "       has_database_privilege('scopedb_app', current_database(), 'CREATE')"
        ).fetchone()
        assert temp == (False, False)
        private = conn.execute("SELECT has_schema_privilege('scopedb_app', 'scopedb_private', 'USAGE')").fetchone()
        assert private == (False,)


def test_public_has_no_grants_on_scopedb_objects(scopedb_db: Database) -> None:
    with _admin(scopedb_db) as conn:
        leaked = conn.execute(
            """
            SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace,
                   aclexplode(coalesce(c.relacl, acldefault('r', c.relowner))) a
             WHERE n.nspname IN ('scopedb', 'scopedb_private') AND a.grantee = 0
            UNION ALL
            SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace,
                   aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
             WHERE n.nspname IN ('scopedb', 'scopedb_private') AND a.grantee = 0
            UNION ALL
            SELECT n.nspname FROM pg_namespace n, aclexplode(coalesce(n.nspacl, acldefault('n', n.nspowner))) a
             WHERE n.nspname IN ('scopedb', 'scopedb_private') AND a.grantee = 0
            """
        ).fetchall()
        assert leaked == []


#: SECURITY DEFINER functions that use pgvector's operators, whose schema their search_path must name (between
#: pg_catalog, first, and pg_temp, last); every other one names pg_catalog and pg_temp alone.
VECTOR_DEFINERS = {"scopedb.group_nearest(bigint[],vector,integer,integer,integer)"}


def test_security_definer_functions_pin_search_path(scopedb_db: Database) -> None:
    with _admin(scopedb_db) as conn:
        schema = conn.execute(
            "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace "
            "WHERE e.extname = 'vector'"
        ).fetchone()
        assert schema is not None
        pinned = conn.execute(
            "SELECT p.oid::regprocedure::text, coalesce(p.proconfig, '{}') @> ARRAY['search_path=pg_catalog, pg_temp'],"
            " coalesce(p.proconfig, '{}') @> ARRAY[format('search_path=pg_catalog, %%s, pg_temp', %s::text)] "
            "FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
            "WHERE n.nspname IN ('scopedb', 'scopedb_private') AND p.prosecdef",
            (schema[0],),
        ).fetchall()
    unpinned = [name for name, plain, with_vector in pinned if not (with_vector if name in VECTOR_DEFINERS else plain)]
    assert unpinned == []
    assert {name for name, _, _ in pinned} >= VECTOR_DEFINERS


@pytest.mark.parametrize("role", ["scopedb_app", "scopedb_auditor"])
def test_auditor_and_app_cannot_read_signing_keys(scopedb_db: Database, role: str) -> None:
    with _admin(scopedb_db) as conn:
        assert conn.execute(
            "SELECT has_table_privilege(%s, 'scopedb_private.signing_keys', 'SELECT')", (role,)
        ).fetchone() == (False,)


def test_auditor_reads_the_catalog_but_no_data_row(scopedb_db: Database) -> None:
    with _admin(scopedb_db) as conn:
        for table in ("projects", "resources", "resource_links", "fragments"):
            assert conn.execute(
                "SELECT has_table_privilege('scopedb_auditor', %s, 'SELECT')", (f"scopedb.{table}",)
            ).fetchone() == (False,)
