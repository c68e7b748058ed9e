"""The observations that may differ between the two worlds, and why: each is a residual channel named in
docs/security.md (section "Residual channels") that cannot be closed inside PostgreSQL, or an open defect that
the issue tracker says is being closed. Everything else must be identical, or the suite fails with the diff."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Residual:
    """Observations matching ``pattern`` may differ, because of ``reason`` (``docs`` names its entry)."""

    key: str
    pattern: str
    docs: str
    reason: str
    open_defect: bool = False

    def covers(self, name: str) -> bool:
        return re.fullmatch(self.pattern, name) is not None


ALLOWED: list[Residual] = [
    Residual(
        "row-order",
        r"sql\.[a-z_]+\.unordered\.nodes",
        "docs/security.md, residual channels: row order",
        "an unordered query returns A's rows in physical order, and B's writes (to the same heap and the same "
        "free-space map) decide where A's rows land; only ORDER BY makes order part of the answer. Fragments are "
        "not shared: each project's are in a partition of their own, so their order is A's alone",
    ),
    Residual(
        "plan-shape",
        r"explain\..*",
        "docs/security.md, residual channels: plans and statistics",
        "the planner chooses a plan from table-wide statistics (row counts, value frequencies) of tables every "
        "tenant shares; PostgreSQL keeps no per-tenant statistics",
    ),
    Residual(
        "explain-analyze",
        r"analyze\..*",
        "docs/security.md, residual channels: EXPLAIN ANALYZE",
        "counters (rows removed by a filter, buffers, loops) count B's rows a scan visited before the policy "
        "removed them, and a policy InitPlan shows '(never executed)' when a cheap leakproof predicate of A's "
        "removed every row first: one bit about whether any row anywhere matches A's predicate",
    ),
    Residual(
        "sizes",
        r"catalog\.sizes",
        "docs/security.md, residual channels: sizes",
        "reltuples, relpages and pg_relation_size, readable by every role, describe whole tables and each "
        "project's own partitions",
    ),
    Residual(
        "statistics-counters",
        r"catalog\.stats",
        "docs/security.md, residual channels: sizes",
        "pg_stat_user_tables counts every tenant's inserts and deletes, per project's partition too; readable "
        "by every role",
    ),
]


def residual_for(name: str) -> Residual | None:
    """The allow-list entry covering observation ``name``, if any."""
    return next((r for r in ALLOWED if r.covers(name)), None)


def verdict(first: dict[str, object], second: dict[str, object]) -> tuple[list[str], dict[str, int]]:
    """The differences that are not allowed (each as a readable diff), and how many each residual absorbed."""
    problems: list[str] = []
    absorbed: dict[str, int] = {}
    for name in sorted(set(first) | set(second)):
        one, two = first.get(name, "<absent>"), second.get(name, "<absent>")
        if one == two:
            continue
        allowed = residual_for(name)
        if allowed is not None:
            absorbed[allowed.key] = absorbed.get(allowed.key, 0) + 1
            continue
        problems.append(f"{name}:\n    world 1: {_short(one)}\n    world 2: {_short(two)}")
    return problems, absorbed


def _short(value: object, limit: int = 600) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"
