"""A one-round-trip request sends no BEGIN and no COMMIT (catalogue #93).

On a session whose startup packet fixes what its transactions start as (READ COMMITTED, read-write, not
deferrable: ``scopedb.lifecycle.app_connection_options``), ``db.run`` and the searches send the role, the entry,
the statement (and the cleanup) in one pipeline, and the Sync that closes it commits them as one implicit
transaction. What BEGIN used to pin must then hold without it, whatever a tenant did to the session before, and a
tenant's statement must not be able to turn that implicit transaction into one that outlives the request:

- a session-level ``SET SESSION CHARACTERISTICS`` (the defaults of the session's next transactions) by one request
  must not reach the next request on the connection;
- defaults stored outside the login (the database's, the server's) rank below the startup packet;
- ``BEGIN`` as the request's statement would leave the connection inside an open transaction, around the next
  borrower's statements (which RLS still filters, but which would never commit): it is refused and rolled back.
"""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
from psycopg import sql

from scopedb import Database, sqlfiles
from scopedb.errors import QueryError
from scopedb.lifecycle import app_connection_options
from tests.conftest import Tenants

TRANSACTION = "SELECT current_setting('transaction_isolation'), current_setting('transaction_read_only')"


def test_93_session_characteristics_set_by_one_request_do_not_reach_the_next(one: Database, tenants: Tenants) -> None:
    a, b = tenants.scope("acme/api"), tenants.scope("beta/web")
    one.run(a, "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL SERIALIZABLE, READ ONLY")
    assert one.run(b, TRANSACTION).rows == [("read committed", "off")]
    written = one.run(b, "INSERT INTO scopedb.fragments (project_id, id, content) VALUES (%s, 'b-91', 'b writes')"
                         " RETURNING id", (tenants.b.id,))  # fmt: skip
    assert written.rows == [("b-91",)]
    assert tenants.admin_rows("fragments", "id = 'b-91'") == [(tenants.b.id,)]  # committed by the Sync
    one.run(a, "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
    assert len(one.search_text(b, "auth flow", limit=50)) == 6  # a search request (no cleanup of its own) after it
    assert one.run(b, TRANSACTION).rows == [("read committed", "off")]


def test_93_a_request_s_statement_cannot_leave_a_transaction_open(one: Database, tenants: Tenants) -> None:
    """Without the refusal, B's write below ran inside A's open transaction, on the same connection, and was
    never committed."""
    a, b = tenants.scope("acme/api"), tenants.scope("beta/web")
    with pytest.raises(QueryError, match="may not begin a transaction"):
        one.run(a, "BEGIN")
    one.run(b, "INSERT INTO scopedb.fragments (project_id, id, content) VALUES (%s, 'b-91-open', 'b writes')",
            (tenants.b.id,))  # fmt: skip
    assert tenants.admin_rows("fragments", "id = 'b-91-open'") == [(tenants.b.id,)]
    with pytest.raises(QueryError, match="may not begin a transaction"):
        one.run(a, "START TRANSACTION READ ONLY")
    with pytest.raises(QueryError):  # the server refuses this one itself: the transaction has run a query
        one.run(a, "BEGIN ISOLATION LEVEL SERIALIZABLE")
    assert one.run(b, TRANSACTION).rows == [("read committed", "off")]
    assert one.run(b, "SELECT count(*) FROM scopedb.fragments").scalar() == 8  # B's 7, and its write


@pytest.fixture
def database_defaults(tenants: Tenants) -> Iterator[str]:
    """Defaults the database's owner stored for every session of the database (not for the login, which
    scopedb removes): they apply to every connection made afterwards."""
    dbname = psycopg.conninfo.conninfo_to_dict(tenants.db.dsn)["dbname"]
    assert isinstance(dbname, str)
    target = sql.Identifier(dbname)
    with psycopg.connect(tenants.db.dsn, autocommit=True) as admin:
        admin.execute(sql.SQL("ALTER DATABASE {} SET default_transaction_isolation = 'serializable'").format(target))
        admin.execute(sql.SQL("ALTER DATABASE {} SET default_transaction_read_only = on").format(target))
    try:
        yield dbname
    finally:  # the read-only default reaches this connection too
        with psycopg.connect(tenants.db.dsn, autocommit=True, options="-c default_transaction_read_only=off") as admin:
            admin.execute(sql.SQL("ALTER DATABASE {} RESET ALL").format(target))


def test_93_the_startup_packet_outranks_stored_defaults(tenants: Tenants, database_defaults: str) -> None:
    """What the requests rely on, shown on a bare connection: the stored defaults reach a session without the
    startup options, and not one with them, even after RESET ALL."""
    app_dsn = tenants.db.app_dsn
    with psycopg.connect(app_dsn, autocommit=True) as bare:
        assert bare.execute("SHOW default_transaction_isolation").fetchone() == ("serializable",)
        pinned = bare.execute(sqlfiles.query("session", "pinned_session_defaults")).fetchone()
        assert pinned == (False,)
    with psycopg.connect(app_dsn, **app_connection_options(app_dsn)) as conn:
        conn.execute("RESET ALL")
        assert conn.execute(TRANSACTION).fetchone() == ("read committed", "off")
        pinned = conn.execute(sqlfiles.query("session", "pinned_session_defaults")).fetchone()
        assert pinned == (True,)
        # The role too: scopedb_app by the startup packet, which RESET ROLE returns to; the login is a SET away,
        # and a session left as the login is not taken for one whose requests may skip the role.
        conn.execute("SET ROLE NONE")
        assert conn.execute(sqlfiles.query("session", "pinned_session_defaults")).fetchone() == (False,)
        conn.execute("RESET ALL")
        assert conn.execute("SELECT current_user = session_user").fetchone() == (True,)  # RESET ALL skips it
        conn.execute("RESET ROLE")
        assert conn.execute("SELECT current_user::text").fetchone() == ("scopedb_app",)
    db = tenants.one_connection()
    try:
        b = tenants.scope("beta/web")
        assert db.run(b, TRANSACTION).rows == [("read committed", "off")]
        db.run(b, "INSERT INTO scopedb.fragments (project_id, id, content) VALUES (%s, 'b-91-db', 'b writes')",
               (tenants.b.id,))  # fmt: skip
        assert tenants.admin_rows("fragments", "id = 'b-91-db'") == [(tenants.b.id,)]
    finally:
        db.close()
    # Without the startup options (no prepared statements), requests keep their BEGIN, which says the same.
    db = tenants.one_connection(prepared_statements=False)
    try:
        assert db.run(tenants.scope("beta/web"), TRANSACTION).rows == [("read committed", "off")]
    finally:
        db.close()
