-- Bulk ingest (scopedb.ingest). PostgreSQL refuses COPY FROM into a table with row-level security, so a batch is
-- one INSERT ... SELECT FROM unnest(<typed arrays>): one statement and one round trip per batch, every row still
-- checked by the policies' WITH CHECK. Re-ingesting a key updates the row (idempotent by caller-given id).

-- name: ingest_fragments
INSERT INTO scopedb.fragments AS f
       (project_id, id, resource_id, path, fqn, content, embedding, tier, token_count, valid_from, valid_to)
SELECT u.project_id, u.id, u.resource_id, u.path, u.fqn, u.content, u.embedding,
       COALESCE(u.tier, 'warm'), COALESCE(u.token_count, 0), COALESCE(u.valid_from, now()), u.valid_to
  FROM unnest(%(project_id)s::bigint[], %(id)s::text[], %(resource_id)s::text[], %(path)s::text[],
              %(fqn)s::text[], %(content)s::text[], %(embedding)b::vector[], %(tier)s::text[],
              %(token_count)s::integer[], %(valid_from)s::timestamptz[], %(valid_to)s::timestamptz[])
       AS u (project_id, id, resource_id, path, fqn, content, embedding, tier, token_count, valid_from, valid_to)
ON CONFLICT ON CONSTRAINT fragments_pkey DO UPDATE
   SET resource_id = EXCLUDED.resource_id, path = EXCLUDED.path, fqn = EXCLUDED.fqn,
       content = EXCLUDED.content, embedding = EXCLUDED.embedding, token_count = EXCLUDED.token_count,
       valid_from = EXCLUDED.valid_from, valid_to = EXCLUDED.valid_to;

-- name: ingest_graph_nodes
INSERT INTO scopedb.graph_nodes AS n (project_id, id, resource_id, kind, label, path, fqn)
SELECT * FROM unnest(%(project_id)s::bigint[], %(id)s::text[], %(resource_id)s::text[], %(kind)s::text[],
                     %(label)s::text[], %(path)s::text[], %(fqn)s::text[])
ON CONFLICT ON CONSTRAINT graph_nodes_pkey DO UPDATE
   SET resource_id = EXCLUDED.resource_id, kind = EXCLUDED.kind, label = EXCLUDED.label,
       path = EXCLUDED.path, fqn = EXCLUDED.fqn;

-- name: ingest_graph_edges
-- Each edge carries copies of its ends' resource, path and name (what the edge policy tests), read here from the
-- nodes the scope can see, each by its key (OFFSET 0: the planner, blind under RLS, would otherwise hash every
-- node of the scope); the foreign keys check them against the nodes. An end the scope cannot see (or that does
-- not exist) leaves them empty, and the insert policy refuses the batch.
INSERT INTO scopedb.graph_edges AS e
       (project_id, src, relation, dst, weight, src_resource, src_path, src_fqn, dst_resource, dst_path, dst_fqn)
SELECT u.project_id, u.src, u.relation, u.dst, u.weight,
       s.resource_key, s.path_key, s.fqn_key, d.resource_key, d.path_key, d.fqn_key
  FROM unnest(%(project_id)s::bigint[], %(src)s::text[], %(relation)s::text[], %(dst)s::text[], %(weight)s::real[])
       AS u (project_id, src, relation, dst, weight)
  LEFT JOIN LATERAL (SELECT n.resource_key, n.path_key, n.fqn_key FROM scopedb.graph_nodes AS n
                      WHERE n.project_id = u.project_id AND n.id = u.src OFFSET 0) AS s ON true
  LEFT JOIN LATERAL (SELECT n.resource_key, n.path_key, n.fqn_key FROM scopedb.graph_nodes AS n
                      WHERE n.project_id = u.project_id AND n.id = u.dst OFFSET 0) AS d ON true
ON CONFLICT ON CONSTRAINT graph_edges_pkey DO UPDATE SET weight = EXCLUDED.weight;

-- name: embedding_dimension
-- The width of fragments.embedding, fixed at migration time.
SELECT a.atttypmod FROM pg_catalog.pg_attribute AS a
 WHERE a.attrelid = 'scopedb.fragments'::regclass AND a.attname = 'embedding';
