"""Scoped memory notes, enforced by the database wherever it can be."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from scopedb import Database, ResourceScope
from scopedb.errors import InvalidArgumentError, NoteNotFoundError, PermissionDeniedError, ScopedbError
from scopedb.notes import AsyncNoteStore, NoteStore, new_note_id
from tests.async_bridge import AsyncBridge

SECRET = "SECRET-BODY-SENTINEL-7c1e"
TAIL = "TAIL-SENTINEL-9be2"


@pytest.fixture(params=["sync", "async"])
def notes(request: pytest.FixtureRequest, scopedb_db: Database) -> Iterator[NoteStore]:
    """repo-a's notes through the sync store, or through the async store it is generated from."""
    scopedb_db.admin().create_project("repo-a")
    scopedb_db.admin().create_project("repo-b")
    if request.param == "sync":
        yield NoteStore(scopedb_db, "repo-a", session="s1")
        return
    bridge = AsyncBridge(scopedb_db)
    store: Any = bridge.wrap(AsyncNoteStore(bridge.db, "repo-a", session="s1"))
    try:
        yield store
    finally:
        bridge.close()


def test_round_trip_store_search_fetch_forget(notes: NoteStore) -> None:
    note_id = notes.store("Deploys go through the canary first.", tags=["ops/deploy", "runbook"])
    assert note_id.startswith("mem-")
    assert len(note_id) == 36
    found = notes.search("CANARY")
    assert [d.id for d in found] == [note_id]
    assert found[0].snippet == "Deploys go through the canary first."
    assert found[0].tags == ("ops/deploy", "runbook")
    (fetched,) = notes.fetch([note_id])
    assert fetched.content == "Deploys go through the canary first."
    assert fetched.session == "s1"
    notes.forget(note_id)
    assert notes.search("canary") == []
    with pytest.raises(NoteNotFoundError):
        notes.fetch([note_id])


def test_secret_bodies_never_reach_a_caller(notes: NoteStore, scopedb_db: Database) -> None:
    secret = notes.store(f"the password is {SECRET}", tags=["creds"], sensitivity="secret")
    assert notes.search(SECRET) == []  # content search never matches a secret body
    (descriptor,) = notes.search(tag_prefix="cred")
    assert descriptor.snippet is None
    (fetched,) = notes.fetch([secret])
    assert fetched.content is None
    # And no SQL the application role can run reads it: it has no privilege on the body column.
    with pytest.raises(PermissionDeniedError), scopedb_db.scoped(notes.scope) as s:
        s.execute("SELECT content FROM scopedb.notes")
    with pytest.raises(PermissionDeniedError), scopedb_db.scoped(notes.scope) as s:
        s.execute("SELECT * FROM scopedb.notes")
    with scopedb_db.scoped(notes.scope) as s:
        rows = s.execute("SELECT * FROM scopedb.fetch_notes(ARRAY[%s])", (secret,)).dicts()
        assert rows[0]["content"] is None
        rows = s.execute("SELECT * FROM scopedb.search_notes(NULL, 'cred', 25, 400)").dicts()
        assert SECRET not in str(rows)


def test_search_is_one_literal_case_insensitive_substring(notes: NoteStore) -> None:
    a = notes.store("rate is 100% of quota_max")
    b = notes.store("rate is 100 percent")
    notes.store("nothing here")
    assert [d.id for d in notes.search("100%")] == [a]  # % is literal
    assert [d.id for d in notes.search("quota_max")] == [a]  # _ is literal
    assert {d.id for d in notes.search("RATE IS")} == {a, b}
    assert notes.search("100_") == []


def test_search_is_newest_first_bounded_and_snippets_cut_on_utf8(notes: NoteStore) -> None:
    ids = [notes.store(f"note {n} " + "é" * 300 + f" {TAIL}", tags=[f"t{n}"]) for n in range(30)]
    found = notes.search("note")
    assert len(found) == 8  # default limit
    assert [d.id for d in found] == ids[::-1][:8]
    assert len(notes.search("note", limit=100)) == 25  # hard cap
    for descriptor in notes.search("note", snippet_bytes=5):
        assert descriptor.snippet is not None
        assert len(descriptor.snippet.encode()) <= 5
        assert descriptor.truncated
    long = notes.search("note", snippet_bytes=10_000)
    assert all(d.snippet and len(d.snippet.encode()) <= 400 for d in long)
    assert all(TAIL not in (d.snippet or "") for d in long)  # never a full body
    assert [d.id for d in notes.search(tag_prefix="t2")] == [ids[29], ids[28], ids[27], ids[26], ids[25], ids[24],
                                                              ids[23], ids[22]]  # fmt: skip


