"""Scoped memory notes: small records a service or an agent keeps for a project.

The database enforces what it can: notes are per project under RLS; ``scopedb_app`` may insert notes and read their
metadata but has no privilege on the body column, so bodies come only through ``scopedb.fetch_notes`` and
``scopedb.search_notes`` (SECURITY DEFINER), which never return a secret-class body and never match one; forgetting
appends a tombstone (``scopedb.forget_note``); the app can neither update nor delete a note. Unknown, foreign and
forgotten ids are the same "not found". The owner-side sweep (:meth:`scopedb.Admin.sweep_notes`, ``scopedb sweep``)
physically removes expired and forgotten notes.
"""

from scopedb.notes.model import (
    DEFAULT_SEARCH_LIMIT,
    DEFAULT_SNIPPET_BYTES,
    MAX_CONTENT_BYTES,
    MAX_RETENTION_DAYS,
    MAX_SEARCH_LIMIT,
    MAX_SNIPPET_BYTES,
    SENSITIVITIES,
    USER_NOTES_PREFIX,
    WITHHELD_SNIPPET,
    Note,
    NoteDescriptor,
    Sensitivity,
    check_retention,
    new_note_id,
    user_notes_project,
    utf8_prefix,
)
from scopedb.notes.store import NoteStore
from scopedb.notes.store_async import AsyncNoteStore

__all__ = [
    "DEFAULT_SEARCH_LIMIT",
    "DEFAULT_SNIPPET_BYTES",
    "MAX_CONTENT_BYTES",
    "MAX_RETENTION_DAYS",
    "MAX_SEARCH_LIMIT",
    "MAX_SNIPPET_BYTES",
    "SENSITIVITIES",
    "USER_NOTES_PREFIX",
    "WITHHELD_SNIPPET",
    "AsyncNoteStore",
    "Note",
    "NoteDescriptor",
    "NoteStore",
    "Sensitivity",
    "check_retention",
    "new_note_id",
    "user_notes_project",
    "utf8_prefix",
]
