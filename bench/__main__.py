"""``python -m bench --size smoke|medium|full``: load a generated corpus and run every suite.

Writes ``bench/results/<size>.json`` and PNG figures next to it, and prints a summary with the bars.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from psycopg import sql

from bench import plots, report, requests, suites
from bench.harness import interleaved, loaded, memory_settings, pinned


def _show(conn: Any, name: str) -> str:
    row = conn.execute(sql.SQL("SHOW {}").format(sql.Identifier(name))).fetchone()
    return str(row[0]) if row else ""


RESULTS = Path(__file__).resolve().parent / "results"
#: The suites that time one request after another on one connection, run with the client and the server on CPUs
#: of their own (bench.harness.pinned; since 2026-12-06). The ingest, entry (its pooled lookups run four client
#: threads) and scale suites run as before.
PINNED = frozenset({"text", "vector", "exact_scan", "graph", "request", "two_tenants"})
REPEAT = {"smoke": 15, "medium": 25, "full": 25}
# The test that keeps the harness from rotting runs smoke with quick=True: fewer repeats, shorter throughput runs,
# and fewer rows for the suites that load their own (ingest, two_tenants: 29 of the test's 53 s at full counts).
QUICK_REPEAT, QUICK_ENTRY_SECONDS, QUICK_QUERIES, QUICK_ROWS = 3, 0.5, 3, 2_000


def run(
    size: str,
    *,
    only: set[str] | None = None,
    results: Path = RESULTS,
    quick: bool = False,
    projects: int | None = None,
    pin: bool = True,
) -> dict[str, Any]:
    """Run the suites on a corpus of ``size`` (over ``projects`` tenants); returns (and writes) the result.
    ``quick`` trades precision for time (for the test that runs the harness)."""
    repeat = QUICK_REPEAT if quick else REPEAT[size]
    entry_seconds = QUICK_ENTRY_SECONDS if quick else 5.0
    queries = QUICK_QUERIES if quick else 10
    # Fast text and graph queries get more rounds than ``repeat`` (bench.harness.interleaved), up to 2 s a case.
    budget_ms = 0.0 if quick else 2000.0
    started = time.perf_counter()
    with loaded(size, projects=projects, baseline=only is None or "vector" in only) as bench:
        result: dict[str, Any] = {
            "size": size,
            "n": bench.corpus.n,
            "dim": bench.corpus.dim,
            "projects": len(bench.corpus.projects),
            "machine": f"{platform.machine()}, {platform.python_version()}",
            "server_settings": {name: _show(bench.owner, name) for name in memory_settings()},
            "command": f"python -m bench --size {size}"
            + (f" --projects {projects}" if projects else "")
            + (f" --only {','.join(sorted(only))}" if only else "")
            + ("" if pin else " --no-pin"),
        }
        chosen: list[tuple[str, Callable[[], dict[str, Any]]]] = [
            ("ingest", functools.partial(suites.ingest, bench, rows=QUICK_ROWS if quick else 5_000)),
            ("entry", functools.partial(suites.entry, bench, 20 if quick else 200, seconds=entry_seconds)),
            ("text", functools.partial(suites.text, bench, repeat, budget_ms=budget_ms)),
            ("vector", functools.partial(suites.vector, bench, 2 if quick else 10, queries)),
            ("exact_scan", functools.partial(suites.exact_scan, bench, repeat)),
            ("graph", functools.partial(suites.graph, bench, repeat, budget_ms=budget_ms)),
            ("scale", functools.partial(suites.scale, bench, repeat)),
            ("request", functools.partial(requests.request, bench, repeat, budget_ms=budget_ms)),
            (
                "two_tenants",
                functools.partial(
                    requests.two_tenants,
                    bench,
                    repeat,
                    rows=QUICK_ROWS if quick else 10_000,
                    queries=10 if quick else 50,
                    budget_ms=budget_ms,
                ),
            ),
        ]
        result["round_trip_ms"] = _round_trip(bench.owner)
        result["round_trip_pinned_ms"] = None
        if pin:
            with pinned(bench.owner) as pinning:
                result["round_trip_pinned_ms"] = _round_trip(bench.owner) if pinning else None
        for name, suite in chosen:
            if only is None or name in only:
                suite_started = time.perf_counter()
                with pinned(bench.owner) if pin and name in PINNED else contextlib.nullcontext(False) as pinning:
                    result[name] = suite()
                result[name]["pinned"] = pinning
                print(f"{name}: {time.perf_counter() - suite_started:.1f} s", file=sys.stderr)
    result["seconds"] = time.perf_counter() - started
    results.mkdir(parents=True, exist_ok=True)
    # A run over another number of projects, or of some suites only, is kept beside the size's whole run (its
    # tables only: the figures are the whole run's), not in its place.
    name = size + (f"-{projects}p" if projects else "") + (f"-{'-'.join(sorted(only))}" if only else "")
    (results / f"{name}.json").write_text(json.dumps(result, indent=2) + "\n")
    if name == size:
        plots.draw(result, results)
        plots.growth(results)
    if results == RESULTS:
        report.update(results)
    return result


def _round_trip(owner: Any) -> float:
    """The median of a ``SELECT 1`` round trip, in milliseconds."""
    return interleaved({"round_trip": lambda: owner.execute("SELECT 1")}, 500)["round_trip"].p50


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--size", choices=("smoke", "medium", "full"), default="smoke")
    parser.add_argument(
        "--only", help="comma-separated suites: ingest,entry,text,vector,exact_scan,graph,scale,request,two_tenants"
    )
    parser.add_argument("--projects", type=int, help="tenants to spread the corpus over (default 20, 40, 60 by size)")
    parser.add_argument(
        "--no-pin", action="store_true", help="leave the client and the server where the scheduler puts them"
    )
    args = parser.parse_args()
    result = run(
        args.size, only=set(args.only.split(",")) if args.only else None, projects=args.projects, pin=not args.no_pin
    )
    print(summary(result))


def summary(result: dict[str, Any]) -> str:
    """The bars, one line each."""
    lines = [f"{result['size']}: {result['n']} fragments, d={result['dim']}, {result['seconds']:.0f} s"]
    if "text" in result:
        lines.append(f"text under RLS / owner WHERE, worst p50 ratio {result['text']['worst_ratio']:.2f} (bar 1.2)")
    if "vector" in result:
        bars = result["vector"]["bars"]
        lines.append(
            f"vector: min(k, visible) always {bars['always_min_k_visible']}; min recall@10 "
            f"{bars['min_recall_at_10']:.3f} (bar 0.99); worst p50 / unfiltered HNSW "
            f"{bars['worst_p50_vs_unfiltered']:.2f} (bar 2)"
            + (
                f"; without search groups {bars['worst_p50_vs_unfiltered_without_groups']:.2f}"
                if bars.get("worst_p50_vs_unfiltered_without_groups") is not None
                else ""
            )
        )
    if "exact_scan" in result:
        e = result["exact_scan"]
        lines.append(f"exact scan of one {e['project_rows']}-row project under RLS / owner WHERE: "
                     f"{e['rls_p50_ms']:.2f} / {e['owner_p50_ms']:.2f} ms (ratio {e['ratio_p50']:.2f})")  # fmt: skip
    if "scale" in result:
        c = result["scale"]
        worst = max(v for per in c["planning_p50_ms"].values() for v in per.values())
        lines.append(f"{c['projects']} projects: worst planning p50 {worst:.2f} ms (bar 1); create_project "
                     f"{c['create_project_p50_ms']:.1f} ms (bar 50); audit {c['audit_p50_s']:.2f} s (bar 2); "
                     f"{c['catalog_relations']} relations, catalog {c['catalog_bytes'] / 2**20:.0f} MiB")  # fmt: skip
    if "graph" in result:
        lines.append(f"graph under RLS / owner, worst p50 ratio {result['graph']['worst_ratio']:.2f} (bar 1.3)")
    if "entry" in result:
        e = result["entry"]
        new = f", new scope over known projects {e['enter_new_scope_ms']:.3f} ms" if "enter_new_scope_ms" in e else ""
        if "enter_new_scope_after_many_ms" in e:
            new += f" ({e['enter_new_scope_after_many_ms']:.3f} ms after {e['many_scopes']:,} more)"
        lines.append(f"scope entry {e['enter_ms']:.3f} ms{new}, again {e['enter_again_ms']:.3f} ms (bar 0.3); "
                     f"scoped/unscoped lookup throughput {e['throughput_ratio']:.2f} (bar 0.8)")  # fmt: skip
    if "ingest" in result:
        i = result["ingest"]
        lines.append(f"ingest: bulk load + index build {i['bulk_load_rows_per_s']:.0f} rows/s (bar 2500); with the "
                     f"search groups {i.get('with_groups_rows_per_s', 0):.0f} rows/s; into "
                     f"indexed tables {i['indexed_table_rows_per_s']:.0f} rows/s")  # fmt: skip
    return "\n".join(lines)


if __name__ == "__main__":
    main()
