"""The service's migration: create its table, then protect it (one line), as its migration login."""

from __future__ import annotations

from pathlib import Path

import psycopg

from scopedb import Database

SCHEMA = Path(__file__).with_name("schema.sql")
TICKETS = "support.tickets"


def migrate(db: Database) -> None:
    """Create ``support.tickets`` and put it under the scope. Idempotent."""
    with psycopg.connect(db.dsn) as conn:  # the migrating login: it owns the table and is a scopedb admin
        conn.execute(SCHEMA.read_text(encoding="utf-8").encode())
    db.admin().protect_table(TICKETS)  # RLS forced, the scope's policies, least privilege, the audit's record
