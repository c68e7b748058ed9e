-- Revision 0008: what an outside review broke, closed.
--   * Owner-run functions pin the settings their answers depend on (text_candidates: gin_fuzzy_search_limit and
--     the planner switches) and none shows a plan (explain_text_candidates is gone).
--   * Scope entry pins the settings scoped transactions rely on (pin_settings), whatever the shared login stored.
--   * Expiry and key retirement take effect at the next statement (statement_timestamp, not now()).
--   * Foreign keys inside a project no longer cascade; the app holds no DELETE and only column UPDATE privileges
--     (either one on a whole table allowed LOCK ... ACCESS EXCLUSIVE); deletes go through scopedb.delete_*.
--   * Per-project locks are row locks in an owner-only table, not advisory locks with computable keys.
--   * Path and name patterns are tested one regex per pattern, and a scope carries at most 16 of them.
SET ROLE scopedb_owner;

-- The policies that read scope_fragment_pattern, and what only they and the explain helper used.
DROP POLICY "scope limits which fragments the app reads" ON scopedb.fragments;
DROP POLICY "scope limits which fragments the app creates" ON scopedb.fragments;
DROP POLICY "scope limits which fragments the app changes" ON scopedb.fragments;
DROP POLICY "scope limits which fragments the app deletes" ON scopedb.fragments;
DROP POLICY "owner searches the fragments of the entered scope" ON scopedb.fragments;
DROP POLICY "scope limits which graph nodes the app reads" ON scopedb.graph_nodes;
DROP POLICY "scope limits which graph nodes the app creates" ON scopedb.graph_nodes;
DROP POLICY "scope limits which graph nodes the app changes" ON scopedb.graph_nodes;
DROP POLICY "scope limits which graph nodes the app deletes" ON scopedb.graph_nodes;
DROP FUNCTION scopedb.explain_text_candidates(tsquery, integer);
DROP FUNCTION scopedb_private.text_candidates_sql();
DROP FUNCTION scopedb.scope_fragment_pattern();
DROP FUNCTION scopedb_private.fragment_pattern(scopedb_private.scope_claims, text[]);
DROP FUNCTION scopedb_private.regex_literal(text);
ALTER TYPE scopedb_private.scope_claims DROP ATTRIBUTE fragment_pattern;

-- Foreign keys inside a project stop cascading; links and edges cascade from their project directly.
ALTER TABLE scopedb.resource_links
    DROP CONSTRAINT resource_links_parent_fkey,
    DROP CONSTRAINT resource_links_child_fkey,
    ADD CONSTRAINT resource_links_parent_fkey FOREIGN KEY (project_id, parent_id)
        REFERENCES scopedb.resources (project_id, id),
    ADD CONSTRAINT resource_links_child_fkey FOREIGN KEY (project_id, child_id)
        REFERENCES scopedb.resources (project_id, id),
    ADD CONSTRAINT resource_links_project_id_fkey FOREIGN KEY (project_id)
        REFERENCES scopedb.projects (id) ON DELETE CASCADE;
ALTER TABLE scopedb.fragments
    DROP CONSTRAINT fragments_resource_fkey,
    ADD CONSTRAINT fragments_resource_fkey FOREIGN KEY (project_id, resource_id)
        REFERENCES scopedb.resources (project_id, id);
ALTER TABLE scopedb.graph_nodes
    DROP CONSTRAINT graph_nodes_resource_fkey,
    ADD CONSTRAINT graph_nodes_resource_fkey FOREIGN KEY (project_id, resource_id)
        REFERENCES scopedb.resources (project_id, id);
ALTER TABLE scopedb.graph_edges
    DROP CONSTRAINT graph_edges_src_fkey,
    DROP CONSTRAINT graph_edges_dst_fkey,
    ADD CONSTRAINT graph_edges_src_fkey FOREIGN KEY (project_id, src)
        REFERENCES scopedb.graph_nodes (project_id, id),
    ADD CONSTRAINT graph_edges_dst_fkey FOREIGN KEY (project_id, dst)
        REFERENCES scopedb.graph_nodes (project_id, id),
    ADD CONSTRAINT graph_edges_project_id_fkey FOREIGN KEY (project_id)
        REFERENCES scopedb.projects (id) ON DELETE CASCADE;

