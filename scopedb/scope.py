"""The caller's scope: which projects, and which resources inside them, a transaction may see.

A :class:`ResourceScope` is a plain, frozen value. It does nothing on its own; :meth:`scopedb.Database.scoped`
signs it into a token and the database enforces it with row-level security.
"""

from __future__ import annotations

import datetime as dt
from functools import cached_property
from typing import Annotated, Literal

from pydantic import AfterValidator, AwareDatetime, BaseModel, ConfigDict, Field, field_validator, model_validator

from scopedb.errors import ScopeTooComplexError, ScopeViolationError
from scopedb.patterns import MAX_PATTERNS, CompiledScope, Dialect, compile_scope


def _identifier(value: str) -> str:
    """Project names and resource ids are opaque, but never empty and never contain control characters."""
    if not value or not value.strip():
        raise ValueError("must be a non-empty string")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise ValueError("must not contain control characters")
    if len(value) > 200:
        raise ValueError("must be at most 200 characters")
    return value


Identifier = Annotated[str, AfterValidator(_identifier)]


def as_frozenset(value: object) -> object:
    """Accept any list, tuple or set as a frozenset; refuse a bare string, whose iteration would yield characters."""
    if isinstance(value, str | bytes):
        raise ValueError("expected a collection of strings, not a single string")
    if isinstance(value, list | tuple | set):
        return frozenset(value)
    return value


TemporalScope = Literal["current", "all"] | AwareDatetime


class ResourceScope(BaseModel):
    """What a caller may see: some projects, optionally narrowed to some of their resources, minus denied ones,
    optionally narrowed by path globs and ``::`` name patterns, at a point in time.

    * ``resource_ids`` empty means "every resource of the projects"; non-empty narrows to those resources (and
      hides project-wide fragments that belong to no resource). ``denied_resource_ids`` always wins.
    * ``include_paths``/``exclude_paths`` are path globs (``src/**/*.py``), ``include_names``/``exclude_names``
      are name patterns (``acme::**``); see :mod:`scopedb.patterns`. No include means everything; exclude wins.
      A fragment without a path or name is matched as the empty string.
    * ``temporal_scope`` is ``"current"`` (the default: versions valid now), ``"all"`` (every version), or a
      timezone-aware :class:`datetime.datetime` (versions valid at that instant; an ISO-8601 string with an
      offset is accepted too). Anything else is a ``ValidationError``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    project_names: frozenset[Identifier] = Field(min_length=1)
    resource_ids: frozenset[Identifier] = frozenset()
    denied_resource_ids: frozenset[Identifier] = frozenset()
    include_paths: frozenset[str] = frozenset()
    exclude_paths: frozenset[str] = frozenset()
    include_names: frozenset[str] = frozenset()
    exclude_names: frozenset[str] = frozenset()
    temporal_scope: TemporalScope = "current"
    # True narrows to ``resource_ids`` even when that set is empty: a resolution whose allowlist matched nothing
    # must see nothing, not fall back to "every resource" (see scopedb.aliases.resolve_resource_scope).
    resources_narrowed: bool = False

    @field_validator(
        "project_names",
        "resource_ids",
        "denied_resource_ids",
        "include_paths",
        "exclude_paths",
        "include_names",
        "exclude_names",
        mode="before",
    )
    @classmethod
    def _coerce_collections(cls, value: object) -> object:
        return as_frozenset(value)

    @field_validator("include_paths", "exclude_paths", mode="after")
    @classmethod
    def _check_paths(cls, value: frozenset[str]) -> frozenset[str]:
        compile_scope(value, (), Dialect.PATHS)  # a malformed glob fails here, as a ValidationError
        return value

    @field_validator("include_names", "exclude_names", mode="after")
    @classmethod
    def _check_names(cls, value: frozenset[str]) -> frozenset[str]:
        compile_scope(value, (), Dialect.NAMES)
        return value

    @model_validator(mode="after")
    def _check_pattern_count(self) -> ResourceScope:
        count = len(self.include_paths) + len(self.exclude_paths) + len(self.include_names) + len(self.exclude_names)
        if count > MAX_PATTERNS:
            raise ScopeTooComplexError(f"a scope may carry at most {MAX_PATTERNS} path and name patterns, not {count}")
        return self

    @cached_property
    def _paths(self) -> CompiledScope:
        return compile_scope(self.include_paths, self.exclude_paths, Dialect.PATHS)

    @cached_property
    def _names(self) -> CompiledScope:
        return compile_scope(self.include_names, self.exclude_names, Dialect.NAMES)

    def matches_path(self, path: str | None) -> bool:
        """Whether ``path`` passes the path globs (``None`` is matched as the empty string)."""
        return self._paths.matches(path or "")

    def matches_name(self, name: str | None) -> bool:
        """Whether the fully-qualified ``name`` passes the name patterns (``None`` is matched as "")."""
        return self._names.matches(name or "")

    def sees_version(self, valid_from: dt.datetime, valid_to: dt.datetime | None, *, now: dt.datetime) -> bool:
        """Whether a version valid over ``[valid_from, valid_to)`` is visible at the scope's instant."""
        if self.temporal_scope == "all":
            return True
        at = now if self.temporal_scope == "current" else self.temporal_scope
        assert isinstance(at, dt.datetime)
        return valid_from <= at and (valid_to is None or at < valid_to)

    def contains_project(self, name: str) -> bool:
        """Whether ``name`` is one of the scope's projects."""
        return name in self.project_names

    @property
    def narrows_resources(self) -> bool:
        """Whether only ``resource_ids`` are visible (rather than every resource of the projects)."""
        return self.resources_narrowed or bool(self.resource_ids)

    def contains_resource(self, resource_id: str) -> bool:
        """Whether the scope admits ``resource_id`` (ignoring which project it belongs to)."""
        if resource_id in self.denied_resource_ids:
            return False
        return not self.narrows_resources or resource_id in self.resource_ids

    @property
    def effective_resource_ids(self) -> frozenset[str]:
        """The narrowed resources minus the denied ones; empty when the scope does not narrow."""
        return frozenset(self.resource_ids - self.denied_resource_ids)

    def require_effective(self) -> None:
        """Refuse a scope that narrows to resources but then denies all of them: it can see nothing."""
        if self.narrows_resources and not self.effective_resource_ids:
            raise ScopeViolationError(
                "every resource of the scope is denied",
                resource_ids=self.resource_ids,
                scope_project_names=self.project_names,
            )
