"""The memo of verified tokens (revision 0017) opens nothing (catalogue #89).

An entry verifies its token once and remembers the verification in ``pg_temp.scopedb_verified_tokens_v1``, a table
of the session's own that only scopedb_owner can read or write; the scope accessors then look the token in the
setting up there instead of verifying it on every call. The table outlives transactions on a pooled connection,
so it holds the tokens of every tenant that used the connection. The attacker is code that runs any SQL as
scopedb_app (or as the login, after ``SET ROLE NONE``) in a scoped transaction of project A. It tries to read, write,
shadow or drop the memo, to make a remembered token stand for another one, and to use what an earlier transaction
on the connection remembered. Every attempt must end with an error or with A's rows at most, never one of B's.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any, LiteralString

import psycopg
import pytest
from psycopg import sql

from scopedb.testing import app_connection
from tests.conftest import Tenants

MEMO = "pg_temp.scopedb_verified_tokens_v1"
VISIBLE: LiteralString = "SELECT DISTINCT project_id FROM scopedb.fragments ORDER BY 1"


@pytest.fixture
def raw(tenants: Tenants) -> Iterator[psycopg.Connection[Any]]:
    """A raw connection as the application login, in a transaction that has entered A's scope."""
    with app_connection(tenants.db) as conn:
        assert tenants.db.enter_scope(conn, tenants.scope("acme/api")) == [tenants.a.id]
        yield conn


def _visible(conn: psycopg.Connection[Any]) -> list[int]:
    return [row[0] for row in conn.execute(VISIBLE).fetchall()]


def _resolved_token(tenants: Tenants, *projects: str) -> str:
    with tenants.db.scoped(tenants.scope(*projects)) as s:
        return str(s.execute("SELECT current_setting('scopedb.scope_token')").scalar())


def test_the_entry_writes_the_memo_for_this_transaction_and_the_app_cannot_read_it(
    tenants: Tenants, raw: psycopg.Connection[Any]
) -> None:
    assert _visible(raw) == [tenants.a.id]
    with psycopg.connect(tenants.db.dsn, autocommit=True) as admin:  # the catalog shows the owner's table
        owner = admin.execute(
            "SELECT c.relowner::regrole::text, c.relpersistence FROM pg_class AS c "
            "WHERE c.relname = 'scopedb_verified_tokens_v1'"
        ).fetchall()
    assert ("scopedb_owner", "t") in owner
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        raw.execute(f"SELECT token FROM {MEMO}")


@pytest.mark.parametrize(
    "statement",
    [
        f"UPDATE {MEMO} SET project_ids = ARRAY[1, 2, 3]::bigint[]",
        f"INSERT INTO {MEMO} (token) VALUES ('v1.x')",
        f"DELETE FROM {MEMO}",
        f"TRUNCATE {MEMO}",
        f"LOCK TABLE {MEMO} IN ACCESS EXCLUSIVE MODE",
        f"ALTER TABLE {MEMO} ADD COLUMN x int",
        f"DROP TABLE {MEMO}",
        f"COPY {MEMO} FROM STDIN",
        f"CREATE TEMP TABLE scopedb_verified_tokens_v2 (LIKE {MEMO})",
        "CREATE TEMP TABLE anything (x int)",
        "CREATE TEMP VIEW scopedb_verified_tokens_v1 AS SELECT 1",
        "CREATE FUNCTION pg_temp.shadow() RETURNS int LANGUAGE sql AS 'SELECT 1'",
    ],
)
@pytest.mark.parametrize("who", ["scopedb_app", "the login after SET ROLE NONE"])
def test_the_memo_cannot_be_written_altered_or_shadowed(
    tenants: Tenants, raw: psycopg.Connection[Any], statement: str, who: str
) -> None:
    if who != "scopedb_app":
        raw.execute("SET ROLE NONE")
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        raw.execute(statement)


