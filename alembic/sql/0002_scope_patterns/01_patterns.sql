-- Revision 0002: path-glob and name patterns and the temporal scope, enforced by the fragment policies.
--
-- Adds the pattern and time claims to scopedb_private.scope_claims, the functions that turn them into one
-- regular expression per scope (scopedb_private.fragment_pattern) and an instant (scopedb.scope_as_of), and
-- replaces the restrictive fragment policies so that they read both. Function bodies are copies of the canonical
-- sql/03_functions.sql of this revision; tests/migration proves upgrade head equals a fresh load of sql/.

SET ROLE scopedb_owner;

ALTER TYPE scopedb_private.scope_claims
    ADD ATTRIBUTE path_include text[],
    ADD ATTRIBUTE path_exclude text[],
    ADD ATTRIBUTE name_include text[],
    ADD ATTRIBUTE name_exclude text[],
    ADD ATTRIBUTE "time" text,
    ADD ATTRIBUTE fragment_pattern text;

ALTER TABLE scopedb.fragments
    ADD CONSTRAINT fragments_path_check CHECK (strpos(path, chr(31)) = 0),
    ADD CONSTRAINT fragments_fqn_check CHECK (strpos(fqn, chr(31)) = 0);

-- A string as a regular expression that matches exactly it: every character that is not a letter, digit or
-- underscore gets a backslash, which makes it literal in PostgreSQL's regular expressions.
CREATE FUNCTION scopedb_private.regex_literal(value text) RETURNS text
LANGUAGE sql
IMMUTABLE
STRICT
SET search_path = pg_catalog, pg_temp
RETURN pg_catalog.regexp_replace(value, '([^[:alnum:]_])', '\\\1', 'g');
COMMENT ON FUNCTION scopedb_private.regex_literal(text) IS
    'Escapes a string so that it matches itself as a regular expression.';

-- The one regular expression a fragment's policy matches, over the subject
--     coalesce(resource_id, '') || chr(31) || coalesce(path, '') || chr(31) || coalesce(fqn, '')
-- It checks, in order: the resource is not denied; it is one of the narrowed resources (if the scope narrows);
-- the path is not excluded; it is included (if there are includes); the same two for the name. Exclusions are
-- negative lookaheads, so one match decides everything and the policy reads the scope through one InitPlan.
-- chr(31) cannot occur in a path or name (check constraints), so the three parts split unambiguously. The path
-- and name bodies come from scopedb.patterns (signed into the token); every literal in them is escaped.
-- NULL when the scope filters none of the three, which admits every fragment with one evaluation.
CREATE FUNCTION scopedb_private.fragment_pattern(c scopedb_private.scope_claims, effective_resources text[])
RETURNS text
LANGUAGE sql
IMMUTABLE
SET search_path = pg_catalog, pg_temp
RETURN (
    SELECT CASE
        WHEN c.resources IS NULL AND COALESCE(pg_catalog.cardinality(c.denied), 0) = 0
             AND COALESCE(pg_catalog.cardinality(c.path_include), 0) = 0
             AND COALESCE(pg_catalog.cardinality(c.path_exclude), 0) = 0
             AND COALESCE(pg_catalog.cardinality(c.name_include), 0) = 0
             AND COALESCE(pg_catalog.cardinality(c.name_exclude), 0) = 0 THEN NULL
        -- Narrowed to resources that are all denied: a pattern no subject (which holds two separators) matches.
        WHEN c.resources IS NOT NULL AND COALESCE(pg_catalog.cardinality(effective_resources), 0) = 0 THEN '\A\Z'
        ELSE '\A'
            || CASE WHEN COALESCE(pg_catalog.cardinality(c.denied), 0) > 0
                    THEN '(?!(?:' || (SELECT pg_catalog.string_agg(scopedb_private.regex_literal(d), '|' ORDER BY d)
                                        FROM pg_catalog.unnest(c.denied) AS d) || ')' || sep || ')'
                    ELSE '' END
            || CASE WHEN c.resources IS NULL THEN '[^' || sep || ']*'
                    ELSE '(?:' || (SELECT pg_catalog.string_agg(scopedb_private.regex_literal(r), '|' ORDER BY r)
                                     FROM pg_catalog.unnest(effective_resources) AS r) || ')' END
            || sep
            || CASE WHEN COALESCE(pg_catalog.cardinality(c.path_exclude), 0) > 0
                    THEN '(?!(?:' || pg_catalog.array_to_string(c.path_exclude, '|') || ')' || sep || ')'
                    ELSE '' END
            || CASE WHEN COALESCE(pg_catalog.cardinality(c.path_include), 0) > 0
                    THEN '(?:' || pg_catalog.array_to_string(c.path_include, '|') || ')'
                    ELSE '[^' || sep || ']*' END
            || sep
            || CASE WHEN COALESCE(pg_catalog.cardinality(c.name_exclude), 0) > 0
                    THEN '(?!(?:' || pg_catalog.array_to_string(c.name_exclude, '|') || ')\Z)'
                    ELSE '' END
            || CASE WHEN COALESCE(pg_catalog.cardinality(c.name_include), 0) > 0
                    THEN '(?:' || pg_catalog.array_to_string(c.name_include, '|') || ')'
                    ELSE '[^' || sep || ']*' END
            || '\Z'
    END
    FROM (SELECT pg_catalog.chr(31) AS sep) AS s);
