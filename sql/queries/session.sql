-- Statements of a scoped transaction (Database.scoped). They run as scopedb_app; RLS decides every row.

-- name: enter_scope
-- Returns {"project_ids": [...], "resource_ids": [...] | null, "expires_at": ...}.
SELECT scopedb.enter_scope(%(token)s);

-- name: resolve_scope
-- For the SET LOCAL form (Citus): the resolved token to put into scopedb.scope_token.
SELECT scopedb.resolve_scope(%(token)s);

-- name: resolved_token
-- After enter_scope, in the same pipeline: the resolved token it set, which scopedb reuses for later entries of
-- the same scope while it is valid (scopedb.resolved). Reading a setting needs no privilege.
SELECT pg_catalog.current_setting('scopedb.scope_token');

-- name: reenter_scope
-- Sets a resolved token kept from an earlier entry; the policies verify it on every statement as always.
SELECT pg_catalog.set_config('scopedb.scope_token', %(token)s, true);

-- name: scope_project_ids
-- After SET LOCAL of a resolved token: the project ids it carries (empty when it does not verify).
SELECT coalesce(scopedb.scope_project_ids(), '{}');

-- name: scope_projects
-- The scope's projects as the database resolved them.
SELECT id, name FROM scopedb.projects ORDER BY id;

-- name: insert_fragment
INSERT INTO scopedb.fragments (project_id, id, resource_id, path, fqn, content, embedding, tier, token_count,
                               valid_from, valid_to)
VALUES (%(project_id)s, COALESCE(%(id)s, gen_random_uuid()::text), %(resource_id)s, %(path)s, %(fqn)s,
        %(content)s, %(embedding)s, COALESCE(%(tier)s, 'warm'), COALESCE(%(token_count)s, 0),
        COALESCE(%(valid_from)s, now()), %(valid_to)s)
RETURNING id;
