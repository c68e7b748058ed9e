"""A clean audit means no one has loosened what scopedb installed (issue 17).

An outside review applied 41 misconfigurations to cloned databases and read the audit as a login that is only
``scopedb_auditor``: 30 went unreported, and at least 21 of those let tenant A read or change B's rows. Each fault
below is one of theirs or one of the same kind; each is applied as the superuser to a fresh clone, and the audit is
then read the way an auditor reads it — ``Admin.audit()`` on a login whose only membership is ``scopedb_auditor`` —
and must name the object. A few faults carry a leak control, showing from A's legitimate scope that the fault
really opens B's rows: without it a finding would prove nothing about the fault's weight.

Role faults change cluster-wide roles, so each carries the statements that undo it.
"""

from __future__ import annotations

import re
import secrets
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import psycopg
import pytest
from psycopg import sql

from scopedb import Database, ResourceScope
from scopedb.admin import Finding
from scopedb.logins import PrivilegedLoginError
from scopedb.server import Server
from scopedb.testing import ScopedbTestServer
from tests.conftest import ServiceTable, Tenants

NAME = uuid.uuid4().hex[:8]  # suffix of the roles and objects faults create (roles are cluster-wide)
READS = "scope limits which fragments the app reads"


# The start of a DO block that creates a project (and so its partitions) and keeps its id in p.
# A new project with partitions of its own (a new project starts in the shared partitions).
PROJECT = (
    "DO $$ DECLARE p bigint; BEGIN INSERT INTO scopedb.projects (name) VALUES ('p_{n}') RETURNING id INTO p; "
    "PERFORM scopedb_private.create_project_storage(p); "
)


@dataclass(frozen=True)
class Fault:
    """One misconfiguration: superuser statements ({login}, {db}, {n} filled in), the finding codes that may report
    it, text the finding's object must contain, and the statements that undo cluster-wide changes."""

    name: str
    statements: tuple[str, ...]
    codes: tuple[str, ...]
    needle: str
    undo: tuple[str, ...] = field(default=())


# A service's own table, protected as a service's migration would protect it.
SERVICE = (
    "CREATE SCHEMA svc_{n}",
    "CREATE TABLE svc_{n}.tickets (project_id bigint NOT NULL REFERENCES scopedb.projects (id), id int, title text,"
    " PRIMARY KEY (project_id, id))",
    "SELECT scopedb.protect_table('svc_{n}.tickets', 'project_id')",
)
TICKET_READS = "scope limits which tickets the app reads"

