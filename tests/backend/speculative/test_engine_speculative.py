"""Speculative decoding in the engine on the tiny random-weight Llama: greedy output equal to the oracle
for every drafter beside non-speculating sequences, under preemption, prefix caching and chunked
prefill; no leaked blocks (target and draft pools); abort; sampled outputs following the
non-speculative sampler's distribution; automatic off; refused configurations."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
import torch
from scipy.stats import chi2_contingency

from backend.engine import Engine, EngineConfig
from backend.engine.sequence import Sequence, SequenceStatus
from backend.generation import RequestStats
from backend.sampling import SamplingParams
from backend.speculative.config import SpeculativeConfig
from backend.speculative.decoder import SpeculativeDecoder
from backend.speculative.ngram import NgramDrafter
from tests.backend.test_engine_core import penalized_oracle_tokens
from tests.backend.test_engine_support import TINY, check_greedy_equal, oracle_tokens, run_engine, tiny_loaded

DRAFTERS = {  # max_step_rows=0: these tests batch up to 8 sequences, all of which must draft
    "ngram": SpeculativeConfig("ngram", 4, ngram_min=1, auto_off=False, max_step_rows=0),
    "self": SpeculativeConfig("self", 3, draft_layers=1, max_step_rows=0),
    "draft": SpeculativeConfig("draft", 5, model="the target itself", max_step_rows=0),
}


@pytest.fixture(scope="module")
def loaded():
    return tiny_loaded()


def spec_engine(loaded, spec: SpeculativeConfig, **overrides) -> Engine:
    options = dict(block_size=4, num_blocks=48, max_model_len=192, max_num_seqs=8, max_num_batched_tokens=32,
                   speculative=spec)
    options.update(overrides)
    return Engine(loaded, EngineConfig(**options), draft=loaded if spec.method == "draft" else None)


def copyish_requests(count: int, seed: int, temperature: float = 0.0) -> list[tuple[str, list[int], SamplingParams]]:
    """Prompts that repeat a motif (so prompt lookup finds matches), mixed with plain random ones."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        motif = [rng.randrange(2, TINY.vocab_size) for _ in range(rng.randrange(3, 7))]
        prompt = motif * rng.randrange(1, 5) + [rng.randrange(2, TINY.vocab_size) for _ in range(rng.randrange(1, 9))]
        params = SamplingParams(max_tokens=rng.randrange(1, 40), temperature=temperature, ignore_eos=True, seed=i)
        out.append((f"r{i}", prompt, params))
    return out


@pytest.mark.parametrize("method", list(DRAFTERS))
@pytest.mark.parametrize("prefix_caching", [True, False])
def test_greedy_output_equals_the_oracle_under_preemption(loaded, method: str, prefix_caching: bool) -> None:
    requests = copyish_requests(16, seed=3)
    requests += [(f"again{i}", prompt, params) for i, (_, prompt, params) in enumerate(requests[:4])]  # cache hits
    engine = spec_engine(loaded, DRAFTERS[method], enable_prefix_caching=prefix_caching, num_blocks=28)
    got = run_engine(engine, requests)
    for rid, prompt, params in requests:
        check_greedy_equal(loaded, prompt, oracle_tokens(loaded, prompt, params), got[rid][0])
    metrics = engine.metrics()
    assert metrics.spec_draft_tokens > 50 and metrics.spec_verifications > 20
    assert metrics.preemptions > 0  # the 28-block pool is too small for 8 running sequences
    if method == "draft":  # the target drafting for itself is always right
        assert metrics.spec_accepted_tokens == metrics.spec_draft_tokens
    bm = engine.block_manager
    bm.check_invariants()
    assert bm.num_used_blocks == 0
    if method != "ngram":
        drafter = engine.speculator.drafter
        drafter.propose([])  # releases the shadows of finished sequences
        assert drafter.num_shadows == 0 and drafter.block_manager.num_used_blocks == 0
        drafter.block_manager.check_invariants()


