"""Catalogue #90: change the scope's setting part way through a statement.

Each scope accessor a policy reads is an InitPlan, evaluated lazily: when a row first reaches its term, not when
the statement starts. A statement that calls ``set_config('scopedb.scope_token', ...)`` between rows (here in a
LATERAL subquery a nested loop runs once per outer row) has the terms first reached before the change read the
scope, and those first reached after it read whatever the setting holds then. With the setting cleared, an
accessor that answered "no scope" with a permissive value would let rows through: ``scope_filters_content``
answered false ("no patterns"), so a scope narrowed by resource and path let the statement read the paths it
excludes (found in a review of revision 0019). Its sibling: the exclude accessors answered NULL ("excludes
nothing") with no scope, so a name exclude first read after the change let the excluded names through. Every
accessor now fails closed on its own.

And the attack with a second valid token instead of none: a tenant holding a narrowed token of project A and a
whole one of project B took the project ids from the first and the (absent) resource filter from the second, and
read A's hidden resources. The read policies now take every term of a row's check from one composite
(scopedb.scope_terms) read once per statement, whatever the setting holds afterwards: a row that reaches the full
check is judged by one token. (So after the switch the statement may go on reading what the first token admits:
what it read under that token's InitPlan, not more.) Revision 0020 gives every other policy that tests more than
one term the same form: the writes, the owner's mirrors, and the policies protect_table makes. On a protected
service table the same statement, and a cursor fetched across the switch, read the tickets A's token hides until
then (both tests fail on 0019's protect_table).
"""

from __future__ import annotations

from typing import Any

from scopedb import Fragment
from scopedb.session import ScopedSession
from tests.conftest import Tenants, make_service_table


def _token(s: ScopedSession) -> str:
    """The token the session's setting holds now (the scope's own, or what a statement switched it to)."""
    return str(s.execute("SELECT pg_catalog.current_setting('scopedb.scope_token')").scalar())


# Outer row 1 keeps the scope and reads rows of a resource the scope hides: they fail the resource term, so the
# project, time and resource InitPlans are evaluated then, and the pattern term is never reached. Outer row 2 clears
# the setting, then reads the resource the scope admits: only the pattern term's InitPlans are evaluated now.
SWITCH = """
SELECT v.n, c.setting, x.id, x.path
  FROM (VALUES (1), (2)) AS v (n)
 CROSS JOIN LATERAL (SELECT CASE WHEN v.n = 2 THEN pg_catalog.set_config('scopedb.scope_token', %(token)s, true)
                                 ELSE pg_catalog.current_setting('scopedb.scope_token') END AS setting
                     OFFSET 0) AS c
 CROSS JOIN LATERAL (SELECT f.id, f.path FROM scopedb.fragments AS f
                      WHERE f.project_id = %(project)s
                        AND f.resource_id = CASE v.n WHEN 1 THEN %(hidden)s ELSE %(admitted)s END
                        AND c.setting IS NOT NULL
                     OFFSET 0) AS x
 ORDER BY v.n, x.id
"""


def _switch(tenants: Tenants, token: str | None) -> tuple[list[tuple[Any, ...]], set[str], str]:
    """The rows the switching statement reads, the paths the scope admits, and the scope's own token."""
    scope = tenants.scope("acme/api", resource_ids={tenants.resources["a1"].id}, exclude_paths={"src/a1/file0.py"})
    with tenants.scoped(scope) as s:
        admitted = {r[0] for r in s.execute("SELECT path FROM scopedb.fragments")}
        own = _token(s)
        rows = s.execute(SWITCH, {"token": own if token is None else token, "project": tenants.a.id,
                                  "hidden": tenants.resources["a2"].id,
                                  "admitted": tenants.resources["a1"].id}).rows  # fmt: skip
    return rows, admitted, own


def test_90_clearing_the_scope_mid_statement_admits_nothing_more(tenants: Tenants) -> None:
    rows, admitted, _ = _switch(tenants, "")
    assert admitted == {"src/a1/file1.py", "src/a1/file2.py"}  # the scope's narrowing, read plainly
    assert all(r[1] == "" for r in rows if r[0] == 2)  # the setting really was cleared before the second scan
    assert [r for r in rows if r[0] == 1] == []  # the hidden resource stays hidden, scope or not
    assert {r[3] for r in rows} <= admitted  # nothing the scope excludes: no src/a1/file0.py


def test_90_control_the_same_statement_keeping_the_scope_reads_what_the_scope_admits(tenants: Tenants) -> None:
    """The statement reaches the rows at all: with the setting set to the scope's own token on the second row, it
    returns exactly the admitted paths of the admitted resource (so the test above tests the switch)."""
    rows, admitted, _ = _switch(tenants, None)
    assert {r[3] for r in rows if r[0] == 2} == admitted


