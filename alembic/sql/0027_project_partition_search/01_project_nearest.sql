-- Revision 0027: a one-project vector search for a scope that reads the project whole reads the project's own
-- partition directly (scopedb.project_nearest), by a policy each such partition gets; nearest_fragments asks it
-- first. create_project_storage gives a new partition that policy; the partitions already made get it here.

SET ROLE scopedb_owner;

-- pgvector's settings (hnsw.*) in the functions' SET clauses are known only once its library is loaded.
SELECT '[1]'::public.vector;

CREATE OR REPLACE FUNCTION scopedb_private.create_project_storage(project bigint) RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    has_fragments boolean := pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.fragments_%s', project)) IS NOT NULL;
    has_search boolean := pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.fragment_search_%s', project)) IS NOT NULL;
    columns text;
    originals scopedb_private.fragment_originals[];
BEGIN
    IF has_fragments AND has_search THEN
        RETURN;
    END IF;
    IF NOT scopedb_private.is_admin_session() THEN
        RAISE EXCEPTION 'only an admin session may move a project''s storage' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NOT EXISTS (SELECT FROM scopedb.projects AS p WHERE p.id = project) THEN
        RAISE EXCEPTION 'no project with id %', project USING ERRCODE = 'no_data_found';
    END IF;
    LOCK TABLE scopedb_parts.fragments_shared, scopedb_parts.fragment_search_shared IN SHARE MODE;
    IF NOT has_fragments THEN
        originals := ARRAY(SELECT o FROM scopedb_private.fragment_originals AS o WHERE o.project_id = project);
        -- Every stored column (a generated one is computed again on insert).
        SELECT pg_catalog.string_agg(pg_catalog.quote_ident(a.attname), ', ' ORDER BY a.attnum) INTO columns
          FROM pg_catalog.pg_attribute AS a
         WHERE a.attrelid = 'scopedb.fragments'::regclass AND a.attnum > 0 AND NOT a.attisdropped
           AND a.attgenerated = '';
        EXECUTE pg_catalog.format(
            'CREATE TABLE scopedb_parts.fragments_%s (LIKE scopedb.fragments '
            'INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING GENERATED)', project);
        -- In key order: where the rows land in the new table then owes nothing to where other projects' rows lay
        -- in the shared one (an unordered query returns rows in physical order).
        EXECUTE pg_catalog.format(
            'INSERT INTO scopedb_parts.fragments_%1$s (%2$s) SELECT %2$s FROM scopedb.fragments WHERE project_id = %1$s '
            'ORDER BY id', project, columns);
        -- Its trigger deletes the copies but the search groups' (scopedb_private.forget_fragment_copies).
        PERFORM pg_catalog.set_config('scopedb.moving_project', project::text, true);
        DELETE FROM scopedb.fragments AS f WHERE f.project_id = project;
        PERFORM pg_catalog.set_config('scopedb.moving_project', '', true);
        INSERT INTO scopedb_private.fragment_originals SELECT (o).* FROM pg_catalog.unnest(originals) AS o;
        EXECUTE pg_catalog.format(
            'ALTER TABLE scopedb_parts.fragments_%s ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY', project);
        -- The partition's one policy: scopedb.project_nearest reads it directly (see there).
        EXECUTE pg_catalog.format(
            'CREATE POLICY "owner searches the project its entered scope reads whole" '
            'ON scopedb_parts.fragments_%s AS PERMISSIVE FOR SELECT TO scopedb_owner '
            'USING (project_id = ANY ((SELECT scopedb.scope_whole_project_ids(true))::bigint[]) '
            'AND valid_from <= pg_catalog.now() AND (valid_to IS NULL OR valid_to > pg_catalog.now()))', project);
        EXECUTE pg_catalog.format(
            'ALTER TABLE scopedb.fragments ATTACH PARTITION scopedb_parts.fragments_%s FOR VALUES IN (%s)',
            project, project);
    END IF;
    IF NOT has_search THEN
        DELETE FROM scopedb_private.fragment_search AS s WHERE s.project_id = project;
        EXECUTE pg_catalog.format(
            'CREATE TABLE scopedb_parts.fragment_search_%s (LIKE scopedb_private.fragment_search '
            'INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING GENERATED)', project);
        EXECUTE pg_catalog.format(
            'ALTER TABLE scopedb_parts.fragment_search_%s ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY',
            project);
        EXECUTE pg_catalog.format(
            'ALTER TABLE scopedb_private.fragment_search ATTACH PARTITION scopedb_parts.fragment_search_%s '
            'FOR VALUES IN (%s)', project, project);
    END IF;
    -- The full-text copies, into the project's own partition (the tsvectors are stored: nothing is parsed again).
    INSERT INTO scopedb_private.fragment_search AS s (project_id, id, tsv, resource_id, path, fqn, valid_from, valid_to,
                                                      content)
    SELECT f.project_id, f.id, f.tsv, f.resource_id, f.path, f.fqn, f.valid_from, f.valid_to, f.content
      FROM scopedb.fragments AS f WHERE f.project_id = project
    ON CONFLICT ON CONSTRAINT fragment_search_pkey DO NOTHING;
