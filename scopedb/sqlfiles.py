"""Where scopedb's SQL lives, and loading it by name.

The canonical schema is ``sql/NN_<concern>.sql`` (roles, schema, functions, policies, grants, database); the
statements the Python layer runs are named blocks in ``sql/queries/<concern>.sql``::

    -- name: create_project
    -- Creates a project and returns its id.
    INSERT INTO scopedb.projects (name) VALUES (%(name)s) RETURNING id;

An installed wheel carries both directories inside the package (``scopedb/_sql``, ``scopedb/_alembic``); a source
checkout uses the top-level ones.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import LiteralString, cast

from scopedb.errors import ConfigurationError

_PACKAGE = Path(__file__).resolve().parent
_NAME_LINE = re.compile(r"^-- name: ([a-z_][a-z0-9_]*)\s*$", re.MULTILINE)
_DIM = re.compile(r"(?<!:):embedding_dim\b")

DEFAULT_EMBEDDING_DIM = 384
MAX_EMBEDDING_DIM = 2000  # the widest vector pgvector's HNSW index accepts


def resource_dir(name: str) -> Path:
    """The directory ``name`` ("sql" or "alembic"), packaged or from the source tree."""
    for candidate in (_PACKAGE / f"_{name}", _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise ConfigurationError(f"scopedb's {name}/ directory is missing from this installation")


def schema_files() -> list[Path]:
    """The canonical schema files, in load order."""
    return sorted(resource_dir("sql").glob("[0-9][0-9]_*.sql"))


def check_embedding_dim(dim: int) -> int:
    """Refuse a dimension the vector column or its HNSW index cannot hold."""
    if isinstance(dim, bool) or not isinstance(dim, int) or not 1 <= dim <= MAX_EMBEDDING_DIM:
        raise ConfigurationError(f"embedding dimension must be an integer from 1 to {MAX_EMBEDDING_DIM}")
    return dim


def render(text: str, *, embedding_dim: int) -> LiteralString:
    """Substitute the psql-style ``:embedding_dim`` variable (the only one the schema uses)."""
    # The text comes from files shipped with scopedb and an integer we validated: it is not user input, which is
    # what the LiteralString return type asserts (mypy treats it as str, so no cast is needed here).
    rendered: LiteralString = _DIM.sub(str(check_embedding_dim(embedding_dim)), text)
    return rendered


@functools.cache
def _query_file(concern: str) -> dict[str, LiteralString]:
    path = resource_dir("sql") / "queries" / f"{concern}.sql"
    text = path.read_text(encoding="utf-8")
    parts = _NAME_LINE.split(text)
    queries: dict[str, LiteralString] = {}
    for name, body in zip(parts[1::2], parts[2::2], strict=True):
        queries[name] = cast(LiteralString, body.strip())
    return queries


_PYFORMAT = re.compile(r"%\(([a-z_][a-z0-9_]*)\)s")


def text_query(concern: str, name: str) -> str:
    """The named query with SQLAlchemy's ``:name`` binds for psycopg's ``%(name)s``: for SQL that runs through
    SQLAlchemy (scopedb.alembic's operations, which alembic may also render offline as a script)."""
    text = query(concern, name)
    if "%" in _PYFORMAT.sub("", text):
        raise ConfigurationError(f"query {name!r} holds a % that SQLAlchemy would read differently")
    return _PYFORMAT.sub(r":\1", text)


def query(concern: str, name: str) -> LiteralString:
    """The named query ``name`` from ``sql/queries/<concern>.sql``."""
    try:
        return _query_file(concern)[name]
    except (KeyError, FileNotFoundError):
        raise ConfigurationError(f"no query {name!r} in sql/queries/{concern}.sql") from None


#: The statements of scopedb a pooled session keeps prepared from request to request (with
#: ``Database(prepared_statements=True)``, the default), besides BEGIN, the role and COMMIT: the entry, the end and
#: the searches. Each only calls scopedb's functions (none reads a table itself, and every function is parallel
#: unsafe), so a plan kept for one has no scan, join or worker whose shape a tenant's planner settings could choose
#: for the next tenant on the connection (the sibling of docs/security.md #88; a test explains each with
#: GENERIC_PLAN), and their parameters carry every value (a caller's SQL may carry a tenant's literals, which the
#: next user of the session could read back from pg_prepared_statements: it is never kept).
KEPT: tuple[tuple[str, str], ...] = (
    ("session", "enter_scope"),
    ("session", "reenter_scope"),
    ("session", "clean_session"),
    ("retrieval", "search_text"),
    ("retrieval", "nearest"),
    ("retrieval", "graph_walk"),
    ("retrieval", "graph_shortest_path"),
)


@functools.cache
def _kept_texts() -> frozenset[str]:
    return frozenset(query(concern, name) for concern, name in KEPT)


def is_kept(text: object) -> bool:
    """Whether ``text`` is one of the statements in :data:`KEPT`, word for word."""
    return isinstance(text, str) and text in _kept_texts()
