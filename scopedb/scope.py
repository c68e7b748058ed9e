"""The caller's scope: which projects, and which resources inside them, a transaction may see.

A :class:`ResourceScope` is a plain, frozen value. It does nothing on its own; :meth:`scopedb.Database.scoped`
signs it into a token and the database enforces it with row-level security.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

from scopedb.errors import ScopeViolationError


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


class ResourceScope(BaseModel):
    """What a caller may see: some projects, optionally narrowed to some of their resources, minus denied ones.

    ``resource_ids`` empty means "every resource of the projects"; non-empty narrows to those resources (and hides
    project-wide fragments that belong to no resource). ``denied_resource_ids`` always wins.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    project_names: frozenset[Identifier] = Field(min_length=1)
    resource_ids: frozenset[Identifier] = frozenset()
    denied_resource_ids: frozenset[Identifier] = frozenset()

    @field_validator("project_names", "resource_ids", "denied_resource_ids", mode="before")
    @classmethod
    def _coerce_collections(cls, value: object) -> object:
        """Accept any list, tuple or set; a bare string is refused, since iterating it would yield characters."""
        if isinstance(value, str | bytes):
            raise ValueError("expected a collection of strings, not a single string")
        if isinstance(value, list | tuple | set):
            return frozenset(value)
        return value

    def contains_project(self, name: str) -> bool:
        """Whether ``name`` is one of the scope's projects."""
        return name in self.project_names

    def contains_resource(self, resource_id: str) -> bool:
        """Whether the scope admits ``resource_id`` (ignoring which project it belongs to)."""
        if resource_id in self.denied_resource_ids:
            return False
        return not self.resource_ids or resource_id in self.resource_ids

    @property
    def effective_resource_ids(self) -> frozenset[str]:
        """The narrowed resources minus the denied ones; empty when the scope does not narrow."""
        return frozenset(self.resource_ids - self.denied_resource_ids)

    def require_effective(self) -> None:
        """Refuse a scope that narrows to resources but then denies all of them: it can see nothing."""
        if self.resource_ids and not self.effective_resource_ids:
            raise ScopeViolationError(
                "every resource of the scope is denied",
                resource_ids=self.resource_ids,
                scope_project_names=self.project_names,
            )
