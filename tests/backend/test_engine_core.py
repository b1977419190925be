"""The engine on a tiny random-weight Llama: greedy equality with the single-request oracle under every
scheduling mode, n > 1, sampling, stops, logprobs, abort, preemption, error isolation, KV sizing."""

from __future__ import annotations

import random

import pytest
import torch

from backend.engine import Engine, EngineConfig
from backend.engine.config import kv_cache_bytes, parse_size, pool_num_blocks
from backend.engine.engine import EngineRequestError
from backend.engine.kvsize import kv_size
from backend.engine.sequence import Priority
from backend.generation import RequestStats, generate_tokens
from backend.runtime import LoadedModel
from backend.sampling import SamplingParams, make_generator, sample
from tests.backend.test_engine_support import (
    TINY,
    check_greedy_equal,
    oracle_tokens,
    run_engine,
    teacher_forced_logits,
    tiny_engine,
    tiny_loaded,
)


@pytest.fixture(scope="module")
def loaded():
    return tiny_loaded()


def random_requests(count: int, seed: int, shared_prefix: int = 0, tag: str = "r"
                    ) -> list[tuple[str, list[int], SamplingParams]]:
    rng = random.Random(seed)
    prefix = [rng.randrange(2, TINY.vocab_size) for _ in range(shared_prefix)]
    out = []
    for i in range(count):
        prompt = prefix + [rng.randrange(2, TINY.vocab_size) for _ in range(rng.randrange(1, 40))]
        out.append((f"{tag}{i}", prompt, SamplingParams(max_tokens=rng.randrange(1, 24), temperature=0.0, ignore_eos=True)))
    return out


@pytest.mark.parametrize("max_num_seqs", [1, 16])
@pytest.mark.parametrize("prefix_caching", [True, False])
@pytest.mark.parametrize("chunked", [True, False])
def test_greedy_matches_oracle(loaded, max_num_seqs: int, prefix_caching: bool, chunked: bool) -> None:
    requests = random_requests(32, seed=1, shared_prefix=9) + random_requests(8, seed=2, tag="s")
    engine = tiny_engine(loaded, max_num_seqs=max_num_seqs, enable_prefix_caching=prefix_caching,
                         enable_chunked_prefill=chunked, max_num_batched_tokens=24)
    got = run_engine(engine, requests)
    for rid, prompt, params in requests:
        check_greedy_equal(loaded, prompt, oracle_tokens(loaded, prompt, params), got[rid][0])
    bm = engine.block_manager
    bm.check_invariants()
    assert bm.num_used_blocks == 0
    if prefix_caching:
        assert bm.prefix_hits > 0
    else:
        assert bm.prefix_hits == 0 and bm.num_cached_blocks == 0


def test_cached_tokens_reported(loaded) -> None:
    engine = tiny_engine(loaded)
    prompt = list(range(2, 30))
    params = SamplingParams(max_tokens=3, temperature=0.0, ignore_eos=True)
    first, second = RequestStats(), RequestStats()
    engine.add("a", prompt, params, stats=first)
    while engine.has_unfinished():
        engine.step()
    engine.add("b", prompt + [40, 41], params, stats=second)
    while engine.has_unfinished():
        engine.step()
    assert first.cached_tokens == 0
    assert second.cached_tokens == 28  # 7 full blocks of 4
    assert second.prompt_tokens == 30 and second.completion_tokens == 3
    assert second.ttft is not None and second.total_time >= second.ttft >= second.queue_time >= 0


