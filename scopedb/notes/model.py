"""Scoped memory notes: the records, their limits and the checks on them (see :mod:`scopedb.notes`)."""

from __future__ import annotations

import datetime as dt
import hashlib
import uuid
from dataclasses import dataclass
from typing import Literal

from scopedb.errors import InvalidArgumentError

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
