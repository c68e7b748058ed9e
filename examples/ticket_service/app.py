"""The ticket service's HTTP API (FastAPI): every request enters the scope its bearer token grants.

    GET    /tickets               every ticket — ``SELECT * FROM support.tickets``, no WHERE: the policies filter
    POST   /tickets               open a ticket (its project comes from the scope)
    PATCH  /tickets/{id}          close or reopen one of the caller's tickets (404 for anyone else's)
    GET    /search/text?q=        scopedb's full-text search over the tenant's fragments
    GET    /search/similar?q=     scopedb's vector search (the query embedded by the service's embedder)

The service holds no tenant filter anywhere: the request's scope is entered once (``db.scoped``), and the database
refuses what lies outside it — in the service's own table and in scopedb's.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Header, HTTPException, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from examples.ticket_service.auth import Unauthorized, scope_for
from scopedb import Database, ResourceScope
from scopedb.errors import InvalidArgumentError, PermissionDeniedError, ScopedbError
from scopedb.session import ScopedSession

# Deliberately unfiltered: the scope entered for the request is the only filter there is.
ALL_TICKETS = "SELECT * FROM support.tickets ORDER BY created_at, id"
OPEN_TICKET = "INSERT INTO support.tickets (title, body) VALUES (%s, %s) RETURNING *"
SET_STATUS = "UPDATE support.tickets SET status = %s WHERE id = %s RETURNING *"


class Ticket(BaseModel):
    id: uuid.UUID
    title: str
    body: str
    status: str


class NewTicket(BaseModel):
    title: str = Field(min_length=1, max_length=200)
    body: str = Field(default="", max_length=10_000)


class StatusChange(BaseModel):
    status: Literal["open", "closed"]


class Hit(BaseModel):
    path: str | None
    content: str
    score: float  # text: rank (higher is better); similar: cosine distance (lower is nearer)


def _ticket(row: dict[str, Any]) -> Ticket:
    return Ticket(id=row["id"], title=row["title"], body=row["body"], status=row["status"])


def _scope(request: Request, authorization: Annotated[str | None, Header()] = None) -> ResourceScope:
    """The scope the request's bearer token grants (401 otherwise)."""
    return scope_for(authorization, request.app.state.secret)


def _session(request: Request, scope: Annotated[ResourceScope, Depends(_scope)]) -> Iterator[ScopedSession]:
    """One scoped transaction per request: committed when the endpoint returns, rolled back if it raises."""
    db: Database = request.app.state.db
    with db.scoped(scope) as s:
        yield s


Scoped = Annotated[ScopedSession, Depends(_session)]


def create_app(db: Database, *, secret: str, embedder: Callable[[str], Sequence[float]] | None = None) -> FastAPI:
    """The API over ``db``, trusting bearer tokens signed with ``secret`` (see :mod:`.auth`)."""
    app = FastAPI(title="ticket service (scopedb example)")
    app.state.db = db
    app.state.secret = secret

    @app.exception_handler(Unauthorized)
    def unauthorized(request: Request, exc: Unauthorized) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=401, headers={"WWW-Authenticate": "Bearer"})

    @app.exception_handler(ScopedbError)
    def refused(request: Request, exc: ScopedbError) -> JSONResponse:
        status = (
            403 if isinstance(exc, PermissionDeniedError) else 400 if isinstance(exc, InvalidArgumentError) else 500
        )
        return JSONResponse({"detail": type(exc).__name__}, status_code=status)

    @app.get("/tickets")
    def list_tickets(s: Scoped) -> list[Ticket]:
        return [_ticket(row) for row in s.execute(ALL_TICKETS).dicts()]

    @app.post("/tickets", status_code=201)
    def open_ticket(new: NewTicket, s: Scoped) -> Ticket:
        return _ticket(s.execute(OPEN_TICKET, (new.title, new.body)).dicts()[0])

    @app.patch("/tickets/{ticket_id}")
    def change_status(ticket_id: uuid.UUID, change: StatusChange, s: Scoped) -> Ticket:
        rows = s.execute(SET_STATUS, (change.status, ticket_id)).dicts()
        if not rows:  # another tenant's ticket and no ticket at all look the same
            raise HTTPException(status_code=404, detail="no such ticket")
        return _ticket(rows[0])

    @app.get("/search/text")
    def search_text(q: str, s: Scoped, limit: int = 10) -> list[Hit]:
        return [
            Hit(path=h.fragment.path, content=h.fragment.content, score=h.rank) for h in s.search_text(q, limit=limit)
        ]

    @app.get("/search/similar")
    def search_similar(q: str, s: Scoped, limit: int = 10) -> list[Hit]:
        if embedder is None:
            raise HTTPException(status_code=404, detail="this service has no embedder")
        hits = s.search_vector(list(embedder(q)), limit=limit)
        return [Hit(path=h.fragment.path, content=h.fragment.content, score=h.distance) for h in hits]

    return app
