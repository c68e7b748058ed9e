"""Two worlds that differ only in tenant B's data.

Every world holds the same tenant A (project "acme/api"), written with fixed ids, timestamps and vectors so that
everything A's scope can see is identical from one world to the next, and a tenant B (project "beta/web") whose
data a :class:`BWorld` describes: how many fragments, which of A's words it uses, whether its vectors sit near the
vector A queries, whether it reuses A's ids, paths and aliases, its graph, notes, tier rows and resource links, and
whether it writes before A, after A, or both, with updates and deletes (so that physical placement differs).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import psycopg
from hypothesis import strategies as st

from scopedb import Database, Fragment, ResourceScope
from scopedb.ingest import EdgeIn, NodeIn

A, B = "acme/api", "beta/web"
DIM = 384
EPOCH = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
A_RESOURCES = {"repo": "01JA0000000000000000000001", "docs": "01JA0000000000000000000002"}
B_RESOURCES = {"repo": "01JB0000000000000000000001", "docs": "01JB0000000000000000000002"}
# A's vocabulary: a word only A uses, and words whose use by B the worlds vary.
A_ONLY, SHARED_HEAVY, SHARED_RARE = "zanzibar", "initech", "globomantics"
A_ROWS = 2400  # enough that the planner finds A's matches of a word through the full-text index
A_NEAR = 10  # A's fragments near the query vector
STORAGE_THRESHOLD = 200  # rows from which a project gets its own search indexes in these worlds


def unit(seed: int, around: np.ndarray[Any, Any] | None = None, spread: float = 0.05) -> list[float]:
    """A deterministic unit vector (near ``around`` when given)."""
    rng = np.random.default_rng(seed)
    v = rng.normal(0.0, 1.0, DIM) if around is None else around + rng.normal(0.0, spread, DIM)
    out: list[float] = (v / np.linalg.norm(v)).tolist()
    return out


QUERY = np.array(unit(7))  # the vector A asks about
FAR = np.array(unit(8))


@dataclass(frozen=True)
class BWorld:
    """One variation of tenant B's data."""

    fragments: int
    heavy_words: tuple[str, ...]  # which of A's shared words B writes, many times
    vectors: Literal["none", "near", "far"]
    same_keys: bool  # B reuses A's fragment ids, paths, node ids and aliases
    graph: bool
    notes: int
    tiers: int
    links: bool
    when: Literal["before", "after", "around"]  # B's writes relative to A's
    churn: bool  # B updates and deletes some of its rows

    def label(self) -> str:
        return (f"frag={self.fragments} words={','.join(self.heavy_words) or '-'} vec={self.vectors} "
                f"same_keys={self.same_keys} graph={self.graph} notes={self.notes} tiers={self.tiers} "
                f"links={self.links} when={self.when} churn={self.churn}")  # fmt: skip


EMPTY = BWorld(0, (), "none", False, False, 0, 0, False, "after", False)


def b_worlds() -> st.SearchStrategy[BWorld]:
    """Hypothesis strategy over B's variations."""
    return st.builds(
        BWorld,
        fragments=st.sampled_from([0, 1, 40, 300, 900]),
        heavy_words=st.sampled_from([(), (SHARED_HEAVY,), (SHARED_HEAVY, SHARED_RARE), (A_ONLY,)]),
        vectors=st.sampled_from(["none", "near", "far"]),
        same_keys=st.booleans(),
        graph=st.booleans(),
        notes=st.sampled_from([0, 3, 30]),
        tiers=st.sampled_from([0, 5]),
        links=st.booleans(),
        when=st.sampled_from(["before", "after", "around"]),
        churn=st.booleans(),
    )


