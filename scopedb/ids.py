"""Identifiers: ULIDs for resources.

A ULID is 48 bits of milliseconds since the epoch and 80 random bits, written as 26 Crockford base32 characters.
It sorts by creation time and is safe to show in logs, which is why resources use it.
"""

from __future__ import annotations

import re
import secrets
import time

_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
ULID_PATTERN = re.compile(r"^[0-9A-HJKMNP-TV-Z]{26}$")


def new_ulid(now: float | None = None) -> str:
    """A fresh ULID."""
    millis = int((time.time() if now is None else now) * 1000) & ((1 << 48) - 1)
    value = (millis << 80) | secrets.randbits(80)
    chars = []
    for _ in range(26):
        chars.append(_ALPHABET[value & 31])
        value >>= 5
    return "".join(reversed(chars))


def is_ulid(value: str) -> bool:
    """Whether ``value`` is a syntactically valid ULID (what the resources table accepts)."""
    return bool(ULID_PATTERN.match(value))
