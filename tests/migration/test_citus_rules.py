"""The schema keeps the rules that let Citus distribute it by project (docs/scaling.md).

Citus shards a table by one column and enforces a primary key, a unique key or a foreign key only when it
includes that column (so the check stays on one shard). scopedb's distribution column is ``project_id``; the few
tables that are not per project are reference tables, copied whole to every node. This test reads the migrated
catalog, so a new table or key that breaks a rule fails here before anyone tries to distribute it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import psycopg
import pytest

from scopedb import Database

SCHEMAS = ["scopedb", "scopedb_private"]
#: Not per project: replicated to every node. Everything else is distributed by project_id and co-located.
REFERENCE_TABLES = {
    "scopedb.projects",
    "scopedb_private.signing_keys",
    "scopedb_private.project_names_epoch",
    "scopedb_private.search_groups",  # declared by admins, read by every search (docs/scaling.md)
}
DISTRIBUTION_COLUMN = "project_id"

_TABLES = """
    SELECT c.oid::regclass::text,
           EXISTS (SELECT 1 FROM pg_attribute a
                    WHERE a.attrelid = c.oid AND a.attname = %(column)s AND a.attnotnull AND NOT a.attisdropped)
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = ANY (%(schemas)s) AND c.relkind IN ('r', 'p')
     ORDER BY 1"""

# Primary keys, unique constraints and unique indexes (a unique index is a unique key without the constraint).
_UNIQUE_KEYS = """
    SELECT i.indrelid::regclass::text, i.indexrelid::regclass::text,
           array(SELECT a.attname::text FROM unnest(i.indkey) WITH ORDINALITY k(attnum, ord)
                   JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum ORDER BY k.ord)
      FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = ANY (%(schemas)s) AND i.indisunique
     ORDER BY 1, 2"""

_FOREIGN_KEYS = """
    SELECT k.conrelid::regclass::text, k.conname, k.confrelid::regclass::text,
           array(SELECT a.attname::text FROM unnest(k.conkey) WITH ORDINALITY u(attnum, ord)
                   JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.attnum ORDER BY u.ord),
           array(SELECT a.attname::text FROM unnest(k.confkey) WITH ORDINALITY u(attnum, ord)
                   JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.attnum ORDER BY u.ord),
           k.confupdtype::text, k.confdeltype::text
      FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = ANY (%(schemas)s) AND k.contype = 'f'
     ORDER BY 1, 2"""


def citus_violations(conn: psycopg.Connection[Any], schemas: list[str], reference: set[str]) -> list[str]:
    """Every way the tables of ``schemas`` break Citus's rules for distribution by ``project_id``."""
    params = {"schemas": schemas, "column": DISTRIBUTION_COLUMN}
    problems: list[str] = []
    distributed: set[str] = set()
    for table, has_column in conn.execute(_TABLES, params).fetchall():
        if table in reference:
            continue
        distributed.add(table)
        if not has_column:
            problems.append(f"{table}: no NOT NULL {DISTRIBUTION_COLUMN} column to distribute by")
    for table, index, columns in conn.execute(_UNIQUE_KEYS, params).fetchall():
        if table in distributed and DISTRIBUTION_COLUMN not in columns:
            problems.append(f"{table}: unique key {index} ({', '.join(columns)}) does not include project_id")
    for table, name, target, columns, target_columns, on_update, on_delete in conn.execute(
        _FOREIGN_KEYS, params
    ).fetchall():
        if table in reference and target in distributed:
            problems.append(f"{table}: foreign key {name} from a reference table to a distributed one")
        if table in distributed and target in distributed:
            pairs = set(zip(columns, target_columns, strict=True))
            if (DISTRIBUTION_COLUMN, DISTRIBUTION_COLUMN) not in pairs:
                problems.append(f"{table}: foreign key {name} to {target} does not match project_id to project_id")
        # A key that includes the distribution column may not change the referencing rows on update (CASCADE,
        # SET NULL, SET DEFAULT), nor set them to NULL or a default on delete: Citus refuses it when distributing.
        if table in distributed and DISTRIBUTION_COLUMN in columns:
            if on_update in ("c", "n", "d"):
                problems.append(f"{table}: foreign key {name} changes its rows ON UPDATE ({on_update})")
            if on_delete in ("n", "d"):
                problems.append(f"{table}: foreign key {name} sets its rows ON DELETE ({on_delete})")
    return problems


