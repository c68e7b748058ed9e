-- Revision 0021 (issue 19): scopedb.nearest_fragments without the pg_class lookup that split the projects into
-- indexed and not, and without collecting the index answer in arrays before returning it: one statement orders
-- every project of the call, and a short index answer is followed by the exact one (used_index false), which
-- the caller keeps instead. Same signature and columns; 0.25-0.45 ms less a call on a scratch server.

SET ROLE scopedb_owner;

-- pgvector's settings (hnsw.*) in the function's SET clauses are known only once its library is loaded.
SELECT '[1]'::public.vector;

-- The `k` fragments of `projects` nearest to `query` by `metric` ('cosine', 'l2' or 'inner_product'), always
-- min(k, visible) of them, in one call. For cosine, one statement orders every project of the call by distance:
-- a project whose partition has an HNSW index (those past the storage threshold) is read through its own index (a
-- strict iterative scan, so rows the scope's filters drop do not starve the answer), the others are sorted
-- exactly, and the merge takes the nearest. Each index holds one project's rows, so what it returns never depends
-- on another project's vectors. The planner is not left to choose between the two: under RLS it cannot estimate
-- how many rows a partition keeps, and given the chance it sorted whole indexed partitions, or every partition at
-- once; with sorts disabled, an indexed project can only be merged from its index, and the others are sorted as
-- they must be (a partition whose index a failed build left invalid too: slow, still exact). Rows at the same
-- distance are ordered by key, as the exact statement orders them (an incremental sort over the merge, which
-- reads past the k-th row only through its ties). The other metrics,
-- and `exact`, go straight to the exact statement (the OFFSET 0 fence keeps the planner from ordering through an
-- index).
--
-- The index answer is returned as it is read, flagged used_index = true. When it is short of k (an iterative scan
-- stopped at `max_scan_tuples` before the scope's filters let k rows through, or a project holds fewer), the
-- exact answer follows it, flagged false, and is the answer: every caller keeps the rows flagged false when there
-- are any (scopedb.retrieval does). Returned rows cannot be taken back, and collecting the index answer in arrays
-- first, to return only the complete one, cost a call more than the exact statement costs the rare call that
-- needs it: revision 0021 took that out, with the pg_class lookup that split the projects into indexed and not
-- (one statement over both plans as the two did), 0.25-0.45 ms of a 0.5-1 ms call on a scratch server.
--
-- Runs with the caller's rights (RLS filters every row) and the caller's search_path, which scoped entry pins and
-- which finds pgvector's operators; the settings it changes are restored when it returns. `projects` only prunes
-- the partitions to read: the policies decide what is visible, so passing other ids admits nothing. The searches
-- are planned on every call (plan_cache_mode = force_custom_plan, set just before them), so the scope's ids prune
-- the partitions at planning; everything else keeps its plan, under the planner settings the function pins
-- (sql/04_settings_of_kept_plans.sql).
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
    FOREACH f IN ARRAY ARRAY['scopedb.nearest_fragments(vector, integer, bigint[], text, boolean, integer, integer)'::regprocedure] LOOP
        FOREACH setting IN ARRAY full_set LOOP
            EXECUTE pg_catalog.format('ALTER FUNCTION %s SET %I = %L', f, pg_catalog.split_part(setting, '=', 1),
                                      pg_catalog.split_part(setting, '=', 2));
        END LOOP;
    END LOOP;
END
$$;

RESET ROLE;
