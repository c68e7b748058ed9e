-- Revision 0017 (issue 19): text search from the full-text copy alone. The copy carries the content, so
-- scopedb.text_candidates returns its best rows without joining them back to scopedb.fragments. The copy
-- is filled from the fragments here (one pass).

SET ROLE scopedb_owner;

ALTER TABLE scopedb_private.fragment_search ADD COLUMN content text;
-- A copy without its fragment cannot exist (the triggers delete them together); if one did, it goes.
DELETE FROM scopedb_private.fragment_search AS s
 WHERE NOT EXISTS (SELECT FROM scopedb.fragments AS f WHERE f.project_id = s.project_id AND f.id = s.id);
UPDATE scopedb_private.fragment_search AS s SET content = f.content
  FROM scopedb.fragments AS f WHERE f.project_id = s.project_id AND f.id = s.id;
ALTER TABLE scopedb_private.fragment_search ALTER COLUMN content SET NOT NULL;
COMMENT ON TABLE scopedb_private.fragment_search IS
    'Owner-only copy of fragments.tsv, of the columns the scope judges and of the content, partitioned like '
    'fragments, with a GIN index on the partitions of larger projects: for scoped full-text search (see '
    'scopedb.text_candidates).';


-- Keeps scopedb_private.fragment_search in step with fragments' inserts and updates (deletes: below).
-- Statement-level, from the transition table: one set-based upsert per statement, not a definer call per row.
CREATE OR REPLACE FUNCTION scopedb_private.sync_fragment_search() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    -- "changed" is the statement's transition table of new rows (inserted, or updated in any column: a trigger
    -- with a transition table cannot name columns). Rows whose copied columns did not change are skipped by the
    -- WHERE.
    INSERT INTO scopedb_private.fragment_search AS s (project_id, id, tsv, resource_id, path, fqn, valid_from, valid_to,
                                                      content)
    SELECT c.project_id, c.id, c.tsv, c.resource_id, c.path, c.fqn, c.valid_from, c.valid_to, c.content
      FROM changed AS c
    ON CONFLICT ON CONSTRAINT fragment_search_pkey DO UPDATE
       SET tsv = EXCLUDED.tsv, resource_id = EXCLUDED.resource_id, path = EXCLUDED.path, fqn = EXCLUDED.fqn,
           valid_from = EXCLUDED.valid_from, valid_to = EXCLUDED.valid_to, content = EXCLUDED.content
     WHERE (s.tsv, s.resource_id, s.path, s.fqn, s.valid_from, s.valid_to, s.content)
           IS DISTINCT FROM (EXCLUDED.tsv, EXCLUDED.resource_id, EXCLUDED.path, EXCLUDED.fqn, EXCLUDED.valid_from,
                             EXCLUDED.valid_to, EXCLUDED.content);
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION scopedb_private.sync_fragment_search() IS
    'Copies the tsvectors and scope columns of a statement''s new or changed fragments into the owner-only full-text copy.';

-- Gives one project partitions of its own, scopedb_parts.fragments_<id> and scopedb_parts.fragment_search_<id>,
-- and moves its rows there from the partitions the small projects share. The maintenance step calls it for a
-- project that has reached the storage threshold (its HNSW and GIN index follow, built on the new partitions), and
-- an admin for a project known to be large before it is loaded (Admin.create_project(own_storage=True)).
--
-- Each table is created standalone, filled, and then attached: CREATE TABLE ... PARTITION OF would take an
-- ACCESS EXCLUSIVE lock on the parent, which waits for every tenant's running reads and blocks new ones
-- meanwhile; ATTACH PARTITION takes SHARE UPDATE EXCLUSIVE on the parent, which no read or write conflicts with.
-- What waits is the small projects' writes, for the length of the move: the shared partitions are locked in SHARE
-- mode first (a row the project writes meanwhile would be left behind), and attaching scans the shared partition
-- under an ACCESS EXCLUSIVE lock to prove no row of the project remains there. Projects with partitions of their
-- own never wait. The rows are copied through the parents as the owner in an admin session (a partition's forced
-- row-level security has no policy, so read directly it shows the owner nothing), and deleted through the parent
-- as well; the delete's trigger removes their full-text copies and archived originals, so the originals are kept
-- aside and put back. The new tables get row-level security enabled and forced, without a policy, once filled,
-- and no privilege but the owner's: queries reach them only through their parents, whose policies apply.
-- Idempotent; one half missing (a partition dropped by hand) is made up on its own.
CREATE OR REPLACE FUNCTION scopedb_private.create_project_storage(project bigint) RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    has_fragments boolean := pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.fragments_%s', project)) IS NOT NULL;
    has_search boolean := pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.fragment_search_%s', project)) IS NOT NULL;
    columns text;
    originals scopedb_private.fragment_originals[];
