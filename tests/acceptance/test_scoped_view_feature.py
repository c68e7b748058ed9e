"""Acceptance tests for the seed feature "Scoped Backend View Filtering" (a copy is in scoped_view.feature).

One test per scenario, named after the scenario title and carrying it as its docstring. The ContextTierService
scenarios are owned by another issue and are not covered here.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from pydantic import ValidationError

from scopedb import ResourceScope, ScopeViolationError
from scopedb.aliases import ProjectRecord, ResourceAliasResolver, ResourceRecord, resolve_resource_scope
from scopedb.backends import (
    FragmentRecord,
    GraphEdge,
    GraphNode,
    GraphResult,
    InMemoryGraphBackend,
    InMemoryTextBackend,
    InMemoryVectorBackend,
)
from scopedb.errors import ScopeViolationError as ErrorsScopeViolationError
from scopedb.view import ScopedBackendSet, ScopedBackendView, validate_project_scope, validate_resource_scope

ID1 = "01HQ8ZDRX50000000000000001"
ID2 = "01HQ8ZDRX50000000000000002"
ID99 = "01HQ8ZDRX50000000000000099"
GRAPH_QUERY = "SELECT ?s WHERE { ?s a uko:Container }"
EMBEDDING = (0.1, 0.2, 0.3)


# ---- Given steps, shared by several scenarios ----------------------------------------------------------------------


def sv_scope(resources: Iterable[str], projects: Iterable[str]) -> ResourceScope:
    """Given sv a ResourceScope with resources ... and projects ..."""
    return ResourceScope(project_names=list(projects), resource_ids=list(resources))


def sv_fragment(fragment_id: str, project: str, resource: str | None) -> FragmentRecord:
    """Given sv a fragment "<id>" in project "<project>" with resource "<resource>"."""
    return FragmentRecord(id=fragment_id, project_name=project, resource_id=resource)


def sv_project_with_aliases(name: str, *resources: tuple[str, str | None]) -> ProjectRecord:
    """Given sv a project "<name>" with resources (id, alias)."""
    return ProjectRecord(
        name=name,
        resources=tuple(ResourceRecord(id=rid, project_name=name, alias=alias) for rid, alias in resources),
    )


def sv_resolver(*projects: ProjectRecord) -> ResourceAliasResolver:
    """And sv a ResourceAliasResolver (over every resource of the given projects)."""
    return ResourceAliasResolver(r for project in projects for r in project.resources)


def sv_full_backend_set(scope: ResourceScope) -> ScopedBackendSet:
    """And sv a ScopedBackendSet with text, vector, and graph backends."""
    return ScopedBackendSet.from_resource_scope(
        scope, text=InMemoryTextBackend(), vector=InMemoryVectorBackend(), graph=InMemoryGraphBackend()
    )


# ---- ResourceScope -------------------------------------------------------------------------------------------------


def test_create_a_valid_resourcescope() -> None:
    """Create a valid ResourceScope"""
    scope = sv_scope(["RES01", "RES02"], ["local/api"])

    assert scope.contains_resource("RES01") is True
    assert scope.contains_resource("RES02") is True
    assert scope.contains_resource("RES99") is False
    assert scope.contains_project("local/api") is True
    assert scope.contains_project("local/frontend") is False


def test_resourcescope_is_frozen() -> None:
    """ResourceScope is frozen"""
    scope = sv_scope(["RES01"], ["local/api"])

    with pytest.raises(ValidationError):
        scope.resource_ids = frozenset({"RES99"})  # type: ignore[misc]
    with pytest.raises(ValidationError):
        scope.project_names = frozenset({"local/evil"})  # type: ignore[misc]
    assert scope.resource_ids == frozenset({"RES01"})
    assert scope.project_names == frozenset({"local/api"})


def test_resourcescope_temporal_scope_defaults_to_current() -> None:
    """ResourceScope temporal_scope defaults to current"""
    scope = sv_scope(["RES01"], ["local/api"])

    assert scope.temporal_scope == "current"


def test_resourcescope_rejects_invalid_temporal_scope() -> None:
    """ResourceScope rejects invalid temporal_scope"""
    with pytest.raises(ValidationError, match="temporal_scope"):
        ResourceScope(project_names=["local/api"], resource_ids=["RES01"], temporal_scope="invalid")


def test_resourcescope_allows_empty_resource_ids_after_filtering() -> None:
    """ResourceScope allows empty resource_ids after filtering"""
    unnarrowed = ResourceScope(project_names=["local/api"], resource_ids=[])
    filtered_to_nothing = ResourceScope(project_names=["local/api"], resource_ids=[], resources_narrowed=True)

    assert unnarrowed.resource_ids == frozenset()
    assert filtered_to_nothing.resource_ids == frozenset()
    assert filtered_to_nothing.project_names == frozenset({"local/api"})


def test_resourcescope_rejects_empty_project_names() -> None:
    """ResourceScope rejects empty project_names"""
    with pytest.raises(ValidationError, match="project_names"):
        ResourceScope(project_names=[], resource_ids=["RES01"])


# ---- ResourceScope path filtering ----------------------------------------------------------------------------------


def test_resourcescope_matches_path_with_include_patterns() -> None:
    """ResourceScope matches_path with include patterns"""
    scope = ResourceScope(project_names=["local/api"], include_paths=["src/**/*.py", "tests/**/*.py"])

    assert scope.matches_path("src/main.py") is True
    assert scope.matches_path("tests/test_foo.py") is True
    assert scope.matches_path("docs/readme.md") is False


def test_resourcescope_matches_path_with_exclude_patterns() -> None:
    """ResourceScope matches_path with exclude patterns"""
    scope = ResourceScope(project_names=["local/api"], exclude_paths=["**/node_modules/**", "**/__pycache__/**"])

    assert scope.matches_path("src/main.py") is True
    assert scope.matches_path("node_modules/foo/bar.js") is False
    assert scope.matches_path("src/__pycache__/foo.pyc") is False


def test_resourcescope_matches_path_with_both_include_and_exclude() -> None:
    """ResourceScope matches_path with both include and exclude"""
    scope = ResourceScope(project_names=["local/api"], include_paths=["src/**/*.py"], exclude_paths=["**/test_*"])

    assert scope.matches_path("src/main.py") is True
    assert scope.matches_path("src/test_main.py") is False
    assert scope.matches_path("docs/readme.md") is False


# ---- ScopedBackendView: fragment-level filtering -------------------------------------------------------------------


def test_scopedbackendview_filters_fragments_by_project_name() -> None:
    """ScopedBackendView filters fragments by project name"""
    view = ScopedBackendView(allowed_projects=["proj-a"])
    frag_a = sv_fragment("frag-a", "proj-a", "RES01")
    frag_b = sv_fragment("frag-b", "proj-b", "RES02")

    assert view.is_visible(frag_a) is True
    assert view.is_visible(frag_b) is False


def test_scopedbackendview_excludes_fragments_with_empty_project_name() -> None:
    """ScopedBackendView excludes fragments with empty project_name"""
    view = ScopedBackendView(allowed_projects=["proj-a"])
    frag_x = FragmentRecord(id="frag-x", project_name="")

    assert view.is_visible(frag_x) is False


def test_scopedbackendview_filters_by_resource_ids_when_set() -> None:
    """ScopedBackendView filters by resource_ids when set"""
    view = ScopedBackendView(allowed_projects=["proj-a"], resource_ids=["RES01"])
    frag_a = sv_fragment("frag-a", "proj-a", "RES01")
    frag_c = sv_fragment("frag-c", "proj-a", "RES99")

    assert view.is_visible(frag_a) is True
    assert view.is_visible(frag_c) is False


def test_scopedbackendview_denied_resource_ids_blocks_specific_resources() -> None:
    """ScopedBackendView denied_resource_ids blocks specific resources"""
    view = ScopedBackendView(
        allowed_projects=["proj-a"], resource_ids=["RES01", "RES02"], denied_resource_ids=["RES02"]
    )
    frag_a = sv_fragment("frag-a", "proj-a", "RES01")
    frag_d = sv_fragment("frag-d", "proj-a", "RES02")

    assert view.is_visible(frag_a) is True
    assert view.is_visible(frag_d) is False


# ---- ScopedBackendView: backend-level search proxying --------------------------------------------------------------


def test_scopedbackendview_proxies_text_search_with_scope_injected() -> None:
    """ScopedBackendView proxies text search with scope injected"""
    scope = sv_scope(["RES01", "RES02"], ["local/api"])
    view = ScopedBackendView.from_resource_scope(scope)
    backend = InMemoryTextBackend()

    hits = view.search_text(backend, "auth flow")  # must not raise

    assert hits == []
    # The scope is injected: once the backend holds matching fragments, only the in-scope one comes back.
    backend.add(
        [
            FragmentRecord(id="in", project_name="local/api", resource_id="RES01", content="the auth flow"),
            FragmentRecord(id="other-project", project_name="local/web", resource_id="RES01", content="auth flow"),
            FragmentRecord(id="other-resource", project_name="local/api", resource_id="RES99", content="auth flow"),
        ]
    )
    assert [hit.fragment.id for hit in view.search_text(backend, "auth flow")] == ["in"]


def test_scopedbackendview_proxies_vector_search_with_scope_injected() -> None:
    """ScopedBackendView proxies vector search with scope injected"""
    scope = sv_scope(["RES01"], ["local/api"])
    view = ScopedBackendView.from_resource_scope(scope)
    backend = InMemoryVectorBackend()

    hits = view.search_vector(backend, EMBEDDING)

    assert hits == []
    backend.add(
        [
            FragmentRecord(id="in", project_name="local/api", resource_id="RES01", embedding=EMBEDDING),
            FragmentRecord(id="out", project_name="local/web", resource_id="RES01", embedding=EMBEDDING),
        ]
    )
    assert [hit.fragment.id for hit in view.search_vector(backend, EMBEDDING)] == ["in"]


def test_scopedbackendview_proxies_graph_search_with_scope_injected() -> None:
    """ScopedBackendView proxies graph search with scope injected"""
    scope = sv_scope(["RES01"], ["local/api"])
    view = ScopedBackendView.from_resource_scope(scope)
    backend = InMemoryGraphBackend()

    result = view.search_graph(backend, GRAPH_QUERY)

    assert isinstance(result, GraphResult)
    assert result == GraphResult()
    assert not result
    assert result.nodes == ()
    assert result.edges == ()
    # The scope is injected: a traversal never enters a node of another project.
    populated = InMemoryGraphBackend(
        nodes=[
            GraphNode(id="n1", project_name="local/api", resource_id="RES01"),
            GraphNode(id="n2", project_name="local/web", resource_id="RES01"),
        ],
        edges=[GraphEdge(src="n1", dst="n2", project_name="local/api")],
    )
    assert view.search_graph(populated, "n1").node_ids == frozenset({"n1"})


# ---- ScopedBackendView: effective_scope ----------------------------------------------------------------------------


def test_effective_scope_returns_resource_ids_minus_denied() -> None:
    """effective_scope returns resource_ids minus denied"""
    view = ScopedBackendView(allowed_projects=["p"], resource_ids=["R1", "R2", "R3"], denied_resource_ids=["R2"])

    assert "R1" in view.effective_scope
    assert "R3" in view.effective_scope
    assert "R2" not in view.effective_scope
    assert view.effective_scope == frozenset({"R1", "R3"})


def test_effective_scope_is_empty_when_all_resources_denied() -> None:
    """effective_scope is empty when all resources denied"""
    view = ScopedBackendView(allowed_projects=["p"], resource_ids=["R1"], denied_resource_ids=["R1"])

    assert view.effective_scope == frozenset()


# ---- ScopedBackendView: from_resource_scope ------------------------------------------------------------------------


def test_from_resource_scope_creates_a_view_with_scope_s_ids_and_projects() -> None:
    """from_resource_scope creates a view with scope's IDs and projects"""
    scope = sv_scope(["RES01", "RES02"], ["local/api", "local/web"])

    view = ScopedBackendView.from_resource_scope(scope)

    assert view.allows_project("local/api") is True
    assert view.allows_project("local/web") is True
    assert view.allowed_projects == frozenset({"local/api", "local/web"})
    assert "RES01" in view.resource_ids
    assert "RES02" in view.resource_ids


