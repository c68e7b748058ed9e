"""What entering a signed scope costs, on the embedded server, measured from Python.

Reported (medians over ``repeat`` transactions, in milliseconds):

* ``enter``: BEGIN + SET LOCAL ROLE + scopedb.enter_scope(token) — one round trip, including signing the token;
* ``transaction``: a whole ``with db.scoped(scope)`` block that does nothing (borrow, enter, commit, clean up);
* ``point_lookup_scoped`` / ``point_lookup_owner``: one primary-key SELECT inside an entered scope, and the same
  SELECT by the owner with the project written as a WHERE clause — the per-statement price of the policies;
* ``select_1``: the round trip itself, the floor under everything above.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg

from scopedb import Database, Fragment, ResourceScope
from scopedb.server import start_embedded

RESULTS = Path(__file__).resolve().parent / "results"


def _median_ms(action: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


def main(*, repeat: int = 2000) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as home:
        server = start_embedded(Path(home))
        with Database(server) as db:
            db.migrate()
            admin = db.admin()
            admin.create_project("bench/a")
            admin.create_project("bench/b")
            scope = ResourceScope(project_names={"bench/a"})
            with db.scoped(ResourceScope(project_names={"bench/a", "bench/b"})) as s:
                s.add_fragments(
                    Fragment(project=p, id=f"f{n}", content=f"fragment {n}")
                    for p in ("bench/a", "bench/b")
                    for n in range(500)
                )
                project_id = s.projects["bench/a"]
            with psycopg.connect(db.dsn, autocommit=True) as owner:
                owner.execute("ANALYZE scopedb.fragments")
            pool = db._pool("app")
            with pool.connection() as conn:

                def enter() -> None:
                    db._enter_token(conn, db.sign(scope))
                    conn.execute("ROLLBACK")

                enter_ms = _median_ms(enter, repeat)
                select_1 = _median_ms(lambda: conn.execute("SELECT 1").fetchall(), repeat)
                db._enter_token(conn, db.sign(scope))
                lookup = "SELECT content FROM scopedb.fragments WHERE project_id = %s AND id = 'f7'"
                scoped_ms = _median_ms(lambda: conn.execute(lookup, (project_id,)).fetchall(), repeat)
                conn.execute("ROLLBACK")

            def empty_transaction() -> None:
                with db.scoped(scope):
                    pass

            transaction_ms = _median_ms(empty_transaction, repeat)
            with psycopg.connect(db.dsn, autocommit=True) as owner:
                owner_ms = _median_ms(lambda: owner.execute(lookup, (project_id,)).fetchall(), repeat)
            server.stop()
    # enter() includes one extra round trip (its ROLLBACK); report the entry alone as well.
    result = {
        "repeat": repeat,
        "select_1_ms": round(select_1, 4),
        "enter_plus_rollback_ms": round(enter_ms, 4),
        "enter_ms": round(enter_ms - select_1, 4),
        "transaction_ms": round(transaction_ms, 4),
        "point_lookup_scoped_ms": round(scoped_ms, 4),
        "point_lookup_owner_ms": round(owner_ms, 4),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "scope_entry.json").write_text(json.dumps(result, indent=2) + "\n")
    for key, value in result.items():
        print(f"{key:>26}: {value}")
    return result


if __name__ == "__main__":
    main()