def test_n_greater_than_one_shares_prompt_blocks(loaded) -> None:
    engine = tiny_engine(loaded)
    prompt = list(range(2, 20))  # 18 tokens: 4 full blocks + a partial one
    params = SamplingParams(max_tokens=6, temperature=0.0, ignore_eos=True, n=3)
    engine.add("n3", prompt, params)
    engine.step()  # prefill of the first choice; the siblings are forked from it
    seqs = engine._requests["n3"].seqs
    assert all(s.block_table[:4] == seqs[0].block_table[:4] for s in seqs)
    assert len({s.block_table[4] for s in seqs}) == 3  # the partial tail block is copied per choice
    assert engine.block_manager.blocks[seqs[0].block_table[0]].ref_count == 3
    tokens: dict[int, list[int]] = {0: [], 1: [], 2: []}
    for out in engine.step():
        for ev in out.events:
            tokens[ev.index].append(ev.token_id)
    while engine.has_unfinished():
        for out in engine.step():
            for ev in out.events:
                tokens[ev.index].append(ev.token_id)
    expected = oracle_tokens(loaded, prompt, SamplingParams(max_tokens=6, temperature=0.0, ignore_eos=True))
    for i in range(3):
        assert len(tokens[i]) == 5  # the first token of each choice came with the prefill step (not collected)
        assert tokens[i] == expected[1:]
    assert engine.block_manager.num_used_blocks == 0


def test_seeded_sampling_matches_oracle_per_choice(loaded) -> None:
    prompt = [5, 9, 11, 3, 7, 22, 31]
    params = SamplingParams(max_tokens=12, temperature=0.9, top_p=0.9, top_k=40, seed=1234, n=2, ignore_eos=True)
    got = run_engine(tiny_engine(loaded), [("s", prompt, params)])["s"]
    for index in range(2):
        expected = [e.token_id for e in generate_tokens(loaded, prompt, params, index=index) if e.token_id is not None]
        assert got[index] == expected
    assert got[0] != got[1]


def penalized_oracle_tokens(loaded: LoadedModel, prompt: list[int], params: SamplingParams,
                            index: int = 0) -> list[int]:
    """Choice ``index`` of a penalized request, token by token on the single-request path (the
    ``generate_tokens`` oracle knows nothing of penalties): :func:`sample` of each teacher-forced row with
    this choice's own generated tokens so far."""
    generator = make_generator(params, loaded.device, index)
    out: list[int] = []
    for _ in range(params.max_tokens):
        out.append(sample(teacher_forced_logits(loaded, prompt, out), params, generator, out))
    return out


REPEATING_PROMPT = [10, 20, 30, 40]  # the tiny model's greedy answer repeats 12 six times in a row


def test_a_large_frequency_penalty_at_temperature_0_stops_every_repeat(loaded) -> None:
    plain = SamplingParams(max_tokens=16, temperature=0.0, ignore_eos=True)
    penalized = SamplingParams(max_tokens=16, temperature=0.0, ignore_eos=True, frequency_penalty=100.0)
    mild = SamplingParams(max_tokens=16, temperature=0.0, ignore_eos=True, frequency_penalty=1.5,
                          presence_penalty=0.5)
    got = run_engine(tiny_engine(loaded), [("plain", REPEATING_PROMPT, plain), ("pen", REPEATING_PROMPT, penalized),
                                           ("mild", REPEATING_PROMPT, mild)])
    assert len(set(got["plain"][0])) < len(got["plain"][0])  # unpenalized greedy repeats itself
    assert got["plain"][0] == oracle_tokens(loaded, REPEATING_PROMPT, plain)
    assert len(set(got["pen"][0])) == len(got["pen"][0]) == 16  # no token twice
    assert got["pen"][0][0] == got["plain"][0][0]  # the first token has nothing to count
    for rid, params in (("pen", penalized), ("mild", mild)):
        assert got[rid][0] == penalized_oracle_tokens(loaded, REPEATING_PROMPT, params), rid
    assert got["mild"][0] != got["plain"][0]


