-- Revision 0023 (issue 16): scopedb.group_nearest chooses its group in one statement when one ready group's
-- members are exactly the call's projects, all read whole by the scope (the common case: a service declares one
-- customer's projects a group, and a scope names them). The general choice (several groups, or a scope over a
-- union of groups) is unchanged and runs only when that statement finds nothing. Same signature and columns.

SET ROLE scopedb_owner;

-- pgvector's settings (hnsw.*) in the function's SET clauses are known only once its library is loaded.
SELECT '[1]'::public.vector;

-- The `k` fragments of `projects` nearest to `query` (cosine), through search groups' indexes, when groups the
-- verified scope reads whole cover every one of `projects`; otherwise nothing (scopedb.nearest_fragments then
-- searches the projects' own indexes). A group is used only if every member is one of `projects` and the scope
-- reads every member whole at the present time (scope_whole_project_ids(true): no resource, path or name
-- narrowing, no other instant). Only those: a group's index holds every member's rows, and consulted for a scope
-- that may not see all of them it would answer questions about the rows it may not see (the similarity oracle,
-- docs/security.md #76). Whatever the caller passes, a scope that does not read the groups whole gets nothing
-- here, as it would if no group existed. Groups do not overlap in one search (the largest first). A call over
-- fewer than two projects costs nothing; a call in a database with no ready group costs two probes of the groups.
--
-- The search is a strict iterative scan of the group's index over the versions valid now (the copy carries the
-- validity), so the filter never starves the answer; rows are returned from the copy (the content with them),
-- sorted as the exact statement sorts them, at most k. The copy is owner-only, so this runs as its owner, with
-- every setting the search depends on pinned (the caller's hnsw.ef_search, iterative scan or planner switches
-- never reach it): what it returns depends on the members' rows alone, all of which the scope sees. Every
-- statement keeps its generic plan for the connection, the search's too: the group's id is a parameter of that
-- plan, and the other groups' partitions are pruned when it starts (run-time pruning), so a call plans nothing
-- (planning the search on every call cost 0.2 ms; one function reading the scope once, instead of a second one
-- choosing the groups, saved 0.3-0.5 ms a call). There are as many partitions as groups, few, so a plan that
-- locks them all costs little. Several groups are searched by one statement made for the call.
CREATE OR REPLACE FUNCTION scopedb.group_nearest(projects bigint[], query vector, k integer, ef_search integer,
                                      max_scan_tuples integer)
RETURNS TABLE (project_id bigint, id text, resource_id text, path text, fqn text, content text,
               distance double precision)
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET plan_cache_mode = force_generic_plan
SET enable_partition_pruning = on
SET constraint_exclusion = off
SET hnsw.iterative_scan = strict_order
SET hnsw.ef_search = 20
SET hnsw.max_scan_tuples = 20000
AS $$
DECLARE
    wanted bigint[];
    chosen bigint[] := '{}';
    covered bigint[] := '{}';
    g record;
    one record;
BEGIN
    IF k IS NULL OR k < 0 OR k > 10000 THEN
        RAISE EXCEPTION 'k must be between 0 and 10000' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF COALESCE(pg_catalog.cardinality(projects), 0) < 2 OR query IS NULL OR k = 0 THEN
        RETURN;
    END IF;
    -- The common case in one statement: one ready group whose members are the call's projects (members are kept
    -- sorted), all read whole by the scope. Choosing through the statements below cost 0.1 ms more a call.
    SELECT sg.id, sg.members INTO one
      FROM scopedb_private.search_groups AS sg
     WHERE sg.state = 'ready'
       AND sg.members = ARRAY(SELECT DISTINCT p FROM pg_catalog.unnest(projects) AS p ORDER BY p)
       AND NOT EXISTS (SELECT m FROM pg_catalog.unnest(sg.members) AS m
                       EXCEPT SELECT w FROM pg_catalog.unnest(scopedb.scope_whole_project_ids(true)) AS w);
    IF FOUND THEN
        chosen := ARRAY[one.id];
        covered := one.members;
    ELSE
        IF NOT EXISTS (SELECT FROM scopedb_private.search_groups AS sg WHERE sg.state = 'ready') THEN
            RETURN;
        END IF;
        -- The call's projects that the scope reads whole. Sets of ids are compared by hashing throughout: the
        -- array operators (<@, &&) compare element by element, and with thousands of projects took 0.26 s.
        wanted := ARRAY(SELECT p FROM pg_catalog.unnest(projects) AS p
                        INTERSECT SELECT w FROM pg_catalog.unnest(scopedb.scope_whole_project_ids(true)) AS w);
        IF pg_catalog.cardinality(wanted) < 2 THEN
            RETURN;
        END IF;
        -- The ready groups every member of which is wanted (the members' key leads with the project), largest
        -- first; a group that overlaps one taken is left.
        FOR g IN SELECT sg.id, sg.members
                   FROM (SELECT m.group_id, pg_catalog.count(*) AS inside FROM scopedb_private.search_group_members AS m
                          WHERE m.project_id = ANY (wanted) GROUP BY m.group_id) AS c
                   JOIN scopedb_private.search_groups AS sg
                     ON sg.id = c.group_id AND sg.state = 'ready' AND pg_catalog.cardinality(sg.members) = c.inside
                  ORDER BY c.inside DESC, sg.id LOOP
            CONTINUE WHEN pg_catalog.cardinality(covered) > 0
                      AND EXISTS (SELECT x FROM pg_catalog.unnest(g.members) AS x INTERSECT
                                  SELECT y FROM pg_catalog.unnest(covered) AS y);
            chosen := chosen || g.id;
            covered := covered || g.members;
        END LOOP;
        -- Nothing unless they cover every project of the call (they are disjoint subsets of it).
        IF pg_catalog.cardinality(covered) = 0
           OR pg_catalog.cardinality(covered) <> (SELECT pg_catalog.count(DISTINCT p) FROM pg_catalog.unnest(projects) AS p) THEN
            RETURN;
        END IF;
    END IF;
    PERFORM pg_catalog.set_config('hnsw.ef_search', GREATEST(LEAST(COALESCE(ef_search, 0), 1000), k, 1)::text, true),
            pg_catalog.set_config('hnsw.max_scan_tuples', GREATEST(COALESCE(max_scan_tuples, 0), 1)::text, true),
            pg_catalog.set_config('enable_sort', 'off', true);
    -- A ready group's copy holds its members' rows only (a member's removal declares it again); the k rows
    -- found are checked against them all the same, and a row of another project would be dropped (the answer
    -- then falls short, and the caller's exact statement answers).
    IF pg_catalog.cardinality(chosen) = 1 THEN
        RETURN QUERY
            SELECT r.project_id, r.id, r.resource_id, r.path, r.fqn, r.content, r.distance
              FROM (SELECT v.project_id, v.id, v.resource_id, v.path, v.fqn, v.content, v.embedding <=> query AS distance
                      FROM scopedb_private.group_vectors AS v
                     WHERE v.group_id = chosen[1]
                       AND v.valid_from <= pg_catalog.now() AND (v.valid_to IS NULL OR v.valid_to > pg_catalog.now())
                     ORDER BY v.embedding <=> query, v.project_id, v.id  -- ties as the exact statement breaks them
                     LIMIT k) AS r
             WHERE r.project_id = ANY (covered)
             ORDER BY r.distance, r.project_id, r.id;
        RETURN;
    END IF;
    -- Several groups: each one's k nearest, merged. The ids are bigints from search_groups, not the caller's.
    RETURN QUERY EXECUTE
        'SELECT u.project_id, u.id, u.resource_id, u.path, u.fqn, u.content, u.distance FROM ('
        || (SELECT pg_catalog.string_agg(pg_catalog.format(
               '(SELECT v.project_id, v.id, v.resource_id, v.path, v.fqn, v.content, '
               'v.embedding <=> $1 AS distance FROM scopedb_private.group_vectors AS v '
               'WHERE v.group_id = %s AND v.valid_from <= pg_catalog.now() '
               'AND (v.valid_to IS NULL OR v.valid_to > pg_catalog.now()) '
               'ORDER BY v.embedding <=> $1, v.project_id, v.id LIMIT $2)', c.g), ' UNION ALL ')
              FROM pg_catalog.unnest(chosen) AS c (g))
        || ') AS u WHERE u.project_id = ANY ($3) ORDER BY u.distance, u.project_id, u.id LIMIT $2'
        USING query, k, covered;
END
$$;
COMMENT ON FUNCTION scopedb.group_nearest(bigint[], vector, integer, integer, integer) IS
    'The k nearest valid fragments of the given projects through search groups the verified scope reads whole; nothing unless such groups cover every project.';

-- The operator <=> is pgvector's, in the schema the extension was installed in, which the function's search_path
-- must name: pg_catalog first, so nothing there can be shadowed, and pg_temp last.
DO $$
BEGIN
    EXECUTE pg_catalog.format(
        'ALTER FUNCTION scopedb.group_nearest(bigint[], vector, integer, integer, integer) '
        'SET search_path = pg_catalog, %I, pg_temp',
        (SELECT n.nspname FROM pg_catalog.pg_extension AS e
           JOIN pg_catalog.pg_namespace AS n ON n.oid = e.extnamespace WHERE e.extname = 'vector'));
END
$$;

-- CREATE OR REPLACE reset the function's settings: the kept plans' planner settings (sql/04_settings_of_kept_plans.sql)
-- again.
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
    FOREACH f IN ARRAY ARRAY['scopedb.group_nearest(bigint[], vector, integer, integer, integer)'::regprocedure] LOOP
        FOREACH setting IN ARRAY full_set LOOP
            EXECUTE pg_catalog.format('ALTER FUNCTION %s SET %I = %L', f, pg_catalog.split_part(setting, '=', 1),
                                      pg_catalog.split_part(setting, '=', 2));
        END LOOP;
    END LOOP;
END
$$;

RESET ROLE;