def test_speculating_and_plain_sequences_share_steps(loaded) -> None:
    """Sampled and greedy, drafting and not (max_tokens 1 never drafts), n > 1, all in one batch."""
    requests = copyish_requests(6, seed=5)
    requests.append(("one", [5, 6, 7], SamplingParams(max_tokens=1, temperature=0.0, ignore_eos=True)))
    requests.append(("many", [9, 9, 9, 9], SamplingParams(max_tokens=12, temperature=0.0, ignore_eos=True, n=3)))
    engine = spec_engine(loaded, DRAFTERS["ngram"], num_blocks=256)
    got = run_engine(engine, requests)
    for rid, prompt, params in requests:
        expected = oracle_tokens(loaded, prompt, replace(params, n=1))
        for index in range(params.n):
            check_greedy_equal(loaded, prompt, expected, got[rid][index])
    assert engine.block_manager.num_used_blocks == 0


def test_abort_while_speculating_frees_everything(loaded) -> None:
    engine = spec_engine(loaded, DRAFTERS["self"], num_blocks=256)
    for rid, prompt, params in copyish_requests(4, seed=8):
        engine.add(rid, prompt, replace(params, max_tokens=60))
    for _ in range(6):
        engine.step()
    assert engine.speculator.verifications > 0
    for rid in engine.request_ids():
        engine.abort(rid)
    assert engine.block_manager.num_used_blocks == 0
    engine.speculator.drafter.propose([])
    assert engine.speculator.drafter.block_manager.num_used_blocks == 0


def test_draft_state_of_finished_sequences_is_freed_by_the_next_step(loaded) -> None:
    """With the default row limit a batch of three drafts nothing; the shadows of aborted and
    finished sequences must still be freed by the following steps, not wait for a drafting step."""
    engine = spec_engine(loaded, SpeculativeConfig("self", 3, draft_layers=1), num_blocks=256)
    requests = copyish_requests(3, seed=8)
    engine.add("lone", requests[0][1], replace(requests[0][2], max_tokens=30))
    for _ in range(5):
        engine.step()
    assert engine.speculator.drafter.num_shadows == 1  # drafting alone
    engine.abort("lone")
    run_engine(engine, [(rid, prompt, replace(params, max_tokens=12)) for rid, prompt, params in requests])
    engine.step()  # the next step (here an idle one) frees what the last one finished
    assert engine.speculator.drafter.num_shadows == 0
    assert engine.speculator.drafter.block_manager.num_used_blocks == 0


def test_a_failing_drafter_costs_the_step_its_drafts_not_the_requests(loaded) -> None:
    class Broken:
        def propose(self, requests):
            if requests:
                raise RuntimeError("drafter broke")

    engine = spec_engine(loaded, DRAFTERS["ngram"])
    engine.speculator.drafter = Broken()
    requests = copyish_requests(4, seed=2)
    out = run_engine(engine, requests)  # asserts that no output carries an error
    for rid, prompt, params in requests:
        check_greedy_equal(loaded, prompt, oracle_tokens(loaded, prompt, params), out[rid][0])
    assert engine.speculator.verifications == 0


def test_request_stats_count_drafts(loaded) -> None:
    engine = spec_engine(loaded, DRAFTERS["draft"], num_blocks=256)
    stats = RequestStats()
    engine.add("a", [3, 4, 5, 6] * 3, SamplingParams(max_tokens=30, temperature=0.0, ignore_eos=True), stats=stats)
    while engine.has_unfinished():
        engine.step()
    assert stats.completion_tokens == 30
    assert stats.spec_draft_tokens > 0 and stats.spec_accepted_tokens == stats.spec_draft_tokens
    assert engine.steps < 30  # several tokens per step


def _position_counts(got: dict[str, dict[int, list[int]]], position: int) -> torch.Tensor:
    counts = torch.zeros(TINY.vocab_size)
    for choices in got.values():
        counts[choices[0][position]] += 1
    return counts


