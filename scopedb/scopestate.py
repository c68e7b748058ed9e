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
from scopedb.resolved import Resolved, ResolvedScopes
from scopedb.scope import ResourceScope
from scopedb.tokens import SigningKey, scope_claims, sign_claims, sign_scope

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

    def kept_or_signed(self, key: str, scope: ResourceScope, actor: str | None) -> Resolved | None:
        """The resolved token kept for ``key`` (see :mod:`scopedb.resolved`); else, when an earlier entry's answer
        gave every project of ``scope`` its id and the signing key is known, a resolved token signed here, kept
        under ``key`` like one the database resolved; else None (the database resolves the scope).

        The claims are the ones ``scopedb_private.resolve_token`` would sign: the scope's own, its project ids
        (one per name, so a name whose id has since gone to another name makes the set disagree), and its
        resource filter, which for a scope that names its resources is those not denied. A scope that denies
        resources without naming them has its filter listed by the database (and no ``key``). The entry
        (``scopedb.reenter_scope``) admits the ids only if the database gives them exactly these names."""
        kept = self.resolved.get(key)
        signing_key = self.key
        if kept is not None or signing_key is None or self.audience is None:
            return kept
        ids = self.resolved.ids_of(scope.project_names)
        if ids is None:
            return None
        claims = scope_claims(scope, audience=self.audience, ttl_seconds=self.token_ttl, actor=actor)
        resources, denied = claims["resources"], claims["denied"]
        if resources is None and denied:
            return None
        claims["project_ids"] = sorted(ids.values())
        claims["resource_filter"] = None if resources is None else sorted(set(resources).difference(denied))
        self.resolved.put(key, sign_claims(claims, signing_key), claims["project_ids"], ids)
        return self.resolved.get(key)

    def sign(self, scope: ResourceScope, key: SigningKey, *, actor: str | None, ttl_seconds: int | None) -> str:
        """A token for ``scope`` signed with ``key`` for this database's audience."""
        if self.audience is None:
            raise ConfigurationError("the audience is not known before the application login is checked")
        return sign_scope(scope, key, audience=self.audience, ttl_seconds=ttl_seconds or self.token_ttl, actor=actor)
