-- Revision 0011 down: back to one unpartitioned table each (and the shared HNSW and GIN indexes).
SET ROLE scopedb_owner;

DROP TRIGGER projects_create_storage ON scopedb.projects;

CREATE TABLE scopedb_parts.legacy_fragments (
    LIKE scopedb.fragments
    INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING GENERATED INCLUDING STORAGE INCLUDING COMPRESSION
    INCLUDING COMMENTS
);
INSERT INTO scopedb_parts.legacy_fragments (project_id, id, resource_id, path, fqn, content, embedding, tier, token_count, last_accessed_at, valid_from, valid_to, created_at, created_by)
SELECT project_id, id, resource_id, path, fqn, content, embedding, tier, token_count, last_accessed_at, valid_from, valid_to, created_at, created_by FROM scopedb.fragments;
DROP TABLE scopedb_private.fragment_search;
DROP TABLE scopedb.fragments;
ALTER TABLE scopedb_parts.legacy_fragments SET SCHEMA scopedb;
ALTER TABLE scopedb.legacy_fragments RENAME TO fragments;
ALTER TABLE scopedb.fragments
    ADD CONSTRAINT fragments_pkey PRIMARY KEY (project_id, id),
    ADD CONSTRAINT fragments_project_id_fkey FOREIGN KEY (project_id) REFERENCES scopedb.projects (id) ON DELETE CASCADE,
    ADD CONSTRAINT fragments_resource_fkey FOREIGN KEY (project_id, resource_id)
        REFERENCES scopedb.resources (project_id, id);
COMMENT ON TABLE scopedb.fragments IS
    'The unit every search returns: a piece of text with its path, fully-qualified name, embedding and tier.';

CREATE TABLE scopedb_private.fragment_search (
    project_id  bigint NOT NULL,
    id          text NOT NULL,
    tsv         tsvector NOT NULL,
    CONSTRAINT fragment_search_pkey PRIMARY KEY (project_id, id),
    CONSTRAINT fragment_search_fragment_fkey FOREIGN KEY (project_id, id)
        REFERENCES scopedb.fragments (project_id, id) ON DELETE CASCADE ON UPDATE CASCADE
);
COMMENT ON TABLE scopedb_private.fragment_search IS
    'Owner-only copy of fragments.tsv with a GIN index, for scoped full-text search (see scopedb.text_candidates).';
INSERT INTO scopedb_private.fragment_search (project_id, id, tsv) SELECT project_id, id, tsv FROM scopedb.fragments;
ALTER TABLE scopedb_private.fragment_originals
    ADD CONSTRAINT fragment_originals_fragment_fkey FOREIGN KEY (project_id, id)
        REFERENCES scopedb.fragments (project_id, id) ON DELETE CASCADE ON UPDATE CASCADE;

CREATE INDEX fragments_resource_idx ON scopedb.fragments (project_id, resource_id);
CREATE INDEX fragments_tsv_idx ON scopedb.fragments USING gin (tsv);
CREATE INDEX fragments_embedding_idx ON scopedb.fragments USING hnsw (embedding vector_cosine_ops);
CREATE INDEX fragment_search_tsv_idx ON scopedb_private.fragment_search USING gin (tsv);
CREATE INDEX fragments_tier_lru_idx ON scopedb.fragments (project_id, tier, last_accessed_at);