@pytest.mark.parametrize("method", ["ngram", "self"])
def test_sampled_outputs_follow_the_target_distribution(loaded, method: str) -> None:
    """Token frequencies at output positions 2-4 over 400 seeds: speculative vs the plain sampler.

    The prompt ends in the model's own greedy loop, so drafts are often plausible: both the acceptance
    and the residual resampling run hundreds of times. Two-sample chi-square per position (rare tokens
    pooled) at p > 1e-4: a false failure is a one-in-several-thousand event, while a biased rule
    (accepting drafts regardless of p, or resampling from p instead of the residual) shifts these
    frequencies far beyond it."""
    base = [4, 9, 13]
    prompt = base + oracle_tokens(loaded, base, SamplingParams(max_tokens=38, temperature=0.0, ignore_eos=True))
    params = SamplingParams(max_tokens=5, temperature=1.0, top_k=3, ignore_eos=True)
    requests = [(f"s{i}", prompt, replace(params, seed=i)) for i in range(400)]
    options = dict(num_blocks=2048, max_num_seqs=64, max_num_batched_tokens=1024)
    plain = run_engine(spec_engine(loaded, SpeculativeConfig(), **options), requests)
    engine = spec_engine(loaded, DRAFTERS[method], **options)
    speculative = run_engine(engine, requests)
    metrics = engine.metrics()
    rejected = metrics.spec_draft_tokens - metrics.spec_accepted_tokens
    assert metrics.spec_accepted_tokens > 80 and rejected > 300  # both branches of the rule are exercised
    for position in (1, 2, 3):
        a, b = _position_counts(plain, position), _position_counts(speculative, position)
        common = (a + b) >= 10
        table = torch.stack([torch.cat([a[common], a[~common].sum(0, keepdim=True)]),
                             torch.cat([b[common], b[~common].sum(0, keepdim=True)])])
        table = table[:, table.sum(0) > 0]
        assert chi2_contingency(table.numpy()).pvalue > 1e-4, f"position {position} differs"


def test_seeded_speculative_sampling_is_reproducible(loaded) -> None:
    requests = copyish_requests(6, seed=9, temperature=0.9)
    runs = [run_engine(spec_engine(loaded, DRAFTERS[m], num_blocks=256), requests) for m in ("self", "self")]
    assert runs[0] == runs[1]


@pytest.mark.parametrize("method", ["ngram", "self"])
def test_a_seed_gives_the_same_text_alone_and_beside_other_requests(loaded, method: str) -> None:
    """Under the default row limit every request's drafts shrink as the batch grows; a seeded sampled
    request's text must not change with them: its verification replays plain decoding's draws."""
    spec = replace(DRAFTERS[method], max_step_rows=SpeculativeConfig().max_step_rows)
    lone = ("seeded", [3, 4, 5, 3, 4, 5, 3, 4, 5, 9], SamplingParams(max_tokens=40, temperature=0.9, seed=123,
                                                                        ignore_eos=True))
    others = [(rid, prompt, replace(params, seed=None)) for rid, prompt, params in
              copyish_requests(3, seed=5, temperature=0.9)]
    alone = run_engine(spec_engine(loaded, spec, num_blocks=256), [lone])["seeded"]
    engine = spec_engine(loaded, spec, num_blocks=256)
    beside = run_engine(engine, [lone, *others])["seeded"]
    assert engine.speculator.verifications > 0
    assert beside == alone


