-- Revision 0020 down: the write and owner policies, the accessors, text_candidates and protect_table as revision
-- 0019 left them (every protected service table protected again with 0019's protect_table), without
-- scopedb_private.terms_of, text_candidates and nearest_fragments planned whole on every call
-- again, and 0019's manifest.

SET ROLE scopedb_owner;

DROP POLICY "scope limits which resources the app reads" ON scopedb.resources;
CREATE POLICY "scope limits which resources the app reads" ON scopedb.resources
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids) AND (id = ANY ((s.t).resource_filter)) IS NOT FALSE
                        FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

DROP POLICY "scope limits which resources the app creates" ON scopedb.resources;
CREATE POLICY "scope limits which resources the app creates" ON scopedb.resources
    AS RESTRICTIVE FOR INSERT TO scopedb_app
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND (id = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE);

DROP POLICY "scope limits which resources the app changes" ON scopedb.resources;
CREATE POLICY "scope limits which resources the app changes" ON scopedb.resources
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (id = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE)
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND (id = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE);

DROP POLICY "scope limits which resources the app deletes" ON scopedb.resources;
CREATE POLICY "scope limits which resources the app deletes" ON scopedb.resources
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (id = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE);

DROP POLICY "owner deletes the resources of the entered scope" ON scopedb.resources;
CREATE POLICY "owner deletes the resources of the entered scope" ON scopedb.resources
    AS PERMISSIVE FOR DELETE TO scopedb_owner
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (id = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE);

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
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND (ARRAY[parent_id, child_id] <@ (SELECT scopedb.scope_resource_filter())::text[]) IS NOT FALSE);

DROP POLICY "scope limits which resource links the app changes" ON scopedb.resource_links;
CREATE POLICY "scope limits which resource links the app changes" ON scopedb.resource_links
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (ARRAY[parent_id, child_id] <@ (SELECT scopedb.scope_resource_filter())::text[]) IS NOT FALSE)
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND (ARRAY[parent_id, child_id] <@ (SELECT scopedb.scope_resource_filter())::text[]) IS NOT FALSE);

DROP POLICY "scope limits which resource links the app deletes" ON scopedb.resource_links;
CREATE POLICY "scope limits which resource links the app deletes" ON scopedb.resource_links
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (ARRAY[parent_id, child_id] <@ (SELECT scopedb.scope_resource_filter())::text[]) IS NOT FALSE);

DROP POLICY "owner deletes the resource links of the entered scope" ON scopedb.resource_links;
CREATE POLICY "owner deletes the resource links of the entered scope" ON scopedb.resource_links
    AS PERMISSIVE FOR DELETE TO scopedb_owner
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (ARRAY[parent_id, child_id] <@ (SELECT scopedb.scope_resource_filter())::text[]) IS NOT FALSE);

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
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
                AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                     OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                         AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                         AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                         AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));

DROP POLICY "scope limits which fragments the app changes" ON scopedb.fragments;
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

DROP POLICY "scope limits which fragments the app deletes" ON scopedb.fragments;
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

DROP POLICY "owner searches the fragments of the entered scope" ON scopedb.fragments;
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

DROP POLICY "owner deletes the fragments of the entered scope" ON scopedb.fragments;
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
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
                AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                     OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                         AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                         AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                         AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));

DROP POLICY "scope limits which graph nodes the app changes" ON scopedb.graph_nodes;
CREATE POLICY "scope limits which graph nodes the app changes" ON scopedb.graph_nodes
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
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

DROP POLICY "scope limits which graph nodes the app deletes" ON scopedb.graph_nodes;
CREATE POLICY "scope limits which graph nodes the app deletes" ON scopedb.graph_nodes
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
           AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));

DROP POLICY "owner reads the graph nodes of the entered scope" ON scopedb.graph_nodes;
CREATE POLICY "owner reads the graph nodes of the entered scope" ON scopedb.graph_nodes
    AS PERMISSIVE FOR SELECT TO scopedb_owner
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
           AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));

