-- scopedb: row-level security.
--
-- Every table in the data schema has RLS ENABLED and FORCED (so even the owner, and any SECURITY DEFINER
-- function it owns, is filtered). For scopedb_app each table has:
--   * one PERMISSIVE policy, "app sees nothing until a scope is entered": RLS admits a row only if some
--     permissive policy does, so this says no token, no rows. It is deliberately cheap and unverified;
--   * one RESTRICTIVE policy per command with the verified scope. Restrictive policies are ANDed with every
--     permissive one, so a permissive policy added later can never widen the scope. Writes carry WITH CHECK, so
--     a row cannot be written into another project or an out-of-scope resource.
--
-- The restrictive predicates of the tables scopedb narrows by resource, path, name or time (resources, resource
-- links, fragments, graph nodes and edges) ask two questions, in this order, fixed by a CASE:
--   1. project_id = ANY (scopedb.scope_whole_project_ids(..)): the scope reads this row's project whole (no
--      resource, path or name narrowing; for fragments' reads, at the present time). One accessor answers every
--      row of such a scope, the common case; its rows cost a test of the project (and for fragments, now()).
--   2. for every row the first leaves undecided, every term of the scope from one composite,
--      scopedb.scope_terms(), read by one InitPlan (inside a sub-SELECT, or for fragments' reads passed to
--      scopedb.terms_admit_fragment): one token judges the whole row. Separate
--      accessors are separate InitPlans, each evaluated lazily when a row first reaches its term, so a statement
--      that changed the setting between rows took one term from one valid token and the next from another (#90).
--      The terms, on their columns:
--   project_id = ANY (project ids)                     an index condition on every table (project_id leads each key);
--   (resource = ANY (filter)) IS NOT FALSE             a NULL filter (the scope filters no resources) admits the row,
--                                                      otherwise only listed resources;
--   (valid_from <= instant AND ...) IS NOT FALSE       fragments: the scope's instant (NULL: every version);
--   (path ~ ANY (includes)) IS NOT FALSE AND (path ~ ANY (excludes)) IS NOT TRUE, and the same for fqn
--                                                      fragments and graph nodes: path globs and name patterns, one
--                                                      regex per pattern, tested only when the scope has patterns
--                                                      (filters_content), so other scopes pay nothing for them;
--   the same tests on copies of both ends' values       graph edges (src_*, dst_*: kept equal to the nodes' values by
--                                                      foreign keys; see graph_edges below).
-- Reads, writes (WITH CHECK, and the USING of updates and deletes) and the owner's policies that mirror the app's
-- all take this form. A policy that tests one term only (notes, tombstones, projects) reads its single accessor.
-- The comparisons on indexed columns use leakproof operators (bigint/text equality), so a user-supplied function in
-- a WHERE clause is never evaluated on a row before the scope has admitted it.
--
-- scopedb_owner is filtered too. It sees every row only in an admin session (the logged-in role is a member of
-- scopedb_owner); when its SECURITY DEFINER functions run for scopedb_app it sees only what they need. The app has
-- no DELETE privilege (sql/05_grants.sql): its deletes run as the owner in scopedb.delete_* functions, under owner
-- policies whose predicates are the app's own, so a delete reaches exactly the rows the app's policy would admit.

SET ROLE scopedb_owner;

ALTER TABLE scopedb.projects ENABLE ROW LEVEL SECURITY;
ALTER TABLE scopedb.projects FORCE ROW LEVEL SECURITY;
ALTER TABLE scopedb.resources ENABLE ROW LEVEL SECURITY;
ALTER TABLE scopedb.resources FORCE ROW LEVEL SECURITY;
ALTER TABLE scopedb.resource_links ENABLE ROW LEVEL SECURITY;
ALTER TABLE scopedb.resource_links FORCE ROW LEVEL SECURITY;
ALTER TABLE scopedb.fragments ENABLE ROW LEVEL SECURITY;
ALTER TABLE scopedb.fragments FORCE ROW LEVEL SECURITY;
ALTER TABLE scopedb.graph_nodes ENABLE ROW LEVEL SECURITY;
ALTER TABLE scopedb.graph_nodes FORCE ROW LEVEL SECURITY;
ALTER TABLE scopedb.graph_edges ENABLE ROW LEVEL SECURITY;
ALTER TABLE scopedb.graph_edges FORCE ROW LEVEL SECURITY;
ALTER TABLE scopedb.notes ENABLE ROW LEVEL SECURITY;
ALTER TABLE scopedb.notes FORCE ROW LEVEL SECURITY;
ALTER TABLE scopedb.note_tombstones ENABLE ROW LEVEL SECURITY;
ALTER TABLE scopedb.note_tombstones FORCE ROW LEVEL SECURITY;

