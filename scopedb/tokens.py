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


# Agent tokens --------------------------------------------------------------------------------------------------
#
#     a1.<key_id>.<hex HMAC-SHA256 of "a1.<key_id>.<claims>">.<claims>
#
# What an operator hands an agent (the MCP server's bearer token, or its --scope-token): the scope itself, as the
# ResourceScope's own JSON, with an audience (the database), an expiry and the agent's name. It is signed with the
# database's signing key but under its own version prefix, which is part of the signed bytes: an agent token is
# never a scope token the database would accept, nor the reverse. The MCP server verifies it in Python, before any
# tool runs, and then enters its scope as any caller does (a scope token of its own, verified by the database).

AGENT_TOKEN_VERSION = "a1"  # noqa: S105 a format version, not a secret


@dataclass(frozen=True)
class AgentGrant:
    """What a verified agent token grants: a scope, until a time, to a named agent."""

    scope: ResourceScope
    agent: str | None
    expires_at: float
    key_id: str


def sign_agent_token(
    scope: ResourceScope,
    key: SigningKey,
    *,
    audience: str,
    ttl_seconds: int,
    agent: str | None = None,
    now: float | None = None,
) -> str:
    """An agent token for ``scope``, for the database ``audience``, expiring after ``ttl_seconds``."""
    if isinstance(ttl_seconds, bool) or not isinstance(ttl_seconds, int) or ttl_seconds <= 0:
        raise ConfigurationError("an agent token needs a positive lifetime in seconds")
    issued = int(now if now is not None else time.time())
    claims = {
        "aud": audience,
        "iat": issued,
        "exp": issued + ttl_seconds,
        "agent": agent,
        "scope": scope.model_dump(mode="json"),
    }
    body = canonical_json(claims)
    message = f"{AGENT_TOKEN_VERSION}.{key.key_id}.{body}".encode()
    signature = hmac.new(key.secret, message, hashlib.sha256).hexdigest()
    return f"{AGENT_TOKEN_VERSION}.{key.key_id}.{signature}.{body}"


def agent_token_key_id(token: object) -> str:
    """The key id an agent token names (MalformedTokenError when it is not one)."""
    from scopedb.errors import MalformedTokenError

    if not isinstance(token, str) or len(token) > 65_536:
        raise MalformedTokenError("not an agent token")
    parts = token.split(".", 3)
    if len(parts) != 4 or parts[0] != AGENT_TOKEN_VERSION or not _KEY_ID.match(parts[1]):
        raise MalformedTokenError("not an agent token")
    return parts[1]


def verify_agent_token(token: object, key: SigningKey, *, audience: str, now: float | None = None) -> AgentGrant:
    """The grant of an agent token signed with ``key`` for ``audience``, or the typed error saying why not."""
    from scopedb.errors import AudienceMismatchError, ExpiredTokenError, InvalidSignatureError, MalformedTokenError

    key_id = agent_token_key_id(token)
    assert isinstance(token, str)
    _, _, signature, body = token.split(".", 3)
    expected = hmac.new(key.secret, f"{AGENT_TOKEN_VERSION}.{key_id}.{body}".encode(), hashlib.sha256).hexdigest()
    if key_id != key.key_id or not hmac.compare_digest(expected, signature):
        raise InvalidSignatureError("the agent token's signature does not verify")
    try:
        claims = json.loads(body)
        expires, aud, agent = claims["exp"], claims["aud"], claims.get("agent")
        scope = ResourceScope.model_validate(claims["scope"])
    except (ValueError, KeyError, TypeError) as exc:  # pydantic's ValidationError is a ValueError
        raise MalformedTokenError("the agent token's claims are not a scope") from exc
    if aud != audience:
        raise AudienceMismatchError("the agent token is for another database")
    if not isinstance(expires, int) or expires <= (now if now is not None else time.time()):
        raise ExpiredTokenError("the agent token has expired")
    if agent is not None and not isinstance(agent, str):
        raise MalformedTokenError("the agent token's agent is not a name")
    return AgentGrant(scope=scope, agent=agent, expires_at=float(expires), key_id=key_id)
