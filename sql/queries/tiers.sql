-- Context tiers (scopedb.tiers). Run as scopedb_app in a scoped transaction: RLS bounds every statement.

-- name: store
INSERT INTO scopedb.fragments AS f (project_id, id, resource_id, path, fqn, content, tier, token_count, created_by)
VALUES (%(project_id)s, %(id)s, %(resource_id)s, %(path)s, %(fqn)s, %(content)s, %(tier)s, %(token_count)s,
        %(actor)s)
ON CONFLICT ON CONSTRAINT fragments_pkey DO UPDATE
   SET resource_id = EXCLUDED.resource_id, path = EXCLUDED.path, fqn = EXCLUDED.fqn, content = EXCLUDED.content,
       tier = EXCLUDED.tier, token_count = EXCLUDED.token_count, last_accessed_at = clock_timestamp(),
       created_by = EXCLUDED.created_by
RETURNING project_id, id, resource_id, tier, content, token_count, last_accessed_at, created_by;

-- name: touch
-- Reading a fragment touches it: least-recently-accessed eviction sees the read.
UPDATE scopedb.fragments
   SET last_accessed_at = clock_timestamp()
 WHERE id = %(id)s AND project_id = ANY (%(projects)s)
RETURNING project_id, id, resource_id, tier, content, token_count, last_accessed_at, created_by;

-- name: visible
SELECT project_id, id, resource_id, tier, content, token_count, last_accessed_at, created_by
  FROM scopedb.fragments
 WHERE project_id = ANY (%(projects)s)
 ORDER BY project_id, id;

-- name: visible_by_actor
SELECT project_id, id, resource_id, tier, content, token_count, last_accessed_at, created_by
  FROM scopedb.fragments
 WHERE project_id = ANY (%(projects)s) AND created_by = %(actor)s
 ORDER BY project_id, id;

-- name: exists
SELECT 1 FROM scopedb.fragments WHERE id = %(id)s AND project_id = ANY (%(projects)s);

-- name: lock_one
-- One fragment, locked for a tier move (a concurrent mover finishes first).
SELECT project_id, id, tier, content, token_count
  FROM scopedb.fragments
 WHERE id = %(id)s AND project_id = %(project_id)s
   FOR UPDATE;

-- name: lru
-- The least recently accessed fragments of a tier, locked; rows another transaction holds are skipped, so two
-- evictors never move the same fragment.
SELECT project_id, id, tier, content, token_count
  FROM scopedb.fragments
 WHERE project_id = %(project_id)s AND tier = %(tier)s
 ORDER BY last_accessed_at, id
 LIMIT %(count)s
   FOR UPDATE SKIP LOCKED;

-- name: move
UPDATE scopedb.fragments SET tier = %(tier)s, content = %(content)s
 WHERE project_id = %(project_id)s AND id = %(id)s AND tier = %(from_tier)s;

-- name: evict
-- The app deletes only through scopedb's delete functions (it holds no DELETE privilege, see sql/05_grants.sql).
-- The row is locked by the caller (lock_one / lru), so it is still the cold fragment it read.
SELECT scopedb.delete_fragments(%(project_id)s, ARRAY[%(id)s]::text[]);

-- name: usage
SELECT tier, count(*), coalesce(sum(token_count), 0)
  FROM scopedb.fragments
 WHERE project_id = %(project_id)s
 GROUP BY tier;

-- name: lock_project
-- One budget enforcer per project at a time (other transactions wait), so two cannot both move "the overflow".
-- A row lock in an owner-only table: no other tenant can name it (an advisory key computed from the project id
-- could be held by anyone).
SELECT scopedb.lock_project_tiers(%(project_id)s);
