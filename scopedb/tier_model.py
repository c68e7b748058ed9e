"""Hot, warm and cold context tiers for fragments, in PostgreSQL, inside the caller's scope: the model.

The services that move fragments between tiers are :class:`scopedb.tiers.ContextTierService` and its async source
:class:`scopedb.tiers_async.AsyncContextTierService`.

A service keeps what an agent needs soon in ``hot``, the rest in ``warm``, and summaries in ``cold``. A
:class:`TierBudget` bounds each tier per project (fragments and tokens); when a tier overflows, its least recently
accessed fragments move down a tier (hot -> warm -> cold -> evicted) in one transaction. Demotion to cold replaces
long content with a summary (pluggable; extractive by default) and keeps the original aside, owner-only
(:meth:`scopedb.Admin.original_content`); promotion out of cold restores it.

Every statement runs as ``scopedb_app`` under a scope, so RLS bounds the service as it bounds any query. Moves lock
their rows (``FOR UPDATE``; batch moves ``SKIP LOCKED``) and budget enforcement takes a per-project lock (a row lock
that no other tenant can name), so concurrent writers and evictors never lose or double-move a fragment.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from scopedb.errors import ScopeViolationError

Tier = Literal["hot", "warm", "cold"]
TIERS: tuple[Tier, ...] = ("hot", "warm", "cold")
Summarizer = Callable[[str], str]


@dataclass(frozen=True)
class TierLimit:
    """At most ``max_fragments`` fragments and ``max_tokens`` tokens in one tier of one project."""

    max_fragments: int
    max_tokens: int


@dataclass(frozen=True)
class TierBudget:
    """Per-project limits for each tier."""

    hot: TierLimit = TierLimit(max_fragments=64, max_tokens=16_000)
    warm: TierLimit = TierLimit(max_fragments=1_024, max_tokens=256_000)
    cold: TierLimit = TierLimit(max_fragments=16_384, max_tokens=2_000_000)

    def limit(self, tier: Tier) -> TierLimit:
        """The limit of ``tier``."""
        return {"hot": self.hot, "warm": self.warm, "cold": self.cold}[tier]


@dataclass(frozen=True)
class StoredFragment:
    """A fragment as the tier service returns it."""

    id: str
    project_name: str
    resource_id: str | None
    tier: Tier
    content: str
    token_count: int
    last_accessed_at: dt.datetime
    created_by: str | None


@dataclass(frozen=True)
class TierMove:
    """One fragment moving between tiers (``to`` is None when it was evicted)."""

    project_name: str
    id: str
    frm: Tier
    to: Tier | None


@dataclass(frozen=True)
class TierMetrics:
    """Fragments and tokens per tier of one project, as the scope sees them."""

    project_name: str
    fragments: dict[str, int] = field(default_factory=dict)
    tokens: dict[str, int] = field(default_factory=dict)

    @property
    def hot(self) -> int:
        return self.fragments.get("hot", 0)

    @property
    def warm(self) -> int:
        return self.fragments.get("warm", 0)

    @property
    def cold(self) -> int:
        return self.fragments.get("cold", 0)


_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def extractive_summary(text: str, *, max_chars: int = 320) -> str:
    """The first sentences of ``text`` that fit in ``max_chars`` (cut at a word when one sentence is longer)."""
    summary = ""
    for sentence in _SENTENCE.split(text.strip()):
        candidate = f"{summary} {sentence}".strip()
        if len(candidate) > max_chars:
            break
        summary = candidate
    if not summary:
        summary = text[:max_chars].rsplit(" ", 1)[0] if " " in text[:max_chars] else text[:max_chars]
    return summary + " …" if len(summary) < len(text.strip()) else summary


def word_tokens(text: str) -> int:
    """The default token count: whitespace-separated words."""
    return len(text.split())


class FragmentNotInScopeError(ScopeViolationError, ValueError):
    """The fragment is not visible in this scope (whether it exists elsewhere is not said)."""
