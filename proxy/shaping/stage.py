"""The shaping stage the pipeline calls once per request, before the cache lookup: output cap
(``proxy.shaping.caps``) and prompt shaping (``proxy.shaping.prompt``), with the headers and
request-log fields that say what happened."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from proxy.shaping.caps import CapOutcome, apply_cap
from proxy.shaping.config import ShapingSettings, resolve
from proxy.shaping.prompt import shape_prompt


@dataclass(slots=True)
class ShapeResult:
    """What the stage did to one request: ``cap``, the shaping ``actions`` (short names such as
    ``tools-canonical`` or ``volatile-moved:2``) and the response ``headers`` to add."""

    cap: CapOutcome
    mode: str
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

    def __init__(self, settings: ShapingSettings) -> None:
        self._settings = settings

    def apply(self, data: dict[str, Any], *, tenant: str, model: str, tier: str | None,
              endpoint: str) -> ShapeResult:
        """Cap and shape ``data`` in place (nested values are replaced, never mutated, so other
        references to the caller's messages keep the original). Raises
        :class:`proxy.errors.InvalidRequest` when the policy refuses the request."""
        policy = resolve(self._settings, tenant=tenant, model=model, tier=tier)
        cap = apply_cap(data, policy)
        result = ShapeResult(cap=cap, mode=policy.mode)
        if cap.header is not None:
            result.headers["x-thrifty-cap"] = cap.header
        if policy.mode != "off" and endpoint == "chat":
            result.actions = shape_prompt(data, aggressive=policy.mode == "aggressive")
        if policy.mode != "off":
            result.headers["x-thrifty-shaping"] = "; ".join([policy.mode, *result.actions]) if result.actions \
                else f"{policy.mode}; unchanged"
        return result
