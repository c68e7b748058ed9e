-- Revision 0012 down: the scope checks and entry of revision 0011.

SELECT '[1]'::public.vector;  -- loads pgvector: its settings appear in SET clauses below

SET ROLE scopedb_owner;

CREATE OR REPLACE FUNCTION scopedb_private.check_token(token text, OUT claims scopedb_private.scope_claims, OUT problem text)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    kid text;
    body text;
    expected text;
BEGIN
    IF token IS NULL OR token = '' THEN
        problem := 'missing';
        RETURN;
    END IF;
    kid := pg_catalog.split_part(token, '.', 2);
    -- 'v1.' + key id + '.' + 64 hex digits + '.' then the claims.
    body := pg_catalog.substr(token, pg_catalog.length(kid) + 70);
    IF pg_catalog.left(token, 3) <> 'v1.' OR pg_catalog.length(pg_catalog.split_part(token, '.', 3)) <> 64
       OR pg_catalog.left(body, 1) <> '{' OR pg_catalog.right(body, 1) <> '}' THEN
        problem := 'malformed';
        RETURN;
    END IF;
    SELECT pg_catalog.encode(pg_catalog.sha256(k.outer_pad || pg_catalog.sha256(
               k.inner_pad || pg_catalog.convert_to('v1.' || kid || '.' || body, 'UTF8'))), 'hex')
      INTO expected
      FROM scopedb_private.signing_keys AS k
     WHERE k.key_id = kid
       AND (k.retired_at IS NULL OR k.retired_at > pg_catalog.statement_timestamp());
    IF NOT FOUND THEN
        problem := 'unknown or retired key';
        RETURN;
    END IF;
    IF expected <> pg_catalog.split_part(token, '.', 3) THEN
        problem := 'bad signature';
        RETURN;
    END IF;
    -- Only a holder of the key can have produced these bytes, so they are our own canonical JSON.
    claims := pg_catalog.jsonb_populate_record(NULL::scopedb_private.scope_claims, body::jsonb);
    IF claims.aud IS DISTINCT FROM pg_catalog.current_database() THEN
        problem := 'wrong audience';
    ELSIF claims.exp IS NULL OR claims.exp <= EXTRACT(epoch FROM pg_catalog.statement_timestamp()) THEN
        problem := 'expired';
    ELSIF claims.iat IS NULL OR claims.iat > EXTRACT(epoch FROM pg_catalog.statement_timestamp()) + 300 THEN
        problem := 'not yet valid';
    ELSIF claims.v IS DISTINCT FROM 1 OR claims.projects IS NULL OR pg_catalog.cardinality(claims.projects) = 0 THEN
        problem := 'malformed';
    END IF;
    IF problem IS NOT NULL THEN
        claims := NULL;
    END IF;
END
$$;

CREATE OR REPLACE FUNCTION scopedb_private.verified_claims() RETURNS scopedb_private.scope_claims
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN (scopedb_private.check_token(NULLIF(pg_catalog.current_setting('scopedb.scope_token', true), ''))).claims;
END
$$;

CREATE OR REPLACE FUNCTION scopedb_private.sign_claims(claims jsonb) RETURNS text
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    body text := claims::text;
    signed text;
BEGIN
    SELECT 'v1.' || k.key_id || '.'
           || pg_catalog.encode(pg_catalog.sha256(k.outer_pad || pg_catalog.sha256(
                  k.inner_pad || pg_catalog.convert_to('v1.' || k.key_id || '.' || body, 'UTF8'))), 'hex')
           || '.' || body
      INTO signed
      FROM scopedb_private.signing_keys AS k
     WHERE k.retired_at IS NULL
     ORDER BY k.created_at DESC, k.key_id DESC
     LIMIT 1;
    IF signed IS NULL THEN
        RAISE EXCEPTION 'no active scope signing key; run scopedb keys rotate' USING ERRCODE = 'SD002';
    END IF;
    RETURN signed;
END
$$;

CREATE OR REPLACE FUNCTION scopedb.scope_entered() RETURNS boolean
LANGUAGE sql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
RETURN COALESCE(pg_catalog.current_setting('scopedb.scope_token', true), '') <> '';

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

CREATE OR REPLACE FUNCTION scopedb.resolve_scope(token text) RETURNS text
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    checked record;
    c scopedb_private.scope_claims;
    previous text := pg_catalog.current_setting('scopedb.scope_token', true);
    ids bigint[];
    denied text[];
    filter text[];
    claims jsonb;
