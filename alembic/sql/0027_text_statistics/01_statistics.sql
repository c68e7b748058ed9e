-- Revision 0027 (issue 19): short statistics for the full-text copy's tsvectors.
-- A one-project text search plans its tsquery as a constant (scopedb.text_candidates, planned on every call), and
-- the planner estimated it from the partition's most common lexemes: at the default statistics target, up to 1,000 of
-- them, 4-5 kB stored compressed in pg_statistic, decompressed on every call (perf: about a quarter of that
-- statement's planning). The target of tsv is 10 now (100 lexemes, stored as they are), on the parent and every
-- partition (ALTER TABLE recurses to the partitions there are; a partition made later does not inherit it, so
-- create_project_storage gives each new one its parent's). The statistics are gathered again here, for tsv
-- alone, so the shorter lists apply from this revision on rather than from the next automatic ANALYZE. The common
-- lexemes stay in the list; a rarer one is estimated as rarer than it is, which only favours the index scan it
-- takes anyway.

SET ROLE scopedb_owner;

ALTER TABLE scopedb_private.fragment_search ALTER COLUMN tsv SET STATISTICS 10;

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
        -- Its trigger deletes the copies but the search groups' (scopedb_private.forget_fragment_copies).
        PERFORM pg_catalog.set_config('scopedb.moving_project', project::text, true);
        DELETE FROM scopedb.fragments AS f WHERE f.project_id = project;
        PERFORM pg_catalog.set_config('scopedb.moving_project', '', true);
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
        -- The statistics target of tsv as its parent's, which partitions do not inherit (sql/02_schema.sql); -1
        -- is the default, for a parent that has none set.
        EXECUTE pg_catalog.format(
            'ALTER TABLE scopedb_parts.fragment_search_%s ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY, '
            'ALTER COLUMN tsv SET STATISTICS %s', project,
            (SELECT COALESCE(a.attstattarget, -1) FROM pg_catalog.pg_attribute AS a
              WHERE a.attrelid = 'scopedb_private.fragment_search'::regclass AND a.attname = 'tsv'));
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

ANALYZE scopedb_private.fragment_search (tsv);

RESET ROLE;
