# Generated from scopedb/notes/store_async.py by .ci/async_to_sync.py.
# Do not edit: edit the source, run `make generate`.
"""The notes of one project, read and written under that project's scope (see :mod:`scopedb.notes`).

Generated from :mod:`scopedb.notes.store_async` by ``.ci/async_to_sync.py``: edit that file, not this one.
A store given a database runs each call in a transaction of its own; given a scoped session whose scope is exactly
its project, it runs in that session's transaction, so a note and the caller's own writes commit together.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

from scopedb import sqlfiles
from scopedb.database import Database
from scopedb.errors import InvalidArgumentError
from scopedb.notes.model import (
    DEFAULT_SEARCH_LIMIT,
    DEFAULT_SNIPPET_BYTES,
    MAX_CONTENT_BYTES,
    MAX_SEARCH_LIMIT,
    MAX_SNIPPET_BYTES,
    SENSITIVITIES,
    Note,
    NoteDescriptor,
    Sensitivity,
    check_retention,
    new_note_id,
    utf8_prefix,
)
from scopedb.scope import ResourceScope
from scopedb.session import ScopedSession


class NoteStore:
    """The notes of one project (the host-resolved key), read and written under that project's scope."""

    def __init__(
        self,
        target: Database | ScopedSession,
        project: str,
        *,
        actor: str = "service",
        session: str | None = None,
    ) -> None:
        if not isinstance(target, Database | ScopedSession):
            raise InvalidArgumentError("a note store takes a database or a scoped session")
        self._target = target
        self.project = project
        self.actor = actor
        self.session = session

    @property
    def scope(self) -> ResourceScope:
        return ResourceScope(project_names={self.project})

    @contextmanager
    def _scoped(self) -> Iterator[ScopedSession]:
        """The session a call runs in. A bound session must see exactly this store's project: notes are read by
        RLS alone, so a wider session would answer with another project's notes."""
        if isinstance(self._target, Database):
            with self._target.scoped(self.scope, actor=self.actor) as s:
                yield s
            return
        if set(self._target.projects) != {self.project}:
            raise InvalidArgumentError(
                f"a note store bound to a session needs a session whose scope is exactly {self.project!r}"
            )
        yield self._target

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
        with self._scoped() as s:
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
        with self._scoped() as s:
            rows = (
                s.execute(
                    sqlfiles.query("notes", "search"),
                    {
                        "query": query or None,
                        "tag_prefix": tag_prefix or None,
                        "limit": min(limit, MAX_SEARCH_LIMIT),
                        "snippet_chars": budget,
                    },
                )
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
        with self._scoped() as s:
            rows = (s.execute(sqlfiles.query("notes", "fetch"), {"ids": list(ids)})).rows
        return [
            Note(nid, self.project, created, tuple(tags), sensitivity, retention, source, session, content)
            for _pid, nid, created, tags, sensitivity, retention, source, session, content in rows
        ]

    def forget(self, note_id: str) -> None:
        """Tombstone a note; it disappears from search and fetch (the sweep removes it for good)."""
        if not isinstance(note_id, str) or "\x00" in note_id:
            raise InvalidArgumentError("a note id is a string")
        with self._scoped() as s:
            s.execute(sqlfiles.query("notes", "forget"), {"id": note_id, "actor": self.actor})
