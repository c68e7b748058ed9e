"""The rest of the attack catalogue (docs/security.md): injection, shadowing, catalog and error channels, state
carried between pooled transactions, and the residual channels whose exposure is bounded rather than closed.

As in ``test_scope_escape.py``, the attacker runs arbitrary SQL as ``scopedb_app`` inside a transaction legitimately
scoped to project A ("acme/api") and tries to read or change project B ("beta/web"). Every test also checks a
control — the same thing done to A, or done without the defence — so it can fail if the defence is removed.
"""

from __future__ import annotations

import threading
from typing import LiteralString

import psycopg
import pytest

from scopedb import Database, ResourceScope, ScopedbError
from scopedb.aliases import DatabaseResourceRegistry
from scopedb.errors import InvalidArgumentError, PermissionDeniedError, ScopeViolationError
from scopedb.ingest import EdgeIn, Fragment, NodeIn
from scopedb.lifecycle import app_connection_options
from scopedb.notes import NoteStore
from scopedb.session import ScopedSession
from tests.conftest import Tenants

INJECTIONS = [
    "'; DELETE FROM scopedb.fragments; --",
    "beta') OR (1=1",
    "x' UNION SELECT content FROM scopedb.fragments --",
    "$$; SELECT 1; $$",
    "\\'; SET ROLE scopedb_owner; --",
    "acme & !beta | *:*",
    "%' OR project_id <> 0 --",
]


def _b_rows(s: ScopedSession, tenants: Tenants) -> int:
    return int(s.execute("SELECT count(*) FROM scopedb.fragments WHERE project_id = %s", (tenants.b.id,)).scalar())


def _all_rows_as_owner(tenants: Tenants) -> int:
    return len(tenants.admin_rows("fragments"))


# SQL injection through every string the API takes ------------------------------------------------------------------


@pytest.mark.parametrize("text", INJECTIONS)
def test_injection_through_search_text_is_only_ever_a_search_term(tenants: Tenants, text: str) -> None:
    before = _all_rows_as_owner(tenants)
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        hits = s.search_text(text, limit=50)
        assert {h.fragment.project_name for h in hits} <= {"acme/api"}
        # "beta" is a word of B's fragments only: as a search term it finds nothing from A's scope.
        assert s.search_text("beta", limit=50) == []
    assert _all_rows_as_owner(tenants) == before


@pytest.mark.parametrize("text", INJECTIONS)
def test_injection_through_path_and_name_patterns_never_widens(tenants: Tenants, text: str) -> None:
    refused = 0
    for field in ("include_paths", "include_names", "exclude_paths", "exclude_names"):
        try:
            # A malformed pattern is refused when the scope is built (pydantic's ValidationError, a ValueError) or
            # entered (a ScopedbError): a typed error, and nothing seen.
            with tenants.db.scoped(ResourceScope(project_names={"acme/api"}, **{field: {text}})) as s:
                projects = {r[0] for r in s.execute("SELECT project_id FROM scopedb.fragments").rows}
        except (ScopedbError, ValueError):
            refused += 1
            continue
        assert projects <= {tenants.a.id}
    assert refused < 4 or ":" in text, "an ordinary string is a valid (if odd) pattern, not an error"


@pytest.mark.parametrize("text", INJECTIONS)
def test_injection_through_aliases_is_an_unknown_alias(tenants: Tenants, text: str) -> None:
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        registry = DatabaseResourceRegistry(s)
        try:
            scope = registry.resolve_resource_scope(["acme/api"], include=[text])
        except ScopedbError:
            scope = None
    if scope is not None:
        # An alias nobody has resolves to nothing: the scope narrows to no resource, never widens.
        assert scope.resources_narrowed
        assert not scope.resource_ids
        with tenants.db.scoped(scope) as s:
            assert s.execute("SELECT count(*) FROM scopedb.fragments WHERE resource_id IS NOT NULL").scalar() == 0
    # An alias is data in the database too: a resource may be called anything, and it stays a string.
    resource = tenants.db.admin().create_resource("acme/api", alias=text[:60])
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        found = DatabaseResourceRegistry(s).resolve_resource_scope(["acme/api"], include=[text[:60]])
    assert found.resource_ids == {resource.id}


