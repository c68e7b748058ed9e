-- Revision 0020: protect_table makes the policies of a service's table ask the two questions of scopedb's own
-- tables, and every table it protected before is protected again, so that its policies (and the audit's record of
-- them) are the new ones. Protecting takes the table's owner: a table the migration's role cannot act for keeps its
-- policies, which admit what they did, and the migration says so (a WARNING naming the call to run as the owner).

SET ROLE scopedb_owner;

CREATE OR REPLACE FUNCTION scopedb.protect_table(
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

RESET ROLE;

DO $$
DECLARE
    s record;
    rel regclass;
BEGIN
    FOR s IN SELECT * FROM scopedb_audit.service_tables ORDER BY relation LOOP
        rel := pg_catalog.to_regclass(s.relation);
        CONTINUE WHEN rel IS NULL;  -- gone: the audit reports it (W029)
        BEGIN
            IF NOT pg_catalog.pg_has_role((SELECT c.relowner FROM pg_catalog.pg_class AS c WHERE c.oid = rel),
                                          'USAGE') THEN
                RAISE EXCEPTION 'the migration''s role does not own it' USING ERRCODE = 'insufficient_privilege';
            END IF;
            PERFORM scopedb.protect_table(s.relation, s.project_column, s.resource_column, s.path_column,
                                          s.name_column, s.allow_delete);
        EXCEPTION WHEN insufficient_privilege OR SQLSTATE 'SD007' THEN
            -- Not protected again (not its owner, or the table changed so that protect_table now refuses it): it
            -- keeps the policies it had, which admit what they did, and the audit still compares it with them.
            RAISE WARNING 'scopedb: % keeps the policies of an earlier revision: %', s.relation, SQLERRM
                USING HINT = pg_catalog.format('as its owner, run SELECT scopedb.protect_table(%L, %L, %L, %L, %L, %L)',
                                               s.relation, s.project_column, s.resource_column, s.path_column,
                                               s.name_column, s.allow_delete);
        END;
    END LOOP;
END
$$;
