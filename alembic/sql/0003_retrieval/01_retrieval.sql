-- Revision 0003: scoped retrieval — graph nodes and edges, and the full-text index the search function reads.
--
-- Adds graph_nodes/graph_edges (forced RLS; an edge is visible only when both endpoints are), the owner-only
-- scopedb_private.fragment_search (a GIN-indexed copy of fragments.tsv, backfilled here and kept in step by
-- trigger), scopedb.text_candidates / explain_text_candidates, and the owner's policy that lets the search
-- function read exactly the fragments the app may read. Bodies are copies of the canonical sql/ of this revision.

SET ROLE scopedb_owner;

CREATE TABLE scopedb.graph_nodes (
    project_id  bigint NOT NULL REFERENCES scopedb.projects (id) ON DELETE CASCADE,
    id          text NOT NULL,
    resource_id text,
    kind        text NOT NULL DEFAULT 'node',
    label       text NOT NULL DEFAULT '',
    path        text,
    fqn         text,
    properties  jsonb NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT graph_nodes_pkey PRIMARY KEY (project_id, id),
    CONSTRAINT graph_nodes_resource_fkey FOREIGN KEY (project_id, resource_id)
        REFERENCES scopedb.resources (project_id, id) ON DELETE CASCADE,
    CONSTRAINT graph_nodes_id_check CHECK (id <> '' AND length(id) <= 200),
    CONSTRAINT graph_nodes_kind_check CHECK (kind <> '' AND length(kind) <= 100),
    CONSTRAINT graph_nodes_path_check CHECK (strpos(path, chr(31)) = 0),
    CONSTRAINT graph_nodes_fqn_check CHECK (strpos(fqn, chr(31)) = 0)
);
COMMENT ON TABLE scopedb.graph_nodes IS
    'Graph nodes (symbols, documents, concepts) of a project; scoped like fragments by resource, path and name.';

CREATE TABLE scopedb.graph_edges (
    project_id  bigint NOT NULL,
    src         text NOT NULL,
    dst         text NOT NULL,
    relation    text NOT NULL DEFAULT 'related',
    weight      real NOT NULL DEFAULT 1,
    created_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT graph_edges_pkey PRIMARY KEY (project_id, src, relation, dst),
    -- Both ends in the edge's own project: an edge never crosses tenants.
    CONSTRAINT graph_edges_src_fkey FOREIGN KEY (project_id, src)
        REFERENCES scopedb.graph_nodes (project_id, id) ON DELETE CASCADE,
    CONSTRAINT graph_edges_dst_fkey FOREIGN KEY (project_id, dst)
        REFERENCES scopedb.graph_nodes (project_id, id) ON DELETE CASCADE,
    CONSTRAINT graph_edges_relation_check CHECK (relation <> '' AND length(relation) <= 100)
);
COMMENT ON TABLE scopedb.graph_edges IS
    'Directed, typed edges between nodes of one project; visible only when both endpoints are.';

-- The full-text index the search function reads. PostgreSQL will not use a GIN index for `tsv @@ query` under
-- row-level security (`@@` is not LEAKPROOF, so it may not run before the policy), and marking it LEAKPROOF needs
-- a superuser. scopedb.text_candidates therefore finds matches here, in a table without RLS that only the owner
-- can read, and joins them back to scopedb.fragments, where the owner's scope policy applies the verified scope.
-- Kept in step with fragments by trigger (inserts, content changes) and foreign key (deletes, key changes).
CREATE TABLE scopedb_private.fragment_search (
    project_id  bigint NOT NULL,
    id          text NOT NULL,
    tsv         tsvector NOT NULL,
    CONSTRAINT fragment_search_pkey PRIMARY KEY (project_id, id),
    CONSTRAINT fragment_search_fragment_fkey FOREIGN KEY (project_id, id)
        REFERENCES scopedb.fragments (project_id, id) ON DELETE CASCADE ON UPDATE CASCADE
);
COMMENT ON TABLE scopedb_private.fragment_search IS
    'Owner-only copy of fragments.tsv with a GIN index, for scoped full-text search (see scopedb.text_candidates).';

