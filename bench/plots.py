"""PNG figures of the benchmark results (matplotlib, headless)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

LABELS = {0.001: "0.1%", 0.01: "1%", 0.1: "10%", 1.0: "100%"}


def draw(result: dict[str, Any], out: Path) -> list[Path]:
    """Draw the figures of one run; returns the files written."""
    size = result["size"]
    written = []
    if "text" in result:
        fig, ax = plt.subplots(figsize=(7, 3.5))
        for term in ("rare", "medium", "common"):
            rows = [r for r in result["text"]["rows"] if r["term"] == term]
            ax.plot([LABELS[r["fraction"]] for r in rows], [r["ratio_p50"] for r in rows], marker="o", label=term)
        ax.axhline(1.2, color="red", linestyle="--", label="bar 1.2")
        ax.set(title=f"text under RLS / owner with WHERE (p50), {size}", ylabel="ratio", xlabel="scope")
        ax.legend()
        written.append(_save(fig, out / f"{size}-text.png"))
    if "vector" in result:
        fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.5))
        strategies = sorted({r["strategy"] for r in result["vector"]["rows"]})
        for name in strategies:
            rows = [r for r in result["vector"]["rows"] if r["strategy"] == name]
            xs = [LABELS[r["fraction"]] for r in rows]
            left.plot(xs, [r["recall_at_10"] for r in rows], marker="o", label=name)
            right.plot(xs, [r["p50_ms"] for r in rows], marker="o", label=name)
        left.set(title=f"recall@10 vs exact scoped answer, {size}", xlabel="scope", ylim=(0, 1.05))
        right.set(title="p50 latency (ms)", xlabel="scope", yscale="log")
        left.legend(fontsize=7)
        written.append(_save(fig, out / f"{size}-vector.png"))
    if "graph" in result:
        fig, ax = plt.subplots(figsize=(7, 3.5))
        for query in ("2-hop", "4-hop", "shortest path"):
            rows = sorted((r for r in result["graph"]["rows"] if r["query"] == query), key=lambda r: r["visible_nodes"])
            ax.plot(
                [r["visible_nodes"] for r in rows], [r["rls_p50_ms"] for r in rows], marker="o", label=f"{query} RLS"
            )
            ax.plot([r["visible_nodes"] for r in rows], [r["owner_p50_ms"] for r in rows], linestyle=":",
                    label=f"{query} owner")  # fmt: skip
        ax.set(title=f"graph p50 vs visible nodes, {size}", xlabel="visible graph nodes", ylabel="ms", xscale="log")
        ax.legend(fontsize=7)
        written.append(_save(fig, out / f"{size}-graph.png"))
    return written


def growth(results_dir: Path) -> Path | None:
    """p50 of each path at every size that has results (10k, 100k, 1M)."""
    runs = []
    for size in ("smoke", "medium", "full"):
        path = results_dir / f"{size}.json"
        if path.exists():
            runs.append(json.loads(path.read_text()))
    if len(runs) < 2:
        return None
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ns = [r["n"] for r in runs]
    series = {
        "text (common, 100%)": [_pick(r, "text", term="common", fraction=1.0, key="rls_p50_ms") for r in runs],
        "vector scopedb (100%)": [_pick(r, "vector", strategy="scopedb", fraction=1.0, key="p50_ms") for r in runs],
        "graph 2-hop (100%)": [_pick(r, "graph", query="2-hop", fraction=1.0, key="rls_p50_ms") for r in runs],
        "point lookup in scope": [r.get("entry", {}).get("lookup_in_entered_scope_ms") for r in runs],
    }
    for label, values in series.items():
        ax.plot(ns, values, marker="o", label=label)
    ax.set(title="p50 by corpus size", xlabel="fragments", ylabel="ms", xscale="log", yscale="log")
    ax.legend(fontsize=7)
    return _save(fig, results_dir / "growth.png")


def _pick(run: dict[str, Any], suite: str, *, key: str, **where: Any) -> float | None:
    for row in run.get(suite, {}).get("rows", []):
        if all(row.get(k) == v for k, v in where.items()):
            return float(row[key])
    return None


def _save(fig: Any, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
