#!/usr/bin/env bash
# Runs once, when the container initialises an empty data directory: migrates scopedb's schema into $POSTGRES_DB
# over the local socket and creates the first scope-signing key. SCOPEDB_EMBEDDING_DIM sets the embedding width.
set -euo pipefail
export SCOPEDB_DATABASE_URL="postgresql://${POSTGRES_USER}@/${POSTGRES_DB}?host=/var/run/postgresql"
/opt/scopedb/venv/bin/scopedb migrate --embedding-dim "${SCOPEDB_EMBEDDING_DIM:-384}"
