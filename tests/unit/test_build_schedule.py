"""The order the maintenance step builds per-project indexes in (pure planning: the builds are in test_storage)."""

from __future__ import annotations

from scopedb.admin import StorageAction, schedule_builds


def _hnsw(project: int, rows: int) -> StorageAction:
    return StorageAction(project, "hnsw", f"CREATE INDEX ... {project}", rows)


def _gin(project: int, rows: int) -> StorageAction:
    return StorageAction(project, "gin", f"CREATE INDEX ... {project}", rows)


# The full bench's 60 tenants (Zipf 1.5 over 1M rows): the largest holds 424,618 rows, fewer than the other 59
# together (575,382), yet its build took longer than all of theirs.
ZIPF_60 = [424_618, 150_113, 81_711, 53_072, 37_975, 28_889, 22_925, 18_764, 15_725, 13_426, 11_637, 10_213]


def test_a_build_costlier_than_the_rest_together_runs_first_alone() -> None:
    plan = [_hnsw(p, rows) for p, rows in enumerate(ZIPF_60, start=1)]
    plan += [_gin(p, 200) for p in range(1, len(ZIPF_60) + 1)]
    plan.append(StorageAction(99, "drop", "DROP TABLE ...", 0))
    assert ZIPF_60[0] < sum(ZIPF_60[1:])  # by rows alone it would have shared the two jobs
    alone, rest = schedule_builds(plan, jobs=2)
    assert alone == plan[0]
    assert [a.action for a in rest[: len(ZIPF_60) - 1]] == ["hnsw"] * (len(ZIPF_60) - 1)  # costliest first
    assert [a.row_count for a in rest if a.action == "hnsw"] == ZIPF_60[1:]
    assert all(a.action in ("hnsw", "gin") for a in rest)  # drops are not builds


def test_balanced_builds_share_the_jobs() -> None:
    plan = [_hnsw(p, 50_000) for p in range(1, 5)]
    alone, rest = schedule_builds(plan, jobs=2)
    assert alone is None
    assert rest == plan


def test_one_job_runs_everything_in_turn() -> None:
    plan = [_hnsw(1, 400_000), _hnsw(2, 1_000)]
    assert schedule_builds(plan, jobs=1) == (None, plan)


def test_with_more_jobs_the_rest_is_spread_over_the_other_cores() -> None:
    # 3 jobs: the largest runs alone only when it outlasts the rest spread over two cores.
    plan = [_hnsw(1, 300_000), _hnsw(2, 200_000), _hnsw(3, 200_000)]
    assert schedule_builds(plan, jobs=2)[0] is None
    assert schedule_builds(plan, jobs=3)[0] == plan[0]