-- Row-level security only now: forced and without its policies yet, it would hide every row from the owner's
-- reads above (the full-text fill, the foreign key's check).
ALTER TABLE scopedb.fragments ENABLE ROW LEVEL SECURITY;
ALTER TABLE scopedb.fragments FORCE ROW LEVEL SECURITY;

-- Functions (back to 0010).
CREATE OR REPLACE VIEW scopedb_audit.protected_tables WITH (security_barrier) AS
SELECT c.oid AS relid, c.relnamespace::regnamespace::text AS schema, c.relname
  FROM pg_catalog.pg_class AS c
 WHERE c.relnamespace IN ('scopedb'::regnamespace, 'scopedb_private'::regnamespace) AND c.relkind IN ('r', 'p');

CREATE OR REPLACE FUNCTION scopedb_private.pin_settings() RETURNS void
LANGUAGE plpgsql
VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM pg_catalog.set_config('row_security', 'on', true),
            pg_catalog.set_config('gin_fuzzy_search_limit', '0', true),
            pg_catalog.set_config('statement_timeout', '0', true),
            pg_catalog.set_config('lock_timeout', '0', true),
            pg_catalog.set_config('idle_in_transaction_session_timeout', '0', true),
            pg_catalog.set_config('exit_on_error', 'off', true),
            pg_catalog.set_config('transform_null_equals', 'off', true),
            pg_catalog.set_config('standard_conforming_strings', 'on', true),
            pg_catalog.set_config('DateStyle', 'ISO, MDY', true),
            pg_catalog.set_config('IntervalStyle', 'postgres', true),
            pg_catalog.set_config('extra_float_digits', '1', true),
            pg_catalog.set_config('hnsw.ef_search', '40', true),
            pg_catalog.set_config('hnsw.iterative_scan', 'off', true),
            pg_catalog.set_config('hnsw.max_scan_tuples', '20000', true),
            pg_catalog.set_config('hnsw.scan_mem_multiplier', '1', true);
    IF pg_catalog.current_setting('transaction_timeout', true) IS NOT NULL THEN  -- PostgreSQL 17 and later
        PERFORM pg_catalog.set_config('transaction_timeout', '0', true);
    END IF;
END
$$;

CREATE OR REPLACE FUNCTION scopedb.text_candidates(query tsquery, max_rows integer)
RETURNS TABLE (project_id bigint, id text, rank real)
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
AS $$
DECLARE
    ids bigint[] := scopedb.scope_project_ids();
BEGIN
    IF max_rows IS NULL OR max_rows < 0 OR max_rows > 100000 THEN
        RAISE EXCEPTION 'max_rows must be between 0 and 100000' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN QUERY
        SELECT s.project_id, s.id, pg_catalog.ts_rank_cd(s.tsv, query)
          FROM scopedb_private.fragment_search AS s
          JOIN scopedb.fragments AS f ON f.project_id = s.project_id AND f.id = s.id
         WHERE s.tsv @@ query AND s.project_id = ANY (ids)
         ORDER BY 3 DESC, 1, 2   -- by position: the names are also this function's output columns
         LIMIT max_rows;
END
$$;

COMMENT ON FUNCTION scopedb.text_candidates(tsquery, integer) IS
    'Best-ranked fragments of the verified scope matching a tsquery, found through a GIN index.';

CREATE OR REPLACE FUNCTION scopedb.delete_fragments(target_project bigint, fragment_ids text[]) RETURNS integer
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    removed integer;
BEGIN
    DELETE FROM scopedb.fragments AS f WHERE f.project_id = target_project AND f.id = ANY (fragment_ids);
    GET DIAGNOSTICS removed = ROW_COUNT;
    RETURN removed;
END
$$;

CREATE OR REPLACE FUNCTION scopedb.delete_resources(target_project bigint, resource_ids text[]) RETURNS integer
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
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

CREATE OR REPLACE FUNCTION scopedb_audit.installed_facts()
RETURNS TABLE (kind text, object text, fact text)
LANGUAGE sql
STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    WITH ours (oid) AS (
        SELECT n.oid FROM pg_catalog.pg_namespace AS n WHERE n.nspname IN ('scopedb', 'scopedb_private', 'scopedb_audit')
    ),
    rels AS (
        SELECT c.oid, c.relname, c.relkind, c.relnamespace, c.relowner, c.relacl, c.relrowsecurity,
               c.relforcerowsecurity, n.nspname || '.' || c.relname AS name
          FROM pg_catalog.pg_class AS c
          JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
         WHERE c.relnamespace IN (SELECT ours.oid FROM ours) AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
    ),
    grants (kind, object, grantee, privilege) AS (
        SELECT 'schema', n.nspname, a.grantee, a.privilege_type || CASE WHEN a.is_grantable THEN '*' ELSE '' END
          FROM pg_catalog.pg_namespace AS n,
               pg_catalog.aclexplode(COALESCE(n.nspacl, pg_catalog.acldefault('n'::"char", n.nspowner))) AS a
         WHERE n.oid IN (SELECT ours.oid FROM ours) AND a.grantee <> n.nspowner
        UNION ALL
        SELECT CASE r.relkind WHEN 'S' THEN 'sequence' ELSE 'table' END, r.name, a.grantee,
               a.privilege_type || CASE WHEN a.is_grantable THEN '*' ELSE '' END
          FROM rels AS r,
               pg_catalog.aclexplode(COALESCE(r.relacl, pg_catalog.acldefault(
                   CASE r.relkind WHEN 'S' THEN 's'::"char" ELSE 'r'::"char" END, r.relowner))) AS a
         WHERE a.grantee <> r.relowner
        UNION ALL
        SELECT 'column', r.name || '.' || att.attname, a.grantee,
               a.privilege_type || CASE WHEN a.is_grantable THEN '*' ELSE '' END
          FROM rels AS r
          JOIN pg_catalog.pg_attribute AS att ON att.attrelid = r.oid AND att.attnum > 0 AND NOT att.attisdropped
           AND att.attacl IS NOT NULL,
               pg_catalog.aclexplode(att.attacl) AS a
         WHERE a.grantee <> r.relowner
        UNION ALL
        SELECT 'function', f.oid::pg_catalog.regprocedure::text, a.grantee,
               a.privilege_type || CASE WHEN a.is_grantable THEN '*' ELSE '' END
          FROM pg_catalog.pg_proc AS f,
               pg_catalog.aclexplode(COALESCE(f.proacl, pg_catalog.acldefault('f'::"char", f.proowner))) AS a
         WHERE f.pronamespace IN (SELECT ours.oid FROM ours) AND a.grantee <> f.proowner
        UNION ALL
        SELECT 'type', t.oid::pg_catalog.regtype::text, a.grantee,
               a.privilege_type || CASE WHEN a.is_grantable THEN '*' ELSE '' END
          FROM pg_catalog.pg_type AS t,
               pg_catalog.aclexplode(COALESCE(t.typacl, pg_catalog.acldefault('T'::"char", t.typowner))) AS a
         WHERE t.typnamespace IN (SELECT ours.oid FROM ours) AND t.typtype IN ('c', 'd', 'e')
           AND NOT EXISTS (SELECT FROM pg_catalog.pg_class AS c WHERE c.oid = t.typrelid AND c.relkind <> 'c')
           AND a.grantee <> t.typowner
    )
    SELECT 'schema', n.nspname::text, 'owner=' || pg_catalog.pg_get_userbyid(n.nspowner)
      FROM pg_catalog.pg_namespace AS n
     WHERE n.oid IN (SELECT ours.oid FROM ours)
    UNION ALL
    SELECT 'table', r.name,
           pg_catalog.format('kind=%s owner=%s rls=%s forced=%s', r.relkind::text, pg_catalog.pg_get_userbyid(r.relowner),
                             r.relrowsecurity, r.relforcerowsecurity)
               || CASE WHEN r.relkind IN ('v', 'm')
                       THEN ' definition=' || pg_catalog.md5(pg_catalog.pg_get_viewdef(r.oid)) ELSE '' END
      FROM rels AS r
    UNION ALL
    SELECT 'policy', pol.polrelid::pg_catalog.regclass::text || ' "' || pol.polname || '"',
           pg_catalog.format('cmd=%s %s to=%s using=%s check=%s', pol.polcmd::text,
                             CASE WHEN pol.polpermissive THEN 'permissive' ELSE 'restrictive' END,
                             (SELECT pg_catalog.string_agg(CASE WHEN r = 0 THEN 'public'
                                                                ELSE pg_catalog.pg_get_userbyid(r)::text END,
                                                           ',' ORDER BY 1)
                                FROM pg_catalog.unnest(pol.polroles) AS r),
                             COALESCE(pg_catalog.pg_get_expr(pol.polqual, pol.polrelid), '-'),
                             COALESCE(pg_catalog.pg_get_expr(pol.polwithcheck, pol.polrelid), '-'))
      FROM pg_catalog.pg_policy AS pol
     WHERE pol.polrelid IN (SELECT r.oid FROM rels AS r)
    UNION ALL
    SELECT 'function', f.oid::pg_catalog.regprocedure::text,
           pg_catalog.format('owner=%s definer=%s leakproof=%s volatile=%s strict=%s config=%s returns=%s body=%s',
                             pg_catalog.pg_get_userbyid(f.proowner), f.prosecdef, f.proleakproof, f.provolatile::text,
                             f.proisstrict,
                             COALESCE((SELECT pg_catalog.string_agg(c, ',' ORDER BY c)
                                         FROM pg_catalog.unnest(f.proconfig) AS c), '-'),
                             pg_catalog.pg_get_function_result(f.oid),
                             pg_catalog.md5(COALESCE(NULLIF(f.prosrc, ''), pg_catalog.pg_get_function_sqlbody(f.oid), '')))
      FROM pg_catalog.pg_proc AS f
     WHERE f.pronamespace IN (SELECT ours.oid FROM ours)
    UNION ALL
    SELECT 'trigger', t.tgrelid::pg_catalog.regclass::text || ' ' || t.tgname, pg_catalog.pg_get_triggerdef(t.oid)
      FROM pg_catalog.pg_trigger AS t
     WHERE t.tgrelid IN (SELECT r.oid FROM rels AS r) AND NOT t.tgisinternal
    UNION ALL
    SELECT 'rule', w.ev_class::pg_catalog.regclass::text || ' ' || w.rulename, pg_catalog.pg_get_ruledef(w.oid)
      FROM pg_catalog.pg_rewrite AS w
     WHERE w.ev_class IN (SELECT r.oid FROM rels AS r WHERE r.relkind IN ('r', 'p')) AND w.rulename <> '_RETURN'
    UNION ALL
    SELECT 'index', i.indexrelid::pg_catalog.regclass::text, pg_catalog.pg_get_indexdef(i.indexrelid)
      FROM pg_catalog.pg_index AS i
     WHERE i.indrelid IN (SELECT r.oid FROM rels AS r)
    UNION ALL
    SELECT 'constraint', k.conrelid::pg_catalog.regclass::text || ' ' || k.conname, pg_catalog.pg_get_constraintdef(k.oid)
      FROM pg_catalog.pg_constraint AS k
     WHERE k.conrelid IN (SELECT r.oid FROM rels AS r) AND k.contype <> 'n'  -- NOT NULL: catalogued from PG 18 on
    UNION ALL
    SELECT 'grant', g.kind || ' ' || g.object || ' to '
               || CASE WHEN g.grantee = 0 THEN 'public' ELSE pg_catalog.pg_get_userbyid(g.grantee)::text END,
           pg_catalog.string_agg(g.privilege, ',' ORDER BY g.privilege)
      FROM grants AS g
     GROUP BY g.kind, g.object, g.grantee
    UNION ALL
    SELECT 'default_acl', pg_catalog.pg_get_userbyid(d.defaclrole)::text || ' '
               || COALESCE(d.defaclnamespace::pg_catalog.regnamespace::text, '*') || ' ' || d.defaclobjtype::text || ' to '
               || CASE WHEN a.grantee = 0 THEN 'public' ELSE pg_catalog.pg_get_userbyid(a.grantee)::text END,
           pg_catalog.string_agg(a.privilege_type, ',' ORDER BY a.privilege_type)
      FROM pg_catalog.pg_default_acl AS d, pg_catalog.aclexplode(d.defaclacl) AS a
     WHERE d.defaclrole IN (SELECT r.oid FROM pg_catalog.pg_roles AS r WHERE r.rolname LIKE 'scopedb\_%')
        OR d.defaclnamespace IN (SELECT ours.oid FROM ours)
        OR a.grantee = 0
        OR a.grantee IN (SELECT r.oid FROM pg_catalog.pg_roles AS r WHERE r.rolname IN ('scopedb_app', 'scopedb_auditor'))
     GROUP BY d.defaclrole, d.defaclnamespace, d.defaclobjtype, a.grantee
    UNION ALL
    SELECT 'publication', p.pubname || ' ' || r.name, 'publishes rows of ' || r.name
      FROM pg_catalog.pg_publication AS p
      JOIN rels AS r
        ON r.relkind IN ('r', 'p')
       AND (p.puballtables
            OR r.oid IN (SELECT pr.prrelid FROM pg_catalog.pg_publication_rel AS pr WHERE pr.prpubid = p.oid)
            OR r.relnamespace IN (SELECT pn.pnnspid FROM pg_catalog.pg_publication_namespace AS pn
                                   WHERE pn.pnpubid = p.oid));
END;

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
    -- enabled and forced): an export table or a service's table left open is reachable from every scope.
    SELECT 'error', 'E024', 'table ' || c.oid::regclass::text,
           'scopedb_app can read or change it and row-level security is not enabled and forced',
           'protect it (scopedb''s protect_table), or REVOKE ALL ON ' || c.oid::regclass::text
               || ' FROM scopedb_app, PUBLIC;'
      FROM pg_catalog.pg_class AS c
      JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p', 'f', 'm')
       AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'scopedb', 'scopedb_private', 'scopedb_audit')
       AND n.nspname NOT LIKE 'pg\_%'
       AND pg_catalog.has_schema_privilege('scopedb_app', n.oid, 'USAGE')
       AND pg_catalog.has_table_privilege('scopedb_app', c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE')
       AND NOT (c.relrowsecurity AND c.relforcerowsecurity)
       AND c.oid NOT IN (SELECT dr.relid FROM scopedb_audit.derived_relations AS dr)  -- matviews of them: E023
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
    -- E016 pgvector >= 0.8.
    SELECT 'error', 'E016', 'extension vector',
           COALESCE('pgvector ' || e.extversion || ' is older than 0.8', 'pgvector is not installed'),
           'install pgvector 0.8 or newer, then ALTER EXTENSION vector UPDATE;'
      FROM (SELECT (SELECT x.extversion FROM pg_catalog.pg_extension AS x WHERE x.extname = 'vector') AS extversion) AS e
     WHERE scopedb_audit.pgvector_too_old(e.extversion);
$$;

DROP FUNCTION scopedb_private.create_project_storage(bigint);

DROP FUNCTION scopedb_private.project_storage_on_insert();

DROP FUNCTION scopedb_private.storage_plan(integer, boolean, bigint[]);

DROP FUNCTION scopedb.nearest_fragments(vector, integer, bigint[], text, boolean, integer, integer);

DROP FUNCTION scopedb_private.forget_fragment_copies();

DROP FUNCTION scopedb_private.refuse_fragment_key_change();

CREATE POLICY "app sees nothing until a scope is entered" ON scopedb.fragments
    AS PERMISSIVE FOR ALL TO scopedb_app
    USING ((SELECT scopedb.scope_entered()))
    WITH CHECK ((SELECT scopedb.scope_entered()));

CREATE POLICY "scope limits which fragments the app reads" ON scopedb.fragments
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (tstzrange(valid_from, valid_to) @> (SELECT scopedb.scope_as_of())) IS NOT FALSE
           AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
           AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));