-- ---------------------------------------------------------------------------------------------------------------
-- projects: the app may read the projects its scope names. Writes are not granted; the policies exist
-- anyway, so that a careless GRANT cannot open them.
-- ---------------------------------------------------------------------------------------------------------------

CREATE POLICY "app sees nothing until a scope is entered" ON scopedb.projects
    AS PERMISSIVE FOR ALL TO scopedb_app
    USING ((SELECT scopedb.scope_entered()))
    WITH CHECK ((SELECT scopedb.scope_entered()));

CREATE POLICY "scope limits which projects the app reads" ON scopedb.projects
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (name = ANY ((SELECT scopedb.scope_project_names())::text[]));
CREATE POLICY "scope limits which projects the app creates" ON scopedb.projects
    AS RESTRICTIVE FOR INSERT TO scopedb_app
    WITH CHECK (name = ANY ((SELECT scopedb.scope_project_names())::text[]));
CREATE POLICY "scope limits which projects the app changes" ON scopedb.projects
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
    USING (name = ANY ((SELECT scopedb.scope_project_names())::text[]))
    WITH CHECK (name = ANY ((SELECT scopedb.scope_project_names())::text[]));
CREATE POLICY "scope limits which projects the app deletes" ON scopedb.projects
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (name = ANY ((SELECT scopedb.scope_project_names())::text[]));

CREATE POLICY "owner administers every row in an admin session" ON scopedb.projects
    AS PERMISSIVE FOR ALL TO scopedb_owner
    USING ((SELECT scopedb_private.is_admin_session()))
    WITH CHECK ((SELECT scopedb_private.is_admin_session()));
-- Lets scopedb.resolve_scope turn the names of a verified token into ids while it runs for scopedb_app.
CREATE POLICY "owner resolves the projects named by the scope" ON scopedb.projects
    AS PERMISSIVE FOR SELECT TO scopedb_owner
    USING (name = ANY ((SELECT scopedb.scope_project_names())::text[]));

-- ---------------------------------------------------------------------------------------------------------------
-- resources: in scope when the project is and the resource passes the scope's resource filter.
-- ---------------------------------------------------------------------------------------------------------------

CREATE POLICY "app sees nothing until a scope is entered" ON scopedb.resources
    AS PERMISSIVE FOR ALL TO scopedb_app
    USING ((SELECT scopedb.scope_entered()))
    WITH CHECK ((SELECT scopedb.scope_entered()));

-- Read: as for fragments, a scope that reads its projects whole is answered by one accessor, and every other
-- row by all the scope's terms from one reading of the setting (scopedb.scope_terms, #90).
CREATE POLICY "scope limits which resources the app reads" ON scopedb.resources
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (id = ANY ((s.t).resource_filter)) IS NOT FALSE
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);
CREATE POLICY "scope limits which resources the app creates" ON scopedb.resources
    AS RESTRICTIVE FOR INSERT TO scopedb_app
    WITH CHECK (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (id = ANY ((s.t).resource_filter)) IS NOT FALSE
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);
CREATE POLICY "scope limits which resources the app changes" ON scopedb.resources
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (id = ANY ((s.t).resource_filter)) IS NOT FALSE
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END)
    WITH CHECK (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (id = ANY ((s.t).resource_filter)) IS NOT FALSE
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);
CREATE POLICY "scope limits which resources the app deletes" ON scopedb.resources
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (id = ANY ((s.t).resource_filter)) IS NOT FALSE
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

CREATE POLICY "owner administers every row in an admin session" ON scopedb.resources
    AS PERMISSIVE FOR ALL TO scopedb_owner
    USING ((SELECT scopedb_private.is_admin_session()))
    WITH CHECK ((SELECT scopedb_private.is_admin_session()));