# ---- ScopedBackendSet ----------------------------------------------------------------------------------------------


def test_scopedbackendset_wraps_multiple_backends() -> None:
    """ScopedBackendSet wraps multiple backends"""
    scope = sv_scope(["RES01"], ["local/api"])
    backend_set = sv_full_backend_set(scope)

    hits = backend_set.search_text("test query")

    assert hits == []
    assert isinstance(backend_set.text, InMemoryTextBackend)
    assert isinstance(backend_set.vector, InMemoryVectorBackend)
    assert isinstance(backend_set.graph, InMemoryGraphBackend)
    assert backend_set.view.allowed_projects == frozenset({"local/api"})
    assert backend_set.view.resource_ids == frozenset({"RES01"})


def test_scopedbackendset_with_no_text_backend_returns_empty_list() -> None:
    """ScopedBackendSet with no text backend returns empty list"""
    scope = sv_scope(["RES01"], ["local/api"])
    backend_set = ScopedBackendSet.from_resource_scope(
        scope, vector=InMemoryVectorBackend(), graph=InMemoryGraphBackend()
    )

    hits = backend_set.search_text("test query")

    assert backend_set.text is None
    assert hits == []


# ---- ScopeViolationError -------------------------------------------------------------------------------------------


def test_scopeviolationerror_carries_resource_and_project_info() -> None:
    """ScopeViolationError carries resource and project info"""
    with pytest.raises(ScopeViolationError) as raised:
        raise ScopeViolationError("out of scope", resource_ids=["RES01"], scope_project_names=["proj-a"])

    assert ScopeViolationError is ErrorsScopeViolationError
    assert "RES01" in raised.value.resource_ids
    assert "proj-a" in raised.value.scope_project_names
    assert raised.value.resource_ids == frozenset({"RES01"})
    assert raised.value.scope_project_names == frozenset({"proj-a"})


