"""Search groups (revision 0022): projects declared to be searched together get one HNSW index over a copy of
their embedded fragments, and a scope that reads every member whole at the present time searches it instead of
one index per member. Any other scope searches the members' own indexes.

Which index answered is observed through the copy itself: after the group is built, the tests mark the copy's
content (as the superuser, directly in its partition), so a hit whose content carries the mark came from the
group's index and one without it from the fragments table. The answers themselves are compared with the exact
search, with fragment ids repeated across projects, so a row of one project can never stand in for another's.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np
import psycopg
import pytest

from scopedb import Database, Fragment
from scopedb.admin import SearchGroup
from scopedb.errors import InvalidArgumentError, PermissionDeniedError, UniqueViolationError, UnknownProjectError
from scopedb.retrieval import VectorStrategy
from tests.conftest import Tenants

DIM = 384
MARK = "copy:"
#: Every search here asks the index for more than it returns, so that an HNSW search over a few hundred rows is
#: as good as exact and the answers can be compared with the exact ones row for row.
WIDE = VectorStrategy(min_ef_search=200)
EXACT = VectorStrategy(exact=True)


def _unit(rng: np.random.Generator) -> list[float]:
    v = rng.normal(size=DIM)
    return list(map(float, v / np.linalg.norm(v)))


def _load(tenants: Tenants, names: list[str], rows: int = 60, seed: int = 16) -> None:
    """``rows`` fragments per project, with the same ids in every project (f0, f1, ...) and paths under src/ and
    docs/ alternately."""
    rng = np.random.default_rng(seed)
    for name in names:
        with tenants.db.scoped(tenants.scope(name)) as s:
            s.ingest_fragments([
                Fragment(project=name, id=f"f{n}", content=f"{name} fragment {n}",
                         path=f"{'src' if n % 2 else 'docs'}/{n}.py", embedding=_unit(rng))
                for n in range(rows)
            ])  # fmt: skip


def _build(db: Database) -> None:
    db.admin().maintain_storage(threshold=25)


def _mark_copy(db: Database, group: SearchGroup) -> None:
    with psycopg.connect(db.dsn, autocommit=True) as conn:
        conn.execute(f"UPDATE scopedb_parts.group_vectors_{int(group.id)} SET content = %s || content", (MARK,))


def _hits(tenants: Tenants, scope: Any, q: list[float], strategy: VectorStrategy = WIDE) -> list[tuple[str, str, str]]:
    with tenants.db.scoped(scope) as s:
        return [(h.fragment.project_name, h.fragment.id, h.fragment.content)
                for h in s.search_vector(q, limit=10, strategy=strategy)]  # fmt: skip


def _keys(hits: list[tuple[str, str, str]]) -> list[tuple[str, str]]:
    return [(project, fid) for project, fid, _ in hits]


def _from_copy(hits: list[tuple[str, str, str]]) -> set[bool]:
    return {content.startswith(MARK) for _, _, content in hits}


@pytest.fixture
def grouped(tenants: Tenants) -> SearchGroup:
    """acme/api and beta/web in one ready group; gamma/docs outside it. 60 fragments each, ids repeated."""
    tenants.db.admin().create_project("gamma/docs")
    _load(tenants, ["acme/api", "beta/web", "gamma/docs"])
    group = tenants.db.admin().create_search_group("acme-and-beta", ["acme/api", "beta/web"])
    _build(tenants.db)
    assert [g.state for g in tenants.db.admin().search_groups()] == ["ready"]
    _mark_copy(tenants.db, group)
    return group


def test_a_scope_reading_every_member_whole_searches_the_group_s_index(tenants: Tenants, grouped: SearchGroup) -> None:
    q = _unit(np.random.default_rng(1))
    both = tenants.scope("acme/api", "beta/web")
    hits = _hits(tenants, both, q)
    assert len(hits) == 10
    assert _from_copy(hits) == {True}
    assert _keys(hits) == _keys(_hits(tenants, both, q, EXACT))  # the group's answer is the exact one


def test_a_scope_the_groups_do_not_cover_whole_is_searched_per_project(tenants: Tenants, grouped: SearchGroup) -> None:
    """gamma/docs is in no group: a scope over the group's members and gamma is searched per project."""
    q = _unit(np.random.default_rng(100))
    every = tenants.scope("acme/api", "beta/web", "gamma/docs")
    hits = _hits(tenants, every, q)
    assert _from_copy(hits) == {False}
    assert _keys(hits) == _keys(_hits(tenants, every, q, EXACT))


