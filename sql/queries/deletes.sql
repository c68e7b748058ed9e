-- Deletes (scopedb.deletes). The app holds no DELETE privilege; these functions delete as the owner exactly what
-- the scope's delete policies admit, and refuse (23503) when a row to delete has a dependent the scope hides.

-- name: fragments
SELECT scopedb.delete_fragments(%(project_id)s, %(a0)s::text[]);

-- name: resources
SELECT scopedb.delete_resources(%(project_id)s, %(a0)s::text[]);

-- name: graph_nodes
SELECT scopedb.delete_graph_nodes(%(project_id)s, %(a0)s::text[]);

-- name: graph_edges
SELECT scopedb.delete_graph_edges(%(project_id)s, %(a0)s::text[], %(a1)s::text[], %(a2)s::text[]);

-- name: resource_links
SELECT scopedb.delete_resource_links(%(project_id)s, %(a0)s::text[], %(a1)s::text[]);
