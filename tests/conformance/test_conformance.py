"""One runner, two dialects, two ports: every expectation of each corpus must hold for the Python matcher
(scopedb.patterns on Python's ``re``) AND for PostgreSQL (scopedb.patterns_admit on the same compiled patterns,
evaluated by PostgreSQL's regex engine). A corpus entry that either port disagrees with fails the build."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import psycopg
import pytest

from scopedb import Database
from scopedb.patterns import Dialect, PatternError, compile_body, compile_scope

HERE = Path(__file__).parent
CORPORA = {Dialect.NAMES: HERE / "names.json", Dialect.PATHS: HERE / "paths.json"}


def _load(dialect: Dialect) -> dict[str, Any]:
    corpus: dict[str, Any] = json.loads(CORPORA[dialect].read_text(encoding="utf-8"))
    assert corpus["dialect"] == dialect.value
    return corpus


def _expectations(dialect: Dialect) -> list[tuple[str, list[str], list[str], str, bool]]:
    rows = []
    for case in _load(dialect)["cases"]:
        include, exclude = case["scope"].get("include", []), case["scope"].get("exclude", [])
        for expect in case["expect"]:
            rows.append((case["name"], include, exclude, expect["fqn"], expect["matches"]))
    return rows


@pytest.mark.parametrize("dialect", list(Dialect))
def test_corpus_is_large_enough_and_well_formed(dialect: Dialect) -> None:
    corpus = _load(dialect)
    names = [case["name"] for case in corpus["cases"]]
    assert len(names) == len(set(names)), "case names must be unique"
    assert len(_expectations(dialect)) >= 40
    assert len(corpus["invalid_patterns"]) >= 10


def test_names_corpus_contains_every_published_case() -> None:
    published = json.loads((HERE / "published" / "fqn-scope-cases.json").read_text(encoding="utf-8"))["cases"]
    ours = {case["name"]: case for case in _load(Dialect.NAMES)["cases"]}
    for case in published:
        assert case["name"] in ours, f"published case {case['name']} is missing"
        mine = ours[case["name"]]
        assert mine["scope"] == case["scope"]
        assert mine["expect"] == case["expect"]


@pytest.mark.parametrize("dialect", list(Dialect))
def test_python_port(dialect: Dialect) -> None:
    failures = []
    for case, include, exclude, subject, expected in _expectations(dialect):
        got = compile_scope(include, exclude, dialect).matches(subject)
        if got != expected:
            failures.append(f"{case}: {subject!r} -> {got}, corpus says {expected}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("dialect", list(Dialect))
def test_sql_port(dialect: Dialect, scopedb_db: Database) -> None:
    rows = _expectations(dialect)
    params = [
        (subject, [compile_body(p, dialect) for p in include], [compile_body(p, dialect) for p in exclude])
        for _, include, exclude, subject, _ in rows
    ]
    with psycopg.connect(scopedb_db.dsn) as conn, conn.cursor() as cur:
        cur.executemany("SELECT scopedb.patterns_admit(%s, %s::text[], %s::text[])", params, returning=True)
        answers = []
        while True:
            answers.append(cur.fetchone()[0])  # type: ignore[index]
            if not cur.nextset():
                break
    failures = [
        f"{case}: {subject!r} -> {got}, corpus says {expected}"
        for (case, _, _, subject, expected), got in zip(rows, answers, strict=True)
        if got != expected
    ]
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("dialect", list(Dialect))
def test_invalid_patterns_are_rejected_with_a_clear_error(dialect: Dialect) -> None:
    for entry in _load(dialect)["invalid_patterns"]:
        with pytest.raises(PatternError) as err:
            compile_body(entry["pattern"], dialect)
        assert dialect.value.rstrip("s") in str(err.value) or "pattern" in str(err.value)
