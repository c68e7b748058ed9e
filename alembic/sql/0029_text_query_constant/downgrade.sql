-- Revision 0029 down: scopedb.text_candidates with its two statements again, the one over several partitions
-- reading the tsquery, the time and the resources through sub-SELECTs, as revision 0020 left it, and 0028's
-- manifest.

SET ROLE scopedb_owner;

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
SET plan_cache_mode = auto
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
    -- The search is planned on every call, for the scope's partitions alone: its plan is never kept for a later
    -- call. Everything before it (the checks above are expressions, and PL/pgSQL plans an expression as it plans a
    -- statement) keeps its plan; planned on every call as well, they cost 40-60 µs of a call. The function's SET
    -- clause restores the caller's plan_cache_mode when it returns.
    PERFORM pg_catalog.set_config('plan_cache_mode', 'force_custom_plan', true);
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

-- CREATE OR REPLACE sets the SET clauses anew: the full set of pins follows (as sql/04_settings_of_kept_plans.sql).
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
    FOREACH f IN ARRAY ARRAY['scopedb.text_candidates(tsquery, integer)'::regprocedure] LOOP
        FOREACH setting IN ARRAY full_set LOOP
            EXECUTE pg_catalog.format('ALTER FUNCTION %s SET %I = %L', f, pg_catalog.split_part(setting, '=', 1),
                                      pg_catalog.split_part(setting, '=', 2));
        END LOOP;
    END LOOP;
END
$$;

RESET ROLE;

