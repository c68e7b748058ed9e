-- Revision 0001 down: remove everything the foundation created inside this database.
-- Roles are cluster-wide and may serve other databases, so they stay; so does the vector extension.
SET ROLE scopedb_owner;
DROP SCHEMA IF EXISTS scopedb CASCADE;
DROP SCHEMA IF EXISTS scopedb_private CASCADE;
-- Back to Postgres's default (functions executable by PUBLIC) for objects scopedb_owner creates.
ALTER DEFAULT PRIVILEGES FOR ROLE scopedb_owner GRANT EXECUTE ON FUNCTIONS TO PUBLIC;
RESET ROLE;

DO $restore$
BEGIN
    EXECUTE pg_catalog.format('GRANT TEMPORARY ON DATABASE %I TO PUBLIC', pg_catalog.current_database());
    EXECUTE pg_catalog.format('REVOKE CONNECT ON DATABASE %I FROM scopedb_app, scopedb_auditor, scopedb_owner',
                              pg_catalog.current_database());
EXCEPTION WHEN insufficient_privilege THEN
    NULL;  -- we could not change it on the way up either
END
$restore$;
