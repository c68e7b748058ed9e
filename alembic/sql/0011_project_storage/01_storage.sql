-- Revision 0011: per-project storage. No search structure holds more than one project's rows.
--   * scopedb.fragments and scopedb_private.fragment_search become LIST-partitioned by project_id; every project
--     gets a partition of each (schema scopedb_parts, scopedb_private.create_project_storage, also on project
--     creation), and the maintenance step (scopedb_private.storage_plan) gives a project past a size threshold its
--     own HNSW and GIN index. The shared HNSW and GIN indexes are gone.
--   * Existing rows move into the partitions (the full-text copy is rebuilt by the insert trigger); the old tables
--     are dropped. Policies, grants and triggers are re-created on the new tables as sql/ defines them.
--   * scopedb.nearest_fragments answers vector search in one call; text_candidates, the delete functions and
--     pin_settings plan with the scope's project ids as constants (plan_cache_mode), so partitions are pruned.
--   * The full-text copy and the archived originals follow fragments by trigger instead of foreign key (a key
--     referencing a partitioned table made each new project's partitions slower to attach than the last).

CREATE SCHEMA IF NOT EXISTS scopedb_parts AUTHORIZATION scopedb_owner;

SET ROLE scopedb_owner;

COMMENT ON SCHEMA scopedb_parts IS
    'One partition per project of scopedb.fragments and scopedb_private.fragment_search. Only scopedb_owner may use '
    'it; queries reach the partitions through their parents, whose policies apply.';
REVOKE ALL ON SCHEMA scopedb_parts FROM PUBLIC;

-- The unpartitioned tables step aside (their policies, grants and triggers go with them).
ALTER TABLE scopedb_private.fragment_originals DROP CONSTRAINT fragment_originals_fragment_fkey;
ALTER TABLE scopedb.fragments SET SCHEMA scopedb_parts;
ALTER TABLE scopedb_parts.fragments RENAME TO legacy_fragments;
ALTER TABLE scopedb_private.fragment_search SET SCHEMA scopedb_parts;
ALTER TABLE scopedb_parts.fragment_search RENAME TO legacy_fragment_search;

-- The partitioned tables, with the columns (and embedding width) of the old ones.
CREATE TABLE scopedb.fragments (
    LIKE scopedb_parts.legacy_fragments
    INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING GENERATED INCLUDING STORAGE INCLUDING COMPRESSION
    INCLUDING COMMENTS
) PARTITION BY LIST (project_id);
ALTER TABLE scopedb.fragments
    ADD CONSTRAINT fragments_pkey PRIMARY KEY (project_id, id),
    ADD CONSTRAINT fragments_project_id_fkey FOREIGN KEY (project_id) REFERENCES scopedb.projects (id) ON DELETE CASCADE,
    ADD CONSTRAINT fragments_resource_fkey FOREIGN KEY (project_id, resource_id)
        REFERENCES scopedb.resources (project_id, id);
COMMENT ON TABLE scopedb.fragments IS
    'The unit every search returns: a piece of text with its path, fully-qualified name, embedding and tier. '
    'One partition per project (scopedb_parts.fragments_<id>).';
CREATE INDEX fragments_resource_idx ON scopedb.fragments (project_id, resource_id);
CREATE INDEX fragments_tier_lru_idx ON scopedb.fragments (project_id, tier, last_accessed_at);
ALTER TABLE scopedb.fragments ENABLE ROW LEVEL SECURITY;
ALTER TABLE scopedb.fragments FORCE ROW LEVEL SECURITY;

CREATE TABLE scopedb_private.fragment_search (
    LIKE scopedb_parts.legacy_fragment_search INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE
) PARTITION BY LIST (project_id);
ALTER TABLE scopedb_private.fragment_search
    ADD CONSTRAINT fragment_search_pkey PRIMARY KEY (project_id, id);
COMMENT ON TABLE scopedb_private.fragment_search IS
    'Owner-only copy of fragments.tsv, one partition per project, with a GIN index on the partitions of larger '
    'projects: for scoped full-text search (see scopedb.text_candidates).';

-- Functions (new and changed).
CREATE OR REPLACE VIEW scopedb_audit.protected_tables WITH (security_barrier) AS
SELECT c.oid AS relid, c.relnamespace::regnamespace::text AS schema, c.relname
  FROM pg_catalog.pg_class AS c
 WHERE c.relnamespace IN ('scopedb'::regnamespace, 'scopedb_private'::regnamespace, 'scopedb_parts'::regnamespace)
   AND c.relkind IN ('r', 'p');

CREATE OR REPLACE FUNCTION scopedb_private.pin_settings() RETURNS void
LANGUAGE plpgsql
VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM pg_catalog.set_config('row_security', 'on', true),
            pg_catalog.set_config('gin_fuzzy_search_limit', '0', true),
            pg_catalog.set_config('statement_timeout', '0', true),
            pg_catalog.set_config('lock_timeout', '0', true),
            pg_catalog.set_config('idle_in_transaction_session_timeout', '0', true),
            pg_catalog.set_config('exit_on_error', 'off', true),
            pg_catalog.set_config('transform_null_equals', 'off', true),
            pg_catalog.set_config('standard_conforming_strings', 'on', true),
            pg_catalog.set_config('DateStyle', 'ISO, MDY', true),
            pg_catalog.set_config('IntervalStyle', 'postgres', true),
            pg_catalog.set_config('extra_float_digits', '1', true),
            pg_catalog.set_config('hnsw.ef_search', '40', true),
            pg_catalog.set_config('hnsw.iterative_scan', 'off', true),
            pg_catalog.set_config('hnsw.max_scan_tuples', '20000', true),
            pg_catalog.set_config('hnsw.scan_mem_multiplier', '1', true),
            -- Every statement plans with its parameters as constants, so the scope's project ids prune the
            -- per-project partitions at plan time (a generic plan would cover every project's partition).
            pg_catalog.set_config('plan_cache_mode', 'force_custom_plan', true),
            pg_catalog.set_config('enable_partition_pruning', 'on', true);
    IF pg_catalog.current_setting('transaction_timeout', true) IS NOT NULL THEN  -- PostgreSQL 17 and later
        PERFORM pg_catalog.set_config('transaction_timeout', '0', true);
    END IF;
END
$$;

CREATE FUNCTION scopedb_private.create_project_storage(project bigint) RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    parent regclass;
    part text;
BEGIN
    FOREACH parent IN ARRAY ARRAY['scopedb.fragments'::regclass, 'scopedb_private.fragment_search'::regclass] LOOP
        part := CASE parent WHEN 'scopedb.fragments'::regclass THEN 'fragments_' ELSE 'fragment_search_' END
                || project;
        CONTINUE WHEN pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.%I', part)) IS NOT NULL;
        EXECUTE pg_catalog.format(
            'CREATE TABLE scopedb_parts.%I (LIKE %s INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING GENERATED)',
            part, parent);
        EXECUTE pg_catalog.format(
            'ALTER TABLE scopedb_parts.%I ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY', part);
        EXECUTE pg_catalog.format('ALTER TABLE %s ATTACH PARTITION scopedb_parts.%I FOR VALUES IN (%s)',
                                  parent, part, project);
    END LOOP;
END
$$;

COMMENT ON FUNCTION scopedb_private.create_project_storage(bigint) IS
    'Creates and attaches a project''s partitions of scopedb.fragments and scopedb_private.fragment_search.';

CREATE FUNCTION scopedb_private.project_storage_on_insert() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM scopedb_private.create_project_storage(NEW.id);
    RETURN NULL;
END
$$;

COMMENT ON FUNCTION scopedb_private.project_storage_on_insert() IS
    'Gives every new project its partitions (scopedb_private.create_project_storage).';

CREATE FUNCTION scopedb_private.storage_plan(threshold integer, online boolean DEFAULT true,
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
    rows_found bigint;
    build text := CASE WHEN online THEN 'CONCURRENTLY ' ELSE '' END;
BEGIN
    IF threshold < 1 THEN
        RAISE EXCEPTION 'threshold must be a positive number of rows' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    FOR p IN SELECT pr.id FROM scopedb.projects AS pr WHERE projects IS NULL OR pr.id = ANY (projects)
              ORDER BY pr.id LOOP
        IF pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.fragments_%s', p.id)) IS NULL
           OR pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.fragment_search_%s', p.id)) IS NULL THEN
            RETURN QUERY SELECT p.id, 'create',
                                pg_catalog.format('SELECT scopedb_private.create_project_storage(%s)', p.id), 0::bigint;
            CONTINUE;
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
    -- Partitions of projects that no longer exist: the full-text one first (the order the tables were made in).
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
         WHERE NOT EXISTS (SELECT FROM scopedb.projects AS pr WHERE pr.id = o.project_id)
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

CREATE OR REPLACE FUNCTION scopedb.text_candidates(query tsquery, max_rows integer)
RETURNS TABLE (project_id bigint, id text, rank real)
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
SET enable_partitionwise_join = on
SET plan_cache_mode = force_custom_plan
AS $$
DECLARE
    ids bigint[] := scopedb.scope_project_ids();
BEGIN
    IF max_rows IS NULL OR max_rows < 0 OR max_rows > 100000 THEN
        RAISE EXCEPTION 'max_rows must be between 0 and 100000' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF COALESCE(pg_catalog.cardinality(ids), 0) = 0 THEN  -- no scope: nothing, and no partition opened
        RETURN;
    END IF;
    RETURN QUERY
        SELECT s.project_id, s.id, pg_catalog.ts_rank_cd(s.tsv, query)
          FROM scopedb_private.fragment_search AS s
          JOIN scopedb.fragments AS f ON f.project_id = s.project_id AND f.id = s.id
         WHERE s.tsv @@ query AND s.project_id = ANY (ids) AND f.project_id = ANY (ids)
         ORDER BY 3 DESC, 1, 2   -- by position: the names are also this function's output columns
         LIMIT max_rows;
END
$$;

COMMENT ON FUNCTION scopedb.text_candidates(tsquery, integer) IS
    'Best-ranked fragments of the verified scope matching a tsquery, from the scope''s partitions only.';

CREATE FUNCTION scopedb.nearest_fragments(query vector, k integer, projects bigint[], metric text, exact boolean,
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
        -- Which of the projects have an HNSW index on their partition (the catalog is readable by every role).
        SELECT COALESCE(pg_catalog.array_agg(p.id) FILTER (WHERE x.indexrelid IS NOT NULL), '{}'),
               COALESCE(pg_catalog.array_agg(p.id) FILTER (WHERE x.indexrelid IS NULL), '{}')
          INTO indexed, scanned
          FROM pg_catalog.unnest(projects) AS p (id)
          LEFT JOIN pg_catalog.pg_class AS c
            ON c.relnamespace = 'scopedb_parts'::regnamespace AND c.relname = 'fragments_' || p.id || '_embedding_hnsw'
          LEFT JOIN pg_catalog.pg_index AS x ON x.indexrelid = c.oid AND x.indisvalid;
        -- An empty list would be `project_id = ANY ('{}')`, which under RLS the planner finds false only after
        -- opening and locking every partition (10,000 projects: out of lock slots). No project has id 0 and no
        -- partition holds it, so '{0}' is pruned to nothing before any partition is opened.
        indexed := CASE WHEN pg_catalog.cardinality(indexed) > 0 THEN indexed ELSE '{0}' END;
        scanned := CASE WHEN pg_catalog.cardinality(scanned) > 0 THEN scanned ELSE '{0}' END;
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
                      WHERE f.project_id = ANY (scanned) AND f.embedding IS NOT NULL
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

CREATE OR REPLACE FUNCTION scopedb.delete_fragments(target_project bigint, fragment_ids text[]) RETURNS integer
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET plan_cache_mode = force_custom_plan
AS $$
DECLARE
    removed integer;
BEGIN
    DELETE FROM scopedb.fragments AS f WHERE f.project_id = target_project AND f.id = ANY (fragment_ids);
    GET DIAGNOSTICS removed = ROW_COUNT;
    RETURN removed;
END
$$;

CREATE OR REPLACE FUNCTION scopedb.delete_resources(target_project bigint, resource_ids text[]) RETURNS integer
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET plan_cache_mode = force_custom_plan
AS $$
DECLARE
    removed integer;
    nodes text[];
BEGIN
    nodes := ARRAY(SELECT n.id FROM scopedb.graph_nodes AS n
                    WHERE n.project_id = target_project AND n.resource_id = ANY (resource_ids));
    PERFORM scopedb.delete_graph_nodes(target_project, nodes);
    DELETE FROM scopedb.fragments AS f WHERE f.project_id = target_project AND f.resource_id = ANY (resource_ids);
    DELETE FROM scopedb.resource_links AS l
     WHERE l.project_id = target_project AND (l.parent_id = ANY (resource_ids) OR l.child_id = ANY (resource_ids));
    DELETE FROM scopedb.resources AS r WHERE r.project_id = target_project AND r.id = ANY (resource_ids);
    GET DIAGNOSTICS removed = ROW_COUNT;
    RETURN removed;
END
$$;

CREATE FUNCTION scopedb_private.forget_fragment_copies() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    DELETE FROM scopedb_private.fragment_search AS s
     USING gone AS g WHERE s.project_id = g.project_id AND s.id = g.id;
    DELETE FROM scopedb_private.fragment_originals AS o
     USING gone AS g WHERE o.project_id = g.project_id AND o.id = g.id;
    RETURN NULL;
END
$$;

COMMENT ON FUNCTION scopedb_private.forget_fragment_copies() IS
    'Removes the full-text copy and the archived original of a statement''s deleted fragments.';

CREATE FUNCTION scopedb_private.refuse_fragment_key_change() RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF NEW.project_id IS DISTINCT FROM OLD.project_id OR NEW.id IS DISTINCT FROM OLD.id THEN
        RAISE EXCEPTION 'a fragment''s project and id cannot change; insert a new fragment instead'
              USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END
$$;

COMMENT ON FUNCTION scopedb_private.refuse_fragment_key_change() IS
    'Refuses an update of a fragment''s key (its full-text copy and original follow the key).';

CREATE OR REPLACE FUNCTION scopedb_audit.installed_facts()
RETURNS TABLE (kind text, object text, fact text)
LANGUAGE sql
STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    WITH ours (oid) AS (
        SELECT n.oid FROM pg_catalog.pg_namespace AS n WHERE n.nspname IN ('scopedb', 'scopedb_private', 'scopedb_audit')
    ),
    rels AS (
        SELECT c.oid, c.relname, c.relkind, c.relnamespace, c.relowner, c.relacl, c.relrowsecurity,
               c.relforcerowsecurity, n.nspname || '.' || c.relname AS name
          FROM pg_catalog.pg_class AS c
          JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
         WHERE c.relnamespace IN (SELECT ours.oid FROM ours) AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
    ),
    grants (kind, object, grantee, privilege) AS (
        SELECT 'schema', n.nspname, a.grantee, a.privilege_type || CASE WHEN a.is_grantable THEN '*' ELSE '' END
          FROM pg_catalog.pg_namespace AS n,
               pg_catalog.aclexplode(COALESCE(n.nspacl, pg_catalog.acldefault('n'::"char", n.nspowner))) AS a
         WHERE (n.oid IN (SELECT ours.oid FROM ours) OR n.nspname = 'scopedb_parts') AND a.grantee <> n.nspowner
        UNION ALL
        SELECT CASE r.relkind WHEN 'S' THEN 'sequence' ELSE 'table' END, r.name, a.grantee,
               a.privilege_type || CASE WHEN a.is_grantable THEN '*' ELSE '' END
          FROM rels AS r,
               pg_catalog.aclexplode(COALESCE(r.relacl, pg_catalog.acldefault(
                   CASE r.relkind WHEN 'S' THEN 's'::"char" ELSE 'r'::"char" END, r.relowner))) AS a
         WHERE a.grantee <> r.relowner
        UNION ALL
        SELECT 'column', r.name || '.' || att.attname, a.grantee,
               a.privilege_type || CASE WHEN a.is_grantable THEN '*' ELSE '' END
          FROM rels AS r
          JOIN pg_catalog.pg_attribute AS att ON att.attrelid = r.oid AND att.attnum > 0 AND NOT att.attisdropped
           AND att.attacl IS NOT NULL,
               pg_catalog.aclexplode(att.attacl) AS a
         WHERE a.grantee <> r.relowner
        UNION ALL
        SELECT 'function', f.oid::pg_catalog.regprocedure::text, a.grantee,
               a.privilege_type || CASE WHEN a.is_grantable THEN '*' ELSE '' END
          FROM pg_catalog.pg_proc AS f,
               pg_catalog.aclexplode(COALESCE(f.proacl, pg_catalog.acldefault('f'::"char", f.proowner))) AS a
         WHERE f.pronamespace IN (SELECT ours.oid FROM ours) AND a.grantee <> f.proowner
        UNION ALL
        SELECT 'type', t.oid::pg_catalog.regtype::text, a.grantee,
               a.privilege_type || CASE WHEN a.is_grantable THEN '*' ELSE '' END
          FROM pg_catalog.pg_type AS t,
               pg_catalog.aclexplode(COALESCE(t.typacl, pg_catalog.acldefault('T'::"char", t.typowner))) AS a
         WHERE t.typnamespace IN (SELECT ours.oid FROM ours) AND t.typtype IN ('c', 'd', 'e')
           AND NOT EXISTS (SELECT FROM pg_catalog.pg_class AS c WHERE c.oid = t.typrelid AND c.relkind <> 'c')
           AND a.grantee <> t.typowner
    )
    SELECT 'schema', n.nspname::text, 'owner=' || pg_catalog.pg_get_userbyid(n.nspowner)
      FROM pg_catalog.pg_namespace AS n
     WHERE n.oid IN (SELECT ours.oid FROM ours) OR n.nspname = 'scopedb_parts'
    UNION ALL
    SELECT 'table', r.name,
           pg_catalog.format('kind=%s owner=%s rls=%s forced=%s', r.relkind::text, pg_catalog.pg_get_userbyid(r.relowner),
                             r.relrowsecurity, r.relforcerowsecurity)
               || CASE WHEN r.relkind IN ('v', 'm')
                       THEN ' definition=' || pg_catalog.md5(pg_catalog.pg_get_viewdef(r.oid)) ELSE '' END
      FROM rels AS r
    UNION ALL
    SELECT 'policy', pol.polrelid::pg_catalog.regclass::text || ' "' || pol.polname || '"',
           pg_catalog.format('cmd=%s %s to=%s using=%s check=%s', pol.polcmd::text,
                             CASE WHEN pol.polpermissive THEN 'permissive' ELSE 'restrictive' END,
                             (SELECT pg_catalog.string_agg(CASE WHEN r = 0 THEN 'public'
                                                                ELSE pg_catalog.pg_get_userbyid(r)::text END,
                                                           ',' ORDER BY 1)
                                FROM pg_catalog.unnest(pol.polroles) AS r),
                             COALESCE(pg_catalog.pg_get_expr(pol.polqual, pol.polrelid), '-'),
                             COALESCE(pg_catalog.pg_get_expr(pol.polwithcheck, pol.polrelid), '-'))
      FROM pg_catalog.pg_policy AS pol
     WHERE pol.polrelid IN (SELECT r.oid FROM rels AS r)
    UNION ALL
    SELECT 'function', f.oid::pg_catalog.regprocedure::text,
           pg_catalog.format('owner=%s definer=%s leakproof=%s volatile=%s strict=%s config=%s returns=%s body=%s',
                             pg_catalog.pg_get_userbyid(f.proowner), f.prosecdef, f.proleakproof, f.provolatile::text,
                             f.proisstrict,
                             COALESCE((SELECT pg_catalog.string_agg(c, ',' ORDER BY c)
                                         FROM pg_catalog.unnest(f.proconfig) AS c), '-'),
                             pg_catalog.pg_get_function_result(f.oid),
                             pg_catalog.md5(COALESCE(NULLIF(f.prosrc, ''), pg_catalog.pg_get_function_sqlbody(f.oid), '')))
      FROM pg_catalog.pg_proc AS f
     WHERE f.pronamespace IN (SELECT ours.oid FROM ours)
    UNION ALL
    SELECT 'trigger', t.tgrelid::pg_catalog.regclass::text || ' ' || t.tgname, pg_catalog.pg_get_triggerdef(t.oid)
      FROM pg_catalog.pg_trigger AS t
     WHERE t.tgrelid IN (SELECT r.oid FROM rels AS r) AND NOT t.tgisinternal
    UNION ALL
    SELECT 'rule', w.ev_class::pg_catalog.regclass::text || ' ' || w.rulename, pg_catalog.pg_get_ruledef(w.oid)
      FROM pg_catalog.pg_rewrite AS w
     WHERE w.ev_class IN (SELECT r.oid FROM rels AS r WHERE r.relkind IN ('r', 'p')) AND w.rulename <> '_RETURN'
    UNION ALL
    SELECT 'index', i.indexrelid::pg_catalog.regclass::text, pg_catalog.pg_get_indexdef(i.indexrelid)
      FROM pg_catalog.pg_index AS i
     WHERE i.indrelid IN (SELECT r.oid FROM rels AS r)
    UNION ALL
    SELECT 'constraint', k.conrelid::pg_catalog.regclass::text || ' ' || k.conname, pg_catalog.pg_get_constraintdef(k.oid)
      FROM pg_catalog.pg_constraint AS k
     WHERE k.conrelid IN (SELECT r.oid FROM rels AS r) AND k.contype <> 'n'  -- NOT NULL: catalogued from PG 18 on
       AND k.conparentid = 0  -- not the per-partition clones of a foreign key to a partitioned table
    UNION ALL
    SELECT 'grant', g.kind || ' ' || g.object || ' to '
               || CASE WHEN g.grantee = 0 THEN 'public' ELSE pg_catalog.pg_get_userbyid(g.grantee)::text END,
           pg_catalog.string_agg(g.privilege, ',' ORDER BY g.privilege)
      FROM grants AS g
     GROUP BY g.kind, g.object, g.grantee
    UNION ALL
    SELECT 'default_acl', pg_catalog.pg_get_userbyid(d.defaclrole)::text || ' '
               || COALESCE(d.defaclnamespace::pg_catalog.regnamespace::text, '*') || ' ' || d.defaclobjtype::text || ' to '
               || CASE WHEN a.grantee = 0 THEN 'public' ELSE pg_catalog.pg_get_userbyid(a.grantee)::text END,
           pg_catalog.string_agg(a.privilege_type, ',' ORDER BY a.privilege_type)
      FROM pg_catalog.pg_default_acl AS d, pg_catalog.aclexplode(d.defaclacl) AS a
     WHERE d.defaclrole IN (SELECT r.oid FROM pg_catalog.pg_roles AS r WHERE r.rolname LIKE 'scopedb\_%')
        OR d.defaclnamespace IN (SELECT ours.oid FROM ours)
        OR a.grantee = 0
        OR a.grantee IN (SELECT r.oid FROM pg_catalog.pg_roles AS r WHERE r.rolname IN ('scopedb_app', 'scopedb_auditor'))
     GROUP BY d.defaclrole, d.defaclnamespace, d.defaclobjtype, a.grantee
    UNION ALL
    SELECT 'publication', p.pubname || ' ' || r.name, 'publishes rows of ' || r.name
      FROM pg_catalog.pg_publication AS p
      JOIN rels AS r
        ON r.relkind IN ('r', 'p')
       AND (p.puballtables
            OR r.oid IN (SELECT pr.prrelid FROM pg_catalog.pg_publication_rel AS pr WHERE pr.prpubid = p.oid)
            OR r.relnamespace IN (SELECT pn.pnnspid FROM pg_catalog.pg_publication_namespace AS pn
                                   WHERE pn.pnpubid = p.oid));
END;

CREATE OR REPLACE FUNCTION scopedb_audit.check()
RETURNS TABLE (severity text, code text, object text, message text, fix text)
LANGUAGE sql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    -- E001 RLS enabled and forced on every data table.
    SELECT 'error', 'E001', 'table scopedb.' || t.relname,
           'row-level security is ' || CASE WHEN NOT t.relrowsecurity THEN 'not enabled' ELSE 'not forced' END,
           'ALTER TABLE scopedb.' || t.relname || ' ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;'
      FROM scopedb_audit.data_tables AS t
     WHERE NOT (t.relrowsecurity AND t.relforcerowsecurity)
    UNION ALL
    -- E002 a restrictive policy for scopedb_app per command (an ALL policy covers every command).
    SELECT 'error', 'E002', 'table scopedb.' || t.relname || ' ' || cmd.label,
           'no restrictive policy limits ' || cmd.label || ' for scopedb_app',
           'CREATE POLICY ... ON scopedb.' || t.relname || ' AS RESTRICTIVE FOR ' || cmd.label
               || ' TO scopedb_app USING (<scope predicate>);'
      FROM scopedb_audit.data_tables AS t
     CROSS JOIN (VALUES ('r', 'SELECT'), ('a', 'INSERT'), ('w', 'UPDATE'), ('d', 'DELETE')) AS cmd (polcmd, label)
     WHERE NOT EXISTS (
               SELECT FROM pg_catalog.pg_policy AS p
                WHERE p.polrelid = t.relid AND NOT p.polpermissive AND p.polcmd IN (cmd.polcmd, '*')
                  AND (0 = ANY (p.polroles) OR 'scopedb_app'::regrole = ANY (p.polroles)))
    UNION ALL
    -- E003 permissive policies that reach scopedb_app must reference the scope.
    SELECT 'error', 'E003', 'policy "' || p.polname || '" on scopedb.' || t.relname,
           'permissive policy for scopedb_app does not reference the scope',
           'DROP POLICY "' || p.polname || '" ON scopedb.' || t.relname || '; or make its predicate read scopedb.scope_*()'
      FROM pg_catalog.pg_policy AS p
      JOIN scopedb_audit.data_tables AS t ON t.relid = p.polrelid
     WHERE p.polpermissive
       AND (0 = ANY (p.polroles) OR 'scopedb_app'::regrole = ANY (p.polroles))
       AND COALESCE(pg_catalog.pg_get_expr(p.polqual, p.polrelid), '')
           || COALESCE(pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid), '') !~ 'scopedb\.scope_'
    UNION ALL
    -- W004 scope accessors must be wrapped in (SELECT ...) to run once per statement.
    SELECT 'warning', 'W004', 'policy "' || p.polname || '" on scopedb.' || t.relname,
           'calls a scope accessor per row (no (SELECT ...) wrapper)',
           'write the call as (SELECT scopedb.scope_...()) so it becomes an InitPlan'
      FROM pg_catalog.pg_policy AS p
      JOIN scopedb_audit.data_tables AS t ON t.relid = p.polrelid
     WHERE (SELECT pg_catalog.count(*) FROM pg_catalog.regexp_matches(
                COALESCE(pg_catalog.pg_get_expr(p.polqual, p.polrelid), '') || ' '
                || COALESCE(pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid), ''), 'scopedb\.scope_', 'g'))
         > (SELECT pg_catalog.count(*) FROM pg_catalog.regexp_matches(
                COALESCE(pg_catalog.pg_get_expr(p.polqual, p.polrelid), '') || ' '
                || COALESCE(pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid), ''), 'SELECT scopedb\.scope_', 'g'))
    UNION ALL
    -- E005 / E006 SECURITY DEFINER functions in scopedb's schemas.
    SELECT 'error', 'E005', 'function ' || f.oid::regprocedure::text,
           'SECURITY DEFINER function without a pinned search_path',
           'ALTER FUNCTION ' || f.oid::regprocedure::text || ' SET search_path = pg_catalog, pg_temp;'
      FROM pg_catalog.pg_proc AS f
     WHERE f.prosecdef
       AND f.pronamespace IN ('scopedb'::regnamespace, 'scopedb_private'::regnamespace, 'scopedb_audit'::regnamespace)
       AND NOT EXISTS (SELECT FROM pg_catalog.unnest(f.proconfig) AS c WHERE c LIKE 'search_path=%')
    UNION ALL
    SELECT 'error', 'E006', 'function ' || f.oid::regprocedure::text,
           'SECURITY DEFINER function executable by PUBLIC',
           'REVOKE EXECUTE ON FUNCTION ' || f.oid::regprocedure::text || ' FROM PUBLIC;'
      FROM pg_catalog.pg_proc AS f
     WHERE f.prosecdef
       AND f.pronamespace IN ('scopedb'::regnamespace, 'scopedb_private'::regnamespace, 'scopedb_audit'::regnamespace)
       AND EXISTS (SELECT FROM pg_catalog.aclexplode(COALESCE(f.proacl, pg_catalog.acldefault('f', f.proowner))) AS a
                    WHERE a.grantee = 0 AND a.privilege_type = 'EXECUTE')
    UNION ALL
    -- E007 / W007 / W008 views over scopedb's tables, and the private ones (any schema). Options are read as the
    -- booleans they are (security_invoker=on, =1 and =true alike).
    SELECT CASE WHEN v.barrier THEN 'warning' ELSE 'error' END,
           CASE WHEN v.barrier THEN 'W007' ELSE 'E007' END,
           'view ' || v.view::text,
           'view over a scoped table runs with its owner''s rights (not security_invoker)',
           'ALTER VIEW ' || v.view::text || ' SET (security_invoker = true);'
      FROM (SELECT DISTINCT c.oid::regclass AS view,
                   scopedb_audit.option_is_on(c.reloptions, 'security_barrier') AS barrier,
                   scopedb_audit.option_is_on(c.reloptions, 'security_invoker') AS invoker
              FROM pg_catalog.pg_class AS c
              JOIN scopedb_audit.derived_relations AS dr ON dr.relid = c.oid
             WHERE dr.relkind = 'v') AS v
     WHERE NOT v.invoker
    UNION ALL
    SELECT 'warning', 'W008', 'view ' || c.oid::regclass::text,
           'security_invoker view over a scoped table filters rows but is not a security barrier',
           'ALTER VIEW ' || c.oid::regclass::text || ' SET (security_barrier = true);'
      FROM pg_catalog.pg_class AS c
     WHERE c.relkind = 'v'
       AND scopedb_audit.option_is_on(c.reloptions, 'security_invoker')
       AND NOT scopedb_audit.option_is_on(c.reloptions, 'security_barrier')
       AND pg_catalog.pg_get_viewdef(c.oid) ~* '\mwhere\M'
       AND c.oid IN (SELECT dr.relid FROM scopedb_audit.derived_relations AS dr)
    UNION ALL
    -- E009 no role that can act as scopedb_app — scopedb_app itself, its members, their members — can step outside
    -- row-level security or around it, itself or through any role it belongs to (scopedb.role_hazards, the same
    -- judgement scopedb applies to its login before running a scoped transaction).
    SELECT 'error', 'E009', 'role ' || m.rolname,
           'can act as scopedb_app, with: ' || pg_catalog.array_to_string(h.hazards, '; '),
           'remove what it should not have (ALTER ROLE ' || pg_catalog.quote_ident(m.rolname)
               || ' NOBYPASSRLS ...; REVOKE ... FROM ' || pg_catalog.quote_ident(m.rolname)
               || '), or REVOKE scopedb_app FROM it and use a dedicated login'
      FROM scopedb_audit.app_roles AS m
     CROSS JOIN LATERAL (SELECT scopedb.role_hazards(m.rolname) AS hazards) AS h
     WHERE pg_catalog.cardinality(h.hazards) > 0
    UNION ALL
    -- E010 scopedb_app owns nothing.
    SELECT 'error', 'E010', o.kind || ' ' || o.name, 'owned by scopedb_app',
           'ALTER ' || o.kind || ' ' || o.name || ' OWNER TO scopedb_owner;'
      FROM (SELECT 'TABLE' AS kind, c.oid::regclass::text AS name FROM pg_catalog.pg_class AS c
             WHERE c.relowner = 'scopedb_app'::regrole
            UNION ALL
            SELECT 'FUNCTION', f.oid::regprocedure::text FROM pg_catalog.pg_proc AS f
             WHERE f.proowner = 'scopedb_app'::regrole
            UNION ALL
            SELECT 'SCHEMA', n.nspname FROM pg_catalog.pg_namespace AS n
             WHERE n.nspowner = 'scopedb_app'::regrole) AS o
    UNION ALL
    -- E011 / W011 scopedb_app may not create objects (TEMP is a warning: a managed server may keep it).
    SELECT 'error', 'E011', 'schema ' || n.nspname, 'scopedb_app holds CREATE',
           'REVOKE CREATE ON SCHEMA ' || pg_catalog.quote_ident(n.nspname) || ' FROM scopedb_app, PUBLIC;'
      FROM pg_catalog.pg_namespace AS n
     WHERE pg_catalog.has_schema_privilege('scopedb_app', n.oid, 'CREATE')
    UNION ALL
    SELECT 'error', 'E011', 'database ' || pg_catalog.current_database(), 'scopedb_app holds CREATE',
           'REVOKE CREATE ON DATABASE ' || pg_catalog.quote_ident(pg_catalog.current_database())
               || ' FROM scopedb_app, PUBLIC;'
     WHERE pg_catalog.has_database_privilege('scopedb_app', pg_catalog.current_database(), 'CREATE')
    UNION ALL
    SELECT 'warning', 'W011', 'database ' || pg_catalog.current_database(), 'scopedb_app holds TEMP',
           'REVOKE TEMPORARY ON DATABASE ' || pg_catalog.quote_ident(pg_catalog.current_database())
               || ' FROM PUBLIC, scopedb_app;'
     WHERE pg_catalog.has_database_privilege('scopedb_app', pg_catalog.current_database(), 'TEMP')
    UNION ALL
    -- E012 nothing in scopedb's schemas is granted to PUBLIC.
    SELECT 'error', 'E012', g.kind || ' ' || g.name, 'privilege ' || g.privilege || ' granted to PUBLIC',
           'REVOKE ' || g.privilege || ' ON ' || g.kind || ' ' || g.name || ' FROM PUBLIC;'
      FROM (SELECT 'SCHEMA' AS kind, n.nspname::text AS name, a.privilege_type AS privilege
              FROM pg_catalog.pg_namespace AS n,
                   pg_catalog.aclexplode(COALESCE(n.nspacl, pg_catalog.acldefault('n', n.nspowner))) AS a
             WHERE n.nspname IN ('scopedb', 'scopedb_private') AND a.grantee = 0
            UNION ALL
            SELECT 'TABLE', c.oid::regclass::text, a.privilege_type
              FROM pg_catalog.pg_class AS c,
                   pg_catalog.aclexplode(COALESCE(c.relacl, pg_catalog.acldefault('r', c.relowner))) AS a
             WHERE c.relnamespace IN ('scopedb'::regnamespace, 'scopedb_private'::regnamespace) AND a.grantee = 0
            UNION ALL
            SELECT 'FUNCTION', f.oid::regprocedure::text, a.privilege_type
              FROM pg_catalog.pg_proc AS f,
                   pg_catalog.aclexplode(COALESCE(f.proacl, pg_catalog.acldefault('f', f.proowner))) AS a
             WHERE f.pronamespace IN ('scopedb'::regnamespace, 'scopedb_private'::regnamespace)
               AND a.grantee = 0) AS g
    UNION ALL
    -- E013 every unique index of a data table (those of primary keys, unique constraints, and bare unique
    -- indexes alike) includes project_id (projects: the directory itself): a violation must not tell one project
    -- that another holds a key.
    SELECT 'error', 'E013', 'index ' || i.indexrelid::regclass::text || ' on scopedb.' || t.relname,
           'unique key without project_id: a violation could reveal another project''s key',
           'include project_id in ' || i.indexrelid::regclass::text || ' (or drop it)'
      FROM pg_catalog.pg_index AS i
      JOIN scopedb_audit.data_tables AS t ON t.relid = i.indrelid
     WHERE i.indisunique AND t.relname <> 'projects'
       AND NOT EXISTS (SELECT FROM pg_catalog.pg_attribute AS a
                        WHERE a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey) AND a.attname = 'project_id')
    UNION ALL
    -- W014 the scope predicate's column leads an index.
    SELECT 'warning', 'W014', 'table scopedb.' || t.relname,
           'no index leads with project_id: every policy check scans',
           'CREATE INDEX ON scopedb.' || t.relname || ' (project_id);'
      FROM scopedb_audit.data_tables AS t
     WHERE t.relname <> 'projects'
       AND NOT EXISTS (SELECT FROM pg_catalog.pg_index AS i
                         JOIN pg_catalog.pg_attribute AS a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
                        WHERE i.indrelid = t.relid AND a.attname = 'project_id')
    UNION ALL
    -- W015 / E015 signing keys (their age only). A key whose retirement is still ahead is in use too.
    SELECT 'warning', 'W015', 'signing key ' || k.key_id,
           'signing key still in use is older than its rotation period (' || k.rotation_period || ')',
           'scopedb keys rotate'
      FROM scopedb_audit.signing_key_ages() AS k
     WHERE k.readable AND (k.retired_at IS NULL OR k.retired_at > pg_catalog.now())
       AND k.created_at + k.rotation_period < pg_catalog.now()
    UNION ALL
    -- W026 / W027 key hygiene: a grace longer than a week keeps a replaced key valid, and a rotation period over a
    -- year lets one key sign for too long.
    SELECT 'warning', 'W026', 'signing key ' || k.key_id,
           'retires more than 7 days from now: a long grace keeps a replaced key valid',
           'SELECT scopedb_private.retire_signing_key(''' || k.key_id || ''', now() + interval ''1 hour'');'
      FROM scopedb_audit.signing_key_ages() AS k
     WHERE k.readable AND k.retired_at > pg_catalog.now() + interval '7 days'
    UNION ALL
    SELECT 'warning', 'W027', 'signing key ' || k.key_id,
           'rotation period ' || k.rotation_period::text || ' is over a year',
           'UPDATE scopedb_private.signing_keys SET rotation_period = interval ''90 days'' WHERE key_id = '''
               || k.key_id || ''';'
      FROM scopedb_audit.signing_key_ages() AS k
     WHERE k.readable AND (k.retired_at IS NULL OR k.retired_at > pg_catalog.now())
       AND k.rotation_period > interval '365 days'
    UNION ALL
    SELECT 'error', 'E015', 'signing keys', 'no active signing key: no scope can be entered', 'scopedb keys rotate'
     WHERE NOT EXISTS (SELECT FROM scopedb_audit.signing_key_ages() AS k WHERE NOT k.readable OR k.retired_at IS NULL)
    UNION ALL
    SELECT 'error', 'E015', 'signing keys',
           'the audit cannot read the keys'' ages: scopedb_owner lost its rights on scopedb_private',
           'restore the private schema''s owner and grants (see the E020 findings)'
     WHERE EXISTS (SELECT FROM scopedb_audit.signing_key_ages() AS k WHERE NOT k.readable)
    UNION ALL
    -- E017 / W017 settings stored for a role that can act as scopedb_app. Stored defaults apply to every session
    -- the role logs in, so one tenant that resets its role to the shared login could change how every other
    -- tenant's sessions start. (scopedb pins what it relies on and removes what it finds; this says it happened.)
    SELECT CASE WHEN r.rolcanlogin AND r.oid <> 'scopedb_app'::regrole THEN 'error' ELSE 'warning' END,
           CASE WHEN r.rolcanlogin AND r.oid <> 'scopedb_app'::regrole THEN 'E017' ELSE 'W017' END,
           'role ' || r.rolname,
           'settings stored for a role that acts as scopedb_app'
               || CASE WHEN d.setdatabase = 0 THEN '' ELSE ' in this database' END || ': '
               || pg_catalog.array_to_string(ARRAY(SELECT pg_catalog.split_part(c, '=', 1)
                                                     FROM pg_catalog.unnest(d.setconfig) AS c ORDER BY 1), ', '),
           'ALTER ROLE ' || pg_catalog.quote_ident(r.rolname)
               || CASE WHEN d.setdatabase = 0 THEN ''
                       ELSE ' IN DATABASE ' || pg_catalog.quote_ident(pg_catalog.current_database()) END
               || ' RESET ALL;'
      FROM pg_catalog.pg_db_role_setting AS d
      JOIN scopedb_audit.app_roles AS r ON r.oid = d.setrole
     WHERE d.setdatabase IN (0, (SELECT db.oid FROM pg_catalog.pg_database AS db
                                  WHERE db.datname = pg_catalog.current_database()))
    UNION ALL
    -- W017 settings stored for every role in this database (ALTER DATABASE ... SET, or ALTER ROLE ALL ... SET)
    -- start every scoped session too. Only the database's owner or a superuser can store them, and no login that
    -- acts as scopedb_app may be either (E009).
    SELECT 'warning', 'W017', 'database ' || pg_catalog.current_database(),
           'settings stored for every session'
               || CASE WHEN d.setdatabase = 0 THEN ' (ALTER ROLE ALL)' ELSE ' in this database' END || ': '
               || pg_catalog.array_to_string(ARRAY(SELECT pg_catalog.split_part(c, '=', 1)
                                                     FROM pg_catalog.unnest(d.setconfig) AS c ORDER BY 1), ', '),
           CASE WHEN d.setdatabase = 0 THEN 'ALTER ROLE ALL RESET ALL;'
                ELSE 'ALTER DATABASE ' || pg_catalog.quote_ident(pg_catalog.current_database()) || ' RESET ALL;' END
      FROM pg_catalog.pg_db_role_setting AS d
     WHERE d.setrole = 0
       AND d.setdatabase IN (0, (SELECT db.oid FROM pg_catalog.pg_database AS db
                                  WHERE db.datname = pg_catalog.current_database()))
    UNION ALL
    -- E018 owner-run search functions the app can call must pin the settings their answer depends on: a caller's
    -- gin_fuzzy_search_limit thinned every tenant's matches in the shared full-text index before the scope join.
    SELECT 'error', 'E018', 'function ' || f.oid::regprocedure::text,
           'SECURITY DEFINER function executable by scopedb_app does not pin ' || m.setting,
           'ALTER FUNCTION ' || f.oid::regprocedure::text || ' SET ' || m.setting || ' = ' || m.value || ';'
      FROM pg_catalog.pg_proc AS f
     CROSS JOIN (VALUES ('@@', 'gin_fuzzy_search_limit', '0'),
                        ('<=>|<->|<#>', 'hnsw.iterative_scan', 'off'),
                        ('<=>|<->|<#>', 'hnsw.ef_search', '40')) AS m (uses, setting, value)
     WHERE f.prosecdef
       AND pg_catalog.has_function_privilege('scopedb_app', f.oid, 'EXECUTE')
       AND f.prosrc ~ m.uses
       AND NOT EXISTS (SELECT FROM pg_catalog.unnest(f.proconfig) AS c WHERE c LIKE m.setting || '=%')
    UNION ALL
    -- E019 no owner-run function the app can call shows a plan.
    SELECT 'error', 'E019', 'function ' || f.oid::regprocedure::text,
           'SECURITY DEFINER function executable by scopedb_app runs EXPLAIN (its plans reflect every tenant''s rows)',
           'REVOKE EXECUTE ON FUNCTION ' || f.oid::regprocedure::text || ' FROM scopedb_app, PUBLIC;'
      FROM pg_catalog.pg_proc AS f
     WHERE f.prosecdef
       AND pg_catalog.has_function_privilege('scopedb_app', f.oid, 'EXECUTE')
       AND f.prosrc ~* '\mexplain\M'
    UNION ALL
    -- E020 the catalog against what scopedb installed (scopedb_audit.manifest): every policy predicate, function
    -- body and setting, trigger, index, constraint, grant and default privilege of scopedb's objects, and every
    -- publication of their rows. Anything changed, missing or extra is an error naming the object.
    SELECT 'error', 'E020', d.kind || ' ' || d.object, d.message, d.fix
      FROM (WITH live AS MATERIALIZED (SELECT l.kind, l.object, l.fact FROM scopedb_audit.installed_facts() AS l)
            SELECT l.kind, l.object,
                   'changed since scopedb installed it: now ' || pg_catalog."left"(l.fact, 400)
                       || '; installed ' || pg_catalog."left"(m.fact, 400) AS message,
                   'restore what scopedb installed (scopedb_audit.manifest holds it; sql/ defines it)' AS fix
              FROM live AS l JOIN scopedb_audit.manifest AS m ON m.kind = l.kind AND m.object = l.object
             WHERE l.fact <> m.fact
            UNION ALL
            SELECT m.kind, m.object, 'missing: scopedb installed it (' || pg_catalog."left"(m.fact, 400) || ')',
                   're-create it as sql/ defines it'
              FROM scopedb_audit.manifest AS m
             WHERE NOT EXISTS (SELECT FROM live AS l WHERE l.kind = m.kind AND l.object = m.object)
            UNION ALL
            SELECT l.kind, l.object, 'not installed by scopedb: ' || pg_catalog."left"(l.fact, 400),
                   scopedb_audit.removal(l.kind, l.object, l.fact)
              FROM live AS l
             WHERE NOT EXISTS (SELECT FROM scopedb_audit.manifest AS m WHERE m.kind = l.kind AND m.object = l.object)
           ) AS d
    UNION ALL
    -- E021 a LEAKPROOF function may run on rows before row-level security has admitted them (PostgreSQL lets it,
    -- by design): only the built-in ones may be LEAKPROOF.
    SELECT 'error', 'E021', 'function ' || f.oid::regprocedure::text,
           'LEAKPROOF: may see rows of every tenant before the policies filter them',
           'ALTER FUNCTION ' || f.oid::regprocedure::text || ' NOT LEAKPROOF;'
      FROM pg_catalog.pg_proc AS f
     WHERE f.proleakproof AND f.pronamespace <> 'pg_catalog'::regnamespace
    UNION ALL
    -- E022 / W022 SECURITY DEFINER functions outside scopedb's schemas that scopedb_app may execute run with their
    -- owner's rights: an error when that owner can read around row-level security or the private schema.
    SELECT CASE WHEN o.risky THEN 'error' ELSE 'warning' END, CASE WHEN o.risky THEN 'E022' ELSE 'W022' END,
           'function ' || f.oid::regprocedure::text,
           'SECURITY DEFINER function executable by scopedb_app, owned by ' || pg_catalog.pg_get_userbyid(f.proowner)
               || CASE WHEN o.risky THEN ', which can read around row-level security' ELSE '' END,
           'REVOKE EXECUTE ON FUNCTION ' || f.oid::regprocedure::text || ' FROM scopedb_app, PUBLIC; or make it '
               || 'SECURITY INVOKER'
      FROM pg_catalog.pg_proc AS f
     CROSS JOIN LATERAL (SELECT f.proowner = 'scopedb_owner'::regrole
                                OR pg_catalog.cardinality(scopedb.role_hazards(
                                       pg_catalog.pg_get_userbyid(f.proowner))) > 0 AS risky) AS o
     WHERE f.prosecdef
       AND f.pronamespace NOT IN ('scopedb'::regnamespace, 'scopedb_private'::regnamespace,
                                  'scopedb_audit'::regnamespace, 'pg_catalog'::regnamespace)
       AND pg_catalog.has_function_privilege('scopedb_app', f.oid, 'EXECUTE')
    UNION ALL
    -- E023 / W023 materialized views over protected tables hold a copy of their rows with no row-level security.
    SELECT CASE WHEN v.readable THEN 'error' ELSE 'warning' END, CASE WHEN v.readable THEN 'E023' ELSE 'W023' END,
           'materialized view ' || v.view::text,
           'copies rows of ' || v.source || ' out of row-level security'
               || CASE WHEN v.readable THEN ', and scopedb_app can read it' ELSE '' END,
           'DROP MATERIALIZED VIEW ' || v.view::text || ';'
      FROM (SELECT dr.relid::regclass AS view,
                   pg_catalog.string_agg(dr.source, ', ' ORDER BY dr.source) AS source,
                   pg_catalog.has_table_privilege('scopedb_app', dr.relid, 'SELECT') AS readable
              FROM scopedb_audit.derived_relations AS dr
             WHERE dr.relkind = 'm'
             GROUP BY dr.relid) AS v
    UNION ALL
    -- E024 any other table scopedb_app can read or change must be protected like scopedb's own (row-level security
    -- enabled and forced): an export table or a service's table left open is reachable from every scope.
    SELECT 'error', 'E024', 'table ' || c.oid::regclass::text,
           'scopedb_app can read or change it and row-level security is not enabled and forced',
           'protect it (scopedb''s protect_table), or REVOKE ALL ON ' || c.oid::regclass::text
               || ' FROM scopedb_app, PUBLIC;'
      FROM pg_catalog.pg_class AS c
      JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p', 'f', 'm')
       AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'scopedb', 'scopedb_private', 'scopedb_audit',
                             'scopedb_parts')
       AND n.nspname NOT LIKE 'pg\_%'
       AND pg_catalog.has_schema_privilege('scopedb_app', n.oid, 'USAGE')
       AND pg_catalog.has_table_privilege('scopedb_app', c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE')
       AND NOT (c.relrowsecurity AND c.relforcerowsecurity)
       AND c.oid NOT IN (SELECT dr.relid FROM scopedb_audit.derived_relations AS dr)  -- matviews of them: E023
    UNION ALL
    -- W028 a foreign server scopedb_app may use connects out under a user mapping, possibly as a role that reads
    -- around row-level security (postgres_fdw or dblink back into this database): what it can see is the mapped
    -- role's business, not scopedb's.
    SELECT 'warning', 'W028', 'foreign server ' || s.srvname,
           'scopedb_app may use it'
               || CASE WHEN EXISTS (SELECT FROM pg_catalog.pg_user_mappings AS um
                                     WHERE um.srvid = s.oid
                                       AND (um.umuser = 0 OR um.umuser IN (SELECT r.oid FROM scopedb_audit.app_roles AS r)))
                       THEN ', and a user mapping applies to it' ELSE '' END,
           'REVOKE USAGE ON FOREIGN SERVER ' || pg_catalog.quote_ident(s.srvname) || ' FROM scopedb_app, PUBLIC;'
      FROM pg_catalog.pg_foreign_server AS s
     WHERE pg_catalog.has_server_privilege('scopedb_app', s.oid, 'USAGE')
    UNION ALL
    -- E026 per-project storage (scopedb_parts), judged by rule rather than by the manifest: its partitions
    -- come and go with projects. Every relation there is a partition of scopedb.fragments or
    -- scopedb_private.fragment_search named for the one project its bound holds; every partition of those two is
    -- there; each is owned by scopedb_owner, grants nothing to anyone, has row-level security enabled and forced,
    -- no policy, trigger (but those cloned from its parent) or rule of its own; and its indexes are the ones
    -- cloned from the parent plus, once built, its own HNSW (fragments) or GIN (full text) index. A partition
    -- holding a second project, or an index that is not one of these, would be a structure shared or made
    -- outside scopedb's control. (Partitions of deleted projects, and projects without partitions, are the
    -- maintenance step's business: storage_plan lists them in an admin session. The audit sees no project row.)
    SELECT 'error', 'E026', p.kind || ' ' || p.name, p.problem, p.fix
      FROM (SELECT 'table' AS kind, c.oid::regclass::text AS name,
                   CASE WHEN i.inhparent IS NULL
                            THEN 'in scopedb_parts but not a partition of fragments or fragment_search'
                        WHEN c.relnamespace <> 'scopedb_parts'::regnamespace
                            THEN 'a partition of ' || i.inhparent::regclass::text || ' outside scopedb_parts'
                        WHEN pg_catalog.pg_get_expr(c.relpartbound, c.oid)
                             !~ ('^FOR VALUES IN \(''' || pg_catalog.substring(c.relname, '_(\d+)$') || '''\)$')
                          OR c.relname !~ ('^' || (SELECT pc.relname FROM pg_catalog.pg_class AS pc
                                                    WHERE pc.oid = i.inhparent) || '_\d+$')
                            THEN 'its bound (' || COALESCE(pg_catalog.pg_get_expr(c.relpartbound, c.oid), '-')
                                 || ') is not the one project its name says'
                        WHEN c.relowner <> 'scopedb_owner'::regrole
                            THEN 'owned by ' || pg_catalog.pg_get_userbyid(c.relowner)
                        WHEN EXISTS (SELECT FROM pg_catalog.aclexplode(c.relacl) AS a WHERE a.grantee <> c.relowner)
                            THEN 'grants privileges on it: ' || c.relacl::text
                        WHEN NOT (c.relrowsecurity AND c.relforcerowsecurity)
                            THEN 'row-level security is not enabled and forced'
                        WHEN EXISTS (SELECT FROM pg_catalog.pg_policy AS pol WHERE pol.polrelid = c.oid)
                            THEN 'has a policy of its own'
                        WHEN EXISTS (SELECT FROM pg_catalog.pg_trigger AS t
                                      WHERE t.tgrelid = c.oid AND NOT t.tgisinternal AND t.tgparentid = 0)
                            THEN 'has a trigger of its own'
                        WHEN EXISTS (SELECT FROM pg_catalog.pg_rewrite AS w WHERE w.ev_class = c.oid)
                            THEN 'has a rule'
                   END AS problem,
                   'restore it as scopedb_private.create_project_storage makes it, or drop it and run scopedb storage'
                       AS fix
              FROM pg_catalog.pg_class AS c
              LEFT JOIN pg_catalog.pg_inherits AS i
                ON i.inhrelid = c.oid
               AND i.inhparent IN (SELECT pc.oid FROM pg_catalog.pg_class AS pc  -- no regclass: an owner that lost
                                    WHERE (pc.relnamespace = 'scopedb'::regnamespace AND pc.relname = 'fragments')
                                       OR (pc.relnamespace = 'scopedb_private'::regnamespace  -- USAGE still audits
                                           AND pc.relname = 'fragment_search'))
             WHERE (c.relnamespace = 'scopedb_parts'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S'))
                OR i.inhparent IS NOT NULL
            UNION ALL
            SELECT 'index', x.indexrelid::regclass::text,
                   'an index scopedb does not make on a project''s partition: '
                       || pg_catalog.pg_get_indexdef(x.indexrelid),
                   'DROP INDEX ' || x.indexrelid::regclass::text || ';'
              FROM pg_catalog.pg_index AS x
              JOIN pg_catalog.pg_class AS ic ON ic.oid = x.indexrelid
              JOIN pg_catalog.pg_class AS c ON c.oid = x.indrelid
             WHERE c.relnamespace = 'scopedb_parts'::regnamespace
               AND NOT EXISTS (SELECT FROM pg_catalog.pg_inherits AS ii WHERE ii.inhrelid = x.indexrelid)
               AND NOT (ic.relname = c.relname || '_embedding_hnsw' AND c.relname ~ '^fragments_\d+$'
                        AND pg_catalog.pg_get_indexdef(x.indexrelid)
                            ~ (' USING hnsw \(embedding ("?[a-z_][a-z0-9_]*"?\.)?vector_cosine_ops\)'
                               || '( WITH \(m=''\d+'', ef_construction=''\d+''\))?$'))
               AND NOT (ic.relname = c.relname || '_tsv_gin' AND c.relname ~ '^fragment_search_\d+$'
                        AND pg_catalog.pg_get_indexdef(x.indexrelid) ~ ' USING gin \(tsv\)$')
           ) AS p
     WHERE p.problem IS NOT NULL
    UNION ALL
    -- E016 pgvector >= 0.8.
    SELECT 'error', 'E016', 'extension vector',
           COALESCE('pgvector ' || e.extversion || ' is older than 0.8', 'pgvector is not installed'),
           'install pgvector 0.8 or newer, then ALTER EXTENSION vector UPDATE;'
      FROM (SELECT (SELECT x.extversion FROM pg_catalog.pg_extension AS x WHERE x.extname = 'vector') AS extversion) AS e
     WHERE scopedb_audit.pgvector_too_old(e.extversion);
$$;

-- Policies, grants and triggers of fragments, as sql/ defines them.
GRANT EXECUTE ON FUNCTION scopedb.nearest_fragments(vector, integer, bigint[], text, boolean, integer, integer)
    TO scopedb_app;

CREATE POLICY "app sees nothing until a scope is entered" ON scopedb.fragments
    AS PERMISSIVE FOR ALL TO scopedb_app
    USING ((SELECT scopedb.scope_entered()))
    WITH CHECK ((SELECT scopedb.scope_entered()));

CREATE POLICY "scope limits which fragments the app reads" ON scopedb.fragments
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (valid_from <= (SELECT scopedb.scope_as_of())
                AND (valid_to IS NULL OR valid_to > (SELECT scopedb.scope_as_of()))) IS NOT FALSE
           AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
           AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));

CREATE POLICY "scope limits which fragments the app creates" ON scopedb.fragments
    AS RESTRICTIVE FOR INSERT TO scopedb_app
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
                AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                     OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                         AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                         AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                         AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));

CREATE POLICY "scope limits which fragments the app changes" ON scopedb.fragments
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (valid_from <= (SELECT scopedb.scope_as_of())
                AND (valid_to IS NULL OR valid_to > (SELECT scopedb.scope_as_of()))) IS NOT FALSE
           AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
           AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)))
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
                AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                     OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                         AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                         AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                         AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));

CREATE POLICY "scope limits which fragments the app deletes" ON scopedb.fragments
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (valid_from <= (SELECT scopedb.scope_as_of())
                AND (valid_to IS NULL OR valid_to > (SELECT scopedb.scope_as_of()))) IS NOT FALSE
           AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
           AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));

CREATE POLICY "owner administers every row in an admin session" ON scopedb.fragments
    AS PERMISSIVE FOR ALL TO scopedb_owner
    USING ((SELECT scopedb_private.is_admin_session()))
    WITH CHECK ((SELECT scopedb_private.is_admin_session()));

CREATE POLICY "owner searches the fragments of the entered scope" ON scopedb.fragments
    AS PERMISSIVE FOR SELECT TO scopedb_owner
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (valid_from <= (SELECT scopedb.scope_as_of())
                AND (valid_to IS NULL OR valid_to > (SELECT scopedb.scope_as_of()))) IS NOT FALSE
           AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
           AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));

CREATE POLICY "owner deletes the fragments of the entered scope" ON scopedb.fragments
    AS PERMISSIVE FOR DELETE TO scopedb_owner
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (valid_from <= (SELECT scopedb.scope_as_of())
                AND (valid_to IS NULL OR valid_to > (SELECT scopedb.scope_as_of()))) IS NOT FALSE
           AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
           AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));

GRANT SELECT, INSERT ON scopedb.fragments TO scopedb_app;
GRANT UPDATE (resource_id, path, fqn, content, embedding, tier, token_count, last_accessed_at, valid_from, valid_to,
              created_by) ON scopedb.fragments TO scopedb_app;

CREATE TRIGGER projects_create_storage
    AFTER INSERT ON scopedb.projects
    FOR EACH ROW EXECUTE FUNCTION scopedb_private.project_storage_on_insert();

CREATE TRIGGER fragments_sync_search_insert
    AFTER INSERT ON scopedb.fragments
    REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_fragment_search();

CREATE TRIGGER fragments_sync_search_update
    AFTER UPDATE ON scopedb.fragments
    REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_fragment_search();

CREATE TRIGGER fragments_keep_original
    BEFORE UPDATE OF tier ON scopedb.fragments
    FOR EACH ROW EXECUTE FUNCTION scopedb_private.keep_original_content();

CREATE TRIGGER fragments_forget_copies
    AFTER DELETE ON scopedb.fragments
    REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.forget_fragment_copies();

CREATE TRIGGER fragments_fixed_key
    BEFORE UPDATE OF project_id, id ON scopedb.fragments
    FOR EACH ROW EXECUTE FUNCTION scopedb_private.refuse_fragment_key_change();

-- Every existing project gets its partitions; the rows move in (the insert trigger fills the full-text copy).
SELECT scopedb_private.create_project_storage(p.id) FROM scopedb.projects AS p ORDER BY p.id;
INSERT INTO scopedb.fragments (project_id, id, resource_id, path, fqn, content, embedding, tier, token_count, last_accessed_at, valid_from, valid_to, created_at, created_by)
SELECT project_id, id, resource_id, path, fqn, content, embedding, tier, token_count, last_accessed_at, valid_from, valid_to, created_at, created_by FROM scopedb_parts.legacy_fragments;
-- The copies follow fragments by trigger now (fragments_forget_copies, fragments_fixed_key), not by foreign key.
DROP TABLE scopedb_parts.legacy_fragment_search;
DROP TABLE scopedb_parts.legacy_fragments;

RESET ROLE;
