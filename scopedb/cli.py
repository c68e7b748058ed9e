"""The ``scopedb`` command line.

Every command takes ``--dsn`` (default: ``SCOPEDB_DATABASE_URL``, then the embedded server). Failures print one
line to stderr and exit with status 2 (1 is kept for "the command ran and found a problem", e.g. an audit error).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import datetime as dt
import json
import logging
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

import pydantic

from scopedb import sqlfiles
from scopedb.admin import STORAGE_THRESHOLD, Finding
from scopedb.errors import ConfigurationError, ScopedbError
from scopedb.session import ScopedSession

log = logging.getLogger("scopedb")


def _parser() -> argparse.ArgumentParser:
    dsn_help = "PostgreSQL URL (default: $SCOPEDB_DATABASE_URL, else the embedded server)"
    parser = argparse.ArgumentParser(prog="scopedb", description="Postgres row-level security for retrieval.")
    parser.add_argument("--dsn", help=dsn_help)
    parser.add_argument("-v", "--verbose", action="store_true", help="log what scopedb does")
    # The same options after the command too (`scopedb migrate --dsn ...`, where users type them); SUPPRESS keeps
    # a value given before the command when none is given after it.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--dsn", default=argparse.SUPPRESS, help=dsn_help)
    common.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS, help="log what scopedb does")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    commands.add_parser(
        "up", parents=[common], help="start the embedded server, print its DSN, keep it running until Ctrl-C"
    )
    migrate = commands.add_parser("migrate", parents=[common], help="bring the schema to the latest revision")
    migrate.add_argument(
        "--embedding-dim",
        type=int,
        default=sqlfiles.DEFAULT_EMBEDDING_DIM,
        help=f"width of fragments.embedding, fixed by the first migration (default {sqlfiles.DEFAULT_EMBEDDING_DIM})",
    )
    commands.add_parser(
        "demo", parents=[common], help="two tenants side by side: what each scope sees, what is refused"
    )
    commands.add_parser("sweep", parents=[common], help="physically remove expired and forgotten memory notes")
    storage = commands.add_parser(
        "storage",
        parents=[common],
        help="per-project storage: give projects past the threshold partitions and indexes of their own, drop deleted "
        "ones",
    )
    storage.add_argument(
        "--threshold", type=int, default=STORAGE_THRESHOLD,
        help=f"rows from which a project gets its own partitions, HNSW and GIN index (default {STORAGE_THRESHOLD})",
    )  # fmt: skip
    storage.add_argument("--plan", action="store_true", help="print what would be done, do nothing")
    storage.add_argument(
        "--offline", action="store_true",
        help="build without CONCURRENTLY (waits for no transaction); writes to a project wait while its index builds",
    )  # fmt: skip
    storage.add_argument("--jobs", type=int, default=1, help="indexes to build at a time, largest first (default 1)")
    groups = commands.add_parser(
        "groups", parents=[common],
        help="search groups: projects searched together through one index (built by `scopedb storage`)",
    )  # fmt: skip
    group_commands = groups.add_subparsers(dest="groups_command", required=True, metavar="ACTION")
    group_commands.add_parser("list", parents=[common], help="every search group, its state and its projects")
    create_group = group_commands.add_parser(
        "create", parents=[common], help="declare a search group (searched once `scopedb storage` has built it)"
    )
    create_group.add_argument("name")
    create_group.add_argument("projects", nargs="+", help="two or more project names")
    drop_group = group_commands.add_parser("drop", parents=[common], help="remove a search group and its index")
    drop_group.add_argument("name")
    audit = commands.add_parser(
        "audit", parents=[common], help="lint the policies (exit status 1 when an error is found)"
    )
    audit.add_argument("--format", choices=("table", "json"), default="table")
    ingest = commands.add_parser(
        "ingest", parents=[common], help="index a directory of text files as fragments of a resource"
    )
    ingest.add_argument("path", type=Path, help="directory to index (hidden directories and binary files skipped)")
    ingest.add_argument("--project", required=True, help="project name (created if missing)")
    ingest.add_argument("--resource", required=True, help="resource alias inside the project (created if missing)")
    ingest.add_argument("--embedder", help="module:attribute of an embedder (default: scopedb's hashing embedder)")
    ingest.add_argument("--chunk-chars", type=int, default=1200, help="largest fragment, in characters")
    search = commands.add_parser("search", parents=[common], help="search one project's fragments, under its scope")
    search.add_argument("--project", required=True)
    search.add_argument("--resource", help="narrow to this resource alias (or id)")
    search.add_argument("--path", action="append", default=[], help="path glob to include (repeatable)")
    search.add_argument("--limit", type=int, default=10)
    search.add_argument("--depth", type=int, default=2, help="hops for --graph")
    search.add_argument("--embedder", help="module:attribute of the embedder used at ingest")
    what = search.add_mutually_exclusive_group(required=True)
    what.add_argument("--text", help="full-text query (websearch syntax)")
    what.add_argument("--similar", type=Path, help="a file whose nearest fragments to find")
    what.add_argument("--graph", help="a node id whose neighbourhood to show")
    token = commands.add_parser(
        "agent-token", parents=[common], help="issue an agent token: the scope an MCP client may use, signed"
    )
    token.add_argument("--project", action="append", required=True, help="project the agent may use (repeatable)")
    token.add_argument("--path", action="append", default=[], help="path glob to narrow to (repeatable)")
    token.add_argument("--agent", help="the agent's name (recorded as the actor of what it writes)")
    token.add_argument("--ttl-minutes", type=int, default=60, help="lifetime of the token (default 60)")
    mcp = commands.add_parser(
        "mcp", parents=[common], help="serve scoped memory and search to agents over MCP (stdio, or --http)"
    )
    mcp.add_argument("--http", metavar="HOST:PORT", help="serve streamable HTTP at /mcp; each request's bearer "
                     "agent token is its scope (default: stdio)")  # fmt: skip
    grant = mcp.add_mutually_exclusive_group()
    grant.add_argument("--token", help="stdio: the agent token whose scope every call runs in "
                       "(default: $SCOPEDB_AGENT_TOKEN)")  # fmt: skip
    grant.add_argument("--scope-file", help="stdio: a JSON file of the ResourceScope every call runs in")
    mcp.add_argument("--embedder", help="module:attribute of the embedder for search_vector (default: hashing)")
    mcp.add_argument("--allowed-host", action="append", default=[], help="HTTP: another Host to accept, as "
                     "host:port or host:* (default: localhost only)")  # fmt: skip
    keys = commands.add_parser("keys", parents=[common], help="manage scope-signing keys")
    key_commands = keys.add_subparsers(dest="keys_command", required=True, metavar="ACTION")
    rotate = key_commands.add_parser(
        "rotate",
        parents=[common],
        help="add a new signing key; older keys retire after a grace period",
    )
    rotate.add_argument("--grace-minutes", type=int, default=60, help="how long older keys keep verifying")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``scopedb`` console script."""
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(message)s")
    if not args.verbose:
        # The driver's and the pool's own warnings (a pipeline aborted by the error scopedb is about to report, a
        # connection discarded and replaced) would add lines to the one-line errors the command line promises.
        logging.getLogger("psycopg").setLevel(logging.ERROR)
    try:
        return _dispatch(args)
    except ScopedbError as exc:
        print(f"scopedb: {exc}", file=sys.stderr)
        return 2
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        print(f"scopedb: invalid {where}: {first['msg'].removeprefix('Value error, ')}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _dispatch(args: argparse.Namespace) -> int:
    from scopedb.database import Database
    from scopedb.server import resolve_server

    if args.command == "demo":
        from scopedb.demo import run_demo

        run_demo(args.dsn)
        return 0
    if args.command == "up":
        server = resolve_server(args.dsn)
        with Database(server) as db:
            db.migrate()
        print(server.dsn, flush=True)
        if server.backend == "dsn":
            return 0
        stop = threading.Event()
        # Installed explicitly: a process started in the background inherits SIGINT as ignored.
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: stop.set())
        with contextlib.suppress(KeyboardInterrupt):
            stop.wait()
        server.stop()
        return 0
    if args.command == "migrate":
        with Database.open(args.dsn) as db:
            db.migrate(embedding_dim=args.embedding_dim)
        print("scopedb: schema is at head")
        return 0
    if args.command == "ingest":
        return _ingest(args)
    if args.command == "search":
        return _search(args)
    if args.command == "audit":
        with Database.open(args.dsn) as db:
            findings = db.admin().audit()
        errors = [f for f in findings if f.severity == "error"]
        if args.format == "json":
            print(json.dumps([dataclasses.asdict(f) for f in findings], indent=2))
        else:
            print(_audit_table(findings))
        return 1 if errors else 0
    if args.command == "storage":
        if args.threshold < 1:
            raise ConfigurationError("--threshold must be a positive number of rows")
        with Database.open(args.dsn) as db:
            admin = db.admin()
            online = not args.offline
            actions = (
                admin.storage_plan(args.threshold, online=online)
                if args.plan
                else admin.maintain_storage(args.threshold, online=online, jobs=args.jobs)
            )
        for action in actions:
            print(f"scopedb: {'would ' if args.plan else ''}{action.action} ({action.statement})")
        print(f"scopedb: per-project storage {'needs' if args.plan else 'did'} {len(actions)} action(s)")
        return 0
    if args.command == "groups":
        with Database.open(args.dsn) as db:
            admin = db.admin()
            if args.groups_command == "create":
                group = admin.create_search_group(args.name, args.projects)
                print(f"scopedb: search group {group.name} declared; `scopedb storage` builds it")
            elif args.groups_command == "drop":
                if not admin.drop_search_group(args.name):
                    raise ConfigurationError(f"no search group named {args.name!r}")
                print(f"scopedb: search group {args.name} dropped")
            else:
                for group in admin.search_groups():
                    print(f"{group.name}\t{group.state}\t{', '.join(group.projects)}")
        return 0
    if args.command == "sweep":
        with Database.open(args.dsn) as db:
            expired, forgotten = db.admin().sweep_notes()
        print(f"scopedb: removed {expired} expired and {forgotten} forgotten note(s)")
        return 0
    if args.command == "agent-token":
        from scopedb.scope import ResourceScope

        if args.ttl_minutes < 1:
            raise ConfigurationError("--ttl-minutes must be at least 1")
        scope = ResourceScope(project_names=set(args.project), include_paths=args.path)
        with Database.open(args.dsn) as db:
            print(db.agent_token(scope, agent=args.agent, ttl_seconds=args.ttl_minutes * 60))
        return 0
    if args.command == "mcp":
        return _mcp(args)
    if args.command == "keys" and args.keys_command == "rotate":
        with Database.open(args.dsn) as db:
            key_id = db.admin().rotate_signing_key(grace=dt.timedelta(minutes=args.grace_minutes))
        print(f"scopedb: new signing key {key_id}; older keys verify for {args.grace_minutes} more minutes")
        return 0
    raise AssertionError(f"unhandled command {args.command}")