# The sibling in the patterns themselves. The pattern terms run in a fixed order (path include, path exclude, name
# include, name exclude), so a row that fails one never reaches the next. Outer row 1 reads a fragment whose name
# fails the name include, so the name exclude is not reached; outer row 2 clears the setting and reads fragments
# whose names pass the include read before: the name exclude is read now, with no scope. It answered NULL
# ("excludes nothing"), and the excluded name came back. (The path exclude is followed by the name include, which
# a row 1 can only reach after the path exclude, so there the next term's '{}' already hid the rows.)
SWITCH_IN_PATTERNS = """
SELECT v.n, x.id, x.fqn
  FROM (VALUES (1), (2)) AS v (n)
 CROSS JOIN LATERAL (SELECT CASE WHEN v.n = 2 THEN pg_catalog.set_config('scopedb.scope_token', '', true)
                                 ELSE 'kept' END AS setting
                     OFFSET 0) AS c
 CROSS JOIN LATERAL (SELECT f.id, f.fqn FROM scopedb.fragments AS f
                      WHERE f.project_id = %(project)s
                        AND f.id = ANY (CASE v.n WHEN 1 THEN %(first)s::text[] ELSE %(second)s::text[] END)
                        AND c.setting IS NOT NULL
                     OFFSET 0) AS x
 ORDER BY v.n, x.id
"""


def test_90_an_exclude_read_with_no_scope_excludes_everything(tenants: Tenants) -> None:
    """The rows each outer row reads are picked by primary key (an index condition), so only they meet the policy:
    a filter the policy runs before would let every row of the project reach every term on the first pass."""
    with tenants.scoped(tenants.scope("acme/api")) as s:
        names = ("other::x", "acme::api::Public", "acme::api::Secret")
        other, public, secret = s.add_fragments([Fragment(project="acme/api", content=n, fqn=n) for n in names])
    scope = tenants.scope("acme/api", include_names={"acme::**"}, exclude_names={"acme::api::Secret"})
    params = {"project": tenants.a.id, "first": [other], "second": [public, secret]}
    with tenants.scoped(scope) as s:
        admitted = {r[0] for r in s.execute("SELECT fqn FROM scopedb.fragments")}
        rows = s.execute(SWITCH_IN_PATTERNS, params).rows
        assert _token(s) == ""
    assert admitted == {"acme::api::Public"}
    assert {r[2] for r in rows} <= admitted  # never acme::api::Secret
    with tenants.scoped(scope) as s:  # control: keeping the scope, the same statement reads the admitted name
        kept = s.execute(SWITCH_IN_PATTERNS.replace("pg_catalog.set_config('scopedb.scope_token', '', true)",
                                                    "'kept'"), params).rows  # fmt: skip
    assert [r[2] for r in kept] == ["acme::api::Public"]


# The two-token form. Outer row 1 reads project B's rows under A's narrowed token: they fail the project term, so
# (with one InitPlan per accessor) only the project ids were read, from A's token. Outer row 2 switches the setting
# to B's whole token and reads A's rows of the resource A's token hides.
SWITCH_TOKENS = """
SELECT v.n, x.id, x.resource_id
  FROM (VALUES (1), (2)) AS v (n)
 CROSS JOIN LATERAL (SELECT CASE WHEN v.n = 2 THEN pg_catalog.set_config('scopedb.scope_token', %(other)s, true)
                                 ELSE 'kept' END AS setting
                     OFFSET 0) AS c
 CROSS JOIN LATERAL (SELECT f.id, f.resource_id FROM scopedb.fragments AS f
                      WHERE f.project_id = CASE v.n WHEN 1 THEN %(b)s ELSE %(a)s END
                        AND (v.n = 1 OR f.resource_id = %(hidden)s)
                        AND c.setting IS NOT NULL
                     OFFSET 0) AS x
 ORDER BY v.n, x.id
"""


def test_90_a_second_valid_token_mid_statement_adds_none_of_its_terms(tenants: Tenants) -> None:
    with tenants.scoped(tenants.scope("beta/web")) as s:
        other = _token(s)
    scope = tenants.scope("acme/api", resource_ids={tenants.resources["a1"].id})
    params = {"other": other, "a": tenants.a.id, "b": tenants.b.id, "hidden": tenants.resources["a2"].id}
    with tenants.scoped(scope) as s:
        rows = s.execute(SWITCH_TOKENS, params).rows
        assert _token(s) == other
        # Control: B's token really is valid and whole, so a statement that starts with it reads B's rows.
        assert s.execute("SELECT count(*) FROM scopedb.fragments WHERE project_id = %s", (tenants.b.id,)).scalar() > 0
    assert [r for r in rows if r[2] == tenants.resources["a2"].id] == []  # A's hidden resource stays hidden
    assert [r for r in rows if r[0] == 1] == []  # and B's rows were never A's token's to read


