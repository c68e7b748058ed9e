"""The built wheel is a complete scopedb: installed into a clean virtualenv and run from outside the repository,
``scopedb migrate`` and ``scopedb demo`` work, with the SQL and alembic scripts the wheel carries.

The default test installs the wheel itself into an empty virtualenv (no pip, no scopedb, no source tree) and lends
it the already-installed dependencies through a path file, which keeps it to seconds. The ``--slow`` variant
installs the wheel with its declared dependencies from the package index, as a user's ``pip install`` does, so a
dependency missing from ``pyproject.toml`` fails it.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from scopedb.testing import ScopedbTestServer, embedded_home

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """scopedb's wheel, built from this checkout (without build isolation: hatchling is a dev dependency)."""
    dist = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(dist),
            str(REPO),
        ],
        check=True,
        capture_output=True,
    )
    (built,) = dist.glob("scopedb-*.whl")
    return built


@pytest.fixture
def empty_database(scopedb_server: ScopedbTestServer) -> Iterator[str]:
    """An administrative DSN for a new, empty database (pgvector available, nothing migrated)."""
    name = f"scopedb_wheel_{os.getpid()}"
    with psycopg.connect(scopedb_server.admin_dsn("postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield scopedb_server.admin_dsn(name)
    finally:
        with psycopg.connect(scopedb_server.admin_dsn("postgres"), autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def _clean_env(home: Path) -> dict[str, str]:
    """No variable that could point the installed copy back at this checkout or at the test server."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SCOPEDB_", "PYTHON", "VIRTUAL_ENV"))}
    env["SCOPEDB_HOME"] = str(home)
    return env


def _check_installed_copy(venv: Path, wheel: Path, dsn: str, workdir: Path) -> None:
    """Run the installed console script from ``workdir`` (outside the repository): migrate, then the demo."""
    with embedded_home("scopedb-wheel-home-") as home:
        _check_installed_copy_in(venv, dsn, workdir, _clean_env(home))


def _check_installed_copy_in(venv: Path, dsn: str, workdir: Path, env: dict[str, str]) -> None:
    python, scopedb = venv / "bin" / "python", venv / "bin" / "scopedb"
    where = "import scopedb, scopedb.sqlfiles as f; print(scopedb.__file__); print(f.resource_dir('sql'))"
    located = subprocess.run(
        [str(python), "-c", where], cwd=workdir, env=env, check=True, capture_output=True, text=True
    ).stdout.split()
    assert all(Path(p).resolve().is_relative_to(venv.resolve()) for p in located), located
    assert Path(located[1]).name == "_sql"  # the packaged copy, not the checkout's sql/

    migrate = subprocess.run(
        [str(scopedb), "--dsn", dsn, "migrate"], cwd=workdir, env=env, capture_output=True, text=True, timeout=300
    )
    assert migrate.returncode == 0, migrate.stderr
    with psycopg.connect(dsn) as conn:
        head = sorted(p.stem for p in (REPO / "alembic" / "versions").glob("0*.py"))[-1].split("_", 1)[0]
        assert conn.execute("SELECT version_num FROM scopedb_migrations.alembic_version").fetchone() == (head,)
        assert conn.execute("SELECT count(*) FROM pg_policies WHERE schemaname = 'scopedb'").fetchone()[0] > 0  # type: ignore[index]

    demo = subprocess.run([str(scopedb), "demo"], cwd=workdir, env=env, capture_output=True, text=True, timeout=300)
    assert demo.returncode == 0, demo.stderr
    assert "scopedb demo on embedded PostgreSQL" in demo.stdout
    assert "audit: 0 error(s)" in demo.stdout


def test_the_wheel_carries_everything_scopedb_needs(wheel: Path, empty_database: str, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    target_python = venv / "bin" / "python"
    pip_install = [sys.executable, "-m", "pip", "--python", str(target_python), "install", "--quiet"]
    subprocess.run([*pip_install, "--no-deps", "--no-index", str(wheel)], check=True, capture_output=True)
    # Lend the dependencies this test run already has; scopedb itself comes only from the wheel just installed.
    purelib = Path(sysconfig.get_paths(vars={"base": str(venv), "platbase": str(venv)})["purelib"])
    (purelib / "_lent_dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    _check_installed_copy(venv, wheel, empty_database, tmp_path)


@pytest.mark.slow
def test_pip_install_of_the_wheel_with_its_dependencies(wheel: Path, empty_database: str, tmp_path: Path) -> None:
    # Run as root, the embedded server switches to its own system user, which must be able to reach the
    # PostgreSQL binaries inside this venv: so the venv lives in a directory others can traverse.
    place = Path(tempfile.mkdtemp(prefix="scopedb-wheel-"))
    place.chmod(0o755)
    try:
        venv = place / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pip_install = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
        subprocess.run([*pip_install, str(wheel)], check=True, timeout=1200)
        _check_installed_copy(venv, wheel, empty_database, tmp_path)
    finally:
        shutil.rmtree(place, ignore_errors=True)
