"""Code that can run any SQL as scopedb_app inside a transaction scoped to project A tries to reach project B.

Every attempt runs through ``s.execute`` in a legitimately scoped transaction — the position of injected SQL in a
service — and must end with a clear error or with no row of B.
"""

from __future__ import annotations

import json
import time
from typing import LiteralString

import psycopg
import pytest

from scopedb import ScopedbError, SigningKey
from scopedb.errors import (
    AudienceMismatchError,
    ExpiredTokenError,
    InvalidSignatureError,
    MalformedTokenError,
    PermissionDeniedError,
    UnknownProjectError,
)
from scopedb.session import ScopedSession
from scopedb.tokens import scope_claims, sign_claims, sign_scope
from tests.conftest import Tenants

COUNT_B: LiteralString = "SELECT count(*) FROM scopedb.fragments WHERE project_id = %s"


def _rows_of_b(s: ScopedSession, tenants: Tenants) -> int:
    """How many of B's fragments this session can see (must stay 0); an error also means none were seen."""
    return int(s.execute(COUNT_B, (tenants.b.id,)).scalar())


def _resolved_token(tenants: Tenants, *projects: str) -> str:
    """A genuine resolved token for ``projects`` — what an attacker could have copied from an earlier session."""
    with tenants.db.scoped(tenants.scope(*projects)) as s:
        return str(s.execute("SELECT current_setting('scopedb.scope_token')").scalar())


def _tamper(token: str, **changes: object) -> str:
    """Rewrite the claims of a token, keeping its signature (which then no longer matches)."""
    version, key_id, signature, body = token.split(".", 3)
    claims = json.loads(body)
    claims.update(changes)
    return ".".join([version, key_id, signature, json.dumps(claims)])


def test_set_config_with_a_tampered_resolved_token_sees_nothing(tenants: Tenants) -> None:
    own = _resolved_token(tenants, "acme/api")
    forged = _tamper(own, project_ids=[tenants.a.id, tenants.b.id], projects=["acme/api", "beta/web"])
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("SELECT set_config('scopedb.scope_token', %s, true)", (forged,))
        assert _rows_of_b(s, tenants) == 0
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 0


@pytest.mark.parametrize(
    "statement",
    [
        "SELECT set_config('scopedb.scope_token', %s, false)",
        "SELECT set_config('scopedb.scope_token', %s, true)",
    ],
)
def test_set_config_with_an_unsigned_scope_sees_nothing(tenants: Tenants, statement: LiteralString) -> None:
    unsigned = "v1.nokey." + "0" * 64 + "." + json.dumps({"project_ids": [tenants.b.id], "projects": ["beta/web"]})
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute(statement, (unsigned,))
        assert _rows_of_b(s, tenants) == 0


@pytest.mark.parametrize("setting", ["scopedb.scope_token", "scopedb.project_ids", "scopedb.scope"])
def test_set_and_set_local_on_scope_settings_see_nothing(tenants: Tenants, setting: str) -> None:
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        for verb in ("SET", "SET LOCAL"):
            s.execute(f"{verb} {setting} = '{tenants.b.id}'")
            assert _rows_of_b(s, tenants) == 0


def test_a_valid_token_straight_from_python_is_not_a_resolved_scope(tenants: Tenants) -> None:
    """Even a genuine Python-signed token for B grants nothing when set directly: only resolve_scope's output
    carries project ids, and producing it means calling enter_scope with a token the attacker does not hold."""
    key = tenants.db.admin().active_signing_key()
    assert key is not None
    audience = _database_name(tenants)
    token = sign_scope(tenants.scope("beta/web"), key, audience=audience)
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("SELECT set_config('scopedb.scope_token', %s, true)", (token,))
        assert _rows_of_b(s, tenants) == 0


def _database_name(tenants: Tenants) -> str:
    return str(psycopg.conninfo.conninfo_to_dict(tenants.db.dsn)["dbname"])


