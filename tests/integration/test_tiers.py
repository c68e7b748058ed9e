"""Context tiers in PostgreSQL: budgets cascade down, LRU order follows reads, summaries keep the original aside,
and concurrent writers and evictors never lose or double-move a fragment."""

from __future__ import annotations

import random
import threading
import time
from collections import Counter

import psycopg
import pytest

from scopedb import Database, ResourceScope
from scopedb.errors import PermissionDeniedError
from scopedb.tiers import ContextTierService, Tier, TierBudget, TierLimit, TierMove, extractive_summary

SMALL = TierBudget(hot=TierLimit(3, 10_000), warm=TierLimit(3, 10_000), cold=TierLimit(3, 10_000))


@pytest.fixture
def service(scopedb_db: Database) -> ContextTierService:
    scopedb_db.admin().create_project("p")
    scopedb_db.admin().create_project("q")
    return ContextTierService(scopedb_db, budget=SMALL)


def _tiers(service: ContextTierService) -> dict[str, str]:
    return {f.id: f.tier for f in service.get_scoped_view(["p"])}


def test_overflow_cascades_down_and_out_in_lru_order(service: ContextTierService) -> None:
    for n in range(10):
        service.store(f"f{n}", project="p", tier="hot", content=f"fragment {n}")
        time.sleep(0.002)  # distinct access times
    tiers = _tiers(service)
    assert Counter(tiers.values()) == {"hot": 3, "warm": 3, "cold": 3}
    assert "f0" not in tiers  # the least recently used fell off the end
    assert {i for i, t in tiers.items() if t == "hot"} == {"f7", "f8", "f9"}
    assert {i for i, t in tiers.items() if t == "cold"} == {"f1", "f2", "f3"}


def test_reading_touches_so_lru_spares_what_was_read(service: ContextTierService) -> None:
    for n in range(3):
        service.store(f"f{n}", project="p", tier="hot", content="x")
        time.sleep(0.002)
    assert service.get_scoped("f0", ResourceScope(project_names={"p"})) is not None  # f0 is now the freshest
    service.store("f3", project="p", tier="hot", content="x")
    assert _tiers(service)["f1"] == "warm"
    assert _tiers(service)["f0"] == "hot"


def test_token_budget_is_enforced_too(scopedb_db: Database) -> None:
    scopedb_db.admin().create_project("t")
    service = ContextTierService(scopedb_db, budget=TierBudget(hot=TierLimit(100, 10)))
    service.store("big", project="t", tier="hot", content="one two three four five six")
    service.store("small", project="t", tier="hot", content="one two three four five")
    metrics = service.get_scoped_metrics("t")
    assert metrics.tokens["hot"] <= 10
    assert metrics.warm == 1


def test_demotion_to_cold_summarises_long_content_and_keeps_the_original(
    service: ContextTierService, scopedb_db: Database
) -> None:
    long = " ".join(f"Sentence number {n} explains one more detail of the flow." for n in range(30))
    service.store("long", project="p", tier="warm", content=long)
    assert service.demote("long", project="p") == "cold"
    cold = service.get_scoped("long", ResourceScope(project_names={"p"}))
    assert cold is not None
    assert cold.content == extractive_summary(long)
    assert len(cold.content) < len(long)
    assert scopedb_db.admin().original_content("p", "long") == long
    # The original is owner-only: the app cannot read it, whatever SQL it runs.
    with pytest.raises(PermissionDeniedError), scopedb_db.scoped(ResourceScope(project_names={"p"})) as s:
        s.execute("SELECT content FROM scopedb_private.fragment_originals")
    assert service.promote("long", project="p") == "warm"
    warm = service.get_scoped("long", ResourceScope(project_names={"p"}))
    assert warm is not None
    assert warm.content == long
    assert scopedb_db.admin().original_content("p", "long") is None


def test_demoting_cold_evicts_and_promoting_hot_stays_hot(service: ContextTierService) -> None:
    service.store("c", project="p", tier="cold", content="x")
    service.store("h", project="p", tier="hot", content="x")
    assert service.demote("c", project="p") is None
    assert "c" not in _tiers(service)
    assert service.promote("h", project="p") == "hot"


def test_tier_moves_stay_inside_the_scope(service: ContextTierService) -> None:
    service.store("mine", project="p", tier="hot", content="x")
    service.store("theirs", project="q", tier="hot", content="x")
    assert service.evict_lru("hot", project="p", count=10) == ["mine"]
    assert {f.id: f.tier for f in service.get_scoped_view(["q"])} == {"theirs": "hot"}


def test_concurrent_writers_and_evictors_never_lose_or_double_move(scopedb_db: Database) -> None:
    scopedb_db.admin().create_project("busy")
    budget = TierBudget(hot=TierLimit(5, 10**6), warm=TierLimit(5, 10**6), cold=TierLimit(5, 10**6))
    stored: list[str] = []
    moves: list[TierMove] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def record(move: TierMove) -> None:
        with lock:
            moves.append(move)

    def writer(worker: int) -> None:
        service = ContextTierService(scopedb_db, budget=budget, projects={"busy"}, on_move=record)
        rng = random.Random(worker)
        try:
            for n in range(25):
                fid = f"w{worker}-{n}"
                service.store(fid, project="busy", tier=rng.choice(["hot", "warm"]), content="x y z")
                with lock:
                    stored.append(fid)
                service.enforce_budget("busy")
        except BaseException as exc:
            errors.append(exc)

    def evictor() -> None:
        service = ContextTierService(scopedb_db, budget=budget, projects={"busy"}, on_move=record)
        try:
            tiers: tuple[Tier, ...] = ("hot", "warm", "cold")
            for _ in range(40):
                for tier in tiers:
                    service.evict_lru(tier, project="busy", count=2)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(4)] + [
        threading.Thread(target=evictor) for _ in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    with psycopg.connect(scopedb_db.dsn) as admin:
        present = {row[0]: row[1] for row in admin.execute("SELECT id, tier FROM scopedb.fragments")}
    evictions = [m.id for m in moves if m.to is None]
    assert evictions, "the budget is small enough that fragments must have been evicted"
    # Nothing evicted twice, nothing both evicted and present, nothing lost.
    assert len(evictions) == len(set(evictions))
    assert not set(evictions) & set(present)
    assert set(stored) == set(present) | set(evictions)
    # No fragment moved out of the same tier twice, and each present fragment is where its moves put it.
    assert max(Counter((m.id, m.frm) for m in moves).values()) == 1
    depth = {"hot": 0, "warm": 1, "cold": 2}
    deepest: dict[str, str] = {}
    for m in moves:  # reports arrive after each commit, possibly out of order across threads
        if m.to is not None and depth[m.to] >= depth.get(deepest.get(m.id, "hot"), 0):
            deepest[m.id] = m.to
    assert all(present[fid] == tier for fid, tier in deepest.items() if fid in present)
