"""Replicas in the configuration: an upstream that lists several ``base_urls`` becomes one upstream
entry per replica when the settings load (``<name>#<i>`` for the second and later ones). The choice
between them at request time is :mod:`proxy.upstream.replicas`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol, TypeVar

REPLICA_CHOICES = ("prefix", "random")
REPLICA_SEPARATOR = "#"


class _Replicated(Protocol):
    """The fields of an upstream's configuration that replica expansion reads (a dataclass)."""

    name: str
    base_url: str
    base_urls: Sequence[str]
    replica_of: str


_U = TypeVar("_U", bound=_Replicated)


def expand_replicas(upstreams: Sequence[_U]) -> tuple[_U, ...]:
    """One upstream entry per replica: an upstream with ``base_urls`` keeps its name for the first
    replica and gains ``<name>#1``, ``<name>#2``... for the others (each with ``replica_of`` set)."""
    out: list[_U] = []
    for upstream in upstreams:
        urls = list(upstream.base_urls)
        if not urls or upstream.replica_of:
            out.append(upstream)
            continue
        out.append(replace(upstream, base_url=urls[0]))
        out += [replace(upstream, name=f"{upstream.name}{REPLICA_SEPARATOR}{i}", base_url=url,
                        replica_of=upstream.name) for i, url in enumerate(urls[1:], 1)]
    return tuple(out)