def test_penalties_count_each_choice_own_tokens(loaded) -> None:
    """n = 2: each choice is penalized by its own generated tokens only. At temperature 0 both choices
    are the single-choice answer (shared counts would steer the second away from the first's tokens);
    seeded sampling gives each choice the oracle of its own generator and history."""
    greedy = SamplingParams(max_tokens=12, temperature=0.0, ignore_eos=True, frequency_penalty=100.0, n=2)
    seeded = SamplingParams(max_tokens=12, temperature=0.8, top_k=20, seed=77, ignore_eos=True,
                            frequency_penalty=2.0, presence_penalty=2.0, n=2)
    got = run_engine(tiny_engine(loaded), [("g", REPEATING_PROMPT, greedy), ("s", REPEATING_PROMPT, seeded)])
    single = penalized_oracle_tokens(loaded, REPEATING_PROMPT, greedy)
    assert len(set(single)) == 12
    assert got["g"][0] == got["g"][1] == single
    for index in range(2):
        assert got["s"][index] == penalized_oracle_tokens(loaded, REPEATING_PROMPT, seeded, index), index
    assert got["s"][0] != got["s"][1]


def test_penalized_outputs_survive_preemption(loaded) -> None:
    """Recomputed after preemption, a sequence keeps counting the tokens it generated before."""
    requests = [(f"p{i}", [10 + i, 20, 30, 40 + i], SamplingParams(max_tokens=20, temperature=0.0, ignore_eos=True,
                                                                   frequency_penalty=100.0)) for i in range(6)]
    engine = tiny_engine(loaded, num_blocks=20, max_num_seqs=6)
    got = run_engine(engine, requests)
    assert engine.scheduler.num_preemptions > 0
    for rid, prompt, params in requests:
        assert got[rid][0] == penalized_oracle_tokens(loaded, prompt, params), rid
    assert engine.block_manager.num_used_blocks == 0


def _texts(engine: Engine, request_id: str) -> tuple[str, str | None, list]:
    text, finish, events = "", None, []
    while engine.has_unfinished():
        for out in engine.step():
            if out.request_id == request_id:
                for ev in out.events:
                    text += ev.text
                    events.append(ev)
                    finish = ev.finish_reason or finish
    return text, finish, events


@pytest.mark.parametrize("stop", [("c",), ("bb", "zz"), ()])
def test_stop_strings_and_text_match_oracle(loaded, stop) -> None:
    prompt = [4, 8, 15, 16, 23, 42]
    params = SamplingParams(max_tokens=20, temperature=0.0, stop=stop, ignore_eos=True)
    oracle = list(generate_tokens(loaded, prompt, params))
    engine = tiny_engine(loaded)
    engine.add("x", prompt, params)
    text, finish, _ = _texts(engine, "x")
    assert text == "".join(e.text for e in oracle)
    assert finish == oracle[-1].finish_reason


def test_stop_token_ids_and_eos(loaded) -> None:
    prompt = [4, 8, 15, 16, 23, 42]
    free = oracle_tokens(loaded, prompt, SamplingParams(max_tokens=10, temperature=0.0, ignore_eos=True))
    stop_id = free[3]
    params = SamplingParams(max_tokens=10, temperature=0.0, stop_token_ids=(stop_id,), ignore_eos=True)
    got = run_engine(tiny_engine(loaded), [("x", prompt, params)])["x"][0]
    assert got == free[:free.index(stop_id) + 1]


def test_logprobs_match_oracle(loaded) -> None:
    prompt = [3, 1, 4, 1, 5, 9, 2, 6]
    params = SamplingParams(max_tokens=5, temperature=0.0, logprobs=True, top_logprobs=3, ignore_eos=True)
    oracle = [e for e in generate_tokens(loaded, prompt, params)]
    engine = tiny_engine(loaded)
    engine.add("lp", prompt, params)
    _, _, events = _texts(engine, "lp")
    assert len(events) == len(oracle)
    for mine, ref in zip(events, oracle, strict=True):
        assert mine.token_id == ref.token_id
        assert mine.logprob == pytest.approx(ref.logprob, abs=1e-4)
        assert [t for t, _ in mine.top_logprobs] == [t for t, _ in ref.top_logprobs]


