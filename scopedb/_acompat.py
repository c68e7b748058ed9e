"""The asyncio side of the primitives the generated sync modules take from :mod:`scopedb._compat`.

The async modules (``*_async.py``) are the source; ``.ci/async_to_sync.py`` writes their sync twins, renaming
``_acompat`` to ``_compat``. Whatever differs between the two worlds beyond ``async``/``await`` lives in this pair
of modules, under the same names.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

#: Serialises a session's statements and a database's lazy set-up (an asyncio lock: never blocks the loop).
Lock = asyncio.Lock


async def to_thread(fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """Run blocking work (a migration, the admin pool) in a worker thread, off the event loop."""
    return await asyncio.to_thread(fn, *args, **kwargs)
