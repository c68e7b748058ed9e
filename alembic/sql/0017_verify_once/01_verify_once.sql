-- Revision 0017 (issue 19): verify a token once per connection. The entry functions remember each token they
-- verify in an owner-only temporary table of the session (scopedb_private.remember_scope); the scope accessors
-- look the setting's token up there instead of verifying it on every call (scopedb_private.verified_claims).
-- pin_settings sets only what differs, and turns constraint_exclusion off.

DO $grant$
BEGIN
    EXECUTE pg_catalog.format('GRANT TEMPORARY ON DATABASE %I TO scopedb_owner', pg_catalog.current_database());
EXCEPTION WHEN insufficient_privilege THEN
    RAISE WARNING 'scopedb: not the database owner; scopedb_owner gets no TEMP on %, so every statement verifies its scope in full',
        pg_catalog.current_database();
END
$grant$;
SET ROLE scopedb_owner;

-- How often project names have changed: a trigger on scopedb.projects adds one in the transaction of every rename
-- and deletion. A kept resolved token is re-entered only while the names it was resolved from still name its
-- projects (scopedb.reenter_scope); checking that costs a read of projects under its policy on every entry, so the
-- check is remembered with the token (its epoch) and repeated only once the epoch has moved. A table row, not a
-- sequence: it changes with the rename's own transaction, so no reader sees a new epoch with old names.
CREATE TABLE scopedb_private.project_names_epoch (
    one    boolean PRIMARY KEY DEFAULT true CHECK (one),
    epoch  bigint NOT NULL DEFAULT 0
);
INSERT INTO scopedb_private.project_names_epoch DEFAULT VALUES;
COMMENT ON TABLE scopedb_private.project_names_epoch IS
    'One row: how many renames and deletions of projects have committed (the re-entry check of kept tokens).';

-- Verified once, read cheaply
-- ---------------------------
-- Verifying a token is a pure function of the token and the signing key (the expiry and the key's retirement are
-- checked per statement apart from it), so its result can be remembered. The entry functions (enter_scope,
-- reenter_scope, resolve_scope) remember each token they verify, with its claims in typed columns, in a small table
-- of the session's own, pg_temp.scopedb_verified_tokens_v1: created by scopedb_owner inside those SECURITY DEFINER
-- functions, and readable and writable by scopedb_owner only. The app holds no TEMP privilege, and PostgreSQL gives
-- a role without it nothing but USAGE on the session's temporary schema: the app can neither read the table (it
-- holds the tokens of every tenant that used this pooled connection) nor write, alter, lock or truncate it, nor
-- create an object of its own beside it.
--
-- A statement then looks the setting's token up there instead of verifying it: found, not expired, and its key
-- not retired (both checked on every statement, as the full verification does, so a scope still ends at the next
-- statement), it has the claims the full verification would give. Anything else is verified in full (check_token):
-- a token never entered through an entry function on this session (set_config, SET LOCAL — the Citus form;
-- workers have no table at all), a table dropped by DISCARD TEMP, a hot standby (no temporary tables there). The
-- table is a memo of verifications, never a source of scope: what a statement admits is always what check_token
-- would admit for the token in the setting, and knowing a token that verifies is what reaching its scope takes,
-- memo or not. (A signing key's secret changed in place — not something scopedb does: rotation makes a new key —
-- would not invalidate what was remembered under the old secret before; retiring or deleting the key does.)
--
-- Why a table and not something cheaper: nothing else the app cannot write survives from one statement to the
-- next. Writes are rare: a kept resolved token (scopedb.resolved) is remembered once per connection, so a request
-- on a warm connection writes nothing and assigns no transaction id. A transaction-bound memo, rewritten by every
-- entry, was measured first and not taken: 30 µs and a transaction id per request (ON COMMIT DELETE ROWS, to end
-- it with the transaction, cost 0.55 ms per COMMIT).

