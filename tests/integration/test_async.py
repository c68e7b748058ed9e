"""The asyncio API on its own terms: parity with the sync session, concurrency on one event loop, rollback,
typed errors, key rotation. (The isolation tests run against both APIs in test_isolation.py.)"""

from __future__ import annotations

import asyncio
import random

import psycopg
import pytest

from scopedb import AsyncDatabase, Fragment, ResourceScope, ScopeViolationError
from scopedb.errors import ConfigurationError, InvalidArgumentError
from scopedb.ingest import EdgeIn, NodeIn
from scopedb.server import Server
from tests.conftest import Tenants


def _async_db(tenants: Tenants, pool_size: int = 4) -> AsyncDatabase:
    return AsyncDatabase(Server(dsn=tenants.db.dsn, backend=tenants.db.server.backend), app_dsn=tenants.db.app_dsn,
                         pool_size=pool_size)  # fmt: skip


def _unit(i: int) -> list[float]:
    v = [0.0] * 384
    v[i % 384] = 1.0
    v[(i + 1) % 384] = 0.5
    return v


def test_every_operation_matches_the_sync_session(tenants: Tenants) -> None:
    async def work() -> tuple[object, ...]:
        async with _async_db(tenants) as adb:
            async with adb.scoped(tenants.scope("acme/api")) as s:
                written = await s.ingest_fragments(
                    Fragment(project="acme/api", id=f"async{i}", content=f"async parity {i}", embedding=_unit(i))
                    for i in range(20)
                )
                added = await s.add_fragment(Fragment(project="acme/api", content="one more parity row"))
                graph = await s.ingest_graph(
                    [NodeIn("acme/api", "x"), NodeIn("acme/api", "y"), NodeIn("acme/api", "z")],
                    [EdgeIn("acme/api", "x", "y"), EdgeIn("acme/api", "y", "z")],
                )
            async with adb.scoped(tenants.scope("acme/api")) as s:
                return (
                    written,
                    bool(added),
                    graph,
                    s.projects,
                    [(h.fragment.id, h.rank) for h in await s.search_text("parity", limit=5)],
                    [h.fragment.id for h in await s.search_vector(_unit(3), limit=5)],
                    await s.search_graph("x", depth=2),
                    await s.shortest_path("x", "z"),
                    await s.subgraph(["node"]),
                )

    written, added, graph, projects, text, vector, walk, path, sub = asyncio.run(work())
    assert (written, added, graph) == (20, True, (3, 2))
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        assert projects == s.projects == {"acme/api": tenants.a.id}
        assert text == [(h.fragment.id, h.rank) for h in s.search_text("parity", limit=5)]
        assert vector == [h.fragment.id for h in s.search_vector(_unit(3), limit=5)]
        assert vector[0] == "async3"
        assert walk == s.search_graph("x", depth=2)
        assert path == s.shortest_path("x", "z") == ["x", "y", "z"]
        assert sub == s.subgraph(["node"])


def test_concurrent_transactions_on_one_loop_each_see_only_their_scope(tenants: Tenants) -> None:
    scopes = {
        "a": (tenants.scope("acme/api"), {tenants.a.id}),
        "b": (tenants.scope("beta/web"), {tenants.b.id}),
        "ab": (tenants.scope("acme/api", "beta/web"), {tenants.a.id, tenants.b.id}),
    }

    async def one(adb: AsyncDatabase, key: str) -> set[int]:
        scope, _ = scopes[key]
        async with adb.scoped(scope) as s:
            rows = await s.execute("SELECT project_id FROM scopedb.fragments, pg_sleep(0.001)")
            return {r[0] for r in rows}

    async def work() -> list[tuple[str, set[int]]]:
        rng = random.Random(9)
        keys = [rng.choice(list(scopes)) for _ in range(200)]
        async with _async_db(tenants, pool_size=4) as adb:
            seen = await asyncio.gather(*(one(adb, k) for k in keys))
        return list(zip(keys, seen, strict=True))

    for key, seen in asyncio.run(work()):
        assert seen == scopes[key][1], key


