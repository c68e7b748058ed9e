-- Revision 0008 down: back to revision 0007.
SET ROLE scopedb_owner;

REVOKE UPDATE ON scopedb.resources, scopedb.fragments, scopedb.graph_nodes, scopedb.graph_edges FROM scopedb_app;
GRANT UPDATE, DELETE ON scopedb.resources, scopedb.resource_links, scopedb.fragments, scopedb.graph_nodes,
    scopedb.graph_edges TO scopedb_app;

DROP POLICY "scope limits which fragments the app reads" ON scopedb.fragments;
DROP POLICY "scope limits which fragments the app creates" ON scopedb.fragments;
DROP POLICY "scope limits which fragments the app changes" ON scopedb.fragments;
DROP POLICY "scope limits which fragments the app deletes" ON scopedb.fragments;
DROP POLICY "owner searches the fragments of the entered scope" ON scopedb.fragments;
DROP POLICY "scope limits which graph nodes the app reads" ON scopedb.graph_nodes;
DROP POLICY "scope limits which graph nodes the app creates" ON scopedb.graph_nodes;
DROP POLICY "scope limits which graph nodes the app changes" ON scopedb.graph_nodes;
DROP POLICY "scope limits which graph nodes the app deletes" ON scopedb.graph_nodes;
DROP POLICY "owner deletes the resources of the entered scope" ON scopedb.resources;
DROP POLICY "owner deletes the resource links of the entered scope" ON scopedb.resource_links;
DROP POLICY "owner deletes the fragments of the entered scope" ON scopedb.fragments;
DROP POLICY "owner reads the graph nodes of the entered scope" ON scopedb.graph_nodes;
DROP POLICY "owner deletes the graph nodes of the entered scope" ON scopedb.graph_nodes;
DROP POLICY "owner reads the graph edges of the entered scope" ON scopedb.graph_edges;
DROP POLICY "owner deletes the graph edges of the entered scope" ON scopedb.graph_edges;
DROP FUNCTION scopedb.delete_resources(target_project bigint, resource_ids text[]);
DROP FUNCTION scopedb.delete_resource_links(target_project bigint, parent_ids text[], child_ids text[]);
DROP FUNCTION scopedb.delete_graph_nodes(target_project bigint, node_ids text[]);
DROP FUNCTION scopedb.delete_graph_edges(target_project bigint, sources text[], relations text[], targets text[]);
DROP FUNCTION scopedb.delete_fragments(target_project bigint, fragment_ids text[]);
DROP FUNCTION scopedb.lock_project_tiers(target_project bigint);
DROP FUNCTION scopedb.reenter_scope(resolved text);
DROP FUNCTION scopedb.scope_name_exclude();
DROP FUNCTION scopedb.scope_name_include();
DROP FUNCTION scopedb.scope_path_exclude();
DROP FUNCTION scopedb.scope_path_include();
DROP FUNCTION scopedb.scope_filters_content();
ALTER TYPE scopedb_private.scope_claims ADD ATTRIBUTE fragment_pattern text;
ALTER TABLE scopedb.resource_links
    DROP CONSTRAINT resource_links_project_id_fkey,
    DROP CONSTRAINT resource_links_parent_fkey,
    DROP CONSTRAINT resource_links_child_fkey,
    ADD CONSTRAINT resource_links_parent_fkey FOREIGN KEY (project_id, parent_id)
        REFERENCES scopedb.resources (project_id, id) ON DELETE CASCADE,
    ADD CONSTRAINT resource_links_child_fkey FOREIGN KEY (project_id, child_id)
        REFERENCES scopedb.resources (project_id, id) ON DELETE CASCADE;
ALTER TABLE scopedb.fragments
    DROP CONSTRAINT fragments_resource_fkey,
    ADD CONSTRAINT fragments_resource_fkey FOREIGN KEY (project_id, resource_id)
        REFERENCES scopedb.resources (project_id, id) ON DELETE CASCADE;
ALTER TABLE scopedb.graph_nodes
    DROP CONSTRAINT graph_nodes_resource_fkey,
    ADD CONSTRAINT graph_nodes_resource_fkey FOREIGN KEY (project_id, resource_id)
        REFERENCES scopedb.resources (project_id, id) ON DELETE CASCADE;
ALTER TABLE scopedb.graph_edges
    DROP CONSTRAINT graph_edges_project_id_fkey,
    DROP CONSTRAINT graph_edges_src_fkey,
    DROP CONSTRAINT graph_edges_dst_fkey,
    ADD CONSTRAINT graph_edges_src_fkey FOREIGN KEY (project_id, src)
        REFERENCES scopedb.graph_nodes (project_id, id) ON DELETE CASCADE,
    ADD CONSTRAINT graph_edges_dst_fkey FOREIGN KEY (project_id, dst)
        REFERENCES scopedb.graph_nodes (project_id, id) ON DELETE CASCADE;