# ---- validate_project_scope ----------------------------------------------------------------------------------------


def test_validate_project_scope_passes_for_valid_projects() -> None:
    """validate_project_scope passes for valid projects"""
    validate_project_scope(["proj-a"], ["proj-a", "proj-b"])  # passes: raises nothing


def test_validate_project_scope_rejects_out_of_scope_projects() -> None:
    """validate_project_scope rejects out-of-scope projects"""
    with pytest.raises(ScopeViolationError) as raised:
        validate_project_scope(["proj-c"], ["proj-a", "proj-b"])

    assert raised.value.outside_project_names == frozenset({"proj-c"})
    assert raised.value.scope_project_names == frozenset({"proj-a", "proj-b"})


def test_validate_project_scope_rejects_empty_requested_projects() -> None:
    """validate_project_scope rejects empty requested projects"""
    with pytest.raises(ValueError, match="no projects requested") as raised:
        validate_project_scope([], ["proj-a", "proj-b"])

    assert not isinstance(raised.value, ScopeViolationError)


# ---- validate_resource_scope ---------------------------------------------------------------------------------------


def test_validate_resource_scope_passes_for_in_scope_resources() -> None:
    """validate_resource_scope passes for in-scope resources"""
    scope = sv_scope(["RES01", "RES02"], ["local/api"])

    validate_resource_scope(["RES01"], scope)  # passes: raises nothing


