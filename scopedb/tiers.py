# Generated from scopedb/tiers_async.py by .ci/async_to_sync.py.
# Do not edit: edit the source, run `make generate`.
"""The context-tier service: store, read and move fragments between hot, warm and cold (see :mod:`scopedb.tier_model`).

Generated from :mod:`scopedb.tiers_async` by ``.ci/async_to_sync.py``: edit that file, not this one.

Every statement runs as ``scopedb_app`` under a scope, so RLS bounds the service as it bounds any query. Moves lock
their rows (``FOR UPDATE``; batch moves ``SKIP LOCKED``) and budget enforcement takes a per-project lock (a row lock
that no other tenant can name), so concurrent writers and evictors never lose or double-move a fragment.

A service given a database runs each call in a transaction of its own. A service given a scoped session runs every
call in that session's transaction, so a tier move and the caller's own statements commit or roll back together::

    with db.scoped(scope) as s:
        ContextTierService(s).store("f1", project="acme/api", content="...")
        s.execute(...)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from scopedb import sqlfiles
from scopedb.database import Database
from scopedb.errors import InvalidArgumentError, ScopeViolationError
from scopedb.scope import ResourceScope
from scopedb.session import ScopedSession
from scopedb.tier_model import (
    TIERS,
    FragmentNotInScopeError,
    StoredFragment,
    Summarizer,
    Tier,
    TierBudget,
    TierLimit,
    TierMetrics,
    TierMove,
    extractive_summary,
    word_tokens,
)

__all__ = [
    "TIERS",
    "ContextTierService",
    "FragmentNotInScopeError",
    "StoredFragment",
    "Summarizer",
    "Tier",
    "TierBudget",
    "TierLimit",
    "TierMetrics",
    "TierMove",
    "extractive_summary",
    "word_tokens",
]


class ContextTierService:
    """Tiers over ``scopedb.fragments`` (see the module docstring).

    ``projects`` are the projects this service is configured for: they bound ``get_for_actor`` without projects. The
    projects it stores into join those ``evict_lru`` without a project works through (maintenance), but never what
    a read returns: a service shared by several tenants must not answer one tenant from another's projects. Give
    each tenant (or request) its own service, configured with that tenant's projects.
    """

    def __init__(
        self,
        target: Database | ScopedSession,
        *,
        budget: TierBudget | None = None,
        summarizer: Summarizer = extractive_summary,
        summarize_over: int = 480,
        tokenizer: Callable[[str], int] = word_tokens,
        actor: str = "service",
        projects: Iterable[str] = (),
        on_move: Callable[[TierMove], None] | None = None,
    ) -> None:
        if not isinstance(target, Database | ScopedSession):
            raise InvalidArgumentError("a tier service takes a database or a scoped session")
        self._target = target
        self._budget = budget or TierBudget()
        self.summarizer = summarizer
        self.summarize_over = summarize_over
        self.tokenizer = tokenizer
        self.actor = actor
        self._configured: frozenset[str] = frozenset(projects)
        self._projects: set[str] = set(self._configured)
        # Called for every move (metrics, logs) after its transaction commits; for a session-bound service, when
        # the call returns (the caller's transaction is still open then).
        self.on_move = on_move

    @contextmanager
    def _scoped(self, scope: ResourceScope) -> Iterator[tuple[ScopedSession, list[int]]]:
        """The session a call runs in, and the ids of the projects of ``scope`` it may touch.

        Bound to a session, a call runs under that session's scope, which must be ``scope`` itself or contain
        its projects whole (a plain project scope): anything else would answer from a scope other than the one
        asked for, so it is refused rather than widened.
        """
        if isinstance(self._target, Database):
            with self._target.scoped(scope, actor=self.actor) as s:
                yield s, list(s.project_ids)
            return
        s = self._target
        if scope == s.scope:
            yield s, list(s.project_ids)
            return
        whole_projects = scope == ResourceScope(project_names=scope.project_names)
        if not whole_projects or not scope.project_names <= s.projects.keys():
            raise InvalidArgumentError(
                "a tier service bound to a session runs under the session's scope: ask for that scope, or for "
                "projects of it, or give the service a database"
            )
        yield s, sorted(s.projects[name] for name in scope.project_names)

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
            raise InvalidArgumentError("fragment_id must be a non-empty string")
        if tier not in TIERS:
            raise InvalidArgumentError(f"tier must be one of {', '.join(TIERS)}")
        with self._scoped(scope) as (s, _ids):
            project_id = self._project_id(s, project)
            row = (
                s.execute(
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
                )
            ).one()
            stored = self._fragment(s, row)
            moves = self._enforce(s, project, project_id)
        self._projects.add(project)
        self._report(moves)
        return stored

    # Reads ----------------------------------------------------------------------------------------------------------

    def get_scoped(self, fragment_id: str, scope: ResourceScope) -> StoredFragment | None:
        """The fragment if ``scope`` sees it (reading touches it for LRU), else None."""
        with self._scoped(scope) as (s, ids):
            rows = (s.execute(sqlfiles.query("tiers", "touch"), {"id": fragment_id, "projects": ids})).rows
            return self._fragment(s, rows[0]) if rows else None

    def get_scoped_by_resource(self, scope: ResourceScope) -> list[StoredFragment]:
        """Every fragment ``scope`` sees (its projects, narrowed by its resources and denials)."""
        with self._scoped(scope) as (s, ids):
            rows = (s.execute(sqlfiles.query("tiers", "visible"), {"projects": ids})).rows
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
        with self._scoped(ResourceScope(project_names=names)) as (s, ids):
            rows = (s.execute(sqlfiles.query("tiers", "visible_by_actor"), {"projects": ids, "actor": actor})).rows
            return [self._fragment(s, row) for row in rows]

    def validate_fragment_scope(self, fragment_id: str, scope: ResourceScope) -> None:
        """Pass if ``scope`` sees the fragment; otherwise :class:`FragmentNotInScopeError`, which is both a
        :class:`ScopeViolationError` and a ``ValueError``. The answer is the same whether the id exists in another
        tenant's project or nowhere: telling the two apart would be an existence oracle across tenants."""
        with self._scoped(scope) as (s, ids):
            params = {"id": fragment_id, "projects": ids}
            if (s.execute(sqlfiles.query("tiers", "exists"), params)).rows:
                return
        raise FragmentNotInScopeError(
            "no fragment with this id in the scope",
            resource_ids=scope.resource_ids,
            scope_project_names=scope.project_names,
        )

    def get_scoped_metrics(self, project: str) -> TierMetrics:
        """Fragments and tokens per tier of ``project``."""
        with self._scoped(ResourceScope(project_names={project})) as (s, _ids):
            rows = (s.execute(sqlfiles.query("tiers", "usage"), {"project_id": self._project_id(s, project)})).rows
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
        with self._scoped(ResourceScope(project_names={project})) as (s, _ids):
            project_id = self._project_id(s, project)
            rows = (s.execute(sqlfiles.query("tiers", "lock_one"), {"project_id": project_id, "id": fragment_id})).rows
            if not rows:
                raise FragmentNotInScopeError("no fragment with this id in the project", outside_project_names=())
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
            with self._scoped(ResourceScope(project_names={name})) as (s, _ids):
                rows = (
                    s.execute(
                        sqlfiles.query("tiers", "lru"),
                        {"project_id": self._project_id(s, name), "tier": tier, "count": count},
                    )
                ).rows
                step = [self._move(s, name, row, TIERS[TIERS.index(tier) + 1] if tier != "cold" else None)
                        for row in rows]  # fmt: skip
            moves.extend(step)
        self._report(moves)
        return [m.id for m in moves]

    def enforce_budget(self, project: str) -> list[TierMove]:
        """Move the overflow of every tier of ``project`` down, in one transaction."""
        with self._scoped(ResourceScope(project_names={project})) as (s, _ids):
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
            usage = {t: (int(n), int(k)) for t, n, k in (s.execute(sqlfiles.query("tiers", "usage"),
                                                                   {"project_id": project_id})).rows}  # fmt: skip
            count, tokens = usage.get(tier, (0, 0))
            while count > limit.max_fragments or tokens > limit.max_tokens:
                overflow = max(count - limit.max_fragments, 1)
                rows = (
                    s.execute(
                        sqlfiles.query("tiers", "lru"), {"project_id": project_id, "tier": tier, "count": overflow}
                    )
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
