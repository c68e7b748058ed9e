"""Tier and note services folded into the caller's transaction, in both APIs, and an async API that never blocks
its event loop."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from scopedb import AsyncDatabase, Database, ResourceScope
from scopedb.errors import InvalidArgumentError
from scopedb.notes import AsyncNoteStore, NoteStore
from scopedb.server import Server
from scopedb.tiers import ContextTierService
from scopedb.tiers_async import AsyncContextTierService
from scopedb.tokens import SigningKey
from tests.async_bridge import AsyncBridge
from tests.conftest import Tenants

A = "acme/api"
B = "beta/web"


class Rollback(Exception):
    pass


@pytest.fixture(params=["sync", "async"])
def api(request: pytest.FixtureRequest, tenants: Tenants) -> Iterator[tuple[Any, Any, Any]]:
    """(open a scoped transaction, tier service on a session, note store on a session) for one API."""
    if request.param == "sync":
        yield tenants.db.scoped, ContextTierService, NoteStore
        return
    bridge = AsyncBridge(tenants.db)

    def tiers(session: Any, **kwargs: Any) -> Any:
        return bridge.wrap(AsyncContextTierService(session._target, **kwargs))

    def notes(session: Any, project: str, **kwargs: Any) -> Any:
        return bridge.wrap(AsyncNoteStore(session._target, project, **kwargs))

    try:
        yield bridge.scoped, tiers, notes
    finally:
        bridge.close()


def _tier_ids(tenants: Tenants) -> set[str]:
    return {f.id for f in ContextTierService(tenants.db).get_scoped_view([A])}


def test_a_tier_store_commits_and_rolls_back_with_the_callers_transaction(
    api: tuple[Any, Any, Any], tenants: Tenants
) -> None:
    scoped, tiers, _ = api
    with scoped(tenants.scope(A)) as s:
        tiers(s).store("kept", project=A, content="stays")
        s.execute("SELECT 1")

    def store_then_fail() -> None:
        with scoped(tenants.scope(A)) as s:
            tiers(s).store("dropped", project=A, content="goes")
            assert "dropped" in {f.id for f in tiers(s).get_scoped_view([A])}  # visible inside the transaction
            raise Rollback

    with pytest.raises(Rollback):
        store_then_fail()
    assert {"kept"} <= _tier_ids(tenants)
    assert "dropped" not in _tier_ids(tenants)


def test_a_session_bound_tier_service_never_answers_from_a_scope_it_was_not_asked_for(
    api: tuple[Any, Any, Any], tenants: Tenants
) -> None:
    scoped, tiers, _ = api
    with scoped(tenants.scope(A, B)) as s:
        service = tiers(s)
        service.store("a1", project=A, content="a")
        service.store("b1", project=B, content="b")
        seen = {(f.project_name, f.id) for f in service.get_scoped_view([A])}
        assert (A, "a1") in seen
        assert {project for project, _ in seen} == {A}  # the asked project only, not the session's
        with pytest.raises(InvalidArgumentError):
            service.get_scoped_by_resource(ResourceScope(project_names={A}, include_paths={"docs/**"}))
    with scoped(tenants.scope(A)) as s, pytest.raises(InvalidArgumentError):
        tiers(s).get_scoped_view([A, B])  # B is outside the session: refused, not widened


def test_a_note_store_joins_the_callers_transaction_only_for_exactly_its_project(
    api: tuple[Any, Any, Any], tenants: Tenants
) -> None:
    scoped, _, notes = api

    def store_then_fail() -> None:
        with scoped(tenants.scope(A)) as s:
            notes(s, A).store("rolled back with the caller")
            raise Rollback

    with pytest.raises(Rollback):
        store_then_fail()
    with scoped(tenants.scope(A)) as s:
        kept = notes(s, A).store("committed with the caller")
    assert [d.id for d in NoteStore(tenants.db, A).search("caller")] == [kept]
    with scoped(tenants.scope(A, B)) as s, pytest.raises(InvalidArgumentError):
        notes(s, A).search("caller")  # a wider session would read B's notes through RLS alone


def _loop_blocking_connects(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every blocking psycopg connect made on a thread that runs an event loop."""
    made: list[str] = []
    real = psycopg.Connection.connect.__func__  # type: ignore[attr-defined]

    def connect(cls: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            asyncio.get_running_loop()
            made.append(threading.current_thread().name)
        except RuntimeError:
            pass
        return real(cls, *args, **kwargs)

    monkeypatch.setattr(psycopg.Connection, "connect", classmethod(connect))
    return made


@pytest.mark.parametrize("fixed_key", [False, True])
def test_the_async_api_signs_and_enters_without_blocking_its_loop(
    scopedb_db: Database, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, fixed_key: bool
) -> None:
    """The first sign and entry of an AsyncDatabase check the login and read the key on async connections; no sync
    connection is opened on the loop's thread (and none is kept), and no callback holds the loop for long."""
    scopedb_db.admin().create_project(A)
    key = scopedb_db.admin().active_signing_key() if fixed_key else None
    assert not fixed_key or isinstance(key, SigningKey)
    made = _loop_blocking_connects(monkeypatch)

    async def main() -> list[str]:
        loop = asyncio.get_running_loop()
        loop.slow_callback_duration = 0.25
        adb = AsyncDatabase(Server(dsn=scopedb_db.dsn, backend=scopedb_db.server.backend),
                            app_dsn=scopedb_db.app_dsn, signing_key=key)  # fmt: skip
        try:
            await adb.sign(ResourceScope(project_names={A}))
            async with adb.scoped(ResourceScope(project_names={A})) as s:
                ids = [row[0] for row in await s.execute("SELECT name FROM scopedb.projects")]
            assert adb._admin_pool is None  # signing kept no sync connection
            return ids
        finally:
            await adb.close()

    with caplog.at_level("WARNING", logger="asyncio"):
        assert asyncio.run(main(), debug=True) == [A]
    assert made == []
    assert not [r for r in caplog.records if "Executing" in r.getMessage()]