CREATE OR REPLACE FUNCTION scopedb_private.check_token(token text, OUT claims scopedb_private.scope_claims, OUT problem text)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
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
       AND (k.retired_at IS NULL OR k.retired_at > pg_catalog.now());
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
    ELSIF claims.exp IS NULL OR claims.exp <= EXTRACT(epoch FROM pg_catalog.now()) THEN
        problem := 'expired';
    ELSIF claims.iat IS NULL OR claims.iat > EXTRACT(epoch FROM pg_catalog.now()) + 300 THEN
        problem := 'not yet valid';
    ELSIF claims.v IS DISTINCT FROM 1 OR claims.projects IS NULL OR pg_catalog.cardinality(claims.projects) = 0 THEN
        problem := 'malformed';
    END IF;
    IF problem IS NOT NULL THEN
        claims := NULL;
    END IF;
END
$$;
CREATE FUNCTION scopedb_private.regex_literal(value text) RETURNS text
LANGUAGE sql
IMMUTABLE
STRICT
SET search_path = pg_catalog, pg_temp
RETURN pg_catalog.regexp_replace(value, '([^[:alnum:]_])', '\\\1', 'g');
COMMENT ON FUNCTION scopedb_private.regex_literal(text) IS
    'Escapes a string so that it matches itself as a regular expression.';
CREATE FUNCTION scopedb_private.fragment_pattern(c scopedb_private.scope_claims, effective_resources text[])
RETURNS text
LANGUAGE sql
IMMUTABLE
SET search_path = pg_catalog, pg_temp
RETURN (
    SELECT CASE
        WHEN c.resources IS NULL AND COALESCE(pg_catalog.cardinality(c.denied), 0) = 0
             AND COALESCE(pg_catalog.cardinality(c.path_include), 0) = 0
             AND COALESCE(pg_catalog.cardinality(c.path_exclude), 0) = 0
             AND COALESCE(pg_catalog.cardinality(c.name_include), 0) = 0
             AND COALESCE(pg_catalog.cardinality(c.name_exclude), 0) = 0 THEN NULL
        -- Narrowed to resources that are all denied: a pattern no subject (which holds two separators) matches.
        WHEN c.resources IS NOT NULL AND COALESCE(pg_catalog.cardinality(effective_resources), 0) = 0 THEN '\A\Z'
        ELSE '\A'
            || CASE WHEN COALESCE(pg_catalog.cardinality(c.denied), 0) > 0
                    THEN '(?!(?:' || (SELECT pg_catalog.string_agg(scopedb_private.regex_literal(d), '|' ORDER BY d)
                                        FROM pg_catalog.unnest(c.denied) AS d) || ')' || sep || ')'
                    ELSE '' END
            || CASE WHEN c.resources IS NULL THEN '[^' || sep || ']*'
                    ELSE '(?:' || (SELECT pg_catalog.string_agg(scopedb_private.regex_literal(r), '|' ORDER BY r)
                                     FROM pg_catalog.unnest(effective_resources) AS r) || ')' END
            || sep
            || CASE WHEN COALESCE(pg_catalog.cardinality(c.path_exclude), 0) > 0
                    THEN '(?!(?:' || pg_catalog.array_to_string(c.path_exclude, '|') || ')' || sep || ')'
                    ELSE '' END
            || CASE WHEN COALESCE(pg_catalog.cardinality(c.path_include), 0) > 0
                    THEN '(?:' || pg_catalog.array_to_string(c.path_include, '|') || ')'
                    ELSE '[^' || sep || ']*' END
            || sep
            || CASE WHEN COALESCE(pg_catalog.cardinality(c.name_exclude), 0) > 0
                    THEN '(?!(?:' || pg_catalog.array_to_string(c.name_exclude, '|') || ')\Z)'
                    ELSE '' END
            || CASE WHEN COALESCE(pg_catalog.cardinality(c.name_include), 0) > 0
                    THEN '(?:' || pg_catalog.array_to_string(c.name_include, '|') || ')'
                    ELSE '[^' || sep || ']*' END
            || '\Z'
    END
    FROM (SELECT pg_catalog.chr(31) AS sep) AS s);
COMMENT ON FUNCTION scopedb_private.fragment_pattern(scopedb_private.scope_claims, text[]) IS
    'The single regular expression the fragment policies match against resource, path and name.';
