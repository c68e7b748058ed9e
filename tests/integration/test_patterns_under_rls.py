"""Path globs, name patterns and the temporal scope, enforced by PostgreSQL: for generated fragments and scopes,
what scopedb_app sees under RLS is exactly what ResourceScope/ScopedBackendView decide in Python."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest

from scopedb import Database, Fragment, ResourceScope, ScopeViolationError
from scopedb.backends import FragmentRecord
from scopedb.view import ScopedBackendView
from tests.conftest import Tenants

DIRS = ["src", "tests", "docs", "node_modules", "__pycache__", "lib", "a.b", "spaced dir", "ünï"]
FILES = ["main.py", "test_main.py", "readme.md", "index.js", "util.py", "x+y.txt", "[1].py", "test_util.js"]
SEGMENTS = ["acme", "commerce", "internal", "Order", "OrderLine", "Invoice", "common", "deep", "Ünïcode"]

SCOPES: list[dict[str, Any]] = [
    {"include_paths": {"src/**/*.py", "tests/**/*.py"}},
    {"exclude_paths": {"**/node_modules/**", "**/__pycache__/**"}},
    {"include_paths": {"src/**/*.py"}, "exclude_paths": {"**/test_*"}},
    {"include_paths": {"**/*.js", "a.b/**"}},
    {"include_names": {"acme::**"}, "exclude_names": {"acme::internal::**"}},
    {"include_names": {"acme::*", "*::Order*"}},
    {"exclude_names": {"**::Invoice"}},
    {"include_paths": {"docs/**"}, "include_names": {"acme::**"}},
    {"include_names": {"acme::**::Order"}},
    {"include_paths": {"**"}, "exclude_names": {"**"}},
    {"include_paths": {"spaced dir/**", "ünï/*"}, "exclude_paths": {"**/[1].py"}},
]


def _generate(rng: random.Random, n: int) -> list[tuple[str | None, str | None]]:
    rows: list[tuple[str | None, str | None]] = []
    for _ in range(n):
        path = None if rng.random() < 0.05 else "/".join([*rng.choices(DIRS, k=rng.randint(0, 3)), rng.choice(FILES)])
        fqn = None if rng.random() < 0.05 else "::".join(rng.choices(SEGMENTS, k=rng.randint(1, 4)))
        rows.append((path, fqn))
    return rows


def _visible_ids(db: Database, scope: ResourceScope) -> set[str]:
    with db.scoped(scope) as s:
        return {row[0] for row in s.execute("SELECT id FROM scopedb.fragments")}


def test_1000_generated_paths_and_names_are_hidden_exactly_as_python_decides(tenants: Tenants) -> None:
    rng = random.Random(2026_11_29)
    a1 = tenants.resources["a1"].id
    generated = _generate(rng, 1000)
    records = [
        FragmentRecord(id=f"g{n}", project_name="acme/api", resource_id=a1 if n % 3 else None, path=path, fqn=fqn)
        for n, (path, fqn) in enumerate(generated)
    ]
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.add_fragments(
            Fragment(project="acme/api", id=r.id, resource_id=r.resource_id, path=r.path, fqn=r.fqn, content="g")
            for r in records
        )
    checked = 0
    for extra in SCOPES:
        for narrowing in ({}, {"resource_ids": {a1}}, {"denied_resource_ids": {a1}}):
            scope = ResourceScope(project_names={"acme/api"}, **extra, **narrowing)
            view = ScopedBackendView.from_resource_scope(scope)
            expected = {r.id for r in records if view.is_visible(r)}
            seen = {i for i in _visible_ids(tenants.db, scope) if i.startswith("g")}
            assert seen == expected, f"scope {extra} {narrowing}: {len(seen ^ expected)} fragments differ"
            checked += 1
            if not narrowing and extra != {"include_paths": {"**"}, "exclude_names": {"**"}}:
                # Non-vacuous: each pattern scope hides some generated fragments and shows others.
                assert 0 < len(expected) < len(records), f"scope {extra} does not discriminate"
    assert checked == len(SCOPES) * 3


def test_writes_outside_the_patterns_are_refused(tenants: Tenants) -> None:
    scope = ResourceScope(project_names={"acme/api"}, include_paths={"src/**"}, exclude_names={"acme::internal::**"})
    with tenants.db.scoped(scope) as s:
        s.add_fragment(Fragment(project="acme/api", content="ok", path="src/ok.py", fqn="acme::Ok"))
    for path, fqn in [("docs/x.md", "acme::Ok"), ("src/x.py", "acme::internal::Secret")]:
        with pytest.raises(ScopeViolationError), tenants.db.scoped(scope) as s:
            s.add_fragment(Fragment(project="acme/api", content="no", path=path, fqn=fqn))


def test_unit_separator_cannot_smuggle_a_path_past_the_pattern(tenants: Tenants) -> None:
    """The policy matches resource, path and name joined by U+001F, so that character is refused in them."""
    from scopedb.errors import CheckViolationError

    for path, fqn in [("src/a\x1fb.py", None), (None, "acme\x1fOrder")]:
        with pytest.raises(CheckViolationError), tenants.db.scoped(tenants.scope("acme/api")) as s:
            s.add_fragment(Fragment(project="acme/api", content="x", path=path, fqn=fqn))


def test_temporal_scope_current_all_and_point_in_time(tenants: Tenants) -> None:
    t0 = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    versions = [
        ("v1", t0, t0 + dt.timedelta(days=30)),
        ("v2", t0 + dt.timedelta(days=30), t0 + dt.timedelta(days=60)),
        ("v3", t0 + dt.timedelta(days=60), None),
    ]
    with tenants.db.scoped(tenants.scope("acme/api", temporal_scope="all")) as s:
        s.add_fragments(
            Fragment(project="acme/api", id=i, content=i, valid_from=f, valid_to=t, path="ver.md")
            for i, f, t in versions
        )

    def seen(temporal: Any) -> set[str]:
        scope = ResourceScope(project_names={"acme/api"}, include_paths={"ver.md"}, temporal_scope=temporal)
        return _visible_ids(tenants.db, scope)

    assert seen("all") == {"v1", "v2", "v3"}
    assert seen("current") == {"v3"}
    assert seen(t0 + dt.timedelta(days=10)) == {"v1"}
    assert seen(t0 + dt.timedelta(days=30)) == {"v2"}  # valid_to is exclusive, valid_from inclusive
    assert seen(t0 - dt.timedelta(days=1)) == set()
    # Closing a version makes it invisible to a "current" scope, and PostgreSQL requires an updated row to stay
    # visible to the updater; a scope that sees every version closes it.
    with tenants.db.scoped(tenants.scope("acme/api", temporal_scope="all")) as s:
        closed = s.execute("UPDATE scopedb.fragments SET valid_to = now() WHERE id = 'v3'")
        assert closed.rowcount == 1
    assert seen("current") == set()
