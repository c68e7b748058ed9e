-- scopedb: functions and triggers — signing keys, token verification, scope accessors, scope entry.
--
-- How a scope reaches the policies
-- --------------------------------
-- The Python layer serialises a scope to canonical JSON ("claims": project names, resources, denied resources,
-- audience, issued-at, expiry, actor) and signs it with HMAC-SHA256:
--
--     v1.<key_id>.<hex signature>.<claims json>      signature = HMAC(secret, 'v1.' || key_id || '.' || claims)
--
-- scopedb.enter_scope(token) verifies it, resolves the project names to ids, re-signs the resolved claims with
-- the same key table, and stores that token in the transaction-local setting scopedb.scope_token. The policies
-- never trust the setting: every statement re-verifies it through the scope_* accessors below, which the policies
-- call as `(SELECT scopedb.scope_...())` so Postgres evaluates each at most once per statement (an InitPlan), not
-- once per row. Expiry and key retirement are checked against the statement's start, so a token that expires, or
-- whose key is retired, stops admitting rows at the next statement even inside an open transaction. Because the setting is only a carrier, code running as scopedb_app gains nothing from
-- set_config()/SET on it: an unsigned, altered, expired, retired-key or foreign-audience token yields an empty
-- scope, which matches no row. For the same reason `SET LOCAL scopedb.scope_token = <resolved token>` is an
-- equally safe way in — the form Citus forwards to its workers (see scopedb.resolve_scope).
--
-- Every function here is SECURITY DEFINER (it must read scopedb_private.signing_keys, which scopedb_app cannot),
-- pins search_path to pg_catalog and pg_temp-last, and qualifies every object it names.

SET ROLE scopedb_owner;

-- ---------------------------------------------------------------------------------------------------------------
-- Signing keys
-- ---------------------------------------------------------------------------------------------------------------

-- HMAC (RFC 2104) needs the key XORed with two constants. Core Postgres has sha256() but no pgcrypto and no bytea
-- XOR, so derive both 64-byte blocks once, when the key is stored.
CREATE FUNCTION scopedb_private.derive_hmac_pads() RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    block bytea := NEW.secret || pg_catalog.decode(pg_catalog.repeat('00', 64 - pg_catalog.length(NEW.secret)), 'hex');
    ipad bytea := block;
    opad bytea := block;
