"""Schema migrations (alembic) and the fresh load of the canonical SQL they must match.

Each alembic revision executes a frozen copy of the SQL it introduced (``alembic/sql/<revision>/``), so history
never changes under a deployed database; ``sql/`` is the canonical, cumulative schema. A test proves that
``upgrade head`` and a fresh load of ``sql/`` produce the same catalog.
"""

from __future__ import annotations

import logging
from pathlib import Path

import psycopg
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine
from sqlalchemy.pool import NullPool

from scopedb import sqlfiles
from scopedb.errors import MigrationError

VERSION_SCHEMA = "scopedb_migrations"

log = logging.getLogger("scopedb.migrations")


def alembic_config(dsn: str, *, embedding_dim: int = sqlfiles.DEFAULT_EMBEDDING_DIM) -> Config:
    """An alembic configuration bound to ``dsn``, without an ini file."""
    config = Config()
    config.set_main_option("script_location", str(sqlfiles.resource_dir("alembic")))
    config.attributes["dsn"] = dsn
    config.attributes["embedding_dim"] = sqlfiles.check_embedding_dim(embedding_dim)
    return config


def upgrade(dsn: str, revision: str = "head", *, embedding_dim: int = sqlfiles.DEFAULT_EMBEDDING_DIM) -> None:
    """Bring the schema up to ``revision`` (idempotent at head)."""
    _run(command.upgrade, alembic_config(dsn, embedding_dim=embedding_dim), revision)


def downgrade(dsn: str, revision: str = "base") -> None:
    """Take the schema down to ``revision``; ``base`` removes scopedb's schemas (roles are cluster-wide and stay)."""
    _run(command.downgrade, alembic_config(dsn), revision)


def head_revision() -> str:
    """The newest revision this installation knows."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config("")).get_current_head()
    assert head is not None
    return head


def revisions() -> list[str]:
    """Every revision, oldest first."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config(""))
    return [rev.revision for rev in reversed(list(script.walk_revisions()))]


def current_revision(dsn: str) -> str | None:
    """The revision the database is at, or None before the first migration."""
    engine = create_engine("postgresql+psycopg://", creator=lambda: psycopg.connect(dsn), poolclass=NullPool)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"version_table_schema": VERSION_SCHEMA})
            return context.get_current_revision()
    finally:
        engine.dispose()


def _run(action: object, config: Config, revision: str) -> None:
    try:
        action(config, revision)  # type: ignore[operator]
    except Exception as exc:
        cause = exc if isinstance(exc, psycopg.Error) else (exc.__cause__ or exc.__context__)
        if isinstance(cause, psycopg.Error):
            raise MigrationError(f"migration to {revision} failed: {_describe(cause)}") from exc
        raise


def _describe(exc: psycopg.Error) -> str:
    """Migrations touch the catalog, not tenant rows, so the server's own message is safe and the useful part."""
    return f"{exc.diag.message_primary or type(exc).__name__} (SQLSTATE {exc.sqlstate})"


def execute_file(conn: psycopg.Connection[object], path: Path, *, embedding_dim: int) -> None:
    """Run one SQL file on ``conn`` as a simple-protocol script (no parameters, so ``%`` stays literal).

    A revision says what it could not do as a WARNING (revision 0020: a protected service table the migration's
    role cannot protect again); psycopg drops notices nobody listens for, so they are logged here."""
    conn.add_notice_handler(_log_warning)
    try:
        conn.execute(sqlfiles.render(path.read_text(encoding="utf-8"), embedding_dim=embedding_dim))
    finally:
        conn.remove_notice_handler(_log_warning)


def _log_warning(notice: psycopg.errors.Diagnostic) -> None:
    if notice.severity_nonlocalized == "WARNING":
        hint = f" ({notice.message_hint})" if notice.message_hint else ""
        log.warning("%s%s", notice.message_primary, hint)


def load_schema(dsn: str, *, embedding_dim: int = sqlfiles.DEFAULT_EMBEDDING_DIM) -> None:
    """Load the canonical ``sql/`` into an empty database in one transaction (what ``upgrade head`` must equal)."""
    try:
        with psycopg.connect(dsn) as conn:
            for path in sqlfiles.schema_files():
                execute_file(conn, path, embedding_dim=embedding_dim)
    except psycopg.Error as exc:
        raise MigrationError(f"loading sql/ failed: {_describe(exc)}") from exc


def harden_database(dsn: str) -> None:
    """Re-apply the database-level hardening (``06_database.sql``): ACLs are not copied to template clones."""
    path = sqlfiles.resource_dir("sql") / "06_database.sql"
    with psycopg.connect(dsn, autocommit=True) as conn:
        execute_file(conn, path, embedding_dim=sqlfiles.DEFAULT_EMBEDDING_DIM)


def run_revision_sql(revision: str, direction: str) -> None:
    """Execute a revision's frozen SQL inside alembic's transaction (called from ``alembic/versions/*.py``).

    ``alembic/sql/<revision>_<slug>/`` holds ``NN_<concern>.sql`` files for the upgrade and ``downgrade.sql``.
    They run on the driver connection directly, so SQLAlchemy never parses their ``:`` and ``%`` characters.
    """
    from alembic import op

    folders = [p for p in (sqlfiles.resource_dir("alembic") / "sql").iterdir() if p.name.startswith(f"{revision}_")]
    if len(folders) != 1:
        raise MigrationError(f"expected one SQL folder for revision {revision}, found {len(folders)}")
    folder = folders[0]
    files = sorted(folder.glob("[0-9][0-9]_*.sql")) if direction == "upgrade" else [folder / "downgrade.sql"]
    driver = op.get_bind().connection.driver_connection
    embedding_dim = int(op.get_context().config.attributes["embedding_dim"])  # type: ignore[union-attr]
    for path in files:
        execute_file(driver, path, embedding_dim=embedding_dim)  # type: ignore[arg-type]
