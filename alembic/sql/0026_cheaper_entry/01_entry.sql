-- Revision 0026 (issue 19): cheaper scope entry.
-- * The memo of verified tokens is emptied as a whole when it passes 1 MB, instead of deleting its oldest row for
--   every new token: a temporary table is never vacuumed and the space of its deleted rows is not reused, so the
--   memo of a pooled connection that met many scopes grew without end, and each entry that added a token scanned
--   all of it (remember_scope: about 90 µs, 45 µs now, by track_functions).
-- * reenter_scope reads the memo by the token in the setting, with a statement planned once per session (as
--   verified_claims does since revision 0025), and remembers a token before checking its names, so the policy the
--   check reads through finds it there instead of verifying it a second time. remembered_claims, its only user
--   gone, is dropped.
-- * resolve_token reads the ids and the names of the scope's projects in one statement (OUT project_names), and
--   enter_scope answers with those names instead of reading them again.
-- Same answers and refusals: every change reads or remembers what was read or remembered before.

SET ROLE scopedb_owner;

-- Remembers that `token` verified with `claims` (see above), and — when `names_epoch` is given — that its project
-- names were found to name its projects at that epoch of scopedb_private.project_names_epoch. Called by the entry
-- functions only, after they have verified the token.
--
-- Rows are added, never deleted one by one: the table is emptied as a whole (TRUNCATE) once it passes 1 MB, a
-- thousand or so ordinary tokens, and the tokens still in use are verified and remembered again. No vacuum ever
-- reaches a temporary table (autovacuum cannot see another session's), and the space of a deleted row is not
-- reused, so a memo that deleted its oldest row for every new one grew without end on a pooled connection that
-- met many scopes (2.5 MB after 4,000 new scopes, for 64 live rows), and the deletion, a scan of it all with a
-- sort, made remembering a token cost about 90 µs where adding a row costs about 45. What an expired or
-- retired token left is never read (every lookup tests both) and goes with the next truncation. TRUNCATE is
-- skipped in a read-only transaction, where it is refused (the token is then not remembered), and where a query
-- of this session still has the table open.
CREATE OR REPLACE FUNCTION scopedb_private.remember_scope(token text, claims scopedb_private.scope_claims,
                                               names_epoch bigint DEFAULT NULL) RETURNS void
LANGUAGE plpgsql
VOLATILE
AS $$
DECLARE
    known boolean;
BEGIN
    IF token IS NULL OR claims IS NULL OR NOT scopedb_private.make_memo() THEN
        RETURN;
    END IF;
    -- A statement of its own: PL/pgSQL plans a statement when it first reaches it, and the table may have been
    -- made just now.
    known := EXISTS (SELECT FROM pg_temp.scopedb_verified_tokens_v1 AS m WHERE m.token = remember_scope.token);
    IF known THEN
        IF names_epoch IS NOT NULL THEN
            UPDATE pg_temp.scopedb_verified_tokens_v1 AS m SET names_epoch = remember_scope.names_epoch
             WHERE m.token = remember_scope.token AND m.names_epoch IS DISTINCT FROM remember_scope.names_epoch;
        END IF;
        RETURN;
    END IF;
    IF pg_catalog.pg_table_size(pg_catalog.to_regclass('pg_temp.scopedb_verified_tokens_v1')) >= 1048576 THEN
        IF pg_catalog.current_setting('transaction_read_only')::boolean THEN
            RETURN;
        END IF;
        BEGIN
            TRUNCATE pg_temp.scopedb_verified_tokens_v1;
        EXCEPTION WHEN object_in_use THEN
            RETURN;
        END;
    END IF;
    INSERT INTO pg_temp.scopedb_verified_tokens_v1
           (token, key_id, expires_at, verified_at, names_epoch, v, aud, iat, exp, act, projects, project_ids,
            resources, denied, resource_filter, path_include, path_exclude, name_include, name_exclude, "time")
    VALUES (remember_scope.token, pg_catalog.split_part(remember_scope.token, '.', 2),
            pg_catalog.to_timestamp(claims.exp), pg_catalog.clock_timestamp(), remember_scope.names_epoch, claims.v,
            claims.aud, claims.iat, claims.exp, claims.act, claims.projects, claims.project_ids, claims.resources,
            claims.denied, claims.resource_filter, claims.path_include, claims.path_exclude, claims.name_include,
            claims.name_exclude, claims."time");
END
$$;
COMMENT ON FUNCTION scopedb_private.remember_scope(text, scopedb_private.scope_claims, bigint) IS
    'Remembers that a token verified, with its claims (entry functions only; an owner-only table of the session).';

DROP FUNCTION scopedb_private.remembered_claims(text);

-- A new OUT parameter changes the function's result type: dropped and made again.
DROP FUNCTION scopedb_private.resolve_token(text);

-- Verifies a token from the Python layer, resolves its project names to ids, subtracts the denied resources from
-- the narrowed ones, and returns the result as a new token signed by the database. That resolved token is what
-- the policies read, so no statement has to look project names up again. It also pins the transaction's
-- settings (scopedb_private.pin_settings). Errors carry a scopedb SQLSTATE (class SD) so the Python layer raises
-- a typed exception:
--   SD001 malformed or missing   SD002 unknown/retired key, bad signature, no active key
--   SD003 expired or not yet valid   SD004 wrong audience   SD005 a project named by the scope does not exist
--   SD006 more path and name patterns than a scope may carry (16 in all, each body at most 4,096 characters)
-- Use it directly (then `SET LOCAL scopedb.scope_token = <result>`) where SET LOCAL is the only form that reaches
-- every node, as on Citus; otherwise call scopedb.enter_scope.
CREATE FUNCTION scopedb_private.resolve_token(token text, OUT resolved text, OUT resolved_claims scopedb_private.scope_claims,
                                              OUT project_names jsonb)
LANGUAGE plpgsql
VOLATILE
AS $$
DECLARE
    checked record;
    c scopedb_private.scope_claims;
    previous text := pg_catalog.current_setting('scopedb.scope_token', true);
    ids bigint[];
    denied text[];
    filter text[];
    claims jsonb;
    patterns integer;
BEGIN
    checked := scopedb_private.check_token(token);
    IF checked.problem IS NOT NULL THEN
        RAISE EXCEPTION 'scope token refused: %', checked.problem
            USING ERRCODE = CASE checked.problem
                                WHEN 'missing' THEN 'SD001'
                                WHEN 'malformed' THEN 'SD001'
                                WHEN 'expired' THEN 'SD003'
                                WHEN 'not yet valid' THEN 'SD003'
                                WHEN 'wrong audience' THEN 'SD004'
                                ELSE 'SD002'
                            END;
    END IF;
    c := checked.claims;
    -- The policies test every pattern against every row they check: bound the work a scope can ask for (the
    -- Python layer refuses such scopes first, with the same limits).
    patterns := COALESCE(pg_catalog.cardinality(c.path_include), 0) + COALESCE(pg_catalog.cardinality(c.path_exclude), 0)
                + COALESCE(pg_catalog.cardinality(c.name_include), 0) + COALESCE(pg_catalog.cardinality(c.name_exclude), 0);
    IF patterns > 16
       OR patterns > 0 AND EXISTS (SELECT FROM pg_catalog.unnest(c.path_include || c.path_exclude || c.name_include
                                                                 || c.name_exclude) AS b
                                    WHERE pg_catalog.length(b) > 4096) THEN
        RAISE EXCEPTION 'scope too complex: at most 16 path and name patterns' USING ERRCODE = 'SD006';
    END IF;
    PERFORM scopedb_private.pin_settings();
    denied := COALESCE(c.denied, '{}'::text[]);
    -- The owner's policy on projects admits the names of the verified token in the setting.
    PERFORM pg_catalog.set_config('scopedb.scope_token', token, true);
    -- The ids, and the names as {name: id} for enter_scope's answer, in one read (revision 0026: enter_scope read
    -- the names a second time, 40-60 µs of a first entry).
    SELECT COALESCE(pg_catalog.array_agg(p.id ORDER BY p.id), '{}'::bigint[]),
           pg_catalog.jsonb_object_agg(p.name, p.id)
      INTO ids, project_names
      FROM scopedb.projects AS p
     WHERE p.name = ANY (c.projects);
    IF pg_catalog.cardinality(ids) <> pg_catalog.cardinality(c.projects)
       AND pg_catalog.cardinality(ids) <> pg_catalog.cardinality(ARRAY(SELECT DISTINCT pg_catalog.unnest(c.projects))) THEN
        RAISE EXCEPTION 'scope names a project that does not exist' USING ERRCODE = 'SD005';
    END IF;
    claims := pg_catalog.jsonb_build_object(
        'v', 1, 'aud', c.aud, 'iat', c.iat, 'exp', c.exp, 'act', c.act,
        'projects', c.projects, 'project_ids', ids, 'resources', c.resources, 'denied', denied,
        'path_include', c.path_include, 'path_exclude', c.path_exclude,
        'name_include', c.name_include, 'name_exclude', c.name_exclude, 'time', c."time");
    IF c.resources IS NOT NULL THEN
        -- Narrowed: exactly the named resources that are not denied; resource-less rows are hidden.
        filter := ARRAY(SELECT DISTINCT r FROM pg_catalog.unnest(c.resources) AS r WHERE r <> ALL (denied) ORDER BY r);
    ELSIF pg_catalog.cardinality(denied) > 0 THEN
        -- Every resource of the projects except the denied ones, and resource-less rows (''). Listing them lets
        -- one array comparison serve every kind of scope. The owner lists them under a provisional token that
        -- carries the project ids, which is what its policy on resources admits.
        PERFORM pg_catalog.set_config('scopedb.scope_token', scopedb_private.sign_claims(claims), true);
        filter := ARRAY(SELECT r.id FROM scopedb.resources AS r
                         WHERE r.project_id = ANY (ids) AND r.id <> ALL (denied) ORDER BY r.id) || ''::text;
    END IF;
    PERFORM pg_catalog.set_config('scopedb.scope_token', COALESCE(previous, ''), true);
    claims := claims || pg_catalog.jsonb_build_object('resource_filter', filter);
    resolved := scopedb_private.sign_claims(claims);
    -- What check_token would read back from the token just signed (its body is this jsonb's text).
    resolved_claims := pg_catalog.jsonb_populate_record(NULL::scopedb_private.scope_claims, claims);
END
$$;
COMMENT ON FUNCTION scopedb_private.resolve_token(text) IS
    'Verifies and resolves a scope token (see scopedb.resolve_scope); also returns the resolved claims and names.';

-- The usual entry: resolve, then make the resolved token the scope every policy reads for the rest of the
-- transaction (a transaction-local setting: it is gone at COMMIT or ROLLBACK, which is what makes scopedb safe
-- behind a transaction-pooling PgBouncer). Returns what the caller keeps about the scope: its project ids, resource
-- filter and expiry, the resolved token itself (which the app could read from the setting anyway), and its
-- projects' names (the ones the app's policy on projects shows it): one statement, where reading the last two
-- back took two more.
CREATE OR REPLACE FUNCTION scopedb.enter_scope(token text) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    entered record;
    claims scopedb_private.scope_claims;
    -- Read before the names are resolved (see reenter_scope).
    epoch bigint := (SELECT e.epoch FROM scopedb_private.project_names_epoch AS e);
