-- scopedb: tables and indexes.
--
-- Runs as scopedb_owner, so the owner owns every object created here. `:embedding_dim` is substituted at
-- migration time (psql: `\set embedding_dim 384`); it fixes the width of fragments.embedding.
--
-- Rules every data table keeps (the scaling and audit checks rely on them):
--   * a NOT NULL `project_id bigint` column that leads the primary key, so the scope predicate
--     `project_id = ANY(...)` is an index condition and the table can be distributed by project on Citus;
--   * every unique key includes project_id, so a unique violation can never reveal that another project holds
--     the same key (the unique-check covert channel);
--   * foreign keys between data tables include project_id, so a row can only point inside its own project.
-- `projects` itself is the exception: it is the directory of projects (a reference table on Citus).
--
-- Fragments, and the owner-only full-text copy of them, are partitioned by project: a new project's rows go to a
-- partition of each that the small projects share and that has no search index, and a project that has grown past
-- a threshold gets partitions of its own, with its own HNSW and GIN index (the maintenance step, scopedb storage;
-- scopedb_private.create_project_storage, schema scopedb_parts). No search structure holds more than one project's
-- rows, so nothing a query consults before the scope filter can answer questions about another project: one HNSW
-- index shared by every tenant did (a caller's small ef_search returned fewer of A's rows near vectors where B held
-- many).

SET ROLE scopedb_owner;

COMMENT ON SCHEMA scopedb IS
    'scopedb data schema: every table has forced row-level security keyed on the signed scope of the transaction.';
COMMENT ON SCHEMA scopedb_private IS
    'scopedb internals (signing keys, token verification). Only scopedb_owner may use it.';
COMMENT ON SCHEMA scopedb_parts IS
    'The partitions of scopedb.fragments and scopedb_private.fragment_search: one per project past the storage '
    'threshold, and one shared by the smaller projects; and of scopedb_private.group_vectors, one per search group. '
    'Only scopedb_owner may use it; queries reach the partitions through their parents, whose policies apply.';

-- ---------------------------------------------------------------------------------------------------------------
-- Types
-- ---------------------------------------------------------------------------------------------------------------

-- The claims of a scope token, parsed in one jsonb_populate_record call (see 03_functions.sql). Keys of the JSON
-- that have no field here are ignored, so newer token writers stay readable.
CREATE TYPE scopedb_private.scope_claims AS (
    v            integer,     -- token format version (1)
    aud          text,        -- audience: the database the token is for
    iat          bigint,      -- issued at, Unix seconds
    exp          bigint,      -- expires at, Unix seconds
    act          text,        -- actor, for audit only
    projects     text[],      -- project names
    project_ids  bigint[],    -- set only in tokens resolved by scopedb.resolve_scope
    resources    text[],      -- NULL: no narrowing; otherwise the resources the scope narrows to
    denied       text[],      -- resources hidden even inside the projects
    -- Set only in resolved tokens: what the policies compare resource columns with. NULL: no resource filter;
    -- otherwise the admitted resource ids, plus '' when fragments without a resource are admitted too.
    resource_filter  text[],
    -- Path and name patterns, compiled by scopedb.patterns to unanchored regular expressions ("bodies").
    path_include  text[],
    path_exclude  text[],
    name_include  text[],
    name_exclude  text[],
    -- Temporal scope: 'current' (or absent), 'all', or an ISO-8601 instant.
    "time"        text
);
COMMENT ON TYPE scopedb_private.scope_claims IS 'Parsed claims of a scope token.';

-- ---------------------------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------------------------

CREATE TABLE scopedb.projects (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name        text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT projects_name_key UNIQUE (name),
    CONSTRAINT projects_name_check CHECK (name <> '' AND length(name) <= 200 AND name !~ '[[:cntrl:]]')
);
COMMENT ON TABLE scopedb.projects IS
    'Tenants. A scope names projects; scopedb.enter_scope resolves those names to these ids.';

