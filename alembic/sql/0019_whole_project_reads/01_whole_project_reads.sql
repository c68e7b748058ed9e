-- Revision 0019 (issues 16 and 19): a scope that reads its projects whole is judged by one accessor. The read
-- policies of fragments, graph_nodes and graph_edges ask scopedb.scope_whole_project_ids first; their full
-- predicate, with its accessors, runs only for a row that first question leaves undecided, and for every other
-- scope. Each accessor is an InitPlan that verifies the scope once per statement (40-60 µs for its first call).
-- scope_filters_content and the exclude accessors fail closed with no valid scope (#90).

SET ROLE scopedb_owner;

-- With no valid scope, the patterns are checked (and admit nothing): see sql/03_functions.sql.
CREATE OR REPLACE FUNCTION scopedb.scope_filters_content() RETURNS boolean
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c scopedb_private.scope_claims := scopedb_private.verified_claims();
BEGIN
    -- No valid scope: true, so the pattern checks run, and their includes ('{}') admit nothing. Every accessor
    -- must fail closed on its own: each is an InitPlan evaluated lazily, when a row first reaches its term, so a
    -- statement that clears the setting part way through (set_config in a function it calls between rows) has
    -- the terms evaluated after that read "no scope" while the earlier ones keep the scope's values. "false"
    -- here let such a statement skip a narrowed scope's patterns (found in a review of revision 0019).
    IF c IS NULL OR c.project_ids IS NULL THEN
        RETURN true;
    END IF;
    RETURN COALESCE(pg_catalog.cardinality(c.path_include), 0) + COALESCE(pg_catalog.cardinality(c.path_exclude), 0)
         + COALESCE(pg_catalog.cardinality(c.name_include), 0) + COALESCE(pg_catalog.cardinality(c.name_exclude), 0)
         > 0;
END
$$;
-- CREATE OR REPLACE sets the function's SET clauses anew: the pins of sql/04_settings_of_kept_plans.sql again.
ALTER FUNCTION scopedb.scope_filters_content() SET jit = off;
ALTER FUNCTION scopedb.scope_filters_content() SET max_parallel_workers_per_gather = 0;

-- With no valid scope, the excludes exclude everything.
CREATE OR REPLACE FUNCTION scopedb.scope_path_exclude() RETURNS text[]
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c scopedb_private.scope_claims := scopedb_private.verified_claims();
BEGIN
    IF c IS NULL OR c.project_ids IS NULL THEN
        RETURN ARRAY['']::text[];  -- the empty pattern matches every path: no valid scope excludes everything (#90)
    END IF;
    RETURN scopedb_private.anchored(NULLIF(c.path_exclude, '{}'));
END
$$;
ALTER FUNCTION scopedb.scope_path_exclude() SET jit = off;
ALTER FUNCTION scopedb.scope_path_exclude() SET max_parallel_workers_per_gather = 0;
CREATE OR REPLACE FUNCTION scopedb.scope_name_exclude() RETURNS text[]
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c scopedb_private.scope_claims := scopedb_private.verified_claims();
BEGIN
    IF c IS NULL OR c.project_ids IS NULL THEN
        RETURN ARRAY['']::text[];  -- the empty pattern matches every name: no valid scope excludes everything (#90)
    END IF;
    RETURN scopedb_private.anchored(NULLIF(c.name_exclude, '{}'));
END
$$;
ALTER FUNCTION scopedb.scope_name_exclude() SET jit = off;
ALTER FUNCTION scopedb.scope_name_exclude() SET max_parallel_workers_per_gather = 0;

-- The read policies' first question (sql/04_policies.sql): the ids of the scope's projects when the scope reads
-- them whole — no resource filter, no resource named or denied, no path or name pattern, and, when `at_present`,
-- the current time — and the empty array for any other scope, or none. A row of such a project is then judged
-- by its project alone (and its version by now()), with this one accessor; the others run only for a row this
-- one leaves undecided. Each accessor a policy reads is an InitPlan that verifies the scope once per statement,
-- 40-60 µs for its first call however cheap its body (four on fragments cost 0.2 ms of a one-project vector
-- search of 0.9 ms, revision 0019). Empty, not NULL, for every doubt: the policy then asks the full questions.
CREATE FUNCTION scopedb.scope_whole_project_ids(at_present boolean) RETURNS bigint[]
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c scopedb_private.scope_claims := scopedb_private.verified_claims();
BEGIN
    IF c IS NULL OR c.project_ids IS NULL OR c.resource_filter IS NOT NULL OR c.resources IS NOT NULL
       OR COALESCE(pg_catalog.cardinality(c.denied), 0) > 0
       OR COALESCE(pg_catalog.cardinality(c.path_include), 0) + COALESCE(pg_catalog.cardinality(c.path_exclude), 0)
        + COALESCE(pg_catalog.cardinality(c.name_include), 0) + COALESCE(pg_catalog.cardinality(c.name_exclude), 0) > 0
       OR (at_present IS NOT FALSE AND c."time" IS NOT NULL AND c."time" <> 'current') THEN
        RETURN '{}'::bigint[];
    END IF;
    RETURN c.project_ids;
END
$$;
COMMENT ON FUNCTION scopedb.scope_whole_project_ids(boolean) IS
    'Ids of the projects the verified scope reads whole (at the present time if asked); empty for any other scope.';
ALTER FUNCTION scopedb.scope_whole_project_ids(boolean) SET jit = off;
ALTER FUNCTION scopedb.scope_whole_project_ids(boolean) SET max_parallel_workers_per_gather = 0;
REVOKE ALL ON FUNCTION scopedb.scope_whole_project_ids(boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION scopedb.scope_whole_project_ids(boolean) TO scopedb_app;

DROP POLICY "scope limits which fragments the app reads" ON scopedb.fragments;

-- Read: a scope that reads its projects whole at the present time (the common case) is answered by its first
-- branch, with one accessor (scopedb.scope_whole_project_ids); any other scope, and any row that branch leaves
-- undecided (another project's), by the full predicate, whose accessors then run. The CASE fixes that order: the
-- full predicate's InitPlans are evaluated only when a row reaches it.
CREATE POLICY "scope limits which fragments the app reads" ON scopedb.fragments
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(true))::bigint[])
                THEN valid_from <= pg_catalog.now() AND (valid_to IS NULL OR valid_to > pg_catalog.now())
                ELSE project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (valid_from <= (SELECT scopedb.scope_as_of())
                AND (valid_to IS NULL OR valid_to > (SELECT scopedb.scope_as_of()))) IS NOT FALSE
           AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
           AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)) END);

DROP POLICY "scope limits which graph nodes the app reads" ON scopedb.graph_nodes;

-- Read: as for fragments, a scope that reads its projects whole is answered by one accessor (nodes have no
-- versions, so any time scope qualifies).
CREATE POLICY "scope limits which graph nodes the app reads" ON scopedb.graph_nodes
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
           AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)) END);

DROP POLICY "scope limits which graph edges the app reads" ON scopedb.graph_edges;

-- Read: a scope that reads its projects whole sees every node of them, so every edge of them, with one accessor.
CREATE POLICY "scope limits which graph edges the app reads" ON scopedb.graph_edges
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (ARRAY[src_resource, dst_resource] <@ (SELECT scopedb.scope_resource_filter())::text[]) IS NOT FALSE
           AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                OR ((src_path ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (dst_path ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (src_path ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (dst_path ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (src_fqn ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (dst_fqn ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (src_fqn ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE
                    AND (dst_fqn ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)) END);

RESET ROLE;
