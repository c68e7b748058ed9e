"""scopedb.wire's placeholders read as psycopg reads them, and its record of prepared names (no database needed;
tests/integration/test_round_trips.py compares whole statements with a cursor's on a real server)."""

from __future__ import annotations

import pytest
from psycopg._queries import PostgresQuery  # psycopg's own reading of placeholders: the reference here only
from psycopg.adapt import Transformer

from scopedb import sqlfiles, wire


@pytest.mark.parametrize(
    ("query", "params"),
    [
        ("SELECT %s, %b, %t", (1, 2, 3)),
        ("SELECT %(a)s, %(b)b, %(a)s", {"a": 1, "b": 2}),
        ("SELECT '100%%', %s", (1,)),
        ("SELECT '100%%'", ()),
        ("SELECT 'ünïcode', %(ä)s", {"ä": 1}),
        ("SELECT 1", {}),
    ],
)
def test_a_caller_s_placeholders_are_numbered_as_psycopg_numbers_them(query: str, params: object) -> None:
    reference = PostgresQuery(Transformer())
    reference.convert(query, params)  # type: ignore[arg-type]
    converted = wire.convert_caller(query, isinstance(params, dict), "utf-8")
    assert converted.sql == reference.query


@pytest.mark.parametrize(
    ("query", "named", "why"),
    [
        ("SELECT %x", False, "not a placeholder"),
        ("SELECT %s, %(a)s", True, "do not match"),  # both kinds
        ("SELECT %s", True, "do not match"),  # positional placeholders, a mapping
        ("SELECT %(a)s", False, "do not match"),  # named placeholders, a sequence
        ("SELECT %(a)s, %(a)b", True, "two formats"),
        ("SELECT 5 %", False, "ends the statement"),
    ],
)
def test_what_psycopg_would_refuse_is_left_to_psycopg(query: str, named: bool, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        wire.convert_caller(query, named, "utf-8")


def test_scopedb_s_own_statements_convert_and_take_named_placeholders_only() -> None:
    for name in sqlfiles.KEPT:
        converted = wire.convert(sqlfiles.query(*name))
        assert b"%(" not in converted.sql
        assert len(set(converted.names)) == len(converted.names)
    with pytest.raises(ValueError, match="named placeholders only"):
        wire.convert("SELECT %s")


def test_a_name_is_recorded_only_when_remembered_and_never_reused() -> None:
    registry = wire.Prepared()
    bound = wire.Bound(b"SELECT $1", (b"1",), (23,), ())
    first, new = registry.name_for(bound)
    assert new
    again, new = registry.name_for(bound)  # not remembered yet (its preparation did not succeed): a new name
    assert new
    assert again != first
    registry.remember(bound, again)
    assert registry.name_for(bound) == (again, False)
    assert registry.name_for(wire.Bound(b"SELECT $1", (b"1",), (20,), ()))[1]  # another parameter type
    registry.forget()
    latest, new = registry.name_for(bound)
    assert new
    assert latest not in {first, again}