CREATE TABLE scopedb.resources (
    project_id  bigint NOT NULL REFERENCES scopedb.projects (id) ON DELETE CASCADE,
    -- A ULID (Crockford base32, 26 characters): sortable by creation time and safe to show in logs.
    id          text NOT NULL,
    alias       text,
    kind        text NOT NULL DEFAULT 'repository',
    created_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT resources_pkey PRIMARY KEY (project_id, id),
    CONSTRAINT resources_alias_key UNIQUE (project_id, alias),
    CONSTRAINT resources_id_check CHECK (id ~ '^[0-9A-HJKMNP-TV-Z]{26}$'),
    CONSTRAINT resources_alias_check CHECK (alias <> '' AND length(alias) <= 200)
);
COMMENT ON TABLE scopedb.resources IS
    'Repositories, document sets and the like inside a project. A scope may narrow a project to some of them.';

CREATE TABLE scopedb.resource_links (
    project_id  bigint NOT NULL REFERENCES scopedb.projects (id) ON DELETE CASCADE,
    parent_id   text NOT NULL,
    child_id    text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT resource_links_pkey PRIMARY KEY (project_id, parent_id, child_id),
    -- Both ends in the same project: a link can never point across tenants.
    CONSTRAINT resource_links_parent_fkey FOREIGN KEY (project_id, parent_id)
        REFERENCES scopedb.resources (project_id, id),
    CONSTRAINT resource_links_child_fkey FOREIGN KEY (project_id, child_id)
        REFERENCES scopedb.resources (project_id, id),
    CONSTRAINT resource_links_not_self CHECK (parent_id <> child_id)
);
COMMENT ON TABLE scopedb.resource_links IS
    'Parent/child resources (a monorepo and its packages). A DAG inside one project; cycles are refused by trigger.';

CREATE TABLE scopedb.fragments (
    project_id        bigint NOT NULL REFERENCES scopedb.projects (id) ON DELETE CASCADE,
    id                text NOT NULL DEFAULT gen_random_uuid()::text,
    resource_id       text,
    path              text,
    fqn               text,
    content           text NOT NULL,
    -- Generated, so the search vector can never disagree with the content it indexes.
    tsv               tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, content)) STORED,
    embedding         vector(:embedding_dim),
    tier              text NOT NULL DEFAULT 'warm',
    token_count       integer NOT NULL DEFAULT 0,
    last_accessed_at  timestamptz NOT NULL DEFAULT now(),
    valid_from        timestamptz NOT NULL DEFAULT now(),
    valid_to          timestamptz,
    created_at        timestamptz NOT NULL DEFAULT now(),
    -- Who stored it (the tier service's actor); for get_for_actor and audit, not for access control.
    created_by        text,
    CONSTRAINT fragments_pkey PRIMARY KEY (project_id, id),
    CONSTRAINT fragments_resource_fkey FOREIGN KEY (project_id, resource_id)
        REFERENCES scopedb.resources (project_id, id),
    CONSTRAINT fragments_id_check CHECK (id <> '' AND length(id) <= 200),
    CONSTRAINT fragments_tier_check CHECK (tier IN ('hot', 'warm', 'cold')),
    CONSTRAINT fragments_token_count_check CHECK (token_count >= 0),
    CONSTRAINT fragments_validity_check CHECK (valid_to IS NULL OR valid_to > valid_from),
    -- U+001F separates resource, path and name in the subject the fragment policies match (see
    -- scopedb.resolve_scope), so it may not occur inside them.
    CONSTRAINT fragments_path_check CHECK (strpos(path, chr(31)) = 0),
    CONSTRAINT fragments_fqn_check CHECK (strpos(fqn, chr(31)) = 0)
) PARTITION BY LIST (project_id);
COMMENT ON TABLE scopedb.fragments IS
    'The unit every search returns: a piece of text with its path, fully-qualified name, embedding and tier. '
    'A partition per project past the storage threshold (scopedb_parts.fragments_<id>); smaller projects share '
    'scopedb_parts.fragments_shared.';
COMMENT ON COLUMN scopedb.fragments.resource_id IS
    'NULL for project-wide fragments; those are hidden whenever the scope narrows the project to resources.';