@pytest.mark.parametrize("method", list(DRAFTERS))
def test_logit_bias_at_temperature_0_gives_the_oracles_tokens_with_and_without_drafts(loaded, method: str) -> None:
    """A biased temperature-0 request leaves the engine's raw-argmax path (``greedy`` is False): the
    sampler, the drafters and the acceptance rule all see the biased logits, so speculation changes
    nothing, and a token pushed to +100 or -100 is always or never picked."""
    requests = []
    for i, (rid, prompt, params) in enumerate(copyish_requests(6, seed=13)):
        bias = ((prompt[0], 6.0), (7, -100.0)) if i % 2 else ((prompt[-1], 3.0), (11, 2.5))
        requests.append((rid, prompt, replace(params, max_tokens=12, logit_bias=bias, seed=None)))
    forced = ("forced", [3, 4, 5, 3, 4, 5], SamplingParams(max_tokens=9, temperature=0.0, ignore_eos=True,
                                                           logit_bias=((42, 100.0),)))
    plain = run_engine(Engine(loaded, EngineConfig(block_size=4, num_blocks=256, max_model_len=192)),
                       [*requests, forced])
    engine = spec_engine(loaded, DRAFTERS[method], num_blocks=256)
    drafted = run_engine(engine, [*requests, forced])
    assert engine.speculator.verifications > 0
    for rid, prompt, params in [*requests, forced]:
        assert plain[rid][0] == drafted[rid][0] == oracle_tokens(loaded, prompt, params), rid
    assert plain["forced"][0] == [42] * 9
    assert all(7 not in drafted[rid][0] for rid, _, params in requests if (7, -100.0) in params.logit_bias)


@pytest.mark.parametrize("method", list(DRAFTERS))
def test_penalized_requests_do_not_draft_and_keep_their_tokens(loaded, method: str) -> None:
    """Presence / frequency penalties depend on each verified row's own prefix, which speculation does not
    apply: penalized requests never draft and give the same tokens as without speculation (greedy and
    seeded), while the unpenalized requests beside them still draft."""
    plain_requests = copyish_requests(4, seed=21)
    penalized = [(f"pen{i}", prompt, replace(params, max_tokens=16, frequency_penalty=1.5 + i % 2 * 98.5,
                                              presence_penalty=0.5 * (i % 2), seed=None, n=1 + i % 2))
                 for i, (_, prompt, params) in enumerate(copyish_requests(4, seed=22))]
    penalized.append(("sampled", [3, 4, 5, 3, 4, 5, 3, 4, 5], SamplingParams(
        max_tokens=16, temperature=0.9, seed=5, ignore_eos=True, frequency_penalty=2.0, n=2)))
    requests = [*plain_requests, *penalized]
    without = run_engine(Engine(loaded, EngineConfig(block_size=4, num_blocks=256, max_model_len=192)), requests)
    engine = spec_engine(loaded, DRAFTERS[method], num_blocks=256)
    stats = {rid: RequestStats() for rid, _, _ in requests}
    got = run_engine(engine, requests, stats=stats)
    assert engine.speculator.verifications > 0  # the unpenalized requests drafted
    for rid, prompt, params in penalized:
        assert stats[rid].spec_verifications == 0, rid
        for index in range(params.n):
            assert got[rid][index] == without[rid][index] == penalized_oracle_tokens(loaded, prompt, params, index)
    for rid, prompt, params in plain_requests:
        check_greedy_equal(loaded, prompt, oracle_tokens(loaded, prompt, params), got[rid][0])
    assert engine.block_manager.num_used_blocks == 0


def _decode_seq(tokens: list[int]) -> Sequence:
    seq = Sequence(seq_id=0, request_id="r", index=0, token_ids=list(tokens), prompt_len=len(tokens) - 1,
                   params=SamplingParams(max_tokens=10_000, temperature=0.0))
    seq.status, seq.num_computed = SequenceStatus.RUNNING, len(tokens) - 1
    return seq


class _AlwaysSeven:
    """A drafter that always guesses token 7 (the policy under test does not care how drafts are made)."""

    def propose(self, requests: list[tuple[Sequence, int]]) -> None:
        for seq, k in requests:
            seq.draft_ids, seq.draft_probs = [7] * k, None


