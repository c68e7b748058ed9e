-- Owner-side statements: run by Database.admin() in an admin session (a login that is a member of scopedb_owner),
-- after SET LOCAL ROLE scopedb_owner.

-- name: create_project
-- Creates a project; returns its id.
INSERT INTO scopedb.projects (name) VALUES (%(name)s) RETURNING id;

-- name: create_project_storage
-- Gives a project partitions of its own, moving its rows out of the shared ones
-- (scopedb_private.create_project_storage; idempotent).
SELECT scopedb_private.create_project_storage(%(project_id)s);

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

-- name: delete_project
-- Removes a project and, by cascade, everything in it (its own partitions, if it has them, are then dropped by
-- maintain_storage).
DELETE FROM scopedb.projects WHERE name = %(name)s RETURNING id;

-- name: project_ids_by_name
-- The ids of the named projects that exist.
SELECT p.name, p.id FROM scopedb.projects AS p WHERE p.name = ANY (%(names)s::text[]);

-- name: create_search_group
-- Declares a search group of the given projects (scopedb_private.search_groups); returns its id. The maintenance
-- step fills its copy and builds its index; until then searches do not use it.
WITH g AS (INSERT INTO scopedb_private.search_groups (name) VALUES (%(name)s) RETURNING id),
     m AS (INSERT INTO scopedb_private.search_group_members (project_id, group_id)
           SELECT p.id, g.id FROM g CROSS JOIN pg_catalog.unnest(%(project_ids)s::bigint[]) AS p (id))
SELECT g.id FROM g;

-- name: drop_search_group
-- Removes a search group; its partition is then detached and dropped by the maintenance step.
DELETE FROM scopedb_private.search_groups AS g WHERE g.name = %(name)s RETURNING g.id;

-- name: search_groups
-- Every search group, by name, with its members' names and its state (declared, filled or ready).
SELECT g.id, g.name, g.state,
       ARRAY(SELECT p.name FROM scopedb_private.search_group_members AS m
               JOIN scopedb.projects AS p ON p.id = m.project_id
              WHERE m.group_id = g.id ORDER BY p.name) AS projects
  FROM scopedb_private.search_groups AS g
 ORDER BY g.name;

-- name: storage_plan
-- What per-project storage needs now (scopedb_private.storage_plan): each row an action and its statement.
SELECT project_id, action, statement, row_count
  FROM scopedb_private.storage_plan(%(threshold)s, %(online)s, %(projects)s::bigint[]);

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

-- name: audit_role
-- The role the audit runs as: scopedb_auditor when the login may become it, else scopedb_owner (NULL: neither).
SELECT CASE WHEN pg_catalog.pg_has_role('scopedb_auditor', 'SET') THEN 'scopedb_auditor'
            WHEN pg_catalog.pg_has_role('scopedb_owner', 'SET') THEN 'scopedb_owner' END;

-- name: audit_machinery
-- The audit, read without trusting it: the functions and relations of scopedb_audit described exactly as
-- scopedb_audit.installed_facts() describes them, and the digest of the manifest table, computed here rather than
-- by functions that could have been changed to agree. scopedb/manifest.py compares these rows with the manifest
-- this installation ships (sql/08_manifest.sql). Keep the formats in step with installed_facts(): the tests compare
-- the two readings on a clean database.
SELECT 'function', f.oid::pg_catalog.regprocedure::text,
       pg_catalog.format('owner=%s definer=%s leakproof=%s volatile=%s strict=%s config=%s returns=%s body=%s',
                         pg_catalog.pg_get_userbyid(f.proowner), f.prosecdef, f.proleakproof, f.provolatile::text,
                         f.proisstrict,
                         COALESCE((SELECT pg_catalog.string_agg(c, ',' ORDER BY c) FROM pg_catalog.unnest(f.proconfig) AS c),
                                  '-'),
                         pg_catalog.pg_get_function_result(f.oid),
                         pg_catalog.md5(COALESCE(NULLIF(f.prosrc, ''), pg_catalog.pg_get_function_sqlbody(f.oid), '')))
  FROM pg_catalog.pg_proc AS f
 WHERE f.pronamespace = 'scopedb_audit'::pg_catalog.regnamespace
UNION ALL
SELECT 'table', 'scopedb_audit.' || c.relname,
       pg_catalog.format('kind=%s owner=%s rls=%s forced=%s', c.relkind::text, pg_catalog.pg_get_userbyid(c.relowner),
                         c.relrowsecurity, c.relforcerowsecurity)
           || CASE WHEN c.relkind IN ('v', 'm') THEN ' definition=' || pg_catalog.md5(pg_catalog.pg_get_viewdef(c.oid))
                   ELSE '' END
  FROM pg_catalog.pg_class AS c
 WHERE c.relnamespace = 'scopedb_audit'::pg_catalog.regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
UNION ALL
SELECT 'digest', 'scopedb_audit.manifest',
       pg_catalog.md5(COALESCE(pg_catalog.string_agg(m.kind || pg_catalog.chr(31) || m.object || pg_catalog.chr(31)
                                                     || m.fact, pg_catalog.chr(30)
                                                     ORDER BY m.kind COLLATE "C", m.object COLLATE "C"), ''))
  FROM scopedb_audit.manifest AS m;

-- name: protect_table
-- Protects a service's table with the scope (sql/04_protected_tables.sql); returns its qualified name. Runs as the
-- login itself, not scopedb_owner: changing the table's policies needs its owner.
SELECT scopedb.protect_table(%(table)s, %(project_column)s, %(resource_column)s, %(path_column)s, %(name_column)s,
                             %(allow_delete)s)::text;

-- name: unprotect_table
-- The undo of protect_table: false when scopedb had no record of protecting the table.
SELECT scopedb.unprotect_table(%(table)s);

-- name: protected_table_names
-- (schema, table) of each recorded service table, unquoted: what scopedb.alembic's autogenerate compares models with.
SELECT (pg_catalog.parse_ident(relation))[1], (pg_catalog.parse_ident(relation))[2]
  FROM scopedb_audit.service_tables;

-- name: protected_tables
-- The service tables protect_table has recorded, by name.
SELECT relation, project_column, resource_column, path_column, name_column, allow_delete
  FROM scopedb_audit.service_tables
 ORDER BY relation;
