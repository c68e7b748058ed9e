"""Which logins may run scoped transactions, and which connections are fit to be lent to the next tenant.

Both APIs (:mod:`scopedb.database` and :mod:`scopedb.database_async`) judge logins and mark connections through
this module, so a connection judged or dirtied by one is seen the same way by the other.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Iterable, Sequence
from typing import Any

from scopedb.errors import ConfigurationError, DatabaseUnavailableError, ScopedbError

log = logging.getLogger("scopedb.database")


class PrivilegedLoginError(ConfigurationError):
    """refusing to run scoped transactions as a login that can step outside a scope (superuser, BYPASSRLS,
    REPLICATION, CREATEROLE, a member of scopedb_owner or of a role that reads all data, itself or through a role
    it belongs to): pass app_dsn (or SCOPEDB_APP_DATABASE_URL) for a login that is only in scopedb_app"""

    def __init__(self, message: str | None = None, *, hazards: Sequence[str] = ()) -> None:
        text = message or " ".join((self.__doc__ or "").split())
        super().__init__(f"{text} [{'; '.join(hazards)}]" if hazards else text)
        self.hazards = tuple(hazards)


class DirtyConnectionError(ScopedbError):
    """the connection's last scoped transaction did not end cleanly; it is discarded, not reused"""


class StoredSettingsError(DatabaseUnavailableError):
    """settings were stored for the application login (ALTER ROLE ... SET); scopedb removed them and discarded the
    connection that had started with them"""


def judge_login(row: tuple[Any, ...] | None) -> str:
    """The one place a login is judged (``login_hazards``, ``scopedb.role_hazards`` in SQL): refuse it if it has
    any hazard; otherwise return the database name, the audience of its tokens."""
    assert row is not None
    hazards, database = row
    if hazards:
        raise PrivilegedLoginError(hazards=hazards)
    return str(database)


def stored_setting_names(rows: Iterable[tuple[Any, ...]]) -> str:
    """The names (never the values) of settings stored for a login, for the warning that says they were removed."""
    return ", ".join(sorted({entry.split("=", 1)[0] for (config,) in rows for entry in config or ()}))


#: Connections judged fit to enter a scope (``vet_connection``): each is judged once, on its first entry.
VETTED: weakref.WeakSet[Any] = weakref.WeakSet()

#: Connections that ended their last scoped transaction cleanly (COMMIT or ROLLBACK and the session cleanup both
#: completed, or an entry that failed was rolled back). The pools' reset hook keeps only these: a connection whose
#: end was interrupted — a task cancelled by a timeout while the COMMIT ran, KeyboardInterrupt, a lost connection —
#: may still carry the session state a tenant prepared (a role, settings, locks, LISTENs, held cursors), and is
#: discarded instead of lent to the next tenant.
CLEAN: weakref.WeakSet[Any] = weakref.WeakSet()

#: Connections whose session starts every transaction READ COMMITTED, read-write and not deferrable, as
#: scopedb_app, because its startup packet says so (``lifecycle.app_connection_options``; checked once, when a pool
#: makes the connection: ``pinned_session_defaults``). ``RESET ALL`` and ``RESET ROLE`` return to startup values,
#: and settings stored for the login rank below them, so no tenant can change what such a session's next
#: transaction starts with. A one-round-trip request on one of these needs no BEGIN, no role statement and no
#: COMMIT: its statements run in the implicit transaction that the extended protocol gives everything sent before
#: one Sync (scopedb.requests); a scoped block begins with BEGIN alone.
PINNED_DEFAULTS: weakref.WeakSet[Any] = weakref.WeakSet()