@pytest.mark.parametrize("text", INJECTIONS)
def test_injection_through_note_content_and_tags_is_stored_verbatim(tenants: Tenants, text: str) -> None:
    notes_a = NoteStore(tenants.db, "acme/api")
    notes_b = NoteStore(tenants.db, "beta/web")
    secret_b = notes_b.store("beta's deploy key is kept elsewhere", tags=["ops"])
    note_id = notes_a.store(text, tags=[text, "plain"])
    (fetched,) = notes_a.fetch([note_id])
    assert fetched.content == text
    assert text in fetched.tags
    assert [d.id for d in notes_a.search(text)] == [note_id]
    assert all(d.id != secret_b for d in notes_a.search("deploy"))
    assert [d.id for d in notes_b.search("deploy")] == [secret_b]


# Shadowing scopedb's objects -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "statement",
    [
        "CREATE OPERATOR public.= (LEFTARG = bigint, RIGHTARG = bigint, FUNCTION = int8ne)",
        "CREATE OPERATOR pg_temp.= (LEFTARG = bigint, RIGHTARG = bigint[], FUNCTION = int8ne)",
        "CREATE TYPE public.scope_claims AS (project_ids bigint[])",
        "CREATE DOMAIN public.bigint AS text",
        "CREATE TEMP VIEW fragments AS SELECT 1 AS project_id",
        "CREATE AGGREGATE public.array_agg (bigint) (SFUNC = array_append, STYPE = bigint[])",
        "CREATE EXTENSION dblink",
        "CREATE SERVER leak FOREIGN DATA WRAPPER postgres_fdw",
        "COPY scopedb.fragments TO PROGRAM 'cat > /tmp/leak'",
        "SELECT pg_read_file('postgresql.conf')",
        "SELECT lo_import('/etc/passwd')",
        "TRUNCATE scopedb.fragments",
        "ALTER DATABASE CURRENT SET scopedb.scope_token = 'x'",
        "ALTER ROLE scopedb_app_login SET row_security = off",
        "ALTER SYSTEM SET row_security = off",
    ],
)
def test_shadowing_and_escape_statements_are_refused(tenants: Tenants, statement: LiteralString) -> None:
    with pytest.raises(ScopedbError), tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute(statement)
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        assert _b_rows(s, tenants) == 0
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 7
    assert len(tenants.admin_rows("fragments", f"project_id = {int(tenants.b.id)}")) == 7


def test_role_defaults_the_app_may_store_for_itself_are_inert(tenants: Tenants) -> None:
    """Residual: PostgreSQL lets a role store defaults for itself, so the app can ``ALTER ROLE scopedb_app SET``.
    Role defaults apply only when a session logs in as that role; scopedb_app is NOLOGIN, so the stored settings
    never take effect, and the audit reports them (W017). Not even on the pools' sessions, which are scopedb_app
    from their startup packet on: PostgreSQL applies the defaults of the login, not of the startup role. (Defaults
    stored for the login itself, after ``SET ROLE NONE``: #48.)"""
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("ALTER ROLE CURRENT_USER SET row_security = off")
        s.execute("ALTER ROLE CURRENT_USER SET search_path = public")
        s.execute("ALTER ROLE CURRENT_USER SET work_mem = '77MB'")  # which no entry pins
    assert any(f.code == "W017" and "scopedb_app" in f.object for f in tenants.db.admin().audit())
    app_dsn = tenants.db.app_dsn
    with psycopg.connect(app_dsn, **app_connection_options(app_dsn)) as bare:  # a session as the pools open it
        state = bare.execute("SELECT current_user::text, current_setting('work_mem'), current_setting('search_path')")
        role, work_mem, search_path = state.fetchone() or ("", "", "")
        assert (role, work_mem == "77MB", search_path == "public") == ("scopedb_app", False, False)
    fresh = tenants.one_connection()
    try:
        with fresh.scoped(tenants.scope("acme/api")) as s:
            assert s.execute("SHOW row_security").scalar() == "on"
            assert s.execute("SHOW search_path").scalar() != "public"
            assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 7
            assert _b_rows(s, tenants) == 0
            assert s.execute("SELECT rolcanlogin FROM pg_roles WHERE rolname = 'scopedb_app'").scalar() is False
    finally:
        fresh.close()
        with psycopg.connect(tenants.db.dsn, autocommit=True) as admin:  # roles are cluster-wide
            admin.execute("ALTER ROLE scopedb_app RESET ALL")