CREATE TABLE scopedb_private.project_locks (
    project_id  bigint NOT NULL REFERENCES scopedb.projects (id) ON DELETE CASCADE,
    purpose     text NOT NULL,
    CONSTRAINT project_locks_pkey PRIMARY KEY (project_id, purpose),
    CONSTRAINT project_locks_purpose_check CHECK (purpose IN ('tiers', 'resource_links'))
);
COMMENT ON TABLE scopedb_private.project_locks IS
    'Per-project lock rows that owner functions lock to serialise work on one project; owner-only.';

-- Functions, in the order of sql/03_functions.sql.
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
CREATE FUNCTION scopedb_private.anchored(bodies text[]) RETURNS text[]
LANGUAGE sql
IMMUTABLE
SET search_path = pg_catalog, pg_temp
RETURN CASE WHEN bodies IS NULL THEN NULL
            ELSE ARRAY(SELECT '\A(?:' || b || ')\Z' FROM pg_catalog.unnest(bodies) AS b ORDER BY b) END;
COMMENT ON FUNCTION scopedb_private.anchored(text[]) IS
    'Anchors each compiled pattern body: \A(?:body)\Z.';
CREATE OR REPLACE FUNCTION scopedb.patterns_admit(subject text, include_bodies text[], exclude_bodies text[])
RETURNS boolean
LANGUAGE sql
IMMUTABLE
SET search_path = pg_catalog, pg_temp
RETURN (COALESCE(pg_catalog.cardinality(include_bodies), 0) = 0
        OR subject ~ ANY (scopedb_private.anchored(include_bodies)))
   AND (COALESCE(pg_catalog.cardinality(exclude_bodies), 0) = 0
        OR NOT subject ~ ANY (scopedb_private.anchored(exclude_bodies)));
CREATE FUNCTION scopedb.scope_filters_content() RETURNS boolean
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c scopedb_private.scope_claims := scopedb_private.verified_claims();
BEGIN
    IF c IS NULL OR c.project_ids IS NULL THEN
        RETURN false;  -- scope_project_ids() is empty then, which admits nothing on its own
    END IF;
    RETURN COALESCE(pg_catalog.cardinality(c.path_include), 0) + COALESCE(pg_catalog.cardinality(c.path_exclude), 0)
         + COALESCE(pg_catalog.cardinality(c.name_include), 0) + COALESCE(pg_catalog.cardinality(c.name_exclude), 0)
         > 0;
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
DECLARE
    c scopedb_private.scope_claims := scopedb_private.verified_claims();
BEGIN
    IF c IS NULL OR c.project_ids IS NULL THEN
        RETURN '{}'::text[];
    END IF;
    RETURN scopedb_private.anchored(NULLIF(c.path_include, '{}'));
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
    RETURN scopedb_private.anchored(NULLIF((scopedb_private.verified_claims()).path_exclude, '{}'));
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
DECLARE
    c scopedb_private.scope_claims := scopedb_private.verified_claims();
BEGIN
    IF c IS NULL OR c.project_ids IS NULL THEN
        RETURN '{}'::text[];
    END IF;
    RETURN scopedb_private.anchored(NULLIF(c.name_include, '{}'));
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
    RETURN scopedb_private.anchored(NULLIF((scopedb_private.verified_claims()).name_exclude, '{}'));
END
$$;
COMMENT ON FUNCTION scopedb.scope_name_exclude() IS
    'Anchored name exclude patterns of the verified scope; NULL when it has none.';
CREATE FUNCTION scopedb_private.pin_settings() RETURNS void
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
COMMENT ON FUNCTION scopedb_private.pin_settings() IS
    'Sets, for the transaction, every setting a scoped transaction''s results or refusals depend on.';
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
    -- The policies test every pattern against every row they check: bound the work a scope can ask for (the
    -- Python layer refuses such scopes first, with the same limits).
    IF COALESCE(pg_catalog.cardinality(c.path_include), 0) + COALESCE(pg_catalog.cardinality(c.path_exclude), 0)
       + COALESCE(pg_catalog.cardinality(c.name_include), 0) + COALESCE(pg_catalog.cardinality(c.name_exclude), 0) > 16
       OR EXISTS (SELECT FROM pg_catalog.unnest(c.path_include || c.path_exclude || c.name_include || c.name_exclude)
                           AS b WHERE pg_catalog.length(b) > 4096) THEN
        RAISE EXCEPTION 'scope too complex: at most 16 path and name patterns' USING ERRCODE = 'SD006';
    END IF;
    PERFORM scopedb_private.pin_settings();
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
    RETURN scopedb_private.sign_claims(claims || pg_catalog.jsonb_build_object('resource_filter', filter));