def test_validate_resource_scope_rejects_out_of_scope_resources() -> None:
    """validate_resource_scope rejects out-of-scope resources"""
    scope = sv_scope(["RES01"], ["local/api"])

    with pytest.raises(ScopeViolationError) as raised:
        validate_resource_scope(["RES99"], scope)

    assert raised.value.resource_ids == frozenset({"RES99"})


# ---- ResourceAliasResolver -----------------------------------------------------------------------------------------


def test_resolve_alias_to_resource_id() -> None:
    """Resolve alias to resource_id"""
    resolver = sv_resolver(sv_project_with_aliases("local/myproj", (ID1, "repo")))

    assert resolver.resolve("repo") == ID1


def test_resolve_by_resource_id_directly() -> None:
    """Resolve by resource_id directly"""
    resolver = sv_resolver(sv_project_with_aliases("local/myproj", (ID1, "repo")))

    assert resolver.resolve(ID1) == ID1


def test_resolve_unknown_alias_returns_none() -> None:
    """Resolve unknown alias returns None"""
    resolver = sv_resolver(sv_project_with_aliases("local/myproj", (ID1, "repo")))

    assert resolver.resolve("nonexistent") is None


def test_resolve_rejects_empty_input() -> None:
    """Resolve rejects empty input"""
    resolver = sv_resolver(sv_project_with_aliases("local/myproj", (ID1, "repo")))

    with pytest.raises(ValueError, match="empty"):
        resolver.resolve("")


