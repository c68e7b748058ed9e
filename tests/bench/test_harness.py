"""The benchmark harness runs end to end on the smoke corpus, so it cannot rot between the runs that matter.

Timing bars are not asserted here (a test on a shared machine cannot hold them); what is asserted is what must hold
at any speed: every section is produced, scopedb's vector search returns min(k, visible) rows with the exact
answer on small scopes, and the figures and the document tables are written.
"""

from __future__ import annotations

import json
from pathlib import Path

from bench import report
from bench.__main__ import run, summary


def test_smoke_run_writes_every_section_and_figure(tmp_path: Path) -> None:
    result = run("smoke", results=tmp_path, quick=True)
    written = json.loads((tmp_path / "smoke.json").read_text())
    assert written["n"] == 10_000
    assert {"ingest", "entry", "text", "vector", "graph"} <= set(written)
    for name in ("smoke-text.png", "smoke-vector.png", "smoke-graph.png"):  # growth.png needs two sizes
        assert (tmp_path / name).stat().st_size > 1_000, name
    scopedb_rows = [r for r in written["vector"]["rows"] if r["strategy"] == "scopedb"]
    assert len(scopedb_rows) == 4
    assert all(r["rows_min"] == r["expected_rows"] for r in scopedb_rows)
    # Scopes at or below the exact threshold are answered exactly.
    assert all(r["recall_at_10"] == 1.0 for r in scopedb_rows if r["fraction"] <= 0.1)
    assert all(r["rows"] <= 10 for r in written["text"]["rows"])
    assert written["ingest"]["bulk_load_rows"] == 10_000
    assert "vector: min(k, visible) always True" in summary(result)

    doc = tmp_path / "benchmarks.md"
    doc.write_text(f"# Benchmarks\n\nprose\n\n{report.START}\nold\n{report.END}\n\nmore prose\n")
    report.update(tmp_path, doc)
    text = doc.read_text()
    assert "old" not in text
    assert "python -m bench --size smoke" in text
    assert text.endswith("more prose\n")
