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
-- The k nearest fragments (scopedb.nearest_fragments: per-project HNSW where built, exact elsewhere), in a stable
-- order. When the index answer is short the exact one follows it, flagged used_index = false, and the caller
-- (scopedb.retrieval) keeps those rows alone. The embedding is bound in pgvector's binary format
-- (scopedb.vectors.QueryVector).
SELECT n.project_id, n.id, n.resource_id, n.path, n.fqn, n.content, n.distance, n.used_index
  FROM scopedb.nearest_fragments(%(embedding)b::vector, %(limit)s, %(projects)s, %(metric)s, %(exact)s,
                                 %(ef_search)s, %(max_scan_tuples)s) AS n
 ORDER BY n.distance, n.project_id, n.id;

-- name: graph_walk
-- k-hop neighbourhood (scopedb.graph_walk, whose plan the connection keeps): each reached node with its details
-- and the edge it was reached by (NULL for a start node).
SELECT w.project_id, w.node, w.src, w.relation, w.kind, w.resource_id, w.label
  FROM scopedb.graph_walk(%(projects)s, %(start)s, %(depth)s, %(relations)s) AS w;

-- name: graph_shortest_path
-- The shortest path (fewest edges) from %(source)s to %(target)s through visible nodes and edges.
SELECT p.project_id, p.path
  FROM scopedb.graph_shortest_path(%(projects)s, %(source)s, %(target)s, %(max_depth)s, %(relations)s) AS p;

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
