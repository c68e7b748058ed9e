-- Revision 0014: projects below the storage threshold share one partition of fragments and of the full-text
-- copy (the DEFAULT partitions, which have no search index), so a new project is a row and no tables; the
-- maintenance step moves a project that reaches the threshold into partitions of its own. Projects that already
-- have partitions keep them.

-- pgvector's settings (hnsw.*) in the SET clauses below are known only once its library is loaded.
SELECT '[1]'::public.vector;

SET ROLE scopedb_owner;

-- Projects below the threshold share the DEFAULT partition of each table: a new project is one row in
-- scopedb.projects, not two tables attached (attaching rebuilds the parent's partition descriptor from every
-- partition's bound, and at 10,000 projects cost 121 ms per new project; each project's tables and indexes also
-- cost the catalog six relations). These two partitions never get a search index (the audit holds them to that,
-- E026): an HNSW or GIN index over them would hold many projects' rows, and an approximate index over several
-- projects answers similarity questions about all of them (docs/security.md #76). A search in a small project reads
-- its rows exactly, through the primary key, whose leading column is the project. The maintenance step moves a
-- project that reaches the threshold into partitions of its own (scopedb_private.create_project_storage).
CREATE TABLE scopedb_parts.fragments_shared PARTITION OF scopedb.fragments DEFAULT;
CREATE TABLE scopedb_parts.fragment_search_shared PARTITION OF scopedb_private.fragment_search DEFAULT;
-- As every partition: row-level security enabled and forced with no policy of its own, so it is read only
-- through its parent, whose policies apply.
ALTER TABLE scopedb_parts.fragments_shared ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
ALTER TABLE scopedb_parts.fragment_search_shared ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;

COMMENT ON SCHEMA scopedb_parts IS
    'The partitions of scopedb.fragments and scopedb_private.fragment_search: one per project past the storage '
    'threshold, and one shared by the smaller projects. Only scopedb_owner may use it; queries reach the '
    'partitions through their parents, whose policies apply.';
COMMENT ON TABLE scopedb.fragments IS
    'The unit every search returns: a piece of text with its path, fully-qualified name, embedding and tier. '
    'A partition per project past the storage threshold (scopedb_parts.fragments_<id>); smaller projects share '
    'scopedb_parts.fragments_shared.';
COMMENT ON TABLE scopedb_private.fragment_search IS
    'Owner-only copy of fragments.tsv, partitioned like fragments, with a GIN index on the partitions of larger '
    'projects: for scoped full-text search (see scopedb.text_candidates).';

DROP TRIGGER projects_create_storage ON scopedb.projects;
DROP FUNCTION scopedb_private.project_storage_on_insert();

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
    INSERT INTO scopedb_private.fragment_search AS s (project_id, id, tsv)
    SELECT f.project_id, f.id, f.tsv FROM scopedb.fragments AS f WHERE f.project_id = project
    ON CONFLICT ON CONSTRAINT fragment_search_pkey DO UPDATE SET tsv = EXCLUDED.tsv
     WHERE s.tsv IS DISTINCT FROM EXCLUDED.tsv;
END
$$;
COMMENT ON FUNCTION scopedb_private.create_project_storage(bigint) IS
    'Gives a project partitions of its own (of scopedb.fragments and scopedb_private.fragment_search), moving its rows.';

-- What the maintenance step should do (scopedb.Admin.maintain_storage, `scopedb storage`): one row per action,
-- with the statement that performs it. The statements cannot run here: CREATE INDEX CONCURRENTLY and DETACH
-- PARTITION CONCURRENTLY, which keep every other project's reads and writes going, refuse to run inside a
-- transaction block. Actions, in order:
--   create  a project in the shared partitions with at least `threshold` fragments gets partitions of its own,
--           its rows moved there (scopedb_private.create_project_storage); so does a project that has one of its
--           two partitions and not the other, whatever its size (threshold NULL: only that)
--   hnsw    a project with at least `threshold` embedded fragments and no HNSW index gets one on its partition
--           (threshold NULL: no index is built)
--   gin     a project with at least `threshold` fragments and no GIN index gets one on its full-text partition
--   detach / drop   a partition whose project no longer exists is detached, then dropped
-- Below the threshold a project stays in the shared partitions and is searched exactly (through the primary key):
-- no index means no approximation, and for a few hundred rows an exact scan costs about what an index scan does. With `online` false the
-- indexes are built with a plain CREATE INDEX: one pass over the rows, no waiting for other transactions, and it
-- still locks only the project's own partition — its writes wait for the build, no one else's do (the choice
-- after a bulk load, when nothing writes).
--
-- `projects` limits the plan to those projects (NULL: every project). Counting a project's rows locks its
-- partitions until the transaction ends, and with thousands of projects one transaction ran out of lock slots
-- (max_locks_per_transaction); the caller plans a batch of projects per transaction. Partitions of deleted
-- projects, which need no count, are planned when `projects` is NULL or empty.
CREATE OR REPLACE FUNCTION scopedb_private.storage_plan(threshold integer, online boolean DEFAULT true,
                                             projects bigint[] DEFAULT NULL)
RETURNS TABLE (project_id bigint, action text, statement text, row_count bigint)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET plan_cache_mode = force_custom_plan
AS $$
DECLARE
    p record;
    own integer;
    rows_found bigint;
    build text := CASE WHEN online THEN 'CONCURRENTLY ' ELSE '' END;
BEGIN
    IF threshold < 1 THEN
        RAISE EXCEPTION 'threshold must be a positive number of rows' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    FOR p IN SELECT pr.id FROM scopedb.projects AS pr WHERE projects IS NULL OR pr.id = ANY (projects)
              ORDER BY pr.id LOOP
        own := (pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.fragments_%s', p.id)) IS NOT NULL)::integer
               + (pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.fragment_search_%s', p.id)) IS NOT NULL)::integer;
        IF own < 2 THEN
            IF own = 0 THEN
                CONTINUE WHEN threshold IS NULL;
                SELECT pg_catalog.count(*) INTO rows_found
                  FROM (SELECT FROM scopedb.fragments AS f WHERE f.project_id = p.id LIMIT threshold) AS r;
                CONTINUE WHEN rows_found < threshold;  -- stays in the shared partitions
            END IF;
            RETURN QUERY SELECT p.id, 'create',
                                pg_catalog.format('SELECT scopedb_private.create_project_storage(%s)', p.id), 0::bigint;
        END IF;
        CONTINUE WHEN threshold IS NULL;  -- create and drop only
        IF pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.fragments_%s_embedding_hnsw', p.id)) IS NULL THEN
            -- Through the parent, where the owner's admin policy applies (the partition's own forced row-level
            -- security has no policy, so read directly it shows the owner nothing).
            SELECT pg_catalog.count(*) INTO rows_found
              FROM (SELECT FROM scopedb.fragments AS f
                     WHERE f.project_id = p.id AND f.embedding IS NOT NULL LIMIT threshold) AS r;
            IF rows_found >= threshold THEN
                -- The whole count, for sizing maintenance_work_mem (an HNSW build that fits in it is much faster).
                SELECT pg_catalog.count(*) INTO rows_found
                  FROM scopedb.fragments AS f WHERE f.project_id = p.id AND f.embedding IS NOT NULL;
                RETURN QUERY SELECT p.id, 'hnsw', pg_catalog.format(
                    'CREATE INDEX %sIF NOT EXISTS fragments_%s_embedding_hnsw '
                    'ON scopedb_parts.fragments_%s USING hnsw (embedding %s.vector_cosine_ops) '
                    'WITH (m = 16, ef_construction = 128)', build, p.id, p.id,
                    (SELECT pg_catalog.quote_ident(n.nspname) FROM pg_catalog.pg_extension AS e
                       JOIN pg_catalog.pg_namespace AS n ON n.oid = e.extnamespace WHERE e.extname = 'vector')),
                    rows_found;
            END IF;
        END IF;
        IF pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.fragment_search_%s_tsv_gin', p.id)) IS NULL THEN
            SELECT pg_catalog.count(*) INTO rows_found
              FROM (SELECT FROM scopedb_private.fragment_search AS s WHERE s.project_id = p.id LIMIT threshold) AS r;
            IF rows_found >= threshold THEN
                RETURN QUERY SELECT p.id, 'gin', pg_catalog.format(
                    'CREATE INDEX %sIF NOT EXISTS fragment_search_%s_tsv_gin '
                    'ON scopedb_parts.fragment_search_%s USING gin (tsv)', build, p.id, p.id), rows_found;
            END IF;
        END IF;
    END LOOP;
    IF COALESCE(pg_catalog.cardinality(projects), 0) > 0 THEN
        RETURN;
    END IF;
    -- Partitions of projects that no longer exist, the full-text one first.
    RETURN QUERY
        SELECT o.project_id, a.action, pg_catalog.format(a.template, o.parent, o.part), 0::bigint
          FROM (SELECT i.inhparent::regclass AS parent, c.oid::regclass AS part,
                       pg_catalog.substring(pg_catalog.pg_get_expr(c.relpartbound, c.oid), '(\d+)')::bigint
                           AS project_id,
                       CASE WHEN i.inhparent = 'scopedb_private.fragment_search'::regclass THEN 0 ELSE 1 END AS rank,
                       i.inhdetachpending AS pending
                  FROM pg_catalog.pg_inherits AS i
                  JOIN pg_catalog.pg_class AS c ON c.oid = i.inhrelid
                 WHERE i.inhparent IN ('scopedb.fragments'::regclass, 'scopedb_private.fragment_search'::regclass))
               AS o
         CROSS JOIN LATERAL (VALUES (0, 'detach', 'ALTER TABLE %s DETACH PARTITION %s '
                                        || CASE WHEN o.pending THEN 'FINALIZE' ELSE 'CONCURRENTLY' END),
                                    (1, 'drop', 'DROP TABLE %2$s')) AS a (step, action, template)
         WHERE o.project_id IS NOT NULL  -- the shared partitions (bound DEFAULT) stay
           AND NOT EXISTS (SELECT FROM scopedb.projects AS pr WHERE pr.id = o.project_id)
         ORDER BY o.rank, o.part, a.step;
    -- Tables of scopedb_parts that are no partition (left by a detach that did not finish): dropped.
    RETURN QUERY
        SELECT NULL::bigint, 'drop', pg_catalog.format('DROP TABLE %s', c.oid::regclass), 0::bigint
          FROM pg_catalog.pg_class AS c
         WHERE c.relnamespace = 'scopedb_parts'::regnamespace AND c.relkind = 'r' AND NOT c.relispartition;
END
$$;
COMMENT ON FUNCTION scopedb_private.storage_plan(integer, boolean, bigint[]) IS
    'The maintenance actions per-project storage needs now, each with its statement (run outside a transaction).';

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
        -- catalog is readable by every role), simple to plan. An index left invalid by a failed build is one the
        -- planner will not use; with sorts off it then scans and sorts that partition, slow but still exact.
        found := ARRAY(SELECT c.relname::text FROM pg_catalog.pg_class AS c
                        WHERE c.relnamespace = 'scopedb_parts'::regnamespace
                          AND c.relname = ANY (ARRAY(SELECT 'fragments_' || p || '_embedding_hnsw'
                                                       FROM pg_catalog.unnest(projects) AS p)));
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
        -- An empty list alone would be `project_id = ANY ('{}')`, which under RLS the planner finds false only
        -- after opening and locking every partition (10,000 projects: out of lock slots); the exact branch also
        -- says `cardinality(scanned) > 0`, a constant false then, which prunes every partition before any is opened.
        PERFORM pg_catalog.set_config('hnsw.ef_search', GREATEST(LEAST(ef_search, 1000), k, 1)::text, true),
                pg_catalog.set_config('hnsw.max_scan_tuples', GREATEST(max_scan_tuples, 1)::text, true),
                pg_catalog.set_config('enable_sort', 'off', true);
        SELECT pg_catalog.array_agg(u.project_id ORDER BY u.distance, u.project_id, u.id),
               pg_catalog.array_agg(u.id ORDER BY u.distance, u.project_id, u.id),
               pg_catalog.array_agg(u.resource_id ORDER BY u.distance, u.project_id, u.id),
               pg_catalog.array_agg(u.path ORDER BY u.distance, u.project_id, u.id),
               pg_catalog.array_agg(u.fqn ORDER BY u.distance, u.project_id, u.id),
               pg_catalog.array_agg(u.content ORDER BY u.distance, u.project_id, u.id),
               pg_catalog.array_agg(u.distance ORDER BY u.distance, u.project_id, u.id)
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
                      WHERE f.project_id = ANY (scanned) AND pg_catalog.cardinality(scanned) > 0
                        AND f.embedding IS NOT NULL
                      ORDER BY f.embedding <=> query
                      LIMIT k)) AS b
                 ORDER BY b.distance
                 LIMIT k) AS u;
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
