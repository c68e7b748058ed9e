-- Revision 0017 down: every scope accessor verifies the token in full again; no memo, no TEMP for the owner.

-- pgvector's settings (hnsw.*) in the SET clauses below are known only once its library is loaded.
SELECT '[1]'::public.vector;

SET ROLE scopedb_owner;

-- The settings a scoped transaction's results and refusals depend on, set for the rest of the transaction to the
-- values scopedb is built for, whatever the session brought with it. Every application session shares one login,
-- and a tenant that resets its role to that login may store defaults for it (ALTER ROLE CURRENT_USER SET ...),
-- which every later session of every tenant would start with: row_security = off turned every read into an
-- error, gin_fuzzy_search_limit made searches silently partial, timeouts cut other tenants' statements short.
-- search_path is pinned by the entry statement itself (a function's own SET search_path would undo it here), and
-- the isolation level and read-write mode by its BEGIN (they cannot change after the first statement).
CREATE OR REPLACE FUNCTION scopedb_private.pin_settings() RETURNS void
LANGUAGE plpgsql
VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM pg_catalog.set_config('row_security', 'on', true),
            pg_catalog.set_config('gin_fuzzy_search_limit', '0', true),
            pg_catalog.set_config('statement_timeout', '0', true),
            pg_catalog.set_config('lock_timeout', '0', true),
            pg_catalog.set_config('idle_in_transaction_session_timeout', '0', true),
            pg_catalog.set_config('exit_on_error', 'off', true),
            pg_catalog.set_config('transform_null_equals', 'off', true),
            pg_catalog.set_config('standard_conforming_strings', 'on', true),
            pg_catalog.set_config('DateStyle', 'ISO, MDY', true),
            pg_catalog.set_config('IntervalStyle', 'postgres', true),
            pg_catalog.set_config('extra_float_digits', '1', true),
            pg_catalog.set_config('hnsw.ef_search', '40', true),
            pg_catalog.set_config('hnsw.iterative_scan', 'off', true),
            pg_catalog.set_config('hnsw.max_scan_tuples', '20000', true),
            pg_catalog.set_config('hnsw.scan_mem_multiplier', '1', true),
            -- Pruning is what keeps a statement to the scope's partitions. (scopedb sends its statements
            -- unprepared, so their parameters are constants at plan time; its functions that read fragments pin
            -- plan_cache_mode = force_custom_plan themselves. The transaction does not: the scope accessors and
            -- the entry functions would then plan their own lookups again on every call.)
            pg_catalog.set_config('enable_partition_pruning', 'on', true);
    IF pg_catalog.current_setting('transaction_timeout', true) IS NOT NULL THEN  -- PostgreSQL 17 and later
        PERFORM pg_catalog.set_config('transaction_timeout', '0', true);
    END IF;
END
$$;
COMMENT ON FUNCTION scopedb_private.pin_settings() IS
    'Sets, for the transaction, every setting a scoped transaction''s results or refusals depend on.';

-- The verified claims of the current transaction, or NULL (no scope, an ended transaction, or a token that does
-- not verify). Settings read as '' once the transaction that set them has ended, hence NULLIF. Like check_token it
-- runs only inside scopedb's SECURITY DEFINER functions (the accessors), as their owner, under their pinned
-- search_path, so it has no SET clause of its own.
--
-- Every accessor verifies: the setting can be changed by any SQL the application runs, so what it holds is
-- trusted only once checked. A memo of the verification (a row written at entry and trusted for that token) would
-- save a few microseconds per accessor, but a row written per transaction costs a transaction id per request,
-- which read-heavy services would pay for in wraparound vacuums, and does not work on a hot standby
-- (docs/architecture.md, "Why these choices").
CREATE OR REPLACE FUNCTION scopedb_private.verified_claims() RETURNS scopedb_private.scope_claims
LANGUAGE plpgsql
STABLE
AS $$
BEGIN
    RETURN (scopedb_private.check_token(NULLIF(pg_catalog.current_setting('scopedb.scope_token', true), ''))).claims;
END
$$;
COMMENT ON FUNCTION scopedb_private.verified_claims() IS
    'Claims of the verified scope token of this transaction; NULL when there is none.';

CREATE OR REPLACE FUNCTION scopedb.resolve_scope(token text) RETURNS text
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN (scopedb_private.resolve_token(token)).resolved;
END
$$;
COMMENT ON FUNCTION scopedb.resolve_scope(text) IS
    'Verifies a scope token and returns it resolved (project ids, effective resources), signed by the database.';

-- The usual entry: resolve, then make the resolved token the scope every policy reads for the rest of the
-- transaction (a transaction-local setting: it is gone at COMMIT or ROLLBACK, which is what makes scopedb safe
-- behind a transaction-pooling PgBouncer).
CREATE OR REPLACE FUNCTION scopedb.enter_scope(token text) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    entered record;
    claims scopedb_private.scope_claims;
BEGIN
    SELECT r.resolved, r.resolved_claims INTO entered FROM scopedb_private.resolve_token(token) AS r;
    claims := entered.resolved_claims;  -- what the token just signed holds: no need to verify it again
    PERFORM pg_catalog.set_config('scopedb.scope_token', entered.resolved, true);
    RETURN pg_catalog.jsonb_build_object(
        'project_ids', claims.project_ids,
        'resource_filter', claims.resource_filter,
        'expires_at', pg_catalog.to_timestamp(claims.exp));
END
$$;
COMMENT ON FUNCTION scopedb.enter_scope(text) IS
    'Verifies a signed scope token and makes it the scope every policy reads for the rest of the transaction.';

-- Enters a token resolve_scope produced earlier (the Python layer keeps them while they are valid, see
-- scopedb.resolved): sets it, pins the transaction's settings as resolve_scope does, and returns the project ids
-- the policies will read from it — none when it no longer verifies, or when the names it was resolved from no
-- longer name those projects. A project renamed (and its name given to a new project) must not stay reachable
-- under its old name for the rest of the token's life: the caller then resolves afresh. It grants nothing that
-- setting scopedb.scope_token directly would not: every statement verifies the token anyway.
CREATE OR REPLACE FUNCTION scopedb.reenter_scope(resolved text) RETURNS bigint[]
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    claims scopedb_private.scope_claims := (scopedb_private.check_token(resolved)).claims;  -- verified once here
    ids bigint[] := COALESCE(claims.project_ids, '{}'::bigint[]);
BEGIN
    PERFORM pg_catalog.set_config('scopedb.scope_token', COALESCE(resolved, ''), true);
    PERFORM scopedb_private.pin_settings();
    -- The owner's policy on projects admits the names of the token in the setting.
    IF pg_catalog.cardinality(ids) = 0
       OR (SELECT pg_catalog.count(*) FROM scopedb.projects AS p WHERE p.id = ANY (ids) AND p.name = ANY (claims.projects))
          <> pg_catalog.cardinality(ids) THEN
        PERFORM pg_catalog.set_config('scopedb.scope_token', '', true);
        RETURN '{}'::bigint[];
    END IF;
    RETURN ids;
END
$$;
COMMENT ON FUNCTION scopedb.reenter_scope(text) IS
    'Enters a resolved scope token kept from an earlier entry; returns its project ids (empty if it no longer verifies).';

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
    INSERT INTO scopedb_private.fragment_search AS s (project_id, id, tsv, resource_id, path, fqn, valid_from, valid_to)
    SELECT c.project_id, c.id, c.tsv, c.resource_id, c.path, c.fqn, c.valid_from, c.valid_to FROM changed AS c
    ON CONFLICT ON CONSTRAINT fragment_search_pkey DO UPDATE
       SET tsv = EXCLUDED.tsv, resource_id = EXCLUDED.resource_id, path = EXCLUDED.path, fqn = EXCLUDED.fqn,
           valid_from = EXCLUDED.valid_from, valid_to = EXCLUDED.valid_to
     WHERE (s.tsv, s.resource_id, s.path, s.fqn, s.valid_from, s.valid_to)
           IS DISTINCT FROM (EXCLUDED.tsv, EXCLUDED.resource_id, EXCLUDED.path, EXCLUDED.fqn, EXCLUDED.valid_from,
                             EXCLUDED.valid_to);
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
    INSERT INTO scopedb_private.fragment_search AS s (project_id, id, tsv, resource_id, path, fqn, valid_from, valid_to)
    SELECT f.project_id, f.id, f.tsv, f.resource_id, f.path, f.fqn, f.valid_from, f.valid_to
      FROM scopedb.fragments AS f WHERE f.project_id = project
    ON CONFLICT ON CONSTRAINT fragment_search_pkey DO NOTHING;
END
$$;
COMMENT ON FUNCTION scopedb_private.create_project_storage(bigint) IS
    'Gives a project partitions of its own (of scopedb.fragments and scopedb_private.fragment_search), moving its rows.';