END
$$;
COMMENT ON FUNCTION scopedb_private.create_project_storage(bigint) IS
    'Gives a project partitions of its own (of scopedb.fragments and scopedb_private.fragment_search), moving its rows.';


-- The k nearest valid fragments of one project that has a partition of its own, for a scope that reads the
-- project whole at the present time (scopedb.nearest_fragments asks it first for a one-project cosine search);
-- nothing for any other scope or project, and the caller then searches through scopedb.fragments under RLS.
--
-- Why it exists: that search, through the parent table under the read policies, is planned on every call (68 µs
-- of planning for one partition under RLS, 10 µs for the partition read directly), which was the largest fixed
-- cost of a one-project search (docs/benchmarks.md, "Two tenants"). Here the statement names the project's own
-- partition, which holds that project's rows alone (LIST partition of one value, audited by E026), so it needs no
-- pruning and no policy of fragments. It runs as the owner, and the partition's forced row-level security still
-- decides: its one policy (made by scopedb_private.create_project_storage) admits, to the owner, the rows of a
-- project the entered scope reads whole and valid now, which is the first branch of the app's read policy on
-- fragments, word for word. So what a call returns is what the app's own search of that project would see, by
-- construction and by the database: a scope narrowed by resource, path or name, or at another instant, reads
-- nothing here (the check below returns before any read; without it the policy would filter every row). The
-- index consulted holds the project's rows alone, so it answers nothing about another tenant's (the similarity
-- oracle, docs/security.md #76).
--
-- The search is a strict iterative scan of the project's HNSW index, the ties broken as the exact statement breaks
-- them, with the caller's settings pinned (sql/04_settings_of_kept_plans.sql, and the search's own here). With no
-- index built (yet) the planner scans the partition and sorts: the exact answer.
CREATE FUNCTION scopedb.project_nearest(project bigint, query vector, k integer, ef_search integer,
                                        max_scan_tuples integer)
RETURNS TABLE (project_id bigint, id text, resource_id text, path text, fqn text, content text,
               distance double precision)
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET plan_cache_mode = auto
SET hnsw.iterative_scan = strict_order
SET hnsw.ef_search = 20
SET hnsw.max_scan_tuples = 20000
AS $$
BEGIN
    IF project IS NULL OR query IS NULL OR k IS NULL OR k <= 0 OR k > 10000
       OR NOT COALESCE(project = ANY (scopedb.scope_whole_project_ids(true)), false)
       OR pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.fragments_%s', project)) IS NULL THEN
        RETURN;
    END IF;
    PERFORM pg_catalog.set_config('hnsw.ef_search', GREATEST(LEAST(COALESCE(ef_search, 0), 1000), k, 1)::text, true),
            pg_catalog.set_config('hnsw.max_scan_tuples', GREATEST(COALESCE(max_scan_tuples, 0), 1)::text, true),
            pg_catalog.set_config('enable_sort', 'off', true);
    -- The project id is a bigint, formatted into the partition's name only (the caller's value, but a number).
    RETURN QUERY EXECUTE pg_catalog.format(
        'SELECT f.project_id, f.id, f.resource_id, f.path, f.fqn, f.content, '
        '(f.embedding <=> $1)::double precision FROM scopedb_parts.fragments_%s AS f '
        'WHERE f.embedding IS NOT NULL '
        'AND f.valid_from <= pg_catalog.now() AND (f.valid_to IS NULL OR f.valid_to > pg_catalog.now()) '
        'ORDER BY f.embedding <=> $1, f.project_id, f.id LIMIT $2', project)
        USING query, k;