-- Lets scopedb.resolve_scope list the resources of the scope's projects when the scope denies some of them.
CREATE POLICY "owner lists the resources of the projects of the scope" ON scopedb.resources
    AS PERMISSIVE FOR SELECT TO scopedb_owner
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[]));
-- For scopedb.delete_resources: exactly the resources the app's delete policy would admit.
CREATE POLICY "owner deletes the resources of the entered scope" ON scopedb.resources
    AS PERMISSIVE FOR DELETE TO scopedb_owner
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (id = ANY ((s.t).resource_filter)) IS NOT FALSE
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

-- ---------------------------------------------------------------------------------------------------------------
-- resource_links: in scope when the project is and both ends pass the resource filter.
-- ---------------------------------------------------------------------------------------------------------------

CREATE POLICY "app sees nothing until a scope is entered" ON scopedb.resource_links
    AS PERMISSIVE FOR ALL TO scopedb_app
    USING ((SELECT scopedb.scope_entered()))
    WITH CHECK ((SELECT scopedb.scope_entered()));

-- Read: as for resources.
CREATE POLICY "scope limits which resource links the app reads" ON scopedb.resource_links
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (ARRAY[parent_id, child_id] <@ (s.t).resource_filter) IS NOT FALSE
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);
CREATE POLICY "scope limits which resource links the app creates" ON scopedb.resource_links
    AS RESTRICTIVE FOR INSERT TO scopedb_app
    WITH CHECK (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (ARRAY[parent_id, child_id] <@ (s.t).resource_filter) IS NOT FALSE
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);
CREATE POLICY "scope limits which resource links the app changes" ON scopedb.resource_links
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (ARRAY[parent_id, child_id] <@ (s.t).resource_filter) IS NOT FALSE
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END)
    WITH CHECK (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (ARRAY[parent_id, child_id] <@ (s.t).resource_filter) IS NOT FALSE
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);
CREATE POLICY "scope limits which resource links the app deletes" ON scopedb.resource_links
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (ARRAY[parent_id, child_id] <@ (s.t).resource_filter) IS NOT FALSE
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

CREATE POLICY "owner administers every row in an admin session" ON scopedb.resource_links
    AS PERMISSIVE FOR ALL TO scopedb_owner
    USING ((SELECT scopedb_private.is_admin_session()))
    WITH CHECK ((SELECT scopedb_private.is_admin_session()));
-- Lets the cycle check see every link of a scoped project, including links between resources the scope hides:
-- being a DAG is a property of the whole project, not of one caller's view of it.
CREATE POLICY "owner walks the links of the projects of the scope" ON scopedb.resource_links
    AS PERMISSIVE FOR SELECT TO scopedb_owner
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[]));
-- For scopedb.delete_resource_links / delete_resources: exactly the links the app's delete policy would admit.
CREATE POLICY "owner deletes the resource links of the entered scope" ON scopedb.resource_links
    AS PERMISSIVE FOR DELETE TO scopedb_owner
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (ARRAY[parent_id, child_id] <@ (s.t).resource_filter) IS NOT FALSE
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

-- ---------------------------------------------------------------------------------------------------------------
-- fragments: in scope when the project is, the version is valid at the scope's instant, the resource passes the
-- scope's resource filter, and path and name pass its patterns. Writes are checked without the temporal part, so
-- closing a version (setting valid_to) stays possible.
-- What a whole-project, current-time scope costs per row is a test of the project id and two comparisons of
-- timestamps (the read policy's first branch), and per statement one accessor. Otherwise the version check
-- compares columns with the scope's instant (building a range per row, as it did before, cost more), and the path
-- and name patterns are not evaluated at all when the scope has none (filters_content). A NULL instant
-- (every version) passes every row, as the range test did.
-- ---------------------------------------------------------------------------------------------------------------

CREATE POLICY "app sees nothing until a scope is entered" ON scopedb.fragments
    AS PERMISSIVE FOR ALL TO scopedb_app
    USING ((SELECT scopedb.scope_entered()))
    WITH CHECK ((SELECT scopedb.scope_entered()));

-- Read: a scope that reads its projects whole at the present time (the common case) is answered by its first
-- branch, with one accessor (scopedb.scope_whole_project_ids); any other scope, and any row that branch leaves
-- undecided (another project's), by the full predicate. The CASE fixes that order: the full predicate's InitPlan
-- is evaluated only when a row reaches it. The full predicate reads every term of the scope from one composite
-- (scopedb.scope_terms), read once by one InitPlan and passed, with the row's columns, to
-- scopedb.terms_admit_fragment, so no statement can take its terms from two tokens by changing the setting between
-- rows (#90). Since revision 0028 the read policies of fragments (the app's and the owner's, and the USING of
-- updates and deletes) call that function instead of holding the predicate in a correlated sub-SELECT: planning
-- the sub-SELECT cost every statement on fragments about 65 µs, whether a row reached it or not.
CREATE POLICY "scope limits which fragments the app reads" ON scopedb.fragments
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(true))::bigint[])
                THEN valid_from <= pg_catalog.now() AND (valid_to IS NULL OR valid_to > pg_catalog.now())
                ELSE scopedb.terms_admit_fragment((SELECT scopedb.scope_terms()), project_id, valid_from, valid_to,
                                                  resource_id, path, fqn) END);