# The same attack on a service's table protected with protect_table, whose policies read separate accessors
# until revision 0020. Outer row 1 reads B's tickets under A's narrowed token (they fail the project term); outer
# row 2 switches to B's whole token and reads A's tickets, which A's token hides (it admits resource a2 only, and
# A's tickets have no resource or a1).
SWITCH_TICKETS = """
SELECT v.n, x.title
  FROM (VALUES (1), (2)) AS v (n)
 CROSS JOIN LATERAL (SELECT CASE WHEN v.n = 2 THEN pg_catalog.set_config('scopedb.scope_token', %(other)s, true)
                                 ELSE 'kept' END AS setting
                     OFFSET 0) AS c
 CROSS JOIN LATERAL (SELECT t.title FROM support.tickets AS t
                      WHERE t.project_id = CASE v.n WHEN 1 THEN %(b)s ELSE %(a)s END
                        AND c.setting IS NOT NULL
                     OFFSET 0) AS x
 ORDER BY v.n, x.title
"""


def test_90_a_protected_table_takes_no_term_from_a_second_token(tenants: Tenants) -> None:
    make_service_table(tenants)
    with tenants.scoped(tenants.scope("beta/web")) as s:
        other = _token(s)
        b_titles = {r[0] for r in s.execute("SELECT title FROM support.tickets")}
    scope = tenants.scope("acme/api", resource_ids={tenants.resources["a2"].id})
    params = {"other": other, "a": tenants.a.id, "b": tenants.b.id}
    with tenants.scoped(scope) as s:
        assert s.execute("SELECT count(*) FROM support.tickets").scalar() == 0  # A's token hides every ticket
        rows = s.execute(SWITCH_TICKETS, params).rows
        assert _token(s) == other
    assert [r for r in rows if r[0] == 2] == []  # none of A's tickets
    assert [r for r in rows if r[0] == 1] == []  # and none of B's, read under A's token
    # Control: the statement does reach A's tickets on its second row. Entered with A's whole token and switching
    # to that same token, it reads A's three tickets there (and none of B's on the first).
    with tenants.scoped(tenants.scope("acme/api")) as s:
        whole = _token(s)
        kept = s.execute(SWITCH_TICKETS, {**params, "other": whole}).rows
    assert len(b_titles) == 3
    assert [r for r in kept if r[0] == 1] == []
    assert len([r for r in kept if r[0] == 2]) == 3


# The switch between two fetches of one cursor instead of inside the statement: the portal keeps its InitPlans,
# and the setting changes between FETCHes. Row 1 (a placeholder, after reading B's tickets under A's token) is
# fetched first; then the setting becomes B's whole token, and the rest of the statement reads A's tickets.
CURSOR = """
DECLARE switch CURSOR FOR
SELECT v.n, x.title
  FROM (VALUES (1), (2)) AS v (n)
  LEFT JOIN LATERAL (SELECT t.title FROM support.tickets AS t
                      WHERE t.project_id = CASE v.n WHEN 1 THEN %(b)s ELSE %(a)s END
                     OFFSET 0) AS x ON true
"""


def test_90_a_cursor_fetched_across_a_token_switch_reads_under_one_token(tenants: Tenants) -> None:
    make_service_table(tenants)
    with tenants.scoped(tenants.scope("beta/web")) as s:
        other = _token(s)
    params = {"a": tenants.a.id, "b": tenants.b.id}
    scope = tenants.scope("acme/api", resource_ids={tenants.resources["a2"].id})
    with tenants.scoped(scope) as s:
        s.execute(CURSOR, params)
        first = s.execute("FETCH 1 FROM switch").rows
        s.execute("SELECT pg_catalog.set_config('scopedb.scope_token', %s, true)", (other,))
        rest = s.execute("FETCH ALL FROM switch").rows
    assert first == [(1, None)]  # B's tickets, read under A's token: none
    assert rest == [(2, None)]  # A's tickets, read after the switch: still judged by A's token, which hides them
    with tenants.scoped(tenants.scope("acme/api")) as s:  # control: unswitched, A's whole token reads them there
        s.execute(CURSOR, params)
        assert len([r for r in s.execute("FETCH ALL FROM switch").rows if r[0] == 2 and r[1] is not None]) == 3
