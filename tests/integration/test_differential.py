"""Differential tests: the PostgreSQL backends against the in-memory reference backends.

Random corpora (projects, resources, paths, names, versions, embeddings, graphs) are loaded into PostgreSQL and into
the reference backends; hypothesis then draws scopes (projects, resources, denials, path and name patterns, time)
and queries. For every query PostgreSQL, filtering by RLS, must return exactly the reference's result set — and the
reference filters with ScopedBackendView in Python, a separate implementation of the same scope. Vector queries
compare on the exact path; queries through each project's own HNSW index must reach recall@10 >= 0.95 on average
and stay in scope.

CI runs 2,000+ cases; ``--slow`` runs 100,000.
"""

from __future__ import annotations

import datetime as dt
import math
import random
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scopedb import Database, Fragment, ResourceScope
from scopedb.backends import (
    FragmentRecord,
    GraphEdge,
    GraphNode,
    InMemoryGraphBackend,
    InMemoryTextBackend,
    InMemoryVectorBackend,
)
from scopedb.ingest import EdgeIn, NodeIn
from scopedb.retrieval import VectorStrategy
from scopedb.server import Server
from scopedb.testing import ScopedbTestServer, cloned_database
from scopedb.view import ScopedBackendView

# Words that are their own English stem and no stop word, so PostgreSQL's english parser and the reference's plain
# tokenizer agree on every document (checked by test_vocabulary_is_self_stemming).
VOCABULARY = [
    "alpha",
    "bravo",
    "delta",
    "echo",
    "foxtrot",
    "golf",
    "hotel",
    "india",
    "juliet",
    "kilo",
    "lima",
    "mike",
    "oscar",
    "papa",
    "quebec",
    "romeo",
    "sierra",
    "tango",
    "uniform",
    "victor",
    "whiskey",
    "xray",
    "zulu",
    "amber",
    "basalt",
    "cobalt",
    "copper",
    "coral",
    "crimson",
    "ember",
    "garnet",
    "indigo",
    "jade",
    "jasper",
    "lemon",
    "maroon",
    "onyx",
    "opal",
    "quartz",
    "saffron",
    "scarlet",
    "slate",
    "topaz",
    "umber",
    "violet",
]
DIRS = ["src", "tests", "docs", "lib", "node_modules", "pkg"]
FILES = ["main.py", "test_main.py", "readme.md", "index.js", "util.py", "data.json"]
SEGMENTS = ["acme", "core", "internal", "Order", "Invoice", "util"]
PATH_PATTERNS = ["src/**", "**/*.py", "**/test_*", "docs/*", "**/node_modules/**", "lib/**/*.js", "*"]
NAME_PATTERNS = ["acme::**", "*::Order", "**::internal::**", "core::*", "**"]
RELATIONS = ["calls", "imports", "mentions"]
DIM = 384
T0 = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
SLOW_CASES = 100_000


def _float32(values: list[float]) -> tuple[float, ...]:
    """What PostgreSQL stores for a vector component (pgvector keeps float4)."""
    return struct.unpack(f"{len(values)}f", struct.pack(f"{len(values)}f", *values))


@dataclass
class Corpus:
    projects: dict[str, list[str]] = field(default_factory=dict)  # name -> resource ids
    fragments: list[FragmentRecord] = field(default_factory=list)
    nodes: list[GraphNode] = field(default_factory=list)
    edges: list[tuple[str, GraphEdge]] = field(default_factory=list)  # (project, edge)


