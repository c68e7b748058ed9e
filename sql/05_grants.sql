-- scopedb: privileges.
--
-- Least privilege, stated positively: PUBLIC gets nothing in scopedb's schemas; scopedb_app gets USAGE on the data
-- schema, the table privileges it needs (RLS then decides which rows), and EXECUTE on the scope functions;
-- scopedb_auditor gets USAGE only (the catalog is readable by everyone; data rows are not granted to it).
-- scopedb_app never gets CREATE on any schema, so it cannot plant a function, operator or view that shadows ours.

SET ROLE scopedb_owner;

REVOKE ALL ON SCHEMA scopedb FROM PUBLIC;
REVOKE ALL ON SCHEMA scopedb_private FROM PUBLIC;
REVOKE ALL ON SCHEMA scopedb_parts FROM PUBLIC;
REVOKE ALL ON ALL TABLES IN SCHEMA scopedb FROM PUBLIC;
REVOKE ALL ON ALL TABLES IN SCHEMA scopedb_private FROM PUBLIC;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA scopedb FROM PUBLIC;
-- Functions are executable by PUBLIC by default; none of ours should be.
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA scopedb FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA scopedb_private FROM PUBLIC;
-- ...including the ones later migrations create.
ALTER DEFAULT PRIVILEGES FOR ROLE scopedb_owner REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;

GRANT USAGE ON SCHEMA scopedb TO scopedb_app, scopedb_auditor;

-- Projects are created by admins; the app only reads the ones its scope names.
--
-- No table-level UPDATE, DELETE or TRUNCATE for the app: PostgreSQL lets any of the three LOCK a whole table in
-- every mode, ACCESS EXCLUSIVE included, and one tenant could then freeze every other tenant's reads for as long as
-- its transaction lived. SELECT allows ACCESS SHARE and INSERT ROW EXCLUSIVE, neither of which blocks a reader or
-- a writer. UPDATE is granted on the columns a scoped transaction may change (never a key: a key change would
-- also be a way to probe hidden rows through foreign keys); column grants do not allow LOCK. Deletes go through
-- the scopedb.delete_* functions (sql/03_functions.sql).
GRANT SELECT ON scopedb.projects TO scopedb_app;
GRANT SELECT, INSERT ON scopedb.resources TO scopedb_app;
GRANT UPDATE (alias, kind) ON scopedb.resources TO scopedb_app;
GRANT SELECT, INSERT ON scopedb.resource_links TO scopedb_app;
GRANT SELECT, INSERT ON scopedb.fragments TO scopedb_app;
GRANT UPDATE (resource_id, path, fqn, content, embedding, tier, token_count, last_accessed_at, valid_from, valid_to,
              created_by) ON scopedb.fragments TO scopedb_app;
GRANT SELECT, INSERT ON scopedb.graph_nodes TO scopedb_app;
GRANT UPDATE (resource_id, kind, label, path, fqn, properties) ON scopedb.graph_nodes TO scopedb_app;
GRANT SELECT, INSERT ON scopedb.graph_edges TO scopedb_app;
GRANT UPDATE (weight) ON scopedb.graph_edges TO scopedb_app;
-- Notes: metadata only (no content column) and inserts; bodies, search and forget go through functions.
GRANT SELECT (project_id, id, tags, sensitivity, retention_days, provenance_source, provenance_session, created_at,
              forgotten_at) ON scopedb.notes TO scopedb_app;
GRANT INSERT (project_id, id, content, tags, sensitivity, retention_days, provenance_source, provenance_session)
    ON scopedb.notes TO scopedb_app;

-- The policies call these as the current user, so the app needs EXECUTE on them.
GRANT EXECUTE ON FUNCTION scopedb.enter_scope(text) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.resolve_scope(text) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.prepare_session() TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.scope_entered() TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.scope_project_names() TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.scope_project_ids() TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.scope_whole_project_ids(boolean) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.scope_terms() TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.terms_admit_fragment(scopedb.scope_terms, bigint, timestamptz, timestamptz, text, text,
                                                   text) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.scope_resource_filter() TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.scope_as_of() TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.scope_filters_content() TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.scope_path_include() TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.scope_path_exclude() TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.scope_name_include() TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.scope_name_exclude() TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.reenter_scope(text) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.clean_session() TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.text_candidates(tsquery, integer) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.nearest_fragments(vector, integer, bigint[], text, boolean, integer, integer) TO scopedb_app;
-- nearest_fragments calls it as the app: the answer of the search groups the scope reads whole.
GRANT EXECUTE ON FUNCTION scopedb.group_nearest(bigint[], vector, integer, integer, integer) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.graph_walk(bigint[], text[], integer, text[]) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.graph_shortest_path(bigint[], text, text, integer, text[]) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.lock_project_tiers(bigint) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.delete_fragments(bigint, text[]) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.delete_graph_edges(bigint, text[], text[], text[]) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.delete_graph_nodes(bigint, text[]) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.delete_resource_links(bigint, text[], text[]) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.delete_resources(bigint, text[]) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.search_notes(text, text, integer, integer) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.fetch_notes(text[]) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.forget_note(text, text) TO scopedb_app;
-- Catalog reads only: scopedb checks its application login with it, the audit every login of the app.
GRANT EXECUTE ON FUNCTION scopedb.role_hazards(name) TO scopedb_app, scopedb_auditor;
-- Pure pattern logic, no data: handy for services that want the database's answer for a path or name.
GRANT EXECUTE ON FUNCTION scopedb.patterns_admit(text, text[], text[]) TO scopedb_app, scopedb_auditor;

RESET ROLE;