-- Makes the memo of this session if it can and it does not exist yet; says whether it exists. It cannot where a
-- temporary table cannot be made: a hot standby, a read-only transaction, or an owner without TEMP on the database
-- (a managed server where the migration could not grant it); every statement then verifies in full. Making a
-- table is DDL: its catalog rows, its index and its TOAST table, and an invalidation every other session processes.
-- Done in a transaction that rolls back, it is undone and made again next time, so scopedb's pools make it once per
-- connection, when they open it (scopedb.prepare_session), and an entry makes it only where nothing did.
CREATE FUNCTION scopedb_private.make_memo() RETURNS boolean
LANGUAGE plpgsql
VOLATILE
AS $$
BEGIN
    IF pg_catalog.to_regclass('pg_temp.scopedb_verified_tokens_v1') IS NOT NULL THEN
        RETURN true;
    END IF;
    IF pg_catalog.pg_is_in_recovery() OR pg_catalog.current_setting('transaction_read_only')::boolean
       OR NOT pg_catalog.has_database_privilege(pg_catalog.current_database(), 'TEMPORARY') THEN
        RETURN false;
    END IF;
    -- Builtin types only: a table that lives as long as a pooled connection must not depend on scopedb's own
    -- types, which a later migration may change (a later layout gets a new name, _v2).
    CREATE TEMPORARY TABLE scopedb_verified_tokens_v1 (
        token           text NOT NULL,
        key_id          text NOT NULL,
        expires_at      timestamptz NOT NULL,
        verified_at     timestamptz NOT NULL,
        names_epoch     bigint,
        v               integer,
        aud             text,
        iat             bigint,
        exp             bigint,
        act             text,
        projects        text[],
        project_ids     bigint[],
        resources       text[],
        denied          text[],
        resource_filter text[],
        path_include    text[],
        path_exclude    text[],
        name_include    text[],
        name_exclude    text[],
        "time"          text);
    -- Looked up by the whole token. A hash index, because a btree one refuses a key over 2.7 kB, and the token of a
    -- scope over many projects is longer (10,000 projects: entry failed with program_limit_exceeded).
    CREATE INDEX scopedb_verified_tokens_v1_token ON pg_temp.scopedb_verified_tokens_v1 USING hash (token);
    RETURN true;
END
$$;
COMMENT ON FUNCTION scopedb_private.make_memo() IS
    'Makes this session''s memo of verified tokens (an owner-only temporary table) if it can; whether it exists.';

-- What scopedb's pools run on a new application connection, outside any scoped transaction (as scopedb_app):
-- makes the memo (above) in a transaction that commits, so no entry has to.
CREATE FUNCTION scopedb.prepare_session() RETURNS boolean
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN scopedb_private.make_memo();
END
$$;
COMMENT ON FUNCTION scopedb.prepare_session() IS
    'Makes the session''s memo of verified tokens (once per connection); whether the session has one.';

