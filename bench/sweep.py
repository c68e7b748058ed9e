"""What raising ``ef_search`` buys scopedb's vector path: recall@10 and p50 per scope, exact vs HNSW at several
``ef_search`` values, next to the unfiltered HNSW query at the same values.

    python -m bench.sweep --size medium      # writes bench/results/vector-sweep-medium.json

Made to answer one question from the full run (docs/benchmarks.md): is the recall scopedb's HNSW path loses a
matter of search effort, which a larger ``ef_search`` would buy back, or of the index itself?
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from psycopg import sql

from bench.corpus import scope_for_fraction
from bench.harness import loaded
from scopedb.retrieval import VectorStrategy
from scopedb.vectors import vector_literal

RESULTS = Path(__file__).resolve().parent / "results"
EF_SEARCH = (10, 20, 40, 100, 200)
FRACTIONS = (0.01, 0.1, 1.0)
UNFILTERED = "SELECT id FROM bench_baseline.vectors ORDER BY embedding <=> %s::vector LIMIT 10"


def sweep(size: str, queries: int = 20) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    with loaded(size) as bench:
        for fraction in FRACTIONS:
            projects = scope_for_fraction(bench.corpus, fraction)
            visible = sum(bench.corpus.project_sizes[p] for p in projects)
            vectors = bench.corpus.query_vectors(queries, projects)
            exact = VectorStrategy(exact=True)
            ways = [("exact", exact)] + [
                (f"per-project ef_search={ef}", VectorStrategy(min_ef_search=ef, ef_search_per_k=0)) for ef in EF_SEARCH
            ]
            with bench.db.scoped(bench.scope(projects)) as s:
                truth = [{h.fragment.id for h in s.search_vector(q, limit=10, strategy=exact)} for q in vectors]
                for name, strategy in ways:
                    recall, latency = [], []
                    for q, expected in zip(vectors, truth, strict=True):
                        s.search_vector(q, limit=10, strategy=strategy)  # warm
                        started = time.perf_counter()
                        hits = s.search_vector(q, limit=10, strategy=strategy)
                        latency.append(time.perf_counter() - started)
                        recall.append(len({h.fragment.id for h in hits} & expected) / min(10, visible))
                    p50 = 1000 * statistics.median(latency)
                    rows.append({"fraction": fraction, "visible": visible, "way": name,
                                 "recall_at_10": statistics.mean(recall), "p50_ms": p50})  # fmt: skip
            for ef in EF_SEARCH:
                bench.owner.execute(sql.SQL("SET hnsw.ef_search = {}").format(ef))
                latency = []
                for q in vectors:
                    started = time.perf_counter()
                    bench.owner.execute(UNFILTERED, (vector_literal(q),)).fetchall()
                    latency.append(time.perf_counter() - started)
                rows.append({"fraction": fraction, "visible": visible, "way": f"unfiltered ef_search={ef}",
                             "recall_at_10": None, "p50_ms": 1000 * statistics.median(latency)})  # fmt: skip
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.sweep")
    parser.add_argument("--size", choices=("smoke", "medium", "full"), default="medium")
    args = parser.parse_args()
    rows = sweep(args.size)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"vector-sweep-{args.size}.json").write_text(json.dumps(rows, indent=1) + "\n")
    for row in rows:
        recall = "" if row["recall_at_10"] is None else f"recall@10 {row['recall_at_10']:.3f}"
        print(f"{row['fraction']:>6.1%} {row['visible']:>8} {row['way']:<26} {recall:<16} p50 {row['p50_ms']:.2f} ms")


if __name__ == "__main__":
    main()
