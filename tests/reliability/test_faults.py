"""Faults a shared database meets: a backend killed mid-write, a server crash, a connection lost mid-transaction.

Each write under test is made slow on purpose with a statement-level trigger that sleeps (installed by the admin
login in the test's own database), so the fault lands while the write is in flight, not before or after it.
"""

from __future__ import annotations

import os
import signal
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, LiteralString

import psycopg
import pytest
from psycopg import sql

from scopedb import Database, Fragment, ResourceScope
from scopedb.errors import ConnectionLostError, DatabaseUnavailableError
from scopedb.notes import NoteStore
from scopedb.server import start_embedded
from scopedb.tiers import ContextTierService
from tests.conftest import Tenants

SLOW = 3.0  # seconds the injected trigger sleeps: the window in which the backend is terminated


def _slow_trigger(tenants: Tenants, table: LiteralString, event: LiteralString) -> None:
    """Make every ``event`` statement on ``table`` sleep SLOW seconds after it has written its rows."""
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        conn.execute(
            f"CREATE FUNCTION public.test_slow_{event.lower()}() RETURNS trigger LANGUAGE plpgsql AS "
            f"$$ BEGIN PERFORM pg_sleep({SLOW}); RETURN NULL; END $$"
        )
        conn.execute(
            sql.SQL("CREATE TRIGGER {} AFTER {} ON {} FOR EACH STATEMENT EXECUTE FUNCTION {}()").format(
                sql.Identifier(f"test_slow_{event.lower()}"),
                sql.SQL(event),
                sql.SQL(table),
                sql.SQL(f"public.test_slow_{event.lower()}"),
            )
        )


def _kill_while_sleeping(tenants: Tenants, work: Callable[[], Any]) -> BaseException | None:
    """Run ``work`` in a thread; once its backend sleeps in the trigger, terminate that backend."""
    failure: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as exc:
            failure.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    killed = False
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        deadline = time.monotonic() + 30
        while not killed and time.monotonic() < deadline:
            row = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() "
                "AND wait_event = 'PgSleep'"
            ).fetchone()
            if row:
                killed = bool(conn.execute("SELECT pg_terminate_backend(%s)", (row[0],)).fetchone())
            else:
                time.sleep(0.05)
    thread.join(60)
    assert killed, "the write never reached the injected sleep"
    return failure[0] if failure else None


def test_a_backend_killed_mid_bulk_ingest_leaves_no_rows(tenants: Tenants) -> None:
    _slow_trigger(tenants, "scopedb.fragments", "INSERT")
    before = tenants.count("fragments", tenants.a)
    fragments = [Fragment(project="acme/api", id=f"bulk{i}", content=f"bulk row {i}") for i in range(5_000)]

    def ingest() -> None:
        with tenants.db.scoped(tenants.scope("acme/api")) as s:
            s.ingest_fragments(fragments, batch_size=1_000)

    error = _kill_while_sleeping(tenants, ingest)
    assert isinstance(error, ConnectionLostError), error
    assert tenants.count("fragments", tenants.a) == before
    assert tenants.admin_rows("fragments", "id LIKE 'bulk%'") == []
    with psycopg.connect(tenants.db.dsn) as conn:
        assert conn.execute(
            "SELECT count(*) FROM scopedb_private.fragment_search WHERE id LIKE 'bulk%%'"
        ).fetchone() == (0,)
    with tenants.db.scoped(tenants.scope("acme/api")) as s:  # the pool recovered
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == before


def test_a_backend_killed_mid_tier_eviction_leaves_every_fragment_where_it_was(tenants: Tenants) -> None:
    tiers = ContextTierService(tenants.db, summarize_over=1)
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("UPDATE scopedb.fragments SET tier = 'hot' WHERE project_id = %s", (tenants.a.id,))
    snapshot = _tier_snapshot(tenants)
    _slow_trigger(tenants, "scopedb.fragments", "UPDATE")

    error = _kill_while_sleeping(tenants, lambda: tiers.evict_lru("hot", project="acme/api", count=5))
    assert isinstance(error, ConnectionLostError), error
    assert _tier_snapshot(tenants) == snapshot
    with psycopg.connect(tenants.db.dsn) as conn:
        assert conn.execute("SELECT count(*) FROM scopedb_private.fragment_originals").fetchone() == (0,)