-- Writes: the same two questions without the temporal part (scope_whole_project_ids(false)), so that a scope
-- can close a version; an update's USING is the read predicate.
CREATE POLICY "scope limits which fragments the app creates" ON scopedb.fragments
    AS RESTRICTIVE FOR INSERT TO scopedb_app
    WITH CHECK (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (COALESCE(resource_id, '') = ANY ((s.t).resource_filter)) IS NOT FALSE
                             AND ((s.t).filters_content IS NOT TRUE
                                  OR ((COALESCE(path, '') ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (COALESCE(path, '') ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_exclude)) IS NOT TRUE))
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);
CREATE POLICY "scope limits which fragments the app changes" ON scopedb.fragments
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(true))::bigint[])
                THEN valid_from <= pg_catalog.now() AND (valid_to IS NULL OR valid_to > pg_catalog.now())
                ELSE scopedb.terms_admit_fragment((SELECT scopedb.scope_terms()), project_id, valid_from, valid_to,
                                                  resource_id, path, fqn) END)
    WITH CHECK (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (COALESCE(resource_id, '') = ANY ((s.t).resource_filter)) IS NOT FALSE
                             AND ((s.t).filters_content IS NOT TRUE
                                  OR ((COALESCE(path, '') ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (COALESCE(path, '') ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_exclude)) IS NOT TRUE))
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);
CREATE POLICY "scope limits which fragments the app deletes" ON scopedb.fragments
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(true))::bigint[])
                THEN valid_from <= pg_catalog.now() AND (valid_to IS NULL OR valid_to > pg_catalog.now())
                ELSE scopedb.terms_admit_fragment((SELECT scopedb.scope_terms()), project_id, valid_from, valid_to,
                                                  resource_id, path, fqn) END);

CREATE POLICY "owner administers every row in an admin session" ON scopedb.fragments
    AS PERMISSIVE FOR ALL TO scopedb_owner
    USING ((SELECT scopedb_private.is_admin_session()))
    WITH CHECK ((SELECT scopedb_private.is_admin_session()));

-- Lets the SECURITY DEFINER functions that delete fragments for the app (delete_fragments, delete_resources) read
-- exactly the fragments the app's read policy admits: a DELETE or UPDATE with a WHERE clause sees only rows the
-- SELECT policies admit. (Full-text search reads the owner-only copy, not this table.)
CREATE POLICY "owner searches the fragments of the entered scope" ON scopedb.fragments
    AS PERMISSIVE FOR SELECT TO scopedb_owner
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(true))::bigint[])
                THEN valid_from <= pg_catalog.now() AND (valid_to IS NULL OR valid_to > pg_catalog.now())
                ELSE scopedb.terms_admit_fragment((SELECT scopedb.scope_terms()), project_id, valid_from, valid_to,
                                                  resource_id, path, fqn) END);
-- Lets scopedb.delete_fragments and delete_resources delete exactly what the app's delete policy would admit.
CREATE POLICY "owner deletes the fragments of the entered scope" ON scopedb.fragments
    AS PERMISSIVE FOR DELETE TO scopedb_owner
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(true))::bigint[])
                THEN valid_from <= pg_catalog.now() AND (valid_to IS NULL OR valid_to > pg_catalog.now())
                ELSE scopedb.terms_admit_fragment((SELECT scopedb.scope_terms()), project_id, valid_from, valid_to,
                                                  resource_id, path, fqn) END);

-- ---------------------------------------------------------------------------------------------------------------
-- graph_nodes: in scope when the project is and resource, path and name pass the scope's filters (as for
-- fragments; nodes are not versioned).
-- ---------------------------------------------------------------------------------------------------------------

