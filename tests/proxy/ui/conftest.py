"""A proxy with caches, a router and the admin UI in front of a scripted upstream (UI tests)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from proxy.config.sections import (
    AdminConfig,
    BundledBackendConfig,
    CacheSettings,
    DatabaseConfig,
    ModelAlias,
    ProxyConfig,
    RouterSettings,
    UpstreamConfig,
)
from proxy.config.settings import Settings
from proxy.http.app import create_app
from proxy.pricing import ModelPrice
from tests.support.servers import ScriptedUpstream, serve_in_thread

ADMIN_KEY = "admin-secret-key"
UPSTREAM_KEY = "sk-upstream-secret"


def ui_settings(upstream_url: str, data_dir: Path, *, semantic: bool) -> Settings:
    """Exact (and optionally semantic) cache, a heuristic router over two priced tiers that keeps
    routed prompts (``store_requests``), and the admin key."""
    return Settings(
        data_dir=str(data_dir),
        proxy=ProxyConfig(log_flush_interval_s=0.05),
        database=DatabaseConfig(url=f"sqlite+aiosqlite:///{data_dir / 'proxy.db'}"),
        bundled=BundledBackendConfig(enabled=False),
        upstreams=(UpstreamConfig("fake", upstream_url + "/v1", api_key=UPSTREAM_KEY),),
        models=(ModelAlias("small-m", "fake", "tiny-upstream"), ModelAlias("large-m", "fake", "huge-upstream")),
        prices=(ModelPrice("small-m", 0.1, 0.2), ModelPrice("large-m", 10.0, 30.0)),
        admin=AdminConfig(api_key=ADMIN_KEY),
        # hit counts flush; lookups wait for their embedding however busy the machine (no deadline)
        cache=CacheSettings(enabled=True, semantic=semantic, maintenance_interval_s=0.2, lookup_deadline_ms=0),
        router=RouterSettings(enabled=True, small_model="small-m", large_model="large-m", kind="heuristic",
                              threshold_mode="fixed", fixed_threshold=0.5, store_requests=True),
    )


@dataclass
class RunningProxy:
    url: str
    upstream: ScriptedUpstream
    db_path: Path


@pytest.fixture
def ui_proxy(tmp_path) -> Iterator[RunningProxy]:
    """A proxy without the semantic cache (no embedder): fast, for HTTP-level tests."""
    script = ScriptedUpstream(content="Paris.")
    with serve_in_thread(script) as up, serve_in_thread(create_app(ui_settings(up, tmp_path, semantic=False))) as url:
        yield RunningProxy(url, script, tmp_path / "proxy.db")


@pytest.fixture(scope="module")
def shared_ui_proxy(tmp_path_factory) -> Iterator[RunningProxy]:
    """One proxy (as :func:`ui_proxy`) for a module's tests that change nothing (bad input refused with a 400):
    an app's start and stop cost ~0.9 s, more than such a test itself."""
    data_dir = tmp_path_factory.mktemp("ui-shared")
    script = ScriptedUpstream(content="Paris.")
    with serve_in_thread(script) as up, serve_in_thread(create_app(ui_settings(up, data_dir, semantic=False))) as url:
        yield RunningProxy(url, script, data_dir / "proxy.db")
