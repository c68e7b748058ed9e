"""Bulk ingest of fragments and graph nodes/edges into a scoped session.

PostgreSQL refuses ``COPY FROM`` into tables with row-level security, so each batch is one
``INSERT ... SELECT FROM unnest(typed arrays)`` (see ``sql/queries/ingest.sql``): one round trip per batch, and
every row still passes the policies' ``WITH CHECK``. Re-ingesting a key updates the row, so an ingest can be
retried as a whole.
"""

from __future__ import annotations

import datetime as dt
import os
import stat
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any, Protocol, TypeVar

from scopedb import sqlfiles, steps
from scopedb.errors import InvalidArgumentError, ScopeViolationError
from scopedb.steps import SessionState, Statement, Steps
from scopedb.vectors import vector_array, vector_literal


class Ingests(Protocol):
    """What :func:`ingest_directory` needs of a session (a sync :class:`~scopedb.session.ScopedSession`)."""

    def ingest_fragments(self, fragments: Iterable[Fragment], *, batch_size: int = ...) -> int: ...


T = TypeVar("T")
DEFAULT_BATCH = 2000


@dataclass(frozen=True)
class Fragment:
    """A fragment to insert. ``project`` is a project name of the scope."""

    project: str
    content: str
    id: str | None = None
    resource_id: str | None = None
    path: str | None = None
    fqn: str | None = None
    embedding: Sequence[float] | None = None
    tier: str | None = None
    token_count: int | None = None
    valid_from: dt.datetime | None = None
    valid_to: dt.datetime | None = None


@dataclass(frozen=True)
class NodeIn:
    """A graph node to ingest. ``project`` is a project name of the scope."""

    project: str
    id: str
    kind: str = "node"
    label: str = ""
    resource_id: str | None = None
    path: str | None = None
    fqn: str | None = None


@dataclass(frozen=True)
class EdgeIn:
    """A directed edge to ingest, between two nodes of the same project."""

    project: str
    src: str
    dst: str
    relation: str = "related"
    weight: float = 1.0


def _text(value: object, what: str, *, optional: bool = True) -> None:
    if value is None and optional:
        return
    if not isinstance(value, str):
        raise InvalidArgumentError(f"{what} must be a string")
    if "\x00" in value:
        raise InvalidArgumentError(f"{what} must not contain NUL characters (PostgreSQL text cannot hold them)")


def check_fragment(fragment: object) -> Fragment:
    """The fragment, after checking each field's type (a wrong one would otherwise fail deep in the driver)."""
    if not isinstance(fragment, Fragment):
        raise InvalidArgumentError("expected a scopedb.Fragment")
    _text(fragment.project, "a fragment's project", optional=False)
    _text(fragment.content, "a fragment's content", optional=False)
    for value, what in ((fragment.id, "a fragment's id"), (fragment.resource_id, "a fragment's resource_id"),
                        (fragment.path, "a fragment's path"), (fragment.fqn, "a fragment's fqn"),
                        (fragment.tier, "a fragment's tier")):  # fmt: skip
        _text(value, what)
    if fragment.token_count is not None and (
        isinstance(fragment.token_count, bool) or not isinstance(fragment.token_count, int)
    ):
        raise InvalidArgumentError("a fragment's token_count must be an integer")
    for stamp, what in ((fragment.valid_from, "valid_from"), (fragment.valid_to, "valid_to")):
        if stamp is not None and not isinstance(stamp, dt.datetime):
            raise InvalidArgumentError(f"a fragment's {what} must be a datetime")
    return fragment


#: The most bytes a node's path and fqn may hold together (UTF-8): graph_nodes_scope_length_check, which keeps the
#: node's scope key, the one its edges reference, inside a btree entry.
NODE_SCOPE_BYTES = 1500


