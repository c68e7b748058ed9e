"""The worked example service (examples/ticket_service), driven through HTTP as its clients would drive it.

Two tenants hold bearer tokens issued by the service; the service's own ``support.tickets`` is protected with
``protect_table`` and its ``GET /tickets`` runs ``SELECT * FROM support.tickets`` with no WHERE. Tenant A's token
must never see or change B's tickets or fragments; a token that does not verify gets 401. The last test drops each
policy of the table in turn and shows the checks here, with the audit, notice every one.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Iterator
from typing import Any

import httpx
import jwt
import psycopg
import pytest
from fastapi import FastAPI

from examples.ticket_service.app import create_app
from examples.ticket_service.auth import ALGORITHM, AUDIENCE, issue_token
from examples.ticket_service.schema import migrate
from scopedb.embedders import HashingEmbedder
from tests.conftest import Tenants

SECRET = "example-secret-for-tests-only-0123456789"


def _bearer(tenant: str, **kwargs: dt.timedelta) -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_token(SECRET, subject='t', tenant=tenant, **kwargs)}"}


A, B = _bearer("acme/api"), _bearer("beta/web")


class Client:
    """httpx driving the app over ASGI in this process (no socket), with a blocking face for the tests."""

    def __init__(self, app: FastAPI) -> None:
        self._loop = asyncio.new_event_loop()
        self._http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://tickets.test")

    def request(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        return self._loop.run_until_complete(self._http.request(method, url, **kwargs))

    def get(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("POST", url, **kwargs)

    def patch(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("PATCH", url, **kwargs)

    def close(self) -> None:
        self._loop.run_until_complete(self._http.aclose())
        self._loop.close()


@pytest.fixture
def client(tenants: Tenants) -> Iterator[Client]:
    migrate(tenants.db)
    client = Client(create_app(tenants.db, secret=SECRET, embedder=HashingEmbedder(384)))
    try:
        for headers, name in ((A, "acme"), (B, "beta")):
            for n in range(2):
                opened = client.post("/tickets", json={"title": f"{name} ticket {n}"}, headers=headers)
                assert opened.status_code == 201, opened.text
        yield client
    finally:
        client.close()


def _problems(client: Client) -> list[str]:
    """Everything tenant A can do here that it should not, and anything it cannot do that it should."""
    problems = []
    mine = client.get("/tickets", headers=A).json()
    theirs = client.get("/tickets", headers=B).json()
    if sorted(t["title"] for t in mine) != ["acme ticket 0", "acme ticket 1"]:
        problems.append(f"A's unfiltered list is {[t['title'] for t in mine]}")
    if sorted(t["title"] for t in theirs) != ["beta ticket 0", "beta ticket 1"]:
        problems.append(f"B's unfiltered list is {[t['title'] for t in theirs]}")
    for ticket in theirs:
        closed = client.patch(f"/tickets/{ticket['id']}", json={"status": "closed"}, headers=A)
        if closed.status_code != 404:
            problems.append(f"A changing B's ticket got {closed.status_code}")
    for ticket in mine:
        own = client.patch(f"/tickets/{ticket['id']}", json={"status": "closed"}, headers=A)
        if own.status_code != 200:
            problems.append(f"A closing its own ticket got {own.status_code}")
    if any(t["status"] != "open" for t in client.get("/tickets", headers=B).json()):
        problems.append("B's tickets were changed")
    return problems


def test_a_tenant_sees_and_changes_only_its_own_tickets(client: Client) -> None:
    assert _problems(client) == []


def test_search_over_the_tenant_s_fragments_stays_in_the_tenant(client: Client) -> None:
    text = client.get("/search/text", params={"q": "auth flow"}, headers=A).json()
    assert text
    assert all(hit["content"].startswith("acme/api") for hit in text)
    assert client.get("/search/text", params={"q": "beta secret"}, headers=A).json() == []
    similar = client.get("/search/similar", params={"q": "auth flow", "limit": 50}, headers=A).json()
    assert len(similar) == 6  # every fragment of A that has an embedding, none of B's
    assert all(hit["content"].startswith("acme") for hit in similar)


def _tampered(headers: dict[str, str]) -> dict[str, str]:
    token = headers["Authorization"].removeprefix("Bearer ")
    header, payload, signature = token.split(".")
    forged_payload = jwt.utils.base64url_encode(
        jwt.utils.base64url_decode(payload).replace(b"acme/api", b"beta/web")
    ).decode()
    return {"Authorization": f"Bearer {header}.{forged_payload}.{signature}"}


BAD_TOKENS = {
    "missing": {},
    "not bearer": {"Authorization": "Basic YTpi"},
    "tampered": _tampered(A),
    "expired": _bearer("acme/api", ttl=dt.timedelta(seconds=-1)),
    "signed by someone else": {
        "Authorization": "Bearer "
        + jwt.encode(
            {"sub": "x", "tenant": "beta/web", "aud": AUDIENCE, "exp": dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)},
            "another-secret-of-sufficient-length-0123",
            algorithm=ALGORITHM,
        )
    },
    "another audience": {
        "Authorization": "Bearer "
        + jwt.encode(
            {"sub": "x", "tenant": "beta/web", "aud": "other", "exp": dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)},
            SECRET,
            algorithm=ALGORITHM,
        )
    },
    "unsigned (alg none)": {
        "Authorization": "Bearer "
        + jwt.encode({"sub": "x", "tenant": "beta/web", "aud": AUDIENCE}, None, algorithm="none")  # type: ignore[arg-type]
    },
}


@pytest.mark.parametrize("case", list(BAD_TOKENS), ids=list(BAD_TOKENS))
def test_a_token_that_does_not_verify_gets_401_and_nothing_else(client: Client, case: str) -> None:
    headers = BAD_TOKENS[case]
    for method, path, body in (
        ("GET", "/tickets", None),
        ("POST", "/tickets", {"title": "sneaky"}),
        ("GET", "/search/text?q=beta", None),
    ):
        response = client.request(method, path, json=body, headers=headers)
        assert response.status_code == 401, (case, path, response.text)
        assert response.headers["www-authenticate"] == "Bearer"
    assert all(t["title"] != "sneaky" for t in client.get("/tickets", headers=B).json())


def test_the_table_is_protected_in_the_audit(client: Client, tenants: Tenants) -> None:
    admin = tenants.db.admin()
    assert [t.relation for t in admin.protected_tables()] == ["support.tickets"]
    assert [f for f in admin.audit() if f.severity == "error"] == []


POLICIES = [
    "app sees nothing until a scope is entered",
    "scope limits which tickets the app reads",
    "scope limits which tickets the app creates",
    "scope limits which tickets the app changes",
    "scope limits which tickets the app deletes",
]


#: Dropping these changes what tenants observe through the API. The other three only the audit sees: the service
#: never names a project on insert, the app holds no DELETE, and an UPDATE still reads through the read policy.
OBSERVABLE = POLICIES[:2]


@pytest.mark.parametrize("policy", POLICIES)
def test_dropping_any_policy_is_noticed(client: Client, tenants: Tenants, policy: str) -> None:
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        conn.execute(f'DROP POLICY "{policy}" ON support.tickets'.encode())
    if policy in OBSERVABLE:
        assert _problems(client) != [], policy
    findings = [f for f in tenants.db.admin().audit() if f.code == "E029" and policy in f.object]
    assert findings, "the audit names every dropped policy"
