"""The driver's prepared statements outlive a scoped transaction (revision 0024), and nothing of a tenant rides on them.

A pooled application session keeps scopedb's own fixed statements prepared from request to request (the entry, the
end, the searches): they save every later request their parsing and planning. Two things could go wrong, and each
has a test here that fails if its guard is removed:

- a statement's text is readable by whoever uses the session next (``pg_prepared_statements``), so a caller's SQL,
  which may carry a tenant's literals, must never be kept there;
- SQL cannot prepare a statement under the driver's names, but it can remove one (``DEALLOCATE``, inside a function
  out of the driver's sight) and prepare its own under the freed name: the driver would then send the next
  tenant's entry to a name that is gone, or that now runs the attacker's text. The cleanup names what is left, and
  a connection that lost one of the driver's statements is discarded, not lent out.
"""

from __future__ import annotations

import contextlib
import re

import pytest

from scopedb import Database, sqlfiles
from scopedb.entry import BEGIN_AS_APP
from scopedb.errors import QueryError
from tests.conftest import Tenants

LITERAL = "tenant-literal-7731"
_PLACEHOLDER = re.compile(r"%\(([a-z_][a-z0-9_]*)\)[sbt]|%[sbt]")


def _as_sent(text: str) -> str:
    """A statement's text as the driver sends it: each placeholder numbered ($1, $2...) by first appearance."""
    numbers: dict[str, int] = {}

    def number(match: re.Match[str]) -> str:
        key = match.group(1) or f"#{len(numbers)}"
        return f"${numbers.setdefault(key, len(numbers) + 1)}"

    return _PLACEHOLDER.sub(number, text)


def _kept(db: Database, tenants: Tenants) -> list[tuple[bool, str, int]]:
    """The prepared statements the session holds, as the next request sees them: (from_sql, text, executions)."""
    rows = db.run(
        tenants.scope("beta/web"),
        "SELECT from_sql, statement, generic_plans + custom_plans FROM pg_prepared_statements ORDER BY name",
    ).rows
    return [(bool(r[0]), str(r[1]), int(r[2])) for r in rows]


def test_the_session_keeps_scopedb_s_own_statements_and_never_a_caller_s_text(one: Database, tenants: Tenants) -> None:
    scope = tenants.scope("acme/api")
    for _ in range(8):
        one.run(scope, f"SELECT count(*) FROM scopedb.fragments WHERE content <> '{LITERAL}'")
        one.search_text(scope, "refresh")
        one.search_graph(scope, "start", depth=2)
        with one.scoped(scope) as s:
            s.execute(f"SELECT '{LITERAL}'")
            s.search_text("refresh token")
    kept = _kept(one, tenants)
    texts = [text for _, text, _ in kept]
    assert not [text for text in texts if LITERAL in text]
    assert not [from_sql for from_sql, _, _ in kept if from_sql]
    own = {*BEGIN_AS_APP, "COMMIT"} | {_as_sent(sqlfiles.query(*name)) for name in sqlfiles.KEPT}
    assert [text for text in texts if text not in own] == []
    # And they are kept and reused: the reentry has run once per request (each a fresh transaction), all of them
    # through the one statement prepared for it.
    reentry = _as_sent(sqlfiles.query("session", "reenter_scope"))
    assert reentry in texts
    assert dict((text, runs) for _, text, runs in kept)[reentry] >= 16


def test_scopedb_s_own_statement_sent_through_execute_is_kept_and_a_caller_s_is_not(
    one: Database, tenants: Tenants
) -> None:
    """The rule is the text, not the door: the graph walk sent word for word through ``execute`` is the statement
    ``search_graph`` keeps, and is kept the same way; a caller's text beside it, literal and all, is not."""
    walk = sqlfiles.query("retrieval", "graph_walk")
    with one.scoped(tenants.scope("acme/api")) as s:
        params = {"projects": list(s.project_ids), "start": ["start"], "depth": 2, "relations": None}
        for _ in range(3):
            s.execute(walk, params)
            s.execute(f"SELECT '{LITERAL}', %(depth)s::integer", {"depth": 2})
    runs = {text: n for _, text, n in _kept(one, tenants)}
    assert runs.get(_as_sent(walk)) == 3
    assert not [text for text in runs if LITERAL in text]


def test_without_prepared_statements_the_session_keeps_none(tenants: Tenants) -> None:
    db = tenants.one_connection(prepared_statements=False)
    try:
        for _ in range(8):
            db.search_text(tenants.scope("acme/api"), "refresh")
        assert _kept(db, tenants) == []
    finally:
        db.close()


def _take_over_own(text_like: str, replacement: str) -> str:
    """A tenant's statement that removes the one statement scopedb.wire prepared (under scopedb's names) whose text
    is LIKE ``text_like``, and prepares its own under the freed name (``PREPARE name`` + ``replacement``)."""
    return f"""
        DO $$
        DECLARE
            n text := (SELECT name FROM pg_prepared_statements
                        WHERE statement LIKE '{text_like}' AND name LIKE '\\_scopedb\\_%');
        BEGIN
            EXECUTE format('DEALLOCATE %I', n);
            EXECUTE format('PREPARE %I{replacement}', n);
        END $$
    """


