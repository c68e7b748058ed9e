"""Timing and set-up shared by the benchmark suites.

Every figure is a median over repeated runs and, where it has a baseline, reported as a ratio against that
baseline measured in the same run, interleaved with it: the machine is shared and noisy, and only ratios taken side
by side survive that.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from bench.corpus import Corpus, plan
from scopedb import Database, ResourceScope
from scopedb.server import start_embedded


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


def interleaved(actions: Mapping[str, Callable[[], Any]], repeat: int, *, warmup: int = 2) -> dict[str, Timing]:
    """Time several actions in turn, ``repeat`` rounds, so drift in machine load hits them all alike."""
    for _ in range(warmup):
        for action in actions.values():
            action()
    samples: dict[str, list[float]] = {name: [] for name in actions}
    for _ in range(repeat):
        for name, action in actions.items():
            start = time.perf_counter()
            action()
            samples[name].append((time.perf_counter() - start) * 1000)
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

    def scope(self, projects: list[str]) -> ResourceScope:
        return ResourceScope(project_names=set(projects))

    def ids(self, projects: list[str]) -> list[int]:
        return [self.project_ids[p] for p in projects]


@contextmanager
def loaded(size: str, *, home: Path | None = None) -> Iterator[Bench]:
    """Start an embedded server, migrate with d=128, and bulk-load the corpus of ``size`` (then build indexes)."""
    with tempfile.TemporaryDirectory() as scratch:
        server = start_embedded(home or Path(scratch), database="scopedb_bench")
        corpus = plan(size)
        db = Database(server, pool_size=8)
        try:
            db.migrate(embedding_dim=corpus.dim)
            admin = db.admin()
            for project, count in corpus.project_sizes.items():
                admin.create_project(project)
                corpus.resources[project] = [
                    admin.create_resource(project, alias=f"r{r}").id for r in range(max(1, min(20, count // 2_000)))
                ]
            owner: psycopg.Connection[tuple[Any, ...]] = psycopg.connect(server.dsn, autocommit=True)
            owner.execute("SET maintenance_work_mem = '512MB'")
            indexes = _drop_indexes(owner)
            started = time.perf_counter()
            everything = ResourceScope(project_names=set(corpus.projects))
            for batch in corpus.fragments():
                with db.scoped(everything) as s:
                    s.ingest_fragments(batch, batch_size=len(batch))
            for project in corpus.projects:
                nodes, edges = corpus.graph(project)
                with db.scoped(ResourceScope(project_names={project})) as s:
                    s.ingest_graph(nodes, edges)
            load_seconds = time.perf_counter() - started
            started = time.perf_counter()
            for statement in indexes:
                owner.execute(statement)
            owner.execute("VACUUM ANALYZE")
            index_seconds = time.perf_counter() - started
            ids = {name: pid for pid, name in owner.execute("SELECT id, name FROM scopedb.projects").fetchall()}
            yield Bench(db, corpus, owner, ids, load_seconds, index_seconds)
        finally:
            db.close()
            server.stop()


def _drop_indexes(owner: psycopg.Connection[tuple[Any, ...]]) -> list[Any]:
    """Drop the search indexes before the bulk load and return the statements that rebuild them."""
    rows = owner.execute(
        "SELECT schemaname, indexname, indexdef FROM pg_indexes WHERE indexname IN "
        "('fragments_embedding_idx', 'fragments_tsv_idx', 'fragment_search_tsv_idx')"
    ).fetchall()
    for schema, name, _ in rows:
        owner.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(schema, name)))
    return [definition for _, _, definition in rows]
