-- Retrieval statements (scopedb.backends.postgres). They run as scopedb_app inside a scoped transaction, so RLS
-- filters every table they touch. Each also repeats the scope's project ids as an explicit predicate
-- (%(projects)s), which lets the planner use partial indexes and partition pruning; RLS stays the guarantee.
-- Probes by primary key of an unpartitioned table (rows reached from a row already in scope) leave it out.

-- name: search_text
-- Candidates, with their rows, come from scopedb.text_candidates (the scope's partitions' GIN indexes and the
-- scope applied to the full-text copy; the best few joined to the fragments under the owner's policy for the
-- entered scope, which is the app's read policy); snippets are made here, for the page asked for only.
WITH q AS (SELECT pg_catalog.websearch_to_tsquery(%(config)s::regconfig, %(query)s) AS query)
SELECT c.project_id, c.id, c.resource_id, c.path, c.fqn, c.content, c.rank,
       pg_catalog.ts_headline(%(config)s::regconfig, c.content, q.query, %(headline)s) AS snippet
  FROM q
 CROSS JOIN LATERAL scopedb.text_candidates(q.query, %(max_rows)s) AS c
 ORDER BY c.rank DESC, c.project_id, c.id
OFFSET %(offset)s
 LIMIT %(limit)s;

-- name: nearest
-- The k nearest fragments (scopedb.nearest_fragments: per-project HNSW where built, exact elsewhere, and the
-- exact answer whenever the index one is short), in a stable order.
SELECT n.project_id, n.id, n.resource_id, n.path, n.fqn, n.content, n.distance, n.used_index
  FROM scopedb.nearest_fragments(%(embedding)s::vector, %(limit)s, %(projects)s, %(metric)s, %(exact)s,
                                 %(ef_search)s, %(max_scan_tuples)s) AS n
 ORDER BY n.distance, n.project_id, n.id;

-- name: graph_walk
-- k-hop neighbourhood: every node reachable from the start nodes in at most %(depth)s steps, with its details, and
-- the edge it was reached by (NULL for a start node). A node is (project_id, id): the walk carries both, and an
-- edge joins nodes of its own project only. The recursive step joins graph_nodes, so the walk never enters (nor
-- returns the id of) a node the scope hides; graph_edges' own policy hides edges with a hidden endpoint. The
-- LATERAL subqueries, fenced with OFFSET 0, fix the join order (walk -> its out-edges by key -> their target by
-- key): under RLS the planner's row estimates are blind, and left alone it scanned every node of the project per
-- step.
WITH RECURSIVE walk (project_id, node, depth, src, relation) AS (
    SELECT n.project_id, n.id, 0, NULL::text, NULL::text
      FROM scopedb.graph_nodes AS n
     WHERE n.project_id = ANY (%(projects)s) AND n.id = ANY (%(start)s)
    UNION ALL
    SELECT step.project_id, step.dst, w.depth + 1, step.src, step.relation
      FROM walk AS w
     CROSS JOIN LATERAL (
           SELECT e.project_id, e.src, e.dst, e.relation
             FROM scopedb.graph_edges AS e
            WHERE e.project_id = w.project_id AND e.src = w.node
              AND (%(relations)s::text[] IS NULL OR e.relation = ANY (%(relations)s::text[]))
           OFFSET 0) AS step
     CROSS JOIN LATERAL (
           SELECT FROM scopedb.graph_nodes AS n WHERE n.project_id = step.project_id AND n.id = step.dst
           OFFSET 0) AS target
     WHERE w.depth < %(depth)s
) CYCLE project_id, node SET is_cycle USING trail,
reached AS (SELECT DISTINCT project_id, node, src, relation FROM walk)
SELECT r.project_id, r.node, r.src, r.relation, n.kind, n.resource_id, n.label
  FROM reached AS r
 CROSS JOIN LATERAL (
       SELECT g.kind, g.resource_id, g.label
         FROM scopedb.graph_nodes AS g
        WHERE g.project_id = r.project_id AND g.id = r.node
       OFFSET 0) AS n;

-- name: graph_shortest_path
-- The shortest path (fewest edges) from %(source)s to %(target)s through visible nodes and edges.
WITH RECURSIVE walk (project_id, node, depth, path) AS (
    SELECT n.project_id, n.id, 0, ARRAY[n.id]
      FROM scopedb.graph_nodes AS n
     WHERE n.project_id = ANY (%(projects)s) AND n.id = %(source)s
    UNION ALL
    SELECT step.project_id, step.dst, w.depth + 1, w.path || step.dst
      FROM walk AS w
     CROSS JOIN LATERAL (
           SELECT e.project_id, e.dst
             FROM scopedb.graph_edges AS e
            WHERE e.project_id = w.project_id AND e.src = w.node AND e.dst <> ALL (w.path)
              AND (%(relations)s::text[] IS NULL OR e.relation = ANY (%(relations)s::text[]))
           OFFSET 0) AS step
     CROSS JOIN LATERAL (
           SELECT FROM scopedb.graph_nodes AS n WHERE n.project_id = step.project_id AND n.id = step.dst
           OFFSET 0) AS target
     WHERE w.depth < %(max_depth)s
)
SELECT project_id, path FROM walk WHERE node = %(target)s ORDER BY depth, path LIMIT 1;

-- name: graph_nodes_of_kinds
SELECT project_id, id, kind, resource_id, label, path, fqn
  FROM scopedb.graph_nodes
 WHERE project_id = ANY (%(projects)s) AND kind = ANY (%(kinds)s);

-- name: graph_edges_among
-- The edges whose two ends are both among the given nodes, each node a (project id, id) pair: an edge of project
-- b is never reported between nodes of project a that happen to share its ids.
WITH among (project_id, id) AS (
    SELECT * FROM ROWS FROM (pg_catalog.unnest(%(pids)s::bigint[]), pg_catalog.unnest(%(ids)s::text[])))
SELECT e.project_id, e.src, e.relation, e.dst
  FROM scopedb.graph_edges AS e
 WHERE e.project_id = ANY (%(projects)s)
   AND (e.project_id, e.src) IN (SELECT a.project_id, a.id FROM among AS a)
   AND (e.project_id, e.dst) IN (SELECT a.project_id, a.id FROM among AS a);