def _tier_snapshot(tenants: Tenants) -> list[tuple[Any, ...]]:
    with psycopg.connect(tenants.db.dsn) as conn:
        return conn.execute("SELECT project_id, id, tier, content FROM scopedb.fragments ORDER BY 1, 2").fetchall()


def test_a_backend_killed_mid_note_store_leaves_no_note(tenants: Tenants) -> None:
    notes = NoteStore(tenants.db, "acme/api")
    kept = notes.store("a note stored before the fault")
    _slow_trigger(tenants, "scopedb.notes", "INSERT")

    error = _kill_while_sleeping(tenants, lambda: notes.store("a note whose backend dies"))
    assert isinstance(error, ConnectionLostError), error
    with psycopg.connect(tenants.db.dsn) as conn:
        rows = conn.execute("SELECT id FROM scopedb.notes").fetchall()
    assert rows == [(kept,)]


def test_a_lost_connection_inside_scoped_raises_one_clear_error(tenants: Tenants) -> None:
    caught: list[BaseException] = []
    try:
        with tenants.db.scoped(tenants.scope("acme/api")) as s:
            pid = s.execute("SELECT pg_backend_pid()").scalar()
            with psycopg.connect(tenants.db.dsn, autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            s.execute("SELECT count(*) FROM scopedb.fragments")
    except BaseException as exc:  # what the caller of db.scoped() sees, after its cleanup ran
        caught.append(exc)
    assert len(caught) == 1
    assert isinstance(caught[0], ConnectionLostError)
    assert "lost" in str(caught[0]).lower()
    assert not isinstance(caught[0].__context__, ConnectionLostError)  # not one lost-connection error on another
    with tenants.db.scoped(tenants.scope("acme/api")) as s:  # the pool replaced the dead connection
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 7


def test_an_immediate_stop_keeps_committed_rows_and_drops_uncommitted_ones() -> None:
    with tempfile.TemporaryDirectory(prefix="scopedb-crash-") as home:
        server = start_embedded(Path(home), database="scopedb_crash")
        db = Database(server, pool_size=2)
        try:
            db.migrate(embedding_dim=3)
            db.admin().create_project("crash/test")
            scope = ResourceScope(project_names={"crash/test"})
            with db.scoped(scope) as s:
                s.ingest_fragments([Fragment(project="crash/test", id=f"c{i}", content="committed") for i in range(50)])
            open_tx = psycopg.connect(db.app_dsn)
            open_tx.execute("SET ROLE scopedb_app")
            open_tx.execute("SELECT scopedb.enter_scope(%s)", (db.sign(scope),))
            open_tx.execute(
                "INSERT INTO scopedb.fragments (project_id, id, content) "
                "SELECT id, 'u' || g, 'uncommitted' FROM scopedb.projects, generate_series(1, 50) AS g"
            )
            pid = server.handle.get_pid()
            os.kill(pid, signal.SIGQUIT)  # what pg_ctl stop -m immediate sends: no checkpoint, no clean shutdown
            _wait_gone(pid)
            with pytest.raises(psycopg.OperationalError):
                open_tx.execute("COMMIT")
            open_tx.close()
            with pytest.raises(DatabaseUnavailableError), db.scoped(scope) as s:
                s.execute("SELECT 1")
            server.handle.start()  # crash recovery replays the WAL
            db.close()
            db = Database(server, pool_size=2)
            with db.scoped(scope) as s:
                contents = dict(s.execute("SELECT content, count(*) FROM scopedb.fragments GROUP BY 1").rows)
            assert contents == {"committed": 50}
        finally:
            db.close()
            server.stop()


def _wait_gone(pid: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    raise AssertionError("the postmaster did not stop")
