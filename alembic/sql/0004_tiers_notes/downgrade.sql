-- Revision 0004 down: drop notes and the tier archive.
SET ROLE scopedb_owner;
DROP TRIGGER fragments_keep_original ON scopedb.fragments;
DROP FUNCTION scopedb_private.sweep_notes();
DROP FUNCTION scopedb.forget_note(text, text);
DROP FUNCTION scopedb.fetch_notes(text[]);
DROP FUNCTION scopedb.search_notes(text, text, integer, integer);
DROP FUNCTION scopedb_private.note_is_live(scopedb.notes);
DROP FUNCTION scopedb_private.keep_original_content();
DROP TABLE scopedb.note_tombstones;
DROP TABLE scopedb.notes;
DROP TABLE scopedb_private.fragment_originals;
DROP INDEX scopedb.fragments_tier_lru_idx;
ALTER TABLE scopedb.fragments DROP COLUMN created_by;
RESET ROLE;