def build(db: Database, b: BWorld) -> None:
    """Fill a freshly migrated database: the projects and resources, then B's and A's writes in B's order."""
    admin = db.admin()
    for project, resources in ((A, A_RESOURCES), (B, B_RESOURCES)):
        admin.create_project(project)
        for alias, rid in resources.items():
            admin.create_resource(project, alias=alias, resource_id=rid)
    # A service's own table, protected with protect_table (issue 20): A's tickets are the same in every world.
    with psycopg.connect(db.dsn, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA support")
        conn.execute(
            "CREATE TABLE support.tickets (project_id bigint NOT NULL DEFAULT scopedb.scope_project_id()"
            " REFERENCES scopedb.projects (id) ON DELETE CASCADE, id text NOT NULL, title text NOT NULL,"
            " status text NOT NULL DEFAULT 'open', PRIMARY KEY (project_id, id))"
        )
    admin.protect_table("support.tickets")
    if b.when in ("before", "around"):
        _write_b(db, b, part=0)
        if b.churn:  # what autovacuum would do: the space B freed is where A's rows now land
            with psycopg.connect(db.dsn, autocommit=True) as conn:
                conn.execute("VACUUM scopedb.fragments")
    _write_a(db)
    if b.when in ("after", "around"):
        _write_b(db, b, part=1)
    # The maintenance step: B gets its own HNSW and GIN index in worlds where it holds enough rows, so A is
    # observed beside an indexed B and beside an unindexed one. A keeps its GIN index but not its HNSW one: an HNSW
    # build is randomised (pgvector draws each node's level at random), so two builds over the same rows answer an
    # approximate query differently, which a comparison of two worlds cannot tell from interference. A's own index
    # under A's hostile settings is tests/adversarial/test_similarity_oracle.py's subject.
    admin.maintain_storage(threshold=STORAGE_THRESHOLD)
    with psycopg.connect(db.dsn, autocommit=True) as conn:
        a_id = admin.project(A).id  # type: ignore[union-attr]
        conn.execute(f"DROP INDEX IF EXISTS scopedb_parts.fragments_{int(a_id)}_embedding_hnsw")
        conn.execute("VACUUM ANALYZE")  # what autovacuum would do, the same in both worlds


def _write_a(db: Database) -> None:
    rows = []
    for n in range(A_ROWS):
        word = (A_ONLY, SHARED_HEAVY, SHARED_RARE)[n % 3] if n < 60 else "filler"
        vector = unit(10_000 + n, QUERY) if n < A_NEAR else unit(20_000 + n)
        rows.append(Fragment(project=A, id=f"a{n}", resource_id=A_RESOURCES["repo" if n % 2 else "docs"],
                             path=f"src/m{n % 7}/f{n}.py", fqn=f"acme::m{n % 7}::f{n}",
                             content=f"{word} report number {n} of the quarter", embedding=vector,
                             valid_from=EPOCH))  # fmt: skip
    with db.scoped(ResourceScope(project_names={A})) as s:
        s.ingest_fragments(rows)
        s.ingest_graph([NodeIn(A, f"n{i}", kind="module" if i % 3 else "doc", resource_id=A_RESOURCES["repo"],
                               path=f"src/n{i}.py") for i in range(30)],
                       [EdgeIn(A, f"n{i}", f"n{(i * 7 + 3) % 30}", "imports") for i in range(30)])  # fmt: skip
        s.execute("INSERT INTO scopedb.resource_links (project_id, parent_id, child_id) VALUES (%s, %s, %s)",
                  (s.project_ids[0], A_RESOURCES["repo"], A_RESOURCES["docs"]))  # fmt: skip
    _notes(db, A, 6, "a")
    _tier_rows(db, A, 8, "a")
    _tickets(db, A, 5, "a")


def _write_b(db: Database, b: BWorld, *, part: int) -> None:
    """B's share of its writes for ``part`` (0 before A, 1 after; "around" splits them)."""
    share = range(b.fragments) if b.when != "around" else range(part, b.fragments, 2)
    rows = []
    for n in share:
        word = b.heavy_words[n % len(b.heavy_words)] if b.heavy_words else "memo"
        key = f"a{n}" if b.same_keys else f"b{n}"
        vector = None
        if b.vectors != "none":
            vector = unit(30_000 + n, QUERY if b.vectors == "near" else FAR, spread=0.03)
        rows.append(Fragment(project=B, id=key, resource_id=B_RESOURCES["repo"],
                             path=f"src/m{n % 7}/f{n}.py" if b.same_keys else f"lib/x{n}.txt",
                             content=f"{word} {word} memo {n}", embedding=vector))  # fmt: skip
    with db.scoped(ResourceScope(project_names={B})) as s:
        if rows:
            s.ingest_fragments(rows)
        if b.churn and rows:
            s.execute("UPDATE scopedb.fragments SET content = content || ' revised' WHERE id LIKE %s",
                      ("%1",))  # fmt: skip
            doomed = [r.id for r in rows[::3] if r.id is not None]
            delete = getattr(s, "delete_fragments", None)  # (so the harness also runs on scopedb before it)
            if delete is not None:
                delete(B, doomed)
            else:
                s.execute("DELETE FROM scopedb.fragments WHERE id = ANY (%s)", (doomed,))
        if b.graph and part == (0 if b.when == "before" else 1):
            ids = [f"n{i}" if b.same_keys else f"bn{i}" for i in range(40)]
            s.ingest_graph([NodeIn(B, node, resource_id=B_RESOURCES["repo"]) for node in ids],
                           [EdgeIn(B, ids[i], ids[(i + 1) % 40], "imports") for i in range(40)])  # fmt: skip
        if b.links and part == (0 if b.when == "before" else 1):
            s.execute("INSERT INTO scopedb.resource_links (project_id, parent_id, child_id) VALUES (%s, %s, %s)",
                      (s.project_ids[0], B_RESOURCES["repo"], B_RESOURCES["docs"]))  # fmt: skip
    if part == (0 if b.when == "before" else 1):
        _tickets(db, B, b.notes, "a" if b.same_keys else "b")
        _notes(db, B, b.notes, "a" if b.same_keys else "b")
        _tier_rows(db, B, b.tiers, "a" if b.same_keys else "b")


def _tickets(db: Database, project: str, count: int, prefix: str) -> None:
    """Rows of the service's protected table, written as the app in the project's scope (its default project)."""
    if not count:
        return
    with db.scoped(ResourceScope(project_names={project})) as s:
        for n in range(count):
            s.execute(
                "INSERT INTO support.tickets (id, title) VALUES (%s, %s)", (f"{prefix}t{n}", f"{prefix} ticket {n}")
            )


def _notes(db: Database, project: str, count: int, prefix: str) -> None:
    """Notes with fixed ids and times, written by the admin (the app cannot choose a note's creation time)."""
    if not count:
        return
    with psycopg.connect(db.dsn) as conn:
        conn.execute("SET ROLE scopedb_owner")
        pid = conn.execute("SELECT id FROM scopedb.projects WHERE name = %s", (project,)).fetchone()[0]  # type: ignore[index]
        for n in range(count):
            conn.execute(
                "INSERT INTO scopedb.notes (project_id, id, content, tags, sensitivity, created_at) "
                "VALUES (%s, %s, %s, %s, %s, %s)",
                (pid, f"mem-{prefix}{n:031x}", f"deploy note {n} about the canary", ["ops", f"t{n % 3}"],
                 "secret" if n % 4 == 3 else "normal", EPOCH + dt.timedelta(minutes=n)),
            )  # fmt: skip


def _tier_rows(db: Database, project: str, count: int, prefix: str) -> None:
    if not count:
        return
    with db.scoped(ResourceScope(project_names={project})) as s:
        pid = s.project_ids[0]
        for n in range(count):
            s.execute(
                "INSERT INTO scopedb.fragments (project_id, id, content, tier, token_count, created_by, valid_from) "
                "VALUES (%s, %s, %s, %s, %s, 'agent', %s)",
                (pid, f"{prefix}-tier{n}", f"tier row {n}", ("hot", "warm", "cold")[n % 3], 10 + n, EPOCH),
            )
