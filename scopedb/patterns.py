"""Two pattern dialects, one compiler: path globs and ``::`` names, compiled to regular expressions that Python's
``re`` and PostgreSQL's ``~`` read the same way.

*Path globs* (separator ``/``): ``*`` is any run inside a segment, ``?`` one character of a segment, and a segment
that is exactly ``**`` matches **zero** or more segments (``src/**/*.py`` matches ``src/main.py``).

*Names* (separator ``::``, the scope-conformance semantics): ``*`` is any run inside a segment, a segment that is
exactly ``**`` matches **one** or more segments, ``:`` may only appear as part of ``::``.

In both, every other character is literal, matching is case-sensitive and anchored at both ends, a name or path
matches when any include pattern matches (or there is none) and no exclude pattern does.

The compiler emits only constructs both engines agree on: escaped literals (a backslash before a
non-alphanumeric character is that character in both), negated bracket classes, ``*``/``+``/``?`` quantifiers,
non-capturing groups and the ``\\A``/``\\Z`` anchors (``$`` would let Python match before a final newline). The
conformance corpora in ``tests/conformance`` check every expectation against both engines.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from scopedb.errors import ScopedbError


class PatternError(ScopedbError, ValueError):
    """The pattern is malformed."""


class Dialect(Enum):
    """Which separator, and what a ``**`` segment means."""

    PATHS = "paths"
    NAMES = "names"

    @property
    def separator(self) -> str:
        return "/" if self is Dialect.PATHS else "::"


# What a within-segment wildcard may match: anything but the separator character.
_NOT_SEP = {Dialect.PATHS: "[^/]", Dialect.NAMES: "[^:]"}


def _literal(char: str) -> str:
    """One literal character, escaped the same way for Python and PostgreSQL (ARE).

    Only ASCII punctuation, spaces and control characters get a backslash: every regex metacharacter is among
    them, and a backslash before a non-ASCII character could mean an escape sequence to one engine and not the
    other (their ideas of "alphanumeric" differ outside ASCII).
    """
    if ord(char) < 128 and not (char.isalnum() or char == "_"):
        return "\\" + char
    return char


def _segment_body(segment: str, dialect: Dialect) -> str:
    """The regex of one ordinary segment (not the ``**`` segment)."""
    not_sep = _NOT_SEP[dialect]
    out: list[str] = []
    i = 0
    while i < len(segment):
        char = segment[i]
        if char == "*":
            while i + 1 < len(segment) and segment[i + 1] == "*":
                i += 1  # a run of stars inside a segment is one star
            out.append(f"{not_sep}*")
        elif char == "?" and dialect is Dialect.PATHS:
            out.append(not_sep)
        else:
            out.append(_literal(char))
        i += 1
    return "".join(out)


def _validate(pattern: str, dialect: Dialect) -> list[str]:
    if not isinstance(pattern, str):
        raise PatternError(f"a {dialect.value} pattern must be a string")
    if pattern == "":
        raise PatternError(f"empty {dialect.value} pattern")
    segments = pattern.split(dialect.separator)
    if any(segment == "" for segment in segments):
        raise PatternError(
            f"{dialect.value} pattern {pattern!r} has an empty segment "
            f"(a leading, trailing or doubled {dialect.separator!r})"
        )
    if dialect is Dialect.NAMES and any(":" in segment for segment in segments):
        raise PatternError(f"name pattern {pattern!r} has a ':' that is not part of a '::' separator")
    return segments


@functools.lru_cache(maxsize=4096)
def compile_body(pattern: str, dialect: Dialect) -> str:
    """The unanchored regex of one pattern (raises :class:`PatternError` for a malformed one)."""
    segments = _validate(pattern, dialect)
    not_sep = _NOT_SEP[dialect]
    if dialect is Dialect.NAMES:
        any_segments = f"{not_sep}+(?:::{not_sep}+)*"  # one or more whole segments
        return "::".join(any_segments if seg == "**" else _segment_body(seg, dialect) for seg in segments)
    # Paths: a "**" segment is zero or more segments, so it absorbs one neighbouring separator.
    collapsed: list[str] = []
    for seg in segments:
        if not (seg == "**" and collapsed and collapsed[-1] == "**"):
            collapsed.append(seg)
    if collapsed == ["**"]:
        return f"(?:{not_sep}+(?:/{not_sep}+)*)?"
    out: list[str] = []
    need_separator = False
    last = len(collapsed) - 1
    for i, seg in enumerate(collapsed):
        if seg != "**":
            out.append(("/" if need_separator else "") + _segment_body(seg, dialect))
            need_separator = True
        elif i == 0:
            out.append(f"(?:{not_sep}+/)*")
            need_separator = False
        elif i == last:
            out.append(f"(?:/{not_sep}+)*")
        else:
            out.append(f"/(?:{not_sep}+/)*")
            need_separator = False
    return "".join(out)


def compile_pattern(pattern: str, dialect: Dialect) -> str:
    """The anchored regex of one pattern, as stored in scope tokens and applied by PostgreSQL's ``~``."""
    return rf"\A(?:{compile_body(pattern, dialect)})\Z"


def compile_union(patterns: Iterable[str], dialect: Dialect) -> str | None:
    """One anchored regex matching what any of ``patterns`` matches; None for no patterns."""
    bodies = sorted({compile_body(p, dialect) for p in patterns})
    if not bodies:
        return None
    return rf"\A(?:{'|'.join(bodies)})\Z"


@dataclass(frozen=True)
class CompiledScope:
    """Include/exclude patterns of one dialect, compiled once."""

    dialect: Dialect
    include: tuple[str, ...]
    exclude: tuple[str, ...]

    @functools.cached_property
    def _include_re(self) -> re.Pattern[str] | None:
        union = compile_union(self.include, self.dialect)
        return re.compile(union) if union else None

    @functools.cached_property
    def _exclude_re(self) -> re.Pattern[str] | None:
        union = compile_union(self.exclude, self.dialect)
        return re.compile(union) if union else None

    def matches(self, subject: str) -> bool:
        """Include (union; none means everything), then exclude."""
        include, exclude = self._include_re, self._exclude_re
        if include is not None and include.match(subject) is None:
            return False
        return exclude is None or exclude.match(subject) is None


def compile_scope(include: Iterable[str], exclude: Iterable[str], dialect: Dialect) -> CompiledScope:
    """Validate and compile a scope's patterns (malformed ones raise :class:`PatternError` here)."""
    scope = CompiledScope(dialect, tuple(sorted(set(include))), tuple(sorted(set(exclude))))
    for pattern in (*scope.include, *scope.exclude):
        compile_body(pattern, dialect)
    return scope


def matches(subject: str, include: Iterable[str] = (), exclude: Iterable[str] = (), *, dialect: Dialect) -> bool:
    """Whether ``subject`` is in the scope described by ``include``/``exclude``."""
    return compile_scope(include, exclude, dialect).matches(subject)
