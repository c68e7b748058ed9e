-- Revision 0029 (issue 19): scopedb.text_candidates searches with one statement, the tsquery, the project ids and
-- every term of the scope constants of its plan, over one partition or several, and writes its validity and
-- resource tests so that what the constants decide folds away at planning. Revision 0018 read the tsquery, the
-- time and the resources through sub-SELECTs (InitPlans) over several partitions, because estimating constants
-- against each partition's statistics cost more than a rare word's search. Since revision 0027 the lexeme lists
-- are short and the estimates cheap, and planning the sub-SELECTs, each a query of its own, was the dearer part:
-- side by side on one medium corpus, a rare word's search with snippets over a 1% scope (five projects) took 1.30
-- times the owner's query with them, 1.26 with the tsquery constant alone, and 40-80 µs less again with every
-- term constant; over a 10% scope (27 partitions) 1.37 and 1.27 for the first two steps. The tests are the read
-- policy's for every value of the terms; a common word over a 10% scope, tested on thousands of matches, took
-- 0.5-1.0 ms less with them written this way. Over several projects the statement is planned without sequential
-- scans: knowing the tsquery, the planner read whole partitions where a common word is frequent, testing @@ on
-- every row, where the GIN index needs no test (a 1% scope at full size: 1.5-2.1 ms less).

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
    -- One statement, with the tsquery, the project ids and every term of the scope as constants of its plan: the
    -- planner prunes to the scope's partitions and drops the tests a scope does not need. Revisions 0018 to 0028
    -- read the tsquery, the time and the resources of a scope over several partitions through sub-SELECTs
    -- (InitPlans), because estimating constants against every partition's statistics cost more than a rare word's
    -- search; since revision 0027 shortened the lexeme lists that estimate is cheap, and planning the three
    -- sub-SELECTs (each a query of its own to the planner) was what cost more. Side by side on one loaded medium
    -- corpus, a rare word's search with snippets: 1.30 times the owner's query at a 1% scope (five projects) with
    -- the sub-SELECTs, 1.26 with only the tsquery constant, and 40-80 µs less again with every term constant
    -- (docs/benchmarks.md, revision 0029).
    -- The search is planned on every call, for the scope's partitions alone: its plan is never kept for a later
    -- call. Everything before it (the checks above are expressions, and PL/pgSQL plans an expression as it plans a
    -- statement) keeps its plan; planned on every call as well, they cost 40-60 µs of a call. The function's SET
    -- clause restores the caller's plan_cache_mode when it returns.
    PERFORM pg_catalog.set_config('plan_cache_mode', 'force_custom_plan', true);
    -- Over several projects, no sequential scan (restored at return, as plan_cache_mode is). Knowing the tsquery,
    -- the planner read the partitions where a common word is frequent from end to end, testing @@ on every row,
    -- which it costs as one operator; the word's GIN index hands over the matching rows without that test, and
    -- the shared partition is read through its key, the scope's projects only. A common word over a 1% scope
    -- (nine projects, full size) took 0.6-1.0 ms less than with the sub-SELECTs before this revision, and 1.5-2.1
    -- ms less than with the sequential scans allowed. One project keeps the planner's choice: a rare word in a
    -- small project's partition cost 20-30 µs more without it.
    IF pg_catalog.cardinality(ids) > 1 THEN
        PERFORM pg_catalog.set_config('enable_seqscan', 'off', true);
    END IF;
    RETURN QUERY
        SELECT s.project_id, s.id, pg_catalog.ts_rank_cd(s.tsv, query) AS rank, s.resource_id, s.path, s.fqn,
               s.content
          FROM scopedb_private.fragment_search AS s
         WHERE s.tsv @@ query AND s.project_id = ANY (ids)
           -- The read policy on scopedb.fragments (sql/04_policies.sql), on the copied columns. Its validity and
           -- resource tests are written so that what the scope's constants decide folds away at planning: the
           -- resource test for a scope with no resource filter, the time tests for one that reads every version.
           -- What is left is tested on every match, and a common word over a 10% scope matches thousands of rows:
           -- side by side (medium size, the owner's query 8-13 ms), the search without the two tests took 1.8-2.3
           -- ms less than with them as the policy writes them, and with them written this way 0.5-1.0 ms less.
           -- Each is the policy's test for every value of the terms (an instant of NULL reads every version;
           -- valid_from is never NULL; a filter of NULL admits every resource).
           AND (t.as_of IS NULL OR s.valid_from <= t.as_of)
           AND (t.as_of IS NULL OR s.valid_to IS NULL OR s.valid_to > t.as_of)
           AND (t.resource_filter IS NULL OR (COALESCE(s.resource_id, '') = ANY (t.resource_filter)) IS NOT FALSE)
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