def test_reset_role_and_set_role_do_not_escape(tenants: Tenants) -> None:
    attempts: list[LiteralString] = [
        "SET ROLE scopedb_owner",
        "SET ROLE postgres",
        "SET SESSION AUTHORIZATION postgres",
        "SET LOCAL ROLE scopedb_auditor",
    ]
    for attempt in attempts:
        with pytest.raises(ScopedbError), tenants.db.scoped(tenants.scope("acme/api")) as s:
            s.execute(attempt)
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("SET ROLE NONE")  # the login itself
        with pytest.raises(PermissionDeniedError):
            _rows_of_b(s, tenants)
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("RESET ROLE")  # the session's own role, which the pool's startup packet made scopedb_app
        assert s.execute("SELECT current_user::text").scalar() == "scopedb_app"
        assert _rows_of_b(s, tenants) == 0
        assert s.execute("SELECT count(*) FROM scopedb.fragments WHERE project_id = %s", (tenants.a.id,)).scalar() > 0


def test_enter_scope_refuses_bad_tokens_with_typed_errors(tenants: Tenants) -> None:
    key = tenants.db.admin().active_signing_key()
    assert key is not None
    audience = _database_name(tenants)
    scope_b = tenants.scope("beta/web")
    genuine = sign_scope(scope_b, key, audience=audience)
    cases: list[tuple[str, type[ScopedbError]]] = [
        (_tamper(genuine, projects=["beta/web", "acme/api"]), InvalidSignatureError),
        (sign_scope(scope_b, SigningKey(key.key_id, b"x" * 32), audience=audience), InvalidSignatureError),
        (sign_scope(scope_b, SigningKey("made-up", key.secret), audience=audience), InvalidSignatureError),
        (
            sign_scope(scope_b, key, audience=audience, now=time.time() - 3600, ttl_seconds=60),
            ExpiredTokenError,
        ),
        (sign_scope(scope_b, key, audience=audience, now=time.time() + 3600), ExpiredTokenError),
        (sign_scope(scope_b, key, audience="another-database"), AudienceMismatchError),
        (sign_scope(tenants.scope("nobody/here"), key, audience=audience), UnknownProjectError),
        ("", MalformedTokenError),
        ("v1.x.y.z", MalformedTokenError),
        (genuine.replace("v1.", "v2.", 1), MalformedTokenError),
    ]
    for token, expected in cases:
        with tenants.db.scoped(tenants.scope("acme/api")) as s, pytest.raises(expected):
            s.execute("SELECT scopedb.enter_scope(%s)", (token,))
    # The genuine token is accepted, which shows the refusals above are about the tampering.
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("SELECT scopedb.enter_scope(%s)", (genuine,))
        assert _rows_of_b(s, tenants) == 7


def test_expired_and_foreign_resolved_tokens_grant_nothing(tenants: Tenants) -> None:
    """A resolved token replayed after expiry, or minted for another database, reads as no scope."""
    key = tenants.db.admin().active_signing_key()
    assert key is not None
    resolved = json.loads(_resolved_token(tenants, "beta/web").split(".", 3)[3])
    stale = dict(resolved, iat=int(time.time()) - 7200, exp=int(time.time()) - 3600)
    foreign = dict(resolved, aud="another-database")
    for claims in (stale, foreign):
        with tenants.db.scoped(tenants.scope("acme/api")) as s:
            s.execute("SELECT set_config('scopedb.scope_token', %s, true)", (sign_claims(claims, key),))
            assert _rows_of_b(s, tenants) == 0
    # Control: the same claims, fresh and for this database, do grant B — so the refusals are real.
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("SELECT set_config('scopedb.scope_token', %s, true)", (sign_claims(resolved, key),))
        assert _rows_of_b(s, tenants) == 7


def test_a_retired_key_is_refused(tenants: Tenants) -> None:
    admin = tenants.db.admin()
    old = admin.active_signing_key()
    assert old is not None
    replayed = _resolved_token(tenants, "beta/web")
    admin.rotate_signing_key()
    # Old key still in its grace period: tokens it signed keep working.
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("SELECT set_config('scopedb.scope_token', %s, true)", (replayed,))
        assert _rows_of_b(s, tenants) == 7
    admin.retire_signing_key(old.key_id)
    audience = _database_name(tenants)
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("SELECT set_config('scopedb.scope_token', %s, true)", (replayed,))
        assert _rows_of_b(s, tenants) == 0
    with tenants.db.scoped(tenants.scope("acme/api")) as s, pytest.raises(InvalidSignatureError):
        s.execute("SELECT scopedb.enter_scope(%s)", (sign_scope(tenants.scope("beta/web"), old, audience=audience),))
    # And the Database, whose cached key was retired, signs with the new one after one refusal.
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        assert _rows_of_b(s, tenants) == 0
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 7