def test_resolve_many_resolves_multiple_aliases() -> None:
    """resolve_many resolves multiple aliases"""
    resolver = sv_resolver(sv_project_with_aliases("local/myproj", (ID1, "repo"), (ID2, "docs")))

    resolved = resolver.resolve_many(["repo", "docs"])

    assert ID1 in resolved
    assert ID2 in resolved
    assert resolved == frozenset({ID1, ID2})


def test_validate_uniqueness_detects_duplicate_aliases() -> None:
    """validate_uniqueness detects duplicate aliases"""
    resolver = sv_resolver(sv_project_with_aliases("local/myproj", (ID1, "repo"), (ID2, "repo")))

    errors = resolver.validate_uniqueness()

    assert len(errors) == 1
    assert "repo" in errors[0]


def test_validate_uniqueness_passes_for_unique_aliases() -> None:
    """validate_uniqueness passes for unique aliases"""
    resolver = sv_resolver(sv_project_with_aliases("local/myproj", (ID1, "repo"), (ID2, "docs")))

    assert resolver.validate_uniqueness() == []


# ---- resolve_resource_scope ----------------------------------------------------------------------------------------


def test_resolve_resource_scope_collects_all_resources_from_projects() -> None:
    """resolve_resource_scope collects all resources from projects"""
    project = sv_project_with_aliases("local/api", (ID1, None), (ID2, None))

    scope = resolve_resource_scope([project])

    assert len(scope.resource_ids) == 2
    assert scope.contains_resource(ID1) is True
    assert scope.contains_resource(ID2) is True


def test_resolve_resource_scope_applies_include_allowlist() -> None:
    """resolve_resource_scope applies include allowlist"""
    project = sv_project_with_aliases("local/api", (ID1, "repo"), (ID2, "docs"))

    scope = resolve_resource_scope([project], include=["repo"])

    assert len(scope.resource_ids) == 1
    assert scope.contains_resource(ID1) is True
    assert scope.contains_resource(ID2) is False


def test_resolve_resource_scope_applies_exclude_denylist() -> None:
    """resolve_resource_scope applies exclude denylist"""
    project = sv_project_with_aliases("local/api", (ID1, "repo"), (ID2, "docs"))

    scope = resolve_resource_scope([project], exclude=["docs"])

    assert len(scope.resource_ids) == 1
    assert scope.contains_resource(ID1) is True
    assert scope.contains_resource(ID2) is False


def test_resolve_resource_scope_rejects_empty_projects() -> None:
    """resolve_resource_scope rejects empty projects"""
    with pytest.raises(ValueError, match="at least one project"):
        resolve_resource_scope([])


# ---- ScopedBackendSet: vector and graph ----------------------------------------------------------------------------


def test_scopedbackendset_proxies_vector_search() -> None:
    """ScopedBackendSet proxies vector search"""
    scope = sv_scope(["RES01"], ["local/api"])
    backend_set = sv_full_backend_set(scope)

    hits = backend_set.search_vector(EMBEDDING)

    assert hits == []


