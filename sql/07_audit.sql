-- scopedb: the policy audit an auditor runs from psql.
--
--     SELECT * FROM scopedb_audit.findings;            -- or: SELECT * FROM scopedb_audit.check();
--
-- Each lint has a stable code and a one-line fix. A clean database has no finding of severity 'error'. Every lint
-- reads the system catalogs only (plus scopedb_audit.manifest, and the creation time and rotation period of signing
-- keys, never a key): scopedb_auditor needs no privilege on any data row. Codes:
--
--   E001 rls_not_forced              a data table without RLS enabled and forced
--   E002 missing_restrictive_policy  a command on a data table without a restrictive policy for scopedb_app (its
--                                    predicate is E020's concern)
--   E003 permissive_policy_unscoped  a permissive policy reaching scopedb_app whose text never names a scope
--                                    accessor (a cheap first look; E020 compares every predicate)
--   W004 policy_scope_per_row        a policy calling a scope accessor without the (SELECT ...) wrapper, so it runs
--                                    once per row instead of once per statement
--   E005 definer_search_path         a SECURITY DEFINER function of scopedb's schemas without a pinned search_path
--   E006 definer_public_execute      a SECURITY DEFINER function of scopedb's schemas executable by PUBLIC
--   E007 view_not_invoker            a view (any schema) over a protected table that runs as its owner (not
--                                    security_invoker) and is not a security barrier; W007 when it is a barrier
--   W008 view_filter_not_barrier     a security_invoker view over a protected table that filters but is no barrier
--   E009 role_can_bypass             a role that can act as scopedb_app (itself, members, members of members) that
--                                    is or reaches (through what it belongs to) SUPERUSER, BYPASSRLS, REPLICATION,
--                                    CREATEROLE, scopedb_owner, a predefined all-data role, or owns the database
--   E010 app_owns_objects            scopedb_app owns objects
--   E011 app_can_create              scopedb_app holds CREATE on a schema or the database; W011 for TEMP
--   E012 public_grant                a privilege granted to PUBLIC in a scopedb schema
--   E013 unique_without_project      a unique index of a data table (key, constraint or bare) without project_id
--   W014 policy_column_unindexed     a data table whose project_id leads no index
--   W015 signing_key_stale           a key still in use is older than its rotation period (E015: none active)
--   W026 signing_key_long_grace      a key retires more than 7 days from now
--   W027 signing_key_long_rotation   a key's rotation period is over 365 days
--   E016 pgvector_missing            pgvector is missing or older than 0.8
--   E017 app_login_stored_settings   settings stored (ALTER ROLE ... SET) for a login that can act as scopedb_app;
--                                    W017 for scopedb_app itself or a NOLOGIN member (inert until it can log in),
--                                    and for settings stored for every role in this database
--   E018 definer_unpinned_settings   a SECURITY DEFINER function scopedb_app may execute that searches text (@@)
--                                    or vectors (<=>, <->, <#>) without pinning the settings that change its result
--   E019 definer_explains            a SECURITY DEFINER function scopedb_app may execute that runs EXPLAIN: a plan
--                                    made with the owner's rights reflects every tenant's rows
--   E020 manifest_differs            a schema, table, policy, function, trigger, rule, index, constraint, grant,
--                                    default privilege or publication of scopedb's objects that differs from, is
--                                    missing from, or is not in what scopedb installed (scopedb_audit.manifest)
--   E021 leakproof_function          a LEAKPROOF function outside pg_catalog
--   E022 definer_elsewhere           a SECURITY DEFINER function outside scopedb's schemas that scopedb_app may
--                                    execute, owned by a role that can read around RLS; W022 for any other owner
--   E023 matview_copy                a materialized view over a protected table that scopedb_app can read; W023
--                                    when it cannot (the copy still escapes RLS)
--   E024 unprotected_reachable       a table outside scopedb's schemas that scopedb_app, or a login that can act as
--                                    it, can read or change (through a table or a column privilege) without row-level security enabled and forced, or
--                                    may TRUNCATE (which no policy filters); a view there it can read that runs with
--                                    its owner's rights
--   E025 audit_tampered              (client side, `scopedb audit`) the audit's own functions and views, or the
--                                    manifest table's digest, differ from what this installation ships
--   W028 foreign_server_usable       a foreign server scopedb_app may use (it connects out as a mapped role)
--   E026 partition_out_of_shape      per-project storage not as scopedb makes it: a relation in scopedb_parts that is
--                                    no partition of fragments / fragment_search / group_vectors, a partition
--                                    elsewhere or holding another project (or search group), an owner, grant, RLS
--                                    flag, policy, trigger, rule or index scopedb does not give it, a search index
--                                    on the partition the small projects share, a shared partition of the search
--                                    groups' copies (judged by rule: partitions come and go)
--   E029 protected_table_differs     a service table protected with scopedb.protect_table that differs from what it
--                                    made: row-level security not forced, a policy missing, changed or added, a
--                                    privilege of a role that can act as scopedb_app added or changed, the owner
--                                    changed (scopedb_audit.service_table_facts); W029 when the table is gone
--   W030 hand_protected_table        a table outside scopedb's schemas that scopedb_app can reach, with forced
--                                    row-level security but policies protect_table did not make: the audit cannot
--                                    judge hand-written policies

SET ROLE scopedb_owner;

COMMENT ON SCHEMA scopedb_audit IS 'Policy audit of scopedb: SELECT * FROM scopedb_audit.findings.';

-- Tables scopedb protects: every ordinary table of the data schema.
CREATE VIEW scopedb_audit.data_tables WITH (security_barrier) AS
SELECT c.oid AS relid, c.relname, c.relrowsecurity, c.relforcerowsecurity
  FROM pg_catalog.pg_class AS c
 WHERE c.relnamespace = 'scopedb'::regnamespace AND c.relkind IN ('r', 'p');
COMMENT ON VIEW scopedb_audit.data_tables IS 'The tables of the data schema (the ones RLS must protect).';

-- Every table whose rows scopedb protects: the data schema's (by row-level security), the private schema's (by
-- privileges alone: signing keys, the full-text copy, archived originals), the per-project partitions of both
-- (scopedb_parts), and the service tables protected with protect_table. Data copied out of any of them escapes.
CREATE VIEW scopedb_audit.protected_tables WITH (security_barrier) AS
SELECT c.oid AS relid, c.relnamespace::regnamespace::text AS schema, c.relname
  FROM pg_catalog.pg_class AS c
 WHERE (c.relnamespace IN ('scopedb'::regnamespace, 'scopedb_private'::regnamespace, 'scopedb_parts'::regnamespace)
        OR c.oid IN (SELECT scopedb_audit.relation_named(s.relation) FROM scopedb_audit.service_tables AS s))
   AND c.relkind IN ('r', 'p');
COMMENT ON VIEW scopedb_audit.protected_tables IS
    'Tables of the data and private schemas, and protected service tables (their rows must not leave).';

-- Every view and materialized view whose definition reads a protected table, directly or through other views
-- and materialized views (any depth, any schema), with the protected table it reads: an owner-run view over an
-- invoker view over fragments still hands out fragments with its owner's rights. Each table a view depends on is
-- looked up by its oid (LATERAL, kept apart by OFFSET 0): a join of every view dependency with every protected
-- table, which the planner chose as a nested loop, grew with views x partitions (2.4 million comparisons at 2,000
-- projects).
CREATE VIEW scopedb_audit.derived_relations WITH (security_barrier) AS
WITH RECURSIVE derived (relid, source) AS (
    SELECT r.ev_class, t.schema || '.' || t.relname
      FROM pg_catalog.pg_rewrite AS r
      JOIN pg_catalog.pg_depend AS d ON d.classid = 'pg_catalog.pg_rewrite'::pg_catalog.regclass AND d.objid = r.oid
      CROSS JOIN LATERAL (SELECT p.relid, p.schema, p.relname FROM scopedb_audit.protected_tables AS p
                           WHERE p.relid = d.refobjid OFFSET 0) AS t
     WHERE r.ev_class <> t.relid
    UNION
    SELECT r.ev_class, v.source
      FROM pg_catalog.pg_rewrite AS r
      JOIN pg_catalog.pg_depend AS d ON d.classid = 'pg_catalog.pg_rewrite'::pg_catalog.regclass AND d.objid = r.oid
      JOIN derived AS v ON v.relid = d.refobjid
     WHERE r.ev_class <> v.relid
)
SELECT DISTINCT d.relid, c.relkind, d.source
  FROM derived AS d
  JOIN pg_catalog.pg_class AS c ON c.oid = d.relid
 WHERE c.relkind IN ('v', 'm');
COMMENT ON VIEW scopedb_audit.derived_relations IS
    'Views and materialized views that read a protected table, directly or through others (lints E007, E023).';

-- Every role that can act as scopedb_app: scopedb_app itself, its members, their members — following
-- pg_auth_members (pg_has_role would count every superuser as a member of everything) through grants that let the
-- member SET ROLE to the group or inherit its rights. A grant WITH ADMIN alone (what CREATEROLE leaves its creator
-- on every role it creates) does neither.
CREATE VIEW scopedb_audit.app_roles WITH (security_barrier) AS
WITH RECURSIVE members (oid) AS (
    SELECT r.oid FROM pg_catalog.pg_roles AS r WHERE r.rolname = 'scopedb_app'
    UNION
    SELECT am.member
      FROM pg_catalog.pg_auth_members AS am
      JOIN members AS m ON am.roleid = m.oid
     WHERE am.set_option OR am.inherit_option
)
SELECT r.oid, r.rolname, r.rolcanlogin FROM pg_catalog.pg_roles AS r WHERE r.oid IN (SELECT members.oid FROM members);
COMMENT ON VIEW scopedb_audit.app_roles IS 'scopedb_app and every role that is a member of it, directly or not.';

-- The facts of a table that its protection depends on, as the audit compares them (E029) and protect_table records
-- them: row-level security enabled and forced, and the owner (who can change both); every policy on the table,
-- with its command, kind, roles and expressions as PostgreSQL prints them; its unique and exclusion indexes, the
-- foreign keys from and to it, its place in table inheritance, its rules and triggers (what protect_table judged);
-- and the privileges (table, column, and
-- on the sequences its columns own) that any role able to act as scopedb_app holds through a grant to itself, to a
-- role it belongs to, or to PUBLIC. Catalog reads only; search_path is pinned, so expressions print qualified.
CREATE FUNCTION scopedb_audit.protection_facts(rel regclass)
RETURNS TABLE (kind text, object text, fact text)
LANGUAGE sql
STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    WITH app (oid) AS (
        SELECT 0::oid  -- PUBLIC
        UNION ALL
        SELECT r.oid FROM pg_catalog.pg_roles AS r
         WHERE EXISTS (SELECT FROM scopedb_audit.app_roles AS a WHERE pg_catalog.pg_has_role(a.oid, r.oid, 'MEMBER'))
    ),
    sequences AS (
        SELECT s.oid, s.relacl, s.relowner
          FROM pg_catalog.pg_depend AS d
          JOIN pg_catalog.pg_class AS s ON s.oid = d.objid AND s.relkind = 'S'
         WHERE d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass AND d.refobjid = rel
           AND d.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass AND d.deptype IN ('a', 'i')
    )
    SELECT 'table', 'row security',
           'enabled ' || c.relrowsecurity || ', forced ' || c.relforcerowsecurity
               || ', owner ' || pg_catalog.pg_get_userbyid(c.relowner)
      FROM pg_catalog.pg_class AS c
     WHERE c.oid = rel
    UNION ALL
    SELECT 'policy', p.polname,
           CASE WHEN p.polpermissive THEN 'permissive' ELSE 'restrictive' END
               || ' for ' || CASE p.polcmd WHEN 'r' THEN 'SELECT' WHEN 'a' THEN 'INSERT' WHEN 'w' THEN 'UPDATE'
                                           WHEN 'd' THEN 'DELETE' ELSE 'ALL' END
               || ' to ' || pg_catalog.array_to_string(ARRAY(
                      SELECT CASE WHEN r = 0 THEN 'public' ELSE pg_catalog.pg_get_userbyid(r)::text END
                        FROM pg_catalog.unnest(p.polroles) AS r ORDER BY 1), ',')
               || ' using ' || COALESCE(pg_catalog.pg_get_expr(p.polqual, p.polrelid), '-')
               || ' check ' || COALESCE(pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid), '-')
      FROM pg_catalog.pg_policy AS p
     WHERE p.polrelid = rel
    UNION ALL
    SELECT 'constraint', con.conname || ' on ' || con.conrelid::pg_catalog.regclass::text,
           pg_catalog.pg_get_constraintdef(con.oid)
      FROM pg_catalog.pg_constraint AS con
     WHERE con.contype = 'f' AND (con.conrelid = rel OR con.confrelid = rel)
    UNION ALL
    SELECT 'index', i.indexrelid::pg_catalog.regclass::text, pg_catalog.pg_get_indexdef(i.indexrelid)
      FROM pg_catalog.pg_index AS i
     WHERE i.indrelid = rel AND (i.indisunique OR i.indisexclusion)
    UNION ALL
    SELECT 'inheritance', i.inhparent::pg_catalog.regclass::text || ' > ' || i.inhrelid::pg_catalog.regclass::text,
           'parent and child'
      FROM pg_catalog.pg_inherits AS i
     WHERE rel IN (i.inhrelid, i.inhparent)
    UNION ALL
    SELECT 'rule', r.rulename, pg_catalog.pg_get_ruledef(r.oid)
      FROM pg_catalog.pg_rewrite AS r
     WHERE r.ev_class = rel
    UNION ALL
    SELECT 'trigger', t.tgname, pg_catalog.pg_get_triggerdef(t.oid)
      FROM pg_catalog.pg_trigger AS t
     WHERE t.tgrelid = rel AND NOT t.tgisinternal
    UNION ALL
    SELECT 'grant', 'table',
           COALESCE((SELECT pg_catalog.string_agg(DISTINCT a.privilege_type, ',' ORDER BY a.privilege_type)
                       FROM pg_catalog.pg_class AS c,
                            pg_catalog.aclexplode(COALESCE(c.relacl, pg_catalog.acldefault('r'::"char", c.relowner))) AS a
                      WHERE c.oid = rel AND a.grantee IN (SELECT app.oid FROM app)), '-')
    UNION ALL
    SELECT 'grant', 'column ' || att.attname,
           pg_catalog.string_agg(DISTINCT a.privilege_type, ',' ORDER BY a.privilege_type)
      FROM pg_catalog.pg_attribute AS att,
           pg_catalog.aclexplode(att.attacl) AS a
     WHERE att.attrelid = rel AND att.attnum > 0 AND NOT att.attisdropped AND att.attacl IS NOT NULL
       AND a.grantee IN (SELECT app.oid FROM app)
     GROUP BY att.attname
    UNION ALL
    SELECT 'grant', 'sequence ' || s.oid::pg_catalog.regclass::text,
           COALESCE((SELECT pg_catalog.string_agg(DISTINCT a.privilege_type, ',' ORDER BY a.privilege_type)
                       FROM pg_catalog.aclexplode(COALESCE(s.relacl, pg_catalog.acldefault('s'::"char", s.relowner))) AS a
                      WHERE a.grantee IN (SELECT app.oid FROM app)), '-')
      FROM sequences AS s;
END;
COMMENT ON FUNCTION scopedb_audit.protection_facts(regclass) IS
    'A table''s protection as catalog facts: RLS flags and owner, policies, privileges of the app''s roles (E029).';

-- Whether a relation option is set to a true value (PostgreSQL accepts true, on, yes and 1, in any case).
CREATE FUNCTION scopedb_audit.option_is_on(options text[], name text) RETURNS boolean
LANGUAGE sql
IMMUTABLE
SET search_path = pg_catalog, pg_temp
RETURN EXISTS (SELECT FROM pg_catalog.unnest(options) AS o
                WHERE pg_catalog.split_part(o, '=', 1) = name
                  AND pg_catalog.lower(pg_catalog.split_part(o, '=', 2)) IN ('true', 'on', 'yes', '1'));
COMMENT ON FUNCTION scopedb_audit.option_is_on(text[], text) IS 'Whether a reloption is set to true (on, yes, 1).';

-- What scopedb installs, as facts the audit compares with the live catalog: one row per object, its identity and
-- a normalised description of everything about it that isolation depends on. The manifest table holds these facts
-- as scopedb installed them (sql/08_manifest.sql, written by each migration); a live fact that differs, is missing
-- or is extra is a finding (E020). Catalog reads only.
--   schema      scopedb's schemas: owner
--   table       relations of scopedb's schemas: kind, owner, row-level security enabled and forced (views and
--               materialized views: an md5 of the definition too)
--   policy      policies on those tables: command, permissive or restrictive, roles, USING and WITH CHECK
--   function    functions of scopedb's schemas: owner, SECURITY DEFINER, LEAKPROOF, volatility, pinned settings,
--               and an md5 of the body
--   trigger / rule / index / constraint   on scopedb's tables, as PostgreSQL prints them (a rule can copy rows
--               out as a trigger can)
--   grant       every privilege on scopedb's schemas, tables, columns, sequences, functions and types held by a
--               role other than their owner (PUBLIC included). The database's own privileges depend on who could
--               migrate (06_database.sql skips what needs its owner): E011 and W011 judge those.
--   default_acl default privileges that will be granted on objects created later
--   publication a publication that includes a table of scopedb's schemas (there is none in the manifest)
CREATE TABLE scopedb_audit.manifest (
    kind    text NOT NULL,
    object  text NOT NULL,
    fact    text NOT NULL,
    CONSTRAINT manifest_pkey PRIMARY KEY (kind, object)
);
COMMENT ON TABLE scopedb_audit.manifest IS
    'What scopedb installed (sql/08_manifest.sql): the facts scopedb_audit.findings compares the catalog with.';