COMMENT ON FUNCTION scopedb_private.fragment_pattern(scopedb_private.scope_claims, text[]) IS
    'The single regular expression the fragment policies match against resource, path and name.';

-- Whether a subject is in an include/exclude scope given as compiled pattern bodies: what the Python matcher
-- (scopedb.patterns) decides, decided by PostgreSQL's regex engine. The conformance corpora hold both to the
-- same answers.
CREATE FUNCTION scopedb.patterns_admit(subject text, include_bodies text[], exclude_bodies text[])
RETURNS boolean
LANGUAGE sql
IMMUTABLE
SET search_path = pg_catalog, pg_temp
RETURN (COALESCE(pg_catalog.cardinality(include_bodies), 0) = 0
        OR subject ~ ('\A(?:' || pg_catalog.array_to_string(include_bodies, '|') || ')\Z'))
   AND (COALESCE(pg_catalog.cardinality(exclude_bodies), 0) = 0
        OR subject !~ ('\A(?:' || pg_catalog.array_to_string(exclude_bodies, '|') || ')\Z'));
COMMENT ON FUNCTION scopedb.patterns_admit(text, text[], text[]) IS
    'Include-then-exclude matching of a path or name against compiled pattern bodies.';

-- The instant the scope sees: now() for 'current' (the default), the given instant for a point in time, NULL for
-- 'all' (which the policies read as "every version"). No valid, resolved scope: -infinity, which no row covers.
CREATE FUNCTION scopedb.scope_as_of() RETURNS timestamptz
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c scopedb_private.scope_claims := scopedb_private.verified_claims();
BEGIN
    IF c IS NULL OR c.project_ids IS NULL THEN
        RETURN '-infinity'::timestamptz;
    ELSIF c."time" = 'all' THEN
        RETURN NULL;
    ELSIF c."time" IS NULL OR c."time" = 'current' THEN
        RETURN pg_catalog.now();
    END IF;
    RETURN c."time"::timestamptz;
END
$$;
COMMENT ON FUNCTION scopedb.scope_as_of() IS
    'Instant whose versions the verified scope sees; NULL for every version.';

-- The fragment pattern of the verified scope (see scopedb_private.fragment_pattern); NULL when it filters nothing.
-- No valid, resolved scope: a pattern that matches nothing.
CREATE FUNCTION scopedb.scope_fragment_pattern() RETURNS text
LANGUAGE plpgsql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c scopedb_private.scope_claims := scopedb_private.verified_claims();
BEGIN
    IF c IS NULL OR c.project_ids IS NULL THEN
        RETURN '\A\Z';
    END IF;
    RETURN c.fragment_pattern;
