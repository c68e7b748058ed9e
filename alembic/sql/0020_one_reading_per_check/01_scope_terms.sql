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

RESET ROLE;
