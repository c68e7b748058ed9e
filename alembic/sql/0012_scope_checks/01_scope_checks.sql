-- Revision 0012: cheaper scope checks per statement and a cheaper entry.
--   * check_token and verified_claims run only inside scopedb's SECURITY DEFINER functions, as their owner and
--     under their pinned search_path, so they drop their own SECURITY DEFINER and SET clauses (each cost a save and
--     restore of the setting on every call); scope_entered, which reads a setting anyone may read, runs as the
--     caller and is inlined into the policies.
--   * pin_settings no longer forces custom plans for the whole scoped transaction: scopedb's statements are sent
--     unprepared and its fragment-reading functions pin plan_cache_mode themselves, while the accessors' own key
--     lookup was being planned again on every call. sign_claims keeps a generic plan.
--   * Resolution lives in scopedb_private.resolve_token, which also returns the resolved claims: enter_scope no
--     longer verifies the token it has just signed; the pattern and duplicate-name checks run only when needed.

-- pgvector's settings (hnsw.*) in the SET clauses below are known only once its library is loaded.
SELECT '[1]'::public.vector;

SET ROLE scopedb_owner;

CREATE OR REPLACE FUNCTION scopedb_private.check_token(token text, OUT claims scopedb_private.scope_claims, OUT problem text)
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

CREATE OR REPLACE FUNCTION scopedb_private.verified_claims() RETURNS scopedb_private.scope_claims
LANGUAGE plpgsql
STABLE
AS $$
BEGIN
    RETURN (scopedb_private.check_token(NULLIF(pg_catalog.current_setting('scopedb.scope_token', true), ''))).claims;
END
$$;

CREATE OR REPLACE FUNCTION scopedb_private.sign_claims(claims jsonb) RETURNS text
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

CREATE OR REPLACE FUNCTION scopedb.scope_entered() RETURNS boolean
LANGUAGE sql
STABLE
RETURN COALESCE(pg_catalog.current_setting('scopedb.scope_token', true), '') <> '';

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
            pg_catalog.set_config('hnsw.scan_mem_multiplier', '1', true),
            -- Pruning is what keeps a statement to the scope's partitions. (scopedb sends its statements
            -- unprepared, so their parameters are constants at plan time; its functions that read fragments pin
            -- plan_cache_mode = force_custom_plan themselves. The transaction does not: the scope accessors and
            -- the entry functions would then plan their own lookups again on every call.)
            pg_catalog.set_config('enable_partition_pruning', 'on', true);
    IF pg_catalog.current_setting('transaction_timeout', true) IS NOT NULL THEN  -- PostgreSQL 17 and later
        PERFORM pg_catalog.set_config('transaction_timeout', '0', true);
    END IF;
END
$$;

CREATE FUNCTION scopedb_private.resolve_token(token text, OUT resolved text, OUT resolved_claims scopedb_private.scope_claims)
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
    ids := ARRAY(SELECT p.id FROM scopedb.projects AS p WHERE p.name = ANY (c.projects) ORDER BY p.id);
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
    'Verifies and resolves a scope token (see scopedb.resolve_scope); also returns the resolved claims.';

CREATE OR REPLACE FUNCTION scopedb.resolve_scope(token text) RETURNS text
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN (scopedb_private.resolve_token(token)).resolved;
END
$$;

CREATE OR REPLACE FUNCTION scopedb.enter_scope(token text) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    entered record;
    claims scopedb_private.scope_claims;
BEGIN
    SELECT r.resolved, r.resolved_claims INTO entered FROM scopedb_private.resolve_token(token) AS r;
    claims := entered.resolved_claims;  -- what the token just signed holds: no need to verify it again
    PERFORM pg_catalog.set_config('scopedb.scope_token', entered.resolved, true);
    RETURN pg_catalog.jsonb_build_object(
        'project_ids', claims.project_ids,
        'resource_filter', claims.resource_filter,
        'expires_at', pg_catalog.to_timestamp(claims.exp));
END
$$;