BEGIN
    IF has_fragments AND has_search THEN
        RETURN;
    END IF;
    IF NOT scopedb_private.is_admin_session() THEN
        RAISE EXCEPTION 'only an admin session may move a project''s storage' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NOT EXISTS (SELECT FROM scopedb.projects AS p WHERE p.id = project) THEN
        RAISE EXCEPTION 'no project with id %', project USING ERRCODE = 'no_data_found';
    END IF;
    LOCK TABLE scopedb_parts.fragments_shared, scopedb_parts.fragment_search_shared IN SHARE MODE;
    IF NOT has_fragments THEN
        originals := ARRAY(SELECT o FROM scopedb_private.fragment_originals AS o WHERE o.project_id = project);
        -- Every stored column (a generated one is computed again on insert).
        SELECT pg_catalog.string_agg(pg_catalog.quote_ident(a.attname), ', ' ORDER BY a.attnum) INTO columns
          FROM pg_catalog.pg_attribute AS a
         WHERE a.attrelid = 'scopedb.fragments'::regclass AND a.attnum > 0 AND NOT a.attisdropped
           AND a.attgenerated = '';
        EXECUTE pg_catalog.format(
            'CREATE TABLE scopedb_parts.fragments_%s (LIKE scopedb.fragments '
            'INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING GENERATED)', project);
        -- In key order: where the rows land in the new table then owes nothing to where other projects' rows lay
        -- in the shared one (an unordered query returns rows in physical order).
        EXECUTE pg_catalog.format(
            'INSERT INTO scopedb_parts.fragments_%1$s (%2$s) SELECT %2$s FROM scopedb.fragments WHERE project_id = %1$s '
            'ORDER BY id', project, columns);
        DELETE FROM scopedb.fragments AS f WHERE f.project_id = project;  -- its trigger deletes the copies
        INSERT INTO scopedb_private.fragment_originals SELECT (o).* FROM pg_catalog.unnest(originals) AS o;
        EXECUTE pg_catalog.format(
            'ALTER TABLE scopedb_parts.fragments_%s ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY', project);
        EXECUTE pg_catalog.format(
            'ALTER TABLE scopedb.fragments ATTACH PARTITION scopedb_parts.fragments_%s FOR VALUES IN (%s)',
            project, project);
    END IF;
    IF NOT has_search THEN
        DELETE FROM scopedb_private.fragment_search AS s WHERE s.project_id = project;
        EXECUTE pg_catalog.format(
            'CREATE TABLE scopedb_parts.fragment_search_%s (LIKE scopedb_private.fragment_search '
            'INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING GENERATED)', project);
        EXECUTE pg_catalog.format(
            'ALTER TABLE scopedb_parts.fragment_search_%s ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY',
            project);
        EXECUTE pg_catalog.format(
            'ALTER TABLE scopedb_private.fragment_search ATTACH PARTITION scopedb_parts.fragment_search_%s '
            'FOR VALUES IN (%s)', project, project);
    END IF;
    -- The full-text copies, into the project's own partition (the tsvectors are stored: nothing is parsed again).
    INSERT INTO scopedb_private.fragment_search AS s (project_id, id, tsv, resource_id, path, fqn, valid_from, valid_to,
                                                      content)
    SELECT f.project_id, f.id, f.tsv, f.resource_id, f.path, f.fqn, f.valid_from, f.valid_to, f.content
      FROM scopedb.fragments AS f WHERE f.project_id = project
    ON CONFLICT ON CONSTRAINT fragment_search_pkey DO NOTHING;
END
$$;
COMMENT ON FUNCTION scopedb_private.create_project_storage(bigint) IS
    'Gives a project partitions of its own (of scopedb.fragments and scopedb_private.fragment_search), moving its rows.';

