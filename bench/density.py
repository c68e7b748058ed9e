"""``python -m bench.density --size full``: recall@10 of one HNSW index over the whole corpus, by how densely it is
built and searched.

Why a search group's index is built denser than a project's (sql/03_functions.sql, storage_plan): a group can hold
every row, and over the 1M-row corpus (256 clustered topics) the graph a project's index gets (m 16,
ef_construction 128) left some of a query's neighbours unreachable: recall stopped growing with ef_search. This
loads the corpus's embeddings alone into a plain table on an embedded server (no scopedb, no RLS: the graph's
quality only), builds each layout in turn, and prints recall@10 against the exact answer (numpy) and the p50 of
one search, for several ef_search values. Nothing is written to bench/results.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from psycopg import sql

from bench.corpus import plan
from scopedb.server import start_embedded

LAYOUTS = ((16, 128), (24, 200))  # (m, ef_construction): a project's index, a search group's
EF_SEARCH = (40, 64, 100, 200)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.density")
    parser.add_argument("--size", choices=("smoke", "medium", "full"), default="full")
    parser.add_argument("--queries", type=int, default=50)
    args = parser.parse_args()
    corpus = plan(args.size)
    for project in corpus.projects:
        corpus.resources[project] = ["r"]  # the fragments need a resource each; only their vectors are used here
    vectors = np.asarray([f.embedding for batch in corpus.fragments() for f in batch], dtype=np.float32)
    queries = np.asarray(corpus.query_vectors(args.queries), dtype=np.float32)
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    truth = [set(np.argsort(-(unit @ (q / np.linalg.norm(q))))[:10].tolist()) for q in queries]
    with tempfile.TemporaryDirectory() as home:
        server = start_embedded(Path(home), database="density")
        try:
            with psycopg.connect(server.dsn, autocommit=True) as conn:
                conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
                register_vector(conn)
                conn.execute(sql.SQL("CREATE TABLE v (id integer, embedding vector({}))").format(corpus.dim))
                with conn.cursor().copy("COPY v (id, embedding) FROM STDIN WITH (FORMAT BINARY)") as copy:
                    copy.set_types(["int4", "vector"])
                    for i, row in enumerate(vectors):
                        copy.write_row((i, row))
                conn.execute("SET maintenance_work_mem = '4GB'")
                for m, efc in LAYOUTS:
                    started = time.perf_counter()
                    conn.execute(
                        sql.SQL(
                            "CREATE INDEX v_hnsw ON v USING hnsw (embedding vector_cosine_ops) "
                            "WITH (m = {}, ef_construction = {})"
                        ).format(m, efc)
                    )
                    print(f"m {m}, ef_construction {efc}: built in {time.perf_counter() - started:.0f} s")
                    conn.execute("VACUUM ANALYZE v")
                    for ef in EF_SEARCH:
                        conn.execute(sql.SQL("SET hnsw.ef_search = {}").format(ef))
                        recall, times = [], []
                        for q, expected in zip(queries, truth, strict=True):
                            for _ in range(3):
                                started = time.perf_counter()
                                rows = conn.execute(
                                    "SELECT id FROM v ORDER BY embedding <=> %s LIMIT 10", (q,)
                                ).fetchall()
                                times.append(time.perf_counter() - started)
                            recall.append(len({r[0] for r in rows} & expected) / 10)
                        print(f"  ef_search {ef}: recall@10 {statistics.mean(recall):.3f} (worst query "
                              f"{min(recall):.1f}), p50 {statistics.median(times) * 1000:.2f} ms")  # fmt: skip
                    conn.execute("DROP INDEX v_hnsw")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
