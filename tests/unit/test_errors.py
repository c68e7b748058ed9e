"""Driver errors become typed scopedb errors that carry no row data."""

from __future__ import annotations

import psycopg
import pytest

from scopedb import errors


class FakeDiag:
    def __init__(self, primary: str, constraint: str | None = None, hint: str | None = None) -> None:
        self.message_primary = primary
        self.constraint_name = constraint
        self.message_hint = hint


class FakeError(psycopg.DatabaseError):
    """A driver error with a chosen SQLSTATE and diagnostics (psycopg errors cannot be built directly)."""

    def __init__(self, sqlstate: str, primary: str, constraint: str | None = None, hint: str | None = None) -> None:
        self._state = sqlstate
        self._fake_diag = FakeDiag(primary, constraint, hint)
        super().__init__(primary)

    @property
    def sqlstate(self) -> str | None:  # type: ignore[override]
        return self._state

    @property
    def diag(self) -> FakeDiag:  # type: ignore[override]
        return self._fake_diag


@pytest.mark.parametrize(
    ("state", "expected"),
    [
        ("SD001", errors.MalformedTokenError),
        ("SD002", errors.InvalidSignatureError),
        ("SD003", errors.ExpiredTokenError),
        ("SD004", errors.AudienceMismatchError),
        ("SD005", errors.UnknownProjectError),
        ("SD007", errors.UnprotectableTableError),
        ("SD008", errors.AmbiguousProjectError),
        ("42501", errors.PermissionDeniedError),
        ("23505", errors.UniqueViolationError),
        ("23503", errors.ForeignKeyViolationError),
        ("23514", errors.CheckViolationError),
        ("22012", errors.QueryError),
    ],
)
def test_sqlstates_map_to_typed_errors(state: str, expected: type[errors.ScopedbError]) -> None:
    assert type(errors.translate(FakeError(state, "x"))) is expected


def test_an_unprotectable_table_names_the_fix_from_the_hint() -> None:
    refused = errors.translate(FakeError("SD007", "cannot protect t: no column p", hint="ALTER TABLE t ADD ..."))
    assert str(refused) == "cannot protect t: no column p (fix: ALTER TABLE t ADD ...)"
    assert isinstance(refused, errors.InvalidArgumentError)


def test_permission_errors_are_scope_violations() -> None:
    assert isinstance(errors.translate(FakeError("42501", "permission denied")), errors.ScopeViolationError)


def test_row_data_in_driver_messages_is_dropped() -> None:
    leaky = FakeError("23505", 'duplicate key value violates unique constraint "fragments_pkey"', "fragments_pkey")
    message = str(errors.translate(leaky))
    assert "fragments_pkey" in message
    value_error = FakeError("22P02", 'invalid input syntax for type integer: "secret customer text"')
    assert "secret" not in str(errors.translate(value_error))


def test_default_messages_come_from_docstrings() -> None:
    assert str(errors.ExpiredTokenError()) == "The scope token has expired or is not valid yet."
