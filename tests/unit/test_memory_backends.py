"""The in-memory reference backends never return what the view cannot see."""

from __future__ import annotations

import datetime as dt

from scopedb import ResourceScope
from scopedb.backends import (
    FragmentRecord,
    GraphEdge,
    GraphNode,
    InMemoryGraphBackend,
    InMemoryTextBackend,
    InMemoryVectorBackend,
)
from scopedb.view import ScopedBackendView

A = ScopedBackendView(allowed_projects={"a"})


def _fragments() -> list[FragmentRecord]:
    return [
        FragmentRecord(id="a1", project_name="a", content="auth flow token", embedding=(1.0, 0.0)),
        FragmentRecord(id="a2", project_name="a", content="auth only", embedding=(0.0, 1.0)),
        FragmentRecord(id="b1", project_name="b", content="auth flow token token", embedding=(1.0, 0.0)),
        FragmentRecord(id="x", project_name="", content="auth flow", embedding=(1.0, 0.0)),
    ]


def test_text_requires_every_term_and_stays_in_view() -> None:
    backend = InMemoryTextBackend(_fragments())
    hits = backend.search_text("auth flow", view=A)
    assert [h.fragment.id for h in hits] == ["a1"]
    assert [h.fragment.id for h in backend.search_text("auth", view=A)] == ["a2", "a1"]
    assert backend.search_text("", view=A) == []


def test_vector_is_exact_cosine_within_the_view() -> None:
    backend = InMemoryVectorBackend(_fragments())
    hits = backend.search_vector([1.0, 0.1], view=A, limit=5)
    assert [h.fragment.id for h in hits] == ["a1", "a2"]
    assert hits[0].distance < hits[1].distance


def test_graph_never_enters_an_invisible_node() -> None:
    nodes = [GraphNode("n1", "a"), GraphNode("n2", "b"), GraphNode("n3", "a"), GraphNode("n4", "a")]
    edges = [GraphEdge(src, dst, rel, project_name="a")
             for src, dst, rel in [("n1", "n2", "related"), ("n2", "n3", "related"), ("n1", "n4", "calls"),
                                   ("n4", "n3", "related")]]  # fmt: skip
    backend = InMemoryGraphBackend(nodes, edges)
    result = backend.search_graph("n1", view=A, depth=3)
    assert result.node_ids == {"n1", "n4", "n3"}  # n3 is reached only through n4, never through hidden n2
    assert all("n2" not in (e.src, e.dst) for e in result.edges)
    assert backend.search_graph("n1", view=A, depth=3, relations=["calls"]).node_ids == {"n1", "n4"}
    assert backend.search_graph("n2", view=A).node_ids == frozenset()
    assert backend.search_graph("n1", view=A, depth=1).node_ids == {"n1", "n4"}


def test_a_node_is_its_project_and_id() -> None:
    """Projects a and b both have a node README; only a's is linked from a:start. A scope over both reaches a's."""
    nodes = [GraphNode("start", "a"), GraphNode("README", "a"), GraphNode("README", "b"), GraphNode("x", "b")]
    edges = [GraphEdge("start", "README", "mentions", project_name="a"),
             GraphEdge("README", "x", "links", project_name="b")]  # fmt: skip
    both = ScopedBackendView(allowed_projects=frozenset({"a", "b"}))
    result = InMemoryGraphBackend(nodes, edges).search_graph("start", view=both, depth=2)
    assert result.node_keys == {("a", "start"), ("a", "README")}
    assert {(e.project_name, e.src, e.dst) for e in result.edges} == {("a", "start", "README")}


def test_view_from_scope_applies_paths_names_and_time() -> None:
    now = dt.datetime(2026, 6, 1, tzinfo=dt.UTC)
    scope = ResourceScope(project_names={"a"}, include_paths={"src/**"}, exclude_names={"x::**"})
    view = ScopedBackendView.from_resource_scope(scope)
    ok = FragmentRecord(id="1", project_name="a", path="src/m.py", fqn="y::Z")
    assert view.is_visible(ok, now=now)
    assert not view.is_visible(FragmentRecord(id="2", project_name="a", path="docs/m.md", fqn="y::Z"), now=now)
    assert not view.is_visible(FragmentRecord(id="3", project_name="a", path="src/m.py", fqn="x::Secret"), now=now)
    expired = FragmentRecord(id="4", project_name="a", path="src/m.py", valid_to=now - dt.timedelta(days=1))
    assert not view.is_visible(expired, now=now)
    all_versions = ScopedBackendView.from_resource_scope(scope.model_copy(update={"temporal_scope": "all"}))
    assert all_versions.is_visible(expired, now=now)