CREATE OR REPLACE FUNCTION scopedb.patterns_admit(subject text, include_bodies text[], exclude_bodies text[])
RETURNS boolean
LANGUAGE sql
IMMUTABLE
SET search_path = pg_catalog, pg_temp
RETURN (COALESCE(pg_catalog.cardinality(include_bodies), 0) = 0
        OR subject ~ ('\A(?:' || pg_catalog.array_to_string(include_bodies, '|') || ')\Z'))
   AND (COALESCE(pg_catalog.cardinality(exclude_bodies), 0) = 0
        OR subject !~ ('\A(?:' || pg_catalog.array_to_string(exclude_bodies, '|') || ')\Z'));
CREATE FUNCTION scopedb.scope_fragment_pattern() RETURNS text
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c scopedb_private.scope_claims := scopedb_private.verified_claims();
BEGIN
    IF c IS NULL OR c.project_ids IS NULL THEN
        RETURN '\A\Z';
    END IF;
    RETURN c.fragment_pattern;
END
$$;
COMMENT ON FUNCTION scopedb.scope_fragment_pattern() IS
    'Regular expression over resource, path and name that a fragment must match; NULL when there is none.';
CREATE OR REPLACE FUNCTION scopedb.resolve_scope(token text) RETURNS text
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    checked record;
    c scopedb_private.scope_claims;
    previous text := pg_catalog.current_setting('scopedb.scope_token', true);
    ids bigint[];
    denied text[];
    filter text[];
    claims jsonb;
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
    denied := COALESCE(c.denied, '{}'::text[]);
    -- The owner's policy on projects admits the names of the verified token in the setting.
    PERFORM pg_catalog.set_config('scopedb.scope_token', token, true);
    ids := ARRAY(SELECT p.id FROM scopedb.projects AS p WHERE p.name = ANY (c.projects) ORDER BY p.id);
    IF pg_catalog.cardinality(ids) <> pg_catalog.cardinality(ARRAY(SELECT DISTINCT pg_catalog.unnest(c.projects))) THEN
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
    RETURN scopedb_private.sign_claims(claims || pg_catalog.jsonb_build_object(
        'resource_filter', filter,
        'fragment_pattern', scopedb_private.fragment_pattern(
            c, CASE WHEN c.resources IS NULL THEN NULL ELSE filter END)));
END
$$;
CREATE FUNCTION scopedb_private.text_candidates_sql() RETURNS text
LANGUAGE sql
IMMUTABLE
SET search_path = pg_catalog, pg_temp
RETURN 'SELECT s.project_id, s.id, pg_catalog.ts_rank_cd(s.tsv, $1) AS rank
          FROM scopedb_private.fragment_search AS s
          JOIN scopedb.fragments AS f ON f.project_id = s.project_id AND f.id = s.id
         WHERE s.tsv @@ $1 AND s.project_id = ANY ($3)
         ORDER BY rank DESC, s.project_id, s.id
         LIMIT $2';
COMMENT ON FUNCTION scopedb_private.text_candidates_sql() IS
    'The full-text candidate query shared by scopedb.text_candidates and scopedb.explain_text_candidates.';
CREATE OR REPLACE FUNCTION scopedb.text_candidates(query tsquery, max_rows integer)
RETURNS TABLE (project_id bigint, id text, rank real)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF max_rows IS NULL OR max_rows < 0 OR max_rows > 100000 THEN
        RAISE EXCEPTION 'max_rows must be between 0 and 100000' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN QUERY EXECUTE scopedb_private.text_candidates_sql() USING query, max_rows, scopedb.scope_project_ids();
END
$$;
CREATE FUNCTION scopedb.explain_text_candidates(query tsquery, max_rows integer)
RETURNS SETOF text
LANGUAGE plpgsql
VOLATILE  -- PostgreSQL runs EXPLAIN only from volatile functions
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN QUERY EXECUTE 'EXPLAIN (COSTS OFF) ' || scopedb_private.text_candidates_sql()
        USING query, max_rows, scopedb.scope_project_ids();
END
$$;
COMMENT ON FUNCTION scopedb.explain_text_candidates(tsquery, integer) IS
    'EXPLAIN of the statement scopedb.text_candidates runs (to verify the GIN index is used).';
CREATE OR REPLACE FUNCTION scopedb_private.refuse_resource_cycle() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM pg_catalog.pg_advisory_xact_lock(
        pg_catalog.hashtextextended('scopedb.resource_links:' || NEW.project_id::text, 0));
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
DROP FUNCTION scopedb_private.pin_settings();
DROP FUNCTION scopedb_private.anchored(text[]);
DROP FUNCTION scopedb_private.lock_project(bigint, text);
DROP TABLE scopedb_private.project_locks;
CREATE POLICY "scope limits which fragments the app reads" ON scopedb.fragments
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (tstzrange(valid_from, valid_to) @> (SELECT scopedb.scope_as_of())) IS NOT FALSE
           AND (COALESCE(resource_id, '') || chr(31) || COALESCE(path, '') || chr(31) || COALESCE(fqn, '')
                ~ (SELECT scopedb.scope_fragment_pattern())) IS NOT FALSE);
