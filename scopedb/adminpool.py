"""The admin login's connection pool: owner-side work (migrations, projects, keys, the audit) is blocking and rare,
so both database classes use one small sync pool for it, made on first use."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from scopedb.errors import DatabaseUnavailableError

AdminPool = ConnectionPool[psycopg.Connection[Any]]


def open_admin_pool(dsn: str) -> AdminPool:
    """A pool of at most two admin connections, after checking the DSN works at all (a pool would retry a DSN
    that cannot work until its timeout; this fails at once, with the server's reason)."""
    try:
        psycopg.connect(dsn, connect_timeout=10).close()
    except psycopg.OperationalError as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DatabaseUnavailableError(f"could not connect to the database: {reason}") from exc
    try:
        return ConnectionPool(dsn, min_size=0, max_size=2, name="scopedb-admin", open=True, timeout=30.0)
    except psycopg.Error as exc:
        raise DatabaseUnavailableError("could not open a connection pool") from exc
