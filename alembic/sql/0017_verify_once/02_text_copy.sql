-- Revision 0017 (issue 19): text search from the full-text copy alone. The copy carries the content, so
-- scopedb.text_candidates returns its best rows without joining them back to scopedb.fragments. The copy
-- is filled from the fragments here (one pass). The functions planned on every call (text_candidates,
-- nearest_fragments) plan with constraint_exclusion off, as pin_settings now sets it for scoped transactions.

-- pgvector's settings (hnsw.*) in the SET clauses below are known only once its library is loaded.
SELECT '[1]'::public.vector;

SET ROLE scopedb_owner;

ALTER TABLE scopedb_private.fragment_search ADD COLUMN content text;
-- A copy without its fragment cannot exist (the triggers delete them together); if one did, it goes.
DELETE FROM scopedb_private.fragment_search AS s
 WHERE NOT EXISTS (SELECT FROM scopedb.fragments AS f WHERE f.project_id = s.project_id AND f.id = s.id);
UPDATE scopedb_private.fragment_search AS s SET content = f.content
  FROM scopedb.fragments AS f WHERE f.project_id = s.project_id AND f.id = s.id;
ALTER TABLE scopedb_private.fragment_search ALTER COLUMN content SET NOT NULL;
COMMENT ON TABLE scopedb_private.fragment_search IS
    'Owner-only copy of fragments.tsv, of the columns the scope judges and of the content, partitioned like '
    'fragments, with a GIN index on the partitions of larger projects: for scoped full-text search (see '
    'scopedb.text_candidates).';


-- Keeps scopedb_private.fragment_search in step with fragments' inserts and updates (deletes: below).
-- Statement-level, from the transition table: one set-based upsert per statement, not a definer call per row.
CREATE OR REPLACE FUNCTION scopedb_private.sync_fragment_search() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    -- "changed" is the statement's transition table of new rows (inserted, or updated in any column: a trigger
    -- with a transition table cannot name columns). Rows whose copied columns did not change are skipped by the
    -- WHERE.
    INSERT INTO scopedb_private.fragment_search AS s (project_id, id, tsv, resource_id, path, fqn, valid_from, valid_to,
                                                      content)
    SELECT c.project_id, c.id, c.tsv, c.resource_id, c.path, c.fqn, c.valid_from, c.valid_to, c.content
      FROM changed AS c
    ON CONFLICT ON CONSTRAINT fragment_search_pkey DO UPDATE
       SET tsv = EXCLUDED.tsv, resource_id = EXCLUDED.resource_id, path = EXCLUDED.path, fqn = EXCLUDED.fqn,
           valid_from = EXCLUDED.valid_from, valid_to = EXCLUDED.valid_to, content = EXCLUDED.content
     WHERE (s.tsv, s.resource_id, s.path, s.fqn, s.valid_from, s.valid_to, s.content)
           IS DISTINCT FROM (EXCLUDED.tsv, EXCLUDED.resource_id, EXCLUDED.path, EXCLUDED.fqn, EXCLUDED.valid_from,
                             EXCLUDED.valid_to, EXCLUDED.content);
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION scopedb_private.sync_fragment_search() IS
    'Copies the tsvectors and scope columns of a statement''s new or changed fragments into the owner-only full-text copy.';

