"""Scoped memory notes: small records a service or an agent keeps for a project.

The database enforces what it can: notes are per project under RLS; ``scopedb_app`` may insert notes and read their
metadata but has no privilege on the body column, so bodies come only through ``scopedb.fetch_notes`` and
``scopedb.search_notes`` (SECURITY DEFINER), which never return a secret-class body and never match one; forgetting
appends a tombstone (``scopedb.forget_note``); the app can neither update nor delete a note. Unknown, foreign and
forgotten ids are the same "not found". The owner-side sweep (:meth:`scopedb.Admin.sweep_notes`, ``scopedb sweep``)
physically removes expired and forgotten notes.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from scopedb import sqlfiles
from scopedb.database import Database
from scopedb.errors import InvalidArgumentError
from scopedb.scope import ResourceScope

Sensitivity = Literal["normal", "sensitive", "secret"]
SENSITIVITIES: tuple[Sensitivity, ...] = ("normal", "sensitive", "secret")
USER_NOTES_PREFIX = "p"  # user-notes projects are "p" and 16 hex digits, the seed's reserved id form
MAX_CONTENT_BYTES = 16 * 1024
MAX_SEARCH_LIMIT = 25
DEFAULT_SEARCH_LIMIT = 8
DEFAULT_SNIPPET_BYTES = 160
MAX_SNIPPET_BYTES = 400
MAX_RETENTION_DAYS = 10_000
WITHHELD_SNIPPET = "[withheld: secret-class body]"


@dataclass(frozen=True)
class NoteDescriptor:
    """What a search returns: everything about a note but its body, plus a bounded snippet. For a secret note,
    no snippet and no size either (``None``): the length of a secret is something about it."""

    id: str
    project: str
    created_at: dt.datetime
    tags: tuple[str, ...]
    content_bytes: int | None
    sensitivity: Sensitivity
    retention_days: int | None
    source: str
    snippet: str | None
    truncated: bool


@dataclass(frozen=True)
class Note:
    """A fetched note. ``content`` is None for a secret-class note: its body never leaves the database."""

    id: str
    project: str
    created_at: dt.datetime
    tags: tuple[str, ...]
    sensitivity: Sensitivity
    retention_days: int | None
    source: str
    session: str | None
    content: str | None


def user_notes_project(user: str) -> str:
    """The project holding the user-wide notes of ``user`` (host opt-in only): ``p`` and 16 hex digits.

    Each user has their own, derived from the identity the host resolved: a service shared by many users must
    never show one user's notes to another, and a single reserved project for every user did exactly that. The host
    creates it (``db.admin().ensure_project(user_notes_project(user))``) when it opts a user in.
    """
    if not isinstance(user, str) or not user or "\x00" in user:
        raise InvalidArgumentError("a user is a non-empty string")
    return USER_NOTES_PREFIX + hashlib.sha256(user.encode("utf-8")).hexdigest()[:16]


def new_note_id() -> str:
    """``mem-`` and 32 hex digits."""
    return f"mem-{uuid.uuid4().hex}"


def check_retention(retention_days: object) -> int | None:
    """None (standard retention) or a whole number of days from 1 to 10000; anything else is an error."""
    if retention_days is None:
        return None
    if isinstance(retention_days, bool) or not isinstance(retention_days, int):
        raise InvalidArgumentError("retention_days must be a whole number of days")
    if not 1 <= retention_days <= MAX_RETENTION_DAYS:
        raise InvalidArgumentError(f"retention_days {retention_days} out of range (1..={MAX_RETENTION_DAYS})")
    return retention_days


def utf8_prefix(text: str, max_bytes: int) -> str:
    """At most ``max_bytes`` bytes of ``text``, cut on a character boundary."""
    return text.encode("utf-8")[:max_bytes].decode("utf-8", errors="ignore")


class NoteStore:
    """The notes of one project (the host-resolved key), read and written under that project's scope."""

    def __init__(self, db: Database, project: str, *, actor: str = "service", session: str | None = None) -> None:
        self.db = db
        self.project = project
        self.actor = actor
        self.session = session

    @property
    def scope(self) -> ResourceScope:
        return ResourceScope(project_names={self.project})

    def store(
        self,
        content: str,
        *,
        tags: Iterable[str] = (),
        sensitivity: Sensitivity = "normal",
        retention_days: int | None = None,
        source: str = "service",
    ) -> str:
        """Store a note; returns its id (``mem-`` + 32 hex)."""
        if not isinstance(content, str) or "\x00" in content:
            raise InvalidArgumentError("content must be a string without NUL characters")
        if len(content.encode("utf-8")) > MAX_CONTENT_BYTES:
            raise InvalidArgumentError(f"content is larger than {MAX_CONTENT_BYTES} bytes")
        if not isinstance(sensitivity, str) or sensitivity not in SENSITIVITIES:
            raise InvalidArgumentError(f"unknown sensitivity {sensitivity!r}")
        if isinstance(tags, str | bytes) or not isinstance(tags, Iterable):
            raise InvalidArgumentError("tags must be a list of strings")
        tag_list = list(tags)
        if any(not isinstance(t, str) or not t or "\x00" in t for t in tag_list):
            raise InvalidArgumentError("tags must be non-empty strings without NUL characters")
        if not isinstance(source, str) or "\x00" in source:
            raise InvalidArgumentError("source must be a string")
        note_id = new_note_id()
        with self.db.scoped(self.scope, actor=self.actor) as s:
            s.execute(
                sqlfiles.query("notes", "store"),
                {
                    "project_id": s.projects[self.project],
                    "id": note_id,
                    "content": content,
                    "tags": tag_list,
                    "sensitivity": sensitivity,
                    "retention_days": check_retention(retention_days),
                    "source": source,
                    "session": self.session,
                },
            )
        return note_id

    def search(
        self,
        query: str | None = None,
        *,
        tag_prefix: str | None = None,
        limit: int = DEFAULT_SEARCH_LIMIT,
        snippet_bytes: int = DEFAULT_SNIPPET_BYTES,
    ) -> list[NoteDescriptor]:
        """Newest-first notes whose body contains ``query`` (one literal, case-insensitive substring; ``%`` and
        ``_`` are literal) and/or with a tag starting with ``tag_prefix``. Secret bodies are never matched by the
        query and never returned (their snippet is None)."""
        for name, value in (("limit", limit), ("snippet_bytes", snippet_bytes)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidArgumentError(f"{name} must be a positive integer")
        for name, text in (("query", query), ("tag_prefix", tag_prefix)):
            if text is not None and (not isinstance(text, str) or "\x00" in text):
                raise InvalidArgumentError(f"{name} must be a string without NUL characters")
        budget = min(snippet_bytes, MAX_SNIPPET_BYTES)
        with self.db.scoped(self.scope, actor=self.actor) as s:
            rows = s.execute(
                sqlfiles.query("notes", "search"),
                {
                    "query": query or None,
                    "tag_prefix": tag_prefix or None,
                    "limit": min(limit, MAX_SEARCH_LIMIT),
                    "snippet_chars": budget,
                },
            ).rows
        found = []
        for _pid, nid, created, tags, size, sensitivity, retention, source, snippet, truncated in rows:
            cut = None if snippet is None else utf8_prefix(snippet, budget)
            found.append(
                NoteDescriptor(
                    nid,
                    self.project,
                    created,
                    tuple(tags),
                    None if size is None else int(size),
                    sensitivity,
                    retention,
                    source,
                    cut,
                    bool(truncated) or (cut is not None and cut != snippet),
                )
            )
        return found

    def fetch(self, ids: Sequence[str]) -> list[Note]:
        """Notes by exact id; if any id is not a live note of this project the whole call fails with
        :class:`~scopedb.errors.NoteNotFoundError`. Secret notes come back without content."""
        if isinstance(ids, str) or not isinstance(ids, Sequence | set | frozenset):
            raise InvalidArgumentError("fetch takes a list of note ids")
        if not ids:
            raise InvalidArgumentError("fetch needs at least one exact note id")
        if not all(isinstance(i, str) and "\x00" not in i for i in ids):
            raise InvalidArgumentError("note ids are strings")
        if len(ids) > MAX_SEARCH_LIMIT:
            raise InvalidArgumentError(f"fetch is bounded to {MAX_SEARCH_LIMIT} ids per call")
        with self.db.scoped(self.scope, actor=self.actor) as s:
            rows = s.execute(sqlfiles.query("notes", "fetch"), {"ids": list(ids)}).rows
        return [
            Note(nid, self.project, created, tuple(tags), sensitivity, retention, source, session, content)
            for _pid, nid, created, tags, sensitivity, retention, source, session, content in rows
        ]

    def forget(self, note_id: str) -> None:
        """Tombstone a note; it disappears from search and fetch (the sweep removes it for good)."""
        if not isinstance(note_id, str) or "\x00" in note_id:
            raise InvalidArgumentError("a note id is a string")
        with self.db.scoped(self.scope, actor=self.actor) as s:
            s.execute(sqlfiles.query("notes", "forget"), {"id": note_id, "actor": self.actor})