def test_scopedbackendset_proxies_graph_search() -> None:
    """ScopedBackendSet proxies graph search"""
    scope = sv_scope(["RES01"], ["local/api"])
    backend_set = sv_full_backend_set(scope)

    result = backend_set.search_graph("SELECT ?s WHERE { ?s a uko:X }")

    assert isinstance(result, GraphResult)
    assert result == GraphResult()
    assert not result
    assert result.nodes == ()
    assert result.edges == ()


# ---- Mixed project scope guard -------------------------------------------------------------------------------------


def test_mixed_project_scope_guard_catches_unlinked_projects() -> None:
    """Mixed project scope guard catches unlinked projects"""
    with pytest.raises(ScopeViolationError) as raised:
        validate_project_scope(["proj-a", "proj-c"], ["proj-a", "proj-b"])

    assert raised.value.outside_project_names == frozenset({"proj-c"})
    assert raised.value.scope_project_names == frozenset({"proj-a", "proj-b"})


# ---- Coverage: field validator coercion ----------------------------------------------------------------------------


def test_scopedbackendview_coerces_list_resource_ids_to_frozenset() -> None:
    """ScopedBackendView coerces list resource_ids to frozenset"""
    view = ScopedBackendView(allowed_projects=["p"], resource_ids=["R1", "R2", "R1"])

    assert isinstance(view.resource_ids, frozenset)
    assert view.resource_ids == frozenset({"R1", "R2"})


def test_scopedbackendview_coerces_list_denied_resource_ids_to_frozenset() -> None:
    """ScopedBackendView coerces list denied_resource_ids to frozenset"""
    view = ScopedBackendView(allowed_projects=["p"], resource_ids=["R1", "R2"], denied_resource_ids=["R2", "R2"])

    assert isinstance(view.denied_resource_ids, frozenset)
    assert view.denied_resource_ids == frozenset({"R2"})


# ---- Coverage: effective_scope project-only ------------------------------------------------------------------------


def test_effective_scope_returns_empty_for_project_only_view() -> None:
    """effective_scope returns empty for project-only view"""
    view = ScopedBackendView(allowed_projects=["proj-a"])

    assert view.effective_scope == frozenset()


# ---- Coverage: _require_effective_scope raises ---------------------------------------------------------------------


def test_search_text_raises_when_all_resources_are_denied() -> None:
    """search_text raises when all resources are denied"""
    view = ScopedBackendView(allowed_projects=["p"], resource_ids=["R1"], denied_resource_ids=["R1"])
    backend = InMemoryTextBackend()

    with pytest.raises(ScopeViolationError) as raised:
        view.search_text(backend, "anything")

    assert "R1" in raised.value.resource_ids


# ---- Coverage: ScopedBackendSet None backends ----------------------------------------------------------------------


def test_scopedbackendset_search_vector_with_no_vector_backend() -> None:
    """ScopedBackendSet search_vector with no vector backend"""
    scope = sv_scope(["RES01"], ["local/api"])
    backend_set = ScopedBackendSet.from_resource_scope(scope, text=InMemoryTextBackend(), graph=InMemoryGraphBackend())

    assert backend_set.vector is None
    assert backend_set.search_vector(EMBEDDING) == []


def test_scopedbackendset_search_graph_with_no_graph_backend() -> None:
    """ScopedBackendSet search_graph with no graph backend"""
    scope = sv_scope(["RES01"], ["local/api"])
    backend_set = ScopedBackendSet.from_resource_scope(
        scope, text=InMemoryTextBackend(), vector=InMemoryVectorBackend()
    )

    result = backend_set.search_graph(GRAPH_QUERY)

    assert backend_set.graph is None
    assert isinstance(result, GraphResult)
    assert result == GraphResult()
    assert not result


# ---- Coverage: resolve_many unresolvable alias ---------------------------------------------------------------------


def test_resolve_many_skips_unresolvable_aliases() -> None:
    """resolve_many skips unresolvable aliases"""
    resolver = sv_resolver(sv_project_with_aliases("local/myproj", (ID1, "repo")))

    resolved = resolver.resolve_many(["repo", "nonexistent"])

    assert len(resolved) == 1
    assert ID1 in resolved


