"""Loading SQL by name and rendering the schema's one variable."""

from __future__ import annotations

import pytest

from scopedb import sqlfiles
from scopedb.errors import ConfigurationError


def test_schema_files_are_ordered_by_concern() -> None:
    names = [p.name for p in sqlfiles.schema_files()]
    assert names == sorted(names)
    assert [n.split("_", 1)[1] for n in names][:5] == [
        "roles.sql",
        "schema.sql",
        "functions.sql",
        "policies.sql",
        "protected_tables.sql",
        "grants.sql",
    ][:5]


def test_render_replaces_only_the_psql_variable() -> None:
    text = "embedding vector(:embedding_dim), x::text, ':embedding_dim_other'"
    assert sqlfiles.render(text, embedding_dim=8) == "embedding vector(8), x::text, ':embedding_dim_other'"


@pytest.mark.parametrize("dim", [0, -1, 2001, True, 3.5])
def test_bad_embedding_dimensions_are_refused(dim: object) -> None:
    with pytest.raises(ConfigurationError):
        sqlfiles.check_embedding_dim(dim)  # type: ignore[arg-type]


def test_named_queries_load_and_unknown_names_fail_clearly() -> None:
    assert "INSERT INTO scopedb.projects" in sqlfiles.query("admin", "create_project")
    with pytest.raises(ConfigurationError):
        sqlfiles.query("admin", "no_such_query")


def test_a_named_query_for_sqlalchemy_has_named_binds() -> None:
    text = sqlfiles.text_query("admin", "protect_table")
    assert ":table" in text
    assert ":allow_delete" in text
    assert "%(" not in text
    assert "::text" in text  # casts stay casts