def test_a_memo_never_stands_for_another_token(tenants: Tenants, raw: psycopg.Connection[Any]) -> None:
    """The memo admits only the token it was written for: set_config of anything else is verified in full."""
    own = str(raw.execute("SELECT current_setting('scopedb.scope_token')").fetchone()[0])  # type: ignore[index]
    version, key_id, _signature, body = own.split(".", 3)
    forged_body = body.replace(f'"project_ids": [{tenants.a.id}]', f'"project_ids": [{tenants.a.id}, {tenants.b.id}]')
    assert forged_body != body
    forged = ".".join([version, key_id, "0" * 64, forged_body])
    raw.execute("SELECT set_config('scopedb.scope_token', %s, true)", (forged,))
    assert _visible(raw) == []
    # A genuine token for B, copied from elsewhere, verifies in full as it always did: B's rows, never A's memo.
    raw.execute("SELECT set_config('scopedb.scope_token', %s, true)", (_resolved_token(tenants, "beta/web"),))
    assert _visible(raw) == [tenants.b.id]
    raw.execute("SELECT set_config('scopedb.scope_token', %s, true)", (own,))
    assert _visible(raw) == [tenants.a.id]


def test_the_memo_is_used_once_written(tenants: Tenants, raw: psycopg.Connection[Any]) -> None:
    """Control that the memo is what the statements read: with the key's secret changed under the open
    transaction (an administrator's act, not the app's), a full verification fails, and the memo still admits the
    token the entry verified; without the memo (DISCARD TEMP drops it) the same token is refused."""
    assert _visible(raw) == [tenants.a.id]
    with psycopg.connect(tenants.db.dsn, autocommit=True) as admin:
        key = admin.execute(
            "SELECT key_id, secret FROM scopedb_private.signing_keys WHERE retired_at IS NULL"
        ).fetchone()
        assert key is not None
        admin.execute("UPDATE scopedb_private.signing_keys SET secret = %s WHERE key_id = %s", (b"x" * 32, key[0]))
        try:
            assert _visible(raw) == [tenants.a.id]  # the memo
            raw.execute("DISCARD TEMP")  # the memo gone: verified in full, and refused
            assert _visible(raw) == []
        finally:
            admin.execute("UPDATE scopedb_private.signing_keys SET secret = %s WHERE key_id = %s", (key[1], key[0]))


def test_a_rolled_back_entry_leaves_no_memo(tenants: Tenants) -> None:
    token_a = _resolved_token(tenants, "acme/api")
    token_b = _resolved_token(tenants, "beta/web")
    with app_connection(tenants.db) as conn:
        conn.execute("SET LOCAL ROLE scopedb_app")
        conn.execute("SAVEPOINT before")
        conn.execute("SELECT scopedb.reenter_scope(%s)", (token_b,))
        assert _visible(conn) == [tenants.b.id]
        conn.execute("ROLLBACK TO SAVEPOINT before")  # the setting and the memo's write both undone
        assert _visible(conn) == []
        conn.execute("SELECT scopedb.reenter_scope(%s)", (token_a,))
        conn.execute("SAVEPOINT second")
        conn.execute("SELECT scopedb.reenter_scope(%s)", (token_b,))
        conn.execute("ROLLBACK TO SAVEPOINT second")  # back to A's entry, memo included
        assert _visible(conn) == [tenants.a.id]
        conn.rollback()
        conn.execute("SET LOCAL ROLE scopedb_app")
        assert _visible(conn) == []  # a new transaction has entered nothing


def test_what_earlier_transactions_remembered_is_no_scope_for_a_later_one(tenants: Tenants) -> None:
    """The next transaction on the same session (a pooled connection, the next tenant) finds the memo of the one
    before, with its token. It cannot read that token, and without it the memo admits nothing."""
    with app_connection(tenants.db) as conn:
        tenants.db.enter_scope(conn, tenants.scope("beta/web"))
        assert _visible(conn) == [tenants.b.id]
        conn.commit()
        conn.execute("SET LOCAL ROLE scopedb_app")
        assert _visible(conn) == []  # the setting ended with its transaction; the memo is no scope of its own
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(f"SELECT token FROM {MEMO}")
        conn.rollback()
        conn.execute("SET LOCAL ROLE scopedb_app")
        conn.execute("SELECT set_config('scopedb.scope_token', 'v1.x.y.{}', true)")
        assert _visible(conn) == []
        conn.rollback()
        tenants.db.enter_scope(conn, tenants.scope("acme/api"))  # the next tenant's own entry
        assert _visible(conn) == [tenants.a.id]


