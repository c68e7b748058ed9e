"""Timing and set-up shared by the benchmark suites.

Every figure is a median over repeated runs and, where it has a baseline, reported as a ratio against that
baseline measured in the same run, interleaved with it: the machine is shared and noisy, and only ratios taken side
by side survive that.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from bench.corpus import Corpus, plan, search_groups
from scopedb import Database, Fragment, ResourceScope
from scopedb.admin import STORAGE_THRESHOLD
from scopedb.server import Server, start_embedded


@dataclass
class Timing:
    """Latencies of one measured action, in milliseconds."""

    samples: list[float]

    @property
    def p50(self) -> float:
        return statistics.median(self.samples)

    @property
    def p95(self) -> float:
        ordered = sorted(self.samples)
        return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def interleaved(
    actions: Mapping[str, Callable[[], Any]], repeat: int, *, warmup: int = 2, budget_ms: float = 0.0
) -> dict[str, Timing]:
    """Time several actions in turn, ``repeat`` rounds, so drift in machine load hits them all alike.

    With ``budget_ms``, rounds go on past ``repeat`` while all the rounds so far took less than that, up to eight
    times ``repeat``: a query of a few tenths of a millisecond then gets a few hundred samples instead of 25, which
    narrows each median's sampling spread, while a slow query keeps ``repeat``. More rounds alone did not steady
    the ratios from one run to the next (the scheduler's placement of client and server did that: see
    :func:`pinned`)."""
    for _ in range(warmup):
        for action in actions.values():
            action()
    samples: dict[str, list[float]] = {name: [] for name in actions}
    started = time.perf_counter()
    rounds = 0
    while rounds < repeat or (rounds < 8 * repeat and (time.perf_counter() - started) * 1000 < budget_ms):
        for name, action in actions.items():
            start = time.perf_counter()
            action()
            samples[name].append((time.perf_counter() - start) * 1000)
        rounds += 1
    return {name: Timing(values) for name, values in samples.items()}


@dataclass
class Bench:
    """A migrated database loaded with a corpus, and what the suites need to query it."""

    db: Database
    corpus: Corpus
    owner: psycopg.Connection[tuple[Any, ...]]
    project_ids: dict[str, int]
    load_seconds: float
    index_seconds: float
    #: Declaring the corpus's search groups and building them (bench.corpus.search_groups), after the projects'.
    group_seconds: float
    groups: dict[str, list[str]]

    def scope(self, projects: list[str]) -> ResourceScope:
        return ResourceScope(project_names=set(projects))

    def ids(self, projects: list[str]) -> list[int]:
        return [self.project_ids[p] for p in projects]


GRAPH_PROJECTS = 60  # graphs for the largest projects only (the graph suite reads the largest of a scope)


@contextmanager
def loaded(
    size: str, *, home: Path | None = None, projects: int | None = None, baseline: bool = True, groups: bool = True
) -> Iterator[Bench]:
    """Start an embedded server, migrate with d=128, and bulk-load the corpus of ``size`` over ``projects``
    tenants (then build the per-project indexes, and with ``groups`` declare and build the search groups of the
    scopes the suites measure)."""
    with tempfile.TemporaryDirectory() as scratch:
        server = _tuned(home or Path(scratch))
        corpus = plan(size, projects=projects)
        db = Database(server, pool_size=8)
        try:
            db.migrate(embedding_dim=corpus.dim)
            admin = db.admin()
            for project, count in corpus.project_sizes.items():
                # A service that knows a tenant will be large gives it its own partitions before loading it, so
                # its rows are never moved out of the shared ones (the maintenance step would do it afterwards).
                admin.create_project(project, own_storage=count >= STORAGE_THRESHOLD)
                corpus.resources[project] = [
                    admin.create_resource(project, alias=f"r{r}").id for r in range(max(1, min(20, count // 2_000)))
                ]
            owner: psycopg.Connection[tuple[Any, ...]] = psycopg.connect(server.dsn, autocommit=True)
            started = time.perf_counter()
            _load(db, corpus.fragments())
            for project in corpus.projects[:GRAPH_PROJECTS]:
                nodes, edges = corpus.graph(project)
                with db.scoped(ResourceScope(project_names={project})) as s:
                    s.ingest_graph(nodes, edges)
            load_seconds = time.perf_counter() - started
            started = time.perf_counter()
            # Each project past the threshold: its own HNSW and GIN index, two builds at a time (2 cores here).
            admin.maintain_storage(online=False, jobs=2)
            owner.execute("VACUUM ANALYZE")
            index_seconds = time.perf_counter() - started
            # The search groups a service searching these scopes would declare; built after the projects' own
            # indexes, and timed apart, so the ingest figures show what each layout costs.
            declared = search_groups(corpus) if groups else {}
            started = time.perf_counter()
            if declared:
                for name, members in declared.items():
                    admin.create_search_group(name, members)
                admin.maintain_storage(online=False, jobs=2)
                owner.execute("VACUUM ANALYZE scopedb_private.group_vectors")
            group_seconds = time.perf_counter() - started
            if baseline:  # the vector suites' shared-index copy (minutes at 1M rows; the other suites need none)
                _baseline(owner)
            # The load leaves gigabytes of dirty buffers (at 1M rows with search groups); written out by the
            # checkpointer over the following minutes, they were written while the first suites measured. Write
            # them now, outside every timing.
            owner.execute("CHECKPOINT")
            ids = {name: pid for pid, name in owner.execute("SELECT id, name FROM scopedb.projects").fetchall()}
            yield Bench(db, corpus, owner, ids, load_seconds, index_seconds, group_seconds, declared)
        finally:
            db.close()
            server.stop()


def _parent(pid: int) -> int:
    """The parent of process ``pid`` (from /proc: the field after the command's closing parenthesis and the
    state)."""
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def _place_server(postmaster: int, cpus: set[int]) -> None:
    """Put the postmaster and the processes it has forked on ``cpus`` (backends forked later inherit them)."""
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if _parent(int(entry.name)) == postmaster:
                    children.append(int(entry.name))
    for pid in (postmaster, *children):
        with contextlib.suppress(ProcessLookupError):
            os.sched_setaffinity(pid, cpus)


@contextmanager
def pinned(owner: psycopg.Connection[tuple[Any, ...]]) -> Iterator[bool]:
    """Run the block with this process on the first CPU and the server (postmaster, its running processes, and the
    backends it forks meanwhile, which inherit its CPU) on the last; yields whether it could (two CPUs or more,
    and the right to move the server's processes).

    Unpinned, the scheduler often wakes a backend on the CPU its client just left: a ``SELECT 1`` round trip then
    costs about 0.03 ms, and about 0.1 ms when the two run apart, and which one a request gets changes from moment
    to moment. On this machine a sub-millisecond query's samples fell into two groups about 0.1 ms apart, and the
    scoped/owner ratio of the 2-hop walk at 0.1% (smoke corpus) came out at 2.05, 2.01 and 1.34 in three blocks of
    400 rounds in a row. Pinned, every round trip crosses from one CPU to the other (0.065-0.125 ms), as it does
    between a service and its database on separate machines, where it costs more still; the same three blocks gave
    1.19, 1.19 and 1.17. The extra round-trip time is in both sides of a ratio: the results also give the
    difference, which does not depend on it."""
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        yield False
        return
    row = owner.execute("SELECT pg_backend_pid()").fetchone()
    assert row is not None
    postmaster = _parent(row[0])
    everything = set(cpus)
    try:
        _place_server(postmaster, {cpus[-1]})
    except PermissionError:
        with contextlib.suppress(PermissionError):
            _place_server(postmaster, everything)
        yield False
        return
    os.sched_setaffinity(0, {cpus[0]})
    try:
        yield True
    finally:
        os.sched_setaffinity(0, everything)
        with contextlib.suppress(PermissionError):
            _place_server(postmaster, everything)


def memory_settings() -> dict[str, str]:
    """The server's memory settings for a benchmark: ``shared_buffers`` a quarter of the machine's memory (at most
    8 GB) and ``effective_cache_size`` three quarters, the usual starting point for a server PostgreSQL has to
    itself. The embedded server's default of 128 MB holds a fraction of a 1M-row corpus's indexes (the vector
    suite's per-project, search-group and baseline HNSW indexes come to about 3 GB), so every search, scopedb's
    and the baselines' alike, read most of its pages through the kernel; runs before 2026-12-05 used it."""
    memory_mb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**20
    return {
        "shared_buffers": f"{min(memory_mb // 4, 8192)}MB",
        "effective_cache_size": f"{memory_mb * 3 // 4}MB",
    }


def _tuned(home: Path) -> Server:
    """The embedded server under ``home``, restarted with :func:`memory_settings` (shared_buffers is read at start)."""
    server = start_embedded(home, database="scopedb_bench")
    with psycopg.connect(server.dsn, autocommit=True) as conn:
        for name, value in memory_settings().items():
            conn.execute(sql.SQL("ALTER SYSTEM SET {} = {}").format(sql.Identifier(name), sql.Literal(value)))
    server.stop()
    return start_embedded(home, database="scopedb_bench")


LOADERS = 2  # concurrent loading sessions: one per core of the machine the committed runs come from


def _load(db: Database, batches: Iterator[list[Fragment]]) -> None:
    """Bulk-load through ``LOADERS`` scoped sessions at once, as a service with a worker per core would; a few
    batches are queued ahead so the generator (client CPU) and the sessions (server CPU) overlap."""

    def load(batch: list[Fragment]) -> None:
        with db.scoped(ResourceScope(project_names={f.project for f in batch})) as s:
            s.ingest_fragments(batch, batch_size=len(batch))

    pending: deque[Future[None]] = deque()
    with ThreadPoolExecutor(max_workers=LOADERS, thread_name_prefix="bench-load") as pool:
        for batch in batches:
            pending.append(pool.submit(load, batch))
            if len(pending) > 2 * LOADERS:
                pending.popleft().result()  # re-raises a failed batch's error
        while pending:
            pending.popleft().result()


def _baseline(owner: psycopg.Connection[tuple[Any, ...]]) -> None:
    """The baselines' own copy of every embedding, under one HNSW index over all rows (what scopedb had before
    per-project storage, and what a shared vector store has). Built outside the ingest timing: it is not scopedb's."""
    owner.execute("SET maintenance_work_mem = '2GB'")
    owner.execute("CREATE SCHEMA bench_baseline")
    owner.execute(
        "CREATE TABLE bench_baseline.vectors AS "
        "SELECT project_id, id, embedding FROM scopedb.fragments WHERE embedding IS NOT NULL"
    )
    owner.execute("CREATE INDEX ON bench_baseline.vectors USING hnsw (embedding vector_cosine_ops)")
    owner.execute("CREATE INDEX ON bench_baseline.vectors (project_id)")
    owner.execute("VACUUM ANALYZE bench_baseline.vectors")
    owner.execute("RESET maintenance_work_mem")
