"""Which sequences draft, how many tokens, and what came of it.

:class:`SpeculativeDecoder` sits between the engine and a drafter. Before each step it picks the
running sequences in decode (one uncomputed token, past their first output token, no presence /
frequency penalty), caps K by what the request may still produce, and asks the drafter for tokens;
after the target's forward it applies the exact acceptance rule (:mod:`.acceptance`) and keeps the
counters behind ``/metrics`` and the per-request usage extension.

Constrained sequences (``response_format`` or a forced tool call) draft with the n-gram drafter too: their
drafts are cut to the longest prefix the grammar accepts, and where prompt lookup finds nothing, the tokens the
grammar forces (a JSON object's keys and punctuation) are the draft. Each verified row is then masked by the
grammar at its own position (:mod:`backend.structured.masks`), so the answer is the one plain masked decoding
gives. Under ``tool_choice`` auto (a call block may open mid-draft) and with a draft model, they do not draft.

Automatic off: each sequence tracks an exponential moving average of its acceptance rate. Its drafts
are sized by it (about K × the average, at least one: a verification's cost grows with its rows, so a
doubtful guess is kept short), and when it falls below ``min_acceptance`` the sequence stops drafting
for a pause of output tokens that doubles each time (16, 32, … 1024), so a sequence whose drafts keep
failing (plain chat) soon pays nothing, while one that starts copying later (a quote at the end of a
summary) is tried again.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Protocol

import torch

from backend.engine.config import kv_bytes_per_token
from backend.engine.sequence import Sequence, SequenceStatus
from backend.runtime import LoadedModel
from backend.speculative.acceptance import Verdict, verify
from backend.speculative.config import SpeculativeConfig
from backend.speculative.ngram import NgramDrafter, NgramIndex

log = logging.getLogger(__name__)

_EMA_WEIGHT = 0.3  # weight of the newest verification in the acceptance average
_EMA_START = 0.6  # the average a sequence starts (and restarts after a pause) with: two failures pause it
_FIRST_PAUSE = 16  # output tokens without drafting after the first time acceptance drops too low
_MAX_PAUSE = 1024


class Drafter(Protocol):
    def propose(self, requests: list[tuple[Sequence, int]]) -> None:
        """Set ``draft_ids`` (at most k) and ``draft_probs`` ([len, V] or None) on each sequence."""
        ...


@dataclass(slots=True)
class SpecState:
    """One sequence's speculation history."""

    drafted: int = 0
    accepted: int = 0
    verifications: int = 0
    ema: float = _EMA_START
    paused_until: int = 0  # output length before which the sequence does not draft
    pause: int = _FIRST_PAUSE
    ngram: NgramIndex | None = None


@dataclass(frozen=True, slots=True)
class SpecCounters:
    """Totals since start: verifications (steps that checked drafts), draft and accepted tokens."""

    verifications: int = 0
    draft_tokens: int = 0
    accepted_tokens: int = 0

    @property
    def acceptance_rate(self) -> float:
        return self.accepted_tokens / self.draft_tokens if self.draft_tokens else 0.0

    @property
    def mean_accepted_length(self) -> float:
        """Tokens emitted per verification: accepted drafts + the target's own token."""
        return (self.accepted_tokens + self.verifications) / self.verifications if self.verifications else 0.0


