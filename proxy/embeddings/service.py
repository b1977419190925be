"""Answering ``/v1/embeddings``: the bundled model (computed here, off the event loop) or an
upstream's embedding model, each input text looked up in the exact embedding cache first.

A request's log row says what it cost and saved: ``prompt_tokens`` counts every input,
``cached_tokens`` those answered from the cache (free), ``cost_usd`` prices the rest with the
model's ``[prices]`` input price and ``saved_usd`` the cached part.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import time
from typing import Any

import numpy as np

from proxy.config.sections import BUNDLED_UPSTREAM, ModelAlias
from proxy.config.settings import Settings
from proxy.embeddings.cache import Cached, EmbeddingCache, cache_key
from proxy.embeddings.local import LocalEmbeddingModel, reduce_dimensions
from proxy.embeddings.request import EmbeddingRequest, parse_embedding_request
from proxy.logs import log_access
from proxy.pipeline.call import Reply
from proxy.pricing import PriceBook
from proxy.storage.request_log import LogEntry
from proxy.wire.errors import (
    InvalidRequest,
    NotFound,
    ThriftyError,
    UpstreamError,
    error_message,
    openai_error_body,
)

log = logging.getLogger(__name__)

ENDPOINT = "embeddings"  # the request log's endpoint, the batch API's "/v1/embeddings"
UPSTREAM_PATH = "/embeddings"


class EmbeddingsService:
    """Serves ``/v1/embeddings`` for one proxy (see the module docstring).

    ``embedder``: the proxy's shared embedder (the semantic cache's), or a lazily loaded one of its own;
    ``upstream``: the proxy's upstream client; ``record``: queues a finished :class:`LogEntry`
    (request log, metrics); ``metrics``: the proxy's ``ProxyMetrics`` (its registry gets the embedding counters).
    """

    def __init__(self, settings: Settings, engine, embedder, upstream, record, metrics=None) -> None:
        self._config = settings.embeddings
        self._aliases = {alias.name: alias for alias in settings.models}
        self._local = LocalEmbeddingModel(embedder) if settings.embeddings.enabled and embedder is not None else None
        self._cache = EmbeddingCache(engine, settings.embeddings.cache_ttl_s) if settings.embeddings.cache else None
        self._upstream = upstream
        self._record = record
        self._prices = PriceBook(settings.prices)
        self._batch_discount = settings.batch.discount
        self._access_log = settings.proxy.access_log
        self._counters = _Counters(metrics.registry) if metrics is not None else None

    @property
    def local_model(self) -> str | None:
        """The public name of the bundled embedding model (None when it is not served)."""
        return self._config.model_name if self._local is not None else None

    @property
    def local(self) -> LocalEmbeddingModel | None:
        return self._local

    def check(self, data: dict[str, Any]) -> EmbeddingRequest:
        """The endpoint's body check, with the configured input limit."""
        return parse_embedding_request(data, self._config.max_inputs)

    async def handle(self, ctx, data: dict[str, Any]):
        """Answer one checked request (``ctx``: the pipeline's ``CallContext``); every request gets its log row."""
        entry = LogEntry(id=ctx.request_id, key_id=ctx.key_id, endpoint=ENDPOINT, status_code=0,
                         model_requested=data.get("model"), client_request_id=ctx.client_request_id,
                         batch_id=ctx.batch_id, cache_outcome="bypass", completion_tokens=0)
        headers: dict[str, str] = {}
        try:
            request = self.check(data)
            if self._local is not None and request.model == self._config.model_name:
                body = await self._answer_locally(ctx, request, entry, headers)
            else:
                body = await self._answer_upstream(ctx, request, data, self._alias(request.model), entry, headers)
        except ThriftyError as exc:
            self._finish(ctx, entry, exc.status, exc.message)
            raise
        except Exception as exc:
            log.exception("embeddings request %s failed", ctx.request_id)
            self._finish(ctx, entry, 500, f"internal error ({type(exc).__name__}); see the proxy log")
            raise
        self._finish(ctx, entry, 200)
        return Reply(200, body, headers)

    def _alias(self, model: str) -> ModelAlias:
        alias = self._aliases.get(model)
        if alias is None:
            local = [self._config.model_name] if self._local is not None else []
            raise NotFound(f"model {model!r} does not exist; embedding models: {local} and any configured model "
                           f"whose upstream serves /v1/embeddings ({sorted(self._aliases)})", param="model",
                           code="model_not_found")
        if alias.upstream == BUNDLED_UPSTREAM:
            hint = f"; use {self._config.model_name!r} for embeddings" if self._local is not None else ""
            raise InvalidRequest(f"model {model!r} is served by the bundled backend, which has no /v1/embeddings "
                                 f"endpoint (it is a chat model){hint}", param="model", code="endpoint_not_supported")
        return alias

    # --- the bundled model -------------------------------------------------------------------

    async def _answer_locally(self, ctx, request: EmbeddingRequest, entry: LogEntry,
                              headers: dict[str, str]) -> dict[str, Any]:
        local = self._local
        assert local is not None
        entry.model_served = entry.upstream = None
        headers["x-thrifty-upstream"] = "proxy"
        texts = request.texts if request.texts is not None else await asyncio.to_thread(local.decode, request.tokens)
        dim = await asyncio.to_thread(lambda: local.dim) if local.known_dim is None else local.known_dim
        if request.dimensions is not None and request.dimensions > dim:
            raise InvalidRequest(f"'dimensions' is {request.dimensions}, but {request.model!r} makes vectors of "
                                 f"{dim}; ask for {dim} or fewer", param="dimensions", code="invalid_dimensions")
        keys = [cache_key(ctx.key_id, request.model, "", text) for text in texts]
        use_cache = self._cache is not None and not _says(ctx.cache_control, "no-cache")
        cached = await self._cache.get_many(keys) if use_cache else {}
        missing = [i for i, key in enumerate(keys) if key not in cached]
        unique = list(dict.fromkeys(keys[i] for i in missing))  # a text repeated in the batch is embedded once
        first = {key: i for i, key in reversed(list(enumerate(keys)))}
        fresh: dict[str, Cached] = {}
        truncated = 0
        if unique:
            todo = [texts[first[key]] for key in unique]

            def work() -> tuple[np.ndarray, list[int], int]:
                counted = local.count(todo)
                return local.embed(todo), counted.tokens, sum(counted.truncated)

            vectors, tokens, truncated = await asyncio.to_thread(work)  # (len(todo), dim) float32
            fresh = {key: Cached(vectors[j], tokens[j]) for j, key in enumerate(unique)}
            if self._cache is not None and not _says(ctx.cache_control, "no-store"):
                await self._cache.put_many(request.model, fresh)
        rows = [cached.get(key) or fresh[key] for key in keys]
        vectors = reduce_dimensions(np.stack([row.vector for row in rows]), request.dimensions)  # (n, dims)
        hit_tokens = sum(rows[i].tokens for i in range(len(rows)) if keys[i] in cached)
        total = sum(row.tokens for row in rows)
        self._note(entry, headers, request.model, total, hit_tokens, len(rows) - len(missing), len(rows))
        if truncated:
            headers["x-thrifty-embeddings-truncated"] = str(truncated)
        return _body(vectors, request, total)

    # --- an upstream's model -------------------------------------------------------------------

    async def _answer_upstream(self, ctx, request: EmbeddingRequest, data: dict[str, Any], alias: ModelAlias,
                               entry: LogEntry, headers: dict[str, str]) -> dict[str, Any]:
        entry.upstream = headers["x-thrifty-upstream"] = alias.upstream
        base = {k: v for k, v in data.items() if k not in ("thrifty", "input", "encoding_format")}
        base["model"] = alias.model
        if request.texts is None or self._cache is None:  # token arrays go as they are, uncached
            payload = await self._post(ctx, alias, {**base, "input": data["input"],
                                                    "encoding_format": request.encoding_format})
            total = _usage_tokens(payload)
            self._note(entry, headers, request.model, total, 0, 0, request.count, lookup=False)
            entry.model_served = payload.get("model")
            payload["model"] = request.model
            return payload
        texts = request.texts
        variant = f"{alias.upstream}/{alias.model}|{request.dimensions}"
        keys = [cache_key(ctx.key_id, request.model, variant, text) for text in texts]
        cached = await self._cache.get_many(keys) if not _says(ctx.cache_control, "no-cache") else {}
        unique = list(dict.fromkeys(k for k in keys if k not in cached))
        first = {key: i for i, key in reversed(list(enumerate(keys)))}
        fresh: dict[str, Cached] = {}
        if unique:
            todo = [texts[first[key]] for key in unique]
            payload = await self._post(ctx, alias, {**base, "input": todo, "encoding_format": "float"})
            entry.model_served = payload.get("model")
            vectors = _upstream_vectors(payload, len(todo), alias.upstream)
            spent = _usage_tokens(payload)
            chars = sum(len(t) for t in todo) or 1
            fresh = {key: Cached(vectors[j], round(spent * len(todo[j]) / chars)) for j, key in enumerate(unique)}
            if not _says(ctx.cache_control, "no-store"):
                await self._cache.put_many(request.model, fresh)
        rows = [cached.get(key) or fresh[key] for key in keys]
        hit_tokens = sum(rows[i].tokens for i in range(len(rows)) if keys[i] in cached)
        total = sum(row.tokens for row in rows)
        self._note(entry, headers, request.model, total, hit_tokens, sum(k in cached for k in keys), len(rows))
        width = {row.vector.shape[0] for row in rows}
        if len(width) != 1:
            raise UpstreamError(f"upstream {alias.upstream!r} returned vectors of different lengths", status=502,
                                code="upstream_malformed")
        return _body(np.stack([row.vector for row in rows]), request, total)

    async def _post(self, ctx, alias: ModelAlias, body: dict[str, Any]) -> dict[str, Any]:
        reply = await self._upstream.post(alias.upstream, UPSTREAM_PATH, body, ctx.request_id,
                                          priority="batch" if ctx.batch_id is not None else None)
        if reply.status in (404, 405):
            raise InvalidRequest(f"upstream {alias.upstream!r} of model {alias.name!r} does not serve /v1/embeddings "
                                 f"(it answered {reply.status}: {error_message(reply.body)})", param="model",
                                 code="endpoint_not_supported")
        if reply.status >= 500:
            raise UpstreamError(f"upstream {alias.upstream!r} failed with status {reply.status}: "
                                f"{error_message(reply.body)}", code="upstream_error", status=502)
        if reply.status >= 400:
            fields = openai_error_body(reply.body, reply.status)["error"]
            error = ThriftyError(fields["message"], param=fields["param"], code=fields["code"], status=reply.status)
            error.type = fields["type"]
            raise error
        return reply.body

    # --- the log -------------------------------------------------------------------------------

    def _note(self, entry: LogEntry, headers: dict[str, str], model: str, total: int, hit_tokens: int, hits: int,
              inputs: int, lookup: bool = True) -> None:
        entry.prompt_tokens, entry.cached_tokens = total, hit_tokens
        entry.cache_outcome = ("exact" if hits == inputs else "miss") if lookup and self._cache is not None \
            else "bypass"
        headers["x-thrifty-cache"] = entry.cache_outcome
        if lookup and self._cache is not None:
            headers["x-thrifty-cache-hits"] = f"{hits}/{inputs}"
        if self._counters is not None:
            self._counters.observe(model, hits if lookup else 0, inputs - (hits if lookup else 0), total - hit_tokens)

    def _finish(self, ctx, entry: LogEntry, status: int, error: str | None = None) -> None:
        entry.status_code, entry.error = status, error
        entry.latency_ms = (time.perf_counter() - ctx.started) * 1000
        if status < 400 and entry.prompt_tokens is not None:
            paid = entry.prompt_tokens - (entry.cached_tokens or 0)
            cost = self._prices.cost(entry.model_requested, paid, 0)
            saved = self._prices.cost(entry.model_requested, entry.cached_tokens or 0, 0)
            if cost and ctx.batch_id is not None and self._batch_discount:
                entry.batch_saved_usd = cost * self._batch_discount
                cost -= entry.batch_saved_usd
                saved = (saved or 0.0) + entry.batch_saved_usd
            entry.cost_usd, entry.saved_usd = cost, saved
        if ctx.on_finish is not None:
            ctx.on_finish(entry)
        self._record(entry)
        if self._access_log:
            log_access(entry)


