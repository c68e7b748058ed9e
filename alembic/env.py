"""Alembic environment for scopedb.

The connection comes from ``config.attributes["dsn"]`` (set by :func:`scopedb.migrations.alembic_config`) or,
for the alembic command line, from ``-x dsn=...`` or ``SCOPEDB_DATABASE_URL``. The version table lives in its
own schema so that ``downgrade base`` can drop scopedb's schemas without dropping alembic's bookkeeping.
"""

from __future__ import annotations

import os

import psycopg
from alembic import context
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from scopedb.migrations import VERSION_SCHEMA
from scopedb.sqlfiles import DEFAULT_EMBEDDING_DIM

config = context.config
x_args = context.get_x_argument(as_dictionary=True)
dsn = config.attributes.get("dsn") or x_args.get("dsn") or os.environ.get("SCOPEDB_DATABASE_URL")
if not dsn:
    raise SystemExit("scopedb migrations need a database: pass -x dsn=... or set SCOPEDB_DATABASE_URL")
if "embedding_dim" not in config.attributes:
    config.attributes["embedding_dim"] = int(x_args.get("embedding_dim", DEFAULT_EMBEDDING_DIM))


def run_migrations_online() -> None:
    engine = create_engine("postgresql+psycopg://", creator=lambda: psycopg.connect(dsn), poolclass=NullPool)
    with engine.connect() as connection:
        # One migrator at a time: a second process waits here, then finds the schema already at head.
        connection.execute(text("SELECT pg_advisory_lock(hashtext('scopedb.migrate'))"))
        connection.execute(text(f"CREATE SCHEMA IF NOT EXISTS {VERSION_SCHEMA}"))
        connection.commit()
        try:
            context.configure(
                connection=connection,
                version_table_schema=VERSION_SCHEMA,
                transactional_ddl=True,
            )
            with context.begin_transaction():
                context.run_migrations()
        finally:
            connection.rollback()
            connection.execute(text("SELECT pg_advisory_unlock(hashtext('scopedb.migrate'))"))
            connection.commit()
    engine.dispose()


if context.is_offline_mode():
    raise SystemExit("scopedb migrations run online only: they execute versioned SQL files")
run_migrations_online()
