"""The semantic cache's table rows: their columns, the rule that marks a question answered two ways as
contested, and the hand-over of stored vectors to the index."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

import numpy as np
from sqlalchemy import and_, case, or_

from caches.index import ScopedIndex
from caches.models import SemanticCacheEntry
from caches.semantic_choice import CONTESTED

_T = SemanticCacheEntry
ROW_COLUMNS = ("entry_key", "scope", "tenant", "model", "model_version", "query_text", "embedding", "embedding_dim",
               "embedder", "response", "response_sha256", "answer_sha256", "size_bytes", "created_at",
               "expires_at", "last_access_at", "hits")


def contested_answer(excluded: Any) -> Any:
    """SQL for ``answer_sha256`` when a store replaces an existing row (see :data:`CONTESTED`)."""
    current = _T.__table__.c
    return case(
        (
            and_(
                current.model_version == excluded.model_version,
                or_(current.expires_at.is_(None), current.expires_at > excluded.created_at),
                current.answer_sha256 != excluded.answer_sha256,
            ),
            CONTESTED,
        ),
        else_=excluded.answer_sha256,
    )


def _keeps_vector(excluded: Any) -> Any:
    """A row stored again without a vector (``embedding_dim`` 0) by the same embedder keeps its vector."""
    current = _T.__table__.c
    return and_(excluded.embedding_dim == 0, current.embedding_dim > 0, current.embedder == excluded.embedder)


def _kept(column: str) -> Any:
    def rule(excluded: Any) -> Any:
        current = _T.__table__.c
        return case((_keeps_vector(excluded), current[column]), else_=excluded[column])
    return rule


def _kept_size(excluded: Any) -> Any:
    current = _T.__table__.c
    return case((_keeps_vector(excluded), excluded.size_bytes + current.embedding_dim * 4), else_=excluded.size_bytes)


CONTEST_RULE = MappingProxyType({"answer_sha256": contested_answer, "embedding": _kept("embedding"),
                                 "embedding_dim": _kept("embedding_dim"), "size_bytes": _kept_size})
"""Upsert overrides: a replaced row with another answer for the same model version becomes contested,
and a row stored again without a vector keeps the one it has."""


def contests(earlier: dict[str, Any], later: dict[str, Any]) -> bool:
    """Two row values for one question (same batch): the same model version, different answers."""
    return (
        earlier["model_version"] == later["model_version"]
        and earlier["answer_sha256"] != later["answer_sha256"]
    )


def as_bytes(response: bytes | str) -> bytes:
    """A response body as bytes (text is UTF-8)."""
    return response.encode("utf-8") if isinstance(response, str) else bytes(response)


def add_to_index(index: ScopedIndex, by_scope: dict[str, tuple[list[int], list[bytes]]]) -> None:
    """Add float32 embedding bytes to their scopes' partitions (in the cache's thread pool)."""
    for scope, (ids, blobs) in by_scope.items():
        index.add(scope, ids, np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(ids), index.dim))