BEGIN
    SELECT r.resolved, r.resolved_claims, r.project_names INTO entered FROM scopedb_private.resolve_token(token) AS r;
    claims := entered.resolved_claims;  -- what the token just signed holds: no need to verify it again
    PERFORM pg_catalog.set_config('scopedb.scope_token', entered.resolved, true);
    PERFORM scopedb_private.remember_scope(entered.resolved, claims, epoch);
    RETURN pg_catalog.jsonb_build_object(
        'project_ids', claims.project_ids,
        'resource_filter', claims.resource_filter,
        'expires_at', pg_catalog.to_timestamp(claims.exp),
        'resolved', entered.resolved,
        -- Read by resolve_token with the ids, under the owner's policy on projects (the token's names).
        'projects', entered.project_names);
END
$$;
COMMENT ON FUNCTION scopedb.enter_scope(text) IS
    'Verifies a signed scope token and makes it the scope every policy reads for the rest of the transaction.';

-- Enters a token resolve_scope produced earlier (the Python layer keeps them while they are valid, see
-- scopedb.resolved): sets it, pins the transaction's settings as resolve_scope does, and returns the project ids
-- the policies will read from it — none when it no longer verifies, or when the names it was resolved from no
-- longer name those projects. A project renamed (and its name given to a new project) must not stay reachable
-- under its old name for the rest of the token's life: the caller then resolves afresh. It grants nothing that
-- setting scopedb.scope_token directly would not: every statement verifies the token anyway.
CREATE OR REPLACE FUNCTION scopedb.reenter_scope(resolved text) RETURNS bigint[]
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    -- Read before the names are: a rename that commits in between then makes the check run again next time,
    -- never the other way round (a new epoch remembered with the old names).
    epoch bigint := (SELECT e.epoch FROM scopedb_private.project_names_epoch AS e);
    memo record;
    remembered boolean := false;
    checked_at bigint;  -- the epoch the memo says the names were checked at
    claims scopedb_private.scope_claims;
    ids bigint[];