BEGIN
    FOR i IN 0 .. 63 LOOP
        ipad := pg_catalog.set_byte(ipad, i, pg_catalog.get_byte(block, i) # 54);   -- 0x36
        opad := pg_catalog.set_byte(opad, i, pg_catalog.get_byte(block, i) # 92);   -- 0x5c
    END LOOP;
    NEW.inner_pad := ipad;
    NEW.outer_pad := opad;
    RETURN NEW;
END
$$;
COMMENT ON FUNCTION scopedb_private.derive_hmac_pads() IS
    'Derives the HMAC inner/outer key blocks of a signing key so verification is two sha256() calls.';

CREATE TRIGGER signing_keys_derive_pads
    BEFORE INSERT OR UPDATE OF secret ON scopedb_private.signing_keys
    FOR EACH ROW EXECUTE FUNCTION scopedb_private.derive_hmac_pads();

-- Adds a fresh key and schedules every other active key to retire after `grace`, so tokens already signed with
-- them (and processes that have not reloaded the key yet) keep working until then. Returns the new key id.
-- The secret comes from gen_random_uuid(), which draws on the server's strong random source; two of them give
-- 244 random bits.
CREATE FUNCTION scopedb_private.rotate_signing_key(grace interval DEFAULT interval '1 hour') RETURNS text
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    new_id text := pg_catalog.to_char(pg_catalog.clock_timestamp() AT TIME ZONE 'UTC', 'YYYYMMDD"T"HH24MISSUS')
                   || '-' || pg_catalog.substr(pg_catalog.md5(pg_catalog.gen_random_uuid()::text), 1, 8);
BEGIN
    IF grace IS NULL OR grace < interval '0' THEN
        RAISE EXCEPTION 'grace must be a non-negative interval' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    UPDATE scopedb_private.signing_keys
       SET retired_at = pg_catalog.now() + grace
     WHERE retired_at IS NULL;
    INSERT INTO scopedb_private.signing_keys (key_id, secret, inner_pad, outer_pad)
    VALUES (new_id,
            pg_catalog.uuid_send(pg_catalog.gen_random_uuid()) || pg_catalog.uuid_send(pg_catalog.gen_random_uuid()),
            '', '');   -- pads are derived by the trigger
    RETURN new_id;
END
$$;
COMMENT ON FUNCTION scopedb_private.rotate_signing_key(interval) IS
    'Creates a new signing key; earlier active keys stay valid for the grace interval, then are refused.';

-- Retires one key at a given instant (default: now). Tokens signed with it are refused from then on.
CREATE FUNCTION scopedb_private.retire_signing_key(retired_key_id text, at_time timestamptz DEFAULT now())
RETURNS void
LANGUAGE sql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    UPDATE scopedb_private.signing_keys
       SET retired_at = LEAST(COALESCE(retired_at, at_time), at_time)
     WHERE key_id = retired_key_id;
END;
COMMENT ON FUNCTION scopedb_private.retire_signing_key(text, timestamptz) IS
    'Retires a signing key: tokens it signed are refused from at_time on.';

-- ---------------------------------------------------------------------------------------------------------------
-- Token verification
-- ---------------------------------------------------------------------------------------------------------------

-- Returns the claims of a valid token, or why it is not valid: missing, malformed, unknown or retired key, bad
-- signature, wrong audience, expired, not yet valid. "Now" is statement_timestamp(), not now(): now() is the start
-- of the transaction, and a transaction that outlived its token (or the retirement of its key) kept reading. The audience of a token is the database it was minted for,
-- so a token for staging is refused in production. This runs once per statement for every scope accessor a policy
-- evaluates, so it avoids regular expressions (Postgres's engine needs hundreds of microseconds for a capturing
-- pattern) and parses the claims with one jsonb_populate_record call. It runs only inside scopedb's SECURITY
-- DEFINER functions (the accessors, the entry functions), as their owner and under their pinned search_path, so it
-- needs no SET clause of its own: each one costs a save and restore of the setting on every call.
CREATE FUNCTION scopedb_private.check_token(token text, OUT claims scopedb_private.scope_claims, OUT problem text)
LANGUAGE plpgsql
STABLE
AS $$
DECLARE
    kid text;
    body text;
    expected text;
BEGIN
    IF token IS NULL OR token = '' THEN
        problem := 'missing';
        RETURN;
    END IF;
    kid := pg_catalog.split_part(token, '.', 2);
    -- 'v1.' + key id + '.' + 64 hex digits + '.' then the claims.
    body := pg_catalog.substr(token, pg_catalog.length(kid) + 70);
    IF pg_catalog.left(token, 3) <> 'v1.' OR pg_catalog.length(pg_catalog.split_part(token, '.', 3)) <> 64
       OR pg_catalog.left(body, 1) <> '{' OR pg_catalog.right(body, 1) <> '}' THEN
        problem := 'malformed';
        RETURN;
    END IF;
    SELECT pg_catalog.encode(pg_catalog.sha256(k.outer_pad || pg_catalog.sha256(
               k.inner_pad || pg_catalog.convert_to('v1.' || kid || '.' || body, 'UTF8'))), 'hex')
      INTO expected
      FROM scopedb_private.signing_keys AS k
     WHERE k.key_id = kid
       AND (k.retired_at IS NULL OR k.retired_at > pg_catalog.statement_timestamp());
    IF NOT FOUND THEN
        problem := 'unknown or retired key';
        RETURN;
    END IF;
    IF expected <> pg_catalog.split_part(token, '.', 3) THEN
        problem := 'bad signature';
        RETURN;
    END IF;
    -- Only a holder of the key can have produced these bytes, so they are our own canonical JSON.
    claims := pg_catalog.jsonb_populate_record(NULL::scopedb_private.scope_claims, body::jsonb);
    IF claims.aud IS DISTINCT FROM pg_catalog.current_database() THEN
        problem := 'wrong audience';
    ELSIF claims.exp IS NULL OR claims.exp <= EXTRACT(epoch FROM pg_catalog.statement_timestamp()) THEN
        problem := 'expired';
    ELSIF claims.iat IS NULL OR claims.iat > EXTRACT(epoch FROM pg_catalog.statement_timestamp()) + 300 THEN
        problem := 'not yet valid';
    ELSIF claims.v IS DISTINCT FROM 1 OR claims.projects IS NULL OR pg_catalog.cardinality(claims.projects) = 0 THEN
        problem := 'malformed';
    END IF;
    IF problem IS NOT NULL THEN
        claims := NULL;
    END IF;
END
$$;
COMMENT ON FUNCTION scopedb_private.check_token(text) IS
    'Verifies a scope token (HMAC-SHA256, key not retired, audience = this database, not expired).';

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

-- The verified claims of the current transaction, or NULL (no scope, an ended transaction, or a token that does
-- not verify). Settings read as '' once the transaction that set them has ended, hence NULLIF. Like check_token it
-- runs only inside scopedb's SECURITY DEFINER functions (the accessors), as their owner, under their pinned
-- search_path, so it has no SET clause of its own.
--
-- Every accessor asks: the setting can be changed by any SQL the application runs, so what it holds is trusted
-- only once checked. The check is the memo when it has the token (above), and the full verification otherwise
-- (about 20 µs: two SHA-256 HMAC passes, the key read, the claims parsed).
--
-- The memo is read by one statement that names no variable of this function: it reads the setting itself, and
-- tests the expiry and the key (not retired) in the same statement. A statement with no variables has no
-- parameters, and PostgreSQL plans such a statement once per session whatever plan_cache_mode says. With the
-- token passed as a variable (as scopedb.reenter_scope read it before revision 0026), every call inside scopedb's
-- search functions, which pin plan_cache_mode = force_custom_plan so their own statements are pruned to the
-- scope's partitions, planned the memo's two lookups again: an accessor cost 67 µs there instead of 19 µs
-- (16 µs now, in both; revision 0025). The key is tested in the same statement: read on its own it cost less
-- only while the lookup was planned on every call, and planned once the join costs nothing more. The setting
-- cannot change between the two readings: nothing but this function runs in between. scopedb.reenter_scope reads
-- the memo with the same statement (revision 0026).
CREATE FUNCTION scopedb_private.verified_claims() RETURNS scopedb_private.scope_claims
LANGUAGE plpgsql
STABLE
AS $$
DECLARE
    entered text := NULLIF(pg_catalog.current_setting('scopedb.scope_token', true), '');
    memo record;
BEGIN
    IF entered IS NULL THEN
        RETURN NULL;
    END IF;
    IF pg_catalog.to_regclass('pg_temp.scopedb_verified_tokens_v1') IS NOT NULL THEN
        SELECT ROW(m.v, m.aud, m.iat, m.exp, m.act, m.projects, m.project_ids, m.resources, m.denied,
                   m.resource_filter, m.path_include, m.path_exclude, m.name_include, m.name_exclude,
                   m."time")::scopedb_private.scope_claims AS claims
          INTO memo
          FROM pg_temp.scopedb_verified_tokens_v1 AS m
         WHERE m.token = pg_catalog.current_setting('scopedb.scope_token', true)
           AND m.expires_at > pg_catalog.statement_timestamp()
           AND EXISTS (SELECT FROM scopedb_private.signing_keys AS k
                        WHERE k.key_id = m.key_id
                          AND (k.retired_at IS NULL OR k.retired_at > pg_catalog.statement_timestamp()));
        IF FOUND THEN
            RETURN memo.claims;
        END IF;
    END IF;
    RETURN (scopedb_private.check_token(entered)).claims;
END
$$;
COMMENT ON FUNCTION scopedb_private.verified_claims() IS
    'Claims of the verified scope token of this transaction (remembered, else verified in full); NULL when none.';

-- True when the session logged in as a member of scopedb_owner: migrations, admin calls. session_user cannot be
-- changed by a non-superuser, so code running as scopedb_app cannot make this true.
CREATE FUNCTION scopedb_private.is_admin_session() RETURNS boolean
LANGUAGE sql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
RETURN pg_catalog.pg_has_role(session_user, 'scopedb_owner', 'MEMBER');
COMMENT ON FUNCTION scopedb_private.is_admin_session() IS
    'Whether the logged-in role is a member of scopedb_owner (admin and migration sessions).';

-- Why a role must not run scoped transactions, if it must not: an empty array when it may. The role itself and
-- every role it is a member of, directly or through other roles (what it can become with SET ROLE, or whose
-- rights it inherits), are checked for the attributes that step outside row-level security or around it —
-- SUPERUSER, BYPASSRLS, REPLICATION (reads every row through a replication connection), CREATEROLE (makes or
-- changes roles) — and for membership in scopedb_owner and in the predefined roles that read or write all data or
-- the server's files (pg_read_all_data can read the signing keys and so forge any scope), see every session's
-- statement text (pg_read_all_stats, also through pg_monitor) or signal any session (pg_signal_backend); and for
-- owning this database (its owner can store settings every session starts with: ALTER DATABASE ... SET). scopedb
-- checks the application login with it when a pool opens and when a connection first enters a scope; the audit
-- checks every role that can act as scopedb_app with it. Catalog reads only: invoker rights.
CREATE FUNCTION scopedb.role_hazards(target name) RETURNS text[]
LANGUAGE sql
STABLE
SET search_path = pg_catalog, pg_temp
RETURN ARRAY(
    SELECT h.hazard
      FROM (SELECT CASE WHEN r.rolname = target THEN '' ELSE 'through ' || r.rolname || ': ' END
                   || pg_catalog.concat_ws(', ',
                          CASE WHEN r.rolsuper THEN 'SUPERUSER' END,
                          CASE WHEN r.rolbypassrls THEN 'BYPASSRLS' END,
                          CASE WHEN r.rolreplication THEN 'REPLICATION' END,
                          CASE WHEN r.rolcreaterole THEN 'CREATEROLE' END) AS hazard
              FROM pg_catalog.pg_roles AS r
             WHERE (r.rolsuper OR r.rolbypassrls OR r.rolreplication OR r.rolcreaterole)
               AND pg_catalog.pg_has_role(target, r.oid, 'MEMBER')
            UNION ALL
            SELECT 'member of ' || p.rolname
              FROM pg_catalog.pg_roles AS p
             WHERE p.rolname IN ('scopedb_owner', 'pg_read_all_data', 'pg_write_all_data', 'pg_read_server_files',
                                 'pg_write_server_files', 'pg_execute_server_program', 'pg_maintain',
                                 'pg_read_all_stats', 'pg_signal_backend')
               AND p.rolname <> target
               AND pg_catalog.pg_has_role(target, p.oid, 'MEMBER')
            UNION ALL
            SELECT 'owns database ' || d.datname
              FROM pg_catalog.pg_database AS d
             WHERE d.datname = pg_catalog.current_database()
               AND pg_catalog.pg_has_role(target, d.datdba, 'MEMBER')) AS h
     ORDER BY 1);
COMMENT ON FUNCTION scopedb.role_hazards(name) IS
    'Why a role (with every role it belongs to) must not run scoped transactions; empty when it may.';

-- Signs claims with the newest active key, in the same format the Python layer uses.
CREATE FUNCTION scopedb_private.sign_claims(claims jsonb) RETURNS text
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
    body text := claims::text;
    signed text;
BEGIN
    SELECT 'v1.' || k.key_id || '.'
           || pg_catalog.encode(pg_catalog.sha256(k.outer_pad || pg_catalog.sha256(
                  k.inner_pad || pg_catalog.convert_to('v1.' || k.key_id || '.' || body, 'UTF8'))), 'hex')
           || '.' || body
      INTO signed
      FROM scopedb_private.signing_keys AS k
     WHERE k.retired_at IS NULL
     ORDER BY k.created_at DESC, k.key_id DESC
     LIMIT 1;
    IF signed IS NULL THEN
        RAISE EXCEPTION 'no active scope signing key; run scopedb keys rotate' USING ERRCODE = 'SD002';
    END IF;
    RETURN signed;
END
$$;
COMMENT ON FUNCTION scopedb_private.sign_claims(jsonb) IS
    'Signs resolved scope claims with the newest active key (used by scopedb.resolve_scope).';

-- Pattern bodies (from scopedb.patterns, signed into the token) as anchored regular expressions, one per pattern.
-- The policies test a path or name against each with `~ ANY (...)`: the cost grows with the number of patterns
-- (at most 16 per scope, see scopedb.resolve_scope), where one alternation of all of them grew much faster
-- (ten `**/X/**` globs: 200-300 ms per statement at 8,000 rows as one regex, 30 ms as ten).
CREATE FUNCTION scopedb_private.anchored(bodies text[]) RETURNS text[]
LANGUAGE sql
IMMUTABLE
SET search_path = pg_catalog, pg_temp
RETURN CASE WHEN bodies IS NULL THEN NULL
            ELSE ARRAY(SELECT '\A(?:' || b || ')\Z' FROM pg_catalog.unnest(bodies) AS b ORDER BY b) END;
COMMENT ON FUNCTION scopedb_private.anchored(text[]) IS
    'Anchors each compiled pattern body: \A(?:body)\Z.';

-- Whether a subject is in an include/exclude scope given as compiled pattern bodies: what the Python matcher
-- (scopedb.patterns) decides, decided by PostgreSQL's regex engine exactly as the policies decide it. The
-- conformance corpora hold both to the same answers.
CREATE FUNCTION scopedb.patterns_admit(subject text, include_bodies text[], exclude_bodies text[])
RETURNS boolean
LANGUAGE sql
IMMUTABLE
SET search_path = pg_catalog, pg_temp
RETURN (COALESCE(pg_catalog.cardinality(include_bodies), 0) = 0
        OR subject ~ ANY (scopedb_private.anchored(include_bodies)))
   AND (COALESCE(pg_catalog.cardinality(exclude_bodies), 0) = 0
        OR NOT subject ~ ANY (scopedb_private.anchored(exclude_bodies)));
COMMENT ON FUNCTION scopedb.patterns_admit(text, text[], text[]) IS
    'Include-then-exclude matching of a path or name against compiled pattern bodies.';

-- ---------------------------------------------------------------------------------------------------------------
-- Scope accessors: what the policies read, each evaluated at most once per statement
-- ---------------------------------------------------------------------------------------------------------------

-- Cheap and unverified: only says whether anything was entered. The permissive policies use it (RLS needs one
-- permissive policy to admit a row); the restrictive policies, which are ANDed with it, do the verified check.
-- It reads a setting anyone may read, so it runs as the caller; a standard-SQL body (RETURN) is parsed once, at
-- creation, so no search_path can change what it calls, and the planner inlines it into the policies.
CREATE FUNCTION scopedb.scope_entered() RETURNS boolean
LANGUAGE sql
STABLE
RETURN COALESCE(pg_catalog.current_setting('scopedb.scope_token', true), '') <> '';
COMMENT ON FUNCTION scopedb.scope_entered() IS
    'Whether a scope token is present (not whether it verifies); permissive policies only.';

CREATE FUNCTION scopedb.scope_project_names() RETURNS text[]
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN COALESCE((scopedb_private.verified_claims()).projects, '{}'::text[]);
END
$$;
COMMENT ON FUNCTION scopedb.scope_project_names() IS
    'Project names of the verified scope; empty when no valid scope is entered (which matches no row).';

-- Ids come from a resolved token: one scopedb.resolve_scope/enter_scope signed, or one the Python layer signed
-- with the ids earlier entries gave its names (entered through scopedb.reenter_scope, which admits the ids only
-- while the database gives them those names). A token with names only gives none, so it can name projects but
-- never reach their rows.
CREATE FUNCTION scopedb.scope_project_ids() RETURNS bigint[]
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN COALESCE((scopedb_private.verified_claims()).project_ids, '{}'::bigint[]);
END
$$;
COMMENT ON FUNCTION scopedb.scope_project_ids() IS
    'Ids of the projects of the verified scope; empty when no valid (resolved) scope is entered.';

-- The terms of a scope, as the policies test them. One derivation, from the verified claims, used by every
-- accessor below and by text_candidates: the accessors were each written out apart, and a statement could take
-- its terms from two of them read under different tokens (#90); copies kept in step by hand are how a fix to one
-- of them misses the others. The policies read the whole composite once (scopedb.scope_terms) wherever a row's
-- check needs more than one term.
CREATE TYPE scopedb.scope_terms AS (
    project_ids      bigint[],
    as_of            timestamptz,
    resource_filter  text[],
    filters_content  boolean,
    path_include     text[],
    path_exclude     text[],
    name_include     text[],
    name_exclude     text[]
);
COMMENT ON TYPE scopedb.scope_terms IS
    'The verified scope''s terms as the policies test them, from one reading of the setting.';

-- What each term is for claims `c` (the verified claims, or NULL for no valid scope):
--   project_ids      the resolved ids; a token straight from the Python layer (names only) gives none, so it can
--                    name projects but never reach their rows;
--   as_of            now() for 'current' (the default), the given instant for a point in time, NULL for 'all'
--                    (which the policies read as "every version");
--   resource_filter  what resource columns are compared with (scope_claims.resource_filter): NULL admits every
--                    row, a list exactly its members;
--   filters_content  whether the scope has path or name patterns (the policies skip the pattern checks if not);
--   the patterns     anchored regular expressions (scopedb_private.anchored); an include of NULL admits
--                    everything, an exclude of NULL excludes nothing.
-- No valid, resolved scope: every term fails closed on its own, not only beside the others — no projects, the
-- instant -infinity (no row covers it), the empty resource list, patterns checked, includes that admit nothing and
-- excludes of the empty pattern, which match everything. Each on its own, because a policy reading single
-- accessors evaluates each lazily, when a row first reaches its term, and a statement can clear the setting in
-- between (#90). Runs only inside scopedb's SECURITY DEFINER functions, under their pinned search_path.
CREATE FUNCTION scopedb_private.terms_of(c scopedb_private.scope_claims) RETURNS scopedb.scope_terms
LANGUAGE plpgsql
STABLE
AS $$
DECLARE
    patterns boolean;
BEGIN
    IF c IS NULL OR c.project_ids IS NULL THEN
        RETURN ROW('{}'::bigint[], '-infinity'::timestamptz, '{}'::text[], true, '{}'::text[], ARRAY['']::text[],
                   '{}'::text[], ARRAY['']::text[])::scopedb.scope_terms;
    END IF;
    patterns := COALESCE(pg_catalog.cardinality(c.path_include), 0) + COALESCE(pg_catalog.cardinality(c.path_exclude), 0)
              + COALESCE(pg_catalog.cardinality(c.name_include), 0) + COALESCE(pg_catalog.cardinality(c.name_exclude), 0)
              > 0;
    -- Without patterns, anchored is not called (four calls, each with its own SET clause, cost more than the rest
    -- of this function, and the policies' first question reads these terms on every statement): its answer for
    -- no patterns is NULL.
    RETURN ROW(c.project_ids,
               CASE WHEN c."time" = 'all' THEN NULL
                    WHEN c."time" IS NULL OR c."time" = 'current' THEN pg_catalog.now()
                    ELSE c."time"::timestamptz END,
               c.resource_filter,
               patterns,
               CASE WHEN patterns THEN scopedb_private.anchored(NULLIF(c.path_include, '{}')) END,
               CASE WHEN patterns THEN scopedb_private.anchored(NULLIF(c.path_exclude, '{}')) END,
               CASE WHEN patterns THEN scopedb_private.anchored(NULLIF(c.name_include, '{}')) END,
               CASE WHEN patterns THEN scopedb_private.anchored(NULLIF(c.name_exclude, '{}')) END)::scopedb.scope_terms;
END
$$;
COMMENT ON FUNCTION scopedb_private.terms_of(scopedb_private.scope_claims) IS
    'The terms of a scope from its verified claims (NULL: no valid scope, every term failing closed).';

-- The policies' full predicate (sql/04_policies.sql, and the protected tables'), for the rows their first question
-- leaves undecided: every term of the scope from one reading of the setting. A policy reads it through one
-- InitPlan, inside a sub-SELECT that each undecided row runs (0.24 µs a row more than separate InitPlans, on a
-- scratch table) or, for fragments' reads, passed to scopedb.terms_admit_fragment (below), so no statement can
-- take one term from one token and the next from another by changing the setting between rows.
CREATE FUNCTION scopedb.scope_terms() RETURNS scopedb.scope_terms
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN scopedb_private.terms_of(scopedb_private.verified_claims());
END
$$;
COMMENT ON FUNCTION scopedb.scope_terms() IS
    'Every term of the verified scope the policies test, from one reading of the setting; fails closed.';

-- The full predicate of fragments' reads for one row, given the terms (scopedb.scope_terms, read once per
-- statement by the caller): the policies' ELSE branch on fragments (sql/04_policies.sql) passes it the terms as
-- one InitPlan and the row's columns. Until revision 0028 that branch was a correlated sub-SELECT holding the
-- InitPlan; planning it cost every statement on fragments about 65 µs of server time, the row in scope or not
-- (a pooled point lookup's statement: 270 µs of server CPU, 200 with this call), where this call costs 0.2-0.33
-- µs more than the sub-SELECT's evaluation for each row that reaches it (a narrowed scope's count of 9,500 rows:
-- 10.8 ms then, 12.7 now; every version visible: 5.9 and 9.0 ms; docs/benchmarks.md).
-- A pure function of its arguments, so anyone may call it and it learns nothing: it reads no setting and no
-- table. PL/pgSQL evaluates its one expression through its fast path; a SQL-bodied function would be inlined
-- into the policy, which copies the terms' InitPlan into each of its uses (one reading each again, #90). It has
-- no SET clause (one would cost a save and restore of the setting for every row), so every operator is named
-- with its schema and nothing in a caller's search_path can stand in for one.
CREATE FUNCTION scopedb.terms_admit_fragment(t scopedb.scope_terms, project_id bigint, valid_from timestamptz,
                                             valid_to timestamptz, resource_id text, path text, fqn text)
RETURNS boolean
LANGUAGE plpgsql
IMMUTABLE
PARALLEL SAFE
AS $$
BEGIN
    RETURN project_id OPERATOR(pg_catalog.=) ANY (t.project_ids)
       AND (valid_from OPERATOR(pg_catalog.<=) t.as_of
            AND (valid_to IS NULL OR valid_to OPERATOR(pg_catalog.>) t.as_of)) IS NOT FALSE
       AND (COALESCE(resource_id, '') OPERATOR(pg_catalog.=) ANY (t.resource_filter)) IS NOT FALSE
       AND (t.filters_content IS NOT TRUE
            OR ((COALESCE(path, '') OPERATOR(pg_catalog.~) ANY (t.path_include)) IS NOT FALSE
                AND (COALESCE(path, '') OPERATOR(pg_catalog.~) ANY (t.path_exclude)) IS NOT TRUE
                AND (COALESCE(fqn, '') OPERATOR(pg_catalog.~) ANY (t.name_include)) IS NOT FALSE
                AND (COALESCE(fqn, '') OPERATOR(pg_catalog.~) ANY (t.name_exclude)) IS NOT TRUE));
END
$$;
COMMENT ON FUNCTION scopedb.terms_admit_fragment(scopedb.scope_terms, bigint, timestamptz, timestamptz, text, text, text) IS
    'Whether the terms admit a fragment''s version (the read policies'' full predicate); a pure function.';

-- The policies' first question: the ids of the scope's projects when the scope reads them whole — no resource
-- filter (none named or denied), no path or name pattern, and, when `at_present`, the instant now() — and the
-- empty array for any other scope, or none. A row of such a project is then judged by its project alone (and its
-- version by now()), with this one accessor; scope_terms runs only for a row this one leaves undecided. Each
-- accessor a policy reads is an InitPlan that verifies the scope once per statement, 40-60 µs for its first call
-- however cheap its body (four on fragments cost 0.2 ms of a one-project vector search of 0.9 ms, revision 0019).
-- Empty, not NULL, for every doubt: the policy then asks the full questions. A point in time equal to now() reads
-- what the present reads, so it counts as the present.
CREATE FUNCTION scopedb.scope_whole_project_ids(at_present boolean) RETURNS bigint[]
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    t scopedb.scope_terms := scopedb_private.terms_of(scopedb_private.verified_claims());
BEGIN
    IF t.resource_filter IS NULL AND t.filters_content IS FALSE
       AND (at_present IS FALSE OR t.as_of = pg_catalog.now()) THEN
        RETURN t.project_ids;
    END IF;
    RETURN '{}'::bigint[];
END
$$;
COMMENT ON FUNCTION scopedb.scope_whole_project_ids(boolean) IS
    'Ids of the projects the verified scope reads whole (at the present time if asked); empty for any other scope.';

-- The single terms, each a field of scopedb_private.terms_of. The policies of notes and tombstones need the
-- project ids alone; the others are kept for callers and for reading a scope from psql. No policy reads two of
-- them side by side: a check that needs two terms reads scope_terms.
CREATE FUNCTION scopedb.scope_resource_filter() RETURNS text[]
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN (scopedb_private.terms_of(scopedb_private.verified_claims())).resource_filter;
END
$$;
COMMENT ON FUNCTION scopedb.scope_resource_filter() IS
    'Resource ids the verified scope admits (and the empty string for resource-less rows); NULL: no filter.';

CREATE FUNCTION scopedb.scope_as_of() RETURNS timestamptz
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN (scopedb_private.terms_of(scopedb_private.verified_claims())).as_of;
END
$$;
COMMENT ON FUNCTION scopedb.scope_as_of() IS
    'Instant whose versions the verified scope sees; NULL for every version.';

CREATE FUNCTION scopedb.scope_filters_content() RETURNS boolean
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN (scopedb_private.terms_of(scopedb_private.verified_claims())).filters_content;
END
$$;
COMMENT ON FUNCTION scopedb.scope_filters_content() IS
    'Whether the verified scope narrows by path or name patterns (the policies skip the pattern checks if not).';

CREATE FUNCTION scopedb.scope_path_include() RETURNS text[]
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN (scopedb_private.terms_of(scopedb_private.verified_claims())).path_include;
END
$$;
COMMENT ON FUNCTION scopedb.scope_path_include() IS
    'Anchored path include patterns of the verified scope; NULL when it has none (every path is included).';

CREATE FUNCTION scopedb.scope_path_exclude() RETURNS text[]
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN (scopedb_private.terms_of(scopedb_private.verified_claims())).path_exclude;
END
$$;
COMMENT ON FUNCTION scopedb.scope_path_exclude() IS
    'Anchored path exclude patterns of the verified scope; NULL when it has none.';

CREATE FUNCTION scopedb.scope_name_include() RETURNS text[]
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN (scopedb_private.terms_of(scopedb_private.verified_claims())).name_include;
END
$$;
COMMENT ON FUNCTION scopedb.scope_name_include() IS
    'Anchored name include patterns of the verified scope; NULL when it has none (every name is included).';

CREATE FUNCTION scopedb.scope_name_exclude() RETURNS text[]
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN (scopedb_private.terms_of(scopedb_private.verified_claims())).name_exclude;
END
$$;
COMMENT ON FUNCTION scopedb.scope_name_exclude() IS
    'Anchored name exclude patterns of the verified scope; NULL when it has none.';

-- ---------------------------------------------------------------------------------------------------------------
-- Scope entry
-- ---------------------------------------------------------------------------------------------------------------

-- The settings a scoped transaction's results and refusals depend on, set for the rest of the transaction to the
-- values scopedb is built for, whatever the session brought with it. Every application session shares one login,
-- and a tenant that resets its role to that login may store defaults for it (ALTER ROLE CURRENT_USER SET ...),
-- which every later session of every tenant would start with: row_security = off turned every read into an
-- error, gin_fuzzy_search_limit made searches silently partial, timeouts cut other tenants' statements short.
-- search_path is pinned by the entry statement itself (a function's own SET search_path would undo it here), and
-- the isolation level and read-write mode by its BEGIN (they cannot change after the first statement).
CREATE FUNCTION scopedb_private.pin_settings() RETURNS void
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

CREATE FUNCTION scopedb.resolve_scope(token text) RETURNS text
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
CREATE FUNCTION scopedb.enter_scope(token text) RETURNS jsonb
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
CREATE FUNCTION scopedb.reenter_scope(resolved text) RETURNS bigint[]
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

CREATE TRIGGER projects_names_epoch AFTER UPDATE OF name OR DELETE ON scopedb.projects
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.move_project_names_epoch();
CREATE TRIGGER projects_names_epoch_truncate AFTER TRUNCATE ON scopedb.projects
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.move_project_names_epoch();

-- ---------------------------------------------------------------------------------------------------------------
-- Per-project storage
-- ---------------------------------------------------------------------------------------------------------------

-- Gives one project partitions of its own, scopedb_parts.fragments_<id> and scopedb_parts.fragment_search_<id>,
-- and moves its rows there from the partitions the small projects share. The maintenance step calls it for a
-- project that has reached the storage threshold (its HNSW and GIN index follow, built on the new partitions), and
-- an admin for a project known to be large before it is loaded (Admin.create_project(own_storage=True)).
--
-- Each table is created standalone, filled, and then attached: CREATE TABLE ... PARTITION OF would take an
-- ACCESS EXCLUSIVE lock on the parent, which waits for every tenant's running reads and blocks new ones
-- meanwhile; ATTACH PARTITION takes SHARE UPDATE EXCLUSIVE on the parent, which no read or write conflicts with.
-- What waits is the small projects' writes, for the length of the move: the shared partitions are locked in SHARE
-- mode first (a row the project writes meanwhile would be left behind), and attaching scans the shared partition
-- under an ACCESS EXCLUSIVE lock to prove no row of the project remains there. Projects with partitions of their
-- own never wait. The rows are copied through the parents as the owner in an admin session (a partition's forced
-- row-level security has no policy, so read directly it shows the owner nothing), and deleted through the parent
-- as well; the delete's trigger removes their full-text copies and archived originals, so the originals are kept
-- aside and put back. The new tables get row-level security enabled and forced, without a policy, once filled,
-- and no privilege but the owner's: queries reach them only through their parents, whose policies apply.
-- Idempotent; one half missing (a partition dropped by hand) is made up on its own.
CREATE FUNCTION scopedb_private.create_project_storage(project bigint) RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    has_fragments boolean := pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.fragments_%s', project)) IS NOT NULL;
    has_search boolean := pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.fragment_search_%s', project)) IS NOT NULL;
    columns text;
    originals scopedb_private.fragment_originals[];
BEGIN
    IF has_fragments AND has_search THEN
        RETURN;
    END IF;
    IF NOT scopedb_private.is_admin_session() THEN
        RAISE EXCEPTION 'only an admin session may move a project''s storage' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NOT EXISTS (SELECT FROM scopedb.projects AS p WHERE p.id = project) THEN
        RAISE EXCEPTION 'no project with id %', project USING ERRCODE = 'no_data_found';
    END IF;
    LOCK TABLE scopedb_parts.fragments_shared, scopedb_parts.fragment_search_shared IN SHARE MODE;
    IF NOT has_fragments THEN
        originals := ARRAY(SELECT o FROM scopedb_private.fragment_originals AS o WHERE o.project_id = project);
        -- Every stored column (a generated one is computed again on insert).
        SELECT pg_catalog.string_agg(pg_catalog.quote_ident(a.attname), ', ' ORDER BY a.attnum) INTO columns
          FROM pg_catalog.pg_attribute AS a
         WHERE a.attrelid = 'scopedb.fragments'::regclass AND a.attnum > 0 AND NOT a.attisdropped
           AND a.attgenerated = '';
        EXECUTE pg_catalog.format(
            'CREATE TABLE scopedb_parts.fragments_%s (LIKE scopedb.fragments '
            'INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING GENERATED)', project);
        -- In key order: where the rows land in the new table then owes nothing to where other projects' rows lay
        -- in the shared one (an unordered query returns rows in physical order).
        EXECUTE pg_catalog.format(
            'INSERT INTO scopedb_parts.fragments_%1$s (%2$s) SELECT %2$s FROM scopedb.fragments WHERE project_id = %1$s '
            'ORDER BY id', project, columns);
        -- Its trigger deletes the copies but the search groups' (scopedb_private.forget_fragment_copies).
        PERFORM pg_catalog.set_config('scopedb.moving_project', project::text, true);
        DELETE FROM scopedb.fragments AS f WHERE f.project_id = project;
        PERFORM pg_catalog.set_config('scopedb.moving_project', '', true);
        INSERT INTO scopedb_private.fragment_originals SELECT (o).* FROM pg_catalog.unnest(originals) AS o;
        EXECUTE pg_catalog.format(
            'ALTER TABLE scopedb_parts.fragments_%s ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY', project);
        EXECUTE pg_catalog.format(
            'ALTER TABLE scopedb.fragments ATTACH PARTITION scopedb_parts.fragments_%s FOR VALUES IN (%s)',
            project, project);
    END IF;
    IF NOT has_search THEN
        DELETE FROM scopedb_private.fragment_search AS s WHERE s.project_id = project;
        EXECUTE pg_catalog.format(
            'CREATE TABLE scopedb_parts.fragment_search_%s (LIKE scopedb_private.fragment_search '
            'INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING GENERATED)', project);
        -- The statistics target of tsv as its parent's, which partitions do not inherit (sql/02_schema.sql); -1
        -- is the default, for a parent that has none set.
        EXECUTE pg_catalog.format(
            'ALTER TABLE scopedb_parts.fragment_search_%s ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY, '
            'ALTER COLUMN tsv SET STATISTICS %s', project,
            (SELECT COALESCE(a.attstattarget, -1) FROM pg_catalog.pg_attribute AS a
              WHERE a.attrelid = 'scopedb_private.fragment_search'::regclass AND a.attname = 'tsv'));
        EXECUTE pg_catalog.format(
            'ALTER TABLE scopedb_private.fragment_search ATTACH PARTITION scopedb_parts.fragment_search_%s '
            'FOR VALUES IN (%s)', project, project);
    END IF;
    -- The full-text copies, into the project's own partition (the tsvectors are stored: nothing is parsed again).
    INSERT INTO scopedb_private.fragment_search AS s (project_id, id, tsv, resource_id, path, fqn, valid_from, valid_to,
                                                      content)
    SELECT f.project_id, f.id, f.tsv, f.resource_id, f.path, f.fqn, f.valid_from, f.valid_to, f.content
      FROM scopedb.fragments AS f WHERE f.project_id = project
    ON CONFLICT ON CONSTRAINT fragment_search_pkey DO NOTHING;
END
$$;
COMMENT ON FUNCTION scopedb_private.create_project_storage(bigint) IS
    'Gives a project partitions of its own (of scopedb.fragments and scopedb_private.fragment_search), moving its rows.';

-- What the maintenance step should do (scopedb.Admin.maintain_storage, `scopedb storage`): one row per action,
-- with the statement that performs it. The statements cannot run here: CREATE INDEX CONCURRENTLY and DETACH
-- PARTITION CONCURRENTLY, which keep every other project's reads and writes going, refuse to run inside a
-- transaction block. Actions, in order:
--   create  a project in the shared partitions with at least `threshold` fragments gets partitions of its own,
--           its rows moved there (scopedb_private.create_project_storage); so does a project that has one of its
--           two partitions and not the other, whatever its size (threshold NULL: only that)
--   hnsw    a project with at least `threshold` embedded fragments and no HNSW index gets one on its partition
--           (threshold NULL: no index is built)
--   gin     a project with at least `threshold` fragments and no GIN index gets one on its full-text partition
--   detach / drop   a partition whose project no longer exists is detached, then dropped
-- and for the search groups (scopedb_private.search_groups), when the plan covers every project or none:
--   group_detach / group_drop   the partition of a group that no longer exists, or of a group declared again
--           (its members changed), is detached, then dropped
--   group_unindex   an invalid index a failed build left on a group's partition is dropped
--   group_fill      a declared group's partition is made and filled (scopedb_private.fill_search_group)
--   group_hnsw      its HNSW index is built (row_count: the rows it will hold)
--   group_ready     the group is marked ready once the index is valid (scopedb_private.search_group_ready)
-- (threshold NULL: only the drops.)
-- Below the threshold a project stays in the shared partitions and is searched exactly (through the primary key):
-- no index means no approximation, and for a few hundred rows an exact scan costs about what an index scan does. With `online` false the
-- indexes are built with a plain CREATE INDEX: one pass over the rows, no waiting for other transactions, and it
-- still locks only the project's own partition — its writes wait for the build, no one else's do (the choice
-- after a bulk load, when nothing writes).
--
-- `projects` limits the plan to those projects (NULL: every project). Counting a project's rows locks its
-- partitions until the transaction ends, and with thousands of projects one transaction ran out of lock slots
-- (max_locks_per_transaction); the caller plans a batch of projects per transaction. Partitions of deleted
-- projects, which need no count, are planned when `projects` is NULL or empty.
CREATE FUNCTION scopedb_private.storage_plan(threshold integer, online boolean DEFAULT true,
                                             projects bigint[] DEFAULT NULL)
RETURNS TABLE (project_id bigint, action text, statement text, row_count bigint)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET plan_cache_mode = force_custom_plan
AS $$
DECLARE
    p record;
    own integer;
    rows_found bigint;
    build text := CASE WHEN online THEN 'CONCURRENTLY ' ELSE '' END;
    members bigint[];
    index_valid boolean;
    opclass text := (SELECT pg_catalog.quote_ident(n.nspname) || '.vector_cosine_ops'
                       FROM pg_catalog.pg_extension AS e
                       JOIN pg_catalog.pg_namespace AS n ON n.oid = e.extnamespace WHERE e.extname = 'vector');
BEGIN
    IF threshold < 1 THEN
        RAISE EXCEPTION 'threshold must be a positive number of rows' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    FOR p IN SELECT pr.id FROM scopedb.projects AS pr WHERE projects IS NULL OR pr.id = ANY (projects)
              ORDER BY pr.id LOOP
        own := (pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.fragments_%s', p.id)) IS NOT NULL)::integer
               + (pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.fragment_search_%s', p.id)) IS NOT NULL)::integer;
        IF own < 2 THEN
            IF own = 0 THEN
                CONTINUE WHEN threshold IS NULL;
                SELECT pg_catalog.count(*) INTO rows_found
                  FROM (SELECT FROM scopedb.fragments AS f WHERE f.project_id = p.id LIMIT threshold) AS r;
                CONTINUE WHEN rows_found < threshold;  -- stays in the shared partitions
            END IF;
            RETURN QUERY SELECT p.id, 'create',
                                pg_catalog.format('SELECT scopedb_private.create_project_storage(%s)', p.id), 0::bigint;
        END IF;
        CONTINUE WHEN threshold IS NULL;  -- create and drop only
        IF pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.fragments_%s_embedding_hnsw', p.id)) IS NULL THEN
            -- Through the parent, where the owner's admin policy applies (the partition's own forced row-level
            -- security has no policy, so read directly it shows the owner nothing).
            SELECT pg_catalog.count(*) INTO rows_found
              FROM (SELECT FROM scopedb.fragments AS f
                     WHERE f.project_id = p.id AND f.embedding IS NOT NULL LIMIT threshold) AS r;
            IF rows_found >= threshold THEN
                -- The whole count, for sizing maintenance_work_mem (an HNSW build that fits in it is much faster).
                SELECT pg_catalog.count(*) INTO rows_found
                  FROM scopedb.fragments AS f WHERE f.project_id = p.id AND f.embedding IS NOT NULL;
                RETURN QUERY SELECT p.id, 'hnsw', pg_catalog.format(
                    'CREATE INDEX %sIF NOT EXISTS fragments_%s_embedding_hnsw '
                    'ON scopedb_parts.fragments_%s USING hnsw (embedding %s.vector_cosine_ops) '
                    'WITH (m = 16, ef_construction = 128)', build, p.id, p.id,
                    (SELECT pg_catalog.quote_ident(n.nspname) FROM pg_catalog.pg_extension AS e
                       JOIN pg_catalog.pg_namespace AS n ON n.oid = e.extnamespace WHERE e.extname = 'vector')),
                    rows_found;
            END IF;
        END IF;
        IF pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.fragment_search_%s_tsv_gin', p.id)) IS NULL THEN
            SELECT pg_catalog.count(*) INTO rows_found
              FROM (SELECT FROM scopedb_private.fragment_search AS s WHERE s.project_id = p.id LIMIT threshold) AS r;
            IF rows_found >= threshold THEN
                RETURN QUERY SELECT p.id, 'gin', pg_catalog.format(
                    'CREATE INDEX %sIF NOT EXISTS fragment_search_%s_tsv_gin '
                    'ON scopedb_parts.fragment_search_%s USING gin (tsv)', build, p.id, p.id), rows_found;
            END IF;
        END IF;
    END LOOP;
    IF COALESCE(pg_catalog.cardinality(projects), 0) > 0 THEN
        RETURN;
    END IF;
    -- Partitions of projects that no longer exist, the full-text one first. PostgreSQL detaches concurrently
    -- only from a parent without a DEFAULT partition, and both parents have one (the small projects' shared
    -- partition, revision 0014): the detach then takes an ACCESS EXCLUSIVE lock on the parent for an instant,
    -- which the maintenance step asks for with a short lock_timeout, and tries again, so that no tenant's query
    -- waits behind it for long (scopedb.Admin).
    RETURN QUERY
        SELECT o.project_id, a.action, pg_catalog.format(a.template, o.parent, o.part), 0::bigint
          FROM (SELECT i.inhparent::regclass AS parent, c.oid::regclass AS part,
                       pg_catalog.substring(pg_catalog.pg_get_expr(c.relpartbound, c.oid), '(\d+)')::bigint
                           AS project_id,
                       CASE WHEN i.inhparent = 'scopedb_private.fragment_search'::regclass THEN 0 ELSE 1 END AS rank,
                       i.inhdetachpending AS pending,
                       (SELECT pt.partdefid <> 0 FROM pg_catalog.pg_partitioned_table AS pt
                         WHERE pt.partrelid = i.inhparent) AS has_default
                  FROM pg_catalog.pg_inherits AS i
                  JOIN pg_catalog.pg_class AS c ON c.oid = i.inhrelid
                 WHERE i.inhparent IN ('scopedb.fragments'::regclass, 'scopedb_private.fragment_search'::regclass))
               AS o
         CROSS JOIN LATERAL (VALUES (0, 'detach', 'ALTER TABLE %s DETACH PARTITION %s'
                                        || CASE WHEN o.pending THEN ' FINALIZE'
                                                WHEN o.has_default THEN ''
                                                ELSE ' CONCURRENTLY' END),
                                    (1, 'drop', 'DROP TABLE %2$s')) AS a (step, action, template)
         WHERE o.project_id IS NOT NULL  -- the shared partitions (bound DEFAULT) stay
           AND NOT EXISTS (SELECT FROM scopedb.projects AS pr WHERE pr.id = o.project_id)
         ORDER BY o.rank, o.part, a.step;
    -- Tables of scopedb_parts that are no partition (left by a detach that did not finish): dropped.
    RETURN QUERY
        SELECT NULL::bigint, 'drop', pg_catalog.format('DROP TABLE %s', c.oid::regclass), 0::bigint
          FROM pg_catalog.pg_class AS c
         WHERE c.relnamespace = 'scopedb_parts'::regnamespace AND c.relkind = 'r' AND NOT c.relispartition;
    -- Search groups' partitions: of groups that no longer exist, and of groups declared again, whose copy is stale.
    RETURN QUERY
        SELECT NULL::bigint, a.action, pg_catalog.format(a.template, c.oid::regclass), 0::bigint
          FROM pg_catalog.pg_inherits AS i
          JOIN pg_catalog.pg_class AS c ON c.oid = i.inhrelid
          LEFT JOIN scopedb_private.search_groups AS sg
            ON sg.id = pg_catalog.substring(pg_catalog.pg_get_expr(c.relpartbound, c.oid), '(\d+)')::bigint
         CROSS JOIN LATERAL (VALUES (0, 'group_detach', 'ALTER TABLE scopedb_private.group_vectors DETACH PARTITION %s '
                                        || CASE WHEN i.inhdetachpending THEN 'FINALIZE' ELSE 'CONCURRENTLY' END),
                                    (1, 'group_drop', 'DROP TABLE %s')) AS a (step, action, template)
         WHERE i.inhparent = 'scopedb_private.group_vectors'::regclass
           AND (sg.id IS NULL OR sg.state = 'declared')
         ORDER BY c.oid::regclass::text, a.step;
    IF threshold IS NULL THEN
        RETURN;
    END IF;
    FOR p IN SELECT sg.id, sg.state FROM scopedb_private.search_groups AS sg WHERE sg.state <> 'ready'
              ORDER BY sg.id LOOP
        index_valid := NULL;
        IF p.state = 'declared' THEN
            members := ARRAY(SELECT m.project_id FROM scopedb_private.search_group_members AS m WHERE m.group_id = p.id);
            SELECT pg_catalog.count(*) INTO rows_found
              FROM scopedb.fragments AS f WHERE f.project_id = ANY (members) AND f.embedding IS NOT NULL;
            RETURN QUERY SELECT NULL::bigint, 'group_fill',
                                pg_catalog.format('SELECT scopedb_private.fill_search_group(%s)', p.id), rows_found;
        ELSE  -- filled: its partition exists; an index a failed build left invalid is dropped and built again
            SELECT pg_catalog.count(*) INTO rows_found FROM scopedb_private.group_vectors AS v WHERE v.group_id = p.id;
            SELECT x.indisvalid INTO index_valid
              FROM pg_catalog.pg_index AS x
             WHERE x.indexrelid = pg_catalog.to_regclass(
                       pg_catalog.format('scopedb_parts.group_vectors_%s_embedding_hnsw', p.id));
            IF index_valid IS FALSE THEN
                RETURN QUERY SELECT NULL::bigint, 'group_unindex', pg_catalog.format(
                    'DROP INDEX %sIF EXISTS scopedb_parts.group_vectors_%s_embedding_hnsw', build, p.id), 0::bigint;
            END IF;
        END IF;
        -- A group's graph is as large as one shared index, and denser than a project's: at 1M rows of the bench
        -- corpus (256 clustered topics, d=128), m = 16, ef_construction = 128 stopped at recall@10 0.978 whatever
        -- ef_search (40 to 300: some neighbours unreachable), where m = 24, ef_construction = 200 gave 1.000 at
        -- ef_search 40, for a build 1.7 times as long (600 s against 352 s).
        IF p.state = 'declared' OR index_valid IS NOT TRUE THEN
            RETURN QUERY SELECT NULL::bigint, 'group_hnsw', pg_catalog.format(
                'CREATE INDEX %sIF NOT EXISTS group_vectors_%s_embedding_hnsw '
                'ON scopedb_parts.group_vectors_%s USING hnsw (embedding %s) '
                'WITH (m = 24, ef_construction = 200)', build, p.id, p.id, opclass), rows_found;
        END IF;
        RETURN QUERY SELECT NULL::bigint, 'group_ready',
                            pg_catalog.format('SELECT scopedb_private.search_group_ready(%s)', p.id), 0::bigint;
    END LOOP;
END
$$;
COMMENT ON FUNCTION scopedb_private.storage_plan(integer, boolean, bigint[]) IS
    'The maintenance actions per-project storage needs now, each with its statement (run outside a transaction).';

-- ---------------------------------------------------------------------------------------------------------------
-- Search groups
-- ---------------------------------------------------------------------------------------------------------------

-- A search group (scopedb_private.search_groups, sql/02_schema.sql) has one HNSW index over its members' embedded
-- fragments, in a partition of scopedb_private.group_vectors of its own. It is made in three maintenance steps,
-- each a row of storage_plan: fill (this function), the index build (CREATE INDEX, outside a transaction), and
-- search_group_ready. Filling makes the partition standalone, copies every embedded fragment of the members into
-- it through the parent (as the owner in an admin session), and attaches it (SHARE UPDATE EXCLUSIVE on the
-- parent, which no search conflicts with). The members' partitions are locked in SHARE mode first, so no member
-- writes a fragment while the copy is made (a fragment written meanwhile would be missed): what waits is the
-- members' writes, and the small projects' if a member lives in the partition they share, for the length of the
-- copy. Once the partition is attached, the fragments' triggers copy every later change of a member.
CREATE FUNCTION scopedb_private.fill_search_group(target bigint) RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    part text := pg_catalog.format('scopedb_parts.group_vectors_%s', target);
    members bigint[];
    member bigint;
BEGIN
    IF NOT scopedb_private.is_admin_session() THEN
        RAISE EXCEPTION 'only an admin session may fill a search group' USING ERRCODE = 'insufficient_privilege';
    END IF;
    -- The group's row, locked: a member removed meanwhile (which declares the group again) waits for the fill.
    PERFORM FROM scopedb_private.search_groups AS g WHERE g.id = target AND g.state = 'declared' FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no declared search group with id %', target USING ERRCODE = 'no_data_found';
    END IF;
    IF pg_catalog.to_regclass(part) IS NOT NULL THEN
        RAISE EXCEPTION 'search group % still has a partition; the maintenance step drops it first', target
              USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    members := ARRAY(SELECT m.project_id FROM scopedb_private.search_group_members AS m
                      WHERE m.group_id = target ORDER BY m.project_id);
    FOREACH member IN ARRAY members LOOP
        EXECUTE pg_catalog.format('LOCK TABLE %s IN SHARE MODE',
            COALESCE(pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.fragments_%s', member))::text,
                     'scopedb_parts.fragments_shared'));
    END LOOP;
    EXECUTE pg_catalog.format(
        'CREATE TABLE %s (LIKE scopedb_private.group_vectors INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part);
    -- In key order, as create_project_storage copies: where a row lands owes nothing to where it lay before.
    EXECUTE pg_catalog.format(
        'INSERT INTO %s (group_id, project_id, id, embedding, valid_from, valid_to, resource_id, path, fqn, content) '
        'SELECT %s, f.project_id, f.id, f.embedding, f.valid_from, f.valid_to, f.resource_id, f.path, f.fqn, f.content '
        '  FROM scopedb.fragments AS f WHERE f.project_id = ANY (%L::bigint[]) AND f.embedding IS NOT NULL '
        ' ORDER BY f.project_id, f.id', part, target, members);
    EXECUTE pg_catalog.format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY', part);
    EXECUTE pg_catalog.format('ALTER TABLE scopedb_private.group_vectors ATTACH PARTITION %s FOR VALUES IN (%s)',
                              part, target);
    UPDATE scopedb_private.search_groups AS g SET state = 'filled' WHERE g.id = target;
END
$$;
COMMENT ON FUNCTION scopedb_private.fill_search_group(bigint) IS
    'Makes a declared search group''s partition of scopedb_private.group_vectors with its members'' embedded fragments.';

-- The last maintenance step of a group: once its HNSW index is built and valid, the group is ready and searches
-- use it. First it copies any member fragment the copy lacks: the triggers copy a member's new fragments once
-- the group's partition exists, but a writer whose snapshot predates the group's declaration does not see the
-- membership (REPEATABLE READ), and such a row would otherwise stay missing from the group's answers. False when
-- there is nothing to do (the group is already ready, or was declared again meanwhile).
CREATE FUNCTION scopedb_private.search_group_ready(target bigint) RETURNS boolean
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    members bigint[];
BEGIN
    IF NOT scopedb_private.is_admin_session() THEN
        RAISE EXCEPTION 'only an admin session may mark a search group ready' USING ERRCODE = 'insufficient_privilege';
    END IF;
    PERFORM FROM scopedb_private.search_groups AS g WHERE g.id = target AND g.state = 'filled' FOR UPDATE;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_index AS x
                    WHERE x.indexrelid = pg_catalog.to_regclass(
                              pg_catalog.format('scopedb_parts.group_vectors_%s_embedding_hnsw', target))
                      AND x.indisvalid AND x.indisready) THEN
        RAISE EXCEPTION 'search group %''s HNSW index is missing or invalid; run the maintenance step again', target
              USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    members := ARRAY(SELECT m.project_id FROM scopedb_private.search_group_members AS m WHERE m.group_id = target);
    INSERT INTO scopedb_private.group_vectors AS v (group_id, project_id, id, embedding, valid_from, valid_to,
                                                    resource_id, path, fqn, content)
    SELECT target, f.project_id, f.id, f.embedding, f.valid_from, f.valid_to, f.resource_id, f.path, f.fqn, f.content
      FROM scopedb.fragments AS f
     WHERE f.project_id = ANY (members) AND f.embedding IS NOT NULL
       AND NOT EXISTS (SELECT FROM scopedb_private.group_vectors AS c
                        WHERE c.group_id = target AND c.project_id = f.project_id AND c.id = f.id);
    UPDATE scopedb_private.search_groups AS g SET state = 'ready' WHERE g.id = target;
    RETURN true;
END
$$;
COMMENT ON FUNCTION scopedb_private.search_group_ready(bigint) IS
    'Marks a filled search group ready once its HNSW index is valid (copying any member fragment its copy lacks).';

-- A change of a group's members makes its copy wrong (a removed member's rows would stay in the index, an added
-- member's would be missing): the group is declared again, so no search uses it, and the maintenance step drops
-- its partition and fills it anew. A member goes when its project is deleted (the foreign key cascades). The
-- group's copy of its members' ids (search_groups.members, which searches read) is made again here, once per
-- statement and group (declaring a group of 10,000 projects is one statement).
CREATE FUNCTION scopedb_private.redeclare_search_group() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    changed bigint[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        changed := ARRAY(SELECT DISTINCT a.group_id FROM added AS a);
    ELSIF TG_OP = 'DELETE' THEN
        changed := ARRAY(SELECT DISTINCT r.group_id FROM removed AS r);
    ELSIF TG_OP = 'UPDATE' THEN
        changed := ARRAY(SELECT a.group_id FROM added AS a UNION SELECT r.group_id FROM removed AS r);
    END IF;
    UPDATE scopedb_private.search_groups AS g
       SET state = 'declared',
           members = ARRAY(SELECT m.project_id FROM scopedb_private.search_group_members AS m
                            WHERE m.group_id = g.id ORDER BY m.project_id)
     WHERE TG_OP = 'TRUNCATE' OR g.id = ANY (changed);
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION scopedb_private.redeclare_search_group() IS
    'Sends a search group back to declared when its members change (its copy is filled anew), and copies its members'' ids.';

CREATE TRIGGER search_group_members_redeclare_insert
    AFTER INSERT ON scopedb_private.search_group_members
    REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.redeclare_search_group();
CREATE TRIGGER search_group_members_redeclare_update
    AFTER UPDATE ON scopedb_private.search_group_members
    REFERENCING OLD TABLE AS removed NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.redeclare_search_group();
CREATE TRIGGER search_group_members_redeclare_delete
    AFTER DELETE ON scopedb_private.search_group_members
    REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.redeclare_search_group();
CREATE TRIGGER search_group_members_redeclare_truncate
    AFTER TRUNCATE ON scopedb_private.search_group_members
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.redeclare_search_group();

-- The `k` fragments of `projects` nearest to `query` (cosine), through search groups' indexes, when groups the
-- verified scope reads whole cover every one of `projects`; otherwise nothing (scopedb.nearest_fragments then
-- searches the projects' own indexes). A group is used only if every member is one of `projects` and the scope
-- reads every member whole at the present time (scope_whole_project_ids(true): no resource, path or name
-- narrowing, no other instant). Only those: a group's index holds every member's rows, and consulted for a scope
-- that may not see all of them it would answer questions about the rows it may not see (the similarity oracle,
-- docs/security.md #76). Whatever the caller passes, a scope that does not read the groups whole gets nothing
-- here, as it would if no group existed. Groups do not overlap in one search (the largest first). A call over
-- fewer than two projects costs nothing; a call in a database with no ready group costs two probes of the groups.
--
-- The search is a strict iterative scan of the group's index over the versions valid now (the copy carries the
-- validity), so the filter never starves the answer; rows are returned from the copy (the content with them),
-- sorted as the exact statement sorts them, at most k. The copy is owner-only, so this runs as its owner, with
-- every setting the search depends on pinned (the caller's hnsw.ef_search, iterative scan or planner switches
-- never reach it): what it returns depends on the members' rows alone, all of which the scope sees. Every
-- statement keeps its generic plan for the connection, the search's too: the group's id is a parameter of that
-- plan, and the other groups' partitions are pruned when it starts (run-time pruning), so a call plans nothing
-- (planning the search on every call cost 0.2 ms; one function reading the scope once, instead of a second one
-- choosing the groups, saved 0.3-0.5 ms a call). There are as many partitions as groups, few, so a plan that
-- locks them all costs little. Several groups are searched by one statement made for the call.
CREATE FUNCTION scopedb.group_nearest(projects bigint[], query vector, k integer, ef_search integer,
                                      max_scan_tuples integer)
RETURNS TABLE (project_id bigint, id text, resource_id text, path text, fqn text, content text,
               distance double precision)
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET plan_cache_mode = force_generic_plan
SET enable_partition_pruning = on
SET constraint_exclusion = off
SET hnsw.iterative_scan = strict_order
SET hnsw.ef_search = 20
SET hnsw.max_scan_tuples = 20000
AS $$
DECLARE
    wanted bigint[];
    chosen bigint[] := '{}';
    covered bigint[] := '{}';
    g record;
    one record;
BEGIN
    IF k IS NULL OR k < 0 OR k > 10000 THEN
        RAISE EXCEPTION 'k must be between 0 and 10000' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF COALESCE(pg_catalog.cardinality(projects), 0) < 2 OR query IS NULL OR k = 0 THEN
        RETURN;
    END IF;
    -- The common case in one statement: one ready group whose members are the call's projects (members are kept
    -- sorted), all read whole by the scope. Choosing through the statements below cost 0.1 ms more a call.
    SELECT sg.id, sg.members INTO one
      FROM scopedb_private.search_groups AS sg
     WHERE sg.state = 'ready'
       AND sg.members = ARRAY(SELECT DISTINCT p FROM pg_catalog.unnest(projects) AS p ORDER BY p)
       AND NOT EXISTS (SELECT m FROM pg_catalog.unnest(sg.members) AS m
                       EXCEPT SELECT w FROM pg_catalog.unnest(scopedb.scope_whole_project_ids(true)) AS w);
    IF FOUND THEN
        chosen := ARRAY[one.id];
        covered := one.members;
    ELSE
        IF NOT EXISTS (SELECT FROM scopedb_private.search_groups AS sg WHERE sg.state = 'ready') THEN
            RETURN;
        END IF;
        -- The call's projects that the scope reads whole. Sets of ids are compared by hashing throughout: the
        -- array operators (<@, &&) compare element by element, and with thousands of projects took 0.26 s.
        wanted := ARRAY(SELECT p FROM pg_catalog.unnest(projects) AS p
                        INTERSECT SELECT w FROM pg_catalog.unnest(scopedb.scope_whole_project_ids(true)) AS w);
        IF pg_catalog.cardinality(wanted) < 2 THEN
            RETURN;
        END IF;
        -- The ready groups every member of which is wanted (the members' key leads with the project), largest
        -- first; a group that overlaps one taken is left.
        FOR g IN SELECT sg.id, sg.members
                   FROM (SELECT m.group_id, pg_catalog.count(*) AS inside FROM scopedb_private.search_group_members AS m
                          WHERE m.project_id = ANY (wanted) GROUP BY m.group_id) AS c
                   JOIN scopedb_private.search_groups AS sg
                     ON sg.id = c.group_id AND sg.state = 'ready' AND pg_catalog.cardinality(sg.members) = c.inside
                  ORDER BY c.inside DESC, sg.id LOOP
            CONTINUE WHEN pg_catalog.cardinality(covered) > 0
                      AND EXISTS (SELECT x FROM pg_catalog.unnest(g.members) AS x INTERSECT
                                  SELECT y FROM pg_catalog.unnest(covered) AS y);
            chosen := chosen || g.id;
            covered := covered || g.members;
        END LOOP;
        -- Nothing unless they cover every project of the call (they are disjoint subsets of it).
        IF pg_catalog.cardinality(covered) = 0
           OR pg_catalog.cardinality(covered) <> (SELECT pg_catalog.count(DISTINCT p) FROM pg_catalog.unnest(projects) AS p) THEN
            RETURN;
        END IF;
    END IF;
    PERFORM pg_catalog.set_config('hnsw.ef_search', GREATEST(LEAST(COALESCE(ef_search, 0), 1000), k, 1)::text, true),
            pg_catalog.set_config('hnsw.max_scan_tuples', GREATEST(COALESCE(max_scan_tuples, 0), 1)::text, true),
            pg_catalog.set_config('enable_sort', 'off', true);
    -- A ready group's copy holds its members' rows only (a member's removal declares it again); the k rows
    -- found are checked against them all the same, and a row of another project would be dropped (the answer
    -- then falls short, and the caller's exact statement answers).
    IF pg_catalog.cardinality(chosen) = 1 THEN
        RETURN QUERY
            SELECT r.project_id, r.id, r.resource_id, r.path, r.fqn, r.content, r.distance
              FROM (SELECT v.project_id, v.id, v.resource_id, v.path, v.fqn, v.content, v.embedding <=> query AS distance
                      FROM scopedb_private.group_vectors AS v
                     WHERE v.group_id = chosen[1]
                       AND v.valid_from <= pg_catalog.now() AND (v.valid_to IS NULL OR v.valid_to > pg_catalog.now())
                     ORDER BY v.embedding <=> query, v.project_id, v.id  -- ties as the exact statement breaks them
                     LIMIT k) AS r
             WHERE r.project_id = ANY (covered)
             ORDER BY r.distance, r.project_id, r.id;
        RETURN;
    END IF;
    -- Several groups: each one's k nearest, merged. The ids are bigints from search_groups, not the caller's.
    RETURN QUERY EXECUTE
        'SELECT u.project_id, u.id, u.resource_id, u.path, u.fqn, u.content, u.distance FROM ('
        || (SELECT pg_catalog.string_agg(pg_catalog.format(
               '(SELECT v.project_id, v.id, v.resource_id, v.path, v.fqn, v.content, '
               'v.embedding <=> $1 AS distance FROM scopedb_private.group_vectors AS v '
               'WHERE v.group_id = %s AND v.valid_from <= pg_catalog.now() '
               'AND (v.valid_to IS NULL OR v.valid_to > pg_catalog.now()) '
               'ORDER BY v.embedding <=> $1, v.project_id, v.id LIMIT $2)', c.g), ' UNION ALL ')
              FROM pg_catalog.unnest(chosen) AS c (g))
        || ') AS u WHERE u.project_id = ANY ($3) ORDER BY u.distance, u.project_id, u.id LIMIT $2'
        USING query, k, covered;
END
$$;
COMMENT ON FUNCTION scopedb.group_nearest(bigint[], vector, integer, integer, integer) IS
    'The k nearest valid fragments of the given projects through search groups the verified scope reads whole; nothing unless such groups cover every project.';

-- The operator <=> is pgvector's, in the schema the extension was installed in, which the function's search_path
-- must name: pg_catalog first, so nothing there can be shadowed, and pg_temp last.
DO $$
BEGIN
    EXECUTE pg_catalog.format(
        'ALTER FUNCTION scopedb.group_nearest(bigint[], vector, integer, integer, integer) '
        'SET search_path = pg_catalog, %I, pg_temp',
        (SELECT n.nspname FROM pg_catalog.pg_extension AS e
           JOIN pg_catalog.pg_namespace AS n ON n.oid = e.extnamespace WHERE e.extname = 'vector'));
END
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Full-text search
-- ---------------------------------------------------------------------------------------------------------------

-- Scoped full-text candidates: the best `max_rows` fragments matching `query`, with their ts_rank_cd and their
-- rows. The GIN index of scopedb_private.fragment_search finds the matches (it has no RLS, so the index is usable),
-- and the verified scope is applied to them there: the copy carries the columns the read policy judges, and the
-- predicate below is that policy's full predicate (its ELSE branch, which its first branch only shortens for a
-- scope that reads its projects whole), term for term, with the scope's values read once (one check of the token,
-- not one per accessor, and all from the same reading of the setting) and inlined as constants (plan_cache_mode), so the planner prunes to the scope's partitions and
-- drops the checks a scope does not need (no patterns: no pattern test at all). The copy carries the content too,
-- so the best `max_rows` are returned from it alone. They used to be joined to scopedb.fragments under the owner's
-- scope policy, a second check of each returned row; planning that join into the partitioned table took 0.5 ms
-- of a 0.6 ms search in a small scope (revision 0017 removed it). The copy is written only by the owner's
-- triggers on fragments, in the statement that changes them, so it is what the fragments are.
--
-- Each project's words are in its own partition (scopedb_parts.fragment_search_<id>, with a GIN index once the
-- project is large enough; the small projects' in the shared partition, searched through the primary key), and the
-- scope's project ids prune the others away before anything is read. The function runs with the caller's settings
-- unless it pins them: gin_fuzzy_search_limit thinned every tenant's matches before the scope filter, so the count
-- A got back for a word told A how often other tenants use it. The settings below are fixed for the call. The
-- statement is static (no EXECUTE), and no function shows its plan: a plan made as the owner, from every tenant's
-- statistics, changed shape with how common A's word was across all tenants. The statement estimates its
-- tsquery from the most common lexemes of each of the scope's partitions on every call, which the statistics
-- target of tsv keeps short (sql/02_schema.sql, revision 0027).
CREATE FUNCTION scopedb.text_candidates(query tsquery, max_rows integer)
RETURNS TABLE (project_id bigint, id text, rank real, resource_id text, path text, fqn text, content text)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET gin_fuzzy_search_limit = 0
SET enable_seqscan = on
SET enable_indexscan = on
SET enable_bitmapscan = on
SET enable_nestloop = on
SET enable_hashjoin = on
SET enable_mergejoin = on
SET enable_sort = on
SET jit = off
SET enable_partition_pruning = on
SET constraint_exclusion = off
SET plan_cache_mode = auto
AS $$
DECLARE
    -- The terms the read policy on scopedb.fragments tests (scopedb_private.terms_of), read once.
    t scopedb.scope_terms := scopedb_private.terms_of(scopedb_private.verified_claims());
    ids bigint[] := t.project_ids;
BEGIN
    IF max_rows IS NULL OR max_rows < 0 OR max_rows > 100000 THEN
        RAISE EXCEPTION 'max_rows must be between 0 and 100000' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF COALESCE(pg_catalog.cardinality(ids), 0) = 0 THEN  -- no scope: nothing, and no partition opened
        RETURN;
    END IF;
    -- One statement, with the tsquery, the project ids and every term of the scope as constants of its plan: the
    -- planner prunes to the scope's partitions and drops the tests a scope does not need. Revisions 0018 to 0028
    -- read the tsquery, the time and the resources of a scope over several partitions through sub-SELECTs
    -- (InitPlans), because estimating constants against every partition's statistics cost more than a rare word's
    -- search; since revision 0027 shortened the lexeme lists that estimate is cheap, and planning the three
    -- sub-SELECTs (each a query of its own to the planner) was what cost more. Side by side on one loaded medium
    -- corpus, a rare word's search with snippets: 1.30 times the owner's query at a 1% scope (five projects) with
    -- the sub-SELECTs, 1.26 with only the tsquery constant, and 40-80 µs less again with every term constant
    -- (docs/benchmarks.md, revision 0029).
    -- The search is planned on every call, for the scope's partitions alone: its plan is never kept for a later
    -- call. Everything before it (the checks above are expressions, and PL/pgSQL plans an expression as it plans a
    -- statement) keeps its plan; planned on every call as well, they cost 40-60 µs of a call. The function's SET
    -- clause restores the caller's plan_cache_mode when it returns.
    PERFORM pg_catalog.set_config('plan_cache_mode', 'force_custom_plan', true);
    -- Over several projects, no sequential scan (restored at return, as plan_cache_mode is). Knowing the tsquery,
    -- the planner read the partitions where a common word is frequent from end to end, testing @@ on every row,
    -- which it costs as one operator; the word's GIN index hands over the matching rows without that test, and
    -- the shared partition is read through its key, the scope's projects only. A common word over a 1% scope
    -- (nine projects, full size) took 0.6-1.0 ms less than with the sub-SELECTs before this revision, and 1.5-2.1
    -- ms less than with the sequential scans allowed. One project keeps the planner's choice: a rare word in a
    -- small project's partition cost 20-30 µs more without it.
    IF pg_catalog.cardinality(ids) > 1 THEN
        PERFORM pg_catalog.set_config('enable_seqscan', 'off', true);
    END IF;
    RETURN QUERY
        SELECT s.project_id, s.id, pg_catalog.ts_rank_cd(s.tsv, query) AS rank, s.resource_id, s.path, s.fqn,
               s.content
          FROM scopedb_private.fragment_search AS s
         WHERE s.tsv @@ query AND s.project_id = ANY (ids)
           -- The read policy on scopedb.fragments (sql/04_policies.sql), on the copied columns. Its validity and
           -- resource tests are written so that what the scope's constants decide folds away at planning: the
           -- resource test for a scope with no resource filter, the time tests for one that reads every version.
           -- What is left is tested on every match, and a common word over a 10% scope matches thousands of rows:
           -- side by side (medium size, the owner's query 8-13 ms), the search without the two tests took 1.8-2.3
           -- ms less than with them as the policy writes them, and with them written this way 0.5-1.0 ms less.
           -- Each is the policy's test for every value of the terms (an instant of NULL reads every version;
           -- valid_from is never NULL; a filter of NULL admits every resource).
           AND (t.as_of IS NULL OR s.valid_from <= t.as_of)
           AND (t.as_of IS NULL OR s.valid_to IS NULL OR s.valid_to > t.as_of)
           AND (t.resource_filter IS NULL OR (COALESCE(s.resource_id, '') = ANY (t.resource_filter)) IS NOT FALSE)
           AND (NOT t.filters_content
                OR ((COALESCE(s.path, '') ~ ANY (t.path_include)) IS NOT FALSE
                    AND (COALESCE(s.path, '') ~ ANY (t.path_exclude)) IS NOT TRUE
                    AND (COALESCE(s.fqn, '') ~ ANY (t.name_include)) IS NOT FALSE
                    AND (COALESCE(s.fqn, '') ~ ANY (t.name_exclude)) IS NOT TRUE))
         ORDER BY 3 DESC, 1, 2   -- by position: the names are also this function's output columns
         LIMIT max_rows;
END
$$;
COMMENT ON FUNCTION scopedb.text_candidates(tsquery, integer) IS
    'Best-ranked fragments of the verified scope matching a tsquery, from the scope''s partitions only.';

-- ---------------------------------------------------------------------------------------------------------------
-- Vector search
-- ---------------------------------------------------------------------------------------------------------------

-- The `k` fragments of `projects` nearest to `query` by `metric` ('cosine', 'l2' or 'inner_product'), always
-- min(k, visible) of them, in one call. For cosine, when search groups the scope reads whole cover every project
-- of the call, their indexes answer (scopedb.group_nearest: one search a group). Otherwise one statement orders
-- every project of the call by distance:
-- a project whose partition has an HNSW index (those past the storage threshold) is read through its own index (a
-- strict iterative scan, so rows the scope's filters drop do not starve the answer), the others are sorted
-- exactly, and the merge takes the nearest. Each index holds one project's rows, so what it returns never depends
-- on another project's vectors. The planner is not left to choose between the two: under RLS it cannot estimate
-- how many rows a partition keeps, and given the chance it sorted whole indexed partitions, or every partition at
-- once; with sorts disabled, an indexed project can only be merged from its index, and the others are sorted as
-- they must be (a partition whose index a failed build left invalid too: slow, still exact). Rows at the same
-- distance are ordered by key, as the exact statement orders them (an incremental sort over the merge, which
-- reads past the k-th row only through its ties). The other metrics,
-- and `exact`, go straight to the exact statement (the OFFSET 0 fence keeps the planner from ordering through an
-- index).
--
-- The index answer is returned as it is read, flagged used_index = true. When it is short of k (an iterative scan
-- stopped at `max_scan_tuples` before the scope's filters let k rows through, or a project holds fewer), the
-- exact answer follows it, flagged false, and is the answer: every caller keeps the rows flagged false when there
-- are any (scopedb.retrieval does). Returned rows cannot be taken back, and collecting the index answer in arrays
-- first, to return only the complete one, cost a call more than the exact statement costs the rare call that
-- needs it: revision 0021 took that out, with the pg_class lookup that split the projects into indexed and not
-- (one statement over both plans as the two did), 0.25-0.45 ms of a 0.5-1 ms call on a scratch server.
--
-- Runs with the caller's rights (RLS filters every row) and the caller's search_path, which scoped entry pins and
-- which finds pgvector's operators; the settings it changes are restored when it returns. `projects` only prunes
-- the partitions to read: the policies decide what is visible, so passing other ids admits nothing. The searches
-- are planned on every call (plan_cache_mode = force_custom_plan, set just before them), so the scope's ids prune
-- the partitions at planning; everything else keeps its plan, under the planner settings the function pins
-- (sql/04_settings_of_kept_plans.sql).
CREATE FUNCTION scopedb.nearest_fragments(query vector, k integer, projects bigint[], metric text, exact boolean,
                                          ef_search integer, max_scan_tuples integer)
RETURNS TABLE (project_id bigint, id text, resource_id text, path text, fqn text, content text,
               distance double precision, used_index boolean)
LANGUAGE plpgsql
VOLATILE
SET plan_cache_mode = auto
SET enable_partition_pruning = on
SET constraint_exclusion = off
SET enable_sort = on
SET hnsw.iterative_scan = strict_order
SET hnsw.ef_search = 20
SET hnsw.max_scan_tuples = 20000
AS $$
DECLARE
    found bigint := 0;
BEGIN
    IF k IS NULL OR k < 0 OR k > 10000 THEN
        RAISE EXCEPTION 'k must be between 0 and 10000' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF metric IS NULL OR metric NOT IN ('cosine', 'l2', 'inner_product') THEN
        RAISE EXCEPTION 'metric must be cosine, l2 or inner_product' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    -- No statement reads an empty list: `project_id = ANY ('{}')` is found false under RLS only after every
    -- partition is opened and locked (10,000 projects: out of lock slots).
    IF COALESCE(pg_catalog.cardinality(projects), 0) = 0 THEN
        RETURN;
    END IF;
    IF metric = 'cosine' AND NOT exact THEN
        -- Search groups the scope reads whole, when they cover every project of the call: one index search per
        -- group (scopedb.group_nearest; nothing when they do not). A short answer from them goes straight to the
        -- exact statement, as a short one from the projects' own indexes does.
        IF pg_catalog.cardinality(projects) > 1 THEN
            RETURN QUERY
                SELECT g.project_id, g.id, g.resource_id, g.path, g.fqn, g.content, g.distance, true
                  FROM scopedb.group_nearest(projects, query, k, ef_search, max_scan_tuples) AS g;
            GET DIAGNOSTICS found = ROW_COUNT;
        END IF;
        IF found = 0 THEN
            PERFORM pg_catalog.set_config('hnsw.ef_search', GREATEST(LEAST(ef_search, 1000), k, 1)::text, true),
                    pg_catalog.set_config('hnsw.max_scan_tuples', GREATEST(max_scan_tuples, 1)::text, true),
                    pg_catalog.set_config('enable_sort', 'off', true),
                    pg_catalog.set_config('plan_cache_mode', 'force_custom_plan', true);
            RETURN QUERY
                SELECT f.project_id, f.id, f.resource_id, f.path, f.fqn, f.content,
                       (f.embedding <=> query)::double precision, true
                  FROM scopedb.fragments AS f
                 WHERE f.project_id = ANY (projects) AND f.embedding IS NOT NULL
                 ORDER BY f.embedding <=> query, f.project_id, f.id  -- ties as the exact statement breaks them
                 LIMIT k;
            GET DIAGNOSTICS found = ROW_COUNT;
        END IF;
        IF found >= k THEN
            RETURN;
        END IF;
    END IF;
    PERFORM pg_catalog.set_config('enable_sort', 'on', true),
            pg_catalog.set_config('plan_cache_mode', 'force_custom_plan', true);
    RETURN QUERY
        SELECT e.*, false
          FROM (SELECT f.project_id, f.id, f.resource_id, f.path, f.fqn, f.content,
                       (CASE metric WHEN 'cosine' THEN f.embedding <=> query
                                    WHEN 'l2' THEN f.embedding <-> query
                                    ELSE f.embedding <#> query END)::double precision AS distance
                  FROM scopedb.fragments AS f
                 WHERE f.project_id = ANY (projects) AND f.embedding IS NOT NULL
                OFFSET 0) AS e
         ORDER BY e.distance, e.project_id, e.id
         LIMIT k;
END
$$;
COMMENT ON FUNCTION scopedb.nearest_fragments(vector, integer, bigint[], text, boolean, integer, integer) IS
    'The k nearest fragments of the given projects (RLS applies): HNSW where built, exact otherwise; a short index answer is followed by the exact one (used_index false), which replaces it.';

-- ---------------------------------------------------------------------------------------------------------------
-- Graph traversal
-- ---------------------------------------------------------------------------------------------------------------

-- The walks run as functions so that PostgreSQL keeps their plans: a statement scopedb sends is planned on every
-- call (it is sent unprepared, for PgBouncer, and prepared statements end with the transaction), and under RLS
-- planning the walk's policies' subqueries cost more than walking a small scope. The graph tables are not
-- partitioned, so a plan kept for the connection serves every scope: the policies read the scope when the plan
-- runs (their InitPlans), not when it is made. Both run with the caller's rights, so RLS filters every row; the
-- project ids only narrow the start, the policies decide what is visible.
--
-- A kept plan is made once, in whichever transaction first calls the function on the connection (or first after
-- an invalidation, such as an ANALYZE of the graph tables), and then serves every later scope on that pooled
-- connection. So it must not be shaped by that caller: sql/04_settings_of_kept_plans.sql pins the planner's method
-- switches, its cost constants (PostgreSQL's defaults: the walk's shape is fixed by its fences, what is left is
-- key lookups) and plan_cache_mode = force_generic_plan (the plan does not depend on whose parameters came first),
-- and turns off JIT and parallel workers, which a tenant could otherwise switch on for every later walk on the
-- connection (a review of 0016: with `SET LOCAL jit_above_cost = 0` before the first walk, every later walk would
-- compile). Memory (work_mem) is not pinned: it stays the operator's; docs/security.md names what it can still
-- change (time only).

-- k-hop neighbourhood: every node reachable from the start nodes in at most `max_depth` steps, with its details,
-- and the edge it was reached by (NULL for a start node). A node is (project_id, id): the walk carries both, and
-- an edge joins nodes of its own project only. graph_edges' policy admits only edges whose two ends the scope
-- sees, so the walk never enters (nor returns the id of) a hidden node, and needs no read of the nodes to know
-- where it may go: it walks the edges alone, from every (project, start id) pair of the call, and reads the nodes
-- once, at the end, for their details. That read is also what drops a start id the scope does not see (or that
-- names no node): no edge the scope sees leaves a node it does not see, so such a start reaches nothing on the
-- way. Reading the node each step entered, as the walk did, was one more reference to graph_nodes, whose policy
-- InitPlans (three scope checks) every call paid. The LATERAL subqueries, fenced with OFFSET 0, fix the join
-- order (walk -> its out-edges by key; each reached node -> its row by key): under RLS the planner's row estimates
-- are blind, and without RLS (the owner's baseline) it hashed every node of the table for the final read.
CREATE FUNCTION scopedb.graph_walk(projects bigint[], start text[], max_depth integer, relations text[])
RETURNS TABLE (project_id bigint, node text, src text, relation text, kind text, resource_id text, label text)
LANGUAGE plpgsql
STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN QUERY
    WITH RECURSIVE walk (project_id, node, depth, src, relation) AS (
        SELECT p.id, s.id, 0, NULL::text, NULL::text
          FROM pg_catalog.unnest(projects) AS p (id), pg_catalog.unnest(start) AS s (id)
        UNION ALL
        SELECT step.project_id, step.dst, w.depth + 1, step.src, step.relation
          FROM walk AS w
         CROSS JOIN LATERAL (
               SELECT e.project_id, e.src, e.dst, e.relation
                 FROM scopedb.graph_edges AS e
                WHERE e.project_id = w.project_id AND e.src = w.node
                  AND (relations IS NULL OR e.relation = ANY (relations))
               OFFSET 0) AS step
         WHERE w.depth < max_depth
    ) CYCLE project_id, node SET is_cycle USING trail
    SELECT DISTINCT w.project_id, w.node, w.src, w.relation, n.kind, n.resource_id, n.label
      FROM walk AS w
     CROSS JOIN LATERAL (
           SELECT n.kind, n.resource_id, n.label
             FROM scopedb.graph_nodes AS n
            WHERE n.project_id = w.project_id AND n.id = w.node
           OFFSET 0) AS n;
END
$$;
COMMENT ON FUNCTION scopedb.graph_walk(bigint[], text[], integer, text[]) IS
    'Nodes reachable from start in at most max_depth visible edges (RLS applies), with the edge each was reached by.';

-- The shortest path (fewest edges) from `source` to `target` through visible nodes and edges, as its project and
-- node ids, or no row. The edge policy admits only edges whose two ends the scope sees, so the walk needs no read
-- of the nodes, not even of the source (a source the scope does not see has no edge it sees): only a path of no
-- step, from a node to itself, probes the node.
CREATE FUNCTION scopedb.graph_shortest_path(projects bigint[], source text, target text, max_depth integer,
                                            relations text[])
RETURNS TABLE (project_id bigint, path text[])
LANGUAGE plpgsql
STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN QUERY
    WITH RECURSIVE walk (project_id, node, depth, path) AS (
        SELECT p.id, source, 0, ARRAY[source] FROM pg_catalog.unnest(projects) AS p (id)
        UNION ALL
        SELECT step.project_id, step.dst, w.depth + 1, w.path || step.dst
          FROM walk AS w
         CROSS JOIN LATERAL (
               SELECT e.project_id, e.dst
                 FROM scopedb.graph_edges AS e
                WHERE e.project_id = w.project_id AND e.src = w.node AND e.dst <> ALL (w.path)
                  AND (relations IS NULL OR e.relation = ANY (relations))
               OFFSET 0) AS step
         WHERE w.depth < max_depth
    )
    SELECT w.project_id, w.path FROM walk AS w
     WHERE w.node = target
       -- A path of one step or more only uses edges the scope sees, whose ends it sees; a path of none is the
       -- source alone, which must be a node the scope sees (this probe runs only then).
       AND (w.depth > 0 OR EXISTS (SELECT FROM scopedb.graph_nodes AS n
                                    WHERE n.project_id = w.project_id AND n.id = w.node))
     ORDER BY w.depth, w.path LIMIT 1;
END
$$;
COMMENT ON FUNCTION scopedb.graph_shortest_path(bigint[], text, text, integer, text[]) IS
    'The shortest path between two nodes through visible nodes and edges (RLS applies), or no row.';

-- ---------------------------------------------------------------------------------------------------------------
-- Context tiers
-- ---------------------------------------------------------------------------------------------------------------

-- Serialises work on one project for the rest of the transaction: locks its row of scopedb_private.project_locks
-- (created on first use). Other transactions that lock the same project and purpose wait; nothing else does. No
-- tenant can name another's lock: the table is the owner's, and the app reaches it only through
-- scopedb.lock_project_tiers, for projects of its scope.
CREATE FUNCTION scopedb_private.lock_project(target_project bigint, purpose text) RETURNS void
LANGUAGE plpgsql
VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    INSERT INTO scopedb_private.project_locks AS l (project_id, purpose)
    VALUES (target_project, lock_project.purpose)
    ON CONFLICT ON CONSTRAINT project_locks_pkey DO NOTHING;
    PERFORM FROM scopedb_private.project_locks AS l
     WHERE l.project_id = target_project AND l.purpose = lock_project.purpose
       FOR NO KEY UPDATE;
END
$$;
COMMENT ON FUNCTION scopedb_private.lock_project(bigint, text) IS
    'Locks a project for one purpose until the end of the transaction (row lock in an owner-only table).';

-- One tier-budget enforcer per project at a time (scopedb.tiers): two transactions cannot both move "the
-- overflow". Refused for a project outside the entered scope.
CREATE FUNCTION scopedb.lock_project_tiers(target_project bigint) RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF target_project IS NULL OR NOT target_project = ANY (scopedb.scope_project_ids()) THEN
        RAISE EXCEPTION 'permission denied: the project is outside the scope' USING ERRCODE = 'insufficient_privilege';
    END IF;
    PERFORM scopedb_private.lock_project(target_project, 'tiers');
END
$$;
COMMENT ON FUNCTION scopedb.lock_project_tiers(bigint) IS
    'Serialises tier-budget enforcement on a project of the entered scope until the end of the transaction.';

-- Demotion to cold may replace a fragment's content with a summary; keep the full text aside (owner-only) and put
-- it back when the fragment is promoted out of cold.
CREATE FUNCTION scopedb_private.keep_original_content() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF NEW.tier = 'cold' AND OLD.tier <> 'cold' AND NEW.content IS DISTINCT FROM OLD.content THEN
        INSERT INTO scopedb_private.fragment_originals (project_id, id, content)
        VALUES (OLD.project_id, OLD.id, OLD.content)
        ON CONFLICT ON CONSTRAINT fragment_originals_pkey DO UPDATE
            SET content = EXCLUDED.content, archived_at = EXCLUDED.archived_at;
    ELSIF OLD.tier = 'cold' AND NEW.tier <> 'cold' THEN
        DELETE FROM scopedb_private.fragment_originals AS o
         WHERE o.project_id = OLD.project_id AND o.id = OLD.id
        RETURNING o.content INTO NEW.content;
        NEW.content := COALESCE(NEW.content, OLD.content);
    END IF;
    RETURN NEW;
END
$$;
COMMENT ON FUNCTION scopedb_private.keep_original_content() IS
    'Archives the full text of a fragment summarised on demotion to cold, and restores it on promotion.';

-- ---------------------------------------------------------------------------------------------------------------
-- Deletes
-- ---------------------------------------------------------------------------------------------------------------

-- The app holds no DELETE privilege (and UPDATE on columns only): either one, held on a whole table, would also
-- let it LOCK that table in ACCESS EXCLUSIVE mode and freeze every tenant's reads. Deletes go through these
-- functions instead. Each runs as the owner, whose delete policies admit exactly what the app's would (the
-- entered scope: projects, time, resources, paths, names), and returns how many rows it removed. Foreign keys
-- inside a project do not cascade (sql/02_schema.sql), so a row the scope sees goes with what hangs off it and
-- the scope sees; anything hanging off it that the scope hides makes the foreign key refuse the whole call
-- (SQLSTATE 23503): a tenant never deletes a row it cannot see, directly or by cascade.

CREATE FUNCTION scopedb.delete_fragments(target_project bigint, fragment_ids text[]) RETURNS integer
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET plan_cache_mode = force_custom_plan
AS $$
DECLARE
    removed integer;
BEGIN
    DELETE FROM scopedb.fragments AS f WHERE f.project_id = target_project AND f.id = ANY (fragment_ids);
    GET DIAGNOSTICS removed = ROW_COUNT;
    RETURN removed;
END
$$;
COMMENT ON FUNCTION scopedb.delete_fragments(bigint, text[]) IS
    'Deletes fragments of the entered scope by id; returns how many.';

CREATE FUNCTION scopedb.delete_graph_edges(target_project bigint, sources text[], relations text[], targets text[])
RETURNS integer
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    removed integer;
BEGIN
    DELETE FROM scopedb.graph_edges AS e
     USING ROWS FROM (pg_catalog.unnest(sources), pg_catalog.unnest(relations), pg_catalog.unnest(targets))
           AS k (src, relation, dst)
     WHERE e.project_id = target_project AND e.src = k.src AND e.relation = k.relation AND e.dst = k.dst;
    GET DIAGNOSTICS removed = ROW_COUNT;
    RETURN removed;
END
$$;
COMMENT ON FUNCTION scopedb.delete_graph_edges(bigint, text[], text[], text[]) IS
    'Deletes graph edges (source, relation, target) of the entered scope; returns how many.';

CREATE FUNCTION scopedb.delete_graph_nodes(target_project bigint, node_ids text[]) RETURNS integer
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    removed integer;
BEGIN
    DELETE FROM scopedb.graph_edges AS e
     WHERE e.project_id = target_project AND (e.src = ANY (node_ids) OR e.dst = ANY (node_ids));
    DELETE FROM scopedb.graph_nodes AS n WHERE n.project_id = target_project AND n.id = ANY (node_ids);
    GET DIAGNOSTICS removed = ROW_COUNT;
    RETURN removed;
END
$$;
COMMENT ON FUNCTION scopedb.delete_graph_nodes(bigint, text[]) IS
    'Deletes graph nodes of the entered scope with their visible edges; returns how many nodes.';

CREATE FUNCTION scopedb.delete_resource_links(target_project bigint, parent_ids text[], child_ids text[])
RETURNS integer
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    removed integer;
BEGIN
    DELETE FROM scopedb.resource_links AS l
     USING ROWS FROM (pg_catalog.unnest(parent_ids), pg_catalog.unnest(child_ids)) AS k (parent_id, child_id)
     WHERE l.project_id = target_project AND l.parent_id = k.parent_id AND l.child_id = k.child_id;
    GET DIAGNOSTICS removed = ROW_COUNT;
    RETURN removed;
END
$$;
COMMENT ON FUNCTION scopedb.delete_resource_links(bigint, text[], text[]) IS
    'Deletes resource links (parent, child) of the entered scope; returns how many.';

-- A resource goes with the fragments, graph nodes (and their edges) and links the scope sees; if it still has
-- rows the scope hides — a fragment outside the scope's paths, a closed version, a link to a hidden resource —
-- the foreign key refuses the call and nothing is deleted.
CREATE FUNCTION scopedb.delete_resources(target_project bigint, resource_ids text[]) RETURNS integer
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET plan_cache_mode = force_custom_plan
AS $$
DECLARE
    removed integer;
    nodes text[];
BEGIN
    nodes := ARRAY(SELECT n.id FROM scopedb.graph_nodes AS n
                    WHERE n.project_id = target_project AND n.resource_id = ANY (resource_ids));
    PERFORM scopedb.delete_graph_nodes(target_project, nodes);
    DELETE FROM scopedb.fragments AS f WHERE f.project_id = target_project AND f.resource_id = ANY (resource_ids);
    DELETE FROM scopedb.resource_links AS l
     WHERE l.project_id = target_project AND (l.parent_id = ANY (resource_ids) OR l.child_id = ANY (resource_ids));
    DELETE FROM scopedb.resources AS r WHERE r.project_id = target_project AND r.id = ANY (resource_ids);
    GET DIAGNOSTICS removed = ROW_COUNT;
    RETURN removed;
END
$$;
COMMENT ON FUNCTION scopedb.delete_resources(bigint, text[]) IS
    'Deletes resources of the entered scope with what hangs off them in the scope; refused if anything is hidden.';

-- ---------------------------------------------------------------------------------------------------------------
-- Memory notes
-- ---------------------------------------------------------------------------------------------------------------

-- Whether a note is live for callers: not forgotten and not past its retention.
CREATE FUNCTION scopedb_private.note_is_live(n scopedb.notes) RETURNS boolean
LANGUAGE sql
STABLE
SET search_path = pg_catalog, pg_temp
RETURN n.forgotten_at IS NULL
   AND (n.retention_days IS NULL OR n.created_at + pg_catalog.make_interval(days => n.retention_days) > pg_catalog.now());
COMMENT ON FUNCTION scopedb_private.note_is_live(scopedb.notes) IS
    'A note is live until it is forgotten or its retention runs out.';

-- Search notes of the entered scope: one case-insensitive literal substring of the body (never of a secret body)
-- and/or a literal tag prefix, newest first. Returns a snippet (the first `snippet_chars` characters; the caller
-- trims it to its byte budget), never a body, and for secret notes no snippet, no size and no truncation flag:
-- the exact length of a secret is something about it too.
CREATE FUNCTION scopedb.search_notes(query text, tag_prefix text, max_rows integer, snippet_chars integer)
RETURNS TABLE (project_id bigint, id text, created_at timestamptz, tags text[], content_bytes integer,
               sensitivity text, retention_days integer, provenance_source text, snippet text, truncated boolean)
LANGUAGE sql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT n.project_id, n.id, n.created_at, n.tags,
           CASE WHEN n.sensitivity = 'secret' THEN NULL ELSE pg_catalog.octet_length(n.content) END, n.sensitivity,
           n.retention_days, n.provenance_source,
           CASE WHEN n.sensitivity = 'secret' THEN NULL ELSE pg_catalog."left"(n.content, snippet_chars) END,
           CASE WHEN n.sensitivity = 'secret' THEN NULL ELSE pg_catalog.length(n.content) > snippet_chars END
      FROM scopedb.notes AS n
     WHERE n.project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
       AND scopedb_private.note_is_live(n)
       AND (search_notes.query IS NULL
            OR (n.sensitivity <> 'secret'
                AND pg_catalog.strpos(pg_catalog.lower(n.content), pg_catalog.lower(search_notes.query)) > 0))
       AND (search_notes.tag_prefix IS NULL
            OR EXISTS (SELECT FROM pg_catalog.unnest(n.tags) AS t
                        WHERE pg_catalog."left"(t, pg_catalog.length(search_notes.tag_prefix)) = search_notes.tag_prefix))
     ORDER BY n.created_at DESC, n.id DESC
     LIMIT LEAST(GREATEST(max_rows, 0), 25);
END;
COMMENT ON FUNCTION scopedb.search_notes(text, text, integer, integer) IS
    'Literal, case-insensitive note search in the entered scope; snippets only, never secret bodies.';

-- Fetch notes by exact id. Every id must be a live note of the entered scope, or the whole call fails with SD404:
-- unknown, foreign-project and forgotten ids are indistinguishable. Secret bodies come back NULL.
CREATE FUNCTION scopedb.fetch_notes(ids text[])
RETURNS TABLE (project_id bigint, id text, created_at timestamptz, tags text[], sensitivity text,
               retention_days integer, provenance_source text, provenance_session text, content text)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    wanted text[] := ARRAY(SELECT DISTINCT i FROM pg_catalog.unnest(ids) AS i);
    found_count integer;
BEGIN
    IF pg_catalog.cardinality(wanted) > 25 THEN
        RAISE EXCEPTION 'fetch is bounded to 25 ids per call' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN QUERY
        SELECT n.project_id, n.id, n.created_at, n.tags, n.sensitivity, n.retention_days, n.provenance_source,
               n.provenance_session, CASE WHEN n.sensitivity = 'secret' THEN NULL ELSE n.content END
          FROM scopedb.notes AS n
         WHERE n.project_id = ANY (scopedb.scope_project_ids())
           AND n.id = ANY (wanted)
           AND scopedb_private.note_is_live(n)
         ORDER BY n.created_at DESC, n.id DESC;
    GET DIAGNOSTICS found_count = ROW_COUNT;
    IF found_count <> pg_catalog.cardinality(wanted) THEN
        RAISE EXCEPTION 'memory record not found' USING ERRCODE = 'SD404';
    END IF;
END
$$;
COMMENT ON FUNCTION scopedb.fetch_notes(text[]) IS
    'Notes by exact id in the entered scope; all or nothing; secret bodies withheld.';

-- Forget a live note of the entered scope: append a tombstone. The same SD404 as a fetch for anything else.
CREATE FUNCTION scopedb.forget_note(note_id text, actor text) RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    target scopedb.notes;
BEGIN
    SELECT n.* INTO target
      FROM scopedb.notes AS n
     WHERE n.project_id = ANY (scopedb.scope_project_ids()) AND n.id = note_id AND scopedb_private.note_is_live(n)
       FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'memory record not found' USING ERRCODE = 'SD404';
    END IF;
    INSERT INTO scopedb.note_tombstones (project_id, note_id, actor) VALUES (target.project_id, target.id, actor);
    UPDATE scopedb.notes AS n SET forgotten_at = pg_catalog.now()
     WHERE n.project_id = target.project_id AND n.id = target.id;
END
$$;
COMMENT ON FUNCTION scopedb.forget_note(text, text) IS
    'Tombstones a note of the entered scope; later searches and fetches no longer see it.';

-- The retention sweep (owner-side): physically removes expired and forgotten notes, with their tombstones, in
-- every project, and says how many of each it removed.
CREATE FUNCTION scopedb_private.sweep_notes(OUT expired integer, OUT forgotten integer)
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    DELETE FROM scopedb.notes AS n WHERE n.forgotten_at IS NOT NULL;
    GET DIAGNOSTICS forgotten = ROW_COUNT;
    DELETE FROM scopedb.notes AS n
     WHERE n.retention_days IS NOT NULL
       AND n.created_at + pg_catalog.make_interval(days => n.retention_days) <= pg_catalog.now();
    GET DIAGNOSTICS expired = ROW_COUNT;
END
$$;
COMMENT ON FUNCTION scopedb_private.sweep_notes() IS
    'Deletes expired and forgotten notes (and their tombstones); run from an admin session or `scopedb sweep`.';

-- ---------------------------------------------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------------------------------------------

-- resource_links must stay a DAG. The walk runs as scopedb_owner so it sees every link of the (scoped) project,
-- including links between resources the caller's scope hides; concurrent inserts into one project are serialised
-- by the project's lock row (scopedb_private.lock_project) so two links cannot close a cycle together.
CREATE FUNCTION scopedb_private.refuse_resource_cycle() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM scopedb_private.lock_project(NEW.project_id, 'resource_links');
    IF EXISTS (
        WITH RECURSIVE reachable (id) AS (
            SELECT NEW.child_id
            UNION
            SELECT l.child_id
              FROM scopedb.resource_links AS l
              JOIN reachable AS r ON l.parent_id = r.id
             WHERE l.project_id = NEW.project_id
        )
        SELECT FROM reachable WHERE id = NEW.parent_id
    ) THEN
        RAISE EXCEPTION 'resource link would create a cycle' USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;
COMMENT ON FUNCTION scopedb_private.refuse_resource_cycle() IS
    'Keeps resource_links acyclic: refuses a link whose child already reaches its parent.';

CREATE TRIGGER resource_links_refuse_cycle
    BEFORE INSERT OR UPDATE ON scopedb.resource_links
    FOR EACH ROW EXECUTE FUNCTION scopedb_private.refuse_resource_cycle();

-- An edge inserted without the copies of its ends' values (graph_edges.src_*, dst_*) gets them here, from the
-- nodes the inserting scope can see: scopedb's own ingest supplies them in its statement, so this runs a lookup
-- only for edges written by hand. It runs with the caller's rights, so a node the caller cannot see leaves the
-- copies empty, and the insert policy refuses the row exactly as it refuses an edge to a node that does not
-- exist. Supplied copies are left as they are: the foreign keys refuse any that differ from the nodes. The trigger
-- fires only for a row missing a copy (its WHEN clause); it keeps the plans of its two lookups for the connection,
-- so its planner settings are pinned like the walks' (sql/04_settings_of_kept_plans.sql).
CREATE FUNCTION scopedb_private.copy_edge_ends() RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF pg_catalog.num_nulls(NEW.src_resource, NEW.src_path, NEW.src_fqn) > 0 THEN
        SELECT n.resource_key, n.path_key, n.fqn_key
          INTO NEW.src_resource, NEW.src_path, NEW.src_fqn
          FROM scopedb.graph_nodes AS n
         WHERE n.project_id = NEW.project_id AND n.id = NEW.src;
    END IF;
    IF pg_catalog.num_nulls(NEW.dst_resource, NEW.dst_path, NEW.dst_fqn) > 0 THEN
        SELECT n.resource_key, n.path_key, n.fqn_key
          INTO NEW.dst_resource, NEW.dst_path, NEW.dst_fqn
          FROM scopedb.graph_nodes AS n
         WHERE n.project_id = NEW.project_id AND n.id = NEW.dst;
    END IF;
    RETURN NEW;
END
$$;
COMMENT ON FUNCTION scopedb_private.copy_edge_ends() IS
    'Fills an inserted edge''s copies of its ends'' resource, path and name from the nodes the caller can see.';

CREATE TRIGGER graph_edges_copy_ends
    BEFORE INSERT ON scopedb.graph_edges
    FOR EACH ROW
    WHEN (pg_catalog.num_nulls(NEW.src_resource, NEW.src_path, NEW.src_fqn, NEW.dst_resource, NEW.dst_path,
                               NEW.dst_fqn) > 0)
    EXECUTE FUNCTION scopedb_private.copy_edge_ends();

-- Keeps scopedb_private.fragment_search in step with fragments' inserts and updates (deletes: below).
-- Statement-level, from the transition table: one set-based upsert per statement, not a definer call per row.
CREATE FUNCTION scopedb_private.sync_fragment_search() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    -- "changed" is the statement's transition table of new rows (inserted, or updated in any column: a trigger
    -- with a transition table cannot name columns). Rows whose copied columns did not change are skipped by the
    -- WHERE.
    INSERT INTO scopedb_private.fragment_search AS s (project_id, id, tsv, resource_id, path, fqn, valid_from, valid_to,
                                                      content)
    SELECT c.project_id, c.id, c.tsv, c.resource_id, c.path, c.fqn, c.valid_from, c.valid_to, c.content
      FROM changed AS c
    ON CONFLICT ON CONSTRAINT fragment_search_pkey DO UPDATE
       SET tsv = EXCLUDED.tsv, resource_id = EXCLUDED.resource_id, path = EXCLUDED.path, fqn = EXCLUDED.fqn,
           valid_from = EXCLUDED.valid_from, valid_to = EXCLUDED.valid_to, content = EXCLUDED.content
     WHERE (s.tsv, s.resource_id, s.path, s.fqn, s.valid_from, s.valid_to, s.content)
           IS DISTINCT FROM (EXCLUDED.tsv, EXCLUDED.resource_id, EXCLUDED.path, EXCLUDED.fqn, EXCLUDED.valid_from,
                             EXCLUDED.valid_to, EXCLUDED.content);
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION scopedb_private.sync_fragment_search() IS
    'Copies the tsvectors and scope columns of a statement''s new or changed fragments into the owner-only full-text copy.';

CREATE TRIGGER fragments_sync_search_insert
    AFTER INSERT ON scopedb.fragments
    REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_fragment_search();
CREATE TRIGGER fragments_sync_search_update
    AFTER UPDATE ON scopedb.fragments
    REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_fragment_search();

-- Keeps the search groups' copies (scopedb_private.group_vectors) in step with fragments' inserts and updates, as
-- sync_fragment_search keeps the full-text copy (deletes: forget_fragment_copies). A fragment of a member is copied
-- into each of its groups that has a partition, i.e. from the moment the maintenance step filled it (the group's
-- state is not consulted: a transaction's snapshot may predate the fill, the catalog lookup does not); a fragment
-- whose embedding was removed leaves every copy. Statement-level; a statement of projects in no group costs one
-- probe of the members table.
CREATE FUNCTION scopedb_private.sync_group_vectors() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF NOT EXISTS (SELECT FROM scopedb_private.search_group_members AS m
                    WHERE m.project_id IN (SELECT c.project_id FROM changed AS c)) THEN
        RETURN NULL;
    END IF;
    INSERT INTO scopedb_private.group_vectors AS v (group_id, project_id, id, embedding, valid_from, valid_to,
                                                    resource_id, path, fqn, content)
    SELECT m.group_id, c.project_id, c.id, c.embedding, c.valid_from, c.valid_to, c.resource_id, c.path, c.fqn,
           c.content
      FROM changed AS c
      JOIN scopedb_private.search_group_members AS m ON m.project_id = c.project_id
     WHERE c.embedding IS NOT NULL
       AND pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.group_vectors_%s', m.group_id)) IS NOT NULL
    ON CONFLICT ON CONSTRAINT group_vectors_pkey DO UPDATE
       SET embedding = EXCLUDED.embedding, valid_from = EXCLUDED.valid_from, valid_to = EXCLUDED.valid_to,
           resource_id = EXCLUDED.resource_id, path = EXCLUDED.path, fqn = EXCLUDED.fqn, content = EXCLUDED.content
     -- The vectors compared as arrays: pgvector's own = is not on this function's search_path.
     WHERE (v.embedding::pg_catalog.float4[], v.valid_from, v.valid_to, v.resource_id, v.path, v.fqn, v.content)
           IS DISTINCT FROM (EXCLUDED.embedding::pg_catalog.float4[], EXCLUDED.valid_from, EXCLUDED.valid_to,
                             EXCLUDED.resource_id, EXCLUDED.path, EXCLUDED.fqn, EXCLUDED.content);
    DELETE FROM scopedb_private.group_vectors AS v
     USING changed AS c
     WHERE c.embedding IS NULL AND v.project_id = c.project_id AND v.id = c.id;
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION scopedb_private.sync_group_vectors() IS
    'Copies a statement''s new or changed fragments of search group members into their groups'' copies.';

CREATE TRIGGER fragments_sync_groups_insert
    AFTER INSERT ON scopedb.fragments
    REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_group_vectors();
CREATE TRIGGER fragments_sync_groups_update
    AFTER UPDATE ON scopedb.fragments
    REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_group_vectors();

CREATE TRIGGER fragments_keep_original
    BEFORE UPDATE OF tier ON scopedb.fragments
    FOR EACH ROW EXECUTE FUNCTION scopedb_private.keep_original_content();

-- What a foreign key with ON DELETE CASCADE would do for the owner-only copies of a fragment (its tsvector, its
-- archived original, its search groups' copies), which cannot reference the partitioned fragments table without
-- slowing every new project (sql/02_schema.sql). Statement-level: one set-based delete per statement, whatever
-- removed the rows (the delete functions, or a project's deletion cascading to its fragments). The groups' copies
-- are removed by key, whatever the groups' members are now. One exception: create_project_storage deletes a
-- project's rows through the parent to move them into a partition of its own; the rows live on unchanged, so
-- their groups' copies stay (putting them back would cost an HNSW insertion each). It says so with the setting
-- scopedb.moving_project, which counts only in an admin session (the app cannot be in one).
CREATE FUNCTION scopedb_private.forget_fragment_copies() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    moving text := NULLIF(pg_catalog.current_setting('scopedb.moving_project', true), '');
BEGIN
    DELETE FROM scopedb_private.fragment_search AS s
     USING gone AS g WHERE s.project_id = g.project_id AND s.id = g.id;
    DELETE FROM scopedb_private.fragment_originals AS o
     USING gone AS g WHERE o.project_id = g.project_id AND o.id = g.id;
    IF moving IS NOT NULL AND NOT scopedb_private.is_admin_session() THEN
        moving := NULL;
    END IF;
    DELETE FROM scopedb_private.group_vectors AS v
     USING gone AS g
     WHERE v.project_id = g.project_id AND v.id = g.id AND g.project_id::text IS DISTINCT FROM moving;
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION scopedb_private.forget_fragment_copies() IS
    'Removes the full-text copy, the archived original and the search groups'' copies of a statement''s deleted fragments.';

CREATE TRIGGER fragments_forget_copies
    AFTER DELETE ON scopedb.fragments
    REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.forget_fragment_copies();

-- The copies are keyed like the fragment, and no foreign key carries a key change over to them: a fragment's
-- (project_id, id) is fixed once written. (The app has no UPDATE on either column; this holds the owner to it.)
CREATE FUNCTION scopedb_private.refuse_fragment_key_change() RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF NEW.project_id IS DISTINCT FROM OLD.project_id OR NEW.id IS DISTINCT FROM OLD.id THEN
        RAISE EXCEPTION 'a fragment''s project and id cannot change; insert a new fragment instead'
              USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END
$$;
COMMENT ON FUNCTION scopedb_private.refuse_fragment_key_change() IS
    'Refuses an update of a fragment''s key (its full-text copy and original follow the key).';

CREATE TRIGGER fragments_fixed_key
    BEFORE UPDATE OF project_id, id ON scopedb.fragments
    FOR EACH ROW EXECUTE FUNCTION scopedb_private.refuse_fragment_key_change();

RESET ROLE;
