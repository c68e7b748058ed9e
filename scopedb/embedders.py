"""Embedders: text to vectors, pluggable.

scopedb stores and searches embeddings; it does not choose a model. Anything with the shape
``Callable[[str], Sequence[float]]`` works (pass ``--embedder module:attribute`` on the command line). The default,
:class:`HashingEmbedder`, needs nothing: it hashes words and word pairs into a fixed number of signed buckets.
That gives lexical, not semantic, similarity — enough for the demo and for tests, deterministic everywhere.
"""

from __future__ import annotations

import hashlib
import importlib
import itertools
import math
import re
from collections.abc import Callable, Sequence

from scopedb.errors import ConfigurationError

Embedder = Callable[[str], Sequence[float]]
_WORD = re.compile(r"\w+", re.UNICODE)


class HashingEmbedder:
    """Signed feature hashing of words and adjacent word pairs, L2-normalised."""

    def __init__(self, dim: int = 384) -> None:
        if dim < 1:
            raise ConfigurationError("an embedding needs at least one dimension")
        self.dim = dim

    def __call__(self, text: str) -> list[float]:
        words = [w.lower() for w in _WORD.findall(text)]
        features = words + [f"{a} {b}" for a, b in itertools.pairwise(words)]
        vector = [0.0] * self.dim
        for feature in features:
            digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
            bucket = int.from_bytes(digest[:4], "little") % self.dim
            vector[bucket] += 1.0 if digest[4] & 1 else -1.0
        norm = math.sqrt(sum(x * x for x in vector))
        if norm == 0:
            vector[0] = 1.0  # the zero vector has no cosine distance; give empty text a direction of its own
            return vector
        return [x / norm for x in vector]


def load_embedder(spec: str | None, *, dim: int) -> Embedder:
    """``None`` for the hashing embedder, or ``module:attribute`` naming an embedder (or a factory taking ``dim``)."""
    if spec is None:
        return HashingEmbedder(dim)
    module_name, sep, attribute = spec.partition(":")
    if not sep:
        raise ConfigurationError("an embedder is given as module:attribute")
    try:
        target = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as exc:
        raise ConfigurationError(f"cannot load embedder {spec!r}: {type(exc).__name__}") from None
    if isinstance(target, type):
        return target(dim)  # type: ignore[no-any-return]
    return target  # type: ignore[no-any-return]