def test_several_groups_that_cover_the_scope_are_searched_and_merged(tenants: Tenants, grouped: SearchGroup) -> None:
    tenants.db.admin().create_project("delta/ops")
    _load(tenants, ["delta/ops"], seed=18)
    second = tenants.db.admin().create_search_group("gamma-and-delta", ["gamma/docs", "delta/ops"])
    _build(tenants.db)
    _mark_copy(tenants.db, second)
    every = tenants.scope("acme/api", "beta/web", "gamma/docs", "delta/ops")
    for seed in range(5):
        q = _unit(np.random.default_rng(200 + seed))
        hits = _hits(tenants, every, q)
        assert _from_copy(hits) == {True}
        assert _keys(hits) == _keys(_hits(tenants, every, q, EXACT))
    assert (
        len({p for seed in range(5) for p, _, _ in _hits(tenants, every, _unit(np.random.default_rng(200 + seed)))}) > 1
    )


@pytest.mark.parametrize(
    "narrowing",
    [
        {"include_paths": {"src/**"}},
        {"exclude_paths": {"docs/**"}},
        {"include_names": {"x::**"}},
        {"temporal_scope": "all"},
        {"temporal_scope": dt.datetime(2099, 1, 1, tzinfo=dt.UTC)},
        {"denied_resource_ids": {"r-none"}},
    ],
    ids=["include_paths", "exclude_paths", "include_names", "all_versions", "another_instant", "denied_resource"],
)
def test_a_scope_that_does_not_read_the_members_whole_never_consults_the_group(
    tenants: Tenants, grouped: SearchGroup, narrowing: dict[str, Any]
) -> None:
    q = _unit(np.random.default_rng(2))
    scope = tenants.scope("acme/api", "beta/web", **narrowing)
    hits = _hits(tenants, scope, q)
    assert _from_copy(hits) <= {False}
    assert _keys(hits) == _keys(_hits(tenants, scope, q, EXACT))


def test_a_scope_over_some_of_the_members_never_consults_the_group(tenants: Tenants, grouped: SearchGroup) -> None:
    q = _unit(np.random.default_rng(3))
    for scope in (tenants.scope("acme/api"), tenants.scope("acme/api", "gamma/docs")):
        hits = _hits(tenants, scope, q)
        assert len(hits) == 10
        assert _from_copy(hits) == {False}
        assert _keys(hits) == _keys(_hits(tenants, scope, q, EXACT))
    both = [tenants.a.id, tenants.b.id]
    direct = "SELECT count(*) FROM scopedb.group_nearest(%s, %s::vector, 10, 40, 1000)"
    with tenants.db.scoped(tenants.scope("acme/api", "gamma/docs")) as s:
        assert s.execute(direct, (both, str(q))).scalar() == 0  # asked for the group, a scope over A alone: nothing
    with tenants.db.scoped(tenants.scope("acme/api", "beta/web", include_paths={"**"})) as s:
        assert s.execute(direct, (both, str(q))).scalar() == 0  # patterns, even ones that hide nothing: nothing
    with tenants.db.scoped(tenants.scope("acme/api", "beta/web")) as s:
        assert s.execute(direct, (both, str(q))).scalar() == 10


def test_the_group_answers_its_members_named_in_any_order_and_repeated(tenants: Tenants, grouped: SearchGroup) -> None:
    """The one-statement choice (revision 0023) compares the call's projects, sorted and distinct, with the group's
    members; a call naming them otherwise is the same call. A superset or a subset of the members is not."""
    q = _unit(np.random.default_rng(4))
    a, b = tenants.a.id, tenants.b.id
    direct = "SELECT count(*) FROM scopedb.group_nearest(%s, %s::vector, 10, 40, 1000)"
    with tenants.db.scoped(tenants.scope("acme/api", "beta/web")) as s:
        for projects in ([a, b], [b, a], [b, a, b, a]):
            assert s.execute(direct, (projects, str(q))).scalar() == 10
        assert s.execute(direct, ([a, a], str(q))).scalar() == 0  # one project of the group: its own index
    gamma = next(p.id for p in tenants.db.admin().projects() if p.name == "gamma/docs")
    with tenants.db.scoped(tenants.scope("acme/api", "beta/web", "gamma/docs")) as s:
        assert s.execute(direct, ([a, b, gamma], str(q))).scalar() == 0  # gamma is in no group