def _ingest(args: argparse.Namespace) -> int:
    from scopedb.database import Database
    from scopedb.embedders import load_embedder
    from scopedb.ingest import ingest_directory
    from scopedb.scope import ResourceScope

    root: Path = args.path
    if not root.is_dir():
        raise ScopedbError(f"{root} is not a directory")
    with Database.open(args.dsn) as db:
        db.migrate()
        resource = db.admin().ensure_resource(args.project, args.resource)
        with db.scoped(ResourceScope(project_names={args.project})) as s:
            embedder = load_embedder(args.embedder, dim=_dimension(s))
            summary = ingest_directory(
                s, root, project=args.project, resource_id=resource.id, embedder=embedder,
                max_chars=args.chunk_chars, progress=_progress,
            )  # fmt: skip
    print(file=sys.stderr)
    for name, why in summary.skipped_files:
        print(f"scopedb: skipped {name}: {why}", file=sys.stderr)
    print(
        f"scopedb: indexed {summary.files} file(s) ({summary.bytes} bytes) into {summary.fragments} fragment(s) "
        f"of {args.project}/{args.resource} in {summary.seconds:.1f} s; skipped {summary.skipped} file(s)"
    )
    return 0


def _dimension(session: ScopedSession) -> int:
    return session.embedding_dimension()