CREATE INDEX graph_nodes_kind_idx ON scopedb.graph_nodes (project_id, kind);
CREATE INDEX graph_nodes_resource_idx ON scopedb.graph_nodes (project_id, resource_id);
CREATE INDEX graph_edges_dst_idx ON scopedb.graph_edges (project_id, dst);
CREATE INDEX fragment_search_tsv_idx ON scopedb_private.fragment_search USING gin (tsv);

ALTER TABLE scopedb.graph_nodes ENABLE ROW LEVEL SECURITY;
ALTER TABLE scopedb.graph_nodes FORCE ROW LEVEL SECURITY;
ALTER TABLE scopedb.graph_edges ENABLE ROW LEVEL SECURITY;
ALTER TABLE scopedb.graph_edges FORCE ROW LEVEL SECURITY;

-- The statement scopedb.text_candidates runs, kept in one place so that scopedb.explain_text_candidates shows the
-- plan of exactly it. $1 tsquery, $2 row limit, $3 the verified project ids.
CREATE FUNCTION scopedb_private.text_candidates_sql() RETURNS text
LANGUAGE sql
IMMUTABLE
SET search_path = pg_catalog, pg_temp
RETURN 'SELECT s.project_id, s.id, pg_catalog.ts_rank_cd(s.tsv, $1) AS rank
          FROM scopedb_private.fragment_search AS s
          JOIN scopedb.fragments AS f ON f.project_id = s.project_id AND f.id = s.id
         WHERE s.tsv @@ $1 AND s.project_id = ANY ($3)
         ORDER BY rank DESC, s.project_id, s.id
         LIMIT $2';
COMMENT ON FUNCTION scopedb_private.text_candidates_sql() IS
    'The full-text candidate query shared by scopedb.text_candidates and scopedb.explain_text_candidates.';

-- Scoped full-text candidates: the best `max_rows` fragments matching `query`, with their ts_rank_cd. The GIN
-- index of scopedb_private.fragment_search finds the matches (it has no RLS, so the index is usable); the join to
-- scopedb.fragments runs under the owner's scope policy, which applies the verified scope exactly as the app's
-- restrictive policy does (projects, time, resource/path/name pattern). Callers join the result to fragments
-- again as scopedb_app for content and snippets, so RLS checks every returned row a second time.
CREATE FUNCTION scopedb.text_candidates(query tsquery, max_rows integer)
RETURNS TABLE (project_id bigint, id text, rank real)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF max_rows IS NULL OR max_rows < 0 OR max_rows > 100000 THEN
        RAISE EXCEPTION 'max_rows must be between 0 and 100000' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN QUERY EXECUTE scopedb_private.text_candidates_sql() USING query, max_rows, scopedb.scope_project_ids();
END
$$;
COMMENT ON FUNCTION scopedb.text_candidates(tsquery, integer) IS
    'Best-ranked fragments of the verified scope matching a tsquery, found through a GIN index.';

-- The plan of scopedb.text_candidates for the same arguments (plan only; no rows are read). Lets tests and
-- auditors check that the GIN index is used.
CREATE FUNCTION scopedb.explain_text_candidates(query tsquery, max_rows integer)
RETURNS SETOF text
LANGUAGE plpgsql
VOLATILE  -- PostgreSQL runs EXPLAIN only from volatile functions
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN QUERY EXECUTE 'EXPLAIN (COSTS OFF) ' || scopedb_private.text_candidates_sql()
        USING query, max_rows, scopedb.scope_project_ids();
END
$$;
COMMENT ON FUNCTION scopedb.explain_text_candidates(tsquery, integer) IS
    'EXPLAIN of the statement scopedb.text_candidates runs (to verify the GIN index is used).';

-- Keeps scopedb_private.fragment_search in step with fragments (deletes and key changes follow by foreign key).
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

-- Fragments written before this revision.
INSERT INTO scopedb_private.fragment_search (project_id, id, tsv)
SELECT project_id, id, tsv FROM scopedb.fragments;

-- Lets scopedb.text_candidates (SECURITY DEFINER) read exactly the fragments the app's read policy admits.
CREATE POLICY "owner searches the fragments of the entered scope" ON scopedb.fragments
    AS PERMISSIVE FOR SELECT TO scopedb_owner
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (tstzrange(valid_from, valid_to) @> (SELECT scopedb.scope_as_of())) IS NOT FALSE
           AND (COALESCE(resource_id, '') || chr(31) || COALESCE(path, '') || chr(31) || COALESCE(fqn, '')
                ~ (SELECT scopedb.scope_fragment_pattern())) IS NOT FALSE);

