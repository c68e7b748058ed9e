-- Revision 0020 (issue 19, #90's siblings): one derivation of a scope's terms, and one reading of the setting
-- for every check that needs more than one term. scopedb_private.terms_of derives every term from the verified
-- claims; scope_terms, scope_whole_project_ids, the single accessors and text_candidates all read it (they were
-- separate copies of the same derivation). The write policies (WITH CHECK, the USING of updates and deletes) and
-- the owner's policies that mirror the app's now ask the read policies' two questions (02_policies.sql), and
-- protect_table makes service tables' policies the same way, re-protecting every table it protected before
-- (03_protected_tables.sql).

SET ROLE scopedb_owner;

CREATE FUNCTION scopedb_private.terms_of(c scopedb_private.scope_claims) RETURNS scopedb.scope_terms
LANGUAGE plpgsql
STABLE
AS $$
DECLARE
    patterns boolean;
BEGIN
    IF c IS NULL OR c.project_ids IS NULL THEN
        RETURN ROW('{}'::bigint[], '-infinity'::timestamptz, '{}'::text[], true, '{}'::text[], ARRAY['']::text[],
                   '{}'::text[], ARRAY['']::text[])::scopedb.scope_terms;
    END IF;
    patterns := COALESCE(pg_catalog.cardinality(c.path_include), 0) + COALESCE(pg_catalog.cardinality(c.path_exclude), 0)
              + COALESCE(pg_catalog.cardinality(c.name_include), 0) + COALESCE(pg_catalog.cardinality(c.name_exclude), 0)
              > 0;
    -- Without patterns, anchored is not called (four calls, each with its own SET clause, cost more than the rest
    -- of this function, and the policies' first question reads these terms on every statement): its answer for
    -- no patterns is NULL.
    RETURN ROW(c.project_ids,
               CASE WHEN c."time" = 'all' THEN NULL
                    WHEN c."time" IS NULL OR c."time" = 'current' THEN pg_catalog.now()
                    ELSE c."time"::timestamptz END,
               c.resource_filter,
               patterns,
               CASE WHEN patterns THEN scopedb_private.anchored(NULLIF(c.path_include, '{}')) END,
               CASE WHEN patterns THEN scopedb_private.anchored(NULLIF(c.path_exclude, '{}')) END,
               CASE WHEN patterns THEN scopedb_private.anchored(NULLIF(c.name_include, '{}')) END,
               CASE WHEN patterns THEN scopedb_private.anchored(NULLIF(c.name_exclude, '{}')) END)::scopedb.scope_terms;
END
$$;
COMMENT ON FUNCTION scopedb_private.terms_of(scopedb_private.scope_claims) IS
    'The terms of a scope from its verified claims (NULL: no valid scope, every term failing closed).';

-- CREATE OR REPLACE sets a function's SET clauses anew: the pins of sql/04_settings_of_kept_plans.sql follow each.
CREATE OR REPLACE FUNCTION scopedb.scope_terms() RETURNS scopedb.scope_terms
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN scopedb_private.terms_of(scopedb_private.verified_claims());
END
$$;
COMMENT ON FUNCTION scopedb.scope_terms() IS
    'Every term of the verified scope the policies test, from one reading of the setting; fails closed.';
ALTER FUNCTION scopedb.scope_terms() SET jit = off;
ALTER FUNCTION scopedb.scope_terms() SET max_parallel_workers_per_gather = 0;

CREATE OR REPLACE FUNCTION scopedb.scope_whole_project_ids(at_present boolean) RETURNS bigint[]
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    t scopedb.scope_terms := scopedb_private.terms_of(scopedb_private.verified_claims());
BEGIN
    IF t.resource_filter IS NULL AND t.filters_content IS FALSE
       AND (at_present IS FALSE OR t.as_of = pg_catalog.now()) THEN
        RETURN t.project_ids;
    END IF;
    RETURN '{}'::bigint[];
END
$$;
COMMENT ON FUNCTION scopedb.scope_whole_project_ids(boolean) IS
    'Ids of the projects the verified scope reads whole (at the present time if asked); empty for any other scope.';
ALTER FUNCTION scopedb.scope_whole_project_ids(boolean) SET jit = off;
ALTER FUNCTION scopedb.scope_whole_project_ids(boolean) SET max_parallel_workers_per_gather = 0;

CREATE OR REPLACE FUNCTION scopedb.scope_resource_filter() RETURNS text[]
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN (scopedb_private.terms_of(scopedb_private.verified_claims())).resource_filter;
END
$$;
COMMENT ON FUNCTION scopedb.scope_resource_filter() IS
    'Resource ids the verified scope admits (and the empty string for resource-less rows); NULL: no filter.';
ALTER FUNCTION scopedb.scope_resource_filter() SET jit = off;
ALTER FUNCTION scopedb.scope_resource_filter() SET max_parallel_workers_per_gather = 0;

CREATE OR REPLACE FUNCTION scopedb.scope_as_of() RETURNS timestamptz
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN (scopedb_private.terms_of(scopedb_private.verified_claims())).as_of;
END
$$;
COMMENT ON FUNCTION scopedb.scope_as_of() IS
    'Instant whose versions the verified scope sees; NULL for every version.';
ALTER FUNCTION scopedb.scope_as_of() SET jit = off;
ALTER FUNCTION scopedb.scope_as_of() SET max_parallel_workers_per_gather = 0;

CREATE OR REPLACE FUNCTION scopedb.scope_filters_content() RETURNS boolean
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN (scopedb_private.terms_of(scopedb_private.verified_claims())).filters_content;
END
$$;
COMMENT ON FUNCTION scopedb.scope_filters_content() IS
    'Whether the verified scope narrows by path or name patterns (the policies skip the pattern checks if not).';
ALTER FUNCTION scopedb.scope_filters_content() SET jit = off;
ALTER FUNCTION scopedb.scope_filters_content() SET max_parallel_workers_per_gather = 0;

CREATE OR REPLACE FUNCTION scopedb.scope_path_include() RETURNS text[]
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN (scopedb_private.terms_of(scopedb_private.verified_claims())).path_include;
END
$$;
COMMENT ON FUNCTION scopedb.scope_path_include() IS
    'Anchored path include patterns of the verified scope; NULL when it has none (every path is included).';
ALTER FUNCTION scopedb.scope_path_include() SET jit = off;
ALTER FUNCTION scopedb.scope_path_include() SET max_parallel_workers_per_gather = 0;

CREATE OR REPLACE FUNCTION scopedb.scope_path_exclude() RETURNS text[]
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN (scopedb_private.terms_of(scopedb_private.verified_claims())).path_exclude;
END
$$;
COMMENT ON FUNCTION scopedb.scope_path_exclude() IS
    'Anchored path exclude patterns of the verified scope; NULL when it has none.';
ALTER FUNCTION scopedb.scope_path_exclude() SET jit = off;
ALTER FUNCTION scopedb.scope_path_exclude() SET max_parallel_workers_per_gather = 0;

CREATE OR REPLACE FUNCTION scopedb.scope_name_include() RETURNS text[]
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN (scopedb_private.terms_of(scopedb_private.verified_claims())).name_include;
END
$$;
COMMENT ON FUNCTION scopedb.scope_name_include() IS
    'Anchored name include patterns of the verified scope; NULL when it has none (every name is included).';
ALTER FUNCTION scopedb.scope_name_include() SET jit = off;
ALTER FUNCTION scopedb.scope_name_include() SET max_parallel_workers_per_gather = 0;

CREATE OR REPLACE FUNCTION scopedb.scope_name_exclude() RETURNS text[]
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN (scopedb_private.terms_of(scopedb_private.verified_claims())).name_exclude;
END
$$;
COMMENT ON FUNCTION scopedb.scope_name_exclude() IS
    'Anchored name exclude patterns of the verified scope; NULL when it has none.';
ALTER FUNCTION scopedb.scope_name_exclude() SET jit = off;
ALTER FUNCTION scopedb.scope_name_exclude() SET max_parallel_workers_per_gather = 0;

-- Its own SET clauses are part of its definition.
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

RESET ROLE;
