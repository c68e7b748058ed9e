"""Run the example: ``python -m examples.ticket_service`` (needs ``pip install -e '.[example]'``).

Starts (or finds) the database as ``scopedb demo`` does, migrates scopedb and the service's table, prints a bearer
token for each of two tenants, and serves the API on http://127.0.0.1:8000 (set TICKETS_SECRET to keep tokens
valid across restarts).
"""

from __future__ import annotations

import os
import secrets

import uvicorn

from examples.ticket_service.app import create_app
from examples.ticket_service.auth import issue_token
from examples.ticket_service.schema import migrate
from scopedb import Database
from scopedb.embedders import HashingEmbedder
from scopedb.sqlfiles import DEFAULT_EMBEDDING_DIM


def main() -> None:
    secret = os.environ.get("TICKETS_SECRET") or secrets.token_urlsafe(32)
    db = Database.open()
    db.migrate()
    migrate(db)
    for tenant in ("acme/api", "beta/web"):
        db.admin().ensure_project(tenant)
        print(f"{tenant}: Authorization: Bearer {issue_token(secret, subject='demo', tenant=tenant)}")
    embedder = HashingEmbedder(DEFAULT_EMBEDDING_DIM)  # the width `db.migrate()` gives the schema
    uvicorn.run(create_app(db, secret=secret, embedder=embedder), port=8000)


if __name__ == "__main__":
    main()
