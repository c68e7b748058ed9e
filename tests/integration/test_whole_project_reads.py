"""The read policies' first question (revision 0019): a scope that reads its projects whole — no resource named or
denied, no path or name pattern, and for fragments the current time — is judged by one accessor,
``scopedb.scope_whole_project_ids``; the full predicate, with its other accessors, runs for every other scope and
for rows the first question leaves undecided. The risk is a narrowed scope taken for a whole one (its narrowing
would be skipped), so every kind of narrowing is checked to get the empty answer, and to read what the full
predicate admits; and the cost it was made for is checked in the plan: one accessor run per statement."""

from __future__ import annotations

import datetime as dt
from typing import Any

import psycopg
import pytest

from scopedb import ResourceScope
from scopedb.errors import PermissionDeniedError
from scopedb.ids import new_ulid
from scopedb.ingest import EdgeIn, NodeIn
from scopedb.testing import app_connection
from tests.conftest import Tenants


def _narrowings(tenants: Tenants) -> dict[str, ResourceScope]:
    a1 = tenants.resources["a1"].id
    return {
        "resources": tenants.scope("acme/api", resource_ids={a1}),
        "denied": tenants.scope("acme/api", denied_resource_ids={a1}),
        "include_paths": tenants.scope("acme/api", include_paths={"src/a1/**"}),
        "exclude_paths": tenants.scope("acme/api", exclude_paths={"src/a1/**"}),
        "include_names": tenants.scope("acme/api", include_names={"acme::**"}),
        "exclude_names": tenants.scope("acme/api", exclude_names={"acme::**"}),
    }


BOTH = "SELECT scopedb.scope_whole_project_ids(true), scopedb.scope_whole_project_ids(false)"


def test_only_a_whole_scope_gets_its_project_ids(tenants: Tenants) -> None:
    with tenants.scoped(tenants.scope("acme/api")) as s:
        assert s.execute(BOTH).one() == ([tenants.a.id], [tenants.a.id])
    for name, scope in _narrowings(tenants).items():
        with tenants.scoped(scope) as s:
            assert s.execute(BOTH).one() == ([], []), name
    past = dt.datetime.now(dt.UTC) - dt.timedelta(days=1)
    for when in ("all", past):
        with tenants.scoped(tenants.scope("acme/api", temporal_scope=when)) as s:
            # Versions matter to fragments only: graph rows have none, so their policies may take the short answer.
            got = s.execute("SELECT scopedb.scope_whole_project_ids(true), scopedb.scope_whole_project_ids(NULL), "
                            "scopedb.scope_whole_project_ids(false)").one()  # fmt: skip
            assert got == ([], [], [tenants.a.id]), when
    with app_connection(tenants.db) as conn:  # no scope at all
        conn.execute("SET ROLE scopedb_app")
        assert conn.execute("SELECT scopedb.scope_whole_project_ids(false)").fetchone() == ([],)


@pytest.mark.parametrize("narrowing", ["resources", "denied", "include_paths", "exclude_paths"])
def test_a_narrowed_scope_reads_what_its_narrowing_admits(tenants: Tenants, narrowing: str) -> None:
    """The rows each narrowed scope reads are exactly those the scope's own matcher admits (the ground truth read
    as the owner), in fragments and graph nodes alike: the narrowing is applied, not skipped."""
    scope = _narrowings(tenants)[narrowing]
    with tenants.scoped(tenants.scope("acme/api")) as s:
        s.ingest_graph(nodes=[NodeIn(project="acme/api", id=f"n{k}", resource_id=tenants.resources[k].id,
                                     path=f"src/{k}/file0.py") for k in ("a1", "a2")])  # fmt: skip
    with psycopg.connect(tenants.db.dsn) as conn:  # the owner's ground truth
        rows = conn.execute("SELECT id, resource_id, path FROM scopedb.fragments WHERE project_id = %s",
                            (tenants.a.id,)).fetchall()  # fmt: skip
        nodes = conn.execute("SELECT id, resource_id, path FROM scopedb.graph_nodes WHERE project_id = %s",
                             (tenants.a.id,)).fetchall()  # fmt: skip
    expected = {r[0] for r in rows if _admits(scope, r)}
    expected_nodes = {n[0] for n in nodes if _admits(scope, n)}
    assert 0 < len(expected) < len(rows)  # the narrowing narrows
    assert 0 < len(expected_nodes) < len(nodes)
    with tenants.scoped(scope) as s:
        assert {r[0] for r in s.execute("SELECT id FROM scopedb.fragments")} == expected
        assert {r[0] for r in s.execute("SELECT id FROM scopedb.graph_nodes")} == expected_nodes


