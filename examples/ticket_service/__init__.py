"""A small ticket service on scopedb: its own protected table, scoped search, a bearer token per request."""