-- Scoped full-text candidates: the best `max_rows` fragments matching `query`, with their ts_rank_cd and their
-- rows. The GIN index of scopedb_private.fragment_search finds the matches (it has no RLS, so the index is usable),
-- and the verified scope is applied to them there: the copy carries the columns the read policy judges, and the
-- predicate below is that policy's, term for term, with the scope's values read once (one check of the token, not
-- one per accessor) and inlined as constants (plan_cache_mode), so the planner prunes to the scope's partitions and
-- drops the checks a scope does not need (no patterns: no pattern test at all). The copy carries the content too,
-- so the best `max_rows` are returned from it alone. They used to be joined to scopedb.fragments under the owner's
-- scope policy, a second check of each returned row; planning that join into the partitioned table took 0.5 ms
-- of a 0.6 ms search in a small scope (revision 0017 removed it). The copy is written only by the owner's
-- triggers on fragments, in the statement that changes them, so it is what the fragments are.
--
-- Each project's words are in its own partition (scopedb_parts.fragment_search_<id>, with a GIN index once the
-- project is large enough; the small projects' in the shared partition, searched through the primary key), and the
-- scope's project ids prune the others away before anything is read. The function runs with the caller's settings
-- unless it pins them: gin_fuzzy_search_limit thinned every tenant's matches before the scope filter, so the count
-- A got back for a word told A how often other tenants use it. The settings below are fixed for the call. The
-- statement is static (no EXECUTE), and no function shows its plan: a plan made as the owner, from every tenant's
-- statistics, changed shape with how common A's word was across all tenants.
CREATE OR REPLACE FUNCTION scopedb.text_candidates(query tsquery, max_rows integer)
RETURNS TABLE (project_id bigint, id text, rank real, resource_id text, path text, fqn text, content text)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET gin_fuzzy_search_limit = 0
SET enable_seqscan = on
SET enable_indexscan = on
SET enable_bitmapscan = on
SET enable_nestloop = on
SET enable_hashjoin = on
SET enable_mergejoin = on
SET enable_sort = on
SET jit = off
SET enable_partition_pruning = on
SET plan_cache_mode = force_custom_plan
AS $$
DECLARE
    c scopedb_private.scope_claims := scopedb_private.verified_claims();
    ids bigint[] := c.project_ids;
    as_of timestamptz;
    patterns boolean;
    path_include text[];
    path_exclude text[];
    name_include text[];
    name_exclude text[];
BEGIN
    IF max_rows IS NULL OR max_rows < 0 OR max_rows > 100000 THEN
        RAISE EXCEPTION 'max_rows must be between 0 and 100000' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF COALESCE(pg_catalog.cardinality(ids), 0) = 0 THEN  -- no scope: nothing, and no partition opened
        RETURN;
    END IF;
    -- What the accessors return for a valid, resolved scope (scopedb.scope_as_of, scope_filters_content, the
    -- pattern accessors; scope_resource_filter is c.resource_filter itself).
    as_of := CASE WHEN c."time" = 'all' THEN NULL
                  WHEN c."time" IS NULL OR c."time" = 'current' THEN pg_catalog.now()
                  ELSE c."time"::timestamptz END;
    patterns := COALESCE(pg_catalog.cardinality(c.path_include), 0) + COALESCE(pg_catalog.cardinality(c.path_exclude), 0)
              + COALESCE(pg_catalog.cardinality(c.name_include), 0) + COALESCE(pg_catalog.cardinality(c.name_exclude), 0)
              > 0;
    path_include := scopedb_private.anchored(NULLIF(c.path_include, '{}'));
    path_exclude := scopedb_private.anchored(NULLIF(c.path_exclude, '{}'));
    name_include := scopedb_private.anchored(NULLIF(c.name_include, '{}'));
    name_exclude := scopedb_private.anchored(NULLIF(c.name_exclude, '{}'));
    RETURN QUERY
        SELECT s.project_id, s.id, pg_catalog.ts_rank_cd(s.tsv, query) AS rank, s.resource_id, s.path, s.fqn,
               s.content
          FROM scopedb_private.fragment_search AS s
         WHERE s.tsv @@ query AND s.project_id = ANY (ids)
           -- The read policy on scopedb.fragments (sql/04_policies.sql), on the copied columns.
           AND (s.valid_from <= as_of AND (s.valid_to IS NULL OR s.valid_to > as_of)) IS NOT FALSE
           AND (COALESCE(s.resource_id, '') = ANY (c.resource_filter)) IS NOT FALSE
           AND (NOT patterns
                OR ((COALESCE(s.path, '') ~ ANY (path_include)) IS NOT FALSE
                    AND (COALESCE(s.path, '') ~ ANY (path_exclude)) IS NOT TRUE
                    AND (COALESCE(s.fqn, '') ~ ANY (name_include)) IS NOT FALSE
                    AND (COALESCE(s.fqn, '') ~ ANY (name_exclude)) IS NOT TRUE))
         ORDER BY 3 DESC, 1, 2   -- by position: the names are also this function's output columns
         LIMIT max_rows;
END
$$;
COMMENT ON FUNCTION scopedb.text_candidates(tsquery, integer) IS
    'Best-ranked fragments of the verified scope matching a tsquery, from the scope''s partitions only.';

RESET ROLE;
