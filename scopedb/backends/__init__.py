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

__all__ = [
    "FragmentRecord",
    "GraphBackend",
    "GraphEdge",
    "GraphNode",
    "GraphResult",
    "InMemoryGraphBackend",
    "InMemoryTextBackend",
    "InMemoryVectorBackend",
    "TextBackend",
    "TextHit",
    "VectorBackend",
    "VectorHit",
]