CREATE POLICY "scope limits which fragments the app creates" ON scopedb.fragments
    AS RESTRICTIVE FOR INSERT TO scopedb_app
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
                AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                     OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                         AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                         AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                         AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));

CREATE POLICY "scope limits which fragments the app changes" ON scopedb.fragments
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (tstzrange(valid_from, valid_to) @> (SELECT scopedb.scope_as_of())) IS NOT FALSE
           AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
           AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)))
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
                AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                     OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                         AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                         AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                         AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));

CREATE POLICY "scope limits which fragments the app deletes" ON scopedb.fragments
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (tstzrange(valid_from, valid_to) @> (SELECT scopedb.scope_as_of())) IS NOT FALSE
           AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
           AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));

CREATE POLICY "owner administers every row in an admin session" ON scopedb.fragments
    AS PERMISSIVE FOR ALL TO scopedb_owner
    USING ((SELECT scopedb_private.is_admin_session()))
    WITH CHECK ((SELECT scopedb_private.is_admin_session()));

CREATE POLICY "owner searches the fragments of the entered scope" ON scopedb.fragments
    AS PERMISSIVE FOR SELECT TO scopedb_owner
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (tstzrange(valid_from, valid_to) @> (SELECT scopedb.scope_as_of())) IS NOT FALSE
           AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
           AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));

