"""Deleting rows of the scope: resources, fragments, graph nodes and edges, resource links.

The application role holds no DELETE privilege: on a whole table it would also allow ``LOCK TABLE ... IN ACCESS
EXCLUSIVE MODE``, with which one tenant could freeze every other tenant's reads. Deletes go through the database's
``scopedb.delete_*`` functions instead (``sql/03_functions.sql``), which remove exactly what the scope's delete
policy admits. Foreign keys inside a project do not cascade, so a row goes with what hangs off it and the scope
sees; if anything hanging off it is hidden from the scope, the whole call is refused with a
:class:`~scopedb.errors.ForeignKeyViolationError` and nothing is deleted.
"""

from __future__ import annotations

from collections.abc import Iterable

from scopedb import sqlfiles, steps
from scopedb.errors import InvalidArgumentError, ScopeViolationError
from scopedb.steps import SessionState, Statement, Steps


def _project_id(projects: dict[str, int], project: str) -> int:
    if not isinstance(project, str):
        raise InvalidArgumentError("project must be a project name")
    try:
        return projects[project]
    except KeyError:
        raise ScopeViolationError(
            "the project is outside the scope", scope_project_names=projects, outside_project_names=[project]
        ) from None


def _strings(values: Iterable[str], what: str) -> list[str]:
    if isinstance(values, str | bytes):
        raise InvalidArgumentError(f"{what} must be a list of strings, not one string")
    items = list(values)
    if not all(isinstance(v, str) and "\x00" not in v for v in items):
        raise InvalidArgumentError(f"{what} must be strings without NUL characters")
    return items


def _pairs(values: Iterable[tuple[str, ...]], width: int, what: str) -> list[list[str]]:
    rows = [tuple(v) for v in values]
    if not all(len(r) == width for r in rows):
        raise InvalidArgumentError(f"each of {what} has {width} parts")
    return [_strings([r[i] for r in rows], what) for i in range(width)]


def _delete(state: SessionState, name: str, project: str, *arrays: list[str]) -> Steps[int]:
    projects = yield from steps.project_names(state)
    params = {"project_id": _project_id(projects, project), **{f"a{i}": a for i, a in enumerate(arrays)}}
    result = yield from steps.run(Statement(sqlfiles.query("deletes", name), params))
    return int(result.scalar() or 0)


def delete_fragments_steps(state: SessionState, project: str, ids: Iterable[str]) -> Steps[int]:
    """Delete fragments of ``project`` by id; returns how many the scope let go."""
    return (yield from _delete(state, "fragments", project, _strings(ids, "fragment ids")))


def delete_resources_steps(state: SessionState, project: str, ids: Iterable[str]) -> Steps[int]:
    """Delete resources of ``project`` with the fragments, graph nodes (and their edges) and links of theirs
    that the scope sees; refused if any of theirs is hidden from it. Returns how many resources went."""
    return (yield from _delete(state, "resources", project, _strings(ids, "resource ids")))


def delete_graph_nodes_steps(state: SessionState, project: str, ids: Iterable[str]) -> Steps[int]:
    """Delete graph nodes of ``project`` with their visible edges; refused if one has an edge the scope hides."""
    return (yield from _delete(state, "graph_nodes", project, _strings(ids, "node ids")))


def delete_graph_edges_steps(state: SessionState, project: str, edges: Iterable[tuple[str, str, str]]) -> Steps[int]:
    """Delete graph edges of ``project`` given as (source, relation, target)."""
    return (yield from _delete(state, "graph_edges", project, *_pairs(edges, 3, "the edges")))


def delete_resource_links_steps(state: SessionState, project: str, links: Iterable[tuple[str, str]]) -> Steps[int]:
    """Delete resource links of ``project`` given as (parent, child)."""
    return (yield from _delete(state, "resource_links", project, *_pairs(links, 2, "the links")))
