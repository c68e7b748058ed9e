-- Revision 0003 down: drop the graph tables, the full-text index and the search functions.
SET ROLE scopedb_owner;
DROP POLICY "owner searches the fragments of the entered scope" ON scopedb.fragments;
DROP TRIGGER fragments_sync_search ON scopedb.fragments;
DROP FUNCTION scopedb_private.sync_fragment_search();
DROP FUNCTION scopedb.explain_text_candidates(tsquery, integer);
DROP FUNCTION scopedb.text_candidates(tsquery, integer);
DROP FUNCTION scopedb_private.text_candidates_sql();
DROP TABLE scopedb_private.fragment_search;
DROP TABLE scopedb.graph_edges;
DROP TABLE scopedb.graph_nodes;
RESET ROLE;
