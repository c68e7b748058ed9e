"""Resource aliases, and turning "these projects, with/without these resources" into a :class:`ResourceScope`.

Users name resources by alias ("repo", "docs"); scopes carry resource ids. :class:`ResourceAliasResolver` maps one
to the other, :func:`resolve_resource_scope` builds the scope, expanding each chosen resource to its child
resources (a monorepo to its packages) through ``registry_lookup``. :class:`DatabaseResourceRegistry` does the
same over the database, under RLS, with the child expansion as one recursive query over ``resource_links``.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from scopedb import sqlfiles, steps
from scopedb.errors import InvalidArgumentError
from scopedb.scope import ResourceScope
from scopedb.steps import Statement, Steps

T = TypeVar("T")

ChildLookup = Callable[[str], Iterable[str]]


@dataclass(frozen=True)
class ResourceRecord:
    """A resource: its id, its project, and optionally an alias unique within the project."""

    id: str
    project_name: str
    alias: str | None = None
    kind: str = "repository"


@dataclass(frozen=True)
class ProjectRecord:
    """A project and its resources."""

    name: str
    resources: tuple[ResourceRecord, ...] = field(default_factory=tuple)


class ResourceAliasResolver:
    """Resolves aliases (or ids) of the given resources to resource ids."""

    def __init__(self, resources: Iterable[ResourceRecord]) -> None:
        self.resources = tuple(resources)
        self._ids = {r.id for r in self.resources}
        self._by_alias: dict[str, str] = {}
        for resource in self.resources:
            if resource.alias:
                self._by_alias.setdefault(resource.alias, resource.id)

    def resolve(self, alias_or_id: str) -> str | None:
        """The id for an alias, the id itself if it is a known id, or None. An empty string is an error."""
        if not alias_or_id or not alias_or_id.strip():
            raise ValueError("cannot resolve an empty alias")
        if alias_or_id in self._by_alias:
            return self._by_alias[alias_or_id]
        return alias_or_id if alias_or_id in self._ids else None

    def resolve_many(self, aliases_or_ids: Iterable[str]) -> frozenset[str]:
        """The ids of every alias or id that resolves; unknown ones are skipped."""
        resolved = (self.resolve(item) for item in aliases_or_ids)
        return frozenset(rid for rid in resolved if rid is not None)

    def validate_uniqueness(self) -> list[str]:
        """One message per alias used by more than one resource of a project (resources without alias are fine)."""
        holders: dict[tuple[str, str], list[str]] = defaultdict(list)
        for resource in self.resources:
            if resource.alias:
                holders[(resource.project_name, resource.alias)].append(resource.id)
        return [
            f"alias {alias!r} is used by {len(ids)} resources in project {project!r}: {', '.join(sorted(ids))}"
            for (project, alias), ids in sorted(holders.items())
            if len(ids) > 1
        ]


def expand_children(ids: Iterable[str], registry_lookup: ChildLookup) -> frozenset[str]:
    """``ids`` and every resource reachable from them through ``registry_lookup`` (cycles are harmless)."""
    seen = set(ids)
    queue = deque(seen)
    while queue:
        for child in registry_lookup(queue.popleft()):
            if child not in seen:
                seen.add(child)
                queue.append(child)
    return frozenset(seen)


def resolve_resource_scope(
    projects: Sequence[ProjectRecord],
    *,
    include: Iterable[str] | None = None,
    exclude: Iterable[str] | None = None,
    registry_lookup: ChildLookup | None = None,
) -> ResourceScope:
    """The scope of ``projects`` narrowed to their resources: all of them, or those in ``include`` (aliases or
    ids), plus their children, minus those in ``exclude`` and their children.

    The result always narrows to the listed resources, even when the list is empty (an ``include`` that matched
    nothing): an allowlist that resolved to nothing must see nothing, not every resource of the projects.
    """
    lookup = registry_lookup
    return _resolve(projects, include, exclude, lambda ids: expand_children(ids, lookup) if lookup else ids)


def _resolve(
    projects: Sequence[ProjectRecord],
    include: Iterable[str] | None,
    exclude: Iterable[str] | None,
    expand: Callable[[frozenset[str]], frozenset[str]],
) -> ResourceScope:
    chosen, removed = _choose(projects, include, exclude)
    return _scope(projects, expand(chosen), expand(removed))


def _choose(
    projects: Sequence[ProjectRecord], include: Iterable[str] | None, exclude: Iterable[str] | None
) -> tuple[frozenset[str], frozenset[str]]:
    """The resource ids ``include`` and ``exclude`` name (aliases or ids), before child expansion."""
    if not projects:
        raise InvalidArgumentError("resolve_resource_scope needs at least one project")
    resources = [r for project in projects for r in project.resources]
    resolver = ResourceAliasResolver(resources)
    chosen = frozenset(r.id for r in resources) if include is None else resolver.resolve_many(include)
    return chosen, resolver.resolve_many(exclude or ())


def _scope(projects: Sequence[ProjectRecord], chosen: frozenset[str], removed: frozenset[str]) -> ResourceScope:
    return ResourceScope(
        project_names={p.name for p in projects},
        resource_ids=chosen - removed,
        denied_resource_ids=removed,
        resources_narrowed=True,
    )


class RunsSteps(Protocol):
    """A sync scoped session, as far as :class:`DatabaseResourceRegistry` needs one."""

    def run(self, operation: Steps[T]) -> T: ...


def _records(names: Iterable[str], rows: Iterable[tuple[str, str, str | None, str]]) -> list[ProjectRecord]:
    grouped: dict[str, list[ResourceRecord]] = defaultdict(list)
    for project, rid, alias, kind in rows:
        grouped[project].append(ResourceRecord(id=rid, project_name=project, alias=alias, kind=kind))
    return [ProjectRecord(name=name, resources=tuple(grouped[name])) for name in sorted(set(names))]


def projects_steps(names: Iterable[str]) -> Steps[list[ProjectRecord]]:
    """The named projects with their resources, as far as the transaction's scope reaches."""
    wanted = sorted(set(names))
    result = yield from steps.run(Statement(sqlfiles.query("aliases", "resources_of_projects"), {"projects": wanted}))
    return _records(wanted, result.rows)