END
$$;
CREATE FUNCTION scopedb.reenter_scope(resolved text) RETURNS bigint[]
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM pg_catalog.set_config('scopedb.scope_token', COALESCE(resolved, ''), true);
    PERFORM scopedb_private.pin_settings();
    RETURN scopedb.scope_project_ids();
END
$$;
COMMENT ON FUNCTION scopedb.reenter_scope(text) IS
    'Enters a resolved scope token kept from an earlier entry; returns its project ids (empty if it no longer verifies).';
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
CREATE FUNCTION scopedb.delete_fragments(target_project bigint, fragment_ids text[]) RETURNS integer
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
CREATE FUNCTION scopedb.delete_resources(target_project bigint, resource_ids text[]) RETURNS integer
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
COMMENT ON FUNCTION scopedb.delete_resources(bigint, text[]) IS
    'Deletes resources of the entered scope with what hangs off them in the scope; refused if anything is hidden.';
CREATE OR REPLACE FUNCTION scopedb_private.refuse_resource_cycle() RETURNS trigger
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

-- Policies.
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
CREATE POLICY "scope limits which graph nodes the app reads" ON scopedb.graph_nodes
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
           AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));
CREATE POLICY "scope limits which graph nodes the app creates" ON scopedb.graph_nodes
    AS RESTRICTIVE FOR INSERT TO scopedb_app
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
                AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                     OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                         AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                         AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                         AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));
CREATE POLICY "scope limits which graph nodes the app changes" ON scopedb.graph_nodes
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
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
CREATE POLICY "scope limits which graph nodes the app deletes" ON scopedb.graph_nodes
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
           AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));
CREATE POLICY "owner deletes the resources of the entered scope" ON scopedb.resources
    AS PERMISSIVE FOR DELETE TO scopedb_owner
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (id = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE);
CREATE POLICY "owner deletes the resource links of the entered scope" ON scopedb.resource_links
    AS PERMISSIVE FOR DELETE TO scopedb_owner
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (ARRAY[parent_id, child_id] <@ (SELECT scopedb.scope_resource_filter())::text[]) IS NOT FALSE);
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
CREATE POLICY "owner reads the graph nodes of the entered scope" ON scopedb.graph_nodes
    AS PERMISSIVE FOR SELECT TO scopedb_owner
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
           AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));
CREATE POLICY "owner deletes the graph nodes of the entered scope" ON scopedb.graph_nodes
    AS PERMISSIVE FOR DELETE TO scopedb_owner
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
           AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));
CREATE POLICY "owner reads the graph edges of the entered scope" ON scopedb.graph_edges
    AS PERMISSIVE FOR SELECT TO scopedb_owner
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                       WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.src OFFSET 0)
           AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                       WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.dst OFFSET 0));
CREATE POLICY "owner deletes the graph edges of the entered scope" ON scopedb.graph_edges
    AS PERMISSIVE FOR DELETE TO scopedb_owner
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                       WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.src OFFSET 0)
           AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                       WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.dst OFFSET 0));

-- Privileges: no DELETE and no table-level UPDATE for the app (both allow LOCK TABLE in every mode).
REVOKE UPDATE, DELETE ON scopedb.resources, scopedb.resource_links, scopedb.fragments, scopedb.graph_nodes,
    scopedb.graph_edges FROM scopedb_app;
GRANT UPDATE (alias, kind) ON scopedb.resources TO scopedb_app;
GRANT UPDATE (resource_id, path, fqn, content, embedding, tier, token_count, last_accessed_at, valid_from, valid_to,
              created_by) ON scopedb.fragments TO scopedb_app;
GRANT UPDATE (resource_id, kind, label, path, fqn, properties) ON scopedb.graph_nodes TO scopedb_app;
GRANT UPDATE (weight) ON scopedb.graph_edges TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.scope_filters_content() TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.scope_path_include() TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.scope_path_exclude() TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.scope_name_include() TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.scope_name_exclude() TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.reenter_scope(text) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.lock_project_tiers(bigint) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.delete_fragments(bigint, text[]) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.delete_graph_edges(bigint, text[], text[], text[]) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.delete_graph_nodes(bigint, text[]) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.delete_resource_links(bigint, text[], text[]) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.delete_resources(bigint, text[]) TO scopedb_app;

RESET ROLE;
