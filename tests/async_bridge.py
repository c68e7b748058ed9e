"""Run the same test code against the sync and the async API.

:class:`AsyncBridge` keeps an :class:`~scopedb.AsyncDatabase` on an event loop of its own and hands out scoped
sessions that look synchronous: each method call runs the async method to completion. A test written against
``with tenants.scoped(scope) as s: s.execute(...)`` thus checks both ``Database.scoped`` and
``AsyncDatabase.scoped``, down to the same connection handling and error translation.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from scopedb import AsyncDatabase, Database, ResourceScope
from scopedb.server import Server


class SyncFacade:
    """An async object (a scoped session, a tier service, a note store) whose methods block until their coroutine
    is done."""

    def __init__(self, target: Any, runner: asyncio.Runner) -> None:
        self._target = target
        self._runner = runner

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._target, name)
        if not callable(attribute):
            return attribute

        def call(*args: Any, **kwargs: Any) -> Any:
            result = attribute(*args, **kwargs)
            return self._runner.run(result) if inspect.iscoroutine(result) else result

        return call


class AsyncBridge:
    """An AsyncDatabase over the same database and logins as ``db``, driven from synchronous tests."""

    def __init__(self, db: Database) -> None:
        self.runner = asyncio.Runner()
        server = Server(dsn=db.dsn, backend=db.server.backend)
        self.db = AsyncDatabase(server, app_dsn=db.app_dsn, pool_size=2)

    @contextmanager
    def scoped(self, scope: ResourceScope, *, actor: str | None = None) -> Iterator[SyncFacade]:
        manager = self.db.scoped(scope, actor=actor)
        session = self.runner.run(manager.__aenter__())
        try:
            yield SyncFacade(session, self.runner)
        except BaseException as exc:
            if not self.runner.run(manager.__aexit__(type(exc), exc, exc.__traceback__)):
                raise
        else:
            self.runner.run(manager.__aexit__(None, None, None))

    def wrap(self, target: Any) -> Any:
        """``target`` (an async service) with blocking methods, run on this bridge's loop."""
        return SyncFacade(target, self.runner)

    def close(self) -> None:
        self.runner.run(self.db.close())
        self.runner.close()