def descendants_steps(ids: Iterable[str]) -> Steps[frozenset[str]]:
    """``ids`` and all their descendants through ``resource_links`` (one recursive query)."""
    wanted = sorted(set(ids))
    if not wanted:
        return frozenset()
    result = yield from steps.run(Statement(sqlfiles.query("aliases", "descendants"), {"ids": wanted}))
    return frozenset(row[0] for row in result.rows)


def resolve_resource_scope_steps(
    project_names: Iterable[str], *, include: Iterable[str] | None = None, exclude: Iterable[str] | None = None
) -> Steps[ResourceScope]:
    """:func:`resolve_resource_scope` over the database, with child expansion done by PostgreSQL."""
    projects = yield from projects_steps(project_names)
    chosen, removed = _choose(projects, include, exclude)
    chosen = yield from descendants_steps(chosen)
    removed = yield from descendants_steps(removed)
    return _scope(projects, chosen, removed)


class DatabaseResourceRegistry:
    """The resource registry of the database, read inside a sync scoped session (so RLS bounds what it sees).
    An async session resolves with ``await session.resolve_resource_scope(...)``."""

    def __init__(self, session: RunsSteps) -> None:
        self.session = session

    def projects(self, names: Iterable[str]) -> list[ProjectRecord]:
        """The named projects with their resources, as far as the session's scope reaches."""
        return self.session.run(projects_steps(names))

    def descendants(self, ids: Iterable[str]) -> frozenset[str]:
        """``ids`` and all their descendants through ``resource_links`` (one recursive query)."""
        return self.session.run(descendants_steps(ids))

    def resolve_resource_scope(
        self,
        project_names: Iterable[str],
        *,
        include: Iterable[str] | None = None,
        exclude: Iterable[str] | None = None,
    ) -> ResourceScope:
        """:func:`resolve_resource_scope` over the database, with child expansion done by PostgreSQL."""
        return self.session.run(resolve_resource_scope_steps(project_names, include=include, exclude=exclude))
