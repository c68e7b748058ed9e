-- Revision 0018 (issue 19): scopedb.text_candidates plans its statement over several partitions without
-- estimating the tsquery and the scope's time and resources from each partition's statistics: they are read
-- through sub-SELECTs there, while the project ids stay constants (partition pruning); over one partition the
-- statement keeps them as constants. Only the function's body changes; its settings, grants and comment stay.

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
SET plan_cache_mode = force_custom_plan
AS $$
DECLARE
    c scopedb_private.scope_claims := scopedb_private.verified_claims();
    ids bigint[] := c.project_ids;
    as_of timestamptz;
    patterns boolean;
    path_include text[];
    path_exclude text[];
    name_include text[];
    name_exclude text[];
BEGIN
    IF max_rows IS NULL OR max_rows < 0 OR max_rows > 100000 THEN
        RAISE EXCEPTION 'max_rows must be between 0 and 100000' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF COALESCE(pg_catalog.cardinality(ids), 0) = 0 THEN  -- no scope: nothing, and no partition opened
        RETURN;
    END IF;
    -- What the accessors return for a valid, resolved scope (scopedb.scope_as_of, scope_filters_content, the
    -- pattern accessors; scope_resource_filter is c.resource_filter itself).
    as_of := CASE WHEN c."time" = 'all' THEN NULL
                  WHEN c."time" IS NULL OR c."time" = 'current' THEN pg_catalog.now()
                  ELSE c."time"::timestamptz END;
    patterns := COALESCE(pg_catalog.cardinality(c.path_include), 0) + COALESCE(pg_catalog.cardinality(c.path_exclude), 0)
              + COALESCE(pg_catalog.cardinality(c.name_include), 0) + COALESCE(pg_catalog.cardinality(c.name_exclude), 0)
              > 0;
    path_include := scopedb_private.anchored(NULLIF(c.path_include, '{}'));
    path_exclude := scopedb_private.anchored(NULLIF(c.path_exclude, '{}'));
    name_include := scopedb_private.anchored(NULLIF(c.name_include, '{}'));
    name_exclude := scopedb_private.anchored(NULLIF(c.name_exclude, '{}'));
    -- The project ids are constants of the plan, so the planner prunes to the scope's partitions. Over several
    -- partitions the tsquery and the scope's time and resources are read through sub-SELECTs (InitPlans, evaluated
    -- once): as constants, the planner estimated each from every pruned partition's statistics on every call — the
    -- tsquery's lexemes against its most common elements, the time against its histogram — which at nine
    -- partitions cost more than a rare word's search (0.64 ms a call, 0.47 ms so; revision 0018). With the default
    -- estimates it plans as the owner's query that takes the tsquery from a CTE. Over one partition the constants
    -- cost less than the sub-SELECTs (a rare word: 0.38 ms a call against 0.42), so that statement keeps them.
    IF pg_catalog.cardinality(ids) = 1 THEN
        RETURN QUERY
            SELECT s.project_id, s.id, pg_catalog.ts_rank_cd(s.tsv, query) AS rank, s.resource_id, s.path, s.fqn,
                   s.content
              FROM scopedb_private.fragment_search AS s
             WHERE s.tsv @@ query AND s.project_id = ANY (ids)
               -- The read policy on scopedb.fragments (sql/04_policies.sql), on the copied columns.
               AND (s.valid_from <= as_of AND (s.valid_to IS NULL OR s.valid_to > as_of)) IS NOT FALSE
               AND (COALESCE(s.resource_id, '') = ANY (c.resource_filter)) IS NOT FALSE
               AND (NOT patterns
                    OR ((COALESCE(s.path, '') ~ ANY (path_include)) IS NOT FALSE
                        AND (COALESCE(s.path, '') ~ ANY (path_exclude)) IS NOT TRUE
                        AND (COALESCE(s.fqn, '') ~ ANY (name_include)) IS NOT FALSE
                        AND (COALESCE(s.fqn, '') ~ ANY (name_exclude)) IS NOT TRUE))
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
           AND (s.valid_from <= (SELECT as_of) AND (s.valid_to IS NULL OR s.valid_to > (SELECT as_of))) IS NOT FALSE
           AND (COALESCE(s.resource_id, '') = ANY ((SELECT c.resource_filter)::text[])) IS NOT FALSE
           AND (NOT patterns
                OR ((COALESCE(s.path, '') ~ ANY (path_include)) IS NOT FALSE
                    AND (COALESCE(s.path, '') ~ ANY (path_exclude)) IS NOT TRUE
                    AND (COALESCE(s.fqn, '') ~ ANY (name_include)) IS NOT FALSE
                    AND (COALESCE(s.fqn, '') ~ ANY (name_exclude)) IS NOT TRUE))
         ORDER BY 3 DESC, 1, 2   -- by position: the names are also this function's output columns
         LIMIT max_rows;
END
$$;

RESET ROLE;
