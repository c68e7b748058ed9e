"""Typed errors, and the one place where driver errors become them.

Every exception scopedb raises derives from :class:`ScopedbError`. The docstring of each class is its default
message. Messages never carry row data: a unique violation says *that* a key exists, never which key, because the
key may belong to a row the caller's scope hides.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the driver is imported where errors are translated, not where they are only raised
    import psycopg


class ScopedbError(Exception):
    """scopedb failed."""

    #: The SQLSTATE of the database error this one was translated from (None when scopedb raised it itself), so
    #: callers test ``exc.sqlstate == "42704"`` rather than the message text.
    sqlstate: str | None = None

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or (self.__doc__ or "").strip().splitlines()[0])


class ConfigurationError(ScopedbError):
    """scopedb is not configured correctly."""


class DatabaseUnavailableError(ScopedbError):
    """The database could not be reached."""


class InvalidArgumentError(ScopedbError, ValueError):
    """An argument is malformed or out of range."""


class MigrationError(ScopedbError):
    """The schema migration failed."""


class ScopeError(ScopedbError):
    """The scope was refused."""


class ScopeViolationError(ScopeError):
    """The request reaches outside the caller's scope.

    Carries identifiers, never row data: ``resource_ids`` involved in the refusal, ``scope_project_names`` (the
    projects of the scope that refused) and ``outside_project_names`` (requested projects that are not in it).
    """

    def __init__(
        self,
        message: str | None = None,
        *,
        resource_ids: Iterable[str] = (),
        scope_project_names: Iterable[str] = (),
        outside_project_names: Iterable[str] = (),
    ) -> None:
        super().__init__(message)
        self.resource_ids: frozenset[str] = frozenset(resource_ids)
        self.scope_project_names: frozenset[str] = frozenset(scope_project_names)
        self.outside_project_names: frozenset[str] = frozenset(outside_project_names)


class PermissionDeniedError(ScopeViolationError):
    """Permission denied: the row or object is outside the scope of this transaction."""


class ScopeTokenError(ScopeError):
    """The scope token was refused."""


class MalformedTokenError(ScopeTokenError):
    """The scope token is missing or malformed."""


class InvalidSignatureError(ScopeTokenError):
    """The scope token's signature does not verify (tampered, unknown or retired key)."""


class ExpiredTokenError(ScopeTokenError):
    """The scope token has expired or is not valid yet."""


class AudienceMismatchError(ScopeTokenError):
    """The scope token was issued for another database."""


class UnknownProjectError(ScopeError):
    """The scope names a project that does not exist."""


class ScopeTooComplexError(ScopeError):
    """The scope asks for more path and name patterns than a scope may carry.

    Every pattern is tested against every row a policy checks, so their number, length and wildcards are bounded
    (see :mod:`scopedb.patterns`). Not a ``ValueError``, so that pydantic passes it through unchanged.
    """


class UnprotectableTableError(InvalidArgumentError):
    """The table cannot be protected soundly as it stands (the message names the fix)."""


class AmbiguousProjectError(ScopeError):
    """The row names no project and the scope does not have exactly one to give it."""


class NoteNotFoundError(ScopedbError):
    """memory record not found"""


class IntegrityError(ScopedbError):
    """The write conflicts with a constraint."""


class UniqueViolationError(IntegrityError):
    """A row with the same key already exists in this project."""


class ForeignKeyViolationError(IntegrityError):
    """The row refers to something that does not exist in its project."""


class CheckViolationError(IntegrityError):
    """The row breaks a check constraint."""


class ConnectionLostError(DatabaseUnavailableError):
    """The connection to the database was lost; the transaction did not commit."""


class QueryError(ScopedbError):
    """The query failed."""


_BY_SQLSTATE: dict[str, type[ScopedbError]] = {
    "SD001": MalformedTokenError,
    "SD002": InvalidSignatureError,
    "SD003": ExpiredTokenError,
    "SD004": AudienceMismatchError,
    "SD005": UnknownProjectError,
    "SD006": ScopeTooComplexError,
    "SD007": UnprotectableTableError,
    "SD008": AmbiguousProjectError,
    "SD404": NoteNotFoundError,
    "42501": PermissionDeniedError,  # insufficient_privilege, including row-level security refusals
    "23505": UniqueViolationError,
    "23503": ForeignKeyViolationError,
    "23514": CheckViolationError,
}

# Messages we may pass through: they are produced by our own SQL (RAISE in sql/*.sql) and name no row data.
_OWN_MESSAGE_STATES = frozenset({"SD001", "SD002", "SD003", "SD004", "SD005", "SD006", "SD007", "SD008", "SD404"})


def translate(exc: psycopg.Error) -> ScopedbError:
    """Turn a driver error into the matching scopedb error (callers ``raise translate(e) from e``); it carries the
    driver error's ``sqlstate``.

    The driver's message is kept only where it cannot carry row data: for scopedb's own SQLSTATEs, and for
    privilege errors (which name a table or function, not a row). Constraint errors keep the constraint name only.
    """
    error = _translated(exc)
    error.sqlstate = exc.sqlstate
    return error


def _translated(exc: psycopg.Error) -> ScopedbError:
    import psycopg
    from psycopg import errors as pg_errors

    if isinstance(exc, psycopg.OperationalError) and not isinstance(exc, pg_errors.QueryCanceled):
        broken = exc.sqlstate is None or exc.sqlstate.startswith(("08", "57P"))
        if broken:
            return ConnectionLostError()
    state = exc.sqlstate or ""
    cls = _BY_SQLSTATE.get(state)
    diag = exc.diag
    if cls is None:
        return QueryError(f"query failed (SQLSTATE {state or 'unknown'})" + _what(diag.message_primary))
    if state in _OWN_MESSAGE_STATES:
        hint = f" (fix: {diag.message_hint})" if diag.message_hint else ""
        return cls((diag.message_primary or _headline(cls)) + hint)
    if cls is PermissionDeniedError:
        return cls(_headline(cls) + _what(diag.message_primary))
    if issubclass(cls, IntegrityError):
        where = f" (constraint {_parent_constraint(diag.constraint_name)})" if diag.constraint_name else ""
        return cls(_headline(cls) + where)
    return cls()


_PARTITION_CONSTRAINT = re.compile(r"^(fragments|fragment_search)_(?:\d+|shared)_(.+)$")


def _parent_constraint(name: str) -> str:
    """The constraint as the partitioned table names it: a project's partition names its copy fragments_<id>_pkey,
    the small projects' shared one fragments_shared_pkey, and callers know the table, not its partitions."""
    return _PARTITION_CONSTRAINT.sub(r"\1_\2", name)


def _headline(cls: type[ScopedbError]) -> str:
    """The first line of the class docstring, without its final period, to append details to."""
    return (cls.__doc__ or "").strip().splitlines()[0].rstrip(".")


def _what(primary: str | None) -> str:
    """The driver's primary message, only when it is one of the row-free forms Postgres uses for privileges."""
    if not primary:
        return ""
    safe_prefixes = (
        "permission denied",
        "new row violates row-level security policy",
        "must be owner",
        "syntax error",
        "relation ",
        "column ",
        "function ",
        "schema ",
        "cannot ",
    )
    if primary.startswith(safe_prefixes) and "\n" not in primary and len(primary) < 300:
        return f": {primary}"
    return ""
