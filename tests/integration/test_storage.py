"""Per-project storage: a new project is a row in the partitions the small projects share; a project that reaches
the threshold gets partitions of its own, its rows moved there intact, and its indexes, without making any other
project wait; deleting a project takes its storage with it."""

from __future__ import annotations

import logging
import threading
import time

import psycopg
import pytest

from scopedb import Database, Fragment, ResourceScope, sqlfiles
from scopedb import admin as admin_module
from scopedb.errors import ConfigurationError, PermissionDeniedError
from tests.conftest import Tenants


def _partitions(db: Database) -> set[str]:
    with psycopg.connect(db.dsn) as conn:
        rows = conn.execute(
            "SELECT c.relname FROM pg_inherits AS i JOIN pg_class AS c ON c.oid = i.inhrelid "
            "WHERE i.inhparent IN ('scopedb.fragments'::regclass, 'scopedb_private.fragment_search'::regclass)"
        ).fetchall()
    return {name for (name,) in rows}


SHARED = {"fragments_shared", "fragment_search_shared"}


def _stored(db: Database, table: str) -> int:
    with psycopg.connect(db.dsn) as conn:
        row = conn.execute(f"SELECT count(*) FROM ONLY scopedb_parts.{table}").fetchone()
    assert row is not None
    return int(row[0])


def test_a_new_project_is_a_row_in_the_shared_partitions_until_it_grows(scopedb_db: Database) -> None:
    assert _partitions(scopedb_db) == SHARED
    admin = scopedb_db.admin()
    project = admin.create_project("solo/one")
    assert _partitions(scopedb_db) == SHARED  # no table made for it
    with scopedb_db.scoped(ResourceScope(project_names={"solo/one"})) as s:
        s.ingest_fragments([Fragment(project="solo/one", id=f"x{n}", content=f"hello partition {n}",
                                     embedding=[1.0 + n % 3] * 384) for n in range(25)])  # fmt: skip
        assert len(s.search_text("partition", limit=50)) == 25
    assert _stored(scopedb_db, "fragments_shared") == 25
    assert admin.storage_plan(threshold=30) == []  # below the threshold: stays shared
    plan = admin.storage_plan(threshold=20)
    assert [(a.project_id, a.action) for a in plan] == [(project.id, "create"), (project.id, "hnsw"),
                                                        (project.id, "gin")]  # fmt: skip
    admin.maintain_storage(threshold=20)
    assert _partitions(scopedb_db) == SHARED | {f"fragments_{project.id}", f"fragment_search_{project.id}"}
    assert _stored(scopedb_db, "fragments_shared") == _stored(scopedb_db, "fragment_search_shared") == 0
    assert _stored(scopedb_db, f"fragments_{project.id}") == 25
    assert _stored(scopedb_db, f"fragment_search_{project.id}") == 25
    with scopedb_db.scoped(ResourceScope(project_names={"solo/one"})) as s:
        assert len(s.search_text("partition", limit=50)) == 25
        assert len(s.search_vector([1.0] * 384, limit=5)) == 5
        assert s.last_vector_strategy == "index"
    assert [f for f in admin.audit() if f.severity == "error"] == []


