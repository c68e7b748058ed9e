"""The ways into a scope: enter_scope, the SET LOCAL form (Citus), read-only transactions, key rotation."""

from __future__ import annotations

import os

import psycopg
import pytest

from scopedb import Database, ResourceScope
from scopedb.errors import ConfigurationError
from scopedb.server import Server
from scopedb.testing import app_connection
from tests.conftest import Tenants


def test_set_local_form_isolates_like_enter_scope(tenants: Tenants) -> None:
    db = Database(
        Server(dsn=tenants.db.dsn, backend=tenants.db.server.backend),
        app_dsn=tenants.db.app_dsn,
        scope_entry="set_local",
    )
    try:
        with db.scoped(tenants.scope("acme/api")) as s:
            assert s.project_ids == (tenants.a.id,)
            assert {r[0] for r in s.execute("SELECT project_id FROM scopedb.fragments")} == {tenants.a.id}
            # The scope really is in a SET LOCAL setting, not a session one.
            assert s.execute("SELECT current_setting('scopedb.scope_token')").scalar().startswith("v1.")
    finally:
        db.close()


def test_entering_a_scope_writes_nothing(tenants: Tenants) -> None:
    """Scope entry works in a READ ONLY transaction, so it works on a hot standby too."""
    token = tenants.db.sign(tenants.scope("acme/api"))
    with app_connection(tenants.db) as conn:
        conn.execute("SET TRANSACTION READ ONLY")
        conn.execute("SET LOCAL ROLE scopedb_app")
        conn.execute("SELECT scopedb.enter_scope(%s)", (token,))
        assert conn.execute("SELECT count(*) FROM scopedb.fragments").fetchone() == (7,)
        assert conn.execute("SELECT pg_current_xact_id_if_assigned()").fetchone() == (None,)


def test_session_projects_are_the_resolved_scope(tenants: Tenants) -> None:
    with tenants.db.scoped(tenants.scope("acme/api", "beta/web")) as s:
        assert s.projects == {"acme/api": tenants.a.id, "beta/web": tenants.b.id}
        assert set(s.project_ids) == {tenants.a.id, tenants.b.id}


def test_a_privileged_app_login_is_refused(scopedb_db: Database) -> None:
    """An app DSN that logs in as a superuser is never used for scoped transactions."""
    db = Database(Server(dsn=scopedb_db.dsn, backend="dsn"), app_dsn=scopedb_db.dsn)
    try:
        with pytest.raises(ConfigurationError, match="superuser"), db.scoped(ResourceScope(project_names={"x"})):
            pass
    finally:
        db.close()


def test_without_an_app_dsn_scopedb_uses_its_own_unprivileged_login(scopedb_db: Database) -> None:
    """Given only a superuser DSN, scopedb falls back to its NOINHERIT login (where the server lets it in)."""
    if scopedb_db.server.backend == "dsn" and os.environ.get("SCOPEDB_DATABASE_URL"):
        pytest.skip("needs a server where scopedb's login needs no password")
    scopedb_db.admin().create_project("x")
    db = Database(Server(dsn=scopedb_db.dsn, backend="dsn"))
    try:
        with db.scoped(ResourceScope(project_names={"x"})) as s:
            who = s.execute("SELECT session_user, current_user").one()
        assert who == ("scopedb_app_login", "scopedb_app")
    finally:
        db.close()


def test_rotation_keeps_sessions_working(tenants: Tenants) -> None:
    admin = tenants.db.admin()
    before = admin.active_signing_key()
    new_id = admin.rotate_signing_key()
    after = admin.active_signing_key()
    assert before is not None
    assert after is not None
    assert after.key_id == new_id != before.key_id
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 7
    with psycopg.connect(tenants.db.dsn) as conn:
        retired = conn.execute(
            "SELECT retired_at IS NOT NULL FROM scopedb_private.signing_keys WHERE key_id = %s", (before.key_id,)
        ).fetchone()
    assert retired == (True,)
