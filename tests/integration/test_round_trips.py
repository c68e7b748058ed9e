"""A scoped request in as few round trips as the work allows, counted on the wire (libpq's protocol trace).

``db.run(scope, sql)`` sends the role, the entry, the statement and the session cleanup in one pipeline, whose
implicit transaction the Sync commits: one round trip. ``with db.scoped(scope)`` costs one for the entry, one per
statement, one for the end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bench.requests import counted_round_trips
from scopedb import Database, Fragment, ResourceScope, sqlfiles, wire
from scopedb.errors import InvalidArgumentError, PermissionDeniedError, QueryError, ScopedbError
from scopedb.logins import CLEAN
from scopedb.testing import app_connection
from tests.async_bridge import AsyncBridge
from tests.conftest import Tenants

DIM = 384


@pytest.fixture
def one(tenants: Tenants) -> Iterator[Database]:
    """A Database over the tenants' database with a pool of exactly one application connection."""
    db = tenants.one_connection()
    try:
        db.run(tenants.scope("acme/api"), "SELECT 1")  # opens the pool, learns the key and the audience
        yield db
    finally:
        db.close()


def test_run_is_one_round_trip_fresh_and_kept(one: Database, tenants: Tenants) -> None:
    scope = ResourceScope(project_names={"acme/api"}, include_paths={"src/**"})  # not yet entered: a fresh entry
    with counted_round_trips(one) as trips:
        fresh = one.run(scope, "SELECT id FROM scopedb.fragments ORDER BY id")
    assert trips == [1]
    with counted_round_trips(one) as trips:
        kept = one.run(scope, "SELECT id FROM scopedb.fragments ORDER BY id")  # the kept resolved token
    assert trips == [1]
    assert fresh.rows == kept.rows
    assert fresh.rows  # and they are the scope's rows only:
    with tenants.db.scoped(scope) as s:
        assert s.execute("SELECT id FROM scopedb.fragments ORDER BY id").rows == fresh.rows


def _session_state(db: Database, columns: str) -> tuple[Any, ...]:
    """What the pool's one connection holds between requests, as the next request gets it: ``columns`` (SQL
    expressions), then the counts of held cursors, statements prepared by SQL (the driver's own, scopedb's fixed
    statements, stay: tests/adversarial/test_kept_statements.py), channels listened to and advisory locks."""
    with db._pool().connection() as conn:
        row = conn.execute(
            f"SELECT {columns}, (SELECT count(*) FROM pg_cursors),"
            " (SELECT count(*) FROM pg_prepared_statements WHERE from_sql),"
            " (SELECT count(*) FROM pg_listening_channels()),"
            " (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid())"
        ).fetchone()
        CLEAN.add(conn)  # read outside any scoped transaction: lend it on
    assert row is not None
    return tuple(row)


#: The role and every setting, for comparing a whole session before and after a request.
_ROLE_AND_SETTINGS = (
    "current_user::text, session_user::text, (SELECT array_agg(name || '=' || setting ORDER BY name) FROM pg_settings)"
)


def test_a_kept_request_sends_three_statements_and_leaves_the_session_clean(one: Database, tenants: Tenants) -> None:
    """The reentry, the statement and scopedb.clean_session(), in the implicit transaction of one pipeline (the
    session's transactions start READ COMMITTED and read-write, as scopedb_app, by its startup packet, so neither
    BEGIN nor a role statement says so, and the Sync commits: it was four statements with the role, six with BEGIN
    and COMMIT, and COMMIT and six statements of cleanup before that). Whatever the statement left in the session
    — a session-level setting, a held cursor, a prepared statement, a LISTEN, an advisory lock, sequence state,
    the role — is gone before the connection is lent again."""
    scope = tenants.scope("acme/api")
    one.run(scope, "SELECT 1")  # the resolved token is kept from here on
    statements: list[int] = []
    with counted_round_trips(one, statements) as trips:
        one.run(scope, "SELECT id FROM scopedb.fragments LIMIT 1")
    assert (trips, statements) == ([1], [3])
    one.run(scope, "SELECT set_config('scopedb.scope_token', 'forged', false), set_config('work_mem', '77MB', false),"
                   " pg_advisory_lock(4242)")  # fmt: skip
    one.run(scope, "DECLARE held CURSOR WITH HOLD FOR SELECT 1")
    one.run(scope, "PREPARE kept AS SELECT 1")
    one.run(scope, "LISTEN tenant_channel")
    with one.scoped(scope) as s:
        s.execute("SET ROLE NONE")  # the session's role, the login, past the transaction
    state = _session_state(one, "current_setting('scopedb.scope_token', true), current_setting('work_mem'),"
                                " current_user::text, session_user::text")  # fmt: skip
    assert state[0] in (None, "")
    assert state[1] != "77MB"
    assert state[2] == "scopedb_app" != state[3]  # the session's own role (its startup packet's), not the login
    assert state[4:] == (0, 0, 0, 0)


