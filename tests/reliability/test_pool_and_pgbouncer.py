"""Pool reuse under concurrency, directly and through a transaction-pooling PgBouncer.

Every transaction runs in a random scope and checks every row it sees; every transaction also starts by checking
that its session carries nothing from an earlier borrower (settings, held cursors, prepared statements, listens,
advisory locks) and ends by leaving all of those behind for the next one.
"""

from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from scopedb import Database, ResourceScope
from scopedb.server import Server
from tests.conftest import Tenants

LEFTOVERS = """
SELECT (SELECT count(*) FROM pg_cursors), (SELECT count(*) FROM pg_prepared_statements WHERE from_sql),
       (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()),
       (SELECT count(*) FROM pg_listening_channels())
"""


def _workload(db: Database, tenants: Tenants, transactions: int, workers: int, *, check_leftovers: bool) -> int:
    a1 = tenants.resources["a1"].id
    scopes = [
        (ResourceScope(project_names={"acme/api"}), {tenants.a.id}, None),
        (ResourceScope(project_names={"beta/web"}), {tenants.b.id}, None),
        (ResourceScope(project_names={"acme/api", "beta/web"}), {tenants.a.id, tenants.b.id}, None),
        (ResourceScope(project_names={"acme/api"}, resource_ids={a1}), {tenants.a.id}, {a1}),
    ]
    errors: list[BaseException] = []
    checked = [0] * workers

    def run(worker: int) -> None:
        rng = random.Random(worker)
        try:
            for _ in range(transactions // workers):
                scope, projects, resources = rng.choice(scopes)
                with db.scoped(scope) as s:
                    if check_leftovers:
                        assert s.execute(LEFTOVERS).one() == (0, 0, 0, 0), "inherited session state"
                    rows = s.execute("SELECT project_id, resource_id FROM scopedb.fragments").rows
                    assert rows, "every scope sees some fragments"
                    assert {r[0] for r in rows} <= projects, "saw a row of a project outside the scope"
                    if resources is not None:
                        assert {r[1] for r in rows} <= resources, "saw a row of a resource outside the scope"
                    checked[worker] += len(rows)
                    if check_leftovers:
                        s.execute(
                            "SELECT set_config('scopedb.scope_token', current_setting('scopedb.scope_token'), false)"
                        )
                        s.execute("DECLARE held CURSOR WITH HOLD FOR SELECT id FROM scopedb.fragments")
                        s.execute("PREPARE leftover AS SELECT content FROM scopedb.fragments")
                        s.execute("LISTEN scopedb_test")
                        s.execute("SELECT pg_advisory_lock(7)")
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(w,)) for w in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors[:3]
    return sum(checked)


def test_10000_pooled_transactions_with_8_workers(tenants: Tenants) -> None:
    server = Server(dsn=tenants.db.dsn, backend=tenants.db.server.backend)
    db = Database(server, app_dsn=tenants.db.app_dsn, pool_size=8)
    try:
        rows = _workload(db, tenants, 10_000, 8, check_leftovers=True)
    finally:
        db.close()
    assert rows > 10_000


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def pgbouncer(tenants: Tenants) -> Iterator[str]:
    """A PgBouncer in transaction mode in front of the test database, on a free loopback port."""
    binary = shutil.which("pgbouncer") or next(
        (str(p) for p in (Path("/usr/sbin/pgbouncer"), Path("/usr/bin/pgbouncer")) if p.exists()), None
    )
    if binary is None:
        pytest.skip("pgbouncer is not installed (.ci/run installs Debian's pgbouncer)")
    params = psycopg.conninfo.conninfo_to_dict(tenants.db.app_dsn)
    host = str(params.get("host", ""))
    if not host.startswith("/"):
        pytest.skip("this test fronts a server reached over a local socket")
    port = _free_port()
    workdir = Path(tempfile.mkdtemp(prefix="scopedb-pgbouncer-"))
    workdir.chmod(0o777)
    ini = workdir / "pgbouncer.ini"
    ini.write_text(
        "[databases]\n"
        f"scopedb = host={host} dbname={params['dbname']} user={params['user']}\n"
        "[pgbouncer]\n"
        f"listen_addr = 127.0.0.1\nlisten_port = {port}\n"
        "auth_type = any\npool_mode = transaction\nmax_client_conn = 100\ndefault_pool_size = 4\n"
        f"logfile = {workdir}/pgbouncer.log\npidfile = {workdir}/pgbouncer.pid\nunix_socket_dir =\n"
        "ignore_startup_parameters = extra_float_digits\n"
    )
    ini.chmod(0o644)
    command = [binary, str(ini)]
    if os.geteuid() == 0:  # pgbouncer refuses to run as root; use the embedded server's own system user
        command = [binary, "-u", "pgserver", str(ini)]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    dsn = f"host=127.0.0.1 port={port} dbname=scopedb user={params['user']}"
    deadline = time.monotonic() + 20
    while True:
        try:
            psycopg.connect(dsn, connect_timeout=2).close()
            break
        except psycopg.OperationalError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                log = (workdir / "pgbouncer.log").read_text() if (workdir / "pgbouncer.log").exists() else ""
                pytest.fail(f"pgbouncer did not start: {log[-2000:]}")
            time.sleep(0.2)
    try:
        yield dsn
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_the_same_workload_through_pgbouncer_transaction_pooling(tenants: Tenants, pgbouncer: str) -> None:
    # PgBouncer 1.18 in transaction mode cannot carry the driver's prepared statements between transactions.
    db = Database(Server(dsn=tenants.db.dsn, backend=tenants.db.server.backend), app_dsn=pgbouncer, pool_size=8,
                  prepared_statements=False)  # fmt: skip
    try:
        # Through transaction pooling, session state cannot be checked per borrower (the server connection changes
        # under the client), which is exactly why scopedb keeps the scope transaction-local.
        rows = _workload(db, tenants, 2_000, 8, check_leftovers=False)
    finally:
        db.close()
    assert rows > 2_000
