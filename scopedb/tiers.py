"""Hot, warm and cold context tiers for fragments, in PostgreSQL, inside the caller's scope.

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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from scopedb import sqlfiles
from scopedb.database import Database
from scopedb.errors import InvalidArgumentError, ScopeViolationError
from scopedb.scope import ResourceScope
from scopedb.session import ScopedSession

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


class ContextTierService:
    """Tiers over ``scopedb.fragments`` (see the module docstring).

    ``projects`` are the projects this service is configured for: they bound ``get_for_actor`` without projects. The
    projects it stores into join those ``evict_lru`` without a project works through (maintenance), but never what
    a read returns: a service shared by several tenants must not answer one tenant from another's projects. Give
    each tenant (or request) its own service, configured with that tenant's projects.
    """

    def __init__(
        self,
        db: Database,
        *,
        budget: TierBudget | None = None,
        summarizer: Summarizer = extractive_summary,
        summarize_over: int = 480,
        tokenizer: Callable[[str], int] = word_tokens,
        actor: str = "service",
        projects: Iterable[str] = (),
        on_move: Callable[[TierMove], None] | None = None,
    ) -> None:
        self.db = db
        self._budget = budget or TierBudget()
        self.summarizer = summarizer
        self.summarize_over = summarize_over
        self.tokenizer = tokenizer
        self.actor = actor
        self._configured: frozenset[str] = frozenset(projects)
        self._projects: set[str] = set(self._configured)
        # Called for every move after its transaction commits (metrics, logs); never inside the transaction.
        self.on_move = on_move

    @property
    def budget(self) -> TierBudget:
        """The per-project tier budget."""
        return self._budget

    # Writes ---------------------------------------------------------------------------------------------------------

    def store(
        self,
        fragment_id: str,
        *,
        project: str,
        content: str = "",
        resource_id: str | None = None,
        tier: Tier = "warm",
        path: str | None = None,
        fqn: str | None = None,
    ) -> StoredFragment:
        """Store (or replace) a fragment of ``project`` in ``tier``, then bring the project back within budget."""
        return self._store(
            ResourceScope(project_names={project}), fragment_id, project, content, resource_id, tier, path, fqn
        )

    def store_with_scope_check(
        self,
        scope: ResourceScope,
        fragment_id: str,
        *,
        project: str,
        content: str = "",
        resource_id: str | None = None,
        tier: Tier = "warm",
        path: str | None = None,
        fqn: str | None = None,
    ) -> StoredFragment:
        """:meth:`store` for a caller limited to ``scope``: a project or resource outside it is refused here, and
        the database refuses it again (the write runs under ``scope``)."""
        if not scope.contains_project(project):
            raise ScopeViolationError(
                "the fragment's project is outside the scope",
                resource_ids=[resource_id] if resource_id else [],
                scope_project_names=scope.project_names,
                outside_project_names=[project],
            )
        if (resource_id and not scope.contains_resource(resource_id)) or (not resource_id and scope.narrows_resources):
            raise ScopeViolationError(
                "the fragment's resource is outside the scope",
                resource_ids=[resource_id] if resource_id else [],
                scope_project_names=scope.project_names,
            )
        return self._store(scope, fragment_id, project, content, resource_id, tier, path, fqn)

    def _store(
        self,
        scope: ResourceScope,
        fragment_id: str,
        project: str,
        content: str,
        resource_id: str | None,
        tier: Tier,
        path: str | None,
        fqn: str | None,
    ) -> StoredFragment:
        if not fragment_id or not str(fragment_id).strip():
            raise ValueError("fragment_id must be a non-empty string")
        if tier not in TIERS:
            raise InvalidArgumentError(f"tier must be one of {', '.join(TIERS)}")
        with self.db.scoped(scope, actor=self.actor) as s:
            project_id = self._project_id(s, project)
            row = s.execute(
                sqlfiles.query("tiers", "store"),
                {
                    "project_id": project_id,
                    "id": fragment_id,
                    "resource_id": resource_id or None,
                    "path": path,
                    "fqn": fqn,
                    "content": content,
                    "tier": tier,
                    "token_count": self.tokenizer(content),
                    "actor": self.actor,
                },
            ).one()
            stored = self._fragment(s, row)
            moves = self._enforce(s, project, project_id)
        self._projects.add(project)
        self._report(moves)
        return stored

    # Reads ----------------------------------------------------------------------------------------------------------

    def get_scoped(self, fragment_id: str, scope: ResourceScope) -> StoredFragment | None:
        """The fragment if ``scope`` sees it (reading touches it for LRU), else None."""
        with self.db.scoped(scope, actor=self.actor) as s:
            rows = s.execute(
                sqlfiles.query("tiers", "touch"), {"id": fragment_id, "projects": list(s.project_ids)}
            ).rows
            return self._fragment(s, rows[0]) if rows else None

    def get_scoped_by_resource(self, scope: ResourceScope) -> list[StoredFragment]:
        """Every fragment ``scope`` sees (its projects, narrowed by its resources and denials)."""
        with self.db.scoped(scope, actor=self.actor) as s:
            rows = s.execute(sqlfiles.query("tiers", "visible"), {"projects": list(s.project_ids)}).rows
            return [self._fragment(s, row) for row in rows]

    def get_scoped_view(self, project_names: Iterable[str]) -> list[StoredFragment]:
        """Every fragment of ``project_names`` ([] for no projects)."""
        names = frozenset(project_names)
        if not names:
            return []
        return self.get_scoped_by_resource(ResourceScope(project_names=names))

    def get_for_actor(self, actor: str, project_names: Iterable[str] | None = None) -> list[StoredFragment]:
        """Fragments stored by ``actor`` in ``project_names`` (default: the projects this service was configured
        with — not every project it has stored into)."""
        names = frozenset(project_names) if project_names is not None else self._configured
        if not names:
            return []
        with self.db.scoped(ResourceScope(project_names=names), actor=self.actor) as s:
            rows = s.execute(
                sqlfiles.query("tiers", "visible_by_actor"), {"projects": list(s.project_ids), "actor": actor}
            ).rows
            return [self._fragment(s, row) for row in rows]

    def validate_fragment_scope(self, fragment_id: str, scope: ResourceScope) -> None:
        """Pass if ``scope`` sees the fragment; otherwise :class:`FragmentNotInScopeError`, which is both a
        :class:`ScopeViolationError` and a ``ValueError``. The answer is the same whether the id exists in another
        tenant's project or nowhere: telling the two apart would be an existence oracle across tenants."""
        with self.db.scoped(scope, actor=self.actor) as s:
            params = {"id": fragment_id, "projects": list(s.project_ids)}
            if s.execute(sqlfiles.query("tiers", "exists"), params).rows:
                return
        raise FragmentNotInScopeError(
            "no fragment with this id in the scope",
            resource_ids=scope.resource_ids,
            scope_project_names=scope.project_names,
        )

    def get_scoped_metrics(self, project: str) -> TierMetrics:
        """Fragments and tokens per tier of ``project``."""
        with self.db.scoped(ResourceScope(project_names={project}), actor=self.actor) as s:
            rows = s.execute(sqlfiles.query("tiers", "usage"), {"project_id": self._project_id(s, project)}).rows
        return TierMetrics(project, {t: int(n) for t, n, _ in rows}, {t: int(k) for t, _, k in rows})

    # Moves ----------------------------------------------------------------------------------------------------------

    def promote(self, fragment_id: str, *, project: str) -> Tier:
        """Move a fragment one tier up (cold restores its original text); returns its tier."""
        tier = self._step(fragment_id, project, up=True)
        assert tier is not None
        return tier

    def demote(self, fragment_id: str, *, project: str) -> Tier | None:
        """Move a fragment one tier down (to cold: long content is summarised); returns its tier, None if evicted."""
        return self._step(fragment_id, project, up=False)

    def _step(self, fragment_id: str, project: str, *, up: bool) -> Tier | None:
        with self.db.scoped(ResourceScope(project_names={project}), actor=self.actor) as s:
            project_id = self._project_id(s, project)
            rows = s.execute(sqlfiles.query("tiers", "lock_one"), {"project_id": project_id, "id": fragment_id}).rows
            if not rows:
                raise ValueError(f"no fragment {fragment_id!r} in {project!r}")
            row = rows[0]
            current: Tier = row[2]
            index = TIERS.index(current)
            if up:
                target: Tier | None = TIERS[max(index - 1, 0)]
            else:
                target = TIERS[index + 1] if index + 1 < len(TIERS) else None
            moves: list[TierMove] = []
            if target != current:
                moves = [self._move(s, project, row, target), *self._enforce(s, project, project_id)]
        self._report(moves)
        return target

    def evict_lru(self, tier: Tier, *, project: str | None = None, count: int = 1) -> list[str]:
        """Move the ``count`` least recently accessed fragments of ``tier`` one tier down (cold: evict them), in
        ``project`` or in every project of this service; returns their ids. Rows another transaction is moving
        are skipped, not waited for."""
        if tier not in TIERS:
            raise InvalidArgumentError(f"tier must be one of {', '.join(TIERS)}")
        projects = [project] if project else sorted(self._projects)
        moves: list[TierMove] = []
        for name in projects:
            with self.db.scoped(ResourceScope(project_names={name}), actor=self.actor) as s:
                rows = s.execute(
                    sqlfiles.query("tiers", "lru"),
                    {"project_id": self._project_id(s, name), "tier": tier, "count": count},
                ).rows
                step = [self._move(s, name, row, TIERS[TIERS.index(tier) + 1] if tier != "cold" else None)
                        for row in rows]  # fmt: skip
            moves.extend(step)
        self._report(moves)
        return [m.id for m in moves]

    def enforce_budget(self, project: str) -> list[TierMove]:
        """Move the overflow of every tier of ``project`` down, in one transaction."""
        with self.db.scoped(ResourceScope(project_names={project}), actor=self.actor) as s:
            moves = self._enforce(s, project, self._project_id(s, project))
        self._report(moves)
        return moves

    def _report(self, moves: list[TierMove]) -> None:
        if self.on_move is not None:
            for move in moves:
                self.on_move(move)

    def _enforce(self, s: ScopedSession, project: str, project_id: int) -> list[TierMove]:
        s.execute(sqlfiles.query("tiers", "lock_project"), {"project_id": project_id})
        moves: list[TierMove] = []
        for tier in TIERS:
            limit = self._budget.limit(tier)
            usage = {t: (int(n), int(k)) for t, n, k in s.execute(sqlfiles.query("tiers", "usage"),
                                                                   {"project_id": project_id}).rows}  # fmt: skip
            count, tokens = usage.get(tier, (0, 0))
            while count > limit.max_fragments or tokens > limit.max_tokens:
                overflow = max(count - limit.max_fragments, 1)
                rows = s.execute(
                    sqlfiles.query("tiers", "lru"), {"project_id": project_id, "tier": tier, "count": overflow}
                ).rows
                if not rows:
                    break  # every remaining row is being moved by another transaction
                for row in rows:
                    if count <= limit.max_fragments and tokens <= limit.max_tokens:
                        break
                    target = TIERS[TIERS.index(tier) + 1] if tier != "cold" else None
                    moves.append(self._move(s, project, row, target))
                    count, tokens = count - 1, tokens - int(row[4])
        return moves

    def _move(self, s: ScopedSession, project: str, row: tuple[Any, ...], target: Tier | None) -> TierMove:
        project_id, fragment_id, tier, content = row[0], row[1], row[2], row[3]
        if target is None:
            s.execute(sqlfiles.query("tiers", "evict"), {"project_id": project_id, "id": fragment_id})
        else:
            if target == "cold" and len(content) > self.summarize_over:
                content = self.summarizer(content)
            s.execute(
                sqlfiles.query("tiers", "move"),
                {"project_id": project_id, "id": fragment_id, "tier": target, "from_tier": tier, "content": content},
            )
        return TierMove(project, fragment_id, tier, target)

    # Helpers --------------------------------------------------------------------------------------------------------

    @staticmethod
    def _project_id(s: ScopedSession, project: str) -> int:
        try:
            return s.projects[project]
        except KeyError:
            raise ScopeViolationError("the project is outside the scope", outside_project_names=[project]) from None

    @staticmethod
    def _fragment(s: ScopedSession, row: tuple[Any, ...]) -> StoredFragment:
        names = {pid: name for name, pid in s.projects.items()}
        project_id, fragment_id, resource_id, tier, content, tokens, accessed, created_by = row
        return StoredFragment(fragment_id, names.get(project_id, ""), resource_id, tier, content, tokens, accessed,
                              created_by)  # fmt: skip