def test_a_session_without_pinned_transaction_defaults_keeps_begin_and_commit(tenants: Tenants) -> None:
    """Without prepared statements (a PgBouncer that carries neither them nor startup options) nothing fixes what
    a session's transactions start as, so a request says it with BEGIN and ends with COMMIT: six statements."""
    db = tenants.one_connection(prepared_statements=False)
    try:
        scope = tenants.scope("acme/api")
        db.run(scope, "SELECT 1")
        statements: list[int] = []
        with counted_round_trips(db, statements) as trips:
            one_row = db.run(scope, "SELECT current_setting('transaction_isolation'), current_user::text")
        assert (trips, statements) == ([1], [6])
        assert one_row.rows == [("read committed", "scopedb_app")]
    finally:
        db.close()


def test_the_pipelined_cleanup_does_what_the_simple_one_does() -> None:
    """scopedb.clean_session (inside the transaction, for pipelines) and end_cleanup (after it, one string) are
    two spellings of one cleanup: the same commands, in sql/03_functions.sql and sql/queries/session.sql."""
    body = (sqlfiles.resource_dir("sql") / "03_functions.sql").read_text()
    body = body[body.index("CREATE FUNCTION scopedb.clean_session(") :]
    body = body[: body.index("$$;")]
    commands = {"CLOSE ALL", "RESET ALL", "RESET ROLE", "WHERE p.from_sql", "DEALLOCATE %I", "DISCARD SEQUENCES",
                "UNLISTEN *", "pg_advisory_unlock_all()", "pg_db_role_setting",
                "FROM pg_catalog.pg_prepared_statements AS p ORDER BY p.name"}  # fmt: skip
    simple = sqlfiles.query("session", "end_cleanup")
    assert {c for c in commands if c in simple} == commands
    assert {c for c in commands if c in body} == commands


def test_a_scoped_block_costs_entry_statements_and_end(one: Database, tenants: Tenants) -> None:
    # The first use of one of scopedb's statements on a connection prepares it, which outside a pipeline waits for
    # the server's answer to the Parse: one more round trip, once per statement and connection.
    with counted_round_trips(one) as trips, one.scoped(tenants.scope("acme/api")) as s:
        s.execute("SELECT 1")
        s.search_text("refresh")
    assert trips == [5]
    with counted_round_trips(one) as trips, one.scoped(tenants.scope("acme/api")) as s:
        s.execute("SELECT 1")
        s.search_text("refresh")
    assert trips == [4]  # entry, two statements, the end
    for expected in (4, 3):  # prepared on first use, as above
        with counted_round_trips(one) as trips, one.scoped(tenants.scope("acme/api")) as s:
            s.search_vector([1.0] + [0.0] * (DIM - 1), limit=3)  # the embedding width is known since the pool opened
        assert trips == [expected]


def test_run_refuses_and_fails_like_a_scoped_block(one: Database, tenants: Tenants) -> None:
    scope = tenants.scope("acme/api")
    with pytest.raises(PermissionDeniedError):
        one.run(scope, "DELETE FROM scopedb.fragments")
    with pytest.raises(QueryError):
        one.run(scope, "SELECT no_such_column FROM scopedb.fragments")
    assert one.run(scope, "SELECT count(*) FROM scopedb.fragments WHERE project_id = %s", (tenants.b.id,)).scalar() == 0
    # The failures were rolled back and the connection cleaned: the next request on it is an ordinary one.
    with counted_round_trips(one) as trips:
        assert one.run(scope, "SELECT count(*) FROM scopedb.fragments").scalar() == 7
    assert trips == [1]
    with pytest.raises(PermissionDeniedError):
        one.run(scope, "INSERT INTO scopedb.fragments (project_id, id, content) VALUES (%s, 'x', 'planted')",
                (tenants.b.id,))  # fmt: skip
    assert tenants.admin_rows("fragments", f"project_id = {tenants.b.id} AND id = 'x'") == []


