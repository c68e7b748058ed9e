"""scopedb: Postgres row-level security for multi-tenant retrieval.

Every query a service runs — full text, vector, graph, or hand-written SQL — sees only the rows of the projects and
resources in the caller's scope, because the database itself refuses the rest.

The names below are imported on first use (PEP 562), so the database-free layer (:mod:`scopedb.scope`,
:mod:`scopedb.view`, the in-memory backends) can be used without loading the driver, numpy or pgvector.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scopedb.admin import Admin, Project, ProtectedTable, Resource
    from scopedb.database import Database
    from scopedb.database_async import AsyncDatabase
    from scopedb.errors import ScopedbError, ScopeViolationError
    from scopedb.ingest import Fragment
    from scopedb.scope import ResourceScope
    from scopedb.session import ScopedSession
    from scopedb.session_async import AsyncScopedSession
    from scopedb.steps import Result
    from scopedb.tokens import SigningKey

_WHERE = {
    "Admin": "scopedb.admin",
    "AsyncDatabase": "scopedb.database_async",
    "AsyncScopedSession": "scopedb.session_async",
    "Database": "scopedb.database",
    "Fragment": "scopedb.ingest",
    "Project": "scopedb.admin",
    "ProtectedTable": "scopedb.admin",
    "Resource": "scopedb.admin",
    "ResourceScope": "scopedb.scope",
    "Result": "scopedb.steps",
    "ScopeViolationError": "scopedb.errors",
    "ScopedSession": "scopedb.session",
    "ScopedbError": "scopedb.errors",
    "SigningKey": "scopedb.tokens",
}

__all__ = [
    "Admin",
    "AsyncDatabase",
    "AsyncScopedSession",
    "Database",
    "Fragment",
    "Project",
    "ProtectedTable",
    "Resource",
    "ResourceScope",
    "Result",
    "ScopeViolationError",
    "ScopedSession",
    "ScopedbError",
    "SigningKey",
]

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'scopedb' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])
