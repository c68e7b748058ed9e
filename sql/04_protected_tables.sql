-- scopedb: protecting a service's own tables with the scope that protects scopedb's.
--
--     SELECT scopedb.protect_table('billing.invoices', 'project_id');                 -- in the service's migration
--     SELECT scopedb.protect_table('billing.invoices', 'project_id', resource_column => 'repository_id');
--     SELECT scopedb.unprotect_table('billing.invoices');                              -- its undo
--
-- A service that shares the database has tables of its own (tickets, orders, chat turns) that need the isolation
-- scopedb's fragments have. Hand-written policies miss something every time: a forgotten FORCE, an accessor called
-- per row, a permissive policy that widens the scope, a write without WITH CHECK, a command without a policy, a
-- unique key that tells one tenant what another holds, a table-level UPDATE that lets one tenant LOCK the table
-- for all. protect_table gives the table exactly the shape of scopedb's own tables (sql/04_policies.sql):
--   * row-level security enabled and FORCED (the owner is filtered too);
--   * "app sees nothing until a scope is entered": the one permissive policy, cheap and unverified;
--   * one RESTRICTIVE policy per command reading the verified scope as scopedb's own tables do, in InitPlans
--     (once per statement): the project column against the scope's project ids, and, when the table has them,
--     its resource, path and name columns against the scope's resource filter and patterns. A table without a
--     resource (or path, name) column is treated as a fragment whose column is NULL: a scope that narrows by
--     resources (or patterns) sees none of its rows. Writes carry WITH CHECK;
--   * privileges for scopedb_app: SELECT and INSERT on the table, UPDATE on its columns except the project column
--     and the primary key (column grants do not allow LOCK TABLE; a key change would probe hidden rows through
--     foreign keys), USAGE on a serial column's sequence (an identity column needs none), DELETE only when asked
--     (allow_delete: DELETE also lets the holder LOCK the whole table, so one tenant could stall the others;
--     docs/security.md), never TRUNCATE, which no policy filters; and nothing for PUBLIC, which includes the
--     application's login (it reads after RESET ROLE, where policies TO scopedb_app do not apply);
--   * a record of what it made (scopedb_audit.service_tables and .service_table_facts): the audit compares the
--     live catalog with it, so a dropped FORCE, a loosened, missing or added policy, an added key, rule, trigger or
--     inheritance link, or an added privilege is an error (E029).
-- It refuses a table it cannot protect soundly with SQLSTATE SD007 and a message naming the fix: no such table, a
-- view, one of scopedb's own; a partitioned table, a partition or an inheritance member (the policies of the table
-- a query names govern the rows of the tables below it); a rule (it runs with the owner's rights); a policy it does
-- not make; a privilege held by a role the application can act through, or granted to it by a role other than the
-- owner (the owner cannot revoke it), or an owner it can act as; no project
-- column, or one that is not bigint NOT NULL; a unique index or exclusion constraint that does not compare the
-- project column by equality (a key unique across projects answers "does another tenant hold this value?" with a
-- unique violation); a foreign key to or from another protected table that does not pair the project columns (its
-- checks and cascades would reach across tenants); a resource, path or name column that is not text. So what it
-- records is what it made, and the audit's comparison means something.
-- Idempotent: protecting again replaces its own policies and grants and re-records. It runs with the caller's
-- rights: the caller must own the table (to change its policies) and be an admin, a member of scopedb_owner (to
-- record it). The service's migration login is usually both.

SET ROLE scopedb_owner;

-- What scopedb.protect_table made of a service's table (sql/04_protected_tables.sql): the table and the columns it
-- was protected by, and the catalog facts right after (scopedb_audit.protection_facts). E029 compares the live
-- facts with these. Written by protect_table in an admin session; catalog facts only, never a row of the table.
-- Unique indexes and foreign keys are facts too: one added later is an E029 finding until protect_table, run
-- again, has judged it (a key without the project column is refused).
CREATE TABLE scopedb_audit.service_tables (
    relation        text PRIMARY KEY,  -- schema-qualified, as regclass prints it
    project_column  name NOT NULL,
    resource_column name,
    path_column     name,
    name_column     name,
    allow_delete    boolean NOT NULL,
    protected_at    timestamptz NOT NULL DEFAULT pg_catalog.now(),
    protected_by    name NOT NULL DEFAULT CURRENT_USER
);
COMMENT ON TABLE scopedb_audit.service_tables IS
    'Service tables protected with scopedb.protect_table, and the columns they were protected by.';
CREATE TABLE scopedb_audit.service_table_facts (
    relation text NOT NULL REFERENCES scopedb_audit.service_tables (relation) ON DELETE CASCADE,
    kind     text NOT NULL,
    object   text NOT NULL,
    fact     text NOT NULL,
    CONSTRAINT service_table_facts_pkey PRIMARY KEY (relation, kind, object)
);
COMMENT ON TABLE scopedb_audit.service_table_facts IS
    'The catalog facts of each protected service table as protect_table left them (lint E029).';

-- The table a recorded relation name (schema.table, as regclass prints it) names now, or NULL: read from the
-- catalog by name, because to_regclass would need USAGE on a service's schema, which the audit does not hold.
CREATE FUNCTION scopedb_audit.relation_named(relation text) RETURNS oid
LANGUAGE sql
STABLE
SET search_path = pg_catalog, pg_temp
RETURN (SELECT c.oid
          FROM pg_catalog.pg_class AS c
          JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
         WHERE n.nspname = (pg_catalog.parse_ident(relation))[1]
           AND c.relname = (pg_catalog.parse_ident(relation))[2]
           AND pg_catalog.cardinality(pg_catalog.parse_ident(relation)) = 2);
COMMENT ON FUNCTION scopedb_audit.relation_named(text) IS
    'The oid of the table a schema-qualified name names, looked up in the catalog (NULL when there is none).';

-- The project column of every protected table: scopedb's own (projects.id, and project_id elsewhere), the service
-- tables protect_table recorded, and the table being protected (rel, attnum). What a foreign key between two of
-- them must pair.
CREATE FUNCTION scopedb_private.project_columns(rel regclass, attnum smallint)
RETURNS TABLE (relid oid, attnum smallint)
LANGUAGE sql
STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT rel, attnum
    UNION ALL
    SELECT a.attrelid, a.attnum
      FROM pg_catalog.pg_attribute AS a
      JOIN pg_catalog.pg_class AS c ON c.oid = a.attrelid
     WHERE c.relnamespace = 'scopedb'::regnamespace AND c.relkind IN ('r', 'p')
       AND a.attname = CASE WHEN c.relname = 'projects' THEN 'id' ELSE 'project_id' END
    UNION ALL
    SELECT a.attrelid, a.attnum
      FROM scopedb_audit.service_tables AS s
      JOIN pg_catalog.pg_attribute AS a
        ON a.attrelid = scopedb_audit.relation_named(s.relation) AND a.attname = s.project_column
     WHERE a.attrelid <> rel;
END;
COMMENT ON FUNCTION scopedb_private.project_columns(regclass, smallint) IS
    'The project column of each protected table (scopedb''s, recorded service tables, and rel): what foreign keys pair.';

-- The sequences a table's columns own (serial and identity columns): what an insert by the app draws from.
CREATE FUNCTION scopedb_private.owned_sequences(rel regclass) RETURNS SETOF regclass
LANGUAGE sql
STABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT d.objid::regclass
      FROM pg_catalog.pg_depend AS d
      JOIN pg_catalog.pg_class AS c ON c.oid = d.objid AND c.relkind = 'S'
     WHERE d.classid = 'pg_catalog.pg_class'::regclass AND d.refclassid = 'pg_catalog.pg_class'::regclass
       AND d.refobjid = rel AND d.deptype IN ('a', 'i');
END;
COMMENT ON FUNCTION scopedb_private.owned_sequences(regclass) IS
    'The sequences a table''s serial and identity columns own.';

-- The names of the policies protect_table makes on a table: the gate, and one per command naming the table ("scope
-- limits which invoices the app reads"), or its rows when the table's name would not fit in a policy name.
CREATE FUNCTION scopedb_private.protection_policy_names(rel regclass) RETURNS text[]
LANGUAGE sql
STABLE
SET search_path = pg_catalog, pg_temp
RETURN (SELECT ARRAY['app sees nothing until a scope is entered',
                     'scope limits which ' || n.noun || ' the app reads',
                     'scope limits which ' || n.noun || ' the app creates',
                     'scope limits which ' || n.noun || ' the app changes',
                     'scope limits which ' || n.noun || ' the app deletes']
          FROM (SELECT CASE WHEN pg_catalog.octet_length(c.relname) <= 28 THEN c.relname::text ELSE 'rows' END AS noun
                  FROM pg_catalog.pg_class AS c
                 WHERE c.oid = rel) AS n);
COMMENT ON FUNCTION scopedb_private.protection_policy_names(regclass) IS
    'The policy names scopedb.protect_table uses on a table (the gate first, then SELECT, INSERT, UPDATE, DELETE).';

-- Drops the policies protect_table makes on a table, leaving any other policy for the audit to report.
CREATE FUNCTION scopedb_private.drop_protection_policies(rel regclass) RETURNS void
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    policy text;
BEGIN
    FOR policy IN SELECT p.polname FROM pg_catalog.pg_policy AS p
                   WHERE p.polrelid = rel AND p.polname = ANY (scopedb_private.protection_policy_names(rel)) LOOP
        EXECUTE pg_catalog.format('DROP POLICY %I ON %s', policy, rel);
    END LOOP;
END
$$;
COMMENT ON FUNCTION scopedb_private.drop_protection_policies(regclass) IS
    'Drop the policies scopedb.protect_table makes on a table (any other policy stays, for the audit to report).';

CREATE FUNCTION scopedb.protect_table(
    target text,
    project_column name,
    resource_column name DEFAULT NULL,
    path_column name DEFAULT NULL,
    name_column name DEFAULT NULL,
    allow_delete boolean DEFAULT false
) RETURNS regclass
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    rel regclass := pg_catalog.to_regclass(target);
    cls pg_catalog.pg_class;
    project_att pg_catalog.pg_attribute;
    col name;
    bad text;
    names text[];
    schema_name name;
    predicate text;
    qualifier text;
    terms name;
    updatable text;
    seq regclass;
BEGIN
    IF rel IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: no such table', target),
            HINT = 'create the table first (and qualify its name with its schema)';
    END IF;
    SELECT * INTO cls FROM pg_catalog.pg_class WHERE oid = rel;
    IF cls.relkind NOT IN ('r', 'p') THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: not a table (relkind %s)', rel, cls.relkind),
            HINT = 'protect the table the view or relation reads';
    END IF;
    schema_name := (SELECT n.nspname FROM pg_catalog.pg_namespace AS n WHERE n.oid = cls.relnamespace);
    IF schema_name IN ('scopedb', 'scopedb_private', 'scopedb_parts', 'scopedb_audit', 'pg_catalog',
                       'information_schema') THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: it belongs to scopedb or the system', rel),
            HINT = 'scopedb''s own tables are protected by its migrations';
    END IF;
    -- Partitions and inheritance: the policies of the table a query names govern the rows of every table below
    -- it, whose own keys and policies protect_table would not have judged. Not supported (yet): refused.
    IF cls.relkind = 'p' OR EXISTS (SELECT FROM pg_catalog.pg_inherits AS i WHERE rel IN (i.inhrelid, i.inhparent)) THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: it is partitioned, a partition, or part of table '
                                        'inheritance (the policies of one table would govern the rows of another)', rel),
            HINT = 'protect a plain table';
    END IF;
    -- Rules run with the table owner's rights (a superuser owner reads past every policy): refused.
    SELECT r.rulename INTO bad FROM pg_catalog.pg_rewrite AS r WHERE r.ev_class = rel ORDER BY 1 LIMIT 1;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: its rule %I runs with the owner''s rights, outside the '
                                        'scope', rel, bad),
            HINT = pg_catalog.format('DROP RULE %I ON %s; (a trigger runs as the caller)', bad, rel);
    END IF;
    -- A policy protect_table did not make would be ANDed (restrictive) or ORed (permissive) with its own, and may
    -- reach roles other than scopedb_app: refused, so that what is recorded is exactly what protect_table made.
    names := scopedb_private.protection_policy_names(rel);
    SELECT p.polname INTO bad FROM pg_catalog.pg_policy AS p
     WHERE p.polrelid = rel AND NOT p.polname = ANY (names) ORDER BY 1 LIMIT 1;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: it has a policy protect_table does not make (%I)', rel, bad),
            HINT = pg_catalog.format('DROP POLICY %I ON %s;', bad, rel);
    END IF;
    -- The application's roles may hold nothing on the table but what protect_table grants: a grant to a role
    -- scopedb_app (or its login) belongs to, or the table's owner being one, reaches around the policies.
    SELECT pg_catalog.pg_get_userbyid(a.grantee) INTO bad
      FROM (SELECT x.grantee FROM pg_catalog.aclexplode(cls.relacl) AS x
            UNION
            SELECT x.grantee FROM pg_catalog.pg_attribute AS att, pg_catalog.aclexplode(att.attacl) AS x
             WHERE att.attrelid = rel AND att.attacl IS NOT NULL) AS a
     WHERE a.grantee NOT IN (0, cls.relowner, 'scopedb_app'::regrole)
       AND EXISTS (SELECT FROM scopedb_audit.app_roles AS r WHERE pg_catalog.pg_has_role(r.oid, a.grantee, 'MEMBER'))
     ORDER BY 1 LIMIT 1;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: role %I, which scopedb_app or its login belongs to, holds '
                                        'privileges on it', rel, bad),
            HINT = pg_catalog.format('REVOKE ALL ON %s FROM %I;', rel, bad);
    END IF;
    -- protect_table's own REVOKE removes only what the owner granted: a privilege another role granted (with a
    -- grant option it holds) to the application or PUBLIC would survive it, so it is refused, naming the grantor.
    SELECT pg_catalog.pg_get_userbyid(a.grantor) INTO bad
      FROM (SELECT x.grantor, x.grantee FROM pg_catalog.aclexplode(cls.relacl) AS x
            UNION
            SELECT x.grantor, x.grantee FROM pg_catalog.pg_attribute AS att, pg_catalog.aclexplode(att.attacl) AS x
             WHERE att.attrelid = rel AND att.attacl IS NOT NULL
            UNION
            SELECT x.grantor, x.grantee
              FROM scopedb_private.owned_sequences(rel) AS q (seq)
              JOIN pg_catalog.pg_class AS sc ON sc.oid = q.seq,
                   pg_catalog.aclexplode(sc.relacl) AS x) AS a
     WHERE a.grantor <> cls.relowner
       AND (a.grantee IN (0, 'scopedb_app'::regrole)
            OR EXISTS (SELECT FROM scopedb_audit.app_roles AS r WHERE pg_catalog.pg_has_role(r.oid, a.grantee, 'MEMBER')))
     ORDER BY 1 LIMIT 1;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: role %I granted the application or PUBLIC privileges on '
                                        'it (or its sequences) that only it can revoke', rel, bad),
            HINT = pg_catalog.format('REVOKE GRANT OPTION FOR ALL ON %s FROM %I CASCADE;', rel, bad);
    END IF;
    IF EXISTS (SELECT FROM scopedb_audit.app_roles AS r WHERE pg_catalog.pg_has_role(r.oid, cls.relowner, 'MEMBER')) THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: scopedb_app or its login can act as its owner %I', rel,
                                        pg_catalog.pg_get_userbyid(cls.relowner)),
            HINT = 'give the table an owner the application cannot become';
    END IF;

    SELECT * INTO project_att FROM pg_catalog.pg_attribute
     WHERE attrelid = rel AND attname = project_column AND attnum > 0 AND NOT attisdropped;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: it has no column %I', rel, project_column),
            HINT = pg_catalog.format('ALTER TABLE %s ADD COLUMN %I bigint NOT NULL REFERENCES scopedb.projects (id);',
                                     rel, project_column);
    END IF;
    IF project_att.atttypid <> 'bigint'::regtype THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: its project column %I is %s, scopedb''s project ids are bigint',
                                        rel, project_column, project_att.atttypid::regtype),
            HINT = pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I TYPE bigint;', rel, project_column);
    END IF;
    IF NOT project_att.attnotnull THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: its project column %I is nullable (a row without a project '
                                        'is in no scope, and no scope can be shown to own it)', rel, project_column),
            HINT = pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I SET NOT NULL;', rel, project_column);
    END IF;
    SELECT ic.relname INTO bad
      FROM pg_catalog.pg_index AS i
      JOIN pg_catalog.pg_class AS ic ON ic.oid = i.indexrelid
     WHERE i.indrelid = rel AND (i.indisunique OR i.indisexclusion)
       AND NOT project_att.attnum = ANY ((i.indkey::int2[])[0:i.indnkeyatts - 1])
     ORDER BY ic.relname
     LIMIT 1;
    IF bad IS NULL THEN  -- an exclusion constraint must compare the project column with =, not <> or &&
        SELECT con.conname INTO bad
          FROM pg_catalog.pg_constraint AS con
         WHERE con.conrelid = rel AND con.contype = 'x'
           AND NOT EXISTS (SELECT FROM ROWS FROM (pg_catalog.unnest(con.conkey), pg_catalog.unnest(con.conexclop))
                                       AS k (attnum, op)
                             JOIN pg_catalog.pg_operator AS o ON o.oid = k.op
                            WHERE k.attnum = project_att.attnum AND o.oprname = '=')
         ORDER BY 1 LIMIT 1;
    END IF;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: its unique index or exclusion constraint %I does not '
                                        'compare %I by equality (a value unique across projects tells one tenant, by '
                                        'a unique violation, what another holds)',
                                        rel, bad, project_column),
            HINT = pg_catalog.format('make %I part of the key of %I (for a primary key: PRIMARY KEY (%I, ...))',
                                     project_column, bad, project_column);
    END IF;
    -- A foreign key between this table and another protected one (scopedb's, or a service's) must pair the two
    -- project columns: otherwise a row of one project can reference a row of another, and the check (which runs
    -- without row-level security) or a cascade reaches across tenants.
    SELECT con.conname INTO bad
      FROM pg_catalog.pg_constraint AS con
      JOIN scopedb_private.project_columns(rel, project_att.attnum) AS src ON src.relid = con.conrelid
      JOIN scopedb_private.project_columns(rel, project_att.attnum) AS dst ON dst.relid = con.confrelid
     WHERE con.contype = 'f' AND rel IN (con.conrelid, con.confrelid)
       AND NOT EXISTS (SELECT FROM ROWS FROM (pg_catalog.unnest(con.conkey), pg_catalog.unnest(con.confkey)) AS k (a, b)
                        WHERE k.a = src.attnum AND k.b = dst.attnum)
     ORDER BY con.conname
     LIMIT 1;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'SD007',
            MESSAGE = pg_catalog.format('cannot protect %s: its foreign key %I joins rows of different projects (it '
                                        'does not pair %I with the other table''s project column), so its checks and '
                                        'cascades reach across tenants', rel, bad, project_column),
            HINT = pg_catalog.format('make the key pair the project columns: FOREIGN KEY (%I, ...) REFERENCES '
                                     '... (project_id, ...)', project_column);
    END IF;
    FOREACH col IN ARRAY ARRAY[resource_column, path_column, name_column] LOOP
        CONTINUE WHEN col IS NULL;
        IF NOT EXISTS (SELECT FROM pg_catalog.pg_attribute AS a JOIN pg_catalog.pg_type AS t ON t.oid = a.atttypid
                        WHERE a.attrelid = rel AND a.attname = col AND a.attnum > 0 AND NOT a.attisdropped
                          AND t.typcategory = 'S') THEN
            RAISE EXCEPTION USING ERRCODE = 'SD007',
                MESSAGE = pg_catalog.format('cannot protect %s: it has no text column %I', rel, col),
                HINT = 'resource, path and name columns are text (or varchar); leave the argument out if the table has none';
        END IF;
    END LOOP;

    -- The predicate every restrictive policy uses: the two questions of scopedb's own tables (sql/04_policies.sql,
    -- the fragments' without their versions). A project the scope reads whole is answered by one accessor; any
    -- other row by every term of the scope from one composite, read once (scopedb.scope_terms), so that no
    -- statement can take one term from one valid token and the next from another by changing the setting between
    -- rows (#90). Inside the sub-SELECT the table's columns are qualified by its name, and the composite's alias
    -- is not that name: an unqualified column named like the alias would read the composite instead.
    qualifier := pg_catalog.quote_ident(cls.relname) || '.';
    terms := CASE WHEN cls.relname = 'scopedb_scope' THEN 'scopedb_scope_' ELSE 'scopedb_scope' END;
    predicate := pg_catalog.format('CASE WHEN %s%I = ANY ((SELECT scopedb.scope_whole_project_ids(false))::bigint[])'
                                   ' THEN true ELSE (SELECT %s%I = ANY ((%I.t).project_ids)',
                                   qualifier, project_column, qualifier, project_column, terms)
        || CASE WHEN resource_column IS NULL
                THEN pg_catalog.format(' AND (%I.t).resource_filter IS NULL', terms)
                ELSE pg_catalog.format(' AND (COALESCE(%s%I, '''') = ANY ((%I.t).resource_filter)) IS NOT FALSE',
                                       qualifier, resource_column, terms) END
        || pg_catalog.format(' AND ((%I.t).filters_content IS NOT TRUE OR (', terms)
        || pg_catalog.format('(%1$s ~ ANY ((%2$I.t).path_include)) IS NOT FALSE'
                             ' AND (%1$s ~ ANY ((%2$I.t).path_exclude)) IS NOT TRUE',
                             CASE WHEN path_column IS NULL THEN ''''''
                                  ELSE pg_catalog.format('COALESCE(%s%I, '''')', qualifier, path_column) END, terms)
        || pg_catalog.format(' AND (%1$s ~ ANY ((%2$I.t).name_include)) IS NOT FALSE'
                             ' AND (%1$s ~ ANY ((%2$I.t).name_exclude)) IS NOT TRUE',
                             CASE WHEN name_column IS NULL THEN ''''''
                                  ELSE pg_catalog.format('COALESCE(%s%I, '''')', qualifier, name_column) END, terms)
        || pg_catalog.format(')) FROM (SELECT (SELECT scopedb.scope_terms()) AS t OFFSET 0) AS %I) END', terms);

    EXECUTE pg_catalog.format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY', rel);
    PERFORM scopedb_private.drop_protection_policies(rel);
    EXECUTE pg_catalog.format(
        'CREATE POLICY %I ON %s AS PERMISSIVE FOR ALL TO scopedb_app'
        ' USING ((SELECT scopedb.scope_entered())) WITH CHECK ((SELECT scopedb.scope_entered()))', names[1], rel);
    EXECUTE pg_catalog.format('CREATE POLICY %I ON %s AS RESTRICTIVE FOR SELECT TO scopedb_app USING (%s)',
                              names[2], rel, predicate);
    EXECUTE pg_catalog.format('CREATE POLICY %I ON %s AS RESTRICTIVE FOR INSERT TO scopedb_app WITH CHECK (%s)',
                              names[3], rel, predicate);
    EXECUTE pg_catalog.format('CREATE POLICY %I ON %s AS RESTRICTIVE FOR UPDATE TO scopedb_app USING (%s) WITH CHECK (%s)',
                              names[4], rel, predicate, predicate);
    EXECUTE pg_catalog.format('CREATE POLICY %I ON %s AS RESTRICTIVE FOR DELETE TO scopedb_app USING (%s)',
                              names[5], rel, predicate);

    -- Privileges: what a service's requests need, nothing that reaches around the policies or locks the table.
    EXECUTE pg_catalog.format('REVOKE ALL ON %s FROM PUBLIC, scopedb_app', rel);
    EXECUTE pg_catalog.format('GRANT USAGE ON SCHEMA %I TO scopedb_app', schema_name);
    EXECUTE pg_catalog.format('GRANT SELECT, INSERT ON %s TO scopedb_app', rel);
    SELECT pg_catalog.string_agg(pg_catalog.quote_ident(a.attname), ', ' ORDER BY a.attnum) INTO updatable
      FROM pg_catalog.pg_attribute AS a
     WHERE a.attrelid = rel AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
       AND a.attidentity <> 'a' AND a.attname <> project_column
       AND NOT EXISTS (SELECT FROM pg_catalog.pg_index AS i
                        WHERE i.indrelid = rel AND i.indisprimary AND a.attnum = ANY (i.indkey::int2[]));
    IF updatable IS NOT NULL THEN
        EXECUTE pg_catalog.format('GRANT UPDATE (%s) ON %s TO scopedb_app', updatable, rel);
    END IF;
    IF allow_delete THEN
        EXECUTE pg_catalog.format('GRANT DELETE ON %s TO scopedb_app', rel);
    END IF;
    -- A serial column's default calls nextval() as the inserting role, which needs USAGE; an identity column's
    -- does not. Either counter is shared by every tenant (docs/security.md: prefer random keys).
    FOR seq IN SELECT scopedb_private.owned_sequences(rel) LOOP
        EXECUTE pg_catalog.format('REVOKE ALL ON SEQUENCE %s FROM PUBLIC, scopedb_app', seq);
        IF EXISTS (SELECT FROM pg_catalog.pg_depend AS d
                    WHERE d.classid = 'pg_catalog.pg_class'::regclass AND d.objid = seq AND d.deptype = 'a') THEN
            EXECUTE pg_catalog.format('GRANT USAGE ON SEQUENCE %s TO scopedb_app', seq);
        END IF;
    END LOOP;

    -- What the audit will hold the table to.
    DELETE FROM scopedb_audit.service_tables AS s WHERE s.relation = rel::text;
    INSERT INTO scopedb_audit.service_tables (relation, project_column, resource_column, path_column, name_column,
                                              allow_delete)
    VALUES (rel::text, project_column, resource_column, path_column, name_column, allow_delete);
    INSERT INTO scopedb_audit.service_table_facts (relation, kind, object, fact)
    SELECT rel::text, f.kind, f.object, f.fact FROM scopedb_audit.protection_facts(rel) AS f;
    -- The foreign keys just judged are facts of the protected tables at their other ends too: record them there.
    WITH linked AS (
        SELECT s.relation, con.conname || ' on ' || con.conrelid::regclass::text AS object
          FROM pg_catalog.pg_constraint AS con
          JOIN scopedb_audit.service_tables AS s
            ON scopedb_audit.relation_named(s.relation) IN (con.conrelid, con.confrelid)
         WHERE con.contype = 'f' AND rel IN (con.conrelid, con.confrelid) AND s.relation <> rel::text
    ), dropped AS (
        DELETE FROM scopedb_audit.service_table_facts AS f
         USING linked AS l
         WHERE f.relation = l.relation AND f.kind = 'constraint' AND f.object = l.object
    )
    INSERT INTO scopedb_audit.service_table_facts (relation, kind, object, fact)
    SELECT l.relation, f.kind, f.object, f.fact
      FROM linked AS l,
           scopedb_audit.protection_facts(scopedb_audit.relation_named(l.relation)::regclass) AS f
     WHERE f.kind = 'constraint' AND f.object = l.object
    ON CONFLICT ON CONSTRAINT service_table_facts_pkey DO UPDATE SET fact = EXCLUDED.fact;
    RETURN rel;
END
$$;
COMMENT ON FUNCTION scopedb.protect_table(text, name, name, name, name, boolean) IS
    'Protect a service''s table with the scope (RLS forced, the gate and restrictive policies, least privilege) '
    'and record it for the audit. Idempotent; undo with scopedb.unprotect_table.';

-- The undo: the policies protect_table made, the row-level security flags, every privilege of scopedb_app on the
-- table and its sequences, and the record. The app can no longer reach the table (an unprotected table it could
-- reach would be an E024 error). Schema USAGE stays: other tables of the schema may need it. A table that no
-- longer exists (dropped or renamed) loses only its record. Returns whether there was a record.
CREATE FUNCTION scopedb.unprotect_table(target text) RETURNS boolean
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    rel regclass := pg_catalog.to_regclass(target);
    seq regclass;
    known boolean;
BEGIN
    IF rel IS NOT NULL THEN
        PERFORM scopedb_private.drop_protection_policies(rel);
        EXECUTE pg_catalog.format('ALTER TABLE %s NO FORCE ROW LEVEL SECURITY, DISABLE ROW LEVEL SECURITY', rel);
        EXECUTE pg_catalog.format('REVOKE ALL ON %s FROM PUBLIC, scopedb_app', rel);
        FOR seq IN SELECT scopedb_private.owned_sequences(rel) LOOP
            EXECUTE pg_catalog.format('REVOKE ALL ON SEQUENCE %s FROM PUBLIC, scopedb_app', seq);
        END LOOP;
    END IF;
    DELETE FROM scopedb_audit.service_tables AS s
     WHERE s.relation IN (COALESCE(rel::text, ''), target);
    known := FOUND;
    RETURN known;
END
$$;
COMMENT ON FUNCTION scopedb.unprotect_table(text) IS
    'Undo scopedb.protect_table: its policies, the RLS flags, scopedb_app''s privileges, the audit''s record.';

-- The project of the entered scope when it has exactly one: the default of a protected table's project column
-- (scopedb.sqlalchemy's ProjectScoped mixin), so a service inserts without naming the project and cannot name
-- another. No scope, or a scope of several projects, is an error (SD008) rather than a guess.
CREATE FUNCTION scopedb.scope_project_id() RETURNS bigint
LANGUAGE plpgsql
STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ids bigint[] := scopedb.scope_project_ids();
BEGIN
    IF pg_catalog.cardinality(ids) = 1 THEN
        RETURN ids[1];
    END IF;
    RAISE EXCEPTION USING ERRCODE = 'SD008',
        MESSAGE = CASE WHEN pg_catalog.cardinality(ids) = 0
                       THEN 'no scope is entered, so the row has no project'
                       ELSE 'the scope has ' || pg_catalog.cardinality(ids) || ' projects: name the row''s project' END;
END
$$;
COMMENT ON FUNCTION scopedb.scope_project_id() IS
    'The one project of the entered scope (the default of protected tables'' project columns); SD008 otherwise.';

REVOKE ALL ON FUNCTION scopedb.protect_table(text, name, name, name, name, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION scopedb.unprotect_table(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION scopedb_private.drop_protection_policies(regclass) FROM PUBLIC;
REVOKE ALL ON FUNCTION scopedb_private.protection_policy_names(regclass) FROM PUBLIC;
REVOKE ALL ON FUNCTION scopedb_private.project_columns(regclass, smallint) FROM PUBLIC;
REVOKE ALL ON FUNCTION scopedb_private.owned_sequences(regclass) FROM PUBLIC;
REVOKE ALL ON FUNCTION scopedb.scope_project_id() FROM PUBLIC;
REVOKE ALL ON FUNCTION scopedb_audit.relation_named(text) FROM PUBLIC;
REVOKE ALL ON scopedb_audit.service_tables, scopedb_audit.service_table_facts FROM PUBLIC;
GRANT EXECUTE ON FUNCTION scopedb.scope_project_id() TO scopedb_app;

RESET ROLE;
