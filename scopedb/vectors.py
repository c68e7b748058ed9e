"""Embeddings as pgvector stores them: checked, float32, and sent in pgvector's binary format.

The bulk path sends embeddings in binary: formatting 128 floats as text per row cost more than the database spent
inserting the row. A connection learns the binary format once (:data:`VECTOR_READY`); the session modules do that
when an operation asks for it (:data:`scopedb.steps.VECTOR_TYPES`).
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np
import psycopg
from pgvector import Vector
from psycopg.adapt import Dumper
from psycopg.pq import Format

from scopedb.errors import InvalidArgumentError

#: Connections (sync or async) that have pgvector's types registered.
VECTOR_READY: weakref.WeakSet[Any] = weakref.WeakSet()


def vector_literal(values: Sequence[float] | None, dimension: int | None = None) -> str | None:
    """pgvector's text form of an embedding, after the checks of :func:`vector_array`."""
    array = vector_array(values, dimension)
    if array is None:
        return None
    return "[" + ",".join(repr(v) for v in array.tolist()) + "]"


class QueryVector:
    """An embedding bound as a statement's parameter in pgvector's binary format (``%(name)b::vector``).

    Its dumper names no type (oid 0), so the server takes the parameter's type from the statement's cast: the
    connection needs no catalog lookup of the vector type (its oid differs from database to database), and a
    request stays one round trip. Formatting 128 floats as text cost 0.07-0.13 ms per search; packing them, 3 µs.
    The packing is pgvector's own (``pgvector.Vector.to_binary``).
    """

    __slots__ = ("binary",)

    def __init__(self, array: np.ndarray[Any, np.dtype[np.float32]]) -> None:
        self.binary = bytes(Vector(array).to_binary())


class _QueryVectorDumper(Dumper):
    format = Format.BINARY

    def dump(self, obj: QueryVector) -> bytes:
        return obj.binary


# Registered for scopedb's own class only: no other type's adaptation changes, on any connection.
psycopg.adapters.register_dumper(QueryVector, _QueryVectorDumper)


def teach_query_vectors(conn: psycopg.Connection[Any] | psycopg.AsyncConnection[Any]) -> None:
    """Register the query vectors' dumper on ``conn`` itself. A connection copies psycopg's global adapters when it
    is made, so one made before this module was imported (a service's own engine, say) would not know them; scopedb
    calls this on every connection it prepares (``scopedb.lifecycle.prepare_connection``)."""
    conn.adapters.register_dumper(QueryVector, _QueryVectorDumper)


def query_vector(values: Sequence[float] | None, dimension: int | None = None) -> QueryVector | None:
    """An embedding to search by, after the checks of :func:`vector_array`, ready to bind in binary."""
    array = vector_array(values, dimension)
    return None if array is None else QueryVector(array)


def vector_array(
    values: Sequence[float] | None, dimension: int | None = None
) -> np.ndarray[Any, np.dtype[np.float32]] | None:
    """An embedding as the float32 array pgvector stores: a flat sequence of finite numbers, ``dimension`` wide
    when that is given, each fitting a 32-bit float. Anything else is an :class:`InvalidArgumentError`.

    The bulk path sends these in pgvector's binary format: formatting 128 floats as text per row cost more than
    the database spent inserting the row.
    """
    if values is None:
        return None
    if isinstance(values, str | bytes) or not isinstance(values, Sequence | np.ndarray):
        raise InvalidArgumentError("an embedding is a sequence of numbers")
    try:
        raw = np.asarray(values)
    except (TypeError, ValueError):
        raise InvalidArgumentError("an embedding must contain only numbers") from None
    if raw.ndim != 1 or raw.dtype.kind not in "fiu":
        raise InvalidArgumentError("an embedding must be a flat sequence of numbers")
    if dimension is not None and len(raw) != dimension:
        raise InvalidArgumentError(f"embedding has {len(raw)} dimensions; the database stores {dimension}")
    with np.errstate(over="ignore"):
        array = raw.astype(np.float32)
    if not np.isfinite(array).all():
        raise InvalidArgumentError("an embedding must not contain NaN or infinity, nor overflow a 32-bit float")
    return array
