"""What a transaction leaves for the next one when its end is interrupted, or when code outlives it (catalogue
#60 to #62).

The attacker runs arbitrary SQL as ``scopedb_app`` in A's scope and prepares the session it is on: a session-level
role and scope token, a read-only default, a session advisory lock, a LISTEN, and a cursor WITH HOLD whose query
is slow, so that scopedb's own COMMIT is slow too. Then the request is interrupted while that COMMIT runs — a task
cancelled by ``asyncio.wait_for`` (a framework does that when the client disconnects), or KeyboardInterrupt in a
thread-free sync program. Whatever interrupts the end of a transaction, the connection must come back clean or be
discarded: B's next request on that pool must find none of it.
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from scopedb import AsyncDatabase, Database, ScopedbError
from scopedb.server import Server
from scopedb.session import SessionClosedError
from tests.conftest import Tenants

LOCK_KEY = 424242
PREPARE: list[Any] = [
    "COMMIT",  # out of scopedb's transaction: what follows is session state
    "SET ROLE scopedb_app",
    "SET default_transaction_read_only = on",
    f"SELECT pg_advisory_lock({LOCK_KEY})",
    "LISTEN attacker_channel",
    "BEGIN",
    "DECLARE slow CURSOR WITH HOLD FOR SELECT pg_sleep(3)",  # materialised at COMMIT: scopedb's COMMIT is slow
]


def _server(tenants: Tenants) -> Server:
    return Server(dsn=tenants.db.dsn, backend=tenants.db.server.backend)


# What B's transaction can see of an earlier borrower of its connection.
LEFTOVERS: list[Any] = [
    "SELECT current_setting('transaction_read_only')",
    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()",
    "SELECT count(*) FROM pg_listening_channels()",
    "SELECT count(*) FROM pg_cursors",
]
B_WRITES = "INSERT INTO scopedb.fragments (project_id, content) VALUES (%s, 'b writes')"


CLEAN = ("off", 0, 0, 0)


def _lock_is_free(tenants: Tenants) -> bool:
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        got = conn.execute("SELECT pg_try_advisory_lock(%s)", (LOCK_KEY,)).fetchone()
        conn.execute("SELECT pg_advisory_unlock_all()")
    return got == (True,)


def test_60_a_commit_cancelled_by_a_timeout_never_returns_a_dirty_connection_async(tenants: Tenants) -> None:
    """``asyncio.wait_for`` fired inside scopedb's COMMIT; psycopg cancelled the one query string that was also the
    cleanup, and the pool took the connection back idle but dirty: B's next request on it was read-only, and the
    lock stayed held."""

    async def main() -> tuple[Any, ...]:
        async with AsyncDatabase(_server(tenants), app_dsn=tenants.db.app_dsn, pool_size=1) as adb:

            async def attack() -> None:
                async with adb.scoped(tenants.scope("acme/api")) as s:
                    for statement in PREPARE:
                        await s.execute(statement)

            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(attack(), 1.0)
            async with adb.scoped(tenants.scope("beta/web")) as s:
                seen = tuple([(await s.execute(query)).scalar() for query in LEFTOVERS])
                await s.execute(B_WRITES, (tenants.b.id,))
            return seen

    assert asyncio.run(main()) == CLEAN
    assert _lock_is_free(tenants)


def test_60_a_commit_interrupted_by_keyboardinterrupt_never_returns_a_dirty_connection_sync(tenants: Tenants) -> None:
    """The sync path had the same hole under KeyboardInterrupt (a real SIGINT, delivered during the COMMIT)."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("SIGINT is delivered to the main thread")
    db = tenants.one_connection()
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))

    def attack() -> None:
        with db.scoped(tenants.scope("acme/api")) as s:
            for statement in PREPARE:
                s.execute(statement)
            timer.start()  # fires while the block's COMMIT waits for the held cursor

    try:
        with pytest.raises(KeyboardInterrupt):
            attack()
        with db.scoped(tenants.scope("beta/web")) as s:
            assert tuple(s.execute(query).scalar() for query in LEFTOVERS) == CLEAN
            s.execute(B_WRITES, (tenants.b.id,))
    finally:
        timer.cancel()
        db.close()
    assert _lock_is_free(tenants)


