"""Protecting a service's own tables from its alembic migrations, by hand or by autogenerate.

In a migration::

    import scopedb.alembic

    def upgrade() -> None:
        op.create_table("invoices", ..., schema="billing")
        scopedb.alembic.protect_table(op, "billing.invoices", project_column="project_id")
        # or, once scopedb.alembic is imported: op.protect_table("billing.invoices", project_column="project_id")

    def downgrade() -> None:
        scopedb.alembic.unprotect_table(op, "billing.invoices")
        op.drop_table("invoices", schema="billing")

Both run ``scopedb.protect_table`` / ``scopedb.unprotect_table`` (``sql/04_protected_tables.sql``) in the
migration's transaction, so a refused table (:class:`~scopedb.errors.UnprotectableTableError`, naming the fix) rolls
the whole revision back. Offline (``alembic upgrade --sql``) they print the same calls.

Autogenerate: a model marked protected (:class:`scopedb.sqlalchemy.ProjectScoped`) that the database does not yet
record as protected gets ``op.protect_table(...)`` right after its ``create_table`` (or at the end, for an existing
table), and the downgrade ``op.unprotect_table(...)`` before its ``drop_table``. Importing this module is what
registers the operations, the comparator and the renderer: import it in the service's ``env.py``. The comparator
asks ``scopedb_audit.service_tables`` which tables are protected, so reflect the service's schemas
(``include_schemas=True``) as usual.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa
from alembic.autogenerate import comparators, renderers
from alembic.autogenerate.api import AutogenContext
from alembic.operations import MigrateOperation, Operations
from alembic.operations.ops import CreateTableOp, ModifyTableOps, UpgradeOps
from alembic.util import DispatchPriority, PriorityDispatchResult

from scopedb import sqlfiles
from scopedb.admin import Protection
from scopedb.errors import translate
from scopedb.sqlalchemy import PROTECT_INFO_KEY

__all__ = ["ProtectTableOp", "UnprotectTableOp", "protect_table", "unprotect_table"]

# The statements Admin runs too (sql/queries/admin.sql), with SQLAlchemy's binds so that alembic can also print them.
_PROTECT = sa.text(sqlfiles.text_query("admin", "protect_table"))
_UNPROTECT = sa.text(sqlfiles.text_query("admin", "unprotect_table"))
_RECORDED = sa.text(sqlfiles.text_query("admin", "protected_table_names"))


@Operations.register_operation("protect_table")
class ProtectTableOp(MigrateOperation):
    """``op.protect_table(table, project_column=..., ...)``: see :meth:`scopedb.Admin.protect_table`."""

    def __init__(self, table: str, protection: Protection) -> None:
        self.table = table
        self.protection = protection

    @classmethod
    def protect_table(
        cls,
        operations: Operations,
        table: str,
        *,
        project_column: str = "project_id",
        resource_column: str | None = None,
        path_column: str | None = None,
        name_column: str | None = None,
        allow_delete: bool = False,
    ) -> None:
        """Protect ``table`` (schema-qualified) with the scope; see :meth:`scopedb.Admin.protect_table`."""
        protection = Protection(project_column, resource_column, path_column, name_column, allow_delete)
        operations.invoke(cls(table, protection))

    def reverse(self) -> UnprotectTableOp:
        return UnprotectTableOp(self.table, self.protection)

    def to_diff_tuple(self) -> tuple[Any, ...]:
        return ("protect_table", self.table, self.protection)


@Operations.register_operation("unprotect_table")
class UnprotectTableOp(MigrateOperation):
    """``op.unprotect_table(table)``: the undo of :class:`ProtectTableOp`."""

    def __init__(self, table: str, protection: Protection | None = None) -> None:
        self.table = table
        self.protection = protection  # what reverse() restores

    @classmethod
    def unprotect_table(cls, operations: Operations, table: str) -> None:
        """Remove what ``protect_table`` made on ``table``; scopedb_app can no longer reach it."""
        operations.invoke(cls(table))

    def reverse(self) -> ProtectTableOp:
        return ProtectTableOp(self.table, self.protection or Protection())

    def to_diff_tuple(self) -> tuple[Any, ...]:
        return ("unprotect_table", self.table)


def protect_table(
    op: Any,
    table: str,
    *,
    project_column: str = "project_id",
    resource_column: str | None = None,
    path_column: str | None = None,
    name_column: str | None = None,
    allow_delete: bool = False,
) -> None:
    """``scopedb.alembic.protect_table(op, "billing.invoices", project_column="project_id")`` in a migration."""
    op.protect_table(
        table,
        project_column=project_column,
        resource_column=resource_column,
        path_column=path_column,
        name_column=name_column,
        allow_delete=allow_delete,
    )


def unprotect_table(op: Any, table: str) -> None:
    """``scopedb.alembic.unprotect_table(op, "billing.invoices")``: the downgrade of :func:`protect_table`."""
    op.unprotect_table(table)


def _execute(operations: Operations, statement: sa.TextClause, params: dict[str, Any]) -> None:
    """Run a protect or unprotect call in the migration's transaction; driver errors become scopedb's own."""
    try:
        operations.execute(statement.bindparams(**params))
    except sa.exc.DBAPIError as exc:
        orig = exc.orig
        import psycopg

        if isinstance(orig, psycopg.Error):
            raise translate(orig) from exc
        raise


@Operations.implementation_for(ProtectTableOp)
def _protect(operations: Operations, operation: ProtectTableOp) -> None:
    _execute(operations, _PROTECT, operation.protection.params(operation.table))


@Operations.implementation_for(UnprotectTableOp)
def _unprotect(operations: Operations, operation: UnprotectTableOp) -> None:
    _execute(operations, _UNPROTECT, {"table": operation.table})


# Autogenerate ----------------------------------------------------------------------------------------------------


_PLAIN = re.compile(r"^[a-z_][a-z0-9_$]*$")


def _ident(name: str) -> str:
    """An identifier as PostgreSQL prints it (regclass output): quoted unless plain lower case."""
    return name if _PLAIN.match(name) else '"' + name.replace('"', '""') + '"'


def _qualified(schema: str | None, name: str, default_schema: str | None) -> str:
    """schema.table as ``regclass`` prints it, which is how the database records protected tables."""
    return f"{_ident(schema or default_schema or 'public')}.{_ident(name)}"


def _recorded(autogen_context: AutogenContext) -> set[tuple[str, str]] | None:
    """(schema, table) of every table the database records as protected (None when it cannot say: not
    PostgreSQL, or no scopedb there)."""
    conn = autogen_context.connection
    if conn is None or autogen_context.dialect is None or autogen_context.dialect.name != "postgresql":
        return None
    try:
        with conn.begin_nested():  # a refused read must not abort the migration's transaction
            return {(str(row[0]), str(row[1])) for row in conn.execute(_RECORDED)}
    except sa.exc.DBAPIError:
        return None


@comparators.dispatch_for("schema", priority=DispatchPriority.LAST)
def _compare_protection(
    autogen_context: AutogenContext, upgrade_ops: UpgradeOps, schemas: Iterable[str | None]
) -> PriorityDispatchResult:
    """Emit protect_table for every table the models mark protected and the database does not record.

    Runs after alembic's own table comparison (priority LAST), so a new table's operation lands right after its
    ``create_table`` and the ``create_index`` calls that follow it.
    """
    recorded = _recorded(autogen_context)
    if recorded is None or autogen_context.metadata is None:
        return PriorityDispatchResult.CONTINUE
    compared = set(schemas)
    default = autogen_context.dialect.default_schema_name if autogen_context.dialect else None
    done = {_qualified(schema, name, default) for schema, name in recorded}
    marked: dict[str, Protection] = {}
    for table in autogen_context.sorted_tables:
        protection = table.info.get(PROTECT_INFO_KEY)
        in_scope = table.schema in compared or (table.schema == default and None in compared)
        if isinstance(protection, Protection) and in_scope:
            marked[_qualified(table.schema, table.name, default)] = protection
    reordered: list[Any] = []
    pending: tuple[tuple[str | None, str], ProtectTableOp] | None = None
    for operation in upgrade_ops.ops:
        follows = isinstance(operation, ModifyTableOps) and (operation.schema, operation.table_name) == (
            pending[0] if pending is not None else None
        )
        if pending is not None and not follows:
            reordered.append(pending[1])
            pending = None
        reordered.append(operation)
        if isinstance(operation, CreateTableOp):
            operation.info.pop(PROTECT_INFO_KEY, None)  # not a create_table argument
            name = _qualified(operation.schema, operation.table_name, default)
            if name in marked and name not in done:
                pending = ((operation.schema, operation.table_name), ProtectTableOp(name, marked[name]))
                done.add(name)
    if pending is not None:
        reordered.append(pending[1])
    for name, protection in marked.items():
        if name not in done:
            reordered.append(ProtectTableOp(name, protection))
    upgrade_ops.ops[:] = reordered
    return PriorityDispatchResult.CONTINUE


def _arguments(protection: Protection) -> str:
    """The keyword arguments of the rendered call: the project column always, the others when not the default."""
    defaults = Protection()
    parts = [
        f"{f.name}={getattr(protection, f.name)!r}"
        for f in dataclasses.fields(protection)
        if getattr(protection, f.name) != getattr(defaults, f.name) or f.name == "project_column"
    ]
    return ", ".join(parts)


@renderers.dispatch_for(ProtectTableOp)
def _render_protect(autogen_context: AutogenContext, operation: ProtectTableOp) -> str:
    autogen_context.imports.add("import scopedb.alembic  # noqa: F401  (registers op.protect_table)")
    return f"op.protect_table({operation.table!r}, {_arguments(operation.protection)})"


@renderers.dispatch_for(UnprotectTableOp)
def _render_unprotect(autogen_context: AutogenContext, operation: UnprotectTableOp) -> str:
    autogen_context.imports.add("import scopedb.alembic  # noqa: F401  (registers op.unprotect_table)")
    return f"op.unprotect_table({operation.table!r})"
