-- Revision 0015 (issue 19, the request path): a pipelined request ends with two statements, scopedb.clean_session() inside the transaction and
-- COMMIT, instead of COMMIT and six statements of session cleanup.

SET ROLE scopedb_owner;

-- What a scoped request may leave in its session, undone inside the transaction, just before its COMMIT: a
-- pipelined request (scopedb.requests) then ends with two statements, this call and COMMIT, instead of COMMIT and
-- six statements of cleanup, each of which cost the client and the server about as much as a small query
-- (measured: 1.26 ms -> 1.02 ms for a kept-scope point lookup on the scratch server). It closes cursors (held ones
-- included), resets every setting (a session-level SET of scopedb.scope_token among them) and the role,
-- deallocates prepared statements, forgets sequence state, unlistens and releases session advisory locks, and
-- says whether settings are stored for the login itself (ALTER ROLE CURRENT_USER SET ..., which RESET ALL cannot
-- undo; the caller then removes them).
--
-- Done before COMMIT rather than after it, because only inside the transaction is the session scopedb_app (the
-- login has no right of its own to call anything here). The transactional parts (settings, role, cursors, LISTEN)
-- then take effect with the COMMIT, and if the COMMIT fails they are rolled back together with whatever the
-- transaction set, which leaves the session as it was before the transaction began: clean. The others
-- (prepared statements, sequence state, advisory locks) take effect at once. A statement that reset the role
-- leaves the login unable to call this, and the request ends the long way (ROLLBACK and the cleanup as one
-- simple query, scopedb.lifecycle.end). Runs with the caller's rights: it changes nothing the caller could not.
CREATE FUNCTION scopedb.clean_session() RETURNS boolean
LANGUAGE plpgsql
VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    EXECUTE 'CLOSE ALL';
    EXECUTE 'RESET ALL';
    EXECUTE 'DEALLOCATE ALL';
    EXECUTE 'DISCARD SEQUENCES';
    EXECUTE 'UNLISTEN *';
    PERFORM pg_catalog.pg_advisory_unlock_all();
    EXECUTE 'RESET ROLE';
    RETURN EXISTS (SELECT FROM pg_catalog.pg_db_role_setting AS s
                    WHERE s.setrole = (SELECT r.oid FROM pg_catalog.pg_roles AS r WHERE r.rolname = session_user)
                      AND s.setdatabase IN (0, (SELECT d.oid FROM pg_catalog.pg_database AS d
                                                 WHERE d.datname = pg_catalog.current_database())));
END
$$;
COMMENT ON FUNCTION scopedb.clean_session() IS
    'Undoes what a scoped transaction may leave in its session, before its COMMIT; true if the login has stored settings.';

GRANT EXECUTE ON FUNCTION scopedb.clean_session() TO scopedb_app;

RESET ROLE;