def _generate(db: Database, seed: int) -> Corpus:
    rng = random.Random(seed)
    corpus = Corpus()
    admin = db.admin()
    for p in range(6):
        name = f"c{seed}/p{p}"
        admin.create_project(name)
        corpus.projects[name] = [admin.create_resource(name).id for _ in range(rng.randint(1, 3))]
    for name, resources in corpus.projects.items():
        for n in range(rng.randint(20, 45)):
            start = T0 + dt.timedelta(days=rng.choice([-400, -30, 0, 10]))
            end = None if rng.random() < 0.6 else start + dt.timedelta(days=rng.choice([5, 60, 900]))
            vector = [rng.gauss(0, 1) for _ in range(DIM)]
            path = "/".join([*rng.choices(DIRS, k=rng.randint(0, 2)), rng.choice(FILES)])
            corpus.fragments.append(
                FragmentRecord(
                    id=f"f{n}",  # ids repeat across projects: a fragment is (project, id)
                    project_name=name,
                    content=" ".join(rng.choices(VOCABULARY, k=rng.randint(3, 12))),
                    resource_id=None if rng.random() < 0.15 else rng.choice(resources),
                    path=None if rng.random() < 0.05 else path,
                    fqn=None if rng.random() < 0.05 else "::".join(rng.choices(SEGMENTS, k=rng.randint(1, 3))),
                    embedding=_float32(vector),
                    valid_from=start,
                    valid_to=end,
                )
            )
        node_ids = [f"n{k}" for k in range(rng.randint(6, 14))]  # repeated across projects, as real ids are
        by_resource = {node: rng.choice(resources) for node in node_ids}
        for node in node_ids:
            corpus.nodes.append(
                GraphNode(node, name, kind=rng.choice(["module", "function"]), resource_id=by_resource[node])
            )
        for _ in range(len(node_ids) * 2):
            src = rng.choice(node_ids)
            same = [n for n in node_ids if by_resource[n] == by_resource[src]]
            dst = rng.choice(same if rng.random() < 0.8 else node_ids)
            corpus.edges.append((name, GraphEdge(src, dst, rng.choice(RELATIONS), project_name=name)))
    everything = ResourceScope(project_names=set(corpus.projects), temporal_scope="all")
    with db.scoped(everything) as s:
        s.ingest_fragments(
            Fragment(
                project=f.project_name, id=f.id, content=f.content, resource_id=f.resource_id, path=f.path,
                fqn=f.fqn, embedding=f.embedding, valid_from=f.valid_from, valid_to=f.valid_to,
            )
            for f in corpus.fragments
        )  # fmt: skip
        s.ingest_graph(
            [NodeIn(n.project_name, n.id, kind=n.kind, resource_id=n.resource_id) for n in corpus.nodes],
            [EdgeIn(project, e.src, e.dst, e.relation) for project, e in corpus.edges],
        )
    return corpus


@dataclass
class World:
    db: Database
    corpora: list[Corpus]
    text: InMemoryTextBackend
    vector: InMemoryVectorBackend
    graph: InMemoryGraphBackend
    now: dt.datetime
    fragments: dict[tuple[str, str], FragmentRecord]  # by (project, id)
    stats: dict[str, Any] = field(default_factory=lambda: {"cases": 0, "recalls": []})


@pytest.fixture(scope="module")
def world(scopedb_server: ScopedbTestServer, scopedb_template: str) -> Iterator[World]:
    with cloned_database(scopedb_server, scopedb_template) as dsn:
        dbname = str(__import__("psycopg").conninfo.conninfo_to_dict(dsn)["dbname"])
        db = Database(Server(dsn=dsn, backend=scopedb_server.server.backend), app_dsn=scopedb_server.app_dsn(dbname))
        try:
            corpora = [_generate(db, seed) for seed in (1, 2)]
            db.admin().maintain_storage(threshold=10)  # every project gets its own HNSW and GIN index
            fragments = [f for c in corpora for f in c.fragments]
            graph = InMemoryGraphBackend(
                [n for c in corpora for n in c.nodes], {e for c in corpora for _, e in c.edges}
            )
            with db.scoped(ResourceScope(project_names={next(iter(corpora[0].projects))})) as s:
                now = s.execute("SELECT now()").scalar()
            yield World(
                db, corpora, InMemoryTextBackend(fragments), InMemoryVectorBackend(fragments), graph, now,
                {(f.project_name, f.id): f for f in fragments},
            )  # fmt: skip
        finally:
            db.close()


@st.composite
def scopes(draw: st.DrawFn, world: World) -> ResourceScope:
    corpus = draw(st.sampled_from(world.corpora))
    names = sorted(corpus.projects)
    chosen = draw(st.lists(st.sampled_from(names), min_size=1, max_size=3, unique=True))
    resources = sorted(r for p in chosen for r in corpus.projects[p])
    narrowed = draw(st.booleans()) and draw(st.booleans())
    temporal: Any = draw(st.sampled_from(["current", "all", "point"]))
    if temporal == "point":
        temporal = T0 + dt.timedelta(days=draw(st.integers(-500, 1000)))
    return ResourceScope(
        project_names=chosen,
        resource_ids=draw(st.lists(st.sampled_from(resources), max_size=3, unique=True)) if narrowed else [],
        resources_narrowed=narrowed,
        denied_resource_ids=draw(st.lists(st.sampled_from(resources), max_size=1, unique=True)),
        include_paths=draw(st.lists(st.sampled_from(PATH_PATTERNS), max_size=2, unique=True)),
        exclude_paths=draw(st.lists(st.sampled_from(PATH_PATTERNS), max_size=1, unique=True)),
        include_names=draw(st.lists(st.sampled_from(NAME_PATTERNS), max_size=2, unique=True)),
        exclude_names=draw(st.lists(st.sampled_from(NAME_PATTERNS), max_size=1, unique=True)),
        temporal_scope=temporal,
    )


