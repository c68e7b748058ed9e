"""Resolved scope tokens, kept for reuse while they are valid.

Entering a scope has two parts of different cost. *Resolving* it (``scopedb.resolve_scope``: verify the caller's
token, look the project names up, sign the result with the database's key) is most of the entry. *Setting* a
resolved token is one ``set_config`` — and every policy verifies the token it finds there on every statement,
whoever put it there. So a resolved token can be reused for the same scope until shortly before it expires,
without trusting anything the database does not check again: reuse changes the cost of entry, not what a
transaction can see. A token that no longer verifies (its key retired) is noticed at entry and resolved afresh.

A kept token is reused only while more than a margin of its life is left (half the token lifetime, by
default): the policies check expiry on every statement, so the margin is the shortest time a transaction entered
from a kept token has before its scope lapses — a transaction that outlives it sees no rows and may write none.

Scopes that deny resources without naming the allowed ones are not kept: their resolution lists every other
resource of the projects, and a resource created afterwards must not stay hidden until the token expires.

The ids each entry's answer gave the project names are kept too (:meth:`ResolvedScopes.ids_of`): a new scope over
projects already seen is then resolved where it is signed, without asking the database to resolve it
(:meth:`scopedb.scopestate.ScopeState.kept_or_signed`). Such a token is entered as a kept one is, through
``scopedb.reenter_scope``, which admits its ids only if the database still gives them exactly those names: a
renamed or deleted project makes the entry find no ids, the names are forgotten here, and the scope is resolved by
the database as before.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field

from scopedb.scope import ResourceScope


@dataclass(frozen=True)
class Resolved:
    """A resolved token, the project ids it carries, and when it stops verifying (epoch seconds)."""

    token: str = field(repr=False)  # a credential for its lifetime: never in logs or tracebacks
    project_ids: tuple[int, ...]
    expires_at: float
    #: The scope's project names, read with the ids (so a request on a kept token needs no lookup).
    project_names: dict[str, int] | None = field(default=None, compare=False)


class ResolvedScopes:
    """A bounded, thread-safe map from (scope, actor) to its resolved token."""

    def __init__(self, capacity: int = 1024, margin_seconds: float = 30.0) -> None:
        self._capacity = capacity
        self._margin = margin_seconds
        self._entries: OrderedDict[str, Resolved] = OrderedDict()
        #: Project name to id, as the database answered entries (bounded like the tokens).
        self._ids: OrderedDict[str, int] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    @staticmethod
    def key(scope: ResourceScope, actor: str | None) -> str | None:
        """The cache key of ``scope`` for ``actor``, or None when its resolution must not be reused."""
        enumerates_resources = bool(scope.denied_resource_ids) and not (scope.resource_ids or scope.resources_narrowed)
        if enumerates_resources:
            return None
        return scope.model_dump_json() + "\x1f" + (actor or "")

    def get(self, key: str) -> Resolved | None:
        """The resolved token for ``key`` if it has more than the margin left to live."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            if entry.expires_at - time.time() <= self._margin:
                del self._entries[key]
                return None
            self._entries.move_to_end(key)
            return entry

    def put(self, key: str, token: str, project_ids: list[int], project_names: dict[str, int] | None = None) -> None:
        """Keep ``token`` (as the database resolved it) for ``key``; tokens that cannot be read are not kept."""
        expires_at = token_expiry(token)
        if expires_at is None:
            return
        with self._lock:
            self._entries[key] = Resolved(token, tuple(project_ids), expires_at, project_names)
            self._entries.move_to_end(key)
            while len(self._entries) > self._capacity:
                self._entries.popitem(last=False)
            for name, pid in (project_names or {}).items():
                self._ids[name] = pid
                self._ids.move_to_end(name)
            while len(self._ids) > self._capacity:
                self._ids.popitem(last=False)

    def ids_of(self, names: Iterable[str]) -> dict[str, int] | None:
        """The id an earlier entry's answer gave each of ``names``; None unless every one has one."""
        wanted = set(names)
        with self._lock:
            found = {name: self._ids[name] for name in wanted if name in self._ids}
        return found if wanted and len(found) == len(wanted) else None

    def discard(self, key: str, *, names: Iterable[str] = ()) -> None:
        """Stop reusing the token kept for ``key``, and forget the ids of ``names`` (a token that no longer
        verifies may carry ids the database no longer gives those names)."""
        with self._lock:
            self._entries.pop(key, None)
            for name in names:
                self._ids.pop(name, None)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._ids.clear()


def token_expiry(token: str) -> float | None:
    """The ``exp`` claim of a token (``v1.<key id>.<64 hex>.<claims>``), or None when it cannot be read."""
    parts = token.split(".", 3)
    if len(parts) != 4 or parts[0] != "v1":
        return None
    try:
        exp = json.loads(parts[3]).get("exp")
    except (ValueError, AttributeError):
        return None
    return float(exp) if isinstance(exp, int | float) else None