BEGIN
    PERFORM pg_catalog.set_config('scopedb.scope_token', COALESCE(resolved, ''), true);
    -- Verified once here: remembered from an earlier entry on this connection, or in full (and then remembered).
    -- The memo is read as scopedb_private.verified_claims reads it, by the token in the setting just made, in a
    -- statement that names no variable and so is planned once per session; with the token passed as a variable
    -- (scopedb_private.remembered_claims, before revision 0026) the lookup cost 20-40 µs more an entry.
    IF resolved IS NOT NULL AND pg_catalog.to_regclass('pg_temp.scopedb_verified_tokens_v1') IS NOT NULL THEN
        SELECT m.names_epoch,
               ROW(m.v, m.aud, m.iat, m.exp, m.act, m.projects, m.project_ids, m.resources, m.denied,
                   m.resource_filter, m.path_include, m.path_exclude, m.name_include, m.name_exclude,
                   m."time")::scopedb_private.scope_claims AS claims
          INTO memo
          FROM pg_temp.scopedb_verified_tokens_v1 AS m
         WHERE m.token = pg_catalog.current_setting('scopedb.scope_token', true)
           AND m.expires_at > pg_catalog.statement_timestamp()
           AND EXISTS (SELECT FROM scopedb_private.signing_keys AS k
                        WHERE k.key_id = m.key_id
                          AND (k.retired_at IS NULL OR k.retired_at > pg_catalog.statement_timestamp()));
        remembered := FOUND;
    END IF;
    IF remembered THEN
        claims := memo.claims;
        checked_at := memo.names_epoch;
    ELSE
        claims := (scopedb_private.check_token(resolved)).claims;
    END IF;
    ids := COALESCE(claims.project_ids, '{}'::bigint[]);
    PERFORM scopedb_private.pin_settings();
    IF pg_catalog.cardinality(ids) = 0 THEN
        PERFORM pg_catalog.set_config('scopedb.scope_token', '', true);
        RETURN '{}'::bigint[];
    END IF;
    -- Do the names still name these projects? Asked once per token and connection while no project is renamed or
    -- deleted (the epoch); the owner's policy on projects admits the names of the token in the setting. The
    -- token is remembered first, with the epoch, so that policy finds it in the memo rather than verifying it a
    -- second time; if the names no longer match, the epoch is taken back (-1 is no epoch: they start at 0), and
    -- the next entry asks again.
    IF checked_at IS DISTINCT FROM epoch THEN
        PERFORM scopedb_private.remember_scope(resolved, claims, epoch);
        IF (SELECT pg_catalog.count(*) FROM scopedb.projects AS p
             WHERE p.id = ANY (ids) AND p.name = ANY (claims.projects)) <> pg_catalog.cardinality(ids) THEN
            PERFORM scopedb_private.remember_scope(resolved, claims, -1);
            PERFORM pg_catalog.set_config('scopedb.scope_token', '', true);
            RETURN '{}'::bigint[];
        END IF;
    END IF;
    RETURN ids;
