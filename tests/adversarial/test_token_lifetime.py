"""A scope ends when its token expires or its key is retired — at the next statement, not at the next transaction
(catalogue #57, #58).

The policies verify the entered token on every statement. They used to compare its expiry with ``now()``, the
start of the transaction, so a transaction that outlived its token kept reading, and retiring a key never cut off
a transaction already open. The attacker here is simply a transaction that stays open.
"""

from __future__ import annotations

import time

from tests.conftest import Tenants


def test_57_an_open_transaction_loses_its_scope_when_the_token_expires(tenants: Tenants) -> None:
    short = tenants.one_connection(token_ttl_seconds=2)
    try:
        with short.scoped(tenants.scope("acme/api")) as s:
            assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 7
            time.sleep(3)
            assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 0
            assert s.execute("SELECT count(*) FROM scopedb.resources").scalar() == 0
    finally:
        short.close()


def test_58_retiring_a_key_cuts_off_transactions_already_open(tenants: Tenants) -> None:
    admin = tenants.db.admin()
    key = admin.active_signing_key()
    assert key is not None
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 7
        admin.rotate_signing_key()
        admin.retire_signing_key(key.key_id)  # committed by another session, now
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 0
    with tenants.db.scoped(tenants.scope("acme/api")) as s:  # control: a new transaction enters with the new key
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 7


def test_58_retiring_a_key_cuts_off_searches_whose_memo_reads_are_kept(tenants: Tenants) -> None:
    """The accessors read the memo with a plan kept for the session (revision 0025), also inside the search
    functions, which plan their own statements afresh on every call. A kept plan must still test the key and the
    expiry on every call: searches that ran often enough for every plan to be kept are cut off by a retirement."""
    admin = tenants.db.admin()
    key = admin.active_signing_key()
    assert key is not None
    query = [1.0, 1.0, 0.0] + [0.0] * 381
    with tenants.db.scoped(tenants.scope("acme/api")) as s:
        for _ in range(8):  # past the five custom plans PostgreSQL makes before it keeps a generic one
            assert len(s.search_text("auth", limit=50)) == 6
            assert len(s.search_vector(query, limit=50)) == 6
            assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 7
        admin.rotate_signing_key()
        admin.retire_signing_key(key.key_id)
        assert s.search_text("auth", limit=50) == []
        assert s.search_vector(query, limit=50) == []
        assert s.execute("SELECT count(*) FROM scopedb.fragments").scalar() == 0