FAULTS: list[Fault] = [
    # Policy predicates and roles: E002 sees only that a restrictive policy exists, E003 only a mention of the scope.
    Fault(
        "restrictive read policy rewritten",
        (f'ALTER POLICY "{READS}" ON scopedb.fragments USING (valid_to IS NULL)',),
        ("E020",),
        f'scopedb.fragments "{READS}"',
    ),
    Fault(
        "restrictive read policy replaced by a TO PUBLIC business rule",
        (
            f'DROP POLICY "{READS}" ON scopedb.fragments',
            "CREATE POLICY current_only ON scopedb.fragments AS RESTRICTIVE FOR SELECT USING (valid_to IS NULL)",
        ),
        ("E020",),
        "current_only",
    ),
    Fault(
        "update policy WITH CHECK (true)",
        ('ALTER POLICY "scope limits which fragments the app changes" ON scopedb.fragments WITH CHECK (true)',),
        ("E020",),
        "the app changes",
    ),
    Fault(
        "permissive policy OR true that mentions the scope",
        (
            "CREATE POLICY also ON scopedb.fragments AS PERMISSIVE FOR SELECT TO scopedb_app "
            "USING (project_id = ANY ((SELECT scopedb.scope_project_ids())::bigint[]) OR true)",
        ),
        ("E020",),
        '"also"',
    ),
    Fault(
        "restrictive policy moved to another role",
        (f'ALTER POLICY "{READS}" ON scopedb.fragments TO scopedb_auditor',),
        ("E020", "E002"),
        "scopedb.fragments",
    ),
    Fault(
        "restrictive policy turned into a no-op on notes",
        ('ALTER POLICY "scope limits which notes the app reads" ON scopedb.notes USING (true)',),
        ("E020",),
        "scopedb.notes",
    ),
    # Security functions replaced or loosened.
    Fault(
        "scope_project_ids returns every id",
        (
            "CREATE OR REPLACE FUNCTION scopedb.scope_project_ids() RETURNS bigint[] LANGUAGE plpgsql STABLE "
            "SECURITY DEFINER SET search_path = pg_catalog, pg_temp "
            "AS $$ BEGIN RETURN ARRAY(SELECT pg_catalog.generate_series(1, 1000))::bigint[]; END $$",
        ),
        ("E020",),
        "scopedb.scope_project_ids()",
    ),
    Fault(
        "scope_whole_project_ids returns every id",
        (
            "CREATE OR REPLACE FUNCTION scopedb.scope_whole_project_ids(at_present boolean) RETURNS bigint[] "
            "LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp "
            "AS $$ BEGIN RETURN ARRAY(SELECT pg_catalog.generate_series(1, 1000))::bigint[]; END $$",
        ),
        ("E020",),
        "scopedb.scope_whole_project_ids(boolean)",
    ),
    Fault(
        "scope_terms admits every project",
        (
            "CREATE OR REPLACE FUNCTION scopedb.scope_terms() RETURNS scopedb.scope_terms LANGUAGE plpgsql STABLE "
            "SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$ BEGIN RETURN ROW(ARRAY(SELECT "
            "pg_catalog.generate_series(1, 1000))::bigint[], pg_catalog.now(), NULL, false, NULL, NULL, NULL, "
            "NULL)::scopedb.scope_terms; END $$",
        ),
        ("E020",),
        "scopedb.scope_terms()",
    ),
    Fault(
        # Revision 0028: the read policies of fragments judge a row of another project through this function.
        "terms_admit_fragment admits every row",
        (
            "CREATE OR REPLACE FUNCTION scopedb.terms_admit_fragment(t scopedb.scope_terms, project_id bigint, "
            "valid_from timestamptz, valid_to timestamptz, resource_id text, path text, fqn text) RETURNS boolean "
            "LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$ BEGIN RETURN true; END $$",
        ),
        ("E020",),
        "scopedb.terms_admit_fragment(",
    ),
    Fault(
        "check_token without the signature comparison",
        ("-- check_token: see _weaken_check_token",),
        ("E020",),
        "check_token",
    ),
    Fault(
        "an invoker accessor made SECURITY DEFINER",
        ("ALTER FUNCTION scopedb.role_hazards(name) SECURITY DEFINER",),
        ("E020",),
        "role_hazards",
    ),
    Fault(
        "owner-run search loses its pinned settings",
        ("ALTER FUNCTION scopedb.text_candidates(tsquery, integer) RESET ALL",),
        ("E020", "E005", "E018"),
        "text_candidates",
    ),
    Fault(
        "EXECUTE on the private signer granted to the app",
        (
            "GRANT USAGE ON SCHEMA scopedb_private TO scopedb_app",
            "GRANT EXECUTE ON FUNCTION scopedb_private.sign_claims(jsonb) TO scopedb_app",
        ),
        ("E020",),
        "sign_claims",
    ),
    Fault(
        "a LEAKPROOF user function that logs its argument",
        (
            "CREATE FUNCTION public.peek_{n}(text) RETURNS boolean LANGUAGE plpgsql LEAKPROOF "
            "AS $$ BEGIN RAISE NOTICE '%', $1; RETURN true; END $$",
        ),
        ("E021",),
        "peek_",
    ),
    Fault(
        "SECURITY DEFINER function elsewhere, owned by a superuser, returning fragments",
        (
            "CREATE FUNCTION public.dump_{n}() RETURNS SETOF scopedb.fragments LANGUAGE sql SECURITY DEFINER "
            "SET search_path = pg_catalog AS $$ SELECT * FROM scopedb.fragments $$",
            "GRANT EXECUTE ON FUNCTION public.dump_{n}() TO scopedb_app",
        ),
        ("E022",),
        "dump_",
    ),
    Fault(
        "SECURITY DEFINER function elsewhere, owned by scopedb_owner",
        (
            "CREATE FUNCTION public.owned_{n}() RETURNS bigint LANGUAGE sql SECURITY DEFINER "
            "SET search_path = pg_catalog AS $$ SELECT count(*) FROM scopedb.fragments $$",
            "ALTER FUNCTION public.owned_{n}() OWNER TO scopedb_owner",
        ),
        ("E022",),
        "owned_",
    ),
    Fault(
        "SECURITY DEFINER function elsewhere, owned by an ordinary role",
        (
            "CREATE FUNCTION public.plain_{n}() RETURNS integer LANGUAGE sql SECURITY DEFINER "
            "SET search_path = pg_catalog AS $$ SELECT 1 $$",
            "ALTER FUNCTION public.plain_{n}() OWNER TO scopedb_auditor",
        ),
        ("W022",),
        "plain_",
    ),
    Fault(
        "a function added to the data schema",
        ("CREATE FUNCTION scopedb.extra_{n}() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$",),
        ("E020",),
        "extra_",
    ),
    # The role graph, followed all the way (these change cluster-wide roles and undo it).
    Fault(
        "scopedb_app BYPASSRLS",
        ("ALTER ROLE scopedb_app BYPASSRLS",),
        ("E009",),
        "role scopedb_app",
        undo=("ALTER ROLE scopedb_app NOBYPASSRLS",),
    ),
    Fault(
        "scopedb_owner granted to scopedb_app",
        ("GRANT scopedb_owner TO scopedb_app",),
        ("E009",),
        "role scopedb_app",
        undo=("REVOKE scopedb_owner FROM scopedb_app",),
    ),
    Fault(
        "scopedb_owner granted to the login",
        ('GRANT scopedb_owner TO "{login}"',),
        ("E009",),
        "role {login}",
        undo=('REVOKE scopedb_owner FROM "{login}"',),
    ),
    Fault(
        "pg_read_all_data granted to scopedb_app",
        ("GRANT pg_read_all_data TO scopedb_app",),
        ("E009",),
        "role scopedb_app",
        undo=("REVOKE pg_read_all_data FROM scopedb_app",),
    ),
    Fault(
        "pg_write_all_data granted to the login through a group",
        ("CREATE ROLE writers_{n} NOLOGIN", "GRANT pg_write_all_data TO writers_{n}", 'GRANT writers_{n} TO "{login}"'),
        ("E009",),
        "role {login}",
        undo=("DROP ROLE IF EXISTS writers_{n}",),
    ),
    Fault(
        "a BYPASSRLS login that reaches scopedb_app through a group",
        (
            "CREATE ROLE group_{n} NOLOGIN",
            "GRANT scopedb_app TO group_{n}",
            "CREATE ROLE login_{n} LOGIN BYPASSRLS IN ROLE group_{n}",
        ),
        ("E009",),
        "login_",
        undo=("DROP ROLE IF EXISTS login_{n}", "DROP ROLE IF EXISTS group_{n}"),
    ),
    Fault(
        "a superuser member of scopedb_app",
        ("CREATE ROLE super_{n} SUPERUSER IN ROLE scopedb_app",),
        ("E009",),
        "super_",
        undo=("DROP ROLE IF EXISTS super_{n}",),
    ),
    Fault(
        "the login with REPLICATION",
        ('ALTER ROLE "{login}" REPLICATION',),
        ("E009",),
        "role {login}",
        undo=('ALTER ROLE "{login}" NOREPLICATION',),
    ),
    Fault(
        "the login with CREATEROLE",
        ('ALTER ROLE "{login}" CREATEROLE',),
        ("E009",),
        "role {login}",
        undo=('ALTER ROLE "{login}" NOCREATEROLE',),
    ),
    Fault(
        "the login reads every session's statements",
        ('GRANT pg_monitor TO "{login}"',),
        ("E009",),
        "role {login}",
        undo=('REVOKE pg_monitor FROM "{login}"',),
    ),
    Fault(
        "the login owns the database",
        ('ALTER DATABASE "{db}" OWNER TO "{login}"',),
        ("E009",),
        "role {login}",
        undo=('ALTER DATABASE "{db}" OWNER TO CURRENT_USER',),
    ),
    Fault(
        "settings stored for every session in the database",
        ('ALTER DATABASE "{db}" SET gin_fuzzy_search_limit = 20',),
        ("W017",),
        "database {db}",
    ),
    Fault(
        "settings stored for every role everywhere",
        ("ALTER ROLE ALL SET gin_fuzzy_search_limit = 20",),
        ("W017",),
        "database {db}",
        undo=("ALTER ROLE ALL RESET gin_fuzzy_search_limit",),
    ),
    Fault(
        "a foreign server the app may use",
        (
            "CREATE FOREIGN DATA WRAPPER fdw_{n}",
            "CREATE SERVER srv_{n} FOREIGN DATA WRAPPER fdw_{n}",
            "GRANT USAGE ON FOREIGN SERVER srv_{n} TO scopedb_app",
            "CREATE USER MAPPING FOR scopedb_app SERVER srv_{n} OPTIONS (user 'postgres')",
        ),
        ("W028",),
        "srv_",
    ),
    # Grants to the app compared with what it should have.
    Fault(
        "the signing keys readable by the app",
        (
            "GRANT USAGE ON SCHEMA scopedb_private TO scopedb_app",
            "GRANT SELECT ON scopedb_private.signing_keys TO scopedb_app",
        ),
        ("E020",),
        "scopedb_private.signing_keys",
    ),
    Fault(
        "TRUNCATE on a data table",
        ("GRANT TRUNCATE ON scopedb.resource_links TO scopedb_app",),
        ("E020",),
        "table scopedb.resource_links to scopedb_app",
    ),
    Fault(
        "DELETE on a data table",
        ("GRANT DELETE ON scopedb.graph_nodes TO scopedb_app",),
        ("E020",),
        "table scopedb.graph_nodes to scopedb_app",
    ),
    Fault(
        "a column grant on secret note bodies",
        ("GRANT SELECT (content) ON scopedb.notes TO scopedb_app",),
        ("E020",),
        "scopedb.notes.content",
    ),
    Fault(
        "UPDATE of project_id",
        ("GRANT UPDATE (project_id) ON scopedb.fragments TO scopedb_app",),
        ("E020",),
        "scopedb.fragments.project_id",
    ),
    Fault(
        "default privileges that grant the next table",
        ("ALTER DEFAULT PRIVILEGES FOR ROLE scopedb_owner IN SCHEMA scopedb GRANT SELECT ON TABLES TO scopedb_app",),
        ("E020",),
        "default_acl scopedb_owner scopedb",
    ),
    Fault(
        "default privileges of another role for PUBLIC",
        ("ALTER DEFAULT PRIVILEGES GRANT SELECT ON TABLES TO PUBLIC",),
        ("E020",),
        "to public",
    ),
    Fault(
        "CREATE on the data schema",
        ("GRANT CREATE ON SCHEMA scopedb TO scopedb_app",),
        ("E011", "E020"),
        "schema scopedb",
    ),
    Fault(
        "a table's owner changed",
        ("ALTER TABLE scopedb.resources OWNER TO scopedb_auditor",),
        ("E020",),
        "table scopedb.resources",
    ),
    Fault(
        "a schema's owner changed",
        ("ALTER SCHEMA scopedb_private OWNER TO scopedb_auditor",),
        ("E020",),
        "schema scopedb_private",
    ),
    # Data copied out of the protected tables.
    Fault(
        "a materialized view the app can read",
        (
            "CREATE MATERIALIZED VIEW public.mv_{n} AS SELECT * FROM scopedb.fragments",
            "GRANT SELECT ON public.mv_{n} TO scopedb_app",
        ),
        ("E023",),
        "mv_",
    ),
    Fault(
        "a materialized view of the signing keys, not granted",
        ("CREATE MATERIALIZED VIEW public.keys_{n} AS SELECT key_id FROM scopedb_private.signing_keys",),
        ("W023",),
        "keys_",
    ),
    Fault(
        "a view over the private full-text index",
        (
            "CREATE VIEW public.fts_{n} AS SELECT * FROM scopedb_private.fragment_search",
            "GRANT SELECT ON public.fts_{n} TO scopedb_app",
        ),
        ("E007",),
        "fts_",
    ),
    Fault(
        "a view with security_invoker spelled 'off'",
        ("CREATE VIEW public.off_{n} WITH (security_invoker = off) AS SELECT id FROM scopedb.fragments",),
        ("E007",),
        "off_",
    ),
    Fault(
        "an owner-run view over an invoker view over fragments",
        (
            "CREATE VIEW public.inner_{n} WITH (security_invoker) AS SELECT * FROM scopedb.fragments",
            "CREATE VIEW public.outer_{n} AS SELECT * FROM public.inner_{n}",
        ),
        ("E007",),
        "outer_",
    ),
    Fault(
        "a materialized view over a view over notes",
        (
            "CREATE VIEW public.tags_{n} WITH (security_invoker) AS SELECT project_id, tags FROM scopedb.notes",
            "CREATE MATERIALIZED VIEW public.tagcopy_{n} AS SELECT * FROM public.tags_{n}",
            "GRANT SELECT ON public.tagcopy_{n} TO PUBLIC",
        ),
        ("E023",),
        "tagcopy_",
    ),
    Fault(
        "an export table in another schema",
        (
            "CREATE SCHEMA export_{n}",
            "CREATE TABLE export_{n}.fragments AS SELECT * FROM scopedb.fragments",
            "GRANT USAGE ON SCHEMA export_{n} TO scopedb_app",
            "GRANT SELECT ON export_{n}.fragments TO scopedb_app",
        ),
        ("E024",),
        "export_",
    ),
    Fault(
        "a SECURITY DEFINER trigger mirroring rows",
        (
            "CREATE TABLE public.mirror_{n} (LIKE scopedb.fragments)",
            "CREATE FUNCTION public.mirror_{n}() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER "
            "SET search_path = pg_catalog AS $$ BEGIN INSERT INTO public.mirror_{n} SELECT NEW.*; RETURN NEW; END $$",
            "CREATE TRIGGER mirror_{n} AFTER INSERT ON scopedb.fragments FOR EACH ROW "
            "EXECUTE FUNCTION public.mirror_{n}()",
        ),
        ("E020",),
        "trigger scopedb.fragments mirror_",
    ),
    Fault(
        "a rule copying inserted rows out",
        (
            "CREATE TABLE public.copies_{n} (project_id bigint, content text)",
            "CREATE RULE copy_{n} AS ON INSERT TO scopedb.fragments "
            "DO ALSO INSERT INTO public.copies_{n} VALUES (NEW.project_id, NEW.content)",
        ),
        ("E020",),
        "rule scopedb.fragments copy_",
    ),
    Fault(
        "a publication of one table",
        ("CREATE PUBLICATION pub_{n} FOR TABLE scopedb.notes",),
        ("E020",),
        "publication pub_",
    ),
    Fault(
        "a publication of every table", ("CREATE PUBLICATION all_{n} FOR ALL TABLES",), ("E020",), "publication all_"
    ),
    Fault(
        "a publication of the private schema",
        ("CREATE PUBLICATION schema_{n} FOR TABLES IN SCHEMA scopedb_private",),
        ("E020",),
        "publication schema_",
    ),
    # Unique indexes, constraints, row-level security itself.
    Fault(
        "a unique index without project_id",
        ("CREATE UNIQUE INDEX global_id_{n} ON scopedb.graph_nodes (id)",),
        ("E013",),
        "global_id_",
    ),
    Fault(
        "a partial unique index without project_id",
        ("CREATE UNIQUE INDEX alias_{n} ON scopedb.resources (alias) WHERE alias IS NOT NULL",),
        ("E013",),
        "alias_",
    ),
    Fault(
        "a foreign key back to ON DELETE CASCADE",
        (
            "ALTER TABLE scopedb.fragments DROP CONSTRAINT fragments_resource_fkey",
            "ALTER TABLE scopedb.fragments ADD CONSTRAINT fragments_resource_fkey "
            "FOREIGN KEY (project_id, resource_id) REFERENCES scopedb.resources (project_id, id) ON DELETE CASCADE",
        ),
        ("E020",),
        "fragments_resource_fkey",
    ),
    Fault(
        "row-level security not forced",
        ("ALTER TABLE scopedb.fragments NO FORCE ROW LEVEL SECURITY",),
        ("E001",),
        "scopedb.fragments",
    ),
    Fault(
        "a table added to the data schema",
        ("CREATE TABLE scopedb.extra_{n} (project_id bigint)",),
        ("E020", "E001"),
        "extra_",
    ),
    # Per-project storage, judged by rule (E026) or against the manifest (E020).
    Fault(
        "one partition for two projects",
        (
            "INSERT INTO scopedb.projects (id, name) OVERRIDING SYSTEM VALUE "
            "VALUES (9001, 'two_a_{n}'), (9002, 'two_b_{n}')",
            "CREATE TABLE scopedb_parts.pair_{n} (LIKE scopedb.fragments INCLUDING DEFAULTS INCLUDING CONSTRAINTS "
            "INCLUDING GENERATED)",
            "ALTER TABLE scopedb_parts.pair_{n} ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY",
            "ALTER TABLE scopedb.fragments ATTACH PARTITION scopedb_parts.pair_{n} FOR VALUES IN (9001, 9002)",
        ),
        ("E026",),
        "pair_",
    ),
    Fault(
        "an HNSW index on the partition the small projects share",
        ("CREATE INDEX shared_vectors_{n} ON scopedb_parts.fragments_shared USING hnsw (embedding vector_cosine_ops)",),
        ("E026",),
        "shared_vectors_",
    ),
    Fault(
        "a GIN index on the small projects' shared full-text partition",
        ("CREATE INDEX shared_words_{n} ON scopedb_parts.fragment_search_shared USING gin (tsv)",),
        ("E026",),
        "shared_words_",
    ),
    Fault(
        "the shared partition without forced row-level security",
        ("ALTER TABLE scopedb_parts.fragments_shared NO FORCE ROW LEVEL SECURITY",),
        ("E026",),
        "scopedb_parts.fragments_shared",
    ),
    Fault(
        "the shared partition replaced by one under another name",
        (
            "ALTER TABLE scopedb.fragments DETACH PARTITION scopedb_parts.fragments_shared",
            "ALTER TABLE scopedb_parts.fragments_shared RENAME TO fragments_{n}",
            "ALTER TABLE scopedb.fragments ATTACH PARTITION scopedb_parts.fragments_{n} DEFAULT",
        ),
        ("E026",),
        "scopedb_parts.fragments_{n}",
    ),
    Fault(
        "a project's own partition named as the shared one",
        (
            PROJECT + "EXECUTE format('ALTER TABLE scopedb.fragments DETACH PARTITION scopedb_parts.fragments_shared');"
            " EXECUTE format('ALTER TABLE scopedb_parts.fragments_shared RENAME TO shared_old_{n}');"
            " EXECUTE format('ALTER TABLE scopedb_parts.fragments_%s RENAME TO fragments_shared', p); END $$",
        ),
        ("E026",),
        "fragments_shared",
    ),
    Fault(
        "an HNSW index on the partitioned table itself",
        ("CREATE INDEX all_vectors_{n} ON scopedb.fragments USING hnsw (embedding vector_cosine_ops)",),
        ("E020",),
        "all_vectors_",
    ),
    Fault(
        "a project's partition that is itself partitioned (its sub-partitions are never judged)",
        (
            PROJECT + "EXECUTE format('ALTER TABLE scopedb.fragments DETACH PARTITION scopedb_parts.fragments_%s', p);"
            " EXECUTE format('DROP TABLE scopedb_parts.fragments_%s', p);"
            " EXECUTE format('CREATE TABLE scopedb_parts.fragments_%s (LIKE scopedb.fragments INCLUDING DEFAULTS"
            " INCLUDING CONSTRAINTS INCLUDING GENERATED) PARTITION BY LIST (project_id)', p);"
            " EXECUTE format('ALTER TABLE scopedb_parts.fragments_%s ENABLE ROW LEVEL SECURITY,"
            " FORCE ROW LEVEL SECURITY', p);"
            " EXECUTE format('ALTER TABLE scopedb.fragments ATTACH PARTITION scopedb_parts.fragments_%s"
            " FOR VALUES IN (%s)', p, p); END $$",
        ),
        ("E026",),
        "scopedb_parts.fragments_",
    ),
    Fault(
        "a grant on a project's partition",
        (PROJECT + "EXECUTE format('GRANT SELECT ON scopedb_parts.fragments_%s TO scopedb_app', p); END $$",),
        ("E026",),
        "scopedb_parts.fragments_",
    ),
    Fault(
        "an index of its own on a project's partition",
        (PROJECT + "EXECUTE format('CREATE INDEX extra_{n} ON scopedb_parts.fragments_%s (content)', p); END $$",),
        ("E026",),
        "extra_",
    ),
    Fault(
        "a project's partition without forced row-level security",
        (
            PROJECT + "EXECUTE format('ALTER TABLE scopedb_parts.fragment_search_%s NO FORCE ROW LEVEL SECURITY', p); "
            "END $$",
        ),
        ("E026",),
        "scopedb_parts.fragment_search_",
    ),
    # Keys.
    Fault(
        "a replaced key that stays valid for a month",
        ("SELECT scopedb_private.rotate_signing_key(interval '30 days')",),
        ("W026",),
        "signing key",
    ),
    Fault(
        "a rotation period of five years",
        ("UPDATE scopedb_private.signing_keys SET rotation_period = interval '5 years'",),
        ("W027",),
        "signing key",
    ),
    Fault(
        "an old key retiring far in the future",
        (
            "UPDATE scopedb_private.signing_keys SET created_at = now() - interval '400 days', "
            "retired_at = now() + interval '10 years'",
        ),
        ("W015",),
        "signing key",
    ),
    # The environment and the audit itself.
    Fault(
        "pgvector reported older than 0.8",
        ("UPDATE pg_extension SET extversion = '0.7.4' WHERE extname = 'vector'",),
        ("E016",),
        "extension vector",
    ),
    Fault(
        "an audit function changed to hide faults",
        (
            "CREATE OR REPLACE FUNCTION scopedb_audit.pgvector_too_old(version text) RETURNS boolean LANGUAGE sql "
            "IMMUTABLE SET search_path = pg_catalog, pg_temp RETURN false",
        ),
        ("E025",),
        "scopedb_audit.pgvector_too_old",
    ),
    Fault(
        "the findings view redefined to show nothing",
        ("CREATE OR REPLACE VIEW scopedb_audit.findings AS SELECT * FROM scopedb_audit.check() WHERE false",),
        ("E025",),
        "scopedb_audit.findings",
    ),
    Fault(
        "a change hidden by editing the manifest to match",
        (
            'ALTER POLICY "scope limits which graph nodes the app reads" ON scopedb.graph_nodes USING (true)',
            "UPDATE scopedb_audit.manifest AS m SET fact = l.fact FROM scopedb_audit.installed_facts() AS l "
            "WHERE l.kind = m.kind AND l.object = m.object AND m.kind = 'policy'",
        ),
        ("E025",),
        "scopedb_audit.manifest",
    ),
    # A service's table protected with protect_table (issue 20): the audit holds it to what protect_table made.
    Fault(
        "protected table: FORCE dropped",
        (*SERVICE, "ALTER TABLE svc_{n}.tickets NO FORCE ROW LEVEL SECURITY"),
        ("E029",),
        "svc_{n}.tickets table row security",
    ),
    Fault(
        "protected table: read policy loosened",
        (*SERVICE, f'ALTER POLICY "{TICKET_READS}" ON svc_{{n}}.tickets USING (true)'),
        ("E029",),
        f"svc_{{n}}.tickets policy {TICKET_READS}",
    ),
    Fault(
        "protected table: insert policy dropped",
        (*SERVICE, 'DROP POLICY "scope limits which tickets the app creates" ON svc_{n}.tickets'),
        ("E029",),
        "svc_{n}.tickets policy scope limits which tickets the app creates",
    ),
    Fault(
        "protected table: a permissive policy added",
        (*SERVICE, "CREATE POLICY open_{n} ON svc_{n}.tickets FOR SELECT TO scopedb_app USING (true)"),
        ("E029",),
        "svc_{n}.tickets policy open_{n}",
    ),
    Fault(
        "protected table: TRUNCATE granted",
        (*SERVICE, "GRANT TRUNCATE ON svc_{n}.tickets TO scopedb_app"),
        ("E029", "E024"),
        "svc_{n}.tickets",
    ),
    Fault(
        "protected table: table-level UPDATE granted to PUBLIC (LOCK TABLE in any mode)",
        (*SERVICE, "GRANT UPDATE ON svc_{n}.tickets TO PUBLIC"),
        ("E029",),
        "svc_{n}.tickets grant table",
    ),
    Fault(
        "protected table: DELETE granted to a role the app belongs to",
        (
            *SERVICE,
            "CREATE ROLE grp_{n} NOLOGIN",
            "GRANT grp_{n} TO scopedb_app",
            "GRANT DELETE ON svc_{n}.tickets TO grp_{n}",
        ),
        ("E029",),
        "svc_{n}.tickets grant table",
        undo=("DROP OWNED BY grp_{n}", "DROP ROLE grp_{n}"),
    ),
    Fault(
        "protected table: a key unique across projects added",
        (*SERVICE, "CREATE UNIQUE INDEX title_{n} ON svc_{n}.tickets (title)"),
        ("E029",),
        "svc_{n}.tickets index",
    ),
    Fault(
        "protected table: a foreign key across projects added",
        (
            *SERVICE,
            "CREATE TABLE svc_{n}.notes (project_id bigint NOT NULL, ticket_project bigint, ticket int,"
            " PRIMARY KEY (project_id, ticket),"
            " FOREIGN KEY (ticket_project, ticket) REFERENCES svc_{n}.tickets (project_id, id) ON DELETE CASCADE)",
        ),
        ("E029",),
        "svc_{n}.tickets constraint",
    ),
    Fault("protected table dropped", (*SERVICE, "DROP TABLE svc_{n}.tickets"), ("W029",), "svc_{n}.tickets"),
    Fault(
        "a reachable table with hand-written policies",
        (
            "CREATE SCHEMA hand_{n}",
            "CREATE TABLE hand_{n}.t (project_id bigint NOT NULL)",
            "ALTER TABLE hand_{n}.t ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY",
            "CREATE POLICY mine ON hand_{n}.t TO scopedb_app USING (true)",
            "GRANT USAGE ON SCHEMA hand_{n} TO scopedb_app",
            "GRANT SELECT ON hand_{n}.t TO scopedb_app",
        ),
        ("W030",),
        "hand_{n}.t",
    ),
    Fault(
        "a column privilege on an open table",
        (
            "CREATE SCHEMA col_{n}",
            "CREATE TABLE col_{n}.t AS SELECT project_id, content FROM scopedb.fragments",
            "GRANT USAGE ON SCHEMA col_{n} TO scopedb_app",
            "GRANT SELECT (content) ON col_{n}.t TO scopedb_app",
        ),
        ("E024",),
        "col_{n}.t",
    ),
    Fault(
        "a grant to the application login itself (it reads after SET ROLE NONE)",
        (
            "CREATE SCHEMA login_{n}",
            "CREATE TABLE login_{n}.t (project_id bigint, secret text)",
            "GRANT USAGE ON SCHEMA login_{n} TO {login}",
            "GRANT SELECT ON login_{n}.t TO {login}",
        ),
        ("E024",),
        "login_{n}.t",
    ),
    Fault(
        "TRUNCATE on a table whose row-level security is forced",
        (
            "CREATE SCHEMA trunc_{n}",
            "CREATE TABLE trunc_{n}.t (project_id bigint NOT NULL)",
            "ALTER TABLE trunc_{n}.t ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY",
            "GRANT USAGE ON SCHEMA trunc_{n} TO scopedb_app",
            "GRANT TRUNCATE ON trunc_{n}.t TO scopedb_app",
        ),
        ("E024",),
        "trunc_{n}.t",
    ),
    Fault(
        "an owner-rights view over an open table",
        (
            "CREATE SCHEMA view_{n}",
            "CREATE TABLE view_{n}.t (project_id bigint, secret text)",
            "CREATE VIEW view_{n}.v AS SELECT * FROM view_{n}.t",
            "GRANT USAGE ON SCHEMA view_{n} TO scopedb_app",
            "GRANT SELECT ON view_{n}.v TO scopedb_app",
        ),
        ("E024",),
        "view view_{n}.v",
    ),
    Fault(
        "an owner-rights view over a protected service table",
        (
            *SERVICE,
            "CREATE VIEW svc_{n}.all_tickets AS SELECT * FROM svc_{n}.tickets",
            "GRANT SELECT ON svc_{n}.all_tickets TO scopedb_app",
        ),
        ("E007",),
        "svc_{n}.all_tickets",
    ),
]


