"""Scope tokens: a scope as canonical JSON, signed with HMAC-SHA256.

Format (the database parses exactly this, see ``sql/03_functions.sql``)::

    v1.<key_id>.<hex HMAC-SHA256 of "v1.<key_id>.<claims>">.<claims>

The claims are JSON with sorted keys, no whitespace and ASCII only, so the signed bytes are the same whichever
Python or Postgres produces them. The database verifies the token, resolves it, and every policy re-verifies it on
every statement: the token is what makes a transaction-local setting safe to trust.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import time
from dataclasses import dataclass, field
from typing import Any

from scopedb.errors import ConfigurationError
from scopedb.patterns import Dialect, compile_body
from scopedb.scope import ResourceScope

TOKEN_VERSION = "v1"  # noqa: S105 a format version, not a secret
_KEY_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


@dataclass(frozen=True)
class SigningKey:
    """A signing key. ``repr`` and ``str`` never show the secret."""

    key_id: str
    secret: bytes = field(repr=False)

    def __post_init__(self) -> None:
        if not _KEY_ID.match(self.key_id):
            raise ConfigurationError("signing key id must be 1-64 characters of [A-Za-z0-9_-]")
        if not 32 <= len(self.secret) <= 64:
            raise ConfigurationError("signing key secret must be 32 to 64 bytes")

    @classmethod
    def from_env(cls, variable: str = "SCOPEDB_SIGNING_KEY") -> SigningKey | None:
        """Read ``<key_id>:<hex secret>`` from the environment, for services that hold no admin connection."""
        raw = os.environ.get(variable)
        if not raw:
            return None
        key_id, sep, secret_hex = raw.partition(":")
        if not sep:
            raise ConfigurationError(f"{variable} must look like <key_id>:<hex secret>")
        try:
            secret = bytes.fromhex(secret_hex)
        except ValueError:
            raise ConfigurationError(f"{variable}: the secret is not hexadecimal") from None
        return cls(key_id, secret)


def canonical_json(value: Any) -> str:
    """The exact text that gets signed."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def scope_claims(
    scope: ResourceScope,
    *,
    audience: str,
    ttl_seconds: int,
    actor: str | None = None,
    now: float | None = None,
) -> dict[str, Any]:
    """The claims of a scope, as the database reads them (``scopedb_private.scope_claims``)."""
    issued = int(now if now is not None else time.time())
    temporal = scope.temporal_scope
    return {
        "v": 1,
        "aud": audience,
        "iat": issued,
        "exp": issued + ttl_seconds,
        "act": actor,
        "projects": sorted(scope.project_names),
        # null: no narrowing (every resource of the projects); a list narrows, even when it is empty.
        "resources": sorted(scope.resource_ids) if scope.narrows_resources else None,
        "denied": sorted(scope.denied_resource_ids),
        # Patterns travel compiled (regular-expression bodies): the database applies exactly what Python decided.
        "path_include": _bodies(scope.include_paths, Dialect.PATHS),
        "path_exclude": _bodies(scope.exclude_paths, Dialect.PATHS),
        "name_include": _bodies(scope.include_names, Dialect.NAMES),
        "name_exclude": _bodies(scope.exclude_names, Dialect.NAMES),
        "time": temporal if isinstance(temporal, str) else temporal.isoformat(),
    }


def _bodies(patterns: frozenset[str], dialect: Dialect) -> list[str]:
    return sorted({compile_body(p, dialect) for p in patterns})


def sign_claims(claims: dict[str, Any], key: SigningKey) -> str:
    """Serialise and sign claims."""
    body = canonical_json(claims)
    message = f"{TOKEN_VERSION}.{key.key_id}.{body}".encode()
    signature = hmac.new(key.secret, message, hashlib.sha256).hexdigest()
    return f"{TOKEN_VERSION}.{key.key_id}.{signature}.{body}"


def sign_scope(
    scope: ResourceScope,
    key: SigningKey,
    *,
    audience: str,
    ttl_seconds: int = 300,
    actor: str | None = None,
    now: float | None = None,
) -> str:
    """Sign ``scope`` for the database named ``audience``; the token expires after ``ttl_seconds``."""
    if ttl_seconds <= 0:
        raise ConfigurationError("a scope token needs a positive lifetime")
    return sign_claims(scope_claims(scope, audience=audience, ttl_seconds=ttl_seconds, actor=actor, now=now), key)
