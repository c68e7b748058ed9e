-- Revision 0004: context tiers (the full text of summarised cold fragments, kept aside) and scoped memory notes.
--
-- Bodies are copies of the canonical sql/ of this revision.

SET ROLE scopedb_owner;

ALTER TABLE scopedb.fragments ADD COLUMN created_by text;

CREATE TABLE scopedb_private.fragment_originals (
    project_id   bigint NOT NULL,
    id           text NOT NULL,
    content      text NOT NULL,
    archived_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT fragment_originals_pkey PRIMARY KEY (project_id, id),
    CONSTRAINT fragment_originals_fragment_fkey FOREIGN KEY (project_id, id)
        REFERENCES scopedb.fragments (project_id, id) ON DELETE CASCADE ON UPDATE CASCADE
);
COMMENT ON TABLE scopedb_private.fragment_originals IS
    'Full text of fragments demoted to the cold tier (whose content is then a summary); owner-only.';

CREATE TABLE scopedb.notes (
    project_id          bigint NOT NULL REFERENCES scopedb.projects (id) ON DELETE CASCADE,
    id                  text NOT NULL,
    content             text NOT NULL,
    tags                text[] NOT NULL DEFAULT '{}',
    sensitivity         text NOT NULL DEFAULT 'normal',
    -- NULL: standard retention; otherwise the note expires this many days after it was created.
    retention_days      integer,
    provenance_source   text NOT NULL DEFAULT 'service',
    provenance_session  text,
    created_at          timestamptz NOT NULL DEFAULT now(),
    -- Set (only) by the tombstone trigger; scopedb_app has no UPDATE on notes.
    forgotten_at        timestamptz,
    CONSTRAINT notes_pkey PRIMARY KEY (project_id, id),
    CONSTRAINT notes_id_check CHECK (id ~ '^mem-[0-9a-f]{32}$'),
    CONSTRAINT notes_content_check CHECK (octet_length(content) <= 16384),
    CONSTRAINT notes_sensitivity_check CHECK (sensitivity IN ('normal', 'sensitive', 'secret')),
    CONSTRAINT notes_retention_check CHECK (retention_days BETWEEN 1 AND 10000),
    CONSTRAINT notes_tags_check CHECK (cardinality(tags) <= 64 AND '' <> ALL (tags)),
    CONSTRAINT notes_source_check CHECK (provenance_source <> '' AND length(provenance_source) <= 100)
);
COMMENT ON TABLE scopedb.notes IS
    'Scoped memory notes. The app may insert them and read their metadata, never a body column directly: bodies '
    'come only through scopedb.fetch_notes / search_notes, which withhold secret-class bodies.';

CREATE TABLE scopedb.note_tombstones (
    project_id    bigint NOT NULL,
    note_id       text NOT NULL,
    forgotten_at  timestamptz NOT NULL DEFAULT now(),
    actor         text,
    CONSTRAINT note_tombstones_pkey PRIMARY KEY (project_id, note_id),
    CONSTRAINT note_tombstones_note_fkey FOREIGN KEY (project_id, note_id)
        REFERENCES scopedb.notes (project_id, id) ON DELETE CASCADE
);
COMMENT ON TABLE scopedb.note_tombstones IS
    'Append-only record of forgotten notes; the retention sweep removes a note and its tombstone together.';

CREATE INDEX fragments_tier_lru_idx ON scopedb.fragments (project_id, tier, last_accessed_at);
CREATE INDEX notes_created_idx ON scopedb.notes (project_id, created_at DESC);

ALTER TABLE scopedb.notes ENABLE ROW LEVEL SECURITY;
ALTER TABLE scopedb.notes FORCE ROW LEVEL SECURITY;
ALTER TABLE scopedb.note_tombstones ENABLE ROW LEVEL SECURITY;
ALTER TABLE scopedb.note_tombstones FORCE ROW LEVEL SECURITY;


-- Demotion to cold may replace a fragment's content with a summary; keep the full text aside (owner-only) and put
-- it back when the fragment is promoted out of cold.
CREATE FUNCTION scopedb_private.keep_original_content() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF NEW.tier = 'cold' AND OLD.tier <> 'cold' AND NEW.content IS DISTINCT FROM OLD.content THEN
        INSERT INTO scopedb_private.fragment_originals (project_id, id, content)
        VALUES (OLD.project_id, OLD.id, OLD.content)
        ON CONFLICT ON CONSTRAINT fragment_originals_pkey DO UPDATE
            SET content = EXCLUDED.content, archived_at = EXCLUDED.archived_at;
    ELSIF OLD.tier = 'cold' AND NEW.tier <> 'cold' THEN
        DELETE FROM scopedb_private.fragment_originals AS o
         WHERE o.project_id = OLD.project_id AND o.id = OLD.id
        RETURNING o.content INTO NEW.content;
        NEW.content := COALESCE(NEW.content, OLD.content);
    END IF;
    RETURN NEW;
