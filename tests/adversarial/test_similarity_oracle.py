"""The similarity oracle of a shared ANN index (catalogue #76), tried against per-project storage: large projects in
partitions of their own with their own HNSW index, small ones in a shared partition that has no search index.

The review's attack, as ``scopedb_app`` in A's scope: plant 10 of A's own rows near a query vector, turn off every
plan A could be given instead of the index scan, starve the HNSW search (``hnsw.iterative_scan = off``,
``hnsw.ef_search = 10``) and count what ``ORDER BY embedding <=> q LIMIT 10`` returns. With one index over every
project, B's 30 documents near the query took the index's few candidates and A got 0 rows; with B's documents
elsewhere, 10. A could ask whether B holds anything like any text it can embed.

Here A's rows stay put (one index build, so nothing differs but B) while B's 30 vectors move from near the
query to far from it; A's answers under every setting it may change must be identical. A control runs the same
attack against one shared index (what scopedb had), to show the attack is live where a structure is shared.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import psycopg
import pytest

from scopedb import Fragment, ResourceScope
from tests.conftest import Tenants

DIM = 384
rng = np.random.default_rng(76)
QUERY = rng.normal(size=DIM)
QUERY /= np.linalg.norm(QUERY)
FAR = -QUERY


def _near(center: np.ndarray[Any, Any], seed: int, spread: float) -> list[float]:
    v = center + np.random.default_rng(seed).normal(scale=spread, size=DIM)
    return list(map(float, v / np.linalg.norm(v)))


def _vec(values: np.ndarray[Any, Any] | list[float]) -> str:
    return "[" + ",".join(f"{float(x):.6f}" for x in values) + "]"


Q = _vec(QUERY)

# Every setting A may change that bears on which plan runs and how much the index searches.
PROFILES = [
    [f"SET LOCAL hnsw.iterative_scan = {mode}", f"SET LOCAL hnsw.ef_search = {ef}",
     f"SET LOCAL hnsw.max_scan_tuples = {scan}", "SET LOCAL enable_seqscan = off", "SET LOCAL enable_bitmapscan = off",
     f"SET LOCAL enable_sort = {sort}"]
    for mode, ef, scan, sort in itertools.product(("off", "relaxed_order", "strict_order"), (1, 10, 40), (1, 20_000),
                                                  ("off", "on"))
]  # fmt: skip

PROBES = {
    "count": f"SELECT count(*) FROM (SELECT id FROM scopedb.fragments ORDER BY embedding <=> '{Q}' LIMIT 10) AS x",
    "ids": f"SELECT id FROM scopedb.fragments ORDER BY embedding <=> '{Q}' LIMIT 10",
    "both_projects": (
        f"SELECT id FROM scopedb.fragments WHERE project_id = ANY (%(both)s) ORDER BY embedding <=> '{Q}' LIMIT 10"
    ),
    "a_project": f"SELECT id FROM scopedb.fragments WHERE project_id = %(a)s ORDER BY embedding <=> '{Q}' LIMIT 10",
    "b_project": f"SELECT count(*) FROM (SELECT id FROM scopedb.fragments WHERE project_id = %(b)s "
    f"ORDER BY embedding <=> '{Q}' LIMIT 10) AS x",
    "function": f"SELECT id FROM scopedb.nearest_fragments('{Q}', 10, %(both)s, 'cosine', false, 1, 1)",
    # A search group over A and B (revision 0022), asked for directly, starved: only a scope that reads both
    # whole may consult its index, so for A's scope it answers nothing whatever B holds.
    "group": f"SELECT count(*) FROM scopedb.group_nearest(%(both)s, '{Q}', 10, 1, 1)",
}


# Where A (300 rows) and B (30) are stored: both in partitions of their own, each with its HNSW index; A in its own
# and B in the partition the small projects share (which has no search index); both in the shared partition.
LAYOUTS = {"own": 25, "a_own_b_shared": 100, "both_shared": None}


def _plant(tenants: Tenants, threshold: int | None = 25) -> None:
    a_rows = [Fragment(project="acme/api", id=f"near{i}", content="a", embedding=_near(QUERY, i, 0.02))
              for i in range(10)]  # fmt: skip
    a_rows += [Fragment(project="acme/api", id=f"far{i}", content="a", embedding=_near(FAR, 100 + i, 0.5))
               for i in range(290)]  # fmt: skip
    b_rows = [Fragment(project="beta/web", id=f"b{i}", content="b", embedding=_near(QUERY, 1000 + i, 0.01))
              for i in range(30)]  # fmt: skip
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.ingest_fragments(a_rows)
    with tenants.db.scoped(tenants.scope("beta/web")) as s:
        s.ingest_fragments(b_rows)
    built = {(a.project_id, a.action) for a in tenants.db.admin().maintain_storage(threshold=threshold)}
    assert ((tenants.a.id, "hnsw") in built) == (threshold is not None)
    assert ((tenants.b.id, "hnsw") in built) == (threshold is not None and threshold <= 30)
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE scopedb.fragments")


def _move_b(tenants: Tenants, center: np.ndarray[Any, Any]) -> None:
    with tenants.db.scoped(tenants.scope("beta/web")) as s:
        for i in range(30):
            s.execute("UPDATE scopedb.fragments SET embedding = %s::vector WHERE id = %s",
                      (_vec(_near(center, 2000 + i, 0.01)), f"b{i}"))  # fmt: skip


def _observe(tenants: Tenants, scope: ResourceScope | None = None) -> dict[str, Any]:
    params = {"both": [tenants.a.id, tenants.b.id], "a": tenants.a.id, "b": tenants.b.id}
    seen: dict[str, Any] = {}
    for n, profile in enumerate(PROFILES):
        with tenants.db.scoped(scope or tenants.scope("acme/api")) as s:
            for setting in profile:
                s.execute(setting)
            for name, probe in PROBES.items():
                seen[f"{n}.{name}"] = sorted(map(tuple, s.execute(probe, params).rows))
    return seen


def _values(seen: dict[str, Any], probe: str) -> list[Any]:
    return [v for k, v in seen.items() if k.endswith(probe)]


def _group(tenants: Tenants) -> None:
    """A and B in one search group, built and ready (its index holds both projects' vectors)."""
    tenants.db.admin().create_search_group("a-and-b", ["acme/api", "beta/web"])
    assert [a.action for a in tenants.db.admin().maintain_storage(threshold=25)][-1] == "group_ready"


@pytest.mark.parametrize("layout", LAYOUTS)
def test_76_a_s_answers_do_not_depend_on_where_b_s_vectors_are(tenants: Tenants, layout: str) -> None:
    _plant(tenants, LAYOUTS[layout])
    near = _observe(tenants)
    _move_b(tenants, FAR)
    far = _observe(tenants)
    _move_b(tenants, QUERY)
    assert _observe(tenants) == near  # deterministic: the same B, the same answers
    differences = {k: (near[k], far[k]) for k in near if near[k] != far[k]}
    assert differences == {}
    # Under the most hostile profile A got its own 10 near rows, through its own index.
    hostile = PROFILES[PROFILES.index([
        "SET LOCAL hnsw.iterative_scan = off", "SET LOCAL hnsw.ef_search = 10", "SET LOCAL hnsw.max_scan_tuples = 1",
        "SET LOCAL enable_seqscan = off", "SET LOCAL enable_bitmapscan = off", "SET LOCAL enable_sort = off",
    ])]  # fmt: skip
    n = PROFILES.index(hostile)
    assert near[f"{n}.count"] == [(10,)]
    assert near[f"{n}.b_project"] == [(0,)]
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        for setting in hostile:
            s.execute(setting)
        plan = "\n".join(r[0] for r in s.execute("EXPLAIN " + PROBES["a_project"], {"a": tenants.a.id}).rows)
    if LAYOUTS[layout] is None:  # A's rows are read exactly from the shared partition, which has no HNSW index
        assert "embedding_hnsw" not in plan
        assert "fragments_shared" in plan
    else:
        assert f"fragments_{tenants.a.id}_embedding_hnsw" in plan


def test_76_a_search_group_over_a_and_b_answers_a_alone_nothing_about_b(tenants: Tenants) -> None:
    """Revision 0022: one HNSW index over A's and B's vectors, the very structure the oracle needs — for a scope
    that reads both whole. A's scope reaches it neither through nearest_fragments nor by asking group_nearest for
    the group's id with a starved search, under every profile: A's observations do not move with B's vectors."""
    _plant(tenants)
    _group(tenants)
    near = _observe(tenants)
    _move_b(tenants, FAR)  # the group's copy follows B's vectors (its index gets B's new vectors)
    far = _observe(tenants)
    assert {k: (near[k], far[k]) for k in near if near[k] != far[k]} == {}
    assert _values(near, ".group") == [[(0,)]] * len(PROFILES)
    # Control: the scope over both reads the group's index, and B's vectors decide its answer, as they should.
    both = tenants.scope("acme/api", "beta/web")
    with tenants.db.scoped(both) as s:
        assert s.execute(PROBES["group"], {"both": [tenants.a.id, tenants.b.id]}).scalar() == 10
        moved = {h.fragment.project_name for h in s.search_vector(list(QUERY), limit=10)}
    _move_b(tenants, QUERY)
    with tenants.db.scoped(both) as s:
        back = {h.fragment.project_name for h in s.search_vector(list(QUERY), limit=10)}
    assert moved == {"acme/api"}
    assert back == {"beta/web"}


def test_76_a_narrowed_scope_over_a_group_s_members_never_consults_its_index(tenants: Tenants) -> None:
    """A scope over A and B that hides B's rows (a path pattern) is not one the group's index may answer: it
    holds B's hidden rows. So the group changes nothing the narrowed scope observes, and when B's hidden rows
    move, only the probes that read B's own index with the caller's settings may move (#56's residual)."""
    visible = [
        Fragment(project=name, id=f"src{i}", content="v", path=f"src/{i}.py", embedding=_near(QUERY, 10 + i, 0.3))
        for name in ("acme/api", "beta/web")
        for i in range(20)
    ]
    hidden = [Fragment(project="beta/web", id=f"private{i}", content="h", path=f"private/{i}.txt",
                       embedding=_near(QUERY, 500 + i, 0.01)) for i in range(30)]  # fmt: skip
    with tenants.db.scoped(tenants.scope("acme/api", "beta/web")) as s:
        s.ingest_fragments(visible + hidden)
    # B (50 rows, 30 of them hidden from the scope below) gets its own partition and HNSW index; no group yet.
    built = {(a.project_id, a.action) for a in tenants.db.admin().maintain_storage(threshold=25)}
    assert (tenants.b.id, "hnsw") in built
    narrowed = tenants.scope("acme/api", "beta/web", include_paths={"src/**"})

    def observe() -> dict[str, Any]:
        seen = _observe(tenants, narrowed)
        with tenants.db.scoped(narrowed) as s:
            seen["search"] = [(h.fragment.project_name, h.fragment.id) for h in s.search_vector(list(QUERY), limit=10)]
        return seen

    without_group = observe()
    _group(tenants)
    near = observe()
    # The same indexes of A and B, now with a ready group over both: not one observation changes.
    assert {k: (without_group[k], near[k]) for k in near if without_group[k] != near[k]} == {}
    with tenants.db.scoped(tenants.scope("beta/web")) as s:
        for i in range(30):
            s.execute("UPDATE scopedb.fragments SET embedding = %s::vector WHERE id = %s",
                      (_vec(_near(FAR, 2000 + i, 0.01)), f"private{i}"))  # fmt: skip
    far = observe()
    # B's own index holds B's hidden rows, so a starved scan that reaches it (the probes without a project
    # predicate, the one naming both, and B's own) is #56's residual inside one project. What reads the group,
    # scopedb's own search and A's project alone must not move.
    moved = {k: (near[k], far[k]) for k in near if near[k] != far[k]}
    assert {k.split(".", 1)[-1] for k in moved} <= {"count", "ids", "both_projects", "b_project"}
    assert len(near["search"]) == 10
    assert all(i.startswith("src") for _, i in near["search"])
    assert _values(near, ".group") == [[(0,)]] * len(PROFILES)


def test_76_control_a_shared_index_answers_the_question(tenants: Tenants) -> None:
    """What scopedb had before: one HNSW index over both projects' vectors (a copy, read as the superuser with
    A's project as a filter, as RLS filtered it). Two copies: B's vectors near the query, and far from it."""
    _plant(tenants)
    counts = {}
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        for where in ("near", "far"):
            table = f"public.shared_{where}"
            conn.execute(f"CREATE TABLE {table} AS SELECT project_id, id, embedding FROM scopedb.fragments")
            if where == "far":
                conn.execute(f"UPDATE {table} SET embedding = %s::vector WHERE project_id = %s",
                             (_vec(_near(FAR, 3000, 0.01)), tenants.b.id))  # fmt: skip
            conn.execute(f"CREATE INDEX ON {table} USING hnsw (embedding vector_cosine_ops)")
            conn.execute(f"ANALYZE {table}")
            conn.execute("BEGIN")
            for setting in ("SET LOCAL enable_seqscan = off", "SET LOCAL hnsw.iterative_scan = off",
                            "SET LOCAL hnsw.ef_search = 10"):  # fmt: skip
                conn.execute(setting)
            probe = (f"SELECT count(*) FROM (SELECT id FROM {table} WHERE project_id = %s "
                     f"ORDER BY embedding <=> '{Q}' LIMIT 10) AS x")  # fmt: skip
            counts[where] = conn.execute(probe, (tenants.a.id,)).fetchone()[0]  # type: ignore[index]
            conn.execute("COMMIT")
            # A build whose entry point lands among B's far rows can leave the two clusters unlinked (see the
            # test below): the far copy's index is rebuilt until one answers A, at most five times.
            for _ in range(4 if where == "far" else 0):
                if counts[where] == 10:
                    break
                conn.execute(f"REINDEX TABLE {table}")
                conn.execute("BEGIN")
                conn.execute("SET LOCAL enable_seqscan = off; SET LOCAL hnsw.iterative_scan = off; "
                             "SET LOCAL hnsw.ef_search = 10")  # fmt: skip
                counts[where] = conn.execute(probe, (tenants.a.id,)).fetchone()[0]  # type: ignore[index]
                conn.execute("COMMIT")
    assert counts["near"] < counts["far"] == 10


def test_76_control_an_index_on_the_shared_partition_would_answer_the_question(tenants: Tenants) -> None:
    """Why the partition the small projects share must never get a search index (audit E026): given one, the
    attack above works again between two small projects."""
    _plant(tenants, None)
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        conn.execute(
            "CREATE INDEX shared_hnsw ON scopedb_parts.fragments_shared USING hnsw (embedding vector_cosine_ops)"
        )
        conn.execute("ANALYZE scopedb_parts.fragments_shared")
    hostile = ("SET LOCAL enable_seqscan = off", "SET LOCAL enable_bitmapscan = off", "SET LOCAL enable_sort = off",
               "SET LOCAL hnsw.iterative_scan = off", "SET LOCAL hnsw.ef_search = 10")  # fmt: skip

    def count() -> int:
        with tenants.db.scoped(tenants.scope("acme/api")) as s:
            for setting in hostile:
                s.execute(setting)
            return int(s.execute(PROBES["count"]).scalar())

    near = count()
    _move_b(tenants, FAR)
    far = 0
    # B's old index entries go: rebuilt, not vacuumed. An HNSW graph draws its levels at random, and a small one
    # over two tight clusters can leave them unlinked: searched at ef_search 10 with no iterative scan from an
    # entry point among B's rows, it finds B's alone, and A counts 0 with B far away too (once in CI). So the
    # index is rebuilt until one build answers A; a shared index that did not answer the question would never
    # make A's count differ with B's place.
    for _ in range(5):
        with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
            conn.execute("REINDEX INDEX scopedb_parts.shared_hnsw")
        far = count()
        if far == 10:
            break
    assert near < far == 10
    assert any(f.code == "E026" and "shared_hnsw" in f.object for f in tenants.db.admin().audit())


def test_76_residual_inside_a_project_a_narrowed_scope_shares_its_project_s_index(tenants: Tenants) -> None:
    """Residual (docs/security.md #56): the unit of storage is the project, so a scope narrowed to some paths of
    A is served by A's index, which holds A's hidden rows too. Starved, that index answers the narrowed scope
    with fewer rows when hidden rows of the same project lie near the query. scopedb's own search stays complete,
    and B, in its own partition, has no part in it (the test above)."""
    visible = [Fragment(project="acme/api", id=f"src{i}", content="a", path=f"src/{i}.py",
                        embedding=_near(QUERY, 10 + i, 0.2)) for i in range(40)]  # fmt: skip
    hidden = [Fragment(project="acme/api", id=f"private{i}", content="a", path=f"private/{i}.txt",
                       embedding=_near(QUERY, 500 + i, 0.01)) for i in range(30)]  # fmt: skip
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.ingest_fragments(visible + hidden)
    tenants.db.admin().maintain_storage(threshold=25)
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE scopedb.fragments")
    narrowed = tenants.scope("acme/api", include_paths={"src/**"})
    with tenants.db.scoped(narrowed) as s:
        for setting in ("SET LOCAL enable_seqscan = off", "SET LOCAL enable_bitmapscan = off",
                        "SET LOCAL enable_sort = off", "SET LOCAL hnsw.iterative_scan = off",
                        "SET LOCAL hnsw.ef_search = 10"):  # fmt: skip
            s.execute(setting)
        probe = (f"SELECT count(*) FROM (SELECT id FROM scopedb.fragments WHERE project_id = %s "
                 f"ORDER BY embedding <=> '{Q}' LIMIT 10) AS x")  # fmt: skip
        starved = s.execute(probe, (tenants.a.id,)).scalar()
        plan = "\n".join(r[0] for r in s.execute("EXPLAIN " + probe, (tenants.a.id,)).rows)
    with tenants.db.scoped(narrowed) as s:
        answer = s.search_vector(list(QUERY), limit=10)
    assert f"fragments_{tenants.a.id}_embedding_hnsw" in plan
    assert starved < 10  # the residual: hidden rows of A's own project took the starved scan's candidates
    assert len(answer) == 10
    assert all((h.fragment.path or "").startswith("src/") for h in answer)