def check_node(node: object) -> NodeIn:
    """The node, after checking each field's type and that its path and fqn fit the node's scope key."""
    if not isinstance(node, NodeIn):
        raise InvalidArgumentError("expected a scopedb.ingest.NodeIn")
    _text(node.project, "a node's project", optional=False)
    _text(node.id, "a node's id", optional=False)
    _text(node.kind, "a node's kind", optional=False)
    for value, what in ((node.label, "a node's label"), (node.resource_id, "a node's resource_id"),
                        (node.path, "a node's path"), (node.fqn, "a node's fqn")):  # fmt: skip
        _text(value, what)
    size = len((node.path or "").encode()) + len((node.fqn or "").encode())
    if size > NODE_SCOPE_BYTES:
        raise InvalidArgumentError(
            f"node {node.id!r}: its path and fqn hold {size} bytes together; at most {NODE_SCOPE_BYTES} fit"
        )
    return node


def _batches(items: Iterable[T], size: int) -> Iterator[list[T]]:
    iterator = iter(items)
    while batch := list(islice(iterator, size)):
        yield batch


def _project_id(projects: dict[str, int], name: str, resource_id: str | None = None) -> int:
    try:
        return projects[name]
    except KeyError:
        raise ScopeViolationError(
            "a row's project is outside the scope",
            resource_ids=[resource_id] if resource_id else [],
            scope_project_names=projects,
            outside_project_names=[name],
        ) from None


def ingest_fragments_steps(
    state: SessionState, fragments: Iterable[Fragment], *, batch_size: int = DEFAULT_BATCH
) -> Steps[int]:
    """Insert or update fragments (keyed by project and id) in batches; returns how many rows were written.

    Fragments need an ``id`` (the caller's idempotency key). Within one call the last fragment with a key wins.
    """
    projects = yield from steps.project_names(state)
    dimension = yield from steps.embedding_dimension(state)
    written = 0
    statement = sqlfiles.query("ingest", "ingest_fragments")
    yield from steps.vector_types()
    for batch in _batches(fragments, batch_size):
        rows: dict[tuple[int, str], Fragment] = {}
        for fragment in map(check_fragment, batch):
            if not fragment.id:
                raise InvalidArgumentError("bulk ingest needs an id on every fragment (its idempotency key)")
            rows[(_project_id(projects, fragment.project, fragment.resource_id), fragment.id)] = fragment
        columns: dict[str, list[Any]] = {
            "project_id": [], "id": [], "resource_id": [], "path": [], "fqn": [], "content": [], "embedding": [],
            "tier": [], "token_count": [], "valid_from": [], "valid_to": [],
        }  # fmt: skip
        for (project_id, fragment_id), fragment in rows.items():
            columns["project_id"].append(project_id)
            columns["id"].append(fragment_id)
            columns["resource_id"].append(fragment.resource_id)
            columns["path"].append(fragment.path)
            columns["fqn"].append(fragment.fqn)
            columns["content"].append(fragment.content)
            columns["embedding"].append(vector_array(fragment.embedding, dimension))
            columns["tier"].append(fragment.tier)
            columns["token_count"].append(fragment.token_count)
            columns["valid_from"].append(fragment.valid_from)
            columns["valid_to"].append(fragment.valid_to)
        result = yield from steps.run(Statement(statement, columns))
        written += result.rowcount
    return written


