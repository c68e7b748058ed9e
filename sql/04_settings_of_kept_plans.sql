-- scopedb: the planner settings of the functions whose plans PostgreSQL keeps for the connection.
--
-- A PL/pgSQL or SQL function keeps the plans of its statements for the life of the connection (made at its first
-- calls, made again after an invalidation), and a pooled connection serves one tenant after another. A plan is
-- made under the settings in force when it is made — the calling tenant's, who may SET LOCAL any planner setting.
-- Left alone, a tenant could switch JIT on at zero cost, parallel workers at no setup cost, or index scans off,
-- call a function often enough for its generic plan to be kept, and every later tenant's calls on that connection
-- would compile, start workers or scan whole tables (attack #88 in docs/security.md; found for the graph walks in
-- a review of revision 0016). Rows never depend on the plan; time does, and it is not the caller's to choose for
-- others.
--
-- Two sets, by what a call costs: each pinned setting is saved and restored on every call (about 0.06 µs).
--   * The scope accessors run several times per statement and read one signing key by its primary key and the
--     session's own memo of verified tokens (role_hazards reads the role catalog; prepare_session makes the
--     memo): only JIT and parallel workers could change what such a plan costs. They pin those two.
--   * The functions that read or write the tables all projects share (graph, notes, resource links, the
--     fragments' triggers) and the entry functions pin the planner's method switches and cost constants as well
--     (PostgreSQL's defaults; their statements are key lookups and small scans). Memory (work_mem) stays the
--     operator's (docs/security.md, "Plans and statistics").
--   * The graph walks and the edge trigger pin all of that and also keep the generic plan
--     (plan_cache_mode = force_generic_plan), so the plan kept does not depend on whose parameters came first.
-- Functions planned on every call (plan_cache_mode = force_custom_plan: storage_plan, delete_fragments,
-- delete_resources) plan for their caller alone and are not listed. text_candidates, nearest_fragments and
-- group_nearest plan their searches on every call (for the scope's partitions) and keep the plans of the rest, so
-- they pin the full set; their searches are planned under it too, with the settings each function sets for them. The admin-only
-- functions are not called by tenants; the functions these call (check_token, verified_claims, resolve_token)
-- plan under their callers' pinned settings. scopedb.clean_session must not pin anything: at its exit a SET clause
-- restores its settings' values from before the call, which would undo its RESET ALL for them.
-- tests/adversarial/test_attack_catalogue.py checks that every function the app can call, and every trigger
-- function, that keeps plans pins at least the first set, but for the few it names.

SET ROLE scopedb_owner;

DO $$
DECLARE
    light constant text[] := ARRAY['jit=off', 'max_parallel_workers_per_gather=0'];
    full_set constant text[] := light || ARRAY[
        'enable_seqscan=on', 'enable_indexscan=on', 'enable_indexonlyscan=on', 'enable_bitmapscan=on',
        'enable_tidscan=on', 'enable_nestloop=on', 'enable_hashjoin=on', 'enable_mergejoin=on', 'enable_sort=on',
        'enable_incremental_sort=on', 'enable_material=on', 'enable_memoize=on', 'enable_hashagg=on',
        'seq_page_cost=1', 'random_page_cost=4', 'cpu_tuple_cost=0.01', 'cpu_index_tuple_cost=0.005',
        'cpu_operator_cost=0.0025', 'effective_cache_size=4GB', 'recursive_worktable_factor=10'];
    walks_set constant text[] := full_set || ARRAY['plan_cache_mode=force_generic_plan'];
    accessors constant text[] := ARRAY[
        'scopedb.scope_project_ids', 'scopedb.scope_whole_project_ids', 'scopedb.scope_terms',
        'scopedb.scope_resource_filter',
        'scopedb.scope_as_of',
        'scopedb.scope_filters_content', 'scopedb.scope_path_include', 'scopedb.scope_path_exclude',
        'scopedb.scope_name_include', 'scopedb.scope_name_exclude', 'scopedb.scope_project_id',
        'scopedb.scope_project_names', 'scopedb.role_hazards', 'scopedb.prepare_session'];
    shared_tables constant text[] := ARRAY[
        'scopedb.enter_scope', 'scopedb.reenter_scope', 'scopedb.resolve_scope', 'scopedb.lock_project_tiers',
        'scopedb.delete_graph_edges', 'scopedb.delete_graph_nodes', 'scopedb.delete_resource_links',
        'scopedb.forget_note', 'scopedb.search_notes', 'scopedb.fetch_notes', 'scopedb_private.sweep_notes',
        'scopedb_private.note_is_live', 'scopedb_private.refuse_resource_cycle', 'scopedb_private.keep_original_content',
        'scopedb_private.sync_fragment_search', 'scopedb_private.forget_fragment_copies',
        'scopedb.text_candidates', 'scopedb.nearest_fragments', 'scopedb.group_nearest',
        'scopedb_private.sync_group_vectors', 'scopedb_private.redeclare_search_group'];
    walks constant text[] := ARRAY[
        'scopedb.graph_walk', 'scopedb.graph_shortest_path', 'scopedb_private.copy_edge_ends'];
    f record;
    setting text;
    found_names text[];
BEGIN
    SELECT array_agg(DISTINCT n.nspname || '.' || p.proname) INTO found_names
      FROM pg_catalog.pg_proc AS p JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace
     WHERE (n.nspname || '.' || p.proname) = ANY (accessors || shared_tables || walks);
    IF NOT (accessors || shared_tables || walks) <@ COALESCE(found_names, '{}') THEN
        RAISE EXCEPTION 'functions to pin that do not exist: %',
            ARRAY(SELECT unnest(accessors || shared_tables || walks) EXCEPT SELECT unnest(found_names));
    END IF;
    FOR f IN
        SELECT p.oid::regprocedure AS fn, n.nspname || '.' || p.proname AS name
          FROM pg_catalog.pg_proc AS p JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace
         WHERE (n.nspname || '.' || p.proname) = ANY (accessors || shared_tables || walks)
         ORDER BY 1::text
    LOOP
        FOREACH setting IN ARRAY CASE WHEN f.name = ANY (accessors) THEN light
                                      WHEN f.name = ANY (walks) THEN walks_set
                                      ELSE full_set END LOOP
            EXECUTE pg_catalog.format('ALTER FUNCTION %s SET %I = %L', f.fn, pg_catalog.split_part(setting, '=', 1),
                                      pg_catalog.split_part(setting, '=', 2));
        END LOOP;
    END LOOP;
END
$$;

RESET ROLE;