DROP POLICY "owner deletes the graph nodes of the entered scope" ON scopedb.graph_nodes;
CREATE POLICY "owner deletes the graph nodes of the entered scope" ON scopedb.graph_nodes
    AS PERMISSIVE FOR DELETE TO scopedb_owner
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE
           AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                OR ((COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (COALESCE(path, '') ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (COALESCE(fqn, '') ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));

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
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (ARRAY[src_resource, dst_resource] <@ (SELECT scopedb.scope_resource_filter())::text[]) IS NOT FALSE
           AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                OR ((src_path ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (dst_path ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (src_path ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (dst_path ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (src_fqn ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (dst_fqn ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (src_fqn ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE
                    AND (dst_fqn ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)))
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                            WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.src OFFSET 0)
                AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                            WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.dst OFFSET 0));

DROP POLICY "scope limits which graph edges the app deletes" ON scopedb.graph_edges;
CREATE POLICY "scope limits which graph edges the app deletes" ON scopedb.graph_edges
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (ARRAY[src_resource, dst_resource] <@ (SELECT scopedb.scope_resource_filter())::text[]) IS NOT FALSE
           AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                OR ((src_path ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (dst_path ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (src_path ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (dst_path ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (src_fqn ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (dst_fqn ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (src_fqn ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE
                    AND (dst_fqn ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));

DROP POLICY "owner reads the graph edges of the entered scope" ON scopedb.graph_edges;
CREATE POLICY "owner reads the graph edges of the entered scope" ON scopedb.graph_edges
    AS PERMISSIVE FOR SELECT TO scopedb_owner
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (ARRAY[src_resource, dst_resource] <@ (SELECT scopedb.scope_resource_filter())::text[]) IS NOT FALSE
           AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                OR ((src_path ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (dst_path ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (src_path ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (dst_path ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (src_fqn ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (dst_fqn ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (src_fqn ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE
                    AND (dst_fqn ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));

DROP POLICY "owner deletes the graph edges of the entered scope" ON scopedb.graph_edges;
CREATE POLICY "owner deletes the graph edges of the entered scope" ON scopedb.graph_edges
    AS PERMISSIVE FOR DELETE TO scopedb_owner
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (ARRAY[src_resource, dst_resource] <@ (SELECT scopedb.scope_resource_filter())::text[]) IS NOT FALSE
           AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE
                OR ((src_path ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (dst_path ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE
                    AND (src_path ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (dst_path ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE
                    AND (src_fqn ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (dst_fqn ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE
                    AND (src_fqn ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE
                    AND (dst_fqn ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE)));

CREATE OR REPLACE FUNCTION scopedb.scope_terms() RETURNS scopedb.scope_terms
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c scopedb_private.scope_claims := scopedb_private.verified_claims();
BEGIN
    IF c IS NULL OR c.project_ids IS NULL THEN
        -- No projects, no instant, no resource, patterns checked, includes that admit nothing and excludes that
        -- exclude everything: each term fails closed on its own.
        RETURN ROW('{}'::bigint[], '-infinity'::timestamptz, '{}'::text[], true, '{}'::text[], ARRAY['']::text[],
                   '{}'::text[], ARRAY['']::text[])::scopedb.scope_terms;
    END IF;
    RETURN ROW(c.project_ids,
               CASE WHEN c."time" = 'all' THEN NULL
                    WHEN c."time" IS NULL OR c."time" = 'current' THEN pg_catalog.now()
                    ELSE c."time"::timestamptz END,
               c.resource_filter,
               COALESCE(pg_catalog.cardinality(c.path_include), 0) + COALESCE(pg_catalog.cardinality(c.path_exclude), 0)
               + COALESCE(pg_catalog.cardinality(c.name_include), 0) + COALESCE(pg_catalog.cardinality(c.name_exclude), 0)
               > 0,
               scopedb_private.anchored(NULLIF(c.path_include, '{}')),
               scopedb_private.anchored(NULLIF(c.path_exclude, '{}')),
               scopedb_private.anchored(NULLIF(c.name_include, '{}')),
               scopedb_private.anchored(NULLIF(c.name_exclude, '{}')))::scopedb.scope_terms;
END
$$;
COMMENT ON FUNCTION scopedb.scope_terms() IS
    'Every term of the verified scope the read policies test, from one reading of the setting; fails closed.';
ALTER FUNCTION scopedb.scope_terms() SET jit = off;
ALTER FUNCTION scopedb.scope_terms() SET max_parallel_workers_per_gather = 0;

CREATE OR REPLACE FUNCTION scopedb.scope_whole_project_ids(at_present boolean) RETURNS bigint[]
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c scopedb_private.scope_claims := scopedb_private.verified_claims();
BEGIN
    IF c IS NULL OR c.project_ids IS NULL OR c.resource_filter IS NOT NULL OR c.resources IS NOT NULL
       OR COALESCE(pg_catalog.cardinality(c.denied), 0) > 0
       OR COALESCE(pg_catalog.cardinality(c.path_include), 0) + COALESCE(pg_catalog.cardinality(c.path_exclude), 0)
        + COALESCE(pg_catalog.cardinality(c.name_include), 0) + COALESCE(pg_catalog.cardinality(c.name_exclude), 0) > 0
       OR (at_present IS NOT FALSE AND c."time" IS NOT NULL AND c."time" <> 'current') THEN
        RETURN '{}'::bigint[];
    END IF;
    RETURN c.project_ids;
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
DECLARE
    c scopedb_private.scope_claims := scopedb_private.verified_claims();
BEGIN
    IF c IS NULL OR c.project_ids IS NULL THEN
        RETURN '{}'::text[];
    END IF;
    RETURN c.resource_filter;
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
DECLARE
    c scopedb_private.scope_claims := scopedb_private.verified_claims();
BEGIN
    IF c IS NULL OR c.project_ids IS NULL THEN
        RETURN '-infinity'::timestamptz;
    ELSIF c."time" = 'all' THEN
        RETURN NULL;
    ELSIF c."time" IS NULL OR c."time" = 'current' THEN
        RETURN pg_catalog.now();
    END IF;
    RETURN c."time"::timestamptz;
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
DECLARE
    c scopedb_private.scope_claims := scopedb_private.verified_claims();
BEGIN
    -- No valid scope: true, so the pattern checks run, and their includes ('{}') admit nothing. Every accessor
    -- must fail closed on its own: each is an InitPlan evaluated lazily, when a row first reaches its term, so a
    -- statement that clears the setting part way through (set_config in a function it calls between rows) has
    -- the terms evaluated after that read "no scope" while the earlier ones keep the scope's values. "false"
    -- here let such a statement skip a narrowed scope's patterns (found in a review of revision 0019).
    IF c IS NULL OR c.project_ids IS NULL THEN
        RETURN true;
    END IF;
    RETURN COALESCE(pg_catalog.cardinality(c.path_include), 0) + COALESCE(pg_catalog.cardinality(c.path_exclude), 0)
         + COALESCE(pg_catalog.cardinality(c.name_include), 0) + COALESCE(pg_catalog.cardinality(c.name_exclude), 0)
         > 0;
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
DECLARE
    c scopedb_private.scope_claims := scopedb_private.verified_claims();
BEGIN
    IF c IS NULL OR c.project_ids IS NULL THEN
        RETURN '{}'::text[];
    END IF;
    RETURN scopedb_private.anchored(NULLIF(c.path_include, '{}'));
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
DECLARE
    c scopedb_private.scope_claims := scopedb_private.verified_claims();
BEGIN
    IF c IS NULL OR c.project_ids IS NULL THEN
        RETURN ARRAY['']::text[];  -- the empty pattern matches every path: no valid scope excludes everything (#90)
    END IF;
    RETURN scopedb_private.anchored(NULLIF(c.path_exclude, '{}'));
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
DECLARE
    c scopedb_private.scope_claims := scopedb_private.verified_claims();
BEGIN
    IF c IS NULL OR c.project_ids IS NULL THEN
        RETURN '{}'::text[];
    END IF;
    RETURN scopedb_private.anchored(NULLIF(c.name_include, '{}'));
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
DECLARE
    c scopedb_private.scope_claims := scopedb_private.verified_claims();
BEGIN
    IF c IS NULL OR c.project_ids IS NULL THEN
        RETURN ARRAY['']::text[];  -- the empty pattern matches every name: no valid scope excludes everything (#90)
    END IF;
    RETURN scopedb_private.anchored(NULLIF(c.name_exclude, '{}'));
END
$$;
COMMENT ON FUNCTION scopedb.scope_name_exclude() IS
    'Anchored name exclude patterns of the verified scope; NULL when it has none.';
ALTER FUNCTION scopedb.scope_name_exclude() SET jit = off;
ALTER FUNCTION scopedb.scope_name_exclude() SET max_parallel_workers_per_gather = 0;

-- pgvector's settings (hnsw.*) in nearest_fragments' SET clauses are known only once its library is loaded.
SELECT '[1]'::public.vector;

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
    -- The project ids are constants of the plan, so the planner prunes to the scope's partitions. Over several
    -- partitions the tsquery and the scope's time and resources are read through sub-SELECTs (InitPlans, evaluated
    -- once): as constants, the planner estimated each from every pruned partition's statistics on every call — the
    -- tsquery's lexemes against its most common elements, the time against its histogram — which at nine
    -- partitions cost more than a rare word's search (0.64 ms a call, 0.47 ms so; revision 0018). With the default
    -- estimates it plans as the owner's query that takes the tsquery from a CTE. Over one partition the constants
    -- cost less than the sub-SELECTs (a rare word: 0.38 ms a call against 0.42), so that statement keeps them.
    IF pg_catalog.cardinality(ids) = 1 THEN
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
        RETURN;
    END IF;
    RETURN QUERY
        SELECT s.project_id, s.id, pg_catalog.ts_rank_cd(s.tsv, query) AS rank, s.resource_id, s.path, s.fqn,
               s.content
          FROM scopedb_private.fragment_search AS s
         WHERE s.tsv @@ (SELECT query) AND s.project_id = ANY (ids)
           -- The read policy on scopedb.fragments (sql/04_policies.sql), on the copied columns.
           AND (s.valid_from <= (SELECT as_of) AND (s.valid_to IS NULL OR s.valid_to > (SELECT as_of))) IS NOT FALSE
           AND (COALESCE(s.resource_id, '') = ANY ((SELECT c.resource_filter)::text[])) IS NOT FALSE
           AND (NOT patterns
                OR ((COALESCE(s.path, '') ~ ANY (path_include)) IS NOT FALSE
                    AND (COALESCE(s.path, '') ~ ANY (path_exclude)) IS NOT TRUE
                    AND (COALESCE(s.fqn, '') ~ ANY (name_include)) IS NOT FALSE
                    AND (COALESCE(s.fqn, '') ~ ANY (name_exclude)) IS NOT TRUE))
         ORDER BY 3 DESC, 1, 2   -- by position: the names are also this function's output columns
         LIMIT max_rows;
END
$$;

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

DROP FUNCTION scopedb_private.terms_of(scopedb_private.scope_claims);

CREATE OR REPLACE FUNCTION scopedb.protect_table(
    target text,
    project_column name,
    resource_column name DEFAULT NULL,
    path_column name DEFAULT NULL,
    name_column name DEFAULT NULL,
    allow_delete boolean DEFAULT false
) RETURNS regclass
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    rel regclass := pg_catalog.to_regclass(target);
    cls pg_catalog.pg_class;
    project_att pg_catalog.pg_attribute;
    col name;
    bad text;
    names text[];
    schema_name name;
    predicate text;
    updatable text;
    seq regclass;
BEGIN
    IF rel IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: no such table', target),
            HINT = 'create the table first (and qualify its name with its schema)';
    END IF;
    SELECT * INTO cls FROM pg_catalog.pg_class WHERE oid = rel;
    IF cls.relkind NOT IN ('r', 'p') THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: not a table (relkind %s)', rel, cls.relkind),
            HINT = 'protect the table the view or relation reads';
    END IF;
    schema_name := (SELECT n.nspname FROM pg_catalog.pg_namespace AS n WHERE n.oid = cls.relnamespace);
    IF schema_name IN ('scopedb', 'scopedb_private', 'scopedb_parts', 'scopedb_audit', 'pg_catalog',
                       'information_schema') THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: it belongs to scopedb or the system', rel),
            HINT = 'scopedb''s own tables are protected by its migrations';
    END IF;
    -- Partitions and inheritance: the policies of the table a query names govern the rows of every table below
    -- it, whose own keys and policies protect_table would not have judged. Not supported (yet): refused.
    IF cls.relkind = 'p' OR EXISTS (SELECT FROM pg_catalog.pg_inherits AS i WHERE rel IN (i.inhrelid, i.inhparent)) THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: it is partitioned, a partition, or part of table '
                                        'inheritance (the policies of one table would govern the rows of another)', rel),
            HINT = 'protect a plain table';
    END IF;
    -- Rules run with the table owner's rights (a superuser owner reads past every policy): refused.
    SELECT r.rulename INTO bad FROM pg_catalog.pg_rewrite AS r WHERE r.ev_class = rel ORDER BY 1 LIMIT 1;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: its rule %I runs with the owner''s rights, outside the '
                                        'scope', rel, bad),
            HINT = pg_catalog.format('DROP RULE %I ON %s; (a trigger runs as the caller)', bad, rel);
    END IF;
    -- A policy protect_table did not make would be ANDed (restrictive) or ORed (permissive) with its own, and may
    -- reach roles other than scopedb_app: refused, so that what is recorded is exactly what protect_table made.
    names := scopedb_private.protection_policy_names(rel);
    SELECT p.polname INTO bad FROM pg_catalog.pg_policy AS p
     WHERE p.polrelid = rel AND NOT p.polname = ANY (names) ORDER BY 1 LIMIT 1;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: it has a policy protect_table does not make (%I)', rel, bad),
            HINT = pg_catalog.format('DROP POLICY %I ON %s;', bad, rel);
    END IF;
    -- The application's roles may hold nothing on the table but what protect_table grants: a grant to a role
    -- scopedb_app (or its login) belongs to, or the table's owner being one, reaches around the policies.
    SELECT pg_catalog.pg_get_userbyid(a.grantee) INTO bad
      FROM (SELECT x.grantee FROM pg_catalog.aclexplode(cls.relacl) AS x
            UNION
            SELECT x.grantee FROM pg_catalog.pg_attribute AS att, pg_catalog.aclexplode(att.attacl) AS x
             WHERE att.attrelid = rel AND att.attacl IS NOT NULL) AS a
     WHERE a.grantee NOT IN (0, cls.relowner, 'scopedb_app'::regrole)
       AND EXISTS (SELECT FROM scopedb_audit.app_roles AS r WHERE pg_catalog.pg_has_role(r.oid, a.grantee, 'MEMBER'))
     ORDER BY 1 LIMIT 1;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: role %I, which scopedb_app or its login belongs to, holds '
                                        'privileges on it', rel, bad),
            HINT = pg_catalog.format('REVOKE ALL ON %s FROM %I;', rel, bad);
    END IF;
    -- protect_table's own REVOKE removes only what the owner granted: a privilege another role granted (with a
    -- grant option it holds) to the application or PUBLIC would survive it, so it is refused, naming the grantor.
    SELECT pg_catalog.pg_get_userbyid(a.grantor) INTO bad
      FROM (SELECT x.grantor, x.grantee FROM pg_catalog.aclexplode(cls.relacl) AS x
            UNION
            SELECT x.grantor, x.grantee FROM pg_catalog.pg_attribute AS att, pg_catalog.aclexplode(att.attacl) AS x
             WHERE att.attrelid = rel AND att.attacl IS NOT NULL
            UNION
            SELECT x.grantor, x.grantee
              FROM scopedb_private.owned_sequences(rel) AS q (seq)
              JOIN pg_catalog.pg_class AS sc ON sc.oid = q.seq,
                   pg_catalog.aclexplode(sc.relacl) AS x) AS a
     WHERE a.grantor <> cls.relowner
       AND (a.grantee IN (0, 'scopedb_app'::regrole)
            OR EXISTS (SELECT FROM scopedb_audit.app_roles AS r WHERE pg_catalog.pg_has_role(r.oid, a.grantee, 'MEMBER')))
     ORDER BY 1 LIMIT 1;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: role %I granted the application or PUBLIC privileges on '
                                        'it (or its sequences) that only it can revoke', rel, bad),
            HINT = pg_catalog.format('REVOKE GRANT OPTION FOR ALL ON %s FROM %I CASCADE;', rel, bad);
    END IF;
    IF EXISTS (SELECT FROM scopedb_audit.app_roles AS r WHERE pg_catalog.pg_has_role(r.oid, cls.relowner, 'MEMBER')) THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: scopedb_app or its login can act as its owner %I', rel,
                                        pg_catalog.pg_get_userbyid(cls.relowner)),
            HINT = 'give the table an owner the application cannot become';
    END IF;

    SELECT * INTO project_att FROM pg_catalog.pg_attribute
     WHERE attrelid = rel AND attname = project_column AND attnum > 0 AND NOT attisdropped;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: it has no column %I', rel, project_column),
            HINT = pg_catalog.format('ALTER TABLE %s ADD COLUMN %I bigint NOT NULL REFERENCES scopedb.projects (id);',
                                     rel, project_column);
    END IF;
    IF project_att.atttypid <> 'bigint'::regtype THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: its project column %I is %s, scopedb''s project ids are bigint',
                                        rel, project_column, project_att.atttypid::regtype),
            HINT = pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I TYPE bigint;', rel, project_column);
    END IF;
    IF NOT project_att.attnotnull THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: its project column %I is nullable (a row without a project '
                                        'is in no scope, and no scope can be shown to own it)', rel, project_column),
            HINT = pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I SET NOT NULL;', rel, project_column);
    END IF;
    SELECT ic.relname INTO bad
      FROM pg_catalog.pg_index AS i
      JOIN pg_catalog.pg_class AS ic ON ic.oid = i.indexrelid
     WHERE i.indrelid = rel AND (i.indisunique OR i.indisexclusion)
       AND NOT project_att.attnum = ANY ((i.indkey::int2[])[0:i.indnkeyatts - 1])
     ORDER BY ic.relname
     LIMIT 1;
    IF bad IS NULL THEN  -- an exclusion constraint must compare the project column with =, not <> or &&
        SELECT con.conname INTO bad
          FROM pg_catalog.pg_constraint AS con
         WHERE con.conrelid = rel AND con.contype = 'x'
           AND NOT EXISTS (SELECT FROM ROWS FROM (pg_catalog.unnest(con.conkey), pg_catalog.unnest(con.conexclop))
                                       AS k (attnum, op)
                             JOIN pg_catalog.pg_operator AS o ON o.oid = k.op
                            WHERE k.attnum = project_att.attnum AND o.oprname = '=')
         ORDER BY 1 LIMIT 1;
    END IF;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: its unique index or exclusion constraint %I does not '
                                        'compare %I by equality (a value unique across projects tells one tenant, by '
                                        'a unique violation, what another holds)',
                                        rel, bad, project_column),
            HINT = pg_catalog.format('make %I part of the key of %I (for a primary key: PRIMARY KEY (%I, ...))',
                                     project_column, bad, project_column);
    END IF;
    -- A foreign key between this table and another protected one (scopedb's, or a service's) must pair the two
    -- project columns: otherwise a row of one project can reference a row of another, and the check (which runs
    -- without row-level security) or a cascade reaches across tenants.
    SELECT con.conname INTO bad
      FROM pg_catalog.pg_constraint AS con
      JOIN scopedb_private.project_columns(rel, project_att.attnum) AS src ON src.relid = con.conrelid
      JOIN scopedb_private.project_columns(rel, project_att.attnum) AS dst ON dst.relid = con.confrelid
     WHERE con.contype = 'f' AND rel IN (con.conrelid, con.confrelid)
       AND NOT EXISTS (SELECT FROM ROWS FROM (pg_catalog.unnest(con.conkey), pg_catalog.unnest(con.confkey)) AS k (a, b)
                        WHERE k.a = src.attnum AND k.b = dst.attnum)
     ORDER BY con.conname
     LIMIT 1;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: its foreign key %I joins rows of different projects (it '
                                        'does not pair %I with the other table''s project column), so its checks and '
                                        'cascades reach across tenants', rel, bad, project_column),
            HINT = pg_catalog.format('make the key pair the project columns: FOREIGN KEY (%I, ...) REFERENCES '
                                     '... (project_id, ...)', project_column);
    END IF;
    FOREACH col IN ARRAY ARRAY[resource_column, path_column, name_column] LOOP
        CONTINUE WHEN col IS NULL;
        IF NOT EXISTS (SELECT FROM pg_catalog.pg_attribute AS a JOIN pg_catalog.pg_type AS t ON t.oid = a.atttypid
                        WHERE a.attrelid = rel AND a.attname = col AND a.attnum > 0 AND NOT a.attisdropped
                          AND t.typcategory = 'S') THEN
            RAISE EXCEPTION USING ERRCODE = 'SD007',
                MESSAGE = pg_catalog.format('cannot protect %s: it has no text column %I', rel, col),
                HINT = 'resource, path and name columns are text (or varchar); leave the argument out if the table has none';
        END IF;
    END LOOP;

    -- The predicate every restrictive policy uses (the fragments' one, without its versions).
    predicate := pg_catalog.format('%I = ANY ((SELECT scopedb.scope_project_ids())::bigint[])', project_column)
        || CASE WHEN resource_column IS NULL
                THEN ' AND (SELECT scopedb.scope_resource_filter()) IS NULL'
                ELSE pg_catalog.format(' AND (COALESCE(%I, '''') = ANY ((SELECT scopedb.scope_resource_filter())::text[]))'
                                       ' IS NOT FALSE', resource_column) END
        || ' AND ((SELECT scopedb.scope_filters_content()) IS NOT TRUE OR ('
        || pg_catalog.format('(%1$s ~ ANY ((SELECT scopedb.scope_path_include())::text[])) IS NOT FALSE'
                             ' AND (%1$s ~ ANY ((SELECT scopedb.scope_path_exclude())::text[])) IS NOT TRUE',
                             CASE WHEN path_column IS NULL THEN ''''''
                                  ELSE pg_catalog.format('COALESCE(%I, '''')', path_column) END)
        || pg_catalog.format(' AND (%1$s ~ ANY ((SELECT scopedb.scope_name_include())::text[])) IS NOT FALSE'
                             ' AND (%1$s ~ ANY ((SELECT scopedb.scope_name_exclude())::text[])) IS NOT TRUE',
                             CASE WHEN name_column IS NULL THEN ''''''
                                  ELSE pg_catalog.format('COALESCE(%I, '''')', name_column) END)
        || '))';

    EXECUTE pg_catalog.format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY', rel);
    PERFORM scopedb_private.drop_protection_policies(rel);
    EXECUTE pg_catalog.format(
        'CREATE POLICY %I ON %s AS PERMISSIVE FOR ALL TO scopedb_app'
        ' USING ((SELECT scopedb.scope_entered())) WITH CHECK ((SELECT scopedb.scope_entered()))', names[1], rel);
    EXECUTE pg_catalog.format('CREATE POLICY %I ON %s AS RESTRICTIVE FOR SELECT TO scopedb_app USING (%s)',
                              names[2], rel, predicate);
    EXECUTE pg_catalog.format('CREATE POLICY %I ON %s AS RESTRICTIVE FOR INSERT TO scopedb_app WITH CHECK (%s)',
                              names[3], rel, predicate);
    EXECUTE pg_catalog.format('CREATE POLICY %I ON %s AS RESTRICTIVE FOR UPDATE TO scopedb_app USING (%s) WITH CHECK (%s)',
                              names[4], rel, predicate, predicate);
    EXECUTE pg_catalog.format('CREATE POLICY %I ON %s AS RESTRICTIVE FOR DELETE TO scopedb_app USING (%s)',
                              names[5], rel, predicate);

    -- Privileges: what a service's requests need, nothing that reaches around the policies or locks the table.
    EXECUTE pg_catalog.format('REVOKE ALL ON %s FROM PUBLIC, scopedb_app', rel);
    EXECUTE pg_catalog.format('GRANT USAGE ON SCHEMA %I TO scopedb_app', schema_name);
    EXECUTE pg_catalog.format('GRANT SELECT, INSERT ON %s TO scopedb_app', rel);
    SELECT pg_catalog.string_agg(pg_catalog.quote_ident(a.attname), ', ' ORDER BY a.attnum) INTO updatable
      FROM pg_catalog.pg_attribute AS a
     WHERE a.attrelid = rel AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
       AND a.attidentity <> 'a' AND a.attname <> project_column
       AND NOT EXISTS (SELECT FROM pg_catalog.pg_index AS i
                        WHERE i.indrelid = rel AND i.indisprimary AND a.attnum = ANY (i.indkey::int2[]));
    IF updatable IS NOT NULL THEN
        EXECUTE pg_catalog.format('GRANT UPDATE (%s) ON %s TO scopedb_app', updatable, rel);
    END IF;
    IF allow_delete THEN
        EXECUTE pg_catalog.format('GRANT DELETE ON %s TO scopedb_app', rel);
    END IF;
    -- A serial column's default calls nextval() as the inserting role, which needs USAGE; an identity column's
    -- does not. Either counter is shared by every tenant (docs/security.md: prefer random keys).
    FOR seq IN SELECT scopedb_private.owned_sequences(rel) LOOP
        EXECUTE pg_catalog.format('REVOKE ALL ON SEQUENCE %s FROM PUBLIC, scopedb_app', seq);
        IF EXISTS (SELECT FROM pg_catalog.pg_depend AS d
                    WHERE d.classid = 'pg_catalog.pg_class'::regclass AND d.objid = seq AND d.deptype = 'a') THEN
            EXECUTE pg_catalog.format('GRANT USAGE ON SEQUENCE %s TO scopedb_app', seq);
        END IF;
    END LOOP;

    -- What the audit will hold the table to.
    DELETE FROM scopedb_audit.service_tables AS s WHERE s.relation = rel::text;
    INSERT INTO scopedb_audit.service_tables (relation, project_column, resource_column, path_column, name_column,
                                              allow_delete)
    VALUES (rel::text, project_column, resource_column, path_column, name_column, allow_delete);
    INSERT INTO scopedb_audit.service_table_facts (relation, kind, object, fact)
    SELECT rel::text, f.kind, f.object, f.fact FROM scopedb_audit.protection_facts(rel) AS f;
    -- The foreign keys just judged are facts of the protected tables at their other ends too: record them there.
    WITH linked AS (
        SELECT s.relation, con.conname || ' on ' || con.conrelid::regclass::text AS object
          FROM pg_catalog.pg_constraint AS con
          JOIN scopedb_audit.service_tables AS s
            ON scopedb_audit.relation_named(s.relation) IN (con.conrelid, con.confrelid)
         WHERE con.contype = 'f' AND rel IN (con.conrelid, con.confrelid) AND s.relation <> rel::text
    ), dropped AS (
        DELETE FROM scopedb_audit.service_table_facts AS f
         USING linked AS l
         WHERE f.relation = l.relation AND f.kind = 'constraint' AND f.object = l.object
    )
    INSERT INTO scopedb_audit.service_table_facts (relation, kind, object, fact)
    SELECT l.relation, f.kind, f.object, f.fact
      FROM linked AS l,
           scopedb_audit.protection_facts(scopedb_audit.relation_named(l.relation)::regclass) AS f
     WHERE f.kind = 'constraint' AND f.object = l.object
    ON CONFLICT ON CONSTRAINT service_table_facts_pkey DO UPDATE SET fact = EXCLUDED.fact;
    RETURN rel;
END
$$;

RESET ROLE;

DO $$
DECLARE
    s record;
    rel regclass;
BEGIN
    FOR s IN SELECT * FROM scopedb_audit.service_tables ORDER BY relation LOOP
        rel := pg_catalog.to_regclass(s.relation);
        CONTINUE WHEN rel IS NULL;  -- gone: the audit reports it (W029)
        BEGIN
            IF NOT pg_catalog.pg_has_role((SELECT c.relowner FROM pg_catalog.pg_class AS c WHERE c.oid = rel),
                                          'USAGE') THEN
                RAISE EXCEPTION 'the migration''s role does not own it' USING ERRCODE = 'insufficient_privilege';
            END IF;
            PERFORM scopedb.protect_table(s.relation, s.project_column, s.resource_column, s.path_column,
                                          s.name_column, s.allow_delete);
        EXCEPTION WHEN insufficient_privilege OR SQLSTATE 'SD007' THEN
            -- Not protected again (not its owner, or the table changed so that protect_table now refuses it): it
            -- keeps the policies it had, which admit what they did, and the audit still compares it with them.
            RAISE WARNING 'scopedb: % keeps the policies of an earlier revision: %', s.relation, SQLERRM
                USING HINT = pg_catalog.format('as its owner, run SELECT scopedb.protect_table(%L, %L, %L, %L, %L, %L)',
                                               s.relation, s.project_column, s.resource_column, s.path_column,
                                               s.name_column, s.allow_delete);
        END;
    END LOOP;
END
$$;

-- scopedb: the manifest of what scopedb installs, generated by `make manifest` from a database migrated to
-- head; do not edit. scopedb_audit.findings compares the live catalog with these facts (lint E020), and
-- `scopedb audit` compares the manifest in the database with this file's digest (E025, scopedb/manifest.py).
-- digest: d0cc66c79046a329ea31047b489e1c9e
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
    ('constraint', 'scopedb_private.project_locks project_locks_pkey', 'PRIMARY KEY (project_id, purpose)'),
    ('constraint', 'scopedb_private.project_locks project_locks_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb_private.project_locks project_locks_purpose_check', 'CHECK ((purpose = ANY (ARRAY[''tiers''::text, ''resource_links''::text])))'),
    ('constraint', 'scopedb_private.project_names_epoch project_names_epoch_one_check', 'CHECK (one)'),
    ('constraint', 'scopedb_private.project_names_epoch project_names_epoch_pkey', 'PRIMARY KEY (one)'),
    ('constraint', 'scopedb_private.signing_keys signing_keys_key_id_check', 'CHECK ((key_id ~ ''^[A-Za-z0-9_-]{1,64}$''::text))'),
    ('constraint', 'scopedb_private.signing_keys signing_keys_pads_check', 'CHECK (((length(inner_pad) = 64) AND (length(outer_pad) = 64)))'),
    ('constraint', 'scopedb_private.signing_keys signing_keys_pkey', 'PRIMARY KEY (key_id)'),
    ('constraint', 'scopedb_private.signing_keys signing_keys_secret_check', 'CHECK (((length(secret) >= 32) AND (length(secret) <= 64)))'),
    ('default_acl', 'scopedb_owner - f to scopedb_owner', 'EXECUTE'),
    ('function', 'scopedb.clean_session()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=5b0204a24a3f9f32724b7e1be7743381'),
    ('function', 'scopedb.delete_fragments(bigint,text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=plan_cache_mode=force_custom_plan,search_path=pg_catalog, pg_temp returns=integer body=7ac6ae14a4a1426fb8292c00581482e4'),
    ('function', 'scopedb.delete_graph_edges(bigint,text[],text[],text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=integer body=1988f10782a12b853829d5a66b154d51'),
    ('function', 'scopedb.delete_graph_nodes(bigint,text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=integer body=8ef43d5edaf4254efe5684ff125ae1be'),
    ('function', 'scopedb.delete_resource_links(bigint,text[],text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=integer body=ac6d03b975fad032fcbb9803be498b7b'),
    ('function', 'scopedb.delete_resources(bigint,text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=plan_cache_mode=force_custom_plan,search_path=pg_catalog, pg_temp returns=integer body=3eacb86ac6cd47c2e8920281665a970b'),
    ('function', 'scopedb.enter_scope(text)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=jsonb body=2cadd5ba58e198ce5c85f2de21a12215'),
    ('function', 'scopedb.fetch_notes(text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=TABLE(project_id bigint, id text, created_at timestamp with time zone, tags text[], sensitivity text, retention_days integer, provenance_source text, provenance_session text, content text) body=7891a21edb469f09c18a86c628c2fed4'),
    ('function', 'scopedb.forget_note(text,text)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=void body=51df128d48d15b98e44fef84fbfa8cde'),
    ('function', 'scopedb.graph_shortest_path(bigint[],text,text,integer,text[])', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,plan_cache_mode=force_generic_plan,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=TABLE(project_id bigint, path text[]) body=15dc29551627a346907b72f62eda37fa'),
    ('function', 'scopedb.graph_walk(bigint[],text[],integer,text[])', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,plan_cache_mode=force_generic_plan,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=TABLE(project_id bigint, node text, src text, relation text, kind text, resource_id text, label text) body=f3afd1a81abba3e3d3b3881dcb3350de'),
    ('function', 'scopedb.lock_project_tiers(bigint)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=void body=4c3a6d398db61de0a69c1f67fc71ded0'),
    ('function', 'scopedb.nearest_fragments(public.vector,integer,bigint[],text,boolean,integer,integer)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=constraint_exclusion=off,enable_partition_pruning=on,enable_sort=on,hnsw.ef_search=20,hnsw.iterative_scan=strict_order,hnsw.max_scan_tuples=20000,plan_cache_mode=force_custom_plan returns=TABLE(project_id bigint, id text, resource_id text, path text, fqn text, content text, distance double precision, used_index boolean) body=b096c3b812694bc8ccbbb6ea643af5df'),
    ('function', 'scopedb.patterns_admit(text,text[],text[])', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=3d40b36009cdce005b127166ed5d4338'),
    ('function', 'scopedb.prepare_session()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=boolean body=589dffedd53405fa67f70699f81ebdad'),
    ('function', 'scopedb.protect_table(text,name,name,name,name,boolean)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=regclass body=ed39e5106b43a17dd718f8687ab9289c'),
    ('function', 'scopedb.reenter_scope(text)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=bigint[] body=1e4f5e3ef341574b0f9a6327ec088bfe'),
    ('function', 'scopedb.resolve_scope(text)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=text body=567840a0e3e9847f81c20e179fa36c4b'),
    ('function', 'scopedb.role_hazards(name)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=5f2432724b312d429f081c8daa276072'),
    ('function', 'scopedb.scope_as_of()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=timestamp with time zone body=6785691d53d0767697bd913794ff9d38'),
    ('function', 'scopedb.scope_entered()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=- returns=boolean body=88213d58f7efcd15d2ce1be911fc3a94'),
    ('function', 'scopedb.scope_filters_content()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=boolean body=1e12a66517a6c5e3949cd877e70e31c4'),
    ('function', 'scopedb.scope_name_exclude()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=6ee9a6a206f432f7d6b8d50b45da8187'),
    ('function', 'scopedb.scope_name_include()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=cba40720195749008b6117a3ce18e02f'),
    ('function', 'scopedb.scope_path_exclude()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=0a9ef89508090af0d01807f0f23664ec'),
    ('function', 'scopedb.scope_path_include()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=d560d493a5564a74a7ea2d2b75bd5ab0'),
    ('function', 'scopedb.scope_project_id()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=bigint body=3bb3909eb127f41a69f1f24336398cf4'),
    ('function', 'scopedb.scope_project_ids()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=bigint[] body=c33c0f4d6511b3f537a1e11251d4dffb'),
    ('function', 'scopedb.scope_project_names()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=be225829bf7762d49db69bad63935d32'),
    ('function', 'scopedb.scope_resource_filter()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=a4facf360e213ef48b0ef013ea89a7fb'),
    ('function', 'scopedb.scope_terms()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=scopedb.scope_terms body=1b2ef7a308c70619c7f285aa7c92cf0f'),
    ('function', 'scopedb.scope_whole_project_ids(boolean)', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=bigint[] body=0220bd4c06a2823ac5d1417f05d14530'),
    ('function', 'scopedb.search_notes(text,text,integer,integer)', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=TABLE(project_id bigint, id text, created_at timestamp with time zone, tags text[], content_bytes integer, sensitivity text, retention_days integer, provenance_source text, snippet text, truncated boolean) body=a841d5376b95dbe6decb5cbebd455149'),
    ('function', 'scopedb.text_candidates(tsquery,integer)', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=constraint_exclusion=off,enable_bitmapscan=on,enable_hashjoin=on,enable_indexscan=on,enable_mergejoin=on,enable_nestloop=on,enable_partition_pruning=on,enable_seqscan=on,enable_sort=on,gin_fuzzy_search_limit=0,jit=off,plan_cache_mode=force_custom_plan,search_path=pg_catalog, pg_temp returns=TABLE(project_id bigint, id text, rank real, resource_id text, path text, fqn text, content text) body=534f52153e636507a71ca853f6702154'),
    ('function', 'scopedb.unprotect_table(text)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=328b49b911002608bd6f947e2e1c08ba'),
    ('function', 'scopedb_audit."check"()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(severity text, code text, object text, message text, fix text) body=7a88ad3d9ffb2615c7e79dc4fdb1aa54'),
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
    ('function', 'scopedb_private.create_project_storage(bigint)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=3c0aa080b40ca1bfc9953111b04006c4'),
    ('function', 'scopedb_private.derive_hmac_pads()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=trigger body=9ff8f62bab6182d9ea7b9f64acdf0e1f'),
    ('function', 'scopedb_private.drop_protection_policies(regclass)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=ddf4d0cb37c22fbaaabc2fd92b122a32'),
    ('function', 'scopedb_private.forget_fragment_copies()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=trigger body=925f21676c2e64557999b3cca195c219'),
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
    ('function', 'scopedb_private.refuse_fragment_key_change()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=trigger body=a8bd87c18b1882e911959b015bf7b6f1'),
    ('function', 'scopedb_private.refuse_resource_cycle()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=trigger body=4d80ad7d91b2dfed4a1e2773a0af566b'),
    ('function', 'scopedb_private.remember_scope(text,scopedb_private.scope_claims,bigint)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=- returns=void body=eaaa026e202935673b5568c8244fb35d'),
    ('function', 'scopedb_private.remembered_claims(text)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=- returns=record body=e8a09047956739fc5264fc592445a36d'),
    ('function', 'scopedb_private.resolve_token(text)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=- returns=record body=6a7e1d838801f6b60941a6a646fa67aa'),
    ('function', 'scopedb_private.retire_signing_key(text,timestamp with time zone)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=b8fac10a96f2f6ea782ca2e01bbad2d7'),
    ('function', 'scopedb_private.rotate_signing_key(interval)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=text body=9f7114b8dac2512691936732ab27fc19'),
    ('function', 'scopedb_private.sign_claims(jsonb)', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=plan_cache_mode=force_generic_plan,search_path=pg_catalog, pg_temp returns=text body=d044600ac5a36cca6febbd1046bd099f'),
    ('function', 'scopedb_private.storage_plan(integer,boolean,bigint[])', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=plan_cache_mode=force_custom_plan,search_path=pg_catalog, pg_temp returns=TABLE(project_id bigint, action text, statement text, row_count bigint) body=b73fa043511a2f34e685812e5fca70bb'),
    ('function', 'scopedb_private.sweep_notes()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=record body=778aac8c64fb4882071989cf29c693b2'),
    ('function', 'scopedb_private.sync_fragment_search()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=trigger body=c959675ca9dc0d1bb66e5710074dd0be'),
    ('function', 'scopedb_private.verified_claims()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=- returns=scopedb_private.scope_claims body=e28cfc48c6c6aa531b6e99019284ec3a'),
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
    ('index', 'scopedb_private.project_locks_pkey', 'CREATE UNIQUE INDEX project_locks_pkey ON scopedb_private.project_locks USING btree (project_id, purpose)'),
    ('index', 'scopedb_private.project_names_epoch_pkey', 'CREATE UNIQUE INDEX project_names_epoch_pkey ON scopedb_private.project_names_epoch USING btree (one)'),
    ('index', 'scopedb_private.signing_keys_pkey', 'CREATE UNIQUE INDEX signing_keys_pkey ON scopedb_private.signing_keys USING btree (key_id)'),
    ('policy', 'scopedb.fragments "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.fragments "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.fragments "owner deletes the fragments of the entered scope"', 'cmd=d permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (((valid_from <= ( SELECT scopedb.scope_as_of() AS scope_as_of)) AND ((valid_to IS NULL) OR (valid_to > ( SELECT scopedb.scope_as_of() AS scope_as_of)))) IS NOT FALSE) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.fragments "owner searches the fragments of the entered scope"', 'cmd=r permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (((valid_from <= ( SELECT scopedb.scope_as_of() AS scope_as_of)) AND ((valid_to IS NULL) OR (valid_to > ( SELECT scopedb.scope_as_of() AS scope_as_of)))) IS NOT FALSE) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.fragments "scope limits which fragments the app changes"', 'cmd=w restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (((valid_from <= ( SELECT scopedb.scope_as_of() AS scope_as_of)) AND ((valid_to IS NULL) OR (valid_to > ( SELECT scopedb.scope_as_of() AS scope_as_of)))) IS NOT FALSE) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE))))'),
    ('policy', 'scopedb.fragments "scope limits which fragments the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE))))'),
    ('policy', 'scopedb.fragments "scope limits which fragments the app deletes"', 'cmd=d restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (((valid_from <= ( SELECT scopedb.scope_as_of() AS scope_as_of)) AND ((valid_to IS NULL) OR (valid_to > ( SELECT scopedb.scope_as_of() AS scope_as_of)))) IS NOT FALSE) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.fragments "scope limits which fragments the app reads"', 'cmd=r restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(true) AS scope_whole_project_ids)::bigint[])) THEN ((valid_from <= now()) AND ((valid_to IS NULL) OR (valid_to > now())))
    ELSE ( SELECT ((fragments.project_id = ANY ((s.t).project_ids)) AND (((fragments.valid_from <= (s.t).as_of) AND ((fragments.valid_to IS NULL) OR (fragments.valid_to > (s.t).as_of))) IS NOT FALSE) AND ((COALESCE(fragments.resource_id, ''''::text) = ANY ((s.t).resource_filter)) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((COALESCE(fragments.path, ''''::text) ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((COALESCE(fragments.path, ''''::text) ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((COALESCE(fragments.fqn, ''''::text) ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((COALESCE(fragments.fqn, ''''::text) ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.graph_edges "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.graph_edges "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.graph_edges "owner deletes the graph edges of the entered scope"', 'cmd=d permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[src_resource, dst_resource] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((src_path ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((dst_path ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((src_path ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((dst_path ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((src_fqn ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((dst_fqn ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((src_fqn ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE) AND ((dst_fqn ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.graph_edges "owner reads the graph edges of the entered scope"', 'cmd=r permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[src_resource, dst_resource] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((src_path ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((dst_path ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((src_path ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((dst_path ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((src_fqn ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((dst_fqn ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((src_fqn ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE) AND ((dst_fqn ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.graph_edges "scope limits which graph edges the app changes"', 'cmd=w restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[src_resource, dst_resource] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((src_path ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((dst_path ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((src_path ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((dst_path ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((src_fqn ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((dst_fqn ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((src_fqn ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE) AND ((dst_fqn ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (EXISTS ( SELECT
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
    ('policy', 'scopedb.graph_edges "scope limits which graph edges the app deletes"', 'cmd=d restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[src_resource, dst_resource] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((src_path ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((dst_path ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((src_path ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((dst_path ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((src_fqn ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((dst_fqn ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((src_fqn ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE) AND ((dst_fqn ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.graph_edges "scope limits which graph edges the app reads"', 'cmd=r restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((graph_edges.project_id = ANY ((s.t).project_ids)) AND ((ARRAY[graph_edges.src_resource, graph_edges.dst_resource] <@ (s.t).resource_filter) IS NOT FALSE) AND (((s.t).filters_content IS NOT TRUE) OR (((graph_edges.src_path ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((graph_edges.dst_path ~ ANY ((s.t).path_include)) IS NOT FALSE) AND ((graph_edges.src_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((graph_edges.dst_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE) AND ((graph_edges.src_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((graph_edges.dst_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE) AND ((graph_edges.src_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE) AND ((graph_edges.dst_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE))))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.graph_nodes "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.graph_nodes "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.graph_nodes "owner deletes the graph nodes of the entered scope"', 'cmd=d permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.graph_nodes "owner reads the graph nodes of the entered scope"', 'cmd=r permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.graph_nodes "scope limits which graph nodes the app changes"', 'cmd=w restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE))))'),
    ('policy', 'scopedb.graph_nodes "scope limits which graph nodes the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE))))'),
    ('policy', 'scopedb.graph_nodes "scope limits which graph nodes the app deletes"', 'cmd=d restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
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
    ('policy', 'scopedb.resource_links "owner deletes the resource links of the entered scope"', 'cmd=d permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[parent_id, child_id] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE)) check=-'),
    ('policy', 'scopedb.resource_links "owner walks the links of the projects of the scope"', 'cmd=r permissive to=scopedb_owner using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=-'),
    ('policy', 'scopedb.resource_links "scope limits which resource links the app changes"', 'cmd=w restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[parent_id, child_id] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE)) check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[parent_id, child_id] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE))'),
    ('policy', 'scopedb.resource_links "scope limits which resource links the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[parent_id, child_id] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE))'),
    ('policy', 'scopedb.resource_links "scope limits which resource links the app deletes"', 'cmd=d restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[parent_id, child_id] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE)) check=-'),
    ('policy', 'scopedb.resource_links "scope limits which resource links the app reads"', 'cmd=r restrictive to=scopedb_app using=
CASE
    WHEN (project_id = ANY (( SELECT scopedb.scope_whole_project_ids(false) AS scope_whole_project_ids)::bigint[])) THEN true
    ELSE ( SELECT ((resource_links.project_id = ANY ((s.t).project_ids)) AND ((ARRAY[resource_links.parent_id, resource_links.child_id] <@ (s.t).resource_filter) IS NOT FALSE))
       FROM ( SELECT ( SELECT scopedb.scope_terms() AS scope_terms) AS t
             OFFSET 0) s)
END check=-'),
    ('policy', 'scopedb.resources "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.resources "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.resources "owner deletes the resources of the entered scope"', 'cmd=d permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((id = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE)) check=-'),
    ('policy', 'scopedb.resources "owner lists the resources of the projects of the scope"', 'cmd=r permissive to=scopedb_owner using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=-'),
    ('policy', 'scopedb.resources "scope limits which resources the app changes"', 'cmd=w restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((id = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE)) check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((id = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE))'),
    ('policy', 'scopedb.resources "scope limits which resources the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((id = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE))'),
    ('policy', 'scopedb.resources "scope limits which resources the app deletes"', 'cmd=d restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((id = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE)) check=-'),
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
    ('table', 'scopedb_private.project_locks', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.project_names_epoch', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.signing_keys', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('trigger', 'scopedb.fragments fragments_fixed_key', 'CREATE TRIGGER fragments_fixed_key BEFORE UPDATE OF project_id, id ON scopedb.fragments FOR EACH ROW EXECUTE FUNCTION scopedb_private.refuse_fragment_key_change()'),
    ('trigger', 'scopedb.fragments fragments_forget_copies', 'CREATE TRIGGER fragments_forget_copies AFTER DELETE ON scopedb.fragments REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.forget_fragment_copies()'),
    ('trigger', 'scopedb.fragments fragments_keep_original', 'CREATE TRIGGER fragments_keep_original BEFORE UPDATE OF tier ON scopedb.fragments FOR EACH ROW EXECUTE FUNCTION scopedb_private.keep_original_content()'),
    ('trigger', 'scopedb.fragments fragments_sync_search_insert', 'CREATE TRIGGER fragments_sync_search_insert AFTER INSERT ON scopedb.fragments REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_fragment_search()'),
    ('trigger', 'scopedb.fragments fragments_sync_search_update', 'CREATE TRIGGER fragments_sync_search_update AFTER UPDATE ON scopedb.fragments REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_fragment_search()'),
    ('trigger', 'scopedb.graph_edges graph_edges_copy_ends', 'CREATE TRIGGER graph_edges_copy_ends BEFORE INSERT ON scopedb.graph_edges FOR EACH ROW WHEN ((num_nulls(new.src_resource, new.src_path, new.src_fqn, new.dst_resource, new.dst_path, new.dst_fqn) > 0)) EXECUTE FUNCTION scopedb_private.copy_edge_ends()'),
    ('trigger', 'scopedb.projects projects_names_epoch', 'CREATE TRIGGER projects_names_epoch AFTER DELETE OR UPDATE OF name ON scopedb.projects FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.move_project_names_epoch()'),
    ('trigger', 'scopedb.projects projects_names_epoch_truncate', 'CREATE TRIGGER projects_names_epoch_truncate AFTER TRUNCATE ON scopedb.projects FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.move_project_names_epoch()'),
    ('trigger', 'scopedb.resource_links resource_links_refuse_cycle', 'CREATE TRIGGER resource_links_refuse_cycle BEFORE INSERT OR UPDATE ON scopedb.resource_links FOR EACH ROW EXECUTE FUNCTION scopedb_private.refuse_resource_cycle()'),
    ('trigger', 'scopedb_private.signing_keys signing_keys_derive_pads', 'CREATE TRIGGER signing_keys_derive_pads BEFORE INSERT OR UPDATE OF secret ON scopedb_private.signing_keys FOR EACH ROW EXECUTE FUNCTION scopedb_private.derive_hmac_pads()');

RESET ROLE;