def test_the_copy_follows_every_change_of_its_members(tenants: Tenants, grouped: SearchGroup) -> None:
    q = _unit(np.random.default_rng(4))
    both = tenants.scope("acme/api", "beta/web")

    def as_b(statement: str, *params: Any) -> None:
        with tenants.db.scoped(tenants.scope("beta/web")) as s:
            s.execute(statement, params or None)

    with tenants.db.scoped(tenants.scope("beta/web")) as s:  # a new fragment right at the query
        s.ingest_fragments([Fragment(project="beta/web", id="new", content="new one", embedding=q)])
    assert _hits(tenants, both, q)[0] == ("beta/web", "new", "new one")
    as_b("UPDATE scopedb.fragments SET content = 'changed' WHERE id = 'new'")
    assert _hits(tenants, both, q)[0] == ("beta/web", "new", "changed")
    as_b("UPDATE scopedb.fragments SET embedding = NULL WHERE id = 'new'")
    assert ("beta/web", "new") not in _keys(_hits(tenants, both, q))
    as_b("UPDATE scopedb.fragments SET embedding = %s::vector WHERE id = 'new'", str(q))
    assert _hits(tenants, both, q)[0][:2] == ("beta/web", "new")
    with psycopg.connect(tenants.db.dsn) as conn:  # closed (by the owner): the present no longer sees it
        conn.execute("UPDATE scopedb.fragments SET valid_to = now() WHERE project_id = %s AND id = 'new'",
                     (tenants.b.id,))  # fmt: skip
    assert ("beta/web", "new") not in _keys(_hits(tenants, both, q))
    with tenants.db.scoped(tenants.scope("beta/web")) as s:
        s.ingest_fragments([Fragment(project="beta/web", id="newer", content="newer", embedding=q)])
    assert _hits(tenants, both, q)[0][:2] == ("beta/web", "newer")
    with tenants.db.scoped(tenants.scope("beta/web")) as s:
        assert s.delete_fragments("beta/web", ["newer"]) == 1
    hits = _hits(tenants, both, q)
    assert not {("beta/web", "new"), ("beta/web", "newer")} & set(_keys(hits))
    assert _keys(hits) == _keys(_hits(tenants, both, q, EXACT))
    assert _copy_rows(tenants.db, grouped) == _member_rows(tenants.db, grouped)


def _copy_rows(db: Database, group: SearchGroup) -> set[tuple[Any, ...]]:
    with psycopg.connect(db.dsn) as conn:
        return set(conn.execute("SELECT project_id, id, embedding::text, valid_to FROM scopedb_private.group_vectors "
                                "WHERE group_id = %s", (group.id,)).fetchall())  # fmt: skip


def _member_rows(db: Database, group: SearchGroup) -> set[tuple[Any, ...]]:
    with psycopg.connect(db.dsn) as conn:
        return set(conn.execute(
            "SELECT f.project_id, f.id, f.embedding::text, f.valid_to FROM scopedb.fragments AS f "
            "JOIN scopedb_private.search_group_members AS m ON m.project_id = f.project_id "
            "WHERE m.group_id = %s AND f.embedding IS NOT NULL", (group.id,)).fetchall())  # fmt: skip


def test_a_member_s_deletion_sends_the_group_back_to_be_filled_anew(tenants: Tenants, grouped: SearchGroup) -> None:
    admin = tenants.db.admin()
    admin.create_project("delta/ops")
    _load(tenants, ["delta/ops"], seed=17)
    three = admin.create_search_group("three", ["acme/api", "beta/web", "delta/ops"])
    _build(tenants.db)
    assert {g.name: g.state for g in admin.search_groups()} == {"acme-and-beta": "ready", "three": "ready"}
    assert admin.delete_project("delta/ops") is True
    assert {g.name: g.state for g in admin.search_groups()} == {"acme-and-beta": "ready", "three": "declared"}
    assert [g.projects for g in admin.search_groups() if g.name == "three"] == [("acme/api", "beta/web")]
    with psycopg.connect(tenants.db.dsn) as conn:  # its stale copy went with the deletion
        assert conn.execute("SELECT to_regclass(%s)", (f"scopedb_parts.group_vectors_{three.id}",)).fetchone() == (
            None,
        )
    done = [a.action for a in admin.maintain_storage(threshold=25)]
    assert done == ["group_fill", "group_hnsw", "group_ready"]
    assert {g.name: g.state for g in admin.search_groups()} == {"acme-and-beta": "ready", "three": "ready"}
    assert _copy_rows(tenants.db, three) == _member_rows(tenants.db, three)


def test_dropping_a_group_drops_its_copy_and_searches_go_on_per_project(tenants: Tenants, grouped: SearchGroup) -> None:
    q = _unit(np.random.default_rng(5))
    both = tenants.scope("acme/api", "beta/web")
    before = _hits(tenants, both, q)
    assert tenants.db.admin().drop_search_group("acme-and-beta") is True
    assert tenants.db.admin().drop_search_group("acme-and-beta") is False
    assert tenants.db.admin().search_groups() == []
    with psycopg.connect(tenants.db.dsn) as conn:
        assert conn.execute("SELECT count(*) FROM pg_class WHERE relname ~ '^group_vectors_\\d+'").fetchone() == (0,)
    after = _hits(tenants, both, q)
    assert _from_copy(after) == {False}
    assert _keys(after) == _keys(before)


