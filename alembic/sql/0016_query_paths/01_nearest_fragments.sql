-- Revision 0016 (issues 16 and 19): vector search plans less per call. The indexed projects are found by one
-- pg_class lookup whose names are built beforehand, a scope whose projects all have an index plans one branch,
-- and the answer is staged by one aggregate step instead of seven sorts.

-- pgvector's settings (hnsw.*) in the SET clauses below are known only once its library is loaded.
SELECT '[1]'::public.vector;

SET ROLE scopedb_owner;

-- The `k` fragments of `projects` nearest to `query` by `metric` ('cosine', 'l2' or 'inner_product'), always
-- min(k, visible) of them, in one call. For cosine, the projects whose partition has an HNSW index (those past the
-- storage threshold) are read through their own index, merged in distance order (a strict iterative scan, so rows
-- the scope's filters drop do not starve the answer); the others are scanned exactly; the two answers are merged.
-- Each index holds one project's rows, so what it returns never depends on another project's vectors. The
-- planner is not left to choose between the two: under RLS it cannot estimate how many rows a partition keeps,
-- and given the chance it sorted whole indexed partitions, or every partition at once; with sorts disabled, the
-- indexed projects can only be merged from their indexes, and the others are sorted as they must be. If the
-- answer is short of k (an iterative scan stopped at `max_scan_tuples`), the exact answer replaces it: the index
-- answer is collected first and returned only when complete, so the exact statement is planned and run only
-- then. The other metrics, and `exact`, go straight to the exact statement (the OFFSET 0 fence keeps the planner
-- from ordering through an index). `used_index` says which statement answered.
--
-- Runs with the caller's rights (RLS filters every row) and the caller's search_path, which scoped entry pins and
-- which finds pgvector's operators; the settings it changes are restored when it returns. `projects` only prunes
-- the partitions to read: the policies decide what is visible, so passing other ids admits nothing.
CREATE OR REPLACE FUNCTION scopedb.nearest_fragments(query vector, k integer, projects bigint[], metric text, exact boolean,
                                          ef_search integer, max_scan_tuples integer)
RETURNS TABLE (project_id bigint, id text, resource_id text, path text, fqn text, content text,
               distance double precision, used_index boolean)
LANGUAGE plpgsql
VOLATILE
SET plan_cache_mode = force_custom_plan
SET enable_partition_pruning = on
SET enable_sort = on
SET hnsw.iterative_scan = strict_order
SET hnsw.ef_search = 20
SET hnsw.max_scan_tuples = 20000
AS $$
DECLARE
    indexed bigint[];
    scanned bigint[];
    one bigint;
    names text[] := '{}';
    found text[];
    -- The index answer, column by column, in distance order.
    a_project bigint[];
    a_id text[];
    a_resource text[];
    a_path text[];
    a_fqn text[];
    a_content text[];
    a_distance double precision[];
BEGIN
    IF k IS NULL OR k < 0 OR k > 10000 THEN
        RAISE EXCEPTION 'k must be between 0 and 10000' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF metric IS NULL OR metric NOT IN ('cosine', 'l2', 'inner_product') THEN
        RAISE EXCEPTION 'metric must be cosine, l2 or inner_product' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF COALESCE(pg_catalog.cardinality(projects), 0) = 0 THEN
        RETURN;
    END IF;
    IF metric = 'cosine' AND NOT exact THEN
        -- Which of the projects have an HNSW index on their partition: one lookup of their names in pg_class (the
        -- catalog is readable by every role) by its (relname, relnamespace) index. The names are built here, not
        -- in the statement: a subquery there made the lookup cost more to plan (it is planned on every call) than
        -- all of the rest of the function. An index left invalid by a failed build is one the planner will not
        -- use; with sorts off it then scans and sorts that partition, slow but still exact.
        FOREACH one IN ARRAY projects LOOP
            names := names || ('fragments_' || one || '_embedding_hnsw');
        END LOOP;
        found := ARRAY(SELECT c.relname::text FROM pg_catalog.pg_class AS c
                        WHERE c.relnamespace = 'scopedb_parts'::regnamespace AND c.relname = ANY (names::name[]));
        indexed := '{}';
        scanned := '{}';
        FOREACH one IN ARRAY projects LOOP
            IF 'fragments_' || one || '_embedding_hnsw' = ANY (found) THEN
                indexed := indexed || one;
            ELSE
                scanned := scanned || one;
            END IF;
        END LOOP;
    END IF;
    IF metric = 'cosine' AND NOT exact AND pg_catalog.cardinality(indexed) > 0 THEN
        -- Neither list reaches a statement empty: `project_id = ANY ('{}')` is found false under RLS only after
        -- every partition is opened and locked (10,000 projects: out of lock slots).
        PERFORM pg_catalog.set_config('hnsw.ef_search', GREATEST(LEAST(ef_search, 1000), k, 1)::text, true),
                pg_catalog.set_config('hnsw.max_scan_tuples', GREATEST(max_scan_tuples, 1)::text, true),
                pg_catalog.set_config('enable_sort', 'off', true);
        -- The answer is staged in arrays, in the order the statement returns it (distance order; one aggregate
        -- step over the same rows keeps the arrays aligned, where an ORDER BY in each aggregate sorted seven
        -- times). A scope whose projects all have an index, the common case for large tenants, plans one branch,
        -- not two: planning the second, empty one cost as much as reading the index.
        IF pg_catalog.cardinality(scanned) = 0 THEN
            SELECT pg_catalog.array_agg(u.project_id), pg_catalog.array_agg(u.id), pg_catalog.array_agg(u.resource_id),
                   pg_catalog.array_agg(u.path), pg_catalog.array_agg(u.fqn), pg_catalog.array_agg(u.content),
                   pg_catalog.array_agg(u.distance)
              INTO a_project, a_id, a_resource, a_path, a_fqn, a_content, a_distance
              FROM (SELECT f.project_id, f.id, f.resource_id, f.path, f.fqn, f.content,
                           (f.embedding <=> query)::double precision AS distance
                      FROM scopedb.fragments AS f
                     WHERE f.project_id = ANY (indexed) AND f.embedding IS NOT NULL
                     ORDER BY f.embedding <=> query
                     LIMIT k) AS u;
        ELSE
            SELECT pg_catalog.array_agg(u.project_id), pg_catalog.array_agg(u.id), pg_catalog.array_agg(u.resource_id),
                   pg_catalog.array_agg(u.path), pg_catalog.array_agg(u.fqn), pg_catalog.array_agg(u.content),
                   pg_catalog.array_agg(u.distance)
              INTO a_project, a_id, a_resource, a_path, a_fqn, a_content, a_distance
              FROM (SELECT b.* FROM (
                        (SELECT f.project_id, f.id, f.resource_id, f.path, f.fqn, f.content,
                                (f.embedding <=> query)::double precision AS distance
                           FROM scopedb.fragments AS f
                          WHERE f.project_id = ANY (indexed) AND f.embedding IS NOT NULL
                          ORDER BY f.embedding <=> query
                          LIMIT k)
                        UNION ALL
                        (SELECT f.project_id, f.id, f.resource_id, f.path, f.fqn, f.content,
                                (f.embedding <=> query)::double precision AS distance
                           FROM scopedb.fragments AS f
                          WHERE f.project_id = ANY (scanned) AND f.embedding IS NOT NULL
                          ORDER BY f.embedding <=> query
                          LIMIT k)) AS b
                     ORDER BY b.distance
                     LIMIT k) AS u;
        END IF;
        IF COALESCE(pg_catalog.cardinality(a_id), 0) >= k THEN
            RETURN QUERY
                SELECT r.*, true
                  FROM ROWS FROM (pg_catalog.unnest(a_project), pg_catalog.unnest(a_id), pg_catalog.unnest(a_resource),
                                  pg_catalog.unnest(a_path), pg_catalog.unnest(a_fqn), pg_catalog.unnest(a_content),
                                  pg_catalog.unnest(a_distance)) AS r;
            RETURN;
        END IF;
        PERFORM pg_catalog.set_config('enable_sort', 'on', true);
    END IF;
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
    'The k nearest fragments of the given projects (RLS applies): per-project HNSW where built, exact otherwise.';

RESET ROLE;