-- Gives one project partitions of its own, scopedb_parts.fragments_<id> and scopedb_parts.fragment_search_<id>,
-- and moves its rows there from the partitions the small projects share. The maintenance step calls it for a
-- project that has reached the storage threshold (its HNSW and GIN index follow, built on the new partitions), and
-- an admin for a project known to be large before it is loaded (Admin.create_project(own_storage=True)).
--
-- Each table is created standalone, filled, and then attached: CREATE TABLE ... PARTITION OF would take an
-- ACCESS EXCLUSIVE lock on the parent, which waits for every tenant's running reads and blocks new ones
-- meanwhile; ATTACH PARTITION takes SHARE UPDATE EXCLUSIVE on the parent, which no read or write conflicts with.
-- What waits is the small projects' writes, for the length of the move: the shared partitions are locked in SHARE
-- mode first (a row the project writes meanwhile would be left behind), and attaching scans the shared partition
-- under an ACCESS EXCLUSIVE lock to prove no row of the project remains there. Projects with partitions of their
-- own never wait. The rows are copied through the parents as the owner in an admin session (a partition's forced
-- row-level security has no policy, so read directly it shows the owner nothing), and deleted through the parent
-- as well; the delete's trigger removes their full-text copies and archived originals, so the originals are kept
-- aside and put back. The new tables get row-level security enabled and forced, without a policy, once filled,
-- and no privilege but the owner's: queries reach them only through their parents, whose policies apply.
-- Idempotent; one half missing (a partition dropped by hand) is made up on its own.
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
        DELETE FROM scopedb.fragments AS f WHERE f.project_id = project;  -- its trigger deletes the copies
        INSERT INTO scopedb_private.fragment_originals SELECT (o).* FROM pg_catalog.unnest(originals) AS o;
        EXECUTE pg_catalog.format(
            'ALTER TABLE scopedb_parts.fragments_%s ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY', project);
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

-- Scoped full-text candidates: the best `max_rows` fragments matching `query`, with their ts_rank_cd and their
-- rows. The GIN index of scopedb_private.fragment_search finds the matches (it has no RLS, so the index is usable),
-- and the verified scope is applied to them there: the copy carries the columns the read policy judges, and the
-- predicate below is that policy's, term for term, with the scope's values read once (one check of the token, not
-- one per accessor) and inlined as constants (plan_cache_mode), so the planner prunes to the scope's partitions and
-- drops the checks a scope does not need (no patterns: no pattern test at all). The copy carries the content too,
-- so the best `max_rows` are returned from it alone. They used to be joined to scopedb.fragments under the owner's
-- scope policy, a second check of each returned row; planning that join into the partitioned table took 0.5 ms
-- of a 0.6 ms search in a small scope (revision 0017 removed it). The copy is written only by the owner's
-- triggers on fragments, in the statement that changes them, so it is what the fragments are.
--
-- Each project's words are in its own partition (scopedb_parts.fragment_search_<id>, with a GIN index once the
-- project is large enough; the small projects' in the shared partition, searched through the primary key), and the
-- scope's project ids prune the others away before anything is read. The function runs with the caller's settings
-- unless it pins them: gin_fuzzy_search_limit thinned every tenant's matches before the scope filter, so the count
-- A got back for a word told A how often other tenants use it. The settings below are fixed for the call. The
-- statement is static (no EXECUTE), and no function shows its plan: a plan made as the owner, from every tenant's
-- statistics, changed shape with how common A's word was across all tenants.
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
END
$$;
COMMENT ON FUNCTION scopedb.text_candidates(tsquery, integer) IS
    'Best-ranked fragments of the verified scope matching a tsquery, from the scope''s partitions only.';

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
SET constraint_exclusion = off
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