def test_moving_a_project_keeps_every_row_and_copy_and_leaves_the_others(tenants: Tenants) -> None:
    """The move copies each row through the parent and deletes it there; the delete's trigger removes the
    full-text copy and the archived original, which come back in the project's own partitions. B stays shared."""
    for name in ("acme/api", "beta/web"):
        with tenants.db.scoped(tenants.scope(name)) as s:
            s.ingest_fragments([Fragment(project=name, id=f"m{n}", content=f"moving text {n}") for n in range(30)])
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO scopedb_private.fragment_originals (project_id, id, content) "
            "SELECT project_id, id, 'original ' || id FROM scopedb.fragments WHERE project_id = ANY(%s)",
            ([tenants.a.id, tenants.b.id],),
        )
        before = conn.execute(
            "SELECT project_id, id, resource_id, path, fqn, content, tsv::text, embedding::text, tier, valid_from,"
            " created_at FROM scopedb.fragments ORDER BY 1, 2"
        ).fetchall()
    copies = _copies(tenants.db, tenants.a.id), _copies(tenants.db, tenants.b.id)
    admin = tenants.db.admin()
    admin.maintain_storage(threshold=None)  # without a threshold, no move
    assert f"fragments_{tenants.a.id}" not in _partitions(tenants.db)
    _give_own_storage(tenants.db, tenants.a.id)
    assert f"fragments_{tenants.a.id}" in _partitions(tenants.db)
    assert f"fragments_{tenants.b.id}" not in _partitions(tenants.db)
    with psycopg.connect(tenants.db.dsn) as conn:
        after = conn.execute(
            "SELECT project_id, id, resource_id, path, fqn, content, tsv::text, embedding::text, tier, valid_from,"
            " created_at FROM scopedb.fragments ORDER BY 1, 2"
        ).fetchall()
    assert after == before
    assert (_copies(tenants.db, tenants.a.id), _copies(tenants.db, tenants.b.id)) == copies
    assert _stored(tenants.db, f"fragments_{tenants.a.id}") == tenants.count("fragments", tenants.a)
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        assert len(s.search_text("moving", limit=100)) == 30
    assert [f for f in admin.audit() if f.severity == "error"] == []


def test_own_storage_at_creation_and_only_admins_move_storage(tenants: Tenants) -> None:
    admin = tenants.db.admin()
    big = admin.create_project("big/one", own_storage=True)
    assert {f"fragments_{big.id}", f"fragment_search_{big.id}"} <= _partitions(tenants.db)
    with tenants.db.scoped(ResourceScope(project_names={"big/one"})) as s:
        s.ingest_fragments([Fragment(project="big/one", id="b", content="straight to its own partition")])
    assert _stored(tenants.db, f"fragments_{big.id}") == 1
    with tenants.db.scoped(tenants.scope("acme/api")) as s, pytest.raises(PermissionDeniedError):
        s.execute("SELECT scopedb_private.create_project_storage(%s)", [tenants.a.id])


def test_deleting_a_project_drops_its_storage(tenants: Tenants) -> None:
    """Beside the shared DEFAULT partitions PostgreSQL will not detach concurrently ("cannot detach partitions
    concurrently when a default partition exists"): a project with partitions of its own could not be deleted
    until the detach took its brief lock instead."""
    tenants.db.admin().maintain_storage(threshold=5)
    before = _partitions(tenants.db)
    assert {f"fragments_{tenants.b.id}", f"fragment_search_{tenants.b.id}"} <= before
    assert tenants.db.admin().delete_project("beta/web") is True
    assert _partitions(tenants.db) == before - {f"fragments_{tenants.b.id}", f"fragment_search_{tenants.b.id}"}
    assert tenants.db.admin().storage_plan(threshold=None) == []
    assert [f for f in tenants.db.admin().audit() if f.severity == "error"] == []
    assert tenants.db.admin().delete_project("beta/web") is False
    with tenants.db.scoped(tenants.scope("acme/api")) as s:  # A is untouched
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == tenants.count("fragments", tenants.a)


def test_deleting_a_project_makes_other_tenants_wait_an_instant_not_a_transaction(tenants: Tenants) -> None:
    """The detach asks for its lock for LOCK_TIMEOUT_MS at a time: while A's long transaction holds the parent,
    the deletion waits, and B's reads go on meanwhile instead of queueing behind the detach until A ends."""
    gone = tenants.db.admin().create_project("gone/soon", own_storage=True)
    assert f"fragments_{gone.id}" in _partitions(tenants.db)
    done = threading.Event()
    failure: list[BaseException] = []

    def delete() -> None:
        try:
            tenants.db.admin().delete_project("gone/soon")
        except BaseException as exc:  # re-raised below
            failure.append(exc)
        finally:
            done.set()

    with tenants.db.scoped(tenants.scope("acme/api")) as a:
        a.execute("SELECT count(*) FROM scopedb.fragments")  # holds the parent until A's transaction ends
        worker = threading.Thread(target=delete)
        worker.start()
        time.sleep(0.5)
        for _ in range(3):
            started = time.perf_counter()
            with tenants.db.scoped(tenants.scope("beta/web")) as b:
                assert b.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 7
            assert time.perf_counter() - started < 2 * admin_module.LOCK_TIMEOUT_MS / 1000 + 1.0
        assert not done.is_set()  # still waiting for A
    worker.join(timeout=30)
    assert done.is_set()
    assert not failure
    assert not {f"fragments_{gone.id}", f"fragment_search_{gone.id}"} & _partitions(tenants.db)
    assert tenants.db.admin().project("gone/soon") is None


