"""scopedb: Postgres row-level security for multi-tenant retrieval.

Every query a service runs — full text, vector, graph, or hand-written SQL — sees only the rows of the projects and
resources in the caller's scope, because the database itself refuses the rest.
"""

from scopedb.admin import Admin, Project, Resource
from scopedb.aio import AsyncDatabase, AsyncScopedSession
from scopedb.database import Database
from scopedb.errors import ScopedbError, ScopeViolationError
from scopedb.ingest import Fragment
from scopedb.scope import ResourceScope
from scopedb.session import Result, ScopedSession
from scopedb.tokens import SigningKey

__all__ = [
    "Admin",
    "AsyncDatabase",
    "AsyncScopedSession",
    "Database",
    "Fragment",
    "Project",
    "Resource",
    "ResourceScope",
    "Result",
    "ScopeViolationError",
    "ScopedSession",
    "ScopedbError",
    "SigningKey",
]

__version__ = "0.1.0"
