-- Revision 0016 (issue 19): graph edges carry copies of their ends' resource, path and name, kept equal to the
-- nodes' values by foreign keys that cascade; the edge policy tests them on the edge row instead of probing
-- graph_nodes twice per edge.

SET ROLE scopedb_owner;

-- A node's path and fqn together must now fit its scope key (graph_nodes_scope_length_check below), which 0015
-- did not ask. Say which nodes do not, rather than fail on the constraint's name alone.
DO $$
DECLARE
    too_long text[];
BEGIN
    SELECT array_agg(format('%s/%s', n.project_id, n.id) ORDER BY n.project_id, n.id) INTO too_long
      FROM (SELECT project_id, id FROM scopedb.graph_nodes
             WHERE octet_length(COALESCE(path, '')) + octet_length(COALESCE(fqn, '')) > 1500
             ORDER BY project_id, id LIMIT 20) AS n;
    IF too_long IS NOT NULL THEN
        RAISE EXCEPTION 'graph nodes whose path and fqn hold more than 1500 bytes together: % (project id/node id, '
                        'at most 20 shown)', array_to_string(too_long, ', ')
            USING HINT = 'Shorten their path or fqn as the owner, then run the migration again.';
    END IF;
END
$$;

-- What the read policy judges a node by, as never-NULL values: the key the edges reference.
ALTER TABLE scopedb.graph_nodes
    ADD COLUMN resource_key text GENERATED ALWAYS AS (COALESCE(resource_id, '')) STORED NOT NULL,
    ADD COLUMN path_key text GENERATED ALWAYS AS (COALESCE(path, '')) STORED NOT NULL,
    ADD COLUMN fqn_key text GENERATED ALWAYS AS (COALESCE(fqn, '')) STORED NOT NULL,
    ADD CONSTRAINT graph_nodes_scope_length_check CHECK (octet_length(path_key) + octet_length(fqn_key) <= 1500),
    ADD CONSTRAINT graph_nodes_scope_key UNIQUE (project_id, id, resource_key, path_key, fqn_key);