def test_an_exception_rolls_back_and_typed_errors_come_through(tenants: Tenants) -> None:
    async def write_then_fail(adb: AsyncDatabase) -> None:
        async with adb.scoped(tenants.scope("acme/api")) as s:
            await s.add_fragment(Fragment(project="acme/api", id="rolled-back", content="gone"))
            raise RuntimeError("boom")

    async def work() -> None:
        async with _async_db(tenants) as adb:
            with pytest.raises(RuntimeError, match="boom"):
                await write_then_fail(adb)
            with pytest.raises(ScopeViolationError):
                async with adb.scoped(tenants.scope("acme/api")) as s:
                    await s.execute(
                        "INSERT INTO scopedb.fragments (project_id, content) VALUES (%s, 'x')", (tenants.b.id,)
                    )
            with pytest.raises(ScopeViolationError):
                async with adb.scoped(tenants.scope("acme/api")) as s:
                    await s.add_fragment(Fragment(project="beta/web", content="x"))
            with pytest.raises(InvalidArgumentError):
                async with adb.scoped(tenants.scope("acme/api")) as s:
                    await s.search_vector([1.0, 2.0])
            async with adb.scoped(tenants.scope("acme/api")) as s:  # the pool still works after every failure
                assert (await s.execute("SELECT count(*) FROM scopedb.fragments")).scalar() == 7

    asyncio.run(work())
    assert tenants.admin_rows("fragments", "id = 'rolled-back'") == []
    assert tenants.count("fragments", tenants.b) == 7


def test_a_rotated_and_retired_key_is_picked_up(tenants: Tenants) -> None:
    async def work() -> int:
        async with _async_db(tenants) as adb:
            async with adb.scoped(tenants.scope("acme/api")) as s:
                await s.execute("SELECT 1")
            admin = tenants.db.admin()
            old = admin.active_signing_key()
            assert old is not None
            admin.rotate_signing_key()
            admin.retire_signing_key(old.key_id)
            async with adb.scoped(tenants.scope("acme/api")) as s:  # one refusal, then the new key
                return int((await s.execute("SELECT count(*) FROM scopedb.fragments")).scalar())

    assert asyncio.run(work()) == 7


def test_no_scope_object_is_refused(tenants: Tenants) -> None:
    async def work() -> None:
        async with _async_db(tenants) as adb, adb.scoped({"project_names": ["beta/web"]}):  # type: ignore[arg-type]
            pass

    with pytest.raises(ConfigurationError, match=ResourceScope.__name__):
        asyncio.run(work())


def test_enter_scope_on_a_connection_the_caller_owns(tenants: Tenants) -> None:
    """For services with their own async pool: scope entry inside their transaction, retried past a retired key."""

    async def work() -> tuple[set[int], set[int]]:
        async with _async_db(tenants) as adb:
            conn = await psycopg.AsyncConnection.connect(adb.app_dsn)
            owners = "SELECT DISTINCT project_id FROM scopedb.fragments"
            try:
                await adb.enter_scope(conn, tenants.scope("beta/web"))
                first = {r[0] for r in await (await conn.execute(owners)).fetchall()}
                await conn.rollback()
                admin = tenants.db.admin()
                old = admin.active_signing_key()
                assert old is not None
                admin.rotate_signing_key()
                admin.retire_signing_key(old.key_id)
                await adb.enter_scope(conn, tenants.scope("acme/api"))
                second = {r[0] for r in await (await conn.execute(owners)).fetchall()}
                await conn.rollback()
                await conn.set_autocommit(True)
                with pytest.raises(ConfigurationError, match="autocommit"):
                    await adb.enter_scope(conn, tenants.scope("acme/api"))
            finally:
                await conn.close()
            return first, second

    first, second = asyncio.run(work())
    assert first == {tenants.b.id}
    assert second == {tenants.a.id}
