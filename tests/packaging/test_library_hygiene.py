"""The installed package is a library: it brings no repository habits, no missing imports, no needless driver."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

from scopedb.cli import _parser

PACKAGE = Path(__file__).resolve().parents[2] / "scopedb"


def _run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd, check=False)


def test_the_scope_model_and_view_layer_load_without_the_driver() -> None:
    probe = (
        "import sys, scopedb.view, scopedb.backends.memory\n"
        "print(sorted(m for m in ('psycopg', 'numpy', 'pgvector', 'psycopg_pool') if m in sys.modules))"
    )
    done = _run("-c", probe)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_project_with_its_own_slow_option_runs_its_tests(tmp_path: Path) -> None:
    """scopedb's pytest plugin loads in every project that installs scopedb; it must not claim ``--slow``."""
    (tmp_path / "conftest.py").write_text(
        textwrap.dedent("""
        def pytest_addoption(parser):
            parser.addoption("--slow", action="store_true", default=False)
    """)
    )
    (tmp_path / "test_mine.py").write_text("import pytest\n\n@pytest.mark.slow\ndef test_long():\n    pass\n")
    done = _run(
        "-m", "pytest", "-q", "-p", "no:cacheprovider", "-W", "ignore::pytest.PytestUnknownMarkWarning", cwd=tmp_path
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout  # the plugin skipped nothing on the project's behalf


def test_no_module_of_the_package_imports_the_repositorys_own_folders() -> None:
    """The wheel holds scopedb/ only: importing bench/, tests/ or .ci from it fails for every user."""
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in {"bench", "tests"}]
    assert offenders == []


def test_every_command_takes_dsn_where_users_type_it() -> None:
    parser = _parser()
    assert parser.parse_args(["migrate", "--dsn", "postgresql:///after"]).dsn == "postgresql:///after"
    assert parser.parse_args(["--dsn", "postgresql:///before", "migrate"]).dsn == "postgresql:///before"
    assert parser.parse_args(["--dsn", "postgresql:///a", "audit", "--dsn", "postgresql:///b"]).dsn == "postgresql:///b"
    assert parser.parse_args(["keys", "rotate", "--dsn", "postgresql:///k"]).dsn == "postgresql:///k"
    assert parser.parse_args(["storage", "-v"]).verbose is True
    assert parser.parse_args(["sweep"]).dsn is None