def test_moving_a_member_into_its_own_partitions_keeps_the_group_s_copy(tenants: Tenants) -> None:
    """create_project_storage deletes a project's rows through the parent to move them; the delete trigger leaves
    the groups' copies of moved rows alone (only in an admin session), so the group needs no refill."""
    _load(tenants, ["acme/api", "beta/web"], rows=30)
    group = tenants.db.admin().create_search_group("pair", ["acme/api", "beta/web"])
    done = [(a.action, a.project_id) for a in tenants.db.admin().maintain_storage(threshold=1_000)]
    assert [a for a, _ in done] == ["group_fill", "group_hnsw", "group_ready"]  # both stay in the shared partition
    copied = _copy_rows(tenants.db, group)
    moved = {a.project_id for a in tenants.db.admin().maintain_storage(threshold=20) if a.action == "create"}
    assert moved == {tenants.a.id, tenants.b.id}
    assert _copy_rows(tenants.db, group) == copied == _member_rows(tenants.db, group)
    assert [g.state for g in tenants.db.admin().search_groups()] == ["ready"]


def test_the_app_can_neither_read_nor_fill_a_group(tenants: Tenants, grouped: SearchGroup) -> None:
    for statement in (
        "SELECT count(*) FROM scopedb_private.group_vectors",
        f"SELECT count(*) FROM scopedb_parts.group_vectors_{int(grouped.id)}",
        "SELECT count(*) FROM scopedb_private.search_groups",
        "SELECT count(*) FROM scopedb_private.search_group_members",
        f"SELECT scopedb_private.fill_search_group({int(grouped.id)})",
        f"SELECT scopedb_private.search_group_ready({int(grouped.id)})",
    ):
        with tenants.db.scoped(tenants.scope("acme/api", "beta/web")) as s, pytest.raises(PermissionDeniedError):
            s.execute(statement)


def test_declaring_a_group_refuses_what_cannot_be_one(tenants: Tenants) -> None:
    admin = tenants.db.admin()
    with pytest.raises(InvalidArgumentError):
        admin.create_search_group("alone", ["acme/api"])
    with pytest.raises(InvalidArgumentError):
        admin.create_search_group("same twice", ["acme/api", "acme/api"])
    with pytest.raises(InvalidArgumentError):
        admin.create_search_group("a string", "acme/api")
    with pytest.raises(UnknownProjectError, match="nobody/here"):
        admin.create_search_group("unknown", ["acme/api", "nobody/here"])
    admin.create_search_group("pair", ["acme/api", "beta/web"])
    with pytest.raises(UniqueViolationError):
        admin.create_search_group("pair", ["acme/api", "beta/web"])
    assert [(g.name, g.projects, g.state) for g in admin.search_groups()] == [
        ("pair", ("acme/api", "beta/web"), "declared")
    ]


def test_a_declared_group_is_not_searched_until_the_maintenance_step_built_it(tenants: Tenants) -> None:
    _load(tenants, ["acme/api", "beta/web"], rows=30)
    admin = tenants.db.admin()
    admin.maintain_storage(threshold=20)
    admin.create_search_group("pair", ["acme/api", "beta/web"])
    with tenants.db.scoped(tenants.scope("acme/api", "beta/web")) as s:
        assert s.execute("SELECT count(*) FROM scopedb.group_nearest(%s, %s::vector, 10, 40, 1000)",
                         ([tenants.a.id, tenants.b.id], str([1.0] * DIM))).scalar() == 0  # fmt: skip
    plan = [(a.action, a.row_count) for a in admin.storage_plan(threshold=20)]
    assert plan == [("group_fill", 72), ("group_hnsw", 72), ("group_ready", 0)]  # 30 + 6 embedded each


def test_the_audit_holds_a_group_s_partition_to_its_shape(tenants: Tenants, grouped: SearchGroup) -> None:
    admin = tenants.db.admin()
    assert [f for f in admin.audit() if f.severity == "error"] == []
    part = f"scopedb_parts.group_vectors_{int(grouped.id)}"
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        conn.execute(f"CREATE INDEX stray ON {part} (content)")
        conn.execute(
            "CREATE TABLE scopedb_parts.group_vectors_shared PARTITION OF scopedb_private.group_vectors DEFAULT"
        )
        conn.execute("ALTER TABLE scopedb_parts.group_vectors_shared ENABLE ROW LEVEL SECURITY, "
                     "FORCE ROW LEVEL SECURITY")  # fmt: skip
    found = {(f.code, f.object) for f in admin.audit() if f.severity == "error"}
    assert ("E026", "index scopedb_parts.stray") in found
    assert ("E026", "table scopedb_parts.group_vectors_shared") in found
