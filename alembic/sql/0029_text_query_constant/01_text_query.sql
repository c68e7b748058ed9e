-- Revision 0029 (issue 19): scopedb.text_candidates plans the tsquery as a constant over several partitions too.
-- Revision 0018 read it through a sub-SELECT there (an InitPlan), because estimating a constant tsquery against
-- each partition's most common lexemes cost more than a rare word's search. Since revision 0027 those lists are
-- short and the estimate is cheap, and the search costs less with the constant: side by side on one medium corpus,
-- a rare word's search with snippets over a 10% scope (27 partitions) went from 1.37 to 1.27 times the owner's
-- query, over every project from 1.10 to 0.97. The scope's time and resources stay sub-SELECTs; the
-- one-partition statement is unchanged.

SET ROLE scopedb_owner;

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
    -- partitions the scope's time and resources are read through sub-SELECTs (InitPlans, evaluated once): as
    -- constants, the planner estimated them from every pruned partition's statistics on every call (revision
    -- 0018). The tsquery was read that way too until revision 0029; its estimate has been cheap since the short
    -- lexeme lists of revision 0027, and as a constant the search costs less: side by side on one loaded medium
    -- corpus, the search with its snippets took 1.37 times the owner's query with a rare word over a 10% scope
    -- (27 partitions) and 1.27 times with the constant, over every project 1.10 and 0.97 (docs/benchmarks.md).
    -- Over one partition the constants cost less than the sub-SELECTs (a rare word: 0.38 ms a call against
    -- 0.42), so that statement keeps them all.
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
         WHERE s.tsv @@ query AND s.project_id = ANY (ids)
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

COMMENT ON FUNCTION scopedb.text_candidates(tsquery, integer) IS
    'Best-ranked fragments of the verified scope matching a tsquery, from the scope''s partitions only.';

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
    FOREACH f IN ARRAY ARRAY['scopedb.text_candidates(tsquery, integer)'::regprocedure] LOOP
        FOREACH setting IN ARRAY full_set LOOP
            EXECUTE pg_catalog.format('ALTER FUNCTION %s SET %I = %L', f, pg_catalog.split_part(setting, '=', 1),
                                      pg_catalog.split_part(setting, '=', 2));
        END LOOP;
    END LOOP;
END
$$;

RESET ROLE;
