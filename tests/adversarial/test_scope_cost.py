"""What a scope may cost (catalogue #59): a scope's path and name patterns are tested against every row a policy
checks, and matched in Python by ``ResourceScope.matches_path``/``matches_name``. A hostile or careless caller
chose globs that blew up Python's backtracking ``re`` (11 s for ``*a*a*a*a*a*a*a*a*b`` on a 50-character path) and
patterns that made every statement slow (ten ``**/X/**`` includes: 200-300 ms per statement at 8,000 rows). Matching
is now polynomial in Python, PostgreSQL tests one regex per pattern, and a scope past the bounds is a typed error in
both places.
"""

from __future__ import annotations

import subprocess
import sys

import psycopg
import pytest

from scopedb import ResourceScope
from scopedb.errors import ScopeTooComplexError
from scopedb.patterns import MAX_PATTERN_LENGTH, MAX_PATTERNS, MAX_WILDCARDS, Dialect, compile_body
from scopedb.tokens import scope_claims, sign_claims
from tests.conftest import Tenants

MATCHES = """
from scopedb import ResourceScope
scope = ResourceScope(project_names={"p"}, include_paths={"*a*a*a*a*a*a*a*b", "**/*a*/**/*a*a*/**/b"})
for n in (50, 500, 5_000):
    scope.matches_path("a" * n)
scope.matches_path("/".join(["a" * 40] * 200))
names = ResourceScope(project_names={"p"}, include_names={"**::*a*a*a*a*::**::*b"})
names.matches_name("::".join(["aaaa"] * 500))
"""


def test_59_matching_takes_polynomial_time_whatever_the_glob() -> None:
    """``ResourceScope.matches_path`` took 11 s for ``*a*a*a*a*a*a*a*a*b`` against a 50-character path (a
    backtracking regex). The matcher is now polynomial: the worst globs within the bounds, against paths far longer
    than any real one, answer at once. (A guard against exponential blow-up, not a benchmark: the matching runs in
    a child process, because a runaway regex holds the interpreter and would hang the test instead of failing it.)"""
    done = subprocess.run([sys.executable, "-c", MATCHES], timeout=60, check=False, capture_output=True)
    assert done.returncode == 0, done.stderr[-2000:]


def test_59_a_scope_past_the_bounds_is_a_typed_error() -> None:
    with pytest.raises(ScopeTooComplexError):
        ResourceScope(project_names={"p"}, include_paths={f"src{i}/**" for i in range(MAX_PATTERNS + 1)})
    with pytest.raises(ScopeTooComplexError):
        ResourceScope(project_names={"p"}, include_paths={"src/**"},
                      exclude_names={f"n{i}::**" for i in range(MAX_PATTERNS)})  # fmt: skip
    with pytest.raises(ScopeTooComplexError):
        ResourceScope(project_names={"p"}, include_paths={"*a" * (MAX_WILDCARDS + 1)})
    with pytest.raises(ScopeTooComplexError):
        ResourceScope(project_names={"p"}, exclude_names={"a" * (MAX_PATTERN_LENGTH + 1)})
    # At the bounds a scope is fine.
    ResourceScope(project_names={"p"}, include_paths={f"s{i}/*a*/**" for i in range(MAX_PATTERNS)})
    ResourceScope(project_names={"p"}, include_paths={"*a" * MAX_WILDCARDS})


def test_59_the_database_refuses_a_scope_past_the_pattern_bound(tenants: Tenants) -> None:
    """The Python layer refuses a scope with more than 16 patterns; a token signed past that bound anyway (by a
    service with its own signer) is refused by the database with a typed error, and nothing is entered."""
    key = tenants.db.admin().active_signing_key()
    assert key is not None
    audience = str(psycopg.conninfo.conninfo_to_dict(tenants.db.dsn)["dbname"])
    claims = scope_claims(tenants.scope("acme/api"), audience=audience, ttl_seconds=60)
    claims["path_include"] = sorted(compile_body(f"d{i}/**/*.py", Dialect.PATHS) for i in range(17))
    token = sign_claims(claims, key)
    with tenants.db.scoped(tenants.scope("beta/web")) as s:
        s.execute("SAVEPOINT before")
        with pytest.raises(ScopeTooComplexError):
            s.execute("SELECT scopedb.enter_scope(%s)", (token,))
        s.execute("ROLLBACK TO before")
        assert s.execute("SELECT DISTINCT project_id FROM scopedb.fragments").rows == [(tenants.b.id,)]
    claims["path_include"] = claims["path_include"][:16]  # control: at the bound the same token enters
    with tenants.db.scoped(tenants.scope("beta/web")) as s:
        s.execute("SELECT scopedb.enter_scope(%s)", (sign_claims(claims, key),))
        assert s.execute("SELECT scopedb.scope_project_ids()").scalar() == [tenants.a.id]