CREATE TABLE scopedb.graph_nodes (
    project_id  bigint NOT NULL REFERENCES scopedb.projects (id) ON DELETE CASCADE,
    id          text NOT NULL,
    resource_id text,
    kind        text NOT NULL DEFAULT 'node',
    label       text NOT NULL DEFAULT '',
    path        text,
    fqn         text,
    properties  jsonb NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now(),
    -- What the read policy judges a node by, as never-NULL values (NULL reads as '' there): the key that
    -- graph_edges copies for both of its ends (graph_nodes_scope_key).
    resource_key text GENERATED ALWAYS AS (COALESCE(resource_id, '')) STORED NOT NULL,
    path_key     text GENERATED ALWAYS AS (COALESCE(path, '')) STORED NOT NULL,
    fqn_key      text GENERATED ALWAYS AS (COALESCE(fqn, '')) STORED NOT NULL,
    CONSTRAINT graph_nodes_pkey PRIMARY KEY (project_id, id),
    CONSTRAINT graph_nodes_resource_fkey FOREIGN KEY (project_id, resource_id)
        REFERENCES scopedb.resources (project_id, id),
    CONSTRAINT graph_nodes_id_check CHECK (id <> '' AND length(id) <= 200),
    CONSTRAINT graph_nodes_kind_check CHECK (kind <> '' AND length(kind) <= 100),
    CONSTRAINT graph_nodes_path_check CHECK (strpos(path, chr(31)) = 0),
    CONSTRAINT graph_nodes_fqn_check CHECK (strpos(fqn, chr(31)) = 0),
    -- The key below holds path and name whole; a btree entry holds at most about 2,700 bytes.
    CONSTRAINT graph_nodes_scope_length_check CHECK (octet_length(path_key) + octet_length(fqn_key) <= 1500),
    -- Referenced by graph_edges_src_fkey and graph_edges_dst_fkey, which cascade a change of any of these.
    CONSTRAINT graph_nodes_scope_key UNIQUE (project_id, id, resource_key, path_key, fqn_key)
);
COMMENT ON TABLE scopedb.graph_nodes IS
    'Graph nodes (symbols, documents, concepts) of a project; scoped like fragments by resource, path and name.';