@pytest.fixture
def one_connection(tenants: Tenants) -> Iterator[Database]:
    db = tenants.one_connection()
    yield db
    db.close()


def test_61_a_thread_that_outlives_its_block_cannot_run_in_the_next_transaction(
    tenants: Tenants, one_connection: Database
) -> None:
    """A thread still holding A's ``ScopedSession`` when its block ends could pass the closed check just before the
    end and run its statement afterwards — in the next borrower's transaction (B's), on the same connection. The
    straggler here is held up exactly there (between the check and the statement) until B has entered."""
    b_entered = threading.Event()
    at_statement = threading.Event()
    seen: list[Any] = []

    with one_connection.scoped(tenants.scope("acme/api")) as leaked:
        conn = leaked._conn
        cursor = conn.cursor

        def held_cursor(*args: Any, **kwargs: Any) -> Any:
            if threading.current_thread() is straggler:
                at_statement.set()
                b_entered.wait(2)  # with the fix the block waits for us: give up waiting for B and go on
            return cursor(*args, **kwargs)

        conn.cursor = held_cursor  # type: ignore[method-assign]

        def run() -> None:
            try:
                seen.append(leaked.execute("SELECT DISTINCT project_id FROM scopedb.fragments").rows)
            except SessionClosedError as exc:
                seen.append(exc)

        straggler = threading.Thread(target=run)
        straggler.start()
        assert at_statement.wait(5)
    with one_connection.scoped(tenants.scope("beta/web")) as s:
        b_entered.set()
        straggler.join(10)
        assert s.execute("SELECT DISTINCT project_id FROM scopedb.fragments").rows == [(tenants.b.id,)]
    conn.cursor = cursor  # type: ignore[method-assign]
    assert len(seen) == 1
    assert seen[0] == [(tenants.a.id,)], "the straggler ran in B's transaction"


def test_61_a_statement_in_flight_when_the_block_ends_finishes_first(
    tenants: Tenants, one_connection: Database
) -> None:
    """The other side of the race: a statement another thread is running when the block ends runs to its end in
    that block's transaction; the block waits for it before committing, and the session is closed after."""
    done = threading.Event()
    with one_connection.scoped(tenants.scope("acme/api")) as s:

        def slow() -> None:
            s.execute("SELECT pg_sleep(0.5)")
            done.set()

        worker = threading.Thread(target=slow)
        worker.start()
        time.sleep(0.1)
    assert done.is_set()
    worker.join()
    with pytest.raises(SessionClosedError):
        s.execute("SELECT 1")


def test_62_a_kept_token_does_not_survive_a_project_rename(tenants: Tenants) -> None:
    """scopedb keeps a scope's resolved token (project names resolved to ids) for later entries. When "beta/web"
    is renamed and a new project takes the name, whoever enters "beta/web" must reach the new project, not keep
    reading the previous owner's rows for the rest of the token's life."""
    with tenants.db.scoped(tenants.scope("beta/web")) as s:
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 7
    with psycopg.connect(tenants.db.dsn) as admin:
        admin.execute("UPDATE scopedb.projects SET name = 'beta/web-archived' WHERE id = %s", (tenants.b.id,))
    new = tenants.db.admin().create_project("beta/web")
    with tenants.db.scoped(tenants.scope("beta/web")) as s:
        assert s.project_ids == (new.id,)
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 0


def test_62_a_kept_token_does_not_survive_a_project_deleted_and_made_again(tenants: Tenants) -> None:
    """The sibling of the rename: "beta/web" deleted and a new project given its name. Re-entry checks a kept
    token's names only when projects were renamed or deleted since the check last passed on the connection
    (scopedb_private.project_names_epoch); a deletion counts."""
    with tenants.db.scoped(tenants.scope("beta/web")) as s:
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 7
    with tenants.db.scoped(tenants.scope("beta/web")) as s:  # re-entered on the kept token: the check passed
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 7
    assert tenants.db.admin().delete_project("beta/web")
    new = tenants.db.admin().create_project("beta/web")
    with tenants.db.scoped(tenants.scope("beta/web")) as s:
        assert s.project_ids == (new.id,)
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 0