def test_run_commits_writes(one: Database, tenants: Tenants) -> None:
    written = one.run(tenants.scope("acme/api"), "INSERT INTO scopedb.fragments (project_id, id, content) "
                      "VALUES (%s, 'run-1', 'written by run') RETURNING id", (tenants.a.id,))  # fmt: skip
    assert written.rows == [("run-1",)]
    assert tenants.admin_rows("fragments", "id = 'run-1'") != []


@pytest.mark.parametrize(
    "statement",
    [
        'SELECT id, content AS "inhalt ä", 1 + 1 FROM scopedb.fragments ORDER BY id LIMIT 2',
        "SELECT",  # rows of no columns
        "SELECT id FROM scopedb.fragments WHERE false",  # columns, no rows
        "UPDATE scopedb.fragments SET tier = tier WHERE false",  # a command: no columns at all
    ],
)
def test_results_name_their_columns_as_the_driver_describes_them(
    one: Database, tenants: Tenants, statement: str
) -> None:
    """The requests read the column names from the result itself (scopedb.steps.column_names), not from
    psycopg's description; both must say the same, in ``run`` and in a scoped block, for every kind of result."""
    scope = tenants.scope("acme/api")
    with app_connection(tenants.db) as conn, conn.cursor() as cur:  # the driver's own view, as the app
        tenants.db.enter_scope(conn, scope)
        cur.execute(statement)
        described = None if cur.description is None else tuple(c.name for c in cur.description)
        expected_rows = cur.fetchall() if cur.description is not None else []
    for result in (one.run(scope, statement), _in_block(one, scope, statement)):
        assert result.columns == (described or ())
        assert result.rows == expected_rows


#: A caller's statements as run() sends them on a kept scope (scopedb.wire.bind_caller reads the placeholders, the
#: connection's adapters dump the parameters, the rows come back in text as a cursor's do), against a cursor's.
CALLER_STATEMENTS: list[tuple[str, Any]] = [
    ("SELECT %s::int + %s::int, %s::text", (1, 2, "x")),
    ("SELECT %(a)s::text || %(a)s::text, %(b)s::int", {"a": "ab", "b": 3, "unused": 4}),
    ("SELECT '100%%', %s::int", (5,)),
    ("SELECT '100%'", None),  # no parameters: the text as it is
    ("SELECT '100%%'", ()),  # parameters, none used: %% is a percent sign
    ("SELECT %b::int, %t::int, %(x)s", None),  # no parameters: not placeholders either (the server refuses it)
    ("SELECT %s::jsonb -> 'k', %s::numeric, %s::int[], %s::date", ('{"k": [1, 2]}', "1.50", [1, 2], "2026-12-07")),
    ("SELECT %s::text IS NULL", (None,)),
    ("SELECT '[1,2]'::vector, '{\"a\": 1}'::json", None),
    ("SELECT id FROM scopedb.fragments WHERE id = %s", ("no-such-id",)),
    ("SELECT id, tier FROM scopedb.fragments WHERE project_id = %(p)s ORDER BY id", {"p": 1}),
    ("UPDATE scopedb.fragments SET tier = tier WHERE id LIKE %s", ("%",)),
    ("SELECT %s, %s", (1,)),  # a placeholder short: psycopg's error
    ("SELECT %x", (1,)),  # not a placeholder: psycopg's error
    ("SELECT %s, %(a)s", {"a": 1}),  # both kinds: psycopg's error
    ("SELECT 1/0", None),
]


@pytest.mark.parametrize(("statement", "params"), CALLER_STATEMENTS)
def test_run_answers_a_caller_s_statement_as_a_cursor_does(
    one: Database, tenants: Tenants, statement: str, params: Any
) -> None:
    scope = tenants.scope("acme/api")
    outcomes: list[Any] = []
    for attempt in ("block", "run", "run again"):  # run() is on a kept scope: the request path's own statements
        try:
            result = (
                _in_block(one, scope, statement, params) if attempt == "block" else one.run(scope, statement, params)
            )
            outcomes.append((result.columns, result.rows, result.rowcount))
        except ScopedbError as exc:
            outcomes.append((type(exc), exc.sqlstate))
    assert outcomes[0] == outcomes[1] == outcomes[2], statement
    assert one.run(scope, "SELECT count(*) FROM scopedb.fragments").scalar() == 7  # cleaned, and in scope


def _in_block(db: Database, scope: ResourceScope, statement: str, params: Any = None) -> Any:
    with db.scoped(scope) as s:
        return s.execute(statement, params)


