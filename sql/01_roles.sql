-- scopedb: roles, memberships and schemas.
--
-- Run as the migrating login: a superuser, or (on a managed server) a role with CREATEROLE and CREATE on the
-- database. Every later file switches to scopedb_owner, so this is the only file that runs with the login's own
-- rights. Everything here is idempotent: roles are cluster-wide and may already exist for another database.
--
-- The three roles are NOLOGIN groups. Deployers grant them to their own login roles:
--   scopedb_owner    owns every object; migrations run as it; nothing else should.
--   scopedb_app      what services act as (SET LOCAL ROLE scopedb_app in each scoped transaction).
--                    Not superuser, not owner, NOBYPASSRLS, no CREATE anywhere, no TEMP.
--   scopedb_auditor  reads the catalog (and, later, audit views); never a data row.

DO $roles$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'scopedb_owner') THEN
        CREATE ROLE scopedb_owner NOLOGIN NOINHERIT NOBYPASSRLS;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'scopedb_app') THEN
        CREATE ROLE scopedb_app NOLOGIN NOINHERIT NOBYPASSRLS;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'scopedb_auditor') THEN
        CREATE ROLE scopedb_auditor NOLOGIN NOINHERIT NOBYPASSRLS;
    END IF;

    -- The migrating login must be able to SET ROLE scopedb_owner so the objects below are owned by it.
    -- A CREATEROLE login that created the role holds it WITH ADMIN OPTION only (PostgreSQL 16+), which lets it
    -- grant itself the SET option.
    IF NOT pg_catalog.pg_has_role(current_user, 'scopedb_owner', 'SET') THEN
        EXECUTE pg_catalog.format('GRANT scopedb_owner TO %I WITH SET TRUE', current_user);
    END IF;
END
$roles$;

-- pgvector provides the embedding column type. On a managed server it must already be installed (it is not a
-- trusted extension); IF NOT EXISTS then makes this a no-op for a non-superuser.
CREATE EXTENSION IF NOT EXISTS vector;

-- scopedb     the data schema: every table in it has RLS enabled and forced.
-- scopedb_private  signing keys and internal helpers; scopedb_app has no USAGE on it at all.
-- scopedb_audit    the policy audit (findings); scopedb_auditor reads it.
-- scopedb_parts    one partition per project of the partitioned tables; no role but the owner may use it.
CREATE SCHEMA IF NOT EXISTS scopedb AUTHORIZATION scopedb_owner;
CREATE SCHEMA IF NOT EXISTS scopedb_private AUTHORIZATION scopedb_owner;
CREATE SCHEMA IF NOT EXISTS scopedb_audit AUTHORIZATION scopedb_owner;
CREATE SCHEMA IF NOT EXISTS scopedb_parts AUTHORIZATION scopedb_owner;
