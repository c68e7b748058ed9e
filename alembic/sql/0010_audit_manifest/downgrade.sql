-- Revision 0010 down: back to revision 0009.
SET ROLE scopedb_owner;

CREATE OR REPLACE FUNCTION scopedb.role_hazards(target name) RETURNS text[]
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
                                 'pg_write_server_files', 'pg_execute_server_program', 'pg_maintain')
               AND p.rolname <> target
               AND pg_catalog.pg_has_role(target, p.oid, 'MEMBER')) AS h
     ORDER BY 1);
CREATE OR REPLACE FUNCTION scopedb_audit.check()
RETURNS TABLE (severity text, code text, object text, message text, fix text)
LANGUAGE sql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    -- E001 RLS enabled and forced on every data table.
    SELECT 'error', 'E001', 'table scopedb.' || t.relname,
           'row-level security is ' || CASE WHEN NOT t.relrowsecurity THEN 'not enabled' ELSE 'not forced' END,
           'ALTER TABLE scopedb.' || t.relname || ' ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;'
      FROM scopedb_audit.data_tables AS t
     WHERE NOT (t.relrowsecurity AND t.relforcerowsecurity)
    UNION ALL
    -- E002 a restrictive policy for scopedb_app per command (an ALL policy covers every command).
    SELECT 'error', 'E002', 'table scopedb.' || t.relname || ' ' || cmd.label,
           'no restrictive policy limits ' || cmd.label || ' for scopedb_app',
           'CREATE POLICY ... ON scopedb.' || t.relname || ' AS RESTRICTIVE FOR ' || cmd.label
               || ' TO scopedb_app USING (<scope predicate>);'
      FROM scopedb_audit.data_tables AS t
     CROSS JOIN (VALUES ('r', 'SELECT'), ('a', 'INSERT'), ('w', 'UPDATE'), ('d', 'DELETE')) AS cmd (polcmd, label)
     WHERE NOT EXISTS (
               SELECT FROM pg_catalog.pg_policy AS p
                WHERE p.polrelid = t.relid AND NOT p.polpermissive AND p.polcmd IN (cmd.polcmd, '*')
                  AND (0 = ANY (p.polroles) OR 'scopedb_app'::regrole = ANY (p.polroles)))
    UNION ALL
    -- E003 permissive policies that reach scopedb_app must reference the scope.
    SELECT 'error', 'E003', 'policy "' || p.polname || '" on scopedb.' || t.relname,
           'permissive policy for scopedb_app does not reference the scope',
           'DROP POLICY "' || p.polname || '" ON scopedb.' || t.relname || '; or make its predicate read scopedb.scope_*()'
      FROM pg_catalog.pg_policy AS p
      JOIN scopedb_audit.data_tables AS t ON t.relid = p.polrelid
     WHERE p.polpermissive
       AND (0 = ANY (p.polroles) OR 'scopedb_app'::regrole = ANY (p.polroles))
       AND COALESCE(pg_catalog.pg_get_expr(p.polqual, p.polrelid), '')
           || COALESCE(pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid), '') !~ 'scopedb\.scope_'
    UNION ALL
    -- W004 scope accessors must be wrapped in (SELECT ...) to run once per statement.
    SELECT 'warning', 'W004', 'policy "' || p.polname || '" on scopedb.' || t.relname,
           'calls a scope accessor per row (no (SELECT ...) wrapper)',
           'write the call as (SELECT scopedb.scope_...()) so it becomes an InitPlan'
      FROM pg_catalog.pg_policy AS p
      JOIN scopedb_audit.data_tables AS t ON t.relid = p.polrelid
     WHERE (SELECT pg_catalog.count(*) FROM pg_catalog.regexp_matches(
                COALESCE(pg_catalog.pg_get_expr(p.polqual, p.polrelid), '') || ' '
                || COALESCE(pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid), ''), 'scopedb\.scope_', 'g'))
         > (SELECT pg_catalog.count(*) FROM pg_catalog.regexp_matches(
                COALESCE(pg_catalog.pg_get_expr(p.polqual, p.polrelid), '') || ' '
                || COALESCE(pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid), ''), 'SELECT scopedb\.scope_', 'g'))
    UNION ALL
    -- E005 / E006 SECURITY DEFINER functions in scopedb's schemas.
    SELECT 'error', 'E005', 'function ' || f.oid::regprocedure::text,
           'SECURITY DEFINER function without a pinned search_path',
           'ALTER FUNCTION ' || f.oid::regprocedure::text || ' SET search_path = pg_catalog, pg_temp;'
      FROM pg_catalog.pg_proc AS f
     WHERE f.prosecdef
       AND f.pronamespace IN ('scopedb'::regnamespace, 'scopedb_private'::regnamespace, 'scopedb_audit'::regnamespace)
       AND NOT EXISTS (SELECT FROM pg_catalog.unnest(f.proconfig) AS c WHERE c LIKE 'search_path=%')
    UNION ALL
    SELECT 'error', 'E006', 'function ' || f.oid::regprocedure::text,
           'SECURITY DEFINER function executable by PUBLIC',
           'REVOKE EXECUTE ON FUNCTION ' || f.oid::regprocedure::text || ' FROM PUBLIC;'
      FROM pg_catalog.pg_proc AS f
     WHERE f.prosecdef
       AND f.pronamespace IN ('scopedb'::regnamespace, 'scopedb_private'::regnamespace, 'scopedb_audit'::regnamespace)
       AND EXISTS (SELECT FROM pg_catalog.aclexplode(COALESCE(f.proacl, pg_catalog.acldefault('f', f.proowner))) AS a
                    WHERE a.grantee = 0 AND a.privilege_type = 'EXECUTE')
    UNION ALL
    -- E007 / W007 / W008 views over scoped tables (any schema).
    SELECT CASE WHEN v.barrier THEN 'warning' ELSE 'error' END,
           CASE WHEN v.barrier THEN 'W007' ELSE 'E007' END,
           'view ' || v.view::text,
           'view over a scoped table runs with its owner''s rights (not security_invoker)',
           'ALTER VIEW ' || v.view::text || ' SET (security_invoker = true);'
      FROM (SELECT DISTINCT c.oid::regclass AS view,
                   COALESCE(c.reloptions, '{}') @> ARRAY['security_barrier=true'] AS barrier,
                   COALESCE(c.reloptions, '{}') @> ARRAY['security_invoker=true'] AS invoker
              FROM pg_catalog.pg_class AS c
              JOIN pg_catalog.pg_rewrite AS r ON r.ev_class = c.oid
              JOIN pg_catalog.pg_depend AS d ON d.objid = r.oid AND d.classid = 'pg_rewrite'::regclass
              JOIN scopedb_audit.data_tables AS t ON t.relid = d.refobjid
             WHERE c.relkind = 'v' AND c.oid <> t.relid) AS v
     WHERE NOT v.invoker
    UNION ALL
    SELECT 'warning', 'W008', 'view ' || c.oid::regclass::text,
           'security_invoker view over a scoped table filters rows but is not a security barrier',
           'ALTER VIEW ' || c.oid::regclass::text || ' SET (security_barrier = true);'
      FROM pg_catalog.pg_class AS c
     WHERE c.relkind = 'v'
       AND COALESCE(c.reloptions, '{}') @> ARRAY['security_invoker=true']
       AND NOT COALESCE(c.reloptions, '{}') @> ARRAY['security_barrier=true']
       AND pg_catalog.pg_get_viewdef(c.oid) ~* '\mwhere\M'
       AND EXISTS (SELECT FROM pg_catalog.pg_rewrite AS r
                     JOIN pg_catalog.pg_depend AS d ON d.objid = r.oid AND d.classid = 'pg_rewrite'::regclass
                     JOIN scopedb_audit.data_tables AS t ON t.relid = d.refobjid
                    WHERE r.ev_class = c.oid)
    UNION ALL
    -- E009 nobody who can bypass RLS is a member of scopedb_app.
    SELECT 'error', 'E009', 'role ' || m.rolname,
           CASE WHEN m.rolsuper THEN 'superuser' ELSE 'BYPASSRLS role' END || ' is a member of scopedb_app',
           'REVOKE scopedb_app FROM ' || pg_catalog.quote_ident(m.rolname) || '; use a dedicated login for services'
      FROM pg_catalog.pg_roles AS m
     WHERE (m.rolsuper OR m.rolbypassrls)
       AND m.oid IN (SELECT am.member FROM pg_catalog.pg_auth_members AS am WHERE am.roleid = 'scopedb_app'::regrole)
    UNION ALL
    -- E010 scopedb_app owns nothing.
    SELECT 'error', 'E010', o.kind || ' ' || o.name, 'owned by scopedb_app',
           'ALTER ' || o.kind || ' ' || o.name || ' OWNER TO scopedb_owner;'
      FROM (SELECT 'TABLE' AS kind, c.oid::regclass::text AS name FROM pg_catalog.pg_class AS c
             WHERE c.relowner = 'scopedb_app'::regrole
            UNION ALL
            SELECT 'FUNCTION', f.oid::regprocedure::text FROM pg_catalog.pg_proc AS f
             WHERE f.proowner = 'scopedb_app'::regrole
            UNION ALL
            SELECT 'SCHEMA', n.nspname FROM pg_catalog.pg_namespace AS n
             WHERE n.nspowner = 'scopedb_app'::regrole) AS o
    UNION ALL
    -- E011 / W011 scopedb_app may not create objects (TEMP is a warning: a managed server may keep it).
    SELECT 'error', 'E011', 'schema ' || n.nspname, 'scopedb_app holds CREATE',
           'REVOKE CREATE ON SCHEMA ' || pg_catalog.quote_ident(n.nspname) || ' FROM scopedb_app, PUBLIC;'
      FROM pg_catalog.pg_namespace AS n
     WHERE pg_catalog.has_schema_privilege('scopedb_app', n.oid, 'CREATE')
    UNION ALL
    SELECT 'error', 'E011', 'database ' || pg_catalog.current_database(), 'scopedb_app holds CREATE',
           'REVOKE CREATE ON DATABASE ' || pg_catalog.quote_ident(pg_catalog.current_database())
               || ' FROM scopedb_app, PUBLIC;'
     WHERE pg_catalog.has_database_privilege('scopedb_app', pg_catalog.current_database(), 'CREATE')
    UNION ALL
    SELECT 'warning', 'W011', 'database ' || pg_catalog.current_database(), 'scopedb_app holds TEMP',
           'REVOKE TEMPORARY ON DATABASE ' || pg_catalog.quote_ident(pg_catalog.current_database()) || ' FROM PUBLIC;'
     WHERE pg_catalog.has_database_privilege('scopedb_app', pg_catalog.current_database(), 'TEMP')
    UNION ALL
    -- E012 nothing in scopedb's schemas is granted to PUBLIC.
    SELECT 'error', 'E012', g.kind || ' ' || g.name, 'privilege ' || g.privilege || ' granted to PUBLIC',
           'REVOKE ' || g.privilege || ' ON ' || g.kind || ' ' || g.name || ' FROM PUBLIC;'
      FROM (SELECT 'SCHEMA' AS kind, n.nspname::text AS name, a.privilege_type AS privilege
              FROM pg_catalog.pg_namespace AS n,
                   pg_catalog.aclexplode(COALESCE(n.nspacl, pg_catalog.acldefault('n', n.nspowner))) AS a
             WHERE n.nspname IN ('scopedb', 'scopedb_private') AND a.grantee = 0
            UNION ALL
            SELECT 'TABLE', c.oid::regclass::text, a.privilege_type
              FROM pg_catalog.pg_class AS c,
                   pg_catalog.aclexplode(COALESCE(c.relacl, pg_catalog.acldefault('r', c.relowner))) AS a
             WHERE c.relnamespace IN ('scopedb'::regnamespace, 'scopedb_private'::regnamespace) AND a.grantee = 0
            UNION ALL
            SELECT 'FUNCTION', f.oid::regprocedure::text, a.privilege_type
              FROM pg_catalog.pg_proc AS f,
                   pg_catalog.aclexplode(COALESCE(f.proacl, pg_catalog.acldefault('f', f.proowner))) AS a
             WHERE f.pronamespace IN ('scopedb'::regnamespace, 'scopedb_private'::regnamespace)
               AND a.grantee = 0) AS g
    UNION ALL
    -- E013 every primary and unique key of a data table includes project_id (projects: the directory itself).
    SELECT 'error', 'E013', 'constraint ' || k.conname || ' on scopedb.' || t.relname,
           'unique key without project_id: a violation could reveal another project''s key',
           'include project_id in the key of ' || k.conname
      FROM pg_catalog.pg_constraint AS k
      JOIN scopedb_audit.data_tables AS t ON t.relid = k.conrelid
     WHERE k.contype IN ('p', 'u') AND t.relname <> 'projects'
       AND NOT EXISTS (SELECT FROM pg_catalog.pg_attribute AS a
                        WHERE a.attrelid = k.conrelid AND a.attnum = ANY (k.conkey) AND a.attname = 'project_id')
    UNION ALL
    -- W014 the scope predicate's column leads an index.
    SELECT 'warning', 'W014', 'table scopedb.' || t.relname,
           'no index leads with project_id: every policy check scans',
           'CREATE INDEX ON scopedb.' || t.relname || ' (project_id);'
      FROM scopedb_audit.data_tables AS t
     WHERE t.relname <> 'projects'
       AND NOT EXISTS (SELECT FROM pg_catalog.pg_index AS i
                         JOIN pg_catalog.pg_attribute AS a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
                        WHERE i.indrelid = t.relid AND a.attname = 'project_id')
    UNION ALL
    -- W015 / E015 signing keys (their age only).
    SELECT 'warning', 'W015', 'signing key ' || k.key_id,
           'active signing key is older than its rotation period (' || k.rotation_period || ')',
           'scopedb keys rotate'
      FROM scopedb_private.signing_keys AS k
     WHERE k.retired_at IS NULL AND k.created_at + k.rotation_period < pg_catalog.now()
    UNION ALL
    SELECT 'error', 'E015', 'signing keys', 'no active signing key: no scope can be entered', 'scopedb keys rotate'
     WHERE NOT EXISTS (SELECT FROM scopedb_private.signing_keys AS k WHERE k.retired_at IS NULL)
    UNION ALL
    -- E017 / W017 settings stored for a role that can act as scopedb_app. Stored defaults apply to every session
    -- the role logs in, so one tenant that resets its role to the shared login could change how every other
    -- tenant's sessions start. (scopedb pins what it relies on and removes what it finds; this says it happened.)
    SELECT CASE WHEN r.rolcanlogin AND r.oid <> 'scopedb_app'::regrole THEN 'error' ELSE 'warning' END,
           CASE WHEN r.rolcanlogin AND r.oid <> 'scopedb_app'::regrole THEN 'E017' ELSE 'W017' END,
           'role ' || r.rolname,
           'settings stored for a role that acts as scopedb_app'
               || CASE WHEN d.setdatabase = 0 THEN '' ELSE ' in this database' END || ': '
               || pg_catalog.array_to_string(ARRAY(SELECT pg_catalog.split_part(c, '=', 1)
                                                     FROM pg_catalog.unnest(d.setconfig) AS c ORDER BY 1), ', '),
           'ALTER ROLE ' || pg_catalog.quote_ident(r.rolname)
               || CASE WHEN d.setdatabase = 0 THEN ''
                       ELSE ' IN DATABASE ' || pg_catalog.quote_ident(pg_catalog.current_database()) END
               || ' RESET ALL;'
      FROM pg_catalog.pg_db_role_setting AS d
      JOIN pg_catalog.pg_roles AS r ON r.oid = d.setrole
     WHERE d.setdatabase IN (0, (SELECT db.oid FROM pg_catalog.pg_database AS db
                                  WHERE db.datname = pg_catalog.current_database()))
       AND pg_catalog.pg_has_role(r.oid, 'scopedb_app'::regrole, 'MEMBER')
    UNION ALL
    -- E018 owner-run search functions the app can call must pin the settings their answer depends on: a caller's
    -- gin_fuzzy_search_limit thinned every tenant's matches in the shared full-text index before the scope join.
    SELECT 'error', 'E018', 'function ' || f.oid::regprocedure::text,
           'SECURITY DEFINER function executable by scopedb_app does not pin ' || m.setting,
           'ALTER FUNCTION ' || f.oid::regprocedure::text || ' SET ' || m.setting || ' = ' || m.value || ';'
      FROM pg_catalog.pg_proc AS f
     CROSS JOIN (VALUES ('@@', 'gin_fuzzy_search_limit', '0'),
                        ('<=>|<->|<#>', 'hnsw.iterative_scan', 'off'),
                        ('<=>|<->|<#>', 'hnsw.ef_search', '40')) AS m (uses, setting, value)
     WHERE f.prosecdef
       AND pg_catalog.has_function_privilege('scopedb_app', f.oid, 'EXECUTE')
       AND f.prosrc ~ m.uses
       AND NOT EXISTS (SELECT FROM pg_catalog.unnest(f.proconfig) AS c WHERE c LIKE m.setting || '=%')
    UNION ALL
    -- E019 no owner-run function the app can call shows a plan.
    SELECT 'error', 'E019', 'function ' || f.oid::regprocedure::text,
           'SECURITY DEFINER function executable by scopedb_app runs EXPLAIN (its plans reflect every tenant''s rows)',
           'REVOKE EXECUTE ON FUNCTION ' || f.oid::regprocedure::text || ' FROM scopedb_app, PUBLIC;'
      FROM pg_catalog.pg_proc AS f
     WHERE f.prosecdef
       AND pg_catalog.has_function_privilege('scopedb_app', f.oid, 'EXECUTE')
       AND f.prosrc ~* '\mexplain\M'
    UNION ALL
    -- E016 pgvector >= 0.8.
    SELECT 'error', 'E016', 'extension vector',
           COALESCE('pgvector ' || e.extversion || ' is older than 0.8', 'pgvector is not installed'),
           'install pgvector 0.8 or newer, then ALTER EXTENSION vector UPDATE;'
      FROM (SELECT (SELECT x.extversion FROM pg_catalog.pg_extension AS x WHERE x.extname = 'vector') AS extversion) AS e
     WHERE scopedb_audit.pgvector_too_old(e.extversion);
$$;
DROP FUNCTION scopedb_audit.option_is_on(text[], text);
DROP FUNCTION scopedb_audit.installed_facts();
DROP FUNCTION scopedb_audit.manifest_digest();
DROP FUNCTION scopedb_audit.removal(text, text, text);
DROP FUNCTION scopedb_audit.signing_key_ages();
DROP TABLE scopedb_audit.manifest;
DROP VIEW scopedb_audit.app_roles;
DROP VIEW scopedb_audit.derived_relations;
DROP VIEW scopedb_audit.protected_tables;

RESET ROLE;