CREATE TABLE scopedb.graph_edges (
    project_id   bigint NOT NULL REFERENCES scopedb.projects (id) ON DELETE CASCADE,
    src          text NOT NULL,
    dst          text NOT NULL,
    relation     text NOT NULL DEFAULT 'related',
    weight       real NOT NULL DEFAULT 1,
    created_at   timestamptz NOT NULL DEFAULT now(),
    -- Copies of what the read policy judges each end by (graph_nodes' *_key columns), so the edge policy tests
    -- the edge row itself instead of probing graph_nodes twice per edge. They cannot disagree with the nodes:
    -- the foreign keys below include them (a false copy is refused), and cascade every change of a node's
    -- resource, path or name to its edges (as referential actions, which row-level security does not filter, so
    -- also to the edges the changing scope cannot see). The app cannot update them (sql/05_grants.sql).
    src_resource text NOT NULL,
    src_path     text NOT NULL,
    src_fqn      text NOT NULL,
    dst_resource text NOT NULL,
    dst_path     text NOT NULL,
    dst_fqn      text NOT NULL,
    CONSTRAINT graph_edges_pkey PRIMARY KEY (project_id, src, relation, dst),
    -- Both ends in the edge's own project: an edge never crosses tenants.
    CONSTRAINT graph_edges_src_fkey FOREIGN KEY (project_id, src, src_resource, src_path, src_fqn)
        REFERENCES scopedb.graph_nodes (project_id, id, resource_key, path_key, fqn_key) ON UPDATE CASCADE,
    CONSTRAINT graph_edges_dst_fkey FOREIGN KEY (project_id, dst, dst_resource, dst_path, dst_fqn)
        REFERENCES scopedb.graph_nodes (project_id, id, resource_key, path_key, fqn_key) ON UPDATE CASCADE,
    CONSTRAINT graph_edges_relation_check CHECK (relation <> '' AND length(relation) <= 100)
);
COMMENT ON TABLE scopedb.graph_edges IS
    'Directed, typed edges between nodes of one project; visible only when both endpoints are.';

-- The full-text index the search function reads. PostgreSQL will not use a GIN index for `tsv @@ query` under
-- row-level security (`@@` is not LEAKPROOF, so it may not run before the policy), and marking it LEAKPROOF needs
-- a superuser. scopedb.text_candidates therefore finds matches here, in a table without RLS that only the owner
-- can read. The copy also carries every column the read policy on fragments judges (resource, path, name, validity),
-- so text_candidates applies the verified scope to the matches here, and the content, so it ranks them and returns
-- the best few with their text from here alone. Joining the best few back to scopedb.fragments (revision 0015) cost
-- more than the search it served: planning a join into the partitioned table under the owner's scope policy took
-- 0.5 ms of a 0.6 ms search in a small scope (revision 0017 measured it), and joining every match, as it did before
-- that, cost a common word in a wide scope four times the ranking itself. The price is the content stored twice.
-- Kept in step with fragments by triggers: inserts and changes are copied, deletes remove the copy, and a
-- fragment's key never changes. (Not by a foreign key: a key referencing a partitioned table gains a constraint
-- and its triggers for every new partition, and attaching the n-th project's partition grew with n — measured,
-- 150 ms per new project at 1,000 projects, 15 ms without the two keys.)
CREATE TABLE scopedb_private.fragment_search (
    project_id  bigint NOT NULL,
    id          text NOT NULL,
    tsv         tsvector NOT NULL,
    resource_id text,
    path        text,
    fqn         text,
    valid_from  timestamptz NOT NULL,
    valid_to    timestamptz,
    content     text NOT NULL,
    CONSTRAINT fragment_search_pkey PRIMARY KEY (project_id, id)
) PARTITION BY LIST (project_id);
COMMENT ON TABLE scopedb_private.fragment_search IS
    'Owner-only copy of fragments.tsv, of the columns the scope judges and of the content, partitioned like '
    'fragments, with a GIN index on the partitions of larger projects: for scoped full-text search (see '
    'scopedb.text_candidates).';

CREATE TABLE scopedb_private.fragment_originals (
    project_id   bigint NOT NULL,
    id           text NOT NULL,
    content      text NOT NULL,
    archived_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT fragment_originals_pkey PRIMARY KEY (project_id, id)
);
COMMENT ON TABLE scopedb_private.fragment_originals IS
    'Full text of fragments demoted to the cold tier (whose content is then a summary); owner-only.';

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
CREATE TABLE scopedb_private.group_vectors (
    group_id    bigint NOT NULL,
    project_id  bigint NOT NULL,
    id          text NOT NULL,
    embedding   vector(:embedding_dim) NOT NULL,
    valid_from  timestamptz NOT NULL,
    valid_to    timestamptz,
    resource_id text,
    path        text,
    fqn         text,
    content     text NOT NULL,
    CONSTRAINT group_vectors_pkey PRIMARY KEY (project_id, id, group_id)
) PARTITION BY LIST (group_id);
COMMENT ON TABLE scopedb_private.group_vectors IS
    'Owner-only copy of the embedded fragments of each search group''s members, a partition per group with its '
    'HNSW index (see scopedb_private.search_groups and scopedb.group_nearest).';