-- Remembers that `token` verified with `claims` (see above), and — when `names_epoch` is given — that its project
-- names were found to name its projects at that epoch of scopedb_private.project_names_epoch. Called by the entry
-- functions only, after they have verified the token. Expired tokens are dropped as new ones come in, and at most
-- 64 are kept (the most recently verified), so the table stays a few pages.
CREATE FUNCTION scopedb_private.remember_scope(token text, claims scopedb_private.scope_claims,
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
    DELETE FROM pg_temp.scopedb_verified_tokens_v1 AS m
     WHERE m.expires_at <= pg_catalog.statement_timestamp()
        OR m.token IN (SELECT o.token FROM pg_temp.scopedb_verified_tokens_v1 AS o
                        ORDER BY o.verified_at DESC OFFSET 63);
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

-- The claims `token` verifies to, from the memo (see above), and the names epoch its names were last checked at
-- (NULL: not yet on this connection); both NULL when the memo does not have the token: no table, a token never
-- remembered, or remembered but since expired or its key retired. Runs inside scopedb's SECURITY DEFINER functions
-- only, as their owner.
CREATE FUNCTION scopedb_private.remembered_claims(token text, OUT claims scopedb_private.scope_claims,
                                                  OUT names_epoch bigint)
LANGUAGE plpgsql
STABLE
AS $$
DECLARE
    memo record;
BEGIN
    IF token IS NULL OR pg_catalog.to_regclass('pg_temp.scopedb_verified_tokens_v1') IS NULL THEN
        RETURN;
    END IF;
    SELECT m.key_id, m.expires_at, m.names_epoch,
           ROW(m.v, m.aud, m.iat, m.exp, m.act, m.projects, m.project_ids, m.resources, m.denied,
               m.resource_filter, m.path_include, m.path_exclude, m.name_include, m.name_exclude,
               m."time")::scopedb_private.scope_claims AS claims
      INTO memo
      FROM pg_temp.scopedb_verified_tokens_v1 AS m
     WHERE m.token = remembered_claims.token;
    -- The key is read on its own, by its primary key: joined to the memo it cost twice as much.
    IF memo.expires_at > pg_catalog.statement_timestamp()
       AND EXISTS (SELECT FROM scopedb_private.signing_keys AS k
                    WHERE k.key_id = memo.key_id
                      AND (k.retired_at IS NULL OR k.retired_at > pg_catalog.statement_timestamp())) THEN
        claims := memo.claims;
        names_epoch := memo.names_epoch;
    END IF;
END
$$;
COMMENT ON FUNCTION scopedb_private.remembered_claims(text) IS
    'Claims of a token remembered as verified (not expired, key not retired) and its names epoch; NULLs if none.';

-- Moves scopedb_private.project_names_epoch on, in the transaction of a rename or deletion of projects (see there).
CREATE FUNCTION scopedb_private.move_project_names_epoch() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    UPDATE scopedb_private.project_names_epoch AS e SET epoch = e.epoch + 1;
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION scopedb_private.move_project_names_epoch() IS
    'Counts renames and deletions of projects (scopedb_private.project_names_epoch).';

-- The settings a scoped transaction's results and refusals depend on, set for the rest of the transaction to the
-- values scopedb is built for, whatever the session brought with it. Every application session shares one login,
-- and a tenant that resets its role to that login may store defaults for it (ALTER ROLE CURRENT_USER SET ...),
-- which every later session of every tenant would start with: row_security = off turned every read into an
-- error, gin_fuzzy_search_limit made searches silently partial, timeouts cut other tenants' statements short.
-- search_path is pinned by the entry statement itself (a function's own SET search_path would undo it here), and
-- the isolation level and read-write mode by its BEGIN (they cannot change after the first statement).
CREATE OR REPLACE FUNCTION scopedb_private.pin_settings() RETURNS void
LANGUAGE plpgsql
VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    -- Only the settings that differ are set: a set_config costs about 4 µs (sixteen of them were the largest part
    -- of an entry), reading one a tenth of that, and a setting that already has the value needs nothing.
    -- constraint_exclusion is off: partitions are pruned by their bounds, and comparing the policies' predicates
    -- with every partition's CHECK constraints cost a quarter of planning a scoped lookup (0.18 -> 0.13 ms); it
    -- never changes a result.
    -- (Pruning is what keeps a statement to the scope's partitions. scopedb sends its statements unprepared, so
    -- their parameters are constants at plan time; its functions that read fragments pin
    -- plan_cache_mode = force_custom_plan themselves. The transaction does not: the scope accessors and the entry
    -- functions would then plan their own lookups again on every call.)
    PERFORM pg_catalog.set_config(p.name, p.value, true)
       FROM (VALUES ('row_security', 'on'), ('gin_fuzzy_search_limit', '0'), ('statement_timeout', '0'),
                    ('lock_timeout', '0'), ('idle_in_transaction_session_timeout', '0'), ('exit_on_error', 'off'),
                    ('transform_null_equals', 'off'), ('standard_conforming_strings', 'on'),
                    ('DateStyle', 'ISO, MDY'), ('IntervalStyle', 'postgres'), ('extra_float_digits', '1'),
                    ('hnsw.ef_search', '40'), ('hnsw.iterative_scan', 'off'), ('hnsw.max_scan_tuples', '20000'),
                    ('hnsw.scan_mem_multiplier', '1'), ('enable_partition_pruning', 'on'),
                    ('constraint_exclusion', 'off'), ('transaction_timeout', '0')) AS p (name, value)
      WHERE pg_catalog.current_setting(p.name, true) IS DISTINCT FROM p.value
        -- transaction_timeout exists from PostgreSQL 17 on; on an older server it is not made up.
        AND (p.name <> 'transaction_timeout' OR pg_catalog.current_setting(p.name, true) IS NOT NULL);
END
$$;
COMMENT ON FUNCTION scopedb_private.pin_settings() IS
    'Sets, for the transaction, every setting a scoped transaction''s results or refusals depend on.';

-- The verified claims of the current transaction, or NULL (no scope, an ended transaction, or a token that does
-- not verify). Settings read as '' once the transaction that set them has ended, hence NULLIF. Like check_token it
-- runs only inside scopedb's SECURITY DEFINER functions (the accessors), as their owner, under their pinned
-- search_path, so it has no SET clause of its own.
--
-- Every accessor asks: the setting can be changed by any SQL the application runs, so what it holds is trusted
-- only once checked. The check is the memo when it has the token (above: a few µs), and the full verification
-- otherwise (about 20 µs: two SHA-256 HMAC passes, the key read, the claims parsed).
CREATE OR REPLACE FUNCTION scopedb_private.verified_claims() RETURNS scopedb_private.scope_claims
LANGUAGE plpgsql
STABLE
AS $$
DECLARE
    entered text := NULLIF(pg_catalog.current_setting('scopedb.scope_token', true), '');
BEGIN
    IF entered IS NULL THEN
        RETURN NULL;
    END IF;
    RETURN COALESCE((scopedb_private.remembered_claims(entered)).claims,
                    (scopedb_private.check_token(entered)).claims);
END
$$;
COMMENT ON FUNCTION scopedb_private.verified_claims() IS
    'Claims of the verified scope token of this transaction (remembered, else verified in full); NULL when none.';

CREATE OR REPLACE FUNCTION scopedb.resolve_scope(token text) RETURNS text
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    r record;
BEGIN
    SELECT t.resolved, t.resolved_claims INTO r FROM scopedb_private.resolve_token(token) AS t;
    -- The caller sets it with SET LOCAL next: in this transaction its statements need not verify it again.
    PERFORM scopedb_private.remember_scope(r.resolved, r.resolved_claims);
    RETURN r.resolved;
END
$$;
COMMENT ON FUNCTION scopedb.resolve_scope(text) IS
    'Verifies a scope token and returns it resolved (project ids, effective resources), signed by the database.';

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
    SELECT r.resolved, r.resolved_claims INTO entered FROM scopedb_private.resolve_token(token) AS r;
    claims := entered.resolved_claims;  -- what the token just signed holds: no need to verify it again
    PERFORM pg_catalog.set_config('scopedb.scope_token', entered.resolved, true);
    PERFORM scopedb_private.remember_scope(entered.resolved, claims, epoch);
    RETURN pg_catalog.jsonb_build_object(
        'project_ids', claims.project_ids,
        'resource_filter', claims.resource_filter,
        'expires_at', pg_catalog.to_timestamp(claims.exp),
        'resolved', entered.resolved,
        -- Under the owner's policy on projects, which admits the names of the token in the setting.
        'projects', (SELECT pg_catalog.jsonb_object_agg(p.name, p.id) FROM scopedb.projects AS p
                      WHERE p.id = ANY (claims.project_ids)));
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
    -- Verified once here: remembered from an earlier entry on this connection, or in full (and then remembered).
    remembered record := scopedb_private.remembered_claims(resolved);
    claims scopedb_private.scope_claims := COALESCE(remembered.claims, (scopedb_private.check_token(resolved)).claims);
    ids bigint[] := COALESCE(claims.project_ids, '{}'::bigint[]);
BEGIN
    PERFORM pg_catalog.set_config('scopedb.scope_token', COALESCE(resolved, ''), true);
    PERFORM scopedb_private.pin_settings();
    IF pg_catalog.cardinality(ids) = 0 THEN
        PERFORM pg_catalog.set_config('scopedb.scope_token', '', true);
        RETURN '{}'::bigint[];
    END IF;
    -- Do the names still name these projects? Asked once per token and connection while no project is renamed or
    -- deleted (the epoch); the owner's policy on projects admits the names of the token in the setting.
    IF remembered.names_epoch IS DISTINCT FROM epoch THEN
        IF (SELECT pg_catalog.count(*) FROM scopedb.projects AS p
             WHERE p.id = ANY (ids) AND p.name = ANY (claims.projects)) <> pg_catalog.cardinality(ids) THEN
            PERFORM pg_catalog.set_config('scopedb.scope_token', '', true);
            RETURN '{}'::bigint[];
        END IF;
        PERFORM scopedb_private.remember_scope(resolved, claims, epoch);
    END IF;
    RETURN ids;
END
$$;
COMMENT ON FUNCTION scopedb.reenter_scope(text) IS
    'Enters a resolved scope token kept from an earlier entry; returns its project ids (empty if it no longer verifies).';

GRANT EXECUTE ON FUNCTION scopedb.prepare_session() TO scopedb_app;

CREATE TRIGGER projects_names_epoch AFTER UPDATE OF name OR DELETE ON scopedb.projects
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.move_project_names_epoch();
CREATE TRIGGER projects_names_epoch_truncate AFTER TRUNCATE ON scopedb.projects
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.move_project_names_epoch();

RESET ROLE;
