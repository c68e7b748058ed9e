-- Revision 0028 (issue 19): the read policies of fragments judge a row their first question leaves undecided with
-- scopedb.terms_admit_fragment, given the scope's terms from one InitPlan, instead of a correlated sub-SELECT
-- holding that InitPlan. Planning the sub-SELECT cost every statement on fragments about 65 µs of server time
-- (a pooled point lookup: 270 -> 200 µs of server CPU), whether or not a row reached it. Same predicate, term for
-- term, from one reading of the terms per statement (#90); the policies' first question is unchanged. The write
-- checks (WITH CHECK) keep their sub-SELECT.

SET ROLE scopedb_owner;

-- The full predicate of fragments' reads for one row, given the terms (scopedb.scope_terms, read once per
-- statement by the caller): the policies' ELSE branch on fragments (sql/04_policies.sql) passes it the terms as
-- one InitPlan and the row's columns. Until revision 0028 that branch was a correlated sub-SELECT holding the
-- InitPlan; planning it cost every statement on fragments about 65 µs of server time, the row in scope or not
-- (a pooled point lookup's statement: 270 µs of server CPU, 200 with this call), where this call costs 0.2-0.33
-- µs more than the sub-SELECT's evaluation for each row that reaches it (a narrowed scope's count of 9,500 rows:
-- 10.8 ms then, 12.7 now; every version visible: 5.9 and 9.0 ms; docs/benchmarks.md).
-- A pure function of its arguments, so anyone may call it and it learns nothing: it reads no setting and no
-- table. PL/pgSQL evaluates its one expression through its fast path; a SQL-bodied function would be inlined
-- into the policy, which copies the terms' InitPlan into each of its uses (one reading each again, #90). It has
-- no SET clause (one would cost a save and restore of the setting for every row), so every operator is named
-- with its schema and nothing in a caller's search_path can stand in for one.
CREATE FUNCTION scopedb.terms_admit_fragment(t scopedb.scope_terms, project_id bigint, valid_from timestamptz,
                                             valid_to timestamptz, resource_id text, path text, fqn text)
RETURNS boolean
LANGUAGE plpgsql
IMMUTABLE
PARALLEL SAFE
AS $$
BEGIN
    RETURN project_id OPERATOR(pg_catalog.=) ANY (t.project_ids)
       AND (valid_from OPERATOR(pg_catalog.<=) t.as_of
            AND (valid_to IS NULL OR valid_to OPERATOR(pg_catalog.>) t.as_of)) IS NOT FALSE
       AND (COALESCE(resource_id, '') OPERATOR(pg_catalog.=) ANY (t.resource_filter)) IS NOT FALSE
       AND (t.filters_content IS NOT TRUE
            OR ((COALESCE(path, '') OPERATOR(pg_catalog.~) ANY (t.path_include)) IS NOT FALSE
                AND (COALESCE(path, '') OPERATOR(pg_catalog.~) ANY (t.path_exclude)) IS NOT TRUE
                AND (COALESCE(fqn, '') OPERATOR(pg_catalog.~) ANY (t.name_include)) IS NOT FALSE
                AND (COALESCE(fqn, '') OPERATOR(pg_catalog.~) ANY (t.name_exclude)) IS NOT TRUE));
END
$$;
COMMENT ON FUNCTION scopedb.terms_admit_fragment(scopedb.scope_terms, bigint, timestamptz, timestamptz, text, text, text) IS
    'Whether the terms admit a fragment''s version (the read policies'' full predicate); a pure function.';
GRANT EXECUTE ON FUNCTION scopedb.terms_admit_fragment(scopedb.scope_terms, bigint, timestamptz, timestamptz, text, text,
                                                   text) TO scopedb_app;

ALTER POLICY "scope limits which fragments the app reads" ON scopedb.fragments
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(true))::bigint[])
                THEN valid_from <= pg_catalog.now() AND (valid_to IS NULL OR valid_to > pg_catalog.now())
                ELSE scopedb.terms_admit_fragment((SELECT scopedb.scope_terms()), project_id, valid_from, valid_to,
                                                  resource_id, path, fqn) END);
ALTER POLICY "scope limits which fragments the app changes" ON scopedb.fragments
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(true))::bigint[])
                THEN valid_from <= pg_catalog.now() AND (valid_to IS NULL OR valid_to > pg_catalog.now())
                ELSE scopedb.terms_admit_fragment((SELECT scopedb.scope_terms()), project_id, valid_from, valid_to,
                                                  resource_id, path, fqn) END);
ALTER POLICY "scope limits which fragments the app deletes" ON scopedb.fragments
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(true))::bigint[])
                THEN valid_from <= pg_catalog.now() AND (valid_to IS NULL OR valid_to > pg_catalog.now())
                ELSE scopedb.terms_admit_fragment((SELECT scopedb.scope_terms()), project_id, valid_from, valid_to,
                                                  resource_id, path, fqn) END);
ALTER POLICY "owner searches the fragments of the entered scope" ON scopedb.fragments
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(true))::bigint[])
                THEN valid_from <= pg_catalog.now() AND (valid_to IS NULL OR valid_to > pg_catalog.now())
                ELSE scopedb.terms_admit_fragment((SELECT scopedb.scope_terms()), project_id, valid_from, valid_to,
                                                  resource_id, path, fqn) END);
ALTER POLICY "owner deletes the fragments of the entered scope" ON scopedb.fragments
    USING (CASE WHEN project_id = ANY ((SELECT scopedb.scope_whole_project_ids(true))::bigint[])
                THEN valid_from <= pg_catalog.now() AND (valid_to IS NULL OR valid_to > pg_catalog.now())
                ELSE scopedb.terms_admit_fragment((SELECT scopedb.scope_terms()), project_id, valid_from, valid_to,
                                                  resource_id, path, fqn) END);

RESET ROLE;