CREATE POLICY "scope limits which fragments the app creates" ON scopedb.fragments
    AS RESTRICTIVE FOR INSERT TO scopedb_app
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND (COALESCE(resource_id, '') || chr(31) || COALESCE(path, '') || chr(31) || COALESCE(fqn, '')
                     ~ (SELECT scopedb.scope_fragment_pattern())) IS NOT FALSE);
CREATE POLICY "scope limits which fragments the app changes" ON scopedb.fragments
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (tstzrange(valid_from, valid_to) @> (SELECT scopedb.scope_as_of())) IS NOT FALSE
           AND (COALESCE(resource_id, '') || chr(31) || COALESCE(path, '') || chr(31) || COALESCE(fqn, '')
                ~ (SELECT scopedb.scope_fragment_pattern())) IS NOT FALSE)
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND (COALESCE(resource_id, '') || chr(31) || COALESCE(path, '') || chr(31) || COALESCE(fqn, '')
                     ~ (SELECT scopedb.scope_fragment_pattern())) IS NOT FALSE);
CREATE POLICY "scope limits which fragments the app deletes" ON scopedb.fragments
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (tstzrange(valid_from, valid_to) @> (SELECT scopedb.scope_as_of())) IS NOT FALSE
           AND (COALESCE(resource_id, '') || chr(31) || COALESCE(path, '') || chr(31) || COALESCE(fqn, '')
                ~ (SELECT scopedb.scope_fragment_pattern())) IS NOT FALSE);
CREATE POLICY "owner searches the fragments of the entered scope" ON scopedb.fragments
    AS PERMISSIVE FOR SELECT TO scopedb_owner
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (tstzrange(valid_from, valid_to) @> (SELECT scopedb.scope_as_of())) IS NOT FALSE
           AND (COALESCE(resource_id, '') || chr(31) || COALESCE(path, '') || chr(31) || COALESCE(fqn, '')
                ~ (SELECT scopedb.scope_fragment_pattern())) IS NOT FALSE);
CREATE POLICY "scope limits which graph nodes the app reads" ON scopedb.graph_nodes
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (COALESCE(resource_id, '') || chr(31) || COALESCE(path, '') || chr(31) || COALESCE(fqn, '')
                ~ (SELECT scopedb.scope_fragment_pattern())) IS NOT FALSE);
CREATE POLICY "scope limits which graph nodes the app creates" ON scopedb.graph_nodes
    AS RESTRICTIVE FOR INSERT TO scopedb_app
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND (COALESCE(resource_id, '') || chr(31) || COALESCE(path, '') || chr(31) || COALESCE(fqn, '')
                     ~ (SELECT scopedb.scope_fragment_pattern())) IS NOT FALSE);
CREATE POLICY "scope limits which graph nodes the app changes" ON scopedb.graph_nodes
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (COALESCE(resource_id, '') || chr(31) || COALESCE(path, '') || chr(31) || COALESCE(fqn, '')
                ~ (SELECT scopedb.scope_fragment_pattern())) IS NOT FALSE)
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND (COALESCE(resource_id, '') || chr(31) || COALESCE(path, '') || chr(31) || COALESCE(fqn, '')
                     ~ (SELECT scopedb.scope_fragment_pattern())) IS NOT FALSE);
CREATE POLICY "scope limits which graph nodes the app deletes" ON scopedb.graph_nodes
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (COALESCE(resource_id, '') || chr(31) || COALESCE(path, '') || chr(31) || COALESCE(fqn, '')
                ~ (SELECT scopedb.scope_fragment_pattern())) IS NOT FALSE);
GRANT EXECUTE ON FUNCTION scopedb.scope_fragment_pattern() TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.explain_text_candidates(tsquery, integer) TO scopedb_app;
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
    -- E016 pgvector >= 0.8.
    SELECT 'error', 'E016', 'extension vector',
           COALESCE('pgvector ' || e.extversion || ' is older than 0.8', 'pgvector is not installed'),
           'install pgvector 0.8 or newer, then ALTER EXTENSION vector UPDATE;'
      FROM (SELECT (SELECT x.extversion FROM pg_catalog.pg_extension AS x WHERE x.extname = 'vector') AS extversion) AS e
     WHERE scopedb_audit.pgvector_too_old(e.extversion);
$$;

RESET ROLE;
