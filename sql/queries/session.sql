-- Statements that begin, enter and end a scoped transaction (scopedb.entry_async, scopedb.lifecycle_async), and
-- the one-row insert of add_fragments (scopedb.ingest). They run as scopedb_app; RLS decides every row.

-- name: begin
-- Scoped transactions are read-write and READ COMMITTED whatever defaults the session has (a tenant may have
-- stored others for the shared login; see scopedb_private.pin_settings).
BEGIN ISOLATION LEVEL READ COMMITTED, READ WRITE, NOT DEFERRABLE;

-- name: enter_scope
-- Returns {"project_ids": [...], "resource_filter": [...] | null, "expires_at": ..., "resolved": token,
-- "projects": {name: id}}. enter_scope pins the settings scopedb relies on; search_path is pinned here because a
-- function's own SET search_path would undo it.
SELECT scopedb.enter_scope(%(token)s), pg_catalog.set_config('search_path', '"$user", public', true);

-- name: resolve_scope
-- For the SET LOCAL form (Citus): the resolved token to put into scopedb.scope_token (settings pinned as above).
SELECT scopedb.resolve_scope(%(token)s), pg_catalog.set_config('search_path', '"$user", public', true);

-- name: reenter_scope
-- Sets a resolved token kept from an earlier entry and returns its project ids (none when it no longer verifies);
-- the policies verify it on every statement as always.
SELECT scopedb.reenter_scope(%(token)s), pg_catalog.set_config('search_path', '"$user", public', true);

-- name: scope_project_ids
-- After SET LOCAL of a resolved token: the project ids it carries (empty when it does not verify).
SELECT coalesce(scopedb.scope_project_ids(), '{}');

-- name: scope_projects
-- The scope's projects as the database resolved them, name and id: read in the entry's own round trip, so a
-- session knows them (ScopedSession.projects) without asking again.
SELECT id, name FROM scopedb.projects ORDER BY id;

-- name: embedding_width
-- When the application login is checked: the width of fragments.embedding (no row before the first migration).
SELECT a.atttypmod FROM pg_catalog.pg_attribute AS a
 WHERE a.attrelid = pg_catalog.to_regclass('scopedb.fragments') AND a.attname = 'embedding';

-- name: insert_fragment
-- One fragment (add_fragments), its id generated when none is given; WITH CHECK refuses a row outside the scope.
INSERT INTO scopedb.fragments (project_id, id, resource_id, path, fqn, content, embedding, tier, token_count,
                               valid_from, valid_to)
VALUES (%(project_id)s, COALESCE(%(id)s, gen_random_uuid()::text), %(resource_id)s, %(path)s, %(fqn)s,
        %(content)s, %(embedding)s, COALESCE(%(tier)s, 'warm'), COALESCE(%(token_count)s, 0),
        COALESCE(%(valid_from)s, now()), %(valid_to)s)
RETURNING id;

-- name: end_cleanup
-- What a scoped transaction may leave behind in its session, undone before the connection goes back to the pool,
-- in the same round trip as COMMIT/ROLLBACK: held cursors, every setting (a session-level SET of
-- scopedb.scope_token included), the role (RESET ALL keeps a SET SESSION ROLE), the statements prepared by SQL
-- (PREPARE; the driver's own stay, see scopedb.clean_session), sequence state, LISTENs and session advisory
-- locks. The last row says whether settings are stored for the login itself (ALTER ROLE CURRENT_USER SET ...,
-- which RESET ALL cannot undo: then the caller removes them), and names the prepared statements left (the caller
-- keeps the connection only if every statement the driver prepared is among them). Cached plans are kept: the
-- only ones a session holds are scopedb's own functions' and statements' (a tenant can create no function, and
-- its prepared statements are deallocated here): those whose plan could depend on a scope's parameters pin
-- plan_cache_mode = force_custom_plan, and the graph walks keep a generic plan made under pinned planner settings
-- (docs/security.md #88); discarding the rest made every transaction plan the scope checks again.
-- scopedb.clean_session does the same inside a transaction, for pipelined requests (a test holds the two alike).
CLOSE ALL;
RESET ALL;
RESET ROLE;
DO $$
DECLARE
    prepared text;
BEGIN
    FOR prepared IN SELECT p.name FROM pg_catalog.pg_prepared_statements AS p WHERE p.from_sql LOOP
        EXECUTE pg_catalog.format('DEALLOCATE %I', prepared);
    END LOOP;
END
$$;
DISCARD SEQUENCES;
UNLISTEN *;
SELECT EXISTS (SELECT FROM pg_catalog.pg_db_role_setting AS s
                WHERE s.setrole = (SELECT r.oid FROM pg_catalog.pg_roles AS r WHERE r.rolname = session_user)
                  AND s.setdatabase IN (0, (SELECT d.oid FROM pg_catalog.pg_database AS d
                                             WHERE d.datname = pg_catalog.current_database()))),
       pg_catalog.pg_advisory_unlock_all(),
       ARRAY(SELECT p.name FROM pg_catalog.pg_prepared_statements AS p ORDER BY p.name);

-- name: clean_session
-- The cleanup of end_cleanup, inside the transaction just before its COMMIT, as one statement (for a pipeline,
-- where each statement costs about as much as a small query): scopedb.clean_session says why.
SELECT c.stored_settings, c.statements FROM scopedb.clean_session() AS c;

-- name: stored_settings
-- Checked when a connection is made: the settings stored for the login (in every database, or in this one) —
-- and whether this session started with any (their source is the role's stored defaults), which may be so even
-- if another connection removed them from the catalog in the meantime.
SELECT s.setconfig
  FROM pg_catalog.pg_db_role_setting AS s
 WHERE s.setrole = (SELECT r.oid FROM pg_catalog.pg_roles AS r WHERE r.rolname = session_user)
   AND s.setdatabase IN (0, (SELECT d.oid FROM pg_catalog.pg_database AS d WHERE d.datname = pg_catalog.current_database()))
UNION ALL
SELECT ARRAY[g.name || '=(this session)']
  FROM pg_catalog.pg_settings AS g
 WHERE g.source IN ('user', 'database user');

-- name: pinned_session_defaults
-- Checked when a connection is made: whether its startup packet (source 'client') fixed what every transaction
-- starts as: READ COMMITTED, read-write, not deferrable; and that the session's role is scopedb_app (the role is
-- not listed in pg_settings, so its value is read; on a new session it is the value RESET ROLE returns to, which
-- scopedb's startup options set last, and settings stored for the login are refused before this runs). Settings
-- stored for the login or the database rank below the startup packet, and RESET ALL and RESET ROLE return to it,
-- so such a session's transactions need no BEGIN to be what a scoped transaction must be, nor a statement to
-- become scopedb_app (scopedb.requests sends neither then).
SELECT pg_catalog.count(*) = 3 AND current_user = 'scopedb_app'
  FROM pg_catalog.pg_settings AS g
 WHERE g.source = 'client'
   AND (g.name, g.setting) IN (('default_transaction_isolation', 'read committed'),
                               ('default_transaction_read_only', 'off'),
                               ('default_transaction_deferrable', 'off'));

-- name: prepare_session
-- When a pool opens an application connection, in a transaction of its own that commits: makes the session's memo
-- of verified tokens (scopedb.prepare_session), so that no scoped transaction makes it, and none that rolls back
-- undoes it.
BEGIN ISOLATION LEVEL READ COMMITTED, READ WRITE;
SET LOCAL ROLE scopedb_app;
SELECT scopedb.prepare_session();
COMMIT;