def test_row_security_off_raises_instead_of_returning_rows(tenants: Tenants) -> None:
    """``SET row_security = off`` does not turn RLS off for a role without BYPASSRLS: queries that RLS would
    filter fail instead of returning everything."""
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("SET LOCAL row_security = off")
        s.execute("SAVEPOINT before")
        with pytest.raises(PermissionDeniedError):  # "query would be affected by row-level security policy"
            s.execute("SELECT count(*) FROM scopedb.fragments")
        s.execute("ROLLBACK TO before")


def test_a_view_owned_by_the_owner_still_filters_and_the_audit_flags_it(tenants: Tenants) -> None:
    """The app cannot create views; if an operator creates one that runs as its owner, the owner's policies still
    admit nothing of B to the app's session (in fact the query is refused: those policies call owner-only
    functions) — and the audit names the view as an error."""
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        conn.execute("SET ROLE scopedb_owner")
        conn.execute("CREATE VIEW scopedb.every_fragment AS SELECT project_id, id FROM scopedb.fragments")
        conn.execute("GRANT SELECT ON scopedb.every_fragment TO scopedb_app")
    try:
        with tenants.db.scoped(tenants.scope("acme/api")) as s:
            seen = {r[0] for r in s.execute("SELECT project_id FROM scopedb.every_fragment").rows}
    except PermissionDeniedError:
        seen = set()  # the owner's policies call functions the app may not execute: refused outright
    assert tenants.b.id not in seen
    findings = tenants.db.admin().audit()
    assert any(f.code == "E007" and "every_fragment" in f.object for f in findings)


def test_a_view_owned_by_a_superuser_would_leak_and_the_audit_flags_it(tenants: Tenants) -> None:
    """The one way a view widens scope: its owner bypasses RLS. The app cannot make one; the audit catches it."""
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        superuser = conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone() == (True,)
        if not superuser:
            pytest.skip("needs a superuser admin login to create the faulty view")
        conn.execute("CREATE VIEW public.leaky AS SELECT project_id FROM scopedb.fragments")
        conn.execute("GRANT USAGE ON SCHEMA public TO scopedb_app")
        conn.execute("GRANT SELECT ON public.leaky TO scopedb_app")
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        seen = {r[0] for r in s.execute("SELECT project_id FROM public.leaky").rows}
    assert tenants.b.id in seen  # the fault is real ...
    findings = tenants.db.admin().audit()
    assert any(f.code == "E007" and "leaky" in f.object for f in findings)  # ... and the audit reports it


def test_a_security_invoker_view_filters_as_the_caller(tenants: Tenants) -> None:
    """A service's own view, in its own schema: it reads as the caller, and the audit has nothing to say. (The same
    view inside scopedb's schemas would be E020: nothing but what scopedb installs belongs there.)"""
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        conn.execute(
            "CREATE VIEW public.my_fragments WITH (security_invoker = true) AS "
            "SELECT project_id, id FROM scopedb.fragments"
        )
        conn.execute("GRANT SELECT ON public.my_fragments TO scopedb_app")
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        assert {r[0] for r in s.execute("SELECT project_id FROM public.my_fragments").rows} == {tenants.a.id}
    assert not any("my_fragments" in f.object and f.severity == "error" for f in tenants.db.admin().audit())


# Catalog, statistics and plans -----------------------------------------------------------------------------------


def test_pg_stats_hides_the_statistics_of_scoped_tables(tenants: Tenants) -> None:
    """Column statistics (most common values, histograms) would show B's values; PostgreSQL hides them from a
    role subject to RLS."""
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        conn.execute("ANALYZE scopedb.fragments")
        control = conn.execute("SELECT count(*) > 0 FROM pg_stats WHERE tablename = 'fragments'").fetchone()
        assert control == (True,)  # the owner's superuser login sees them
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        assert s.execute("SELECT count(*) FROM pg_stats WHERE schemaname = 'scopedb'").scalar() == 0
        assert s.execute("SELECT count(*) FROM pg_stats_ext WHERE schemaname = 'scopedb'").scalar() == 0
    with pytest.raises(PermissionDeniedError), tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("SELECT count(*) FROM pg_statistic")


