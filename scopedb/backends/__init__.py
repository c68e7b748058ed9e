"""Text, vector and graph backends: in-memory reference implementations and (later) PostgreSQL ones."""

from scopedb.backends.base import (
    FragmentRecord,
    GraphBackend,
    GraphEdge,
    GraphNode,
    GraphResult,
    TextBackend,
    TextHit,
    VectorBackend,
    VectorHit,
)
from scopedb.backends.memory import InMemoryGraphBackend, InMemoryTextBackend, InMemoryVectorBackend
from scopedb.backends.postgres import PgGraphBackend, PgTextBackend, PgVectorBackend

__all__ = [
    "FragmentRecord",
    "GraphBackend",
    "GraphEdge",
    "GraphNode",
    "GraphResult",
    "InMemoryGraphBackend",
    "InMemoryTextBackend",
    "InMemoryVectorBackend",
    "PgGraphBackend",
    "PgTextBackend",
    "PgVectorBackend",
    "TextBackend",
    "TextHit",
    "VectorBackend",
    "VectorHit",
]
