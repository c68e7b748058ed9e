-- Revision 0024 (issue 19): the driver's prepared statements outlive the transaction. scopedb.clean_session
-- deallocates only the statements prepared by SQL (PREPARE), and names the prepared statements it leaves, so the
-- client can keep a connection's prepared statements from request to request (and discard a connection on which
-- a transaction removed one of them). It now returns two columns, hence DROP and CREATE.

SET ROLE scopedb_owner;

DROP FUNCTION scopedb.clean_session();

-- What a scoped request may leave in its session, undone inside the transaction, just before its COMMIT: a
-- pipelined request (scopedb.requests) then ends with two statements, this call and COMMIT, instead of COMMIT and
-- six statements of cleanup, each of which cost the client and the server about as much as a small query
-- (measured: 1.26 ms -> 1.02 ms for a kept-scope point lookup on the scratch server). It closes cursors (held ones
-- included), resets every setting (a session-level SET of scopedb.scope_token among them) and the role,
-- deallocates the statements prepared by SQL (PREPARE), forgets sequence state, unlistens and releases session
-- advisory locks, and says whether settings are stored for the login itself (ALTER ROLE CURRENT_USER SET ...,
-- which RESET ALL cannot undo; the caller then removes them).
--
-- The statements the driver prepared (at the protocol level, under names it chose: from_sql is false) stay: they
-- are scopedb's own fixed statements, whose text holds no tenant's data (the client prepares no caller's SQL),
-- and keeping them saves every later request on the connection their parsing and planning. No SQL can make one,
-- but SQL can remove one (DEALLOCATE name, or DEALLOCATE ALL inside a function), and the driver would then send
-- the next tenant's statement to a name that is gone, or that a PREPARE took over. So the answer also names every
-- prepared statement left; the client keeps the connection only if each statement it believes prepared is among
-- them (scopedb.lifecycle), and discards it otherwise.
--
-- Done before COMMIT rather than after it, because only inside the transaction is the session scopedb_app (the
-- login has no right of its own to call anything here). The transactional parts (settings, role, cursors, LISTEN)
-- then take effect with the COMMIT, and if the COMMIT fails they are rolled back together with whatever the
-- transaction set, which leaves the session as it was before the transaction began: clean. The others
-- (prepared statements, sequence state, advisory locks) take effect at once. A statement that reset the role
-- leaves the login unable to call this, and the request ends the long way (ROLLBACK and the cleanup as one
-- simple query, scopedb.lifecycle.end). Runs with the caller's rights: it changes nothing the caller could not.
CREATE FUNCTION scopedb.clean_session(OUT stored_settings boolean, OUT statements text[])
LANGUAGE plpgsql
VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    prepared text;
BEGIN
    EXECUTE 'CLOSE ALL';
    EXECUTE 'RESET ALL';
    FOR prepared IN SELECT p.name FROM pg_catalog.pg_prepared_statements AS p WHERE p.from_sql LOOP
        EXECUTE pg_catalog.format('DEALLOCATE %I', prepared);
    END LOOP;
    EXECUTE 'DISCARD SEQUENCES';
    EXECUTE 'UNLISTEN *';
    PERFORM pg_catalog.pg_advisory_unlock_all();
    EXECUTE 'RESET ROLE';
    stored_settings := EXISTS (
        SELECT FROM pg_catalog.pg_db_role_setting AS s
         WHERE s.setrole = (SELECT r.oid FROM pg_catalog.pg_roles AS r WHERE r.rolname = session_user)
           AND s.setdatabase IN (0, (SELECT d.oid FROM pg_catalog.pg_database AS d
                                      WHERE d.datname = pg_catalog.current_database())));
    statements := ARRAY(SELECT p.name FROM pg_catalog.pg_prepared_statements AS p ORDER BY p.name);
END
$$;
COMMENT ON FUNCTION scopedb.clean_session() IS
    'Undoes what a scoped transaction may leave in its session, before its COMMIT; whether the login has stored settings, and the prepared statements left.';

GRANT EXECUTE ON FUNCTION scopedb.clean_session() TO scopedb_app;

RESET ROLE;