def test_automatic_off_pauses_a_sequence_whose_drafts_fail() -> None:
    decoder = SpeculativeDecoder(SpeculativeConfig("ngram", 4), _AlwaysSeven(), 100_000)
    seq = _decode_seq([5, 6, 5, 6, 5])
    drafted_steps = 0
    for step in range(40):
        decoder.propose([seq])
        fresh = 100 + step  # the target always wants a token never seen before: every draft is rejected
        if seq.draft_ids:
            drafted_steps += 1
            logits = torch.zeros(len(seq.draft_ids) + 1, 200)
            logits[:, fresh] = 1.0
            verdict = decoder.verify(seq, logits, len(seq.draft_ids))
            assert verdict.tokens == [fresh]
            seq.token_ids.extend(verdict.tokens)
        else:
            seq.token_ids.append(fresh)
        seq.num_computed = seq.num_tokens - 1
    # two failed 2-token drafts bring the acceptance average (0.6 at the start) below 0.3: a 16-token
    # pause, two more failures, then a 32-token pause that outlasts the test
    assert drafted_steps == 4
    assert seq.spec.pause == 64 and seq.spec.drafted == 8 and seq.spec.accepted == 0


def test_drafts_are_cut_so_that_a_step_verifies_at_most_max_step_rows() -> None:
    decoder = SpeculativeDecoder(SpeculativeConfig("ngram", 4, auto_off=False, max_step_rows=8), NgramDrafter(2, 3),
                                 100_000)
    seqs = [_decode_seq([1, 2, 3, 4, 5, 6, 1, 2]) for _ in range(5)]
    decoder.propose(seqs[:1])
    assert seqs[0].draft_ids == [3, 4, 5, 6]  # alone: K
    decoder.propose(seqs[:2])
    assert all(seq.draft_ids == [3, 4, 5] for seq in seqs[:2])  # 2 x (1 + 3) = 8 rows
    decoder.propose(seqs[:4])
    assert all(seq.draft_ids == [3] for seq in seqs[:4])  # 4 x (1 + 1) = 8 rows
    decoder.propose(seqs)
    assert all(seq.draft_ids == [] for seq in seqs)  # 5 sequences: 8 rows leave no room to draft
    unlimited = SpeculativeDecoder(SpeculativeConfig("ngram", 4, auto_off=False, max_step_rows=0), NgramDrafter(2, 3),
                                   100_000)
    unlimited.propose(seqs)
    assert all(seq.draft_ids == [3, 4, 5, 6] for seq in seqs)
    with pytest.raises(ValueError, match="max step rows must be >= 0"):
        SpeculativeConfig("ngram", 3, max_step_rows=-1)
    # a limit below K + 1 is raised to it: a single stream always drafts its K
    assert SpeculativeConfig("ngram", 8).step_rows == 9
    assert SpeculativeConfig("ngram", 2).step_rows == 5 and SpeculativeConfig("ngram", 2, max_step_rows=0).step_rows == 0
    wide = SpeculativeDecoder(SpeculativeConfig("ngram", 6, auto_off=False), NgramDrafter(2, 3), 100_000)
    seq = _decode_seq([1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2])
    wide.propose([seq])
    assert seq.draft_ids == [3, 4, 5, 6, 7, 8]


def test_prompt_lookup_continues_the_latest_match() -> None:
    drafter = NgramDrafter(2, 3)
    seq = _decode_seq([1, 2, 3, 4, 9, 2, 3, 5, 6, 7, 8, 2, 3])
    decoder = SpeculativeDecoder(SpeculativeConfig("ngram", 3, auto_off=False), drafter, 100_000)
    decoder.propose([seq])
    assert seq.draft_ids == [5, 6, 7]  # after the latest earlier "2 3"
    seq.token_ids += [5, 6, 1]
    seq.num_computed = seq.num_tokens - 1
    decoder.propose([seq])
    assert seq.draft_ids == []  # "6 1" and "1" (below min_n=2) have no earlier match


