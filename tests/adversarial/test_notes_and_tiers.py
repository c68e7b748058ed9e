"""Memory notes and context tiers in a service shared by many users and tenants (catalogue #65 to #67).

The attacker is one user (or tenant) of a shared agent service, acting through the same tools and services every
user gets, and tries to learn about another user's notes or another tenant's fragments.
"""

from __future__ import annotations

import psycopg
import pytest

from scopedb import Database, ResourceScope, ScopeViolationError
from scopedb.errors import ConfigurationError, NoteNotFoundError
from scopedb.notes import NoteStore, user_notes_project
from scopedb.notes.tools import MemoryTools, NoteHost
from scopedb.tiers import ContextTierService
from tests.conftest import Tenants

SECRET_NOTE = "VPN password is hunter2"


def _host(db: Database, user: str) -> MemoryTools:
    db.admin().ensure_project(user_notes_project(user))
    return MemoryTools(NoteHost(db, "acme/api", user_scope_enabled=True, user=user))


def test_65_one_user_s_user_notes_are_never_another_user_s(tenants: Tenants) -> None:
    """All user notes lived in one reserved project, so a host serving another user found the first user's
    "VPN password" note with ``memory_search {"scope": "user"}``."""
    alice, bob = _host(tenants.db, "alice@example.com"), _host(tenants.db, "bob@example.com")
    stored = alice.handle("memory_store", {"scope": "user", "content": SECRET_NOTE, "tags": ["vpn"]})
    note_id = next(word for word in stored.split() if word.startswith("mem-"))
    assert SECRET_NOTE in alice.handle("memory_search", {"scope": "user", "query": "VPN"})  # control
    for search in ({"scope": "user", "query": "VPN"}, {"scope": "user", "tag_prefix": "v"}, {"scope": "user"}):
        assert "no matching memory records" in bob.handle("memory_search", search)
    with pytest.raises(NoteNotFoundError):
        bob.handle("memory_fetch", {"scope": "user", "ids": [note_id]})
    with pytest.raises(NoteNotFoundError):
        bob.handle("memory_forget", {"scope": "user", "id": note_id})
    # And through SQL: a transaction in bob's user scope sees no note of alice's.
    bob_scope = ResourceScope(project_names={user_notes_project("bob@example.com")})
    with tenants.db.scoped(bob_scope) as s:
        assert s.execute("SELECT count(*) FROM scopedb.notes").scalar() == 0
        assert s.execute("SELECT count(*) FROM scopedb.search_notes(NULL, NULL, 25, 100)").scalar() == 0


def test_65_a_model_cannot_name_another_user_s_project(tenants: Tenants) -> None:
    """The project argument only confirms the host's key: naming another user's notes project is refused."""
    from scopedb.notes.tools import ToolError

    bob = _host(tenants.db, "bob@example.com")
    with pytest.raises(ToolError, match="does not match"):
        bob.handle("memory_search", {"scope": "user", "project": user_notes_project("alice@example.com")})


def test_65_opting_in_needs_the_user(tenants: Tenants) -> None:
    with pytest.raises(ConfigurationError):
        NoteHost(tenants.db, "acme/api", user_scope_enabled=True)


def test_66_search_does_not_tell_the_size_of_a_secret(tenants: Tenants) -> None:
    """``search_notes`` returned the exact length of secret bodies (``content_bytes``, ``truncated``)."""
    notes = NoteStore(tenants.db, "acme/api")
    notes.store("a secret of a telling length " * 7, sensitivity="secret", tags=["s"])
    notes.store("an ordinary note", tags=["s"])
    found = {d.sensitivity: d for d in notes.search(tag_prefix="s")}
    assert found["normal"].content_bytes == len("an ordinary note")  # control: sizes are shown otherwise
    assert found["secret"].content_bytes is None
    assert found["secret"].snippet is None
    assert found["secret"].truncated is False
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        rows = s.execute("SELECT content_bytes, truncated FROM scopedb.search_notes(NULL, 's', 25, 10) "
                         "WHERE sensitivity = 'secret'").rows  # fmt: skip
    assert rows == [(None, None)]


def test_67_validating_a_fragment_says_the_same_whether_it_exists_elsewhere_or_nowhere(tenants: Tenants) -> None:
    """``validate_fragment_scope`` raised ScopeViolationError for an id that exists in another tenant's project the
    service had touched and ValueError for one that exists nowhere: an existence oracle across tenants. It now
    raises one error, both a ScopeViolationError and a ValueError, for anything the scope does not see."""
    service = ContextTierService(tenants.db)
    service.store("b-private", project="beta/web", content="B's")
    errors = []
    for fragment_id in ("b-private", "nowhere"):
        with pytest.raises(ScopeViolationError) as err:
            service.validate_fragment_scope(fragment_id, tenants.scope("acme/api"))
        assert isinstance(err.value, ValueError)
        errors.append((type(err.value), str(err.value).replace(fragment_id, "<id>")))
    assert errors[0] == errors[1]
    service.store("a-own", project="acme/api", content="A's")
    service.validate_fragment_scope("a-own", tenants.scope("acme/api"))  # control: in scope, it passes


def test_67_get_for_actor_without_projects_reads_only_the_service_s_configured_projects(tenants: Tenants) -> None:
    """``get_for_actor`` without projects read every project the service had stored into — in a service shared by
    tenants, another tenant's fragments. Without projects it now reads the projects the service was configured
    with, and nothing it merely touched."""
    shared = ContextTierService(tenants.db, actor="agent")
    shared.store("b-note", project="beta/web", content="B's")
    shared.store("a-note", project="acme/api", content="A's")
    assert shared.get_for_actor("agent") == []
    per_tenant = ContextTierService(tenants.db, actor="agent", projects=["acme/api"])
    assert [f.id for f in per_tenant.get_for_actor("agent")] == ["a-note"]
    with psycopg.connect(tenants.db.dsn) as conn:  # B's fragment is there: the test compares a real difference
        assert conn.execute("SELECT count(*) FROM scopedb.fragments WHERE id = 'b-note'").fetchone() == (1,)
