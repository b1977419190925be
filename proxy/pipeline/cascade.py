"""Cascade mode: the small tier answers, the escalation model judges, the large tier answers what it
judged weak (:class:`CascadeStage`, a part of :class:`proxy.pipeline.compose.Pipeline`)."""

from __future__ import annotations

import asyncio
import logging
import math
from typing import Any

import msgspec

from proxy.pipeline.answers import first_choice, header_number, header_text, structure_problem, usage_tokens
from proxy.pipeline.call import UPSTREAM_PATHS, Call, Reply, StreamReply, priority_of
from proxy.pipeline.components import cascadable
from proxy.pipeline.feedback import FeedbackRecord, json_output_check
from proxy.wire.errors import ThriftyError, error_message

log = logging.getLogger(__name__)

SMALL_ANSWER_MAX_CHARS = 32_000  # a stored small answer is cut here (escalation features read far less)


class CascadeStage:
    """The cascade's methods; they use the pipeline's routing, lookup, forwarding and logging."""

    def _cascades(self, call: Call) -> bool:
        """Cascade mode applies to routed single-choice chat requests without tools (``n`` > 1
        would need every choice judged, and an answer made of tool calls cannot be judged: those
        take the tier the first routing step chose). In combined mode the first step sends clearly
        hard prompts to the large tier directly; only those it leaves on the small tier cascade."""
        return (self._router is not None and self._router.escalator is not None and call.entry.route == "small"
                and call.ctx.endpoint == "chat" and cascadable(call.data))

    async def _cascade(self, call: Call) -> Reply | StreamReply:
        """The large tier's cached answer if there is one; else the small tier's answer (its cache,
        or a non-streaming call), which is kept unless the escalator judges it weak; then the large
        tier (cache included). A cached small answer is judged like a fresh one: it may have been
        stored for a request that named the small model and was never judged. A small-tier failure
        (any status >= 400, transport) escalates; a large-tier failure after a usable small answer
        falls back to that answer. Every paid call is counted in the log."""
        ctx, entry, data, headers = call.ctx, call.entry, call.data, call.headers
        large = self.resolve(self._router.tier_models["large"])
        small = call.alias
        self._use_alias(call, large)
        hit = await self._lookup(call)  # an earlier escalation's answer: no small call needed
        if hit is not None:
            entry.route, entry.cascade_outcome = "large", "escalated"
            headers.update({"x-thrifty-route": "large", "x-thrifty-cascade": "escalated",
                            "x-thrifty-route-reason": _cascade_reason(headers, "large-tier answer cached")})
            return self._serve_hit(call, hit)
        large_lookup = (call.cache_request, call.model_version, headers["x-thrifty-cache"], entry.cache_outcome)
        self._use_alias(call, small)
        small_hit = await self._lookup(call)
        small_lookup = (call.cache_request, call.model_version, headers["x-thrifty-cache"], entry.cache_outcome)
        payload, failure = await self._small_answer(call, small_hit)
        if payload is not None:
            text, finish_reason = first_choice(payload)
            if self._store_routed and isinstance(text, str):  # what the escalation model judged, for retraining
                entry.small_answer = text[:SMALL_ANSWER_MAX_CHARS]
            decision = await asyncio.to_thread(self._router.escalator.decide, data, text, finish_reason)
            score, threshold, reason, escalate = decision.score, decision.threshold, decision.reason, decision.escalate
            if small_hit is not None:
                reason = "cached small answer, " + reason
            problem = structure_problem(data, payload)
            if problem is not None:  # an answer that fails its schema is a weak answer, whatever its score
                escalate, reason = True, f"small answer fails its requested structure ({problem})"
        else:
            score, threshold, reason, escalate = math.nan, math.nan, failure, True
        headers["x-thrifty-cascade"] = entry.cascade_outcome = "escalated" if escalate else "accepted"
        headers["x-thrifty-cascade-score"] = header_number(score)
        headers["x-thrifty-cascade-threshold"] = header_number(threshold)
        headers["x-thrifty-route-reason"] = _cascade_reason(headers, reason)
        entry.route_score = None if math.isnan(score) else score
        if not escalate:
            assert payload is not None
            if small_hit is not None:
                return self._serve_hit(call, small_hit, payload)
            return self._serve_small(call, payload)

        if payload is not None and small_hit is None:  # the small call is paid for though its answer is dropped
            entry.extra_cost_usd = self._prices.cost(small.name, *usage_tokens(payload.get("usage")))
        if payload is not None:
            self._check_small_answer(call, payload)
        entry.route = "large"
        headers["x-thrifty-route"] = "large"
        self._use_alias(call, large)
        self._restore_lookup(call, large_lookup)  # the answer now comes from the large tier, whose cache missed

        def fall_back_to_small(exc: ThriftyError) -> Reply | StreamReply:
            if payload is None:
                self._finish(ctx, entry, exc.status, error=exc.message)
                raise exc
            log.warning("cascade: the large tier failed after escalation (%s); serving the small answer", exc.message)
            entry.route, entry.cascade_outcome, entry.extra_cost_usd = "small", "escalation_failed", None
            headers.update({"x-thrifty-route": "small", "x-thrifty-cascade": "escalation_failed",
                            "x-thrifty-route-reason": _cascade_reason(headers, f"large tier failed: {exc.message}")})
            self._use_alias(call, small)
            self._restore_lookup(call, small_lookup)
            if small_hit is not None:
                return self._serve_hit(call, small_hit, payload)
            return self._serve_small(call, payload, store=False)

        return await self._forward(call, fallback=fall_back_to_small)

    async def _small_answer(self, call: Call, hit) -> tuple[dict[str, Any] | None, str]:
        """The small tier's answer to judge: the cached one, or a fresh non-streaming call.
        Returns ``(payload, "")`` or ``(None, why it failed)``."""
        if hit is not None:
            return msgspec.json.decode(hit.body), ""
        body = self._upstream_body(call)
        body["stream"] = False
        body.pop("stream_options", None)
        try:
            reply = await self._upstream.post(call.alias.upstream, UPSTREAM_PATHS[call.ctx.endpoint], body,
                                              call.ctx.request_id, priority=priority_of(call.ctx))
        except ThriftyError as exc:
            return None, f"small tier failed: {exc.message}"
        if reply.status >= 400:  # the small tier's limits (context, rate, size) are not the caller's problem
            return None, f"small tier failed with status {reply.status}: {error_message(reply.body)}"
        return reply.body, ""

    @staticmethod
    def _restore_lookup(call: Call, lookup: tuple) -> None:
        """Put back one tier's cache lookup (request, model version, outcome) after the other's."""
        call.cache_request, call.model_version, call.headers["x-thrifty-cache"], call.entry.cache_outcome = lookup

    def _serve_small(self, call: Call, payload: dict[str, Any], *, store: bool = True) -> Reply | StreamReply:
        """Return the small tier's whole answer (as SSE chunks to a streaming client), logged;
        cached only when it was judged good enough (``store``)."""
        self._record_answer(call, payload, 200)
        if store:
            self._after_success(call, payload)
        payload["model"] = call.data["model"]
        payload.setdefault("object", "chat.completion")
        return self._whole_reply(call, payload)

    def _check_small_answer(self, call: Call, payload: dict[str, Any]) -> None:
        """Automatic checks of a small answer the cascade drops (the served answer's checks judge the
        large tier's): recorded as ``small_<check>`` feedback, which only escalation retraining reads."""
        if self._feedback_sink is not None and self._store_routed:
            score = json_output_check(call.data, payload)
            if score is not None:
                self._feedback_sink(FeedbackRecord(call.ctx.request_id, call.ctx.key_id, score, "small_json_check"))


def _cascade_reason(headers: dict[str, str], reason: str) -> str:
    """The cascade's route-reason header, still saying ``explore;`` when combined mode's explore_share sent
    the request into the cascade."""
    explored = headers.get("x-thrifty-route-reason", "").startswith(("explore: ", "explore; "))
    return header_text(("explore; " if explored else "") + "cascade: " + reason)
