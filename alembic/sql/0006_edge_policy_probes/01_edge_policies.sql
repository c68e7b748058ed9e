-- Revision 0006: graph edge policies probe the endpoint nodes by key (OFFSET 0 keeps each EXISTS a per-row
-- subplan instead of a hash of every visible node, built on every statement). Same predicate, same rows.
SET ROLE scopedb_owner;
DROP POLICY "scope limits which graph edges the app reads" ON scopedb.graph_edges;
DROP POLICY "scope limits which graph edges the app creates" ON scopedb.graph_edges;
DROP POLICY "scope limits which graph edges the app changes" ON scopedb.graph_edges;
DROP POLICY "scope limits which graph edges the app deletes" ON scopedb.graph_edges;

CREATE POLICY "scope limits which graph edges the app reads" ON scopedb.graph_edges
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                       WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.src OFFSET 0)
           AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                       WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.dst OFFSET 0));
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
           AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                       WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.src OFFSET 0)
           AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                       WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.dst OFFSET 0))
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                            WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.src OFFSET 0)
                AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                            WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.dst OFFSET 0));
CREATE POLICY "scope limits which graph edges the app deletes" ON scopedb.graph_edges
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                       WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.src OFFSET 0)
           AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                       WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.dst OFFSET 0));

RESET ROLE;
