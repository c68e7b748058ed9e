-- Revision 0027 down: nearest_fragments and create_project_storage as revision 0026 left them, no
-- project_nearest and no policy on the partitions, E026 as before, and 0026's manifest.

SET ROLE scopedb_owner;

-- pgvector's settings (hnsw.*) in the functions' SET clauses are known only once its library is loaded.
SELECT '[1]'::public.vector;

CREATE OR REPLACE FUNCTION scopedb.nearest_fragments(query vector, k integer, projects bigint[], metric text, exact boolean,
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


CREATE OR REPLACE FUNCTION scopedb_private.create_project_storage(project bigint) RETURNS void
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
        EXECUTE pg_catalog.format(
            'ALTER TABLE scopedb_parts.fragment_search_%s ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY',
            project);
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


DROP FUNCTION scopedb.project_nearest(bigint, vector, integer, integer, integer);

DO $$
DECLARE
    part record;
BEGIN
    FOR part IN
        SELECT pol.polrelid::regclass AS rel FROM pg_catalog.pg_policy AS pol
         WHERE pol.polname = 'owner searches the project its entered scope reads whole'
           AND pol.polrelid IN (SELECT i.inhrelid FROM pg_catalog.pg_inherits AS i
                                 WHERE i.inhparent = 'scopedb.fragments'::regclass)
    LOOP
        EXECUTE pg_catalog.format('DROP POLICY "owner searches the project its entered scope reads whole" ON %s',
                                  part.rel);
    END LOOP;
END
$$;

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
    -- no policy, trigger (but those cloned from its parent) or rule of its own; and its indexes are the ones
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
                        WHEN EXISTS (SELECT FROM pg_catalog.pg_policy AS pol WHERE pol.polrelid = c.oid)
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


-- The full set of pins (sql/04_settings_of_kept_plans.sql) for the new function, and again for the replaced one
-- (CREATE OR REPLACE sets the SET clauses anew).
DO $$
DECLARE
    light constant text[] := ARRAY['jit=off', 'max_parallel_workers_per_gather=0'];
    full_set constant text[] := light || ARRAY[
        'enable_seqscan=on', 'enable_indexscan=on', 'enable_indexonlyscan=on', 'enable_bitmapscan=on',
        'enable_tidscan=on', 'enable_nestloop=on', 'enable_hashjoin=on', 'enable_mergejoin=on', 'enable_sort=on',
        'enable_incremental_sort=on', 'enable_material=on', 'enable_memoize=on', 'enable_hashagg=on',
        'seq_page_cost=1', 'random_page_cost=4', 'cpu_tuple_cost=0.01', 'cpu_index_tuple_cost=0.005',
        'cpu_operator_cost=0.0025', 'effective_cache_size=4GB', 'recursive_worktable_factor=10'];
    f regprocedure;
    setting text;
BEGIN
    FOREACH f IN ARRAY ARRAY['scopedb.nearest_fragments(vector, integer, bigint[], text, boolean, integer, integer)']::regprocedure[] LOOP
        FOREACH setting IN ARRAY full_set LOOP
            EXECUTE pg_catalog.format('ALTER FUNCTION %s SET %I = %L', f, pg_catalog.split_part(setting, '=', 1),
                                      pg_catalog.split_part(setting, '=', 2));
        END LOOP;
    END LOOP;
END
$$;

RESET ROLE;

-- scopedb: the manifest of what scopedb installs, generated by `make manifest` from a database migrated to
-- head; do not edit. scopedb_audit.findings compares the live catalog with these facts (lint E020), and
-- `scopedb audit` compares the manifest in the database with this file's digest (E025, scopedb/manifest.py).
-- digest: 7c3134b677441121007fb7610c49ec9d
SET ROLE scopedb_owner;

TRUNCATE scopedb_audit.manifest;
INSERT INTO scopedb_audit.manifest (kind, object, fact) VALUES
    ('constraint', 'scopedb.fragments fragments_fqn_check', 'CHECK ((strpos(fqn, chr(31)) = 0))'),
    ('constraint', 'scopedb.fragments fragments_id_check', 'CHECK (((id <> ''''::text) AND (length(id) <= 200)))'),
    ('constraint', 'scopedb.fragments fragments_path_check', 'CHECK ((strpos(path, chr(31)) = 0))'),
    ('constraint', 'scopedb.fragments fragments_pkey', 'PRIMARY KEY (project_id, id)'),
    ('constraint', 'scopedb.fragments fragments_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb.fragments fragments_resource_fkey', 'FOREIGN KEY (project_id, resource_id) REFERENCES scopedb.resources(project_id, id)'),
    ('constraint', 'scopedb.fragments fragments_tier_check', 'CHECK ((tier = ANY (ARRAY[''hot''::text, ''warm''::text, ''cold''::text])))'),
    ('constraint', 'scopedb.fragments fragments_token_count_check', 'CHECK ((token_count >= 0))'),
    ('constraint', 'scopedb.fragments fragments_validity_check', 'CHECK (((valid_to IS NULL) OR (valid_to > valid_from)))'),
    ('constraint', 'scopedb.graph_edges graph_edges_dst_fkey', 'FOREIGN KEY (project_id, dst, dst_resource, dst_path, dst_fqn) REFERENCES scopedb.graph_nodes(project_id, id, resource_key, path_key, fqn_key) ON UPDATE CASCADE'),
    ('constraint', 'scopedb.graph_edges graph_edges_pkey', 'PRIMARY KEY (project_id, src, relation, dst)'),
    ('constraint', 'scopedb.graph_edges graph_edges_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb.graph_edges graph_edges_relation_check', 'CHECK (((relation <> ''''::text) AND (length(relation) <= 100)))'),
    ('constraint', 'scopedb.graph_edges graph_edges_src_fkey', 'FOREIGN KEY (project_id, src, src_resource, src_path, src_fqn) REFERENCES scopedb.graph_nodes(project_id, id, resource_key, path_key, fqn_key) ON UPDATE CASCADE'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_fqn_check', 'CHECK ((strpos(fqn, chr(31)) = 0))'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_id_check', 'CHECK (((id <> ''''::text) AND (length(id) <= 200)))'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_kind_check', 'CHECK (((kind <> ''''::text) AND (length(kind) <= 100)))'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_path_check', 'CHECK ((strpos(path, chr(31)) = 0))'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_pkey', 'PRIMARY KEY (project_id, id)'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_resource_fkey', 'FOREIGN KEY (project_id, resource_id) REFERENCES scopedb.resources(project_id, id)'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_scope_key', 'UNIQUE (project_id, id, resource_key, path_key, fqn_key)'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_scope_length_check', 'CHECK (((octet_length(path_key) + octet_length(fqn_key)) <= 1500))'),
    ('constraint', 'scopedb.note_tombstones note_tombstones_note_fkey', 'FOREIGN KEY (project_id, note_id) REFERENCES scopedb.notes(project_id, id) ON DELETE CASCADE'),
    ('constraint', 'scopedb.note_tombstones note_tombstones_pkey', 'PRIMARY KEY (project_id, note_id)'),
    ('constraint', 'scopedb.notes notes_content_check', 'CHECK ((octet_length(content) <= 16384))'),
    ('constraint', 'scopedb.notes notes_id_check', 'CHECK ((id ~ ''^mem-[0-9a-f]{32}$''::text))'),
    ('constraint', 'scopedb.notes notes_pkey', 'PRIMARY KEY (project_id, id)'),
    ('constraint', 'scopedb.notes notes_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb.notes notes_retention_check', 'CHECK (((retention_days >= 1) AND (retention_days <= 10000)))'),
    ('constraint', 'scopedb.notes notes_sensitivity_check', 'CHECK ((sensitivity = ANY (ARRAY[''normal''::text, ''sensitive''::text, ''secret''::text])))'),
    ('constraint', 'scopedb.notes notes_source_check', 'CHECK (((provenance_source <> ''''::text) AND (length(provenance_source) <= 100)))'),
    ('constraint', 'scopedb.notes notes_tags_check', 'CHECK (((cardinality(tags) <= 64) AND (''''::text <> ALL (tags))))'),
    ('constraint', 'scopedb.projects projects_name_check', 'CHECK (((name <> ''''::text) AND (length(name) <= 200) AND (name !~ ''[[:cntrl:]]''::text)))'),
    ('constraint', 'scopedb.projects projects_name_key', 'UNIQUE (name)'),
    ('constraint', 'scopedb.projects projects_pkey', 'PRIMARY KEY (id)'),
    ('constraint', 'scopedb.resource_links resource_links_child_fkey', 'FOREIGN KEY (project_id, child_id) REFERENCES scopedb.resources(project_id, id)'),
    ('constraint', 'scopedb.resource_links resource_links_not_self', 'CHECK ((parent_id <> child_id))'),
    ('constraint', 'scopedb.resource_links resource_links_parent_fkey', 'FOREIGN KEY (project_id, parent_id) REFERENCES scopedb.resources(project_id, id)'),
    ('constraint', 'scopedb.resource_links resource_links_pkey', 'PRIMARY KEY (project_id, parent_id, child_id)'),
    ('constraint', 'scopedb.resource_links resource_links_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb.resources resources_alias_check', 'CHECK (((alias <> ''''::text) AND (length(alias) <= 200)))'),
    ('constraint', 'scopedb.resources resources_alias_key', 'UNIQUE (project_id, alias)'),
    ('constraint', 'scopedb.resources resources_id_check', 'CHECK ((id ~ ''^[0-9A-HJKMNP-TV-Z]{26}$''::text))'),
    ('constraint', 'scopedb.resources resources_pkey', 'PRIMARY KEY (project_id, id)'),
    ('constraint', 'scopedb.resources resources_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb_audit.manifest manifest_pkey', 'PRIMARY KEY (kind, object)'),
    ('constraint', 'scopedb_audit.service_table_facts service_table_facts_pkey', 'PRIMARY KEY (relation, kind, object)'),
    ('constraint', 'scopedb_audit.service_table_facts service_table_facts_relation_fkey', 'FOREIGN KEY (relation) REFERENCES scopedb_audit.service_tables(relation) ON DELETE CASCADE'),
    ('constraint', 'scopedb_audit.service_tables service_tables_pkey', 'PRIMARY KEY (relation)'),
    ('constraint', 'scopedb_private.fragment_originals fragment_originals_pkey', 'PRIMARY KEY (project_id, id)'),
    ('constraint', 'scopedb_private.fragment_search fragment_search_pkey', 'PRIMARY KEY (project_id, id)'),
    ('constraint', 'scopedb_private.group_vectors group_vectors_pkey', 'PRIMARY KEY (project_id, id, group_id)'),
    ('constraint', 'scopedb_private.project_locks project_locks_pkey', 'PRIMARY KEY (project_id, purpose)'),
    ('constraint', 'scopedb_private.project_locks project_locks_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb_private.project_locks project_locks_purpose_check', 'CHECK ((purpose = ANY (ARRAY[''tiers''::text, ''resource_links''::text])))'),
    ('constraint', 'scopedb_private.project_names_epoch project_names_epoch_one_check', 'CHECK (one)'),
    ('constraint', 'scopedb_private.project_names_epoch project_names_epoch_pkey', 'PRIMARY KEY (one)'),
    ('constraint', 'scopedb_private.search_group_members search_group_members_group_id_fkey', 'FOREIGN KEY (group_id) REFERENCES scopedb_private.search_groups(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb_private.search_group_members search_group_members_pkey', 'PRIMARY KEY (project_id, group_id)'),
    ('constraint', 'scopedb_private.search_group_members search_group_members_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb_private.search_groups search_groups_name_check', 'CHECK (((name <> ''''::text) AND (length(name) <= 200) AND (name !~ ''[[:cntrl:]]''::text)))'),
    ('constraint', 'scopedb_private.search_groups search_groups_name_key', 'UNIQUE (name)'),
    ('constraint', 'scopedb_private.search_groups search_groups_pkey', 'PRIMARY KEY (id)'),
    ('constraint', 'scopedb_private.search_groups search_groups_state_check', 'CHECK ((state = ANY (ARRAY[''declared''::text, ''filled''::text, ''ready''::text])))'),
    ('constraint', 'scopedb_private.signing_keys signing_keys_key_id_check', 'CHECK ((key_id ~ ''^[A-Za-z0-9_-]{1,64}$''::text))'),
    ('constraint', 'scopedb_private.signing_keys signing_keys_pads_check', 'CHECK (((length(inner_pad) = 64) AND (length(outer_pad) = 64)))'),
    ('constraint', 'scopedb_private.signing_keys signing_keys_pkey', 'PRIMARY KEY (key_id)'),
    ('constraint', 'scopedb_private.signing_keys signing_keys_secret_check', 'CHECK (((length(secret) >= 32) AND (length(secret) <= 64)))'),
    ('default_acl', 'scopedb_owner - f to scopedb_owner', 'EXECUTE'),
    ('function', 'scopedb.clean_session()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=record body=da40dc7bef4063690b2f955174241e56'),
    ('function', 'scopedb.delete_fragments(bigint,text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=plan_cache_mode=force_custom_plan,search_path=pg_catalog, pg_temp returns=integer body=7ac6ae14a4a1426fb8292c00581482e4'),
    ('function', 'scopedb.delete_graph_edges(bigint,text[],text[],text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=integer body=1988f10782a12b853829d5a66b154d51'),
    ('function', 'scopedb.delete_graph_nodes(bigint,text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=integer body=8ef43d5edaf4254efe5684ff125ae1be'),
    ('function', 'scopedb.delete_resource_links(bigint,text[],text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=integer body=ac6d03b975fad032fcbb9803be498b7b'),
    ('function', 'scopedb.delete_resources(bigint,text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=plan_cache_mode=force_custom_plan,search_path=pg_catalog, pg_temp returns=integer body=3eacb86ac6cd47c2e8920281665a970b'),
    ('function', 'scopedb.enter_scope(text)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=jsonb body=e4506b3ed3b7ae8b0eee357c6cf57221'),
    ('function', 'scopedb.fetch_notes(text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=TABLE(project_id bigint, id text, created_at timestamp with time zone, tags text[], sensitivity text, retention_days integer, provenance_source text, provenance_session text, content text) body=7891a21edb469f09c18a86c628c2fed4'),
    ('function', 'scopedb.forget_note(text,text)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=void body=51df128d48d15b98e44fef84fbfa8cde'),
    ('function', 'scopedb.graph_shortest_path(bigint[],text,text,integer,text[])', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,plan_cache_mode=force_generic_plan,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=TABLE(project_id bigint, path text[]) body=15dc29551627a346907b72f62eda37fa'),
    ('function', 'scopedb.graph_walk(bigint[],text[],integer,text[])', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,plan_cache_mode=force_generic_plan,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=TABLE(project_id bigint, node text, src text, relation text, kind text, resource_id text, label text) body=f3afd1a81abba3e3d3b3881dcb3350de'),
    ('function', 'scopedb.group_nearest(bigint[],public.vector,integer,integer,integer)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=constraint_exclusion=off,cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_partition_pruning=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,hnsw.ef_search=20,hnsw.iterative_scan=strict_order,hnsw.max_scan_tuples=20000,jit=off,max_parallel_workers_per_gather=0,plan_cache_mode=force_generic_plan,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, public, pg_temp,seq_page_cost=1 returns=TABLE(project_id bigint, id text, resource_id text, path text, fqn text, content text, distance double precision) body=e102fa0ebbe2673d402b1c0ba0dc087d'),
    ('function', 'scopedb.lock_project_tiers(bigint)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=void body=4c3a6d398db61de0a69c1f67fc71ded0'),
    ('function', 'scopedb.nearest_fragments(public.vector,integer,bigint[],text,boolean,integer,integer)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=constraint_exclusion=off,cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_partition_pruning=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,hnsw.ef_search=20,hnsw.iterative_scan=strict_order,hnsw.max_scan_tuples=20000,jit=off,max_parallel_workers_per_gather=0,plan_cache_mode=auto,random_page_cost=4,recursive_worktable_factor=10,seq_page_cost=1 returns=TABLE(project_id bigint, id text, resource_id text, path text, fqn text, content text, distance double precision, used_index boolean) body=397eea457f61c34ccbd007378b97182d'),
    ('function', 'scopedb.patterns_admit(text,text[],text[])', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=3d40b36009cdce005b127166ed5d4338'),
    ('function', 'scopedb.prepare_session()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=boolean body=589dffedd53405fa67f70699f81ebdad'),
    ('function', 'scopedb.protect_table(text,name,name,name,name,boolean)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=regclass body=6755f5d9c67328169e19bd0b033bbb6f'),
    ('function', 'scopedb.reenter_scope(text)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=bigint[] body=da125b278d6685d798b5867d5dc7ce41'),
    ('function', 'scopedb.resolve_scope(text)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=text body=567840a0e3e9847f81c20e179fa36c4b'),
    ('function', 'scopedb.role_hazards(name)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=5f2432724b312d429f081c8daa276072'),
    ('function', 'scopedb.scope_as_of()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=timestamp with time zone body=c5279a5c1208c220d8ee073a608f91fe'),
    ('function', 'scopedb.scope_entered()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=- returns=boolean body=88213d58f7efcd15d2ce1be911fc3a94'),
    ('function', 'scopedb.scope_filters_content()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=boolean body=c55e0e35e774dd3ad2238afb95dd45a8'),
    ('function', 'scopedb.scope_name_exclude()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=585296659e572a707fa24b43794ca937'),
    ('function', 'scopedb.scope_name_include()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=e8279785cf643f33fc0f899aecbbadb9'),
    ('function', 'scopedb.scope_path_exclude()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=e9bc8e50f5232d63573e0aed4003bf11'),
    ('function', 'scopedb.scope_path_include()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=832a184ba993d82af4b2d5c5d9ae94a4'),
    ('function', 'scopedb.scope_project_id()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=bigint body=3bb3909eb127f41a69f1f24336398cf4'),
    ('function', 'scopedb.scope_project_ids()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=bigint[] body=c33c0f4d6511b3f537a1e11251d4dffb'),
    ('function', 'scopedb.scope_project_names()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=be225829bf7762d49db69bad63935d32'),
    ('function', 'scopedb.scope_resource_filter()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=63249da23260ba5c76b022da5267e82c'),
    ('function', 'scopedb.scope_terms()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=scopedb.scope_terms body=bf2f302d76119ee8142bf06f493d9949'),
    ('function', 'scopedb.scope_whole_project_ids(boolean)', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=bigint[] body=3f6b5f675965533340506444b99d5a04'),
    ('function', 'scopedb.search_notes(text,text,integer,integer)', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=TABLE(project_id bigint, id text, created_at timestamp with time zone, tags text[], content_bytes integer, sensitivity text, retention_days integer, provenance_source text, snippet text, truncated boolean) body=a841d5376b95dbe6decb5cbebd455149'),
    ('function', 'scopedb.text_candidates(tsquery,integer)', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=constraint_exclusion=off,cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_partition_pruning=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,gin_fuzzy_search_limit=0,jit=off,max_parallel_workers_per_gather=0,plan_cache_mode=auto,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=TABLE(project_id bigint, id text, rank real, resource_id text, path text, fqn text, content text) body=7edb2db9b9ccab0bc254f68fb4c86f3c'),
    ('function', 'scopedb.unprotect_table(text)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=328b49b911002608bd6f947e2e1c08ba'),
    ('function', 'scopedb_audit."check"()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(severity text, code text, object text, message text, fix text) body=a2b5f4d8f7171a72428197f4f83f45d6'),
    ('function', 'scopedb_audit.installed_facts()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(kind text, object text, fact text) body=1935f46f28e86ef703d623422964e84d'),
    ('function', 'scopedb_audit.manifest_digest()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=text body=f493dfd5bffba1b5741e28dd2112cf3b'),
    ('function', 'scopedb_audit.option_is_on(text[],text)', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=39011ede7f42a997d043adde3a97b69b'),
    ('function', 'scopedb_audit.pgvector_too_old(text)', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=296a03a7878198d01a77db4bfc679a15'),
    ('function', 'scopedb_audit.protection_facts(regclass)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(kind text, object text, fact text) body=664d3336dcbeef87535a94f7aab1317a'),
    ('function', 'scopedb_audit.relation_named(text)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=oid body=eddd97e4a8aa4968e9fc2600e30d9cf0'),
    ('function', 'scopedb_audit.removal(text,text,text)', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=text body=0118eacfe92058b4bdfe1457a77d73e5'),
    ('function', 'scopedb_audit.signing_key_ages()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(key_id text, created_at timestamp with time zone, retired_at timestamp with time zone, rotation_period interval, readable boolean) body=8af89bec808f18d5f989e0053c3508cf'),
    ('function', 'scopedb_private.anchored(text[])', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=text[] body=73b38dedac54b588605fd0b9b647fd9d'),
    ('function', 'scopedb_private.check_token(text)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=- returns=record body=67df6f1e60df848f2c06699c3c86ed22'),
    ('function', 'scopedb_private.copy_edge_ends()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,plan_cache_mode=force_generic_plan,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=trigger body=a2dc7dcd961114e2d9a073ad0923ad10'),
    ('function', 'scopedb_private.create_project_storage(bigint)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=43864e05085970f7ca0b6703c0f51776'),
    ('function', 'scopedb_private.derive_hmac_pads()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=trigger body=9ff8f62bab6182d9ea7b9f64acdf0e1f'),
    ('function', 'scopedb_private.drop_protection_policies(regclass)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=ddf4d0cb37c22fbaaabc2fd92b122a32'),
    ('function', 'scopedb_private.fill_search_group(bigint)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=792dbffcb20109a8b87f53cd6774f944'),
    ('function', 'scopedb_private.forget_fragment_copies()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=trigger body=53be5599b41a6ed3a9c0da66df78569e'),
    ('function', 'scopedb_private.is_admin_session()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=f7a079e142c094631a1bfe49da63f7ef'),
    ('function', 'scopedb_private.keep_original_content()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=trigger body=e71e2afe5735903f5c326eb5e48b8b1b'),
    ('function', 'scopedb_private.lock_project(bigint,text)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=3069ade1d80566357d55e373fdccd599'),
    ('function', 'scopedb_private.make_memo()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=- returns=boolean body=a1218249e420be55e9ecd81d4fb6183f'),
    ('function', 'scopedb_private.move_project_names_epoch()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=trigger body=a96a7ac7cf8be3ab45d6b2c87bf17ed8'),
    ('function', 'scopedb_private.note_is_live(scopedb.notes)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=boolean body=19740b93ce5239c908384cb0b872cb2a'),
    ('function', 'scopedb_private.owned_sequences(regclass)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=SETOF regclass body=a6903186e06457b4fc22481b3ba0ec51'),
    ('function', 'scopedb_private.pin_settings()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=f21f479adbc5f6be642232436790af55'),
    ('function', 'scopedb_private.project_columns(regclass,smallint)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(relid oid, attnum smallint) body=74ec8516c76816c9ccb61ba3a30ece8b'),
    ('function', 'scopedb_private.protection_policy_names(regclass)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=text[] body=cf4d7a32a6d232e8dc02f7195a7f7dae'),
    ('function', 'scopedb_private.redeclare_search_group()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=trigger body=6f23d5deb6ec8b38e1801975c1440c83'),
    ('function', 'scopedb_private.refuse_fragment_key_change()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=trigger body=a8bd87c18b1882e911959b015bf7b6f1'),
    ('function', 'scopedb_private.refuse_resource_cycle()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=trigger body=4d80ad7d91b2dfed4a1e2773a0af566b'),
    ('function', 'scopedb_private.remember_scope(text,scopedb_private.scope_claims,bigint)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=- returns=void body=5972e6ed0c1da74fb3e303c1ca90f02b'),
    ('function', 'scopedb_private.resolve_token(text)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=- returns=record body=da670109ffec24cfd7a4d8b668166062'),
    ('function', 'scopedb_private.retire_signing_key(text,timestamp with time zone)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=b8fac10a96f2f6ea782ca2e01bbad2d7'),
    ('function', 'scopedb_private.rotate_signing_key(interval)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=text body=9f7114b8dac2512691936732ab27fc19'),
    ('function', 'scopedb_private.search_group_ready(bigint)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=9f5f389b398a5a9b872211dc16681459'),
    ('function', 'scopedb_private.sign_claims(jsonb)', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=plan_cache_mode=force_generic_plan,search_path=pg_catalog, pg_temp returns=text body=d044600ac5a36cca6febbd1046bd099f'),
    ('function', 'scopedb_private.storage_plan(integer,boolean,bigint[])', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=plan_cache_mode=force_custom_plan,search_path=pg_catalog, pg_temp returns=TABLE(project_id bigint, action text, statement text, row_count bigint) body=ce4395f4befa2fad18fed036db14bd11'),
    ('function', 'scopedb_private.sweep_notes()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=record body=778aac8c64fb4882071989cf29c693b2'),
    ('function', 'scopedb_private.sync_fragment_search()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=trigger body=c959675ca9dc0d1bb66e5710074dd0be'),
    ('function', 'scopedb_private.sync_group_vectors()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=trigger body=cb72ba4043e87a7202136cfa701a15b3'),
    ('function', 'scopedb_private.terms_of(scopedb_private.scope_claims)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=- returns=scopedb.scope_terms body=af7da02d76c678bbf0398ffb13eca5c6'),
    ('function', 'scopedb_private.verified_claims()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=- returns=scopedb_private.scope_claims body=3f41bb0075a317e42fb5192745900e7e'),
    ('grant', 'column scopedb.fragments.content to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.created_by to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.embedding to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.fqn to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.last_accessed_at to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.path to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.resource_id to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.tier to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.token_count to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.valid_from to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.valid_to to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.graph_edges.weight to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.graph_nodes.fqn to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.graph_nodes.kind to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.graph_nodes.label to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.graph_nodes.path to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.graph_nodes.properties to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.graph_nodes.resource_id to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.notes.content to scopedb_app', 'INSERT'),
    ('grant', 'column scopedb.notes.created_at to scopedb_app', 'SELECT'),
    ('grant', 'column scopedb.notes.forgotten_at to scopedb_app', 'SELECT'),
    ('grant', 'column scopedb.notes.id to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'column scopedb.notes.project_id to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'column scopedb.notes.provenance_session to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'column scopedb.notes.provenance_source to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'column scopedb.notes.retention_days to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'column scopedb.notes.sensitivity to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'column scopedb.notes.tags to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'column scopedb.resources.alias to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.resources.kind to scopedb_app', 'UPDATE'),
    ('grant', 'function scopedb.clean_session() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.delete_fragments(bigint,text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.delete_graph_edges(bigint,text[],text[],text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.delete_graph_nodes(bigint,text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.delete_resource_links(bigint,text[],text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.delete_resources(bigint,text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.enter_scope(text) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.fetch_notes(text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.forget_note(text,text) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.graph_shortest_path(bigint[],text,text,integer,text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.graph_walk(bigint[],text[],integer,text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.group_nearest(bigint[],public.vector,integer,integer,in to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.lock_project_tiers(bigint) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.nearest_fragments(public.vector,integer,bigint[],text,b to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.patterns_admit(text,text[],text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.patterns_admit(text,text[],text[]) to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb.prepare_session() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.reenter_scope(text) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.resolve_scope(text) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.role_hazards(name) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.role_hazards(name) to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb.scope_as_of() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_entered() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_filters_content() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_name_exclude() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_name_include() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_path_exclude() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_path_include() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_project_id() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_project_ids() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_project_names() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_resource_filter() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_terms() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_whole_project_ids(boolean) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.search_notes(text,text,integer,integer) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.text_candidates(tsquery,integer) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb_audit."check"() to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.installed_facts() to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.manifest_digest() to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.option_is_on(text[],text) to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.pgvector_too_old(text) to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.protection_facts(regclass) to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.relation_named(text) to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.removal(text,text,text) to scopedb_auditor', 'EXECUTE'),
    ('grant', 'schema scopedb to scopedb_app', 'USAGE'),
    ('grant', 'schema scopedb to scopedb_auditor', 'USAGE'),
    ('grant', 'schema scopedb_audit to scopedb_auditor', 'USAGE'),
    ('grant', 'table scopedb.fragments to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'table scopedb.graph_edges to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'table scopedb.graph_nodes to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'table scopedb.projects to scopedb_app', 'SELECT'),
    ('grant', 'table scopedb.resource_links to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'table scopedb.resources to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'table scopedb_audit.app_roles to scopedb_auditor', 'SELECT'),
    ('grant', 'table scopedb_audit.data_tables to scopedb_auditor', 'SELECT'),
    ('grant', 'table scopedb_audit.derived_relations to scopedb_auditor', 'SELECT'),
    ('grant', 'table scopedb_audit.findings to scopedb_auditor', 'SELECT'),
    ('grant', 'table scopedb_audit.manifest to scopedb_auditor', 'SELECT'),
    ('grant', 'table scopedb_audit.protected_tables to scopedb_auditor', 'SELECT'),
    ('grant', 'table scopedb_audit.service_table_facts to scopedb_auditor', 'SELECT'),
    ('grant', 'table scopedb_audit.service_tables to scopedb_auditor', 'SELECT'),
    ('grant', 'type scopedb.scope_terms to public', 'USAGE'),
    ('grant', 'type scopedb_private.scope_claims to public', 'USAGE'),
    ('index', 'scopedb.fragments_pkey', 'CREATE UNIQUE INDEX fragments_pkey ON ONLY scopedb.fragments USING btree (project_id, id)'),
    ('index', 'scopedb.fragments_resource_idx', 'CREATE INDEX fragments_resource_idx ON ONLY scopedb.fragments USING btree (project_id, resource_id)'),
    ('index', 'scopedb.fragments_tier_lru_idx', 'CREATE INDEX fragments_tier_lru_idx ON ONLY scopedb.fragments USING btree (project_id, tier, last_accessed_at)'),
    ('index', 'scopedb.graph_edges_dst_idx', 'CREATE INDEX graph_edges_dst_idx ON scopedb.graph_edges USING btree (project_id, dst)'),
    ('index', 'scopedb.graph_edges_pkey', 'CREATE UNIQUE INDEX graph_edges_pkey ON scopedb.graph_edges USING btree (project_id, src, relation, dst)'),
    ('index', 'scopedb.graph_nodes_kind_idx', 'CREATE INDEX graph_nodes_kind_idx ON scopedb.graph_nodes USING btree (project_id, kind)'),
    ('index', 'scopedb.graph_nodes_pkey', 'CREATE UNIQUE INDEX graph_nodes_pkey ON scopedb.graph_nodes USING btree (project_id, id)'),
    ('index', 'scopedb.graph_nodes_resource_idx', 'CREATE INDEX graph_nodes_resource_idx ON scopedb.graph_nodes USING btree (project_id, resource_id)'),
    ('index', 'scopedb.graph_nodes_scope_key', 'CREATE UNIQUE INDEX graph_nodes_scope_key ON scopedb.graph_nodes USING btree (project_id, id, resource_key, path_key, fqn_key)'),
    ('index', 'scopedb.note_tombstones_pkey', 'CREATE UNIQUE INDEX note_tombstones_pkey ON scopedb.note_tombstones USING btree (project_id, note_id)'),
    ('index', 'scopedb.notes_created_idx', 'CREATE INDEX notes_created_idx ON scopedb.notes USING btree (project_id, created_at DESC)'),
    ('index', 'scopedb.notes_pkey', 'CREATE UNIQUE INDEX notes_pkey ON scopedb.notes USING btree (project_id, id)'),
    ('index', 'scopedb.projects_name_key', 'CREATE UNIQUE INDEX projects_name_key ON scopedb.projects USING btree (name)'),
    ('index', 'scopedb.projects_pkey', 'CREATE UNIQUE INDEX projects_pkey ON scopedb.projects USING btree (id)'),
    ('index', 'scopedb.resource_links_child_idx', 'CREATE INDEX resource_links_child_idx ON scopedb.resource_links USING btree (project_id, child_id)'),
    ('index', 'scopedb.resource_links_pkey', 'CREATE UNIQUE INDEX resource_links_pkey ON scopedb.resource_links USING btree (project_id, parent_id, child_id)'),
    ('index', 'scopedb.resources_alias_key', 'CREATE UNIQUE INDEX resources_alias_key ON scopedb.resources USING btree (project_id, alias)'),
    ('index', 'scopedb.resources_id_idx', 'CREATE INDEX resources_id_idx ON scopedb.resources USING btree (id)'),
    ('index', 'scopedb.resources_pkey', 'CREATE UNIQUE INDEX resources_pkey ON scopedb.resources USING btree (project_id, id)'),
    ('index', 'scopedb_audit.manifest_pkey', 'CREATE UNIQUE INDEX manifest_pkey ON scopedb_audit.manifest USING btree (kind, object)'),
    ('index', 'scopedb_audit.service_table_facts_pkey', 'CREATE UNIQUE INDEX service_table_facts_pkey ON scopedb_audit.service_table_facts USING btree (relation, kind, object)'),
    ('index', 'scopedb_audit.service_tables_pkey', 'CREATE UNIQUE INDEX service_tables_pkey ON scopedb_audit.service_tables USING btree (relation)'),
    ('index', 'scopedb_private.fragment_originals_pkey', 'CREATE UNIQUE INDEX fragment_originals_pkey ON scopedb_private.fragment_originals USING btree (project_id, id)'),
    ('index', 'scopedb_private.fragment_search_pkey', 'CREATE UNIQUE INDEX fragment_search_pkey ON ONLY scopedb_private.fragment_search USING btree (project_id, id)'),
    ('index', 'scopedb_private.group_vectors_pkey', 'CREATE UNIQUE INDEX group_vectors_pkey ON ONLY scopedb_private.group_vectors USING btree (project_id, id, group_id)'),
    ('index', 'scopedb_private.project_locks_pkey', 'CREATE UNIQUE INDEX project_locks_pkey ON scopedb_private.project_locks USING btree (project_id, purpose)'),
    ('index', 'scopedb_private.project_names_epoch_pkey', 'CREATE UNIQUE INDEX project_names_epoch_pkey ON scopedb_private.project_names_epoch USING btree (one)'),
    ('index', 'scopedb_private.search_group_members_group_idx', 'CREATE INDEX search_group_members_group_idx ON scopedb_private.search_group_members USING btree (group_id)'),
    ('index', 'scopedb_private.search_group_members_pkey', 'CREATE UNIQUE INDEX search_group_members_pkey ON scopedb_private.search_group_members USING btree (project_id, group_id)'),
    ('index', 'scopedb_private.search_groups_name_key', 'CREATE UNIQUE INDEX search_groups_name_key ON scopedb_private.search_groups USING btree (name)'),
    ('index', 'scopedb_private.search_groups_pkey', 'CREATE UNIQUE INDEX search_groups_pkey ON scopedb_private.search_groups USING btree (id)'),
    ('index', 'scopedb_private.signing_keys_pkey', 'CREATE UNIQUE INDEX signing_keys_pkey ON scopedb_private.signing_keys USING btree (key_id)'),
    ('policy', 'scopedb.fragments "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.fragments "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.fragments "owner deletes the fragments of the entered scope"', 'cmd=d permissive to=scopedb_owner using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(true) AS scope_whole_project_ids)::bigint[])) THEN ((valid_from <= now()) AND ((valid_to IS NULL) OR (valid_to > now())))
    ELSE ( SELECT ((fragments.project_id = ANY ((s.t).project_ids)) AND (((fragments.valid_from <= (s.t).as_of) AND ((fragments.valid_to IS NULL) OR (fragments.valid_to > (s.t).as_of))) IS NOT FALSE) AND ((COALESCE(fragments.resource_id, ''''::text) = ANY ((s.t).resource_filter)) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((COALESCE(fragments.path, ''''::text) ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((COALESCE(fragments.path, ''''::text) ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((COALESCE(fragments.fqn, ''''::text) ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((COALESCE(fragments.fqn, ''''::text) ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.fragments "owner searches the fragments of the entered scope"', 'cmd=r permissive to=scopedb_owner using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(true) AS scope_whole_project_ids)::bigint[])) THEN ((valid_from <= now()) AND ((valid_to IS NULL) OR (valid_to > now())))
    ELSE ( SELECT ((fragments.project_id = ANY ((s.t).project_ids)) AND (((fragments.valid_from <= (s.t).as_of) AND ((fragments.valid_to IS NULL) OR (fragments.valid_to > (s.t).as_of))) IS NOT FALSE) AND ((COALESCE(fragments.resource_id, ''''::text) = ANY ((s.t).resource_filter)) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((COALESCE(fragments.path, ''''::text) ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((COALESCE(fragments.path, ''''::text) ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((COALESCE(fragments.fqn, ''''::text) ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((COALESCE(fragments.fqn, ''''::text) ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.fragments "scope limits which fragments the app changes"', 'cmd=w restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(true) AS scope_whole_project_ids)::bigint[])) THEN ((valid_from <= now()) AND ((valid_to IS NULL) OR (valid_to > now())))
    ELSE ( SELECT ((fragments.project_id = ANY ((s.t).project_ids)) AND (((fragments.valid_from <= (s.t).as_of) AND ((fragments.valid_to IS NULL) OR (fragments.valid_to > (s.t).as_of))) IS NOT FALSE) AND ((COALESCE(fragments.resource_id, ''''::text) = ANY ((s.t).resource_filter)) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((COALESCE(fragments.path, ''''::text) ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((COALESCE(fragments.path, ''''::text) ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((COALESCE(fragments.fqn, ''''::text) ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((COALESCE(fragments.fqn, ''''::text) ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((fragments.project_id = ANY ((s.t).project_ids)) AND ((COALESCE(fragments.resource_id, ''''::text) = ANY ((s.t).resource_filter)) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((COALESCE(fragments.path, ''''::text) ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((COALESCE(fragments.path, ''''::text) ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((COALESCE(fragments.fqn, ''''::text) ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((COALESCE(fragments.fqn, ''''::text) ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END'),
    ('policy', 'scopedb.fragments "scope limits which fragments the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((fragments.project_id = ANY ((s.t).project_ids)) AND ((COALESCE(fragments.resource_id, ''''::text) = ANY ((s.t).resource_filter)) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((COALESCE(fragments.path, ''''::text) ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((COALESCE(fragments.path, ''''::text) ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((COALESCE(fragments.fqn, ''''::text) ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((COALESCE(fragments.fqn, ''''::text) ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END'),
    ('policy', 'scopedb.fragments "scope limits which fragments the app deletes"', 'cmd=d restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(true) AS scope_whole_project_ids)::bigint[])) THEN ((valid_from <= now()) AND ((valid_to IS NULL) OR (valid_to > now())))
    ELSE ( SELECT ((fragments.project_id = ANY ((s.t).project_ids)) AND (((fragments.valid_from <= (s.t).as_of) AND ((fragments.valid_to IS NULL) OR (fragments.valid_to > (s.t).as_of))) IS NOT FALSE) AND ((COALESCE(fragments.resource_id, ''''::text) = ANY ((s.t).resource_filter)) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((COALESCE(fragments.path, ''''::text) ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((COALESCE(fragments.path, ''''::text) ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((COALESCE(fragments.fqn, ''''::text) ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((COALESCE(fragments.fqn, ''''::text) ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.fragments "scope limits which fragments the app reads"', 'cmd=r restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(true) AS scope_whole_project_ids)::bigint[])) THEN ((valid_from <= now()) AND ((valid_to IS NULL) OR (valid_to > now())))
    ELSE ( SELECT ((fragments.project_id = ANY ((s.t).project_ids)) AND (((fragments.valid_from <= (s.t).as_of) AND ((fragments.valid_to IS NULL) OR (fragments.valid_to > (s.t).as_of))) IS NOT FALSE) AND ((COALESCE(fragments.resource_id, ''''::text) = ANY ((s.t).resource_filter)) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((COALESCE(fragments.path, ''''::text) ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((COALESCE(fragments.path, ''''::text) ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((COALESCE(fragments.fqn, ''''::text) ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((COALESCE(fragments.fqn, ''''::text) ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.graph_edges "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.graph_edges "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.graph_edges "owner deletes the graph edges of the entered scope"', 'cmd=d permissive to=scopedb_owner using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_edges.project_id = ANY ((s.t).project_ids)) AND ((ARRAY[graph_edges.src_resource, graph_edges.dst_resource] <@ (s.t).resource_filter) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((graph_edges.src_path ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((graph_edges.dst_path ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((graph_edges.src_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((graph_edges.dst_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((graph_edges.src_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((graph_edges.dst_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((graph_edges.src_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE) AND ((graph_edges.dst_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.graph_edges "owner reads the graph edges of the entered scope"', 'cmd=r permissive to=scopedb_owner using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_edges.project_id = ANY ((s.t).project_ids)) AND ((ARRAY[graph_edges.src_resource, graph_edges.dst_resource] <@ (s.t).resource_filter) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((graph_edges.src_path ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((graph_edges.dst_path ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((graph_edges.src_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((graph_edges.dst_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((graph_edges.src_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((graph_edges.dst_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((graph_edges.src_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE) AND ((graph_edges.dst_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.graph_edges "scope limits which graph edges the app changes"', 'cmd=w restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_edges.project_id = ANY ((s.t).project_ids)) AND ((ARRAY[graph_edges.src_resource, graph_edges.dst_resource] <@ (s.t).resource_filter) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((graph_edges.src_path ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((graph_edges.dst_path ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((graph_edges.src_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((graph_edges.dst_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((graph_edges.src_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((graph_edges.dst_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((graph_edges.src_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE) AND ((graph_edges.dst_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.src))
 OFFSET 0)) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.dst))
 OFFSET 0)))'),
    ('policy', 'scopedb.graph_edges "scope limits which graph edges the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.src))
 OFFSET 0)) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.dst))
 OFFSET 0)))'),
    ('policy', 'scopedb.graph_edges "scope limits which graph edges the app deletes"', 'cmd=d restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_edges.project_id = ANY ((s.t).project_ids)) AND ((ARRAY[graph_edges.src_resource, graph_edges.dst_resource] <@ (s.t).resource_filter) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((graph_edges.src_path ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((graph_edges.dst_path ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((graph_edges.src_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((graph_edges.dst_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((graph_edges.src_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((graph_edges.dst_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((graph_edges.src_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE) AND ((graph_edges.dst_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.graph_edges "scope limits which graph edges the app reads"', 'cmd=r restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_edges.project_id = ANY ((s.t).project_ids)) AND ((ARRAY[graph_edges.src_resource, graph_edges.dst_resource] <@ (s.t).resource_filter) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((graph_edges.src_path ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((graph_edges.dst_path ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((graph_edges.src_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((graph_edges.dst_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((graph_edges.src_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((graph_edges.dst_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((graph_edges.src_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE) AND ((graph_edges.dst_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.graph_nodes "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.graph_nodes "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.graph_nodes "owner deletes the graph nodes of the entered scope"', 'cmd=d permissive to=scopedb_owner using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_nodes.project_id = ANY ((s.t).project_ids)) AND ((COALESCE(graph_nodes.resource_id, ''''::text) = ANY ((s.t).resource_filter)) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.graph_nodes "owner reads the graph nodes of the entered scope"', 'cmd=r permissive to=scopedb_owner using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_nodes.project_id = ANY ((s.t).project_ids)) AND ((COALESCE(graph_nodes.resource_id, ''''::text) = ANY ((s.t).resource_filter)) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.graph_nodes "scope limits which graph nodes the app changes"', 'cmd=w restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_nodes.project_id = ANY ((s.t).project_ids)) AND ((COALESCE(graph_nodes.resource_id, ''''::text) = ANY ((s.t).resource_filter)) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_nodes.project_id = ANY ((s.t).project_ids)) AND ((COALESCE(graph_nodes.resource_id, ''''::text) = ANY ((s.t).resource_filter)) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END'),
    ('policy', 'scopedb.graph_nodes "scope limits which graph nodes the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_nodes.project_id = ANY ((s.t).project_ids)) AND ((COALESCE(graph_nodes.resource_id, ''''::text) = ANY ((s.t).resource_filter)) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END'),
    ('policy', 'scopedb.graph_nodes "scope limits which graph nodes the app deletes"', 'cmd=d restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_nodes.project_id = ANY ((s.t).project_ids)) AND ((COALESCE(graph_nodes.resource_id, ''''::text) = ANY ((s.t).resource_filter)) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.graph_nodes "scope limits which graph nodes the app reads"', 'cmd=r restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_nodes.project_id = ANY ((s.t).project_ids)) AND ((COALESCE(graph_nodes.resource_id, ''''::text) = ANY ((s.t).resource_filter)) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.note_tombstones "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.note_tombstones "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.note_tombstones "owner records tombstones in the entered scope"', 'cmd=a permissive to=scopedb_owner using=- check=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[]))'),
    ('policy', 'scopedb.note_tombstones "scope limits which tombstones the app changes"', 'cmd=w restrictive to=scopedb_app using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[]))'),
    ('policy', 'scopedb.note_tombstones "scope limits which tombstones the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[]))'),
    ('policy', 'scopedb.note_tombstones "scope limits which tombstones the app deletes"', 'cmd=d restrictive to=scopedb_app using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=-'),
    ('policy', 'scopedb.note_tombstones "scope limits which tombstones the app reads"', 'cmd=r restrictive to=scopedb_app using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=-'),
    ('policy', 'scopedb.notes "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.notes "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.notes "owner marks notes of the entered scope forgotten"', 'cmd=w permissive to=scopedb_owner using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[]))'),
    ('policy', 'scopedb.notes "owner reads the notes of the entered scope"', 'cmd=r permissive to=scopedb_owner using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=-'),
    ('policy', 'scopedb.notes "scope limits which notes the app changes"', 'cmd=w restrictive to=scopedb_app using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[]))'),
    ('policy', 'scopedb.notes "scope limits which notes the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (forgotten_at IS NULL))'),
    ('policy', 'scopedb.notes "scope limits which notes the app deletes"', 'cmd=d restrictive to=scopedb_app using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=-'),
    ('policy', 'scopedb.notes "scope limits which notes the app reads"', 'cmd=r restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (forgotten_at IS NULL) AND ((retention_days IS NULL) OR ((created_at + make_interval(days => retention_days)) > now()))) check=-'),
    ('policy', 'scopedb.projects "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.projects "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.projects "owner resolves the projects named by the scope"', 'cmd=r permissive to=scopedb_owner using=(name = ANY (( SELECT scopedb.scope_project_names() AS scope_project_names)::text[])) check=-'),
    ('policy', 'scopedb.projects "scope limits which projects the app changes"', 'cmd=w restrictive to=scopedb_app using=(name = ANY (( SELECT scopedb.scope_project_names() AS scope_project_names)::text[])) check=(name = ANY (( SELECT scopedb.scope_project_names() AS scope_project_names)::text[]))'),
    ('policy', 'scopedb.projects "scope limits which projects the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=(name = ANY (( SELECT scopedb.scope_project_names() AS scope_project_names)::text[]))'),
    ('policy', 'scopedb.projects "scope limits which projects the app deletes"', 'cmd=d restrictive to=scopedb_app using=(name = ANY (( SELECT scopedb.scope_project_names() AS scope_project_names)::text[])) check=-'),
    ('policy', 'scopedb.projects "scope limits which projects the app reads"', 'cmd=r restrictive to=scopedb_app using=(name = ANY (( SELECT scopedb.scope_project_names() AS scope_project_names)::text[])) check=-'),
    ('policy', 'scopedb.resource_links "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.resource_links "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.resource_links "owner deletes the resource links of the entered scope"', 'cmd=d permissive to=scopedb_owner using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resource_links.project_id = ANY ((s.t).project_ids)) AND ((ARRAY[resource_links.parent_id, resource_links.child_id] <@ (s.t).resource_filter) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.resource_links "owner walks the links of the projects of the scope"', 'cmd=r permissive to=scopedb_owner using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=-'),
    ('policy', 'scopedb.resource_links "scope limits which resource links the app changes"', 'cmd=w restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resource_links.project_id = ANY ((s.t).project_ids)) AND ((ARRAY[resource_links.parent_id, resource_links.child_id] <@ (s.t).resource_filter) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resource_links.project_id = ANY ((s.t).project_ids)) AND ((ARRAY[resource_links.parent_id, resource_links.child_id] <@ (s.t).resource_filter) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END'),
    ('policy', 'scopedb.resource_links "scope limits which resource links the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resource_links.project_id = ANY ((s.t).project_ids)) AND ((ARRAY[resource_links.parent_id, resource_links.child_id] <@ (s.t).resource_filter) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END'),
    ('policy', 'scopedb.resource_links "scope limits which resource links the app deletes"', 'cmd=d restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resource_links.project_id = ANY ((s.t).project_ids)) AND ((ARRAY[resource_links.parent_id, resource_links.child_id] <@ (s.t).resource_filter) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.resource_links "scope limits which resource links the app reads"', 'cmd=r restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resource_links.project_id = ANY ((s.t).project_ids)) AND ((ARRAY[resource_links.parent_id, resource_links.child_id] <@ (s.t).resource_filter) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.resources "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.resources "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.resources "owner deletes the resources of the entered scope"', 'cmd=d permissive to=scopedb_owner using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resources.project_id = ANY ((s.t).project_ids)) AND ((resources.id = ANY ((s.t).resource_filter)) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.resources "owner lists the resources of the projects of the scope"', 'cmd=r permissive to=scopedb_owner using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=-'),
    ('policy', 'scopedb.resources "scope limits which resources the app changes"', 'cmd=w restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resources.project_id = ANY ((s.t).project_ids)) AND ((resources.id = ANY ((s.t).resource_filter)) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resources.project_id = ANY ((s.t).project_ids)) AND ((resources.id = ANY ((s.t).resource_filter)) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END'),
    ('policy', 'scopedb.resources "scope limits which resources the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resources.project_id = ANY ((s.t).project_ids)) AND ((resources.id = ANY ((s.t).resource_filter)) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END'),
    ('policy', 'scopedb.resources "scope limits which resources the app deletes"', 'cmd=d restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resources.project_id = ANY ((s.t).project_ids)) AND ((resources.id = ANY ((s.t).resource_filter)) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.resources "scope limits which resources the app reads"', 'cmd=r restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resources.project_id = ANY ((s.t).project_ids)) AND ((resources.id = ANY ((s.t).resource_filter)) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('schema', 'scopedb', 'owner=scopedb_owner'),
    ('schema', 'scopedb_audit', 'owner=scopedb_owner'),
    ('schema', 'scopedb_parts', 'owner=scopedb_owner'),
    ('schema', 'scopedb_private', 'owner=scopedb_owner'),
    ('table', 'scopedb.fragments', 'kind=p owner=scopedb_owner rls=t forced=t'),
    ('table', 'scopedb.graph_edges', 'kind=r owner=scopedb_owner rls=t forced=t'),
    ('table', 'scopedb.graph_nodes', 'kind=r owner=scopedb_owner rls=t forced=t'),
    ('table', 'scopedb.note_tombstones', 'kind=r owner=scopedb_owner rls=t forced=t'),
    ('table', 'scopedb.notes', 'kind=r owner=scopedb_owner rls=t forced=t'),
    ('table', 'scopedb.projects', 'kind=r owner=scopedb_owner rls=t forced=t'),
    ('table', 'scopedb.projects_id_seq', 'kind=S owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb.resource_links', 'kind=r owner=scopedb_owner rls=t forced=t'),
    ('table', 'scopedb.resources', 'kind=r owner=scopedb_owner rls=t forced=t'),
    ('table', 'scopedb_audit.app_roles', 'kind=v owner=scopedb_owner rls=f forced=f definition=c2bd77041ee94fdcf434f05dd29e0bd1'),
    ('table', 'scopedb_audit.data_tables', 'kind=v owner=scopedb_owner rls=f forced=f definition=4b6edcea27f77030a3c07d2fd9cd4f3d'),
    ('table', 'scopedb_audit.derived_relations', 'kind=v owner=scopedb_owner rls=f forced=f definition=986e2214d797b6e9053ac4ad834aab99'),
    ('table', 'scopedb_audit.findings', 'kind=v owner=scopedb_owner rls=f forced=f definition=8b1ee10d92ac868d70770bcf94612a3b'),
    ('table', 'scopedb_audit.manifest', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_audit.protected_tables', 'kind=v owner=scopedb_owner rls=f forced=f definition=234f7241b34b32a7605d19bcadd8ab6d'),
    ('table', 'scopedb_audit.service_table_facts', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_audit.service_tables', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.fragment_originals', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.fragment_search', 'kind=p owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.group_vectors', 'kind=p owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.project_locks', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.project_names_epoch', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.search_group_members', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.search_groups', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.search_groups_id_seq', 'kind=S owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.signing_keys', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('trigger', 'scopedb.fragments fragments_fixed_key', 'CREATE TRIGGER fragments_fixed_key BEFORE UPDATE OF project_id, id ON scopedb.fragments FOR EACH ROW EXECUTE FUNCTION scopedb_private.refuse_fragment_key_change()'),
    ('trigger', 'scopedb.fragments fragments_forget_copies', 'CREATE TRIGGER fragments_forget_copies AFTER DELETE ON scopedb.fragments REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.forget_fragment_copies()'),
    ('trigger', 'scopedb.fragments fragments_keep_original', 'CREATE TRIGGER fragments_keep_original BEFORE UPDATE OF tier ON scopedb.fragments FOR EACH ROW EXECUTE FUNCTION scopedb_private.keep_original_content()'),
    ('trigger', 'scopedb.fragments fragments_sync_groups_insert', 'CREATE TRIGGER fragments_sync_groups_insert AFTER INSERT ON scopedb.fragments REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_group_vectors()'),
    ('trigger', 'scopedb.fragments fragments_sync_groups_update', 'CREATE TRIGGER fragments_sync_groups_update AFTER UPDATE ON scopedb.fragments REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_group_vectors()'),
    ('trigger', 'scopedb.fragments fragments_sync_search_insert', 'CREATE TRIGGER fragments_sync_search_insert AFTER INSERT ON scopedb.fragments REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_fragment_search()'),
    ('trigger', 'scopedb.fragments fragments_sync_search_update', 'CREATE TRIGGER fragments_sync_search_update AFTER UPDATE ON scopedb.fragments REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_fragment_search()'),
    ('trigger', 'scopedb.graph_edges graph_edges_copy_ends', 'CREATE TRIGGER graph_edges_copy_ends BEFORE INSERT ON scopedb.graph_edges FOR EACH ROW WHEN ((num_nulls(new.src_resource, new.src_path, new.src_fqn, new.dst_resource, new.dst_path, new.dst_fqn) > 0)) EXECUTE FUNCTION scopedb_private.copy_edge_ends()'),
    ('trigger', 'scopedb.projects projects_names_epoch', 'CREATE TRIGGER projects_names_epoch AFTER DELETE OR UPDATE OF name ON scopedb.projects FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.move_project_names_epoch()'),
    ('trigger', 'scopedb.projects projects_names_epoch_truncate', 'CREATE TRIGGER projects_names_epoch_truncate AFTER TRUNCATE ON scopedb.projects FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.move_project_names_epoch()'),
    ('trigger', 'scopedb.resource_links resource_links_refuse_cycle', 'CREATE TRIGGER resource_links_refuse_cycle BEFORE INSERT OR UPDATE ON scopedb.resource_links FOR EACH ROW EXECUTE FUNCTION scopedb_private.refuse_resource_cycle()'),
    ('trigger', 'scopedb_private.search_group_members search_group_members_redeclare_delete', 'CREATE TRIGGER search_group_members_redeclare_delete AFTER DELETE ON scopedb_private.search_group_members REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.redeclare_search_group()'),
    ('trigger', 'scopedb_private.search_group_members search_group_members_redeclare_insert', 'CREATE TRIGGER search_group_members_redeclare_insert AFTER INSERT ON scopedb_private.search_group_members REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.redeclare_search_group()'),
    ('trigger', 'scopedb_private.search_group_members search_group_members_redeclare_truncate', 'CREATE TRIGGER search_group_members_redeclare_truncate AFTER TRUNCATE ON scopedb_private.search_group_members FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.redeclare_search_group()'),
    ('trigger', 'scopedb_private.search_group_members search_group_members_redeclare_update', 'CREATE TRIGGER search_group_members_redeclare_update AFTER UPDATE ON scopedb_private.search_group_members REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.redeclare_search_group()'),
    ('trigger', 'scopedb_private.signing_keys signing_keys_derive_pads', 'CREATE TRIGGER signing_keys_derive_pads BEFORE INSERT OR UPDATE OF secret ON scopedb_private.signing_keys FOR EACH ROW EXECUTE FUNCTION scopedb_private.derive_hmac_pads()');

RESET ROLE;
