"""The ContextTierService scenarios of the seed feature, against PostgreSQL.

The feature's resource ids ("RES01", "RES02") are labels here: each names a real resource (a ULID) created in the
scenario's project, since resources in the database are ULIDs.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from scopedb import Database, ResourceScope, ScopeViolationError
from scopedb.tiers import ContextTierService, TierBudget
from scopedb.tiers_async import AsyncContextTierService
from tests.async_bridge import AsyncBridge


@dataclass
class World:
    db: Database
    service: ContextTierService
    ids: dict[str, str]

    def scope(self, resources: list[str], projects: list[str]) -> ResourceScope:
        """Given sv a ResourceScope with resources ... and projects ..."""
        return ResourceScope(project_names=projects, resource_ids=[self.ids[r] for r in resources])

    def store(self, fragment_id: str, project: str, resource: str | None, tier: str, content: str = "x") -> None:
        """When sv I store fragment ... project ... resource ... tier ..."""
        self.service.store(
            fragment_id, project=project, resource_id=self.ids[resource] if resource else None, tier=tier,  # type: ignore[arg-type]
            content=content,
        )  # fmt: skip


@pytest.fixture(params=["sync", "async"])
def sv(request: pytest.FixtureRequest, scopedb_db: Database) -> Iterator[World]:
    """Given sv a ContextTierService (over proj-a with RES01 and proj-b with RES02) — the sync service, or the
    async one it is generated from, driven through a bridge."""
    admin = scopedb_db.admin()
    admin.create_project("proj-a")
    admin.create_project("proj-b")
    ids = {"RES01": admin.create_resource("proj-a", alias="RES01").id,
           "RES02": admin.create_resource("proj-b", alias="RES02").id,
           "RES99": "01HQ8ZDRX50000000000000099"}  # fmt: skip
    if request.param == "sync":
        yield World(scopedb_db, ContextTierService(scopedb_db, projects=["proj-a", "proj-b"]), ids)
        return
    bridge = AsyncBridge(scopedb_db)
    service: Any = bridge.wrap(AsyncContextTierService(bridge.db, projects=["proj-a", "proj-b"]))
    try:
        yield World(scopedb_db, service, ids)
    finally:
        bridge.close()


def test_get_scoped_by_resource_filters_by_resourcescope(sv: World) -> None:
    """get_scoped_by_resource filters by ResourceScope"""
    scope = sv.scope(["RES01"], ["proj-a"])
    sv.store("f1", "proj-a", "RES01", "hot")
    sv.store("f2", "proj-b", "RES02", "hot")
    found = sv.service.get_scoped_by_resource(scope)
    assert [f.id for f in found] == ["f1"]


def test_store_with_scope_check_rejects_out_of_scope_resource(sv: World) -> None:
    """store_with_scope_check rejects out-of-scope resource"""
    scope = sv.scope(["RES01"], ["proj-a"])
    with pytest.raises(ScopeViolationError) as err:
        sv.service.store_with_scope_check(scope, "f9", project="proj-a", resource_id=sv.ids["RES99"], content="x")
    assert sv.ids["RES99"] in err.value.resource_ids
    assert sv.service.get_scoped_view(["proj-a", "proj-b"]) == []


def test_store_with_scope_check_rejects_out_of_scope_project(sv: World) -> None:
    """store_with_scope_check rejects out-of-scope project"""
    scope = sv.scope(["RES01"], ["proj-a"])
    with pytest.raises(ScopeViolationError) as err:
        sv.service.store_with_scope_check(scope, "f9", project="evil-proj", resource_id=sv.ids["RES01"])
    assert err.value.outside_project_names == {"evil-proj"}


def test_validate_fragment_scope_passes_for_in_scope_fragment(sv: World) -> None:
    """validate_fragment_scope passes for in-scope fragment"""
    scope = sv.scope(["RES01"], ["proj-a"])
    sv.store("f3", "proj-a", "RES01", "hot")
    sv.service.validate_fragment_scope("f3", scope)  # passes: raises nothing
    with pytest.raises(ValueError, match="no fragment"):
        sv.service.validate_fragment_scope("f3-missing", scope)


def test_validate_fragment_scope_rejects_out_of_scope_fragment(sv: World) -> None:
    """validate_fragment_scope rejects out-of-scope fragment"""
    scope = sv.scope(["RES01"], ["proj-a"])
    sv.store("f4", "proj-b", "RES02", "hot")
    with pytest.raises(ScopeViolationError):
        sv.service.validate_fragment_scope("f4", scope)


def test_store_rejects_empty_fragment_id(sv: World) -> None:
    """store rejects empty fragment_id"""
    for empty in ("", "   "):
        with pytest.raises(ValueError, match="fragment_id"):
            sv.service.store(empty, project="proj-a", content="x")


def test_get_scoped_view_with_empty_project_names_returns_empty(sv: World) -> None:
    """get_scoped_view with empty project_names returns empty"""
    sv.store("v1", "proj-a", "RES01", "hot")
    assert sv.service.get_scoped_view([]) == []
    assert [f.id for f in sv.service.get_scoped_view(["proj-a"])] == ["v1"]


def test_evict_lru_on_empty_tier_returns_empty_list(sv: World) -> None:
    """evict_lru on empty tier returns empty list"""
    assert sv.service.evict_lru("cold") == []
    sv.store("w1", "proj-a", "RES01", "warm")
    assert sv.service.evict_lru("cold", project="proj-a") == []


def test_get_scoped_metrics_counts_fragments_by_project(sv: World) -> None:
    """get_scoped_metrics counts fragments by project"""
    sv.store("m1", "proj-a", "RES01", "hot")
    sv.store("m2", "proj-b", "RES02", "warm")
    metrics = sv.service.get_scoped_metrics("proj-a")
    assert (metrics.hot, metrics.warm) == (1, 0)
    assert (sv.service.get_scoped_metrics("proj-b").hot, sv.service.get_scoped_metrics("proj-b").warm) == (0, 1)


def test_get_scoped_by_resource_returns_all_when_none_rejected(sv: World) -> None:
    """get_scoped_by_resource returns all when none rejected"""
    scope = sv.scope(["RES01"], ["proj-a"])
    sv.store("g1", "proj-a", "RES01", "hot")
    assert [f.id for f in sv.service.get_scoped_by_resource(scope)] == ["g1"]


def test_validate_fragment_scope_rejects_non_existent_fragment(sv: World) -> None:
    """validate_fragment_scope rejects non-existent fragment"""
    scope = sv.scope(["RES01"], ["proj-a"])
    with pytest.raises(ValueError, match="no fragment"):
        sv.service.validate_fragment_scope("missing", scope)


def test_store_with_scope_check_stores_in_scope_fragment_successfully(sv: World) -> None:
    """store_with_scope_check stores in-scope fragment successfully"""
    scope = sv.scope(["RES01"], ["proj-a"])
    stored = sv.service.store_with_scope_check(scope, "ok1", project="proj-a", resource_id=sv.ids["RES01"], content="y")
    assert stored.id == "ok1"
    assert stored.resource_id == sv.ids["RES01"]
    assert sv.service.get_scoped("ok1", scope) is not None


def test_tier_budget_property_returns_tierbudget(sv: World) -> None:
    """tier budget property returns TierBudget"""
    assert isinstance(sv.service.budget, TierBudget)
    custom = TierBudget()
    assert ContextTierService(sv.db, budget=custom).budget is custom


def test_get_for_actor_without_project_filter_returns_fragments(sv: World) -> None:
    """get_for_actor without project filter returns fragments"""
    sv.store("a1", "proj-a", "RES01", "hot")
    found = sv.service.get_for_actor(sv.service.actor)
    assert isinstance(found, list)
    assert [f.id for f in found] == ["a1"]
    assert sv.service.get_for_actor("someone-else") == []


def test_demote_warm_fragment_with_short_content_to_cold(sv: World) -> None:
    """demote warm fragment with short content to cold"""
    sv.store("sf1", "proj-a", "RES01", "warm", content="short text")
    assert sv.service.demote("sf1", project="proj-a") == "cold"
    fragment = sv.service.get_scoped("sf1", ResourceScope(project_names={"proj-a"}))
    assert fragment is not None
    assert (fragment.tier, fragment.content) == ("cold", "short text")


def test_get_scoped_returns_fragment_when_in_scope(sv: World) -> None:
    """get_scoped returns fragment when in scope"""
    scope = sv.scope(["RES01"], ["proj-a"])
    sv.store("f1", "proj-a", "RES01", "hot", content="hello")
    fragment = sv.service.get_scoped("f1", scope)
    assert fragment is not None
    assert (fragment.id, fragment.project_name, fragment.content) == ("f1", "proj-a", "hello")


def test_get_scoped_returns_none_for_out_of_scope_fragment(sv: World) -> None:
    """get_scoped returns None for out-of-scope fragment"""
    scope = sv.scope(["RES01"], ["proj-a"])
    sv.store("f2", "proj-b", "RES02", "hot")
    assert sv.service.get_scoped("f2", scope) is None


def test_get_scoped_denies_fragment_with_empty_resource_id_when_scope_has_resources(sv: World) -> None:
    """get_scoped denies fragment with empty resource_id when scope has resources"""
    scope = sv.scope(["RES01"], ["proj-a"])
    sv.store("f3", "proj-a", None, "hot")
    assert sv.service.get_scoped("f3", scope) is None
    assert sv.service.get_scoped("f3", ResourceScope(project_names={"proj-a"})) is not None
