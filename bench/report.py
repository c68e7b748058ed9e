"""Render the latest results as the tables of ``docs/benchmarks.md``.

``python -m bench`` calls :func:`update` after each run, so the document always shows what the last run of each
size measured; the prose around the tables (what the figures mean, what was tried) is written by hand and kept.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
DOC = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"
START, END = "<!-- bench:tables:start -->", "<!-- bench:tables:end -->"
SCOPES = {0.001: "0.1%", 0.01: "1%", 0.1: "10%", 1.0: "100%"}


def _pinning(result: dict[str, Any]) -> str:
    """Where the client and the server ran, and what a round trip cost (runs from 2026-12-06 on)."""
    if "round_trip_ms" not in result:
        return ""
    pinned = sorted(name for name, suite in result.items() if isinstance(suite, dict) and suite.get("pinned"))
    line = f" A `SELECT 1` round trip: {result['round_trip_ms']:.3f} ms"
    if result.get("round_trip_pinned_ms") is not None:
        line += f", {result['round_trip_pinned_ms']:.3f} ms with the client and the server on CPUs of their own"
    line += "."
    if pinned:
        line += f" Pinned so: {', '.join(pinned)} (bench.harness.pinned)."
    return line


def _ms(value: float) -> str:
    return f"{value:.2f}" if value < 10 else f"{value:.1f}"


def tables(result: dict[str, Any]) -> str:
    """Markdown tables for one result file."""
    out = [
        f"### `{result['command']}` — {result['n']:,} fragments, d={result['dim']}, {result['projects']} projects",
        "",
        f"Machine: {result['machine']}; the run took {result['seconds']:.0f} s."
        + "".join(f" `{k}` {v}." for k, v in result.get("server_settings", {}).items())
        + _pinning(result),
        "",
    ]
    if "text" in result:
        out += [
            "**Text under RLS vs the owner's explicit WHERE** (p50 ms; bar: ratio ≤ 1.2; the difference, scopedb's "
            "p50 less the owner's, does not depend on the round trip)",
            "",
            "| scope | term | rows | scopedb p50 | owner p50 | ratio | difference |",
            "|---|---|---|---|---|---|---|",
        ]
        for r in result["text"]["rows"]:
            out.append(
                f"| {SCOPES[r['fraction']]} | {r['term']} | {r['rows']} | {_ms(r['rls_p50_ms'])} | "
                f"{_ms(r['owner_p50_ms'])} | {r['ratio_p50']:.2f} | {_ms(r['rls_p50_ms'] - r['owner_p50_ms'])} |"
            )
        out.append("")
    if "vector" in result:
        v = result["vector"]
        out += [
            f"**Vector under RLS** (k=10, ef_search={v['ef_search']} for scopedb and the shared-index baselines; "
            "bars for scopedb: min(10, visible) rows, recall@10 ≥ 0.99, p50 ≤ 2x unfiltered HNSW)",
            "",
            "| scope | projects | strategy | rows (min) | recall@10 | p50 ms | p95 ms |",
            "|---|---|---|---|---|---|---|",
        ]
        for r in v["rows"]:
            out.append(
                f"| {SCOPES[r['fraction']]} | {r.get('projects', '')} | {r['strategy']} | "
                f"{r['rows_min']}/{r['expected_rows']} | {r['recall_at_10']:.3f} | {_ms(r['p50_ms'])} | "
                f"{_ms(r['p95_ms'])} |"
            )
        bars = v["bars"]
        worst = bars["worst_p50_vs_unfiltered"]
        alone = bars.get("worst_p50_vs_unfiltered_without_groups")
        out += [
            "",
            f"scopedb: min(k, visible) always: **{bars['always_min_k_visible']}**; worst recall@10 "
            f"**{bars['min_recall_at_10']:.3f}**; worst p50 / unfiltered HNSW **{worst:.2f}**"
            + (
                f" (each scope of several projects through its search group; the same scopes one index per project,"
                f" `scopedb_no_group`, against `unfiltered_hnsw_no_group` timed beside them: worst {alone:.2f})"
                if alone is not None
                else ""
            ),
            "",
        ]
    if "exact_scan" in result:
        e = result["exact_scan"]
        out += [
            f"**Exact scan of one whole project** ({e['project_rows']:,} rows, current time, nothing for the policy "
            f"to filter): scopedb {_ms(e['rls_p50_ms'])} ms, the owner's WHERE without RLS "
            f"{_ms(e['owner_p50_ms'])} ms, ratio {e['ratio_p50']:.2f}",
            "",
        ]
    if "scale" in result:
        c = result["scale"]
        out += [
            f"**{c['projects']:,} projects** (bars: planning ≤ {c['planning_bar_ms']} ms, create_project ≤ "
            f"{c['create_project_bar_ms']} ms, audit ≤ {c['audit_bar_s']} s)",
            "",
            "| scope | text planning ms | vector planning ms | graph planning ms |",
            "|---|---|---|---|",
            *[
                f"| {label} | {p['text']:.2f} | {p['vector']:.2f} | {p['graph']:.2f} |"
                for label, p in c["planning_p50_ms"].items()
            ],
            "",
            f"create_project p50 {c['create_project_p50_ms']:.1f} ms; "
            + (
                f"moving a {c['move_project_rows']:,}-row project out of the shared partitions "
                f"{c['move_project_ms']:.0f} ms; "
                if "move_project_ms" in c
                else ""
            )
            + f"audit {c['audit_p50_s']:.2f} s "
            f"({c['audit_errors']} errors); catalog: {c['catalog_relations']:,} relations "
            f"({c['catalog_partition_relations']:,} in scopedb_parts: partitions, their indexes and TOAST tables), "
            f"{c['catalog_bytes'] / 2**20:.0f} MiB in pg_catalog",
            "",
        ]
    if "graph" in result:
        out += [
            "**Graph under RLS vs the same SQL as the owner** (p50 ms; bar: ratio ≤ 1.3; the difference, scopedb's p50 "
            "less the owner's, does not depend on the round trip)",
            "",
            "| scope | query | visible nodes | scopedb p50 | owner p50 | ratio | difference |",
            "|---|---|---|---|---|---|---|",
        ]
        for r in result["graph"]["rows"]:
            out.append(
                f"| {SCOPES[r['fraction']]} | {r['query']} | {r['visible_nodes']} | {_ms(r['rls_p50_ms'])} | "
                f"{_ms(r['owner_p50_ms'])} | {r['ratio_p50']:.2f} | {_ms(r['rls_p50_ms'] - r['owner_p50_ms'])} |"
            )
        out.append("")
    if "entry" in result:
        e = result["entry"]
        out += [
            "**Scope entry and pooled point lookups**",
            "",
            "| measure | value | bar |",
            "|---|---|---|",
            f"| entering a signed scope the database resolves (median less a round trip; then COMMIT) | "
            f"{e['enter_ms']:.3f} ms | ≤ 0.3 ms |",
            *(
                [
                    f"| entering a new scope over projects seen before (resolved where signed; then COMMIT) | "
                    f"{e['enter_new_scope_ms']:.3f} ms | ≤ 0.3 ms |"
                ]
                if "enter_new_scope_ms" in e
                else []
            ),
            *(
                [
                    f"| the same, after {e['many_scopes']:,} more new scopes on the connection (the memo's upkeep) | "
                    f"{e['enter_new_scope_after_many_ms']:.3f} ms | |"
                ]
                if "enter_new_scope_after_many_ms" in e
                else []
            ),
            *(
                [f"| entering it again, its resolved token kept | {e['enter_again_ms']:.3f} ms | ≤ 0.3 ms |"]
                if "enter_again_ms" in e
                else []
            ),
            *(
                [
                    f"| the same two ended by ROLLBACK (which undoes the memo's write) | "
                    f"{e['enter_rolled_back_ms']:.3f} / {e['enter_again_rolled_back_ms']:.3f} ms | |"
                ]
                if "enter_rolled_back_ms" in e
                else []
            ),
            f"| one round trip (`SELECT 1`) | {e['round_trip_ms']:.3f} ms | |",
            f"| point lookup inside an entered scope | {e['lookup_in_entered_scope_ms']:.3f} ms | |",
            f"| scoped lookups/s over the pool (a `with db.scoped()` block each) | {e['scoped_lookup_tps']:.0f} | |",
            *(
                [f"| scoped lookups/s over the pool (`db.run`, one round trip each) | {e['run_lookup_tps']:.0f} | |"]
                if "run_lookup_tps" in e
                else []
            ),
            f"| unscoped lookups/s over the pool | {e['unscoped_lookup_tps']:.0f} | |",
            f"| ratio (scoped / unscoped) | {e['throughput_ratio']:.2f} | ≥ 0.8 |",
            "",
        ]
    if "request" in result:
        out += [
            "**One request**: enter the scope, one search, commit and clean — a kept scope (a service's steady state) —"
            " against the same query with no scope (owner, autocommit, one round trip); round trips counted on the"
            " wire",
            "",
            "| search | `db.search_*` | round trips | `with db.scoped()` | round trips | no scope | ratio |",
            "|---|---|---|---|---|---|---|",
        ]
        for r in result["request"]["rows"]:
            out.append(
                f"| {r['kind']} | {_ms(r['request_p50_ms'])} | {r['request_round_trips']} | {_ms(r['block_p50_ms'])} | "
                f"{r['block_round_trips']} | {_ms(r['unscoped_p50_ms'])} | {r['request_ratio']:.2f} |"
            )
        out.append("")
    if "two_tenants" in result:
        t = result["two_tenants"]
        out += [
            f"**Two tenants, {t['rows']:,} vectors of {t['dim']} dimensions, 95/5**: enter + search_vector(k=10) +"
            " commit per request, kept scope",
            "",
            "| tenant | rows | p50 | p95 | recall@10 | bar |",
            "|---|---|---|---|---|---|",
        ]
        for label, pair in (("", t["tenants"]), (" (uniformly random vectors)", t.get("uniform", {}))):
            for name, r in pair.items():
                bar = "—" if label else f"≤ {r['bar_ms']} ms at recall 1.00"
                out.append(
                    f"| {name}{label} | {r['rows']:,} | {_ms(r['request_p50_ms'])} | {_ms(r['request_p95_ms'])} | "
                    f"{r['recall_at_10']:.3f} | {bar} |"
                )
        out.append("")
        out.append(
            "The bar's rows draw each tenant's vectors around a few topics of the corpus, as embeddings lie; "
            "the uniform rows are the worst case of any ANN index, reported for their recall."
        )
        out.append("")
    if "ingest" in result:
        i = result["ingest"]
        out += [
            "**Ingest** (fragments with d=128 embeddings, through the bulk path)",
            "",
            "| measure | value | bar |",
            "|---|---|---|",
            f"| bulk load of {i['bulk_load_rows']:,} rows (no search index yet) | {i['bulk_load_seconds']:.1f} s = "
            f"{i['bulk_load_only_rows_per_s']:,.0f} rows/s | |",
            f"| then the maintenance step: each project's HNSW and GIN index | {i['index_build_seconds']:.1f} s | |",
            f"| bulk load + index build | {i['bulk_load_rows_per_s']:,.0f} rows/s | ≥ 2,500 rows/s (stretch 5,000) |",
            *(
                [
                    f"| then {i['search_groups']} search groups ({i['search_group_rows']:,} rows copied and indexed "
                    f"again) | {i['group_build_seconds']:.1f} s | |",
                    f"| bulk load + every index build, the groups' too | {i['with_groups_rows_per_s']:,.0f} rows/s | "
                    "≥ 2,500 rows/s (stretch 5,000) |",
                ]
                if i.get("search_groups")
                else []
            ),
            f"| into the indexed tables (5,000 rows, batches of 1,000) | {i['indexed_table_rows_per_s']:,.0f} "
            "rows/s | |",
            "",
        ]
    figures = [f"{result['size']}-{name}.png" for name in ("text", "vector", "graph") if name in result]
    if "--projects" in result["command"] or "--only" in result["command"]:
        figures = []  # the figures are drawn from the size's whole run alone
    out += [f"![{name}](../bench/results/{name})" for name in figures]
    return "\n".join(out) + "\n"


def update(results: Path = RESULTS, doc: Path = DOC) -> None:
    """Replace the generated part of ``doc`` with tables for every result file present (full, medium, smoke)."""
    sections = []
    for size in ("full", "medium", "smoke"):
        # The size's whole run first, then the runs of some suites or over another number of projects.
        for path in sorted(results.glob(f"{size}*.json"), key=lambda p: (p.stem != size, p.stem)):
            sections.append(tables(json.loads(path.read_text())))
    if (results / "growth.png").exists():
        sections.append(
            "**Growth**: each path's p50 at every size measured.\n\n![growth](../bench/results/growth.png)\n"
        )
    if not doc.exists() or START not in (text := doc.read_text()):
        return
    head, rest = text.split(START, 1)
    tail = rest.split(END, 1)[1] if END in rest else ""
    doc.write_text(head + START + "\n\n" + "\n".join(sections) + "\n" + END + tail)


if __name__ == "__main__":
    update()