CREATE POLICY "app sees nothing until a scope is entered" ON scopedb.graph_nodes
    AS PERMISSIVE FOR ALL TO scopedb_app
    USING ((SELECT scopedb.scope_entered()))
    WITH CHECK ((SELECT scopedb.scope_entered()));

-- Read: as for fragments, a scope that reads its projects whole is answered by one accessor (nodes have no
-- versions, so any time scope qualifies).
CREATE POLICY "scope limits which graph nodes the app reads" ON scopedb.graph_nodes
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (COALESCE(resource_id, '') = ANY ((s.t).resource_filter)) IS NOT FALSE
                             AND ((s.t).filters_content IS NOT TRUE
                                  OR ((COALESCE(path, '') ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (COALESCE(path, '') ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_exclude)) IS NOT TRUE))
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);
CREATE POLICY "scope limits which graph nodes the app creates" ON scopedb.graph_nodes
    AS RESTRICTIVE FOR INSERT TO scopedb_app
    WITH CHECK (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (COALESCE(resource_id, '') = ANY ((s.t).resource_filter)) IS NOT FALSE
                             AND ((s.t).filters_content IS NOT TRUE
                                  OR ((COALESCE(path, '') ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (COALESCE(path, '') ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_exclude)) IS NOT TRUE))
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);
CREATE POLICY "scope limits which graph nodes the app changes" ON scopedb.graph_nodes
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (COALESCE(resource_id, '') = ANY ((s.t).resource_filter)) IS NOT FALSE
                             AND ((s.t).filters_content IS NOT TRUE
                                  OR ((COALESCE(path, '') ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (COALESCE(path, '') ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_exclude)) IS NOT TRUE))
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END)
    WITH CHECK (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (COALESCE(resource_id, '') = ANY ((s.t).resource_filter)) IS NOT FALSE
                             AND ((s.t).filters_content IS NOT TRUE
                                  OR ((COALESCE(path, '') ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (COALESCE(path, '') ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_exclude)) IS NOT TRUE))
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);
CREATE POLICY "scope limits which graph nodes the app deletes" ON scopedb.graph_nodes
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (COALESCE(resource_id, '') = ANY ((s.t).resource_filter)) IS NOT FALSE
                             AND ((s.t).filters_content IS NOT TRUE
                                  OR ((COALESCE(path, '') ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (COALESCE(path, '') ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_exclude)) IS NOT TRUE))
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

CREATE POLICY "owner administers every row in an admin session" ON scopedb.graph_nodes
    AS PERMISSIVE FOR ALL TO scopedb_owner
    USING ((SELECT scopedb_private.is_admin_session()))
    WITH CHECK ((SELECT scopedb_private.is_admin_session()));
