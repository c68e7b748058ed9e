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
