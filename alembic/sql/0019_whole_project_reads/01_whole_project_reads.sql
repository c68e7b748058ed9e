-- Revision 0019 (issues 16 and 19): a scope that reads its projects whole is judged by one accessor, and every
-- other row by all of the scope's terms from one reading of the setting. The read policies of fragments, graph
-- nodes and edges, resources and resource links ask scopedb.scope_whole_project_ids first; their full predicate
-- reads scopedb.scope_terms once, through one InitPlan inside a sub-SELECT (#90: separate accessors, each reading
-- the setting when a row first reached its term, let a statement mix the terms of two tokens). The accessors that
-- remain fail closed on their own with no valid scope: scope_filters_content answers true, the excludes the empty
-- pattern.

SET ROLE scopedb_owner;

-- CREATE OR REPLACE sets a function's SET clauses anew: the pins of sql/04_settings_of_kept_plans.sql follow each.
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
ALTER FUNCTION scopedb.scope_filters_content() SET jit = off;
ALTER FUNCTION scopedb.scope_filters_content() SET max_parallel_workers_per_gather = 0;

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

-- The read policies' full predicate (sql/04_policies.sql), for the rows their first question leaves undecided:
-- every term of the scope from one reading of the setting. The accessors below each read the setting when a row
-- first reaches their term (they are separate InitPlans), so a statement that changed the setting between rows —
-- to another valid token of the tenant's — got some terms from one token and the rest from the other: one
-- token's project ids with another's missing resource filter (#90). The policies read this composite through one
-- InitPlan inside a sub-SELECT that each undecided row runs (0.24 µs a row more than separate InitPlans, on a
-- scratch table); each field is what its accessor answers for the same claims, failing closed the same way.
CREATE TYPE scopedb.scope_terms AS (
    project_ids      bigint[],
    as_of            timestamptz,
    resource_filter  text[],
    filters_content  boolean,
    path_include     text[],
    path_exclude     text[],
    name_include     text[],
    name_exclude     text[]
);
COMMENT ON TYPE scopedb.scope_terms IS
    'The verified scope''s terms as the read policies test them, from one reading of the setting.';

CREATE FUNCTION scopedb.scope_terms() RETURNS scopedb.scope_terms
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c scopedb_private.scope_claims := scopedb_private.verified_claims();
BEGIN
    IF c IS NULL OR c.project_ids IS NULL THEN
        -- No projects, no instant, no resource, patterns checked, includes that admit nothing and excludes that
        -- exclude everything: each term fails closed on its own.
        RETURN ROW('{}'::bigint[], '-infinity'::timestamptz, '{}'::text[], true, '{}'::text[], ARRAY['']::text[],
                   '{}'::text[], ARRAY['']::text[])::scopedb.scope_terms;
    END IF;
    RETURN ROW(c.project_ids,
               CASE WHEN c."time" = 'all' THEN NULL
                    WHEN c."time" IS NULL OR c."time" = 'current' THEN pg_catalog.now()
                    ELSE c."time"::timestamptz END,
               c.resource_filter,
               COALESCE(pg_catalog.cardinality(c.path_include), 0) + COALESCE(pg_catalog.cardinality(c.path_exclude), 0)
               + COALESCE(pg_catalog.cardinality(c.name_include), 0) + COALESCE(pg_catalog.cardinality(c.name_exclude), 0)
               > 0,
               scopedb_private.anchored(NULLIF(c.path_include, '{}')),
               scopedb_private.anchored(NULLIF(c.path_exclude, '{}')),
               scopedb_private.anchored(NULLIF(c.name_include, '{}')),
               scopedb_private.anchored(NULLIF(c.name_exclude, '{}')))::scopedb.scope_terms;
END
$$;
COMMENT ON FUNCTION scopedb.scope_terms() IS
    'Every term of the verified scope the read policies test, from one reading of the setting; fails closed.';
ALTER FUNCTION scopedb.scope_terms() SET jit = off;
ALTER FUNCTION scopedb.scope_terms() SET max_parallel_workers_per_gather = 0;
REVOKE ALL ON FUNCTION scopedb.scope_terms() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION scopedb.scope_terms() TO scopedb_app;

DROP POLICY "scope limits which resources the app reads" ON scopedb.resources;
-- Read: as for fragments, a scope that reads its projects whole is answered by one accessor, and every other
-- row by all the scope's terms from one reading of the setting (scopedb.scope_terms, #90).
CREATE POLICY "scope limits which resources the app reads" ON scopedb.resources
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids) AND (id = ANY ((s.t).resource_filter)) IS NOT FALSE
                        FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

DROP POLICY "scope limits which resource links the app reads" ON scopedb.resource_links;
-- Read: as for resources.
CREATE POLICY "scope limits which resource links the app reads" ON scopedb.resource_links
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (ARRAY[parent_id, child_id] <@ (s.t).resource_filter) IS NOT FALSE
                        FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

DROP POLICY "scope limits which fragments the app reads" ON scopedb.fragments;
-- Read: a scope that reads its projects whole at the present time (the common case) is answered by its first
-- branch, with one accessor (scopedb.scope_whole_project_ids); any other scope, and any row that branch leaves
-- undecided (another project's), by the full predicate. The CASE fixes that order: the full predicate's InitPlan
-- is evaluated only when a row reaches it. The full predicate reads every term of the scope from one composite
-- (scopedb.scope_terms), read once by an InitPlan inside the sub-SELECT, so no statement can take its terms from
-- two tokens by changing the setting between rows (#90).
CREATE POLICY "scope limits which fragments the app reads" ON scopedb.fragments
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(true))::bigint[])
                THEN valid_from <= pg_catalog.now() AND (valid_to IS NULL OR valid_to > pg_catalog.now())
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (valid_from <= (s.t).as_of AND (valid_to IS NULL OR valid_to > (s.t).as_of)) IS NOT FALSE
                             AND (COALESCE(resource_id, '') = ANY ((s.t).resource_filter)) IS NOT FALSE
                             AND ((s.t).filters_content IS NOT TRUE
                                  OR ((COALESCE(path, '') ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (COALESCE(path, '') ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_exclude)) IS NOT TRUE))
                        FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

DROP POLICY "scope limits which graph nodes the app reads" ON scopedb.graph_nodes;
-- Read: as for fragments, a scope that reads its projects whole is answered by one accessor (nodes have no
-- versions, so any time scope qualifies).
CREATE POLICY "scope limits which graph nodes the app reads" ON scopedb.graph_nodes
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (COALESCE(resource_id, '') = ANY ((s.t).resource_filter)) IS NOT FALSE
                             AND ((s.t).filters_content IS NOT TRUE
                                  OR ((COALESCE(path, '') ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (COALESCE(path, '') ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_exclude)) IS NOT TRUE))
                        FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

DROP POLICY "scope limits which graph edges the app reads" ON scopedb.graph_edges;
-- Read: a scope that reads its projects whole sees every node of them, so every edge of them, with one accessor.
CREATE POLICY "scope limits which graph edges the app reads" ON scopedb.graph_edges
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (ARRAY[src_resource, dst_resource] <@ (s.t).resource_filter) IS NOT FALSE
                             AND ((s.t).filters_content IS NOT TRUE
                                  OR ((src_path ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (dst_path ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (src_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (dst_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (src_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (dst_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (src_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE
                                      AND (dst_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE))
                        FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

RESET ROLE;
