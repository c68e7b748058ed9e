"""ResourceScope: a frozen value that refuses malformed input with a ValidationError."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from scopedb import ResourceScope, ScopeViolationError


def test_lists_tuples_and_sets_become_frozensets() -> None:
    scope = ResourceScope(project_names=["a", "b"], resource_ids=("R1",), denied_resource_ids={"R2"})
    assert scope.project_names == frozenset({"a", "b"})
    assert scope.resource_ids == frozenset({"R1"})
    assert scope.denied_resource_ids == frozenset({"R2"})


def test_scope_is_frozen() -> None:
    scope = ResourceScope(project_names={"a"})
    with pytest.raises(ValidationError):
        scope.project_names = frozenset({"b"})  # type: ignore[misc]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"project_names": set()},
        {"project_names": "acme/api"},  # a bare string would silently become its characters
        {"project_names": {""}},
        {"project_names": {"   "}},
        {"project_names": {"a\nb"}},
        {"project_names": {"x" * 201}},
        {"project_names": {"a"}, "resource_ids": {""}},
        {"project_names": {"a"}, "unknown_field": 1},
        {"project_names": {1}},
    ],
)
def test_malformed_scopes_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        ResourceScope(**kwargs)


def test_contains_resource_honours_narrowing_and_denial() -> None:
    scope = ResourceScope(project_names={"p"}, resource_ids={"R1", "R2"}, denied_resource_ids={"R2"})
    assert scope.contains_resource("R1")
    assert not scope.contains_resource("R2")
    assert not scope.contains_resource("R3")
    wide = ResourceScope(project_names={"p"}, denied_resource_ids={"R2"})
    assert wide.contains_resource("R3")
    assert not wide.contains_resource("R2")


def test_effective_resources_and_the_all_denied_guard() -> None:
    scope = ResourceScope(project_names={"p"}, resource_ids={"R1", "R2", "R3"}, denied_resource_ids={"R2"})
    assert scope.effective_resource_ids == frozenset({"R1", "R3"})
    scope.require_effective()
    empty = ResourceScope(project_names={"p"}, resource_ids={"R1"}, denied_resource_ids={"R1"})
    with pytest.raises(ScopeViolationError) as err:
        empty.require_effective()
    assert err.value.resource_ids == frozenset({"R1"})
    assert err.value.scope_project_names == frozenset({"p"})