-- Copies of what the read policy judges each end by (graph_nodes' *_key columns), so the edge policy tests
-- the edge row itself instead of probing graph_nodes twice per edge. They cannot disagree with the nodes:
-- the foreign keys below include them (a false copy is refused), and cascade every change of a node's
-- resource, path or name to its edges (as referential actions, which row-level security does not filter, so
-- also to the edges the changing scope cannot see). The app cannot update them (sql/05_grants.sql).
ALTER TABLE scopedb.graph_edges
    ADD COLUMN src_resource text,
    ADD COLUMN src_path text,
    ADD COLUMN src_fqn text,
    ADD COLUMN dst_resource text,
    ADD COLUMN dst_path text,
    ADD COLUMN dst_fqn text;
-- As the owner in an admin session (the migrating login): the admin policies admit every node and edge.
UPDATE scopedb.graph_edges AS e
   SET src_resource = s.resource_key, src_path = s.path_key, src_fqn = s.fqn_key,
       dst_resource = d.resource_key, dst_path = d.path_key, dst_fqn = d.fqn_key
  FROM scopedb.graph_nodes AS s, scopedb.graph_nodes AS d
 WHERE s.project_id = e.project_id AND s.id = e.src AND d.project_id = e.project_id AND d.id = e.dst;
ALTER TABLE scopedb.graph_edges
    ALTER COLUMN src_resource SET NOT NULL,
    ALTER COLUMN src_path SET NOT NULL,
    ALTER COLUMN src_fqn SET NOT NULL,
    ALTER COLUMN dst_resource SET NOT NULL,
    ALTER COLUMN dst_path SET NOT NULL,
    ALTER COLUMN dst_fqn SET NOT NULL,
    DROP CONSTRAINT graph_edges_src_fkey,
    DROP CONSTRAINT graph_edges_dst_fkey,
    ADD CONSTRAINT graph_edges_src_fkey FOREIGN KEY (project_id, src, src_resource, src_path, src_fqn)
        REFERENCES scopedb.graph_nodes (project_id, id, resource_key, path_key, fqn_key) ON UPDATE CASCADE,
    ADD CONSTRAINT graph_edges_dst_fkey FOREIGN KEY (project_id, dst, dst_resource, dst_path, dst_fqn)
        REFERENCES scopedb.graph_nodes (project_id, id, resource_key, path_key, fqn_key) ON UPDATE CASCADE;

-- An edge inserted without the copies of its ends' values (graph_edges.src_*, dst_*) gets them here, from the
-- nodes the inserting scope can see: scopedb's own ingest supplies them in its statement, so this runs a lookup
-- only for edges written by hand. It runs with the caller's rights, so a node the caller cannot see leaves the
-- copies empty, and the insert policy refuses the row exactly as it refuses an edge to a node that does not
-- exist. Supplied copies are left as they are: the foreign keys refuse any that differ from the nodes. The trigger
-- fires only for a row missing a copy (its WHEN clause); it keeps the plans of its two lookups for the connection,
-- so its planner settings are pinned like the walks' (sql/04_settings_of_kept_plans.sql).
CREATE FUNCTION scopedb_private.copy_edge_ends() RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF pg_catalog.num_nulls(NEW.src_resource, NEW.src_path, NEW.src_fqn) > 0 THEN
        SELECT n.resource_key, n.path_key, n.fqn_key
          INTO NEW.src_resource, NEW.src_path, NEW.src_fqn
          FROM scopedb.graph_nodes AS n
         WHERE n.project_id = NEW.project_id AND n.id = NEW.src;
    END IF;
    IF pg_catalog.num_nulls(NEW.dst_resource, NEW.dst_path, NEW.dst_fqn) > 0 THEN
        SELECT n.resource_key, n.path_key, n.fqn_key
          INTO NEW.dst_resource, NEW.dst_path, NEW.dst_fqn
          FROM scopedb.graph_nodes AS n
         WHERE n.project_id = NEW.project_id AND n.id = NEW.dst;
    END IF;
    RETURN NEW;
END
$$;
COMMENT ON FUNCTION scopedb_private.copy_edge_ends() IS
    'Fills an inserted edge''s copies of its ends'' resource, path and name from the nodes the caller can see.';

CREATE TRIGGER graph_edges_copy_ends
    BEFORE INSERT ON scopedb.graph_edges
    FOR EACH ROW
    WHEN (pg_catalog.num_nulls(NEW.src_resource, NEW.src_path, NEW.src_fqn, NEW.dst_resource, NEW.dst_path,
                               NEW.dst_fqn) > 0)
    EXECUTE FUNCTION scopedb_private.copy_edge_ends();

DROP POLICY "app sees nothing until a scope is entered" ON scopedb.graph_edges;
DROP POLICY "scope limits which graph edges the app reads" ON scopedb.graph_edges;
DROP POLICY "scope limits which graph edges the app creates" ON scopedb.graph_edges;
DROP POLICY "scope limits which graph edges the app changes" ON scopedb.graph_edges;
DROP POLICY "scope limits which graph edges the app deletes" ON scopedb.graph_edges;
DROP POLICY "owner administers every row in an admin session" ON scopedb.graph_edges;
DROP POLICY "owner reads the graph edges of the entered scope" ON scopedb.graph_edges;
DROP POLICY "owner deletes the graph edges of the entered scope" ON scopedb.graph_edges;

-- ---------------------------------------------------------------------------------------------------------------
-- graph_edges: in scope when the project is and both endpoints are visible. An edge carries copies of what the
-- node policy judges each end by (resource, path, name: graph_nodes' *_key columns, '' for none), so reading
-- tests the node policy's predicate, applied to both ends, on the edge row itself: no probe of graph_nodes per
-- edge. The copies are kept true by the edge's foreign keys (sql/02_schema.sql): a change to a node cascades to
-- its edges whatever scope made it, and an insert with a false copy is refused. That refusal comes at the end of
-- the statement, after the row has met the unique index, so writes cannot trust the copies: an insert whose
-- copies claimed a hidden end was visible would pass and then collide with the hidden edge of the same key,
-- telling the writer that edge exists. Writes therefore check that both ends are visible by probing graph_nodes
-- (under its own policies), which happens before any index is touched. OFFSET 0 keeps each probe a primary-key
-- lookup instead of a hash of every visible node.
-- ---------------------------------------------------------------------------------------------------------------

CREATE POLICY "app sees nothing until a scope is entered" ON scopedb.graph_edges
    AS PERMISSIVE FOR ALL TO scopedb_app
    USING ((SELECT scopedb.scope_entered()))
    WITH CHECK ((SELECT scopedb.scope_entered()));

CREATE POLICY "scope limits which graph edges the app reads" ON scopedb.graph_edges
    AS RESTRICTIVE FOR SELECT TO scopedb_app
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
CREATE POLICY "scope limits which graph edges the app creates" ON scopedb.graph_edges
    AS RESTRICTIVE FOR INSERT TO scopedb_app
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                            WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.src OFFSET 0)
                AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                            WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.dst OFFSET 0));
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

CREATE POLICY "owner administers every row in an admin session" ON scopedb.graph_edges
    AS PERMISSIVE FOR ALL TO scopedb_owner
    USING ((SELECT scopedb_private.is_admin_session()))
    WITH CHECK ((SELECT scopedb_private.is_admin_session()));
-- For scopedb.delete_graph_edges / delete_graph_nodes: exactly the edges the app's policies admit.
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

RESET ROLE;
