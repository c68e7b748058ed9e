"""Owner-run functions the app may call must answer from the caller's scope alone (catalogue #46, #47).

A SECURITY DEFINER function runs with the owner's rights but with the *caller's* settings, unless it pins them. The
attacker runs arbitrary SQL as ``scopedb_app`` in A's scope and asks such a function a question whose answer would
depend on B's rows: how many of A's rows a word matches when B uses the word heavily, or how the owner would plan
a search. Each test compares A's observation for a word B uses 600 times with one for a word B never uses: with A's
own data identical for both words, the two answers must be identical too.
"""

from __future__ import annotations

from typing import LiteralString

import psycopg
import pytest

from scopedb import Fragment, ResourceScope, ScopedbError
from tests.conftest import Tenants

B_HEAVY = "initech"  # B writes it 600 times; A writes it 10 times
B_NEVER = "globomantics"  # only A writes it, 10 times
OWN_ROWS = 10


def _plant_words(tenants: Tenants) -> None:
    rows = [Fragment(project="acme/api", id=f"a-{w}-{n}", content=f"{w} report {n}")
            for w in (B_HEAVY, B_NEVER) for n in range(OWN_ROWS)]  # fmt: skip
    # A is large enough that the planner finds its matches through the full-text index rather than by project.
    rows += [Fragment(project="acme/api", id=f"a-filler-{n}", content=f"quarterly filler {n}") for n in range(3000)]
    rows += [Fragment(project="beta/web", id=f"b-{n}", content=f"{B_HEAVY} memo {n}") for n in range(600)]
    with tenants.db.scoped(tenants.scope("acme/api", "beta/web")) as s:
        s.ingest_fragments(rows)
    with psycopg.connect(tenants.db.dsn, autocommit=True) as admin:
        # An ordinary VACUUM moves GIN's pending list into the index proper, where gin_fuzzy_search_limit applies.
        admin.execute("VACUUM ANALYZE scopedb_private.fragment_search")
        admin.execute("ANALYZE scopedb.fragments")


FUZZY: list[LiteralString] = [
    "SET LOCAL enable_seqscan = off",
    "SET LOCAL gin_fuzzy_search_limit = 20",
]


def test_46_gin_fuzzy_search_limit_cannot_thin_matches_by_other_tenants_words(tenants: Tenants) -> None:
    """The caller's ``gin_fuzzy_search_limit`` used to reach the owner-run candidate search, which thinned every
    tenant's matches before the scope join: A got 0 to 2 of its 10 rows back for a word B uses heavily, and all 10 for
    a word B never uses."""
    _plant_words(tenants)
    counts: dict[str, tuple[int, int]] = {}
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        for statement in FUZZY:
            s.execute(statement)
        for word in (B_HEAVY, B_NEVER):
            raw = s.execute(
                "SELECT count(*) FROM scopedb.text_candidates(to_tsquery('english', %s), 1000)", (word,)
            ).scalar()
            counts[word] = (int(raw), len(s.search_text(word, limit=100)))
    assert counts[B_HEAVY] == counts[B_NEVER] == (OWN_ROWS, OWN_ROWS), counts


def test_46_the_api_gives_complete_answers_whatever_the_caller_set(tenants: Tenants) -> None:
    """Control on the public API: with the setting at its most aggressive, search still returns every own match."""
    _plant_words(tenants)
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("SET LOCAL gin_fuzzy_search_limit = 1")
        assert len(s.search_text(B_HEAVY, limit=100)) == OWN_ROWS


def test_47_no_owner_function_the_app_can_call_shows_a_plan(tenants: Tenants) -> None:
    """``scopedb.explain_text_candidates`` planned the search as the owner, from every tenant's statistics: a word
    B used heavily got a hash join over a sequential scan, a word B never used a nested loop. No function the app
    may execute may run EXPLAIN; the one that did is gone, and calling it is an error like any unknown function."""
    _plant_words(tenants)
    plans: dict[str, list[str] | None] = {}
    for word in (B_HEAVY, B_NEVER):
        try:
            with tenants.db.scoped(tenants.scope("acme/api")) as s:
                rows = s.execute(
                    "SELECT scopedb.explain_text_candidates(to_tsquery('english', %s), 1000)", (word,)
                ).rows
                plans[word] = [r[0] for r in rows]
        except ScopedbError:
            plans[word] = None
    assert plans[B_HEAVY] is None, plans
    assert plans[B_NEVER] is None, plans
    with psycopg.connect(tenants.db.dsn) as conn:
        explaining = conn.execute(
            "SELECT p.oid::regprocedure::text FROM pg_proc AS p "
            "WHERE p.prosecdef AND p.prosrc ~* '\\mexplain\\M' AND has_function_privilege('scopedb_app', p.oid, "
            "'EXECUTE')"
        ).fetchall()
    assert explaining == []


@pytest.mark.parametrize("setting", ["enable_indexscan", "enable_bitmapscan", "enable_nestloop", "enable_hashjoin"])
def test_46_candidates_stay_complete_under_every_planner_switch(tenants: Tenants, setting: str) -> None:
    """The planner switches the app may turn off change how the owner's search runs, never what it returns."""
    _plant_words(tenants)
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute(f"SET LOCAL {setting} = off")
        s.execute("SET LOCAL enable_seqscan = off")
        assert len(s.search_text(B_HEAVY, limit=100)) == OWN_ROWS


def test_owner_search_sees_the_scope_not_the_table(tenants: Tenants) -> None:
    """Control: the owner function is the only way to the full-text index, and a scope of B sees B's rows there —
    so the checks above compare a real channel, not an empty one."""
    _plant_words(tenants)
    with tenants.db.scoped(ResourceScope(project_names={"beta/web"})) as s:
        assert len(s.search_text(B_HEAVY, limit=1000)) == 600
