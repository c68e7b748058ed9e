"""The demo prints what each tenant sees and what is refused; the CLI fails with one clear line."""

from __future__ import annotations

import subprocess
import sys

from scopedb.demo import run_demo
from scopedb.testing import ScopedbTestServer


def test_demo_shows_both_scopes_and_the_refusals(scopedb_server: ScopedbTestServer) -> None:
    lines: list[str] = []
    run_demo(scopedb_server.admin_dsn("postgres"), out=lines.append)
    text = "\n".join(lines)
    acme = text[text.index("scope {acme/api}") : text.index("scope {globex/web}")]
    globex = text[text.index("scope {globex/web}") : text.index("refused:")]
    assert "src/auth/session.py" in acme
    assert "Globex" not in acme
    assert "app/checkout.ts" in globex
    assert "Acme" not in globex
    assert "acme reads globex's fragments by id            -> 0 rows" in text
    assert "acme writes into globex                        -> PermissionDeniedError" in text
    assert "a forged scope token for globex                -> InvalidSignatureError" in text
    assert "set_config() with the forged token, then read  -> 0 rows" in text
    assert "RESET ROLE, then read                          -> PermissionDeniedError" in text


def test_cli_reports_a_bad_dsn_in_one_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "scopedb.cli", "--dsn", "postgresql://nobody@127.0.0.1:1/none", "migrate"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.startswith("scopedb: ")
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