@pytest.mark.parametrize(
    "statement",
    [
        "CREATE TEMP TABLE shadow (project_id bigint)",
        "CREATE TABLE public.shadow (project_id bigint)",
        "CREATE VIEW scopedb.all_fragments AS SELECT * FROM scopedb.fragments",
        "CREATE FUNCTION scopedb.scope_project_ids() RETURNS bigint[] LANGUAGE sql AS 'SELECT ARRAY[1,2]::bigint[]'",
        "CREATE OR REPLACE FUNCTION public.scope_project_ids() RETURNS bigint[] LANGUAGE sql AS 'SELECT NULL'",
        "CREATE FUNCTION pg_temp.scope_project_ids() RETURNS bigint[] LANGUAGE sql AS 'SELECT NULL::bigint[]'",
        "CREATE SCHEMA evil",
        "ALTER TABLE scopedb.fragments DISABLE ROW LEVEL SECURITY",
        "ALTER TABLE scopedb.fragments NO FORCE ROW LEVEL SECURITY",
        'DROP POLICY "scope limits which fragments the app reads" ON scopedb.fragments',
        "CREATE POLICY leak ON scopedb.fragments AS PERMISSIVE FOR SELECT TO scopedb_app USING (true)",
        "SELECT * FROM scopedb_private.signing_keys",
        "SELECT scopedb_private.sign_claims('{}'::jsonb)",
        "GRANT scopedb_owner TO scopedb_app",
        "COPY scopedb.fragments TO '/tmp/leak.csv'",
    ],
)
def test_creating_or_altering_objects_is_refused(tenants: Tenants, statement: LiteralString) -> None:
    with pytest.raises(ScopedbError), tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute(statement)
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        assert _rows_of_b(s, tenants) == 0
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 7


def test_search_path_tricks_do_not_reach_scope_functions(tenants: Tenants) -> None:
    """scopedb's functions pin their search_path, so a caller's search_path changes nothing."""
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("SET LOCAL search_path = pg_temp, public, scopedb")
        assert _rows_of_b(s, tenants) == 0
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 7


def test_leaky_function_in_where_sees_only_admitted_rows(tenants: Tenants) -> None:
    """A non-leakproof expression in WHERE (here: one that would raise on B's content) runs after the policy."""
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        rows = s.execute(
            "SELECT count(*) FROM scopedb.fragments WHERE (CASE WHEN content LIKE 'beta%' "
            "THEN 1 / (length(content) - length(content)) ELSE 1 END) = 1"
        ).scalar()
    assert rows == 7


def test_copy_to_stdout_is_filtered(tenants: Tenants) -> None:
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        conn = s._conn
        with (
            conn.cursor() as cur,
            cur.copy("COPY (SELECT project_id FROM scopedb.fragments) TO STDOUT") as copy,
        ):
            projects = {int(row[0]) for row in copy.rows()}
    assert projects == {tenants.a.id}


def test_error_messages_carry_no_row_data(tenants: Tenants) -> None:
    """A unique violation on another project's key cannot happen (keys include project_id); on our own key the
    message names the constraint, never the key's value."""
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        existing = s.execute("SELECT id FROM scopedb.fragments LIMIT 1").scalar()
    with pytest.raises(ScopedbError) as err, tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute(
            "INSERT INTO scopedb.fragments (project_id, id, content) VALUES (%s, %s, 'dup')",
            (tenants.a.id, existing),
        )
    assert existing not in str(err.value)
    assert "fragments_pkey" in str(err.value)


def test_claims_builder_matches_the_database_format(tenants: Tenants) -> None:
    """The Python claims carry exactly the fields the database's scope_claims type reads."""
    claims = scope_claims(tenants.scope("acme/api"), audience="db", ttl_seconds=60)
    with psycopg.connect(tenants.db.dsn) as conn:
        fields = {
            r[0]
            for r in conn.execute(
                "SELECT attname FROM pg_attribute WHERE attrelid = 'scopedb_private.scope_claims'::regclass "
                "AND attnum > 0"
            )
        }
    assert set(claims) <= fields