CREATE FUNCTION scopedb_audit.installed_facts()
RETURNS TABLE (kind text, object text, fact text)
LANGUAGE sql
STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    WITH ours (oid) AS (
        SELECT n.oid FROM pg_catalog.pg_namespace AS n WHERE n.nspname IN ('scopedb', 'scopedb_private', 'scopedb_audit')
    ),
    rels AS (
        SELECT c.oid, c.relname, c.relkind, c.relnamespace, c.relowner, c.relacl, c.relrowsecurity,
               c.relforcerowsecurity, n.nspname || '.' || c.relname AS name
          FROM pg_catalog.pg_class AS c
          JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
         WHERE c.relnamespace IN (SELECT ours.oid FROM ours) AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
    ),
    grants (kind, object, grantee, privilege) AS (
        SELECT 'schema', n.nspname, a.grantee, a.privilege_type || CASE WHEN a.is_grantable THEN '*' ELSE '' END
          FROM pg_catalog.pg_namespace AS n,
               pg_catalog.aclexplode(COALESCE(n.nspacl, pg_catalog.acldefault('n'::"char", n.nspowner))) AS a
         WHERE (n.oid IN (SELECT ours.oid FROM ours) OR n.nspname = 'scopedb_parts') AND a.grantee <> n.nspowner
        UNION ALL
        SELECT CASE r.relkind WHEN 'S' THEN 'sequence' ELSE 'table' END, r.name, a.grantee,
               a.privilege_type || CASE WHEN a.is_grantable THEN '*' ELSE '' END
          FROM rels AS r,
               pg_catalog.aclexplode(COALESCE(r.relacl, pg_catalog.acldefault(
                   CASE r.relkind WHEN 'S' THEN 's'::"char" ELSE 'r'::"char" END, r.relowner))) AS a
         WHERE a.grantee <> r.relowner
        UNION ALL
        SELECT 'column', r.name || '.' || att.attname, a.grantee,
               a.privilege_type || CASE WHEN a.is_grantable THEN '*' ELSE '' END
          FROM rels AS r
          JOIN pg_catalog.pg_attribute AS att ON att.attrelid = r.oid AND att.attnum > 0 AND NOT att.attisdropped
           AND att.attacl IS NOT NULL,
               pg_catalog.aclexplode(att.attacl) AS a
         WHERE a.grantee <> r.relowner
        UNION ALL
        SELECT 'function', f.oid::pg_catalog.regprocedure::text, a.grantee,
               a.privilege_type || CASE WHEN a.is_grantable THEN '*' ELSE '' END
          FROM pg_catalog.pg_proc AS f,
               pg_catalog.aclexplode(COALESCE(f.proacl, pg_catalog.acldefault('f'::"char", f.proowner))) AS a
         WHERE f.pronamespace IN (SELECT ours.oid FROM ours) AND a.grantee <> f.proowner
        UNION ALL
        SELECT 'type', t.oid::pg_catalog.regtype::text, a.grantee,
               a.privilege_type || CASE WHEN a.is_grantable THEN '*' ELSE '' END
          FROM pg_catalog.pg_type AS t,
               pg_catalog.aclexplode(COALESCE(t.typacl, pg_catalog.acldefault('T'::"char", t.typowner))) AS a
         WHERE t.typnamespace IN (SELECT ours.oid FROM ours) AND t.typtype IN ('c', 'd', 'e')
           AND NOT EXISTS (SELECT FROM pg_catalog.pg_class AS c WHERE c.oid = t.typrelid AND c.relkind <> 'c')
           AND a.grantee <> t.typowner
    )
    SELECT 'schema', n.nspname::text, 'owner=' || pg_catalog.pg_get_userbyid(n.nspowner)
      FROM pg_catalog.pg_namespace AS n
     WHERE n.oid IN (SELECT ours.oid FROM ours) OR n.nspname = 'scopedb_parts'
    UNION ALL
    SELECT 'table', r.name,
           pg_catalog.format('kind=%s owner=%s rls=%s forced=%s', r.relkind::text, pg_catalog.pg_get_userbyid(r.relowner),
                             r.relrowsecurity, r.relforcerowsecurity)
               || CASE WHEN r.relkind IN ('v', 'm')
                       THEN ' definition=' || pg_catalog.md5(pg_catalog.pg_get_viewdef(r.oid)) ELSE '' END
      FROM rels AS r
    UNION ALL
    SELECT 'policy', pol.polrelid::pg_catalog.regclass::text || ' "' || pol.polname || '"',
           pg_catalog.format('cmd=%s %s to=%s using=%s check=%s', pol.polcmd::text,
                             CASE WHEN pol.polpermissive THEN 'permissive' ELSE 'restrictive' END,
                             (SELECT pg_catalog.string_agg(CASE WHEN r = 0 THEN 'public'
                                                                ELSE pg_catalog.pg_get_userbyid(r)::text END,
                                                           ',' ORDER BY 1)
                                FROM pg_catalog.unnest(pol.polroles) AS r),
                             COALESCE(pg_catalog.pg_get_expr(pol.polqual, pol.polrelid), '-'),
                             COALESCE(pg_catalog.pg_get_expr(pol.polwithcheck, pol.polrelid), '-'))
      FROM pg_catalog.pg_policy AS pol
     WHERE pol.polrelid IN (SELECT r.oid FROM rels AS r)
    UNION ALL
    SELECT 'function', f.oid::pg_catalog.regprocedure::text,
           pg_catalog.format('owner=%s definer=%s leakproof=%s volatile=%s strict=%s config=%s returns=%s body=%s',
                             pg_catalog.pg_get_userbyid(f.proowner), f.prosecdef, f.proleakproof, f.provolatile::text,
                             f.proisstrict,
                             COALESCE((SELECT pg_catalog.string_agg(c, ',' ORDER BY c)
                                         FROM pg_catalog.unnest(f.proconfig) AS c), '-'),
                             pg_catalog.pg_get_function_result(f.oid),
                             pg_catalog.md5(COALESCE(NULLIF(f.prosrc, ''), pg_catalog.pg_get_function_sqlbody(f.oid), '')))
      FROM pg_catalog.pg_proc AS f
     WHERE f.pronamespace IN (SELECT ours.oid FROM ours)
    UNION ALL
    SELECT 'trigger', t.tgrelid::pg_catalog.regclass::text || ' ' || t.tgname, pg_catalog.pg_get_triggerdef(t.oid)
      FROM pg_catalog.pg_trigger AS t
     WHERE t.tgrelid IN (SELECT r.oid FROM rels AS r) AND NOT t.tgisinternal
    UNION ALL
    SELECT 'rule', w.ev_class::pg_catalog.regclass::text || ' ' || w.rulename, pg_catalog.pg_get_ruledef(w.oid)
      FROM pg_catalog.pg_rewrite AS w
     WHERE w.ev_class IN (SELECT r.oid FROM rels AS r WHERE r.relkind IN ('r', 'p')) AND w.rulename <> '_RETURN'
    UNION ALL
    SELECT 'index', i.indexrelid::pg_catalog.regclass::text, pg_catalog.pg_get_indexdef(i.indexrelid)
      FROM pg_catalog.pg_index AS i
     WHERE i.indrelid IN (SELECT r.oid FROM rels AS r)
    UNION ALL
    SELECT 'constraint', k.conrelid::pg_catalog.regclass::text || ' ' || k.conname, pg_catalog.pg_get_constraintdef(k.oid)
      FROM pg_catalog.pg_constraint AS k
     WHERE k.conrelid IN (SELECT r.oid FROM rels AS r) AND k.contype <> 'n'  -- NOT NULL: catalogued from PG 18 on
       AND k.conparentid = 0  -- not the per-partition clones of a foreign key to a partitioned table
    UNION ALL
    SELECT 'grant', g.kind || ' ' || g.object || ' to '
               || CASE WHEN g.grantee = 0 THEN 'public' ELSE pg_catalog.pg_get_userbyid(g.grantee)::text END,
           pg_catalog.string_agg(g.privilege, ',' ORDER BY g.privilege)
      FROM grants AS g
     GROUP BY g.kind, g.object, g.grantee
    UNION ALL
    SELECT 'default_acl', pg_catalog.pg_get_userbyid(d.defaclrole)::text || ' '
               || COALESCE(d.defaclnamespace::pg_catalog.regnamespace::text, '*') || ' ' || d.defaclobjtype::text || ' to '
               || CASE WHEN a.grantee = 0 THEN 'public' ELSE pg_catalog.pg_get_userbyid(a.grantee)::text END,
           pg_catalog.string_agg(a.privilege_type, ',' ORDER BY a.privilege_type)
      FROM pg_catalog.pg_default_acl AS d, pg_catalog.aclexplode(d.defaclacl) AS a
     WHERE d.defaclrole IN (SELECT r.oid FROM pg_catalog.pg_roles AS r WHERE r.rolname LIKE 'scopedb\_%')
        OR d.defaclnamespace IN (SELECT ours.oid FROM ours)
        OR a.grantee = 0
        OR a.grantee IN (SELECT r.oid FROM pg_catalog.pg_roles AS r WHERE r.rolname IN ('scopedb_app', 'scopedb_auditor'))
     GROUP BY d.defaclrole, d.defaclnamespace, d.defaclobjtype, a.grantee
    UNION ALL
    SELECT 'publication', p.pubname || ' ' || r.name, 'publishes rows of ' || r.name
      FROM pg_catalog.pg_publication AS p
      JOIN rels AS r
        ON r.relkind IN ('r', 'p')
       AND (p.puballtables
            OR r.oid IN (SELECT pr.prrelid FROM pg_catalog.pg_publication_rel AS pr WHERE pr.prpubid = p.oid)
            OR r.relnamespace IN (SELECT pn.pnnspid FROM pg_catalog.pg_publication_namespace AS pn
                                   WHERE pn.pnpubid = p.oid));