def test_discard_temp_drops_the_memo_and_statements_verify_in_full(tenants: Tenants) -> None:
    with app_connection(tenants.db) as conn:
        tenants.db.enter_scope(conn, tenants.scope("acme/api"))
        conn.execute("DISCARD TEMP")
        assert _visible(conn) == [tenants.a.id]  # verified in full: the same answer, never a wider one
        conn.rollback()
        assert tenants.db.enter_scope(conn, tenants.scope("beta/web")) == [tenants.b.id]  # made again
        assert _visible(conn) == [tenants.b.id]
        assert conn.execute("SELECT to_regclass(%s) IS NOT NULL", (MEMO,)).fetchone() == (True,)


def test_a_read_only_first_entry_verifies_in_full(tenants: Tenants) -> None:
    """No temporary table can be made in a read-only transaction: the entry skips the memo, and every statement
    verifies the token as before."""
    token = _resolved_token(tenants, "acme/api")
    with app_connection(tenants.db) as conn:
        conn.execute("SET TRANSACTION READ ONLY")
        conn.execute("SET LOCAL ROLE scopedb_app")
        assert conn.execute("SELECT scopedb.reenter_scope(%s)", (token,)).fetchone() == ([tenants.a.id],)
        assert conn.execute("SELECT to_regclass(%s)", (MEMO,)).fetchone() == (None,)
        assert _visible(conn) == [tenants.a.id]


def test_without_temp_for_the_owner_the_entry_skips_the_memo(tenants: Tenants) -> None:
    """A managed server where the migration could not grant TEMP to scopedb_owner: entry still works, and every
    statement verifies in full."""
    with psycopg.connect(tenants.db.dsn, autocommit=True) as admin:
        dbname = str(admin.info.dbname)
        admin.execute(sql.SQL("REVOKE TEMPORARY ON DATABASE {} FROM scopedb_owner").format(sql.Identifier(dbname)))
    with app_connection(tenants.db) as conn:
        assert tenants.db.enter_scope(conn, tenants.scope("acme/api")) == [tenants.a.id]
        assert conn.execute("SELECT to_regclass(%s)", (MEMO,)).fetchone() == (None,)
        assert _visible(conn) == [tenants.a.id]


def test_a_scope_over_many_projects_is_remembered_too(tenants: Tenants) -> None:
    """The memo is looked up by the whole token, which grows with the scope's projects: a btree index on it
    refused tokens over 2.7 kB, and entry failed for a scope of many projects (seen at 10,000 tenants)."""
    admin = tenants.db.admin()
    names = [f"tenant-{n:03d}/{secrets.token_hex(24)}" for n in range(120)]  # random: a key that compresses little
    for name in names:
        admin.create_project(name)
    scope = tenants.scope("acme/api", *names)
    with tenants.db.scoped(scope) as s:
        token = str(s.execute("SELECT current_setting('scopedb.scope_token')").scalar())
        assert len(token) > 8_000  # past what a btree index takes, compressed or not
        assert s.execute(VISIBLE).rows == [(tenants.a.id,)]
    assert tenants.db.run(scope, VISIBLE).rows == [(tenants.a.id,)]  # re-entered on the kept (remembered) token


def _memo_bytes(tenants: Tenants, conn: psycopg.Connection[Any]) -> int:
    """The size of the memo of ``conn``'s session (main fork and TOAST), read by an admin session from the catalog."""
    row = conn.execute("SELECT pg_catalog.pg_my_temp_schema()").fetchone()
    assert row is not None
    with psycopg.connect(tenants.db.dsn, autocommit=True) as admin:
        size = admin.execute(
            "SELECT pg_table_size(c.oid) FROM pg_class AS c "
            "WHERE c.relnamespace = %s AND c.relname = 'scopedb_verified_tokens_v1'",
            (row[0],),
        ).fetchone()
    assert size is not None
    return int(size[0])