def _progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // max(total, 1)
    print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} files", end="", file=sys.stderr, flush=True)


def _search(args: argparse.Namespace) -> int:
    from scopedb.database import Database
    from scopedb.embedders import load_embedder
    from scopedb.scope import ResourceScope

    scope = ResourceScope(project_names={args.project}, include_paths=args.path)  # malformed globs fail here
    with Database.open(args.dsn) as db:
        if args.resource:
            resolved = db.resolve_resource_scope({args.project}, include=[args.resource])
            if not resolved.resource_ids:
                raise ScopedbError(f"no resource {args.resource!r} in {args.project!r}")
            scope = ResourceScope(
                project_names=resolved.project_names,
                resource_ids=resolved.resource_ids,
                denied_resource_ids=resolved.denied_resource_ids,
                resources_narrowed=True,
                include_paths=args.path,
            )
        with db.scoped(scope) as s:
            if args.text is not None:
                for hit in s.search_text(args.text, limit=args.limit):
                    print(f"{hit.rank:8.4f}  {hit.fragment.path}  {_one_line(hit.snippet)}")
            elif args.similar is not None:
                embedder = load_embedder(args.embedder, dim=_dimension(s))
                text = Path(args.similar).read_text(encoding="utf-8")
                for vhit in s.search_vector(embedder(text), limit=args.limit):
                    print(f"{vhit.distance:8.4f}  {vhit.fragment.path}  {_one_line(vhit.fragment.content)[:100]}")
            else:
                result = s.search_graph(args.graph, depth=args.depth)
                for node in result.nodes:
                    print(f"node  {node.id}  ({node.kind})")
                for edge in result.edges:
                    print(f"edge  {edge.src} -{edge.relation}-> {edge.dst}")
    return 0