END;
COMMENT ON FUNCTION scopedb_audit.installed_facts() IS
    'scopedb''s objects as the audit describes them (compared with scopedb_audit.manifest, lint E020).';

-- A digest of the manifest, as sql/08_manifest.sql records it in its header: `scopedb audit` compares the two, so a
-- manifest changed in the database (to hide a change) shows as well.
CREATE FUNCTION scopedb_audit.manifest_digest() RETURNS text
LANGUAGE sql
STABLE
SET search_path = pg_catalog, pg_temp
RETURN (SELECT pg_catalog.md5(COALESCE(pg_catalog.string_agg(m.kind || pg_catalog.chr(31) || m.object
                                                             || pg_catalog.chr(31) || m.fact, pg_catalog.chr(30)
                                                             ORDER BY m.kind COLLATE "C", m.object COLLATE "C"), ''))
          FROM scopedb_audit.manifest AS m);
COMMENT ON FUNCTION scopedb_audit.manifest_digest() IS 'md5 of the manifest in a canonical order (see sql/08_manifest.sql).';

-- How to remove an object the manifest does not know (the fix of an "extra" E020 finding).
CREATE FUNCTION scopedb_audit.removal(kind text, object text, fact text) RETURNS text
LANGUAGE sql
IMMUTABLE
SET search_path = pg_catalog, pg_temp
RETURN CASE kind
    WHEN 'policy' THEN 'DROP POLICY ' || pg_catalog.substr(object, pg_catalog.strpos(object, ' "') + 1) || ' ON '
                       || pg_catalog.split_part(object, ' "', 1) || ';'
    WHEN 'function' THEN 'DROP FUNCTION ' || object || ';'
    WHEN 'trigger' THEN 'DROP TRIGGER ' || pg_catalog.split_part(object, ' ', 2) || ' ON '
                        || pg_catalog.split_part(object, ' ', 1) || ';'
    WHEN 'rule' THEN 'DROP RULE ' || pg_catalog.split_part(object, ' ', 2) || ' ON '
                     || pg_catalog.split_part(object, ' ', 1) || ';'
    WHEN 'index' THEN 'DROP INDEX ' || object || ';'
    WHEN 'constraint' THEN 'ALTER TABLE ' || pg_catalog.split_part(object, ' ', 1) || ' DROP CONSTRAINT '
                           || pg_catalog.split_part(object, ' ', 2) || ';'
    WHEN 'grant' THEN 'REVOKE ' || pg_catalog.replace(fact, '*', '') || ' ON '
                      || pg_catalog.replace(pg_catalog.split_part(object, ' to ', 1), 'column ', 'TABLE (column) ')
                      || ' FROM ' || pg_catalog.split_part(object, ' to ', 2) || ';'
    WHEN 'default_acl' THEN 'ALTER DEFAULT PRIVILEGES FOR ROLE ' || pg_catalog.split_part(object, ' ', 1)
                            || ' REVOKE ' || fact || ' ... FROM ' || pg_catalog.split_part(object, ' to ', 2) || ';'
    WHEN 'publication' THEN 'ALTER PUBLICATION ' || pg_catalog.split_part(object, ' ', 1) || ' DROP TABLE '
                            || pg_catalog.split_part(object, ' ', 2) || '; (or DROP PUBLICATION)'
    WHEN 'table' THEN 'DROP TABLE ' || object || '; (or move it out of scopedb''s schemas)'
    ELSE 'remove it'