def test_a_kept_token_that_no_longer_verifies_is_replaced_within_the_same_call(one: Database, tenants: Tenants) -> None:
    scope = tenants.scope("acme/api")
    assert one.run(scope, "SELECT count(*) FROM scopedb.fragments").scalar() == 7
    admin = tenants.db.admin()
    old = admin.active_signing_key()
    assert old is not None
    admin.rotate_signing_key()
    admin.retire_signing_key(old.key_id)  # the kept token was signed with it
    assert one.run(scope, "SELECT count(*) FROM scopedb.fragments").scalar() == 7


def test_the_async_run_is_the_same_path(tenants: Tenants) -> None:
    bridge = AsyncBridge(tenants.db)
    try:
        scope = tenants.scope("acme/api")
        rows = bridge.runner.run(bridge.db.run(scope, "SELECT project_id FROM scopedb.fragments"))
        assert {pid for (pid,) in rows.rows} == {tenants.a.id}
        again = bridge.runner.run(bridge.db.run(scope, "SELECT project_id FROM scopedb.fragments"))
        assert again.rows == rows.rows
    finally:
        bridge.close()


def test_ingest_then_run_sees_the_new_rows(one: Database, tenants: Tenants) -> None:
    with one.scoped(tenants.scope("acme/api")) as s:
        s.ingest_fragments([Fragment(project="acme/api", id="new", content="fresh")])
    assert (
        one.run(tenants.scope("acme/api"), "SELECT content FROM scopedb.fragments WHERE id = 'new'").scalar() == "fresh"
    )


def test_a_search_is_one_round_trip_on_a_kept_scope_and_two_on_a_new_one(one: Database, tenants: Tenants) -> None:
    scope = ResourceScope(project_names={"acme/api", "beta/web"}, include_paths={"**"})  # a scope not entered yet
    with counted_round_trips(one) as trips:
        fresh = one.search_text(scope, "refresh token")
    assert trips == [2]  # the entry; the search with the commit and the cleanup
    with counted_round_trips(one) as trips:
        kept = one.search_text(scope, "refresh token")
    assert trips == [1]  # the search travels with the reentry
    with one.scoped(scope) as s:
        assert s.search_text("refresh token") == fresh == kept
    unit = [1.0] + [0.0] * (DIM - 1)
    with counted_round_trips(one) as trips:
        nearest = one.search_vector(scope, unit, limit=5)
        graph = one.search_graph(scope, "start", depth=2)
    assert trips == [2]
    with one.scoped(scope) as s:
        assert s.search_vector(unit, limit=5) == nearest
        assert s.search_graph("start", depth=2) == graph


def test_a_kept_search_request_sends_two_statements_and_leaves_the_session_as_it_found_it(
    one: Database, tenants: Tenants
) -> None:
    """A search request is scopedb's own statement, which changes nothing past its transaction: the reentry and
    the search (the implicit transaction of the pipeline, which its Sync commits; the session is scopedb_app by its
    startup packet), without the cleanup run() sends (clean_session). The session afterwards is
    the one before it, setting for setting: the searches' settings (hnsw.*, enable_sort, plan_cache_mode, the
    pinned planner settings, search_path, the scope token) were transaction-local."""
    scope = tenants.scope("acme/api")
    unit = [1.0] + [0.0] * (DIM - 1)
    searches: dict[str, Callable[[], object]] = {
        "text": lambda: one.search_text(scope, "refresh token"),
        "vector": lambda: one.search_vector(scope, unit, limit=3),
        "graph": lambda: one.search_graph(scope, "start", depth=2),
    }
    # Keeps the scope (with its names): every search below is one round trip. The cast loads pgvector's library,
    # whose settings (hnsw.*, ivfflat.*) pg_settings lists from then on, at their defaults.
    one.run(scope, "SELECT '[1,0]'::vector")
    before = _session_state(one, _ROLE_AND_SETTINGS)  # after run()'s cleanup: the session a request starts from
    assert before[0] == "scopedb_app" != before[1]  # the session's own role, the startup packet's
    for kind, search in searches.items():
        statements: list[int] = []
        with counted_round_trips(one, statements) as trips:
            search()
        assert (trips, statements) == ([1], [2]), kind
        assert _session_state(one, _ROLE_AND_SETTINGS) == before, kind
    # A statement of the caller's own is still followed by the cleanup (run: three statements).
    statements = []
    with counted_round_trips(one, statements):
        one.run(scope, "SELECT 1")
    assert statements == [3]


