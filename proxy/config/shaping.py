"""Frozen configuration of prompt shaping and output capping (built by ``proxy/config/settings.py`` from the
``[shaping]`` section and its ``[shaping.tiers.<tier>]``, ``[shaping.models.<name>]`` and
``[shaping.keys.<name>]`` tables; nothing here reads files or the environment).

Resolution: the ``[shaping]`` values, then the route tier's table, then the model's, then the
API key's; each later table's set fields win (unset fields inherit).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from proxy.identity import key_id_from_sha256

SHAPING_MODES = ("off", "safe", "aggressive")
NOTE_POSITIONS = ("auto", "system", "end")
OVER_LIMIT_POLICIES = ("clamp", "reject")

#: The out-of-the-box ``default_max_tokens``, chosen from the bundled model's answer lengths
#: (``thrifty eval shaping --part lengths``, BENCHMARKS.md "Output caps"): on 36 ordinary chat
#: prompts SmolLM2-135M-Instruct's answers that end by themselves are at most 342 tokens greedy
#: (p95 298) and 670 at temperature 1 (p95 559, 2 of 30 above 512), while 7 of 36 greedy and 6 of
#: 36 sampled answers never stop and run to whatever bound there is (the whole context without
#: one). 512 keeps every natural greedy answer whole and stops a runaway after ~20 s of decoding
#: instead of minutes; larger models write longer natural answers, so raise it per model.
DEFAULT_MAX_TOKENS = 512
CONCISE_INSTRUCTION = "Answer concisely: give the answer first, without preamble or repetition, then stop."
MAX_STOP_SEQUENCES = 4  # OpenAI's limit


@dataclass(frozen=True, slots=True)
class ShapingOverride:
    """One ``[shaping.tiers|models|keys.<name>]`` table; ``None`` fields inherit.

    Keys are named like ``[cache.keys.<name>]``: by ``api_key_sha256`` (hex SHA-256 of the bearer
    token) or ``tenant`` (``key-<24 hex>`` as in the request log, or ``anonymous``); tier and model
    tables are named by the tier (``small`` / ``large``) or the public model name.
    """

    name: str
    api_key_sha256: str = ""
    tenant: str = ""
    mode: str | None = None
    note_position: str | None = None
    default_max_tokens: int | None = None
    max_tokens_limit: int | None = None
    over_limit: str | None = None
    context_budget_tokens: int | None = None
    concise: bool | None = None
    stop: list[str] | None = None
    learned_caps: bool | None = None

    @property
    def tenant_id(self) -> str:
        """The request-log key id this key table applies to."""
        return self.tenant or key_id_from_sha256(self.api_key_sha256)

    def problems(self) -> list[str]:
        """What is wrong with the set values (empty when they are usable)."""
        return _problems(self)


@dataclass(frozen=True, slots=True)
class ShapingSettings:
    """The ``[shaping]`` section.

    ``mode``: prompt shaping ``off`` | ``safe`` | ``aggressive``; ``note_position``: where moved
    volatile spans go, ``system`` (end of the system prompt), ``end`` (a system message after the
    last message: the whole conversation stays a shared prefix, but some chat templates, e.g.
    Mistral's and Gemma's, refuse a system message that is not first) or ``auto`` (the default:
    ``end`` for models served by the bundled backend, whose ChatML template takes a system message
    anywhere, ``system`` for other upstreams); ``default_max_tokens``: the
    ``max_tokens`` a request without one gets (0: none is added); ``max_tokens_limit``: the hard
    maximum a request may ask for (0: no maximum); ``over_limit``: what happens above it,
    ``clamp`` (lowered to the maximum, said in ``x-thrifty-cap``) or ``reject`` (a 400).
    ``context_budget_tokens``: trim chat messages to this many tokens, oldest turns first (0: no
    trimming; see ``proxy.shaping.trimming``); ``concise``: append ``concise_instruction`` to the
    system prompt; ``stop``: stop sequences for requests that send none (at most 4).
    ``learned_caps``: a request without a limit gets its key and prompt cluster's learned cap
    (``learned_quantile`` of the logged answer lengths, answers cut at their cap counting as "at
    least the cap", once there are ``learned_min_samples`` answers that ended by themselves in the
    last ``learned_window_s``; refitted every ``learned_refresh_s``) instead of ``default_max_tokens`` (see ``proxy.shaping.learned``).
    """

    mode: str = "safe"
    note_position: str = "auto"
    default_max_tokens: int = DEFAULT_MAX_TOKENS
    max_tokens_limit: int = 0
    over_limit: str = "clamp"
    context_budget_tokens: int = 0
    concise: bool = False
    stop: list[str] = field(default_factory=list)
    learned_caps: bool = False
    concise_instruction: str = CONCISE_INSTRUCTION
    learned_quantile: float = 0.99
    learned_min_samples: int = 30
    learned_refresh_s: float = 300.0
    learned_window_s: float = 7 * 86400.0
    tiers: tuple[ShapingOverride, ...] = ()
    models: tuple[ShapingOverride, ...] = ()
    keys: tuple[ShapingOverride, ...] = ()

    def problems(self) -> list[str]:
        """What is wrong with the section's own values (not its tables)."""
        return _problems(self)


