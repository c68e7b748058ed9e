-- Revision 0020 (issue 19): text_candidates and nearest_fragments plan their searches on every call, for the
-- scope's partitions, and keep the plans of everything else (PL/pgSQL plans each expression as a statement;
-- planning them all on every call cost 40-100 µs a call). What they keep is planned under the full set of pinned
-- planner settings (sql/04_settings_of_kept_plans.sql), so no tenant's settings shape a later tenant's call.
-- text_candidates also reads the scope's terms from scopedb_private.terms_of.

SET ROLE scopedb_owner;

-- pgvector's settings (hnsw.*) in nearest_fragments' SET clauses are known only once its library is loaded.
SELECT '[1]'::public.vector;

CREATE OR REPLACE FUNCTION scopedb.text_candidates(query tsquery, max_rows integer)
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
SET constraint_exclusion = off
SET plan_cache_mode = auto
AS $$
DECLARE
    -- The terms the read policy on scopedb.fragments tests (scopedb_private.terms_of), read once.
    t scopedb.scope_terms := scopedb_private.terms_of(scopedb_private.verified_claims());
    ids bigint[] := t.project_ids;
BEGIN
    IF max_rows IS NULL OR max_rows < 0 OR max_rows > 100000 THEN
        RAISE EXCEPTION 'max_rows must be between 0 and 100000' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF COALESCE(pg_catalog.cardinality(ids), 0) = 0 THEN  -- no scope: nothing, and no partition opened
        RETURN;
    END IF;
    -- The project ids are constants of the plan, so the planner prunes to the scope's partitions. Over several
    -- partitions the tsquery and the scope's time and resources are read through sub-SELECTs (InitPlans, evaluated
    -- once): as constants, the planner estimated each from every pruned partition's statistics on every call — the
    -- tsquery's lexemes against its most common elements, the time against its histogram — which at nine
    -- partitions cost more than a rare word's search (0.64 ms a call, 0.47 ms so; revision 0018). With the default
    -- estimates it plans as the owner's query that takes the tsquery from a CTE. Over one partition the constants
    -- cost less than the sub-SELECTs (a rare word: 0.38 ms a call against 0.42), so that statement keeps them.
    -- The search is planned on every call, for the scope's partitions alone: its plan is never kept for a later
    -- call. Everything before it (the checks above are expressions, and PL/pgSQL plans an expression as it plans a
    -- statement) keeps its plan; planned on every call as well, they cost 40-60 µs of a call. The function's SET
    -- clause restores the caller's plan_cache_mode when it returns.
    PERFORM pg_catalog.set_config('plan_cache_mode', 'force_custom_plan', true);
    IF pg_catalog.cardinality(ids) = 1 THEN
        RETURN QUERY
            SELECT s.project_id, s.id, pg_catalog.ts_rank_cd(s.tsv, query) AS rank, s.resource_id, s.path, s.fqn,
                   s.content
              FROM scopedb_private.fragment_search AS s
             WHERE s.tsv @@ query AND s.project_id = ANY (ids)
               -- The read policy on scopedb.fragments (sql/04_policies.sql), on the copied columns.
               AND (s.valid_from <= t.as_of AND (s.valid_to IS NULL OR s.valid_to > t.as_of)) IS NOT FALSE
               AND (COALESCE(s.resource_id, '') = ANY (t.resource_filter)) IS NOT FALSE
               AND (NOT t.filters_content
                    OR ((COALESCE(s.path, '') ~ ANY (t.path_include)) IS NOT FALSE
                        AND (COALESCE(s.path, '') ~ ANY (t.path_exclude)) IS NOT TRUE
                        AND (COALESCE(s.fqn, '') ~ ANY (t.name_include)) IS NOT FALSE
                        AND (COALESCE(s.fqn, '') ~ ANY (t.name_exclude)) IS NOT TRUE))
             ORDER BY 3 DESC, 1, 2   -- by position: the names are also this function's output columns
             LIMIT max_rows;
        RETURN;
    END IF;
    RETURN QUERY
        SELECT s.project_id, s.id, pg_catalog.ts_rank_cd(s.tsv, query) AS rank, s.resource_id, s.path, s.fqn,
               s.content
          FROM scopedb_private.fragment_search AS s
         WHERE s.tsv @@ (SELECT query) AND s.project_id = ANY (ids)
           -- The read policy on scopedb.fragments (sql/04_policies.sql), on the copied columns.
           AND (s.valid_from <= (SELECT t.as_of) AND (s.valid_to IS NULL OR s.valid_to > (SELECT t.as_of))) IS NOT FALSE
           AND (COALESCE(s.resource_id, '') = ANY ((SELECT t.resource_filter)::text[])) IS NOT FALSE
           AND (NOT t.filters_content
                OR ((COALESCE(s.path, '') ~ ANY (t.path_include)) IS NOT FALSE
                    AND (COALESCE(s.path, '') ~ ANY (t.path_exclude)) IS NOT TRUE
                    AND (COALESCE(s.fqn, '') ~ ANY (t.name_include)) IS NOT FALSE
                    AND (COALESCE(s.fqn, '') ~ ANY (t.name_exclude)) IS NOT TRUE))
         ORDER BY 3 DESC, 1, 2   -- by position: the names are also this function's output columns
         LIMIT max_rows;