def _remember(tenants: Tenants, conn: psycopg.Connection[Any], count: int, prefix: str) -> None:
    """Resolve ``count`` distinct scopes (a new actor each) on ``conn``: each resolution remembers its token."""
    tokens = [tenants.db.sign(tenants.scope("acme/api"), actor=f"{prefix}-{n}") for n in range(count)]
    conn.execute("SET LOCAL ROLE scopedb_app")
    row = conn.execute("SELECT count(scopedb.resolve_scope(t)) FROM unnest(%s::text[]) AS t", (tokens,)).fetchone()
    assert row == (count,)
    conn.commit()


MEMO_LIMIT = 1_048_576  # remember_scope empties the memo once it has reached this size (revision 0026)


def test_the_memo_stays_bounded_on_a_connection_that_meets_many_scopes(tenants: Tenants) -> None:
    """A pooled connection meets scope after scope. Its memo is a temporary table, which no vacuum reaches: when it
    deleted its oldest row for every new token, it grew with every token ever remembered (2.7 MB after 4,000 here),
    and every new token's entry scanned it all. It is emptied as a whole once it reaches 1 MB, and stays usable
    after that."""
    with app_connection(tenants.db) as conn:
        kept = _resolved_token(tenants, "beta/web")
        conn.execute("SET LOCAL ROLE scopedb_app")
        assert conn.execute("SELECT scopedb.reenter_scope(%s)", (kept,)).fetchone() == ([tenants.b.id],)
        conn.commit()
        _remember(tenants, conn, 4_000, "many")  # about twice what the limit holds
        assert 0 < _memo_bytes(tenants, conn) <= MEMO_LIMIT + 65_536
        # A token remembered before the memo was emptied is verified again, and reads what it read before.
        conn.execute("SET LOCAL ROLE scopedb_app")
        assert conn.execute("SELECT scopedb.reenter_scope(%s)", (kept,)).fetchone() == ([tenants.b.id],)
        assert _visible(conn) == [tenants.b.id]
        conn.rollback()
        assert tenants.db.enter_scope(conn, tenants.scope("acme/api")) == [tenants.a.id]
        assert _visible(conn) == [tenants.a.id]


def test_a_read_only_entry_into_a_full_memo_skips_it(tenants: Tenants) -> None:
    """Emptying the memo is refused in a read-only transaction. An entry that finds the memo full there leaves it
    as it is, does not remember its token, and enters as any other entry does."""
    with app_connection(tenants.db) as conn:
        full = 0
        for batch in range(2_000):  # by 200 tokens, then one at a time near the limit
            if full >= MEMO_LIMIT:
                break
            _remember(tenants, conn, 200 if full < MEMO_LIMIT - 200_000 else 1, f"fill-{batch}")
            grown = _memo_bytes(tenants, conn)
            assert grown >= full  # not emptied yet: that happens when a token comes in to a full memo
            full = grown
        assert full >= MEMO_LIMIT
        token = _resolved_token(tenants, "beta/web")
        conn.execute("SET TRANSACTION READ ONLY")
        conn.execute("SET LOCAL ROLE scopedb_app")
        assert conn.execute("SELECT scopedb.reenter_scope(%s)", (token,)).fetchone() == ([tenants.b.id],)
        assert _visible(conn) == [tenants.b.id]
        conn.rollback()
        assert _memo_bytes(tenants, conn) == full


def test_a_failed_names_check_is_asked_again(tenants: Tenants) -> None:
    """reenter_scope remembers a token, with the names epoch, before it checks the token's names (so the policy
    the check reads through finds it in the memo). When the names no longer match, that epoch is taken back: a
    second reentry of the token on the same connection, at the same epoch, must check and refuse it again, not
    find the check passed."""
    token = _resolved_token(tenants, "beta/web")
    with psycopg.connect(tenants.db.dsn) as admin:
        admin.execute("UPDATE scopedb.projects SET name = 'beta/web-archived' WHERE id = %s", (tenants.b.id,))
    with app_connection(tenants.db) as conn:
        for _ in range(2):
            conn.execute("SET LOCAL ROLE scopedb_app")
            assert conn.execute("SELECT scopedb.reenter_scope(%s)", (token,)).fetchone() == ([],)
            assert _visible(conn) == []
            conn.commit()