class SpeculativeDecoder:
    """Drafting policy + verification for one engine."""

    def __init__(self, config: SpeculativeConfig, drafter: Drafter, max_model_len: int) -> None:
        self.config = config
        self.drafter = drafter
        self.max_model_len = max_model_len
        self.verifications = 0
        self.draft_tokens = 0
        self.accepted_tokens = 0
        # prompt lookup keeps no state tied to its drafts, so a grammar may cut or replace them
        self.grammar_drafts = isinstance(drafter, NgramDrafter)

    def counters(self) -> SpecCounters:
        return SpecCounters(self.verifications, self.draft_tokens, self.accepted_tokens)

    def _budget(self, seq: Sequence) -> int:
        """Draft tokens ``seq`` may verify now: K, capped so accepted drafts + one token fit its limits.

        A request with presence / frequency penalties never drafts: each verified row would need the
        penalties of its own prefix (the generated tokens plus the drafts before it), which neither the
        drafters nor the acceptance rule apply; it decodes one token per step, as without speculation."""
        if seq.status is not SequenceStatus.RUNNING or seq.num_uncomputed != 1 or seq.num_output < 1:
            return 0
        if seq.params.penalized or seq.params.call_grammars is not None:
            # tool_choice auto may become constrained mid-draft: one (possibly grammar-masked) token per step
            return 0
        if seq.matcher is not None and not self.grammar_drafts:
            return 0
        if seq.spec is None:
            seq.spec = SpecState()
        state: SpecState = seq.spec
        if seq.num_output < state.paused_until:
            return 0
        room = min(seq.params.max_tokens - seq.num_output, self.max_model_len - seq.num_tokens) - 1
        k = self.config.num_tokens
        if self.config.auto_off:
            k = max(1, min(k, int(k * state.ema + 0.5)))
        return max(0, min(k, room))

    def propose(self, running: list[Sequence]) -> None:
        """Draft for every running sequence that may (clears the drafts of the others), each at most
        ``config.step_rows // len(running) - 1`` tokens, so that the step's rows stay within it (beside a
        busy batch nobody drafts).

        The cut may depend on the other running requests because no answer depends on it: greedy rows
        keep the target's argmax, and seeded sampled rows replay plain decoding's own draws
        (:func:`backend.speculative.acceptance.verify_replayed`), so the same seed gives the same text
        however many tokens were drafted."""
        requests = []
        rows = self.config.step_rows
        limit = rows // max(len(running), 1) - 1 if rows else 1 << 30
        for seq in running:
            k = min(self._budget(seq), limit) if limit > 0 else 0
            if k:
                requests.append((seq, k))
            else:
                seq.draft_ids, seq.draft_probs = [], None
        self.drafter.propose(requests)  # also when nobody drafts: a drafter frees finished sequences' state
        for seq, k in requests:
            if seq.matcher is not None:
                fit_to_grammar(seq, k)

    def verify(self, seq: Sequence, target_logits: torch.Tensor, num_draft: int) -> Verdict:
        """target_logits: [num_draft + 1, V] for the sequence's last token and its first ``num_draft`` drafts."""
        draft = seq.draft_ids[:num_draft]
        probs = seq.draft_probs[:num_draft] if seq.draft_probs is not None else None
        verdict = verify(target_logits, draft, probs, seq.params, seq.generator)
        seq.draft_ids, seq.draft_probs = [], None
        self.verifications += 1
        self.draft_tokens += num_draft
        self.accepted_tokens += verdict.num_accepted
        state: SpecState = seq.spec
        state.verifications += 1
        state.drafted += num_draft
        state.accepted += verdict.num_accepted
        state.ema = (1 - _EMA_WEIGHT) * state.ema + _EMA_WEIGHT * (verdict.num_accepted / max(num_draft, 1))
        if self.config.auto_off and state.ema < self.config.min_acceptance:
            # stop drafting for a while; after the pause it gets a fresh chance at the threshold
            state.paused_until = seq.num_output + len(verdict.tokens) + state.pause
            state.pause = min(2 * state.pause, _MAX_PAUSE)
            state.ema = _EMA_START
        return verdict


def fit_to_grammar(seq: Sequence, k: int) -> None:
    """Cut a constrained sequence's drafts to the longest prefix its grammar accepts from its current state;
    when none is left, draft (up to ``k``) the tokens the grammar forces next instead. The matcher is
    not advanced."""
    matcher = seq.matcher
    valid = matcher.validate_tokens(seq.draft_ids) if seq.draft_ids else 0
    draft = seq.draft_ids[:valid]
    if not draft:
        forced = matcher.compute_ff_tokens()[:k]
        draft = forced[:matcher.validate_tokens(forced)] if forced else []
    seq.draft_ids, seq.draft_probs = draft, None