def test_plans_and_the_catalog_show_counts_never_values(tenants: Tenants) -> None:
    """Residual: ``pg_class.reltuples`` and EXPLAIN ANALYZE's "Rows Removed by Filter" reveal how many rows the
    table holds in total. Neither shows a value of B's rows — checked here on every line of the output."""
    secrets = [str(r[0]) for r in _owner(tenants, "SELECT content FROM scopedb.fragments WHERE project_id = %s")]
    b_ids = [r[0] for r in _owner(tenants, "SELECT id FROM scopedb.fragments WHERE project_id = %s")]
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        plan = "\n".join(
            r[0]
            for r in s.execute(
                "EXPLAIN (ANALYZE, VERBOSE, BUFFERS, SETTINGS) SELECT * FROM scopedb.fragments "
                "WHERE content LIKE '%%beta%%' OR id = ANY (%s)",
                (b_ids,),
            ).rows
        )
        catalog = s.execute("SELECT reltuples FROM pg_class WHERE oid = 'scopedb.fragments'::regclass").scalar()
    assert "Rows Removed by Filter" in plan or "rows=" in plan
    assert not any(secret in plan for secret in secrets)
    assert isinstance(catalog, float)


def _owner(tenants: Tenants, query: LiteralString) -> list[tuple[object, ...]]:
    """Rows of B as the admin login sees them, ``%s`` being B's project id."""
    with psycopg.connect(tenants.db.dsn) as conn:
        return conn.execute(query, (tenants.b.id,)).fetchall()


# Errors that could name another project's keys -------------------------------------------------------------------


def test_writing_b_s_existing_key_and_a_new_key_fail_alike(tenants: Tenants) -> None:
    """Inserting B's existing key must not be distinguishable from inserting a key B does not have: the policy
    check runs before the unique index, so both are the same refusal."""
    (existing,) = _owner(tenants, "SELECT id FROM scopedb.fragments WHERE project_id = %s LIMIT 1")[0]
    messages = []
    for key in (existing, "no-such-key"):
        with pytest.raises(ScopeViolationError) as err, tenants.db.scoped(tenants.scope("acme/api")) as s:
            s.execute(
                "INSERT INTO scopedb.fragments (project_id, id, content) VALUES (%s, %s, 'probe')",
                (tenants.b.id, key),
            )
        messages.append(str(err.value))
    assert messages[0] == messages[1]
    assert str(existing) not in messages[0]


def test_referencing_b_s_resource_fails_like_a_made_up_one(tenants: Tenants) -> None:
    """A foreign key check runs without RLS; its error must not tell a real resource of B from a made-up id."""
    real = tenants.resources["b1"].id
    made_up = "01JZZZZZZZZZZZZZZZZZZZZZZZ"
    outcomes = []
    for resource in (real, made_up):
        with pytest.raises(ScopedbError) as err, tenants.db.scoped(tenants.scope("acme/api")) as s:
            s.execute(
                "INSERT INTO scopedb.fragments (project_id, id, resource_id, content) VALUES (%s, 'p', %s, 'x')",
                (tenants.a.id, resource),
            )
        outcomes.append((type(err.value), str(err.value).replace(resource, "<id>")))
    assert outcomes[0] == outcomes[1]
    assert real not in str(outcomes[0][1])


def test_upsert_on_b_s_key_cannot_touch_b(tenants: Tenants) -> None:
    """Keys include project_id, so ON CONFLICT in A never meets B's row; B's row is unchanged."""
    (existing,) = _owner(tenants, "SELECT id FROM scopedb.fragments WHERE project_id = %s LIMIT 1")[0]
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute(
            "INSERT INTO scopedb.fragments (project_id, id, content) VALUES (%s, %s, 'mine') "
            "ON CONFLICT (project_id, id) DO UPDATE SET content = 'overwritten'",
            (tenants.a.id, existing),
        )
    b_content = [r[0] for r in _owner(tenants, "SELECT content FROM scopedb.fragments WHERE project_id = %s")]
    assert len(b_content) == 7
    assert "overwritten" not in b_content
    assert "mine" not in b_content
    with tenants.db.scoped(tenants.scope("acme/api")) as s:  # control: the row landed in A
        assert s.execute("SELECT content FROM scopedb.fragments WHERE id = %s", (existing,)).scalar() == "mine"


