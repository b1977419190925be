from __future__ import annotations

import pytest

from proxy.settings import (
    BundledBackendConfig,
    CacheSettings,
    DatabaseConfig,
    ModelAlias,
    ProxyConfig,
    RouterSettings,
    Settings,
    UpstreamConfig,
)


@pytest.fixture
def make_settings(tmp_path):
    """Settings for a proxy in front of one upstream at ``base_url`` with a test alias."""

    def build(base_url: str, cache: CacheSettings | None = None, router: RouterSettings | None = None,
              **proxy_overrides) -> Settings:
        """Caching and routing are off unless a test asks for them."""
        return Settings(
            cache=cache or CacheSettings(enabled=False),
            router=router or RouterSettings(enabled=False),
            data_dir=str(tmp_path),
            proxy=ProxyConfig(log_flush_interval_s=0.05, **proxy_overrides),
            database=DatabaseConfig(url=f"sqlite+aiosqlite:///{tmp_path / 'proxy.db'}"),
            bundled=BundledBackendConfig(enabled=False),
            upstreams=(UpstreamConfig("fake", base_url + "/v1", api_key="sk-upstream"),),
            models=(ModelAlias("gpt-test", "fake", "upstream-model"),),
        )

    return build
