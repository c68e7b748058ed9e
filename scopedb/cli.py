"""The ``scopedb`` command line.

Every command takes ``--dsn`` (default: ``SCOPEDB_DATABASE_URL``, then the embedded server). Failures print one
line to stderr and exit with status 2 (1 is kept for "the command ran and found a problem", e.g. an audit error).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import logging
import signal
import sys
import threading
from collections.abc import Sequence

from scopedb import sqlfiles
from scopedb.errors import ScopedbError

log = logging.getLogger("scopedb")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scopedb", description="Postgres row-level security for retrieval.")
    parser.add_argument("--dsn", help="PostgreSQL URL (default: $SCOPEDB_DATABASE_URL, else the embedded server)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log what scopedb does")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    commands.add_parser("up", help="start the embedded server, print its DSN, keep it running until Ctrl-C")
    migrate = commands.add_parser("migrate", help="bring the schema to the latest revision")
    migrate.add_argument(
        "--embedding-dim",
        type=int,
        default=sqlfiles.DEFAULT_EMBEDDING_DIM,
        help=f"width of fragments.embedding, fixed by the first migration (default {sqlfiles.DEFAULT_EMBEDDING_DIM})",
    )
    commands.add_parser("demo", help="two tenants side by side: what each scope sees, what is refused")
    commands.add_parser("sweep", help="physically remove expired and forgotten memory notes")
    keys = commands.add_parser("keys", help="manage scope-signing keys")
    key_commands = keys.add_subparsers(dest="keys_command", required=True, metavar="ACTION")
    rotate = key_commands.add_parser("rotate", help="add a new signing key; older keys retire after a grace period")
    rotate.add_argument("--grace-minutes", type=int, default=60, help="how long older keys keep verifying")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``scopedb`` console script."""
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(message)s")
    try:
        return _dispatch(args)
    except ScopedbError as exc:
        print(f"scopedb: {exc}", file=sys.stderr)
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
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        with contextlib.suppress(KeyboardInterrupt):
            stop.wait()
        server.stop()
        return 0
    if args.command == "migrate":
        with Database.open(args.dsn) as db:
            db.migrate(embedding_dim=args.embedding_dim)
        print("scopedb: schema is at head")
        return 0
    if args.command == "sweep":
        with Database.open(args.dsn) as db:
            expired, forgotten = db.admin().sweep_notes()
        print(f"scopedb: removed {expired} expired and {forgotten} forgotten note(s)")
        return 0
    if args.command == "keys" and args.keys_command == "rotate":
        with Database.open(args.dsn) as db:
            key_id = db.admin().rotate_signing_key(grace=dt.timedelta(minutes=args.grace_minutes))
        print(f"scopedb: new signing key {key_id}; older keys verify for {args.grace_minutes} more minutes")
        return 0
    raise AssertionError(f"unhandled command {args.command}")


if __name__ == "__main__":
    raise SystemExit(main())