def add_fragments_steps(state: SessionState, fragments: Iterable[Fragment]) -> Steps[list[str]]:
    """Insert fragments one by one (ids generated by the database when missing); returns their ids in order.

    A project outside the scope is refused here with a :class:`ScopeViolationError`; a resource outside it is
    refused by the database's WITH CHECK policy, with the same error.
    """
    projects = yield from steps.project_names(state)
    dimension = yield from steps.embedding_dimension(state)
    ids: list[str] = []
    insert = sqlfiles.query("session", "insert_fragment")
    for fragment in map(check_fragment, fragments):
        project_id = projects.get(fragment.project)
        if project_id is None:
            raise ScopeViolationError(
                "the fragment's project is outside the scope",
                resource_ids=[fragment.resource_id] if fragment.resource_id else [],
                scope_project_names=projects,
                outside_project_names=[fragment.project],
            )
        params = {
            "project_id": project_id,
            "id": fragment.id,
            "resource_id": fragment.resource_id,
            "path": fragment.path,
            "fqn": fragment.fqn,
            "content": fragment.content,
            "embedding": vector_literal(fragment.embedding, dimension),
            "tier": fragment.tier,
            "token_count": fragment.token_count,
            "valid_from": fragment.valid_from,
            "valid_to": fragment.valid_to,
        }
        result = yield from steps.run(Statement(insert, params))
        ids.append(str(result.scalar()))
    return ids


def ingest_graph_steps(
    state: SessionState,
    nodes: Iterable[NodeIn] = (),
    edges: Iterable[EdgeIn] = (),
    *,
    batch_size: int = DEFAULT_BATCH,
) -> Steps[tuple[int, int]]:
    """Insert or update graph nodes, then edges; returns (nodes written, edges written).

    An edge whose endpoints are not both visible in the scope is refused by the database, as is any row outside
    the scope; an edge between projects cannot even be expressed (both ends share the edge's project). An edge
    carries copies of its ends' resource, path and name, checked by foreign keys: if another transaction moves
    one of its ends (and commits) while this one writes the edge, the write fails with
    :class:`~scopedb.errors.ForeignKeyViolationError` — retry the transaction.
    """
    projects = yield from steps.project_names(state)
    node_count = edge_count = 0
    for batch in _batches(nodes, batch_size):
        by_key = {(_project_id(projects, n.project, n.resource_id), n.id): n for n in map(check_node, batch)}
        node_columns: dict[str, list[Any]] = {k: [] for k in ("project_id", "id", "resource_id", "kind", "label",
                                                              "path", "fqn")}  # fmt: skip
        for (project_id, node_id), node in by_key.items():
            node_columns["project_id"].append(project_id)
            node_columns["id"].append(node_id)
            node_columns["resource_id"].append(node.resource_id)
            node_columns["kind"].append(node.kind)
            node_columns["label"].append(node.label)
            node_columns["path"].append(node.path)
            node_columns["fqn"].append(node.fqn)
        result = yield from steps.run(Statement(sqlfiles.query("ingest", "ingest_graph_nodes"), node_columns))
        node_count += result.rowcount
    for edge_batch in _batches(edges, batch_size):
        edge_keys = {(_project_id(projects, e.project), e.src, e.relation, e.dst): e for e in edge_batch}
        edge_columns: dict[str, list[Any]] = {k: [] for k in ("project_id", "src", "relation", "dst", "weight")}
        for (project_id, src, relation, dst), edge in edge_keys.items():
            edge_columns["project_id"].append(project_id)
            edge_columns["src"].append(src)
            edge_columns["relation"].append(relation)
            edge_columns["dst"].append(dst)
            edge_columns["weight"].append(edge.weight)
        result = yield from steps.run(Statement(sqlfiles.query("ingest", "ingest_graph_edges"), edge_columns))
        edge_count += result.rowcount
    return node_count, edge_count


#: Files larger than this are skipped by :func:`ingest_directory` (a directory is not a place for data dumps, and
#: a file is read whole).
MAX_FILE_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class DirectorySummary:
    """What :func:`ingest_directory` did. ``skipped_files`` names each file it did not read, and why (names that
    are not UTF-8 are shown with escapes)."""

    files: int
    skipped: int
    fragments: int
    bytes: int
    seconds: float
    skipped_files: tuple[tuple[str, str], ...] = ()


