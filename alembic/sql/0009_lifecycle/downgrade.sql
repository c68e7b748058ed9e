-- Revision 0009 down: back to revision 0008.
SET ROLE scopedb_owner;

CREATE OR REPLACE FUNCTION scopedb.reenter_scope(resolved text) RETURNS bigint[]
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM pg_catalog.set_config('scopedb.scope_token', COALESCE(resolved, ''), true);
    PERFORM scopedb_private.pin_settings();
    RETURN scopedb.scope_project_ids();
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
    SELECT n.project_id, n.id, n.created_at, n.tags, pg_catalog.octet_length(n.content), n.sensitivity,
           n.retention_days, n.provenance_source,
           CASE WHEN n.sensitivity = 'secret' THEN NULL ELSE pg_catalog."left"(n.content, snippet_chars) END,
           pg_catalog.length(n.content) > snippet_chars
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
DROP FUNCTION scopedb.role_hazards(name);

RESET ROLE;