def test_abort_frees_blocks_within_one_step(loaded) -> None:
    engine = tiny_engine(loaded)
    params = SamplingParams(max_tokens=200, temperature=0.0, ignore_eos=True)
    engine.add("long", list(range(2, 40)), params)
    engine.add("other", list(range(2, 10)), SamplingParams(max_tokens=5, temperature=0.0, ignore_eos=True))
    for _ in range(3):
        engine.step()
    assert engine.block_manager.num_used_blocks > 0
    out = engine.abort("long")
    assert out is not None and out.finished and out.events[0].finish_reason == "abort"
    engine.step()
    while engine.has_unfinished():
        engine.step()
    assert engine.block_manager.num_used_blocks == 0
    assert engine.abort("long") is None
    engine.block_manager.check_invariants()


def test_abort_waiting_request(loaded) -> None:
    engine = tiny_engine(loaded, max_num_seqs=1)
    params = SamplingParams(max_tokens=30, temperature=0.0, ignore_eos=True)
    engine.add("a", [2, 3, 4], params)
    engine.add("b", [2, 3, 5], params)
    engine.step()
    assert engine.abort("b") is not None  # still waiting: nothing to free, but it is gone
    assert engine.scheduler.num_waiting == 0
    while engine.has_unfinished():
        engine.step()
    assert engine.block_manager.num_used_blocks == 0


def test_preemption_keeps_outputs_and_leaks_nothing(loaded) -> None:
    requests = random_requests(12, seed=5)
    requests = [(rid, p, SamplingParams(max_tokens=20, temperature=0.0, ignore_eos=True)) for rid, p, _ in requests]
    engine = tiny_engine(loaded, num_blocks=24, block_size=4, max_num_batched_tokens=64)
    got = run_engine(engine, requests)
    assert engine.scheduler.num_preemptions > 0
    for rid, prompt, params in requests:
        check_greedy_equal(loaded, prompt, oracle_tokens(loaded, prompt, params), got[rid][0])
    assert engine.block_manager.num_used_blocks == 0
    engine.block_manager.check_invariants()


def test_batch_priority_is_preempted_first(loaded) -> None:
    engine = tiny_engine(loaded, num_blocks=20, block_size=4, max_num_batched_tokens=64)
    params = SamplingParams(max_tokens=30, temperature=0.0, ignore_eos=True)
    engine.add("batch", list(range(2, 40)), params, priority="batch")
    engine.step()
    engine.add("inter", list(range(50, 80)), params, priority=Priority.INTERACTIVE)
    batch_seq, inter_seq = engine._requests["batch"].seqs[0], engine._requests["inter"].seqs[0]
    while engine.has_unfinished() and not engine.scheduler.num_preemptions:
        engine.step()
    assert batch_seq.num_preemptions == 1 and inter_seq.num_preemptions == 0  # batch is preempted first
    while engine.has_unfinished():
        engine.step()
    assert batch_seq.num_output == inter_seq.num_output == 30
    assert engine.block_manager.num_used_blocks == 0


def test_runner_failure_fails_only_that_step_and_engine_recovers(loaded, monkeypatch) -> None:
    engine = tiny_engine(loaded)
    params = SamplingParams(max_tokens=4, temperature=0.0, ignore_eos=True)
    engine.add("doomed", [2, 3, 4, 5], params)
    real = engine.runner.execute

    def broken(scheduled):
        raise RuntimeError("simulated kernel failure")

    monkeypatch.setattr(engine.runner, "execute", broken)
    outs = engine.step()
    assert [o.request_id for o in outs] == ["doomed"] and isinstance(outs[0].error, RuntimeError)
    assert engine.block_manager.num_used_blocks == 0 and not engine.has_unfinished()
    monkeypatch.setattr(engine.runner, "execute", real)
    assert len(run_engine(engine, [("ok", [2, 3, 4, 5], params)])["ok"][0]) == 4


def test_postprocessing_failure_fails_only_its_request(loaded, monkeypatch) -> None:
    engine = tiny_engine(loaded)
    params = SamplingParams(max_tokens=6, temperature=0.0, ignore_eos=True, logprobs=True)
    engine.add("bad", [2, 3, 4, 5], params)
    engine.add("good", [2, 3, 4, 6], SamplingParams(max_tokens=6, temperature=0.0, ignore_eos=True))

    def explode(token_id: int) -> str:
        raise ValueError("bad token text")

    monkeypatch.setattr(loaded.tokenizer, "token_text", explode)
    errors, good_tokens = [], 0
    while engine.has_unfinished():
        for out in engine.step():
            if out.error is not None:
                errors.append(out.request_id)
            if out.request_id == "good":
                good_tokens += sum(1 for e in out.events if e.token_id is not None)
    assert errors == ["bad"] and good_tokens == 6
    assert engine.block_manager.num_used_blocks == 0


