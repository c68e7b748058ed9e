-- Revision 0020: every policy of resources, resource links, fragments, graph nodes and edges that tests more than
-- one term of the scope asks the read policies' two questions (sql/04_policies.sql): the scope reads the row's
-- project whole (one accessor), or every term from one reading of the setting (scopedb.scope_terms). The writes
-- read separate accessors, one InitPlan each, which a statement could evaluate under two tokens.

SET ROLE scopedb_owner;

DROP POLICY "scope limits which resources the app reads" ON scopedb.resources;
CREATE POLICY "scope limits which resources the app reads" ON scopedb.resources
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (id = ANY ((s.t).resource_filter)) IS NOT FALSE
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

DROP POLICY "scope limits which resources the app creates" ON scopedb.resources;
CREATE POLICY "scope limits which resources the app creates" ON scopedb.resources
    AS RESTRICTIVE FOR INSERT TO scopedb_app
    WITH CHECK (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (id = ANY ((s.t).resource_filter)) IS NOT FALSE
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

DROP POLICY "scope limits which resources the app changes" ON scopedb.resources;
CREATE POLICY "scope limits which resources the app changes" ON scopedb.resources
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (id = ANY ((s.t).resource_filter)) IS NOT FALSE
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END)
    WITH CHECK (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (id = ANY ((s.t).resource_filter)) IS NOT FALSE
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

DROP POLICY "scope limits which resources the app deletes" ON scopedb.resources;
CREATE POLICY "scope limits which resources the app deletes" ON scopedb.resources
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (id = ANY ((s.t).resource_filter)) IS NOT FALSE
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

DROP POLICY "owner deletes the resources of the entered scope" ON scopedb.resources;
CREATE POLICY "owner deletes the resources of the entered scope" ON scopedb.resources
    AS PERMISSIVE FOR DELETE TO scopedb_owner
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (id = ANY ((s.t).resource_filter)) IS NOT FALSE
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

DROP POLICY "scope limits which resource links the app reads" ON scopedb.resource_links;
CREATE POLICY "scope limits which resource links the app reads" ON scopedb.resource_links
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (ARRAY[parent_id, child_id] <@ (s.t).resource_filter) IS NOT FALSE
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

DROP POLICY "scope limits which resource links the app creates" ON scopedb.resource_links;
CREATE POLICY "scope limits which resource links the app creates" ON scopedb.resource_links
    AS RESTRICTIVE FOR INSERT TO scopedb_app
    WITH CHECK (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (ARRAY[parent_id, child_id] <@ (s.t).resource_filter) IS NOT FALSE
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

DROP POLICY "scope limits which resource links the app changes" ON scopedb.resource_links;
CREATE POLICY "scope limits which resource links the app changes" ON scopedb.resource_links
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (ARRAY[parent_id, child_id] <@ (s.t).resource_filter) IS NOT FALSE
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END)
    WITH CHECK (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (ARRAY[parent_id, child_id] <@ (s.t).resource_filter) IS NOT FALSE
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

DROP POLICY "scope limits which resource links the app deletes" ON scopedb.resource_links;
CREATE POLICY "scope limits which resource links the app deletes" ON scopedb.resource_links
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (ARRAY[parent_id, child_id] <@ (s.t).resource_filter) IS NOT FALSE
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

DROP POLICY "owner deletes the resource links of the entered scope" ON scopedb.resource_links;
CREATE POLICY "owner deletes the resource links of the entered scope" ON scopedb.resource_links
    AS PERMISSIVE FOR DELETE TO scopedb_owner
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (ARRAY[parent_id, child_id] <@ (s.t).resource_filter) IS NOT FALSE
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

DROP POLICY "scope limits which fragments the app reads" ON scopedb.fragments;
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

DROP POLICY "scope limits which fragments the app creates" ON scopedb.fragments;
CREATE POLICY "scope limits which fragments the app creates" ON scopedb.fragments
    AS RESTRICTIVE FOR INSERT TO scopedb_app
    WITH CHECK (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (COALESCE(resource_id, '') = ANY ((s.t).resource_filter)) IS NOT FALSE
                             AND ((s.t).filters_content IS NOT TRUE
                                  OR ((COALESCE(path, '') ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (COALESCE(path, '') ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_exclude)) IS NOT TRUE))
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

DROP POLICY "scope limits which fragments the app changes" ON scopedb.fragments;
CREATE POLICY "scope limits which fragments the app changes" ON scopedb.fragments
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
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
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END)
    WITH CHECK (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (COALESCE(resource_id, '') = ANY ((s.t).resource_filter)) IS NOT FALSE
                             AND ((s.t).filters_content IS NOT TRUE
                                  OR ((COALESCE(path, '') ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (COALESCE(path, '') ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_exclude)) IS NOT TRUE))
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

DROP POLICY "scope limits which fragments the app deletes" ON scopedb.fragments;
CREATE POLICY "scope limits which fragments the app deletes" ON scopedb.fragments
    AS RESTRICTIVE FOR DELETE TO scopedb_app
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

DROP POLICY "owner searches the fragments of the entered scope" ON scopedb.fragments;
CREATE POLICY "owner searches the fragments of the entered scope" ON scopedb.fragments
    AS PERMISSIVE FOR SELECT TO scopedb_owner
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

DROP POLICY "owner deletes the fragments of the entered scope" ON scopedb.fragments;
CREATE POLICY "owner deletes the fragments of the entered scope" ON scopedb.fragments
    AS PERMISSIVE FOR DELETE TO scopedb_owner
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

DROP POLICY "scope limits which graph nodes the app creates" ON scopedb.graph_nodes;
CREATE POLICY "scope limits which graph nodes the app creates" ON scopedb.graph_nodes
    AS RESTRICTIVE FOR INSERT TO scopedb_app
    WITH CHECK (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (COALESCE(resource_id, '') = ANY ((s.t).resource_filter)) IS NOT FALSE
                             AND ((s.t).filters_content IS NOT TRUE
                                  OR ((COALESCE(path, '') ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (COALESCE(path, '') ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_exclude)) IS NOT TRUE))
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

DROP POLICY "scope limits which graph nodes the app changes" ON scopedb.graph_nodes;
CREATE POLICY "scope limits which graph nodes the app changes" ON scopedb.graph_nodes
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (COALESCE(resource_id, '') = ANY ((s.t).resource_filter)) IS NOT FALSE
                             AND ((s.t).filters_content IS NOT TRUE
                                  OR ((COALESCE(path, '') ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (COALESCE(path, '') ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_exclude)) IS NOT TRUE))
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END)
    WITH CHECK (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (COALESCE(resource_id, '') = ANY ((s.t).resource_filter)) IS NOT FALSE
                             AND ((s.t).filters_content IS NOT TRUE
                                  OR ((COALESCE(path, '') ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (COALESCE(path, '') ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_exclude)) IS NOT TRUE))
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

DROP POLICY "scope limits which graph nodes the app deletes" ON scopedb.graph_nodes;
CREATE POLICY "scope limits which graph nodes the app deletes" ON scopedb.graph_nodes
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (COALESCE(resource_id, '') = ANY ((s.t).resource_filter)) IS NOT FALSE
                             AND ((s.t).filters_content IS NOT TRUE
                                  OR ((COALESCE(path, '') ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (COALESCE(path, '') ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_exclude)) IS NOT TRUE))
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

DROP POLICY "owner reads the graph nodes of the entered scope" ON scopedb.graph_nodes;
CREATE POLICY "owner reads the graph nodes of the entered scope" ON scopedb.graph_nodes
    AS PERMISSIVE FOR SELECT TO scopedb_owner
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (COALESCE(resource_id, '') = ANY ((s.t).resource_filter)) IS NOT FALSE
                             AND ((s.t).filters_content IS NOT TRUE
                                  OR ((COALESCE(path, '') ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (COALESCE(path, '') ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_exclude)) IS NOT TRUE))
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

DROP POLICY "owner deletes the graph nodes of the entered scope" ON scopedb.graph_nodes;
CREATE POLICY "owner deletes the graph nodes of the entered scope" ON scopedb.graph_nodes
    AS PERMISSIVE FOR DELETE TO scopedb_owner
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

DROP POLICY "scope limits which graph edges the app changes" ON scopedb.graph_edges;
CREATE POLICY "scope limits which graph edges the app changes" ON scopedb.graph_edges
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
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
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END)
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                            WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.src OFFSET 0)
                AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                            WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.dst OFFSET 0));

DROP POLICY "scope limits which graph edges the app deletes" ON scopedb.graph_edges;
CREATE POLICY "scope limits which graph edges the app deletes" ON scopedb.graph_edges
    AS RESTRICTIVE FOR DELETE TO scopedb_app
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

DROP POLICY "owner reads the graph edges of the entered scope" ON scopedb.graph_edges;
CREATE POLICY "owner reads the graph edges of the entered scope" ON scopedb.graph_edges
    AS PERMISSIVE FOR SELECT TO scopedb_owner
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

DROP POLICY "owner deletes the graph edges of the entered scope" ON scopedb.graph_edges;
CREATE POLICY "owner deletes the graph edges of the entered scope" ON scopedb.graph_edges
    AS PERMISSIVE FOR DELETE TO scopedb_owner
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
