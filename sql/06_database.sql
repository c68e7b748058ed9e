-- scopedb: database-level hardening.
--
-- Database ACLs are not copied by CREATE DATABASE ... TEMPLATE, so this file is also re-applied to every clone.
-- It needs the database owner (or a superuser). On a managed server where the migrating role is neither, the
-- statements that need ownership are skipped with a WARNING; `scopedb audit` reports what is still open.

DO $hardening$
BEGIN
    -- Temporary tables let a role create objects that shadow others through pg_temp in search_path, and keep
    -- state across transactions on a pooled connection. Every role gets TEMP through PUBLIC by default.
    EXECUTE pg_catalog.format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', pg_catalog.current_database());
    EXECUTE pg_catalog.format('GRANT CONNECT ON DATABASE %I TO scopedb_app, scopedb_auditor, scopedb_owner',
                              pg_catalog.current_database());
    -- scopedb_owner alone may make temporary tables: the entry functions, which run as the owner, keep the memo
    -- of the tokens they verified in one (scopedb_private.remember_scope). Without this grant the memo is
    -- skipped and every statement verifies the token in full.
    EXECUTE pg_catalog.format('GRANT TEMPORARY ON DATABASE %I TO scopedb_owner', pg_catalog.current_database());
EXCEPTION WHEN insufficient_privilege THEN
    RAISE WARNING 'scopedb: not the database owner; TEMP is still granted to PUBLIC on %',
        pg_catalog.current_database();
END
$hardening$;

DO $public_schema$
BEGIN
    -- PostgreSQL 15+ already withholds CREATE on schema public; older or customised databases may not.
    REVOKE CREATE ON SCHEMA public FROM PUBLIC;
EXCEPTION WHEN insufficient_privilege OR invalid_schema_name THEN
    RAISE WARNING 'scopedb: could not revoke CREATE on schema public from PUBLIC';
END
$public_schema$;
