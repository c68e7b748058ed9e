# Generated from scopedb/pools_async.py by .ci/async_to_sync.py.
# Do not edit: edit the source, run `make generate`.
"""The application pool: psycopg_pool's, lending the connection returned last first.

Generated from :mod:`scopedb.pools_async` by ``.ci/async_to_sync.py``: edit that file, not this one.

psycopg_pool lends its idle connections in turn (first returned, first lent again), and hands every returned
connection to a background worker that runs the ``reset`` hook and only then puts it back. For scopedb both cost
per request. What a scoped request spends on the server besides its work is mostly per connection and warm only
where it ran last: the memo of verified tokens (entering a kept scope reads it instead of verifying), the plans
its functions keep, the catalog caches, and the CPU caches of that backend process. Lent in turn, a pool of eight
used by one thread at a time spread each scope over all eight backends, and a connection returned by the worker
arrived after the next request had already taken another one. Side by side on a scratch server, a one-project
vector search through ``db.search_vector`` from a pool of eight took 1.46 ms with psycopg_pool's order and 1.22 ms
with this pool's, and an empty ``db.run`` 0.60 and 0.44 ms.

So this pool lends the most recently returned connection first (what PgBouncer does with its server connections
by default), which keeps the load on as few backends as the concurrency needs and the idle ones at the back, where
the pool's shrinking closes them first; and it puts back inline a connection scopedb's own lifecycle marked clean
(:data:`scopedb.logins.CLEAN`), whose ``reset`` hook is then one set lookup. Any other connection goes through the
worker as before. Only these two private steps of psycopg_pool are changed (unchanged from psycopg_pool 3.2.0 to
3.3); checks, resets, growth and shrinking stay the pool's own, and a test holds the order to it.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.pq import TransactionStatus
from psycopg_pool import ConnectionPool

from scopedb.logins import CLEAN


class RecentFirstPool(ConnectionPool[psycopg.Connection[Any]]):
    """An :class:`~psycopg_pool.ConnectionPool` that lends its idle connections most recently returned first,
    and takes back a clean one without a worker's round (see the module)."""

    def _get_ready_connection(self, timeout: float | None) -> psycopg.Connection[Any] | None:
        # Called under the pool's lock. Returned connections are appended on the right and lent from the left:
        # bring the newest to the left, keeping the order of the rest (the oldest stays first to be shrunk).
        if self._pool:
            self._pool.rotate(1)
        return super()._get_ready_connection(timeout)

    def _putconn(self, conn: psycopg.Connection[Any], from_getconn: bool) -> None:
        if not from_getconn and conn in CLEAN and conn.pgconn.transaction_status == TransactionStatus.IDLE:
            # Its reset is the CLEAN lookup (scopedb.lifecycle.keep_only_if_clean) and nothing else: no reason to
            # wait for a worker to run it.
            self._return_connection(conn, from_getconn=False)
        else:
            super()._putconn(conn, from_getconn)