END
$$;
COMMENT ON FUNCTION scopedb.scope_fragment_pattern() IS
    'Regular expression over resource, path and name that a fragment must match; NULL when there is none.';

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
        'projects', c.projects, 'project_ids', ids, 'resources', c.resources, 'denied', denied,
        'path_include', c.path_include, 'path_exclude', c.path_exclude,
        'name_include', c.name_include, 'name_exclude', c.name_exclude, 'time', c."time");
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
    RETURN scopedb_private.sign_claims(claims || pg_catalog.jsonb_build_object(
        'resource_filter', filter,
        'fragment_pattern', scopedb_private.fragment_pattern(
            c, CASE WHEN c.resources IS NULL THEN NULL ELSE filter END)));
END
$$;
COMMENT ON FUNCTION scopedb.resolve_scope(text) IS
    'Verifies a scope token and returns it resolved (project ids, effective resources), signed by the database.';

DROP POLICY "scope limits which fragments the app reads" ON scopedb.fragments;
DROP POLICY "scope limits which fragments the app creates" ON scopedb.fragments;
DROP POLICY "scope limits which fragments the app changes" ON scopedb.fragments;
DROP POLICY "scope limits which fragments the app deletes" ON scopedb.fragments;

CREATE POLICY "scope limits which fragments the app reads" ON scopedb.fragments
    AS RESTRICTIVE FOR SELECT TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (tstzrange(valid_from, valid_to) @> (SELECT scopedb.scope_as_of())) IS NOT FALSE
           AND (COALESCE(resource_id, '') || chr(31) || COALESCE(path, '') || chr(31) || COALESCE(fqn, '')
                ~ (SELECT scopedb.scope_fragment_pattern())) IS NOT FALSE);
CREATE POLICY "scope limits which fragments the app creates" ON scopedb.fragments
    AS RESTRICTIVE FOR INSERT TO scopedb_app
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND (COALESCE(resource_id, '') || chr(31) || COALESCE(path, '') || chr(31) || COALESCE(fqn, '')
                     ~ (SELECT scopedb.scope_fragment_pattern())) IS NOT FALSE);
CREATE POLICY "scope limits which fragments the app changes" ON scopedb.fragments
    AS RESTRICTIVE FOR UPDATE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (tstzrange(valid_from, valid_to) @> (SELECT scopedb.scope_as_of())) IS NOT FALSE
           AND (COALESCE(resource_id, '') || chr(31) || COALESCE(path, '') || chr(31) || COALESCE(fqn, '')
                ~ (SELECT scopedb.scope_fragment_pattern())) IS NOT FALSE)
    WITH CHECK (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
                AND (COALESCE(resource_id, '') || chr(31) || COALESCE(path, '') || chr(31) || COALESCE(fqn, '')
                     ~ (SELECT scopedb.scope_fragment_pattern())) IS NOT FALSE);
CREATE POLICY "scope limits which fragments the app deletes" ON scopedb.fragments
    AS RESTRICTIVE FOR DELETE TO scopedb_app
    USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[])
           AND (tstzrange(valid_from, valid_to) @> (SELECT scopedb.scope_as_of())) IS NOT FALSE
           AND (COALESCE(resource_id, '') || chr(31) || COALESCE(path, '') || chr(31) || COALESCE(fqn, '')
                ~ (SELECT scopedb.scope_fragment_pattern())) IS NOT FALSE);

GRANT EXECUTE ON FUNCTION scopedb.scope_as_of() TO scopedb_app;
GRANT EXECUTE ON FUNCTION scopedb.scope_fragment_pattern() TO scopedb_app;
-- Pure pattern logic, no data: handy for services that want the database's answer for a path or name.
GRANT EXECUTE ON FUNCTION scopedb.patterns_admit(text, text[], text[]) TO scopedb_app, scopedb_auditor;

RESET ROLE;
