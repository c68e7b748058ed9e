-- Revision 0022 (issue 16): search groups. An admin declares projects that are searched together; the
-- maintenance step gives each group one HNSW index over a copy of its members' embedded fragments, and
-- scopedb.nearest_fragments searches it, instead of one index per member, for a scope that reads every member
-- whole at the present time (and only for such a scope: docs/security.md #76). Tables, their triggers and
-- functions; the maintenance plan's group steps; the fragments' delete trigger and create_project_storage keep
-- the copies in step.

SET ROLE scopedb_owner;

-- pgvector's settings (hnsw.*) in the functions' SET clauses are known only once its library is loaded.
SELECT '[1]'::public.vector;

COMMENT ON SCHEMA scopedb_parts IS
    'The partitions of scopedb.fragments and scopedb_private.fragment_search: one per project past the storage '
    'threshold, and one shared by the smaller projects; and of scopedb_private.group_vectors, one per search group. '
    'Only scopedb_owner may use it; queries reach the partitions through their parents, whose policies apply.';

-- Search groups: sets of projects an operator declares are searched together (one customer's projects, say),
-- each with one HNSW index over the union of its members' fragments. No search structure may hold two projects'
-- rows for a scope that sees only one of them: that is the similarity oracle (docs/security.md #76). A group's
-- index is therefore consulted only by a scope that reads every member whole at the present time (no resource,
-- path or name narrowing, no past instant): everything the index holds is then visible to the scope, and what it
-- answers cannot depend on anything the scope may not see. Any other scope searches the members' own indexes, as
-- without the group. What a group buys is one search for a scope over many projects instead of one per project
-- (docs/benchmarks.md: a 60-project scope made 60 index searches, 22 times the cost of one shared index); what
-- it costs is a second copy of its members' embeddings and an index build. Declared by an admin
-- (Admin.create_search_group), filled and indexed by the maintenance step (scopedb storage), searched by
-- scopedb.nearest_fragments. A reference table on Citus (docs/scaling.md).
--   state  declared  no usable copy (just declared, or a member was removed): the maintenance step (re)fills it
--          filled    the copy is complete and kept in step by triggers; its index is not built yet
--          ready     the copy's HNSW index is built: searches use it
CREATE TABLE scopedb_private.search_groups (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name        text NOT NULL,
    state       text NOT NULL DEFAULT 'declared',
    -- The members' ids, in order: what every search reads (search_group_members, which the projects' deletion
    -- cascades to, is the truth; its trigger keeps this copy). One array read per group instead of a join.
    members     bigint[] NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT search_groups_name_key UNIQUE (name),
    CONSTRAINT search_groups_name_check CHECK (name <> '' AND length(name) <= 200 AND name !~ '[[:cntrl:]]'),
    CONSTRAINT search_groups_state_check CHECK (state IN ('declared', 'filled', 'ready'))
);
COMMENT ON TABLE scopedb_private.search_groups IS
    'Sets of projects searched together through one HNSW index, used only by scopes that read every member whole; '
    'owner-only.';

CREATE TABLE scopedb_private.search_group_members (
    project_id  bigint NOT NULL REFERENCES scopedb.projects (id) ON DELETE CASCADE,
    group_id    bigint NOT NULL REFERENCES scopedb_private.search_groups (id) ON DELETE CASCADE,
    CONSTRAINT search_group_members_pkey PRIMARY KEY (project_id, group_id)
);
CREATE INDEX search_group_members_group_idx ON scopedb_private.search_group_members (group_id);
COMMENT ON TABLE scopedb_private.search_group_members IS
    'The projects of each search group; a member removed (its project deleted) sends the group back to declared.';

-- The groups' copies of their members' embedded fragments, a partition per group (scopedb_parts.group_vectors_<id>)
-- with its HNSW index, made by the maintenance step (scopedb_private.fill_search_group). Owner-only and without
-- row-level security, like the full-text copy: only scopedb.group_nearest reads it, for a scope that reads every
-- member whole, so the copy carries what a search returns (the validity, to drop versions the present does not
-- see, and the content) and nothing a narrowed scope would judge. Kept in step with fragments by the triggers
-- that keep the full-text copy: a new fragment of a member is copied into its groups' partitions, a change to one
-- is copied, a deleted one is removed. No partition of the DEFAULT kind: a row for a group without a partition is
-- not copied (the maintenance step fills the partition whole).
-- The embedding column has the type of fragments.embedding, whose width was fixed by the first migration.
DO $$
BEGIN
    EXECUTE pg_catalog.format('CREATE TABLE scopedb_private.group_vectors (
    group_id    bigint NOT NULL,
    project_id  bigint NOT NULL,
    id          text NOT NULL,
    embedding   %s NOT NULL,
    valid_from  timestamptz NOT NULL,
    valid_to    timestamptz,
    resource_id text,
    path        text,
    fqn         text,
    content     text NOT NULL,
    CONSTRAINT group_vectors_pkey PRIMARY KEY (project_id, id, group_id)
) PARTITION BY LIST (group_id)',
        (SELECT pg_catalog.format_type(a.atttypid, a.atttypmod) FROM pg_catalog.pg_attribute AS a
          WHERE a.attrelid = 'scopedb.fragments'::regclass AND a.attname = 'embedding'));
END
$$;
COMMENT ON TABLE scopedb_private.group_vectors IS
    'Owner-only copy of the embedded fragments of each search group''s members, a partition per group with its '
    'HNSW index (see scopedb_private.search_groups and scopedb.group_nearest).';

-- ---------------------------------------------------------------------------------------------------------------
-- Search groups
-- ---------------------------------------------------------------------------------------------------------------

-- A search group (scopedb_private.search_groups, sql/02_schema.sql) has one HNSW index over its members' embedded
-- fragments, in a partition of scopedb_private.group_vectors of its own. It is made in three maintenance steps,
-- each a row of storage_plan: fill (this function), the index build (CREATE INDEX, outside a transaction), and
-- search_group_ready. Filling makes the partition standalone, copies every embedded fragment of the members into
-- it through the parent (as the owner in an admin session), and attaches it (SHARE UPDATE EXCLUSIVE on the
-- parent, which no search conflicts with). The members' partitions are locked in SHARE mode first, so no member
-- writes a fragment while the copy is made (a fragment written meanwhile would be missed): what waits is the
-- members' writes, and the small projects' if a member lives in the partition they share, for the length of the
-- copy. Once the partition is attached, the fragments' triggers copy every later change of a member.
CREATE FUNCTION scopedb_private.fill_search_group(target bigint) RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    part text := pg_catalog.format('scopedb_parts.group_vectors_%s', target);
    members bigint[];
    member bigint;
BEGIN
    IF NOT scopedb_private.is_admin_session() THEN
        RAISE EXCEPTION 'only an admin session may fill a search group' USING ERRCODE = 'insufficient_privilege';
    END IF;
    -- The group's row, locked: a member removed meanwhile (which declares the group again) waits for the fill.
    PERFORM FROM scopedb_private.search_groups AS g WHERE g.id = target AND g.state = 'declared' FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no declared search group with id %', target USING ERRCODE = 'no_data_found';
    END IF;
    IF pg_catalog.to_regclass(part) IS NOT NULL THEN
        RAISE EXCEPTION 'search group % still has a partition; the maintenance step drops it first', target
              USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    members := ARRAY(SELECT m.project_id FROM scopedb_private.search_group_members AS m
                      WHERE m.group_id = target ORDER BY m.project_id);
    FOREACH member IN ARRAY members LOOP
        EXECUTE pg_catalog.format('LOCK TABLE %s IN SHARE MODE',
            COALESCE(pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.fragments_%s', member))::text,
                     'scopedb_parts.fragments_shared'));
    END LOOP;
    EXECUTE pg_catalog.format(
        'CREATE TABLE %s (LIKE scopedb_private.group_vectors INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part);
    -- In key order, as create_project_storage copies: where a row lands owes nothing to where it lay before.
    EXECUTE pg_catalog.format(
        'INSERT INTO %s (group_id, project_id, id, embedding, valid_from, valid_to, resource_id, path, fqn, content) '
        'SELECT %s, f.project_id, f.id, f.embedding, f.valid_from, f.valid_to, f.resource_id, f.path, f.fqn, f.content '
        '  FROM scopedb.fragments AS f WHERE f.project_id = ANY (%L::bigint[]) AND f.embedding IS NOT NULL '
        ' ORDER BY f.project_id, f.id', part, target, members);
    EXECUTE pg_catalog.format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY', part);
    EXECUTE pg_catalog.format('ALTER TABLE scopedb_private.group_vectors ATTACH PARTITION %s FOR VALUES IN (%s)',
                              part, target);
    UPDATE scopedb_private.search_groups AS g SET state = 'filled' WHERE g.id = target;
END
$$;
COMMENT ON FUNCTION scopedb_private.fill_search_group(bigint) IS
    'Makes a declared search group''s partition of scopedb_private.group_vectors with its members'' embedded fragments.';

-- The last maintenance step of a group: once its HNSW index is built and valid, the group is ready and searches
-- use it. First it copies any member fragment the copy lacks: the triggers copy a member's new fragments once
-- the group's partition exists, but a writer whose snapshot predates the group's declaration does not see the
-- membership (REPEATABLE READ), and such a row would otherwise stay missing from the group's answers. False when
-- there is nothing to do (the group is already ready, or was declared again meanwhile).
CREATE FUNCTION scopedb_private.search_group_ready(target bigint) RETURNS boolean
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    members bigint[];
BEGIN
    IF NOT scopedb_private.is_admin_session() THEN
        RAISE EXCEPTION 'only an admin session may mark a search group ready' USING ERRCODE = 'insufficient_privilege';
    END IF;
    PERFORM FROM scopedb_private.search_groups AS g WHERE g.id = target AND g.state = 'filled' FOR UPDATE;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_index AS x
                    WHERE x.indexrelid = pg_catalog.to_regclass(
                              pg_catalog.format('scopedb_parts.group_vectors_%s_embedding_hnsw', target))
                      AND x.indisvalid AND x.indisready) THEN
        RAISE EXCEPTION 'search group %''s HNSW index is missing or invalid; run the maintenance step again', target
              USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    members := ARRAY(SELECT m.project_id FROM scopedb_private.search_group_members AS m WHERE m.group_id = target);
    INSERT INTO scopedb_private.group_vectors AS v (group_id, project_id, id, embedding, valid_from, valid_to,
                                                    resource_id, path, fqn, content)
    SELECT target, f.project_id, f.id, f.embedding, f.valid_from, f.valid_to, f.resource_id, f.path, f.fqn, f.content
      FROM scopedb.fragments AS f
     WHERE f.project_id = ANY (members) AND f.embedding IS NOT NULL
       AND NOT EXISTS (SELECT FROM scopedb_private.group_vectors AS c
                        WHERE c.group_id = target AND c.project_id = f.project_id AND c.id = f.id);
    UPDATE scopedb_private.search_groups AS g SET state = 'ready' WHERE g.id = target;
    RETURN true;
END
$$;
COMMENT ON FUNCTION scopedb_private.search_group_ready(bigint) IS
    'Marks a filled search group ready once its HNSW index is valid (copying any member fragment its copy lacks).';

-- A change of a group's members makes its copy wrong (a removed member's rows would stay in the index, an added
-- member's would be missing): the group is declared again, so no search uses it, and the maintenance step drops
-- its partition and fills it anew. A member goes when its project is deleted (the foreign key cascades). The
-- group's copy of its members' ids (search_groups.members, which searches read) is made again here, once per
-- statement and group (declaring a group of 10,000 projects is one statement).
CREATE FUNCTION scopedb_private.redeclare_search_group() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    changed bigint[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        changed := ARRAY(SELECT DISTINCT a.group_id FROM added AS a);
    ELSIF TG_OP = 'DELETE' THEN
        changed := ARRAY(SELECT DISTINCT r.group_id FROM removed AS r);
    ELSIF TG_OP = 'UPDATE' THEN
        changed := ARRAY(SELECT a.group_id FROM added AS a UNION SELECT r.group_id FROM removed AS r);
    END IF;
    UPDATE scopedb_private.search_groups AS g
       SET state = 'declared',
           members = ARRAY(SELECT m.project_id FROM scopedb_private.search_group_members AS m
                            WHERE m.group_id = g.id ORDER BY m.project_id)
     WHERE TG_OP = 'TRUNCATE' OR g.id = ANY (changed);
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION scopedb_private.redeclare_search_group() IS
    'Sends a search group back to declared when its members change (its copy is filled anew), and copies its members'' ids.';

CREATE TRIGGER search_group_members_redeclare_insert
    AFTER INSERT ON scopedb_private.search_group_members
    REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.redeclare_search_group();
CREATE TRIGGER search_group_members_redeclare_update
    AFTER UPDATE ON scopedb_private.search_group_members
    REFERENCING OLD TABLE AS removed NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.redeclare_search_group();
CREATE TRIGGER search_group_members_redeclare_delete
    AFTER DELETE ON scopedb_private.search_group_members
    REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.redeclare_search_group();
CREATE TRIGGER search_group_members_redeclare_truncate
    AFTER TRUNCATE ON scopedb_private.search_group_members
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.redeclare_search_group();

-- The `k` fragments of `projects` nearest to `query` (cosine), through search groups' indexes, when groups the
-- verified scope reads whole cover every one of `projects`; otherwise nothing (scopedb.nearest_fragments then
-- searches the projects' own indexes). A group is used only if every member is one of `projects` and the scope
-- reads every member whole at the present time (scope_whole_project_ids(true): no resource, path or name
-- narrowing, no other instant). Only those: a group's index holds every member's rows, and consulted for a scope
-- that may not see all of them it would answer questions about the rows it may not see (the similarity oracle,
-- docs/security.md #76). Whatever the caller passes, a scope that does not read the groups whole gets nothing
-- here, as it would if no group existed. Groups do not overlap in one search (the largest first). A call over
-- fewer than two projects, or in a database with no ready group, costs one probe of the groups and no read of
-- the scope.
--
-- The search is a strict iterative scan of the group's index over the versions valid now (the copy carries the
-- validity), so the filter never starves the answer; rows are returned from the copy (the content with them),
-- sorted as the exact statement sorts them, at most k. The copy is owner-only, so this runs as its owner, with
-- every setting the search depends on pinned (the caller's hnsw.ef_search, iterative scan or planner switches
-- never reach it): what it returns depends on the members' rows alone, all of which the scope sees. Every
-- statement keeps its generic plan for the connection, the search's too: the group's id is a parameter of that
-- plan, and the other groups' partitions are pruned when it starts (run-time pruning), so a call plans nothing
-- (planning the search on every call cost 0.2 ms; one function reading the scope once, instead of a second one
-- choosing the groups, saved 0.3-0.5 ms a call). There are as many partitions as groups, few, so a plan that
-- locks them all costs little. Several groups are searched by one statement made for the call.
CREATE FUNCTION scopedb.group_nearest(projects bigint[], query vector, k integer, ef_search integer,
                                      max_scan_tuples integer)
RETURNS TABLE (project_id bigint, id text, resource_id text, path text, fqn text, content text,
               distance double precision)
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET plan_cache_mode = force_generic_plan
SET enable_partition_pruning = on
SET constraint_exclusion = off
SET hnsw.iterative_scan = strict_order
SET hnsw.ef_search = 20
SET hnsw.max_scan_tuples = 20000
AS $$
DECLARE
    wanted bigint[];
    chosen bigint[] := '{}';
    covered bigint[] := '{}';
    g record;
BEGIN
    IF k IS NULL OR k < 0 OR k > 10000 THEN
        RAISE EXCEPTION 'k must be between 0 and 10000' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF COALESCE(pg_catalog.cardinality(projects), 0) < 2 OR query IS NULL OR k = 0
       OR NOT EXISTS (SELECT FROM scopedb_private.search_groups AS sg WHERE sg.state = 'ready') THEN
        RETURN;
    END IF;
    -- The call's projects that the scope reads whole. Sets of ids are compared by hashing throughout: the
    -- array operators (<@, &&) compare element by element, and with thousands of projects took 0.26 s.
    wanted := ARRAY(SELECT p FROM pg_catalog.unnest(projects) AS p
                    INTERSECT SELECT w FROM pg_catalog.unnest(scopedb.scope_whole_project_ids(true)) AS w);
    IF pg_catalog.cardinality(wanted) < 2 THEN
        RETURN;
    END IF;
    -- The ready groups every member of which is wanted (the members' key leads with the project), largest
    -- first; a group that overlaps one taken is left.
    FOR g IN SELECT sg.id, sg.members
               FROM (SELECT m.group_id, pg_catalog.count(*) AS inside FROM scopedb_private.search_group_members AS m
                      WHERE m.project_id = ANY (wanted) GROUP BY m.group_id) AS c
               JOIN scopedb_private.search_groups AS sg
                 ON sg.id = c.group_id AND sg.state = 'ready' AND pg_catalog.cardinality(sg.members) = c.inside
              ORDER BY c.inside DESC, sg.id LOOP
        CONTINUE WHEN pg_catalog.cardinality(covered) > 0
                  AND EXISTS (SELECT x FROM pg_catalog.unnest(g.members) AS x INTERSECT
                              SELECT y FROM pg_catalog.unnest(covered) AS y);
        chosen := chosen || g.id;
        covered := covered || g.members;
    END LOOP;
    -- Nothing unless they cover every project of the call (they are disjoint subsets of it).
    IF pg_catalog.cardinality(covered) = 0
       OR pg_catalog.cardinality(covered) <> (SELECT pg_catalog.count(DISTINCT p) FROM pg_catalog.unnest(projects) AS p) THEN
        RETURN;
    END IF;
    PERFORM pg_catalog.set_config('hnsw.ef_search', GREATEST(LEAST(COALESCE(ef_search, 0), 1000), k, 1)::text, true),
            pg_catalog.set_config('hnsw.max_scan_tuples', GREATEST(COALESCE(max_scan_tuples, 0), 1)::text, true),
            pg_catalog.set_config('enable_sort', 'off', true);
    -- A ready group's copy holds its members' rows only (a member's removal declares it again); the k rows
    -- found are checked against them all the same, and a row of another project would be dropped (the answer
    -- then falls short, and the caller's exact statement answers).
    IF pg_catalog.cardinality(chosen) = 1 THEN
        RETURN QUERY
            SELECT r.project_id, r.id, r.resource_id, r.path, r.fqn, r.content, r.distance
              FROM (SELECT v.project_id, v.id, v.resource_id, v.path, v.fqn, v.content, v.embedding <=> query AS distance
                      FROM scopedb_private.group_vectors AS v
                     WHERE v.group_id = chosen[1]
                       AND v.valid_from <= pg_catalog.now() AND (v.valid_to IS NULL OR v.valid_to > pg_catalog.now())
                     ORDER BY v.embedding <=> query, v.project_id, v.id  -- ties as the exact statement breaks them
                     LIMIT k) AS r
             WHERE r.project_id = ANY (covered)
             ORDER BY r.distance, r.project_id, r.id;
        RETURN;
    END IF;
    -- Several groups: each one's k nearest, merged. The ids are bigints from search_groups, not the caller's.
    RETURN QUERY EXECUTE
        'SELECT u.project_id, u.id, u.resource_id, u.path, u.fqn, u.content, u.distance FROM ('
        || (SELECT pg_catalog.string_agg(pg_catalog.format(
               '(SELECT v.project_id, v.id, v.resource_id, v.path, v.fqn, v.content, '
               'v.embedding <=> $1 AS distance FROM scopedb_private.group_vectors AS v '
               'WHERE v.group_id = %s AND v.valid_from <= pg_catalog.now() '
               'AND (v.valid_to IS NULL OR v.valid_to > pg_catalog.now()) '
               'ORDER BY v.embedding <=> $1, v.project_id, v.id LIMIT $2)', c.g), ' UNION ALL ')
              FROM pg_catalog.unnest(chosen) AS c (g))
        || ') AS u WHERE u.project_id = ANY ($3) ORDER BY u.distance, u.project_id, u.id LIMIT $2'
        USING query, k, covered;
END
$$;
COMMENT ON FUNCTION scopedb.group_nearest(bigint[], vector, integer, integer, integer) IS
    'The k nearest valid fragments of the given projects through search groups the verified scope reads whole; nothing unless such groups cover every project.';

-- The operator <=> is pgvector's, in the schema the extension was installed in, which the function's search_path
-- must name: pg_catalog first, so nothing there can be shadowed, and pg_temp last.
DO $$
BEGIN
    EXECUTE pg_catalog.format(
        'ALTER FUNCTION scopedb.group_nearest(bigint[], vector, integer, integer, integer) '
        'SET search_path = pg_catalog, %I, pg_temp',
        (SELECT n.nspname FROM pg_catalog.pg_extension AS e
           JOIN pg_catalog.pg_namespace AS n ON n.oid = e.extnamespace WHERE e.extname = 'vector'));
END
$$;

-- Keeps the search groups' copies (scopedb_private.group_vectors) in step with fragments' inserts and updates, as
-- sync_fragment_search keeps the full-text copy (deletes: forget_fragment_copies). A fragment of a member is copied
-- into each of its groups that has a partition, i.e. from the moment the maintenance step filled it (the group's
-- state is not consulted: a transaction's snapshot may predate the fill, the catalog lookup does not); a fragment
-- whose embedding was removed leaves every copy. Statement-level; a statement of projects in no group costs one
-- probe of the members table.
CREATE FUNCTION scopedb_private.sync_group_vectors() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF NOT EXISTS (SELECT FROM scopedb_private.search_group_members AS m
                    WHERE m.project_id IN (SELECT c.project_id FROM changed AS c)) THEN
        RETURN NULL;
    END IF;
    INSERT INTO scopedb_private.group_vectors AS v (group_id, project_id, id, embedding, valid_from, valid_to,
                                                    resource_id, path, fqn, content)
    SELECT m.group_id, c.project_id, c.id, c.embedding, c.valid_from, c.valid_to, c.resource_id, c.path, c.fqn,
           c.content
      FROM changed AS c
      JOIN scopedb_private.search_group_members AS m ON m.project_id = c.project_id
     WHERE c.embedding IS NOT NULL
       AND pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.group_vectors_%s', m.group_id)) IS NOT NULL
    ON CONFLICT ON CONSTRAINT group_vectors_pkey DO UPDATE
       SET embedding = EXCLUDED.embedding, valid_from = EXCLUDED.valid_from, valid_to = EXCLUDED.valid_to,
           resource_id = EXCLUDED.resource_id, path = EXCLUDED.path, fqn = EXCLUDED.fqn, content = EXCLUDED.content
     -- The vectors compared as arrays: pgvector's own = is not on this function's search_path.
     WHERE (v.embedding::pg_catalog.float4[], v.valid_from, v.valid_to, v.resource_id, v.path, v.fqn, v.content)
           IS DISTINCT FROM (EXCLUDED.embedding::pg_catalog.float4[], EXCLUDED.valid_from, EXCLUDED.valid_to,
                             EXCLUDED.resource_id, EXCLUDED.path, EXCLUDED.fqn, EXCLUDED.content);
    DELETE FROM scopedb_private.group_vectors AS v
     USING changed AS c
     WHERE c.embedding IS NULL AND v.project_id = c.project_id AND v.id = c.id;
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION scopedb_private.sync_group_vectors() IS
    'Copies a statement''s new or changed fragments of search group members into their groups'' copies.';

CREATE TRIGGER fragments_sync_groups_insert
    AFTER INSERT ON scopedb.fragments
    REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_group_vectors();
CREATE TRIGGER fragments_sync_groups_update
    AFTER UPDATE ON scopedb.fragments
    REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_group_vectors();

-- What a foreign key with ON DELETE CASCADE would do for the owner-only copies of a fragment (its tsvector, its
-- archived original, its search groups' copies), which cannot reference the partitioned fragments table without
-- slowing every new project (sql/02_schema.sql). Statement-level: one set-based delete per statement, whatever
-- removed the rows (the delete functions, or a project's deletion cascading to its fragments). The groups' copies
-- are removed by key, whatever the groups' members are now. One exception: create_project_storage deletes a
-- project's rows through the parent to move them into a partition of its own; the rows live on unchanged, so
-- their groups' copies stay (putting them back would cost an HNSW insertion each). It says so with the setting
-- scopedb.moving_project, which counts only in an admin session (the app cannot be in one).
CREATE OR REPLACE FUNCTION scopedb_private.forget_fragment_copies() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    moving text := NULLIF(pg_catalog.current_setting('scopedb.moving_project', true), '');
BEGIN
    DELETE FROM scopedb_private.fragment_search AS s
     USING gone AS g WHERE s.project_id = g.project_id AND s.id = g.id;
    DELETE FROM scopedb_private.fragment_originals AS o
     USING gone AS g WHERE o.project_id = g.project_id AND o.id = g.id;
    IF moving IS NOT NULL AND NOT scopedb_private.is_admin_session() THEN
        moving := NULL;
    END IF;
    DELETE FROM scopedb_private.group_vectors AS v
     USING gone AS g
     WHERE v.project_id = g.project_id AND v.id = g.id AND g.project_id::text IS DISTINCT FROM moving;
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION scopedb_private.forget_fragment_copies() IS
    'Removes the full-text copy, the archived original and the search groups'' copies of a statement''s deleted fragments.';

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

-- What the maintenance step should do (scopedb.Admin.maintain_storage, `scopedb storage`): one row per action,
-- with the statement that performs it. The statements cannot run here: CREATE INDEX CONCURRENTLY and DETACH
-- PARTITION CONCURRENTLY, which keep every other project's reads and writes going, refuse to run inside a
-- transaction block. Actions, in order:
--   create  a project in the shared partitions with at least `threshold` fragments gets partitions of its own,
--           its rows moved there (scopedb_private.create_project_storage); so does a project that has one of its
--           two partitions and not the other, whatever its size (threshold NULL: only that)
--   hnsw    a project with at least `threshold` embedded fragments and no HNSW index gets one on its partition
--           (threshold NULL: no index is built)
--   gin     a project with at least `threshold` fragments and no GIN index gets one on its full-text partition
--   detach / drop   a partition whose project no longer exists is detached, then dropped
-- and for the search groups (scopedb_private.search_groups), when the plan covers every project or none:
--   group_detach / group_drop   the partition of a group that no longer exists, or of a group declared again
--           (its members changed), is detached, then dropped
--   group_unindex   an invalid index a failed build left on a group's partition is dropped
--   group_fill      a declared group's partition is made and filled (scopedb_private.fill_search_group)
--   group_hnsw      its HNSW index is built (row_count: the rows it will hold)
--   group_ready     the group is marked ready once the index is valid (scopedb_private.search_group_ready)
-- (threshold NULL: only the drops.)
-- Below the threshold a project stays in the shared partitions and is searched exactly (through the primary key):
-- no index means no approximation, and for a few hundred rows an exact scan costs about what an index scan does. With `online` false the
-- indexes are built with a plain CREATE INDEX: one pass over the rows, no waiting for other transactions, and it
-- still locks only the project's own partition — its writes wait for the build, no one else's do (the choice
-- after a bulk load, when nothing writes).
--
-- `projects` limits the plan to those projects (NULL: every project). Counting a project's rows locks its
-- partitions until the transaction ends, and with thousands of projects one transaction ran out of lock slots
-- (max_locks_per_transaction); the caller plans a batch of projects per transaction. Partitions of deleted
-- projects, which need no count, are planned when `projects` is NULL or empty.
CREATE OR REPLACE FUNCTION scopedb_private.storage_plan(threshold integer, online boolean DEFAULT true,
                                             projects bigint[] DEFAULT NULL)
RETURNS TABLE (project_id bigint, action text, statement text, row_count bigint)
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET plan_cache_mode = force_custom_plan
AS $$
DECLARE
    p record;
    own integer;
    rows_found bigint;
    build text := CASE WHEN online THEN 'CONCURRENTLY ' ELSE '' END;
    members bigint[];
    index_valid boolean;
    opclass text := (SELECT pg_catalog.quote_ident(n.nspname) || '.vector_cosine_ops'
                       FROM pg_catalog.pg_extension AS e
                       JOIN pg_catalog.pg_namespace AS n ON n.oid = e.extnamespace WHERE e.extname = 'vector');
BEGIN
    IF threshold < 1 THEN
        RAISE EXCEPTION 'threshold must be a positive number of rows' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    FOR p IN SELECT pr.id FROM scopedb.projects AS pr WHERE projects IS NULL OR pr.id = ANY (projects)
              ORDER BY pr.id LOOP
        own := (pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.fragments_%s', p.id)) IS NOT NULL)::integer
               + (pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.fragment_search_%s', p.id)) IS NOT NULL)::integer;
        IF own < 2 THEN
            IF own = 0 THEN
                CONTINUE WHEN threshold IS NULL;
                SELECT pg_catalog.count(*) INTO rows_found
                  FROM (SELECT FROM scopedb.fragments AS f WHERE f.project_id = p.id LIMIT threshold) AS r;
                CONTINUE WHEN rows_found < threshold;  -- stays in the shared partitions
            END IF;
            RETURN QUERY SELECT p.id, 'create',
                                pg_catalog.format('SELECT scopedb_private.create_project_storage(%s)', p.id), 0::bigint;
        END IF;
        CONTINUE WHEN threshold IS NULL;  -- create and drop only
        IF pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.fragments_%s_embedding_hnsw', p.id)) IS NULL THEN
            -- Through the parent, where the owner's admin policy applies (the partition's own forced row-level
            -- security has no policy, so read directly it shows the owner nothing).
            SELECT pg_catalog.count(*) INTO rows_found
              FROM (SELECT FROM scopedb.fragments AS f
                     WHERE f.project_id = p.id AND f.embedding IS NOT NULL LIMIT threshold) AS r;
            IF rows_found >= threshold THEN
                -- The whole count, for sizing maintenance_work_mem (an HNSW build that fits in it is much faster).
                SELECT pg_catalog.count(*) INTO rows_found
                  FROM scopedb.fragments AS f WHERE f.project_id = p.id AND f.embedding IS NOT NULL;
                RETURN QUERY SELECT p.id, 'hnsw', pg_catalog.format(
                    'CREATE INDEX %sIF NOT EXISTS fragments_%s_embedding_hnsw '
                    'ON scopedb_parts.fragments_%s USING hnsw (embedding %s.vector_cosine_ops) '
                    'WITH (m = 16, ef_construction = 128)', build, p.id, p.id,
                    (SELECT pg_catalog.quote_ident(n.nspname) FROM pg_catalog.pg_extension AS e
                       JOIN pg_catalog.pg_namespace AS n ON n.oid = e.extnamespace WHERE e.extname = 'vector')),
                    rows_found;
            END IF;
        END IF;
        IF pg_catalog.to_regclass(pg_catalog.format('scopedb_parts.fragment_search_%s_tsv_gin', p.id)) IS NULL THEN
            SELECT pg_catalog.count(*) INTO rows_found
              FROM (SELECT FROM scopedb_private.fragment_search AS s WHERE s.project_id = p.id LIMIT threshold) AS r;
            IF rows_found >= threshold THEN
                RETURN QUERY SELECT p.id, 'gin', pg_catalog.format(
                    'CREATE INDEX %sIF NOT EXISTS fragment_search_%s_tsv_gin '
                    'ON scopedb_parts.fragment_search_%s USING gin (tsv)', build, p.id, p.id), rows_found;
            END IF;
        END IF;
    END LOOP;
    IF COALESCE(pg_catalog.cardinality(projects), 0) > 0 THEN
        RETURN;
    END IF;
    -- Partitions of projects that no longer exist, the full-text one first. PostgreSQL detaches concurrently
    -- only from a parent without a DEFAULT partition, and both parents have one (the small projects' shared
    -- partition, revision 0014): the detach then takes an ACCESS EXCLUSIVE lock on the parent for an instant,
    -- which the maintenance step asks for with a short lock_timeout, and tries again, so that no tenant's query
    -- waits behind it for long (scopedb.Admin).
    RETURN QUERY
        SELECT o.project_id, a.action, pg_catalog.format(a.template, o.parent, o.part), 0::bigint
          FROM (SELECT i.inhparent::regclass AS parent, c.oid::regclass AS part,
                       pg_catalog.substring(pg_catalog.pg_get_expr(c.relpartbound, c.oid), '(\d+)')::bigint
                           AS project_id,
                       CASE WHEN i.inhparent = 'scopedb_private.fragment_search'::regclass THEN 0 ELSE 1 END AS rank,
                       i.inhdetachpending AS pending,
                       (SELECT pt.partdefid <> 0 FROM pg_catalog.pg_partitioned_table AS pt
                         WHERE pt.partrelid = i.inhparent) AS has_default
                  FROM pg_catalog.pg_inherits AS i
                  JOIN pg_catalog.pg_class AS c ON c.oid = i.inhrelid
                 WHERE i.inhparent IN ('scopedb.fragments'::regclass, 'scopedb_private.fragment_search'::regclass))
               AS o
         CROSS JOIN LATERAL (VALUES (0, 'detach', 'ALTER TABLE %s DETACH PARTITION %s'
                                        || CASE WHEN o.pending THEN ' FINALIZE'
                                                WHEN o.has_default THEN ''
                                                ELSE ' CONCURRENTLY' END),
                                    (1, 'drop', 'DROP TABLE %2$s')) AS a (step, action, template)
         WHERE o.project_id IS NOT NULL  -- the shared partitions (bound DEFAULT) stay
           AND NOT EXISTS (SELECT FROM scopedb.projects AS pr WHERE pr.id = o.project_id)
         ORDER BY o.rank, o.part, a.step;
    -- Tables of scopedb_parts that are no partition (left by a detach that did not finish): dropped.
    RETURN QUERY
        SELECT NULL::bigint, 'drop', pg_catalog.format('DROP TABLE %s', c.oid::regclass), 0::bigint
          FROM pg_catalog.pg_class AS c
         WHERE c.relnamespace = 'scopedb_parts'::regnamespace AND c.relkind = 'r' AND NOT c.relispartition;
    -- Search groups' partitions: of groups that no longer exist, and of groups declared again, whose copy is stale.
    RETURN QUERY
        SELECT NULL::bigint, a.action, pg_catalog.format(a.template, c.oid::regclass), 0::bigint
          FROM pg_catalog.pg_inherits AS i
          JOIN pg_catalog.pg_class AS c ON c.oid = i.inhrelid
          LEFT JOIN scopedb_private.search_groups AS sg
            ON sg.id = pg_catalog.substring(pg_catalog.pg_get_expr(c.relpartbound, c.oid), '(\d+)')::bigint
         CROSS JOIN LATERAL (VALUES (0, 'group_detach', 'ALTER TABLE scopedb_private.group_vectors DETACH PARTITION %s '
                                        || CASE WHEN i.inhdetachpending THEN 'FINALIZE' ELSE 'CONCURRENTLY' END),
                                    (1, 'group_drop', 'DROP TABLE %s')) AS a (step, action, template)
         WHERE i.inhparent = 'scopedb_private.group_vectors'::regclass
           AND (sg.id IS NULL OR sg.state = 'declared')
         ORDER BY c.oid::regclass::text, a.step;
    IF threshold IS NULL THEN
        RETURN;
    END IF;
    FOR p IN SELECT sg.id, sg.state FROM scopedb_private.search_groups AS sg WHERE sg.state <> 'ready'
              ORDER BY sg.id LOOP
        index_valid := NULL;
        IF p.state = 'declared' THEN
            members := ARRAY(SELECT m.project_id FROM scopedb_private.search_group_members AS m WHERE m.group_id = p.id);
            SELECT pg_catalog.count(*) INTO rows_found
              FROM scopedb.fragments AS f WHERE f.project_id = ANY (members) AND f.embedding IS NOT NULL;
            RETURN QUERY SELECT NULL::bigint, 'group_fill',
                                pg_catalog.format('SELECT scopedb_private.fill_search_group(%s)', p.id), rows_found;
        ELSE  -- filled: its partition exists; an index a failed build left invalid is dropped and built again
            SELECT pg_catalog.count(*) INTO rows_found FROM scopedb_private.group_vectors AS v WHERE v.group_id = p.id;
            SELECT x.indisvalid INTO index_valid
              FROM pg_catalog.pg_index AS x
             WHERE x.indexrelid = pg_catalog.to_regclass(
                       pg_catalog.format('scopedb_parts.group_vectors_%s_embedding_hnsw', p.id));
            IF index_valid IS FALSE THEN
                RETURN QUERY SELECT NULL::bigint, 'group_unindex', pg_catalog.format(
                    'DROP INDEX %sIF EXISTS scopedb_parts.group_vectors_%s_embedding_hnsw', build, p.id), 0::bigint;
            END IF;
        END IF;
        -- A group's graph is as large as one shared index, and denser than a project's: at 1M rows of the bench
        -- corpus (256 clustered topics, d=128), m = 16, ef_construction = 128 stopped at recall@10 0.978 whatever
        -- ef_search (40 to 300: some neighbours unreachable), where m = 24, ef_construction = 200 gave 1.000 at
        -- ef_search 40, for a build 1.7 times as long (600 s against 352 s).
        IF p.state = 'declared' OR index_valid IS NOT TRUE THEN
            RETURN QUERY SELECT NULL::bigint, 'group_hnsw', pg_catalog.format(
                'CREATE INDEX %sIF NOT EXISTS group_vectors_%s_embedding_hnsw '
                'ON scopedb_parts.group_vectors_%s USING hnsw (embedding %s) '
                'WITH (m = 24, ef_construction = 200)', build, p.id, p.id, opclass), rows_found;
        END IF;
        RETURN QUERY SELECT NULL::bigint, 'group_ready',
                            pg_catalog.format('SELECT scopedb_private.search_group_ready(%s)', p.id), 0::bigint;
    END LOOP;
END
$$;
COMMENT ON FUNCTION scopedb_private.storage_plan(integer, boolean, bigint[]) IS
    'The maintenance actions per-project storage needs now, each with its statement (run outside a transaction).';

-- The `k` fragments of `projects` nearest to `query` by `metric` ('cosine', 'l2' or 'inner_product'), always
-- min(k, visible) of them, in one call. For cosine, when search groups the scope reads whole cover every project
-- of the call, their indexes answer (scopedb.group_nearest: one search a group). Otherwise one statement orders
-- every project of the call by distance:
-- a project whose partition has an HNSW index (those past the storage threshold) is read through its own index (a
-- strict iterative scan, so rows the scope's filters drop do not starve the answer), the others are sorted
-- exactly, and the merge takes the nearest. Each index holds one project's rows, so what it returns never depends
-- on another project's vectors. The planner is not left to choose between the two: under RLS it cannot estimate
-- how many rows a partition keeps, and given the chance it sorted whole indexed partitions, or every partition at
-- once; with sorts disabled, an indexed project can only be merged from its index, and the others are sorted as
-- they must be (a partition whose index a failed build left invalid too: slow, still exact). Rows at the same
-- distance are ordered by key, as the exact statement orders them (an incremental sort over the merge, which
-- reads past the k-th row only through its ties). The other metrics,
-- and `exact`, go straight to the exact statement (the OFFSET 0 fence keeps the planner from ordering through an
-- index).
--
-- The index answer is returned as it is read, flagged used_index = true. When it is short of k (an iterative scan
-- stopped at `max_scan_tuples` before the scope's filters let k rows through, or a project holds fewer), the
-- exact answer follows it, flagged false, and is the answer: every caller keeps the rows flagged false when there
-- are any (scopedb.retrieval does). Returned rows cannot be taken back, and collecting the index answer in arrays
-- first, to return only the complete one, cost a call more than the exact statement costs the rare call that
-- needs it: revision 0021 took that out, with the pg_class lookup that split the projects into indexed and not
-- (one statement over both plans as the two did), 0.25-0.45 ms of a 0.5-1 ms call on a scratch server.
--
-- Runs with the caller's rights (RLS filters every row) and the caller's search_path, which scoped entry pins and
-- which finds pgvector's operators; the settings it changes are restored when it returns. `projects` only prunes
-- the partitions to read: the policies decide what is visible, so passing other ids admits nothing. The searches
-- are planned on every call (plan_cache_mode = force_custom_plan, set just before them), so the scope's ids prune
-- the partitions at planning; everything else keeps its plan, under the planner settings the function pins
-- (sql/04_settings_of_kept_plans.sql).
CREATE OR REPLACE FUNCTION scopedb.nearest_fragments(query vector, k integer, projects bigint[], metric text, exact boolean,
                                          ef_search integer, max_scan_tuples integer)
RETURNS TABLE (project_id bigint, id text, resource_id text, path text, fqn text, content text,
               distance double precision, used_index boolean)
LANGUAGE plpgsql
VOLATILE
SET plan_cache_mode = auto
SET enable_partition_pruning = on
SET constraint_exclusion = off
SET enable_sort = on
SET hnsw.iterative_scan = strict_order
SET hnsw.ef_search = 20
SET hnsw.max_scan_tuples = 20000
AS $$
DECLARE
    found bigint := 0;
BEGIN
    IF k IS NULL OR k < 0 OR k > 10000 THEN
        RAISE EXCEPTION 'k must be between 0 and 10000' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF metric IS NULL OR metric NOT IN ('cosine', 'l2', 'inner_product') THEN
        RAISE EXCEPTION 'metric must be cosine, l2 or inner_product' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    -- No statement reads an empty list: `project_id = ANY ('{}')` is found false under RLS only after every
    -- partition is opened and locked (10,000 projects: out of lock slots).
    IF COALESCE(pg_catalog.cardinality(projects), 0) = 0 THEN
        RETURN;
    END IF;
    IF metric = 'cosine' AND NOT exact THEN
        -- Search groups the scope reads whole, when they cover every project of the call: one index search per
        -- group (scopedb.group_nearest; nothing when they do not). A short answer from them goes straight to the
        -- exact statement, as a short one from the projects' own indexes does.
        IF pg_catalog.cardinality(projects) > 1 THEN
            RETURN QUERY
                SELECT g.project_id, g.id, g.resource_id, g.path, g.fqn, g.content, g.distance, true
                  FROM scopedb.group_nearest(projects, query, k, ef_search, max_scan_tuples) AS g;
            GET DIAGNOSTICS found = ROW_COUNT;
        END IF;
        IF found = 0 THEN
            PERFORM pg_catalog.set_config('hnsw.ef_search', GREATEST(LEAST(ef_search, 1000), k, 1)::text, true),
                    pg_catalog.set_config('hnsw.max_scan_tuples', GREATEST(max_scan_tuples, 1)::text, true),
                    pg_catalog.set_config('enable_sort', 'off', true),
                    pg_catalog.set_config('plan_cache_mode', 'force_custom_plan', true);
            RETURN QUERY
                SELECT f.project_id, f.id, f.resource_id, f.path, f.fqn, f.content,
                       (f.embedding <=> query)::double precision, true
                  FROM scopedb.fragments AS f
                 WHERE f.project_id = ANY (projects) AND f.embedding IS NOT NULL
                 ORDER BY f.embedding <=> query, f.project_id, f.id  -- ties as the exact statement breaks them
                 LIMIT k;
            GET DIAGNOSTICS found = ROW_COUNT;
        END IF;
        IF found >= k THEN
            RETURN;
        END IF;
    END IF;
    PERFORM pg_catalog.set_config('enable_sort', 'on', true),
            pg_catalog.set_config('plan_cache_mode', 'force_custom_plan', true);
    RETURN QUERY
        SELECT e.*, false
          FROM (SELECT f.project_id, f.id, f.resource_id, f.path, f.fqn, f.content,
                       (CASE metric WHEN 'cosine' THEN f.embedding <=> query
                                    WHEN 'l2' THEN f.embedding <-> query
                                    ELSE f.embedding <#> query END)::double precision AS distance
                  FROM scopedb.fragments AS f
                 WHERE f.project_id = ANY (projects) AND f.embedding IS NOT NULL
                OFFSET 0) AS e
         ORDER BY e.distance, e.project_id, e.id
         LIMIT k;
END
$$;
COMMENT ON FUNCTION scopedb.nearest_fragments(vector, integer, bigint[], text, boolean, integer, integer) IS
    'The k nearest fragments of the given projects (RLS applies): HNSW where built, exact otherwise; a short index answer is followed by the exact one (used_index false), which replaces it.';

REVOKE ALL ON scopedb_private.search_groups, scopedb_private.search_group_members, scopedb_private.group_vectors
    FROM PUBLIC;
-- nearest_fragments calls it as the app: the answer of the search groups the scope reads whole.
GRANT EXECUTE ON FUNCTION scopedb.group_nearest(bigint[], vector, integer, integer, integer) TO scopedb_app;

-- The full set of pins (sql/04_settings_of_kept_plans.sql) for the new functions, and again for the replaced ones
-- (CREATE OR REPLACE sets the SET clauses anew).
DO $$
DECLARE
    light constant text[] := ARRAY['jit=off', 'max_parallel_workers_per_gather=0'];
    full_set constant text[] := light || ARRAY[
        'enable_seqscan=on', 'enable_indexscan=on', 'enable_indexonlyscan=on', 'enable_bitmapscan=on',
        'enable_tidscan=on', 'enable_nestloop=on', 'enable_hashjoin=on', 'enable_mergejoin=on', 'enable_sort=on',
        'enable_incremental_sort=on', 'enable_material=on', 'enable_memoize=on', 'enable_hashagg=on',
        'seq_page_cost=1', 'random_page_cost=4', 'cpu_tuple_cost=0.01', 'cpu_index_tuple_cost=0.005',
        'cpu_operator_cost=0.0025', 'effective_cache_size=4GB', 'recursive_worktable_factor=10'];
    f regprocedure;
    setting text;
BEGIN
    FOREACH f IN ARRAY ARRAY['scopedb.group_nearest(bigint[], vector, integer, integer, integer)',
        'scopedb_private.sync_group_vectors()',
        'scopedb_private.redeclare_search_group()',
        'scopedb.nearest_fragments(vector, integer, bigint[], text, boolean, integer, integer)',
        'scopedb_private.forget_fragment_copies()']::regprocedure[] LOOP
        FOREACH setting IN ARRAY full_set LOOP
            EXECUTE pg_catalog.format('ALTER FUNCTION %s SET %I = %L', f, pg_catalog.split_part(setting, '=', 1),
                                      pg_catalog.split_part(setting, '=', 2));
        END LOOP;
    END LOOP;
END
$$;

RESET ROLE;
