"""A generated corpus with a realistic shape, fixed by a seed so runs are comparable.

* Projects whose sizes follow a Zipf-like law: a few large tenants, many small ones.
* Text drawn from a Zipf vocabulary, so some terms are common, some medium, some rare.
* Embeddings from a clustered Gaussian mixture (each project draws from its own few topics). HNSW recall on uniform
  random vectors says nothing about real embeddings; clusters make filtered search hard the way real data does.
  Topic centres share a common direction and one of 16 themes; each topic spreads along a few directions of its
  own (a low-rank covariance) plus a little isotropic noise: real text embeddings are anisotropic and have a low
  intrinsic dimension. (With isotropic noise in all 128 dimensions each cluster is uniform noise again; with
  independent centres the clusters are orthogonal islands. docs/benchmarks.md shows what each did to recall.)
* A graph whose edges mostly stay inside a resource, like imports and links in a code base.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from scopedb.ingest import EdgeIn, Fragment, NodeIn

SIZES = {"smoke": 10_000, "medium": 100_000, "full": 1_000_000}
SEED = 20261129
VOCABULARY = 20_000
WORDS_PER_FRAGMENT = 20
CLUSTERS = 256
THEMES = 16
# Spread of a topic: TOPIC_RANK directions of its own with standard deviation SPREAD each (a spread of norm about
# 0.5), plus per-dimension isotropic NOISE; centres are unit vectors, so clusters stay distinct.
TOPIC_RANK = 12
SPREAD = 0.15
NOISE = 0.01


@dataclass
class Corpus:
    """The plan of a corpus (its rows are produced in batches by :meth:`fragments`)."""

    n: int
    dim: int
    project_sizes: dict[str, int]
    resources: dict[str, list[str]] = field(default_factory=dict)  # filled with resource ids once created
    words: list[str] = field(default_factory=list)
    centers: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    bases: np.ndarray = field(default_factory=lambda: np.zeros((0, 0, 0)))  # per topic: TOPIC_RANK unit directions
    project_topics: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def projects(self) -> list[str]:
        return list(self.project_sizes)

    def term(self, kind: str) -> str:
        """A query term that is common (rank 3), medium (rank 300) or rare (rank 8,000) in the Zipf vocabulary."""
        return self.words[{"common": 3, "medium": 300, "rare": 8_000}[kind]]

    def fragments(self, batch: int = 5_000) -> Iterator[list[Fragment]]:
        """Every fragment, in batches, deterministically."""
        rng = np.random.default_rng(SEED + 1)
        zipf_p = 1.0 / np.arange(1, VOCABULARY + 1)
        zipf_p /= zipf_p.sum()
        rows: list[Fragment] = []
        for project, size in self.project_sizes.items():
            resources = self.resources[project]
            topics = self.project_topics[project]
            for start in range(0, size, batch):
                count = min(batch, size - start)
                word_ids = rng.choice(VOCABULARY, size=(count, WORDS_PER_FRAGMENT), p=zipf_p)
                topic = rng.choice(topics, size=count)
                vectors = self._sample(rng, topic)
                resource_ix = rng.integers(0, len(resources), size=count)
                for i in range(count):
                    resource = resources[int(resource_ix[i])]
                    rows.append(
                        Fragment(
                            project=project,
                            id=f"f{start + i}",
                            resource_id=resource,
                            path=f"r{int(resource_ix[i])}/d{(start + i) % 97}/file{start + i}.txt",
                            content=" ".join(self.words[w] for w in word_ids[i]),
                            embedding=vectors[i].tolist(),
                        )
                    )
                    if len(rows) >= batch:
                        yield rows
                        rows = []
        if rows:
            yield rows

    def query_vectors(self, count: int, projects: list[str] | None = None, *, seed: int = 0) -> list[list[float]]:
        """Query embeddings drawn like the fragments of ``projects`` (default: the whole corpus) are.

        A query is about something its scope holds, as a tenant's searches are about its own documents: its topic
        is drawn in proportion to how many of the scope's fragments have that topic. (A topic with a handful of
        fragments, or none, has no near neighbours; its "top 10" is a near-tie among far points and recall is
        noise — that is what the first version of this corpus measured.)
        """
        rng = np.random.default_rng(SEED + 2 + seed)
        weights: dict[int, float] = {}
        for project in projects or self.projects:
            topics = self.project_topics[project]
            for topic in topics:
                weights[int(topic)] = weights.get(int(topic), 0.0) + self.project_sizes[project] / len(topics)
        topic_ids = np.array(sorted(weights))
        p = np.array([weights[t] for t in topic_ids])
        chosen = rng.choice(topic_ids, size=count, p=p / p.sum())
        return [v.tolist() for v in self._sample(rng, chosen)]

    def _sample(self, rng: np.random.Generator, topics: np.ndarray) -> np.ndarray:
        """Unit vectors around the centres of ``topics``, spread along each topic's own directions."""
        weights = rng.normal(0.0, SPREAD, size=(len(topics), TOPIC_RANK))
        vectors = self.centers[topics] + np.einsum("nr,nrd->nd", weights, self.bases[topics])
        vectors += rng.normal(0.0, NOISE, size=vectors.shape)
        unit: np.ndarray = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
        return unit

    def graph(self, project: str, nodes_per_resource: int = 40) -> tuple[list[NodeIn], list[EdgeIn]]:
        """A graph for ``project``: files of each resource, edges mostly inside a resource."""
        rng = np.random.default_rng(SEED + 3 + self.projects.index(project))
        nodes: list[NodeIn] = []
        by_resource: dict[str, list[str]] = {}
        for r, resource in enumerate(self.resources[project]):
            ids = [f"n{r}_{k}" for k in range(nodes_per_resource)]
            by_resource[resource] = ids
            nodes += [NodeIn(project, node, kind="module" if k % 4 else "doc", resource_id=resource)
                      for k, node in enumerate(ids)]  # fmt: skip
        all_ids = [n.id for n in nodes]
        edges: list[EdgeIn] = []
        for ids in by_resource.values():
            for node in ids:
                for _ in range(3):
                    pool = ids if rng.random() < 0.9 else all_ids
                    target = pool[int(rng.integers(0, len(pool)))]
                    if target != node:
                        edges.append(EdgeIn(project, node, target, "calls" if rng.random() < 0.7 else "imports"))
        return nodes, edges


