"""The demo's bundled corpus: two fictional tenants with their code notes, runbooks and design documents.

Written for scopedb's demo. Each document is a path and its sentences; every sentence becomes a fragment, so the
demo indexes a few hundred fragments. The graph links modules and documents the way a code index would.
"""

from __future__ import annotations

from typing import Final

Document = tuple[str, str, tuple[str, ...]]  # resource alias, path, sentences

ACME: Final[tuple[Document, ...]] = (
    (
        "repo",
        "src/auth/session.py",
        (
            "Sessions are signed with a rotating key and expire after one hour of inactivity.",
            "A session token carries the account id, the issue time and the key id, never the password.",
            "Refreshing a session issues a new token and revokes the old one in the same transaction.",
            "The session middleware rejects tokens whose key id is retired.",
            "Login latency is dominated by the password hash, which costs about 80 milliseconds.",
            "Failed logins are counted per account and per address to slow down guessing.",
            "After five failed logins in ten minutes the account is locked for fifteen minutes.",
            "Session cookies are HttpOnly, Secure and SameSite=Lax.",
        ),
    ),
    (
        "repo",
        "src/auth/oauth.py",
        (
            "The OAuth flow exchanges the authorization code for a token pair.",
            "Access tokens live for ten minutes and refresh tokens for thirty days.",
            "PKCE is mandatory for public clients such as the mobile app.",
            "The redirect URI must match a registered URI exactly, including the trailing slash.",
            "Refresh token rotation detects reuse and revokes the whole token family.",
            "Scopes requested by a client are intersected with the scopes its owner granted.",
            "The consent screen lists scopes in plain language, not as identifiers.",
        ),
    ),
    (
        "repo",
        "src/payments/charge.py",
        (
            "A charge is created in the pending state and confirmed by the card network callback.",
            "Every charge request carries an idempotency key so retries never double charge.",
            "Idempotency keys are kept for twenty-four hours and then expire.",
            "Amounts are integers in the smallest currency unit, never floating point numbers.",
            "A charge above the account's risk limit is held for manual review.",
            "Refunds create a negative ledger entry that references the original charge.",
            "Partial refunds are allowed until the refunded total equals the charged amount.",
            "The charge service publishes an event after the ledger entry commits, never before.",
        ),
    ),
    (
        "repo",
        "src/payments/ledger.py",
        (
            "The ledger is append-only: corrections are new entries, never updates.",
            "Each ledger entry has a debit account, a credit account and an amount.",
            "The sum of all entries of a transaction is zero, checked by a constraint.",
            "Balances are materialized nightly and verified against the entries.",
            "Ledger entries are partitioned by month to keep vacuum fast.",
            "A reconciliation job compares the ledger with the bank statement every morning.",
        ),
    ),
    (
        "repo",
        "src/api/rate_limit.py",
        (
            "The API rate limit is a token bucket per API key with a burst of fifty requests.",
            "Rate limits are enforced at the edge before the request reaches the application.",
            "Exceeded limits return status 429 with a Retry-After header.",
            "Internal services have their own keys and higher limits.",
            "The rate limiter state lives in memory with a shared snapshot every second.",
        ),
    ),
    (
        "repo",
        "src/api/webhooks.py",
        (
            "Webhooks are signed with an HMAC of the body and a timestamp.",
            "Receivers must reject webhooks older than five minutes to stop replays.",
            "Failed webhook deliveries are retried with exponential backoff for three days.",
            "Each webhook endpoint can subscribe to a subset of event types.",
            "A webhook payload never includes card numbers, only the last four digits.",
        ),
    ),
    (
        "docs",
        "docs/runbook.md",
        (
            "Acme on-call: page the API team when login latency exceeds 300 milliseconds at the 95th percentile.",
            "If the card network callback is delayed, pending charges stay pending; do not retry them by hand.",
            "To rotate the session signing key, add the new key, wait one hour, then retire the old one.",
            "A spike of 429 responses usually means a customer's integration is looping on an error.",
            "Database failover takes about thirty seconds; the API returns 503 during the switch.",
            "Check the reconciliation report before closing a payments incident.",
        ),
    ),
    (
        "docs",
        "docs/architecture.md",
        (
            "The Acme API is a set of Python services behind an edge proxy.",
            "Services talk to each other over gRPC with mutual TLS.",
            "PostgreSQL holds accounts, charges and the ledger; each service owns its tables.",
            "Events flow through a durable log so consumers can replay them.",
            "Configuration is versioned and rolled out gradually, region by region.",
            "Every deploy passes through a canary that serves one percent of traffic for fifteen minutes.",
        ),
    ),
    (
        "docs",
        "docs/security.md",
        (
            "Card data is tokenized at the edge; application services only see tokens.",
            "Secrets live in the vault and are injected at start, never committed.",
            "Access to production requires a hardware key and an approved request.",
            "Audit logs are shipped to a separate account that engineers cannot write to.",
            "Penetration tests run twice a year and after every major change to authentication.",
        ),
    ),
    (
        "docs",
        "docs/onboarding.md",
        (
            "New engineers start with the local environment script, which brings up every service.",
            "The first week includes a shadow shift with the on-call engineer.",
            "Read the ledger design before changing anything in payments.",
            "Ask in the team channel before touching the session middleware.",
        ),
    ),
)