def test_a_request_refuses_bad_arguments_before_sending_and_translates_errors(one: Database, tenants: Tenants) -> None:
    scope = tenants.scope("acme/api")
    one.search_text(scope, "warm")  # keep the scope
    with counted_round_trips(one) as trips, pytest.raises(InvalidArgumentError):
        one.search_text(scope, "x", limit=-1)
    assert trips == [0]
    with pytest.raises(InvalidArgumentError, match="unknown text-search configuration"):
        one.search_text(scope, "x", config="no_such_config")
    with pytest.raises(InvalidArgumentError, match="unknown text-search configuration"):
        one.search_text(ResourceScope(project_names={"acme/api"}, include_paths={"src/**"}), "x", config="nope")
    assert one.run(scope, "SELECT count(*) FROM scopedb.fragments").scalar() == 7  # the connection was cleaned


_OWN_STATEMENTS = (
    "SELECT statement, generic_plans + custom_plans FROM pg_prepared_statements"
    " WHERE name LIKE '\\_scopedb\\_%' ORDER BY name"
)


def test_a_kept_search_runs_on_the_request_path_s_own_prepared_statements(one: Database, tenants: Tenants) -> None:
    """A kept-scope search request is sent through libpq without psycopg's cursors (scopedb.wire): the reentry and
    the search, prepared once per session under scopedb's names and run from then on."""
    scope = tenants.scope("acme/api")
    own = (("session", "reenter_scope"), ("session", "clean_session"), ("retrieval", "search_text"))
    reentry, clean, search = (wire.convert(sqlfiles.query(*name)).sql.decode() for name in own)
    one.run(scope, "SELECT 1")  # run() on a kept scope: the same path, with the cleanup after the statement
    before = dict(one.run(scope, _OWN_STATEMENTS).rows)
    assert set(before) == {reentry, clean}
    first = one.search_text(scope, "refresh token")
    again = [one.search_text(scope, "refresh token") for _ in range(3)]
    assert again == [first] * 3
    runs = dict(one.run(scope, _OWN_STATEMENTS).rows)
    assert runs == {reentry: before[reentry] + 5, clean: before[clean] + 1, search: 4}


def test_a_kept_search_whose_statement_is_gone_is_sent_again_the_driver_s_way(one: Database, tenants: Tenants) -> None:
    """The request path believes a statement prepared that the session no longer has (nothing scopedb lets a tenant
    do leaves it so: a tenant that removes one loses the connection, tests/adversarial/test_kept_statements.py).
    The search fails on the server, is sent again through psycopg's cursors, and answers as before; the next one
    prepares the statements afresh."""
    scope = tenants.scope("acme/api")
    expected = one.search_text(scope, "refresh token")
    assert one.search_text(scope, "refresh token") == expected
    backend = one.run(scope, "SELECT pg_backend_pid()").scalar()
    with one._pool().connection() as conn:
        registry = wire.prepared(conn)
        assert len(registry.names) == 3  # the reentry, the search, run()'s cleanup
        registry.names = dict.fromkeys(registry.names, b"_scopedb_gone")
        CLEAN.add(conn)
    assert one.search_text(scope, "refresh token") == expected
    with one._pool().connection() as conn:
        assert wire.prepared(conn).names == {}
        CLEAN.add(conn)
    assert one.search_text(scope, "refresh token") == expected
    # The same session: no statement of the driver's went missing, and scopedb forgot its own before the cleanup
    # checked. It holds the first three statements, the reentry and search prepared again, and the cleanup
    # prepared again by the first run() below.
    assert one.run(scope, "SELECT pg_backend_pid()").scalar() == backend
    assert len(one.run(scope, _OWN_STATEMENTS).rows) == 6


def test_a_block_enters_through_the_request_path_s_own_prepared_statements(one: Database, tenants: Tenants) -> None:
    """A scoped block's entry (BEGIN and the entry or reentry) also goes through libpq without psycopg's cursors:
    prepared once per session under scopedb's names, run from then on, and the block is in its scope."""
    scope = tenants.scope("acme/api")
    for _ in range(3):
        with one.scoped(scope) as s:
            assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 7
            assert s.execute("SELECT count(*) FROM scopedb.projects").scalar() == 1
    names = (("session", "begin"), ("session", "enter_scope"), ("session", "reenter_scope"))
    begin, enter, reentry = (wire.convert(sqlfiles.query(*name)).sql.decode() for name in names)
    runs = dict(one.run(scope, _OWN_STATEMENTS).rows)
    # Every block reentered a token resolved where it was signed (the fixture's projects are known to the
    # process), and so did run() just now; none needed the database to resolve names (test_the_async_kept_search
    # has one that does).
    assert [runs.get(text) for text in (begin, enter, reentry)] == [3, None, 4]


