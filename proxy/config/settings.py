"""Settings: one object from a TOML file plus ``THRIFTY_*`` environment variables.

This is the only module that reads configuration from the environment or from files. It is called
once at start-up (by the CLI); everything else receives the frozen dataclasses it builds.

Environment variables override the file: ``THRIFTY_<SECTION>__<KEY>`` sets ``[section] key``
(for example ``THRIFTY_PROXY__PORT=9000`` or ``THRIFTY_DATABASE__URL=postgresql+asyncpg://...``).
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from backend.config import BackendConfig
from caches.embedder import EMBEDDER_IMPLEMENTATIONS, EMBEDDING_DTYPES
from proxy.config.replica_names import REPLICA_CHOICES, REPLICA_SEPARATOR, expand_replicas
from proxy.config.sections import (
    AUTH_MODES,
    BUNDLED_UPSTREAM,
    ROUTER_MODES,
    AdminConfig,
    AuthSettings,
    BatchSettings,
    BundledBackendConfig,
    CacheKeySettings,
    CacheSettings,
    DatabaseConfig,
    EmbeddingsSettings,
    ModelAlias,
    ProxyConfig,
    RouterSettings,
    UpstreamConfig,
)
from proxy.config.shaping import ShapingOverride, ShapingSettings
from proxy.identity import ANONYMOUS
from proxy.pricing import ModelPrice

ENV_PREFIX = "THRIFTY_"
DEFAULT_DATA_DIR = "~/.local/share/thrifty"


class SettingsError(ValueError):
    """The configuration file or environment holds something unusable."""


@dataclass(frozen=True, slots=True)
class Settings:
    data_dir: str = DEFAULT_DATA_DIR
    proxy: ProxyConfig = field(default_factory=ProxyConfig)
    database: DatabaseConfig = field(default_factory=DatabaseConfig)
    bundled: BundledBackendConfig = field(default_factory=BundledBackendConfig)
    backend: BackendConfig = field(default_factory=BackendConfig)
    upstreams: tuple[UpstreamConfig, ...] = ()
    models: tuple[ModelAlias, ...] = ()
    prices: tuple[ModelPrice, ...] = ()
    admin: AdminConfig = field(default_factory=AdminConfig)
    cache: CacheSettings = field(default_factory=CacheSettings)
    router: RouterSettings = field(default_factory=RouterSettings)
    batch: BatchSettings = field(default_factory=BatchSettings)
    auth: AuthSettings = field(default_factory=AuthSettings)
    shaping: ShapingSettings = field(default_factory=ShapingSettings)
    embeddings: EmbeddingsSettings = field(default_factory=EmbeddingsSettings)

    @property
    def data_path(self) -> Path:
        return Path(self.data_dir).expanduser()

    @property
    def database_url(self) -> str:
        """The async SQLAlchemy URL of the database (``sqlite:///`` and ``postgresql://`` given their async
        drivers; raises ``proxy.storage.database_url.DatabaseUrlError`` for a URL that cannot be used)."""
        from proxy.storage.database_url import async_database_url

        return async_database_url(self.database.url) if self.database.url else self.default_database_url

    @property
    def default_database_url(self) -> str:
        """The SQLite file under ``data_dir`` used when ``[database] url`` is empty."""
        return f"sqlite+aiosqlite:///{self.data_path / 'thrifty.db'}"

    def upstream(self, name: str) -> UpstreamConfig:
        for upstream in self.upstreams:
            if upstream.name == name:
                return upstream
        raise SettingsError(f"unknown upstream {name!r}")

    def with_bundled_backend(self, base_url: str, *replica_urls: str, replica_choice: str = "prefix") -> Settings:
        """Point the bundled upstream at a running backend, or at several replicas of it (used by
        ``thrifty serve``)."""
        upstreams = tuple(u for u in self.upstreams if (u.replica_of or u.name) != BUNDLED_UPSTREAM)
        bundled = UpstreamConfig(BUNDLED_UPSTREAM, base_url, base_urls=[base_url, *replica_urls] if replica_urls
                                 else [], replica_choice=replica_choice)
        return replace(self, upstreams=(*expand_replicas([bundled]), *upstreams))


_SECTIONS = {"proxy": ProxyConfig, "database": DatabaseConfig, "bundled": BundledBackendConfig,
             "backend": BackendConfig, "admin": AdminConfig, "cache": CacheSettings, "router": RouterSettings,
             "batch": BatchSettings, "auth": AuthSettings, "shaping": ShapingSettings,
             "embeddings": EmbeddingsSettings}


def _coerce(value: Any, target: Any, where: str) -> Any:
    kind = str(target)
    try:
        if isinstance(value, str):
            if "bool" in kind:
                if value.lower() in ("1", "true", "yes", "on"):
                    return True
                if value.lower() in ("0", "false", "no", "off"):
                    return False
                raise ValueError(value)
            if "int" in kind and "None" not in kind:
                return int(value)
            if "float" in kind:
                return float(value)
            if "int" in kind and value:
                return int(value)
            if "None" in kind and value == "":
                return None
        return value
    except ValueError:
        raise SettingsError(f"{where}: cannot use {value!r} as {kind}") from None


def _section(cls, raw: Mapping[str, Any], where: str):
    known = {f.name: f.type for f in fields(cls)}
    unknown = set(raw) - set(known)
    if unknown:
        raise SettingsError(f"[{where}] has unknown keys {sorted(unknown)}; known: {sorted(known)}")
    return cls(**{k: _coerce(v, known[k], f"[{where}] {k}") for k, v in raw.items()})


def client_defaults(environ: Mapping[str, str] | None = None) -> tuple[str, str]:
    """Where client commands (``thrifty batch``) find a proxy and which key they use:
    ``THRIFTY_BASE_URL`` (default http://127.0.0.1:8000/v1) and ``OPENAI_API_KEY`` (default none)."""
    env = os.environ if environ is None else environ
    return env.get("THRIFTY_BASE_URL", "http://127.0.0.1:8000/v1"), env.get("OPENAI_API_KEY", "")


def load_settings(path: str | Path | None = None, environ: Mapping[str, str] | None = None) -> Settings:
    """Read the TOML file (optional) and ``THRIFTY_*`` variables into a :class:`Settings`."""
    env = os.environ if environ is None else environ
    raw: dict[str, Any] = {}
    if path is not None:
        file = Path(path).expanduser()
        try:
            raw = tomllib.loads(file.read_text())
        except FileNotFoundError:
            raise SettingsError(f"config file {file} does not exist") from None
        except tomllib.TOMLDecodeError as exc:
            raise SettingsError(f"config file {file} is not valid TOML: {exc}") from None
    for key, value in env.items():
        if not key.startswith(ENV_PREFIX) or "__" not in key:
            continue
        section, name = key[len(ENV_PREFIX):].lower().split("__", 1)
        if section in _SECTIONS:
            raw.setdefault(section, {})[name] = value
    if "THRIFTY_DATA_DIR" in env:
        raw["data_dir"] = env["THRIFTY_DATA_DIR"]
    unknown = set(raw) - set(_SECTIONS) - {"data_dir", "upstreams", "models", "prices"}
    if unknown:
        raise SettingsError(f"unknown configuration sections {sorted(unknown)}")
    cache_keys = _cache_keys(raw.get("cache", {}))
    shaping_tables = _shaping_tables(raw.get("shaping", {}))
    sections = {name: _section(cls, raw.get(name, {}), name) for name, cls in _SECTIONS.items()}
    sections["cache"] = replace(sections["cache"], keys=cache_keys)
    sections["shaping"] = replace(sections["shaping"], **shaping_tables)
    for problem in sections["shaping"].problems():
        raise SettingsError(f"[shaping] {problem}")
    if not 0 <= sections["cache"].memo_ttl_s <= 3600:
        raise SettingsError(f"[cache] memo_ttl_s must be between 0 and 3600 seconds, got {sections['cache'].memo_ttl_s!r}")
    if sections["cache"].embed_implementation not in EMBEDDER_IMPLEMENTATIONS:
        raise SettingsError(f"[cache] embed_implementation must be one of {', '.join(EMBEDDER_IMPLEMENTATIONS)}, "
                            f"got {sections['cache'].embed_implementation!r}")
    if sections["cache"].embed_dtype not in EMBEDDING_DTYPES:
        raise SettingsError(f"[cache] embed_dtype must be one of {', '.join(EMBEDDING_DTYPES)}, "
                            f"got {sections['cache'].embed_dtype!r}")
    _check_batch(sections["batch"])
    _check_proxy(sections["proxy"])
    _check_cache(sections["cache"])
    _check_database(sections["database"])
    embeddings = sections["embeddings"]
    if embeddings.max_inputs < 1 or not embeddings.model_name.strip() or not embeddings.cache_ttl_s > 0:
        raise SettingsError("[embeddings] max_inputs must be >= 1, model_name non-empty and cache_ttl_s > 0")
    bundled = sections["bundled"]
    if bundled.replicas < 1 or bundled.replica_choice not in REPLICA_CHOICES:
        raise SettingsError(f"[bundled] replicas must be >= 1 and replica_choice one of {', '.join(REPLICA_CHOICES)}")
    if sections["proxy"].log_format not in ("text", "json"):
        raise SettingsError(f"[proxy] log_format must be text or json, got {sections['proxy'].log_format!r}")
    for name in ("body_timeout_s", "header_timeout_s", "request_deadline_s"):
        if not getattr(sections["proxy"], name) > 0:
            raise SettingsError(f"[proxy] {name} must be > 0 seconds, got {getattr(sections['proxy'], name)!r}")
    if sections["auth"].mode not in AUTH_MODES:
        raise SettingsError(f"[auth] mode must be one of {', '.join(AUTH_MODES)}, got {sections['auth'].mode!r}")
    if sections["auth"].assumed_max_tokens < 1:
        raise SettingsError("[auth] assumed_max_tokens must be at least 1")
    upstreams = []
    for i, item in enumerate(raw.get("upstreams", [])):
        upstream = _section(UpstreamConfig, item, f"upstreams[{i}]")
        if upstream.api_key_env and not upstream.api_key:
            upstream = replace(upstream, api_key=env.get(upstream.api_key_env, ""))
        _check_replicas(upstream, f"upstreams[{i}]")
        upstreams.append(upstream)
    upstreams = list(expand_replicas(upstreams))
    models = [ModelAlias(name=name, **{**(body := _section(_AliasBody, spec, f"models.{name}").__dict__),
                                       "fallbacks": tuple(body["fallbacks"])})
              for name, spec in raw.get("models", {}).items()]
    for alias in models:
        if alias.deadline_s is not None and not (isinstance(alias.deadline_s, int | float)
                                                 and not isinstance(alias.deadline_s, bool) and alias.deadline_s > 0):
            raise SettingsError(f"[models.{alias.name}] deadline_s must be > 0 seconds, got {alias.deadline_s!r}")
    prices = [_section(ModelPrice, {**spec, "model": name}, f"prices.{name}")
              for name, spec in raw.get("prices", {}).items()]
    settings = Settings(data_dir=str(raw.get("data_dir", DEFAULT_DATA_DIR)), upstreams=tuple(upstreams),
                        models=tuple(models), prices=tuple(prices), **sections)
    return _with_defaults(settings)


_SHA256_HEX = re.compile(r"^[0-9a-f]{64}$")
_TENANT_ID = re.compile(rf"^(key-[0-9a-f]{{24}}|{ANONYMOUS})$")


def _cache_keys(cache: dict[str, Any]) -> tuple[CacheKeySettings, ...]:
    """Take the ``[cache.keys.<name>]`` tables out of the raw ``[cache]`` section and check them."""
    specs = cache.pop("keys", {})
    if not isinstance(specs, dict) or not all(isinstance(v, dict) for v in specs.values()):
        raise SettingsError("[cache.keys] must hold one table per key: [cache.keys.<name>]")
    out: list[CacheKeySettings] = []
    owners: dict[str, str] = {}
    for name, spec in specs.items():
        where = f"cache.keys.{name}"
        key = _section(CacheKeySettings, {**spec, "name": name}, where)
        if bool(key.api_key_sha256) == bool(key.tenant):
            raise SettingsError(f"[{where}] needs exactly one of api_key_sha256 (hex SHA-256 of the API key) "
                                "or tenant (key-<24 hex>, as in the request log)")
        if key.api_key_sha256:
            digest = key.api_key_sha256.strip().lower()
            if not _SHA256_HEX.match(digest):
                raise SettingsError(f"[{where}] api_key_sha256 must be 64 hex digits (sha256sum of the key), "
                                    f"got {key.api_key_sha256!r}")
            key = replace(key, api_key_sha256=digest)
        elif not _TENANT_ID.match(key.tenant):
            raise SettingsError(f"[{where}] tenant must look like 'key-' + 24 hex digits or be "
                                f"{ANONYMOUS!r}, got {key.tenant!r}")
        for field_name in ("enabled", "semantic", "semantic_nondeterministic", "replay_sampled"):
            if getattr(key, field_name) not in (None, True, False):
                raise SettingsError(f"[{where}] {field_name} must be true or false")
        for field_name in ("ttl_s", "similarity_threshold"):
            value = getattr(key, field_name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
                raise SettingsError(f"[{where}] {field_name} must be a number, got {value!r}")
        if key.ttl_s is not None and not key.ttl_s > 0:
            raise SettingsError(f"[{where}] ttl_s must be > 0, got {key.ttl_s!r}")
        if key.similarity_threshold is not None and not 0 < key.similarity_threshold <= 1:
            raise SettingsError(f"[{where}] similarity_threshold must be in (0, 1], got {key.similarity_threshold!r}")
        if key.tenant_id in owners:
            raise SettingsError(f"[{where}] and [cache.keys.{owners[key.tenant_id]}] configure the same key")
        owners[key.tenant_id] = name
        out.append(key)
    return tuple(out)


def _check_batch(batch: BatchSettings) -> None:
    from proxy.config.batch_window import (  # the window's own parser says what is wrong
        BatchWindow,
        WindowError,
    )

    try:
        BatchWindow.parse(batch.window, batch.timezone)
    except WindowError as exc:
        raise SettingsError(f"[batch] {exc}") from None
    if not 0 <= batch.discount < 1:
        raise SettingsError(f"[batch] discount must be in [0, 1), got {batch.discount!r}")
    for name in ("max_file_bytes", "max_lines", "concurrency", "max_attempts", "passthrough_max_lines"):
        if getattr(batch, name) < 1:
            raise SettingsError(f"[batch] {name} must be at least 1, got {getattr(batch, name)!r}")
    if batch.busy_concurrency < 0 or batch.busy_quiet_s < 0:
        raise SettingsError("[batch] busy_concurrency and busy_quiet_s must be >= 0 (0: batch lines wait while "
                            "interactive requests run)")
    for name in ("lease_s", "poll_interval_s", "passthrough_collect_s", "passthrough_poll_s"):
        if not getattr(batch, name) > 0:
            raise SettingsError(f"[batch] {name} must be > 0, got {getattr(batch, name)!r}")


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value == value  # NaN is no number


def _check_limits(section: Any, where: str, *, positive: tuple[str, ...] = (), at_least_one: tuple[str, ...] = (),
                  non_negative: tuple[str, ...] = ()) -> None:
    """Refuse values that would break every request: ``positive`` fields must be > 0, ``at_least_one`` >= 1,
    ``non_negative`` >= 0 (where 0 means off or none)."""
    for names, ok, rule in ((positive, lambda v: v > 0, "> 0"), (at_least_one, lambda v: v >= 1, "at least 1"),
                            (non_negative, lambda v: v >= 0, ">= 0")):
        for name in names:
            value = getattr(section, name)
            if not _number(value) or not ok(value):
                raise SettingsError(f"[{where}] {name} must be {rule}, got {value!r}")


def _check_proxy(proxy: ProxyConfig) -> None:
    if isinstance(proxy.port, bool) or not isinstance(proxy.port, int) or not 1 <= proxy.port <= 65535:
        raise SettingsError(f"[proxy] port must be between 1 and 65535, got {proxy.port!r}")
    _check_limits(proxy, "proxy", positive=("connect_timeout_s", "request_timeout_s", "log_flush_interval_s"),
                  at_least_one=("max_body_bytes", "max_connections", "log_batch_size", "circuit_failures",
                                "log_max_pending", "log_backpressure_rows"),
                  non_negative=("max_retries", "retry_backoff_s", "max_retry_wait_s", "circuit_open_s",
                                "log_backpressure_max_wait_s"))


def _check_cache(cache: CacheSettings) -> None:
    threshold = cache.similarity_threshold
    if not _number(threshold) or not 0 < threshold <= 1:
        raise SettingsError(f"[cache] similarity_threshold must be in (0, 1] (a cosine similarity), got {threshold!r}")
    if not _number(cache.close_distance_factor) or not cache.close_distance_factor >= 1:
        raise SettingsError(f"[cache] close_distance_factor must be >= 1, got {cache.close_distance_factor!r}")
    if not _number(cache.reworded_part_threshold) or not 0 <= cache.reworded_part_threshold <= 1:
        raise SettingsError("[cache] reworded_part_threshold must be in [0, 1] (a cosine similarity; 0: off), got "
                            f"{cache.reworded_part_threshold!r}")
    _check_limits(cache, "cache", positive=("ttl_s", "maintenance_interval_s"),
                  at_least_one=("max_entries", "max_bytes", "max_entry_bytes", "embed_max_batch"),
                  non_negative=("lookup_deadline_ms", "batch_window_ms", "embed_threads"))
    if cache.batch_window_ms > 1000:
        raise SettingsError(f"[cache] batch_window_ms must be at most 1000, got {cache.batch_window_ms!r}")


def _check_database(database: DatabaseConfig) -> None:
    if not database.url:
        return
    from proxy.storage.database_url import DatabaseUrlError, async_database_url

    try:
        async_database_url(database.url)
    except DatabaseUrlError as exc:
        raise SettingsError(f"[database] url: {exc}") from None


def _check_base_url(url: str, where: str) -> None:
    """An upstream URL must be http(s) with a host (the password, if any, is masked in the message)."""
    from urllib.parse import urlsplit

    from proxy.masking import mask_url

    try:
        parts = urlsplit(url)
        usable = parts.scheme.lower() in ("http", "https") and bool(parts.hostname) and url == url.strip()
        parts.port  # noqa: B018 - raises on a port that is not a number or out of range
    except ValueError:
        usable = False
    if usable:
        return
    raise SettingsError(f"[{where}] base_url must be an http:// or https:// URL with a host, "
                        f"e.g. http://127.0.0.1:8001/v1; got {mask_url(url)!r}")


def _check_replicas(upstream: UpstreamConfig, where: str) -> None:
    if not isinstance(upstream.base_urls, list) or not all(isinstance(u, str) and u for u in upstream.base_urls):
        raise SettingsError(f"[{where}] base_urls must be a list of URLs")
    for url in (upstream.base_url, *upstream.base_urls):
        if url:
            _check_base_url(url, where)
    if upstream.base_urls and upstream.base_url and upstream.base_url not in upstream.base_urls:
        raise SettingsError(f"[{where}] give either base_url or base_urls (the replicas), not both")
    if not upstream.base_url and not upstream.base_urls:
        raise SettingsError(f"[{where}] needs base_url (or base_urls for replicas of one model)")
    if upstream.replica_choice not in REPLICA_CHOICES:
        raise SettingsError(f"[{where}] replica_choice must be one of {', '.join(REPLICA_CHOICES)}, "
                            f"got {upstream.replica_choice!r}")
    if upstream.replica_of or REPLICA_SEPARATOR in upstream.name:
        raise SettingsError(f"[{where}] upstream names may not contain {REPLICA_SEPARATOR!r} (replicas are named "
                            "<name>#<i> by Thrifty)")


def _shaping_tables(shaping: dict[str, Any]) -> dict[str, tuple[ShapingOverride, ...]]:
    """Take the ``[shaping.tiers|models|keys.<name>]`` tables out of the raw ``[shaping]`` section
    and check them (key tables are named like ``[cache.keys.<name>]``)."""
    out: dict[str, tuple[ShapingOverride, ...]] = {}
    for group in ("tiers", "models", "keys"):
        specs = shaping.pop(group, {})
        if not isinstance(specs, dict) or not all(isinstance(v, dict) for v in specs.values()):
            raise SettingsError(f"[shaping.{group}] must hold one table per name: [shaping.{group}.<name>]")
        tables: list[ShapingOverride] = []
        for name, spec in specs.items():
            where = f"shaping.{group}.{name}"
            table = _section(ShapingOverride, {**spec, "name": name}, where)
            if group == "tiers" and name not in ("small", "large"):
                raise SettingsError(f"[{where}] names no route tier; use [shaping.tiers.small] or "
                                    "[shaping.tiers.large]")
            if group != "keys" and (table.api_key_sha256 or table.tenant):
                raise SettingsError(f"[{where}] api_key_sha256 and tenant belong in [shaping.keys.<name>] tables")
            if group == "keys":
                if bool(table.api_key_sha256) == bool(table.tenant):
                    raise SettingsError(f"[{where}] needs exactly one of api_key_sha256 (hex SHA-256 of the API "
                                        "key) or tenant (key-<24 hex>, as in the request log)")
                digest = table.api_key_sha256.strip().lower()
                if table.api_key_sha256 and not _SHA256_HEX.match(digest):
                    raise SettingsError(f"[{where}] api_key_sha256 must be 64 hex digits (sha256sum of the key), "
                                        f"got {table.api_key_sha256!r}")
                if table.tenant and not _TENANT_ID.match(table.tenant):
                    raise SettingsError(f"[{where}] tenant must look like 'key-' + 24 hex digits or be "
                                        f"{ANONYMOUS!r}, got {table.tenant!r}")
                table = replace(table, api_key_sha256=digest)
            for problem in table.problems():
                raise SettingsError(f"[{where}] {problem}")
            tables.append(table)
        out[group] = tuple(tables)
    return out


@dataclass(frozen=True)
class _AliasBody:
    upstream: str
    model: str
    fallbacks: tuple[str, ...] = ()
    deadline_s: float | None = None


def _with_defaults(settings: Settings) -> Settings:
    """Add the bundled upstream and its model alias when the configuration does not name them."""
    upstreams = settings.upstreams
    if settings.bundled.enabled and not any(u.name == BUNDLED_UPSTREAM for u in upstreams):
        port = settings.bundled.port or 8001
        upstreams = (UpstreamConfig(BUNDLED_UPSTREAM, f"http://{settings.bundled.host}:{port}/v1"), *upstreams)
    models = settings.models
    served = settings.backend.served_model_name
    if settings.bundled.enabled and not any(m.name == served for m in models):
        models = (*models, ModelAlias(served, BUNDLED_UPSTREAM, served))
    router = settings.router
    small = router.small_model or (served if settings.bundled.enabled else "")
    router = replace(router, small_model=small, large_model=router.large_model or small,
                     enabled=router.enabled and bool(small))  # nothing to route to: no routed model
    settings = replace(settings, upstreams=upstreams, models=models, router=router)
    names = {u.name for u in upstreams}
    for alias in models:
        if alias.upstream not in names:
            raise SettingsError(f"model {alias.name!r} uses unknown upstream {alias.upstream!r}; known: {sorted(names)}")
    public = {m.name for m in models}
    for alias in models:
        for backup in alias.fallbacks:
            if backup not in public or backup == alias.name:
                raise SettingsError(f"model {alias.name!r} falls back to {backup!r}, which is not another configured "
                                    f"model; known: {sorted(public)}")
    if router.enabled:
        for tier, name in (("small_model", router.small_model), ("large_model", router.large_model)):
            if name not in public:
                raise SettingsError(f"[router] {tier} = {name!r} is not a configured model; known: {sorted(public)}")
        if router.public_model in public:
            raise SettingsError(f"[router] public_model {router.public_model!r} clashes with a configured model")
        if router.default_tier not in ("small", "large"):
            raise SettingsError(f"[router] default_tier must be 'small' or 'large', got {router.default_tier!r}")
    if router.mode not in ROUTER_MODES:
        raise SettingsError(f"[router] mode must be one of {', '.join(ROUTER_MODES)}, got {router.mode!r}")
    if not 0.0 <= router.direct_threshold <= 1.0:
        raise SettingsError(f"[router] direct_threshold must lie in [0, 1], got {router.direct_threshold!r}")
    if not 0.0 <= router.explore_share <= 1.0:
        raise SettingsError(f"[router] explore_share must lie in [0, 1], got {router.explore_share!r}")
    embedding = settings.embeddings.model_name
    if settings.embeddings.enabled and (embedding in public or (router.enabled and embedding == router.public_model)):
        raise SettingsError(f"[embeddings] model_name {embedding!r} clashes with a configured model; rename one")
    return settings
