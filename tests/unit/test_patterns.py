"""The pattern matcher and compiler against an independent, hand-rolled segment matcher, on generated patterns and
subjects. (What a scope's patterns may cost: tests/adversarial/test_scope_cost.py.)"""

from __future__ import annotations

import fnmatch
import functools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopedb.patterns import Dialect, PatternError, compile_pattern, compile_scope


def _segment_matches(pattern: str, segment: str, dialect: Dialect) -> bool:
    """A within-segment pattern against one segment: '*' any run, '?' one char (paths only), else literal."""
    escaped = pattern.replace("[", "[[]")
    if dialect is Dialect.NAMES:
        escaped = escaped.replace("?", "[?]")
    return fnmatch.fnmatchcase(segment, escaped)


def oracle(pattern: str, subject: str, dialect: Dialect) -> bool:
    """Segment-by-segment matching, written from the spec without regular expressions."""
    sep = dialect.separator
    psegs = pattern.split(sep)
    if dialect is Dialect.NAMES and any(":" in s for s in subject.split(sep)):
        return False  # a lone ':' can never be matched: '*' and '**' exclude ':' and literals have none
    minimum = 0 if dialect is Dialect.PATHS else 1

    def against(ssegs: list[str]) -> bool:
        @functools.cache
        def match(i: int, j: int) -> bool:
            if i == len(psegs):
                return j == len(ssegs)
            if psegs[i] == "**":
                return any(
                    all(s != "" for s in ssegs[j:k]) and match(i + 1, k) for k in range(j + minimum, len(ssegs) + 1)
                )
            return j < len(ssegs) and _segment_matches(psegs[i], ssegs[j], dialect) and match(i + 1, j + 1)

        return match(0, 0)

    # The empty path is both one empty segment (for '*') and zero segments (for '**').
    if dialect is Dialect.PATHS and subject == "":
        return against([""]) or against([])
    return against(subject.split(sep))


def _pattern_segments() -> st.SearchStrategy[str]:
    return st.one_of(st.just("**"), st.text("ab.*?", min_size=1, max_size=4))


@settings(max_examples=1000, deadline=None)
@given(data=st.data(), dialect=st.sampled_from(list(Dialect)))
def test_compiled_regex_agrees_with_the_segment_oracle(data: st.DataObject, dialect: Dialect) -> None:
    sep = dialect.separator
    pattern = sep.join(data.draw(st.lists(_pattern_segments(), min_size=1, max_size=4)))
    subject = sep.join(data.draw(st.lists(st.text("ab.?*", max_size=3), min_size=0, max_size=5)))
    expected = oracle(pattern, subject, dialect)
    assert compile_scope([pattern], [], dialect).matches(subject) == expected, (pattern, subject)
    # The regex PostgreSQL evaluates, read by Python's engine on these small inputs.
    assert (re.match(compile_pattern(pattern, dialect), subject) is not None) == expected, (pattern, subject)


@pytest.mark.parametrize(
    ("pattern", "dialect"),
    [
        ("", Dialect.PATHS),
        ("a//b", Dialect.PATHS),
        ("/abs", Dialect.PATHS),
        ("dir/", Dialect.PATHS),
        ("a:b", Dialect.NAMES),
        ("a:::b", Dialect.NAMES),
        ("::a", Dialect.NAMES),
        ("a::", Dialect.NAMES),
    ],
)
def test_malformed_patterns_raise_pattern_error(pattern: str, dialect: Dialect) -> None:
    with pytest.raises(PatternError):
        compile_pattern(pattern, dialect)


def test_pattern_error_is_a_value_error_with_the_pattern_in_it() -> None:
    with pytest.raises(ValueError, match="a:::b"):
        compile_pattern("a:::b", Dialect.NAMES)
