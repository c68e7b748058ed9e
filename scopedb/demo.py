"""``scopedb demo``: two tenants in one database, and what each one's scope lets it see.

The demo works in its own database (``scopedb_demo``), recreated on every run, so it never touches real data.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from scopedb.database import Database
from scopedb.errors import ScopedbError, ScopeViolationError
from scopedb.scope import ResourceScope
from scopedb.server import Server, resolve_server
from scopedb.session import Fragment

DEMO_DATABASE = "scopedb_demo"
DEMO_APP_ROLE = "scopedb_demo_app"

CORPUS: dict[str, list[tuple[str, str, str]]] = {
    "acme/api": [
        ("repo", "src/auth/session.py", "Sessions are signed with a rotating key and expire after one hour."),
        ("repo", "src/auth/oauth.py", "The OAuth flow exchanges the authorization code for a token pair."),
        ("docs", "docs/runbook.md", "Acme on-call: page the API team when login latency exceeds 300 ms."),
    ],
    "globex/web": [
        (
            "repo",
            "app/checkout.ts",
            "Checkout posts the basket to the payments service with an idempotency key.",
        ),
        ("repo", "app/auth.ts", "Globex web login uses magic links; tokens live for ten minutes."),
        ("docs", "docs/pricing.md", "Globex confidential: enterprise discount is 35 percent until March."),
    ],
}


def run_demo(dsn: str | None = None, *, out: Callable[[str], None] = print) -> None:
    """Set up the demo tenants and print what each scope sees, and what is refused."""
    base = resolve_server(dsn)
    server = _fresh_demo_database(base)
    out(f"scopedb demo on {base.backend} PostgreSQL, database {DEMO_DATABASE}")
    app_dsn = None
    if not server.manages_logins:
        # On someone else's server: a throwaway login for the demo's scoped transactions, never the admin's.
        password = secrets.token_urlsafe(24)
        app_dsn = make_conninfo(server.dsn, user=DEMO_APP_ROLE, password=password)
    with Database(server, app_dsn=app_dsn) as db:
        db.migrate()
        if app_dsn is not None:
            db.admin().ensure_app_login(DEMO_APP_ROLE, password=password)
        out("migrated: roles, forced row-level security, signed scopes")
        admin = db.admin()
        for project, rows in CORPUS.items():
            admin.create_project(project)
            resources = {alias: admin.create_resource(project, alias=alias) for alias in {r[0] for r in rows}}
            with db.scoped(ResourceScope(project_names={project})) as s:
                s.add_fragments(
                    Fragment(project=project, content=text, path=path, resource_id=resources[alias].id)
                    for alias, path, text in rows
                )
        out("created projects acme/api and globex/web, each with a repo and docs\n")

        for project in CORPUS:
            out(f"scope {{{project}}} runs: SELECT path, content FROM scopedb.fragments   (no WHERE clause)")
            with db.scoped(ResourceScope(project_names={project})) as s:
                for path, content in s.execute("SELECT path, content FROM scopedb.fragments ORDER BY path"):
                    out(f"  {path:<22} {content}")
            out("")

        acme = ResourceScope(project_names={"acme/api"})
        globex_id = admin.project("globex/web")
        assert globex_id is not None
        out("refused:")
        with db.scoped(acme) as s:
            seen = s.execute("SELECT count(*) FROM scopedb.fragments WHERE project_id = %s", (globex_id.id,))
            refusal(out, "acme reads globex's fragments by id", f"{seen.scalar()} rows")
        try:
            with db.scoped(acme) as s:
                s.execute(
                    "INSERT INTO scopedb.fragments (project_id, content) VALUES (%s, 'planted')",
                    (globex_id.id,),
                )
        except ScopeViolationError as exc:
            refusal(out, "acme writes into globex", type(exc).__name__)
        token = db.sign(ResourceScope(project_names={"acme/api"}))
        version, key_id, signature, body = token.split(".", 3)
        forged_claims = json.loads(body) | {"projects": ["globex/web"]}
        forged = ".".join([version, key_id, signature, json.dumps(forged_claims)])
        try:
            with db.scoped(acme) as s:
                s.execute("SELECT scopedb.enter_scope(%s)", (forged,))
        except ScopedbError as exc:
            refusal(out, "a forged scope token for globex", type(exc).__name__)
        with db.scoped(acme) as s:
            s.execute("SELECT set_config('scopedb.scope_token', %s, true)", (forged,))
            rows = s.execute("SELECT count(*) FROM scopedb.fragments").scalar()
            refusal(out, "set_config() with the forged token, then read", f"{rows} rows")
        with db.scoped(acme) as s:
            s.execute("RESET ROLE")
            try:
                s.execute("SELECT count(*) FROM scopedb.fragments")
            except ScopedbError as exc:
                refusal(out, "RESET ROLE, then read", type(exc).__name__)
        out("\nevery refusal above came from PostgreSQL's row-level security, not from application code")


def refusal(out: Callable[[str], None], attempt: str, outcome: str) -> None:
    """One line of the "refused" table."""
    out(f"  {attempt:<46} -> {outcome}")


def _fresh_demo_database(base: Server) -> Server:
    """(Re)create the demo database on the resolved server and return a Server pointing at it."""
    with psycopg.connect(base.dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(DEMO_DATABASE)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(DEMO_DATABASE)))
    return Server(dsn=base.dsn_for(DEMO_DATABASE), backend=base.backend, handle=base.handle)