CREATE POLICY "app sees nothing until a scope is entered" ON scopedb.graph_nodes
    AS PERMISSIVE FOR ALL TO scopedb_app
    USING ((SELECT scopedb.scope_entered()))
    WITH CHECK ((SELECT scopedb.scope_entered()));

CREATE POLICY "scope limits which graph nodes the app reads" ON scopedb.graph_nodes
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (COALESCE(resource_id, '') || chr(31) || COALESCE(path, '') || chr(31) || COALESCE(fqn, '')
                ~ (SELECT scopedb.scope_fragment_pattern())) IS NOT FALSE);

CREATE POLICY "scope limits which graph nodes the app creates" ON scopedb.graph_nodes
    AS RESTRICTIVE FOR INSERT TO scopedb_app
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND (COALESCE(resource_id, '') || chr(31) || COALESCE(path, '') || chr(31) || COALESCE(fqn, '')
                     ~ (SELECT scopedb.scope_fragment_pattern())) IS NOT FALSE);

CREATE POLICY "scope limits which graph nodes the app changes" ON scopedb.graph_nodes
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (COALESCE(resource_id, '') || chr(31) || COALESCE(path, '') || chr(31) || COALESCE(fqn, '')
                ~ (SELECT scopedb.scope_fragment_pattern())) IS NOT FALSE)
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND (COALESCE(resource_id, '') || chr(31) || COALESCE(path, '') || chr(31) || COALESCE(fqn, '')
                     ~ (SELECT scopedb.scope_fragment_pattern())) IS NOT FALSE);

CREATE POLICY "scope limits which graph nodes the app deletes" ON scopedb.graph_nodes
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (COALESCE(resource_id, '') || chr(31) || COALESCE(path, '') || chr(31) || COALESCE(fqn, '')
                ~ (SELECT scopedb.scope_fragment_pattern())) IS NOT FALSE);

CREATE POLICY "owner administers every row in an admin session" ON scopedb.graph_nodes
    AS PERMISSIVE FOR ALL TO scopedb_owner
    USING ((SELECT scopedb_private.is_admin_session()))
    WITH CHECK ((SELECT scopedb_private.is_admin_session()));

CREATE POLICY "app sees nothing until a scope is entered" ON scopedb.graph_edges
    AS PERMISSIVE FOR ALL TO scopedb_app
    USING ((SELECT scopedb.scope_entered()))
    WITH CHECK ((SELECT scopedb.scope_entered()));

CREATE POLICY "scope limits which graph edges the app reads" ON scopedb.graph_edges
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                       WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.src)
           AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                       WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.dst));

CREATE POLICY "scope limits which graph edges the app creates" ON scopedb.graph_edges
    AS RESTRICTIVE FOR INSERT TO scopedb_app
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                            WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.src)
                AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                            WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.dst));

CREATE POLICY "scope limits which graph edges the app changes" ON scopedb.graph_edges
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                       WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.src)
           AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                       WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.dst))
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                            WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.src)
                AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                            WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.dst));

CREATE POLICY "scope limits which graph edges the app deletes" ON scopedb.graph_edges
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                       WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.src)
           AND EXISTS (SELECT FROM scopedb.graph_nodes AS n
                       WHERE n.project_id = graph_edges.project_id AND n.id = graph_edges.dst));

CREATE POLICY "owner administers every row in an admin session" ON scopedb.graph_edges
    AS PERMISSIVE FOR ALL TO scopedb_owner
    USING ((SELECT scopedb_private.is_admin_session()))
    WITH CHECK ((SELECT scopedb_private.is_admin_session()));

REVOKE ALL ON scopedb.graph_nodes, scopedb.graph_edges FROM PUBLIC;
REVOKE ALL ON scopedb_private.fragment_search FROM PUBLIC;
GRANT SELECT, INSERT, UPDATE, DELETE ON scopedb.graph_nodes TO scopedb_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON scopedb.graph_edges TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.text_candidates(tsquery, integer) TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.explain_text_candidates(tsquery, integer) TO scopedb_app;

RESET ROLE;
