"""The shaping stage the pipeline calls once per request, before the cache lookup, in this order:
default stop sequences, prompt shaping (``proxy.shaping.prompt``), the concise instruction,
context trimming (``proxy.shaping.trimming``), then the output cap (``proxy.shaping.caps``, with
the prompt cluster's learned cap when configured, ``proxy.shaping.learned``); with the headers and
request-log fields that say what happened."""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from proxy.config.shaping import ShapingSettings, resolve
from proxy.shaping.caps import ADDED_KINDS, CapOutcome, apply_cap, fit_added_limit
from proxy.shaping.learned import LearnedCaps, prompt_cluster
from proxy.shaping.prompt import NOTE_HEADER, document_marks, shape_prompt
from proxy.shaping.trimming import (
    ByteEstimate,
    LazyModelTokenizer,
    TokenCounter,
    request_overhead,
    trim_messages,
)

#: tokens a chat template adds that are not in the body's JSON text (role markers, a default system prompt)
_TEMPLATE_SLACK_TOKENS = 64

if TYPE_CHECKING:
    from proxy.config.settings import Settings


@dataclass(slots=True)
class ShapeResult:
    """What the stage did to one request: ``cap``, the shaping ``actions`` (short names such as
    ``tools-canonical`` or ``volatile-moved:2``) and the response ``headers`` to add."""

    cap: CapOutcome
    mode: str
    cluster: str = ""  # the prompt cluster (proxy.shaping.learned.prompt_cluster), logged for learned caps
    actions: list[str] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def summary(self) -> str | None:
        """The request log's ``shaping`` value: the mode and its actions (``None`` when off)."""
        if self.mode == "off":
            return None
        return ",".join([self.mode, *self.actions])[:256]