END
$$;
COMMENT ON FUNCTION scopedb.project_nearest(bigint, vector, integer, integer, integer) IS
    'The k nearest valid fragments of one project with its own partition, for a scope that reads it whole now; nothing otherwise.';

-- As for group_nearest: pgvector's operator is in the extension's schema, which the search_path must name.
DO $$
BEGIN
    EXECUTE pg_catalog.format(
        'ALTER FUNCTION scopedb.project_nearest(bigint, vector, integer, integer, integer) '
        'SET search_path = pg_catalog, %I, pg_temp',
        (SELECT n.nspname FROM pg_catalog.pg_extension AS e
           JOIN pg_catalog.pg_namespace AS n ON n.oid = e.extnamespace WHERE e.extname = 'vector'));
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
        -- Search groups the scope reads whole, when they cover every project of the call: one index search per
        -- group (scopedb.group_nearest; nothing when they do not). A short answer from them goes straight to the
        -- exact statement, as a short one from the projects' own indexes does.
        IF pg_catalog.cardinality(projects) > 1 THEN
            RETURN QUERY
                SELECT g.project_id, g.id, g.resource_id, g.path, g.fqn, g.content, g.distance, true
                  FROM scopedb.group_nearest(projects, query, k, ef_search, max_scan_tuples) AS g;
            GET DIAGNOSTICS found = ROW_COUNT;
        ELSE
            -- One project read whole, in a partition of its own: its partition directly (scopedb.project_nearest;
            -- nothing otherwise), which plans in a sixth of the time the statement below takes.
            RETURN QUERY
                SELECT p.project_id, p.id, p.resource_id, p.path, p.fqn, p.content, p.distance, true
                  FROM scopedb.project_nearest(projects[pg_catalog.array_lower(projects, 1)], query, k, ef_search,
                                               max_scan_tuples) AS p;
            GET DIAGNOSTICS found = ROW_COUNT;
        END IF;
        IF found = 0 THEN
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
        END IF;
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


-- The partitions made before this revision: the same policy create_project_storage now makes (not the shared one).
DO $$
DECLARE
    part record;
BEGIN
    FOR part IN
        SELECT c.relname FROM pg_catalog.pg_inherits AS i
          JOIN pg_catalog.pg_class AS c ON c.oid = i.inhrelid
         WHERE i.inhparent = 'scopedb.fragments'::regclass AND c.relnamespace = 'scopedb_parts'::regnamespace
           AND c.relname ~ '^fragments_[0-9]+$'
         ORDER BY 1
    LOOP
        EXECUTE pg_catalog.format(
            'CREATE POLICY "owner searches the project its entered scope reads whole" '
            'ON scopedb_parts.%I AS PERMISSIVE FOR SELECT TO scopedb_owner '
            'USING (project_id = ANY ((SELECT scopedb.scope_whole_project_ids(true))::bigint[]) '
            'AND valid_from <= pg_catalog.now() AND (valid_to IS NULL OR valid_to > pg_catalog.now()))', part.relname);
    END LOOP;
END
$$;

-- Likewise: one project's own partition, for a scope that reads it whole.
GRANT EXECUTE ON FUNCTION scopedb.project_nearest(bigint, vector, integer, integer, integer) TO scopedb_app;

-- The full set of pins (sql/04_settings_of_kept_plans.sql) for the new function, and again for the replaced one
-- (CREATE OR REPLACE sets the SET clauses anew).
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
    FOREACH f IN ARRAY ARRAY['scopedb.project_nearest(bigint, vector, integer, integer, integer)',
        'scopedb.nearest_fragments(vector, integer, bigint[], text, boolean, integer, integer)']::regprocedure[] LOOP
        FOREACH setting IN ARRAY full_set LOOP
            EXECUTE pg_catalog.format('ALTER FUNCTION %s SET %I = %L', f, pg_catalog.split_part(setting, '=', 1),
                                      pg_catalog.split_part(setting, '=', 2));
        END LOOP;
    END LOOP;
END
$$;

RESET ROLE;