#: What a tenant's SQL can do to the driver's statements: remove them all out of the driver's sight, or remove the
#: reentry's and prepare its own text under the freed name (which would answer the next tenant's reentry with
#: project ids of the attacker's choosing, were the connection lent out again).
ATTACKS = {
    "deallocate_all_in_a_function": """
        DO $$ BEGIN EXECUTE 'DEALLOCATE ALL'; END $$
    """,
    "take_over_the_reentry": """
        DO $$
        DECLARE
            n text;
        BEGIN
            FOR n IN SELECT name FROM pg_prepared_statements WHERE statement LIKE '%reenter_scope%' LOOP
                EXECUTE format('DEALLOCATE %I', n);
                EXECUTE format('PREPARE %I(text) AS SELECT ARRAY[1, 2]::bigint[], $1', n);
            END LOOP;
        END $$
    """,
    # The search requests' own reentry alone (prepared by scopedb.wire, under scopedb's names, not the driver's).
    "take_over_the_search_reentry": _take_over_own("%reenter_scope%", "(text) AS SELECT ARRAY[1, 2]::bigint[], $1"),
    # A scoped block's own BEGIN (prepared by scopedb.wire): replaced, the next block's entry would not begin a
    # transaction, and its statements would each run in one of their own, under no scope.
    "take_over_the_block_begin": _take_over_own("%BEGIN ISOLATION LEVEL%", " AS SELECT 1"),
}


@pytest.mark.parametrize("via", ["run", "scoped"])
@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_a_transaction_that_removes_a_driver_statement_loses_its_connection(
    one: Database, tenants: Tenants, attack: str, via: str
) -> None:
    a, b = tenants.scope("acme/api"), tenants.scope("beta/web")
    b_count = "SELECT count(*) FROM scopedb.fragments"
    for _ in range(3):  # the entry's statements are prepared, and kept
        expected_b = one.run(b, b_count).scalar()
        one.search_text(b, "refresh")
        with one.scoped(b) as s:
            assert s.execute(b_count).scalar() == expected_b
    backend = one.run(a, "SELECT pg_backend_pid()").scalar()
    assert one.run(a, "SELECT pg_backend_pid()").scalar() == backend  # control: a harmless request keeps it
    # Removing every statement removes the attacker's own end too: its request fails (and ends the long way).
    with contextlib.suppress(QueryError):
        if via == "run":  # the end pipelined with the statement (scopedb.clean_session)
            one.run(a, ATTACKS[attack])
        else:  # the end after the transaction (end_cleanup)
            with one.scoped(a) as s:
                s.execute(ATTACKS[attack])
    # B's next requests, on the pool's one connection: a new session, and B's own rows, as before.
    assert one.run(b, "SELECT pg_backend_pid()").scalar() != backend
    assert one.run(b, b_count).scalar() == expected_b
    assert one.search_text(b, "refresh") == one.search_text(b, "refresh")
    with one.scoped(b) as s:
        assert s.execute(b_count).scalar() == expected_b


def test_no_kept_statement_has_a_plan_shape_a_tenant_could_choose(one: Database, tenants: Tenants) -> None:
    """A kept statement's plan outlives the transaction that made it, perhaps under a tenant's planner settings
    (the sibling of #88, on the driver's statements): so no kept statement reads a table itself or can start
    workers. Each one's generic plan, explained as the application with every switch a tenant could flip towards
    scans and parallelism, calls functions only."""
    scope = tenants.scope("acme/api")
    for name in sqlfiles.KEPT:
        text = _as_sent(sqlfiles.query(*name))
        with one.scoped(scope) as s:
            s.execute("SET LOCAL parallel_setup_cost = 0; SET LOCAL parallel_tuple_cost = 0;"
                      " SET LOCAL min_parallel_table_scan_size = 0; SET LOCAL enable_indexscan = off")  # fmt: skip
            plan = "\n".join(str(row[0]) for row in s.execute(f"EXPLAIN (GENERIC_PLAN) {text}").rows)
        nodes = set(re.findall(r"(?:->\s+|^)([A-Z][A-Za-z ]+?)(?:\s+on\s|\s+\(|$)", plan, re.MULTILINE))
        assert nodes <= {"Result", "Function Scan", "Sort", "Limit", "Nested Loop", "CTE Scan", "Subquery Scan",
                         "ProjectSet"}, (name, plan)  # fmt: skip


def test_a_pooled_session_starts_with_jit_off_which_reset_all_returns_to(one: Database, tenants: Tenants) -> None:
    """A kept plan carries the JIT decision of the transaction that planned it; a session that starts with JIT
    off compiles nothing for it unless its own transaction turns JIT on."""
    scope = tenants.scope("acme/api")
    one.run(scope, "SET jit = on")  # a session-level SET, which the cleanup's RESET ALL undoes
    assert one.run(scope, "SELECT current_setting('jit')").scalar() == "off"