CREATE OR REPLACE FUNCTION scopedb.reenter_scope(resolved text) RETURNS bigint[]
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    claims scopedb_private.scope_claims := (scopedb_private.check_token(resolved)).claims;  -- verified once here
    ids bigint[] := COALESCE(claims.project_ids, '{}'::bigint[]);
BEGIN
    PERFORM pg_catalog.set_config('scopedb.scope_token', COALESCE(resolved, ''), true);
    PERFORM scopedb_private.pin_settings();
    -- The owner's policy on projects admits the names of the token in the setting.
    IF pg_catalog.cardinality(ids) = 0
       OR (SELECT pg_catalog.count(*) FROM scopedb.projects AS p WHERE p.id = ANY (ids) AND p.name = ANY (claims.projects))
          <> pg_catalog.cardinality(ids) THEN
        PERFORM pg_catalog.set_config('scopedb.scope_token', '', true);
        RETURN '{}'::bigint[];
    END IF;
    RETURN ids;
END
$$;

DROP FUNCTION scopedb.text_candidates(tsquery, integer);

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
SET enable_partitionwise_join = on
SET plan_cache_mode = force_custom_plan
AS $$
DECLARE
    ids bigint[] := scopedb.scope_project_ids();
BEGIN
    IF max_rows IS NULL OR max_rows < 0 OR max_rows > 100000 THEN
        RAISE EXCEPTION 'max_rows must be between 0 and 100000' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF COALESCE(pg_catalog.cardinality(ids), 0) = 0 THEN  -- no scope: nothing, and no partition opened
        RETURN;
    END IF;
    RETURN QUERY
        SELECT s.project_id, s.id, pg_catalog.ts_rank_cd(s.tsv, query), f.resource_id, f.path, f.fqn, f.content
          FROM scopedb_private.fragment_search AS s
          JOIN scopedb.fragments AS f ON f.project_id = s.project_id AND f.id = s.id
         WHERE s.tsv @@ query AND s.project_id = ANY (ids) AND f.project_id = ANY (ids)
         ORDER BY 3 DESC, 1, 2   -- by position: the names are also this function's output columns
         LIMIT max_rows;
END
$$;

COMMENT ON FUNCTION scopedb.text_candidates(tsquery, integer) IS
    'Best-ranked fragments of the verified scope matching a tsquery, from the scope''s partitions only.';

REVOKE ALL ON FUNCTION scopedb.text_candidates(tsquery, integer) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION scopedb.text_candidates(tsquery, integer) TO scopedb_app;

CREATE OR REPLACE FUNCTION scopedb.nearest_fragments(query vector, k integer, projects bigint[], metric text, exact boolean,
                                          ef_search integer, max_scan_tuples integer)
RETURNS TABLE (project_id bigint, id text, resource_id text, path text, fqn text, content text,
               distance double precision, used_index boolean)
LANGUAGE plpgsql
VOLATILE
SET plan_cache_mode = force_custom_plan
SET enable_partition_pruning = on
SET enable_sort = on
SET hnsw.iterative_scan = strict_order
SET hnsw.ef_search = 20
SET hnsw.max_scan_tuples = 20000
AS $$
DECLARE
    indexed bigint[];
    scanned bigint[];
    one bigint;
    found text[];
    -- The index answer, column by column, in distance order.
    a_project bigint[];
    a_id text[];
    a_resource text[];
    a_path text[];
    a_fqn text[];
    a_content text[];
    a_distance double precision[];