def _mcp(args: argparse.Namespace) -> int:
    import os

    from scopedb.database import Database
    from scopedb.embedders import load_embedder

    try:
        import anyio
        import uvicorn

        from scopedb import mcp_server
    except ImportError:
        raise ConfigurationError("scopedb mcp needs the mcp extra: pip install 'scopedb[mcp]'") from None
    if args.http and (args.token or args.scope_file):
        raise ConfigurationError("over HTTP each request brings its own agent token: drop --token / --scope-file")
    token = args.token or os.environ.get("SCOPEDB_AGENT_TOKEN")
    with Database.open(args.dsn) as db:
        embedder = load_embedder(args.embedder, dim=db.embedding_dimension())
        tools = mcp_server.ScopedTools(db, embedder=embedder)
        if args.http:
            host, _, port = args.http.rpartition(":")
            if not host or not port.isdigit():
                raise ConfigurationError("--http takes HOST:PORT")
            served = mcp_server.http_app(tools, allowed_hosts=args.allowed_host)
            uvicorn.run(served.app, host=host, port=int(port), log_level="warning")
            return 0
        grant = mcp_server.stdio_grant(db, token=token, scope_file=args.scope_file)
        anyio.run(mcp_server.serve_stdio, tools, grant)
    return 0


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _audit_table(findings: Sequence[Finding]) -> str:
    if not findings:
        return "scopedb audit: no findings (no errors, no warnings)"
    width = max(len(f.object) for f in findings)
    lines = [f"{'severity':<8} {'code':<5} {'object':<{width}}  message / fix"]
    for f in findings:
        lines.append(f"{f.severity:<8} {f.code:<5} {f.object:<{width}}  {f.message}")
        lines.append(f"{'':<8} {'':<5} {'':<{width}}  fix: {f.fix}")
    errors = sum(f.severity == "error" for f in findings)
    summary = f"{errors} error(s), {len(findings) - errors} warning(s)" if errors else "no errors"
    return "\n".join([*lines, f"scopedb audit: {summary}"])


if __name__ == "__main__":
    raise SystemExit(main())