def test_unknown_foreign_and_forgotten_ids_are_the_same_not_found(notes: NoteStore, scopedb_db: Database) -> None:
    theirs = NoteStore(scopedb_db, "repo-b").store("belongs to b")
    forgotten = notes.store("soon gone")
    notes.forget(forgotten)
    live = notes.store("still here")
    messages = set()
    for missing in (new_note_id(), theirs, forgotten):
        with pytest.raises(NoteNotFoundError) as err:
            notes.fetch([live, missing])  # one missing id fails the whole fetch
        messages.add(str(err.value))
        with pytest.raises(NoteNotFoundError) as err:
            notes.forget(missing)
        messages.add(str(err.value))
    assert messages == {"memory record not found"}
    assert NoteStore(scopedb_db, "repo-b").fetch([theirs])[0].content == "belongs to b"


def test_the_app_cannot_update_or_delete_notes(notes: NoteStore, scopedb_db: Database) -> None:
    note_id = notes.store("immutable")
    statements = [
        "UPDATE scopedb.notes SET tags = '{}'",
        "DELETE FROM scopedb.notes",
        "INSERT INTO scopedb.note_tombstones (project_id, note_id) SELECT project_id, id FROM scopedb.notes",
        "UPDATE scopedb.notes SET forgotten_at = now()",
    ]
    for statement in statements:
        with pytest.raises(ScopedbError), scopedb_db.scoped(notes.scope) as s:
            s.execute(statement)
    assert notes.fetch([note_id])[0].content == "immutable"


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"retention_days": 0}, InvalidArgumentError),
        ({"retention_days": 10_001}, InvalidArgumentError),
        ({"retention_days": True}, InvalidArgumentError),
        ({"sensitivity": "top-secret"}, InvalidArgumentError),
        ({"tags": [""]}, InvalidArgumentError),
    ],
)
def test_malformed_notes_are_refused(notes: NoteStore, kwargs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        notes.store("x", **kwargs)  # type: ignore[arg-type]


def test_content_is_bounded_and_ids_have_their_shape_in_the_database_too(
    notes: NoteStore, scopedb_db: Database
) -> None:
    with pytest.raises(InvalidArgumentError):
        notes.store("x" * (16 * 1024 + 1))
    notes.store("é" * (8 * 1024))  # 16 KiB exactly, in two-byte characters
    with pytest.raises(ScopedbError), scopedb_db.scoped(notes.scope) as s:
        s.execute(
            "INSERT INTO scopedb.notes (project_id, id, content) VALUES (%s, 'mem-not-hex', 'x')",
            (s.projects["repo-a"],),
        )
    with pytest.raises(ScopedbError), scopedb_db.scoped(notes.scope) as s:
        s.execute(
            "INSERT INTO scopedb.notes (project_id, id, content) VALUES (%s, %s, repeat('x', 16385))",
            (s.projects["repo-a"], new_note_id()),
        )


def test_retention_and_the_sweep(notes: NoteStore, scopedb_db: Database) -> None:
    keep = notes.store("standard retention")
    short = notes.store("one day only", retention_days=1)
    gone = notes.store("forget me")
    notes.forget(gone)
    with psycopg.connect(scopedb_db.dsn, autocommit=True) as admin:  # age the short-lived note by two days
        admin.execute("UPDATE scopedb.notes SET created_at = now() - interval '2 days' WHERE id = %s", (short,))
    assert {d.id for d in notes.search("")} == {keep}  # expired notes are invisible before the sweep
    assert scopedb_db.admin().sweep_notes() == (1, 1)
    with psycopg.connect(scopedb_db.dsn) as admin:
        remaining = {r[0] for r in admin.execute("SELECT id FROM scopedb.notes")}
        tombstones = admin.execute("SELECT count(*) FROM scopedb.note_tombstones").fetchone()
    assert remaining == {keep}
    assert tombstones == (0,)
    assert scopedb_db.admin().sweep_notes() == (0, 0)


def test_notes_are_isolated_by_project_under_rls(notes: NoteStore, scopedb_db: Database) -> None:
    NoteStore(scopedb_db, "repo-b").store("b's note", tags=["shared-tag"])
    notes.store("a's note", tags=["shared-tag"])
    assert [d.project for d in notes.search(tag_prefix="shared")] == ["repo-a"]
    with scopedb_db.scoped(ResourceScope(project_names={"repo-a"})) as s:
        assert s.execute("SELECT count(*) FROM scopedb.notes").scalar() == 1
        now = s.execute("SELECT now()").scalar()
        assert isinstance(now, dt.datetime)
