"""A pooled connection never carries one transaction's scope, or anything else, into the next."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from scopedb import AsyncDatabase, Database
from scopedb.server import Server
from tests.conftest import Tenants

LEFTOVERS = """
SELECT (SELECT count(*) FROM pg_cursors),
       (SELECT count(*) FROM pg_prepared_statements WHERE from_sql),
       (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()),
       (SELECT count(*) FROM pg_listening_channels())
"""


def test_alternating_scopes_over_1000_pooled_transactions(tenants: Tenants) -> None:
    rng = random.Random(20261129)
    expected = {"acme/api": {tenants.a.id}, "beta/web": {tenants.b.id}}
    backends: set[int] = set()
    for n in range(1000):
        name = rng.choice(sorted(expected))
        with tenants.db.scoped(tenants.scope(name)) as s:
            assert s.execute(LEFTOVERS).one() == (0, 0, 0, 0), f"transaction {n} inherited session state"
            projects = {row[0] for row in s.execute("SELECT project_id FROM scopedb.fragments")}
            assert projects == expected[name], f"transaction {n} in {name} saw projects {projects}"
            backends.add(int(s.execute("SELECT pg_backend_pid()").scalar()))
            # Leave behind as much session state as the app role can: a session-level copy of the scope, a held
            # cursor over the rows, a prepared statement, a LISTEN and an advisory lock.
            s.execute("SELECT set_config('scopedb.scope_token', current_setting('scopedb.scope_token'), false)")
            s.execute("DECLARE held CURSOR WITH HOLD FOR SELECT id, content FROM scopedb.fragments")
            s.execute("PREPARE leftover AS SELECT content FROM scopedb.fragments")
            s.execute("LISTEN scopedb_test")
            s.execute("SELECT pg_advisory_lock(42)")
    # Sequential use keeps reusing the same pooled session, the case where a leftover would show first.
    assert backends


def _pid(s: Any) -> int:
    return int(s.execute("SELECT pg_backend_pid()").scalar())


def test_the_pool_lends_the_connection_returned_last_first(tenants: Tenants) -> None:
    """scopedb.pools: one thread's requests keep to one backend (its memo, its kept plans, its caches warm) however
    many the pool holds. Fails with psycopg_pool's own order, which lends the idle connections in turn (and puts
    them back through a worker, late). That a connection not marked clean is still discarded is
    tests/adversarial/test_lifecycle.py's."""
    db = Database(Server(dsn=tenants.db.dsn, backend=tenants.db.server.backend), app_dsn=tenants.db.app_dsn,
                  pool_size=4)  # fmt: skip
    scope = tenants.scope("acme/api")
    try:
        with db.scoped(scope) as a, db.scoped(scope) as b, db.scoped(scope) as c:
            held = [_pid(a), _pid(b), _pid(c)]  # three backends; c is returned first, a last
        assert len(set(held)) == 3
        assert [int(db.run(scope, "SELECT pg_backend_pid()").scalar()) for _ in range(10)] == [held[0]] * 10
        with db.scoped(scope) as s:
            assert _pid(s) == held[0]
    finally:
        db.close()


def test_the_async_pool_lends_the_connection_returned_last_first(tenants: Tenants) -> None:
    async def work() -> tuple[list[int], list[int]]:
        scope = tenants.scope("acme/api")
        async with AsyncDatabase(Server(dsn=tenants.db.dsn, backend=tenants.db.server.backend),
                                 app_dsn=tenants.db.app_dsn, pool_size=4) as adb:  # fmt: skip
            async with adb.scoped(scope) as a, adb.scoped(scope) as b, adb.scoped(scope) as c:
                held = [int((await s.execute("SELECT pg_backend_pid()")).scalar()) for s in (a, b, c)]
            again = [int((await adb.run(scope, "SELECT pg_backend_pid()")).scalar()) for _ in range(10)]
        return held, again

    held, again = asyncio.run(work())
    assert len(set(held)) == 3
    assert again == [held[0]] * 10