END
$$;
COMMENT ON FUNCTION scopedb.reenter_scope(text) IS
    'Enters a resolved scope token kept from an earlier entry; returns its project ids (empty if it no longer verifies).';

-- CREATE OR REPLACE reset the settings of the two entry functions: the kept plans' planner settings
-- (sql/04_settings_of_kept_plans.sql) again.
DO $$
DECLARE
    full_set constant text[] := ARRAY[
        'jit=off', 'max_parallel_workers_per_gather=0',
        'enable_seqscan=on', 'enable_indexscan=on', 'enable_indexonlyscan=on', 'enable_bitmapscan=on',
        'enable_tidscan=on', 'enable_nestloop=on', 'enable_hashjoin=on', 'enable_mergejoin=on', 'enable_sort=on',
        'enable_incremental_sort=on', 'enable_material=on', 'enable_memoize=on', 'enable_hashagg=on',
        'seq_page_cost=1', 'random_page_cost=4', 'cpu_tuple_cost=0.01', 'cpu_index_tuple_cost=0.005',
        'cpu_operator_cost=0.0025', 'effective_cache_size=4GB', 'recursive_worktable_factor=10'];
    f regprocedure;
    setting text;
BEGIN
    FOREACH f IN ARRAY ARRAY['scopedb.enter_scope(text)'::regprocedure, 'scopedb.reenter_scope(text)'::regprocedure] LOOP
        FOREACH setting IN ARRAY full_set LOOP
            EXECUTE pg_catalog.format('ALTER FUNCTION %s SET %I = %L', f, pg_catalog.split_part(setting, '=', 1),
                                      pg_catalog.split_part(setting, '=', 2));
        END LOOP;
    END LOOP;
END
$$;

RESET ROLE;
