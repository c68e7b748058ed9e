-- Revision 0009: what a second review broke above the SQL, closed where the database has a part in it.
--   * scopedb.role_hazards: why a role (with every role it belongs to) must not run scoped transactions; scopedb
--     judges its application login with it when a pool opens and when a connection first enters a scope.
--   * reenter_scope refuses a kept token whose project names no longer name its projects (a renamed project).
--   * search_notes no longer tells the size of a secret-class note.
SET ROLE scopedb_owner;

CREATE FUNCTION scopedb.role_hazards(target name) RETURNS text[]
LANGUAGE sql
STABLE
SET search_path = pg_catalog, pg_temp
RETURN ARRAY(
    SELECT h.hazard
      FROM (SELECT CASE WHEN r.rolname = target THEN '' ELSE 'through ' || r.rolname || ': ' END
                   || pg_catalog.concat_ws(', ',
                          CASE WHEN r.rolsuper THEN 'SUPERUSER' END,
                          CASE WHEN r.rolbypassrls THEN 'BYPASSRLS' END,
                          CASE WHEN r.rolreplication THEN 'REPLICATION' END,
                          CASE WHEN r.rolcreaterole THEN 'CREATEROLE' END) AS hazard
              FROM pg_catalog.pg_roles AS r
             WHERE (r.rolsuper OR r.rolbypassrls OR r.rolreplication OR r.rolcreaterole)
               AND pg_catalog.pg_has_role(target, r.oid, 'MEMBER')
            UNION ALL
            SELECT 'member of ' || p.rolname
              FROM pg_catalog.pg_roles AS p
             WHERE p.rolname IN ('scopedb_owner', 'pg_read_all_data', 'pg_write_all_data', 'pg_read_server_files',
                                 'pg_write_server_files', 'pg_execute_server_program', 'pg_maintain')
               AND p.rolname <> target
               AND pg_catalog.pg_has_role(target, p.oid, 'MEMBER')) AS h
     ORDER BY 1);
COMMENT ON FUNCTION scopedb.role_hazards(name) IS
    'Why a role (with every role it belongs to) must not run scoped transactions; empty when it may.';
CREATE OR REPLACE FUNCTION scopedb.reenter_scope(resolved text) RETURNS bigint[]
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ids bigint[];
    names text[];
BEGIN
    PERFORM pg_catalog.set_config('scopedb.scope_token', COALESCE(resolved, ''), true);
    PERFORM scopedb_private.pin_settings();
    ids := scopedb.scope_project_ids();
    names := scopedb.scope_project_names();
    -- The owner's policy on projects admits the names of the token in the setting.
    IF (SELECT pg_catalog.count(*) FROM scopedb.projects AS p WHERE p.id = ANY (ids) AND p.name = ANY (names))
       <> pg_catalog.cardinality(ids) THEN
        PERFORM pg_catalog.set_config('scopedb.scope_token', '', true);
        RETURN '{}'::bigint[];
    END IF;
    RETURN ids;
END
$$;
CREATE OR REPLACE FUNCTION scopedb.search_notes(query text, tag_prefix text, max_rows integer, snippet_chars integer)
RETURNS TABLE (project_id bigint, id text, created_at timestamptz, tags text[], content_bytes integer,
               sensitivity text, retention_days integer, provenance_source text, snippet text, truncated boolean)
LANGUAGE sql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT n.project_id, n.id, n.created_at, n.tags,
           CASE WHEN n.sensitivity = 'secret' THEN NULL ELSE pg_catalog.octet_length(n.content) END, n.sensitivity,
           n.retention_days, n.provenance_source,
           CASE WHEN n.sensitivity = 'secret' THEN NULL ELSE pg_catalog."left"(n.content, snippet_chars) END,
           CASE WHEN n.sensitivity = 'secret' THEN NULL ELSE pg_catalog.length(n.content) > snippet_chars END
      FROM scopedb.notes AS n
     WHERE n.project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
       AND scopedb_private.note_is_live(n)
       AND (search_notes.query IS NULL
            OR (n.sensitivity <> 'secret'
                AND pg_catalog.strpos(pg_catalog.lower(n.content), pg_catalog.lower(search_notes.query)) > 0))
       AND (search_notes.tag_prefix IS NULL
            OR EXISTS (SELECT FROM pg_catalog.unnest(n.tags) AS t
                        WHERE pg_catalog."left"(t, pg_catalog.length(search_notes.tag_prefix)) = search_notes.tag_prefix))
     ORDER BY n.created_at DESC, n.id DESC
     LIMIT LEAST(GREATEST(max_rows, 0), 25);
END;
GRANT EXECUTE ON FUNCTION scopedb.role_hazards(name) TO scopedb_app, scopedb_auditor;

RESET ROLE;
