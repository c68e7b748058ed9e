"""Bearer tokens the service issues and verifies (PyJWT, HS256), and the scope each one maps to.

The token is the service's own: it says which tenant (a scopedb project) the caller acts for. The service turns it
into a :class:`scopedb.ResourceScope` and enters that scope for the request; the database then refuses every row
outside it, whatever SQL the request runs. A token that does not verify — tampered, expired, for another audience,
missing a claim — is a 401 and no scope at all.
"""

from __future__ import annotations

import datetime as dt

import jwt

from scopedb import ResourceScope

AUDIENCE = "ticket-service"
ALGORITHM = "HS256"


class Unauthorized(Exception):
    """The request carries no bearer token that verifies."""


def issue_token(secret: str, *, subject: str, tenant: str, ttl: dt.timedelta = dt.timedelta(minutes=15)) -> str:
    """A signed token for ``subject`` acting in the project ``tenant``."""
    now = dt.datetime.now(dt.UTC)
    claims = {"sub": subject, "tenant": tenant, "aud": AUDIENCE, "iat": now, "exp": now + ttl}
    return jwt.encode(claims, secret, algorithm=ALGORITHM)


def scope_for(authorization: str | None, secret: str) -> ResourceScope:
    """The scope an ``Authorization: Bearer …`` header grants, or :class:`Unauthorized`."""
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise Unauthorized("a bearer token is required")
    try:
        claims = jwt.decode(
            token, secret, algorithms=[ALGORITHM], audience=AUDIENCE, options={"require": ["exp", "sub", "tenant"]}
        )
    except jwt.ExpiredSignatureError:
        raise Unauthorized("the token has expired") from None
    except jwt.InvalidTokenError:
        raise Unauthorized("the token does not verify") from None
    tenant = claims["tenant"]
    if not isinstance(tenant, str) or not tenant:
        raise Unauthorized("the token names no tenant")
    return ResourceScope(project_names={tenant})