-- Scoped full-text candidates: the best `max_rows` fragments matching `query`, with their ts_rank_cd. The GIN
-- index of scopedb_private.fragment_search finds the matches (it has no RLS, so the index is usable), and the
-- verified scope is applied to them there: the copy carries the columns the read policy judges, and the predicate
-- below is that policy's, term for term, with the scope's values read once (one verification of the token, not
-- one per accessor) and inlined as constants (plan_cache_mode), so the planner prunes to the scope's partitions
-- and drops the checks a scope does not need (no patterns: no pattern test at all). Only the best `max_rows` are
-- then joined to scopedb.fragments, for their content, and that join runs under the owner's policy "owner searches
-- the fragments of the entered scope", which is the app's read policy (the audit holds both to the manifest): every
-- row returned is checked by it once more, so a copy out of step could only ever return fewer rows, never another
-- row. Joining every match, as this did, cost a common word in a wide scope four times what ranking it costs
-- (measured: 1,000,000 fragments, 60 projects; 1.6 s against 0.42 s for the owner's ranking with an explicit
-- WHERE).
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
        SELECT b.project_id, b.id, b.rank, f.resource_id, f.path, f.fqn, f.content
          FROM (SELECT s.project_id, s.id, pg_catalog.ts_rank_cd(s.tsv, query) AS rank
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
                 ORDER BY 3 DESC, 1, 2
                 LIMIT max_rows) AS b
          JOIN scopedb.fragments AS f ON f.project_id = b.project_id AND f.id = b.id
         WHERE f.project_id = ANY (ids)
         ORDER BY 3 DESC, 1, 2;   -- by position: the names are also this function's output columns
END
$$;
COMMENT ON FUNCTION scopedb.text_candidates(tsquery, integer) IS
    'Best-ranked fragments of the verified scope matching a tsquery, from the scope''s partitions only.';

