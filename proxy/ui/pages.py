"""The UI's pages: a registry of (name, path, template, loader), and the loaders.

Adding a page is one :class:`Page` entry in :func:`default_pages` plus its template: the loader
gets a :class:`PageContext` (settings, the proxy's state, the query string, an open database
connection) and returns the template's variables, reading through ``proxy.storage.stats``.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from sqlalchemy.ext.asyncio import AsyncConnection

from proxy.config.settings import Settings
from proxy.storage.stats.batches_and_keys import api_keys, recent_batches
from proxy.storage.stats.cache_entries import (
    cache_groups,
    cache_tenants,
    contested_questions,
    most_hit_questions,
    recent_entries,
)
from proxy.storage.stats.latency import LATENCY_SAMPLE, latency_by_model, upstream_stats
from proxy.storage.stats.ranges import TimeRange
from proxy.storage.stats.requests import list_requests, request_detail
from proxy.storage.stats.routing import feedback_summary
from proxy.storage.stats.time_series import SAVING_CAUSES, Bucket, time_series, totals
from proxy.ui import charts
from proxy.ui.masking import mask_text, mask_url
from proxy.ui.params import (
    CACHE_OUTCOMES,
    PRESETS,
    ROUTES,
    BadParameter,
    ascii_int,
    make_cursor,
    parse_cursor,
    parse_range,
    parse_request_filter,
)
from proxy.ui.settings_view import masked_settings

PROBE_TIMEOUT_S = 1.5
PAGE_SIZE = 50
MAX_GROUPS = 100  # cache groups listed (most entries first)
#: a filtered request search without a From time looks this far back (an unindexed filter that
#: matches nothing would otherwise read the whole log)
SEARCH_WINDOW = timedelta(hours=24)
#: characters of a stored prompt the request page shows (all messages together); the rest is
#: counted, not sent: a 300,000-character prompt would make a page the browser cannot lay out
MAX_PROMPT_CHARS = 20_000


class PageNotFound(LookupError):
    """The page's subject (a request id, say) does not exist: the UI answers with its 404 page."""


@dataclass(slots=True)
class PageContext:
    """What a page loader may read."""

    settings: Settings
    state: Any  # proxy.http.app.ProxyState
    query: Mapping[str, str]
    path_params: Mapping[str, Any]
    conn: AsyncConnection
    now: datetime = field(default_factory=lambda: datetime.now(UTC))


Loader = Callable[[PageContext], Awaitable[dict[str, Any]]]


@dataclass(frozen=True, slots=True)
class Page:
    """One UI page: its navigation name, URL path (Litestar syntax), template and loader.

    ``nav``: listed in the navigation bar (detail pages are not).
    """

    name: str
    path: str
    template: str
    load: Loader
    nav: bool = True


def _label(t: datetime, bucket: str) -> str:
    return t.strftime("%m-%d %H:00" if bucket == "hour" else "%Y-%m-%d")


def _money(v: float) -> str:
    return f"${v:,.4f}" if abs(v) < 10 else f"${v:,.2f}"


def _range_vars(rng: TimeRange, preset: str) -> dict[str, Any]:
    return {"rng": rng, "preset": preset, "presets": list(PRESETS)}


# --- 1 overview -------------------------------------------------------------------------------


async def load_overview(ctx: PageContext) -> dict[str, Any]:
    rng, preset = parse_range(ctx.query, ctx.now)
    buckets = await time_series(ctx.conn, rng)
    total = totals(buckets)
    latency = await latency_by_model(ctx.conn, rng)
    labels = [_label(b.start, rng.bucket) for b in buckets]
    savings = [(cause, total.saved_by.get(cause, 0.0)) for cause in SAVING_CAUSES]
    cause_series = [(cause.replace("_", " "), f"c{i}", [b.saved_by.get(cause, 0.0) for b in buckets])
                    for i, cause in enumerate(SAVING_CAUSES)]
    return {
        **_range_vars(rng, preset),
        "buckets": buckets,
        "labels": labels,
        "total": total,
        "error_rate": total.errors / total.requests if total.requests else None,
        "savings": savings,
        "latency": latency,
        "latency_sample": LATENCY_SAMPLE,
        "charts": {
            "requests": charts.bars("Requests", labels, [
                ("answered", "s1", [b.requests - b.errors for b in buckets]),
                ("errors", "s3", [b.errors for b in buckets])]),
            "tokens": charts.bars("Tokens", labels, [
                ("prompt", "s1", [b.prompt_tokens for b in buckets]),
                ("completion", "s2", [b.completion_tokens for b in buckets])]),
            "money": charts.lines("Cost and savings (USD)", labels, [
                ("cost", "s3", [b.cost_usd for b in buckets]),
                ("saved", "s2", [b.saved_usd for b in buckets])], fmt=_money),
            "savings": charts.bars("Savings by cause (USD)", labels, cause_series, fmt=_money),
            "errors": charts.lines("Error rate", labels, [
                ("errors", "s3", [b.errors / b.requests if b.requests else None for b in buckets])],
                fmt=lambda v: f"{v:.0%}", y_max=1.0),
        },
    }