BEGIN
    checked := scopedb_private.check_token(token);
    IF checked.problem IS NOT NULL THEN
        RAISE EXCEPTION 'scope token refused: %', checked.problem
            USING ERRCODE = CASE checked.problem
                                WHEN 'missing' THEN 'SD001'
                                WHEN 'malformed' THEN 'SD001'
                                WHEN 'expired' THEN 'SD003'
                                WHEN 'not yet valid' THEN 'SD003'
                                WHEN 'wrong audience' THEN 'SD004'
                                ELSE 'SD002'
                            END;
    END IF;
    c := checked.claims;
    -- The policies test every pattern against every row they check: bound the work a scope can ask for (the
    -- Python layer refuses such scopes first, with the same limits).
    IF COALESCE(pg_catalog.cardinality(c.path_include), 0) + COALESCE(pg_catalog.cardinality(c.path_exclude), 0)
       + COALESCE(pg_catalog.cardinality(c.name_include), 0) + COALESCE(pg_catalog.cardinality(c.name_exclude), 0) > 16
       OR EXISTS (SELECT FROM pg_catalog.unnest(c.path_include || c.path_exclude || c.name_include || c.name_exclude)
                           AS b WHERE pg_catalog.length(b) > 4096) THEN
        RAISE EXCEPTION 'scope too complex: at most 16 path and name patterns' USING ERRCODE = 'SD006';
    END IF;
    PERFORM scopedb_private.pin_settings();
    denied := COALESCE(c.denied, '{}'::text[]);
    -- The owner's policy on projects admits the names of the verified token in the setting.
    PERFORM pg_catalog.set_config('scopedb.scope_token', token, true);
    ids := ARRAY(SELECT p.id FROM scopedb.projects AS p WHERE p.name = ANY (c.projects) ORDER BY p.id);
    IF pg_catalog.cardinality(ids) <> pg_catalog.cardinality(ARRAY(SELECT DISTINCT pg_catalog.unnest(c.projects))) THEN
        RAISE EXCEPTION 'scope names a project that does not exist' USING ERRCODE = 'SD005';
    END IF;
    claims := pg_catalog.jsonb_build_object(
        'v', 1, 'aud', c.aud, 'iat', c.iat, 'exp', c.exp, 'act', c.act,
        'projects', c.projects, 'project_ids', ids, 'resources', c.resources, 'denied', denied,
        'path_include', c.path_include, 'path_exclude', c.path_exclude,
        'name_include', c.name_include, 'name_exclude', c.name_exclude, 'time', c."time");
    IF c.resources IS NOT NULL THEN
        -- Narrowed: exactly the named resources that are not denied; resource-less rows are hidden.
        filter := ARRAY(SELECT DISTINCT r FROM pg_catalog.unnest(c.resources) AS r WHERE r <> ALL (denied) ORDER BY r);
    ELSIF pg_catalog.cardinality(denied) > 0 THEN
        -- Every resource of the projects except the denied ones, and resource-less rows (''). Listing them lets
        -- one array comparison serve every kind of scope. The owner lists them under a provisional token that
        -- carries the project ids, which is what its policy on resources admits.
        PERFORM pg_catalog.set_config('scopedb.scope_token', scopedb_private.sign_claims(claims), true);
        filter := ARRAY(SELECT r.id FROM scopedb.resources AS r
                         WHERE r.project_id = ANY (ids) AND r.id <> ALL (denied) ORDER BY r.id) || ''::text;
    END IF;
    PERFORM pg_catalog.set_config('scopedb.scope_token', COALESCE(previous, ''), true);
    RETURN scopedb_private.sign_claims(claims || pg_catalog.jsonb_build_object('resource_filter', filter));
END
$$;

CREATE OR REPLACE FUNCTION scopedb.enter_scope(token text) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    resolved text := scopedb.resolve_scope(token);
    claims scopedb_private.scope_claims;
BEGIN
    PERFORM pg_catalog.set_config('scopedb.scope_token', resolved, true);
    claims := scopedb_private.verified_claims();
    RETURN pg_catalog.jsonb_build_object(
        'project_ids', claims.project_ids,
        'resource_filter', claims.resource_filter,
        'expires_at', pg_catalog.to_timestamp(claims.exp));
END
$$;

CREATE OR REPLACE FUNCTION scopedb.reenter_scope(resolved text) RETURNS bigint[]
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ids bigint[];
    names text[];
BEGIN
    PERFORM pg_catalog.set_config('scopedb.scope_token', COALESCE(resolved, ''), true);
    PERFORM scopedb_private.pin_settings();
    ids := scopedb.scope_project_ids();
    names := scopedb.scope_project_names();
    -- The owner's policy on projects admits the names of the token in the setting.
    IF (SELECT pg_catalog.count(*) FROM scopedb.projects AS p WHERE p.id = ANY (ids) AND p.name = ANY (names))
       <> pg_catalog.cardinality(ids) THEN
        PERFORM pg_catalog.set_config('scopedb.scope_token', '', true);
        RETURN '{}'::bigint[];
    END IF;
    RETURN ids;
END
$$;

DROP FUNCTION scopedb.text_candidates(tsquery, integer);

CREATE FUNCTION scopedb.text_candidates(query tsquery, max_rows integer)
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

REVOKE ALL ON FUNCTION scopedb.text_candidates(tsquery, integer) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION scopedb.text_candidates(tsquery, integer) TO scopedb_app;

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

DROP FUNCTION scopedb_private.resolve_token(text);

RESET ROLE;

-- scopedb: the manifest of what scopedb installs, generated by `make manifest` from a database migrated to
-- head; do not edit. scopedb_audit.findings compares the live catalog with these facts (lint E020), and
-- `scopedb audit` compares the manifest in the database with this file's digest (E025, scopedb/manifest.py).
-- digest: 6c59b2aed7394cdd967389939947b36d
SET ROLE scopedb_owner;