-- The `k` fragments of `projects` nearest to `query` by `metric` ('cosine', 'l2' or 'inner_product'), always
-- min(k, visible) of them, in one call. For cosine, the projects whose partition has an HNSW index (those past the
-- storage threshold) are read through their own index, merged in distance order (a strict iterative scan, so rows
-- the scope's filters drop do not starve the answer); the others are scanned exactly; the two answers are merged.
-- Each index holds one project's rows, so what it returns never depends on another project's vectors. The
-- planner is not left to choose between the two: under RLS it cannot estimate how many rows a partition keeps,
-- and given the chance it sorted whole indexed partitions, or every partition at once; with sorts disabled, the
-- indexed projects can only be merged from their indexes, and the others are sorted as they must be. If the
-- answer is short of k (an iterative scan stopped at `max_scan_tuples`), the exact answer replaces it: the index
-- answer is collected first and returned only when complete, so the exact statement is planned and run only
-- then. The other metrics, and `exact`, go straight to the exact statement (the OFFSET 0 fence keeps the planner
-- from ordering through an index). `used_index` says which statement answered.
--
-- Runs with the caller's rights (RLS filters every row) and the caller's search_path, which scoped entry pins and
-- which finds pgvector's operators; the settings it changes are restored when it returns. `projects` only prunes
-- the partitions to read: the policies decide what is visible, so passing other ids admits nothing.
CREATE OR REPLACE FUNCTION scopedb.nearest_fragments(query vector, k integer, projects bigint[], metric text, exact boolean,
                                          ef_search integer, max_scan_tuples integer)
RETURNS TABLE (project_id bigint, id text, resource_id text, path text, fqn text, content text,
               distance double precision, used_index boolean)
LANGUAGE plpgsql
VOLATILE
SET plan_cache_mode = force_custom_plan
SET enable_partition_pruning = on
SET enable_sort = on
SET hnsw.iterative_scan = strict_order
SET hnsw.ef_search = 20
SET hnsw.max_scan_tuples = 20000
AS $$
DECLARE
    indexed bigint[];
    scanned bigint[];
    one bigint;
    names text[] := '{}';
    found text[];
    -- The index answer, column by column, in distance order.
    a_project bigint[];
    a_id text[];
    a_resource text[];
    a_path text[];
    a_fqn text[];
    a_content text[];
    a_distance double precision[];
BEGIN
    IF k IS NULL OR k < 0 OR k > 10000 THEN
        RAISE EXCEPTION 'k must be between 0 and 10000' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF metric IS NULL OR metric NOT IN ('cosine', 'l2', 'inner_product') THEN
        RAISE EXCEPTION 'metric must be cosine, l2 or inner_product' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF COALESCE(pg_catalog.cardinality(projects), 0) = 0 THEN
        RETURN;
    END IF;
    IF metric = 'cosine' AND NOT exact THEN
        -- Which of the projects have an HNSW index on their partition: one lookup of their names in pg_class (the
        -- catalog is readable by every role) by its (relname, relnamespace) index. The names are built here, not
        -- in the statement: a subquery there made the lookup cost more to plan (it is planned on every call) than
        -- all of the rest of the function. An index left invalid by a failed build is one the planner will not
        -- use; with sorts off it then scans and sorts that partition, slow but still exact.
        FOREACH one IN ARRAY projects LOOP
            names := names || ('fragments_' || one || '_embedding_hnsw');
        END LOOP;
        found := ARRAY(SELECT c.relname::text FROM pg_catalog.pg_class AS c
                        WHERE c.relnamespace = 'scopedb_parts'::regnamespace AND c.relname = ANY (names::name[]));
        indexed := '{}';
        scanned := '{}';
        FOREACH one IN ARRAY projects LOOP
            IF 'fragments_' || one || '_embedding_hnsw' = ANY (found) THEN
                indexed := indexed || one;
            ELSE
                scanned := scanned || one;
            END IF;
        END LOOP;
    END IF;
    IF metric = 'cosine' AND NOT exact AND pg_catalog.cardinality(indexed) > 0 THEN
        -- Neither list reaches a statement empty: `project_id = ANY ('{}')` is found false under RLS only after
        -- every partition is opened and locked (10,000 projects: out of lock slots).
        PERFORM pg_catalog.set_config('hnsw.ef_search', GREATEST(LEAST(ef_search, 1000), k, 1)::text, true),
                pg_catalog.set_config('hnsw.max_scan_tuples', GREATEST(max_scan_tuples, 1)::text, true),
                pg_catalog.set_config('enable_sort', 'off', true);
        -- The answer is staged in arrays, in the order the statement returns it (distance order; one aggregate
        -- step over the same rows keeps the arrays aligned, where an ORDER BY in each aggregate sorted seven
        -- times). A scope whose projects all have an index, the common case for large tenants, plans one branch,
        -- not two: planning the second, empty one cost as much as reading the index.
        IF pg_catalog.cardinality(scanned) = 0 THEN
            SELECT pg_catalog.array_agg(u.project_id), pg_catalog.array_agg(u.id), pg_catalog.array_agg(u.resource_id),
                   pg_catalog.array_agg(u.path), pg_catalog.array_agg(u.fqn), pg_catalog.array_agg(u.content),
                   pg_catalog.array_agg(u.distance)
              INTO a_project, a_id, a_resource, a_path, a_fqn, a_content, a_distance
              FROM (SELECT f.project_id, f.id, f.resource_id, f.path, f.fqn, f.content,
                           (f.embedding <=> query)::double precision AS distance
                      FROM scopedb.fragments AS f
                     WHERE f.project_id = ANY (indexed) AND f.embedding IS NOT NULL
                     ORDER BY f.embedding <=> query
                     LIMIT k) AS u;
        ELSE
            SELECT pg_catalog.array_agg(u.project_id), pg_catalog.array_agg(u.id), pg_catalog.array_agg(u.resource_id),
                   pg_catalog.array_agg(u.path), pg_catalog.array_agg(u.fqn), pg_catalog.array_agg(u.content),
                   pg_catalog.array_agg(u.distance)
              INTO a_project, a_id, a_resource, a_path, a_fqn, a_content, a_distance
              FROM (SELECT b.* FROM (
                        (SELECT f.project_id, f.id, f.resource_id, f.path, f.fqn, f.content,
                                (f.embedding <=> query)::double precision AS distance
                           FROM scopedb.fragments AS f
                          WHERE f.project_id = ANY (indexed) AND f.embedding IS NOT NULL
                          ORDER BY f.embedding <=> query
                          LIMIT k)
                        UNION ALL
                        (SELECT f.project_id, f.id, f.resource_id, f.path, f.fqn, f.content,
                                (f.embedding <=> query)::double precision AS distance
                           FROM scopedb.fragments AS f
                          WHERE f.project_id = ANY (scanned) AND f.embedding IS NOT NULL
                          ORDER BY f.embedding <=> query
                          LIMIT k)) AS b
                     ORDER BY b.distance
                     LIMIT k) AS u;
        END IF;
        IF COALESCE(pg_catalog.cardinality(a_id), 0) >= k THEN
            RETURN QUERY
                SELECT r.*, true
                  FROM ROWS FROM (pg_catalog.unnest(a_project), pg_catalog.unnest(a_id), pg_catalog.unnest(a_resource),
                                  pg_catalog.unnest(a_path), pg_catalog.unnest(a_fqn), pg_catalog.unnest(a_content),
                                  pg_catalog.unnest(a_distance)) AS r;
            RETURN;
        END IF;
        PERFORM pg_catalog.set_config('enable_sort', 'on', true);
    END IF;
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
    'The k nearest fragments of the given projects (RLS applies): per-project HNSW where built, exact otherwise.';

-- k-hop neighbourhood: every node reachable from the start nodes in at most `max_depth` steps, with its details,
-- and the edge it was reached by (NULL for a start node). A node is (project_id, id): the walk carries both, and
-- an edge joins nodes of its own project only. graph_edges' policy admits only edges whose two ends the scope
-- sees, so the walk never enters (nor returns the id of) a hidden node; each step reads the node it enters once,
-- for its details. The LATERAL subqueries, fenced with OFFSET 0, fix the join order (walk -> its out-edges by key
-- -> their target by key): under RLS the planner's row estimates are blind, and left alone it scanned every node
-- of the project per step.
CREATE OR REPLACE FUNCTION scopedb.graph_walk(projects bigint[], start text[], max_depth integer, relations text[])
RETURNS TABLE (project_id bigint, node text, src text, relation text, kind text, resource_id text, label text)
LANGUAGE plpgsql
STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN QUERY
    WITH RECURSIVE walk (project_id, node, depth, src, relation, kind, resource_id, label) AS (
        SELECT n.project_id, n.id, 0, NULL::text, NULL::text, n.kind, n.resource_id, n.label
          FROM scopedb.graph_nodes AS n
         WHERE n.project_id = ANY (projects) AND n.id = ANY (start)
        UNION ALL
        SELECT step.project_id, step.dst, w.depth + 1, step.src, step.relation, target.kind, target.resource_id,
               target.label
          FROM walk AS w
         CROSS JOIN LATERAL (
               SELECT e.project_id, e.src, e.dst, e.relation
                 FROM scopedb.graph_edges AS e
                WHERE e.project_id = w.project_id AND e.src = w.node
                  AND (relations IS NULL OR e.relation = ANY (relations))
               OFFSET 0) AS step
         CROSS JOIN LATERAL (
               SELECT n.kind, n.resource_id, n.label
                 FROM scopedb.graph_nodes AS n
                WHERE n.project_id = step.project_id AND n.id = step.dst
               OFFSET 0) AS target
         WHERE w.depth < max_depth
    ) CYCLE project_id, node SET is_cycle USING trail
    SELECT DISTINCT w.project_id, w.node, w.src, w.relation, w.kind, w.resource_id, w.label FROM walk AS w;
END
$$;
COMMENT ON FUNCTION scopedb.graph_walk(bigint[], text[], integer, text[]) IS
    'Nodes reachable from start in at most max_depth visible edges (RLS applies), with the edge each was reached by.';

-- The shortest path (fewest edges) from `source` to `target` through visible nodes and edges, as its project and
-- node ids, or no row. The edge policy admits only edges whose two ends the scope sees, so a step needs no read
-- of the node it enters.
CREATE OR REPLACE FUNCTION scopedb.graph_shortest_path(projects bigint[], source text, target text, max_depth integer,
                                            relations text[])
RETURNS TABLE (project_id bigint, path text[])
LANGUAGE plpgsql
STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN QUERY
    WITH RECURSIVE walk (project_id, node, depth, path) AS (
        SELECT n.project_id, n.id, 0, ARRAY[n.id]
          FROM scopedb.graph_nodes AS n
         WHERE n.project_id = ANY (projects) AND n.id = source
        UNION ALL
        SELECT step.project_id, step.dst, w.depth + 1, w.path || step.dst
          FROM walk AS w
         CROSS JOIN LATERAL (
               SELECT e.project_id, e.dst
                 FROM scopedb.graph_edges AS e
                WHERE e.project_id = w.project_id AND e.src = w.node AND e.dst <> ALL (w.path)
                  AND (relations IS NULL OR e.relation = ANY (relations))
               OFFSET 0) AS step
         WHERE w.depth < max_depth
    )
    SELECT w.project_id, w.path FROM walk AS w WHERE w.node = target ORDER BY w.depth, w.path LIMIT 1;
END
$$;
COMMENT ON FUNCTION scopedb.graph_shortest_path(bigint[], text, text, integer, text[]) IS
    'The shortest path between two nodes through visible nodes and edges (RLS applies), or no row.';

ALTER TABLE scopedb_private.fragment_search DROP COLUMN content;
COMMENT ON TABLE scopedb_private.fragment_search IS
    'Owner-only copy of fragments.tsv and of the columns the scope judges, partitioned like fragments, with a GIN '
    'index on the partitions of larger projects: for scoped full-text search (see scopedb.text_candidates).';

DROP TRIGGER projects_names_epoch ON scopedb.projects;
DROP TRIGGER projects_names_epoch_truncate ON scopedb.projects;
DROP FUNCTION scopedb_private.make_memo();

DROP FUNCTION scopedb.prepare_session();

DROP FUNCTION scopedb_private.remember_scope(text, scopedb_private.scope_claims, bigint);

DROP FUNCTION scopedb_private.remembered_claims(text);

DROP FUNCTION scopedb_private.move_project_names_epoch();

DROP TABLE scopedb_private.project_names_epoch;

RESET ROLE;
DO $revoke$
BEGIN
    EXECUTE pg_catalog.format('REVOKE TEMPORARY ON DATABASE %I FROM scopedb_owner', pg_catalog.current_database());
EXCEPTION WHEN insufficient_privilege THEN
    NULL;
END
$revoke$;

-- scopedb: the planner settings of the functions whose plans PostgreSQL keeps for the connection.
--
-- A PL/pgSQL or SQL function keeps the plans of its statements for the life of the connection (made at its first
-- calls, made again after an invalidation), and a pooled connection serves one tenant after another. A plan is
-- made under the settings in force when it is made — the calling tenant's, who may SET LOCAL any planner setting.
-- Left alone, a tenant could switch JIT on at zero cost, parallel workers at no setup cost, or index scans off,
-- call a function often enough for its generic plan to be kept, and every later tenant's calls on that connection
-- would compile, start workers or scan whole tables (attack #88 in docs/security.md; found for the graph walks in
-- a review of revision 0016). Rows never depend on the plan; time does, and it is not the caller's to choose for
-- others.
--
-- Two sets, by what a call costs: each pinned setting is saved and restored on every call (about 0.06 µs).
--   * The scope accessors run several times per statement and read one signing key by its primary key (and
--     role_hazards reads the role catalog): only JIT and parallel workers could change what such a plan costs.
--     They pin those two.
--   * The functions that read or write the tables all projects share (graph, notes, resource links, the
--     fragments' triggers) and the entry functions pin the planner's method switches and cost constants as well
--     (PostgreSQL's defaults; their statements are key lookups and small scans). Memory (work_mem) stays the
--     operator's (docs/security.md, "Plans and statistics").
--   * The graph walks and the edge trigger pin all of that and also keep the generic plan
--     (plan_cache_mode = force_generic_plan), so the plan kept does not depend on whose parameters came first.
-- Functions planned on every call (plan_cache_mode = force_custom_plan: text_candidates, nearest_fragments,
-- storage_plan, delete_fragments, delete_resources) plan for their caller alone and are not listed; the admin-only
-- functions are not called by tenants; the functions these call (check_token, verified_claims, resolve_token)
-- plan under their callers' pinned settings. scopedb.clean_session must not pin anything: at its exit a SET clause
-- restores its settings' values from before the call, which would undo its RESET ALL for them.
-- tests/adversarial/test_attack_catalogue.py checks that every function the app can call, and every trigger
-- function, that keeps plans pins at least the first set, but for the few it names.

SET ROLE scopedb_owner;

DO $$
DECLARE
    light constant text[] := ARRAY['jit=off', 'max_parallel_workers_per_gather=0'];
    full_set constant text[] := light || ARRAY[
        'enable_seqscan=on', 'enable_indexscan=on', 'enable_indexonlyscan=on', 'enable_bitmapscan=on',
        'enable_tidscan=on', 'enable_nestloop=on', 'enable_hashjoin=on', 'enable_mergejoin=on', 'enable_sort=on',
        'enable_incremental_sort=on', 'enable_material=on', 'enable_memoize=on', 'enable_hashagg=on',
        'seq_page_cost=1', 'random_page_cost=4', 'cpu_tuple_cost=0.01', 'cpu_index_tuple_cost=0.005',
        'cpu_operator_cost=0.0025', 'effective_cache_size=4GB', 'recursive_worktable_factor=10'];
    walks_set constant text[] := full_set || ARRAY['plan_cache_mode=force_generic_plan'];
    accessors constant text[] := ARRAY[
        'scopedb.scope_project_ids', 'scopedb.scope_resource_filter', 'scopedb.scope_as_of',
        'scopedb.scope_filters_content', 'scopedb.scope_path_include', 'scopedb.scope_path_exclude',
        'scopedb.scope_name_include', 'scopedb.scope_name_exclude', 'scopedb.scope_project_id',
        'scopedb.scope_project_names', 'scopedb.role_hazards'];
    shared_tables constant text[] := ARRAY[
        'scopedb.enter_scope', 'scopedb.reenter_scope', 'scopedb.resolve_scope', 'scopedb.lock_project_tiers',
        'scopedb.delete_graph_edges', 'scopedb.delete_graph_nodes', 'scopedb.delete_resource_links',
        'scopedb.forget_note', 'scopedb.search_notes', 'scopedb.fetch_notes', 'scopedb_private.sweep_notes',
        'scopedb_private.note_is_live', 'scopedb_private.refuse_resource_cycle', 'scopedb_private.keep_original_content',
        'scopedb_private.sync_fragment_search', 'scopedb_private.forget_fragment_copies'];
    walks constant text[] := ARRAY[
        'scopedb.graph_walk', 'scopedb.graph_shortest_path', 'scopedb_private.copy_edge_ends'];
    f record;
    setting text;
    found_names text[];
BEGIN
    SELECT array_agg(DISTINCT n.nspname || '.' || p.proname) INTO found_names
      FROM pg_catalog.pg_proc AS p JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace
     WHERE (n.nspname || '.' || p.proname) = ANY (accessors || shared_tables || walks);
    IF NOT (accessors || shared_tables || walks) <@ COALESCE(found_names, '{}') THEN
        RAISE EXCEPTION 'functions to pin that do not exist: %',
            ARRAY(SELECT unnest(accessors || shared_tables || walks) EXCEPT SELECT unnest(found_names));
    END IF;
    FOR f IN
        SELECT p.oid::regprocedure AS fn, n.nspname || '.' || p.proname AS name
          FROM pg_catalog.pg_proc AS p JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace
         WHERE (n.nspname || '.' || p.proname) = ANY (accessors || shared_tables || walks)
         ORDER BY 1::text
    LOOP
        FOREACH setting IN ARRAY CASE WHEN f.name = ANY (accessors) THEN light
                                      WHEN f.name = ANY (walks) THEN walks_set
                                      ELSE full_set END LOOP
            EXECUTE pg_catalog.format('ALTER FUNCTION %s SET %I = %L', f.fn, pg_catalog.split_part(setting, '=', 1),
                                      pg_catalog.split_part(setting, '=', 2));
        END LOOP;
    END LOOP;
END
$$;

RESET ROLE;

-- scopedb: the manifest of what scopedb installs, generated by `make manifest` from a database migrated to
-- head; do not edit. scopedb_audit.findings compares the live catalog with these facts (lint E020), and
-- `scopedb audit` compares the manifest in the database with this file's digest (E025, scopedb/manifest.py).
-- digest: a50378d204ce28024c0ff55a7ee3a657
SET ROLE scopedb_owner;

TRUNCATE scopedb_audit.manifest;
INSERT INTO scopedb_audit.manifest (kind, object, fact) VALUES
    ('constraint', 'scopedb.fragments fragments_fqn_check', 'CHECK ((strpos(fqn, chr(31)) = 0))'),
    ('constraint', 'scopedb.fragments fragments_id_check', 'CHECK (((id <> ''''::text) AND (length(id) <= 200)))'),
    ('constraint', 'scopedb.fragments fragments_path_check', 'CHECK ((strpos(path, chr(31)) = 0))'),
    ('constraint', 'scopedb.fragments fragments_pkey', 'PRIMARY KEY (project_id, id)'),
    ('constraint', 'scopedb.fragments fragments_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb.fragments fragments_resource_fkey', 'FOREIGN KEY (project_id, resource_id) REFERENCES scopedb.resources(project_id, id)'),
    ('constraint', 'scopedb.fragments fragments_tier_check', 'CHECK ((tier = ANY (ARRAY[''hot''::text, ''warm''::text, ''cold''::text])))'),
    ('constraint', 'scopedb.fragments fragments_token_count_check', 'CHECK ((token_count >= 0))'),
    ('constraint', 'scopedb.fragments fragments_validity_check', 'CHECK (((valid_to IS NULL) OR (valid_to > valid_from)))'),
    ('constraint', 'scopedb.graph_edges graph_edges_dst_fkey', 'FOREIGN KEY (project_id, dst, dst_resource, dst_path, dst_fqn) REFERENCES scopedb.graph_nodes(project_id, id, resource_key, path_key, fqn_key) ON UPDATE CASCADE'),
    ('constraint', 'scopedb.graph_edges graph_edges_pkey', 'PRIMARY KEY (project_id, src, relation, dst)'),
    ('constraint', 'scopedb.graph_edges graph_edges_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb.graph_edges graph_edges_relation_check', 'CHECK (((relation <> ''''::text) AND (length(relation) <= 100)))'),
    ('constraint', 'scopedb.graph_edges graph_edges_src_fkey', 'FOREIGN KEY (project_id, src, src_resource, src_path, src_fqn) REFERENCES scopedb.graph_nodes(project_id, id, resource_key, path_key, fqn_key) ON UPDATE CASCADE'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_fqn_check', 'CHECK ((strpos(fqn, chr(31)) = 0))'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_id_check', 'CHECK (((id <> ''''::text) AND (length(id) <= 200)))'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_kind_check', 'CHECK (((kind <> ''''::text) AND (length(kind) <= 100)))'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_path_check', 'CHECK ((strpos(path, chr(31)) = 0))'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_pkey', 'PRIMARY KEY (project_id, id)'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_resource_fkey', 'FOREIGN KEY (project_id, resource_id) REFERENCES scopedb.resources(project_id, id)'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_scope_key', 'UNIQUE (project_id, id, resource_key, path_key, fqn_key)'),
    ('constraint', 'scopedb.graph_nodes graph_nodes_scope_length_check', 'CHECK (((octet_length(path_key) + octet_length(fqn_key)) <= 1500))'),
    ('constraint', 'scopedb.note_tombstones note_tombstones_note_fkey', 'FOREIGN KEY (project_id, note_id) REFERENCES scopedb.notes(project_id, id) ON DELETE CASCADE'),
    ('constraint', 'scopedb.note_tombstones note_tombstones_pkey', 'PRIMARY KEY (project_id, note_id)'),
    ('constraint', 'scopedb.notes notes_content_check', 'CHECK ((octet_length(content) <= 16384))'),
    ('constraint', 'scopedb.notes notes_id_check', 'CHECK ((id ~ ''^mem-[0-9a-f]{32}$''::text))'),
    ('constraint', 'scopedb.notes notes_pkey', 'PRIMARY KEY (project_id, id)'),
    ('constraint', 'scopedb.notes notes_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb.notes notes_retention_check', 'CHECK (((retention_days >= 1) AND (retention_days <= 10000)))'),
    ('constraint', 'scopedb.notes notes_sensitivity_check', 'CHECK ((sensitivity = ANY (ARRAY[''normal''::text, ''sensitive''::text, ''secret''::text])))'),
    ('constraint', 'scopedb.notes notes_source_check', 'CHECK (((provenance_source <> ''''::text) AND (length(provenance_source) <= 100)))'),
    ('constraint', 'scopedb.notes notes_tags_check', 'CHECK (((cardinality(tags) <= 64) AND (''''::text <> ALL (tags))))'),
    ('constraint', 'scopedb.projects projects_name_check', 'CHECK (((name <> ''''::text) AND (length(name) <= 200) AND (name !~ ''[[:cntrl:]]''::text)))'),
    ('constraint', 'scopedb.projects projects_name_key', 'UNIQUE (name)'),
    ('constraint', 'scopedb.projects projects_pkey', 'PRIMARY KEY (id)'),
    ('constraint', 'scopedb.resource_links resource_links_child_fkey', 'FOREIGN KEY (project_id, child_id) REFERENCES scopedb.resources(project_id, id)'),
    ('constraint', 'scopedb.resource_links resource_links_not_self', 'CHECK ((parent_id <> child_id))'),
    ('constraint', 'scopedb.resource_links resource_links_parent_fkey', 'FOREIGN KEY (project_id, parent_id) REFERENCES scopedb.resources(project_id, id)'),
    ('constraint', 'scopedb.resource_links resource_links_pkey', 'PRIMARY KEY (project_id, parent_id, child_id)'),
    ('constraint', 'scopedb.resource_links resource_links_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb.resources resources_alias_check', 'CHECK (((alias <> ''''::text) AND (length(alias) <= 200)))'),
    ('constraint', 'scopedb.resources resources_alias_key', 'UNIQUE (project_id, alias)'),
    ('constraint', 'scopedb.resources resources_id_check', 'CHECK ((id ~ ''^[0-9A-HJKMNP-TV-Z]{26}$''::text))'),
    ('constraint', 'scopedb.resources resources_pkey', 'PRIMARY KEY (project_id, id)'),
    ('constraint', 'scopedb.resources resources_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb_audit.manifest manifest_pkey', 'PRIMARY KEY (kind, object)'),
    ('constraint', 'scopedb_audit.service_table_facts service_table_facts_pkey', 'PRIMARY KEY (relation, kind, object)'),
    ('constraint', 'scopedb_audit.service_table_facts service_table_facts_relation_fkey', 'FOREIGN KEY (relation) REFERENCES scopedb_audit.service_tables(relation) ON DELETE CASCADE'),
    ('constraint', 'scopedb_audit.service_tables service_tables_pkey', 'PRIMARY KEY (relation)'),
    ('constraint', 'scopedb_private.fragment_originals fragment_originals_pkey', 'PRIMARY KEY (project_id, id)'),
    ('constraint', 'scopedb_private.fragment_search fragment_search_pkey', 'PRIMARY KEY (project_id, id)'),
    ('constraint', 'scopedb_private.project_locks project_locks_pkey', 'PRIMARY KEY (project_id, purpose)'),
    ('constraint', 'scopedb_private.project_locks project_locks_project_id_fkey', 'FOREIGN KEY (project_id) REFERENCES scopedb.projects(id) ON DELETE CASCADE'),
    ('constraint', 'scopedb_private.project_locks project_locks_purpose_check', 'CHECK ((purpose = ANY (ARRAY[''tiers''::text, ''resource_links''::text])))'),
    ('constraint', 'scopedb_private.signing_keys signing_keys_key_id_check', 'CHECK ((key_id ~ ''^[A-Za-z0-9_-]{1,64}$''::text))'),
    ('constraint', 'scopedb_private.signing_keys signing_keys_pads_check', 'CHECK (((length(inner_pad) = 64) AND (length(outer_pad) = 64)))'),
    ('constraint', 'scopedb_private.signing_keys signing_keys_pkey', 'PRIMARY KEY (key_id)'),
    ('constraint', 'scopedb_private.signing_keys signing_keys_secret_check', 'CHECK (((length(secret) >= 32) AND (length(secret) <= 64)))'),
    ('default_acl', 'scopedb_owner - f to scopedb_owner', 'EXECUTE'),
    ('function', 'scopedb.clean_session()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=5b0204a24a3f9f32724b7e1be7743381'),
    ('function', 'scopedb.delete_fragments(bigint,text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=plan_cache_mode=force_custom_plan,search_path=pg_catalog, pg_temp returns=integer body=7ac6ae14a4a1426fb8292c00581482e4'),
    ('function', 'scopedb.delete_graph_edges(bigint,text[],text[],text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=integer body=1988f10782a12b853829d5a66b154d51'),
    ('function', 'scopedb.delete_graph_nodes(bigint,text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=integer body=8ef43d5edaf4254efe5684ff125ae1be'),
    ('function', 'scopedb.delete_resource_links(bigint,text[],text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=integer body=ac6d03b975fad032fcbb9803be498b7b'),
    ('function', 'scopedb.delete_resources(bigint,text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=plan_cache_mode=force_custom_plan,search_path=pg_catalog, pg_temp returns=integer body=3eacb86ac6cd47c2e8920281665a970b'),
    ('function', 'scopedb.enter_scope(text)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=jsonb body=a27a5e60329391110bb80a84b4cbbe83'),
    ('function', 'scopedb.fetch_notes(text[])', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=TABLE(project_id bigint, id text, created_at timestamp with time zone, tags text[], sensitivity text, retention_days integer, provenance_source text, provenance_session text, content text) body=7891a21edb469f09c18a86c628c2fed4'),
    ('function', 'scopedb.forget_note(text,text)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=void body=51df128d48d15b98e44fef84fbfa8cde'),
    ('function', 'scopedb.graph_shortest_path(bigint[],text,text,integer,text[])', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,plan_cache_mode=force_generic_plan,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=TABLE(project_id bigint, path text[]) body=0c5a2e6629f1007d6184d8287205a285'),
    ('function', 'scopedb.graph_walk(bigint[],text[],integer,text[])', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,plan_cache_mode=force_generic_plan,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=TABLE(project_id bigint, node text, src text, relation text, kind text, resource_id text, label text) body=ef5f8c32c299b3b14dd48a4eb2895f7f'),
    ('function', 'scopedb.lock_project_tiers(bigint)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=void body=4c3a6d398db61de0a69c1f67fc71ded0'),
    ('function', 'scopedb.nearest_fragments(public.vector,integer,bigint[],text,boolean,integer,integer)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=enable_partition_pruning=on,enable_sort=on,hnsw.ef_search=20,hnsw.iterative_scan=strict_order,hnsw.max_scan_tuples=20000,plan_cache_mode=force_custom_plan returns=TABLE(project_id bigint, id text, resource_id text, path text, fqn text, content text, distance double precision, used_index boolean) body=b096c3b812694bc8ccbbb6ea643af5df'),
    ('function', 'scopedb.patterns_admit(text,text[],text[])', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=3d40b36009cdce005b127166ed5d4338'),
    ('function', 'scopedb.protect_table(text,name,name,name,name,boolean)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=regclass body=ed39e5106b43a17dd718f8687ab9289c'),
    ('function', 'scopedb.reenter_scope(text)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=bigint[] body=b544fc4ccbf23fd061f186272d850d4f'),
    ('function', 'scopedb.resolve_scope(text)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=text body=3d671eaad5e75cf69841a5ecca226fda'),
    ('function', 'scopedb.role_hazards(name)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=5f2432724b312d429f081c8daa276072'),
    ('function', 'scopedb.scope_as_of()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=timestamp with time zone body=6785691d53d0767697bd913794ff9d38'),
    ('function', 'scopedb.scope_entered()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=- returns=boolean body=88213d58f7efcd15d2ce1be911fc3a94'),
    ('function', 'scopedb.scope_filters_content()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=boolean body=16a304087df00aed1449353194501425'),
    ('function', 'scopedb.scope_name_exclude()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=5916b5df25a25e9807a9092e2541a101'),
    ('function', 'scopedb.scope_name_include()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=cba40720195749008b6117a3ce18e02f'),
    ('function', 'scopedb.scope_path_exclude()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=d6ac9cb55605ca090ffffe48255e92f5'),
    ('function', 'scopedb.scope_path_include()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=d560d493a5564a74a7ea2d2b75bd5ab0'),
    ('function', 'scopedb.scope_project_id()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=bigint body=3bb3909eb127f41a69f1f24336398cf4'),
    ('function', 'scopedb.scope_project_ids()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=bigint[] body=c33c0f4d6511b3f537a1e11251d4dffb'),
    ('function', 'scopedb.scope_project_names()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=be225829bf7762d49db69bad63935d32'),
    ('function', 'scopedb.scope_resource_filter()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=jit=off,max_parallel_workers_per_gather=0,search_path=pg_catalog, pg_temp returns=text[] body=a4facf360e213ef48b0ef013ea89a7fb'),
    ('function', 'scopedb.search_notes(text,text,integer,integer)', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=TABLE(project_id bigint, id text, created_at timestamp with time zone, tags text[], content_bytes integer, sensitivity text, retention_days integer, provenance_source text, snippet text, truncated boolean) body=a841d5376b95dbe6decb5cbebd455149'),
    ('function', 'scopedb.text_candidates(tsquery,integer)', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=enable_bitmapscan=on,enable_hashjoin=on,enable_indexscan=on,enable_mergejoin=on,enable_nestloop=on,enable_partition_pruning=on,enable_seqscan=on,enable_sort=on,gin_fuzzy_search_limit=0,jit=off,plan_cache_mode=force_custom_plan,search_path=pg_catalog, pg_temp returns=TABLE(project_id bigint, id text, rank real, resource_id text, path text, fqn text, content text) body=ec5931726baa9f4d672a83b80799f51e'),
    ('function', 'scopedb.unprotect_table(text)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=328b49b911002608bd6f947e2e1c08ba'),
    ('function', 'scopedb_audit."check"()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(severity text, code text, object text, message text, fix text) body=7a88ad3d9ffb2615c7e79dc4fdb1aa54'),
    ('function', 'scopedb_audit.installed_facts()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(kind text, object text, fact text) body=1935f46f28e86ef703d623422964e84d'),
    ('function', 'scopedb_audit.manifest_digest()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=text body=f493dfd5bffba1b5741e28dd2112cf3b'),
    ('function', 'scopedb_audit.option_is_on(text[],text)', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=39011ede7f42a997d043adde3a97b69b'),
    ('function', 'scopedb_audit.pgvector_too_old(text)', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=296a03a7878198d01a77db4bfc679a15'),
    ('function', 'scopedb_audit.protection_facts(regclass)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(kind text, object text, fact text) body=664d3336dcbeef87535a94f7aab1317a'),
    ('function', 'scopedb_audit.relation_named(text)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=oid body=eddd97e4a8aa4968e9fc2600e30d9cf0'),
    ('function', 'scopedb_audit.removal(text,text,text)', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=text body=0118eacfe92058b4bdfe1457a77d73e5'),
    ('function', 'scopedb_audit.signing_key_ages()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(key_id text, created_at timestamp with time zone, retired_at timestamp with time zone, rotation_period interval, readable boolean) body=8af89bec808f18d5f989e0053c3508cf'),
    ('function', 'scopedb_private.anchored(text[])', 'owner=scopedb_owner definer=f leakproof=f volatile=i strict=f config=search_path=pg_catalog, pg_temp returns=text[] body=73b38dedac54b588605fd0b9b647fd9d'),
    ('function', 'scopedb_private.check_token(text)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=- returns=record body=67df6f1e60df848f2c06699c3c86ed22'),
    ('function', 'scopedb_private.copy_edge_ends()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,plan_cache_mode=force_generic_plan,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=trigger body=a2dc7dcd961114e2d9a073ad0923ad10'),
    ('function', 'scopedb_private.create_project_storage(bigint)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=328cd4f78f29df32479cc4d032738666'),
    ('function', 'scopedb_private.derive_hmac_pads()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=trigger body=9ff8f62bab6182d9ea7b9f64acdf0e1f'),
    ('function', 'scopedb_private.drop_protection_policies(regclass)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=ddf4d0cb37c22fbaaabc2fd92b122a32'),
    ('function', 'scopedb_private.forget_fragment_copies()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=trigger body=925f21676c2e64557999b3cca195c219'),
    ('function', 'scopedb_private.is_admin_session()', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=boolean body=f7a079e142c094631a1bfe49da63f7ef'),
    ('function', 'scopedb_private.keep_original_content()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=trigger body=e71e2afe5735903f5c326eb5e48b8b1b'),
    ('function', 'scopedb_private.lock_project(bigint,text)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=3069ade1d80566357d55e373fdccd599'),
    ('function', 'scopedb_private.note_is_live(scopedb.notes)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=boolean body=19740b93ce5239c908384cb0b872cb2a'),
    ('function', 'scopedb_private.owned_sequences(regclass)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=SETOF regclass body=a6903186e06457b4fc22481b3ba0ec51'),
    ('function', 'scopedb_private.pin_settings()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=9c276a3c00dd592a3974891dfc6fb38c'),
    ('function', 'scopedb_private.project_columns(regclass,smallint)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=TABLE(relid oid, attnum smallint) body=74ec8516c76816c9ccb61ba3a30ece8b'),
    ('function', 'scopedb_private.protection_policy_names(regclass)', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=search_path=pg_catalog, pg_temp returns=text[] body=cf4d7a32a6d232e8dc02f7195a7f7dae'),
    ('function', 'scopedb_private.refuse_fragment_key_change()', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=trigger body=a8bd87c18b1882e911959b015bf7b6f1'),
    ('function', 'scopedb_private.refuse_resource_cycle()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=trigger body=4d80ad7d91b2dfed4a1e2773a0af566b'),
    ('function', 'scopedb_private.resolve_token(text)', 'owner=scopedb_owner definer=f leakproof=f volatile=v strict=f config=- returns=record body=6a7e1d838801f6b60941a6a646fa67aa'),
    ('function', 'scopedb_private.retire_signing_key(text,timestamp with time zone)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=void body=b8fac10a96f2f6ea782ca2e01bbad2d7'),
    ('function', 'scopedb_private.rotate_signing_key(interval)', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=search_path=pg_catalog, pg_temp returns=text body=9f7114b8dac2512691936732ab27fc19'),
    ('function', 'scopedb_private.sign_claims(jsonb)', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=plan_cache_mode=force_generic_plan,search_path=pg_catalog, pg_temp returns=text body=d044600ac5a36cca6febbd1046bd099f'),
    ('function', 'scopedb_private.storage_plan(integer,boolean,bigint[])', 'owner=scopedb_owner definer=t leakproof=f volatile=s strict=f config=plan_cache_mode=force_custom_plan,search_path=pg_catalog, pg_temp returns=TABLE(project_id bigint, action text, statement text, row_count bigint) body=b73fa043511a2f34e685812e5fca70bb'),
    ('function', 'scopedb_private.sweep_notes()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=record body=778aac8c64fb4882071989cf29c693b2'),
    ('function', 'scopedb_private.sync_fragment_search()', 'owner=scopedb_owner definer=t leakproof=f volatile=v strict=f config=cpu_index_tuple_cost=0.005,cpu_operator_cost=0.0025,cpu_tuple_cost=0.01,effective_cache_size=4GB,enable_bitmapscan=on,enable_hashagg=on,enable_hashjoin=on,enable_incremental_sort=on,enable_indexonlyscan=on,enable_indexscan=on,enable_material=on,enable_memoize=on,enable_mergejoin=on,enable_nestloop=on,enable_seqscan=on,enable_sort=on,enable_tidscan=on,jit=off,max_parallel_workers_per_gather=0,random_page_cost=4,recursive_worktable_factor=10,search_path=pg_catalog, pg_temp,seq_page_cost=1 returns=trigger body=cbdeb81c468702917f09fce54011f74f'),
    ('function', 'scopedb_private.verified_claims()', 'owner=scopedb_owner definer=f leakproof=f volatile=s strict=f config=- returns=scopedb_private.scope_claims body=2c3908b52c5d2833b353994d5bb6fbfe'),
    ('grant', 'column scopedb.fragments.content to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.created_by to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.embedding to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.fqn to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.last_accessed_at to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.path to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.resource_id to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.tier to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.token_count to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.valid_from to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.fragments.valid_to to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.graph_edges.weight to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.graph_nodes.fqn to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.graph_nodes.kind to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.graph_nodes.label to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.graph_nodes.path to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.graph_nodes.properties to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.graph_nodes.resource_id to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.notes.content to scopedb_app', 'INSERT'),
    ('grant', 'column scopedb.notes.created_at to scopedb_app', 'SELECT'),
    ('grant', 'column scopedb.notes.forgotten_at to scopedb_app', 'SELECT'),
    ('grant', 'column scopedb.notes.id to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'column scopedb.notes.project_id to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'column scopedb.notes.provenance_session to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'column scopedb.notes.provenance_source to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'column scopedb.notes.retention_days to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'column scopedb.notes.sensitivity to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'column scopedb.notes.tags to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'column scopedb.resources.alias to scopedb_app', 'UPDATE'),
    ('grant', 'column scopedb.resources.kind to scopedb_app', 'UPDATE'),
    ('grant', 'function scopedb.clean_session() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.delete_fragments(bigint,text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.delete_graph_edges(bigint,text[],text[],text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.delete_graph_nodes(bigint,text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.delete_resource_links(bigint,text[],text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.delete_resources(bigint,text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.enter_scope(text) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.fetch_notes(text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.forget_note(text,text) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.graph_shortest_path(bigint[],text,text,integer,text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.graph_walk(bigint[],text[],integer,text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.lock_project_tiers(bigint) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.nearest_fragments(public.vector,integer,bigint[],text,b to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.patterns_admit(text,text[],text[]) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.patterns_admit(text,text[],text[]) to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb.reenter_scope(text) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.resolve_scope(text) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.role_hazards(name) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.role_hazards(name) to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb.scope_as_of() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_entered() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_filters_content() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_name_exclude() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_name_include() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_path_exclude() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_path_include() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_project_id() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_project_ids() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_project_names() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.scope_resource_filter() to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.search_notes(text,text,integer,integer) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb.text_candidates(tsquery,integer) to scopedb_app', 'EXECUTE'),
    ('grant', 'function scopedb_audit."check"() to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.installed_facts() to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.manifest_digest() to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.option_is_on(text[],text) to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.pgvector_too_old(text) to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.protection_facts(regclass) to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.relation_named(text) to scopedb_auditor', 'EXECUTE'),
    ('grant', 'function scopedb_audit.removal(text,text,text) to scopedb_auditor', 'EXECUTE'),
    ('grant', 'schema scopedb to scopedb_app', 'USAGE'),
    ('grant', 'schema scopedb to scopedb_auditor', 'USAGE'),
    ('grant', 'schema scopedb_audit to scopedb_auditor', 'USAGE'),
    ('grant', 'table scopedb.fragments to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'table scopedb.graph_edges to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'table scopedb.graph_nodes to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'table scopedb.projects to scopedb_app', 'SELECT'),
    ('grant', 'table scopedb.resource_links to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'table scopedb.resources to scopedb_app', 'INSERT,SELECT'),
    ('grant', 'table scopedb_audit.app_roles to scopedb_auditor', 'SELECT'),
    ('grant', 'table scopedb_audit.data_tables to scopedb_auditor', 'SELECT'),
    ('grant', 'table scopedb_audit.derived_relations to scopedb_auditor', 'SELECT'),
    ('grant', 'table scopedb_audit.findings to scopedb_auditor', 'SELECT'),
    ('grant', 'table scopedb_audit.manifest to scopedb_auditor', 'SELECT'),
    ('grant', 'table scopedb_audit.protected_tables to scopedb_auditor', 'SELECT'),
    ('grant', 'table scopedb_audit.service_table_facts to scopedb_auditor', 'SELECT'),
    ('grant', 'table scopedb_audit.service_tables to scopedb_auditor', 'SELECT'),
    ('grant', 'type scopedb_private.scope_claims to public', 'USAGE'),
    ('index', 'scopedb.fragments_pkey', 'CREATE UNIQUE INDEX fragments_pkey ON ONLY scopedb.fragments USING btree (project_id, id)'),
    ('index', 'scopedb.fragments_resource_idx', 'CREATE INDEX fragments_resource_idx ON ONLY scopedb.fragments USING btree (project_id, resource_id)'),
    ('index', 'scopedb.fragments_tier_lru_idx', 'CREATE INDEX fragments_tier_lru_idx ON ONLY scopedb.fragments USING btree (project_id, tier, last_accessed_at)'),
    ('index', 'scopedb.graph_edges_dst_idx', 'CREATE INDEX graph_edges_dst_idx ON scopedb.graph_edges USING btree (project_id, dst)'),
    ('index', 'scopedb.graph_edges_pkey', 'CREATE UNIQUE INDEX graph_edges_pkey ON scopedb.graph_edges USING btree (project_id, src, relation, dst)'),
    ('index', 'scopedb.graph_nodes_kind_idx', 'CREATE INDEX graph_nodes_kind_idx ON scopedb.graph_nodes USING btree (project_id, kind)'),
    ('index', 'scopedb.graph_nodes_pkey', 'CREATE UNIQUE INDEX graph_nodes_pkey ON scopedb.graph_nodes USING btree (project_id, id)'),
    ('index', 'scopedb.graph_nodes_resource_idx', 'CREATE INDEX graph_nodes_resource_idx ON scopedb.graph_nodes USING btree (project_id, resource_id)'),
    ('index', 'scopedb.graph_nodes_scope_key', 'CREATE UNIQUE INDEX graph_nodes_scope_key ON scopedb.graph_nodes USING btree (project_id, id, resource_key, path_key, fqn_key)'),
    ('index', 'scopedb.note_tombstones_pkey', 'CREATE UNIQUE INDEX note_tombstones_pkey ON scopedb.note_tombstones USING btree (project_id, note_id)'),
    ('index', 'scopedb.notes_created_idx', 'CREATE INDEX notes_created_idx ON scopedb.notes USING btree (project_id, created_at DESC)'),
    ('index', 'scopedb.notes_pkey', 'CREATE UNIQUE INDEX notes_pkey ON scopedb.notes USING btree (project_id, id)'),
    ('index', 'scopedb.projects_name_key', 'CREATE UNIQUE INDEX projects_name_key ON scopedb.projects USING btree (name)'),
    ('index', 'scopedb.projects_pkey', 'CREATE UNIQUE INDEX projects_pkey ON scopedb.projects USING btree (id)'),
    ('index', 'scopedb.resource_links_child_idx', 'CREATE INDEX resource_links_child_idx ON scopedb.resource_links USING btree (project_id, child_id)'),
    ('index', 'scopedb.resource_links_pkey', 'CREATE UNIQUE INDEX resource_links_pkey ON scopedb.resource_links USING btree (project_id, parent_id, child_id)'),
    ('index', 'scopedb.resources_alias_key', 'CREATE UNIQUE INDEX resources_alias_key ON scopedb.resources USING btree (project_id, alias)'),
    ('index', 'scopedb.resources_id_idx', 'CREATE INDEX resources_id_idx ON scopedb.resources USING btree (id)'),
    ('index', 'scopedb.resources_pkey', 'CREATE UNIQUE INDEX resources_pkey ON scopedb.resources USING btree (project_id, id)'),
    ('index', 'scopedb_audit.manifest_pkey', 'CREATE UNIQUE INDEX manifest_pkey ON scopedb_audit.manifest USING btree (kind, object)'),
    ('index', 'scopedb_audit.service_table_facts_pkey', 'CREATE UNIQUE INDEX service_table_facts_pkey ON scopedb_audit.service_table_facts USING btree (relation, kind, object)'),
    ('index', 'scopedb_audit.service_tables_pkey', 'CREATE UNIQUE INDEX service_tables_pkey ON scopedb_audit.service_tables USING btree (relation)'),
    ('index', 'scopedb_private.fragment_originals_pkey', 'CREATE UNIQUE INDEX fragment_originals_pkey ON scopedb_private.fragment_originals USING btree (project_id, id)'),
    ('index', 'scopedb_private.fragment_search_pkey', 'CREATE UNIQUE INDEX fragment_search_pkey ON ONLY scopedb_private.fragment_search USING btree (project_id, id)'),
    ('index', 'scopedb_private.project_locks_pkey', 'CREATE UNIQUE INDEX project_locks_pkey ON scopedb_private.project_locks USING btree (project_id, purpose)'),
    ('index', 'scopedb_private.signing_keys_pkey', 'CREATE UNIQUE INDEX signing_keys_pkey ON scopedb_private.signing_keys USING btree (key_id)'),
    ('policy', 'scopedb.fragments "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.fragments "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.fragments "owner deletes the fragments of the entered scope"', 'cmd=d permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (((valid_from <= ( SELECT scopedb.scope_as_of() AS scope_as_of)) AND ((valid_to IS NULL) OR (valid_to > ( SELECT scopedb.scope_as_of() AS scope_as_of)))) IS NOT FALSE) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.fragments "owner searches the fragments of the entered scope"', 'cmd=r permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (((valid_from <= ( SELECT scopedb.scope_as_of() AS scope_as_of)) AND ((valid_to IS NULL) OR (valid_to > ( SELECT scopedb.scope_as_of() AS scope_as_of)))) IS NOT FALSE) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.fragments "scope limits which fragments the app changes"', 'cmd=w restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (((valid_from <= ( SELECT scopedb.scope_as_of() AS scope_as_of)) AND ((valid_to IS NULL) OR (valid_to > ( SELECT scopedb.scope_as_of() AS scope_as_of)))) IS NOT FALSE) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE))))'),
    ('policy', 'scopedb.fragments "scope limits which fragments the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE))))'),
    ('policy', 'scopedb.fragments "scope limits which fragments the app deletes"', 'cmd=d restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (((valid_from <= ( SELECT scopedb.scope_as_of() AS scope_as_of)) AND ((valid_to IS NULL) OR (valid_to > ( SELECT scopedb.scope_as_of() AS scope_as_of)))) IS NOT FALSE) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.fragments "scope limits which fragments the app reads"', 'cmd=r restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (((valid_from <= ( SELECT scopedb.scope_as_of() AS scope_as_of)) AND ((valid_to IS NULL) OR (valid_to > ( SELECT scopedb.scope_as_of() AS scope_as_of)))) IS NOT FALSE) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.graph_edges "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.graph_edges "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.graph_edges "owner deletes the graph edges of the entered scope"', 'cmd=d permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[src_resource, dst_resource] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((src_path ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((dst_path ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((src_path ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((dst_path ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((src_fqn ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((dst_fqn ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((src_fqn ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE) AND ((dst_fqn ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.graph_edges "owner reads the graph edges of the entered scope"', 'cmd=r permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[src_resource, dst_resource] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((src_path ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((dst_path ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((src_path ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((dst_path ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((src_fqn ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((dst_fqn ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((src_fqn ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE) AND ((dst_fqn ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.graph_edges "scope limits which graph edges the app changes"', 'cmd=w restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[src_resource, dst_resource] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((src_path ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((dst_path ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((src_path ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((dst_path ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((src_fqn ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((dst_fqn ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((src_fqn ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE) AND ((dst_fqn ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.src))
 OFFSET 0)) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.dst))
 OFFSET 0)))'),
    ('policy', 'scopedb.graph_edges "scope limits which graph edges the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.src))
 OFFSET 0)) AND (EXISTS ( SELECT
   FROM scopedb.graph_nodes n
  WHERE ((n.project_id = graph_edges.project_id) AND (n.id = graph_edges.dst))
 OFFSET 0)))'),
    ('policy', 'scopedb.graph_edges "scope limits which graph edges the app deletes"', 'cmd=d restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[src_resource, dst_resource] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((src_path ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((dst_path ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((src_path ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((dst_path ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((src_fqn ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((dst_fqn ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((src_fqn ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE) AND ((dst_fqn ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.graph_edges "scope limits which graph edges the app reads"', 'cmd=r restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[src_resource, dst_resource] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((src_path ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((dst_path ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((src_path ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((dst_path ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((src_fqn ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((dst_fqn ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((src_fqn ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE) AND ((dst_fqn ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.graph_nodes "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.graph_nodes "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.graph_nodes "owner deletes the graph nodes of the entered scope"', 'cmd=d permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.graph_nodes "owner reads the graph nodes of the entered scope"', 'cmd=r permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.graph_nodes "scope limits which graph nodes the app changes"', 'cmd=w restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE))))'),
    ('policy', 'scopedb.graph_nodes "scope limits which graph nodes the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE))))'),
    ('policy', 'scopedb.graph_nodes "scope limits which graph nodes the app deletes"', 'cmd=d restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.graph_nodes "scope limits which graph nodes the app reads"', 'cmd=r restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((COALESCE(resource_id, ''''::text) = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE) AND ((( SELECT scopedb.scope_filters_content() AS scope_filters_content) IS NOT TRUE) OR (((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_include() AS scope_path_include)::text[])) IS NOT FALSE) AND ((COALESCE(path, ''''::text) ~ ANY (( SELECT scopedb.scope_path_exclude() AS scope_path_exclude)::text[])) IS NOT TRUE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_include() AS scope_name_include)::text[])) IS NOT FALSE) AND ((COALESCE(fqn, ''''::text) ~ ANY (( SELECT scopedb.scope_name_exclude() AS scope_name_exclude)::text[])) IS NOT TRUE)))) check=-'),
    ('policy', 'scopedb.note_tombstones "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.note_tombstones "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.note_tombstones "owner records tombstones in the entered scope"', 'cmd=a permissive to=scopedb_owner using=- check=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[]))'),
    ('policy', 'scopedb.note_tombstones "scope limits which tombstones the app changes"', 'cmd=w restrictive to=scopedb_app using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[]))'),
    ('policy', 'scopedb.note_tombstones "scope limits which tombstones the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[]))'),
    ('policy', 'scopedb.note_tombstones "scope limits which tombstones the app deletes"', 'cmd=d restrictive to=scopedb_app using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=-'),
    ('policy', 'scopedb.note_tombstones "scope limits which tombstones the app reads"', 'cmd=r restrictive to=scopedb_app using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=-'),
    ('policy', 'scopedb.notes "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.notes "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.notes "owner marks notes of the entered scope forgotten"', 'cmd=w permissive to=scopedb_owner using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[]))'),
    ('policy', 'scopedb.notes "owner reads the notes of the entered scope"', 'cmd=r permissive to=scopedb_owner using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=-'),
    ('policy', 'scopedb.notes "scope limits which notes the app changes"', 'cmd=w restrictive to=scopedb_app using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[]))'),
    ('policy', 'scopedb.notes "scope limits which notes the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (forgotten_at IS NULL))'),
    ('policy', 'scopedb.notes "scope limits which notes the app deletes"', 'cmd=d restrictive to=scopedb_app using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=-'),
    ('policy', 'scopedb.notes "scope limits which notes the app reads"', 'cmd=r restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND (forgotten_at IS NULL) AND ((retention_days IS NULL) OR ((created_at + make_interval(days => retention_days)) > now()))) check=-'),
    ('policy', 'scopedb.projects "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.projects "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.projects "owner resolves the projects named by the scope"', 'cmd=r permissive to=scopedb_owner using=(name = ANY (( SELECT scopedb.scope_project_names() AS scope_project_names)::text[])) check=-'),
    ('policy', 'scopedb.projects "scope limits which projects the app changes"', 'cmd=w restrictive to=scopedb_app using=(name = ANY (( SELECT scopedb.scope_project_names() AS scope_project_names)::text[])) check=(name = ANY (( SELECT scopedb.scope_project_names() AS scope_project_names)::text[]))'),
    ('policy', 'scopedb.projects "scope limits which projects the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=(name = ANY (( SELECT scopedb.scope_project_names() AS scope_project_names)::text[]))'),
    ('policy', 'scopedb.projects "scope limits which projects the app deletes"', 'cmd=d restrictive to=scopedb_app using=(name = ANY (( SELECT scopedb.scope_project_names() AS scope_project_names)::text[])) check=-'),
    ('policy', 'scopedb.projects "scope limits which projects the app reads"', 'cmd=r restrictive to=scopedb_app using=(name = ANY (( SELECT scopedb.scope_project_names() AS scope_project_names)::text[])) check=-'),
    ('policy', 'scopedb.resource_links "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.resource_links "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.resource_links "owner deletes the resource links of the entered scope"', 'cmd=d permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[parent_id, child_id] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE)) check=-'),
    ('policy', 'scopedb.resource_links "owner walks the links of the projects of the scope"', 'cmd=r permissive to=scopedb_owner using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=-'),
    ('policy', 'scopedb.resource_links "scope limits which resource links the app changes"', 'cmd=w restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[parent_id, child_id] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE)) check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[parent_id, child_id] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE))'),
    ('policy', 'scopedb.resource_links "scope limits which resource links the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[parent_id, child_id] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE))'),
    ('policy', 'scopedb.resource_links "scope limits which resource links the app deletes"', 'cmd=d restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[parent_id, child_id] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE)) check=-'),
    ('policy', 'scopedb.resource_links "scope limits which resource links the app reads"', 'cmd=r restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((ARRAY[parent_id, child_id] <@ ( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)) IS NOT FALSE)) check=-'),
    ('policy', 'scopedb.resources "app sees nothing until a scope is entered"', 'cmd=* permissive to=scopedb_app using=( SELECT scopedb.scope_entered() AS scope_entered) check=( SELECT scopedb.scope_entered() AS scope_entered)'),
    ('policy', 'scopedb.resources "owner administers every row in an admin session"', 'cmd=* permissive to=scopedb_owner using=( SELECT scopedb_private.is_admin_session() AS is_admin_session) check=( SELECT scopedb_private.is_admin_session() AS is_admin_session)'),
    ('policy', 'scopedb.resources "owner deletes the resources of the entered scope"', 'cmd=d permissive to=scopedb_owner using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((id = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE)) check=-'),
    ('policy', 'scopedb.resources "owner lists the resources of the projects of the scope"', 'cmd=r permissive to=scopedb_owner using=(project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) check=-'),
    ('policy', 'scopedb.resources "scope limits which resources the app changes"', 'cmd=w restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((id = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE)) check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((id = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE))'),
    ('policy', 'scopedb.resources "scope limits which resources the app creates"', 'cmd=a restrictive to=scopedb_app using=- check=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((id = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE))'),
    ('policy', 'scopedb.resources "scope limits which resources the app deletes"', 'cmd=d restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((id = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE)) check=-'),
    ('policy', 'scopedb.resources "scope limits which resources the app reads"', 'cmd=r restrictive to=scopedb_app using=((project_id = ANY (( SELECT scopedb.scope_project_ids() AS scope_project_ids)::bigint[])) AND ((id = ANY (( SELECT scopedb.scope_resource_filter() AS scope_resource_filter)::text[])) IS NOT FALSE)) check=-'),
    ('schema', 'scopedb', 'owner=scopedb_owner'),
    ('schema', 'scopedb_audit', 'owner=scopedb_owner'),
    ('schema', 'scopedb_parts', 'owner=scopedb_owner'),
    ('schema', 'scopedb_private', 'owner=scopedb_owner'),
    ('table', 'scopedb.fragments', 'kind=p owner=scopedb_owner rls=t forced=t'),
    ('table', 'scopedb.graph_edges', 'kind=r owner=scopedb_owner rls=t forced=t'),
    ('table', 'scopedb.graph_nodes', 'kind=r owner=scopedb_owner rls=t forced=t'),
    ('table', 'scopedb.note_tombstones', 'kind=r owner=scopedb_owner rls=t forced=t'),
    ('table', 'scopedb.notes', 'kind=r owner=scopedb_owner rls=t forced=t'),
    ('table', 'scopedb.projects', 'kind=r owner=scopedb_owner rls=t forced=t'),
    ('table', 'scopedb.projects_id_seq', 'kind=S owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb.resource_links', 'kind=r owner=scopedb_owner rls=t forced=t'),
    ('table', 'scopedb.resources', 'kind=r owner=scopedb_owner rls=t forced=t'),
    ('table', 'scopedb_audit.app_roles', 'kind=v owner=scopedb_owner rls=f forced=f definition=c2bd77041ee94fdcf434f05dd29e0bd1'),
    ('table', 'scopedb_audit.data_tables', 'kind=v owner=scopedb_owner rls=f forced=f definition=4b6edcea27f77030a3c07d2fd9cd4f3d'),
    ('table', 'scopedb_audit.derived_relations', 'kind=v owner=scopedb_owner rls=f forced=f definition=986e2214d797b6e9053ac4ad834aab99'),
    ('table', 'scopedb_audit.findings', 'kind=v owner=scopedb_owner rls=f forced=f definition=8b1ee10d92ac868d70770bcf94612a3b'),
    ('table', 'scopedb_audit.manifest', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_audit.protected_tables', 'kind=v owner=scopedb_owner rls=f forced=f definition=234f7241b34b32a7605d19bcadd8ab6d'),
    ('table', 'scopedb_audit.service_table_facts', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_audit.service_tables', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.fragment_originals', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.fragment_search', 'kind=p owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.project_locks', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('table', 'scopedb_private.signing_keys', 'kind=r owner=scopedb_owner rls=f forced=f'),
    ('trigger', 'scopedb.fragments fragments_fixed_key', 'CREATE TRIGGER fragments_fixed_key BEFORE UPDATE OF project_id, id ON scopedb.fragments FOR EACH ROW EXECUTE FUNCTION scopedb_private.refuse_fragment_key_change()'),
    ('trigger', 'scopedb.fragments fragments_forget_copies', 'CREATE TRIGGER fragments_forget_copies AFTER DELETE ON scopedb.fragments REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.forget_fragment_copies()'),
    ('trigger', 'scopedb.fragments fragments_keep_original', 'CREATE TRIGGER fragments_keep_original BEFORE UPDATE OF tier ON scopedb.fragments FOR EACH ROW EXECUTE FUNCTION scopedb_private.keep_original_content()'),
    ('trigger', 'scopedb.fragments fragments_sync_search_insert', 'CREATE TRIGGER fragments_sync_search_insert AFTER INSERT ON scopedb.fragments REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_fragment_search()'),
    ('trigger', 'scopedb.fragments fragments_sync_search_update', 'CREATE TRIGGER fragments_sync_search_update AFTER UPDATE ON scopedb.fragments REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION scopedb_private.sync_fragment_search()'),
    ('trigger', 'scopedb.graph_edges graph_edges_copy_ends', 'CREATE TRIGGER graph_edges_copy_ends BEFORE INSERT ON scopedb.graph_edges FOR EACH ROW WHEN ((num_nulls(new.src_resource, new.src_path, new.src_fqn, new.dst_resource, new.dst_path, new.dst_fqn) > 0)) EXECUTE FUNCTION scopedb_private.copy_edge_ends()'),
    ('trigger', 'scopedb.resource_links resource_links_refuse_cycle', 'CREATE TRIGGER resource_links_refuse_cycle BEFORE INSERT OR UPDATE ON scopedb.resource_links FOR EACH ROW EXECUTE FUNCTION scopedb_private.refuse_resource_cycle()'),
    ('trigger', 'scopedb_private.signing_keys signing_keys_derive_pads', 'CREATE TRIGGER signing_keys_derive_pads BEFORE INSERT OR UPDATE OF secret ON scopedb_private.signing_keys FOR EACH ROW EXECUTE FUNCTION scopedb_private.derive_hmac_pads()');

RESET ROLE;