GLOBEX: Final[tuple[Document, ...]] = (
    (
        "repo",
        "app/checkout.ts",
        (
            "Checkout posts the basket to the payments service with an idempotency key.",
            "The basket total is recomputed on the server; the browser's total is only a preview.",
            "Discount codes are validated at checkout and again when the order is confirmed.",
            "Shipping options depend on the basket weight and the destination country.",
            "A failed payment keeps the basket for twenty-four hours so the customer can retry.",
            "Gift cards are applied before card payments and never create change.",
            "Tax is computed per line by the tax service and rounded per invoice.",
        ),
    ),
    (
        "repo",
        "app/auth.ts",
        (
            "Globex web login uses magic links; tokens live for ten minutes.",
            "A magic link can be used once; a second click shows a fresh login form.",
            "Sessions last seven days and slide forward on activity.",
            "Login by password is available for staff accounts only.",
            "The login page never says whether an email address has an account.",
            "Account recovery requires the email link and a one-time code.",
        ),
    ),
    (
        "repo",
        "app/catalog.ts",
        (
            "Product pages are rendered on the server and cached at the edge for one minute.",
            "Stock levels are fetched separately so cached pages never show stale availability.",
            "Search uses a typo-tolerant index rebuilt every night and patched on product changes.",
            "Each product has variants for size and colour with their own stock.",
            "Images are resized on upload into four widths and served as AVIF where supported.",
            "Prices are stored per market in the market's currency.",
        ),
    ),
    (
        "repo",
        "app/orders.ts",
        (
            "An order moves from placed to paid, packed, shipped and delivered.",
            "Cancelling an order is allowed until it is packed.",
            "Returns open a case that refunds the customer when the parcel arrives at the warehouse.",
            "Order confirmation emails are sent after the payment succeeds, not when the order is placed.",
            "The warehouse receives orders in batches every fifteen minutes.",
        ),
    ),
    (
        "repo",
        "app/recommendations.ts",
        (
            "Recommendations show products often bought together with the basket's items.",
            "The model is retrained weekly on the last ninety days of orders.",
            "Recommendations never include products out of stock in the customer's market.",
            "Customers can switch personalization off in their privacy settings.",
        ),
    ),
    (
        "docs",
        "docs/pricing.md",
        (
            "Globex confidential: the enterprise discount is 35 percent until March.",
            "Seasonal sales are configured as price lists with a start and an end date.",
            "Price changes go live at midnight in each market's time zone.",
            "Loyalty members get free shipping above a basket total of fifty euros.",
            "Clearance prices are final and cannot be combined with discount codes.",
        ),
    ),
    (
        "docs",
        "docs/runbook.md",
        (
            "Globex on-call: if checkout errors exceed two percent, switch the payment provider to the backup.",
            "A slow product page is usually the image service; check its queue length first.",
            "When the search index rebuild fails, the old index keeps serving; rerun the job in the morning.",
            "Magic link emails delayed by the mail provider: enable the one-time code fallback.",
            "Black Friday runbook: scale the web tier the evening before and freeze deploys.",
        ),
    ),
    (
        "docs",
        "docs/architecture.md",
        (
            "The Globex shop is a TypeScript web application with server-side rendering.",
            "Orders, stock and prices live in PostgreSQL; sessions live in a key-value store.",
            "The warehouse system is a separate vendor product connected by a message queue.",
            "Every pull request gets a preview environment with anonymized data.",
            "Feature flags decide what each market sees.",
        ),
    ),
    (
        "docs",
        "docs/privacy.md",
        (
            "Customer data is stored in the customer's region and never copied to analytics in raw form.",
            "Analytics events carry a pseudonymous id that rotates every ninety days.",
            "A deletion request erases the account and anonymizes its orders within thirty days.",
            "Marketing emails require explicit consent, recorded with its time and wording.",
        ),
    ),
)