CREATE POLICY "owner deletes the fragments of the entered scope" ON scopedb.fragments
    AS PERMISSIVE FOR DELETE TO scopedb_owner
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (tstzrange(valid_from, valid_to) @> (SELECT scopedb.scope_as_of())) IS NOT FALSE
           AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
           AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));

GRANT SELECT, INSERT ON scopedb.fragments TO scopedb_app;
GRANT UPDATE (resource_id, path, fqn, content, embedding, tier, token_count, last_accessed_at, valid_from, valid_to,
              created_by) ON scopedb.fragments TO scopedb_app;

CREATE TRIGGER fragments_sync_search_insert
    AFTER INSERT ON scopedb.fragments
    REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_fragment_search();

CREATE TRIGGER fragments_sync_search_update
    AFTER UPDATE ON scopedb.fragments
    REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_fragment_search();

CREATE TRIGGER fragments_keep_original
    BEFORE UPDATE OF tier ON scopedb.fragments
    FOR EACH ROW EXECUTE FUNCTION scopedb_private.keep_original_content();

DROP SCHEMA scopedb_parts;

RESET ROLE;

-- scopedb: the manifest of what scopedb installs, generated by `make manifest` from a database migrated to
-- head; do not edit. scopedb_audit.findings compares the live catalog with these facts (lint E020), and
-- `scopedb audit` compares the manifest in the database with this file's digest (E025, scopedb/manifest.py).
-- digest: 3c8ea06bc72897f95b964f091072e10e
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
    ('constraint', 'scopedb.graph_edges graph_edges_dst_fkey', 'FOREIGN KEY (project_id, dst) REFERENCES scopedb.graph_nodes(project_id, id)'),
    ('constraint', 'scopedb.graph_edges graph_edges_pkey', 'PRIMARY KEY (project_id, src, relation, dst)'),
    ('constraint', 'scopedb.graph_edges graph_edges_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb.graph_edges graph_edges_relation_check', 'CHECK (((relation <> ''''::text) AND (length(relation) <= 100)))'),
    ('constraint', 'scopedb.graph_edges graph_edges_src_fkey', 'FOREIGN KEY (project_id, src) REFERENCES scopedb.graph_nodes(project_id, id)'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_fqn_check', 'CHECK ((strpos(fqn, chr(31)) = 0))'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_id_check', 'CHECK (((id <> ''''::text) AND (length(id) <= 200)))'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_kind_check', 'CHECK (((kind <> ''''::text) AND (length(kind) <= 100)))'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_path_check', 'CHECK ((strpos(path, chr(31)) = 0))'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_pkey', 'PRIMARY KEY (project_id, id)'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_resource_fkey', 'FOREIGN KEY (project_id, resource_id) REFERENCES scopedb.resources(project_id, id)'),
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
    ('constraint', 'scopedb_private.fragment_originals fragment_originals_fragment_fkey', 'FOREIGN KEY (project_id, id) REFERENCES scopedb.fragments(project_id, id) ON UPDATE CASCADE ON DELETE CASCADE'),
    ('constraint', 'scopedb_private.fragment_originals fragment_originals_pkey', 'PRIMARY KEY (project_id, id)'),
    ('constraint', 'scopedb_private.fragment_search fragment_search_fragment_fkey', 'FOREIGN KEY (project_id, id) REFERENCES scopedb.fragments(project_id, id) ON UPDATE CASCADE ON DELETE CASCADE'),
    ('constraint', 'scopedb_private.fragment_search fragment_search_pkey', 'PRIMARY KEY (project_id, id)'),
    ('constraint', 'scopedb_private.project_locks project_locks_pkey', 'PRIMARY KEY (project_id, purpose)'),
    ('constraint', 'scopedb_private.project_locks project_locks_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb_private.project_locks project_locks_purpose_check', 'CHECK ((purpose = ANY (ARRAY[''tiers''::text, ''resource_links''::text])))'),
    ('constraint', 'scopedb_private.signing_keys signing_keys_key_id_check', 'CHECK ((key_id ~ ''^[A-Za-z0-9_-]{1,64}$''::text))'),
    ('constraint', 'scopedb_private.signing_keys signing_keys_pads_check', 'CHECK (((length(inner_pad) = 64) AND (length(outer_pad) = 64)))'),
    ('constraint', 'scopedb_private.signing_keys signing_keys_pkey', 'PRIMARY KEY (key_id)'),
    ('constraint', 'scopedb_private.signing_keys signing_keys_secret_check', 'CHECK (((length(secret) >= 32) AND (length(secret) <= 64)))'),
    ('default_acl', 'scopedb_owner - f to scopedb_owner', 'EXECUTE'),
    ('function', 'scopedb.delete_fragments(bigint,text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=integer body=7ac6ae14a4a1426fb8292c00581482e4'),
    ('function', 'scopedb.delete_graph_edges(bigint,text[],text[],text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=integer body=1988f10782a12b853829d5a66b154d51'),
    ('function', 'scopedb.delete_graph_nodes(bigint,text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=integer body=8ef43d5edaf4254efe5684ff125ae1be'),
    ('function', 'scopedb.delete_resource_links(bigint,text[],text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=integer body=ac6d03b975fad032fcbb9803be498b7b'),
    ('function', 'scopedb.delete_resources(bigint,text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=integer body=3eacb86ac6cd47c2e8920281665a970b'),
    ('function', 'scopedb.enter_scope(text)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=jsonb body=8fc67f9f180e4ee53b78d5df944a2bda'),
    ('function', 'scopedb.fetch_notes(text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(project_id bigint, id text, created_at timestamp with time zone, tags text[], sensitivity text, retention_days integer, provenance_source text, provenance_session text, content text) body=7891a21edb469f09c18a86c628c2fed4'),
    ('function', 'scopedb.forget_note(text,text)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=51df128d48d15b98e44fef84fbfa8cde'),
    ('function', 'scopedb.lock_project_tiers(bigint)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=4c3a6d398db61de0a69c1f67fc71ded0'),
    ('function', 'scopedb.patterns_admit(text,text[],text[])', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=3d40b36009cdce005b127166ed5d4338'),
    ('function', 'scopedb.reenter_scope(text)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=bigint[] body=bd412cb42ebdc07668a90ac9e94ebe3b'),
    ('function', 'scopedb.resolve_scope(text)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=text body=0506babc4cf3c52f44cfdd8272d44a0b'),
    ('function', 'scopedb.role_hazards(name)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=text[] body=5f2432724b312d429f081c8daa276072'),
    ('function', 'scopedb.scope_as_of()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=timestamp with time zone body=6785691d53d0767697bd913794ff9d38'),
    ('function', 'scopedb.scope_entered()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=88213d58f7efcd15d2ce1be911fc3a94'),
    ('function', 'scopedb.scope_filters_content()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=16a304087df00aed1449353194501425'),
    ('function', 'scopedb.scope_name_exclude()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=text[] body=5916b5df25a25e9807a9092e2541a101'),
    ('function', 'scopedb.scope_name_include()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=text[] body=cba40720195749008b6117a3ce18e02f'),
    ('function', 'scopedb.scope_path_exclude()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=text[] body=d6ac9cb55605ca090ffffe48255e92f5'),
    ('function', 'scopedb.scope_path_include()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=text[] body=d560d493a5564a74a7ea2d2b75bd5ab0'),
    ('function', 'scopedb.scope_project_ids()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=bigint[] body=c33c0f4d6511b3f537a1e11251d4dffb'),
    ('function', 'scopedb.scope_project_names()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=text[] body=be225829bf7762d49db69bad63935d32'),
    ('function', 'scopedb.scope_resource_filter()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=text[] body=a4facf360e213ef48b0ef013ea89a7fb'),
    ('function', 'scopedb.search_notes(text,text,integer,integer)', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(project_id bigint, id text, created_at timestamp with time zone, tags text[], content_bytes integer, sensitivity text, retention_days integer, provenance_source text, snippet text, truncated boolean) body=a841d5376b95dbe6decb5cbebd455149'),
    ('function', 'scopedb.text_candidates(tsquery,integer)', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=enable_bitmapscan=on,enable_hashjoin=on,enable_indexscan=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,gin_fuzzy_search_limit=0,jit=off,search_path=pg_catalog, pg_temp returns=TABLE(project_id bigint, id text, rank real) body=2221a7a13c8df8659580cd1591602e3f'),
    ('function', 'scopedb_audit."check"()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(severity text, code text, object text, message text, fix text) body=46864e8cea5ffbaa6de6502ac5c63aca'),
    ('function', 'scopedb_audit.installed_facts()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(kind text, object text, fact text) body=8c1d25a9e1ed2124f8a7570fca7f94c0'),
    ('function', 'scopedb_audit.manifest_digest()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=text body=f493dfd5bffba1b5741e28dd2112cf3b'),
    ('function', 'scopedb_audit.option_is_on(text[],text)', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=39011ede7f42a997d043adde3a97b69b'),
    ('function', 'scopedb_audit.pgvector_too_old(text)', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=296a03a7878198d01a77db4bfc679a15'),
    ('function', 'scopedb_audit.removal(text,text,text)', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=text body=0118eacfe92058b4bdfe1457a77d73e5'),
    ('function', 'scopedb_audit.signing_key_ages()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(key_id text, created_at timestamp with time zone, retired_at timestamp with time zone, rotation_period interval, readable boolean) body=8af89bec808f18d5f989e0053c3508cf'),
    ('function', 'scopedb_private.anchored(text[])', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=text[] body=73b38dedac54b588605fd0b9b647fd9d'),
    ('function', 'scopedb_private.check_token(text)', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=record body=67df6f1e60df848f2c06699c3c86ed22'),
    ('function', 'scopedb_private.derive_hmac_pads()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=trigger body=9ff8f62bab6182d9ea7b9f64acdf0e1f'),
    ('function', 'scopedb_private.is_admin_session()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=f7a079e142c094631a1bfe49da63f7ef'),
    ('function', 'scopedb_private.keep_original_content()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=trigger body=e71e2afe5735903f5c326eb5e48b8b1b'),
    ('function', 'scopedb_private.lock_project(bigint,text)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=3069ade1d80566357d55e373fdccd599'),
    ('function', 'scopedb_private.note_is_live(scopedb.notes)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=19740b93ce5239c908384cb0b872cb2a'),
    ('function', 'scopedb_private.pin_settings()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=3b1288be33f609c609533c0ad4b7e42c'),
    ('function', 'scopedb_private.refuse_resource_cycle()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=trigger body=4d80ad7d91b2dfed4a1e2773a0af566b'),
    ('function', 'scopedb_private.retire_signing_key(text,timestamp with time zone)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=b8fac10a96f2f6ea782ca2e01bbad2d7'),
    ('function', 'scopedb_private.rotate_signing_key(interval)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=text body=9f7114b8dac2512691936732ab27fc19'),
    ('function', 'scopedb_private.sign_claims(jsonb)', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=text body=d044600ac5a36cca6febbd1046bd099f'),
    ('function', 'scopedb_private.sweep_notes()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=record body=778aac8c64fb4882071989cf29c693b2'),
    ('function', 'scopedb_private.sync_fragment_search()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=trigger body=f34ad787ff51a5b33b0f04ac7a5dd0ab'),
    ('function', 'scopedb_private.verified_claims()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=scopedb_private.scope_claims body=2c3908b52c5d2833b353994d5bb6fbfe'),
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
    ('grant', 'function scopedb.delete_fragments(bigint,text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.delete_graph_edges(bigint,text[],text[],text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.delete_graph_nodes(bigint,text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.delete_resource_links(bigint,text[],text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.delete_resources(bigint,text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.enter_scope(text) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.fetch_notes(text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.forget_note(text,text) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.lock_project_tiers(bigint) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.patterns_admit(text,text[],text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.patterns_admit(text,text[],text[]) to scopedb_auditor', 'EXECUTE'),
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
    ('grant', 'function scopedb.scope_project_ids() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_project_names() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_resource_filter() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.search_notes(text,text,integer,integer) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.text_candidates(tsquery,integer) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb_audit."check"() to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.installed_facts() to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.manifest_digest() to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.option_is_on(text[],text) to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.pgvector_too_old(text) to scopedb_auditor', 'EXECUTE'),
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
    ('grant', 'type scopedb_private.scope_claims to public', 'USAGE'),
    ('index', 'scopedb.fragments_embedding_idx', 'CREATE INDEX fragments_embedding_idx ON scopedb.fragments USING hnsw (embedding public.vector_cosine_ops)'),
    ('index', 'scopedb.fragments_pkey', 'CREATE UNIQUE INDEX fragments_pkey ON scopedb.fragments USING btree (project_id, id)'),
    ('index', 'scopedb.fragments_resource_idx', 'CREATE INDEX fragments_resource_idx ON scopedb.fragments USING btree (project_id, resource_id)'),
    ('index', 'scopedb.fragments_tier_lru_idx', 'CREATE INDEX fragments_tier_lru_idx ON scopedb.fragments USING btree (project_id, tier, last_accessed_at)'),
    ('index', 'scopedb.fragments_tsv_idx', 'CREATE INDEX fragments_tsv_idx ON scopedb.fragments USING gin (tsv)'),
    ('index', 'scopedb.graph_edges_dst_idx', 'CREATE INDEX graph_edges_dst_idx ON scopedb.graph_edges USING btree (project_id, dst)'),
    ('index', 'scopedb.graph_edges_pkey', 'CREATE UNIQUE INDEX graph_edges_pkey ON scopedb.graph_edges USING btree (project_id, src, relation, dst)'),
    ('index', 'scopedb.graph_nodes_kind_idx', 'CREATE INDEX graph_nodes_kind_idx ON scopedb.graph_nodes USING btree (project_id, kind)'),
    ('index', 'scopedb.graph_nodes_pkey', 'CREATE UNIQUE INDEX graph_nodes_pkey ON scopedb.graph_nodes USING btree (project_id, id)'),
    ('index', 'scopedb.graph_nodes_resource_idx', 'CREATE INDEX graph_nodes_resource_idx ON scopedb.graph_nodes USING btree (project_id, resource_id)'),
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
    ('index', 'scopedb_private.fragment_originals_pkey', 'CREATE UNIQUE INDEX fragment_originals_pkey ON scopedb_private.fragment_originals USING btree (project_id, id)'),
    ('index', 'scopedb_private.fragment_search_pkey', 'CREATE UNIQUE INDEX fragment_search_pkey ON scopedb_private.fragment_search USING btree (project_id, id)'),
    ('index', 'scopedb_private.fragment_search_tsv_idx', 'CREATE INDEX fragment_search_tsv_idx ON scopedb_private.fragment_search USING gin (tsv)'),
    ('index', 'scopedb_private.project_locks_pkey', 'CREATE UNIQUE INDEX project_locks_pkey ON scopedb_private.project_locks USING btree (project_id, purpose)'),
    ('index', 'scopedb_private.signing_keys_pkey', 'CREATE UNIQUE INDEX signing_keys_pkey ON scopedb_private.signing_keys USING btree (key_id)'),
    ('policy', 'scopedb.fragments "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.fragments "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.fragments "owner deletes the fragments of the entered scope"', 'cmd=d permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((tstzrange(valid_from, valid_to) @> ( SELECT scopedb.scope_as_of() AS scope_as_of)) IS NOT FALSE) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.fragments "owner searches the fragments of the entered scope"', 'cmd=r permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((tstzrange(valid_from, valid_to) @> ( SELECT scopedb.scope_as_of() AS scope_as_of)) IS NOT FALSE) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.fragments "scope limits which fragments the app changes"', 'cmd=w restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((tstzrange(valid_from, valid_to) @> ( SELECT scopedb.scope_as_of() AS scope_as_of)) IS NOT FALSE) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE))))'),
    ('policy', 'scopedb.fragments "scope limits which fragments the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE))))'),
    ('policy', 'scopedb.fragments "scope limits which fragments the app deletes"', 'cmd=d restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((tstzrange(valid_from, valid_to) @> ( SELECT scopedb.scope_as_of() AS scope_as_of)) IS NOT FALSE) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.fragments "scope limits which fragments the app reads"', 'cmd=r restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((tstzrange(valid_from, valid_to) @> ( SELECT scopedb.scope_as_of() AS scope_as_of)) IS NOT FALSE) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.graph_edges "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.graph_edges "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.graph_edges "owner deletes the graph edges of the entered scope"', 'cmd=d permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.src))
 OFFSET 0)) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.dst))
 OFFSET 0))) check=-'),
    ('policy', 'scopedb.graph_edges "owner reads the graph edges of the entered scope"', 'cmd=r permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.src))
 OFFSET 0)) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.dst))
 OFFSET 0))) check=-'),
    ('policy', 'scopedb.graph_edges "scope limits which graph edges the app changes"', 'cmd=w restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.src))
 OFFSET 0)) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.dst))
 OFFSET 0))) check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (EXISTS ( SELECT
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
    ('policy', 'scopedb.graph_edges "scope limits which graph edges the app deletes"', 'cmd=d restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.src))
 OFFSET 0)) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.dst))
 OFFSET 0))) check=-'),
    ('policy', 'scopedb.graph_edges "scope limits which graph edges the app reads"', 'cmd=r restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.src))
 OFFSET 0)) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.dst))
 OFFSET 0))) check=-'),
    ('policy', 'scopedb.graph_nodes "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.graph_nodes "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.graph_nodes "owner deletes the graph nodes of the entered scope"', 'cmd=d permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.graph_nodes "owner reads the graph nodes of the entered scope"', 'cmd=r permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.graph_nodes "scope limits which graph nodes the app changes"', 'cmd=w restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE))))'),
    ('policy', 'scopedb.graph_nodes "scope limits which graph nodes the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE))))'),
    ('policy', 'scopedb.graph_nodes "scope limits which graph nodes the app deletes"', 'cmd=d restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.graph_nodes "scope limits which graph nodes the app reads"', 'cmd=r restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
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
    ('policy', 'scopedb.resource_links "owner deletes the resource links of the entered scope"', 'cmd=d permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[parent_id, child_id] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE)) check=-'),
    ('policy', 'scopedb.resource_links "owner walks the links of the projects of the scope"', 'cmd=r permissive to=scopedb_owner using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=-'),
    ('policy', 'scopedb.resource_links "scope limits which resource links the app changes"', 'cmd=w restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[parent_id, child_id] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE)) check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[parent_id, child_id] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE))'),
    ('policy', 'scopedb.resource_links "scope limits which resource links the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[parent_id, child_id] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE))'),
    ('policy', 'scopedb.resource_links "scope limits which resource links the app deletes"', 'cmd=d restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[parent_id, child_id] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE)) check=-'),
    ('policy', 'scopedb.resource_links "scope limits which resource links the app reads"', 'cmd=r restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[parent_id, child_id] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE)) check=-'),
    ('policy', 'scopedb.resources "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.resources "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.resources "owner deletes the resources of the entered scope"', 'cmd=d permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((id = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE)) check=-'),
    ('policy', 'scopedb.resources "owner lists the resources of the projects of the scope"', 'cmd=r permissive to=scopedb_owner using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=-'),
    ('policy', 'scopedb.resources "scope limits which resources the app changes"', 'cmd=w restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((id = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE)) check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((id = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE))'),
    ('policy', 'scopedb.resources "scope limits which resources the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((id = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE))'),
    ('policy', 'scopedb.resources "scope limits which resources the app deletes"', 'cmd=d restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((id = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE)) check=-'),
    ('policy', 'scopedb.resources "scope limits which resources the app reads"', 'cmd=r restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((id = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE)) check=-'),
    ('schema', 'scopedb', 'owner=scopedb_owner'),
    ('schema', 'scopedb_audit', 'owner=scopedb_owner'),
    ('schema', 'scopedb_private', 'owner=scopedb_owner'),
    ('table', 'scopedb.fragments', 'kind=r owner=scopedb_owner rls=t forced=t'),
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
    ('table', 'scopedb_audit.derived_relations', 'kind=v owner=scopedb_owner rls=f forced=f definition=66b322676730330492bfd4229ed567eb'),
    ('table', 'scopedb_audit.findings', 'kind=v owner=scopedb_owner rls=f forced=f definition=8b1ee10d92ac868d70770bcf94612a3b'),
    ('table', 'scopedb_audit.manifest', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_audit.protected_tables', 'kind=v owner=scopedb_owner rls=f forced=f definition=b1aa23923335f57237f0c7cc96111c74'),
    ('table', 'scopedb_private.fragment_originals', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.fragment_search', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.project_locks', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.signing_keys', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('trigger', 'scopedb.fragments fragments_keep_original', 'CREATE TRIGGER fragments_keep_original BEFORE UPDATE OF tier ON scopedb.fragments FOR EACH ROW EXECUTE FUNCTION scopedb_private.keep_original_content()'),
    ('trigger', 'scopedb.fragments fragments_sync_search_insert', 'CREATE TRIGGER fragments_sync_search_insert AFTER INSERT ON scopedb.fragments REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_fragment_search()'),
    ('trigger', 'scopedb.fragments fragments_sync_search_update', 'CREATE TRIGGER fragments_sync_search_update AFTER UPDATE ON scopedb.fragments REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_fragment_search()'),
    ('trigger', 'scopedb.resource_links resource_links_refuse_cycle', 'CREATE TRIGGER resource_links_refuse_cycle BEFORE INSERT OR UPDATE ON scopedb.resource_links FOR EACH ROW EXECUTE FUNCTION scopedb_private.refuse_resource_cycle()'),
    ('trigger', 'scopedb_private.signing_keys signing_keys_derive_pads', 'CREATE TRIGGER signing_keys_derive_pads BEFORE INSERT OR UPDATE OF secret ON scopedb_private.signing_keys FOR EACH ROW EXECUTE FUNCTION scopedb_private.derive_hmac_pads()');

RESET ROLE;