END;
COMMENT ON FUNCTION scopedb_audit.removal(text, text, text) IS
    'The statement that removes an object scopedb did not install (fix text of lint E020).';

-- Whether an installed pgvector version (NULL: not installed) is too old for scopedb (< 0.8).
CREATE FUNCTION scopedb_audit.pgvector_too_old(version text) RETURNS boolean
LANGUAGE sql
IMMUTABLE
SET search_path = pg_catalog, pg_temp
RETURN version IS NULL
    OR pg_catalog.string_to_array(pg_catalog.split_part(version, '-', 1), '.')::integer[] < ARRAY[0, 8];
COMMENT ON FUNCTION scopedb_audit.pgvector_too_old(text) IS 'pgvector versions scopedb cannot use (missing or < 0.8).';

-- The signing keys' ages and periods (never a key), for the key lints. A PL/pgSQL wrapper so that an audit whose
-- owner lost its rights on the private schema (a changed owner or grant, itself an E020 finding) still reports
-- everything else: the one row it then returns says the keys could not be read.
CREATE FUNCTION scopedb_audit.signing_key_ages()
RETURNS TABLE (key_id text, created_at timestamptz, retired_at timestamptz, rotation_period interval,
               readable boolean)
LANGUAGE plpgsql
STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN QUERY SELECT k.key_id, k.created_at, k.retired_at, k.rotation_period, true
                   FROM scopedb_private.signing_keys AS k;
EXCEPTION WHEN insufficient_privilege THEN
    RETURN QUERY SELECT NULL::text, NULL::timestamptz, NULL::timestamptz, NULL::interval, false;
END
$$;
COMMENT ON FUNCTION scopedb_audit.signing_key_ages() IS
    'Signing keys'' ids, ages and periods for the key lints (one unreadable row if the audit cannot read them).';