@pytest.fixture(scope="module")
def auditor(scopedb_server: ScopedbTestServer) -> Iterator[tuple[str, str]]:
    """A login whose only membership is scopedb_auditor (name, password), for every clone of this module."""
    name, password = f"auditor_{NAME}", secrets.token_urlsafe(16)
    with psycopg.connect(scopedb_server.admin_dsn("postgres"), autocommit=True) as conn:
        conn.execute(
            sql.SQL("CREATE ROLE {} LOGIN PASSWORD {} IN ROLE scopedb_auditor").format(
                sql.Identifier(name), sql.Literal(password)
            )
        )
    yield name, password
    with psycopg.connect(scopedb_server.admin_dsn("postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(name)))


def _audit_as(db: Database, auditor: tuple[str, str]) -> list[Finding]:
    dsn = psycopg.conninfo.make_conninfo(db.dsn, user=auditor[0], password=auditor[1])
    reader = Database(Server(dsn=dsn, backend="dsn"))
    try:
        return reader.admin().audit()
    finally:
        reader.close()


def _login(db: Database) -> str:
    return str(psycopg.conninfo.conninfo_to_dict(db.app_dsn)["user"])


def _dbname(db: Database) -> str:
    return str(psycopg.conninfo.conninfo_to_dict(db.dsn)["dbname"])


def _fill(text: str, db: Database) -> str:
    return text.replace("{login}", _login(db)).replace("{db}", _dbname(db)).replace("{n}", NAME)


def _weaken_check_token(conn: psycopg.Connection[tuple[object, ...]]) -> None:
    """Replace check_token with itself minus the HMAC comparison (any key id and any signature then pass)."""
    row = conn.execute("SELECT pg_get_functiondef('scopedb_private.check_token(text)'::regprocedure)").fetchone()
    assert row is not None
    weakened, count = re.subn(r"IF expected <> [^\n]* THEN", "IF false THEN", str(row[0]))
    assert count == 1, "check_token no longer has the comparison this fault removes"
    conn.execute(weakened.encode())


def _apply(db: Database, statements: tuple[str, ...]) -> None:
    with psycopg.connect(db.dsn, autocommit=True) as conn:
        for statement in statements:
            if statement.startswith("-- check_token"):
                _weaken_check_token(conn)
            else:
                conn.execute(_fill(statement, db).encode())


def _reports(findings: list[Finding], fault: Fault, db: Database) -> list[Finding]:
    needle = _fill(fault.needle, db)
    return [f for f in findings if f.code in fault.codes and needle in f.object]


@pytest.mark.parametrize("fault", FAULTS, ids=[f.name for f in FAULTS])
def test_the_auditor_sees_each_fault(scopedb_db: Database, auditor: tuple[str, str], fault: Fault) -> None:
    before = _audit_as(scopedb_db, auditor)
    assert [f for f in before if f.severity == "error"] == [], before
    assert _reports(before, fault, scopedb_db) == []
    try:
        _apply(scopedb_db, fault.statements)
        after = _audit_as(scopedb_db, auditor)
    finally:
        _apply(scopedb_db, fault.undo)
    hits = _reports(after, fault, scopedb_db)
    assert hits, [(f.code, f.object) for f in after]
    for hit in hits:
        assert hit.severity == ("error" if hit.code.startswith("E") else "warning")
        assert hit.fix
        assert hit.message


def test_every_kind_of_fact_in_the_manifest_is_exercised() -> None:
    """The catalogue above covers every kind of fact the manifest records (a new kind needs a fault here)."""
    covered = " ".join(f.needle for f in FAULTS) + " " + " ".join(" ".join(f.statements) for f in FAULTS)
    for word in ("POLICY", "FUNCTION", "TRIGGER", "RULE", "INDEX", "CONSTRAINT", "GRANT", "DEFAULT PRIVILEGES",
                 "PUBLICATION", "OWNER", "SCHEMA"):  # fmt: skip
        assert word in covered.upper(), word


# Leak controls: each fault opens B's rows to A's legitimate scope, so the findings above are about real leaks.

B_ROWS = "SELECT count(*) FROM scopedb.fragments WHERE project_id = %s"


def _b_rows_seen_by_a(tenants: Tenants) -> int:
    with tenants.db.scoped(ResourceScope(project_names={"acme/api"})) as s:
        return int(s.execute(B_ROWS, (tenants.b.id,)).scalar())


LEAKS: list[tuple[str, Callable[[Tenants], int]]] = [
    ("restrictive read policy rewritten", _b_rows_seen_by_a),
    # The read policies ask scope_whole_project_ids first (revision 0019): that is the accessor whose fault opens
    # B's rows to a read; a faulty scope_project_ids now loosens the write policies only (the audit catches both).
    ("scope_whole_project_ids returns every id", _b_rows_seen_by_a),
    ("scope_terms admits every project", _b_rows_seen_by_a),
    ("terms_admit_fragment admits every row", _b_rows_seen_by_a),
    ("restrictive read policy replaced by a TO PUBLIC business rule", _b_rows_seen_by_a),
]


@pytest.mark.parametrize(("name", "observe"), LEAKS, ids=[n for n, _ in LEAKS])
def test_the_fault_opens_b_s_rows_to_a(tenants: Tenants, name: str, observe: Callable[[Tenants], int]) -> None:
    assert observe(tenants) == 0
    fault = next(f for f in FAULTS if f.name == name)
    _apply(tenants.db, fault.statements)
    assert observe(tenants) == tenants.count("fragments", tenants.b) > 0


def test_a_materialized_view_and_an_export_table_hand_a_b_s_rows(tenants: Tenants) -> None:
    for name in ("a materialized view the app can read", "an export table in another schema"):
        _apply(tenants.db, next(f for f in FAULTS if f.name == name).statements)
    with tenants.db.scoped(ResourceScope(project_names={"acme/api"})) as s:
        for relation in (f"public.mv_{NAME}", f"export_{NAME}.fragments"):
            query = sql.SQL("SELECT count(*) FROM {} WHERE project_id = %s").format(
                sql.Identifier(*relation.split("."))
            )
            assert int(s.execute(query.as_string(), (tenants.b.id,)).scalar()) > 0, relation


def test_truncate_empties_b_s_table_from_a_s_scope(tenants: Tenants) -> None:
    _apply(tenants.db, next(f for f in FAULTS if f.name == "TRUNCATE on a data table").statements)
    assert tenants.count("resource_links", tenants.b) > 0
    with tenants.db.scoped(ResourceScope(project_names={"acme/api"})) as s:
        s.execute("TRUNCATE scopedb.resource_links")  # row-level security does not apply to TRUNCATE
    assert tenants.count("resource_links", tenants.b) == 0


def test_a_bypassrls_app_role_leaks_and_scopedb_refuses_to_run_on_it(tenants: Tenants) -> None:
    """The same judgement as E009, at open time: a new pool refuses the login, and the raw login shows why."""
    fault = next(f for f in FAULTS if f.name == "scopedb_app BYPASSRLS")
    fresh = Database(Server(dsn=tenants.db.dsn, backend=tenants.db.server.backend), app_dsn=tenants.db.app_dsn)
    try:
        _apply(tenants.db, fault.statements)
        with psycopg.connect(tenants.db.app_dsn, autocommit=True) as raw:
            raw.execute("SET ROLE scopedb_app")
            assert int(raw.execute(B_ROWS, (tenants.b.id,)).fetchone()[0]) > 0  # type: ignore[index]
        with (
            pytest.raises(PrivilegedLoginError, match="BYPASSRLS"),
            fresh.scoped(ResourceScope(project_names={"acme/api"})),
        ):
            pass
    finally:
        _apply(tenants.db, fault.undo)
        fresh.close()


def test_the_cli_run_by_an_auditor_exits_1_on_a_tampered_audit(scopedb_db: Database, auditor: tuple[str, str]) -> None:
    dsn = psycopg.conninfo.make_conninfo(scopedb_db.dsn, user=auditor[0], password=auditor[1])
    run = [sys.executable, "-m", "scopedb.cli", "--dsn", dsn, "audit"]
    clean = subprocess.run(run, capture_output=True, text=True, timeout=120, check=False)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    _apply(scopedb_db, next(f for f in FAULTS if f.name == "the findings view redefined to show nothing").statements)
    tampered = subprocess.run(run, capture_output=True, text=True, timeout=120, check=False)
    assert tampered.returncode == 1
    assert "E025" in tampered.stdout
    assert "scopedb_audit.findings" in tampered.stdout


def test_a_loosened_protected_table_policy_opens_b_s_tickets_and_the_audit_names_it(
    service_table: ServiceTable,
) -> None:
    tenants = service_table.tenants
    query = "SELECT count(*) FROM support.tickets WHERE project_id = %s"
    with tenants.db.scoped(ResourceScope(project_names={"acme/api"})) as s:
        assert s.execute(query, (tenants.b.id,)).scalar() == 0
    _apply(tenants.db, (f'ALTER POLICY "{TICKET_READS}" ON support.tickets USING (true)',))
    with tenants.db.scoped(ResourceScope(project_names={"acme/api"})) as s:
        assert s.execute(query, (tenants.b.id,)).scalar() == 3
    assert any(f.code == "E029" and TICKET_READS in f.object for f in tenants.db.admin().audit())


def test_a_fix_the_audit_prints_is_one_statement_whatever_the_table_is_called(tenants: Tenants) -> None:
    """A table named to smuggle SQL into the fix an administrator pastes: the fix quotes it as a literal."""
    name = "x', 'project_id'); DROP SCHEMA hand_q CASCADE; --"
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA hand_q")
        conn.execute(sql.SQL("CREATE TABLE hand_q.{} (project_id bigint NOT NULL)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("ALTER TABLE hand_q.{} ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY").format(
            sql.Identifier(name)))  # fmt: skip
        conn.execute("GRANT USAGE ON SCHEMA hand_q TO scopedb_app")
        conn.execute(sql.SQL("GRANT SELECT ON hand_q.{} TO scopedb_app").format(sql.Identifier(name)))
    (finding,) = [f for f in tenants.db.admin().audit() if f.code == "W030"]
    with psycopg.connect(tenants.db.dsn, autocommit=True) as conn:
        conn.execute(finding.fix.encode())  # as an administrator would
        assert conn.execute("SELECT to_regnamespace('hand_q') IS NOT NULL").fetchone() == (True,)
    assert [f for f in tenants.db.admin().audit() if f.code in ("W030", "E029", "E024")] == []
