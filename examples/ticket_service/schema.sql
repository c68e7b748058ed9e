-- The ticket service's own schema. A service's migration creates its tables as it always has; the one line that
-- puts a table under the caller's scope is the protect_table call after it (schema.py, or in an alembic
-- migration: scopedb.alembic.protect_table(op, 'support.tickets')).
--
-- What the table needs to be protectable: a bigint NOT NULL project column that leads every unique key (a key
-- unique across projects would tell one tenant, through a unique violation, what another holds). The default
-- fills it from the entered scope when the scope has one project, so the service never names a project. Keys are
-- random UUIDs, not a sequence: a shared counter would show each tenant how many tickets every tenant opens.

CREATE SCHEMA IF NOT EXISTS support;

CREATE TABLE IF NOT EXISTS support.tickets (
    project_id  bigint NOT NULL DEFAULT scopedb.scope_project_id()
                REFERENCES scopedb.projects (id) ON DELETE CASCADE,
    id          uuid NOT NULL DEFAULT gen_random_uuid(),
    title       text NOT NULL,
    body        text NOT NULL DEFAULT '',
    status      text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, id)
);