def build_speculative_decoder(config: SpeculativeConfig, loaded: LoadedModel, *, draft: LoadedModel | None,
                              num_blocks: int, block_size: int, attention_backend: str, max_num_seqs: int,
                              max_model_len: int) -> SpeculativeDecoder | None:
    """The decoder for ``config`` (None when off). Raises ValueError for a draft model that cannot draft
    for ``loaded`` (another vocabulary or tokenizer)."""
    if not config.enabled:
        return None
    drafter: Drafter
    if config.method == "ngram":
        drafter = NgramDrafter(config.ngram_min, config.ngram_max)
    else:
        from backend.speculative.draft_model import DraftModelDrafter, LayerPrefixModel

        if config.method == "self":
            model = LayerPrefixModel(loaded.model, self_draft_layers(config, loaded.model.config.num_layers))
            dtype, device = loaded.dtype, loaded.device
        else:
            if draft is None:
                raise ValueError("--speculative draft needs a loaded draft model (--speculative-model)")
            check_draft_compatible(loaded, draft, max_model_len)
            model, dtype, device = draft.model, draft.dtype, draft.device
        drafter = DraftModelDrafter(model, num_blocks, block_size, dtype, device, attention_backend,
                                    max_num_seqs, max_model_len)
    log.info("speculative decoding: %s, up to %d draft tokens per step%s", config.method, config.num_tokens,
             ", automatic off on low acceptance" if config.auto_off else "")
    return SpeculativeDecoder(config, drafter, max_model_len)


def self_draft_layers(config: SpeculativeConfig, total: int) -> int:
    """Leading layers of a ``self`` drafter: ``draft_layers``, or a quarter of ``total`` (at least one)."""
    layers = config.draft_layers or max(1, total // 4)
    if layers > total:
        raise ValueError(f"--speculative self: the draft uses {layers} layers but the model has {total}")
    return layers


def draft_kv_bytes_per_token(config: SpeculativeConfig, loaded: LoadedModel, draft: LoadedModel | None) -> int:
    """Bytes per token of the drafter's own KV pool (0 for ``off`` and ``ngram``), in the draft's dtype."""
    if config.method == "self":
        layers = self_draft_layers(config, loaded.model.config.num_layers)
        return kv_bytes_per_token(replace(loaded.model.config, num_layers=layers), loaded.dtype)
    if config.method == "draft" and draft is not None:
        return kv_bytes_per_token(draft.model.config, draft.dtype)
    return 0


def check_draft_compatible(target: LoadedModel, draft: LoadedModel, max_model_len: int | None = None) -> None:
    """Raise ValueError unless ``draft`` shares ``target``'s vocabulary and tokenizer, and (given
    ``max_model_len``) has positions for every token a sequence may reach."""
    positions = draft.model.config.max_position_embeddings
    if max_model_len is not None and positions < max_model_len:
        raise ValueError(f"the speculative draft model has {positions} positions but sequences may reach "
                         f"{max_model_len} tokens; use a draft model with a context of at least --max-model-len "
                         "or lower --max-model-len")
    tv, dv = target.model.config.vocab_size, draft.model.config.vocab_size
    if tv != dv:
        raise ValueError(f"the speculative draft model has a vocabulary of {dv} tokens but the target has {tv}; "
                         "a draft model must use the target's tokenizer")
    probe = "Speculative decoding probe: def f(x): return x * 2  # ünïcode"
    if target.tokenizer.encode(probe) != draft.tokenizer.encode(probe) or target.eos_ids != draft.eos_ids:
        raise ValueError("the speculative draft model's tokenizer differs from the target's; a draft model "
                         "must use the target's tokenizer")
    if draft.device != target.device:
        raise ValueError(f"the draft model is on {draft.device} but the target is on {target.device}")