def test_data_modifying_ctes_and_returning_reach_nothing_of_b(tenants: Tenants) -> None:
    """The app deletes only through scopedb.delete_* (no DELETE privilege): a DELETE is refused outright, and the
    delete function and an UPDATE aimed at B reach nothing."""
    b_ids = [r[0] for r in _owner(tenants, "SELECT id FROM scopedb.fragments WHERE project_id = %s")]
    with pytest.raises(PermissionDeniedError), tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("WITH d AS (DELETE FROM scopedb.fragments WHERE project_id = %s RETURNING content) "
                  "SELECT count(*) FROM d", (tenants.b.id,))  # fmt: skip
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        deleted = s.execute(
            "WITH d AS (SELECT scopedb.delete_fragments(%s, %s) AS n) SELECT n FROM d", (tenants.b.id, b_ids)
        ).scalar()
        updated = s.execute(
            "UPDATE scopedb.fragments SET content = 'x' WHERE project_id = %s RETURNING id", (tenants.b.id,)
        ).rows
    assert deleted == 0
    assert updated == []
    assert tenants.count("fragments", tenants.b) == 7


# State carried from one pooled transaction to the next -----------------------------------------------------------


def test_a_held_cursor_of_b_does_not_survive_into_a_s_transaction(tenants: Tenants) -> None:
    db = tenants.one_connection()
    try:
        with db.scoped(tenants.scope("beta/web")) as victim:
            victim.execute("DECLARE victim_rows CURSOR WITH HOLD FOR SELECT content FROM scopedb.fragments")
            backend = victim.execute("SELECT pg_backend_pid()").scalar()
        with db.scoped(tenants.scope("acme/api")) as attacker:
            assert attacker.execute("SELECT pg_backend_pid()").scalar() == backend  # same server session
            assert attacker.execute("SELECT count(*) FROM pg_cursors").scalar() == 0
            with pytest.raises(ScopedbError):
                attacker.execute("FETCH ALL FROM victim_rows")
    finally:
        db.close()


def test_a_prepared_statement_of_b_does_not_survive_into_a_s_transaction(tenants: Tenants) -> None:
    db = tenants.one_connection()
    try:
        with db.scoped(tenants.scope("beta/web")) as victim:
            victim.execute("PREPARE victim_query AS SELECT content FROM scopedb.fragments")
        with db.scoped(tenants.scope("acme/api")) as attacker:
            # What the session still holds is the driver's: scopedb's own fixed statements, none of B's text.
            kept = attacker.execute("SELECT from_sql, statement FROM pg_prepared_statements").rows
            assert not [row for row in kept if row[0] or "victim_query" in row[1] or "fragments" in row[1]]
            with pytest.raises(ScopedbError):
                attacker.execute("EXECUTE victim_query")
    finally:
        db.close()


def test_a_prepared_statement_is_filtered_by_the_scope_it_runs_in(tenants: Tenants) -> None:
    """Even inside one transaction, a statement prepared before a scope change is filtered by the scope in force
    when it executes: the policy reads the scope at execution time, not at planning time."""
    with tenants.db.scoped(tenants.scope("acme/api", "beta/web")) as s:
        s.execute("PREPARE everything AS SELECT DISTINCT project_id FROM scopedb.fragments")
        assert {r[0] for r in s.execute("EXECUTE everything").rows} == {tenants.a.id, tenants.b.id}
        s.execute("SELECT set_config('scopedb.scope_token', '', true)")
        assert s.execute("EXECUTE everything").rows == []


