"""The scopedb command line: a terminal session of the demo, ingest and search, up, and one-line errors."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scopedb.testing import ScopedbTestServer, embedded_home

SCOPEDB = [sys.executable, "-m", "scopedb.cli"]


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*SCOPEDB, *args], capture_output=True, text=True, timeout=300, check=False, env=env)


def test_demo_in_a_terminal(scopedb_server: ScopedbTestServer) -> None:
    """Run `scopedb demo` on a pseudo-terminal, as a newcomer would, and check its key lines."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [*SCOPEDB, "--dsn", scopedb_server.admin_dsn("postgres"), "demo"], stdout=slave, stderr=slave, close_fds=True
    )
    os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 1)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    os.close(master)
    assert proc.wait(timeout=30) == 0
    text = b"".join(chunks).decode("utf-8", errors="replace").replace("\r\n", "\n")
    assert "indexed acme/api: 120 fragments, globex/web: 107 fragments" in text
    for heading in ('text search "token"', 'vector search "how long do tokens live"', "graph: 2 hops from"):
        assert heading in text
    acme_side = [line.split(" | ")[0] for line in text.splitlines() if " | " in line]
    assert not any("Globex" in cell or "app/" in cell for cell in acme_side)
    assert "SELECT globex's fragments by project id        -> 0 rows" in text
    assert "INSERT into globex                             -> PermissionDeniedError" in text
    assert "enter a forged scope token for globex          -> InvalidSignatureError" in text
    assert "set_config() the forged token, then read       -> 0 rows" in text
    assert "audit: 0 error(s)" in text


def test_ingest_then_search_text_vector_and_path(scopedb_server: ScopedbTestServer, tmp_path: Path) -> None:
    dsn = scopedb_server.admin_dsn("postgres")
    (tmp_path / "src").mkdir()
    (tmp_path / ".git").mkdir()
    (tmp_path / "src" / "deploy.md").write_text(
        "The deploy pipeline runs the canary first.\n\nRollbacks are automatic."
    )
    (tmp_path / "notes.txt").write_text("The canary serves one percent of traffic.")
    (tmp_path / ".git" / "config").write_text("canary secret in a hidden directory")
    (tmp_path / "image.bin").write_bytes(b"\x00\x01\x02")
    done = _run("--dsn", dsn, "ingest", str(tmp_path), "--project", "cli/p", "--resource", "repo")
    assert done.returncode == 0, done.stderr
    assert "indexed 2 file(s)" in done.stdout
    assert "skipped 1 file(s)" in done.stdout
    assert "skipped image.bin: binary or not UTF-8" in done.stderr
    assert "3/3 files" in done.stderr  # the progress bar
    found = _run("--dsn", dsn, "search", "--project", "cli/p", "--text", "canary")
    assert found.returncode == 0, found.stderr
    assert {line.split()[1] for line in found.stdout.splitlines()} == {"src/deploy.md", "notes.txt"}
    narrowed = _run(
        "--dsn", dsn, "search", "--project", "cli/p", "--resource", "repo", "--path", "src/**", "--text", "canary"
    )
    assert [line.split()[1] for line in narrowed.stdout.splitlines()] == ["src/deploy.md"]
    similar = _run(
        "--dsn", dsn, "search", "--project", "cli/p", "--similar", str(tmp_path / "notes.txt"), "--limit", "1"
    )
    assert similar.stdout.split()[1] == "notes.txt"
    plan = _run("--dsn", dsn, "storage", "--threshold", "1", "--plan")
    assert plan.returncode == 0, plan.stderr
    assert "would hnsw (CREATE INDEX CONCURRENTLY" in plan.stdout
    offline_plan = _run("--dsn", dsn, "storage", "--threshold", "1", "--plan", "--offline")
    assert "would hnsw (CREATE INDEX IF NOT EXISTS" in offline_plan.stdout, offline_plan.stdout
    built = _run("--dsn", dsn, "storage", "--threshold", "1", "--offline")
    assert built.returncode == 0, built.stderr
    assert "scopedb: per-project storage did" in built.stdout
    assert _run("--dsn", dsn, "storage", "--threshold", "1", "--plan").stdout.strip().endswith("needs 0 action(s)")
    assert _run("--dsn", dsn, "search", "--project", "cli/p", "--text", "canary").stdout == found.stdout


