"""Scope tokens: canonical, signed, and never leaking the key."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest

from scopedb import ResourceScope, SigningKey
from scopedb.errors import ConfigurationError
from scopedb.tokens import canonical_json, scope_claims, sign_scope

KEY = SigningKey("k1", bytes(range(32)))


def test_token_layout_and_signature() -> None:
    scope = ResourceScope(project_names={"b", "a"}, resource_ids={"R2", "R1"})
    token = sign_scope(scope, KEY, audience="db", ttl_seconds=60, actor="svc", now=1000)
    version, key_id, signature, body = token.split(".", 3)
    assert (version, key_id) == ("v1", "k1")
    expected = hmac.new(KEY.secret, f"v1.k1.{body}".encode(), hashlib.sha256).hexdigest()
    assert hmac.compare_digest(signature, expected)
    claims = json.loads(body)
    assert claims == {
        "v": 1,
        "aud": "db",
        "iat": 1000,
        "exp": 1060,
        "act": "svc",
        "projects": ["a", "b"],
        "resources": ["R1", "R2"],
        "denied": [],
        "path_include": [],
        "path_exclude": [],
        "name_include": [],
        "name_exclude": [],
        "time": "current",
    }
    assert body == canonical_json(claims)


def test_no_narrowing_is_null_not_an_empty_list() -> None:
    claims = scope_claims(ResourceScope(project_names={"a"}), audience="db", ttl_seconds=60)
    assert claims["resources"] is None
    narrowed = ResourceScope(project_names={"a"}, resources_narrowed=True)
    assert scope_claims(narrowed, audience="db", ttl_seconds=60)["resources"] == []


def test_patterns_and_time_travel_compiled() -> None:
    scope = ResourceScope(
        project_names={"a"},
        include_paths={"src/**/*.py"},
        exclude_names={"acme::internal::**"},
        temporal_scope="2026-01-01T00:00:00+00:00",
    )
    claims = scope_claims(scope, audience="db", ttl_seconds=60)
    assert claims["path_include"] == [r"src/(?:[^/]+/)*[^/]*\.py"]
    assert claims["name_exclude"] == [r"acme::internal::[^:]+(?:::[^:]+)*"]
    assert claims["time"] == "2026-01-01T00:00:00+00:00"


def test_claims_are_ascii_whatever_the_names() -> None:
    token = sign_scope(ResourceScope(project_names={"équipe/ü", "名前"}), KEY, audience="db")
    assert token.isascii()


def test_the_secret_never_shows_in_repr_or_str() -> None:
    secret = bytes.fromhex("ab" * 32)
    key = SigningKey("k", secret)
    for text in (repr(key), str(key)):
        assert "ab" * 8 not in text
        assert "secret" not in text or "ab" not in text


@pytest.mark.parametrize(
    ("key_id", "secret"),
    [("", b"x" * 32), ("bad id", b"x" * 32), ("k" * 65, b"x" * 32), ("k", b"short"), ("k", b"x" * 65)],
)
def test_malformed_keys_are_refused(key_id: str, secret: bytes) -> None:
    with pytest.raises(ConfigurationError):
        SigningKey(key_id, secret)


def test_key_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOPEDB_SIGNING_KEY", "prod-1:" + "0f" * 32)
    key = SigningKey.from_env()
    assert key == SigningKey("prod-1", bytes.fromhex("0f" * 32))
    monkeypatch.setenv("SCOPEDB_SIGNING_KEY", "no-separator")
    with pytest.raises(ConfigurationError):
        SigningKey.from_env()
    monkeypatch.setenv("SCOPEDB_SIGNING_KEY", "k:not-hex")
    with pytest.raises(ConfigurationError) as err:
        SigningKey.from_env()
    assert "not-hex" not in str(err.value)


def test_non_positive_lifetime_is_refused() -> None:
    with pytest.raises(ConfigurationError):
        sign_scope(ResourceScope(project_names={"a"}), KEY, audience="db", ttl_seconds=0)


# Agent tokens (issue 21): the scope an operator hands an agent ---------------------------------------------------

AGENT_SCOPE = ResourceScope(project_names={"acme/api"}, include_paths={"src/**"}, temporal_scope="all")


def test_an_agent_token_carries_its_scope_and_verifies() -> None:
    from scopedb.tokens import sign_agent_token, verify_agent_token

    token = sign_agent_token(AGENT_SCOPE, KEY, audience="db", ttl_seconds=60, agent="bot", now=1000)
    assert token.startswith("a1.k1.")
    grant = verify_agent_token(token, KEY, audience="db", now=1030)
    assert (grant.scope, grant.agent, grant.expires_at, grant.key_id) == (AGENT_SCOPE, "bot", 1060.0, "k1")


@pytest.mark.parametrize(
    ("case", "error"),
    [
        ("tampered", "InvalidSignatureError"),
        ("other key", "InvalidSignatureError"),
        ("expired", "ExpiredTokenError"),
        ("other database", "AudienceMismatchError"),
        ("scope token", "MalformedTokenError"),
        ("not a scope", "MalformedTokenError"),
        ("not text", "MalformedTokenError"),
    ],
)
def test_an_agent_token_that_does_not_hold_is_refused_typed(case: str, error: str) -> None:
    from scopedb.tokens import canonical_json, sign_agent_token, verify_agent_token

    token: object = sign_agent_token(AGENT_SCOPE, KEY, audience="db", ttl_seconds=60, now=1000)
    assert isinstance(token, str)
    version, key_id, signature, body = token.split(".", 3)
    claims = json.loads(body)
    key, audience, now = KEY, "db", 1030.0
    if case == "tampered":
        claims["scope"]["project_names"] = ["acme/api", "beta/web"]
        token = ".".join([version, key_id, signature, canonical_json(claims)])
    elif case == "other key":
        key = SigningKey("k1", bytes(range(1, 33)))
    elif case == "expired":
        now = 1060.0
    elif case == "other database":
        audience = "elsewhere"
    elif case == "scope token":  # a genuine scope token is not an agent token (its version is signed too)
        token = sign_scope(AGENT_SCOPE, KEY, audience="db", ttl_seconds=60, now=1000)
    elif case == "not a scope":
        claims["scope"] = {"project_names": []}
        body = canonical_json(claims)
        signature = hmac.new(KEY.secret, f"a1.k1.{body}".encode(), hashlib.sha256).hexdigest()
        token = ".".join([version, key_id, signature, body])
    else:
        token = 42
    with pytest.raises(Exception) as refused:  # noqa: PT011 - the type is checked by name below
        verify_agent_token(token, key, audience=audience, now=now)
    assert type(refused.value).__name__ == error
