"""The login every tenant shares is part of the threat model (catalogue #48 to #52).

Code that runs as ``scopedb_app`` can ``SET ROLE NONE`` to the application login (``RESET ROLE`` returns a
session of scopedb's pools to scopedb_app, its startup role). PostgreSQL lets any role store
session defaults for itself (``ALTER ROLE CURRENT_USER SET …``), change its own password, read the statement text
of the sessions that share its login and cancel them; no privilege can take that away. These tests attack from
there, then check what another tenant's next transaction sees: scopedb pins every setting a result or a refusal
depends on, removes what was stored for the login, and returns every connection as the login left it. What
PostgreSQL cannot refuse (statement text, cancellation, the password) is pinned as a documented residual.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import psycopg
import pytest
from psycopg import sql

from scopedb import Database, Fragment
from scopedb.server import Server
from tests.conftest import Tenants


def _login(tenants: Tenants) -> str:
    return str(psycopg.conninfo.conninfo_to_dict(tenants.db.app_dsn)["user"])


def _dbname(tenants: Tenants) -> str:
    return str(psycopg.conninfo.conninfo_to_dict(tenants.db.dsn)["dbname"])


@pytest.fixture
def restore_login(tenants: Tenants) -> Iterator[None]:
    """Whatever a test stores for the shared login (a cluster-wide role), it is gone afterwards."""
    yield
    with psycopg.connect(tenants.db.dsn, autocommit=True) as admin:
        login = sql.Identifier(_login(tenants))
        admin.execute(sql.SQL("ALTER ROLE {} RESET ALL").format(login))
        admin.execute(sql.SQL("ALTER ROLE {} IN DATABASE {} RESET ALL").format(login, sql.Identifier(_dbname(tenants))))
        admin.execute(sql.SQL("ALTER ROLE {} PASSWORD NULL").format(login))


def _fresh(tenants: Tenants, size: int = 1) -> Database:
    """Another service process on the same database: its pool logs in after the attack."""
    return Database(Server(dsn=tenants.db.dsn, backend=tenants.db.server.backend), app_dsn=tenants.db.app_dsn,
                    pool_size=size)  # fmt: skip


# (setting, the value an attacker stores, what scopedb runs a scoped transaction with)
STORED: list[tuple[str, str, str]] = [
    ("row_security", "off", "on"),
    ("default_transaction_read_only", "on", "off"),
    ("gin_fuzzy_search_limit", "1", "0"),
    ("search_path", "nowhere", '"$user", public'),
    ("idle_in_transaction_session_timeout", "1ms", "0"),
    ("default_transaction_isolation", "serializable", "read committed"),
    ("hnsw.ef_search", "1", "40"),
]


@pytest.mark.parametrize("where", ["everywhere", "in this database"])
@pytest.mark.parametrize(("setting", "stored", "pinned"), STORED, ids=[s[0] for s in STORED])
def test_48_settings_stored_for_the_login_neither_break_nor_skew_another_tenant(
    tenants: Tenants, restore_login: None, setting: str, stored: str, pinned: str, where: str
) -> None:
    """A stored ``row_security = off`` made every new application connection of every tenant fail with 42501;
    others made results partial (``gin_fuzzy_search_limit``) or writes fail (``default_transaction_read_only``)."""
    where_clause = (
        sql.SQL("") if where == "everywhere" else sql.SQL(" IN DATABASE {}").format(sql.Identifier(_dbname(tenants)))
    )
    store = sql.SQL("ALTER ROLE CURRENT_USER{} SET {} = {}").format(
        where_clause, sql.Identifier(*setting.split(".")), sql.Literal(stored)
    )
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("SELECT '[1]'::vector")  # loads pgvector, so that its hnsw.* settings may be stored
        s.execute("SET ROLE NONE")
        s.execute(store)
    victim = _fresh(tenants)
    try:
        with victim.scoped(tenants.scope("beta/web")) as s:
            assert s.execute("SELECT current_setting(%s)", (setting,)).scalar() == pinned
            assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 7
            assert len(s.search_text("auth flow", limit=50)) == 6
            s.add_fragment(Fragment(project="beta/web", content="written after the attack"))
        with victim.scoped(tenants.scope("beta/web")) as s:
            assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 8
    finally:
        victim.close()


def test_48_what_was_stored_for_the_login_is_removed_when_the_transaction_ends(
    tenants: Tenants, restore_login: None
) -> None:
    """scopedb notices a stored setting at the end of the transaction that stored it and removes it, so even
    sessions scopedb does not pool (another service, a PgBouncer's server connections) log in clean."""
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("SET ROLE NONE")
        s.execute("ALTER ROLE CURRENT_USER SET work_mem = '64kB'")
    with psycopg.connect(tenants.db.dsn) as admin:
        stored = admin.execute(
            "SELECT count(*) FROM pg_db_role_setting WHERE setrole = to_regrole(%s)", (_login(tenants),)
        ).fetchone()
    assert stored == (0,)


def test_48_settings_stored_by_a_session_that_never_cleaned_up_are_removed_at_connect(
    tenants: Tenants, restore_login: None
) -> None:
    """An attacker can store settings and then end its own session, so that no cleanup runs after it. The next
    application connection any scopedb pool opens finds them, removes them and is discarded; the one after starts
    clean."""
    from scopedb.errors import ConnectionLostError

    def attack() -> None:
        with tenants.db.scoped(tenants.scope("acme/api")) as s:
            s.execute("SET ROLE NONE")
            s.execute("ALTER ROLE CURRENT_USER SET row_security = off")
            s.execute("COMMIT")
            s.execute("SELECT pg_terminate_backend(pg_backend_pid())")

    with pytest.raises(ConnectionLostError):
        attack()
    victim = _fresh(tenants)
    try:
        with victim.scoped(tenants.scope("beta/web")) as s:
            assert s.execute("SHOW row_security").scalar() == "on"
            assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 7
            s.execute("COMMIT")
            assert s.execute("SELECT current_setting('row_security')").scalar() == "on"  # the session's own default
    finally:
        victim.close()
    with psycopg.connect(tenants.db.dsn) as admin:
        stored = "SELECT count(*) FROM pg_db_role_setting WHERE setrole = to_regrole(%s)"
        assert admin.execute(stored, (_login(tenants),)).fetchone() == (0,)


def test_49_a_session_role_does_not_outlive_the_transaction(tenants: Tenants) -> None:
    """``RESET ALL`` skips the role: a ``SET SESSION ROLE`` stayed on the connection for the next borrower. A pooled
    session's own role is scopedb_app (its startup packet's); the one a tenant can set is the login's."""
    db = _fresh(tenants)
    try:
        with db.scoped(tenants.scope("acme/api")) as s:
            s.execute("SET SESSION ROLE NONE")
            assert s.execute("SELECT current_user = session_user").scalar() is True  # the login, past COMMIT
            backend = s.execute("SELECT pg_backend_pid()").scalar()
        with db.scoped(tenants.scope("beta/web")) as s:
            assert s.execute("SELECT pg_backend_pid()").scalar() == backend
            s.execute("COMMIT")  # leave the transaction: what remains is the session the pool handed out
            assert s.execute("SELECT current_user::text").scalar() == "scopedb_app"
    finally:
        db.close()


def test_50_residual_other_sessions_statement_text_holds_only_placeholders(tenants: Tenants) -> None:
    """Residual: after ``SET ROLE NONE`` the login may read the last statement of every session of the same login.
    scopedb sends every value as a bind parameter, so the text holds ``$n`` placeholders, never a tenant's data."""
    secret = "GLOBEX-LITERAL-42"
    entered, release = threading.Event(), threading.Event()
    victim_db = _fresh(tenants)

    def victim() -> None:
        with victim_db.scoped(tenants.scope("beta/web")) as s:
            s.search_text(f"{secret} quarterly", limit=5)
            entered.set()
            release.wait(10)

    thread = threading.Thread(target=victim)
    thread.start()
    try:
        assert entered.wait(10)
        with tenants.db.scoped(tenants.scope("acme/api")) as s:
            s.execute("SET ROLE NONE")
            others = "SELECT query FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND usename = session_user"
            texts = [r[0] or "" for r in s.execute(others)]
    finally:
        release.set()
        thread.join()
        victim_db.close()
    assert any(texts), "the channel exists: the victim's last statement is readable"
    assert not any(secret in t for t in texts)


def test_50_every_value_scopedb_sends_is_a_bind_parameter(tenants: Tenants) -> None:
    """What makes residual #50 harmless: with every statement logged, a tenant's values (search text, note bodies,
    fragment content and paths, node ids, aliases, the scope token) appear only as bound parameters, never in the
    statement text another session of the login could read in ``pg_stat_activity``."""
    from scopedb.aliases import DatabaseResourceRegistry
    from scopedb.ingest import EdgeIn, NodeIn
    from scopedb.notes import NoteStore
    from scopedb.tiers import ContextTierService

    secret = "Zq7SECRETzq7"
    with psycopg.connect(tenants.db.dsn, autocommit=True) as admin:
        if admin.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone() != (True,):
            pytest.skip("reading the server log needs a superuser admin login")
        start = int(admin.execute("SELECT size FROM pg_stat_file('log')").fetchone()[0])  # type: ignore[index]
        admin.execute(sql.SQL("ALTER DATABASE {} SET log_statement = 'all'").format(sql.Identifier(_dbname(tenants))))
    db = _fresh(tenants, size=2)  # new connections, which read the database's log_statement
    try:
        tenants.db.admin().create_resource("beta/web", alias=f"alias-{secret}")
        with db.scoped(tenants.scope("beta/web")) as s:
            s.add_fragment(Fragment(project="beta/web", content=f"one {secret}", path=f"p/{secret}.txt"))
            s.ingest_fragments([Fragment(project="beta/web", id=f"id-{secret}", content=f"two {secret}",
                                         embedding=[0.5] * 384)])  # fmt: skip
            s.ingest_graph([NodeIn("beta/web", f"n-{secret}"), NodeIn("beta/web", "other")],
                           [EdgeIn("beta/web", f"n-{secret}", "other")])  # fmt: skip
            s.search_text(secret)
            s.search_vector([0.5] * 384)
            s.search_graph(f"n-{secret}")
            DatabaseResourceRegistry(s).resolve_resource_scope(["beta/web"], include=[f"alias-{secret}"])
        notes = NoteStore(db, "beta/web")
        note = notes.store(f"note {secret}", tags=[secret])
        notes.search(secret)
        notes.fetch([note])
        ContextTierService(db).store(f"t-{secret}", project="beta/web", content=f"tier {secret}")
    finally:
        db.close()
        with psycopg.connect(tenants.db.dsn, autocommit=True) as admin:
            admin.execute(sql.SQL("ALTER DATABASE {} RESET log_statement").format(sql.Identifier(_dbname(tenants))))
            read = admin.execute("SELECT pg_read_file('log', %s, 50000000)", (start,)).fetchone()
    assert read is not None
    log = str(read[0])
    entries: list[str] = []
    for line in log.splitlines():
        if (line[:4].isdigit() and " UTC [" in line) or not entries:
            entries.append(line)
        else:
            entries[-1] += "\n" + line
    statements = [e for e in entries if "DETAIL:  Parameters:" not in e]
    parameters = [e for e in entries if "DETAIL:  Parameters:" in e]
    assert any(secret in e for e in parameters), "the values did reach the server, as parameters"
    leaked = [e for e in statements if secret in e or ".v1." in e or "'v1." in e]
    assert leaked == [], leaked[:3]


def test_51_residual_a_tenant_can_cancel_another_tenant_s_statement(tenants: Tenants) -> None:
    """Residual: sessions of one login may signal each other. A cancelled statement is a typed error for its
    tenant and its connection comes back clean; nothing is read or written across the boundary."""
    from scopedb.errors import QueryError

    started, done = threading.Event(), threading.Event()
    outcome: list[BaseException] = []
    victim_db = _fresh(tenants)

    def victim() -> None:
        try:
            with victim_db.scoped(tenants.scope("beta/web")) as s:
                started.set()
                s.execute("SELECT pg_sleep(5)")
        except BaseException as exc:
            outcome.append(exc)
        finally:
            done.set()

    thread = threading.Thread(target=victim)
    thread.start()
    try:
        assert started.wait(10)
        with tenants.db.scoped(tenants.scope("acme/api")) as s:
            s.execute("SET ROLE NONE")
            for _ in range(50):
                cancelled = s.execute(
                    "SELECT pg_cancel_backend(pid) FROM pg_stat_activity "
                    "WHERE usename = session_user AND query LIKE 'SELECT pg_sleep%%' AND pid <> pg_backend_pid()"
                ).rows
                if cancelled:
                    break
                threading.Event().wait(0.05)
        assert done.wait(10)
        assert outcome
        assert isinstance(outcome[0], QueryError)
        with victim_db.scoped(tenants.scope("beta/web")) as s:
            assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 7
    finally:
        thread.join()
        victim_db.close()


def test_52_residual_the_login_can_change_its_own_password(tenants: Tenants, restore_login: None) -> None:
    """Residual: PostgreSQL lets every role change its own password. Authenticate the application login by
    certificate, peer or an IAM token (as scopedb's own servers do, by local trust), and the change opens
    nothing; with password authentication it locks services out. The audit cannot see it (docs/security.md)."""
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        s.execute("SET ROLE NONE")
        s.execute("ALTER ROLE CURRENT_USER PASSWORD 'attacker-chosen'")
    victim = _fresh(tenants)
    try:
        with victim.scoped(tenants.scope("beta/web")) as s:  # local trust: the stored password plays no part
            assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 7
    finally:
        victim.close()
