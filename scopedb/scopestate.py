"""What every scoped transaction of one database shares, whichever API runs it.

A :class:`~scopedb.Database` and an :class:`~scopedb.AsyncDatabase` each hold one :class:`ScopeState` (an async
database's :attr:`~scopedb.AsyncDatabase.sync` twin holds the same one): the signing key, fixed or read from the
database, the audience tokens are signed for, and the resolved tokens kept for reentry (:mod:`scopedb.resolved`).
Its methods never block on I/O, so the event loop may call them.
"""

from __future__ import annotations

import threading
from typing import Literal

from scopedb.errors import ConfigurationError
from scopedb.resolved import ResolvedScopes
from scopedb.scope import ResourceScope
from scopedb.tokens import SigningKey, sign_scope

ScopeEntry = Literal["function", "set_local"]


class ScopeState:
    """The signing key, the audience and the kept resolved tokens of one database."""

    def __init__(
        self,
        *,
        signing_key: SigningKey | None = None,
        token_ttl_seconds: int = 300,
        scope_entry: ScopeEntry = "function",
    ) -> None:
        if scope_entry not in ("function", "set_local"):
            raise ConfigurationError("scope_entry must be 'function' or 'set_local'")
        if token_ttl_seconds <= 0:
            raise ConfigurationError("token_ttl_seconds must be positive")
        self._lock = threading.Lock()
        self._key = signing_key
        #: A key given by the operator is never re-read from the database (a rotation cannot replace it).
        self.fixed_key = signing_key is not None
        self.token_ttl = token_ttl_seconds
        self.scope_entry: ScopeEntry = scope_entry
        #: The database name, learned when the application login is checked; tokens are valid for it only.
        self.audience: str | None = None
        #: The width of fragments.embedding, learned at the same time (fixed by the first migration).
        self.embedding_dim: int | None = None
        # A kept token is reused only while at least half its lifetime is left, so a transaction entered from one
        # has as long before its scope expires as the token lifetime's half (see scopedb.resolved).
        self.resolved = ResolvedScopes(margin_seconds=token_ttl_seconds / 2)
        #: When agent tokens last had the key read again (monotonic seconds; see agent_key_due).
        self._agent_key_read = float("-inf")

    #: How often agent-token verification reads the active key again: bounds both how long a retired key keeps
    #: verifying agent tokens and how often unauthenticated requests can make scopedb open an admin connection.
    AGENT_KEY_RECHECK_SECONDS = 30.0

    def agent_key_due(self, now: float) -> bool:
        """Whether agent-token verification should read the active key again now (at most every 30 s)."""
        with self._lock:
            if self.fixed_key or now - self._agent_key_read < self.AGENT_KEY_RECHECK_SECONDS:
                return False
            self._agent_key_read = now
            return True

    @property
    def key(self) -> SigningKey | None:
        """The signing key, if known."""
        with self._lock:
            return self._key

    def use_key(self, key: SigningKey) -> None:
        """Remember the key read from the database."""
        with self._lock:
            self._key = key

    def forget_key(self) -> bool:
        """After a token failed to verify: drop a key read from the database so the active one is read again.
        Returns False for a fixed key (retrying cannot help)."""
        if self.fixed_key:
            return False
        with self._lock:
            self._key = None
        return True

    def sign(self, scope: ResourceScope, key: SigningKey, *, actor: str | None, ttl_seconds: int | None) -> str:
        """A token for ``scope`` signed with ``key`` for this database's audience."""
        if self.audience is None:
            raise ConfigurationError("the audience is not known before the application login is checked")
        return sign_scope(scope, key, audience=self.audience, ttl_seconds=ttl_seconds or self.token_ttl, actor=actor)