CREATE FUNCTION scopedb_audit.check()
RETURNS TABLE (severity text, code text, object text, message text, fix text)
LANGUAGE sql
STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    -- E001 RLS enabled and forced on every data table.
    SELECT 'error', 'E001', 'table scopedb.' || t.relname,
           'row-level security is ' || CASE WHEN NOT t.relrowsecurity THEN 'not enabled' ELSE 'not forced' END,
           'ALTER TABLE scopedb.' || t.relname || ' ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;'
      FROM scopedb_audit.data_tables AS t
     WHERE NOT (t.relrowsecurity AND t.relforcerowsecurity)
    UNION ALL
    -- E002 a restrictive policy for scopedb_app per command (an ALL policy covers every command).
    SELECT 'error', 'E002', 'table scopedb.' || t.relname || ' ' || cmd.label,
           'no restrictive policy limits ' || cmd.label || ' for scopedb_app',
           'CREATE POLICY ... ON scopedb.' || t.relname || ' AS RESTRICTIVE FOR ' || cmd.label
               || ' TO scopedb_app USING (<scope predicate>);'
      FROM scopedb_audit.data_tables AS t
     CROSS JOIN (VALUES ('r', 'SELECT'), ('a', 'INSERT'), ('w', 'UPDATE'), ('d', 'DELETE')) AS cmd (polcmd, label)
     WHERE NOT EXISTS (
               SELECT FROM pg_catalog.pg_policy AS p
                WHERE p.polrelid = t.relid AND NOT p.polpermissive AND p.polcmd IN (cmd.polcmd, '*')
                  AND (0 = ANY (p.polroles) OR 'scopedb_app'::regrole = ANY (p.polroles)))
    UNION ALL
    -- E003 permissive policies that reach scopedb_app must reference the scope.
    SELECT 'error', 'E003', 'policy "' || p.polname || '" on scopedb.' || t.relname,
           'permissive policy for scopedb_app does not reference the scope',
           'DROP POLICY "' || p.polname || '" ON scopedb.' || t.relname || '; or make its predicate read scopedb.scope_*()'
      FROM pg_catalog.pg_policy AS p
      JOIN scopedb_audit.data_tables AS t ON t.relid = p.polrelid
     WHERE p.polpermissive
       AND (0 = ANY (p.polroles) OR 'scopedb_app'::regrole = ANY (p.polroles))
       AND COALESCE(pg_catalog.pg_get_expr(p.polqual, p.polrelid), '')
           || COALESCE(pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid), '') !~ 'scopedb\.scope_'
    UNION ALL
    -- W004 scope accessors must be wrapped in (SELECT ...) to run once per statement.
    SELECT 'warning', 'W004', 'policy "' || p.polname || '" on scopedb.' || t.relname,
           'calls a scope accessor per row (no (SELECT ...) wrapper)',
           'write the call as (SELECT scopedb.scope_...()) so it becomes an InitPlan'
      FROM pg_catalog.pg_policy AS p
      JOIN scopedb_audit.data_tables AS t ON t.relid = p.polrelid
     WHERE (SELECT pg_catalog.count(*) FROM pg_catalog.regexp_matches(
                COALESCE(pg_catalog.pg_get_expr(p.polqual, p.polrelid), '') || ' '
                || COALESCE(pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid), ''), 'scopedb\.scope_', 'g'))
         > (SELECT pg_catalog.count(*) FROM pg_catalog.regexp_matches(
                COALESCE(pg_catalog.pg_get_expr(p.polqual, p.polrelid), '') || ' '
                || COALESCE(pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid), ''), 'SELECT scopedb\.scope_', 'g'))
    UNION ALL
    -- E005 / E006 SECURITY DEFINER functions in scopedb's schemas.
    SELECT 'error', 'E005', 'function ' || f.oid::regprocedure::text,
           'SECURITY DEFINER function without a pinned search_path',
           'ALTER FUNCTION ' || f.oid::regprocedure::text || ' SET search_path = pg_catalog, pg_temp;'
      FROM pg_catalog.pg_proc AS f
     WHERE f.prosecdef
       AND f.pronamespace IN ('scopedb'::regnamespace, 'scopedb_private'::regnamespace, 'scopedb_audit'::regnamespace)
       AND NOT EXISTS (SELECT FROM pg_catalog.unnest(f.proconfig) AS c WHERE c LIKE 'search_path=%')
    UNION ALL
    SELECT 'error', 'E006', 'function ' || f.oid::regprocedure::text,
           'SECURITY DEFINER function executable by PUBLIC',
           'REVOKE EXECUTE ON FUNCTION ' || f.oid::regprocedure::text || ' FROM PUBLIC;'
      FROM pg_catalog.pg_proc AS f
     WHERE f.prosecdef
       AND f.pronamespace IN ('scopedb'::regnamespace, 'scopedb_private'::regnamespace, 'scopedb_audit'::regnamespace)
       AND EXISTS (SELECT FROM pg_catalog.aclexplode(COALESCE(f.proacl, pg_catalog.acldefault('f', f.proowner))) AS a
                    WHERE a.grantee = 0 AND a.privilege_type = 'EXECUTE')
    UNION ALL
    -- E007 / W007 / W008 views over scopedb's tables, and the private ones (any schema). Options are read as the
    -- booleans they are (security_invoker=on, =1 and =true alike).
    SELECT CASE WHEN v.barrier THEN 'warning' ELSE 'error' END,
           CASE WHEN v.barrier THEN 'W007' ELSE 'E007' END,
           'view ' || v.view::text,
           'view over a scoped table runs with its owner''s rights (not security_invoker)',
           'ALTER VIEW ' || v.view::text || ' SET (security_invoker = true);'
      FROM (SELECT DISTINCT c.oid::regclass AS view,
                   scopedb_audit.option_is_on(c.reloptions, 'security_barrier') AS barrier,
                   scopedb_audit.option_is_on(c.reloptions, 'security_invoker') AS invoker
              FROM pg_catalog.pg_class AS c
              JOIN scopedb_audit.derived_relations AS dr ON dr.relid = c.oid
             WHERE dr.relkind = 'v') AS v
     WHERE NOT v.invoker
    UNION ALL
    SELECT 'warning', 'W008', 'view ' || c.oid::regclass::text,
           'security_invoker view over a scoped table filters rows but is not a security barrier',
           'ALTER VIEW ' || c.oid::regclass::text || ' SET (security_barrier = true);'
      FROM pg_catalog.pg_class AS c
     WHERE c.relkind = 'v'
       AND scopedb_audit.option_is_on(c.reloptions, 'security_invoker')
       AND NOT scopedb_audit.option_is_on(c.reloptions, 'security_barrier')
       AND pg_catalog.pg_get_viewdef(c.oid) ~* '\mwhere\M'
       AND c.oid IN (SELECT dr.relid FROM scopedb_audit.derived_relations AS dr)
    UNION ALL
    -- E009 no role that can act as scopedb_app — scopedb_app itself, its members, their members — can step outside
    -- row-level security or around it, itself or through any role it belongs to (scopedb.role_hazards, the same
    -- judgement scopedb applies to its login before running a scoped transaction).
    SELECT 'error', 'E009', 'role ' || m.rolname,
           'can act as scopedb_app, with: ' || pg_catalog.array_to_string(h.hazards, '; '),
           'remove what it should not have (ALTER ROLE ' || pg_catalog.quote_ident(m.rolname)
               || ' NOBYPASSRLS ...; REVOKE ... FROM ' || pg_catalog.quote_ident(m.rolname)
               || '), or REVOKE scopedb_app FROM it and use a dedicated login'
      FROM scopedb_audit.app_roles AS m
     CROSS JOIN LATERAL (SELECT scopedb.role_hazards(m.rolname) AS hazards) AS h
     WHERE pg_catalog.cardinality(h.hazards) > 0
    UNION ALL
    -- E010 scopedb_app owns nothing.
    SELECT 'error', 'E010', o.kind || ' ' || o.name, 'owned by scopedb_app',
           'ALTER ' || o.kind || ' ' || o.name || ' OWNER TO scopedb_owner;'
      FROM (SELECT 'TABLE' AS kind, c.oid::regclass::text AS name FROM pg_catalog.pg_class AS c
             WHERE c.relowner = 'scopedb_app'::regrole
            UNION ALL
            SELECT 'FUNCTION', f.oid::regprocedure::text FROM pg_catalog.pg_proc AS f
             WHERE f.proowner = 'scopedb_app'::regrole
            UNION ALL
            SELECT 'SCHEMA', n.nspname FROM pg_catalog.pg_namespace AS n
             WHERE n.nspowner = 'scopedb_app'::regrole) AS o
    UNION ALL
    -- E011 / W011 scopedb_app may not create objects (TEMP is a warning: a managed server may keep it).
    SELECT 'error', 'E011', 'schema ' || n.nspname, 'scopedb_app holds CREATE',
           'REVOKE CREATE ON SCHEMA ' || pg_catalog.quote_ident(n.nspname) || ' FROM scopedb_app, PUBLIC;'
      FROM pg_catalog.pg_namespace AS n
     WHERE pg_catalog.has_schema_privilege('scopedb_app', n.oid, 'CREATE')
    UNION ALL
    SELECT 'error', 'E011', 'database ' || pg_catalog.current_database(), 'scopedb_app holds CREATE',
           'REVOKE CREATE ON DATABASE ' || pg_catalog.quote_ident(pg_catalog.current_database())
               || ' FROM scopedb_app, PUBLIC;'
     WHERE pg_catalog.has_database_privilege('scopedb_app', pg_catalog.current_database(), 'CREATE')
    UNION ALL
    SELECT 'warning', 'W011', 'database ' || pg_catalog.current_database(), 'scopedb_app holds TEMP',
           'REVOKE TEMPORARY ON DATABASE ' || pg_catalog.quote_ident(pg_catalog.current_database())
               || ' FROM PUBLIC, scopedb_app;'
     WHERE pg_catalog.has_database_privilege('scopedb_app', pg_catalog.current_database(), 'TEMP')
    UNION ALL
    -- E012 nothing in scopedb's schemas is granted to PUBLIC.
    SELECT 'error', 'E012', g.kind || ' ' || g.name, 'privilege ' || g.privilege || ' granted to PUBLIC',
           'REVOKE ' || g.privilege || ' ON ' || g.kind || ' ' || g.name || ' FROM PUBLIC;'
      FROM (SELECT 'SCHEMA' AS kind, n.nspname::text AS name, a.privilege_type AS privilege
              FROM pg_catalog.pg_namespace AS n,
                   pg_catalog.aclexplode(COALESCE(n.nspacl, pg_catalog.acldefault('n', n.nspowner))) AS a
             WHERE n.nspname IN ('scopedb', 'scopedb_private') AND a.grantee = 0
            UNION ALL
            SELECT 'TABLE', c.oid::regclass::text, a.privilege_type
              FROM pg_catalog.pg_class AS c,
                   pg_catalog.aclexplode(COALESCE(c.relacl, pg_catalog.acldefault('r', c.relowner))) AS a
             WHERE c.relnamespace IN ('scopedb'::regnamespace, 'scopedb_private'::regnamespace) AND a.grantee = 0
            UNION ALL
            SELECT 'FUNCTION', f.oid::regprocedure::text, a.privilege_type
              FROM pg_catalog.pg_proc AS f,
                   pg_catalog.aclexplode(COALESCE(f.proacl, pg_catalog.acldefault('f', f.proowner))) AS a
             WHERE f.pronamespace IN ('scopedb'::regnamespace, 'scopedb_private'::regnamespace)
               AND a.grantee = 0) AS g
    UNION ALL
    -- E013 every unique index of a data table (those of primary keys, unique constraints, and bare unique
    -- indexes alike) includes project_id (projects: the directory itself): a violation must not tell one project
    -- that another holds a key.
    SELECT 'error', 'E013', 'index ' || i.indexrelid::regclass::text || ' on scopedb.' || t.relname,
           'unique key without project_id: a violation could reveal another project''s key',
           'include project_id in ' || i.indexrelid::regclass::text || ' (or drop it)'
      FROM pg_catalog.pg_index AS i
      JOIN scopedb_audit.data_tables AS t ON t.relid = i.indrelid
     WHERE i.indisunique AND t.relname <> 'projects'
       AND NOT EXISTS (SELECT FROM pg_catalog.pg_attribute AS a
                        WHERE a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey) AND a.attname = 'project_id')
    UNION ALL
    -- W014 the scope predicate's column leads an index.
    SELECT 'warning', 'W014', 'table scopedb.' || t.relname,
           'no index leads with project_id: every policy check scans',
           'CREATE INDEX ON scopedb.' || t.relname || ' (project_id);'
      FROM scopedb_audit.data_tables AS t
     WHERE t.relname <> 'projects'
       AND NOT EXISTS (SELECT FROM pg_catalog.pg_index AS i
                         JOIN pg_catalog.pg_attribute AS a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
                        WHERE i.indrelid = t.relid AND a.attname = 'project_id')
    UNION ALL
    -- W015 / E015 signing keys (their age only). A key whose retirement is still ahead is in use too.
    SELECT 'warning', 'W015', 'signing key ' || k.key_id,
           'signing key still in use is older than its rotation period (' || k.rotation_period || ')',
           'scopedb keys rotate'
      FROM scopedb_audit.signing_key_ages() AS k
     WHERE k.readable AND (k.retired_at IS NULL OR k.retired_at > pg_catalog.now())
       AND k.created_at + k.rotation_period < pg_catalog.now()
    UNION ALL
    -- W026 / W027 key hygiene: a grace longer than a week keeps a replaced key valid, and a rotation period over a
    -- year lets one key sign for too long.
    SELECT 'warning', 'W026', 'signing key ' || k.key_id,
           'retires more than 7 days from now: a long grace keeps a replaced key valid',
           'SELECT scopedb_private.retire_signing_key(''' || k.key_id || ''', now() + interval ''1 hour'');'
      FROM scopedb_audit.signing_key_ages() AS k
     WHERE k.readable AND k.retired_at > pg_catalog.now() + interval '7 days'
    UNION ALL
    SELECT 'warning', 'W027', 'signing key ' || k.key_id,
           'rotation period ' || k.rotation_period::text || ' is over a year',
           'UPDATE scopedb_private.signing_keys SET rotation_period = interval ''90 days'' WHERE key_id = '''
               || k.key_id || ''';'
      FROM scopedb_audit.signing_key_ages() AS k
     WHERE k.readable AND (k.retired_at IS NULL OR k.retired_at > pg_catalog.now())
       AND k.rotation_period > interval '365 days'
    UNION ALL
    SELECT 'error', 'E015', 'signing keys', 'no active signing key: no scope can be entered', 'scopedb keys rotate'
     WHERE NOT EXISTS (SELECT FROM scopedb_audit.signing_key_ages() AS k WHERE NOT k.readable OR k.retired_at IS NULL)
    UNION ALL
    SELECT 'error', 'E015', 'signing keys',
           'the audit cannot read the keys'' ages: scopedb_owner lost its rights on scopedb_private',
           'restore the private schema''s owner and grants (see the E020 findings)'
     WHERE EXISTS (SELECT FROM scopedb_audit.signing_key_ages() AS k WHERE NOT k.readable)
    UNION ALL
    -- E017 / W017 settings stored for a role that can act as scopedb_app. Stored defaults apply to every session
    -- the role logs in, so one tenant that resets its role to the shared login could change how every other
    -- tenant's sessions start. (scopedb pins what it relies on and removes what it finds; this says it happened.)
    SELECT CASE WHEN r.rolcanlogin AND r.oid <> 'scopedb_app'::regrole THEN 'error' ELSE 'warning' END,
           CASE WHEN r.rolcanlogin AND r.oid <> 'scopedb_app'::regrole THEN 'E017' ELSE 'W017' END,
           'role ' || r.rolname,
           'settings stored for a role that acts as scopedb_app'
               || CASE WHEN d.setdatabase = 0 THEN '' ELSE ' in this database' END || ': '
               || pg_catalog.array_to_string(ARRAY(SELECT pg_catalog.split_part(c, '=', 1)
                                                     FROM pg_catalog.unnest(d.setconfig) AS c ORDER BY 1), ', '),
           'ALTER ROLE ' || pg_catalog.quote_ident(r.rolname)
               || CASE WHEN d.setdatabase = 0 THEN ''
                       ELSE ' IN DATABASE ' || pg_catalog.quote_ident(pg_catalog.current_database()) END
               || ' RESET ALL;'
      FROM pg_catalog.pg_db_role_setting AS d
      JOIN scopedb_audit.app_roles AS r ON r.oid = d.setrole
     WHERE d.setdatabase IN (0, (SELECT db.oid FROM pg_catalog.pg_database AS db
                                  WHERE db.datname = pg_catalog.current_database()))
    UNION ALL
    -- W017 settings stored for every role in this database (ALTER DATABASE ... SET, or ALTER ROLE ALL ... SET)
    -- start every scoped session too. Only the database's owner or a superuser can store them, and no login that
    -- acts as scopedb_app may be either (E009).
    SELECT 'warning', 'W017', 'database ' || pg_catalog.current_database(),
           'settings stored for every session'
               || CASE WHEN d.setdatabase = 0 THEN ' (ALTER ROLE ALL)' ELSE ' in this database' END || ': '
               || pg_catalog.array_to_string(ARRAY(SELECT pg_catalog.split_part(c, '=', 1)
                                                     FROM pg_catalog.unnest(d.setconfig) AS c ORDER BY 1), ', '),
           CASE WHEN d.setdatabase = 0 THEN 'ALTER ROLE ALL RESET ALL;'
                ELSE 'ALTER DATABASE ' || pg_catalog.quote_ident(pg_catalog.current_database()) || ' RESET ALL;' END
      FROM pg_catalog.pg_db_role_setting AS d
     WHERE d.setrole = 0
       AND d.setdatabase IN (0, (SELECT db.oid FROM pg_catalog.pg_database AS db
                                  WHERE db.datname = pg_catalog.current_database()))
    UNION ALL
    -- E018 owner-run search functions the app can call must pin the settings their answer depends on: a caller's
    -- gin_fuzzy_search_limit thinned every tenant's matches in the shared full-text index before the scope join.
    SELECT 'error', 'E018', 'function ' || f.oid::regprocedure::text,
           'SECURITY DEFINER function executable by scopedb_app does not pin ' || m.setting,
           'ALTER FUNCTION ' || f.oid::regprocedure::text || ' SET ' || m.setting || ' = ' || m.value || ';'
      FROM pg_catalog.pg_proc AS f
     CROSS JOIN (VALUES ('@@', 'gin_fuzzy_search_limit', '0'),
                        ('<=>|<->|<#>', 'hnsw.iterative_scan', 'off'),
                        ('<=>|<->|<#>', 'hnsw.ef_search', '40')) AS m (uses, setting, value)
     WHERE f.prosecdef
       AND pg_catalog.has_function_privilege('scopedb_app', f.oid, 'EXECUTE')
       AND f.prosrc ~ m.uses
       AND NOT EXISTS (SELECT FROM pg_catalog.unnest(f.proconfig) AS c WHERE c LIKE m.setting || '=%')
    UNION ALL
    -- E019 no owner-run function the app can call shows a plan.
    SELECT 'error', 'E019', 'function ' || f.oid::regprocedure::text,
           'SECURITY DEFINER function executable by scopedb_app runs EXPLAIN (its plans reflect every tenant''s rows)',
           'REVOKE EXECUTE ON FUNCTION ' || f.oid::regprocedure::text || ' FROM scopedb_app, PUBLIC;'
      FROM pg_catalog.pg_proc AS f
     WHERE f.prosecdef
       AND pg_catalog.has_function_privilege('scopedb_app', f.oid, 'EXECUTE')
       AND f.prosrc ~* '\mexplain\M'
    UNION ALL
    -- E020 the catalog against what scopedb installed (scopedb_audit.manifest): every policy predicate, function
    -- body and setting, trigger, index, constraint, grant and default privilege of scopedb's objects, and every
    -- publication of their rows. Anything changed, missing or extra is an error naming the object.
    SELECT 'error', 'E020', d.kind || ' ' || d.object, d.message, d.fix
      FROM (WITH live AS MATERIALIZED (SELECT l.kind, l.object, l.fact FROM scopedb_audit.installed_facts() AS l)
            SELECT l.kind, l.object,
                   'changed since scopedb installed it: now ' || pg_catalog."left"(l.fact, 400)
                       || '; installed ' || pg_catalog."left"(m.fact, 400) AS message,
                   'restore what scopedb installed (scopedb_audit.manifest holds it; sql/ defines it)' AS fix
              FROM live AS l JOIN scopedb_audit.manifest AS m ON m.kind = l.kind AND m.object = l.object
             WHERE l.fact <> m.fact
            UNION ALL
            SELECT m.kind, m.object, 'missing: scopedb installed it (' || pg_catalog."left"(m.fact, 400) || ')',
                   're-create it as sql/ defines it'
              FROM scopedb_audit.manifest AS m
             WHERE NOT EXISTS (SELECT FROM live AS l WHERE l.kind = m.kind AND l.object = m.object)
            UNION ALL
            SELECT l.kind, l.object, 'not installed by scopedb: ' || pg_catalog."left"(l.fact, 400),
                   scopedb_audit.removal(l.kind, l.object, l.fact)
              FROM live AS l
             WHERE NOT EXISTS (SELECT FROM scopedb_audit.manifest AS m WHERE m.kind = l.kind AND m.object = l.object)
           ) AS d
    UNION ALL
    -- E021 a LEAKPROOF function may run on rows before row-level security has admitted them (PostgreSQL lets it,
    -- by design): only the built-in ones may be LEAKPROOF.
    SELECT 'error', 'E021', 'function ' || f.oid::regprocedure::text,
           'LEAKPROOF: may see rows of every tenant before the policies filter them',
           'ALTER FUNCTION ' || f.oid::regprocedure::text || ' NOT LEAKPROOF;'
      FROM pg_catalog.pg_proc AS f
     WHERE f.proleakproof AND f.pronamespace <> 'pg_catalog'::regnamespace
    UNION ALL
    -- E022 / W022 SECURITY DEFINER functions outside scopedb's schemas that scopedb_app may execute run with their
    -- owner's rights: an error when that owner can read around row-level security or the private schema.
    SELECT CASE WHEN o.risky THEN 'error' ELSE 'warning' END, CASE WHEN o.risky THEN 'E022' ELSE 'W022' END,
           'function ' || f.oid::regprocedure::text,
           'SECURITY DEFINER function executable by scopedb_app, owned by ' || pg_catalog.pg_get_userbyid(f.proowner)
               || CASE WHEN o.risky THEN ', which can read around row-level security' ELSE '' END,
           'REVOKE EXECUTE ON FUNCTION ' || f.oid::regprocedure::text || ' FROM scopedb_app, PUBLIC; or make it '
               || 'SECURITY INVOKER'
      FROM pg_catalog.pg_proc AS f
     CROSS JOIN LATERAL (SELECT f.proowner = 'scopedb_owner'::regrole
                                OR pg_catalog.cardinality(scopedb.role_hazards(
                                       pg_catalog.pg_get_userbyid(f.proowner))) > 0 AS risky) AS o
     WHERE f.prosecdef
       AND f.pronamespace NOT IN ('scopedb'::regnamespace, 'scopedb_private'::regnamespace,
                                  'scopedb_audit'::regnamespace, 'pg_catalog'::regnamespace)
       AND pg_catalog.has_function_privilege('scopedb_app', f.oid, 'EXECUTE')
    UNION ALL
    -- E023 / W023 materialized views over protected tables hold a copy of their rows with no row-level security.
    SELECT CASE WHEN v.readable THEN 'error' ELSE 'warning' END, CASE WHEN v.readable THEN 'E023' ELSE 'W023' END,
           'materialized view ' || v.view::text,
           'copies rows of ' || v.source || ' out of row-level security'
               || CASE WHEN v.readable THEN ', and scopedb_app can read it' ELSE '' END,
           'DROP MATERIALIZED VIEW ' || v.view::text || ';'
      FROM (SELECT dr.relid::regclass AS view,
                   pg_catalog.string_agg(dr.source, ', ' ORDER BY dr.source) AS source,
                   pg_catalog.has_table_privilege('scopedb_app', dr.relid, 'SELECT') AS readable
              FROM scopedb_audit.derived_relations AS dr
             WHERE dr.relkind = 'm'
             GROUP BY dr.relid) AS v
    UNION ALL
    -- E024 any other table scopedb_app can read or change must be protected like scopedb's own (row-level security
    -- enabled and forced): an export table or a service's table left open is reachable from every scope. A column
    -- privilege reaches every row as a table privilege does; TRUNCATE empties a table past every policy; a view it
    -- can read that runs with its owner's rights hands out whatever its owner reads (over a protected table: E007).
    SELECT 'error', 'E024', CASE WHEN c.relkind = 'v' THEN 'view ' ELSE 'table ' END || c.oid::regclass::text,
           CASE WHEN c.relkind = 'v' THEN 'the application can read it, and it reads with its owner''s rights'
                WHEN c.relrowsecurity AND c.relforcerowsecurity
                    THEN 'the application may TRUNCATE it, which no row-level security policy filters'
                ELSE 'the application (scopedb_app or its login) can read or change it and row-level security is '
                     || 'not enabled and forced' END,
           CASE WHEN c.relkind = 'v'
                    THEN 'ALTER VIEW ' || c.oid::regclass::text || ' SET (security_invoker = true); or REVOKE ALL ON '
                         || c.oid::regclass::text || ' FROM scopedb_app, PUBLIC;'
                WHEN c.relrowsecurity AND c.relforcerowsecurity
                    THEN 'REVOKE TRUNCATE ON ' || c.oid::regclass::text || ' FROM scopedb_app, PUBLIC;'
                ELSE pg_catalog.format('protect it (SELECT scopedb.protect_table(%L, %L);), or REVOKE ALL ON %s FROM '
                                       'scopedb_app, PUBLIC;', c.oid::regclass::text, 'project_id', c.oid::regclass)
           END
      FROM pg_catalog.pg_class AS c
      JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p', 'f', 'm', 'v')
       AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'scopedb', 'scopedb_private', 'scopedb_audit',
                             'scopedb_parts')
       AND n.nspname NOT LIKE 'pg\_%'
       AND EXISTS (SELECT FROM scopedb_audit.app_roles AS r  -- scopedb_app, or its login after RESET ROLE
                    WHERE pg_catalog.has_schema_privilege(r.oid, n.oid, 'USAGE')
                      AND (pg_catalog.has_table_privilege(r.oid, c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE')
                           OR pg_catalog.has_any_column_privilege(r.oid, c.oid, 'SELECT, INSERT, UPDATE')))
       AND CASE WHEN c.relkind = 'v'
                    THEN NOT scopedb_audit.option_is_on(c.reloptions, 'security_invoker')
                ELSE NOT (c.relrowsecurity AND c.relforcerowsecurity)
                     OR EXISTS (SELECT FROM scopedb_audit.app_roles AS r
                                 WHERE pg_catalog.has_table_privilege(r.oid, c.oid, 'TRUNCATE')) END
       AND c.oid NOT IN (SELECT dr.relid FROM scopedb_audit.derived_relations AS dr)  -- views of them: E007, E023
    UNION ALL
    -- E029 a protected service table as protect_table left it: the live facts (scopedb_audit.protection_facts)
    -- against the ones it recorded. A fact missing, changed or added is an error: a dropped FORCE, a loosened
    -- policy, a permissive policy that widens the scope, a privilege (TRUNCATE, table-level UPDATE) that reaches
    -- around the policies or locks the table, an owner that could change any of it.
    SELECT 'error', 'E029', 'table ' || d.relation || ' ' || d.kind || ' ' || d.object,
           CASE WHEN d.live IS NULL THEN 'missing (protect_table made: ' || d.recorded || ')'
                WHEN d.recorded IS NULL THEN 'not made by protect_table: ' || d.live
                ELSE 'differs from what protect_table made: now ' || d.live || '; made ' || d.recorded END,
           CASE WHEN d.kind = 'policy' AND d.recorded IS NULL
                    THEN 'DROP POLICY ' || pg_catalog.quote_ident(d.object) || ' ON ' || d.relation || ';'
                ELSE pg_catalog.format('SELECT scopedb.protect_table(%L, %L, %L, %L, %L, %L);', st.relation,
                                       st.project_column, st.resource_column, st.path_column, st.name_column,
                                       st.allow_delete) END
      FROM (SELECT COALESCE(l.relation, r.relation) AS relation, COALESCE(l.kind, r.kind) AS kind,
                   COALESCE(l.object, r.object) AS object, l.fact AS live, r.fact AS recorded
              FROM (SELECT s.relation, f.kind, f.object, f.fact
                      FROM scopedb_audit.service_tables AS s,
                           scopedb_audit.protection_facts(scopedb_audit.relation_named(s.relation)::pg_catalog.regclass) AS f
                     WHERE scopedb_audit.relation_named(s.relation) IS NOT NULL) AS l
              FULL JOIN (SELECT f.relation, f.kind, f.object, f.fact
                           FROM scopedb_audit.service_table_facts AS f
                          WHERE scopedb_audit.relation_named(f.relation) IS NOT NULL) AS r
                ON l.relation = r.relation AND l.kind = r.kind AND l.object = r.object
             WHERE l.fact IS DISTINCT FROM r.fact) AS d
      JOIN scopedb_audit.service_tables AS st ON st.relation = d.relation
    UNION ALL
    -- W029 a table recorded as protected that no longer exists (dropped, or renamed: a renamed one is judged
    -- again once protected under its new name).
    SELECT 'warning', 'W029', 'table ' || s.relation,
           'recorded as protected by protect_table, but no such table exists (dropped or renamed)',
           pg_catalog.format('SELECT scopedb.unprotect_table(%L);', s.relation)
      FROM scopedb_audit.service_tables AS s
     WHERE scopedb_audit.relation_named(s.relation) IS NULL
    UNION ALL
    -- W030 a table scopedb_app can reach whose row-level security is forced but whose policies are hand-written:
    -- the audit can judge protect_table's policies (E029), not these.
    SELECT 'warning', 'W030', 'table ' || c.oid::regclass::text,
           'scopedb_app can reach it; its row-level security is forced but its policies were not made by '
               || 'protect_table, so the audit cannot judge them',
           pg_catalog.format('SELECT scopedb.protect_table(%L, %L);', c.oid::regclass::text, 'project_id')
      FROM pg_catalog.pg_class AS c
      JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p')
       AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'scopedb', 'scopedb_private', 'scopedb_audit',
                             'scopedb_parts')
       AND n.nspname NOT LIKE 'pg\_%'
       AND c.relrowsecurity AND c.relforcerowsecurity
       AND EXISTS (SELECT FROM scopedb_audit.app_roles AS r  -- scopedb_app, or its login after RESET ROLE
                    WHERE pg_catalog.has_schema_privilege(r.oid, n.oid, 'USAGE')
                      AND (pg_catalog.has_table_privilege(r.oid, c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE')
                           OR pg_catalog.has_any_column_privilege(r.oid, c.oid, 'SELECT, INSERT, UPDATE')))
       AND c.oid NOT IN (SELECT scopedb_audit.relation_named(s.relation) FROM scopedb_audit.service_tables AS s
                          WHERE scopedb_audit.relation_named(s.relation) IS NOT NULL)
    UNION ALL
    -- W028 a foreign server scopedb_app may use connects out under a user mapping, possibly as a role that reads
    -- around row-level security (postgres_fdw or dblink back into this database): what it can see is the mapped
    -- role's business, not scopedb's.
    SELECT 'warning', 'W028', 'foreign server ' || s.srvname,
           'scopedb_app may use it'
               || CASE WHEN EXISTS (SELECT FROM pg_catalog.pg_user_mappings AS um
                                     WHERE um.srvid = s.oid
                                       AND (um.umuser = 0 OR um.umuser IN (SELECT r.oid FROM scopedb_audit.app_roles AS r)))
                       THEN ', and a user mapping applies to it' ELSE '' END,
           'REVOKE USAGE ON FOREIGN SERVER ' || pg_catalog.quote_ident(s.srvname) || ' FROM scopedb_app, PUBLIC;'
      FROM pg_catalog.pg_foreign_server AS s
     WHERE pg_catalog.has_server_privilege('scopedb_app', s.oid, 'USAGE')
    UNION ALL
    -- E026 per-project storage (scopedb_parts), judged by rule rather than by the manifest: its partitions
    -- come and go with projects. Every relation there is a partition of scopedb.fragments or
    -- scopedb_private.fragment_search named for the one project its bound holds, or the DEFAULT partition the
    -- small projects share, named <parent>_shared, which gets no index but the cloned ones; or a partition of
    -- scopedb_private.group_vectors named for the one search group its bound holds (that copy has no shared
    -- partition: rows of groups without a partition are not copied); every partition of those three is
    -- there; each is owned by scopedb_owner, grants nothing to anyone, has row-level security enabled and forced,
    -- no policy, trigger (but those cloned from its parent) or rule of its own; and its indexes are the ones
    -- cloned from the parent plus, once built, its own HNSW (fragments, a group's copy) or GIN (full text) index.
    -- Which projects a group's copy holds is the group's members, a row the audit does not read. A partition
    -- holding a second project, or an index that is not one of these, would be a structure shared or made
    -- outside scopedb's control. (Partitions of deleted projects, and projects without partitions, are the
    -- maintenance step's business: storage_plan lists them in an admin session. The audit sees no project row.)
    -- (The bound is printed without its table (relid 0: a bound has no columns), so no partition is opened; and
    -- only the table half filters on its problem, so no index definition is printed but the few judged.)
    SELECT 'error', 'E026', p.kind || ' ' || p.name, p.problem, p.fix
      FROM (SELECT t.kind, t.name, t.problem, t.fix FROM (SELECT 'table' AS kind, c.oid::regclass::text AS name,
                   CASE WHEN i.inhparent IS NULL
                            THEN 'in scopedb_parts but not a partition of fragments, fragment_search or group_vectors'
                        WHEN c.relnamespace <> 'scopedb_parts'::regnamespace
                            THEN 'a partition of ' || i.inhparent::regclass::text || ' outside scopedb_parts'
                        WHEN c.relkind <> 'r'  -- a partitioned partition would hold sub-partitions scopedb never judges
                            THEN 'not an ordinary table (relkind ' || c.relkind::text || ')'
                        WHEN c.relname = 'group_vectors_shared'
                         AND (SELECT pc.relname FROM pg_catalog.pg_class AS pc WHERE pc.oid = i.inhparent)
                             = 'group_vectors'
                            THEN 'a partition of the search groups'' copies shared by every group without one'
                        -- Compared as strings: a regular expression built from each partition's name would be
                        -- compiled once per partition (thousands), which dominated the audit's time.
                        -- The small projects' shared partition: <parent>_shared, the DEFAULT partition.
                        WHEN c.relname = (SELECT pc.relname FROM pg_catalog.pg_class AS pc WHERE pc.oid = i.inhparent)
                                         || '_shared'
                         AND pg_catalog.pg_get_expr(c.relpartbound, 0) IS DISTINCT FROM 'DEFAULT'
                            THEN 'its bound (' || COALESCE(pg_catalog.pg_get_expr(c.relpartbound, 0), '-')
                                 || ') is not DEFAULT, which its name says'
                        WHEN c.relname IS DISTINCT FROM
                             (SELECT pc.relname FROM pg_catalog.pg_class AS pc WHERE pc.oid = i.inhparent) || '_shared'
                         AND (pg_catalog.substring(c.relname, '_(\d+)$') IS NULL
                          OR pg_catalog.pg_get_expr(c.relpartbound, 0) IS DISTINCT FROM
                             ('FOR VALUES IN (''' || pg_catalog.substring(c.relname, '_(\d+)$') || ''')')
                          OR c.relname <> (SELECT pc.relname FROM pg_catalog.pg_class AS pc WHERE pc.oid = i.inhparent)
                                          || '_' || pg_catalog.substring(c.relname, '_(\d+)$'))
                            THEN 'its bound (' || COALESCE(pg_catalog.pg_get_expr(c.relpartbound, 0), '-')
                                 || ') is not the one project its name says'
                        WHEN c.relowner <> 'scopedb_owner'::regrole
                            THEN 'owned by ' || pg_catalog.pg_get_userbyid(c.relowner)
                        WHEN EXISTS (SELECT FROM pg_catalog.aclexplode(c.relacl) AS a WHERE a.grantee <> c.relowner)
                            THEN 'grants privileges on it: ' || c.relacl::text
                        WHEN NOT (c.relrowsecurity AND c.relforcerowsecurity)
                            THEN 'row-level security is not enabled and forced'
                        WHEN EXISTS (SELECT FROM pg_catalog.pg_policy AS pol WHERE pol.polrelid = c.oid)
                            THEN 'has a policy of its own'
                        WHEN EXISTS (SELECT FROM pg_catalog.pg_trigger AS t
                                      WHERE t.tgrelid = c.oid AND NOT t.tgisinternal AND t.tgparentid = 0)
                            THEN 'has a trigger of its own'
                        WHEN EXISTS (SELECT FROM pg_catalog.pg_rewrite AS w WHERE w.ev_class = c.oid)
                            THEN 'has a rule'
                   END AS problem,
                   'restore it as scopedb_private.create_project_storage makes it, or drop it and run scopedb storage'
                       AS fix
              FROM pg_catalog.pg_class AS c
              LEFT JOIN pg_catalog.pg_inherits AS i
                ON i.inhrelid = c.oid
               AND i.inhparent IN (SELECT pc.oid FROM pg_catalog.pg_class AS pc  -- no regclass: an owner that lost
                                    WHERE (pc.relnamespace = 'scopedb'::regnamespace AND pc.relname = 'fragments')
                                       OR (pc.relnamespace = 'scopedb_private'::regnamespace  -- USAGE still audits
                                           AND pc.relname IN ('fragment_search', 'group_vectors')))
             WHERE (c.relnamespace = 'scopedb_parts'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S'))
                OR i.inhparent IS NOT NULL) AS t
             WHERE t.problem IS NOT NULL
            UNION ALL
            SELECT 'index', x.indexrelid::regclass::text,
                   'an index scopedb does not make on a project''s partition: '
                       || pg_catalog.pg_get_indexdef(x.indexrelid),
                   'DROP INDEX ' || x.indexrelid::regclass::text || ';'
              FROM pg_catalog.pg_index AS x
              JOIN pg_catalog.pg_class AS ic ON ic.oid = x.indexrelid
              JOIN pg_catalog.pg_class AS c ON c.oid = x.indrelid
             WHERE c.relnamespace = 'scopedb_parts'::regnamespace
               AND NOT EXISTS (SELECT FROM pg_catalog.pg_inherits AS ii WHERE ii.inhrelid = x.indexrelid)
               AND NOT (ic.relname = c.relname || '_embedding_hnsw' AND c.relname ~ '^(fragments|group_vectors)_\d+$'
                        AND pg_catalog.pg_get_indexdef(x.indexrelid)
                            ~ (' USING hnsw \(embedding ("?[a-z_][a-z0-9_]*"?\.)?vector_cosine_ops\)'
                               || '( WITH \(m=''\d+'', ef_construction=''\d+''\))?$'))
               AND NOT (ic.relname = c.relname || '_tsv_gin' AND c.relname ~ '^fragment_search_\d+$'
                        AND pg_catalog.pg_get_indexdef(x.indexrelid) ~ ' USING gin \(tsv\)$')
           ) AS p
    UNION ALL
    -- E016 pgvector >= 0.8.
    SELECT 'error', 'E016', 'extension vector',
           COALESCE('pgvector ' || e.extversion || ' is older than 0.8', 'pgvector is not installed'),
           'install pgvector 0.8 or newer, then ALTER EXTENSION vector UPDATE;'
      FROM (SELECT (SELECT x.extversion FROM pg_catalog.pg_extension AS x WHERE x.extname = 'vector') AS extversion) AS e
     WHERE scopedb_audit.pgvector_too_old(e.extversion);
$$;
COMMENT ON FUNCTION scopedb_audit.check() IS
    'Runs every scopedb lint (see sql/07_audit.sql); reads the catalogs only.';

CREATE VIEW scopedb_audit.findings AS
SELECT f.severity, f.code, f.object, f.message, f.fix
  FROM scopedb_audit.check() AS f
 ORDER BY CASE f.severity WHEN 'error' THEN 0 ELSE 1 END, f.code, f.object;
COMMENT ON VIEW scopedb_audit.findings IS
    'scopedb''s policy audit: one row per finding, errors first. Empty of errors on a healthy database.';

REVOKE ALL ON SCHEMA scopedb_audit FROM PUBLIC;
REVOKE ALL ON ALL TABLES IN SCHEMA scopedb_audit FROM PUBLIC;
REVOKE ALL ON FUNCTION scopedb_audit.check() FROM PUBLIC;
REVOKE ALL ON FUNCTION scopedb_audit.pgvector_too_old(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION scopedb_audit.installed_facts() FROM PUBLIC;
REVOKE ALL ON FUNCTION scopedb_audit.option_is_on(text[], text) FROM PUBLIC;
REVOKE ALL ON FUNCTION scopedb_audit.removal(text, text, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION scopedb_audit.manifest_digest() FROM PUBLIC;
REVOKE ALL ON FUNCTION scopedb_audit.signing_key_ages() FROM PUBLIC;
REVOKE ALL ON FUNCTION scopedb_audit.protection_facts(regclass) FROM PUBLIC;
GRANT USAGE ON SCHEMA scopedb_audit TO scopedb_auditor;
GRANT SELECT ON scopedb_audit.findings, scopedb_audit.data_tables, scopedb_audit.protected_tables,
    scopedb_audit.derived_relations,
    scopedb_audit.app_roles, scopedb_audit.manifest, scopedb_audit.service_tables,
    scopedb_audit.service_table_facts TO scopedb_auditor;
GRANT EXECUTE ON FUNCTION scopedb_audit.check(), scopedb_audit.pgvector_too_old(text),
    scopedb_audit.installed_facts(), scopedb_audit.option_is_on(text[], text),
    scopedb_audit.removal(text, text, text), scopedb_audit.manifest_digest(),
    scopedb_audit.protection_facts(regclass), scopedb_audit.relation_named(text) TO scopedb_auditor;

RESET ROLE;
