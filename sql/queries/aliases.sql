-- Resource registry reads (scopedb.aliases.DatabaseResourceRegistry). They run inside a scoped session, so RLS
-- decides which projects, resources and links they can see.

-- name: resources_of_projects
SELECT p.name, r.id, r.alias, r.kind
  FROM scopedb.resources AS r
  JOIN scopedb.projects AS p ON p.id = r.project_id
 WHERE p.name = ANY (%(projects)s)
 ORDER BY p.name, r.id;

-- name: descendants
-- The given resources and every resource below them. Links never cross projects (composite foreign keys) and
-- never form cycles (trigger); UNION would end the recursion even if they did.
WITH RECURSIVE down (project_id, id) AS (
    SELECT r.project_id, r.id FROM scopedb.resources AS r WHERE r.id = ANY (%(ids)s)
    UNION
    SELECT l.project_id, l.child_id
      FROM scopedb.resource_links AS l
      JOIN down AS d ON l.project_id = d.project_id AND l.parent_id = d.id
)
SELECT DISTINCT id FROM down ORDER BY id;