# --- 2 cache ----------------------------------------------------------------------------------


async def load_cache(ctx: PageContext) -> dict[str, Any]:
    rng, preset = parse_range(ctx.query, ctx.now)
    cache = ctx.state.cache
    removed = ctx.query.get("removed", "")
    if removed and ascii_int(removed, 0, 2**63 - 1) is None:
        raise BadParameter("removed must be a count")
    buckets = await time_series(ctx.conn, rng)
    total = totals(buckets)
    labels = [_label(b.start, rng.bucket) for b in buckets]

    def rate(hits: int, b: Bucket) -> float | None:
        return hits / b.cache_lookups if b.cache_lookups else None

    stats: dict[str, Any] = {}
    stats_error = None
    if cache is not None:
        try:
            stats = await cache.stats()
        except Exception as exc:  # noqa: BLE001 - shown on the page, the rest still renders
            stats_error = mask_text(f"{type(exc).__name__}: {exc}")
    groups = await cache_groups(ctx.conn)
    return {
        **_range_vars(rng, preset),
        "enabled": cache is not None,
        "semantic_enabled": ctx.settings.cache.enabled and ctx.settings.cache.semantic,
        "stats": stats,
        "stats_error": stats_error,
        "total": total,
        "groups": groups[:MAX_GROUPS],
        "more_groups": max(len(groups) - MAX_GROUPS, 0),
        "models": sorted({g.model for g in groups}),
        "tenants": await cache_tenants(ctx.conn),
        "most_hit": await most_hit_questions(ctx.conn),
        "contested": await contested_questions(ctx.conn),
        "recent": await recent_entries(ctx.conn),
        "removed": removed,
        "charts": {
            "hit_rate": charts.lines("Hit rate", labels, [
                ("exact", "s1", [rate(b.exact_hits, b) for b in buckets]),
                ("semantic", "s2", [rate(b.semantic_hits, b) for b in buckets])],
                fmt=lambda v: f"{v:.0%}", y_max=1.0),
            "lookups": charts.bars("Cache lookups", labels, [
                ("exact hit", "s1", [b.exact_hits for b in buckets]),
                ("semantic hit", "s2", [b.semantic_hits for b in buckets]),
                ("miss", "s4", [b.misses for b in buckets])]),
        },
    }


# --- 3 routing --------------------------------------------------------------------------------


def _file_date(path: Path) -> str | None:
    try:
        return datetime.fromtimestamp(os.path.getmtime(path), UTC).strftime("%Y-%m-%d %H:%M UTC")
    except OSError:
        return None


def _summarise(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(map(str, value)) if len(value) <= 6 else f"{len(value)} items"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_summarise(v)}" for k, v in value.items())
    return str(value)


