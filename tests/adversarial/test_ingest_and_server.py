"""What the command line reads and where the embedded server listens (catalogue #68 to #70).

The attacker here is someone who can shape what ``scopedb ingest DIR`` is pointed at (a repository with a
symlink in it, or odd file names), or another OS user on the machine where scopedb started its own server.
"""

from __future__ import annotations

import os
import pwd
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from scopedb.errors import ConfigurationError
from scopedb.ingest import ingest_directory
from scopedb.server import Server, start_embedded
from scopedb.testing import ScopedbTestServer, embedded_home
from tests.conftest import Tenants

CREDENTIAL = "aws_secret_access_key = AKIA-NOT-FOR-THE-INDEX"


def _tree(tmp_path: Path) -> Path:
    outside = tmp_path / "home"
    outside.mkdir()
    (outside / "credentials").write_text(CREDENTIAL)
    repo = tmp_path / "repo"
    (repo / "docs").mkdir(parents=True)
    (repo / "docs" / "guide.md").write_text("How to deploy the canary.")
    (repo / "docs" / "setup.md").symlink_to(outside / "credentials")  # a link out of the directory
    (repo / "docs" / "alias.md").symlink_to(repo / "docs" / "guide.md")  # a link inside it: fine
    (repo / "linked-home").symlink_to(outside, target_is_directory=True)  # a directory link: not followed
    os.makedirs(os.fsencode(repo) + b"/raw", exist_ok=True)
    with open(os.fsencode(repo) + b"/raw/name-\xff.txt", "wb") as handle:  # a name that is not UTF-8
        handle.write(b"latin-1 name")
    (repo / "raw" / "two\nlines.txt").write_text("a newline in the name")
    (repo / "raw" / "huge.txt").write_text("x" * 5000)
    os.mkfifo(repo / "raw" / "pipe")
    return repo


def test_68_ingest_never_reads_a_file_outside_the_directory(tenants: Tenants, tmp_path: Path) -> None:
    """``scopedb ingest DIR`` followed file symlinks out of DIR: ``docs/setup.md -> ~/credentials`` was indexed
    into the tenant's project. Names that are not UTF-8 ended it with a traceback, a newline in a name became a
    path, files were read whole whatever their size."""
    repo = _tree(tmp_path)
    resource = tenants.db.admin().create_resource("acme/api", alias="checkout")
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        summary = ingest_directory(s, repo, project="acme/api", resource_id=resource.id, max_file_bytes=4096)
        indexed = {r[0]: r[1] for r in s.execute("SELECT path, content FROM scopedb.fragments "
                                                 "WHERE resource_id = %s", (resource.id,))}  # fmt: skip
    assert set(indexed) == {"docs/guide.md", "docs/alias.md"}
    assert not any(CREDENTIAL in content for content in indexed.values())
    why = dict(summary.skipped_files)
    assert why["docs/setup.md"] == "a link to a file outside the directory"
    assert why["raw/two\\nlines.txt"] == "the file name holds control characters"  # shown escaped
    assert why["raw/name-\\udcff.txt"] == "the file name is not UTF-8"
    assert why["raw/huge.txt"] == "larger than 4096 bytes"
    assert why["raw/pipe"] == "not a regular file"
    assert summary.files == 2


def test_68_the_command_line_says_what_it_skipped_in_one_line_each(
    scopedb_server: ScopedbTestServer, tmp_path: Path
) -> None:
    repo = _tree(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "scopedb.cli", "--dsn", scopedb_server.admin_dsn("postgres"), "ingest", str(repo),
         "--project", "cli/links", "--resource", "repo"],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "skipped docs/setup.md: a link to a file outside the directory" in done.stderr
    assert "skipped raw/name-\\udcff.txt: the file name is not UTF-8" in done.stderr
    assert "skipped raw/two\\nlines.txt: the file name holds control characters" in done.stderr
    assert "indexed 3 file(s)" in done.stdout  # guide.md, alias.md, and huge.txt (under the default size cap)
    with psycopg.connect(scopedb_server.admin_dsn("postgres")) as conn:
        leaked = conn.execute("SELECT count(*) FROM scopedb.fragments WHERE content LIKE %s",
                              (f"%{CREDENTIAL}%",)).fetchone()  # fmt: skip
    assert leaked == (0,)


def _as_another_user(code: str) -> subprocess.CompletedProcess[str]:
    """Run the system's Python as the unprivileged OS user 'nobody' (the test runs as root)."""
    nobody = pwd.getpwnam("nobody")

    def drop() -> None:
        os.setgid(nobody.pw_gid)
        os.setuid(nobody.pw_uid)

    return subprocess.run(["/usr/bin/python3", "-c", code], capture_output=True, text=True, timeout=60,
                          check=False, preexec_fn=drop, cwd="/")  # fmt: skip


@pytest.fixture
def root_only() -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root, to try the server as another OS user")


def test_69_a_home_too_long_for_a_private_socket_is_refused(tmp_path: Path) -> None:
    """With a 128-character SCOPEDB_HOME the socket path is too long; the embedded server moved the socket to a
    world-writable directory under /tmp, where pg_hba trusts local connections: any OS user connected as
    superuser. scopedb now refuses such a home, with a clear error, before starting anything."""
    home = tmp_path / ("h" * (128 - len(str(tmp_path)) - 1))
    with pytest.raises(ConfigurationError, match="too long"):
        start_embedded(home, database="scopedb")


def test_69_no_other_os_user_can_reach_the_embedded_server(root_only: None, scopedb_server: ScopedbTestServer) -> None:
    """The socket stays in the server's private data directory: another OS user cannot even reach it."""
    if not Path("/usr/bin/python3").exists():
        pytest.skip("needs the system's /usr/bin/python3 to probe as another user")
    params = psycopg.conninfo.conninfo_to_dict(scopedb_server.admin_dsn("postgres"))
    socket_path = os.path.join(str(params["host"]), f".s.PGSQL.{params.get('port') or 5432}")
    assert os.path.exists(socket_path)  # control: root sees the socket
    probe = (
        "import socket\ns = socket.socket(socket.AF_UNIX)\n"
        f"try:\n    s.connect({socket_path!r})\n    print('CONNECTED')\n"
        "except OSError as exc:\n    print(type(exc).__name__)"
    )
    done = _as_another_user(probe)
    assert done.returncode == 0, done.stderr
    assert "CONNECTED" not in done.stdout, done.stdout


def test_70_starting_as_root_does_not_widen_the_home_s_parents(root_only: None) -> None:
    """Started as root, the embedded server runs as the 'pgserver' system user and used to chmod every parent of
    SCOPEDB_HOME so that user could reach it. scopedb refuses a home it cannot reach that way instead, and
    changes nothing.

    The home sits under a short temporary directory, not pytest's tmp_path: under xdist that path grows with the
    run counter and the worker's name, and past 107 bytes of socket path the length check refuses the home first.
    """
    with embedded_home("sdb-") as base:
        private = base / "private"
        private.mkdir(mode=0o700)
        home = private / "scopedb"
        before = [base.stat().st_mode, private.stat().st_mode]
        with pytest.raises(ConfigurationError, match="cannot reach"):
            start_embedded(home, database="scopedb")
        assert [base.stat().st_mode, private.stat().st_mode] == before


def test_71_the_server_s_repr_holds_no_password() -> None:
    """``repr(db.server)`` included the admin DSN with its password (in logs, tracebacks, debuggers)."""
    server = Server(dsn="postgresql://admin:s3cr3t-pass@db.internal:5432/scopedb", backend="dsn")
    assert "s3cr3t-pass" not in repr(server)
    assert "db.internal" in repr(server)