def test_session_settings_locks_and_listens_do_not_survive(tenants: Tenants) -> None:
    db = tenants.one_connection()
    try:
        with db.scoped(tenants.scope("beta/web")) as victim:
            token = victim.execute("SELECT current_setting('scopedb.scope_token')").scalar()
            victim.execute("SELECT set_config('scopedb.scope_token', %s, false)", (token,))
            victim.execute("SELECT pg_advisory_lock(42)")
            victim.execute("LISTEN beta_events")
        with db.scoped(tenants.scope("acme/api")) as attacker:
            assert attacker.execute("SELECT current_setting('scopedb.scope_token')").scalar() != token
            assert _b_rows(attacker, tenants) == 0
            assert attacker.execute("SELECT count(*) FROM pg_listening_channels()").scalar() == 0
            assert (
                attacker.execute(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()"
                ).scalar()
                == 0
            )
    finally:
        db.close()


_GRAPH_SCANS = (
    "SELECT relname, seq_scan, coalesce(idx_scan, 0) FROM pg_stat_xact_user_tables "
    "WHERE schemaname = 'scopedb' AND relname IN ('graph_nodes', 'graph_edges') ORDER BY relname"
)


def _walk_scans(db: Database, scope: ResourceScope) -> list[tuple[str, int, int]]:
    """How B's walk read the graph tables: sequential and index scans per table. The counters are read before and
    after the walk: the backend's counts not yet sent to the statistics (at most once a second) include earlier
    transactions on the connection."""
    with db.scoped(scope) as s:
        before = s.execute(_GRAPH_SCANS).rows
        assert s.search_graph("b1", depth=2).node_ids == {"b1", "b2", "b3"}
        after = s.execute(_GRAPH_SCANS).rows
    return [(str(a[0]), int(a[1]) - int(b[1]), int(a[2]) - int(b[2])) for a, b in zip(after, before, strict=True)]


def test_a_tenants_planner_settings_do_not_shape_the_walk_plan_the_next_tenant_gets(tenants: Tenants) -> None:
    """The graph walks are functions whose plans PostgreSQL keeps for the connection, and a pooled connection
    serves tenant after tenant. A plans the walk first, with index scans switched off, often enough for the plan
    cache to keep a generic plan; B's walk on that connection must read the tables as it does on a connection no
    one shaped (a review of revision 0016: JIT, parallel workers or sequential scans chosen by A would otherwise
    stay for every later walk). The walks pin their planner settings."""
    with tenants.db.scoped(tenants.scope("beta/web")) as s:
        nodes = [NodeIn("beta/web", f"b{i}", kind="module") for i in range(1, 4)]
        edges = [EdgeIn("beta/web", "b1", "b2", "calls"), EdgeIn("beta/web", "b2", "b3", "calls")]
        s.ingest_graph(nodes, edges)
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.ingest_graph([NodeIn("acme/api", "a1", kind="module")], [])
    victim = tenants.scope("beta/web")
    fresh = tenants.one_connection()
    try:
        unshaped = _walk_scans(fresh, victim)
    finally:
        fresh.close()
    assert all(index > 0 for _, _, index in unshaped), unshaped  # the check below compares index plans
    db = tenants.one_connection()
    try:
        with db.scoped(tenants.scope("acme/api")) as attacker:
            attacker.execute(
                "SELECT set_config(name, 'off', true) FROM unnest(ARRAY['enable_indexscan', 'enable_bitmapscan', "
                "'enable_indexonlyscan']) AS name"
            )
            for _ in range(10):  # past the five custom plans after which the plan cache may keep a generic one
                attacker.search_graph("a1", depth=2)
        assert _walk_scans(db, victim) == unshaped
    finally:
        db.close()


#: Functions the app can call (or that fire as triggers) which keep plans and pin no planner settings, and why.
_UNPINNED = {
    "scopedb.clean_session()": "a SET clause would undo its own RESET ALL for the pinned settings at its exit",
    "scopedb.patterns_admit(text,text[],text[])": "an expression: no statement to plan",
    "scopedb.scope_entered()": "an expression, inlined into the policies",
    "scopedb.terms_admit_fragment(scopedb.scope_terms,bigint,timestamp with time zone,timestamp with time zone,"
    "text,text,text)": "one expression, evaluated without a plan; a SET clause would cost every row it judges",
    "scopedb_private.derive_hmac_pads()": "computes from the new row only; fires on the admin's key rotation",
    "scopedb_private.move_project_names_epoch()": "one keyless update; fires on an admin's rename or deletion",
    "scopedb_private.refuse_fragment_key_change()": "compares the old and new row only",
}


