"""The engine: requests in (:meth:`Engine.add`), one batched forward per :meth:`Engine.step`, tokens out.

Synchronous and single-threaded by design: :class:`~backend.engine.service.EngineService` drives it
from its own loop thread. Each step schedules work (scheduler), copies the K/V of partial prefix-cache
hits into their fresh blocks, runs one forward over every scheduled token (model runner), registers
newly full blocks in the prefix cache, samples, detokenises incrementally, applies stop conditions and
frees the blocks of finished sequences.
"""

from __future__ import annotations

import itertools
import logging
import time
from collections import deque
from collections.abc import Sequence as Seq
from dataclasses import dataclass, field
from typing import Any

import torch

from backend.engine.block_manager import BlockManager
from backend.engine.config import EngineConfig, parse_kv_cache_dtype, pool_num_blocks
from backend.engine.model_runner import ModelRunner
from backend.engine.scheduler import Scheduler, SchedulerOutput
from backend.engine.sequence import Priority, Sequence
from backend.generation import RequestStats, TokenEvent
from backend.runtime import LoadedModel
from backend.sampling import SamplingParams, make_generator, sample, token_logprobs
from backend.stops import StopChecker
from backend.structured.masks import GrammarMasks, PendingMasks, advance
from tokenization.tokenizer import IncrementalDetokenizer

log = logging.getLogger(__name__)

_THROUGHPUT_WINDOW = 10.0  # tokens/s gauges: tokens of the last 10 s / 10 s