def _admits(scope: ResourceScope, row: tuple[Any, ...]) -> bool:
    _, resource, path = row
    if scope.resource_ids and resource not in scope.resource_ids:
        return False
    if resource is not None and resource in scope.denied_resource_ids:
        return False
    return scope.matches_path(path or "")


def _executed_accessors(plan: dict[str, Any]) -> list[str]:
    """The scope accessors whose InitPlans ran, in a JSON plan."""
    found: list[str] = []

    def walk(node: dict[str, Any]) -> None:
        if node.get("Parent Relationship") == "InitPlan" and node.get("Actual Loops", 0) > 0:
            found.extend(o.split("(")[0] for o in node.get("Output", []) if o.startswith("scopedb.scope_"))
        for child in node.get("Plans", []):
            walk(child)

    walk(plan["Plan"])
    return sorted(found)


EXPLAIN = "EXPLAIN (ANALYZE, VERBOSE, FORMAT JSON) "


def test_a_whole_scope_runs_one_accessor_per_table(tenants: Tenants) -> None:
    with tenants.scoped(tenants.scope("acme/api")) as s:
        s.ingest_graph(
            nodes=[NodeIn(project="acme/api", id="x"), NodeIn(project="acme/api", id="y")],
            edges=[EdgeIn(project="acme/api", src="x", relation="imports", dst="y")],
        )
    with tenants.scoped(tenants.scope("acme/api")) as s:
        for statement in ("SELECT id FROM scopedb.fragments WHERE project_id = %(p)s",
                          "SELECT id FROM scopedb.graph_nodes WHERE project_id = %(p)s",
                          "SELECT src FROM scopedb.graph_edges WHERE project_id = %(p)s"):  # fmt: skip
            plan = s.execute(EXPLAIN + statement, {"p": tenants.a.id}).scalar()[0]
            assert _executed_accessors(plan) in (["scopedb.scope_entered", "scopedb.scope_whole_project_ids"],
                                                 ["scopedb.scope_whole_project_ids"]), statement  # fmt: skip
    # Control: a narrowed scope runs the full predicate's accessors too.
    with tenants.scoped(_narrowings(tenants)["resources"]) as s:
        plan = s.execute(EXPLAIN + "SELECT id FROM scopedb.fragments WHERE project_id = %(p)s",
                         {"p": tenants.a.id}).scalar()[0]  # fmt: skip
        ran = _executed_accessors(plan)
        assert "scopedb.scope_whole_project_ids" in ran
        assert "scopedb.scope_terms" in ran  # every term of the full check, from one reading (#90)


WRITES = (
    "INSERT INTO scopedb.fragments (project_id, id, content) VALUES (%(p)s, 'w1', 'written')",
    "UPDATE scopedb.fragments SET content = 'rewritten' WHERE project_id = %(p)s AND id = 'w1'",
    "INSERT INTO scopedb.graph_nodes (project_id, id) VALUES (%(p)s, 'w1')",
    "UPDATE scopedb.graph_nodes SET label = 'w' WHERE project_id = %(p)s AND id = 'w1'",
    "INSERT INTO scopedb.resources (project_id, id, alias) VALUES (%(p)s, %(r)s, 'w1')",
)


def test_writes_of_a_whole_scope_run_one_accessor_and_narrowed_ones_read_every_term_once(tenants: Tenants) -> None:
    """Revision 0020: the write policies ask the read policies' two questions. A whole scope's writes are judged
    by scope_whole_project_ids alone; a narrowed scope's by scope_terms, one reading for every term (separate
    accessors were separate InitPlans, which a statement can evaluate under different tokens)."""
    with tenants.scoped(tenants.scope("acme/api")) as s:
        for statement in WRITES:
            plan = s.execute(EXPLAIN + statement, {"p": tenants.a.id, "r": new_ulid()}).scalar()[0]
            assert set(_executed_accessors(plan)) <= {"scopedb.scope_entered",
                                                      "scopedb.scope_whole_project_ids"}, statement  # fmt: skip
            assert "scopedb.scope_whole_project_ids" in _executed_accessors(plan), statement
    narrowed = tenants.scope("acme/api", exclude_paths={"secret/**"})
    with tenants.scoped(narrowed) as s:
        for statement in WRITES:
            params = {"p": tenants.a.id, "r": new_ulid()}
            plan = s.execute(EXPLAIN + statement.replace("'w1'", "'w2'"), params).scalar()[0]
            ran = set(_executed_accessors(plan))
            assert "scopedb.scope_terms" in ran, statement
            allowed = {"scopedb.scope_entered", "scopedb.scope_whole_project_ids", "scopedb.scope_terms"}
            assert ran <= allowed, statement
        # And the narrowing holds for writes: a fragment on an excluded path is refused.
        refused = "INSERT INTO scopedb.fragments (project_id, id, path, content) VALUES (%s, 'w3', 'secret/x', 'x')"
        with pytest.raises(PermissionDeniedError):
            s.execute(refused, (tenants.a.id,))


