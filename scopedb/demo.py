"""``scopedb demo``: two tenants in one database, and what each one's scope lets it see.

The demo works in its own database (``scopedb_demo``), recreated on every run, so it never touches real data. It
indexes the bundled corpus (:mod:`scopedb.demo_corpus`: a few hundred fragments and a small code graph per tenant),
then runs the same text, vector and graph queries under each tenant's scope, side by side, shows a forged scope and
a raw cross-project read being refused, and ends with the policy audit.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from scopedb.backends.base import TextHit, VectorHit
from scopedb.database import Database
from scopedb.demo_corpus import CORPUS, EDGES, tickets
from scopedb.embedders import HashingEmbedder
from scopedb.errors import ScopedbError, ScopeViolationError
from scopedb.ingest import EdgeIn, Fragment, NodeIn
from scopedb.scope import ResourceScope
from scopedb.server import Server, resolve_server

DEMO_DATABASE = "scopedb_demo"
DEMO_APP_ROLE = "scopedb_demo_app"
COLUMN = 58
Out = Callable[[str], None]


def run_demo(dsn: str | None = None, *, out: Out = print) -> None:
    """Set up the demo tenants and print what each scope sees, and what is refused."""
    started = time.perf_counter()
    base = resolve_server(dsn)
    server = _fresh_demo_database(base)
    out(f"scopedb demo on {base.backend} PostgreSQL, database {DEMO_DATABASE}")
    app_dsn, password = None, None
    if not server.manages_logins:
        # On someone else's server: a throwaway login for the demo's scoped transactions, never the admin's.
        password = secrets.token_urlsafe(24)
        app_dsn = make_conninfo(server.dsn, user=DEMO_APP_ROLE, password=password)
    with Database(server, app_dsn=app_dsn) as db:
        db.migrate()
        if password is not None:
            db.admin().ensure_app_login(DEMO_APP_ROLE, password=password)
        out("migrated: roles, forced row-level security on every table, signed scopes")
        counts = _load(db)
        out(
            "indexed " + ", ".join(f"{p}: {n} fragments" for p, n in counts.items())
            + "; each tenant has a repo, docs, tickets and a code graph"
        )  # fmt: skip
        scopes = {project: ResourceScope(project_names={project}) for project in CORPUS}
        embed = HashingEmbedder(384)

        _side_by_side(out, 'text search "token"', {
            project: [f"{h.fragment.path}: {h.fragment.content}" for h in _text(db, scope, "token")]
            for project, scope in scopes.items()
        })  # fmt: skip
        _side_by_side(out, 'vector search "how long do tokens live"', {
            project: [f"{h.fragment.path}: {h.fragment.content}" for h in _vector(db, scope, embed)]
            for project, scope in scopes.items()
        })  # fmt: skip
        _side_by_side(out, "graph: 2 hops from docs/runbook.md", {
            project: _graph(db, scope) for project, scope in scopes.items()
        })  # fmt: skip
        _refusals(db, out)
        findings = db.admin().audit()
        errors = sum(f.severity == "error" for f in findings)
        out(f"\naudit: {errors} error(s), {len(findings) - errors} warning(s) in scopedb_audit.findings")
    out(f"every refusal above came from PostgreSQL's row-level security, not from application code "
        f"({time.perf_counter() - started:.1f} s)")  # fmt: skip


def _load(db: Database) -> dict[str, int]:
    admin = db.admin()
    embed = HashingEmbedder(384)
    counts = {}
    for project, documents in CORPUS.items():
        documents = documents + tickets(project)
        resources = {alias: admin.ensure_resource(project, alias).id for alias in {d[0] for d in documents}}
        fragments = [
            Fragment(project=project, id=f"{path}#{n}", resource_id=resources[alias], path=path, content=sentence,
                     embedding=embed(sentence))
            for alias, path, sentences in documents
            for n, sentence in enumerate(sentences)
        ]  # fmt: skip
        nodes = [
            NodeIn(project, path, kind="module" if alias == "repo" else "doc", resource_id=resources[alias], label=path)
            for alias, path, _ in CORPUS[project]
        ]
        edges = [EdgeIn(project, src, dst, relation) for src, dst, relation in EDGES[project]]
        with db.scoped(ResourceScope(project_names={project})) as s:
            counts[project] = s.ingest_fragments(fragments)
            s.ingest_graph(nodes, edges)
    return counts


def _text(db: Database, scope: ResourceScope, query: str) -> list[TextHit]:
    with db.scoped(scope) as s:
        return s.search_text(query, limit=3)


def _vector(db: Database, scope: ResourceScope, embed: HashingEmbedder) -> list[VectorHit]:
    with db.scoped(scope) as s:
        return s.search_vector(embed("how long do tokens live"), limit=3)


def _graph(db: Database, scope: ResourceScope) -> list[str]:
    with db.scoped(scope) as s:
        result = s.search_graph("docs/runbook.md", depth=2)
    return [f"{e.src} -{e.relation}-> {e.dst}" for e in result.edges]


def _side_by_side(out: Out, title: str, columns: dict[str, list[str]]) -> None:
    names = list(columns)
    out(f"\n{title}")
    out(("  " + " | ".join(f"scope {{{name}}}".ljust(COLUMN) for name in names)).rstrip())
    for i in range(max(len(rows) for rows in columns.values())):
        cells = [(columns[name][i] if i < len(columns[name]) else "") for name in names]
        out(("  " + " | ".join(_fit(cell).ljust(COLUMN) for cell in cells)).rstrip())


def _fit(text: str) -> str:
    return text if len(text) <= COLUMN else text[: COLUMN - 1] + "…"


def _refusals(db: Database, out: Out) -> None:
    acme = ResourceScope(project_names={"acme/api"})
    globex = db.admin().project("globex/web")
    assert globex is not None
    out("\nrefused (acme/api's scope entered, its code running any SQL):")
    with db.scoped(acme) as s:
        seen = s.execute("SELECT count(*) FROM scopedb.fragments WHERE project_id = %s", (globex.id,)).scalar()
    refusal(out, "SELECT globex's fragments by project id", f"{seen} rows")
    try:
        with db.scoped(acme) as s:
            s.execute("INSERT INTO scopedb.fragments (project_id, content) VALUES (%s, 'planted')", (globex.id,))
    except ScopeViolationError as exc:
        refusal(out, "INSERT into globex", type(exc).__name__)
    token = db.sign(acme)
    version, key_id, signature, body = token.split(".", 3)
    forged = ".".join([version, key_id, signature, json.dumps(json.loads(body) | {"projects": ["globex/web"]})])
    try:
        with db.scoped(acme) as s:
            s.execute("SELECT scopedb.enter_scope(%s)", (forged,))
    except ScopedbError as exc:
        refusal(out, "enter a forged scope token for globex", type(exc).__name__)
    with db.scoped(acme) as s:
        s.execute("SELECT set_config('scopedb.scope_token', %s, true)", (forged,))
        rows = s.execute("SELECT count(*) FROM scopedb.fragments").scalar()
    refusal(out, "set_config() the forged token, then read", f"{rows} rows")
    with db.scoped(acme) as s:
        s.execute("SET ROLE NONE")  # the shared login itself
        try:
            s.execute("SELECT count(*) FROM scopedb.fragments")
        except ScopedbError as exc:
            refusal(out, "SET ROLE NONE (the login), then read", type(exc).__name__)


def refusal(out: Out, attempt: str, outcome: str) -> None:
    """One line of the "refused" table."""
    out(f"  {attempt:<46} -> {outcome}")


def _fresh_demo_database(base: Server) -> Server:
    """(Re)create the demo database on the resolved server and return a Server pointing at it."""
    with psycopg.connect(base.dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(DEMO_DATABASE)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(DEMO_DATABASE)))
    return Server(dsn=base.dsn_for(DEMO_DATABASE), backend=base.backend, handle=base.handle)