def test_request_limits(loaded) -> None:
    engine = tiny_engine(loaded, num_blocks=32, block_size=4, max_model_len=100, max_n=4)
    with pytest.raises(EngineRequestError, match="maximum context length of 100"):
        engine.add("a", list(range(2, 90)), SamplingParams(max_tokens=20))
    engine2 = tiny_engine(loaded, num_blocks=16, block_size=4, max_model_len=100)
    with pytest.raises(EngineRequestError, match="KV cache pool of 64 tokens"):
        engine2.add("b", list(range(2, 50)), SamplingParams(max_tokens=40))
    with pytest.raises(EngineRequestError, match="n must be between 1 and 4"):
        engine.add("c", [2, 3], SamplingParams(max_tokens=2, n=5))
    assert not engine.has_unfinished() and not engine2.has_unfinished()


def test_kv_size_matches_real_allocation(loaded) -> None:
    seq_len, batch = 256, 3
    budget = kv_cache_bytes(TINY, seq_len, batch, torch.float32)
    config = EngineConfig(block_size=16, kv_cache_memory=budget, max_model_len=512)
    assert pool_num_blocks(config, TINY, torch.float32, torch.device("cpu")) == seq_len * batch // 16
    engine = Engine(loaded, config)
    size = kv_size(TINY, seq_len, batch, torch.float32)
    assert engine.runner.kv_cache_bytes == size.total_bytes == budget
    assert size.total_bytes == 2 * TINY.num_layers * TINY.num_kv_heads * TINY.head_dim * seq_len * batch * 4
    assert engine.capacity_tokens == seq_len * batch


def test_parse_size() -> None:
    assert parse_size("2GiB") == 2 * 1024**3
    assert parse_size("512MB") == 512 * 1000**2
    assert parse_size("1.5k") == 1500
    assert parse_size(4096) == 4096
    with pytest.raises(ValueError):
        parse_size("lots")


def test_priority_parse() -> None:
    assert Priority.parse(None) is Priority.INTERACTIVE
    assert Priority.parse("Batch") is Priority.BATCH
    with pytest.raises(ValueError):
        Priority.parse("urgent")


def test_kernels_attention_backend_matches_oracle(loaded) -> None:
    """The :mod:`kernels` path (its PyTorch references on CPU, Triton on CUDA) behind the same runner."""
    import kernels

    assert hasattr(kernels, "paged_prefill_attention")
    requests = random_requests(10, seed=11, shared_prefix=6)
    engine = tiny_engine(loaded, attention_backend="kernels", max_num_batched_tokens=16)
    assert engine.runner.attention_backend == "kernels"
    got = run_engine(engine, requests)
    for rid, prompt, params in requests:
        check_greedy_equal(loaded, prompt, oracle_tokens(loaded, prompt, params), got[rid][0])
    assert engine.block_manager.prefix_hits > 0 and engine.block_manager.num_used_blocks == 0


def test_the_serial_path_applies_penalties_as_the_engine_does(loaded) -> None:
    """``--engine serial`` (``generate_tokens``) counts each choice's generated tokens too."""
    for params in (SamplingParams(max_tokens=16, temperature=0.0, ignore_eos=True, frequency_penalty=100.0),
                   SamplingParams(max_tokens=12, temperature=0.8, top_k=20, seed=77, ignore_eos=True,
                                  frequency_penalty=2.0, presence_penalty=2.0)):
        serial = [e.token_id for e in generate_tokens(loaded, REPEATING_PROMPT, params) if e.token_id is not None]
        assert serial == penalized_oracle_tokens(loaded, REPEATING_PROMPT, params)