CREATE TABLE scopedb.notes (
    project_id          bigint NOT NULL REFERENCES scopedb.projects (id) ON DELETE CASCADE,
    id                  text NOT NULL,
    content             text NOT NULL,
    tags                text[] NOT NULL DEFAULT '{}',
    sensitivity         text NOT NULL DEFAULT 'normal',
    -- NULL: standard retention; otherwise the note expires this many days after it was created.
    retention_days      integer,
    provenance_source   text NOT NULL DEFAULT 'service',
    provenance_session  text,
    created_at          timestamptz NOT NULL DEFAULT now(),
    -- Set (only) by the tombstone trigger; scopedb_app has no UPDATE on notes.
    forgotten_at        timestamptz,
    CONSTRAINT notes_pkey PRIMARY KEY (project_id, id),
    CONSTRAINT notes_id_check CHECK (id ~ '^mem-[0-9a-f]{32}$'),
    CONSTRAINT notes_content_check CHECK (octet_length(content) <= 16384),
    CONSTRAINT notes_sensitivity_check CHECK (sensitivity IN ('normal', 'sensitive', 'secret')),
    CONSTRAINT notes_retention_check CHECK (retention_days BETWEEN 1 AND 10000),
    CONSTRAINT notes_tags_check CHECK (cardinality(tags) <= 64 AND '' <> ALL (tags)),
    CONSTRAINT notes_source_check CHECK (provenance_source <> '' AND length(provenance_source) <= 100)
);
COMMENT ON TABLE scopedb.notes IS
    'Scoped memory notes. The app may insert them and read their metadata, never a body column directly: bodies '
    'come only through scopedb.fetch_notes / search_notes, which withhold secret-class bodies.';

CREATE TABLE scopedb.note_tombstones (
    project_id    bigint NOT NULL,
    note_id       text NOT NULL,
    forgotten_at  timestamptz NOT NULL DEFAULT now(),
    actor         text,
    CONSTRAINT note_tombstones_pkey PRIMARY KEY (project_id, note_id),
    CONSTRAINT note_tombstones_note_fkey FOREIGN KEY (project_id, note_id)
        REFERENCES scopedb.notes (project_id, id) ON DELETE CASCADE
);
COMMENT ON TABLE scopedb.note_tombstones IS
    'Append-only record of forgotten notes; the retention sweep removes a note and its tombstone together.';

-- Signing keys. The Python layer signs scope tokens with the same secret; enter_scope and the policies verify them.
-- inner_pad/outer_pad are the HMAC key blocks (key XOR 0x36.., key XOR 0x5c..), derived once on insert so that a
-- verification costs two sha256() calls and nothing else.
CREATE TABLE scopedb_private.signing_keys (
    key_id           text PRIMARY KEY,
    secret           bytea NOT NULL,
    inner_pad        bytea NOT NULL,
    outer_pad        bytea NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    -- NULL: active. Otherwise tokens signed by this key are accepted until this instant, then refused.
    retired_at       timestamptz,
    rotation_period  interval NOT NULL DEFAULT '90 days',
    CONSTRAINT signing_keys_key_id_check CHECK (key_id ~ '^[A-Za-z0-9_-]{1,64}$'),
    CONSTRAINT signing_keys_secret_check CHECK (length(secret) BETWEEN 32 AND 64),
    CONSTRAINT signing_keys_pads_check CHECK (length(inner_pad) = 64 AND length(outer_pad) = 64)
);
COMMENT ON TABLE scopedb_private.signing_keys IS
    'HMAC-SHA256 keys for scope tokens. Readable by scopedb_owner only; old keys stay valid until retired_at.';

-- How often project names have changed: a trigger on scopedb.projects adds one in the transaction of every rename
-- and deletion. A kept resolved token is re-entered only while the names it was resolved from still name its
-- projects (scopedb.reenter_scope); checking that costs a read of projects under its policy on every entry, so the
-- check is remembered with the token (its epoch) and repeated only once the epoch has moved. A table row, not a
-- sequence: it changes with the rename's own transaction, so no reader sees a new epoch with old names.
CREATE TABLE scopedb_private.project_names_epoch (
    one    boolean PRIMARY KEY DEFAULT true CHECK (one),
    epoch  bigint NOT NULL DEFAULT 0
);
INSERT INTO scopedb_private.project_names_epoch DEFAULT VALUES;
COMMENT ON TABLE scopedb_private.project_names_epoch IS
    'One row: how many renames and deletions of projects have committed (the re-entry check of kept tokens).';