BEGIN
    IF k IS NULL OR k < 0 OR k > 10000 THEN
        RAISE EXCEPTION 'k must be between 0 and 10000' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF metric IS NULL OR metric NOT IN ('cosine', 'l2', 'inner_product') THEN
        RAISE EXCEPTION 'metric must be cosine, l2 or inner_product' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF COALESCE(pg_catalog.cardinality(projects), 0) = 0 THEN
        RETURN;
    END IF;
    IF metric = 'cosine' AND NOT exact THEN
        -- Which of the projects have an HNSW index on their partition: one lookup of their names in pg_class (the
        -- catalog is readable by every role), simple to plan. An index left invalid by a failed build is one the
        -- planner will not use; with sorts off it then scans and sorts that partition, slow but still exact.
        found := ARRAY(SELECT c.relname::text FROM pg_catalog.pg_class AS c
                        WHERE c.relnamespace = 'scopedb_parts'::regnamespace
                          AND c.relname = ANY (ARRAY(SELECT 'fragments_' || p || '_embedding_hnsw'
                                                       FROM pg_catalog.unnest(projects) AS p)));
        indexed := '{}';
        scanned := '{}';
        FOREACH one IN ARRAY projects LOOP
            IF 'fragments_' || one || '_embedding_hnsw' = ANY (found) THEN
                indexed := indexed || one;
            ELSE
                scanned := scanned || one;
            END IF;
        END LOOP;
    END IF;
    IF metric = 'cosine' AND NOT exact AND pg_catalog.cardinality(indexed) > 0 THEN
        -- An empty list would be `project_id = ANY ('{}')`, which under RLS the planner finds false only after
        -- opening and locking every partition (10,000 projects: out of lock slots). No project has id 0 and no
        -- partition holds it, so '{0}' is pruned to nothing before any partition is opened.
        scanned := CASE WHEN pg_catalog.cardinality(scanned) > 0 THEN scanned ELSE '{0}' END;
        PERFORM pg_catalog.set_config('hnsw.ef_search', GREATEST(LEAST(ef_search, 1000), k, 1)::text, true),
                pg_catalog.set_config('hnsw.max_scan_tuples', GREATEST(max_scan_tuples, 1)::text, true),
                pg_catalog.set_config('enable_sort', 'off', true);
        SELECT pg_catalog.array_agg(u.project_id ORDER BY u.distance, u.project_id, u.id),
               pg_catalog.array_agg(u.id ORDER BY u.distance, u.project_id, u.id),
               pg_catalog.array_agg(u.resource_id ORDER BY u.distance, u.project_id, u.id),
               pg_catalog.array_agg(u.path ORDER BY u.distance, u.project_id, u.id),
               pg_catalog.array_agg(u.fqn ORDER BY u.distance, u.project_id, u.id),
               pg_catalog.array_agg(u.content ORDER BY u.distance, u.project_id, u.id),
               pg_catalog.array_agg(u.distance ORDER BY u.distance, u.project_id, u.id)
          INTO a_project, a_id, a_resource, a_path, a_fqn, a_content, a_distance
          FROM (SELECT b.* FROM (
                    (SELECT f.project_id, f.id, f.resource_id, f.path, f.fqn, f.content,
                            (f.embedding <=> query)::double precision AS distance
                       FROM scopedb.fragments AS f
                      WHERE f.project_id = ANY (indexed) AND f.embedding IS NOT NULL
                      ORDER BY f.embedding <=> query
                      LIMIT k)
                    UNION ALL
                    (SELECT f.project_id, f.id, f.resource_id, f.path, f.fqn, f.content,
                            (f.embedding <=> query)::double precision AS distance
                       FROM scopedb.fragments AS f
                      WHERE f.project_id = ANY (scanned) AND f.embedding IS NOT NULL
                      ORDER BY f.embedding <=> query
                      LIMIT k)) AS b
                 ORDER BY b.distance
                 LIMIT k) AS u;
        IF COALESCE(pg_catalog.cardinality(a_id), 0) >= k THEN
            RETURN QUERY
                SELECT r.*, true
                  FROM ROWS FROM (pg_catalog.unnest(a_project), pg_catalog.unnest(a_id), pg_catalog.unnest(a_resource),
                                  pg_catalog.unnest(a_path), pg_catalog.unnest(a_fqn), pg_catalog.unnest(a_content),
                                  pg_catalog.unnest(a_distance)) AS r;
            RETURN;
        END IF;
        PERFORM pg_catalog.set_config('enable_sort', 'on', true);
    END IF;
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

RESET ROLE;