-- The manifest of revision 0028.
-- scopedb: the manifest of what scopedb installs, generated by `make manifest` from a database migrated to
-- head; do not edit. scopedb_audit.findings compares the live catalog with these facts (lint E020), and
-- `scopedb audit` compares the manifest in the database with this file's digest (E025, scopedb/manifest.py).
-- digest: d292b68f676efb4938c3249f98cc1918
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
    ('constraint', 'scopedb.graph_edges graph_edges_dst_fkey', 'FOREIGN KEY (project_id, dst, dst_resource, dst_path, dst_fqn) REFERENCES scopedb.graph_nodes(project_id, id, resource_key, path_key, fqn_key) ON UPDATE CASCADE'),
    ('constraint', 'scopedb.graph_edges graph_edges_pkey', 'PRIMARY KEY (project_id, src, relation, dst)'),
    ('constraint', 'scopedb.graph_edges graph_edges_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb.graph_edges graph_edges_relation_check', 'CHECK (((relation <> ''''::text) AND (length(relation) <= 100)))'),
    ('constraint', 'scopedb.graph_edges graph_edges_src_fkey', 'FOREIGN KEY (project_id, src, src_resource, src_path, src_fqn) REFERENCES scopedb.graph_nodes(project_id, id, resource_key, path_key, fqn_key) ON UPDATE CASCADE'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_fqn_check', 'CHECK ((strpos(fqn, chr(31)) = 0))'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_id_check', 'CHECK (((id <> ''''::text) AND (length(id) <= 200)))'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_kind_check', 'CHECK (((kind <> ''''::text) AND (length(kind) <= 100)))'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_path_check', 'CHECK ((strpos(path, chr(31)) = 0))'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_pkey', 'PRIMARY KEY (project_id, id)'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_resource_fkey', 'FOREIGN KEY (project_id, resource_id) REFERENCES scopedb.resources(project_id, id)'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_scope_key', 'UNIQUE (project_id, id, resource_key, path_key, fqn_key)'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_scope_length_check', 'CHECK (((octet_length(path_key) + octet_length(fqn_key)) <= 1500))'),
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
    ('constraint', 'scopedb_audit.service_table_facts service_table_facts_pkey', 'PRIMARY KEY (relation, kind, object)'),
    ('constraint', 'scopedb_audit.service_table_facts service_table_facts_relation_fkey', 'FOREIGN KEY (relation) REFERENCES scopedb_audit.service_tables(relation) ON DELETE CASCADE'),
    ('constraint', 'scopedb_audit.service_tables service_tables_pkey', 'PRIMARY KEY (relation)'),
    ('constraint', 'scopedb_private.fragment_originals fragment_originals_pkey', 'PRIMARY KEY (project_id, id)'),
    ('constraint', 'scopedb_private.fragment_search fragment_search_pkey', 'PRIMARY KEY (project_id, id)'),
    ('constraint', 'scopedb_private.group_vectors group_vectors_pkey', 'PRIMARY KEY (project_id, id, group_id)'),
    ('constraint', 'scopedb_private.project_locks project_locks_pkey', 'PRIMARY KEY (project_id, purpose)'),
    ('constraint', 'scopedb_private.project_locks project_locks_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb_private.project_locks project_locks_purpose_check', 'CHECK ((purpose = ANY (ARRAY[''tiers''::text, ''resource_links''::text])))'),
    ('constraint', 'scopedb_private.project_names_epoch project_names_epoch_one_check', 'CHECK (one)'),
    ('constraint', 'scopedb_private.project_names_epoch project_names_epoch_pkey', 'PRIMARY KEY (one)'),
    ('constraint', 'scopedb_private.search_group_members search_group_members_group_id_fkey', 'FOREIGN KEY (group_id) REFERENCES scopedb_private.search_groups(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb_private.search_group_members search_group_members_pkey', 'PRIMARY KEY (project_id, group_id)'),
    ('constraint', 'scopedb_private.search_group_members search_group_members_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb_private.search_groups search_groups_name_check', 'CHECK (((name <> ''''::text) AND (length(name) <= 200) AND (name !~ ''[[:cntrl:]]''::text)))'),
    ('constraint', 'scopedb_private.search_groups search_groups_name_key', 'UNIQUE (name)'),
    ('constraint', 'scopedb_private.search_groups search_groups_pkey', 'PRIMARY KEY (id)'),
    ('constraint', 'scopedb_private.search_groups search_groups_state_check', 'CHECK ((state = ANY (ARRAY[''declared''::text, ''filled''::text, ''ready''::text])))'),
    ('constraint', 'scopedb_private.signing_keys signing_keys_key_id_check', 'CHECK ((key_id ~ ''^[A-Za-z0-9_-]{1,64}$''::text))'),
    ('constraint', 'scopedb_private.signing_keys signing_keys_pads_check', 'CHECK (((length(inner_pad) = 64) AND (length(outer_pad) = 64)))'),
    ('constraint', 'scopedb_private.signing_keys signing_keys_pkey', 'PRIMARY KEY (key_id)'),
    ('constraint', 'scopedb_private.signing_keys signing_keys_secret_check', 'CHECK (((length(secret) >= 32) AND (length(secret) <= 64)))'),
    ('default_acl', 'scopedb_owner - f to scopedb_owner', 'EXECUTE'),
    ('function', 'scopedb.clean_session()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=record body=da40dc7bef4063690b2f955174241e56'),
    ('function', 'scopedb.delete_fragments(bigint,text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=plan_cache_mode=force_custom_plan,search_path=pg_catalog, pg_temp returns=integer body=7ac6ae14a4a1426fb8292c00581482e4'),
    ('function', 'scopedb.delete_graph_edges(bigint,text[],text[],text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=integer body=1988f10782a12b853829d5a66b154d51'),
    ('function', 'scopedb.delete_graph_nodes(bigint,text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=integer body=8ef43d5edaf4254efe5684ff125ae1be'),
    ('function', 'scopedb.delete_resource_links(bigint,text[],text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=integer body=ac6d03b975fad032fcbb9803be498b7b'),
    ('function', 'scopedb.delete_resources(bigint,text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=plan_cache_mode=force_custom_plan,search_path=pg_catalog, pg_temp returns=integer body=3eacb86ac6cd47c2e8920281665a970b'),
    ('function', 'scopedb.enter_scope(text)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=jsonb body=e4506b3ed3b7ae8b0eee357c6cf57221'),
    ('function', 'scopedb.fetch_notes(text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=TABLE(project_id bigint, id text, created_at timestamp with time zone, tags text[], sensitivity text, retention_days integer, provenance_source text, provenance_session text, content text) body=7891a21edb469f09c18a86c628c2fed4'),
    ('function', 'scopedb.forget_note(text,text)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=void body=51df128d48d15b98e44fef84fbfa8cde'),
    ('function', 'scopedb.graph_shortest_path(bigint[],text,text,integer,text[])', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,plan_cache_mode=force_generic_plan,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=TABLE(project_id bigint, path text[]) body=15dc29551627a346907b72f62eda37fa'),
    ('function', 'scopedb.graph_walk(bigint[],text[],integer,text[])', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,plan_cache_mode=force_generic_plan,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=TABLE(project_id bigint, node text, src text, relation text, kind text, resource_id text, label text) body=f3afd1a81abba3e3d3b3881dcb3350de'),
    ('function', 'scopedb.group_nearest(bigint[],public.vector,integer,integer,integer)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=constraint_exclusion=off,cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_partition_pruning=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,hnsw.ef_search=20,hnsw.iterative_scan=strict_order,hnsw.max_scan_tuples=20000,jit=off,max_parallel_workers_per_gather=0,plan_cache_mode=force_generic_plan,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, public, pg_temp,seq_page_cost=1 returns=TABLE(project_id bigint, id text, resource_id text, path text, fqn text, content text, distance double precision) body=e102fa0ebbe2673d402b1c0ba0dc087d'),
    ('function', 'scopedb.lock_project_tiers(bigint)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=void body=4c3a6d398db61de0a69c1f67fc71ded0'),
    ('function', 'scopedb.nearest_fragments(public.vector,integer,bigint[],text,boolean,integer,integer)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=constraint_exclusion=off,cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_partition_pruning=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,hnsw.ef_search=20,hnsw.iterative_scan=strict_order,hnsw.max_scan_tuples=20000,jit=off,max_parallel_workers_per_gather=0,plan_cache_mode=auto,random_page_cost=4,recursive_worktable_factor=10,seq_page_cost=1 returns=TABLE(project_id bigint, id text, resource_id text, path text, fqn text, content text, distance double precision, used_index boolean) body=397eea457f61c34ccbd007378b97182d'),
    ('function', 'scopedb.patterns_admit(text,text[],text[])', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=3d40b36009cdce005b127166ed5d4338'),
    ('function', 'scopedb.prepare_session()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=boolean body=589dffedd53405fa67f70699f81ebdad'),
    ('function', 'scopedb.protect_table(text,name,name,name,name,boolean)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=regclass body=6755f5d9c67328169e19bd0b033bbb6f'),
    ('function', 'scopedb.reenter_scope(text)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=bigint[] body=da125b278d6685d798b5867d5dc7ce41'),
    ('function', 'scopedb.resolve_scope(text)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=text body=567840a0e3e9847f81c20e179fa36c4b'),
    ('function', 'scopedb.role_hazards(name)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=5f2432724b312d429f081c8daa276072'),
    ('function', 'scopedb.scope_as_of()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=timestamp with time zone body=c5279a5c1208c220d8ee073a608f91fe'),
    ('function', 'scopedb.scope_entered()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=- returns=boolean body=88213d58f7efcd15d2ce1be911fc3a94'),
    ('function', 'scopedb.scope_filters_content()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=boolean body=c55e0e35e774dd3ad2238afb95dd45a8'),
    ('function', 'scopedb.scope_name_exclude()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=585296659e572a707fa24b43794ca937'),
    ('function', 'scopedb.scope_name_include()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=e8279785cf643f33fc0f899aecbbadb9'),
    ('function', 'scopedb.scope_path_exclude()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=e9bc8e50f5232d63573e0aed4003bf11'),
    ('function', 'scopedb.scope_path_include()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=832a184ba993d82af4b2d5c5d9ae94a4'),
    ('function', 'scopedb.scope_project_id()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=bigint body=3bb3909eb127f41a69f1f24336398cf4'),
    ('function', 'scopedb.scope_project_ids()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=bigint[] body=c33c0f4d6511b3f537a1e11251d4dffb'),
    ('function', 'scopedb.scope_project_names()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=be225829bf7762d49db69bad63935d32'),
    ('function', 'scopedb.scope_resource_filter()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=63249da23260ba5c76b022da5267e82c'),
    ('function', 'scopedb.scope_terms()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=scopedb.scope_terms body=bf2f302d76119ee8142bf06f493d9949'),
    ('function', 'scopedb.scope_whole_project_ids(boolean)', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=bigint[] body=3f6b5f675965533340506444b99d5a04'),
    ('function', 'scopedb.search_notes(text,text,integer,integer)', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=TABLE(project_id bigint, id text, created_at timestamp with time zone, tags text[], content_bytes integer, sensitivity text, retention_days integer, provenance_source text, snippet text, truncated boolean) body=a841d5376b95dbe6decb5cbebd455149'),
    ('function', 'scopedb.terms_admit_fragment(scopedb.scope_terms,bigint,timestamp with time zone,timestamp with time zone,text,text,text)', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=- returns=boolean body=77c1b657a2532269f8f7645c2b2d9135'),
    ('function', 'scopedb.text_candidates(tsquery,integer)', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=constraint_exclusion=off,cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_partition_pruning=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,gin_fuzzy_search_limit=0,jit=off,max_parallel_workers_per_gather=0,plan_cache_mode=auto,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=TABLE(project_id bigint, id text, rank real, resource_id text, path text, fqn text, content text) body=7edb2db9b9ccab0bc254f68fb4c86f3c'),
    ('function', 'scopedb.unprotect_table(text)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=328b49b911002608bd6f947e2e1c08ba'),
    ('function', 'scopedb_audit."check"()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(severity text, code text, object text, message text, fix text) body=a2b5f4d8f7171a72428197f4f83f45d6'),
    ('function', 'scopedb_audit.installed_facts()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(kind text, object text, fact text) body=1935f46f28e86ef703d623422964e84d'),
    ('function', 'scopedb_audit.manifest_digest()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=text body=f493dfd5bffba1b5741e28dd2112cf3b'),
    ('function', 'scopedb_audit.option_is_on(text[],text)', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=39011ede7f42a997d043adde3a97b69b'),
    ('function', 'scopedb_audit.pgvector_too_old(text)', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=296a03a7878198d01a77db4bfc679a15'),
    ('function', 'scopedb_audit.protection_facts(regclass)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(kind text, object text, fact text) body=664d3336dcbeef87535a94f7aab1317a'),
    ('function', 'scopedb_audit.relation_named(text)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=oid body=eddd97e4a8aa4968e9fc2600e30d9cf0'),
    ('function', 'scopedb_audit.removal(text,text,text)', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=text body=0118eacfe92058b4bdfe1457a77d73e5'),
    ('function', 'scopedb_audit.signing_key_ages()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(key_id text, created_at timestamp with time zone, retired_at timestamp with time zone, rotation_period interval, readable boolean) body=8af89bec808f18d5f989e0053c3508cf'),
    ('function', 'scopedb_private.anchored(text[])', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=text[] body=73b38dedac54b588605fd0b9b647fd9d'),
    ('function', 'scopedb_private.check_token(text)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=- returns=record body=67df6f1e60df848f2c06699c3c86ed22'),
    ('function', 'scopedb_private.copy_edge_ends()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,plan_cache_mode=force_generic_plan,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=trigger body=a2dc7dcd961114e2d9a073ad0923ad10'),
    ('function', 'scopedb_private.create_project_storage(bigint)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=3846e5b75c34419afcd8b910a2e357c6'),
    ('function', 'scopedb_private.derive_hmac_pads()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=trigger body=9ff8f62bab6182d9ea7b9f64acdf0e1f'),
    ('function', 'scopedb_private.drop_protection_policies(regclass)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=ddf4d0cb37c22fbaaabc2fd92b122a32'),
    ('function', 'scopedb_private.fill_search_group(bigint)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=792dbffcb20109a8b87f53cd6774f944'),
    ('function', 'scopedb_private.forget_fragment_copies()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=trigger body=53be5599b41a6ed3a9c0da66df78569e'),
    ('function', 'scopedb_private.is_admin_session()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=f7a079e142c094631a1bfe49da63f7ef'),
    ('function', 'scopedb_private.keep_original_content()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=trigger body=e71e2afe5735903f5c326eb5e48b8b1b'),
    ('function', 'scopedb_private.lock_project(bigint,text)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=3069ade1d80566357d55e373fdccd599'),
    ('function', 'scopedb_private.make_memo()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=- returns=boolean body=a1218249e420be55e9ecd81d4fb6183f'),
    ('function', 'scopedb_private.move_project_names_epoch()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=trigger body=a96a7ac7cf8be3ab45d6b2c87bf17ed8'),
    ('function', 'scopedb_private.note_is_live(scopedb.notes)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=boolean body=19740b93ce5239c908384cb0b872cb2a'),
    ('function', 'scopedb_private.owned_sequences(regclass)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=SETOF regclass body=a6903186e06457b4fc22481b3ba0ec51'),
    ('function', 'scopedb_private.pin_settings()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=f21f479adbc5f6be642232436790af55'),
    ('function', 'scopedb_private.project_columns(regclass,smallint)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(relid oid, attnum smallint) body=74ec8516c76816c9ccb61ba3a30ece8b'),
    ('function', 'scopedb_private.protection_policy_names(regclass)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=text[] body=cf4d7a32a6d232e8dc02f7195a7f7dae'),
    ('function', 'scopedb_private.redeclare_search_group()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=trigger body=6f23d5deb6ec8b38e1801975c1440c83'),
    ('function', 'scopedb_private.refuse_fragment_key_change()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=trigger body=a8bd87c18b1882e911959b015bf7b6f1'),
    ('function', 'scopedb_private.refuse_resource_cycle()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=trigger body=4d80ad7d91b2dfed4a1e2773a0af566b'),
    ('function', 'scopedb_private.remember_scope(text,scopedb_private.scope_claims,bigint)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=- returns=void body=5972e6ed0c1da74fb3e303c1ca90f02b'),
    ('function', 'scopedb_private.resolve_token(text)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=- returns=record body=da670109ffec24cfd7a4d8b668166062'),
    ('function', 'scopedb_private.retire_signing_key(text,timestamp with time zone)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=b8fac10a96f2f6ea782ca2e01bbad2d7'),
    ('function', 'scopedb_private.rotate_signing_key(interval)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=text body=9f7114b8dac2512691936732ab27fc19'),
    ('function', 'scopedb_private.search_group_ready(bigint)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=9f5f389b398a5a9b872211dc16681459'),
    ('function', 'scopedb_private.sign_claims(jsonb)', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=plan_cache_mode=force_generic_plan,search_path=pg_catalog, pg_temp returns=text body=d044600ac5a36cca6febbd1046bd099f'),
    ('function', 'scopedb_private.storage_plan(integer,boolean,bigint[])', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=plan_cache_mode=force_custom_plan,search_path=pg_catalog, pg_temp returns=TABLE(project_id bigint, action text, statement text, row_count bigint) body=ce4395f4befa2fad18fed036db14bd11'),
    ('function', 'scopedb_private.sweep_notes()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=record body=778aac8c64fb4882071989cf29c693b2'),
    ('function', 'scopedb_private.sync_fragment_search()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=trigger body=c959675ca9dc0d1bb66e5710074dd0be'),
    ('function', 'scopedb_private.sync_group_vectors()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=trigger body=cb72ba4043e87a7202136cfa701a15b3'),
    ('function', 'scopedb_private.terms_of(scopedb_private.scope_claims)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=- returns=scopedb.scope_terms body=af7da02d76c678bbf0398ffb13eca5c6'),
    ('function', 'scopedb_private.verified_claims()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=- returns=scopedb_private.scope_claims body=3f41bb0075a317e42fb5192745900e7e'),
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
    ('grant', 'function scopedb.clean_session() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.delete_fragments(bigint,text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.delete_graph_edges(bigint,text[],text[],text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.delete_graph_nodes(bigint,text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.delete_resource_links(bigint,text[],text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.delete_resources(bigint,text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.enter_scope(text) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.fetch_notes(text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.forget_note(text,text) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.graph_shortest_path(bigint[],text,text,integer,text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.graph_walk(bigint[],text[],integer,text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.group_nearest(bigint[],public.vector,integer,integer,in to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.lock_project_tiers(bigint) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.nearest_fragments(public.vector,integer,bigint[],text,b to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.patterns_admit(text,text[],text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.patterns_admit(text,text[],text[]) to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb.prepare_session() to scopedb_app', 'EXECUTE'),
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
    ('grant', 'function scopedb.scope_project_id() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_project_ids() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_project_names() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_resource_filter() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_terms() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_whole_project_ids(boolean) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.search_notes(text,text,integer,integer) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.terms_admit_fragment(scopedb.scope_terms,bigint,timesta to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.text_candidates(tsquery,integer) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb_audit."check"() to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.installed_facts() to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.manifest_digest() to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.option_is_on(text[],text) to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.pgvector_too_old(text) to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.protection_facts(regclass) to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.relation_named(text) to scopedb_auditor', 'EXECUTE'),
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
    ('grant', 'table scopedb_audit.service_table_facts to scopedb_auditor', 'SELECT'),
    ('grant', 'table scopedb_audit.service_tables to scopedb_auditor', 'SELECT'),
    ('grant', 'type scopedb.scope_terms to public', 'USAGE'),
    ('grant', 'type scopedb_private.scope_claims to public', 'USAGE'),
    ('index', 'scopedb.fragments_pkey', 'CREATE UNIQUE INDEX fragments_pkey ON ONLY scopedb.fragments USING btree (project_id, id)'),
    ('index', 'scopedb.fragments_resource_idx', 'CREATE INDEX fragments_resource_idx ON ONLY scopedb.fragments USING btree (project_id, resource_id)'),
    ('index', 'scopedb.fragments_tier_lru_idx', 'CREATE INDEX fragments_tier_lru_idx ON ONLY scopedb.fragments USING btree (project_id, tier, last_accessed_at)'),
    ('index', 'scopedb.graph_edges_dst_idx', 'CREATE INDEX graph_edges_dst_idx ON scopedb.graph_edges USING btree (project_id, dst)'),
    ('index', 'scopedb.graph_edges_pkey', 'CREATE UNIQUE INDEX graph_edges_pkey ON scopedb.graph_edges USING btree (project_id, src, relation, dst)'),
    ('index', 'scopedb.graph_nodes_kind_idx', 'CREATE INDEX graph_nodes_kind_idx ON scopedb.graph_nodes USING btree (project_id, kind)'),
    ('index', 'scopedb.graph_nodes_pkey', 'CREATE UNIQUE INDEX graph_nodes_pkey ON scopedb.graph_nodes USING btree (project_id, id)'),
    ('index', 'scopedb.graph_nodes_resource_idx', 'CREATE INDEX graph_nodes_resource_idx ON scopedb.graph_nodes USING btree (project_id, resource_id)'),
    ('index', 'scopedb.graph_nodes_scope_key', 'CREATE UNIQUE INDEX graph_nodes_scope_key ON scopedb.graph_nodes USING btree (project_id, id, resource_key, path_key, fqn_key)'),
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
    ('index', 'scopedb_audit.service_table_facts_pkey', 'CREATE UNIQUE INDEX service_table_facts_pkey ON scopedb_audit.service_table_facts USING btree (relation, kind, object)'),
    ('index', 'scopedb_audit.service_tables_pkey', 'CREATE UNIQUE INDEX service_tables_pkey ON scopedb_audit.service_tables USING btree (relation)'),
    ('index', 'scopedb_private.fragment_originals_pkey', 'CREATE UNIQUE INDEX fragment_originals_pkey ON scopedb_private.fragment_originals USING btree (project_id, id)'),
    ('index', 'scopedb_private.fragment_search_pkey', 'CREATE UNIQUE INDEX fragment_search_pkey ON ONLY scopedb_private.fragment_search USING btree (project_id, id)'),
    ('index', 'scopedb_private.group_vectors_pkey', 'CREATE UNIQUE INDEX group_vectors_pkey ON ONLY scopedb_private.group_vectors USING btree (project_id, id, group_id)'),
    ('index', 'scopedb_private.project_locks_pkey', 'CREATE UNIQUE INDEX project_locks_pkey ON scopedb_private.project_locks USING btree (project_id, purpose)'),
    ('index', 'scopedb_private.project_names_epoch_pkey', 'CREATE UNIQUE INDEX project_names_epoch_pkey ON scopedb_private.project_names_epoch USING btree (one)'),
    ('index', 'scopedb_private.search_group_members_group_idx', 'CREATE INDEX search_group_members_group_idx ON scopedb_private.search_group_members USING btree (group_id)'),
    ('index', 'scopedb_private.search_group_members_pkey', 'CREATE UNIQUE INDEX search_group_members_pkey ON scopedb_private.search_group_members USING btree (project_id, group_id)'),
    ('index', 'scopedb_private.search_groups_name_key', 'CREATE UNIQUE INDEX search_groups_name_key ON scopedb_private.search_groups USING btree (name)'),
    ('index', 'scopedb_private.search_groups_pkey', 'CREATE UNIQUE INDEX search_groups_pkey ON scopedb_private.search_groups USING btree (id)'),
    ('index', 'scopedb_private.signing_keys_pkey', 'CREATE UNIQUE INDEX signing_keys_pkey ON scopedb_private.signing_keys USING btree (key_id)'),
    ('policy', 'scopedb.fragments "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.fragments "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.fragments "owner deletes the fragments of the entered scope"', 'cmd=d permissive to=scopedb_owner using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(true) AS scope_whole_project_ids)::bigint[])) THEN ((valid_from <= now()) AND ((valid_to IS NULL) OR (valid_to > now())))
    ELSE scopedb.terms_admit_fragment(( SELECT scopedb.scope_terms() AS scope_terms), project_id, valid_from, valid_to, resource_id, path, fqn)
END check=-'),
    ('policy', 'scopedb.fragments "owner searches the fragments of the entered scope"', 'cmd=r permissive to=scopedb_owner using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(true) AS scope_whole_project_ids)::bigint[])) THEN ((valid_from <= now()) AND ((valid_to IS NULL) OR (valid_to > now())))
    ELSE scopedb.terms_admit_fragment(( SELECT scopedb.scope_terms() AS scope_terms), project_id, valid_from, valid_to, resource_id, path, fqn)
END check=-'),
    ('policy', 'scopedb.fragments "scope limits which fragments the app changes"', 'cmd=w restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(true) AS scope_whole_project_ids)::bigint[])) THEN ((valid_from <= now()) AND ((valid_to IS NULL) OR (valid_to > now())))
    ELSE scopedb.terms_admit_fragment(( SELECT scopedb.scope_terms() AS scope_terms), project_id, valid_from, valid_to, resource_id, path, fqn)
END check=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((fragments.project_id = ANY ((s.t).project_ids)) AND ((COALESCE(fragments.resource_id, ''''::text) = ANY ((s.t).resource_filter)) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((COALESCE(fragments.path, ''''::text) ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((COALESCE(fragments.path, ''''::text) ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((COALESCE(fragments.fqn, ''''::text) ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((COALESCE(fragments.fqn, ''''::text) ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END'),
    ('policy', 'scopedb.fragments "scope limits which fragments the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((fragments.project_id = ANY ((s.t).project_ids)) AND ((COALESCE(fragments.resource_id, ''''::text) = ANY ((s.t).resource_filter)) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((COALESCE(fragments.path, ''''::text) ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((COALESCE(fragments.path, ''''::text) ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((COALESCE(fragments.fqn, ''''::text) ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((COALESCE(fragments.fqn, ''''::text) ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END'),
    ('policy', 'scopedb.fragments "scope limits which fragments the app deletes"', 'cmd=d restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(true) AS scope_whole_project_ids)::bigint[])) THEN ((valid_from <= now()) AND ((valid_to IS NULL) OR (valid_to > now())))
    ELSE scopedb.terms_admit_fragment(( SELECT scopedb.scope_terms() AS scope_terms), project_id, valid_from, valid_to, resource_id, path, fqn)
END check=-'),
    ('policy', 'scopedb.fragments "scope limits which fragments the app reads"', 'cmd=r restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(true) AS scope_whole_project_ids)::bigint[])) THEN ((valid_from <= now()) AND ((valid_to IS NULL) OR (valid_to > now())))
    ELSE scopedb.terms_admit_fragment(( SELECT scopedb.scope_terms() AS scope_terms), project_id, valid_from, valid_to, resource_id, path, fqn)
END check=-'),
    ('policy', 'scopedb.graph_edges "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.graph_edges "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.graph_edges "owner deletes the graph edges of the entered scope"', 'cmd=d permissive to=scopedb_owner using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_edges.project_id = ANY ((s.t).project_ids)) AND ((ARRAY[graph_edges.src_resource, graph_edges.dst_resource] <@ (s.t).resource_filter) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((graph_edges.src_path ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((graph_edges.dst_path ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((graph_edges.src_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((graph_edges.dst_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((graph_edges.src_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((graph_edges.dst_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((graph_edges.src_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE) AND ((graph_edges.dst_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.graph_edges "owner reads the graph edges of the entered scope"', 'cmd=r permissive to=scopedb_owner using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_edges.project_id = ANY ((s.t).project_ids)) AND ((ARRAY[graph_edges.src_resource, graph_edges.dst_resource] <@ (s.t).resource_filter) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((graph_edges.src_path ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((graph_edges.dst_path ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((graph_edges.src_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((graph_edges.dst_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((graph_edges.src_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((graph_edges.dst_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((graph_edges.src_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE) AND ((graph_edges.dst_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.graph_edges "scope limits which graph edges the app changes"', 'cmd=w restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_edges.project_id = ANY ((s.t).project_ids)) AND ((ARRAY[graph_edges.src_resource, graph_edges.dst_resource] <@ (s.t).resource_filter) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((graph_edges.src_path ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((graph_edges.dst_path ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((graph_edges.src_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((graph_edges.dst_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((graph_edges.src_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((graph_edges.dst_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((graph_edges.src_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE) AND ((graph_edges.dst_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (EXISTS ( SELECT
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
    ('policy', 'scopedb.graph_edges "scope limits which graph edges the app deletes"', 'cmd=d restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_edges.project_id = ANY ((s.t).project_ids)) AND ((ARRAY[graph_edges.src_resource, graph_edges.dst_resource] <@ (s.t).resource_filter) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((graph_edges.src_path ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((graph_edges.dst_path ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((graph_edges.src_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((graph_edges.dst_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((graph_edges.src_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((graph_edges.dst_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((graph_edges.src_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE) AND ((graph_edges.dst_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.graph_edges "scope limits which graph edges the app reads"', 'cmd=r restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_edges.project_id = ANY ((s.t).project_ids)) AND ((ARRAY[graph_edges.src_resource, graph_edges.dst_resource] <@ (s.t).resource_filter) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((graph_edges.src_path ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((graph_edges.dst_path ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((graph_edges.src_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((graph_edges.dst_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((graph_edges.src_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((graph_edges.dst_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((graph_edges.src_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE) AND ((graph_edges.dst_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.graph_nodes "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.graph_nodes "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.graph_nodes "owner deletes the graph nodes of the entered scope"', 'cmd=d permissive to=scopedb_owner using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_nodes.project_id = ANY ((s.t).project_ids)) AND ((COALESCE(graph_nodes.resource_id, ''''::text) = ANY ((s.t).resource_filter)) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.graph_nodes "owner reads the graph nodes of the entered scope"', 'cmd=r permissive to=scopedb_owner using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_nodes.project_id = ANY ((s.t).project_ids)) AND ((COALESCE(graph_nodes.resource_id, ''''::text) = ANY ((s.t).resource_filter)) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.graph_nodes "scope limits which graph nodes the app changes"', 'cmd=w restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_nodes.project_id = ANY ((s.t).project_ids)) AND ((COALESCE(graph_nodes.resource_id, ''''::text) = ANY ((s.t).resource_filter)) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_nodes.project_id = ANY ((s.t).project_ids)) AND ((COALESCE(graph_nodes.resource_id, ''''::text) = ANY ((s.t).resource_filter)) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END'),
    ('policy', 'scopedb.graph_nodes "scope limits which graph nodes the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_nodes.project_id = ANY ((s.t).project_ids)) AND ((COALESCE(graph_nodes.resource_id, ''''::text) = ANY ((s.t).resource_filter)) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END'),
    ('policy', 'scopedb.graph_nodes "scope limits which graph nodes the app deletes"', 'cmd=d restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_nodes.project_id = ANY ((s.t).project_ids)) AND ((COALESCE(graph_nodes.resource_id, ''''::text) = ANY ((s.t).resource_filter)) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.graph_nodes "scope limits which graph nodes the app reads"', 'cmd=r restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_nodes.project_id = ANY ((s.t).project_ids)) AND ((COALESCE(graph_nodes.resource_id, ''''::text) = ANY ((s.t).resource_filter)) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.path, ''''::text) ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((COALESCE(graph_nodes.fqn, ''''::text) ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
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
    ('policy', 'scopedb.resource_links "owner deletes the resource links of the entered scope"', 'cmd=d permissive to=scopedb_owner using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resource_links.project_id = ANY ((s.t).project_ids)) AND ((ARRAY[resource_links.parent_id, resource_links.child_id] <@ (s.t).resource_filter) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.resource_links "owner walks the links of the projects of the scope"', 'cmd=r permissive to=scopedb_owner using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=-'),
    ('policy', 'scopedb.resource_links "scope limits which resource links the app changes"', 'cmd=w restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resource_links.project_id = ANY ((s.t).project_ids)) AND ((ARRAY[resource_links.parent_id, resource_links.child_id] <@ (s.t).resource_filter) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resource_links.project_id = ANY ((s.t).project_ids)) AND ((ARRAY[resource_links.parent_id, resource_links.child_id] <@ (s.t).resource_filter) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END'),
    ('policy', 'scopedb.resource_links "scope limits which resource links the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resource_links.project_id = ANY ((s.t).project_ids)) AND ((ARRAY[resource_links.parent_id, resource_links.child_id] <@ (s.t).resource_filter) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END'),
    ('policy', 'scopedb.resource_links "scope limits which resource links the app deletes"', 'cmd=d restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resource_links.project_id = ANY ((s.t).project_ids)) AND ((ARRAY[resource_links.parent_id, resource_links.child_id] <@ (s.t).resource_filter) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.resource_links "scope limits which resource links the app reads"', 'cmd=r restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resource_links.project_id = ANY ((s.t).project_ids)) AND ((ARRAY[resource_links.parent_id, resource_links.child_id] <@ (s.t).resource_filter) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.resources "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.resources "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.resources "owner deletes the resources of the entered scope"', 'cmd=d permissive to=scopedb_owner using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resources.project_id = ANY ((s.t).project_ids)) AND ((resources.id = ANY ((s.t).resource_filter)) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.resources "owner lists the resources of the projects of the scope"', 'cmd=r permissive to=scopedb_owner using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=-'),
    ('policy', 'scopedb.resources "scope limits which resources the app changes"', 'cmd=w restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resources.project_id = ANY ((s.t).project_ids)) AND ((resources.id = ANY ((s.t).resource_filter)) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resources.project_id = ANY ((s.t).project_ids)) AND ((resources.id = ANY ((s.t).resource_filter)) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END'),
    ('policy', 'scopedb.resources "scope limits which resources the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resources.project_id = ANY ((s.t).project_ids)) AND ((resources.id = ANY ((s.t).resource_filter)) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END'),
    ('policy', 'scopedb.resources "scope limits which resources the app deletes"', 'cmd=d restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resources.project_id = ANY ((s.t).project_ids)) AND ((resources.id = ANY ((s.t).resource_filter)) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.resources "scope limits which resources the app reads"', 'cmd=r restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resources.project_id = ANY ((s.t).project_ids)) AND ((resources.id = ANY ((s.t).resource_filter)) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
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
    ('table', 'scopedb_audit.derived_relations', 'kind=v owner=scopedb_owner rls=f forced=f definition=986e2214d797b6e9053ac4ad834aab99'),
    ('table', 'scopedb_audit.findings', 'kind=v owner=scopedb_owner rls=f forced=f definition=8b1ee10d92ac868d70770bcf94612a3b'),
    ('table', 'scopedb_audit.manifest', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_audit.protected_tables', 'kind=v owner=scopedb_owner rls=f forced=f definition=234f7241b34b32a7605d19bcadd8ab6d'),
    ('table', 'scopedb_audit.service_table_facts', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_audit.service_tables', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.fragment_originals', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.fragment_search', 'kind=p owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.group_vectors', 'kind=p owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.project_locks', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.project_names_epoch', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.search_group_members', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.search_groups', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.search_groups_id_seq', 'kind=S owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.signing_keys', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('trigger', 'scopedb.fragments fragments_fixed_key', 'CREATE TRIGGER fragments_fixed_key BEFORE UPDATE OF project_id, id ON scopedb.fragments FOR EACH ROW EXECUTE FUNCTION scopedb_private.refuse_fragment_key_change()'),
    ('trigger', 'scopedb.fragments fragments_forget_copies', 'CREATE TRIGGER fragments_forget_copies AFTER DELETE ON scopedb.fragments REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.forget_fragment_copies()'),
    ('trigger', 'scopedb.fragments fragments_keep_original', 'CREATE TRIGGER fragments_keep_original BEFORE UPDATE OF tier ON scopedb.fragments FOR EACH ROW EXECUTE FUNCTION scopedb_private.keep_original_content()'),
    ('trigger', 'scopedb.fragments fragments_sync_groups_insert', 'CREATE TRIGGER fragments_sync_groups_insert AFTER INSERT ON scopedb.fragments REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_group_vectors()'),
    ('trigger', 'scopedb.fragments fragments_sync_groups_update', 'CREATE TRIGGER fragments_sync_groups_update AFTER UPDATE ON scopedb.fragments REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_group_vectors()'),
    ('trigger', 'scopedb.fragments fragments_sync_search_insert', 'CREATE TRIGGER fragments_sync_search_insert AFTER INSERT ON scopedb.fragments REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_fragment_search()'),
    ('trigger', 'scopedb.fragments fragments_sync_search_update', 'CREATE TRIGGER fragments_sync_search_update AFTER UPDATE ON scopedb.fragments REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_fragment_search()'),
    ('trigger', 'scopedb.graph_edges graph_edges_copy_ends', 'CREATE TRIGGER graph_edges_copy_ends BEFORE INSERT ON scopedb.graph_edges FOR EACH ROW WHEN ((num_nulls(new.src_resource, new.src_path, new.src_fqn, new.dst_resource, new.dst_path, new.dst_fqn) > 0)) EXECUTE FUNCTION scopedb_private.copy_edge_ends()'),
    ('trigger', 'scopedb.projects projects_names_epoch', 'CREATE TRIGGER projects_names_epoch AFTER DELETE OR UPDATE OF name ON scopedb.projects FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.move_project_names_epoch()'),
    ('trigger', 'scopedb.projects projects_names_epoch_truncate', 'CREATE TRIGGER projects_names_epoch_truncate AFTER TRUNCATE ON scopedb.projects FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.move_project_names_epoch()'),
    ('trigger', 'scopedb.resource_links resource_links_refuse_cycle', 'CREATE TRIGGER resource_links_refuse_cycle BEFORE INSERT OR UPDATE ON scopedb.resource_links FOR EACH ROW EXECUTE FUNCTION scopedb_private.refuse_resource_cycle()'),
    ('trigger', 'scopedb_private.search_group_members search_group_members_redeclare_delete', 'CREATE TRIGGER search_group_members_redeclare_delete AFTER DELETE ON scopedb_private.search_group_members REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.redeclare_search_group()'),
    ('trigger', 'scopedb_private.search_group_members search_group_members_redeclare_insert', 'CREATE TRIGGER search_group_members_redeclare_insert AFTER INSERT ON scopedb_private.search_group_members REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.redeclare_search_group()'),
    ('trigger', 'scopedb_private.search_group_members search_group_members_redeclare_truncate', 'CREATE TRIGGER search_group_members_redeclare_truncate AFTER TRUNCATE ON scopedb_private.search_group_members FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.redeclare_search_group()'),
    ('trigger', 'scopedb_private.search_group_members search_group_members_redeclare_update', 'CREATE TRIGGER search_group_members_redeclare_update AFTER UPDATE ON scopedb_private.search_group_members REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.redeclare_search_group()'),
    ('trigger', 'scopedb_private.signing_keys signing_keys_derive_pads', 'CREATE TRIGGER signing_keys_derive_pads BEFORE INSERT OR UPDATE OF secret ON scopedb_private.signing_keys FOR EACH ROW EXECUTE FUNCTION scopedb_private.derive_hmac_pads()');

RESET ROLE;