def plan(size: str, *, dim: int = 128, projects: int | None = None) -> Corpus:
    """The corpus plan for ``size`` ("smoke", "medium", "full"), over ``projects`` tenants (default 20, 40, 60)."""
    n = SIZES[size]
    rng = np.random.default_rng(SEED)
    count = projects or {"smoke": 20, "medium": 40, "full": 60}[size]
    weights = 1.0 / np.arange(1, count + 1) ** 1.5
    sizes = np.maximum(np.floor(weights / weights.sum() * n).astype(int), 10)
    sizes[0] += n - int(sizes.sum())
    project_sizes = {f"tenant{p:02d}": int(s) for p, s in enumerate(sizes)}
    syllables = ["ka", "lo", "mi", "nu", "pe", "ra", "so", "ti", "vu", "za", "bo", "de", "fi", "gu", "ha", "jo"]
    words = sorted({"".join(rng.choice(syllables, size=int(rng.integers(2, 5)))) + "x" for _ in range(VOCABULARY * 3)})
    words = [words[i] for i in rng.permutation(len(words))[:VOCABULARY]]
    # Topic centres share a common direction and one of 16 broad themes, as real embeddings do (random texts have
    # a cosine similarity around 0.2, not 0): independent random centres would be mutually orthogonal islands,
    # and HNSW leaves some islands unreachable (see docs/benchmarks.md).
    common = rng.normal(0.0, 1.0, size=dim)
    common /= np.linalg.norm(common)
    themes = rng.normal(0.0, 1.0, size=(THEMES, dim))
    themes /= np.linalg.norm(themes, axis=1, keepdims=True)
    own = rng.normal(0.0, 1.0, size=(CLUSTERS, dim)) / np.sqrt(dim)
    centers = 0.4 * common + 0.7 * themes[rng.integers(0, THEMES, size=CLUSTERS)] + 0.6 * own
    centers /= np.linalg.norm(centers, axis=1, keepdims=True)
    topics = {p: rng.choice(CLUSTERS, size=int(rng.integers(3, 9)), replace=False) for p in project_sizes}
    bases = rng.normal(0.0, 1.0, size=(CLUSTERS, TOPIC_RANK, dim))
    bases /= np.linalg.norm(bases, axis=2, keepdims=True)
    return Corpus(n=n, dim=dim, project_sizes=project_sizes, words=words, centers=centers, bases=bases,
                  project_topics=topics)  # fmt: skip


#: The scopes the suites measure: whole projects adding up to about this share of the rows.
FRACTIONS = (0.001, 0.01, 0.1, 1.0)


def search_groups(corpus: Corpus) -> dict[str, list[str]]:
    """The search groups a service searching these scopes would declare (scopedb.Admin.create_search_group): one
    per scope of more than one project. The scopes nest (the smallest projects first), so a project belongs to
    up to three groups, and the widest group is every project."""
    groups: dict[str, list[str]] = {}
    for fraction in FRACTIONS:
        projects = scope_for_fraction(corpus, fraction)
        if len(projects) > 1 and sorted(projects) not in [sorted(g) for g in groups.values()]:
            groups[f"bench-{fraction:g}"] = projects
    return groups


def scope_for_fraction(corpus: Corpus, fraction: float) -> list[str]:
    """Whole projects whose combined size comes close to ``fraction`` of the corpus (at least one project)."""
    if fraction >= 1.0:
        return corpus.projects
    target = fraction * corpus.n
    chosen: list[str] = []
    total = 0
    for project, size in sorted(corpus.project_sizes.items(), key=lambda kv: kv[1]):
        if total + size <= target:
            chosen.append(project)
            total += size
    if not chosen:
        chosen = [min(corpus.project_sizes, key=lambda p: abs(corpus.project_sizes[p] - target))]
    return chosen