def chunk_text(text: str, *, max_chars: int = 1200) -> list[str]:
    """Paragraphs, packed up to ``max_chars`` (a longer paragraph is split at ``max_chars``)."""
    chunks: list[str] = []
    current = ""
    for paragraph in (p.strip() for p in text.split("\n\n")):
        if not paragraph:
            continue
        while len(paragraph) > max_chars:
            chunks.append(paragraph[:max_chars])
            paragraph = paragraph[max_chars:]
        if current and len(current) + 2 + len(paragraph) > max_chars:
            chunks.append(current)
            current = ""
        current = f"{current}\n\n{paragraph}" if current else paragraph
    if current:
        chunks.append(current)
    return chunks


def ingest_directory(
    session: Ingests,
    root: Path,
    *,
    project: str,
    resource_id: str,
    embedder: Callable[[str], Sequence[float]] | None = None,
    max_chars: int = 1200,
    max_file_bytes: int = MAX_FILE_BYTES,
    progress: Callable[[int, int], None] | None = None,
) -> DirectorySummary:
    """Index every UTF-8 text file under ``root`` as fragments of ``resource_id``, keyed by relative path and
    chunk number (re-ingesting updates in place). Hidden directories and files, binary files, files larger than
    ``max_file_bytes``, names that are not UTF-8 or hold control characters, and anything that is not a regular
    file are skipped; so is a symbolic link whose target lies outside ``root`` — ``docs/setup.md -> ~/credentials``
    must not end up in a tenant's project. Directories are not followed through links."""
    started = time.perf_counter()
    top, candidates = _directory_files(root)
    fragments: list[Fragment] = []
    skipped: list[tuple[str, str]] = []
    total_bytes = files = 0
    for done, (relative, real) in enumerate(candidates, start=1):
        shown = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in relative)  # one line, always
        problem, text = _read_text(relative, real, top, max_file_bytes)
        if problem:
            skipped.append((shown, problem))
        else:
            files += 1
            total_bytes += len(text.encode("utf-8"))
            for n, chunk in enumerate(chunk_text(text, max_chars=max_chars)):
                fragments.append(
                    Fragment(
                        project=project,
                        id=f"{resource_id}:{relative}#{n}",
                        resource_id=resource_id,
                        path=relative,
                        content=chunk,
                        embedding=list(embedder(chunk)) if embedder else None,
                    )
                )
        if progress is not None:
            progress(done, len(candidates))
    written = session.ingest_fragments(fragments)
    return DirectorySummary(files, len(skipped), written, total_bytes, time.perf_counter() - started,
                            tuple(skipped))  # fmt: skip


def _directory_files(root: Path) -> tuple[str, list[tuple[str, str]]]:
    """The directory's real path, and (relative name, path on disk) of every file under it, links not followed
    into directories."""
    top = os.path.realpath(root)
    found: list[tuple[str, str]] = []
    for folder, dirs, names in os.walk(top, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if name.startswith("."):
                continue
            path = os.path.join(folder, name)
            found.append((os.path.relpath(path, top).replace(os.sep, "/"), path))
    return top, found


def _read_text(relative: str, path: str, top: str, max_bytes: int) -> tuple[str | None, str]:
    """The text of one file, or why it is skipped."""
    try:
        relative.encode("utf-8")
    except UnicodeEncodeError:
        return "the file name is not UTF-8", ""
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in relative):
        return "the file name holds control characters", ""
    real = os.path.realpath(path)
    if os.path.commonpath([real, top]) != top:
        return "a link to a file outside the directory", ""
    try:
        fd = os.open(real, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        return f"cannot be opened ({exc.strerror})", ""
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            return "not a regular file", ""
        if info.st_size > max_bytes:
            return f"larger than {max_bytes} bytes", ""
        raw = handle.read(max_bytes + 1)
    if len(raw) > max_bytes:
        return f"larger than {max_bytes} bytes", ""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return "binary or not UTF-8", ""
    if "\x00" in text:
        return "binary or not UTF-8", ""
    if not text:
        return "empty", ""
    return None, text
