"""Options of speculative decoding (torch-free, so CLI parsers and settings can import them)."""

from __future__ import annotations

from dataclasses import dataclass

#: ``--speculative`` values: no speculation, prompt lookup, a separate draft model, the target's first layers.
SPECULATIVE_METHODS = ("off", "ngram", "draft", "self")
#: ``--num-speculative-tokens`` range.
MAX_SPECULATIVE_TOKENS = 16
#: default ``max_step_rows``: rows a drafting step verifies at most, all sequences together.
DEFAULT_MAX_STEP_ROWS = 5


@dataclass(frozen=True, slots=True)
class SpeculativeConfig:
    """How the engine speculates.

    ``num_tokens``: K, the most draft tokens verified per sequence and step. ``draft_layers``: for
    ``self``, how many leading layers of the target draft (0: a quarter of them, at least one).
    ``ngram_min``/``ngram_max``: suffix lengths the prompt-lookup drafter tries, longest first.
    ``auto_off``: pause drafting for a sequence whose recent acceptance rate is below
    ``min_acceptance`` (the pause doubles each time, so a sequence that never accepts stops paying).
    ``max_step_rows``: the most rows one step verifies, all running sequences together (each sequence's
    own token plus its drafts; 0: no limit). Drafts are cut to fit, so a step with more than half this
    many sequences drafts nothing. Extra rows are cheap only while a step is small: on the AVX2 machine
    of BENCHMARKS.md (issue 16) one sequence verifying 4 drafts costs 1.6-1.8x a plain step, two
    sequences with a draft each cost 1.26x two plain rows, and three cost 1.4x three, more than plain
    chat's drafts return (12 sequences drafting: 0.92x; 3 with one draft each: 0.96x). The default, 5,
    lets one sequence draft K = 4 and two draft one token each. A limit below ``num_tokens + 1`` is
    raised to it (:attr:`step_rows`): a single stream always drafts the K it was given.
    """

    method: str = "off"
    num_tokens: int = 4
    model: str | None = None
    draft_layers: int = 0
    ngram_min: int = 2
    ngram_max: int = 4
    auto_off: bool = True
    min_acceptance: float = 0.3
    max_step_rows: int = DEFAULT_MAX_STEP_ROWS

    def __post_init__(self) -> None:
        if self.method not in SPECULATIVE_METHODS:
            raise ValueError(f"speculative method must be one of {', '.join(SPECULATIVE_METHODS)}; "
                             f"got {self.method!r}")
        if not 1 <= self.num_tokens <= MAX_SPECULATIVE_TOKENS:
            raise ValueError(f"num_speculative_tokens must be between 1 and {MAX_SPECULATIVE_TOKENS}; "
                             f"got {self.num_tokens}")
        if self.draft_layers < 0:
            raise ValueError(f"speculative draft layers must be >= 0, got {self.draft_layers}")
        if not 1 <= self.ngram_min <= self.ngram_max:
            raise ValueError(f"need 1 <= ngram_min <= ngram_max, got {self.ngram_min}, {self.ngram_max}")
        if self.max_step_rows < 0:
            raise ValueError(f"speculative max step rows must be >= 0 (0: no limit), got {self.max_step_rows}")
        if not 0.0 <= self.min_acceptance <= 1.0:
            raise ValueError(f"min_acceptance must be in [0, 1], got {self.min_acceptance}")
        if self.method == "draft" and not self.model:
            raise ValueError("--speculative draft needs --speculative-model (a model with the target's tokenizer)")
        if self.model and self.method != "draft":
            raise ValueError(f"--speculative-model is only used with --speculative draft, not {self.method!r}")

    @property
    def enabled(self) -> bool:
        return self.method != "off"

    @property
    def step_rows(self) -> int:
        """The row limit in force: ``max_step_rows``, but never below ``num_tokens + 1``, so that one
        sequence running alone always drafts its K (0: no limit)."""
        return max(self.max_step_rows, self.num_tokens + 1) if self.max_step_rows else 0