def test_every_function_that_keeps_plans_pins_jit_and_parallel_workers_off(tenants: Tenants) -> None:
    """The sibling of the walk attack above, for every other function whose plans the connection keeps: a plan
    made with JIT or parallel workers switched on by one tenant would compile or start workers on every later
    tenant's call. Each such function the app can reach pins both off (sql/04_settings_of_kept_plans.sql), but
    those named in _UNPINNED; the functions planned on every call (force_custom_plan) plan for their caller alone."""
    with psycopg.connect(tenants.db.dsn) as conn:
        unpinned = conn.execute(
            "SELECT p.oid::regprocedure::text FROM pg_proc AS p "
            "JOIN pg_namespace AS n ON n.oid = p.pronamespace JOIN pg_language AS l ON l.oid = p.prolang "
            "WHERE n.nspname IN ('scopedb', 'scopedb_private') AND l.lanname IN ('plpgsql', 'sql') "
            "AND (has_function_privilege('scopedb_app', p.oid, 'EXECUTE') OR p.prorettype = 'trigger'::regtype) "
            "AND NOT coalesce(p.proconfig, '{}') @> '{plan_cache_mode=force_custom_plan}' "
            "AND NOT coalesce(p.proconfig, '{}') @> '{jit=off,max_parallel_workers_per_gather=0}' ORDER BY 1"
        ).fetchall()
        pinned = conn.execute(
            "SELECT count(*) FROM pg_proc WHERE proconfig @> '{jit=off,max_parallel_workers_per_gather=0}' "
            "AND pronamespace IN ('scopedb'::regnamespace, 'scopedb_private'::regnamespace)"
        ).fetchone()
    assert {row[0] for row in unpinned} == set(_UNPINNED)
    assert pinned == (38,)  # 13 accessors and prepare_session, 16 on shared tables and the entry, 2 walks, 1 trigger,
    # the two searches (text_candidates, nearest_fragments), which keep the plans of all but their search, and
    # the search groups' search (group_nearest) and their two trigger functions (revision 0022)


# Residual channels: bounded, documented ----------------------------------------------------------------------------


def test_scopedb_itself_never_notifies(tenants: Tenants) -> None:
    """LISTEN/NOTIFY channels are global to the database and outside RLS. scopedb sends nothing on them, so no
    scoped data can travel there unless a service sends it itself."""
    with psycopg.connect(tenants.db.dsn) as conn:
        bodies = conn.execute(
            "SELECT p.oid::regprocedure::text FROM pg_proc AS p JOIN pg_namespace AS n ON n.oid = p.pronamespace "
            "WHERE n.nspname LIKE 'scopedb%%' AND (p.prosrc ILIKE '%%notify%%')"
        ).fetchall()
    assert bodies == []


def test_advisory_locks_carry_no_scoped_data_and_are_released(tenants: Tenants) -> None:
    """Advisory lock keys are global (a covert channel between two cooperating sessions, not a way to read rows).
    scopedb's own advisory locks are transaction-level and keyed by a hash, released at commit."""
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("SELECT pg_advisory_xact_lock(7)")
        held = s.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()")
        assert held.scalar() == 1
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        assert s.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND "
                         "pid = pg_backend_pid()").scalar() == 0  # fmt: skip


def test_large_objects_hold_no_scoped_data_and_server_files_are_refused(tenants: Tenants) -> None:
    """Large objects are outside RLS. scopedb stores nothing in them (no oid or lo column anywhere), and reading
    server files into one needs a privilege the app does not have."""
    with psycopg.connect(tenants.db.dsn) as conn:
        lo_columns = conn.execute(
            "SELECT count(*) FROM pg_attribute AS a JOIN pg_class AS c ON c.oid = a.attrelid "
            "JOIN pg_namespace AS n ON n.oid = c.relnamespace "
            "WHERE n.nspname LIKE 'scopedb%%' AND c.relkind = 'r' AND a.attnum > 0 "
            "AND a.atttypid IN ('oid'::regtype, coalesce(to_regtype('lo'), 'oid'::regtype))"
        ).fetchone()
        large_objects = conn.execute("SELECT count(*) FROM pg_largeobject_metadata").fetchone()
    assert lo_columns == (0,)
    assert large_objects == (0,)
    with pytest.raises(PermissionDeniedError), tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("SELECT lo_import('/etc/hostname')")