CORPUS: Final[dict[str, tuple[Document, ...]]] = {"acme/api": ACME, "globex/web": GLOBEX}

# Graph: each file is a node (kind "module" for code, "doc" for documents); edges as a code index would find them.
EDGES: Final[dict[str, tuple[tuple[str, str, str], ...]]] = {
    "acme/api": (
        ("src/auth/oauth.py", "src/auth/session.py", "calls"),
        ("src/payments/charge.py", "src/payments/ledger.py", "calls"),
        ("src/api/webhooks.py", "src/payments/charge.py", "subscribes"),
        ("src/api/rate_limit.py", "src/auth/session.py", "reads"),
        ("docs/runbook.md", "src/auth/session.py", "mentions"),
        ("docs/runbook.md", "src/payments/charge.py", "mentions"),
        ("docs/architecture.md", "src/payments/ledger.py", "mentions"),
        ("docs/security.md", "src/auth/oauth.py", "mentions"),
        ("docs/onboarding.md", "docs/architecture.md", "links"),
        ("docs/onboarding.md", "src/payments/ledger.py", "mentions"),
    ),
    "globex/web": (
        ("app/checkout.ts", "app/orders.ts", "calls"),
        ("app/orders.ts", "app/catalog.ts", "reads"),
        ("app/recommendations.ts", "app/catalog.ts", "reads"),
        ("app/checkout.ts", "app/auth.ts", "calls"),
        ("docs/pricing.md", "app/checkout.ts", "mentions"),
        ("docs/runbook.md", "app/checkout.ts", "mentions"),
        ("docs/runbook.md", "app/auth.ts", "mentions"),
        ("docs/architecture.md", "app/orders.ts", "mentions"),
        ("docs/privacy.md", "app/recommendations.ts", "mentions"),
    ),
}

# Support tickets, composed from short phrases so the corpus reaches a few hundred fragments deterministically.
_TICKET_PARTS: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]] = {
    "acme/api": (
        (
            "charges stuck in pending",
            "a 429 from the rate limiter",
            "an expired session token",
            "a duplicate refund",
            "a webhook signature mismatch",
            "a slow login",
        ),
        (
            "after rotating their API key",
            "during a card network outage",
            "after a deploy of the edge proxy",
            "when retrying without an idempotency key",
            "from the mobile app",
            "right after midnight UTC",
        ),
        (
            "the idempotency key was reused",
            "the client clock was skewed",
            "the retired signing key was still cached",
            "a bulk script hit the burst limit",
            "the webhook secret was rotated on one side only",
        ),
    ),
    "globex/web": (
        (
            "an empty basket after login",
            "a magic link that had expired",
            "a discount code rejected at checkout",
            "a wrong shipping price",
            "an out-of-stock item in recommendations",
            "a missing confirmation email",
        ),
        (
            "on a mobile browser",
            "during the seasonal sale",
            "after switching markets",
            "with a gift card applied",
            "right after a price change at midnight",
            "from the staff login page",
        ),
        (
            "the edge cache served an old page",
            "the price list had not started yet",
            "the mail provider was delayed",
            "the basket belonged to a guest session",
            "the stock index lagged behind the warehouse",
        ),
    ),
}


def tickets(project: str, count: int = 60) -> tuple[Document, ...]:
    """``count`` support tickets of ``project``, each one fragment under ``tickets/``."""
    symptoms, contexts, causes = _TICKET_PARTS[project]
    out = []
    for n in range(count):
        sentence = (
            f"Ticket {1000 + n}: customer reports {symptoms[n % len(symptoms)]} {contexts[(n // 2) % len(contexts)]}; "
            f"root cause: {causes[(n // 3) % len(causes)]}."
        )
        out.append(("tickets", f"tickets/{1000 + n}.txt", (sentence,)))
    return tuple(out)