# ---- Coverage: validate_uniqueness no-alias branch -----------------------------------------------------------------


def test_validate_uniqueness_ignores_resources_without_aliases() -> None:
    """validate_uniqueness ignores resources without aliases"""
    project = sv_project_with_aliases("local/myproj", (ID1, "repo"), (ID2, None), (ID99, None))
    resolver = sv_resolver(project)

    assert resolver.validate_uniqueness() == []


# ---- Coverage: validate_project_scope empty available --------------------------------------------------------------


def test_validate_project_scope_rejects_empty_available_projects() -> None:
    """validate_project_scope rejects empty available projects"""
    with pytest.raises(ValueError, match="no projects available") as raised:
        validate_project_scope(["proj-a"], [])

    assert not isinstance(raised.value, ScopeViolationError)


# ---- Coverage: validate_resource_scope empty request ---------------------------------------------------------------


def test_validate_resource_scope_passes_for_empty_requested_resources() -> None:
    """validate_resource_scope passes for empty requested resources"""
    scope = sv_scope(["RES01"], ["local/api"])

    validate_resource_scope([], scope)  # passes: raises nothing


# ---- Coverage: resolve_resource_scope empty after filter -----------------------------------------------------------


def test_resolve_resource_scope_produces_empty_after_include_filtering() -> None:
    """resolve_resource_scope produces empty after include filtering"""
    project = sv_project_with_aliases("local/api", (ID1, "repo"), (ID2, "docs"))

    scope = resolve_resource_scope([project], include=["nonexistent"])

    assert len(scope.resource_ids) == 0
    # An allowlist that matched nothing sees nothing, not every resource of the project.
    assert scope.contains_resource(ID1) is False
    assert scope.contains_resource(ID2) is False


# ---- P0-S1: is_visible denies empty resource_id when resource_ids set ----------------------------------------------


def test_is_visible_denies_fragment_with_empty_resource_id_when_resource_filtering_active() -> None:
    """is_visible denies fragment with empty resource_id when resource filtering active"""
    view = ScopedBackendView(allowed_projects=["proj-a"], resource_ids=["RES01"])

    for empty in (None, ""):
        fragment = sv_fragment("frag-empty", "proj-a", empty)
        assert view.is_visible(fragment) is False, f"resource_id={empty!r} should not be visible"


def test_is_visible_allows_fragment_with_empty_resource_id_when_no_resource_filtering() -> None:
    """is_visible allows fragment with empty resource_id when no resource filtering"""
    view = ScopedBackendView(allowed_projects=["proj-a"])

    for empty in (None, ""):
        fragment = sv_fragment("frag-empty", "proj-a", empty)
        assert view.is_visible(fragment) is True, f"resource_id={empty!r} should be visible"


# ---- P1-SPEC1: DAG expansion via registry_lookup -------------------------------------------------------------------


def test_resolve_resource_scope_expands_child_resources_via_registry_lookup() -> None:
    """resolve_resource_scope expands child resources via registry_lookup"""
    project = sv_project_with_aliases("local/api", (ID1, "repo"), (ID2, "docs"))
    children: dict[str, list[str]] = {ID1: [ID99]}

    def registry_lookup(resource_id: str) -> list[str]:
        return children.get(resource_id, [])

    scope = resolve_resource_scope([project], registry_lookup=registry_lookup)

    assert len(scope.resource_ids) == 3
    assert scope.contains_resource(ID99) is True
    assert scope.resource_ids == frozenset({ID1, ID2, ID99})


# ---- P2-B2: tuple coercion in field validators ---------------------------------------------------------------------


def test_scopedbackendview_accepts_tuple_for_allowed_projects() -> None:
    """ScopedBackendView accepts tuple for allowed_projects"""
    view = ScopedBackendView(allowed_projects=("proj-a",))

    assert len(view.allowed_projects) == 1
    assert view.allowed_projects == frozenset({"proj-a"})