class EngineRequestError(ValueError):
    """A request the engine can never serve (too long for the context or the KV pool, bad ``n``)."""

    def __init__(self, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.message, self.param = message, param


@dataclass(slots=True)
class EngineOutput:
    """What one step produced for one request: token events, and whether the request is done."""

    request_id: str
    events: list[TokenEvent] = field(default_factory=list)
    finished: bool = False
    error: BaseException | None = None


@dataclass(frozen=True, slots=True)
class EngineMetrics:
    """A point-in-time snapshot of the engine's gauges and counters."""

    running: int = 0
    waiting: int = 0
    blocks_total: int = 0
    blocks_used: int = 0
    blocks_cached: int = 0
    blocks_free: int = 0
    prefix_cache_hit_rate: float = 0.0
    prefix_cache_queries: int = 0
    prefix_cache_hits: int = 0
    generation_tokens_per_s: float = 0.0
    prompt_tokens_per_s: float = 0.0
    preemptions: int = 0
    steps: int = 0
    generated_tokens: int = 0
    computed_prompt_tokens: int = 0
    spec_enabled: bool = False  # the engine speculates (its counters below are reported even at zero)
    spec_verifications: int = 0  # steps of a sequence that verified draft tokens
    spec_draft_tokens: int = 0
    spec_accepted_tokens: int = 0


@dataclass(slots=True, eq=False)
class _Request:
    request_id: str
    seqs: list[Sequence]
    stats: RequestStats
    arrival: float
    pending_forks: list[Sequence]
    unfinished: int
    started: bool = False


class Engine:
    """Paged KV cache + continuous batching + prefix caching over one loaded model."""

    def __init__(self, loaded: LoadedModel, config: EngineConfig | None = None, *,
                 draft: LoadedModel | None = None) -> None:
        """``draft``: the draft model of ``config.speculative.method == "draft"`` (same tokenizer)."""
        self.loaded = loaded
        model_config = loaded.model.config
        config = config or EngineConfig()
        self.max_model_len = min(config.max_model_len, model_config.max_position_embeddings)
        self.config = config
        kv_dtype = parse_kv_cache_dtype(config.kv_cache_dtype, loaded.dtype)
        draft_bytes = 0
        if config.speculative.enabled:
            from backend.speculative.decoder import draft_kv_bytes_per_token

            draft_bytes = draft_kv_bytes_per_token(config.speculative, loaded, draft)
        num_blocks = pool_num_blocks(config, model_config, kv_dtype, loaded.device, self.max_model_len,
                                     draft_bytes_per_token=draft_bytes)
        self.block_manager = BlockManager(num_blocks, config.block_size, config.enable_prefix_caching,
                                          partial_block_reuse=config.partial_block_reuse)
        self.scheduler = Scheduler(config, self.block_manager)
        self.runner = ModelRunner(loaded.model, num_blocks, config.block_size, loaded.dtype, loaded.device,
                                  config.attention_backend, kv_dtype, config.cuda_graphs, config.max_num_seqs,
                                  self.max_model_len, batch_invariant=config.batch_invariant)
        self.speculator = None
        if config.speculative.enabled:
            from backend.speculative.decoder import build_speculative_decoder

            self.speculator = build_speculative_decoder(
                config.speculative, loaded, draft=draft, num_blocks=num_blocks, block_size=config.block_size,
                attention_backend=self.runner.attention_backend, max_num_seqs=config.max_num_seqs,
                max_model_len=self.max_model_len)
        self._masks: GrammarMasks | None = None  # built with the first constrained request
        self._requests: dict[str, _Request] = {}
        self._seq_ids = itertools.count()
        self._history: deque[tuple[float, int, int]] = deque()  # (time, generated, prompt tokens) per step
        self.steps = 0
        self.generated_tokens = 0
        self.computed_prompt_tokens = 0
        if self.capacity_tokens < self.max_model_len:
            log.warning("the KV pool holds %d tokens, fewer than max_model_len=%d: longer requests are "
                        "refused; raise --kv-cache-memory", self.capacity_tokens, self.max_model_len)
        log.info("KV pool: %d blocks of %d tokens (%s, %.1f MiB), max_model_len=%d, max_num_seqs=%d, "
                 "max_num_batched_tokens=%d, prefix caching %s, chunked prefill %s", num_blocks,
                 config.block_size, str(kv_dtype).removeprefix("torch."), self.runner.kv_cache_bytes / 2**20, self.max_model_len, config.max_num_seqs,
                 config.max_num_batched_tokens, "on" if config.enable_prefix_caching else "off",
                 "on" if config.enable_chunked_prefill else "off")

    # ------------------------------------------------------------------ limits

    @property
    def capacity_tokens(self) -> int:
        """Tokens the whole KV pool holds: one sequence can never be longer."""
        return self.block_manager.num_blocks * self.block_manager.block_size

    def check_request(self, prompt_len: int, params: SamplingParams) -> None:
        """Raise :class:`EngineRequestError` naming the limit a request exceeds."""
        if prompt_len < 1:
            raise EngineRequestError("the prompt must not be empty", "prompt")
        total = prompt_len + params.max_tokens
        if total > self.max_model_len:
            raise EngineRequestError(
                f"the prompt's {prompt_len} tokens plus max_tokens={params.max_tokens} exceed the maximum "
                f"context length of {self.max_model_len} tokens (--max-model-len)", "max_tokens")
        if total > self.capacity_tokens:
            raise EngineRequestError(
                f"the prompt's {prompt_len} tokens plus max_tokens={params.max_tokens} can never fit in the KV "
                f"cache pool of {self.capacity_tokens} tokens (--kv-cache-memory)", "max_tokens")
        if not 1 <= params.n <= self.config.max_n:
            raise EngineRequestError(f"n must be between 1 and {self.config.max_n} (--max-n)", "n")

    # ------------------------------------------------------------------ requests

    def add(self, request_id: str, prompt_ids: Seq[int], params: SamplingParams, *,
            priority: Priority | str | None = None, stats: RequestStats | None = None, extra_key: Any = None,
            arrival: float | None = None) -> None:
        """Queue a request (``params.n`` choices). Raises :class:`EngineRequestError` if it can never run."""
        if request_id in self._requests:
            raise EngineRequestError(f"request id {request_id!r} is already running")
        prompt = [int(t) for t in prompt_ids]
        self.check_request(len(prompt), params)
        prio = Priority.parse(priority)
        arrival = time.perf_counter() if arrival is None else arrival
        stats = stats if stats is not None else RequestStats()
        stats.prompt_tokens = len(prompt)
        stats.speculative = self.speculator is not None
        tokenizer, eos = self.loaded.tokenizer, self.loaded.eos_ids
        stop_ids = frozenset(params.stop_token_ids) | (frozenset() if params.ignore_eos else frozenset(eos))
        seqs = []
        for index in range(params.n):
            seqs.append(Sequence(
                seq_id=next(self._seq_ids), request_id=request_id, index=index, token_ids=list(prompt),
                prompt_len=len(prompt), params=params, priority=prio, arrival=arrival, extra_key=extra_key,
                generator=make_generator(params, self.loaded.device, index),
                detok=IncrementalDetokenizer(tokenizer, prompt), stops=StopChecker(params.stop), stop_ids=stop_ids,
                matcher=params.grammar.matcher() if params.grammar is not None else None,
            ))
        if (params.grammar is not None or params.call_grammars is not None) and self._masks is None:
            self._masks = GrammarMasks(self.loaded.model.config.vocab_size)
        for child in seqs[1:]:
            child.fork_parent = seqs[0]
        self._requests[request_id] = _Request(request_id, seqs, stats, arrival, seqs[1:], len(seqs))
        self.scheduler.add(seqs[0])

    def abort(self, request_id: str) -> EngineOutput | None:
        """Stop a request now and free its blocks; returns its final ``abort`` events (None if unknown)."""
        req = self._requests.pop(request_id, None)
        if req is None:
            return None
        out = EngineOutput(request_id, finished=True)
        for seq in req.seqs:
            if not seq.is_finished:
                self.scheduler.remove(seq)
                seq.finish_reason = "abort"
                out.events.append(TokenEvent(seq.index, "", finish_reason="abort"))
        req.stats.total_time = time.perf_counter() - req.arrival
        return out

    def has_unfinished(self) -> bool:
        return bool(self._requests)

    @property
    def num_requests(self) -> int:
        return len(self._requests)

    def request_ids(self) -> list[str]:
        """Ids of the requests not finished yet."""
        return list(self._requests)

    # ------------------------------------------------------------------ the step

    def step(self) -> list[EngineOutput]:
        """Schedule, run one forward, sample, and report what each touched request produced."""
        if self.speculator is not None:
            try:
                self.speculator.propose(self.scheduler.running)
            except Exception:  # a drafter's fault costs this step its drafts, never the requests
                log.exception("speculative drafting failed; this step runs without drafts")
                for seq in self.scheduler.running:
                    seq.draft_ids, seq.draft_probs = [], None
        sched = self.scheduler.schedule()
        now = time.perf_counter()
        for seq in sched.admitted:
            req = self._requests.get(seq.request_id)
            if req is not None and not req.started:
                req.started = True
                req.stats.queue_time = now - req.arrival
                req.stats.cached_tokens = seq.num_cached_tokens
        if not sched.scheduled:
            self.scheduler.release_copies(sched)  # none are pending without scheduled work; never leak a hold
            return []
        pending = self._start_masks(sched)  # grammar masks fill on a worker thread during the forward
        try:
            self._run_copies(sched)
            logits, sample_seqs = self.runner.execute(sched.scheduled)
            rows = sched.first_rows(sample_seqs)  # first logits row of each sampled sequence
            if pending is not None:
                # each row of a sequence verifying drafts is masked by the grammar at its own position
                self._masks.apply(pending, logits, sample_seqs, rows)
        except Exception as exc:  # noqa: BLE001 - fail only the requests of this step; the engine goes on
            if pending is not None:
                pending.future.exception()  # never leave the worker mid-fill behind a failed step
            log.exception("engine step failed; failing %d sequence(s)", len(sched.scheduled))
            return self._fail({item.seq.request_id for item in sched.scheduled}, exc)
        self.steps += 1
        prompt_tokens = 0
        drafts: dict[int, int] = {}  # seq id → draft tokens it verifies in this step
        for item in sched.scheduled:
            seq = item.seq
            if item.num_draft:
                drafts[seq.seq_id] = item.num_draft  # advanced after verification
                continue
            if seq.num_computed < seq.prompt_len:
                prompt_tokens += min(item.num_tokens, seq.prompt_len - seq.num_computed)
            seq.num_computed += item.num_tokens
            self.block_manager.cache_full_blocks(seq)
        outputs: dict[str, EngineOutput] = {}
        if drafts:
            tokens = self._sample_around_drafts(logits, sample_seqs, drafts, rows)
        else:
            tokens = self._sample(logits, sample_seqs)
        generated = 0
        for row, seq, token in zip(rows, sample_seqs, tokens, strict=True):
            req = self._requests.get(seq.request_id)
            if req is None or seq.is_finished:
                continue
            try:
                if seq.seq_id in drafts:
                    generated += self._verify(req, seq, logits[row:row + drafts[seq.seq_id] + 1], outputs)
                    continue
                if req.pending_forks and seq is req.seqs[0]:
                    self._fork(req, seq, logits[row], outputs)
                self._append(req, seq, token, logits[row], outputs)
                generated += 1
            except Exception as exc:  # noqa: BLE001 - a bad request must not take the others down
                log.exception("post-processing failed for %s", seq.request_id)
                outputs.pop(seq.request_id, None)
                outputs.update({o.request_id: o for o in self._fail({seq.request_id}, exc)})
        self.generated_tokens += generated
        self.computed_prompt_tokens += prompt_tokens
        end = time.perf_counter()
        self._history.append((end, generated, prompt_tokens))
        while self._history and self._history[0][0] < end - _THROUGHPUT_WINDOW:
            self._history.popleft()
        return list(outputs.values())

    def _start_masks(self, sched: SchedulerOutput) -> PendingMasks | None:
        """Start filling the grammar masks of the constrained sequences that sample in this step."""
        if self._masks is None:
            return None
        return self._masks.start([(item.seq, item.num_draft) for item in sched.scheduled if item.samples])

    def _run_copies(self, sched: SchedulerOutput) -> None:
        """Copy the partial prefix matches' source blocks into the admitted sequences' fresh blocks, then
        release the sources (also when the copy fails: the step's requests fail, the holds never leak)."""
        try:
            self.runner.copy_blocks(sched.copy_pairs)
        finally:
            self.scheduler.release_copies(sched)

    def _sample(self, logits: torch.Tensor, seqs: list[Sequence]) -> list[int]:
        """One token per row of ``logits: [N, V]``: greedy rows with one argmax, the rest one by one."""
        if not seqs:
            return []
        greedy = [i for i, seq in enumerate(seqs) if seq.params.greedy]
        tokens = [0] * len(seqs)
        if len(greedy) == len(seqs):
            return logits.argmax(dim=-1).tolist()
        if greedy:
            picked = logits[greedy].argmax(dim=-1).tolist()
            for i, token in zip(greedy, picked, strict=True):
                tokens[i] = token
        for i, seq in enumerate(seqs):
            if not seq.params.greedy:
                tokens[i] = sample(logits[i], seq.params, seq.generator, _penalized_ids(seq))
        return tokens

    def _sample_around_drafts(self, logits: torch.Tensor, seqs: list[Sequence], drafts: dict[int, int],
                              rows: list[int]) -> list[int]:
        """Sample the sequences without drafts (``rows``: each sequence's first logits row).

        logits: [N, V] where a sequence verifying d drafts has d + 1 consecutive rows. Returns one token
        per sequence (-1 for the drafting ones, which :meth:`_verify` handles)."""
        plain = [i for i, seq in enumerate(seqs) if seq.seq_id not in drafts]
        tokens = [-1] * len(seqs)
        if plain:
            index = torch.tensor([rows[i] for i in plain], dtype=torch.int64, device=logits.device)
            picked = self._sample(logits.index_select(0, index), [seqs[i] for i in plain])
            for i, token in zip(plain, picked, strict=True):
                tokens[i] = token
        return tokens

    def _verify(self, req: _Request, seq: Sequence, row_logits: torch.Tensor,
                outputs: dict[str, EngineOutput]) -> int:
        """Accept the longest valid prefix of the verified drafts (row_logits: [d + 1, V]), append it and the
        target's next token, and roll the rejected positions' KV back. → tokens appended."""
        assert self.speculator is not None
        start = seq.num_computed  # the position of the last token before the drafts
        verdict = self.speculator.verify(seq, row_logits, row_logits.shape[0] - 1)
        req.stats.spec_verifications += 1
        req.stats.spec_draft_tokens += row_logits.shape[0] - 1
        req.stats.spec_accepted_tokens += verdict.num_accepted
        appended = 0
        for j, token in enumerate(verdict.tokens):
            self._append(req, seq, token, row_logits[j], outputs)
            appended += 1
            if seq.is_finished:
                return appended  # its blocks are freed already
        # K/V are valid for the last token and the accepted drafts; the rejected ones' slots are dropped
        seq.num_computed = start + 1 + verdict.num_accepted
        self.block_manager.truncate(seq, seq.num_tokens)
        self.block_manager.cache_full_blocks(seq)
        return appended

    def _fork(self, req: _Request, parent: Sequence, row_logits: torch.Tensor,
              outputs: dict[str, EngineOutput]) -> None:
        """The parent's prompt is computed: give each n > 1 sibling its blocks and first token."""
        children, req.pending_forks = req.pending_forks, []
        for child in children:
            child.fork_parent = None
            copies = self.block_manager.fork(parent, child) if self.scheduler.has_room() else None
            if copies is None:  # no room now: the sibling recomputes later (its prompt blocks are cached)
                self.scheduler.add(child)
                continue
            self.runner.copy_blocks(copies)
            self.scheduler.add_running(child)
            token = sample(row_logits, child.params, child.generator, _penalized_ids(child))
            self._append(req, child, token, row_logits, outputs)

    def _append(self, req: _Request, seq: Sequence, token: int, row_logits: torch.Tensor,
                outputs: dict[str, EngineOutput]) -> None:
        """Add a sampled token: detokenise, check stops, emit the event, finish if done."""
        stats, params = req.stats, seq.params
        if stats.ttft is None:
            stats.ttft = time.perf_counter() - req.arrival
        stats.completion_tokens += 1
        event = TokenEvent(seq.index, "", token_id=token)
        if params.logprobs:
            tokenizer = self.loaded.tokenizer
            event.logprob, alternatives = token_logprobs(row_logits, token, params.top_logprobs)
            event.top_logprobs = [(tokenizer.token_text(i), lp) for i, lp in alternatives]
            event.token_text = tokenizer.token_text(token)
        seq.token_ids.append(token)
        if seq.matcher is not None:
            advance(seq.matcher, token)
        assert seq.detok is not None and seq.stops is not None
        finish = None
        if token in seq.stop_ids:
            event.text, _ = seq.stops.release(seq.detok.text, final=True)
            finish = "stop"
        else:
            seq.detok.add(token)
            complete = seq.matcher is not None and seq.matcher.is_stopped()  # the grammar allows only EOS now
            if params.call_grammars is not None:  # tool_choice auto: a call block is constrained, the rest free
                complete = self._follow_calls(seq, complete)
            last = seq.num_output >= params.max_tokens or seq.num_tokens >= self.max_model_len
            event.text, hit = seq.stops.release(seq.detok.text, final=last or complete)
            if hit or complete:
                finish = "stop"
            elif last:
                finish = "length"
        event.finish_reason = finish
        out = outputs.get(req.request_id)
        if out is None:
            out = outputs[req.request_id] = EngineOutput(req.request_id)
        out.events.append(event)
        if finish:
            seq.finish_reason = finish
            self.scheduler.remove(seq)
            req.unfinished -= 1
            if req.unfinished == 0:
                req.stats.total_time = time.perf_counter() - req.arrival
                out.finished = True
                del self._requests[req.request_id]

    @staticmethod
    def _follow_calls(seq: Sequence, closed: bool) -> bool:
        """``tool_choice`` auto: constrain a ``<tool_call>`` block from the token that opened it until it is
        closed (then the choice is free again; returns False: it does not end there)."""
        if closed:
            seq.matcher = None
        elif seq.matcher is None:
            assert seq.detok is not None
            seq.matcher = seq.params.call_grammars.matcher_for(seq.detok.text)
        return False

    def _fail(self, request_ids: set[str], exc: BaseException) -> list[EngineOutput]:
        outputs = []
        for request_id in request_ids:
            req = self._requests.pop(request_id, None)
            if req is None:
                continue
            for seq in req.seqs:
                if not seq.is_finished:
                    self.scheduler.remove(seq)
                    seq.finish_reason = "error"
            req.stats.total_time = time.perf_counter() - req.arrival
            outputs.append(EngineOutput(request_id, finished=True, error=exc))
        return outputs

    # ------------------------------------------------------------------ observability

    def metrics(self) -> EngineMetrics:
        """A snapshot of the gauges (call from the engine's thread)."""
        bm = self.block_manager
        cutoff = time.perf_counter() - _THROUGHPUT_WINDOW
        recent = [h for h in self._history if h[0] >= cutoff]
        generated = sum(h[1] for h in recent)
        prompt = sum(h[2] for h in recent)
        return EngineMetrics(
            running=self.scheduler.num_running, waiting=self.scheduler.num_waiting,
            blocks_total=bm.num_blocks, blocks_used=bm.num_used_blocks, blocks_cached=bm.num_cached_blocks,
            blocks_free=bm.num_free_blocks, prefix_cache_hit_rate=bm.hit_rate,
            prefix_cache_queries=bm.prefix_queries, prefix_cache_hits=bm.prefix_hits,
            generation_tokens_per_s=generated / _THROUGHPUT_WINDOW,
            prompt_tokens_per_s=prompt / _THROUGHPUT_WINDOW,
            preemptions=self.scheduler.num_preemptions, steps=self.steps, generated_tokens=self.generated_tokens,
            computed_prompt_tokens=self.computed_prompt_tokens,
            **self._spec_metrics(),
        )

    def _spec_metrics(self) -> dict[str, int | bool]:
        if self.speculator is None:
            return {}
        c = self.speculator.counters()
        return {"spec_enabled": True, "spec_verifications": c.verifications, "spec_draft_tokens": c.draft_tokens,
                "spec_accepted_tokens": c.accepted_tokens}


def _penalized_ids(seq: Sequence) -> list[int]:
    """The generated tokens that presence / frequency penalties count: ``seq``'s own (each choice of an
    n > 1 request its own); none are copied for a request without penalties."""
    return seq.output_ids if seq.params.penalized else []