class ShapingStage:
    """Applies ``[shaping]`` (resolved per key, model and tier) to request bodies."""

    def __init__(self, settings: ShapingSettings, counters: dict[str, TokenCounter] | None = None,
                 late_system_models: Collection[str] = (), context_windows: dict[str, int] | None = None) -> None:
        """``counters``: token counters by public model name (the bundled model's tokenizer);
        other models' context is estimated from bytes. ``late_system_models``: the public names of
        models whose upstream takes a system message after the conversation (the bundled
        backend's ChatML template); ``note_position = "auto"`` puts the note at the end for them.
        ``context_windows``: context length by public model name, for models whose counter counts a
        prompt exactly (the bundled backend's): a default or learned limit is lowered to what the
        context has left after the prompt."""
        self._settings = settings
        self._counters = counters or {}
        self._windows = context_windows or {}
        self._late_system = frozenset(late_system_models)
        self._estimate = ByteEstimate()
        self.learned = LearnedCaps(settings.learned_quantile, settings.learned_min_samples, settings.learned_refresh_s,
                                   settings.learned_window_s)
        tables = (*settings.tiers, *settings.models, *settings.keys)
        self._learning = settings.learned_caps or any(t.learned_caps for t in tables)

    def learned_refresh_due(self) -> bool:
        """True when learned caps are configured somewhere and their refit is due (the caller then
        runs ``self.learned.refresh(engine)`` in the background)."""
        return self._learning and self.learned.due()

    @classmethod
    def from_settings(cls, settings: Settings) -> ShapingStage:
        """The stage for a proxy: models served by the bundled backend count with its tokenizer
        (loaded on first use, only when a context budget is configured)."""
        from proxy.config.sections import BUNDLED_UPSTREAM

        def load():
            from tokenization.models import resolve_model
            from tokenization.tokenizer import Tokenizer

            source = resolve_model(settings.backend.model_path, settings.data_path)
            return Tokenizer.load(source, settings.data_path)

        counter = LazyModelTokenizer(load)
        bundled = {alias.name: counter for alias in settings.models if alias.upstream == BUNDLED_UPSTREAM}
        # context windows are learned from the backend's model card once it answers (learn_context_windows)
        return cls(settings.shaping, bundled, late_system_models=bundled)

    async def learn_context_windows(self, base_url: str, api_key: str = "", models: Collection[str] = (),
                                    interval_s: float = 2.0, attempts: int = 300) -> int | None:
        """Read the bundled backend's context length from its model card (``GET {base_url}/models``,
        ``max_model_len``: the limit it enforces, model and KV pool included) and use it for
        ``models``, retrying while the backend starts; returns it, or None when it never answered.
        Until then no added limit is fitted. Also starts loading the tokenizer in the background."""
        import asyncio

        import httpx

        for counter in {id(c): c for c in self._counters.values()}.values():
            start = getattr(counter, "load_in_background", None)
            if start is not None:
                start()
        headers = {"authorization": f"Bearer {api_key}"} if api_key else {}
        async with httpx.AsyncClient(timeout=5.0) as client:
            for _ in range(attempts):
                try:
                    response = await client.get(base_url.rstrip("/") + "/models", headers=headers)
                    cards = response.json().get("data") if response.status_code == 200 else None
                    limits = [c.get("max_model_len") for c in cards or [] if isinstance(c, dict)]
                    window = min((v for v in limits if isinstance(v, int) and v > 0), default=None)
                except (httpx.HTTPError, ValueError, AttributeError):
                    window = None
                if window is not None:
                    self._windows.update(dict.fromkeys(models, window))
                    return window
                await asyncio.sleep(interval_s)
        return None

    def apply(self, data: dict[str, Any], *, tenant: str, model: str, tier: str | None,
              endpoint: str) -> ShapeResult:
        """Cap and shape ``data`` in place (nested values are replaced, never mutated, so other
        references to the caller's messages keep the original). Raises
        :class:`proxy.wire.errors.InvalidRequest` when the policy refuses the request."""
        policy = resolve(self._settings, tenant=tenant, model=model, tier=tier)
        result = ShapeResult(cap=CapOutcome(None, None), mode=policy.mode)
        chat = endpoint == "chat" and isinstance(data.get("messages"), list)
        marks = document_marks(data, chat=chat)  # the extension is checked under every mode, shaping or not
        if policy.stop and data.get("stop") is None:
            data["stop"] = list(policy.stop)
            result.actions.append("stops-default")
        if policy.mode != "off" and chat:
            result.actions += shape_prompt(data, aggressive=policy.mode == "aggressive",
                                           note_position=self.note_position(policy.note_position, model), marks=marks)
        if policy.concise and chat:
            data["messages"] = with_instruction(data["messages"], self._settings.concise_instruction)
            result.actions.append("concise")
        if policy.context_budget_tokens and chat:
            counter = self._counters.get(model, self._estimate)
            data["messages"], trim = trim_messages(data["messages"], policy.context_budget_tokens, counter,
                                                   fixed_tokens=request_overhead(data, counter))
            result.headers["x-thrifty-trim"] = trim.header
            if trim.dropped:
                result.actions.append(f"trimmed:{trim.dropped}")
        result.cluster = prompt_cluster(data, model)
        learned = self.learned.cap_for(tenant, result.cluster) if policy.learned_caps else None
        result.cap = apply_cap(data, policy, learned)
        if result.cap.kind in ADDED_KINDS and model in self._windows:
            result.cap = fit_added_limit(data, result.cap, self._prompt_tokens(data, model, endpoint, result.cap),
                                         self._windows[model])
        if result.cap.header is not None:
            result.headers["x-thrifty-cap"] = result.cap.header
        if policy.mode != "off" or result.actions:
            result.headers["x-thrifty-shaping"] = "; ".join([policy.mode, *result.actions]) if result.actions \
                else f"{policy.mode}; unchanged"
        return result

    def _prompt_tokens(self, data: dict[str, Any], model: str, endpoint: str, cap: CapOutcome) -> int | None:
        """The exact prompt tokens of ``data`` for a model with a known context, or ``None``. Skipped
        (None) when the body's text bytes plus the added limit fit the context anyway: a byte-level
        tokenizer's token is at least one byte, so then the limit cannot overflow and the tokenizer
        is not needed (most requests)."""
        counter = self._counters.get(model)
        count_prompt = getattr(counter, "count_prompt", None)
        if count_prompt is None or cap.max_tokens is None:
            return None
        text_bytes = len(json.dumps([data.get("messages"), data.get("prompt"), data.get("tools"),
                                     data.get("response_format")], ensure_ascii=False, default=str).encode())
        if text_bytes + _TEMPLATE_SLACK_TOKENS + cap.max_tokens <= self._windows[model]:
            return None
        return count_prompt(data, endpoint)

    def note_position(self, configured: str, model: str) -> str:
        """``system`` or ``end`` for a policy's ``note_position`` (``auto`` resolved per model)."""
        if configured != "auto":
            return configured
        return "end" if model in self._late_system else "system"


def with_instruction(messages: list[Any], instruction: str) -> list[Any]:
    """``messages`` with ``instruction`` at the end of the leading system message's stable part
    (before a shaping note), or as a new leading system message when there is none."""
    first = messages[0] if messages else None
    if isinstance(first, dict) and first.get("role") in ("system", "developer") and isinstance(first.get("content"),
                                                                                              str):
        text = first["content"]
        stable, marker, note = text.partition("\n\n" + NOTE_HEADER)
        if instruction in stable:
            return messages
        joined = f"{stable.rstrip()}\n{instruction}" if stable.strip() else instruction
        return [{**first, "content": joined + marker + note}, *messages[1:]]
    return [{"role": "system", "content": instruction}, *messages]