@dataclass(frozen=True, slots=True)
class ShapingPolicy:
    """The resolved settings for one request (key, model and tier applied)."""

    mode: str
    default_max_tokens: int
    max_tokens_limit: int
    over_limit: str
    context_budget_tokens: int = 0
    note_position: str = "auto"
    concise: bool = False
    stop: tuple[str, ...] = ()
    learned_caps: bool = False


_POLICY_FIELDS = tuple(f.name for f in fields(ShapingPolicy))


def resolve(settings: ShapingSettings, *, tenant: str, model: str, tier: str | None) -> ShapingPolicy:
    """The policy of one request: ``[shaping]``, then its tier's, model's and key's tables."""
    values = {name: getattr(settings, name) for name in _POLICY_FIELDS}
    layers = [next((t for t in settings.tiers if t.name == tier), None) if tier else None,
              next((m for m in settings.models if m.name == model), None),
              next((k for k in settings.keys if k.tenant_id == tenant), None)]
    for layer in layers:
        if layer is None:
            continue
        for name in _POLICY_FIELDS:
            value = getattr(layer, name)
            if value is not None:
                values[name] = value
    values["stop"] = tuple(values["stop"])
    return ShapingPolicy(**values)


def _problems(item: ShapingOverride | ShapingSettings) -> list[str]:
    out = []
    mode, over = item.mode, item.over_limit
    if mode is not None and mode not in SHAPING_MODES:
        out.append(f"mode must be one of {', '.join(SHAPING_MODES)}, got {mode!r}")
    if item.note_position is not None and item.note_position not in NOTE_POSITIONS:
        out.append(f"note_position must be one of {', '.join(NOTE_POSITIONS)}, got {item.note_position!r}")
    if over is not None and over not in OVER_LIMIT_POLICIES:
        out.append(f"over_limit must be one of {', '.join(OVER_LIMIT_POLICIES)}, got {over!r}")
    for name in ("default_max_tokens", "max_tokens_limit", "context_budget_tokens"):
        value = getattr(item, name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            out.append(f"{name} must be a whole number >= 0 (0: none), got {value!r}")
    for name in ("concise", "learned_caps"):
        if getattr(item, name) not in (None, True, False):
            out.append(f"{name} must be true or false, got {getattr(item, name)!r}")
    if isinstance(item, ShapingSettings):
        if not 0 < item.learned_quantile <= 1:
            out.append(f"learned_quantile must be in (0, 1], got {item.learned_quantile!r}")
        if item.learned_min_samples < 1 or not item.learned_refresh_s > 0 or not item.learned_window_s > 0:
            out.append("learned_min_samples must be >= 1 and learned_refresh_s, learned_window_s > 0")
    stop = item.stop
    if stop is not None and not (isinstance(stop, list | tuple) and len(stop) <= MAX_STOP_SEQUENCES
                                 and all(isinstance(s, str) and s for s in stop)):
        out.append(f"stop must be a list of at most {MAX_STOP_SEQUENCES} non-empty strings, got {stop!r}")
    return out