END
$$;
COMMENT ON FUNCTION scopedb_private.keep_original_content() IS
    'Archives the full text of a fragment summarised on demotion to cold, and restores it on promotion.';

-- ---------------------------------------------------------------------------------------------------------------
-- Memory notes
-- ---------------------------------------------------------------------------------------------------------------

-- Whether a note is live for callers: not forgotten and not past its retention.
CREATE FUNCTION scopedb_private.note_is_live(n scopedb.notes) RETURNS boolean
LANGUAGE sql
STABLE
SET search_path = pg_catalog, pg_temp
RETURN n.forgotten_at IS NULL
   AND (n.retention_days IS NULL OR n.created_at + pg_catalog.make_interval(days => n.retention_days) > pg_catalog.now());
COMMENT ON FUNCTION scopedb_private.note_is_live(scopedb.notes) IS
    'A note is live until it is forgotten or its retention runs out.';

-- Search notes of the entered scope: one case-insensitive literal substring of the body (never of a secret body)
-- and/or a literal tag prefix, newest first. Returns a snippet (the first `snippet_chars` characters; the caller
-- trims it to its byte budget), never a body, and no snippet at all for secret notes.
CREATE FUNCTION scopedb.search_notes(query text, tag_prefix text, max_rows integer, snippet_chars integer)
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
COMMENT ON FUNCTION scopedb.search_notes(text, text, integer, integer) IS
    'Literal, case-insensitive note search in the entered scope; snippets only, never secret bodies.';

-- Fetch notes by exact id. Every id must be a live note of the entered scope, or the whole call fails with SD404:
-- unknown, foreign-project and forgotten ids are indistinguishable. Secret bodies come back NULL.
CREATE FUNCTION scopedb.fetch_notes(ids text[])
RETURNS TABLE (project_id bigint, id text, created_at timestamptz, tags text[], sensitivity text,
               retention_days integer, provenance_source text, provenance_session text, content text)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    wanted text[] := ARRAY(SELECT DISTINCT i FROM pg_catalog.unnest(ids) AS i);
    found_count integer;
BEGIN
    IF pg_catalog.cardinality(wanted) > 25 THEN
        RAISE EXCEPTION 'fetch is bounded to 25 ids per call' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN QUERY
        SELECT n.project_id, n.id, n.created_at, n.tags, n.sensitivity, n.retention_days, n.provenance_source,
               n.provenance_session, CASE WHEN n.sensitivity = 'secret' THEN NULL ELSE n.content END
          FROM scopedb.notes AS n
         WHERE n.project_id = ANY (scopedb.scope_project_ids())
           AND n.id = ANY (wanted)
           AND scopedb_private.note_is_live(n)
         ORDER BY n.created_at DESC, n.id DESC;
    GET DIAGNOSTICS found_count = ROW_COUNT;
    IF found_count <> pg_catalog.cardinality(wanted) THEN
        RAISE EXCEPTION 'memory record not found' USING ERRCODE = 'SD404';
    END IF;
END
$$;
COMMENT ON FUNCTION scopedb.fetch_notes(text[]) IS
    'Notes by exact id in the entered scope; all or nothing; secret bodies withheld.';

-- Forget a live note of the entered scope: append a tombstone. The same SD404 as a fetch for anything else.
CREATE FUNCTION scopedb.forget_note(note_id text, actor text) RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    target scopedb.notes;
BEGIN
    SELECT n.* INTO target
      FROM scopedb.notes AS n
     WHERE n.project_id = ANY (scopedb.scope_project_ids()) AND n.id = note_id AND scopedb_private.note_is_live(n)
       FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'memory record not found' USING ERRCODE = 'SD404';
    END IF;
    INSERT INTO scopedb.note_tombstones (project_id, note_id, actor) VALUES (target.project_id, target.id, actor);
    UPDATE scopedb.notes AS n SET forgotten_at = pg_catalog.now()
     WHERE n.project_id = target.project_id AND n.id = target.id;
END
$$;
COMMENT ON FUNCTION scopedb.forget_note(text, text) IS
    'Tombstones a note of the entered scope; later searches and fetches no longer see it.';

-- The retention sweep (owner-side): physically removes expired and forgotten notes, with their tombstones, in
-- every project, and says how many of each it removed.
CREATE FUNCTION scopedb_private.sweep_notes(OUT expired integer, OUT forgotten integer)
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    DELETE FROM scopedb.notes AS n WHERE n.forgotten_at IS NOT NULL;
    GET DIAGNOSTICS forgotten = ROW_COUNT;
    DELETE FROM scopedb.notes AS n
     WHERE n.retention_days IS NOT NULL
       AND n.created_at + pg_catalog.make_interval(days => n.retention_days) <= pg_catalog.now();
    GET DIAGNOSTICS expired = ROW_COUNT;
