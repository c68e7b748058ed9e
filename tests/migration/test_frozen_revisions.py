"""The SQL of shipped alembic revisions is frozen (alembic/sql/README.md): a checksum guards every file.

``alembic/sql/SHA256SUMS`` lists each file of each revision folder. A changed, added or removed file of a listed
revision fails here; a new revision's folder must be added to the list (``sha256sum`` format, paths relative to
``alembic/sql``) in the commit that ships it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "alembic" / "sql"


def _recorded() -> dict[str, str]:
    lines = (ROOT / "SHA256SUMS").read_text().splitlines()
    return {path: digest for digest, path in (line.split(None, 1) for line in lines if line.strip())}


def test_every_file_of_a_shipped_revision_is_unchanged() -> None:
    recorded = _recorded()
    actual = {
        str(path.relative_to(ROOT)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(ROOT.glob("*/*.sql"))
    }
    changed = sorted(p for p in recorded if p in actual and actual[p] != recorded[p])
    missing = sorted(p for p in recorded if p not in actual)
    unlisted = sorted(p for p in actual if p not in recorded)
    assert not changed, f"frozen revision SQL was edited (add a new revision instead): {changed}"
    assert not missing, f"frozen revision SQL was removed: {missing}"
    assert not unlisted, f"revision SQL missing from alembic/sql/SHA256SUMS (record it as it ships): {unlisted}"