def _check_case(world: World, scope: ResourceScope, words: list[str], probe: int, start: str, depth: int,
                relations: list[str] | None, hnsw: bool) -> None:  # fmt: skip
    view = ScopedBackendView.from_resource_scope(scope)
    fragments = world.fragments
    visible = {key for key, f in fragments.items() if view.is_visible(f, now=world.now)}
    query_vector = [math.sin(probe * (i + 1)) for i in range(DIM)]
    with world.db.scoped(scope) as s:
        text = {_key(h.fragment) for h in s.search_text(" ".join(words), limit=1000)}
        expected_text = {
            key for key, f in fragments.items()
            if key in visible and set(words) <= set(f.content.split())
        }  # fmt: skip
        assert text == expected_text, f"text {words} in {scope}"
        exact = s.search_vector(query_vector, limit=10, strategy=VectorStrategy(exact=True))
        reference = sorted(
            ((_cosine(query_vector, fragments[i].embedding or ()), i) for i in visible), key=lambda t: t
        )[:12]
        assert len(exact) == min(10, len(visible))
        got = [_key(h.fragment) for h in exact]
        want = [i for _, i in reference[:10]]
        if got != want:  # allow only swaps between neighbours closer than float4 rounding can separate
            for g, w in zip(got, want, strict=True):
                if g != w:
                    gap = abs(_cosine(query_vector, fragments[g].embedding or ()) -
                              _cosine(query_vector, fragments[w].embedding or ()))  # fmt: skip
                    assert gap < 1e-5, f"vector order differs beyond rounding in {scope}"
        if hnsw and len(visible) >= 10:
            approx = s.search_vector(query_vector, limit=10)  # each project's own HNSW index (built below)
            assert {_key(h.fragment) for h in approx} <= visible
            assert len(approx) == 10
            world.stats["recalls"].append(len({_key(h.fragment) for h in approx} & set(got)) / 10)
        graph = s.search_graph(start, depth=depth, relations=relations)
        expected = world.graph.search_graph(start, view=view, depth=depth, relations=relations)
        assert graph.node_keys == expected.node_keys, f"graph nodes from {start} in {scope}"
        assert set(graph.edges) == set(expected.edges), f"graph edges from {start} in {scope}"
    world.stats["cases"] += 3


def _key(fragment: FragmentRecord) -> tuple[str, str]:
    return (fragment.project_name, fragment.id)


def _cosine(a: Any, b: Any) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return float(1.0 - dot / (math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))))


def test_vocabulary_is_self_stemming(world: World) -> None:
    with world.db.scoped(ResourceScope(project_names={next(iter(world.corpora[0].projects))})) as s:
        for word in VOCABULARY:
            assert s.execute("SELECT to_tsvector('english', %s)::text", (word,)).scalar() == f"'{word}':1"


def test_postgres_backends_equal_the_reference(world: World, request: pytest.FixtureRequest) -> None:
    examples = SLOW_CASES // 3 if request.config.getoption("--slow") else 700
    node_ids = sorted({n.id for c in world.corpora for n in c.nodes})

    @settings(max_examples=examples, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])  # fmt: skip
    @given(
        scope=scopes(world),
        words=st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=2),
        probe=st.integers(1, 10_000),
        start=st.sampled_from(node_ids),
        depth=st.integers(0, 3),
        relations=st.one_of(st.none(), st.lists(st.sampled_from(RELATIONS), min_size=1, max_size=2)),
        hnsw=st.booleans(),
    )
    def case(scope: ResourceScope, words: list[str], probe: int, start: str, depth: int,
             relations: list[str] | None, hnsw: bool) -> None:  # fmt: skip
        _check_case(world, scope, words, probe, start, depth, relations, hnsw)

    case()
    assert world.stats["cases"] >= 2000
    recalls = world.stats["recalls"]
    assert recalls, "some cases must take the HNSW path"
    assert sum(recalls) / len(recalls) >= 0.95, f"mean HNSW recall@10 {sum(recalls) / len(recalls):.3f}"
