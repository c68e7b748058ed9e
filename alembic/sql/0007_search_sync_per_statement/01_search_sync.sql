-- Revision 0007: keep scopedb_private.fragment_search in step once per statement instead of once per row.
-- The per-row trigger cost a SECURITY DEFINER call and a single-row upsert for every fragment (about a fifth of
-- bulk-ingest time); the statement-level triggers below do one set-based upsert from the transition table.
SET ROLE scopedb_owner;

DROP TRIGGER fragments_sync_search ON scopedb.fragments;
DROP FUNCTION scopedb_private.sync_fragment_search();

CREATE FUNCTION scopedb_private.sync_fragment_search() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    -- "changed" is the statement's transition table of new rows (inserted, or updated in any column: a trigger
    -- with a transition table cannot name columns). Rows whose text did not change are skipped by the WHERE.
    INSERT INTO scopedb_private.fragment_search AS s (project_id, id, tsv)
    SELECT c.project_id, c.id, c.tsv FROM changed AS c
    ON CONFLICT ON CONSTRAINT fragment_search_pkey DO UPDATE SET tsv = EXCLUDED.tsv
     WHERE s.tsv IS DISTINCT FROM EXCLUDED.tsv;
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION scopedb_private.sync_fragment_search() IS
    'Copies the tsvectors of a statement''s new or changed fragments into the owner-only full-text index.';

CREATE TRIGGER fragments_sync_search_insert
    AFTER INSERT ON scopedb.fragments
    REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_fragment_search();
CREATE TRIGGER fragments_sync_search_update
    AFTER UPDATE ON scopedb.fragments
    REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_fragment_search();

RESET ROLE;