def test_bad_configurations_are_refused(loaded) -> None:
    with pytest.raises(ValueError, match="between 1 and 16"):
        SpeculativeConfig("ngram", 0)
    with pytest.raises(ValueError, match="between 1 and 16"):
        SpeculativeConfig("ngram", 17)
    with pytest.raises(ValueError, match="off, ngram, draft, self"):
        SpeculativeConfig("medusa")
    with pytest.raises(ValueError, match="needs --speculative-model"):
        SpeculativeConfig("draft")
    other = tiny_loaded()
    other.model.config = replace(TINY, vocab_size=TINY.vocab_size + 1)
    with pytest.raises(ValueError, match="vocabulary of 97 tokens but the target has 96"):
        spec_engine(loaded, DRAFTERS["draft"]).__class__(
            loaded, EngineConfig(block_size=4, num_blocks=16, max_model_len=64, speculative=DRAFTERS["draft"]),
            draft=other)
    with pytest.raises(ValueError, match="the model has 2"):
        spec_engine(loaded, SpeculativeConfig("self", 2, draft_layers=3))
    short = tiny_loaded()
    short.model.config = replace(TINY, max_position_embeddings=32)
    with pytest.raises(ValueError, match="draft model has 32 positions but sequences may reach 64"):
        Engine(loaded, EngineConfig(block_size=4, num_blocks=16, max_model_len=64, speculative=DRAFTERS["draft"]),
               draft=short)


@pytest.mark.parametrize(("argv", "needle"), [
    (["--speculative", "ngram", "--num-speculative-tokens", "0"], "between 1 and 16"),
    (["--speculative", "draft"], "needs --speculative-model"),
    (["--speculative", "ngram", "--engine", "serial"], "needs the paged engine"),
    (["--speculative", "off", "--num-speculative-tokens", "8"], "--num-speculative-tokens only applies with --speculative"),
    (["--speculative", "ngram", "--speculative-draft-layers", "3"], "only applies with --speculative self"),
    (["--speculative", "off", "--speculative-max-step-rows", "3"], "--speculative-max-step-rows only applies"),
])
def test_serve_refuses_bad_speculative_options_at_start_up(argv: list[str], needle: str, capsys) -> None:
    from proxy.cli import main

    assert main(["backend", "serve", *argv]) == 2  # before any model is loaded
    assert needle in capsys.readouterr().err


@pytest.mark.parametrize("method", ["self", "draft"])
def test_the_kv_budget_pays_for_the_draft_pool_too(loaded, method: str) -> None:
    """A model drafter's pool has as many blocks as the target's; with a byte budget the two pools
    together must fit in it (on CUDA the budget is the free memory: exceeding it fails at start-up)."""
    from backend.engine.config import kv_bytes_per_token

    budget = 64 * 1024
    spec = DRAFTERS[method]
    engine = Engine(loaded, EngineConfig(block_size=4, max_model_len=64, kv_cache_memory=budget, speculative=spec),
                    draft=loaded if method == "draft" else None)
    plain = Engine(loaded, EngineConfig(block_size=4, max_model_len=64, kv_cache_memory=budget))
    target_block = kv_bytes_per_token(loaded.model.config, loaded.dtype) * 4
    draft_layers = 1 if method == "self" else loaded.model.config.num_layers
    draft_block = target_block * draft_layers // loaded.model.config.num_layers
    blocks = engine.block_manager.num_blocks
    assert engine.speculator.drafter.block_manager.num_blocks == blocks
    assert blocks * (target_block + draft_block) <= budget < (blocks + 1) * (target_block + draft_block)
    assert blocks < plain.block_manager.num_blocks


def test_a_missing_draft_model_is_named_by_its_option(tmp_path, capsys) -> None:
    from proxy.cli import main

    missing = tmp_path / "draft.gguf"  # both refused before the target model loads
    assert main(["backend", "serve", "--speculative", "draft", "--speculative-model", str(missing)]) == 2
    assert f"--speculative-model '{missing}': no such file or folder" in capsys.readouterr().err
    not_a_model = tmp_path / "notes.txt"
    not_a_model.write_text("x")
    assert main(["backend", "serve", "--speculative", "draft", "--speculative-model", str(not_a_model)]) == 2
    err = capsys.readouterr().err
    assert f"--speculative-model '{not_a_model}'" in err and "expected a .gguf file" in err
