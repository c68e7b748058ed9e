"""Scoped views over backends, and the validators services call before they query.

A :class:`ScopedBackendView` is the Python-side statement of a scope: which projects, which resources, which
are denied, and (when built from a :class:`ResourceScope`) which paths, names and versions. It decides visibility
for the in-memory backends and is what every backend receives with a query. On PostgreSQL the same decision is
made again, independently, by row-level security; the view is never the only line of defence there.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from functools import cached_property
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from scopedb.backends.base import (
    FragmentRecord,
    GraphBackend,
    GraphResult,
    TextBackend,
    TextHit,
    VectorBackend,
    VectorHit,
)
from scopedb.errors import ScopeViolationError
from scopedb.scope import Identifier, ResourceScope, as_frozenset

ProjectSet = Annotated[frozenset[Identifier], Field(min_length=1)]


class ScopedBackendView(BaseModel):
    """The projects and resources a query may see (lists and tuples are accepted and stored as frozensets)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    allowed_projects: ProjectSet
    resource_ids: frozenset[Identifier] = frozenset()
    denied_resource_ids: frozenset[Identifier] = frozenset()
    resources_narrowed: bool = False
    # Set when the view comes from a ResourceScope: paths, names and the temporal scope apply too.
    scope: ResourceScope | None = None

    @field_validator("allowed_projects", "resource_ids", "denied_resource_ids", mode="before")
    @classmethod
    def _coerce_collections(cls, value: Any) -> Any:
        return as_frozenset(value)

    @classmethod
    def from_resource_scope(cls, scope: ResourceScope) -> ScopedBackendView:
        """The view of a scope: its projects, resources, denials, and its path, name and temporal filters."""
        return cls(
            allowed_projects=scope.project_names,
            resource_ids=scope.resource_ids,
            denied_resource_ids=scope.denied_resource_ids,
            resources_narrowed=scope.resources_narrowed,
            scope=scope,
        )

    def to_resource_scope(self) -> ResourceScope:
        """The scope this view states (what a database-backed backend enters for each query)."""
        return self._scope

    @cached_property
    def _scope(self) -> ResourceScope:
        # One scope model: the view's rules are the ResourceScope's (scopedb.scope), never restated here.
        if self.scope is not None:
            return self.scope
        return ResourceScope(
            project_names=self.allowed_projects,
            resource_ids=self.resource_ids,
            denied_resource_ids=self.denied_resource_ids,
            resources_narrowed=self.resources_narrowed,
        )

    @property
    def narrows_resources(self) -> bool:
        """Whether only the listed resources are visible (:attr:`ResourceScope.narrows_resources`)."""
        return self._scope.narrows_resources

    @property
    def effective_scope(self) -> frozenset[str]:
        """The resources this view can see (:attr:`ResourceScope.effective_resource_ids`)."""
        return self._scope.effective_resource_ids

    def allows_project(self, name: str) -> bool:
        """Whether ``name`` is one of the view's projects."""
        return name in self.allowed_projects

    def is_visible(self, fragment: FragmentRecord, *, now: dt.datetime | None = None) -> bool:
        """Whether ``fragment`` is inside this view.

        A fragment without a project is never visible; a fragment without a resource is visible only when the
        view does not narrow to resources; a denied resource is never visible.
        """
        scope = self._scope
        if not fragment.project_name or not scope.contains_project(fragment.project_name):
            return False
        if not scope.contains_resource(fragment.resource_id or ""):
            return False
        if self.scope is None:
            return True  # a view built from lists, without paths, names or time
        at = now or dt.datetime.now(dt.UTC)
        return (
            scope.matches_path(fragment.path)
            and scope.matches_name(fragment.fqn)
            and scope.sees_version(fragment.valid_from, fragment.valid_to, now=at)
        )

    def require_effective_scope(self) -> None:
        """Refuse to query a view that narrows to resources and denies all of them: it could only see nothing,
        which is almost always a configuration error worth reporting rather than an empty answer."""
        self._scope.require_effective()

    # Proxies: the view is injected into every backend call ---------------------------------------------------------

    def search_text(self, backend: TextBackend, query: str, *, limit: int = 10) -> list[TextHit]:
        """Text search through ``backend``, restricted to this view."""
        self.require_effective_scope()
        return backend.search_text(query, view=self, limit=limit)

    def search_vector(self, backend: VectorBackend, embedding: Sequence[float], *, limit: int = 10) -> list[VectorHit]:
        """Vector search through ``backend``, restricted to this view."""
        self.require_effective_scope()
        return backend.search_vector(embedding, view=self, limit=limit)

    def search_graph(
        self,
        backend: GraphBackend,
        start: str | Sequence[str],
        *,
        depth: int = 2,
        relations: Sequence[str] | None = None,
    ) -> GraphResult:
        """Graph traversal through ``backend``, restricted to this view."""
        self.require_effective_scope()
        return backend.search_graph(start, view=self, depth=depth, relations=relations)


class ScopedBackendSet:
    """A view plus whichever backends a service has; a missing backend answers with an empty result."""

    def __init__(
        self,
        view: ScopedBackendView,
        *,
        text: TextBackend | None = None,
        vector: VectorBackend | None = None,
        graph: GraphBackend | None = None,
    ) -> None:
        self.view = view
        self.text = text
        self.vector = vector
        self.graph = graph

    @classmethod
    def from_resource_scope(
        cls,
        scope: ResourceScope,
        *,
        text: TextBackend | None = None,
        vector: VectorBackend | None = None,
        graph: GraphBackend | None = None,
    ) -> ScopedBackendSet:
        """A set over the view of ``scope``."""
        return cls(ScopedBackendView.from_resource_scope(scope), text=text, vector=vector, graph=graph)

    def search_text(self, query: str, *, limit: int = 10) -> list[TextHit]:
        """Text search, or [] without a text backend."""
        return [] if self.text is None else self.view.search_text(self.text, query, limit=limit)

    def search_vector(self, embedding: Sequence[float], *, limit: int = 10) -> list[VectorHit]:
        """Vector search, or [] without a vector backend."""
        return [] if self.vector is None else self.view.search_vector(self.vector, embedding, limit=limit)

    def search_graph(
        self, start: str | Sequence[str], *, depth: int = 2, relations: Sequence[str] | None = None
    ) -> GraphResult:
        """Graph traversal, or an empty GraphResult without a graph backend."""
        if self.graph is None:
            return GraphResult()
        return self.view.search_graph(self.graph, start, depth=depth, relations=relations)


def validate_project_scope(requested: Iterable[str], available: Iterable[str]) -> None:
    """Refuse a request for projects outside ``available`` (the caller's scope).

    Empty ``requested`` or ``available`` is a programming error (ValueError); any project outside is a
    :class:`ScopeViolationError` naming the projects involved.
    """
    wanted, allowed = frozenset(requested), frozenset(available)
    if not wanted:
        raise ValueError("no projects requested")
    if not allowed:
        raise ValueError("no projects available to validate against")
    outside = wanted - allowed
    if outside:
        raise ScopeViolationError(
            f"{len(outside)} requested project(s) outside the scope",
            scope_project_names=allowed,
            outside_project_names=outside,
        )


def validate_resource_scope(requested: Iterable[str], scope: ResourceScope) -> None:
    """Refuse resources the scope does not admit (an empty request passes)."""
    outside = sorted(r for r in frozenset(requested) if not scope.contains_resource(r))
    if outside:
        raise ScopeViolationError(
            f"{len(outside)} requested resource(s) outside the scope",
            resource_ids=outside,
            scope_project_names=scope.project_names,
        )