@pytest.mark.parametrize("entry", ["function", "set_local"])
def test_another_session_s_token_is_not_visible_in_pg_stat_activity(tenants: Tenants, entry: str) -> None:
    """Every app connection uses the same login, so a session can read the others' last query text in
    pg_stat_activity — including a victim's idle-in-transaction session right after it entered its scope. A token
    there could be replayed within its lifetime, so scopedb sends tokens only as bind parameters."""
    victim_db = tenants.one_connection(scope_entry=entry)
    entered = threading.Event()
    release = threading.Event()

    def victim() -> None:
        with victim_db.scoped(tenants.scope("beta/web")):  # entered, then idle in the transaction
            entered.set()
            release.wait(10)

    thread = threading.Thread(target=victim)
    thread.start()
    try:
        assert entered.wait(10)
        with tenants.db.scoped(tenants.scope("acme/api")) as s:
            # As scopedb_app the text of other sessions reads "<insufficient privilege>"; SET ROLE NONE makes the
            # attacker the login itself, which may read every session of that login.
            s.execute("SET ROLE NONE")
            texts = [
                r[0] or ""
                for r in s.execute(
                    "SELECT query FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND state = 'idle in transaction'"
                )
            ]
    finally:
        release.set()
        thread.join()
        victim_db.close()
    assert texts, "the victim's idle session is visible (the channel exists)"
    assert not any("v1." in text for text in texts), texts


def test_bad_embedding_input_is_a_typed_error(tenants: Tenants) -> None:
    """Embeddings are validated before they reach the driver (wrong width, strings, NaN, overflow)."""
    bad: list[object] = [[1.0] * 383, "0.1,0.2", [float("nan")] * 384, [1e40] * 384, [[0.0] * 384], [None] * 384]
    for embedding in bad:
        with pytest.raises(InvalidArgumentError), tenants.db.scoped(tenants.scope("acme/api")) as s:
            s.ingest_fragments([Fragment(project="acme/api", id="e", content="x", embedding=embedding)])  # type: ignore[arg-type]


def test_the_searches_keep_plans_only_under_pinned_planner_settings(tenants: Tenants) -> None:
    """text_candidates and nearest_fragments plan their searches on every call (for the scope's partitions) and,
    since revision 0020, keep the plans of everything else: their expressions and settings calls.
    A kept plan made under one tenant's planner settings would serve every later tenant on the connection (the
    walk attack above), so both pin every planner setting the walks pin, and plan_cache_mode is theirs to set, not
    the caller's: auto for what they keep, force_custom_plan set just before each search."""
    with psycopg.connect(tenants.db.dsn) as conn:
        row = conn.execute(
            "SELECT proconfig FROM pg_proc WHERE oid = 'scopedb.graph_walk(bigint[],text[],integer,text[])'"
            "::regprocedure"
        ).fetchone()
        assert row is not None
        walk: list[str] = row[0]
        configs: dict[str, list[str]] = dict(conn.execute(
            "SELECT oid::regprocedure::text, proconfig FROM pg_proc WHERE oid IN "
            "('scopedb.text_candidates(tsquery,integer)'::regprocedure, "
            "'scopedb.nearest_fragments(vector,integer,bigint[],text,boolean,integer,integer)'::regprocedure)"
        ).fetchall())  # fmt: skip
    planner = {s for s in walk if s.split("=")[0].startswith(("enable_", "jit", "max_parallel")) or "_cost" in s}
    assert len(planner) > 15  # the full set, not a few of it
    for name, config in configs.items():
        assert planner - {"enable_sort=on"} <= set(config), name  # nearest_fragments sets enable_sort per statement
        assert "plan_cache_mode=auto" in config, name
