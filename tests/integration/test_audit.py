"""The policy audit: every lint sees the fault a test introduces; a clean database has no error."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from typing import LiteralString

import psycopg
import pytest

from scopedb import Database

LINTS: list[tuple[str, list[LiteralString], str]] = [
    ("E001", ["ALTER TABLE scopedb.fragments NO FORCE ROW LEVEL SECURITY"], "scopedb.fragments"),
    ("E001", ["ALTER TABLE scopedb.notes DISABLE ROW LEVEL SECURITY"], "scopedb.notes"),
    ("E002", ['DROP POLICY "scope limits which fragments the app deletes" ON scopedb.fragments'], "DELETE"),
    ("E003", ["CREATE POLICY leak ON scopedb.fragments AS PERMISSIVE FOR SELECT TO scopedb_app USING (true)"], "leak"),
    (
        "W004",
        [
            "CREATE POLICY slow ON scopedb.fragments AS RESTRICTIVE FOR SELECT TO scopedb_app "
            "USING (project_id = ANY (scopedb.scope_project_ids()))"
        ],
        "slow",
    ),
    ("E005", ["ALTER FUNCTION scopedb.scope_project_ids() RESET search_path"], "scope_project_ids"),
    ("E006", ["GRANT EXECUTE ON FUNCTION scopedb.text_candidates(tsquery, integer) TO PUBLIC"], "text_candidates"),
    ("E007", ["CREATE VIEW public.all_fragments AS SELECT * FROM scopedb.fragments"], "all_fragments"),
    (
        "W007",
        ["CREATE VIEW public.barrier_fragments WITH (security_barrier) AS SELECT * FROM scopedb.fragments"],
        "barrier_fragments",
    ),
    (
        "W008",
        [
            "CREATE VIEW public.hot_fragments WITH (security_invoker) AS "
            "SELECT * FROM scopedb.fragments WHERE tier = 'hot'"
        ],
        "hot_fragments",
    ),
    ("E010", ["CREATE TABLE public.planted (x int)", "ALTER TABLE public.planted OWNER TO scopedb_app"], "planted"),
    ("E011", ["GRANT CREATE ON SCHEMA public TO scopedb_app"], "schema public"),
    (
        "W011",
        ["DO $$ BEGIN EXECUTE format('GRANT TEMPORARY ON DATABASE %I TO scopedb_app', current_database()); END $$"],
        "database",
    ),
    ("E012", ["GRANT SELECT ON scopedb.projects TO PUBLIC"], "scopedb.projects"),
    ("E013", ["ALTER TABLE scopedb.graph_nodes ADD CONSTRAINT nodes_global_id UNIQUE (id)"], "nodes_global_id"),
    ("W014", ["CREATE TABLE scopedb.extra (project_id bigint, note text)"], "scopedb.extra"),
    ("W015", ["UPDATE scopedb_private.signing_keys SET created_at = now() - interval '100 days'"], "signing key"),
    ("E015", ["UPDATE scopedb_private.signing_keys SET retired_at = now()"], "signing keys"),
    # Settings stored in this (cloned) database only, so the cluster-wide roles stay clean for other tests.
    (
        "E017",
        [
            """DO $$ BEGIN EXECUTE format('ALTER ROLE %I IN DATABASE %I SET gin_fuzzy_search_limit = 20',
                (SELECT r.rolname FROM pg_roles AS r JOIN pg_auth_members AS m ON m.member = r.oid
                  WHERE m.roleid = 'scopedb_app'::regrole AND r.rolcanlogin ORDER BY 1 LIMIT 1),
                current_database()); END $$"""
        ],
        "role",
    ),
    (
        "W017",
        [
            "DO $$ BEGIN EXECUTE format('ALTER ROLE scopedb_app IN DATABASE %I SET row_security = off', "
            "current_database()); END $$"
        ],
        "scopedb_app",
    ),
    (
        "E018",
        ["ALTER FUNCTION scopedb.text_candidates(tsquery, integer) RESET gin_fuzzy_search_limit"],
        "text_candidates",
    ),
    (
        "E019",
        [
            "CREATE FUNCTION scopedb.plan_of(q text) RETURNS SETOF text LANGUAGE plpgsql SECURITY DEFINER "
            "SET search_path = pg_catalog AS $$ BEGIN RETURN QUERY EXECUTE 'EXPLAIN ' || q; END $$",
            "GRANT EXECUTE ON FUNCTION scopedb.plan_of(text) TO scopedb_app",
        ],
        "plan_of",
    ),
]


def _superuser(db: Database, *statements: LiteralString) -> None:
    with psycopg.connect(db.dsn, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


def test_a_clean_database_has_no_error_findings(scopedb_db: Database) -> None:
    findings = scopedb_db.admin().audit()
    assert [f for f in findings if f.severity == "error"] == []


@pytest.mark.parametrize(("code", "fault", "needle"), LINTS, ids=[f"{c}-{n}" for c, _, n in LINTS])
def test_each_lint_sees_its_fault(scopedb_db: Database, code: str, fault: list[LiteralString], needle: str) -> None:
    assert not [f for f in scopedb_db.admin().audit() if f.code == code]
    _superuser(scopedb_db, *fault)
    hits = [f for f in scopedb_db.admin().audit() if f.code == code]
    assert any(needle in f.object for f in hits), hits
    assert all(f.fix for f in hits)


def test_a_bypassrls_member_of_the_app_role_is_an_error(scopedb_db: Database) -> None:
    role = f"rogue_{uuid.uuid4().hex[:8]}"
    try:
        _superuser(scopedb_db, f"CREATE ROLE {role} BYPASSRLS", f"GRANT scopedb_app TO {role}")
        hits = [f for f in scopedb_db.admin().audit() if f.code == "E009"]
        assert any(role in f.object for f in hits)
    finally:
        _superuser(scopedb_db, f"DROP ROLE IF EXISTS {role}")


def test_pgvector_version_rule(scopedb_db: Database) -> None:
    with psycopg.connect(scopedb_db.dsn) as conn:
        for version, too_old in (("0.7.4", True), (None, True), ("0.8.0", False), ("0.8.5", False), ("1.0", False)):
            got = conn.execute("SELECT scopedb_audit.pgvector_too_old(%s)", (version,)).fetchone()
            assert got == (too_old,), version


def test_the_auditor_reads_findings_but_no_data_row(scopedb_db: Database) -> None:
    if scopedb_db.server.backend == "dsn":
        pytest.skip("logs in as a new role without a password: needs a server scopedb started (trust)")
    role = f"auditor_{uuid.uuid4().hex[:8]}"
    try:
        _superuser(scopedb_db, f"CREATE ROLE {role} LOGIN IN ROLE scopedb_auditor")
        auditor = psycopg.conninfo.make_conninfo(scopedb_db.dsn, user=role)
        with psycopg.connect(auditor) as conn:
            assert conn.execute("SELECT count(*) FROM scopedb_audit.findings WHERE severity = 'error'").fetchone() == (
                0,
            )
        with psycopg.connect(auditor) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT * FROM scopedb.fragments")
    finally:
        _superuser(scopedb_db, f"DROP ROLE IF EXISTS {role}")


def _cli(dsn: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scopedb.cli", "--dsn", dsn, "audit", *args],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def test_scopedb_audit_exits_0_when_clean_and_1_naming_the_table_otherwise(scopedb_db: Database) -> None:
    clean = _cli(scopedb_db.dsn)
    assert clean.returncode == 0, clean.stderr
    assert "no errors" in clean.stdout
    _superuser(scopedb_db, "ALTER TABLE scopedb.graph_edges NO FORCE ROW LEVEL SECURITY")
    broken = _cli(scopedb_db.dsn)
    assert broken.returncode == 1
    assert "E001" in broken.stdout
    assert "scopedb.graph_edges" in broken.stdout
    machine = json.loads(_cli(scopedb_db.dsn, "--format", "json").stdout)
    assert {"severity": "error", "code": "E001"}.items() <= machine[0].items()