-- k-hop neighbourhood: every node reachable from the start nodes in at most `max_depth` steps, with its details,
-- and the edge it was reached by (NULL for a start node). A node is (project_id, id): the walk carries both, and
-- an edge joins nodes of its own project only. graph_edges' policy admits only edges whose two ends the scope
-- sees, so the walk never enters (nor returns the id of) a hidden node, and needs no read of the nodes to know
-- where it may go: it walks the edges alone, from every (project, start id) pair of the call, and reads the nodes
-- once, at the end, for their details. That read is also what drops a start id the scope does not see (or that
-- names no node): no edge the scope sees leaves a node it does not see, so such a start reaches nothing on the
-- way. Reading the node each step entered, as the walk did, was one more reference to graph_nodes, whose policy
-- InitPlans (three scope checks) every call paid. The LATERAL subqueries, fenced with OFFSET 0, fix the join
-- order (walk -> its out-edges by key; each reached node -> its row by key): under RLS the planner's row estimates
-- are blind, and without RLS (the owner's baseline) it hashed every node of the table for the final read.
CREATE OR REPLACE FUNCTION scopedb.graph_walk(projects bigint[], start text[], max_depth integer, relations text[])
RETURNS TABLE (project_id bigint, node text, src text, relation text, kind text, resource_id text, label text)
LANGUAGE plpgsql
STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN QUERY
    WITH RECURSIVE walk (project_id, node, depth, src, relation) AS (
        SELECT p.id, s.id, 0, NULL::text, NULL::text
          FROM pg_catalog.unnest(projects) AS p (id), pg_catalog.unnest(start) AS s (id)
        UNION ALL
        SELECT step.project_id, step.dst, w.depth + 1, step.src, step.relation
          FROM walk AS w
         CROSS JOIN LATERAL (
               SELECT e.project_id, e.src, e.dst, e.relation
                 FROM scopedb.graph_edges AS e
                WHERE e.project_id = w.project_id AND e.src = w.node
                  AND (relations IS NULL OR e.relation = ANY (relations))
               OFFSET 0) AS step
         WHERE w.depth < max_depth
    ) CYCLE project_id, node SET is_cycle USING trail
    SELECT DISTINCT w.project_id, w.node, w.src, w.relation, n.kind, n.resource_id, n.label
      FROM walk AS w
     CROSS JOIN LATERAL (
           SELECT n.kind, n.resource_id, n.label
             FROM scopedb.graph_nodes AS n
            WHERE n.project_id = w.project_id AND n.id = w.node
           OFFSET 0) AS n;
END
$$;
COMMENT ON FUNCTION scopedb.graph_walk(bigint[], text[], integer, text[]) IS
    'Nodes reachable from start in at most max_depth visible edges (RLS applies), with the edge each was reached by.';

-- The shortest path (fewest edges) from `source` to `target` through visible nodes and edges, as its project and
-- node ids, or no row. The edge policy admits only edges whose two ends the scope sees, so the walk needs no read
-- of the nodes, not even of the source (a source the scope does not see has no edge it sees): only a path of no
-- step, from a node to itself, probes the node.
CREATE OR REPLACE FUNCTION scopedb.graph_shortest_path(projects bigint[], source text, target text, max_depth integer,
                                            relations text[])
RETURNS TABLE (project_id bigint, path text[])
LANGUAGE plpgsql
STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN QUERY
    WITH RECURSIVE walk (project_id, node, depth, path) AS (
        SELECT p.id, source, 0, ARRAY[source] FROM pg_catalog.unnest(projects) AS p (id)
        UNION ALL
        SELECT step.project_id, step.dst, w.depth + 1, w.path || step.dst
          FROM walk AS w
         CROSS JOIN LATERAL (
               SELECT e.project_id, e.dst
                 FROM scopedb.graph_edges AS e
                WHERE e.project_id = w.project_id AND e.src = w.node AND e.dst <> ALL (w.path)
                  AND (relations IS NULL OR e.relation = ANY (relations))
               OFFSET 0) AS step
         WHERE w.depth < max_depth
    )
    SELECT w.project_id, w.path FROM walk AS w
     WHERE w.node = target
       -- A path of one step or more only uses edges the scope sees, whose ends it sees; a path of none is the
       -- source alone, which must be a node the scope sees (this probe runs only then).
       AND (w.depth > 0 OR EXISTS (SELECT FROM scopedb.graph_nodes AS n
                                    WHERE n.project_id = w.project_id AND n.id = w.node))
     ORDER BY w.depth, w.path LIMIT 1;
END
$$;
COMMENT ON FUNCTION scopedb.graph_shortest_path(bigint[], text, text, integer, text[]) IS
    'The shortest path between two nodes through visible nodes and edges (RLS applies), or no row.';

RESET ROLE;
