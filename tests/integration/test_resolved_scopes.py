"""Reusing a scope's resolved token (scopedb.resolved): cheaper entry, the same isolation.

The database verifies whatever token a transaction sets on every statement, so these tests attack the one thing
reuse adds — the client-side map of kept tokens — and check that a bad entry there can only cost a fresh
resolution, never widen a scope.
"""

from __future__ import annotations

import re
import time

from scopedb.admin import Resource
from scopedb.ingest import Fragment
from scopedb.resolved import ResolvedScopes, token_expiry
from tests.conftest import Tenants

OWNERS = "SELECT DISTINCT project_id FROM scopedb.fragments"
TOKEN = "SELECT current_setting('scopedb.scope_token')"


def _owners(tenants: Tenants, scope_names: tuple[str, ...]) -> tuple[set[int], str]:
    with tenants.db.scoped(tenants.scope(*scope_names)) as s:
        return {r[0] for r in s.execute(OWNERS)}, s.execute(TOKEN).scalar()


def test_a_scope_entered_again_reuses_its_resolved_token(tenants: Tenants) -> None:
    first_owners, first_token = _owners(tenants, ("acme/api",))
    time.sleep(1.1)  # a fresh resolution now would carry a later issue time, so a different token
    second_owners, second_token = _owners(tenants, ("acme/api",))
    assert first_owners == second_owners == {tenants.a.id}
    assert second_token == first_token
    expiry = token_expiry(first_token)
    assert expiry is not None
    assert expiry > time.time()


def test_a_tampered_kept_token_only_costs_a_fresh_resolution(tenants: Tenants) -> None:
    _, token = _owners(tenants, ("acme/api",))
    key = ResolvedScopes.key(tenants.scope("acme/api"), None)
    assert key is not None
    head, signature, claims = token[: token.index(".", 3) + 1], token.split(".")[2], token.split(".", 3)[3]
    # Signed by the database (jsonb's spacing) or where the scope was signed (canonical JSON, no spaces).
    widened = re.sub(rf'"project_ids": ?\[{tenants.a.id}\]', f'"project_ids": [{tenants.a.id}, {tenants.b.id}]', claims)
    assert widened != claims
    forged = f"{head}{signature}.{widened}"
    tenants.db.state.resolved.put(key, forged, [tenants.a.id, tenants.b.id])
    owners, entered = _owners(tenants, ("acme/api",))
    assert owners == {tenants.a.id}  # the forged token did not verify; the scope was resolved afresh
    assert entered != forged


def test_another_scopes_token_under_this_scopes_key_is_not_used(tenants: Tenants) -> None:
    _, beta_token = _owners(tenants, ("beta/web",))
    key = ResolvedScopes.key(tenants.scope("acme/api"), None)
    assert key is not None
    tenants.db.state.resolved.put(key, beta_token, [tenants.a.id])  # a valid token, but for another scope
    owners, entered = _owners(tenants, ("acme/api",))
    assert owners == {tenants.a.id}
    assert entered != beta_token


def test_a_retired_key_makes_the_kept_token_be_resolved_again(tenants: Tenants) -> None:
    _, token = _owners(tenants, ("acme/api",))
    admin = tenants.db.admin()
    old = admin.active_signing_key()
    assert old is not None
    admin.rotate_signing_key()
    admin.retire_signing_key(old.key_id)
    owners, entered = _owners(tenants, ("acme/api",))
    assert owners == {tenants.a.id}
    assert entered != token
    assert entered.split(".")[1] != token.split(".")[1]  # signed by the new key


def test_deny_only_scopes_are_resolved_every_time(tenants: Tenants) -> None:
    """Their resolution lists the projects' other resources; one created later must show up at once."""
    denied = tenants.scope("acme/api", denied_resource_ids={tenants.resources["a1"].id})
    with tenants.db.scoped(denied) as s:
        before = s.execute("SELECT count(*) FROM scopedb.fragments").scalar()
    assert ResolvedScopes.key(denied, None) is None
    new: Resource = tenants.db.admin().create_resource("acme/api", alias="wiki")
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.add_fragment(Fragment(project="acme/api", content="created after", resource_id=new.id, path="wiki/x.md"))
    with tenants.db.scoped(denied) as s:
        after = s.execute("SELECT count(*) FROM scopedb.fragments").scalar()
    assert after == before + 1


def test_kept_tokens_expire_with_half_their_lifetime_left(tenants: Tenants) -> None:
    scopes = ResolvedScopes(margin_seconds=150)
    _, token = _owners(tenants, ("acme/api",))
    expiry = token_expiry(token)
    assert expiry is not None
    scopes.put("k", token, [tenants.a.id])
    assert (scopes.get("k") is not None) == (expiry - time.time() > 150)
    soon = ResolvedScopes(margin_seconds=10**6)  # nothing has that long left
    soon.put("k", token, [tenants.a.id])
    assert soon.get("k") is None
    assert len(soon) == 0