def test_62_a_renamed_project_s_own_name_is_refused_not_mapped(tenants: Tenants) -> None:
    """Control on the same path: a kept token for a name that no longer exists is not used either."""
    with tenants.db.scoped(tenants.scope("beta/web")) as s:
        s.execute("SELECT 1")
    with psycopg.connect(tenants.db.dsn) as admin:
        admin.execute("UPDATE scopedb.projects SET name = 'beta/web-archived' WHERE id = %s", (tenants.b.id,))
    with pytest.raises(ScopedbError), tenants.db.scoped(tenants.scope("beta/web")) as s:
        s.execute("SELECT 1")


def test_60_a_request_cancelled_inside_its_pipeline_never_returns_a_dirty_connection_async(tenants: Tenants) -> None:
    """The same for the one-round-trip request on a kept scope, which scopedb sends through libpq without psycopg's
    cursors (scopedb.wire): cancelled while its statement runs, after the statement took a session lock, the
    connection is discarded (the pool closes it, and the lock goes with it), and B's next request gets another."""
    slow = f"SELECT pg_advisory_lock({LOCK_KEY}), set_config('default_transaction_read_only', 'on', false), pg_sleep(3)"

    async def main() -> tuple[Any, ...]:
        async with AsyncDatabase(_server(tenants), app_dsn=tenants.db.app_dsn, pool_size=1) as adb:
            a, b = tenants.scope("acme/api"), tenants.scope("beta/web")
            backend = (await adb.run(a, "SELECT pg_backend_pid()")).scalar()
            assert (await adb.run(b, "SELECT pg_backend_pid()")).scalar() == backend  # kept scopes, one session
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(adb.run(a, slow), 1.0)
            assert (await adb.run(b, "SELECT pg_backend_pid()")).scalar() != backend
            await adb.run(b, B_WRITES, (tenants.b.id,))
            async with adb.scoped(b) as s:  # (a request's own statement is a portal: pg_cursors lists it)
                return tuple([(await s.execute(query)).scalar() for query in LEFTOVERS])

    assert asyncio.run(main()) == CLEAN
    assert _lock_is_free(tenants)


def test_60_a_block_cancelled_inside_its_entry_never_returns_a_dirty_connection_async(tenants: Tenants) -> None:
    """The same for a block's entry on a kept scope, which also goes through libpq without psycopg's cursors:
    cancelled while the entry waits on the server (here for a lock the owner holds on the table of project-name
    epochs, which the reentry reads), the connection is closed, not lent out with its transaction half begun; B's
    next block gets another session, in its own scope."""

    async def main() -> tuple[Any, ...]:
        async with AsyncDatabase(_server(tenants), app_dsn=tenants.db.app_dsn, pool_size=1) as adb:
            a, b = tenants.scope("acme/api"), tenants.scope("beta/web")
            async with adb.scoped(a) as s:
                backend = (await s.execute("SELECT pg_backend_pid()")).scalar()

            async def enter_a() -> None:
                async with adb.scoped(a) as s:
                    await s.execute("SELECT 1")

            with psycopg.connect(tenants.db.dsn) as owner:
                owner.execute("LOCK TABLE scopedb_private.project_names_epoch IN ACCESS EXCLUSIVE MODE")
                with pytest.raises(asyncio.TimeoutError):
                    await asyncio.wait_for(enter_a(), 1.0)
            async with adb.scoped(b) as s:
                assert (await s.execute("SELECT pg_backend_pid()")).scalar() != backend
                assert (
                    await s.execute("SELECT count(*) FROM scopedb.projects WHERE id <> %s", (tenants.b.id,))
                ).scalar() == 0
                return tuple([(await s.execute(query)).scalar() for query in LEFTOVERS])

    assert asyncio.run(main()) == CLEAN