def router_info(settings: Settings, stage: Any) -> dict[str, Any]:
    """The router in use: configuration, live threshold and the artifact's provenance."""
    import router as router_pkg

    r = settings.router
    info: dict[str, Any] = {"enabled": stage is not None, "public_model": r.public_model, "mode": r.mode,
                            "kind": r.kind, "threshold_mode": r.threshold_mode, "target": r.target_large_share,
                            "fixed_threshold": r.fixed_threshold, "small": r.small_model, "large": r.large_model,
                            "threshold": None, "error": None, "artifact": None}
    if stage is None:
        return info
    info["error"] = stage.error
    artifacts = Path(router_pkg.__file__).parent / "artifacts"
    policy = getattr(stage.escalator, "policy", None) or getattr(stage.router, "policy", None)
    if policy is not None:
        try:
            info["threshold"] = float(policy.threshold())
        except Exception:  # noqa: BLE001 - a policy without a threshold yet
            info["threshold"] = None
    if stage.escalator is not None:
        path = Path(r.escalation_path) if r.escalation_path else artifacts / "default_escalation.json"
        meta: dict[str, Any] = {}
        try:
            raw = json.loads(path.read_text())
            meta = {k: raw[k] for k in ("format", "version", "trained_on", "c") if k in raw}
        except (OSError, ValueError):
            pass
        info["artifact"] = {"kind": "escalation model", "path": str(path), "date": _file_date(path),
                            "details": {k: _summarise(v) for k, v in meta.items()}}
    else:
        classifier = getattr(stage.router, "classifier", None)
        if classifier is not None:
            path = Path(r.artifact_path) if r.artifact_path else artifacts / "default_router.joblib"
            training = dict(getattr(classifier, "training", {}) or {})
            spec = classifier.spec
            details = {"feature version": str(spec.feature_version), "embedder": str(spec.embedder)}
            details.update({k: _summarise(v) for k, v in training.items() if k != "mmlu_domains"})
            if "mmlu_domains" in training:
                details["mmlu_domains"] = f"{len(training['mmlu_domains'])} domains"
            info["artifact"] = {"kind": "learned classifier", "path": str(path), "date": _file_date(path),
                                "details": details}
    return info


async def load_routing(ctx: PageContext) -> dict[str, Any]:
    rng, preset = parse_range(ctx.query, ctx.now)
    buckets = await time_series(ctx.conn, rng)
    total = totals(buckets)
    labels = [_label(b.start, rng.bucket) for b in buckets]
    info = router_info(ctx.settings, ctx.state.router)
    hist, cascade = total.score_hist, total.cascade
    feedback = await feedback_summary(ctx.conn, rng)
    threshold = info["threshold"] if info["mode"] == "prompt" else None
    share_target = info["target"] if info["threshold_mode"] == "share" else None
    routed = total.small + total.large
    return {
        **_range_vars(rng, preset),
        "info": info,
        "total": total,
        "routed": routed,
        "large_share": total.large / routed if routed else None,
        "hist": hist,
        "cascade": [(name, cascade.get(name, 0)) for name in ("accepted", "escalated", "escalation_failed")]
        + [(k, v) for k, v in cascade.items() if k not in ("accepted", "escalated", "escalation_failed")],
        "cascade_total": sum(cascade.values()),
        "feedback": feedback,
        "charts": {
            "share": charts.lines("Large-tier share", labels, [
                ("large share", "s3", [b.large / (b.small + b.large) if b.small + b.large else None
                                       for b in buckets])], fmt=lambda v: f"{v:.0%}", y_max=1.0,
                reference=(share_target, f"target {share_target:.0%}") if share_target is not None else None),
            "tiers": charts.bars("Routed requests", labels, [
                ("small", "s1", [b.small for b in buckets]), ("large", "s3", [b.large for b in buckets])]),
            "scores": charts.histogram("Route scores", hist, marker=(threshold, f"threshold {threshold:.3f}")
                                       if threshold is not None else None),
            "feedback": charts.histogram("Feedback scores", feedback.histogram, cls="s2"),
        },
    }


# --- 4 requests -------------------------------------------------------------------------------


