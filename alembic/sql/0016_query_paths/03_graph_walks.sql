-- Revision 0016 (issue 19): the graph walks run as functions, so each connection keeps their plans instead of
-- planning the walk's policies on every call.

SET ROLE scopedb_owner;

-- ---------------------------------------------------------------------------------------------------------------
-- Graph traversal
-- ---------------------------------------------------------------------------------------------------------------

-- The walks run as functions so that PostgreSQL keeps their plans: a statement scopedb sends is planned on every
-- call (it is sent unprepared, for PgBouncer, and prepared statements end with the transaction), and under RLS
-- planning the walk's policies' subqueries cost more than walking a small scope. The graph tables are not
-- partitioned, so a plan kept for the connection serves every scope: the policies read the scope when the plan
-- runs (their InitPlans), not when it is made. Both run with the caller's rights, so RLS filters every row; the
-- project ids only narrow the start, the policies decide what is visible.
--
-- A kept plan is made once, in whichever transaction first calls the function on the connection (or first after
-- an invalidation, such as an ANALYZE of the graph tables), and then serves every later scope on that pooled
-- connection. So it must not be shaped by that caller: sql/04_settings_of_kept_plans.sql pins the planner's method
-- switches, its cost constants (PostgreSQL's defaults: the walk's shape is fixed by its fences, what is left is
-- key lookups) and plan_cache_mode = force_generic_plan (the plan does not depend on whose parameters came first),
-- and turns off JIT and parallel workers, which a tenant could otherwise switch on for every later walk on the
-- connection (a review of 0016: with `SET LOCAL jit_above_cost = 0` before the first walk, every later walk would
-- compile). Memory (work_mem) is not pinned: it stays the operator's; docs/security.md names what it can still
-- change (time only).

-- k-hop neighbourhood: every node reachable from the start nodes in at most `max_depth` steps, with its details,
-- and the edge it was reached by (NULL for a start node). A node is (project_id, id): the walk carries both, and
-- an edge joins nodes of its own project only. graph_edges' policy admits only edges whose two ends the scope
-- sees, so the walk never enters (nor returns the id of) a hidden node; each step reads the node it enters once,
-- for its details. The LATERAL subqueries, fenced with OFFSET 0, fix the join order (walk -> its out-edges by key
-- -> their target by key): under RLS the planner's row estimates are blind, and left alone it scanned every node
-- of the project per step.
CREATE FUNCTION scopedb.graph_walk(projects bigint[], start text[], max_depth integer, relations text[])
RETURNS TABLE (project_id bigint, node text, src text, relation text, kind text, resource_id text, label text)
LANGUAGE plpgsql
STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN QUERY
    WITH RECURSIVE walk (project_id, node, depth, src, relation, kind, resource_id, label) AS (
        SELECT n.project_id, n.id, 0, NULL::text, NULL::text, n.kind, n.resource_id, n.label
          FROM scopedb.graph_nodes AS n
         WHERE n.project_id = ANY (projects) AND n.id = ANY (start)
        UNION ALL
        SELECT step.project_id, step.dst, w.depth + 1, step.src, step.relation, target.kind, target.resource_id,
               target.label
          FROM walk AS w
         CROSS JOIN LATERAL (
               SELECT e.project_id, e.src, e.dst, e.relation
                 FROM scopedb.graph_edges AS e
                WHERE e.project_id = w.project_id AND e.src = w.node
                  AND (relations IS NULL OR e.relation = ANY (relations))
               OFFSET 0) AS step
         CROSS JOIN LATERAL (
               SELECT n.kind, n.resource_id, n.label
                 FROM scopedb.graph_nodes AS n
                WHERE n.project_id = step.project_id AND n.id = step.dst
               OFFSET 0) AS target
         WHERE w.depth < max_depth
    ) CYCLE project_id, node SET is_cycle USING trail
    SELECT DISTINCT w.project_id, w.node, w.src, w.relation, w.kind, w.resource_id, w.label FROM walk AS w;
END
$$;
COMMENT ON FUNCTION scopedb.graph_walk(bigint[], text[], integer, text[]) IS
    'Nodes reachable from start in at most max_depth visible edges (RLS applies), with the edge each was reached by.';

-- The shortest path (fewest edges) from `source` to `target` through visible nodes and edges, as its project and
-- node ids, or no row. The edge policy admits only edges whose two ends the scope sees, so a step needs no read
-- of the node it enters.
CREATE FUNCTION scopedb.graph_shortest_path(projects bigint[], source text, target text, max_depth integer,
                                            relations text[])
RETURNS TABLE (project_id bigint, path text[])
LANGUAGE plpgsql
STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN QUERY
    WITH RECURSIVE walk (project_id, node, depth, path) AS (
        SELECT n.project_id, n.id, 0, ARRAY[n.id]
          FROM scopedb.graph_nodes AS n
         WHERE n.project_id = ANY (projects) AND n.id = source
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
    SELECT w.project_id, w.path FROM walk AS w WHERE w.node = target ORDER BY w.depth, w.path LIMIT 1;
END
$$;
COMMENT ON FUNCTION scopedb.graph_shortest_path(bigint[], text, text, integer, text[]) IS
    'The shortest path between two nodes through visible nodes and edges (RLS applies), or no row.';

GRANT EXECUTE ON FUNCTION scopedb.graph_walk(bigint[], text[], integer, text[]) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.graph_shortest_path(bigint[], text, text, integer, text[]) TO scopedb_app;

RESET ROLE;