# The full predicate as the read policies of fragments held it inline until revision 0028 (a correlated sub-SELECT
# over the terms): scopedb.terms_admit_fragment must give the same answer for every row and every kind of terms.
INLINE_PREDICATE = """
    r.project_id = ANY ((t.t).project_ids)
    AND (r.valid_from <= (t.t).as_of AND (r.valid_to IS NULL OR r.valid_to > (t.t).as_of)) IS NOT FALSE
    AND (COALESCE(r.resource_id, '') = ANY ((t.t).resource_filter)) IS NOT FALSE
    AND ((t.t).filters_content IS NOT TRUE
         OR ((COALESCE(r.path, '') ~ ANY ((t.t).path_include)) IS NOT FALSE
             AND (COALESCE(r.path, '') ~ ANY ((t.t).path_exclude)) IS NOT TRUE
             AND (COALESCE(r.fqn, '') ~ ANY ((t.t).name_include)) IS NOT FALSE
             AND (COALESCE(r.fqn, '') ~ ANY ((t.t).name_exclude)) IS NOT TRUE))"""

TERMS = """
    (ROW('{}'::bigint[], '-infinity'::timestamptz, '{}'::text[], true, '{}'::text[], ARRAY['']::text[], '{}'::text[],
         ARRAY['']::text[])::scopedb.scope_terms),
    (ROW('{1}'::bigint[], now(), NULL::text[], false, NULL::text[], NULL::text[], NULL::text[],
         NULL::text[])::scopedb.scope_terms),
    (ROW('{1,2}'::bigint[], NULL::timestamptz, ARRAY['r1', '']::text[], false, NULL::text[], NULL::text[], NULL::text[],
         NULL::text[])::scopedb.scope_terms),
    (ROW('{1}'::bigint[], '2020-01-01'::timestamptz, ARRAY['r2']::text[], false, NULL::text[], NULL::text[],
         NULL::text[], NULL::text[])::scopedb.scope_terms),
    (ROW('{1}'::bigint[], now(), NULL::text[], true, ARRAY['\\A(?:src/.*)\\Z']::text[],
         ARRAY['\\A(?:src/x/.*)\\Z']::text[], NULL::text[], NULL::text[])::scopedb.scope_terms),
    (ROW('{1}'::bigint[], now(), NULL::text[], true, NULL::text[], NULL::text[], ARRAY['\\A(?:acme::.*)\\Z']::text[],
         ARRAY['\\A(?:acme::secret)\\Z']::text[])::scopedb.scope_terms),
    (NULL::scopedb.scope_terms)"""

ROWS = """
    SELECT p.id AS project_id, v.valid_from, v.valid_to, res.id AS resource_id, pa.path, fq.fqn
      FROM (VALUES (1::bigint), (2), (3)) AS p (id),
           (VALUES ('2019-01-01'::timestamptz, NULL::timestamptz), ('2019-01-01', '2021-01-01'),
                   ('2021-01-01', NULL),
                   (now() - interval '1 day', now() - interval '1 hour')) AS v (valid_from, valid_to),
           (VALUES (NULL::text), ('r1'), ('r2')) AS res (id),
           (VALUES (NULL::text), ('src/a.py'), ('src/x/b.py'), ('docs/c.md')) AS pa (path),
           (VALUES (NULL::text), ('acme::a'), ('acme::secret'), ('other::z')) AS fq (fqn)"""


def test_the_row_check_function_is_the_policies_inline_predicate(tenants: Tenants) -> None:
    """Revision 0028 moved the read policies' full predicate for fragments into scopedb.terms_admit_fragment, called
    with the terms of one InitPlan; it must answer exactly as the inline predicate did (NULL included: a policy reads
    NULL as refusal), over every kind of terms (none, whole, resources, a past instant, patterns, no terms)."""
    statement = (
        f"WITH t (t) AS (VALUES {TERMS}), r AS ({ROWS}) "
        "SELECT count(*), count(*) FILTER (WHERE scopedb.terms_admit_fragment(t.t, r.project_id, r.valid_from, "
        f"r.valid_to, r.resource_id, r.path, r.fqn) IS DISTINCT FROM ({INLINE_PREDICATE})), "
        f"count(*) FILTER (WHERE {INLINE_PREDICATE}) FROM t, r"
    )
    with psycopg.connect(tenants.db.dsn, autocommit=True) as owner:
        row = owner.execute(statement.replace("%", "%%")).fetchone()
    assert row is not None
    total, differing, admitted = row
    assert total == 7 * 3 * 4 * 3 * 4 * 4
    assert differing == 0
    assert 0 < admitted < total  # the cases admit some rows and refuse others
