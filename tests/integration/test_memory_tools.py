"""The agent tool surface, mirroring the seed's tests."""

from __future__ import annotations

import re
from typing import Any

import psycopg
import pytest

from scopedb import Database
from scopedb.errors import NoteNotFoundError
from scopedb.notes import NoteStore, user_notes_project
from scopedb.notes.tools import LOWER_AUTHORITY_HEADER, TOOL_DEFINITIONS, MemoryTools, NoteHost, ToolError

BODY_SENTINEL = "MEMORY-BODY-SENTINEL-4af1"
TAIL_SENTINEL = "MEMORY-TAIL-SENTINEL-9be2"
TOOLS = ("memory_search", "memory_fetch", "memory_store", "memory_forget")


@pytest.fixture
def tools(scopedb_db: Database) -> MemoryTools:
    scopedb_db.admin().create_project("repo")
    scopedb_db.admin().create_project("other")
    return MemoryTools(NoteHost(scopedb_db, "repo", session="session-1"))


def _ids(text: str) -> list[str]:
    return re.findall(r"mem-[0-9a-f]{32}", text)


def _note_count(db: Database) -> int:
    with psycopg.connect(db.dsn) as admin:
        row = admin.execute("SELECT count(*) FROM scopedb.notes").fetchone()
    assert row is not None
    return int(row[0])


def test_definitions_are_json_schema_tool_definitions() -> None:
    assert [d["name"] for d in TOOL_DEFINITIONS] == list(TOOLS)
    for definition in TOOL_DEFINITIONS:
        assert definition["parameters"]["type"] == "object"
        assert definition["parameters"]["properties"]["scope"]["enum"] == ["repository", "user"]


def test_round_trip_store_search_fetch_forget(tools: MemoryTools) -> None:
    body = f"{BODY_SENTINEL} the deploy key lives in vault " + "x" * 500 + f" {TAIL_SENTINEL}"
    stored = tools.handle("memory_store", {"content": body, "tags": ["ops"]})
    assert stored.startswith(LOWER_AUTHORITY_HEADER + "\n")
    (note_id,) = _ids(stored)
    found = tools.handle("memory_search", {"query": "deploy key"})
    assert found.startswith(LOWER_AUTHORITY_HEADER + "\n")
    assert note_id in found
    assert "source_project=repo" in found
    assert TAIL_SENTINEL not in found  # descriptors and snippets, never the full body
    fetched = tools.handle("memory_fetch", {"ids": [note_id]})
    assert fetched.startswith(LOWER_AUTHORITY_HEADER + "\n")
    assert TAIL_SENTINEL in fetched
    forgot = tools.handle("memory_forget", {"id": note_id})
    assert forgot.startswith(LOWER_AUTHORITY_HEADER + "\n")
    assert "no matching memory records" in tools.handle("memory_search", {"query": "deploy key"})
    with pytest.raises(NoteNotFoundError):
        tools.handle("memory_fetch", {"ids": [note_id]})


def test_secret_is_withheld_at_search_and_fetch(tools: MemoryTools) -> None:
    stored = tools.handle("memory_store", {"content": f"token {BODY_SENTINEL}", "sensitivity": "secret", "tags": ["k"]})
    (note_id,) = _ids(stored)
    assert "no matching memory records" in tools.handle("memory_search", {"query": BODY_SENTINEL})
    by_tag = tools.handle("memory_search", {"tag_prefix": "k"})
    assert "[withheld: secret-class body]" in by_tag
    assert BODY_SENTINEL not in by_tag
    fetched = tools.handle("memory_fetch", {"ids": [note_id]})
    assert "[body withheld" in fetched
    assert BODY_SENTINEL not in fetched


MALFORMED_SCOPES: list[Any] = [None, False, True, 0, 1, [], ["user"], {}, {"scope": "user"}, "", "USER",
                               "Repository", "user ", " repository", "user\n", "repository\n", "global", "notes",
                               "p0000000000000000"]  # fmt: skip


@pytest.mark.parametrize("tool", TOOLS)
def test_malformed_scopes_fail_closed_before_the_database(tools: MemoryTools, tool: str) -> None:
    before = _note_count(tools.host.db)
    for scope in MALFORMED_SCOPES:
        params = {"scope": scope, "content": "synthetic", "ids": ["mem-" + "0" * 32], "id": "mem-" + "0" * 32}
        with pytest.raises(ToolError, match="scope must be the string"):
            tools.handle(tool, params)
    assert _note_count(tools.host.db) == before


def test_user_scope_needs_the_host_to_opt_in(tools: MemoryTools) -> None:
    with pytest.raises(ToolError, match="not enabled"):
        tools.handle("memory_store", {"scope": "user", "content": "x"})
    tools.host.db.admin().create_project(user_notes_project("alice"))
    opted_in = MemoryTools(NoteHost(tools.host.db, "repo", user_scope_enabled=True, user="alice"))
    stored = opted_in.handle("memory_store", {"scope": "user", "content": "user-wide preference"})
    assert f"project {user_notes_project('alice')}" in stored
    assert "user-wide preference" not in opted_in.handle("memory_search", {"query": "preference"})
    assert "user-wide preference" in opted_in.handle("memory_search", {"scope": "user", "query": "preference"})


def test_a_foreign_id_is_not_found(tools: MemoryTools) -> None:
    foreign = NoteStore(tools.host.db, "other").store("other project's note")
    with pytest.raises(NoteNotFoundError, match="memory record not found"):
        tools.handle("memory_fetch", {"ids": [foreign]})
    with pytest.raises(NoteNotFoundError):
        tools.handle("memory_forget", {"id": foreign})


@pytest.mark.parametrize("tool", TOOLS)
def test_a_project_argument_that_differs_from_the_host_key_is_refused(tools: MemoryTools, tool: str) -> None:
    params = {"project": "other", "content": "x", "ids": ["mem-" + "0" * 32], "id": "mem-" + "0" * 32}
    with pytest.raises(ToolError, match="does not match the host-resolved scope"):
        tools.handle(tool, params)
    confirmed = {**params, "project": "repo"}
    if tool == "memory_store":
        assert "stored memory" in tools.handle(tool, confirmed)


@pytest.mark.parametrize(
    ("tool", "params"),
    [
        ("memory_store", {"content": "x", "retention_days": 0}),
        ("memory_store", {"content": "x", "retention_days": 10_001}),
        ("memory_store", {"content": "x", "sensitivity": "SECRET"}),
        ("memory_store", {"content": 42}),
        ("memory_fetch", {"ids": []}),
        ("memory_fetch", {"ids": "mem-x"}),
        ("memory_fetch", {"ids": ["ctx-1"]}),
        ("memory_search", {"source": "history"}),
        ("memory_search", {"limit": 0}),
        ("memory_forget", {}),
    ],
)
def test_bad_parameters_are_refused(tools: MemoryTools, tool: str, params: dict[str, Any]) -> None:
    with pytest.raises(ToolError):
        tools.handle(tool, params)


def test_store_reports_retention_and_sensitivity(tools: MemoryTools) -> None:
    out = tools.handle("memory_store", {"content": "x", "sensitivity": "sensitive", "retention_days": 30})
    assert "sensitivity sensitive, retention max_age_days=30" in out