async def load_requests(ctx: PageContext) -> dict[str, Any]:
    filters = parse_request_filter(ctx.query)
    before = parse_cursor(ctx.query)
    windowed = None
    searching = any((filters.text, filters.model, filters.key_id, filters.route, filters.cache, filters.status))
    if searching and filters.start is None:
        windowed = ctx.now - SEARCH_WINDOW
        filters = replace(filters, start=windowed)
    rows, more = await list_requests(ctx.conn, filters, limit=PAGE_SIZE, before=before)
    keep = {k: v for k, v in ctx.query.items() if k != "before" and v}
    older = dict(keep, before=make_cursor(rows[-1]["created_at"], rows[-1]["id"])) if more and rows else None
    return {"rows": rows, "filters": filters, "older": older, "paged": before is not None, "keep": keep,
            "windowed": windowed, "window_hours": int(SEARCH_WINDOW.total_seconds() // 3600),
            "routes": ROUTES, "cache_outcomes": CACHE_OUTCOMES}


def _pretty_request(stored: str | None) -> list[tuple[str, str]] | None:
    """(role, text) pairs of a stored routing request; the raw JSON when it is not a chat."""
    if stored is None:
        return None
    try:
        data = json.loads(stored)
    except ValueError:
        return [("raw", stored)]
    messages = data.get("messages") if isinstance(data, dict) else None
    if not isinstance(messages, list):
        return [("raw", json.dumps(data, indent=2, ensure_ascii=False))]
    out = []
    for m in messages:
        if not isinstance(m, dict):
            continue
        content = m.get("content")
        text = content if isinstance(content, str) else json.dumps(content, indent=2, ensure_ascii=False)
        out.append((str(m.get("role", "?")), text))
    if data.get("prompt") is not None:
        out.append(("prompt", str(data["prompt"])))
    return out


@dataclass(frozen=True, slots=True)
class ShownMessage:
    """One message of a stored prompt as the request page shows it: its role, the text shown and
    how many characters of it were left out."""

    role: str
    text: str
    omitted: int = 0


@dataclass(frozen=True, slots=True)
class ShownPrompt:
    """A stored prompt cut to a character budget: the messages shown, and the messages (and their
    characters) after the budget ran out."""

    messages: list[ShownMessage]
    hidden_messages: int = 0
    hidden_chars: int = 0

    @property
    def omitted_chars(self) -> int:
        """Characters left out in all: cut from shown messages and in hidden ones."""
        return self.hidden_chars + sum(m.omitted for m in self.messages)


def clip_prompt(messages: list[tuple[str, str]], budget: int = MAX_PROMPT_CHARS) -> ShownPrompt:
    """The first ``budget`` characters of ``messages`` (in order); a message that starts after the
    budget is spent is only counted."""
    shown: list[ShownMessage] = []
    hidden_messages = hidden_chars = 0
    for role, text in messages:
        if budget <= 0 and shown:
            hidden_messages += 1
            hidden_chars += len(text)
            continue
        part = text[:max(budget, 0)]
        shown.append(ShownMessage(role, part, len(text) - len(part)))
        budget -= len(part)
    return ShownPrompt(shown, hidden_messages, hidden_chars)


async def load_request_detail(ctx: PageContext) -> dict[str, Any]:
    request_id = str(ctx.path_params.get("request_id", ""))
    detail = await request_detail(ctx.conn, request_id)
    if detail is None:
        raise PageNotFound(f"no request with id {request_id!r} in the request log")
    pretty = _pretty_request(detail.routing_request)
    return {"detail": detail, "row": detail.row, "prompt": None if pretty is None else clip_prompt(pretty),
            "max_prompt_chars": MAX_PROMPT_CHARS, "store_requests": ctx.settings.router.store_requests}


# --- 5 upstreams ------------------------------------------------------------------------------


def parse_prometheus(text: str) -> dict[str, float]:
    """Samples of a Prometheus text page by metric name, labels dropped and summed over label sets."""
    out: dict[str, float] = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        head, _, value = line.rpartition(" ")
        name = head.split("{", 1)[0].strip()
        try:
            out[name] = out.get(name, 0.0) + float(value)
        except ValueError:
            continue
    return out


async def _probe(client: httpx.AsyncClient, upstream) -> dict[str, Any]:
    """A live look at one upstream: ``GET <base>/models`` and the server's ``/metrics``."""
    headers = {"authorization": f"Bearer {upstream.api_key}"} if upstream.api_key else {}
    base = upstream.base_url.rstrip("/")
    out: dict[str, Any] = {"name": upstream.name, "base_url": mask_url(base), "healthy": False, "status": None,
                           "probe_ms": None, "metrics": None, "detail": None}
    started = asyncio.get_running_loop().time()
    try:
        reply = await client.get(f"{base}/models", headers=headers)
        out["status"], out["healthy"] = reply.status_code, reply.status_code < 400
        out["probe_ms"] = (asyncio.get_running_loop().time() - started) * 1000
    except httpx.HTTPError as exc:
        out["detail"] = mask_text(f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)
        return out
    parts = urlsplit(base)
    try:
        reply = await client.get(f"{parts.scheme}://{parts.netloc}/metrics")
        if reply.status_code == 200:
            out["metrics"] = _engine_metrics(parse_prometheus(reply.text))
    except httpx.HTTPError:
        pass
    return out


def _first(samples: dict[str, float], *names: str) -> float | None:
    return next((samples[n] for n in names if n in samples), None)


def _engine_metrics(s: dict[str, float]) -> dict[str, Any] | None:
    """Scheduler and KV-cache gauges of an inference server: the bundled backend's
    ``thrifty_engine_*`` names, else vLLM's or SGLang's; ``None`` when it exposes none of them."""
    total, used = s.get("thrifty_engine_kv_blocks_total"), s.get("thrifty_engine_kv_blocks_used")
    kv_usage = used / total if total and used is not None else _first(
        s, "vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc", "sglang:token_usage")
    hit_rate = _first(s, "thrifty_engine_prefix_cache_hit_rate", "vllm:gpu_prefix_cache_hit_rate",
                      "sglang:cache_hit_rate")
    if hit_rate is None and s.get("vllm:prefix_cache_queries_total"):
        hit_rate = s.get("vllm:prefix_cache_hits_total", 0.0) / s["vllm:prefix_cache_queries_total"]
    out = {"running": _first(s, "thrifty_engine_running_seqs", "vllm:num_requests_running", "sglang:num_running_reqs"),
           "waiting": _first(s, "thrifty_engine_waiting_seqs", "vllm:num_requests_waiting", "sglang:num_queue_reqs"),
           "kv_usage": kv_usage, "kv_blocks": (used, total), "kv_cached": s.get("thrifty_engine_kv_blocks_cached"),
           "prefix_hit_rate": hit_rate,
           "generation_tps": _first(s, "thrifty_engine_generation_tokens_per_second", "sglang:gen_throughput"),
           "preemptions": _first(s, "thrifty_engine_preemptions_total", "vllm:num_preemptions_total")}
    return out if any(v is not None for k, v in out.items() if k != "kv_blocks") else None


async def load_upstreams(ctx: PageContext) -> dict[str, Any]:
    rng, preset = parse_range(ctx.query, ctx.now)
    stats = {row.upstream: row for row in await upstream_stats(ctx.conn, rng)}
    async with httpx.AsyncClient(timeout=PROBE_TIMEOUT_S) as client:
        probes = await asyncio.gather(*[_probe(client, u) for u in ctx.settings.upstreams])
    names = [u.name for u in ctx.settings.upstreams] + sorted(set(stats) - {u.name for u in ctx.settings.upstreams})
    return {**_range_vars(rng, preset), "probes": {p["name"]: p for p in probes}, "stats": stats, "names": names,
            "aliases": ctx.settings.models, "sample": LATENCY_SAMPLE,
            "probe_timeout": PROBE_TIMEOUT_S}


# --- batch jobs and API keys ---------------------------------------------------------------------


async def load_batches(ctx: PageContext) -> dict[str, Any]:
    rows = await recent_batches(ctx.conn)
    return {"batches": rows, "window": ctx.settings.batch.window, "timezone": ctx.settings.batch.timezone,
            "discount": ctx.settings.batch.discount, "concurrency": ctx.settings.batch.concurrency,
            "batch_saved": sum(r.batch_saved_usd for r in rows)}


async def load_keys(ctx: PageContext) -> dict[str, Any]:
    return {"keys": await api_keys(ctx.conn), "mode": ctx.settings.auth.mode,
            "counters": "Redis" if ctx.settings.auth.redis_url else "this process"}


# --- 6 settings -------------------------------------------------------------------------------


async def load_settings_page(ctx: PageContext) -> dict[str, Any]:
    return {"sections": masked_settings(ctx.settings)}


def default_pages() -> list[Page]:
    """The UI's pages, in navigation order. Add a page here (and its template)."""
    return [
        Page("Overview", "/ui/overview", "overview.html", load_overview),
        Page("Cache", "/ui/cache", "cache.html", load_cache),
        Page("Routing", "/ui/routing", "routing.html", load_routing),
        Page("Requests", "/ui/requests", "requests.html", load_requests),
        Page("Request", "/ui/requests/{request_id:str}", "request.html", load_request_detail, nav=False),
        Page("Upstreams", "/ui/upstreams", "upstreams.html", load_upstreams),
        Page("Batches", "/ui/batches", "batches.html", load_batches),
        Page("Keys", "/ui/keys", "keys.html", load_keys),
        Page("Settings", "/ui/settings", "settings.html", load_settings_page),
    ]
