"""Search hits are made from rows without the dataclasses' ``__init__`` (scopedb.retrieval._fragment says why): the
records must be the ones the constructors make, every field set, nothing more."""

from __future__ import annotations

import dataclasses

import pytest

from scopedb.backends.base import FragmentRecord, TextHit, VectorHit
from scopedb.retrieval import _fragment, _text_hit, _vector_hit

NAMES = {7: "acme/api"}
ROW = (7, "f1", "r1", "src/auth.py", "auth.login", "def login(): ...", 0.25, "…login…")
RECORD = FragmentRecord(
    id="f1", project_name="acme/api", content="def login(): ...", resource_id="r1", path="src/auth.py", fqn="auth.login"
)


def test_a_row_makes_the_record_its_constructor_makes() -> None:
    made = _fragment(NAMES, ROW)
    assert made == RECORD
    # Every field, and only the fields: a field added to the class and not to _fragment fails here.
    assert vars(made) == vars(RECORD)
    assert set(vars(made)) == {f.name for f in dataclasses.fields(FragmentRecord)}
    assert hash(made) == hash(RECORD)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.id = "f2"  # type: ignore[misc]


def test_a_row_makes_the_hits_their_constructors_make() -> None:
    text = _text_hit(NAMES, ROW)
    assert text == TextHit(fragment=RECORD, rank=0.25, snippet="…login…")
    assert vars(text) == vars(TextHit(fragment=RECORD, rank=0.25, snippet="…login…"))
    vector = _vector_hit(NAMES, ROW)
    assert vector == VectorHit(fragment=RECORD, distance=0.25)
    assert vars(vector) == vars(VectorHit(fragment=RECORD, distance=0.25))
    # The rank and the distance are floats whatever the driver gave (a real, a double, or an integer).
    assert type(_vector_hit(NAMES, (*ROW[:6], 1, "")).distance) is float
    assert type(_text_hit(NAMES, (*ROW[:6], 1, "")).rank) is float


def test_a_project_the_scope_does_not_name_belongs_to_none() -> None:
    assert _fragment({}, ROW).project_name == ""
