"""Text, vector and graph backends: the protocols and the in-memory reference implementations.

The PostgreSQL backends live in :mod:`scopedb.backends.postgres` and are imported from there, so this package (and
the view layer above it) stays free of the database driver.
"""

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
