"""A pooled connection never carries one transaction's scope, or anything else, into the next."""

from __future__ import annotations

import random

from tests.conftest import Tenants

LEFTOVERS = """
SELECT (SELECT count(*) FROM pg_cursors),
       (SELECT count(*) FROM pg_prepared_statements),
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