class _Counters:
    """Embedding counters on the proxy's Prometheus registry."""

    def __init__(self, registry) -> None:
        from prometheus_client import Counter

        self.inputs = Counter("thrifty_embedding_inputs", "Inputs of /v1/embeddings requests, by model and cache "
                              "outcome (hit: answered from the embedding cache, miss: embedded).",
                              ["model", "outcome"], registry=registry)
        self.tokens = Counter("thrifty_embedding_tokens", "Tokens embedded (cache misses only), by model.",
                              ["model"], registry=registry)

    def observe(self, model: str, hits: int, misses: int, tokens: int) -> None:
        name = model[:64]
        if hits:
            self.inputs.labels(name, "hit").inc(hits)
        if misses:
            self.inputs.labels(name, "miss").inc(misses)
        if tokens > 0:
            self.tokens.labels(name).inc(tokens)


def _says(cache_control: str | None, directive: str) -> bool:
    return bool(cache_control) and directive in cache_control.lower()


def _usage_tokens(payload: dict[str, Any]) -> int:
    usage = payload.get("usage") if isinstance(payload.get("usage"), dict) else {}
    value = usage.get("prompt_tokens", usage.get("total_tokens"))
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _upstream_vectors(payload: dict[str, Any], count: int, upstream: str) -> np.ndarray:
    """The (count, dim) float32 vectors of an upstream's float answer, in input order."""
    items = payload.get("data")
    if not isinstance(items, list) or len(items) != count:
        raise UpstreamError(f"upstream {upstream!r} returned {len(items) if isinstance(items, list) else 'no'} "
                            f"embeddings for {count} inputs", status=502, code="upstream_malformed")
    ordered = sorted(items, key=lambda item: item.get("index", 0) if isinstance(item, dict) else 0)
    try:
        return np.asarray([item["embedding"] for item in ordered], dtype=np.float32)
    except (KeyError, TypeError, ValueError):
        raise UpstreamError(f"upstream {upstream!r} returned malformed embeddings", status=502,
                            code="upstream_malformed") from None


def _body(vectors: np.ndarray, request: EmbeddingRequest, tokens: int) -> dict[str, Any]:
    """OpenAI's embeddings list (``vectors``: (n, dim) float32)."""
    if request.encoding_format == "base64":
        encoded: list[Any] = [base64.b64encode(np.ascontiguousarray(v, dtype="<f4").tobytes()).decode()
                              for v in vectors]
    else:
        encoded = vectors.tolist()
    return {"object": "list", "model": request.model,
            "data": [{"object": "embedding", "index": i, "embedding": e} for i, e in enumerate(encoded)],
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens}}


def build_embeddings(settings: Settings, engine, embedder, upstream, record, metrics=None) -> EmbeddingsService:
    """The proxy's embeddings service: it shares ``embedder`` (the semantic cache's and the router's);
    when neither needs one, it gets its own, loaded on its first request."""
    if embedder is None and settings.embeddings.enabled:
        from caches.embedder import SentenceTransformerEmbedder
        from proxy.pipeline.components import embedder_config

        embedder = SentenceTransformerEmbedder(embedder_config(settings))
    return EmbeddingsService(settings, engine, embedder, upstream, record, metrics=metrics)
