"""Soak: a bounded mixed workload on 4 connections — reads, writes, tier evictions, note stores, audits — with
every row checked against the scope that read it.

CI runs the short version (400 operations). For a longer run::

    SCOPEDB_SOAK_OPERATIONS=20000 .venv/bin/python -m pytest tests/reliability/test_soak.py -s

It prints throughput, p99 latency per operation kind, errors and leaked rows; errors and leaks must be 0.
"""

from __future__ import annotations

import os
import random
import statistics
import threading
import time
from collections import defaultdict
from collections.abc import Callable

from scopedb import Database, Fragment, ResourceScope
from scopedb.notes import NoteStore
from scopedb.server import Server
from scopedb.tiers import ContextTierService
from tests.conftest import Tenants

WORKERS = 4
OPERATIONS = int(os.environ.get("SCOPEDB_SOAK_OPERATIONS", "400"))


def test_mixed_workload_has_no_errors_and_no_leaks(tenants: Tenants) -> None:
    db = Database(Server(dsn=tenants.db.dsn, backend=tenants.db.server.backend), app_dsn=tenants.db.app_dsn,
                  pool_size=WORKERS)  # fmt: skip
    ids = {"acme/api": tenants.a.id, "beta/web": tenants.b.id}
    tiers = ContextTierService(db)
    latencies: dict[str, list[float]] = defaultdict(list)
    errors: list[str] = []
    leaked = [0]
    checked = [0]
    lock = threading.Lock()

    def scope_for(rng: random.Random) -> tuple[ResourceScope, set[int]]:
        names = rng.choice([["acme/api"], ["beta/web"], ["acme/api", "beta/web"]])
        return ResourceScope(project_names=set(names)), {ids[n] for n in names}

    def read(rng: random.Random, worker: int, n: int) -> None:
        scope, allowed = scope_for(rng)
        with db.scoped(scope) as s:
            projects = [r[0] for r in s.execute("SELECT project_id FROM scopedb.fragments").rows]
            hits = s.search_text("fragment auth", limit=20)
            vector = s.search_vector([1.0, 1.0] + [0.0] * 382, limit=5)
        names = {n for n, pid in ids.items() if pid in allowed}
        outside = sum(p not in allowed for p in projects)
        outside += sum(h.fragment.project_name not in names for h in hits)
        outside += sum(h.fragment.project_name not in names for h in vector)
        with lock:
            leaked[0] += outside
            checked[0] += len(projects) + len(hits) + len(vector)

    def write(rng: random.Random, worker: int, n: int) -> None:
        project = rng.choice(list(ids))
        with db.scoped(ResourceScope(project_names={project})) as s:
            s.ingest_fragments([Fragment(project=project, id=f"soak-{worker}-{n}", content=f"soak fragment {n}",
                                         embedding=[rng.random() for _ in range(384)])])  # fmt: skip

    def evict(rng: random.Random, worker: int, n: int) -> None:
        tiers.evict_lru("warm", project=rng.choice(list(ids)), count=2)

    def note(rng: random.Random, worker: int, n: int) -> None:
        project = rng.choice(list(ids))
        notes = NoteStore(db, project)
        notes.store(f"soak note of {project} {worker}-{n}", tags=["soak"])
        found = notes.search("soak note")  # the body names its project: a note of the other one would show it
        with lock:
            checked[0] += len(found)
            leaked[0] += sum(f"of {project} " not in (d.snippet or "") for d in found)

    def audit(rng: random.Random, worker: int, n: int) -> None:
        findings = db.admin().audit()
        if any(f.severity == "error" for f in findings):
            raise AssertionError(f"audit errors: {[f.code for f in findings if f.severity == 'error']}")

    kinds: list[tuple[str, Callable[[random.Random, int, int], None], int]] = [
        ("read", read, 50), ("write", write, 20), ("evict", evict, 10), ("note", note, 15), ("audit", audit, 5),
    ]  # fmt: skip

    def run(worker: int) -> None:
        rng = random.Random(worker)
        for n in range(OPERATIONS // WORKERS):
            name, operation, _ = rng.choices(kinds, weights=[k[2] for k in kinds])[0]
            started = time.perf_counter()
            try:
                operation(rng, worker, n)
            except Exception as exc:
                with lock:
                    errors.append(f"{name}: {type(exc).__name__}: {exc}")
                continue
            with lock:
                latencies[name].append((time.perf_counter() - started) * 1000)

    started = time.perf_counter()
    threads = [threading.Thread(target=run, args=(w,)) for w in range(WORKERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    db.close()

    done = sum(len(v) for v in latencies.values())
    every = sorted(x for v in latencies.values() for x in v)
    p99 = every[min(len(every) - 1, int(0.99 * len(every)))] if every else 0.0
    print(
        f"\nsoak: {done} operations on {WORKERS} connections in {elapsed:.1f} s = {done / elapsed:.0f} ops/s; "
        f"p99 {p99:.1f} ms; errors {len(errors)}; rows checked {checked[0]}; leaked {leaked[0]}"
    )
    for name, values in sorted(latencies.items()):
        ordered = sorted(values)
        print(f"  {name:6} n={len(values):5}  p50 {statistics.median(values):7.1f} ms  "
              f"p99 {ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]:7.1f} ms")  # fmt: skip
    assert errors == [], errors[:5]
    assert leaked[0] == 0
    assert done == OPERATIONS // WORKERS * WORKERS
    assert checked[0] > OPERATIONS