def test_search_groups_are_declared_built_listed_and_dropped(scopedb_server: ScopedbTestServer, tmp_path: Path) -> None:
    dsn = scopedb_server.admin_dsn("postgres")
    (tmp_path / "a.md").write_text("Groups are searched through one index.")
    for project in ("cli/g1", "cli/g2"):
        assert _run("--dsn", dsn, "ingest", str(tmp_path), "--project", project, "--resource", "repo").returncode == 0
    refused = _run("--dsn", dsn, "groups", "create", "alone", "cli/g1")
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines() == ["scopedb: a search group needs at least two projects"]
    created = _run("--dsn", dsn, "groups", "create", "cli-pair", "cli/g1", "cli/g2")
    assert created.returncode == 0, created.stderr
    assert "cli-pair\tdeclared\tcli/g1, cli/g2" in _run("--dsn", dsn, "groups", "list").stdout
    built = _run("--dsn", dsn, "storage", "--threshold", "1", "--offline")
    assert "group_fill" in built.stdout, built.stdout
    assert "group_ready" in built.stdout, built.stdout
    assert "cli-pair\tready\tcli/g1, cli/g2" in _run("--dsn", dsn, "groups", "list").stdout
    assert _run("--dsn", dsn, "groups", "drop", "cli-pair").returncode == 0
    missing = _run("--dsn", dsn, "groups", "drop", "cli-pair")
    assert missing.returncode == 2
    assert "no search group named 'cli-pair'" in missing.stderr
    assert "cli-pair" not in _run("--dsn", dsn, "groups", "list").stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["search", "--project", "cli/none", "--text", "x"], "project that does not exist"),
        (["search", "--project", "cli/p", "--path", "a//b", "--text", "x"], "invalid include_paths"),
        (["search", "--project", "cli/p", "--resource", "nope", "--text", "x"], "no resource 'nope'"),
        (["ingest", "/does/not/exist", "--project", "cli/p", "--resource", "r"], "is not a directory"),
    ],
)
def test_errors_are_one_clear_line(scopedb_server: ScopedbTestServer, args: list[str], message: str) -> None:
    _run("--dsn", scopedb_server.admin_dsn("postgres"), "migrate")
    result = _run("--dsn", scopedb_server.admin_dsn("postgres"), *args)
    assert result.returncode == 2
    assert result.stderr.strip().startswith("scopedb: ")
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_bad_dsn_fails_fast_in_one_line() -> None:
    started = time.monotonic()
    result = _run("--dsn", "postgresql://nobody@/none?host=/nonexistent", "audit")
    assert result.returncode == 2
    assert result.stderr.startswith("scopedb: could not connect")
    assert len(result.stderr.strip().splitlines()) == 1
    assert time.monotonic() - started < 30


def test_up_prints_the_dsn_and_stops_on_ctrl_c() -> None:
    if os.environ.get("SCOPEDB_DATABASE_URL") or os.environ.get("SCOPEDB_BACKEND"):
        pytest.skip("`scopedb up` starts the embedded server")
    with embedded_home("scopedb-up-") as home:
        _up_and_stop({**os.environ, "SCOPEDB_HOME": str(home)})


def _up_and_stop(env: dict[str, str]) -> None:
    proc = subprocess.Popen([*SCOPEDB, "up"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    dsn = proc.stdout.readline().strip()
    assert "dbname=scopedb" in dsn
    keys = _run("--dsn", dsn, "keys", "rotate", "--grace-minutes", "5")
    assert "new signing key" in keys.stdout
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == 0


def test_scopedb_mcp_without_its_extra_is_one_line() -> None:
    """With the mcp package absent (blocked here), `scopedb mcp` names the extra to install; no traceback."""
    program = (
        "import sys; sys.modules['mcp'] = None; "  # `import mcp` now raises ImportError, as if not installed
        "from scopedb.cli import main; raise SystemExit(main(['mcp']))"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == "scopedb: scopedb mcp needs the mcp extra: pip install 'scopedb[mcp]'"
