"""Writes that reach past the scope, and locks one tenant could use against another (catalogue #53 to #56).

Row-level security filters the rows a statement names; it does not filter what a statement sets off: foreign-key
cascades run without it, and a table lock covers every tenant's rows. The attacker runs arbitrary SQL as
``scopedb_app`` in A's scope (or A's path-narrowed scope inside project A) and tries to delete rows it cannot see,
to freeze B's reads and writes, or to name B's locks.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from typing import Any, LiteralString

import psycopg
import pytest

from scopedb import Fragment, ResourceScope, ScopedbError
from scopedb.errors import ForeignKeyViolationError, PermissionDeniedError, UniqueViolationError
from scopedb.ingest import EdgeIn, NodeIn
from scopedb.tiers import ContextTierService, TierBudget, TierLimit
from tests.conftest import Tenants


def _admin(tenants: Tenants, query: LiteralString, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    with psycopg.connect(tenants.db.dsn) as conn:
        return conn.execute(query, params).fetchall()


def _hidden_fixture(tenants: Tenants) -> None:
    """In project A: a fragment outside ``src/**`` in resource a1, a closed version in a1, a graph node outside
    ``src/**`` with an edge from a visible node, and a link from a1 to a2."""
    a1 = tenants.resources["a1"].id
    past = dt.datetime.now(dt.UTC) - dt.timedelta(days=2)
    with tenants.db.scoped(tenants.scope("acme/api", temporal_scope="all")) as s:
        s.add_fragments([
            Fragment(project="acme/api", id="hidden-path", content="private", resource_id=a1, path="private/x.txt"),
            Fragment(project="acme/api", id="closed", content="old version", resource_id=a1, path="src/old.py",
                     valid_from=past, valid_to=past + dt.timedelta(days=1)),
        ])  # fmt: skip
        s.ingest_graph(
            [NodeIn("acme/api", "visible", resource_id=a1, path="src/v.py"),
             NodeIn("acme/api", "hidden", resource_id=a1, path="private/h.py")],
            [EdgeIn("acme/api", "visible", "hidden", "imports")],
        )  # fmt: skip


SRC_ONLY = {"include_paths": {"src/**"}}


def _survivors(tenants: Tenants) -> dict[str, int]:
    return {
        "hidden fragment": len(_admin(tenants, "SELECT 1 FROM scopedb.fragments WHERE id = 'hidden-path'")),
        "closed version": len(_admin(tenants, "SELECT 1 FROM scopedb.fragments WHERE id = 'closed'")),
        "hidden node": len(_admin(tenants, "SELECT 1 FROM scopedb.graph_nodes WHERE id = 'hidden'")),
        "edge to hidden node": len(_admin(tenants, "SELECT 1 FROM scopedb.graph_edges WHERE dst = 'hidden'")),
        "link to a2": len(
            _admin(tenants, "SELECT 1 FROM scopedb.resource_links WHERE project_id = %s", (tenants.a.id,))
        ),
    }


EVERYTHING_SURVIVES = {"hidden fragment": 1, "closed version": 1, "hidden node": 1, "edge to hidden node": 1,
                       "link to a2": 1}  # fmt: skip


def test_53_deleting_a_visible_resource_never_removes_rows_the_scope_hides(tenants: Tenants) -> None:
    """``ON DELETE CASCADE`` runs without row-level security: deleting resource a1 in a ``src/**`` scope removed
    a1's ``private/x.txt`` fragment, its closed versions, its node's edge to a hidden node and its links."""
    _hidden_fixture(tenants)
    a1 = tenants.resources["a1"].id
    with pytest.raises(ScopedbError), tenants.db.scoped(tenants.scope("acme/api", **SRC_ONLY)) as s:
        s.execute("DELETE FROM scopedb.resources WHERE id = %s", (a1,))
    with pytest.raises(ForeignKeyViolationError), tenants.db.scoped(tenants.scope("acme/api", **SRC_ONLY)) as s:
        s.delete_resources("acme/api", [a1])
    assert _survivors(tenants) == EVERYTHING_SURVIVES


def test_53_deleting_a_visible_node_never_removes_its_edge_to_a_hidden_node(tenants: Tenants) -> None:
    _hidden_fixture(tenants)
    with pytest.raises(ScopedbError), tenants.db.scoped(tenants.scope("acme/api", **SRC_ONLY)) as s:
        s.execute("DELETE FROM scopedb.graph_nodes WHERE id = 'visible'")
    with pytest.raises(ForeignKeyViolationError), tenants.db.scoped(tenants.scope("acme/api", **SRC_ONLY)) as s:
        s.delete_graph_nodes("acme/api", ["visible"])
    assert _survivors(tenants) == EVERYTHING_SURVIVES


def test_53_deletes_remove_what_the_scope_sees(tenants: Tenants) -> None:
    """Control: the same deletes in a scope that sees everything remove the resource and all that hangs off it."""
    _hidden_fixture(tenants)
    a1, a2 = tenants.resources["a1"].id, tenants.resources["a2"].id
    with tenants.db.scoped(tenants.scope("acme/api", temporal_scope="all")) as s:
        assert s.delete_graph_nodes("acme/api", ["visible"]) == 1
        assert s.delete_resource_links("acme/api", [(a1, a2)]) == 1
        assert s.delete_resources("acme/api", [a1]) == 1
        assert s.delete_fragments("acme/api", ["no-such-id"]) == 0
    assert _survivors(tenants) == {"hidden fragment": 0, "closed version": 0, "hidden node": 0,
                                   "edge to hidden node": 0, "link to a2": 0}  # fmt: skip
    assert len(_admin(tenants, "SELECT 1 FROM scopedb.fragments WHERE project_id = %s", (tenants.b.id,))) == 7


def test_53_the_delete_functions_reach_nothing_of_b(tenants: Tenants) -> None:
    b_fragment = _admin(tenants, "SELECT id FROM scopedb.fragments WHERE project_id = %s LIMIT 1", (tenants.b.id,))
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        for call, args in [
            ("scopedb.delete_fragments(%s, %s)", (tenants.b.id, [b_fragment[0][0]])),
            ("scopedb.delete_resources(%s, %s)", (tenants.b.id, [tenants.resources["b1"].id])),
        ]:
            assert s.execute(f"SELECT {call}", args).scalar() == 0
    assert tenants.count("fragments", tenants.b) == 7
    assert tenants.count("resources", tenants.b) == 2


TABLES = ["projects", "resources", "resource_links", "fragments", "graph_nodes", "graph_edges", "notes",
          "note_tombstones"]  # fmt: skip
WRITABLE = ["resources", "resource_links", "fragments", "graph_nodes", "graph_edges"]
# Every mode that conflicts with a reader (ACCESS SHARE) or a writer (ROW EXCLUSIVE).
BLOCKING_MODES = ["SHARE", "SHARE ROW EXCLUSIVE", "EXCLUSIVE", "ACCESS EXCLUSIVE"]


@pytest.mark.parametrize("as_login", [False, True], ids=["as scopedb_app", "after SET ROLE NONE"])
@pytest.mark.parametrize("mode", BLOCKING_MODES)
def test_54_no_tenant_can_take_a_lock_that_blocks_another_tenant(tenants: Tenants, mode: str, as_login: bool) -> None:
    """``LOCK TABLE scopedb.fragments IN ACCESS EXCLUSIVE MODE`` was allowed by the UPDATE privilege and froze
    every tenant's reads for as long as A's transaction lived."""
    for table in TABLES:
        with tenants.db.scoped(tenants.scope("acme/api")) as s:
            if as_login:
                s.execute("SET ROLE NONE")
            with pytest.raises(PermissionDeniedError):
                s.execute(f"LOCK TABLE scopedb.{table} IN {mode} MODE NOWAIT")


def test_54_b_reads_and_writes_while_a_holds_every_lock_it_may_take(tenants: Tenants) -> None:
    """Control: what A may lock (ROW EXCLUSIVE, row locks on its own rows) leaves B's reads and writes alone."""
    hold, held = threading.Event(), threading.Event()

    def attacker() -> None:
        with tenants.db.scoped(tenants.scope("acme/api")) as s:
            s.execute("LOCK TABLE scopedb.projects IN ACCESS SHARE MODE")
            for table in WRITABLE:
                s.execute(f"LOCK TABLE scopedb.{table} IN ROW EXCLUSIVE MODE")
            s.execute("SELECT 1 FROM scopedb.fragments FOR UPDATE")
            held.set()
            hold.wait(10)

    thread = threading.Thread(target=attacker)
    thread.start()
    try:
        assert held.wait(10)
        started = time.monotonic()
        with tenants.db.scoped(tenants.scope("beta/web")) as s:
            s.execute("SET LOCAL lock_timeout = '2s'")
            assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 7
            s.add_fragment(Fragment(project="beta/web", content="still writable"))
            s.execute("UPDATE scopedb.fragments SET tier = 'hot' WHERE content = 'still writable'")
        assert time.monotonic() - started < 2
    finally:
        hold.set()
        thread.join()


def test_55_a_cannot_hold_b_s_tier_lock(tenants: Tenants) -> None:
    """scopedb's per-project locks were advisory locks keyed ``hashtextextended('scopedb.tiers:' || id, 0)``:
    holding B's key stalled B's ``ContextTierService.store``, and a try-lock told A when B enforced budgets. A
    holds every advisory key it can compute from B's id; B's budgeted store still goes straight through."""
    keys = [f"scopedb.tiers:{tenants.b.id}", f"scopedb.resource_links:{tenants.b.id}"]
    hold, held = threading.Event(), threading.Event()

    def attacker() -> None:
        with tenants.db.scoped(tenants.scope("acme/api")) as s:
            for key in keys:
                s.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", (key,))
                s.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (key,))
            held.set()
            hold.wait(10)

    thread = threading.Thread(target=attacker)
    thread.start()
    try:
        assert held.wait(10)
        tiers = ContextTierService(tenants.db, budget=TierBudget(hot=TierLimit(1, 1_000)))
        extra = tenants.db.admin().create_resource("beta/web", alias="extra")
        done = threading.Event()

        def victim() -> None:
            tiers.store("b-hot-1", project="beta/web", content="one", tier="hot")
            tiers.store("b-hot-2", project="beta/web", content="two", tier="hot")  # overflows: enforces the budget
            with tenants.db.scoped(tenants.scope("beta/web")) as s:  # the cycle check serialises per project
                s.execute("INSERT INTO scopedb.resource_links (project_id, parent_id, child_id) VALUES (%s, %s, %s)",
                          (tenants.b.id, tenants.resources["b2"].id, extra.id))  # fmt: skip
            done.set()

        worker = threading.Thread(target=victim, daemon=True)
        worker.start()
        assert done.wait(5), "B waited on a lock A could name"
        assert tiers.get_scoped_metrics("beta/web").hot == 1
    finally:
        hold.set()
        thread.join()


def test_55_no_function_of_scopedb_takes_an_advisory_lock(tenants: Tenants) -> None:
    """Advisory lock keys are one namespace for every session; scopedb serialises per project with row locks on
    an owner-only table instead, which no tenant can name. (It releases them: scopedb.clean_session ends a
    request by unlocking whatever session advisory locks a tenant's statement took.)"""
    found = _admin(
        tenants,
        "SELECT p.oid::regprocedure::text FROM pg_proc AS p JOIN pg_namespace AS n ON n.oid = p.pronamespace "
        "WHERE n.nspname LIKE 'scopedb%%' AND p.prosrc ~ 'pg_(try_)?advisory_(xact_)?lock'",
    )
    assert found == []
    unlocking = _admin(
        tenants,
        "SELECT p.oid::regprocedure::text FROM pg_proc AS p JOIN pg_namespace AS n ON n.oid = p.pronamespace "
        "WHERE n.nspname LIKE 'scopedb%%' AND p.prosrc ~ 'pg_advisory_unlock'",
    )
    assert unlocking == [("scopedb.clean_session()",)]


def test_56_residual_one_bit_about_hidden_rows_of_the_caller_s_own_project(tenants: Tenants) -> None:
    """Residual: inside A's own project, a scope narrowed by path still learns one bit about a key its scope
    hides, from a unique or foreign-key check (which run without RLS). Across projects it learns nothing:
    keys include project_id (#29, #30)."""
    _hidden_fixture(tenants)
    with pytest.raises(UniqueViolationError), tenants.db.scoped(tenants.scope("acme/api", **SRC_ONLY)) as s:
        s.execute("INSERT INTO scopedb.fragments (project_id, id, content, path) VALUES (%s, 'hidden-path', 'x', "
                  "'src/y.py')", (tenants.a.id,))  # fmt: skip
    hidden_alias = tenants.resources["a2"].alias
    a1 = tenants.resources["a1"].id
    with (pytest.raises(UniqueViolationError),
          tenants.db.scoped(tenants.scope("acme/api", resource_ids={a1})) as s):  # fmt: skip
        s.execute("UPDATE scopedb.resources SET alias = %s WHERE id = %s", (hidden_alias, a1))
    with tenants.db.scoped(ResourceScope(project_names={"acme/api"}, **SRC_ONLY)) as s:  # control: a free key
        s.execute("INSERT INTO scopedb.fragments (project_id, id, content, path) VALUES (%s, 'free', 'x', 'src/y.py')",
                  (tenants.a.id,))  # fmt: skip


def test_an_admin_still_deletes_a_whole_project(tenants: Tenants) -> None:
    """Foreign keys inside a project no longer cascade; a project's own deletion (an admin operation) still takes
    every row of the project with it, and nothing of another project."""
    _hidden_fixture(tenants)
    with psycopg.connect(tenants.db.dsn) as admin:
        admin.execute("SET ROLE scopedb_owner")
        admin.execute("DELETE FROM scopedb.projects WHERE id = %s", (tenants.a.id,))
    for table in ("resources", "resource_links", "fragments", "graph_nodes", "graph_edges"):
        assert _admin(tenants, f"SELECT count(*) FROM scopedb.{table} WHERE project_id = %s",
                      (tenants.a.id,)) == [(0,)], table  # fmt: skip
    assert tenants.count("fragments", tenants.b) == 7
