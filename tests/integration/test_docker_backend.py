"""The docker backend (testcontainers + pgvector image): skipped with the reason when no Docker engine answers."""

from __future__ import annotations

import pytest

from scopedb import Database, ResourceScope
from scopedb.server import docker_available, start_docker

pytestmark = pytest.mark.docker


def test_docker_backend_runs_scoped_transactions() -> None:
    ok, why = docker_available()
    if not ok:
        pytest.skip(why)
    server = start_docker()
    try:
        with Database(server) as db:
            db.migrate()
            db.admin().create_project("acme/api")
            db.admin().create_project("beta/web")
            with db.scoped(ResourceScope(project_names={"acme/api"})) as s:
                assert s.execute("SELECT name FROM scopedb.projects").rows == [("acme/api",)]
    finally:
        server.stop()
