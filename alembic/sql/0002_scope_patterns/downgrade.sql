-- Revision 0002 down: back to the foundation's fragment policies and scope resolution.
SET ROLE scopedb_owner;

DROP POLICY "scope limits which fragments the app reads" ON scopedb.fragments;
DROP POLICY "scope limits which fragments the app creates" ON scopedb.fragments;
DROP POLICY "scope limits which fragments the app changes" ON scopedb.fragments;
DROP POLICY "scope limits which fragments the app deletes" ON scopedb.fragments;

CREATE POLICY "scope limits which fragments the app reads" ON scopedb.fragments
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE);
CREATE POLICY "scope limits which fragments the app creates" ON scopedb.fragments
    AS RESTRICTIVE FOR INSERT TO scopedb_app
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE);
CREATE POLICY "scope limits which fragments the app changes" ON scopedb.fragments
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE)
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE);
CREATE POLICY "scope limits which fragments the app deletes" ON scopedb.fragments
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (COALESCE(resource_id, '') = ANY ((SELECT scopedb.scope_resource_filter())::text[])) IS NOT FALSE);

-- Verifies a token from the Python layer, resolves its project names to ids, subtracts the denied resources from
-- the narrowed ones, and returns the result as a new token signed by the database. That resolved token is what
-- the policies read, so no statement has to look project names up again. Errors carry a scopedb SQLSTATE (class
-- SD) so the Python layer raises a typed exception:
--   SD001 malformed or missing   SD002 unknown/retired key, bad signature, no active key
--   SD003 expired or not yet valid   SD004 wrong audience   SD005 a project named by the scope does not exist
-- Use it directly (then `SET LOCAL scopedb.scope_token = <result>`) where SET LOCAL is the only form that reaches
-- every node, as on Citus; otherwise call scopedb.enter_scope.
CREATE OR REPLACE FUNCTION scopedb.resolve_scope(token text) RETURNS text
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    checked record;
    c scopedb_private.scope_claims;
    previous text := pg_catalog.current_setting('scopedb.scope_token', true);
    ids bigint[];
    denied text[];
    filter text[];
    claims jsonb;
BEGIN
    checked := scopedb_private.check_token(token);
    IF checked.problem IS NOT NULL THEN
        RAISE EXCEPTION 'scope token refused: %', checked.problem
            USING ERRCODE = CASE checked.problem
                                WHEN 'missing' THEN 'SD001'
                                WHEN 'malformed' THEN 'SD001'
                                WHEN 'expired' THEN 'SD003'
                                WHEN 'not yet valid' THEN 'SD003'
                                WHEN 'wrong audience' THEN 'SD004'
                                ELSE 'SD002'
                            END;
    END IF;
    c := checked.claims;
    denied := COALESCE(c.denied, '{}'::text[]);
    -- The owner's policy on projects admits the names of the verified token in the setting.
    PERFORM pg_catalog.set_config('scopedb.scope_token', token, true);
    ids := ARRAY(SELECT p.id FROM scopedb.projects AS p WHERE p.name = ANY (c.projects) ORDER BY p.id);
    IF pg_catalog.cardinality(ids) <> pg_catalog.cardinality(ARRAY(SELECT DISTINCT pg_catalog.unnest(c.projects))) THEN
        RAISE EXCEPTION 'scope names a project that does not exist' USING ERRCODE = 'SD005';
    END IF;
    claims := pg_catalog.jsonb_build_object(
        'v', 1, 'aud', c.aud, 'iat', c.iat, 'exp', c.exp, 'act', c.act,
        'projects', c.projects, 'project_ids', ids, 'resources', c.resources, 'denied', denied);
    IF c.resources IS NOT NULL THEN
        -- Narrowed: exactly the named resources that are not denied; resource-less rows are hidden.
        filter := ARRAY(SELECT DISTINCT r FROM pg_catalog.unnest(c.resources) AS r WHERE r <> ALL (denied) ORDER BY r);
    ELSIF pg_catalog.cardinality(denied) > 0 THEN
        -- Every resource of the projects except the denied ones, and resource-less rows (''). Listing them lets
        -- one array comparison serve every kind of scope. The owner lists them under a provisional token that
        -- carries the project ids, which is what its policy on resources admits.
        PERFORM pg_catalog.set_config('scopedb.scope_token', scopedb_private.sign_claims(claims), true);
        filter := ARRAY(SELECT r.id FROM scopedb.resources AS r
                         WHERE r.project_id = ANY (ids) AND r.id <> ALL (denied) ORDER BY r.id) || ''::text;
    END IF;
    PERFORM pg_catalog.set_config('scopedb.scope_token', COALESCE(previous, ''), true);
    RETURN scopedb_private.sign_claims(claims || pg_catalog.jsonb_build_object('resource_filter', filter));
END
$$;
COMMENT ON FUNCTION scopedb.resolve_scope(text) IS
    'Verifies a scope token and returns it resolved (project ids, effective resources), signed by the database.';

DROP FUNCTION scopedb.scope_fragment_pattern();
DROP FUNCTION scopedb.scope_as_of();
DROP FUNCTION scopedb.patterns_admit(text, text[], text[]);
DROP FUNCTION scopedb_private.fragment_pattern(scopedb_private.scope_claims, text[]);
DROP FUNCTION scopedb_private.regex_literal(text);

ALTER TABLE scopedb.fragments
    DROP CONSTRAINT fragments_path_check,
    DROP CONSTRAINT fragments_fqn_check;

ALTER TYPE scopedb_private.scope_claims
    DROP ATTRIBUTE fragment_pattern,
    DROP ATTRIBUTE "time",
    DROP ATTRIBUTE name_exclude,
    DROP ATTRIBUTE name_include,
    DROP ATTRIBUTE path_exclude,
    DROP ATTRIBUTE path_include;

RESET ROLE;
