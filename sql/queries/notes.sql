-- Memory notes (scopedb.notes). Run as scopedb_app in a scoped transaction; bodies only through the functions.

-- name: store
INSERT INTO scopedb.notes (project_id, id, content, tags, sensitivity, retention_days, provenance_source,
                           provenance_session)
VALUES (%(project_id)s, %(id)s, %(content)s, %(tags)s, %(sensitivity)s, %(retention_days)s, %(source)s,
        %(session)s);

-- name: search
SELECT project_id, id, created_at, tags, content_bytes, sensitivity, retention_days, provenance_source, snippet,
       truncated
  FROM scopedb.search_notes(%(query)s, %(tag_prefix)s, %(limit)s, %(snippet_chars)s);

-- name: fetch
SELECT project_id, id, created_at, tags, sensitivity, retention_days, provenance_source, provenance_session, content
  FROM scopedb.fetch_notes(%(ids)s);

-- name: forget
SELECT scopedb.forget_note(%(id)s, %(actor)s);
