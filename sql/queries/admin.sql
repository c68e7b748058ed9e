-- Owner-side statements: run by Database.admin() in an admin session (a login that is a member of scopedb_owner),
-- after SET LOCAL ROLE scopedb_owner.

-- name: create_project
-- Creates a project; returns its id.
INSERT INTO scopedb.projects (name) VALUES (%(name)s) RETURNING id;

-- name: project_by_name
SELECT id, name FROM scopedb.projects WHERE name = %(name)s;

-- name: list_projects
SELECT id, name FROM scopedb.projects ORDER BY name;

-- name: create_resource
-- Creates a resource in a project; returns it.
INSERT INTO scopedb.resources (project_id, id, alias, kind)
VALUES (%(project_id)s, %(id)s, %(alias)s, %(kind)s)
RETURNING project_id, id, alias, kind;

-- name: resource_by_alias
SELECT r.project_id, r.id, r.alias, r.kind
  FROM scopedb.resources AS r JOIN scopedb.projects AS p ON p.id = r.project_id
 WHERE p.name = %(project)s AND r.alias = %(alias)s;

-- name: link_resources
INSERT INTO scopedb.resource_links (project_id, parent_id, child_id)
VALUES (%(project_id)s, %(parent_id)s, %(child_id)s);

-- name: active_signing_key
-- The newest active key: what new tokens are signed with.
SELECT key_id, secret
  FROM scopedb_private.signing_keys
 WHERE retired_at IS NULL
 ORDER BY created_at DESC, key_id DESC
 LIMIT 1;

-- name: rotate_signing_key
SELECT scopedb_private.rotate_signing_key(%(grace)s::interval) AS key_id;

-- name: retire_signing_key
SELECT scopedb_private.retire_signing_key(%(key_id)s, COALESCE(%(at)s::timestamptz, now()));

-- name: login_hazards
-- Run as scopedb_app (SET [LOCAL] ROLE first: a login that is not a member cannot): why the logged-in role must not
-- run scoped transactions (scopedb.role_hazards, which follows its memberships), and the database (the audience).
SELECT scopedb.role_hazards(session_user), pg_catalog.current_database();

-- name: original_content
SELECT content FROM scopedb_private.fragment_originals WHERE project_id = %(project_id)s AND id = %(id)s;

-- name: sweep_notes
SELECT expired, forgotten FROM scopedb_private.sweep_notes();

-- name: audit
SELECT severity, code, object, message, fix FROM scopedb_audit.findings;
