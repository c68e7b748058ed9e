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
compiled patterns are what PostgreSQL evaluates; the conformance corpora in ``tests/conformance`` check every
expectation against both engines.

In Python, :meth:`CompiledScope.matches` does not use ``re``: a backtracking engine takes exponential time on
globs like ``*a*a*a*a*a*a*a*a*b`` (11 s for a 50-character path). It matches segment by segment instead, with
each segment glob matched by the single-backtrack wildcard algorithm, in time proportional to the pattern's
length times the subject's. What a scope may ask for is bounded too (:data:`MAX_PATTERNS`,
:data:`MAX_PATTERN_LENGTH`, :data:`MAX_WILDCARDS`): PostgreSQL evaluates every pattern against every row a policy
checks, and a scope past the bound is refused with :class:`~scopedb.errors.ScopeTooComplexError`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from scopedb.errors import ScopedbError, ScopeTooComplexError

#: At most this many path and name patterns in one scope (includes and excludes of both dialects together). The
#: database refuses more (SQLSTATE SD006); PostgreSQL's regex cache holds 32 compiled patterns per session.
MAX_PATTERNS = 16
#: At most this many characters in one pattern.
MAX_PATTERN_LENGTH = 256
#: At most this many wildcards that match a run (``*``, and ``**`` segments) in one pattern; ``?`` matches one
#: character and costs no more than a literal.
MAX_WILDCARDS = 8


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
    if len(pattern) > MAX_PATTERN_LENGTH:
        raise ScopeTooComplexError(f"a {dialect.value} pattern is longer than {MAX_PATTERN_LENGTH} characters")
    segments = pattern.split(dialect.separator)
    if any(segment == "" for segment in segments):
        raise PatternError(
            f"{dialect.value} pattern {pattern!r} has an empty segment "
            f"(a leading, trailing or doubled {dialect.separator!r})"
        )
    if dialect is Dialect.NAMES and any(":" in segment for segment in segments):
        raise PatternError(f"name pattern {pattern!r} has a ':' that is not part of a '::' separator")
    wildcards = sum(1 if seg == "**" else _tokens(seg, dialect).count(_RUN) for seg in segments)
    if wildcards > MAX_WILDCARDS:
        raise ScopeTooComplexError(f"a {dialect.value} pattern has more than {MAX_WILDCARDS} wildcards")
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


# A segment glob as tokens: a literal character, or _ANY (one character, ``?`` in paths), or _RUN (``*``).
_ANY, _RUN = object(), object()
Token = str | object


@functools.lru_cache(maxsize=4096)
def _tokens(segment: str, dialect: Dialect) -> tuple[Token, ...]:
    out: list[Token] = []
    for char in segment:
        if char == "*":
            if not out or out[-1] is not _RUN:  # a run of stars inside a segment is one star
                out.append(_RUN)
        elif char == "?" and dialect is Dialect.PATHS:
            out.append(_ANY)
        else:
            out.append(char)
    return tuple(out)


def _segment_matches(tokens: tuple[Token, ...], text: str) -> bool:
    """A segment glob against one segment (which holds no separator): the wildcard algorithm that, on a mismatch,
    only ever resumes after the most recent star, so it runs in O(len(tokens) * len(text))."""
    t = i = 0
    star, mark = -1, 0
    while i < len(text):
        if t < len(tokens) and (tokens[t] is _ANY or tokens[t] == text[i]):
            t, i = t + 1, i + 1
        elif t < len(tokens) and tokens[t] is _RUN:
            star, mark, t = t, i, t + 1
        elif star >= 0:
            mark += 1
            t, i = star + 1, mark
        else:
            return False
    while t < len(tokens) and tokens[t] is _RUN:
        t += 1
    return t == len(tokens)


def _pattern_matches(pattern: str, subject: str, dialect: Dialect) -> bool:
    """One validated pattern against a subject, segment by segment: an ordinary segment matches one subject segment,
    ``**`` matches zero (paths) or one (names) or more non-empty segments. Dynamic programming over (pattern segment,
    subject segment) keeps it polynomial whatever the pattern."""
    sep = dialect.separator
    segments = pattern.split(sep)
    if dialect is Dialect.PATHS and subject == "" and all(seg == "**" for seg in segments):
        return True  # the empty path is zero segments, which '**' alone matches
    parts = subject.split(sep)
    if dialect is Dialect.NAMES and any(":" in part for part in parts):
        return False  # a lone ':' is matched by nothing: '*' and '**' exclude ':' and literals have none
    minimum = 0 if dialect is Dialect.PATHS else 1
    n = len(parts)
    # reach[i]: the pattern so far can end right before subject segment i.
    reach = [True] + [False] * n
    for seg in segments:
        step = [False] * (n + 1)
        if seg == "**":
            # Some earlier reachable i with parts[i:k] all non-empty (at least `minimum` of them) reaches k.
            carry = False
            for k in range(n + 1):
                if k:
                    carry = (carry or reach[k - 1]) and parts[k - 1] != ""
                step[k] = carry or (minimum == 0 and reach[k])
        else:
            tokens = _tokens(seg, dialect)
            for i in range(n):
                if reach[i] and _segment_matches(tokens, parts[i]):
                    step[i + 1] = True
        reach = step
        if not any(reach):
            return False
    return reach[n]


@dataclass(frozen=True)
class CompiledScope:
    """Include/exclude patterns of one dialect, validated once."""

    dialect: Dialect
    include: tuple[str, ...]
    exclude: tuple[str, ...]

    def matches(self, subject: str) -> bool:
        """Include (any; none means everything), then exclude."""
        if self.include and not any(_pattern_matches(p, subject, self.dialect) for p in self.include):
            return False
        return not any(_pattern_matches(p, subject, self.dialect) for p in self.exclude)


def compile_scope(include: Iterable[str], exclude: Iterable[str], dialect: Dialect) -> CompiledScope:
    """Validate and compile a scope's patterns (malformed ones raise :class:`PatternError` here)."""
    scope = CompiledScope(dialect, tuple(sorted(set(include))), tuple(sorted(set(exclude))))
    for pattern in (*scope.include, *scope.exclude):
        compile_body(pattern, dialect)
    return scope


def matches(subject: str, include: Iterable[str] = (), exclude: Iterable[str] = (), *, dialect: Dialect) -> bool:
    """Whether ``subject`` is in the scope described by ``include``/``exclude``."""
    return compile_scope(include, exclude, dialect).matches(subject)