def test_creating_a_project_does_not_wait_for_another_tenant_s_open_transaction(tenants: Tenants) -> None:
    """CREATE TABLE ... PARTITION OF would take an ACCESS EXCLUSIVE lock on fragments and wait behind A's read."""
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("SELECT count(*) FROM scopedb.fragments")  # A holds its locks until the block ends
        started = time.perf_counter()
        tenants.db.admin().create_project("new/while-a-reads")
        assert time.perf_counter() - started < 5


@pytest.mark.parametrize("online", [True, False], ids=["concurrently", "offline"])
def test_building_an_index_never_blocks_the_other_project(tenants: Tenants, online: bool) -> None:
    """A's move out of the shared partitions and the index builds on its own, while B, which has partitions of its
    own, has a transaction open that wrote: neither waits for the other.

    Online (CONCURRENTLY) nothing waits; offline the build locks A's partition only, so B is untouched as well.
    """
    _give_own_storage(tenants.db, tenants.b.id)
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.ingest_fragments(Fragment(project="acme/api", id=f"i{n}", content="bulk", embedding=[1.0] * 384)
                           for n in range(40))  # fmt: skip
    done = threading.Event()
    with tenants.db.scoped(tenants.scope("beta/web")) as b:
        b.ingest_fragments([Fragment(project="beta/web", id="before", content="b writes")])  # B holds its locks

        def build() -> None:
            tenants.db.admin().maintain_storage(threshold=20, online=online)
            done.set()

        worker = threading.Thread(target=build)
        worker.start()
        assert done.wait(timeout=60)  # the build did not wait for B's open transaction
        started = time.perf_counter()
        b.ingest_fragments([Fragment(project="beta/web", id="during", content="b goes on")])
        assert b.execute("SELECT count(*) FROM scopedb.fragments WHERE id IN ('before', 'during')").scalar() == 2
        assert time.perf_counter() - started < 1
    worker.join(timeout=60)
    with psycopg.connect(tenants.db.dsn) as conn:
        index = conn.execute(f"SELECT to_regclass('scopedb_parts.fragments_{tenants.a.id}_embedding_hnsw')").fetchone()
    assert index is not None
    assert index[0] is not None


def _give_own_storage(db: Database, project_id: int) -> None:
    with db.admin().transaction() as conn:
        conn.execute(sqlfiles.query("admin", "create_project_storage"), {"project_id": project_id})


def test_a_project_with_half_its_partitions_gets_the_other_from_maintenance(tenants: Tenants) -> None:
    _give_own_storage(tenants.db, tenants.b.id)
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:  # as a database restored without them would be
        conn.execute(f"DELETE FROM scopedb.fragments WHERE project_id = {tenants.b.id}")
        conn.execute(f"ALTER TABLE scopedb_private.fragment_search DETACH PARTITION "
                     f"scopedb_parts.fragment_search_{tenants.b.id}")  # fmt: skip
        conn.execute(f"DROP TABLE scopedb_parts.fragment_search_{tenants.b.id}")
    plan = tenants.db.admin().storage_plan(threshold=None)
    assert [(a.project_id, a.action) for a in plan] == [(tenants.b.id, "create")]
    tenants.db.admin().maintain_storage(threshold=None)
    assert f"fragment_search_{tenants.b.id}" in _partitions(tenants.db)
    with tenants.db.scoped(tenants.scope("beta/web")) as s:
        s.ingest_fragments([Fragment(project="beta/web", id="back", content="searchable again")])
        assert [h.fragment.id for h in s.search_text("searchable")] == ["back"]