END
$$;
COMMENT ON FUNCTION scopedb_private.sweep_notes() IS
    'Deletes expired and forgotten notes (and their tombstones); run from an admin session or `scopedb sweep`.';

CREATE TRIGGER fragments_keep_original
    BEFORE UPDATE OF tier ON scopedb.fragments
    FOR EACH ROW EXECUTE FUNCTION scopedb_private.keep_original_content();

-- ---------------------------------------------------------------------------------------------------------------
-- notes: the app reads live notes (not forgotten, not expired) of its projects — metadata only, since its SELECT
-- privilege does not include the content column — and inserts notes into its projects. Bodies, search, forget:
-- SECURITY DEFINER functions, which read as the owner under the owner's scope policies below.
-- ---------------------------------------------------------------------------------------------------------------

CREATE POLICY "app sees nothing until a scope is entered" ON scopedb.notes
    AS PERMISSIVE FOR ALL TO scopedb_app
    USING ((SELECT scopedb.scope_entered()))
    WITH CHECK ((SELECT scopedb.scope_entered()));

CREATE POLICY "scope limits which notes the app reads" ON scopedb.notes
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND forgotten_at IS NULL
           AND (retention_days IS NULL OR created_at + make_interval(days => retention_days) > now()));
CREATE POLICY "scope limits which notes the app creates" ON scopedb.notes
    AS RESTRICTIVE FOR INSERT TO scopedb_app
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[]) AND forgotten_at IS NULL);
CREATE POLICY "scope limits which notes the app changes" ON scopedb.notes
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[]))
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[]));
CREATE POLICY "scope limits which notes the app deletes" ON scopedb.notes
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[]));

CREATE POLICY "owner administers every row in an admin session" ON scopedb.notes
    AS PERMISSIVE FOR ALL TO scopedb_owner
    USING ((SELECT scopedb_private.is_admin_session()))
    WITH CHECK ((SELECT scopedb_private.is_admin_session()));
-- For scopedb.search_notes / fetch_notes / forget_note, which run as the owner for the app.
CREATE POLICY "owner reads the notes of the entered scope" ON scopedb.notes
    AS PERMISSIVE FOR SELECT TO scopedb_owner
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[]));
CREATE POLICY "owner marks notes of the entered scope forgotten" ON scopedb.notes
    AS PERMISSIVE FOR UPDATE TO scopedb_owner
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[]))
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[]));

-- ---------------------------------------------------------------------------------------------------------------
-- note_tombstones: written only by scopedb.forget_note (as the owner). The app holds no privilege on the table; the
-- restrictive policies exist so that a careless GRANT cannot open it.
-- ---------------------------------------------------------------------------------------------------------------

CREATE POLICY "app sees nothing until a scope is entered" ON scopedb.note_tombstones
    AS PERMISSIVE FOR ALL TO scopedb_app
    USING ((SELECT scopedb.scope_entered()))
    WITH CHECK ((SELECT scopedb.scope_entered()));

CREATE POLICY "scope limits which tombstones the app reads" ON scopedb.note_tombstones
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[]));
CREATE POLICY "scope limits which tombstones the app creates" ON scopedb.note_tombstones
    AS RESTRICTIVE FOR INSERT TO scopedb_app
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[]));
CREATE POLICY "scope limits which tombstones the app changes" ON scopedb.note_tombstones
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[]))
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[]));
CREATE POLICY "scope limits which tombstones the app deletes" ON scopedb.note_tombstones
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[]));

CREATE POLICY "owner administers every row in an admin session" ON scopedb.note_tombstones
    AS PERMISSIVE FOR ALL TO scopedb_owner
    USING ((SELECT scopedb_private.is_admin_session()))
    WITH CHECK ((SELECT scopedb_private.is_admin_session()));
CREATE POLICY "owner records tombstones in the entered scope" ON scopedb.note_tombstones
    AS PERMISSIVE FOR INSERT TO scopedb_owner
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[]));

REVOKE ALL ON scopedb.notes, scopedb.note_tombstones FROM PUBLIC;
REVOKE ALL ON scopedb_private.fragment_originals FROM PUBLIC;
GRANT SELECT (project_id, id, tags, sensitivity, retention_days, provenance_source, provenance_session, created_at,
              forgotten_at) ON scopedb.notes TO scopedb_app;
GRANT INSERT (project_id, id, content, tags, sensitivity, retention_days, provenance_source, provenance_session)
    ON scopedb.notes TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.search_notes(text, text, integer, integer) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.fetch_notes(text[]) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.forget_note(text, text) TO scopedb_app;

RESET ROLE;
