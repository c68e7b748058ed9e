"""The asyncio API: :class:`AsyncDatabase` and ``async with db.scoped(scope) as s``.

The async modules are the source of scopedb's transaction code (``scopedb/*_async.py``); the sync API is generated
from them (``.ci/async_to_sync.py``), so both enter scopes, run operations and clean connections with the same
code. This module gathers the async names in one place.
"""

from scopedb.database_async import AsyncDatabase
from scopedb.errors import ScopedbError
from scopedb.session_async import AsyncScopedSession

__all__ = ["AsyncDatabase", "AsyncScopedSession", "ScopedbError"]