-- For scopedb.delete_graph_nodes / delete_resources (and the edge policies they evaluate as the owner): the
-- owner reads and deletes exactly the nodes the app's policies admit.
CREATE POLICY "owner reads the graph nodes of the entered scope" ON scopedb.graph_nodes
    AS PERMISSIVE FOR SELECT TO scopedb_owner
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (COALESCE(resource_id, '') = ANY ((s.t).resource_filter)) IS NOT FALSE
                             AND ((s.t).filters_content IS NOT TRUE
                                  OR ((COALESCE(path, '') ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (COALESCE(path, '') ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_exclude)) IS NOT TRUE))
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);
CREATE POLICY "owner deletes the graph nodes of the entered scope" ON scopedb.graph_nodes
    AS PERMISSIVE FOR DELETE TO scopedb_owner
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (COALESCE(resource_id, '') = ANY ((s.t).resource_filter)) IS NOT FALSE
                             AND ((s.t).filters_content IS NOT TRUE
                                  OR ((COALESCE(path, '') ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (COALESCE(path, '') ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (COALESCE(fqn, '') ~ ANY ((s.t).name_exclude)) IS NOT TRUE))
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

-- ---------------------------------------------------------------------------------------------------------------
-- graph_edges: in scope when the project is and both endpoints are visible. An edge carries copies of what the
-- node policy judges each end by (resource, path, name: graph_nodes' *_key columns, '' for none), so reading
-- tests the node policy's predicate, applied to both ends, on the edge row itself: no probe of graph_nodes per
-- edge. The copies are kept true by the edge's foreign keys (sql/02_schema.sql): a change to a node cascades to
-- its edges whatever scope made it, and an insert with a false copy is refused. That refusal comes at the end of
-- the statement, after the row has met the unique index, so writes cannot trust the copies: an insert whose
-- copies claimed a hidden end was visible would pass and then collide with the hidden edge of the same key,
-- telling the writer that edge exists. Writes therefore check that both ends are visible by probing graph_nodes
-- (under its own policies), which happens before any index is touched. OFFSET 0 keeps each probe a primary-key
-- lookup instead of a hash of every visible node.
-- ---------------------------------------------------------------------------------------------------------------

CREATE POLICY "app sees nothing until a scope is entered" ON scopedb.graph_edges
    AS PERMISSIVE FOR ALL TO scopedb_app
    USING ((SELECT scopedb.scope_entered()))
    WITH CHECK ((SELECT scopedb.scope_entered()));

-- Read: a scope that reads its projects whole sees every node of them, so every edge of them, with one accessor.
CREATE POLICY "scope limits which graph edges the app reads" ON scopedb.graph_edges
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (ARRAY[src_resource, dst_resource] <@ (s.t).resource_filter) IS NOT FALSE
                             AND ((s.t).filters_content IS NOT TRUE
                                  OR ((src_path ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (dst_path ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (src_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (dst_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (src_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (dst_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (src_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE
                                      AND (dst_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE))
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);
CREATE POLICY "scope limits which graph edges the app creates" ON scopedb.graph_edges
    AS RESTRICTIVE FOR INSERT TO scopedb_app
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                            WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.src OFFSET 0)
                AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                            WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.dst OFFSET 0));
CREATE POLICY "scope limits which graph edges the app changes" ON scopedb.graph_edges
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (ARRAY[src_resource, dst_resource] <@ (s.t).resource_filter) IS NOT FALSE
                             AND ((s.t).filters_content IS NOT TRUE
                                  OR ((src_path ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (dst_path ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (src_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (dst_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (src_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (dst_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (src_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE
                                      AND (dst_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE))
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END)
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                            WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.src OFFSET 0)
                AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                            WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.dst OFFSET 0));
CREATE POLICY "scope limits which graph edges the app deletes" ON scopedb.graph_edges
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (ARRAY[src_resource, dst_resource] <@ (s.t).resource_filter) IS NOT FALSE
                             AND ((s.t).filters_content IS NOT TRUE
                                  OR ((src_path ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (dst_path ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (src_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (dst_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (src_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (dst_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (src_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE
                                      AND (dst_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE))
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

CREATE POLICY "owner administers every row in an admin session" ON scopedb.graph_edges
    AS PERMISSIVE FOR ALL TO scopedb_owner
    USING ((SELECT scopedb_private.is_admin_session()))
    WITH CHECK ((SELECT scopedb_private.is_admin_session()));
-- For scopedb.delete_graph_edges / delete_graph_nodes: exactly the edges the app's policies admit.
CREATE POLICY "owner reads the graph edges of the entered scope" ON scopedb.graph_edges
    AS PERMISSIVE FOR SELECT TO scopedb_owner
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (ARRAY[src_resource, dst_resource] <@ (s.t).resource_filter) IS NOT FALSE
                             AND ((s.t).filters_content IS NOT TRUE
                                  OR ((src_path ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (dst_path ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (src_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (dst_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (src_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (dst_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (src_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE
                                      AND (dst_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE))
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);
CREATE POLICY "owner deletes the graph edges of the entered scope" ON scopedb.graph_edges
    AS PERMISSIVE FOR DELETE TO scopedb_owner
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[]) THEN true
                ELSE (SELECT project_id = ANY ((s.t).project_ids)
                             AND (ARRAY[src_resource, dst_resource] <@ (s.t).resource_filter) IS NOT FALSE
                             AND ((s.t).filters_content IS NOT TRUE
                                  OR ((src_path ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (dst_path ~ ANY ((s.t).path_include)) IS NOT FALSE
                                      AND (src_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (dst_path ~ ANY ((s.t).path_exclude)) IS NOT TRUE
                                      AND (src_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (dst_fqn ~ ANY ((s.t).name_include)) IS NOT FALSE
                                      AND (src_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE
                                      AND (dst_fqn ~ ANY ((s.t).name_exclude)) IS NOT TRUE))
                      FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS s) END);

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

RESET ROLE;