END
$$;

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
    indexed bigint[];
    scanned bigint[];
    one bigint;
    names text[] := '{}';
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
        -- catalog is readable by every role) by its (relname, relnamespace) index. The names are built here, not
        -- in the statement: a subquery there made the lookup cost more to plan (it is planned on every call) than
        -- all of the rest of the function. An index left invalid by a failed build is one the planner will not
        -- use; with sorts off it then scans and sorts that partition, slow but still exact.
        FOREACH one IN ARRAY projects LOOP
            names := names || ('fragments_' || one || '_embedding_hnsw');
        END LOOP;
        found := ARRAY(SELECT c.relname::text FROM pg_catalog.pg_class AS c
                        WHERE c.relnamespace = 'scopedb_parts'::regnamespace AND c.relname = ANY (names::name[]));
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
        -- Neither list reaches a statement empty: `project_id = ANY ('{}')` is found false under RLS only after
        -- every partition is opened and locked (10,000 projects: out of lock slots).
        PERFORM pg_catalog.set_config('hnsw.ef_search', GREATEST(LEAST(ef_search, 1000), k, 1)::text, true),
                pg_catalog.set_config('hnsw.max_scan_tuples', GREATEST(max_scan_tuples, 1)::text, true),
                pg_catalog.set_config('enable_sort', 'off', true),
                pg_catalog.set_config('plan_cache_mode', 'force_custom_plan', true);
        -- The answer is staged in arrays, in the order the statement returns it (distance order; one aggregate
        -- step over the same rows keeps the arrays aligned, where an ORDER BY in each aggregate sorted seven
        -- times). A scope whose projects all have an index, the common case for large tenants, plans one branch,
        -- not two: planning the second, empty one cost as much as reading the index.
        IF pg_catalog.cardinality(scanned) = 0 THEN
            SELECT pg_catalog.array_agg(u.project_id), pg_catalog.array_agg(u.id), pg_catalog.array_agg(u.resource_id),
                   pg_catalog.array_agg(u.path), pg_catalog.array_agg(u.fqn), pg_catalog.array_agg(u.content),
                   pg_catalog.array_agg(u.distance)
              INTO a_project, a_id, a_resource, a_path, a_fqn, a_content, a_distance
              FROM (SELECT f.project_id, f.id, f.resource_id, f.path, f.fqn, f.content,
                           (f.embedding <=> query)::double precision AS distance
                      FROM scopedb.fragments AS f
                     WHERE f.project_id = ANY (indexed) AND f.embedding IS NOT NULL
                     ORDER BY f.embedding <=> query
                     LIMIT k) AS u;
        ELSE
            SELECT pg_catalog.array_agg(u.project_id), pg_catalog.array_agg(u.id), pg_catalog.array_agg(u.resource_id),
                   pg_catalog.array_agg(u.path), pg_catalog.array_agg(u.fqn), pg_catalog.array_agg(u.content),
                   pg_catalog.array_agg(u.distance)
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
        END IF;
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
    PERFORM pg_catalog.set_config('plan_cache_mode', 'force_custom_plan', true);
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

-- CREATE OR REPLACE sets the SET clauses anew: the full set of pins follows (as sql/04_settings_of_kept_plans.sql).
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
    FOREACH f IN ARRAY ARRAY['scopedb.text_candidates(tsquery, integer)'::regprocedure,
                             'scopedb.nearest_fragments(vector, integer, bigint[], text, boolean, integer, integer)'::regprocedure] LOOP
        FOREACH setting IN ARRAY full_set LOOP
            EXECUTE pg_catalog.format('ALTER FUNCTION %s SET %I = %L', f, pg_catalog.split_part(setting, '=', 1),
                                      pg_catalog.split_part(setting, '=', 2));
        END LOOP;
    END LOOP;
END
$$;

RESET ROLE;