def test_builds_run_several_at_a_time_largest_first(tenants: Tenants, caplog: pytest.LogCaptureFixture) -> None:
    for project, count in (("acme/api", 60), ("beta/web", 30)):
        with tenants.db.scoped(tenants.scope(project)) as s:
            s.ingest_fragments(Fragment(project=project, id=f"j{n}", content="jobs", embedding=[n % 7 + 1.0] * 384)
                               for n in range(count))  # fmt: skip
    admin = tenants.db.admin()
    with pytest.raises(ConfigurationError):
        admin.maintain_storage(threshold=20, jobs=0)
    with caplog.at_level(logging.INFO, logger="scopedb.storage"):
        done = admin.maintain_storage(threshold=20, online=False, jobs=3)
    builds = [(a.project_id, a.action) for a in done if a.action in ("hnsw", "gin")]
    logged = [r.getMessage() for r in caplog.records if r.name == "scopedb.storage"]
    assert len(logged) == len(done)  # each step says what it took, for sizing the maintenance window
    assert any(m.startswith(f"storage: hnsw for project {tenants.a.id} (") for m in logged)
    assert set(builds) >= {(p.id, kind) for p in (tenants.a, tenants.b) for kind in ("hnsw", "gin")}
    assert admin.storage_plan(threshold=20) == []  # everything the plan named was built
    with tenants.db.scoped(tenants.scope("acme/api", "beta/web")) as s:
        hits = s.search_vector([1.0] * 384, limit=5)
        assert s.last_vector_strategy == "index"
    assert len(hits) == 5


