-- Revision 0007 down: the per-row search sync trigger of revision 0003.
SET ROLE scopedb_owner;

DROP TRIGGER fragments_sync_search_insert ON scopedb.fragments;
DROP TRIGGER fragments_sync_search_update ON scopedb.fragments;
DROP FUNCTION scopedb_private.sync_fragment_search();

CREATE FUNCTION scopedb_private.sync_fragment_search() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    INSERT INTO scopedb_private.fragment_search (project_id, id, tsv)
    VALUES (NEW.project_id, NEW.id, NEW.tsv)
    ON CONFLICT ON CONSTRAINT fragment_search_pkey DO UPDATE SET tsv = EXCLUDED.tsv;
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION scopedb_private.sync_fragment_search() IS
    'Copies a fragment''s tsvector into the owner-only full-text index.';

CREATE TRIGGER fragments_sync_search
    AFTER INSERT OR UPDATE OF content ON scopedb.fragments
    FOR EACH ROW EXECUTE FUNCTION scopedb_private.sync_fragment_search();

RESET ROLE;