TRUNCATE scopedb_audit.manifest;
INSERT INTO scopedb_audit.manifest (kind, object, fact) VALUES
    ('constraint', 'scopedb.fragments fragments_fqn_check', 'CHECK ((strpos(fqn, chr(31)) = 0))'),
    ('constraint', 'scopedb.fragments fragments_id_check', 'CHECK (((id <> ''''::text) AND (length(id) <= 200)))'),
    ('constraint', 'scopedb.fragments fragments_path_check', 'CHECK ((strpos(path, chr(31)) = 0))'),
    ('constraint', 'scopedb.fragments fragments_pkey', 'PRIMARY KEY (project_id, id)'),
    ('constraint', 'scopedb.fragments fragments_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb.fragments fragments_resource_fkey', 'FOREIGN KEY (project_id, resource_id) REFERENCES scopedb.resources(project_id, id)'),
    ('constraint', 'scopedb.fragments fragments_tier_check', 'CHECK ((tier = ANY (ARRAY[''hot''::text, ''warm''::text, ''cold''::text])))'),
    ('constraint', 'scopedb.fragments fragments_token_count_check', 'CHECK ((token_count >= 0))'),
    ('constraint', 'scopedb.fragments fragments_validity_check', 'CHECK (((valid_to IS NULL) OR (valid_to > valid_from)))'),
    ('constraint', 'scopedb.graph_edges graph_edges_dst_fkey', 'FOREIGN KEY (project_id, dst) REFERENCES scopedb.graph_nodes(project_id, id)'),
    ('constraint', 'scopedb.graph_edges graph_edges_pkey', 'PRIMARY KEY (project_id, src, relation, dst)'),
    ('constraint', 'scopedb.graph_edges graph_edges_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb.graph_edges graph_edges_relation_check', 'CHECK (((relation <> ''''::text) AND (length(relation) <= 100)))'),
    ('constraint', 'scopedb.graph_edges graph_edges_src_fkey', 'FOREIGN KEY (project_id, src) REFERENCES scopedb.graph_nodes(project_id, id)'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_fqn_check', 'CHECK ((strpos(fqn, chr(31)) = 0))'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_id_check', 'CHECK (((id <> ''''::text) AND (length(id) <= 200)))'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_kind_check', 'CHECK (((kind <> ''''::text) AND (length(kind) <= 100)))'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_path_check', 'CHECK ((strpos(path, chr(31)) = 0))'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_pkey', 'PRIMARY KEY (project_id, id)'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_resource_fkey', 'FOREIGN KEY (project_id, resource_id) REFERENCES scopedb.resources(project_id, id)'),
    ('constraint', 'scopedb.note_tombstones note_tombstones_note_fkey', 'FOREIGN KEY (project_id, note_id) REFERENCES scopedb.notes(project_id, id) ON DELETE CASCADE'),
    ('constraint', 'scopedb.note_tombstones note_tombstones_pkey', 'PRIMARY KEY (project_id, note_id)'),
    ('constraint', 'scopedb.notes notes_content_check', 'CHECK ((octet_length(content) <= 16384))'),
    ('constraint', 'scopedb.notes notes_id_check', 'CHECK ((id ~ ''^mem-[0-9a-f]{32}$''::text))'),
    ('constraint', 'scopedb.notes notes_pkey', 'PRIMARY KEY (project_id, id)'),
    ('constraint', 'scopedb.notes notes_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb.notes notes_retention_check', 'CHECK (((retention_days >= 1) AND (retention_days <= 10000)))'),
    ('constraint', 'scopedb.notes notes_sensitivity_check', 'CHECK ((sensitivity = ANY (ARRAY[''normal''::text, ''sensitive''::text, ''secret''::text])))'),
    ('constraint', 'scopedb.notes notes_source_check', 'CHECK (((provenance_source <> ''''::text) AND (length(provenance_source) <= 100)))'),
    ('constraint', 'scopedb.notes notes_tags_check', 'CHECK (((cardinality(tags) <= 64) AND (''''::text <> ALL (tags))))'),
    ('constraint', 'scopedb.projects projects_name_check', 'CHECK (((name <> ''''::text) AND (length(name) <= 200) AND (name !~ ''[[:cntrl:]]''::text)))'),
    ('constraint', 'scopedb.projects projects_name_key', 'UNIQUE (name)'),
    ('constraint', 'scopedb.projects projects_pkey', 'PRIMARY KEY (id)'),
    ('constraint', 'scopedb.resource_links resource_links_child_fkey', 'FOREIGN KEY (project_id, child_id) REFERENCES scopedb.resources(project_id, id)'),
    ('constraint', 'scopedb.resource_links resource_links_not_self', 'CHECK ((parent_id <> child_id))'),
    ('constraint', 'scopedb.resource_links resource_links_parent_fkey', 'FOREIGN KEY (project_id, parent_id) REFERENCES scopedb.resources(project_id, id)'),
    ('constraint', 'scopedb.resource_links resource_links_pkey', 'PRIMARY KEY (project_id, parent_id, child_id)'),
    ('constraint', 'scopedb.resource_links resource_links_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb.resources resources_alias_check', 'CHECK (((alias <> ''''::text) AND (length(alias) <= 200)))'),
    ('constraint', 'scopedb.resources resources_alias_key', 'UNIQUE (project_id, alias)'),
    ('constraint', 'scopedb.resources resources_id_check', 'CHECK ((id ~ ''^[0-9A-HJKMNP-TV-Z]{26}$''::text))'),
    ('constraint', 'scopedb.resources resources_pkey', 'PRIMARY KEY (project_id, id)'),
    ('constraint', 'scopedb.resources resources_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb_audit.manifest manifest_pkey', 'PRIMARY KEY (kind, object)'),
    ('constraint', 'scopedb_private.fragment_originals fragment_originals_pkey', 'PRIMARY KEY (project_id, id)'),
    ('constraint', 'scopedb_private.fragment_search fragment_search_pkey', 'PRIMARY KEY (project_id, id)'),
    ('constraint', 'scopedb_private.project_locks project_locks_pkey', 'PRIMARY KEY (project_id, purpose)'),
    ('constraint', 'scopedb_private.project_locks project_locks_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb_private.project_locks project_locks_purpose_check', 'CHECK ((purpose = ANY (ARRAY[''tiers''::text, ''resource_links''::text])))'),
    ('constraint', 'scopedb_private.signing_keys signing_keys_key_id_check', 'CHECK ((key_id ~ ''^[A-Za-z0-9_-]{1,64}$''::text))'),
    ('constraint', 'scopedb_private.signing_keys signing_keys_pads_check', 'CHECK (((length(inner_pad) = 64) AND (length(outer_pad) = 64)))'),
    ('constraint', 'scopedb_private.signing_keys signing_keys_pkey', 'PRIMARY KEY (key_id)'),
    ('constraint', 'scopedb_private.signing_keys signing_keys_secret_check', 'CHECK (((length(secret) >= 32) AND (length(secret) <= 64)))'),
    ('default_acl', 'scopedb_owner - f to scopedb_owner', 'EXECUTE'),
    ('function', 'scopedb.delete_fragments(bigint,text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=plan_cache_mode=force_custom_plan,search_path=pg_catalog, pg_temp returns=integer body=7ac6ae14a4a1426fb8292c00581482e4'),
    ('function', 'scopedb.delete_graph_edges(bigint,text[],text[],text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=integer body=1988f10782a12b853829d5a66b154d51'),
    ('function', 'scopedb.delete_graph_nodes(bigint,text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=integer body=8ef43d5edaf4254efe5684ff125ae1be'),
    ('function', 'scopedb.delete_resource_links(bigint,text[],text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=integer body=ac6d03b975fad032fcbb9803be498b7b'),
    ('function', 'scopedb.delete_resources(bigint,text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=plan_cache_mode=force_custom_plan,search_path=pg_catalog, pg_temp returns=integer body=3eacb86ac6cd47c2e8920281665a970b'),
    ('function', 'scopedb.enter_scope(text)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=jsonb body=8fc67f9f180e4ee53b78d5df944a2bda'),
    ('function', 'scopedb.fetch_notes(text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(project_id bigint, id text, created_at timestamp with time zone, tags text[], sensitivity text, retention_days integer, provenance_source text, provenance_session text, content text) body=7891a21edb469f09c18a86c628c2fed4'),
    ('function', 'scopedb.forget_note(text,text)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=51df128d48d15b98e44fef84fbfa8cde'),
    ('function', 'scopedb.lock_project_tiers(bigint)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=4c3a6d398db61de0a69c1f67fc71ded0'),
    ('function', 'scopedb.nearest_fragments(public.vector,integer,bigint[],text,boolean,integer,integer)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=enable_partition_pruning=on,enable_sort=on,hnsw.ef_search=20,hnsw.iterative_scan=strict_order,hnsw.max_scan_tuples=20000,plan_cache_mode=force_custom_plan returns=TABLE(project_id bigint, id text, resource_id text, path text, fqn text, content text, distance double precision, used_index boolean) body=510570fcf34da5543f1d9639fdd6b5ca'),
    ('function', 'scopedb.patterns_admit(text,text[],text[])', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=3d40b36009cdce005b127166ed5d4338'),
    ('function', 'scopedb.reenter_scope(text)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=bigint[] body=bd412cb42ebdc07668a90ac9e94ebe3b'),
    ('function', 'scopedb.resolve_scope(text)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=text body=0506babc4cf3c52f44cfdd8272d44a0b'),
    ('function', 'scopedb.role_hazards(name)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=text[] body=5f2432724b312d429f081c8daa276072'),
    ('function', 'scopedb.scope_as_of()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=timestamp with time zone body=6785691d53d0767697bd913794ff9d38'),
    ('function', 'scopedb.scope_entered()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=88213d58f7efcd15d2ce1be911fc3a94'),
    ('function', 'scopedb.scope_filters_content()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=16a304087df00aed1449353194501425'),
    ('function', 'scopedb.scope_name_exclude()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=text[] body=5916b5df25a25e9807a9092e2541a101'),
    ('function', 'scopedb.scope_name_include()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=text[] body=cba40720195749008b6117a3ce18e02f'),
    ('function', 'scopedb.scope_path_exclude()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=text[] body=d6ac9cb55605ca090ffffe48255e92f5'),
    ('function', 'scopedb.scope_path_include()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=text[] body=d560d493a5564a74a7ea2d2b75bd5ab0'),
    ('function', 'scopedb.scope_project_ids()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=bigint[] body=c33c0f4d6511b3f537a1e11251d4dffb'),
    ('function', 'scopedb.scope_project_names()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=text[] body=be225829bf7762d49db69bad63935d32'),
    ('function', 'scopedb.scope_resource_filter()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=text[] body=a4facf360e213ef48b0ef013ea89a7fb'),
    ('function', 'scopedb.search_notes(text,text,integer,integer)', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(project_id bigint, id text, created_at timestamp with time zone, tags text[], content_bytes integer, sensitivity text, retention_days integer, provenance_source text, snippet text, truncated boolean) body=a841d5376b95dbe6decb5cbebd455149'),
    ('function', 'scopedb.text_candidates(tsquery,integer)', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=enable_bitmapscan=on,enable_hashjoin=on,enable_indexscan=on,enable_mergejoin=on,enable_nestloop=on,enable_partition_pruning=on,enable_partitionwise_join=on,enable_seqscan=on,enable_sort=on,gin_fuzzy_search_limit=0,jit=off,plan_cache_mode=force_custom_plan,search_path=pg_catalog, pg_temp returns=TABLE(project_id bigint, id text, rank real) body=952b1d5301cd4e1701a5aad46d90430f'),
    ('function', 'scopedb_audit."check"()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(severity text, code text, object text, message text, fix text) body=336d8791c9921948301143642baddf09'),
    ('function', 'scopedb_audit.installed_facts()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(kind text, object text, fact text) body=1935f46f28e86ef703d623422964e84d'),
    ('function', 'scopedb_audit.manifest_digest()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=text body=f493dfd5bffba1b5741e28dd2112cf3b'),
    ('function', 'scopedb_audit.option_is_on(text[],text)', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=39011ede7f42a997d043adde3a97b69b'),
    ('function', 'scopedb_audit.pgvector_too_old(text)', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=296a03a7878198d01a77db4bfc679a15'),
    ('function', 'scopedb_audit.removal(text,text,text)', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=text body=0118eacfe92058b4bdfe1457a77d73e5'),
    ('function', 'scopedb_audit.signing_key_ages()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(key_id text, created_at timestamp with time zone, retired_at timestamp with time zone, rotation_period interval, readable boolean) body=8af89bec808f18d5f989e0053c3508cf'),
    ('function', 'scopedb_private.anchored(text[])', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=text[] body=73b38dedac54b588605fd0b9b647fd9d'),
    ('function', 'scopedb_private.check_token(text)', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=record body=67df6f1e60df848f2c06699c3c86ed22'),
    ('function', 'scopedb_private.create_project_storage(bigint)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=b9cf7f0fff1b07a76534f83d01778a79'),
    ('function', 'scopedb_private.derive_hmac_pads()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=trigger body=9ff8f62bab6182d9ea7b9f64acdf0e1f'),
    ('function', 'scopedb_private.forget_fragment_copies()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=trigger body=925f21676c2e64557999b3cca195c219'),
    ('function', 'scopedb_private.is_admin_session()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=f7a079e142c094631a1bfe49da63f7ef'),
    ('function', 'scopedb_private.keep_original_content()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=trigger body=e71e2afe5735903f5c326eb5e48b8b1b'),
    ('function', 'scopedb_private.lock_project(bigint,text)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=3069ade1d80566357d55e373fdccd599'),
    ('function', 'scopedb_private.note_is_live(scopedb.notes)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=19740b93ce5239c908384cb0b872cb2a'),
    ('function', 'scopedb_private.pin_settings()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=bb2a5cfdb2f2526df4bbed974d14bc58'),
    ('function', 'scopedb_private.project_storage_on_insert()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=trigger body=60535dbe32707207fa06a0dcb5a3d4d2'),
    ('function', 'scopedb_private.refuse_fragment_key_change()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=trigger body=a8bd87c18b1882e911959b015bf7b6f1'),
    ('function', 'scopedb_private.refuse_resource_cycle()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=trigger body=4d80ad7d91b2dfed4a1e2773a0af566b'),
    ('function', 'scopedb_private.retire_signing_key(text,timestamp with time zone)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=b8fac10a96f2f6ea782ca2e01bbad2d7'),
    ('function', 'scopedb_private.rotate_signing_key(interval)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=text body=9f7114b8dac2512691936732ab27fc19'),
    ('function', 'scopedb_private.sign_claims(jsonb)', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=text body=d044600ac5a36cca6febbd1046bd099f'),
    ('function', 'scopedb_private.storage_plan(integer,boolean,bigint[])', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=plan_cache_mode=force_custom_plan,search_path=pg_catalog, pg_temp returns=TABLE(project_id bigint, action text, statement text, row_count bigint) body=0dcb31d80f35b6a6341db39e6a144fc7'),
    ('function', 'scopedb_private.sweep_notes()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=record body=778aac8c64fb4882071989cf29c693b2'),
    ('function', 'scopedb_private.sync_fragment_search()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=trigger body=f34ad787ff51a5b33b0f04ac7a5dd0ab'),
    ('function', 'scopedb_private.verified_claims()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=scopedb_private.scope_claims body=2c3908b52c5d2833b353994d5bb6fbfe'),
    ('grant', 'column scopedb.fragments.content to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.created_by to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.embedding to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.fqn to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.last_accessed_at to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.path to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.resource_id to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.tier to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.token_count to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.valid_from to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.valid_to to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.graph_edges.weight to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.graph_nodes.fqn to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.graph_nodes.kind to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.graph_nodes.label to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.graph_nodes.path to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.graph_nodes.properties to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.graph_nodes.resource_id to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.notes.content to scopedb_app', 'INSERT'),
    ('grant', 'column scopedb.notes.created_at to scopedb_app', 'SELECT'),
    ('grant', 'column scopedb.notes.forgotten_at to scopedb_app', 'SELECT'),
    ('grant', 'column scopedb.notes.id to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'column scopedb.notes.project_id to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'column scopedb.notes.provenance_session to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'column scopedb.notes.provenance_source to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'column scopedb.notes.retention_days to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'column scopedb.notes.sensitivity to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'column scopedb.notes.tags to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'column scopedb.resources.alias to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.resources.kind to scopedb_app', 'UPDATE'),
    ('grant', 'function scopedb.delete_fragments(bigint,text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.delete_graph_edges(bigint,text[],text[],text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.delete_graph_nodes(bigint,text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.delete_resource_links(bigint,text[],text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.delete_resources(bigint,text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.enter_scope(text) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.fetch_notes(text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.forget_note(text,text) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.lock_project_tiers(bigint) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.nearest_fragments(public.vector,integer,bigint[],text,b to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.patterns_admit(text,text[],text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.patterns_admit(text,text[],text[]) to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb.reenter_scope(text) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.resolve_scope(text) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.role_hazards(name) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.role_hazards(name) to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb.scope_as_of() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_entered() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_filters_content() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_name_exclude() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_name_include() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_path_exclude() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_path_include() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_project_ids() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_project_names() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_resource_filter() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.search_notes(text,text,integer,integer) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.text_candidates(tsquery,integer) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb_audit."check"() to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.installed_facts() to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.manifest_digest() to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.option_is_on(text[],text) to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.pgvector_too_old(text) to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.removal(text,text,text) to scopedb_auditor', 'EXECUTE'),
    ('grant', 'schema scopedb to scopedb_app', 'USAGE'),
    ('grant', 'schema scopedb to scopedb_auditor', 'USAGE'),
    ('grant', 'schema scopedb_audit to scopedb_auditor', 'USAGE'),
    ('grant', 'table scopedb.fragments to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'table scopedb.graph_edges to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'table scopedb.graph_nodes to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'table scopedb.projects to scopedb_app', 'SELECT'),
    ('grant', 'table scopedb.resource_links to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'table scopedb.resources to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'table scopedb_audit.app_roles to scopedb_auditor', 'SELECT'),
    ('grant', 'table scopedb_audit.data_tables to scopedb_auditor', 'SELECT'),
    ('grant', 'table scopedb_audit.derived_relations to scopedb_auditor', 'SELECT'),
    ('grant', 'table scopedb_audit.findings to scopedb_auditor', 'SELECT'),
    ('grant', 'table scopedb_audit.manifest to scopedb_auditor', 'SELECT'),
    ('grant', 'table scopedb_audit.protected_tables to scopedb_auditor', 'SELECT'),
    ('grant', 'type scopedb_private.scope_claims to public', 'USAGE'),
    ('index', 'scopedb.fragments_pkey', 'CREATE UNIQUE INDEX fragments_pkey ON ONLY scopedb.fragments USING btree (project_id, id)'),
    ('index', 'scopedb.fragments_resource_idx', 'CREATE INDEX fragments_resource_idx ON ONLY scopedb.fragments USING btree (project_id, resource_id)'),
    ('index', 'scopedb.fragments_tier_lru_idx', 'CREATE INDEX fragments_tier_lru_idx ON ONLY scopedb.fragments USING btree (project_id, tier, last_accessed_at)'),
    ('index', 'scopedb.graph_edges_dst_idx', 'CREATE INDEX graph_edges_dst_idx ON scopedb.graph_edges USING btree (project_id, dst)'),
    ('index', 'scopedb.graph_edges_pkey', 'CREATE UNIQUE INDEX graph_edges_pkey ON scopedb.graph_edges USING btree (project_id, src, relation, dst)'),
    ('index', 'scopedb.graph_nodes_kind_idx', 'CREATE INDEX graph_nodes_kind_idx ON scopedb.graph_nodes USING btree (project_id, kind)'),
    ('index', 'scopedb.graph_nodes_pkey', 'CREATE UNIQUE INDEX graph_nodes_pkey ON scopedb.graph_nodes USING btree (project_id, id)'),
    ('index', 'scopedb.graph_nodes_resource_idx', 'CREATE INDEX graph_nodes_resource_idx ON scopedb.graph_nodes USING btree (project_id, resource_id)'),
    ('index', 'scopedb.note_tombstones_pkey', 'CREATE UNIQUE INDEX note_tombstones_pkey ON scopedb.note_tombstones USING btree (project_id, note_id)'),
    ('index', 'scopedb.notes_created_idx', 'CREATE INDEX notes_created_idx ON scopedb.notes USING btree (project_id, created_at DESC)'),
    ('index', 'scopedb.notes_pkey', 'CREATE UNIQUE INDEX notes_pkey ON scopedb.notes USING btree (project_id, id)'),
    ('index', 'scopedb.projects_name_key', 'CREATE UNIQUE INDEX projects_name_key ON scopedb.projects USING btree (name)'),
    ('index', 'scopedb.projects_pkey', 'CREATE UNIQUE INDEX projects_pkey ON scopedb.projects USING btree (id)'),
    ('index', 'scopedb.resource_links_child_idx', 'CREATE INDEX resource_links_child_idx ON scopedb.resource_links USING btree (project_id, child_id)'),
    ('index', 'scopedb.resource_links_pkey', 'CREATE UNIQUE INDEX resource_links_pkey ON scopedb.resource_links USING btree (project_id, parent_id, child_id)'),
    ('index', 'scopedb.resources_alias_key', 'CREATE UNIQUE INDEX resources_alias_key ON scopedb.resources USING btree (project_id, alias)'),
    ('index', 'scopedb.resources_id_idx', 'CREATE INDEX resources_id_idx ON scopedb.resources USING btree (id)'),
    ('index', 'scopedb.resources_pkey', 'CREATE UNIQUE INDEX resources_pkey ON scopedb.resources USING btree (project_id, id)'),
    ('index', 'scopedb_audit.manifest_pkey', 'CREATE UNIQUE INDEX manifest_pkey ON scopedb_audit.manifest USING btree (kind, object)'),
    ('index', 'scopedb_private.fragment_originals_pkey', 'CREATE UNIQUE INDEX fragment_originals_pkey ON scopedb_private.fragment_originals USING btree (project_id, id)'),
    ('index', 'scopedb_private.fragment_search_pkey', 'CREATE UNIQUE INDEX fragment_search_pkey ON ONLY scopedb_private.fragment_search USING btree (project_id, id)'),
    ('index', 'scopedb_private.project_locks_pkey', 'CREATE UNIQUE INDEX project_locks_pkey ON scopedb_private.project_locks USING btree (project_id, purpose)'),
    ('index', 'scopedb_private.signing_keys_pkey', 'CREATE UNIQUE INDEX signing_keys_pkey ON scopedb_private.signing_keys USING btree (key_id)'),
    ('policy', 'scopedb.fragments "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.fragments "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.fragments "owner deletes the fragments of the entered scope"', 'cmd=d permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (((valid_from <= ( SELECT scopedb.scope_as_of() AS scope_as_of)) AND ((valid_to IS NULL) OR (valid_to > ( SELECT scopedb.scope_as_of() AS scope_as_of)))) IS NOT FALSE) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.fragments "owner searches the fragments of the entered scope"', 'cmd=r permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (((valid_from <= ( SELECT scopedb.scope_as_of() AS scope_as_of)) AND ((valid_to IS NULL) OR (valid_to > ( SELECT scopedb.scope_as_of() AS scope_as_of)))) IS NOT FALSE) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.fragments "scope limits which fragments the app changes"', 'cmd=w restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (((valid_from <= ( SELECT scopedb.scope_as_of() AS scope_as_of)) AND ((valid_to IS NULL) OR (valid_to > ( SELECT scopedb.scope_as_of() AS scope_as_of)))) IS NOT FALSE) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE))))'),
    ('policy', 'scopedb.fragments "scope limits which fragments the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE))))'),
    ('policy', 'scopedb.fragments "scope limits which fragments the app deletes"', 'cmd=d restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (((valid_from <= ( SELECT scopedb.scope_as_of() AS scope_as_of)) AND ((valid_to IS NULL) OR (valid_to > ( SELECT scopedb.scope_as_of() AS scope_as_of)))) IS NOT FALSE) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.fragments "scope limits which fragments the app reads"', 'cmd=r restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (((valid_from <= ( SELECT scopedb.scope_as_of() AS scope_as_of)) AND ((valid_to IS NULL) OR (valid_to > ( SELECT scopedb.scope_as_of() AS scope_as_of)))) IS NOT FALSE) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.graph_edges "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.graph_edges "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.graph_edges "owner deletes the graph edges of the entered scope"', 'cmd=d permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.src))
 OFFSET 0)) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.dst))
 OFFSET 0))) check=-'),
    ('policy', 'scopedb.graph_edges "owner reads the graph edges of the entered scope"', 'cmd=r permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.src))
 OFFSET 0)) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.dst))
 OFFSET 0))) check=-'),
    ('policy', 'scopedb.graph_edges "scope limits which graph edges the app changes"', 'cmd=w restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.src))
 OFFSET 0)) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.dst))
 OFFSET 0))) check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.src))
 OFFSET 0)) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.dst))
 OFFSET 0)))'),
    ('policy', 'scopedb.graph_edges "scope limits which graph edges the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.src))
 OFFSET 0)) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.dst))
 OFFSET 0)))'),
    ('policy', 'scopedb.graph_edges "scope limits which graph edges the app deletes"', 'cmd=d restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.src))
 OFFSET 0)) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.dst))
 OFFSET 0))) check=-'),
    ('policy', 'scopedb.graph_edges "scope limits which graph edges the app reads"', 'cmd=r restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.src))
 OFFSET 0)) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.dst))
 OFFSET 0))) check=-'),
    ('policy', 'scopedb.graph_nodes "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.graph_nodes "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.graph_nodes "owner deletes the graph nodes of the entered scope"', 'cmd=d permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.graph_nodes "owner reads the graph nodes of the entered scope"', 'cmd=r permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.graph_nodes "scope limits which graph nodes the app changes"', 'cmd=w restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE))))'),
    ('policy', 'scopedb.graph_nodes "scope limits which graph nodes the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE))))'),
    ('policy', 'scopedb.graph_nodes "scope limits which graph nodes the app deletes"', 'cmd=d restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.graph_nodes "scope limits which graph nodes the app reads"', 'cmd=r restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.note_tombstones "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.note_tombstones "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.note_tombstones "owner records tombstones in the entered scope"', 'cmd=a permissive to=scopedb_owner using=- check=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[]))'),
    ('policy', 'scopedb.note_tombstones "scope limits which tombstones the app changes"', 'cmd=w restrictive to=scopedb_app using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[]))'),
    ('policy', 'scopedb.note_tombstones "scope limits which tombstones the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[]))'),
    ('policy', 'scopedb.note_tombstones "scope limits which tombstones the app deletes"', 'cmd=d restrictive to=scopedb_app using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=-'),
    ('policy', 'scopedb.note_tombstones "scope limits which tombstones the app reads"', 'cmd=r restrictive to=scopedb_app using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=-'),
    ('policy', 'scopedb.notes "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.notes "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.notes "owner marks notes of the entered scope forgotten"', 'cmd=w permissive to=scopedb_owner using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[]))'),
    ('policy', 'scopedb.notes "owner reads the notes of the entered scope"', 'cmd=r permissive to=scopedb_owner using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=-'),
    ('policy', 'scopedb.notes "scope limits which notes the app changes"', 'cmd=w restrictive to=scopedb_app using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[]))'),
    ('policy', 'scopedb.notes "scope limits which notes the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (forgotten_at IS NULL))'),
    ('policy', 'scopedb.notes "scope limits which notes the app deletes"', 'cmd=d restrictive to=scopedb_app using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=-'),
    ('policy', 'scopedb.notes "scope limits which notes the app reads"', 'cmd=r restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (forgotten_at IS NULL) AND ((retention_days IS NULL) OR ((created_at + make_interval(days => retention_days)) > now()))) check=-'),
    ('policy', 'scopedb.projects "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.projects "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.projects "owner resolves the projects named by the scope"', 'cmd=r permissive to=scopedb_owner using=(name = ANY (( SELECT scopedb.scope_project_names() AS scope_project_names)::text[])) check=-'),
    ('policy', 'scopedb.projects "scope limits which projects the app changes"', 'cmd=w restrictive to=scopedb_app using=(name = ANY (( SELECT scopedb.scope_project_names() AS scope_project_names)::text[])) check=(name = ANY (( SELECT scopedb.scope_project_names() AS scope_project_names)::text[]))'),
    ('policy', 'scopedb.projects "scope limits which projects the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=(name = ANY (( SELECT scopedb.scope_project_names() AS scope_project_names)::text[]))'),
    ('policy', 'scopedb.projects "scope limits which projects the app deletes"', 'cmd=d restrictive to=scopedb_app using=(name = ANY (( SELECT scopedb.scope_project_names() AS scope_project_names)::text[])) check=-'),
    ('policy', 'scopedb.projects "scope limits which projects the app reads"', 'cmd=r restrictive to=scopedb_app using=(name = ANY (( SELECT scopedb.scope_project_names() AS scope_project_names)::text[])) check=-'),
    ('policy', 'scopedb.resource_links "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.resource_links "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.resource_links "owner deletes the resource links of the entered scope"', 'cmd=d permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[parent_id, child_id] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE)) check=-'),
    ('policy', 'scopedb.resource_links "owner walks the links of the projects of the scope"', 'cmd=r permissive to=scopedb_owner using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=-'),
    ('policy', 'scopedb.resource_links "scope limits which resource links the app changes"', 'cmd=w restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[parent_id, child_id] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE)) check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[parent_id, child_id] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE))'),
    ('policy', 'scopedb.resource_links "scope limits which resource links the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[parent_id, child_id] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE))'),
    ('policy', 'scopedb.resource_links "scope limits which resource links the app deletes"', 'cmd=d restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[parent_id, child_id] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE)) check=-'),
    ('policy', 'scopedb.resource_links "scope limits which resource links the app reads"', 'cmd=r restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[parent_id, child_id] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE)) check=-'),
    ('policy', 'scopedb.resources "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.resources "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.resources "owner deletes the resources of the entered scope"', 'cmd=d permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((id = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE)) check=-'),
    ('policy', 'scopedb.resources "owner lists the resources of the projects of the scope"', 'cmd=r permissive to=scopedb_owner using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=-'),
    ('policy', 'scopedb.resources "scope limits which resources the app changes"', 'cmd=w restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((id = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE)) check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((id = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE))'),
    ('policy', 'scopedb.resources "scope limits which resources the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((id = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE))'),
    ('policy', 'scopedb.resources "scope limits which resources the app deletes"', 'cmd=d restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((id = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE)) check=-'),
    ('policy', 'scopedb.resources "scope limits which resources the app reads"', 'cmd=r restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((id = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE)) check=-'),
    ('schema', 'scopedb', 'owner=scopedb_owner'),
    ('schema', 'scopedb_audit', 'owner=scopedb_owner'),
    ('schema', 'scopedb_parts', 'owner=scopedb_owner'),
    ('schema', 'scopedb_private', 'owner=scopedb_owner'),
    ('table', 'scopedb.fragments', 'kind=p owner=scopedb_owner rls=t forced=t'),
    ('table', 'scopedb.graph_edges', 'kind=r owner=scopedb_owner rls=t forced=t'),
    ('table', 'scopedb.graph_nodes', 'kind=r owner=scopedb_owner rls=t forced=t'),
    ('table', 'scopedb.note_tombstones', 'kind=r owner=scopedb_owner rls=t forced=t'),
    ('table', 'scopedb.notes', 'kind=r owner=scopedb_owner rls=t forced=t'),
    ('table', 'scopedb.projects', 'kind=r owner=scopedb_owner rls=t forced=t'),
    ('table', 'scopedb.projects_id_seq', 'kind=S owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb.resource_links', 'kind=r owner=scopedb_owner rls=t forced=t'),
    ('table', 'scopedb.resources', 'kind=r owner=scopedb_owner rls=t forced=t'),
    ('table', 'scopedb_audit.app_roles', 'kind=v owner=scopedb_owner rls=f forced=f definition=c2bd77041ee94fdcf434f05dd29e0bd1'),
    ('table', 'scopedb_audit.data_tables', 'kind=v owner=scopedb_owner rls=f forced=f definition=4b6edcea27f77030a3c07d2fd9cd4f3d'),
    ('table', 'scopedb_audit.derived_relations', 'kind=v owner=scopedb_owner rls=f forced=f definition=66b322676730330492bfd4229ed567eb'),
    ('table', 'scopedb_audit.findings', 'kind=v owner=scopedb_owner rls=f forced=f definition=8b1ee10d92ac868d70770bcf94612a3b'),
    ('table', 'scopedb_audit.manifest', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_audit.protected_tables', 'kind=v owner=scopedb_owner rls=f forced=f definition=204977e9c8d389b6198cb18bef29c762'),
    ('table', 'scopedb_private.fragment_originals', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.fragment_search', 'kind=p owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.project_locks', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.signing_keys', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('trigger', 'scopedb.fragments fragments_fixed_key', 'CREATE TRIGGER fragments_fixed_key BEFORE UPDATE OF project_id, id ON scopedb.fragments FOR EACH ROW EXECUTE FUNCTION scopedb_private.refuse_fragment_key_change()'),
    ('trigger', 'scopedb.fragments fragments_forget_copies', 'CREATE TRIGGER fragments_forget_copies AFTER DELETE ON scopedb.fragments REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.forget_fragment_copies()'),
    ('trigger', 'scopedb.fragments fragments_keep_original', 'CREATE TRIGGER fragments_keep_original BEFORE UPDATE OF tier ON scopedb.fragments FOR EACH ROW EXECUTE FUNCTION scopedb_private.keep_original_content()'),
    ('trigger', 'scopedb.fragments fragments_sync_search_insert', 'CREATE TRIGGER fragments_sync_search_insert AFTER INSERT ON scopedb.fragments REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_fragment_search()'),
    ('trigger', 'scopedb.fragments fragments_sync_search_update', 'CREATE TRIGGER fragments_sync_search_update AFTER UPDATE ON scopedb.fragments REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_fragment_search()'),
    ('trigger', 'scopedb.projects projects_create_storage', 'CREATE TRIGGER projects_create_storage AFTER INSERT ON scopedb.projects FOR EACH ROW EXECUTE FUNCTION scopedb_private.project_storage_on_insert()'),
    ('trigger', 'scopedb.resource_links resource_links_refuse_cycle', 'CREATE TRIGGER resource_links_refuse_cycle BEFORE INSERT OR UPDATE ON scopedb.resource_links FOR EACH ROW EXECUTE FUNCTION scopedb_private.refuse_resource_cycle()'),
    ('trigger', 'scopedb_private.signing_keys signing_keys_derive_pads', 'CREATE TRIGGER signing_keys_derive_pads BEFORE INSERT OR UPDATE OF secret ON scopedb_private.signing_keys FOR EACH ROW EXECUTE FUNCTION scopedb_private.derive_hmac_pads()');

RESET ROLE;
