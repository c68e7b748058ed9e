-- Revision 0027: E026 admits, on a project's own partition of fragments, the one policy create_project_storage
-- makes for scopedb.project_nearest, and no other.

SET ROLE scopedb_owner;

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
    -- E007 / W007 / W008 views over scopedb's tables, and the private ones (any schema). Options are read as the
    -- booleans they are (security_invoker=on, =1 and =true alike).
    SELECT CASE WHEN v.barrier THEN 'warning' ELSE 'error' END,
           CASE WHEN v.barrier THEN 'W007' ELSE 'E007' END,
           'view ' || v.view::text,
           'view over a scoped table runs with its owner''s rights (not security_invoker)',
           'ALTER VIEW ' || v.view::text || ' SET (security_invoker = true);'
      FROM (SELECT DISTINCT c.oid::regclass AS view,
                   scopedb_audit.option_is_on(c.reloptions, 'security_barrier') AS barrier,
                   scopedb_audit.option_is_on(c.reloptions, 'security_invoker') AS invoker
              FROM pg_catalog.pg_class AS c
              JOIN scopedb_audit.derived_relations AS dr ON dr.relid = c.oid
             WHERE dr.relkind = 'v') AS v
     WHERE NOT v.invoker
    UNION ALL
    SELECT 'warning', 'W008', 'view ' || c.oid::regclass::text,
           'security_invoker view over a scoped table filters rows but is not a security barrier',
           'ALTER VIEW ' || c.oid::regclass::text || ' SET (security_barrier = true);'
      FROM pg_catalog.pg_class AS c
     WHERE c.relkind = 'v'
       AND scopedb_audit.option_is_on(c.reloptions, 'security_invoker')
       AND NOT scopedb_audit.option_is_on(c.reloptions, 'security_barrier')
       AND pg_catalog.pg_get_viewdef(c.oid) ~* '\mwhere\M'
       AND c.oid IN (SELECT dr.relid FROM scopedb_audit.derived_relations AS dr)
    UNION ALL
    -- E009 no role that can act as scopedb_app — scopedb_app itself, its members, their members — can step outside
    -- row-level security or around it, itself or through any role it belongs to (scopedb.role_hazards, the same
    -- judgement scopedb applies to its login before running a scoped transaction).
    SELECT 'error', 'E009', 'role ' || m.rolname,
           'can act as scopedb_app, with: ' || pg_catalog.array_to_string(h.hazards, '; '),
           'remove what it should not have (ALTER ROLE ' || pg_catalog.quote_ident(m.rolname)
               || ' NOBYPASSRLS ...; REVOKE ... FROM ' || pg_catalog.quote_ident(m.rolname)
               || '), or REVOKE scopedb_app FROM it and use a dedicated login'
      FROM scopedb_audit.app_roles AS m
     CROSS JOIN LATERAL (SELECT scopedb.role_hazards(m.rolname) AS hazards) AS h
     WHERE pg_catalog.cardinality(h.hazards) > 0
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
           'REVOKE TEMPORARY ON DATABASE ' || pg_catalog.quote_ident(pg_catalog.current_database())
               || ' FROM PUBLIC, scopedb_app;'
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
    -- E013 every unique index of a data table (those of primary keys, unique constraints, and bare unique
    -- indexes alike) includes project_id (projects: the directory itself): a violation must not tell one project
    -- that another holds a key.
    SELECT 'error', 'E013', 'index ' || i.indexrelid::regclass::text || ' on scopedb.' || t.relname,
           'unique key without project_id: a violation could reveal another project''s key',
           'include project_id in ' || i.indexrelid::regclass::text || ' (or drop it)'
      FROM pg_catalog.pg_index AS i
      JOIN scopedb_audit.data_tables AS t ON t.relid = i.indrelid
     WHERE i.indisunique AND t.relname <> 'projects'
       AND NOT EXISTS (SELECT FROM pg_catalog.pg_attribute AS a
                        WHERE a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey) AND a.attname = 'project_id')
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
    -- W015 / E015 signing keys (their age only). A key whose retirement is still ahead is in use too.
    SELECT 'warning', 'W015', 'signing key ' || k.key_id,
           'signing key still in use is older than its rotation period (' || k.rotation_period || ')',
           'scopedb keys rotate'
      FROM scopedb_audit.signing_key_ages() AS k
     WHERE k.readable AND (k.retired_at IS NULL OR k.retired_at > pg_catalog.now())
       AND k.created_at + k.rotation_period < pg_catalog.now()
    UNION ALL
    -- W026 / W027 key hygiene: a grace longer than a week keeps a replaced key valid, and a rotation period over a
    -- year lets one key sign for too long.
    SELECT 'warning', 'W026', 'signing key ' || k.key_id,
           'retires more than 7 days from now: a long grace keeps a replaced key valid',
           'SELECT scopedb_private.retire_signing_key(''' || k.key_id || ''', now() + interval ''1 hour'');'
      FROM scopedb_audit.signing_key_ages() AS k
     WHERE k.readable AND k.retired_at > pg_catalog.now() + interval '7 days'
    UNION ALL
    SELECT 'warning', 'W027', 'signing key ' || k.key_id,
           'rotation period ' || k.rotation_period::text || ' is over a year',
           'UPDATE scopedb_private.signing_keys SET rotation_period = interval ''90 days'' WHERE key_id = '''
               || k.key_id || ''';'
      FROM scopedb_audit.signing_key_ages() AS k
     WHERE k.readable AND (k.retired_at IS NULL OR k.retired_at > pg_catalog.now())
       AND k.rotation_period > interval '365 days'
    UNION ALL
    SELECT 'error', 'E015', 'signing keys', 'no active signing key: no scope can be entered', 'scopedb keys rotate'
     WHERE NOT EXISTS (SELECT FROM scopedb_audit.signing_key_ages() AS k WHERE NOT k.readable OR k.retired_at IS NULL)
    UNION ALL
    SELECT 'error', 'E015', 'signing keys',
           'the audit cannot read the keys'' ages: scopedb_owner lost its rights on scopedb_private',
           'restore the private schema''s owner and grants (see the E020 findings)'
     WHERE EXISTS (SELECT FROM scopedb_audit.signing_key_ages() AS k WHERE NOT k.readable)
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
      JOIN scopedb_audit.app_roles AS r ON r.oid = d.setrole
     WHERE d.setdatabase IN (0, (SELECT db.oid FROM pg_catalog.pg_database AS db
                                  WHERE db.datname = pg_catalog.current_database()))
    UNION ALL
    -- W017 settings stored for every role in this database (ALTER DATABASE ... SET, or ALTER ROLE ALL ... SET)
    -- start every scoped session too. Only the database's owner or a superuser can store them, and no login that
    -- acts as scopedb_app may be either (E009).
    SELECT 'warning', 'W017', 'database ' || pg_catalog.current_database(),
           'settings stored for every session'
               || CASE WHEN d.setdatabase = 0 THEN ' (ALTER ROLE ALL)' ELSE ' in this database' END || ': '
               || pg_catalog.array_to_string(ARRAY(SELECT pg_catalog.split_part(c, '=', 1)
                                                     FROM pg_catalog.unnest(d.setconfig) AS c ORDER BY 1), ', '),
           CASE WHEN d.setdatabase = 0 THEN 'ALTER ROLE ALL RESET ALL;'
                ELSE 'ALTER DATABASE ' || pg_catalog.quote_ident(pg_catalog.current_database()) || ' RESET ALL;' END
      FROM pg_catalog.pg_db_role_setting AS d
     WHERE d.setrole = 0
       AND d.setdatabase IN (0, (SELECT db.oid FROM pg_catalog.pg_database AS db
                                  WHERE db.datname = pg_catalog.current_database()))
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
    -- E020 the catalog against what scopedb installed (scopedb_audit.manifest): every policy predicate, function
    -- body and setting, trigger, index, constraint, grant and default privilege of scopedb's objects, and every
    -- publication of their rows. Anything changed, missing or extra is an error naming the object.
    SELECT 'error', 'E020', d.kind || ' ' || d.object, d.message, d.fix
      FROM (WITH live AS MATERIALIZED (SELECT l.kind, l.object, l.fact FROM scopedb_audit.installed_facts() AS l)
            SELECT l.kind, l.object,
                   'changed since scopedb installed it: now ' || pg_catalog."left"(l.fact, 400)
                       || '; installed ' || pg_catalog."left"(m.fact, 400) AS message,
                   'restore what scopedb installed (scopedb_audit.manifest holds it; sql/ defines it)' AS fix
              FROM live AS l JOIN scopedb_audit.manifest AS m ON m.kind = l.kind AND m.object = l.object
             WHERE l.fact <> m.fact
            UNION ALL
            SELECT m.kind, m.object, 'missing: scopedb installed it (' || pg_catalog."left"(m.fact, 400) || ')',
                   're-create it as sql/ defines it'
              FROM scopedb_audit.manifest AS m
             WHERE NOT EXISTS (SELECT FROM live AS l WHERE l.kind = m.kind AND l.object = m.object)
            UNION ALL
            SELECT l.kind, l.object, 'not installed by scopedb: ' || pg_catalog."left"(l.fact, 400),
                   scopedb_audit.removal(l.kind, l.object, l.fact)
              FROM live AS l
             WHERE NOT EXISTS (SELECT FROM scopedb_audit.manifest AS m WHERE m.kind = l.kind AND m.object = l.object)
           ) AS d
    UNION ALL
    -- E021 a LEAKPROOF function may run on rows before row-level security has admitted them (PostgreSQL lets it,
    -- by design): only the built-in ones may be LEAKPROOF.
    SELECT 'error', 'E021', 'function ' || f.oid::regprocedure::text,
           'LEAKPROOF: may see rows of every tenant before the policies filter them',
           'ALTER FUNCTION ' || f.oid::regprocedure::text || ' NOT LEAKPROOF;'
      FROM pg_catalog.pg_proc AS f
     WHERE f.proleakproof AND f.pronamespace <> 'pg_catalog'::regnamespace
    UNION ALL
    -- E022 / W022 SECURITY DEFINER functions outside scopedb's schemas that scopedb_app may execute run with their
    -- owner's rights: an error when that owner can read around row-level security or the private schema.
    SELECT CASE WHEN o.risky THEN 'error' ELSE 'warning' END, CASE WHEN o.risky THEN 'E022' ELSE 'W022' END,
           'function ' || f.oid::regprocedure::text,
           'SECURITY DEFINER function executable by scopedb_app, owned by ' || pg_catalog.pg_get_userbyid(f.proowner)
               || CASE WHEN o.risky THEN ', which can read around row-level security' ELSE '' END,
           'REVOKE EXECUTE ON FUNCTION ' || f.oid::regprocedure::text || ' FROM scopedb_app, PUBLIC; or make it '
               || 'SECURITY INVOKER'
      FROM pg_catalog.pg_proc AS f
     CROSS JOIN LATERAL (SELECT f.proowner = 'scopedb_owner'::regrole
                                OR pg_catalog.cardinality(scopedb.role_hazards(
                                       pg_catalog.pg_get_userbyid(f.proowner))) > 0 AS risky) AS o
     WHERE f.prosecdef
       AND f.pronamespace NOT IN ('scopedb'::regnamespace, 'scopedb_private'::regnamespace,
                                  'scopedb_audit'::regnamespace, 'pg_catalog'::regnamespace)
       AND pg_catalog.has_function_privilege('scopedb_app', f.oid, 'EXECUTE')
    UNION ALL
    -- E023 / W023 materialized views over protected tables hold a copy of their rows with no row-level security.
    SELECT CASE WHEN v.readable THEN 'error' ELSE 'warning' END, CASE WHEN v.readable THEN 'E023' ELSE 'W023' END,
           'materialized view ' || v.view::text,
           'copies rows of ' || v.source || ' out of row-level security'
               || CASE WHEN v.readable THEN ', and scopedb_app can read it' ELSE '' END,
           'DROP MATERIALIZED VIEW ' || v.view::text || ';'
      FROM (SELECT dr.relid::regclass AS view,
                   pg_catalog.string_agg(dr.source, ', ' ORDER BY dr.source) AS source,
                   pg_catalog.has_table_privilege('scopedb_app', dr.relid, 'SELECT') AS readable
              FROM scopedb_audit.derived_relations AS dr
             WHERE dr.relkind = 'm'
             GROUP BY dr.relid) AS v
    UNION ALL
    -- E024 any other table scopedb_app can read or change must be protected like scopedb's own (row-level security
    -- enabled and forced): an export table or a service's table left open is reachable from every scope. A column
    -- privilege reaches every row as a table privilege does; TRUNCATE empties a table past every policy; a view it
    -- can read that runs with its owner's rights hands out whatever its owner reads (over a protected table: E007).
    SELECT 'error', 'E024', CASE WHEN c.relkind = 'v' THEN 'view ' ELSE 'table ' END || c.oid::regclass::text,
           CASE WHEN c.relkind = 'v' THEN 'the application can read it, and it reads with its owner''s rights'
                WHEN c.relrowsecurity AND c.relforcerowsecurity
                    THEN 'the application may TRUNCATE it, which no row-level security policy filters'
                ELSE 'the application (scopedb_app or its login) can read or change it and row-level security is '
                     || 'not enabled and forced' END,
           CASE WHEN c.relkind = 'v'
                    THEN 'ALTER VIEW ' || c.oid::regclass::text || ' SET (security_invoker = true); or REVOKE ALL ON '
                         || c.oid::regclass::text || ' FROM scopedb_app, PUBLIC;'
                WHEN c.relrowsecurity AND c.relforcerowsecurity
                    THEN 'REVOKE TRUNCATE ON ' || c.oid::regclass::text || ' FROM scopedb_app, PUBLIC;'
                ELSE pg_catalog.format('protect it (SELECT scopedb.protect_table(%L, %L);), or REVOKE ALL ON %s FROM '
                                       'scopedb_app, PUBLIC;', c.oid::regclass::text, 'project_id', c.oid::regclass)
           END
      FROM pg_catalog.pg_class AS c
      JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p', 'f', 'm', 'v')
       AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'scopedb', 'scopedb_private', 'scopedb_audit',
                             'scopedb_parts')
       AND n.nspname NOT LIKE 'pg\_%'
       AND EXISTS (SELECT FROM scopedb_audit.app_roles AS r  -- scopedb_app, or its login after RESET ROLE
                    WHERE pg_catalog.has_schema_privilege(r.oid, n.oid, 'USAGE')
                      AND (pg_catalog.has_table_privilege(r.oid, c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE')
                           OR pg_catalog.has_any_column_privilege(r.oid, c.oid, 'SELECT, INSERT, UPDATE')))
       AND CASE WHEN c.relkind = 'v'
                    THEN NOT scopedb_audit.option_is_on(c.reloptions, 'security_invoker')
                ELSE NOT (c.relrowsecurity AND c.relforcerowsecurity)
                     OR EXISTS (SELECT FROM scopedb_audit.app_roles AS r
                                 WHERE pg_catalog.has_table_privilege(r.oid, c.oid, 'TRUNCATE')) END
       AND c.oid NOT IN (SELECT dr.relid FROM scopedb_audit.derived_relations AS dr)  -- views of them: E007, E023
    UNION ALL
    -- E029 a protected service table as protect_table left it: the live facts (scopedb_audit.protection_facts)
    -- against the ones it recorded. A fact missing, changed or added is an error: a dropped FORCE, a loosened
    -- policy, a permissive policy that widens the scope, a privilege (TRUNCATE, table-level UPDATE) that reaches
    -- around the policies or locks the table, an owner that could change any of it.
    SELECT 'error', 'E029', 'table ' || d.relation || ' ' || d.kind || ' ' || d.object,
           CASE WHEN d.live IS NULL THEN 'missing (protect_table made: ' || d.recorded || ')'
                WHEN d.recorded IS NULL THEN 'not made by protect_table: ' || d.live
                ELSE 'differs from what protect_table made: now ' || d.live || '; made ' || d.recorded END,
           CASE WHEN d.kind = 'policy' AND d.recorded IS NULL
                    THEN 'DROP POLICY ' || pg_catalog.quote_ident(d.object) || ' ON ' || d.relation || ';'
                ELSE pg_catalog.format('SELECT scopedb.protect_table(%L, %L, %L, %L, %L, %L);', st.relation,
                                       st.project_column, st.resource_column, st.path_column, st.name_column,
                                       st.allow_delete) END
      FROM (SELECT COALESCE(l.relation, r.relation) AS relation, COALESCE(l.kind, r.kind) AS kind,
                   COALESCE(l.object, r.object) AS object, l.fact AS live, r.fact AS recorded
              FROM (SELECT s.relation, f.kind, f.object, f.fact
                      FROM scopedb_audit.service_tables AS s,
                           scopedb_audit.protection_facts(scopedb_audit.relation_named(s.relation)::pg_catalog.regclass) AS f
                     WHERE scopedb_audit.relation_named(s.relation) IS NOT NULL) AS l
              FULL JOIN (SELECT f.relation, f.kind, f.object, f.fact
                           FROM scopedb_audit.service_table_facts AS f
                          WHERE scopedb_audit.relation_named(f.relation) IS NOT NULL) AS r
                ON l.relation = r.relation AND l.kind = r.kind AND l.object = r.object
             WHERE l.fact IS DISTINCT FROM r.fact) AS d
      JOIN scopedb_audit.service_tables AS st ON st.relation = d.relation
    UNION ALL
    -- W029 a table recorded as protected that no longer exists (dropped, or renamed: a renamed one is judged
    -- again once protected under its new name).
    SELECT 'warning', 'W029', 'table ' || s.relation,
           'recorded as protected by protect_table, but no such table exists (dropped or renamed)',
           pg_catalog.format('SELECT scopedb.unprotect_table(%L);', s.relation)
      FROM scopedb_audit.service_tables AS s
     WHERE scopedb_audit.relation_named(s.relation) IS NULL
    UNION ALL
    -- W030 a table scopedb_app can reach whose row-level security is forced but whose policies are hand-written:
    -- the audit can judge protect_table's policies (E029), not these.
    SELECT 'warning', 'W030', 'table ' || c.oid::regclass::text,
           'scopedb_app can reach it; its row-level security is forced but its policies were not made by '
               || 'protect_table, so the audit cannot judge them',
           pg_catalog.format('SELECT scopedb.protect_table(%L, %L);', c.oid::regclass::text, 'project_id')
      FROM pg_catalog.pg_class AS c
      JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p')
       AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'scopedb', 'scopedb_private', 'scopedb_audit',
                             'scopedb_parts')
       AND n.nspname NOT LIKE 'pg\_%'
       AND c.relrowsecurity AND c.relforcerowsecurity
       AND EXISTS (SELECT FROM scopedb_audit.app_roles AS r  -- scopedb_app, or its login after RESET ROLE
                    WHERE pg_catalog.has_schema_privilege(r.oid, n.oid, 'USAGE')
                      AND (pg_catalog.has_table_privilege(r.oid, c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE')
                           OR pg_catalog.has_any_column_privilege(r.oid, c.oid, 'SELECT, INSERT, UPDATE')))
       AND c.oid NOT IN (SELECT scopedb_audit.relation_named(s.relation) FROM scopedb_audit.service_tables AS s
                          WHERE scopedb_audit.relation_named(s.relation) IS NOT NULL)
    UNION ALL
    -- W028 a foreign server scopedb_app may use connects out under a user mapping, possibly as a role that reads
    -- around row-level security (postgres_fdw or dblink back into this database): what it can see is the mapped
    -- role's business, not scopedb's.
    SELECT 'warning', 'W028', 'foreign server ' || s.srvname,
           'scopedb_app may use it'
               || CASE WHEN EXISTS (SELECT FROM pg_catalog.pg_user_mappings AS um
                                     WHERE um.srvid = s.oid
                                       AND (um.umuser = 0 OR um.umuser IN (SELECT r.oid FROM scopedb_audit.app_roles AS r)))
                       THEN ', and a user mapping applies to it' ELSE '' END,
           'REVOKE USAGE ON FOREIGN SERVER ' || pg_catalog.quote_ident(s.srvname) || ' FROM scopedb_app, PUBLIC;'
      FROM pg_catalog.pg_foreign_server AS s
     WHERE pg_catalog.has_server_privilege('scopedb_app', s.oid, 'USAGE')
    UNION ALL
    -- E026 per-project storage (scopedb_parts), judged by rule rather than by the manifest: its partitions
    -- come and go with projects. Every relation there is a partition of scopedb.fragments or
    -- scopedb_private.fragment_search named for the one project its bound holds, or the DEFAULT partition the
    -- small projects share, named <parent>_shared, which gets no index but the cloned ones; or a partition of
    -- scopedb_private.group_vectors named for the one search group its bound holds (that copy has no shared
    -- partition: rows of groups without a partition are not copied); every partition of those three is
    -- there; each is owned by scopedb_owner, grants nothing to anyone, has row-level security enabled and forced,
    -- no policy (but, on a project's own partition of fragments, the one create_project_storage makes for
    -- scopedb.project_nearest), trigger (but those cloned from its parent) or rule of its own; and its indexes are the ones
    -- cloned from the parent plus, once built, its own HNSW (fragments, a group's copy) or GIN (full text) index.
    -- Which projects a group's copy holds is the group's members, a row the audit does not read. A partition
    -- holding a second project, or an index that is not one of these, would be a structure shared or made
    -- outside scopedb's control. (Partitions of deleted projects, and projects without partitions, are the
    -- maintenance step's business: storage_plan lists them in an admin session. The audit sees no project row.)
    -- (The bound is printed without its table (relid 0: a bound has no columns), so no partition is opened; and
    -- only the table half filters on its problem, so no index definition is printed but the few judged.)
    SELECT 'error', 'E026', p.kind || ' ' || p.name, p.problem, p.fix
      FROM (SELECT t.kind, t.name, t.problem, t.fix FROM (SELECT 'table' AS kind, c.oid::regclass::text AS name,
                   CASE WHEN i.inhparent IS NULL
                            THEN 'in scopedb_parts but not a partition of fragments, fragment_search or group_vectors'
                        WHEN c.relnamespace <> 'scopedb_parts'::regnamespace
                            THEN 'a partition of ' || i.inhparent::regclass::text || ' outside scopedb_parts'
                        WHEN c.relkind <> 'r'  -- a partitioned partition would hold sub-partitions scopedb never judges
                            THEN 'not an ordinary table (relkind ' || c.relkind::text || ')'
                        WHEN c.relname = 'group_vectors_shared'
                         AND (SELECT pc.relname FROM pg_catalog.pg_class AS pc WHERE pc.oid = i.inhparent)
                             = 'group_vectors'
                            THEN 'a partition of the search groups'' copies shared by every group without one'
                        -- Compared as strings: a regular expression built from each partition's name would be
                        -- compiled once per partition (thousands), which dominated the audit's time.
                        -- The small projects' shared partition: <parent>_shared, the DEFAULT partition.
                        WHEN c.relname = (SELECT pc.relname FROM pg_catalog.pg_class AS pc WHERE pc.oid = i.inhparent)
                                         || '_shared'
                         AND pg_catalog.pg_get_expr(c.relpartbound, 0) IS DISTINCT FROM 'DEFAULT'
                            THEN 'its bound (' || COALESCE(pg_catalog.pg_get_expr(c.relpartbound, 0), '-')
                                 || ') is not DEFAULT, which its name says'
                        WHEN c.relname IS DISTINCT FROM
                             (SELECT pc.relname FROM pg_catalog.pg_class AS pc WHERE pc.oid = i.inhparent) || '_shared'
                         AND (pg_catalog.substring(c.relname, '_(\d+)$') IS NULL
                          OR pg_catalog.pg_get_expr(c.relpartbound, 0) IS DISTINCT FROM
                             ('FOR VALUES IN (''' || pg_catalog.substring(c.relname, '_(\d+)$') || ''')')
                          OR c.relname <> (SELECT pc.relname FROM pg_catalog.pg_class AS pc WHERE pc.oid = i.inhparent)
                                          || '_' || pg_catalog.substring(c.relname, '_(\d+)$'))
                            THEN 'its bound (' || COALESCE(pg_catalog.pg_get_expr(c.relpartbound, 0), '-')
                                 || ') is not the one project its name says'
                        WHEN c.relowner <> 'scopedb_owner'::regrole
                            THEN 'owned by ' || pg_catalog.pg_get_userbyid(c.relowner)
                        WHEN EXISTS (SELECT FROM pg_catalog.aclexplode(c.relacl) AS a WHERE a.grantee <> c.relowner)
                            THEN 'grants privileges on it: ' || c.relacl::text
                        WHEN NOT (c.relrowsecurity AND c.relforcerowsecurity)
                            THEN 'row-level security is not enabled and forced'
                        -- A project's own partition of fragments may have one policy, exactly as
                        -- create_project_storage makes it (what scopedb.project_nearest reads by); nothing else.
                        WHEN EXISTS (SELECT FROM pg_catalog.pg_policy AS pol
                                      WHERE pol.polrelid = c.oid
                                        AND NOT ((SELECT pc.relname FROM pg_catalog.pg_class AS pc
                                                   WHERE pc.oid = i.inhparent) = 'fragments'
                                                 AND c.relname <> 'fragments_shared'
                                                 AND pol.polname = 'owner searches the project its entered scope reads whole'
                                                 AND pol.polcmd = 'r' AND pol.polpermissive
                                                 AND pol.polroles = ARRAY['scopedb_owner'::regrole]::oid[]
                                                 AND pol.polwithcheck IS NULL
                                                 AND pg_catalog.pg_get_expr(pol.polqual, pol.polrelid)
                                                     = '((project_id = ANY (( SELECT scopedb.scope_whole_project_ids(true) '
                                                       'AS scope_whole_project_ids)::bigint[])) AND (valid_from <= now()) '
                                                       'AND ((valid_to IS NULL) OR (valid_to > now())))'))
                            THEN 'has a policy of its own'
                        WHEN EXISTS (SELECT FROM pg_catalog.pg_trigger AS t
                                      WHERE t.tgrelid = c.oid AND NOT t.tgisinternal AND t.tgparentid = 0)
                            THEN 'has a trigger of its own'
                        WHEN EXISTS (SELECT FROM pg_catalog.pg_rewrite AS w WHERE w.ev_class = c.oid)
                            THEN 'has a rule'
                   END AS problem,
                   'restore it as scopedb_private.create_project_storage makes it, or drop it and run scopedb storage'
                       AS fix
              FROM pg_catalog.pg_class AS c
              LEFT JOIN pg_catalog.pg_inherits AS i
                ON i.inhrelid = c.oid
               AND i.inhparent IN (SELECT pc.oid FROM pg_catalog.pg_class AS pc  -- no regclass: an owner that lost
                                    WHERE (pc.relnamespace = 'scopedb'::regnamespace AND pc.relname = 'fragments')
                                       OR (pc.relnamespace = 'scopedb_private'::regnamespace  -- USAGE still audits
                                           AND pc.relname IN ('fragment_search', 'group_vectors')))
             WHERE (c.relnamespace = 'scopedb_parts'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S'))
                OR i.inhparent IS NOT NULL) AS t
             WHERE t.problem IS NOT NULL
            UNION ALL
            SELECT 'index', x.indexrelid::regclass::text,
                   'an index scopedb does not make on a project''s partition: '
                       || pg_catalog.pg_get_indexdef(x.indexrelid),
                   'DROP INDEX ' || x.indexrelid::regclass::text || ';'
              FROM pg_catalog.pg_index AS x
              JOIN pg_catalog.pg_class AS ic ON ic.oid = x.indexrelid
              JOIN pg_catalog.pg_class AS c ON c.oid = x.indrelid
             WHERE c.relnamespace = 'scopedb_parts'::regnamespace
               AND NOT EXISTS (SELECT FROM pg_catalog.pg_inherits AS ii WHERE ii.inhrelid = x.indexrelid)
               AND NOT (ic.relname = c.relname || '_embedding_hnsw' AND c.relname ~ '^(fragments|group_vectors)_\d+$'
                        AND pg_catalog.pg_get_indexdef(x.indexrelid)
                            ~ (' USING hnsw \(embedding ("?[a-z_][a-z0-9_]*"?\.)?vector_cosine_ops\)'
                               || '( WITH \(m=''\d+'', ef_construction=''\d+''\))?$'))
               AND NOT (ic.relname = c.relname || '_tsv_gin' AND c.relname ~ '^fragment_search_\d+$'
                        AND pg_catalog.pg_get_indexdef(x.indexrelid) ~ ' USING gin \(tsv\)$')
           ) AS p
    UNION ALL
    -- E016 pgvector >= 0.8.
    SELECT 'error', 'E016', 'extension vector',
           COALESCE('pgvector ' || e.extversion || ' is older than 0.8', 'pgvector is not installed'),
           'install pgvector 0.8 or newer, then ALTER EXTENSION vector UPDATE;'
      FROM (SELECT (SELECT x.extversion FROM pg_catalog.pg_extension AS x WHERE x.extname = 'vector') AS extversion) AS e
     WHERE scopedb_audit.pgvector_too_old(e.extversion);
$$;
COMMENT ON FUNCTION scopedb_audit.check() IS
    'Runs every scopedb lint (see sql/07_audit.sql); reads the catalogs only.';


RESET ROLE;