#: Rules the schema breaks on purpose, each named in docs/scaling.md ("Graph edges on Citus"): graph edges carry
#: copies of their ends' scope values, kept equal by foreign keys that cascade a node's change (revision 0016).
KNOWN_DEPARTURES = [
    "scopedb.graph_edges: foreign key graph_edges_dst_fkey changes its rows ON UPDATE (c)",
    "scopedb.graph_edges: foreign key graph_edges_src_fkey changes its rows ON UPDATE (c)",
]


def test_the_migrated_schema_keeps_citus_rules(scopedb_db: Database) -> None:
    with psycopg.connect(scopedb_db.dsn) as conn:
        tables = {row[0] for row in conn.execute(_TABLES, {"schemas": SCHEMAS, "column": DISTRIBUTION_COLUMN})}
        assert {"scopedb.fragments", "scopedb.graph_edges", "scopedb.notes"} <= tables  # the query sees the schema
        assert tables >= REFERENCE_TABLES
        assert citus_violations(conn, SCHEMAS, REFERENCE_TABLES) == KNOWN_DEPARTURES
    scaling = Path(__file__).resolve().parents[2] / "docs" / "scaling.md"
    assert "### Graph edges on Citus" in scaling.read_text(encoding="utf-8")  # where the departures are explained


def test_the_rules_catch_each_kind_of_violation(scopedb_db: Database) -> None:
    """The checker itself: a scratch schema with one table per broken rule."""
    with psycopg.connect(scopedb_db.dsn) as conn:
        conn.execute("""
            CREATE SCHEMA citus_check;
            CREATE TABLE citus_check.tenants (id bigint PRIMARY KEY);
            CREATE TABLE citus_check.items (project_id bigint NOT NULL, id text, code text,
                                            PRIMARY KEY (project_id, id), UNIQUE (code));
            CREATE TABLE citus_check.no_column (id bigint PRIMARY KEY);
            CREATE TABLE citus_check.links (project_id bigint NOT NULL, item text, other bigint,
                                            PRIMARY KEY (project_id, item),
                                            CONSTRAINT links_item_fkey FOREIGN KEY (project_id, item)
                                                REFERENCES citus_check.items (project_id, id),
                                            CONSTRAINT links_other_fkey FOREIGN KEY (other)
                                                REFERENCES citus_check.no_column (id),
                                            CONSTRAINT links_tenant_fkey FOREIGN KEY (project_id)
                                                REFERENCES citus_check.tenants (id));
            CREATE UNIQUE INDEX items_code_lower ON citus_check.items (lower(code), project_id);
            CREATE TABLE citus_check.bad_reference (id bigint PRIMARY KEY, project_id bigint, item text,
                                                    CONSTRAINT bad_reference_fkey FOREIGN KEY (project_id, item)
                                                        REFERENCES citus_check.items (project_id, id));
        """)
        found = citus_violations(conn, ["citus_check"], {"citus_check.tenants", "citus_check.bad_reference"})
        conn.rollback()
    assert found == [
        "citus_check.no_column: no NOT NULL project_id column to distribute by",
        "citus_check.items: unique key citus_check.items_code_key (code) does not include project_id",
        "citus_check.no_column: unique key citus_check.no_column_pkey (id) does not include project_id",
        "citus_check.bad_reference: foreign key bad_reference_fkey from a reference table to a distributed one",
        "citus_check.links: foreign key links_other_fkey to citus_check.no_column does not match project_id to "
        "project_id",
    ]


@pytest.mark.parametrize("table", sorted(REFERENCE_TABLES))
def test_reference_tables_are_small_and_not_per_project(scopedb_db: Database, table: str) -> None:
    """A reference table is copied to every node: it must not hold per-project data rows."""
    with psycopg.connect(scopedb_db.dsn) as conn:
        columns = {
            row[0]
            for row in conn.execute(
                "SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass AND attnum > 0 AND NOT attisdropped",
                (table,),
            )
        }
    assert DISTRIBUTION_COLUMN not in columns