def _copies(db: Database, project_id: int) -> tuple[int, int]:
    with psycopg.connect(db.dsn) as conn:
        row = conn.execute(
            "SELECT (SELECT count(*) FROM scopedb_private.fragment_search WHERE project_id = %(p)s),"
            " (SELECT count(*) FROM scopedb_private.fragment_originals WHERE project_id = %(p)s)",
            {"p": project_id},
        ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


def test_the_owner_only_copies_follow_their_fragments(tenants: Tenants) -> None:
    """The full-text copy and the archived original go when their fragment goes (by trigger: no foreign key may
    reference the partitioned table), whether one fragment is deleted or the whole project; keys never change."""
    for name in ("acme/api", "beta/web"):
        with tenants.db.scoped(tenants.scope(name)) as s:
            s.ingest_fragments([Fragment(project=name, id=f"c{n}", content=f"copy {n}") for n in range(3)])
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        for project in (tenants.a, tenants.b):
            conn.execute(
                "INSERT INTO scopedb_private.fragment_originals (project_id, id, content) "
                "SELECT project_id, id, content FROM scopedb.fragments WHERE project_id = %s",
                (project.id,),
            )
    a_before, b_before = _copies(tenants.db, tenants.a.id), _copies(tenants.db, tenants.b.id)
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        assert s.delete_fragments("acme/api", ["c0", "c1"]) == 2
    assert _copies(tenants.db, tenants.a.id) == (a_before[0] - 2, a_before[1] - 2)
    assert _copies(tenants.db, tenants.b.id) == b_before  # B's copies untouched
    assert tenants.db.admin().delete_project("beta/web") is True
    assert _copies(tenants.db, tenants.b.id) == (0, 0)
    with psycopg.connect(tenants.db.dsn) as conn, pytest.raises(psycopg.errors.IntegrityConstraintViolation):
        conn.execute("UPDATE scopedb.fragments SET id = 'renamed' WHERE project_id = %s AND id = 'c2'", (tenants.a.id,))


def test_the_plan_is_made_a_batch_of_projects_at_a_time(tenants: Tenants, monkeypatch: pytest.MonkeyPatch) -> None:
    """Counting rows locks a project's partitions until the transaction ends; with thousands of projects one
    transaction ran out of lock slots, so the plan is made in batches — and is the same plan."""
    for name in ("acme/api", "beta/web"):
        with tenants.db.scoped(tenants.scope(name)) as s:
            s.ingest_fragments([Fragment(project=name, id=f"b{n}", content="batch") for n in range(25)])
    admin = tenants.db.admin()
    whole = admin.storage_plan(threshold=20)
    monkeypatch.setattr(admin_module, "STORAGE_PLAN_BATCH", 1)
    assert sorted(admin.storage_plan(threshold=20), key=repr) == sorted(whole, key=repr)
    assert {(a.project_id, a.action) for a in whole} >= {(tenants.a.id, "gin"), (tenants.b.id, "gin")}


def test_a_search_opens_only_the_scope_s_partitions(tenants: Tenants) -> None:
    """With every project of the scope indexed, the exact branch has no project; `project_id = ANY ('{}')` under
    RLS was found false only after every partition had been opened and locked (10,000 projects: out of locks).
    Text search read its candidates back by key alone, which opened every partition as well."""
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.ingest_fragments(Fragment(project="acme/api", id=f"l{n}", content="locks", embedding=[n % 5 + 1.0] * 384)
                           for n in range(30))  # fmt: skip
    tenants.db.admin().maintain_storage(threshold=20)
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        assert len(s.search_vector([1.0] * 384, limit=5)) == 5
        assert s.last_vector_strategy == "index"
        s.search_text("locks")
        opened = s.execute(
            "SELECT DISTINCT c.relname FROM pg_locks AS l JOIN pg_class AS c ON c.oid = l.relation "
            "WHERE l.pid = pg_backend_pid() AND c.relnamespace = 'scopedb_parts'::regnamespace"
        ).rows
    assert opened
    assert {name for (name,) in opened if f"_{tenants.a.id}" not in name} == set()


def test_the_full_text_copy_carries_the_scope_columns_and_the_content_and_follows_every_change(
    tenants: Tenants,
) -> None:
    """text_candidates applies the scope to the copy's resource, path, name and validity before ranking, and returns
    the best rows' text from the copy too (revision 0017: no join back to the fragments); so the copy must follow
    every change of its fragment — path, content, deletion — in the statement that makes it."""
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.ingest_fragments([Fragment(project="acme/api", id=f"k{n}", content="kestrel words", path=f"src/k{n}.py")
                            for n in range(4)])  # fmt: skip
        s.execute("UPDATE scopedb.fragments SET path = 'private/k0.txt' WHERE id = 'k0'")
    with psycopg.connect(tenants.db.dsn) as conn:
        copied = conn.execute(
            "SELECT s.id, s.path, s.valid_from = f.valid_from, s.content = f.content "
            "FROM scopedb_private.fragment_search AS s "
            "JOIN scopedb.fragments AS f USING (project_id, id) WHERE s.project_id = %s AND s.id LIKE 'k%%' "
            "ORDER BY 1",
            (tenants.a.id,),
        ).fetchall()
    assert copied == [("k0", "private/k0.txt", True, True), ("k1", "src/k1.py", True, True),
                      ("k2", "src/k2.py", True, True), ("k3", "src/k3.py", True, True)]  # fmt: skip
    src_only = tenants.scope("acme/api", include_paths={"src/**"})
    with tenants.db.scoped(src_only) as s:
        assert sorted(h.fragment.id for h in s.search_text("kestrel")) == ["k1", "k2", "k3"]
        s.execute("UPDATE scopedb.fragments SET content = 'kestrel words, revised' WHERE id = 'k1'")
        assert {h.fragment.id: h.fragment.content for h in s.search_text("revised")} == {"k1": "kestrel words, revised"}
        s.delete_fragments("acme/api", ["k2"])
        assert sorted(h.fragment.id for h in s.search_text("kestrel")) == ["k1", "k3"]
    with tenants.db.scoped(tenants.scope("acme/api")) as s:  # the move out of src/ stays hidden only from src_only
        assert sorted(h.fragment.id for h in s.search_text("kestrel")) == ["k0", "k1", "k3"]