def test_the_request_path_forgets_its_statements_when_psycopg_deallocates_them_all(
    one: Database, tenants: Tenants
) -> None:
    """psycopg answers a ROLLBACK by removing every prepared statement of the session (DEALLOCATE ALL) when it holds
    any of its own, after the cleanup has listed them: scopedb's are gone with them, and it must not believe them
    prepared. A failed block ends with ROLLBACK; the next requests prepare scopedb's statements afresh, on the
    same session, and answer as before."""
    scope = tenants.scope("acme/api")
    for _ in range(6):  # psycopg prepares a statement on its fifth run: it then holds some of its own
        with one.scoped(scope) as s:
            s.execute("SELECT count(*) FROM scopedb.fragments WHERE id <> %s", ("x",))
    backend = one.run(scope, "SELECT pg_backend_pid()").scalar()
    with pytest.raises(QueryError), one.scoped(scope) as s:
        s.execute("SELECT 1/0")
    with one._pool().connection() as conn:
        believed = wire.statement_names(conn)
        present = {row[0] for row in conn.execute("SELECT name FROM pg_prepared_statements").fetchall()}
        conn.rollback()
        CLEAN.add(conn)
    assert believed <= present, believed - present
    assert one.run(scope, "SELECT count(*) FROM scopedb.fragments").scalar() == 7
    assert one.run(scope, "SELECT pg_backend_pid()").scalar() == backend
    with one.scoped(scope) as s:
        assert s.execute("SELECT pg_backend_pid()").scalar() == backend


def test_a_block_that_rolls_back_to_a_savepoint_keeps_its_connection(one: Database, tenants: Tenants) -> None:
    """``ROLLBACK TO SAVEPOINT`` inside a block is a ROLLBACK to psycopg, which then removes every prepared statement
    of the session, scopedb's own with them: scopedb forgets its names there and then, so the block's end finds
    nothing missing it still believes in, and the connection is kept (not discarded as if a tenant had removed
    them), its next requests preparing scopedb's statements afresh."""
    scope = tenants.scope("acme/api")
    for _ in range(6):  # psycopg prepares a statement on its fifth run: it then holds some of its own
        with one.scoped(scope) as s:
            s.execute("SELECT count(*) FROM scopedb.fragments WHERE id <> %s", ("x",))
    backend = one.run(scope, "SELECT pg_backend_pid()").scalar()
    with one.scoped(scope) as s:
        s.execute("SAVEPOINT before_the_write")
        s.execute("UPDATE scopedb.fragments SET tier = tier WHERE id <> %s", ("x",))
        s.execute("ROLLBACK TO SAVEPOINT before_the_write")
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 7
    assert one.run(scope, "SELECT pg_backend_pid()").scalar() == backend
    with one.scoped(scope) as s:
        assert s.execute("SELECT pg_backend_pid()").scalar() == backend
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 7


def test_the_async_kept_search_is_the_same_path(tenants: Tenants) -> None:
    bridge = AsyncBridge(tenants.db)
    try:
        scope = tenants.scope("acme/api")
        unit = [1.0] + [0.0] * (DIM - 1)
        first = bridge.runner.run(bridge.db.search_vector(scope, unit, limit=3))
        again = bridge.runner.run(bridge.db.search_vector(scope, unit, limit=3))
        assert again == first == tenants.db.search_vector(scope, unit, limit=3)
        runs = dict(bridge.runner.run(bridge.db.run(scope, _OWN_STATEMENTS)).rows)
        # Under scopedb's names: the first search entered its new scope in a scoped block, whose BEGIN and entry
        # went on the wire too (its search through psycopg's cursor); then the reentry (the second search's and
        # this run's) and the nearest statement (the second search's).
        names = (
            ("session", "begin"),
            ("session", "enter_scope"),
            ("session", "reenter_scope"),
            ("retrieval", "nearest"),
        )
        begin, enter, reentry, nearest = (wire.convert(sqlfiles.query(*name)).sql.decode() for name in names)
        assert runs == {begin: 1, enter: 1, reentry: 2, nearest: 1}, runs
    finally:
        bridge.close()