-- One row per project and purpose, locked (FOR NO KEY UPDATE) by owner functions that must serialise work on one
-- project: tier budget enforcement, the resource-link cycle check. Row locks in an owner-only table, rather than
-- advisory locks: advisory keys are one namespace for every session, so a tenant that can compute another's key
-- (from its project id) can hold it and stall that tenant, or try-lock it to learn when it is busy.
CREATE TABLE scopedb_private.project_locks (
    project_id  bigint NOT NULL REFERENCES scopedb.projects (id) ON DELETE CASCADE,
    purpose     text NOT NULL,
    CONSTRAINT project_locks_pkey PRIMARY KEY (project_id, purpose),
    CONSTRAINT project_locks_purpose_check CHECK (purpose IN ('tiers', 'resource_links'))
);
COMMENT ON TABLE scopedb_private.project_locks IS
    'Per-project lock rows that owner functions lock to serialise work on one project; owner-only.';

-- ---------------------------------------------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------------------------------------------

-- Policy columns: project_id leads every primary key; resource_id needs its own for resource-narrowed scopes.
CREATE INDEX resources_id_idx ON scopedb.resources (id);
CREATE INDEX resource_links_child_idx ON scopedb.resource_links (project_id, child_id);
CREATE INDEX fragments_resource_idx ON scopedb.fragments (project_id, resource_id);

-- No search index on the partitioned tables themselves: an index created there would be created on every
-- partition. A project's HNSW (cosine) and GIN indexes are made on its own partitions by the maintenance step
-- (scopedb_private.storage_plan); a project below the threshold is searched exactly, through its primary key.

-- Projects below the threshold share the DEFAULT partition of each table: a new project is one row in
-- scopedb.projects, not two tables attached (attaching rebuilds the parent's partition descriptor from every
-- partition's bound, and at 10,000 projects cost 121 ms per new project; each project's tables and indexes also
-- cost the catalog six relations). These two partitions never get a search index (the audit holds them to that,
-- E026): an HNSW or GIN index over them would hold many projects' rows, and an approximate index over several
-- projects answers similarity questions about all of them (docs/security.md #76). A search in a small project reads
-- its rows exactly, through the primary key, whose leading column is the project. The maintenance step moves a
-- project that reaches the threshold into partitions of its own (scopedb_private.create_project_storage).
CREATE TABLE scopedb_parts.fragments_shared PARTITION OF scopedb.fragments DEFAULT;
CREATE TABLE scopedb_parts.fragment_search_shared PARTITION OF scopedb_private.fragment_search DEFAULT;
-- As every partition: row-level security enabled and forced with no policy of its own, so it is read only
-- through its parent, whose policies apply.
ALTER TABLE scopedb_parts.fragments_shared ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
ALTER TABLE scopedb_parts.fragment_search_shared ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
-- The statistics of tsv hold up to 100 most common lexemes a partition (target 10), not 1,000. A one-project
-- search plans the tsquery as a constant (scopedb.text_candidates), and estimating it reads those lexemes on every
-- call: at the default target they were 4.4 kB, stored compressed, and decompressing them cost about a quarter of
-- the planning (perf, a 172-row project in the shared partition, revision 0027). The common words stay in the
-- list; a rarer one is estimated as rarer than it is, which only favours the index scan such a word takes anyway.
-- ALTER TABLE sets it on the partitions there are (here, the shared one); a partition made later does not inherit
-- it, and scopedb_private.create_project_storage gives each new one its parent's.
ALTER TABLE scopedb_private.fragment_search ALTER COLUMN tsv SET STATISTICS 10;

-- Graph traversal (edges are found from either end).
CREATE INDEX graph_nodes_kind_idx ON scopedb.graph_nodes (project_id, kind);
CREATE INDEX graph_nodes_resource_idx ON scopedb.graph_nodes (project_id, resource_id);
CREATE INDEX graph_edges_dst_idx ON scopedb.graph_edges (project_id, dst);

-- Tiers (least recently accessed first, per project and tier) and notes (newest first).
CREATE INDEX fragments_tier_lru_idx ON scopedb.fragments (project_id, tier, last_accessed_at);
CREATE INDEX notes_created_idx ON scopedb.notes (project_id, created_at DESC);

RESET ROLE;
