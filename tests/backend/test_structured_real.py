"""Grammar-constrained decoding in the paged engine on the real SmolLM2-135M (fp32 weights):

- free requests batched with constrained ones decode the same greedy tokens as alone (the single-request
  path; a divergence must be a verified near-tie, as in test_engine_real);
- constrained requests under chunked prefill, prefix caching and preemption by recompute still give
  schema-valid output;
- Hypothesis-generated schemas: every output validates with ``jsonschema`` or ends with ``length``;
- a grammar that cannot be completed within ``max_tokens`` ends with ``length``;
- a compile slower than the limit is refused with a 400;
- under n-gram speculation, constrained requests draft (prompt lookup cut by the grammar, or the tokens the
  grammar forces) and decode the same greedy tokens as without it.
"""

from __future__ import annotations

import dataclasses
import json

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backend.engine import Engine, EngineConfig
from backend.generation import RequestStats
from backend.protocol import RequestError
from backend.sampling import SamplingParams
from backend.speculative.config import SpeculativeConfig
from backend.structured.compiler import GrammarCompiler
from backend.structured.spec import grammar_request
from tests.backend.test_engine_support import check_greedy_equal, oracle_tokens, run_engine

pytestmark = pytest.mark.slow

PERSON = {"type": "object", "properties": {"name": {"type": "string", "maxLength": 20}, "age": {"type": "integer"}},
          "required": ["name", "age"], "additionalProperties": False}
FREE_QUESTIONS = ["What is the capital of France?", "Name three primary colors.", "Write a haiku about rain.",
                  "Why is the sky blue?"]


@pytest.fixture(scope="module")
def compiler(smollm2):
    return GrammarCompiler(smollm2.tokenizer.hf_tokenizer, smollm2.model.config.vocab_size)


def constrained(compiler: GrammarCompiler, schema: dict, **options) -> SamplingParams:
    wanted = grammar_request(response_format={"type": "json_schema", "json_schema": {"name": "s", "schema": schema}})
    return SamplingParams(**{"max_tokens": 60, "temperature": 0.0, **options}, grammar=compiler.compile(wanted))


def prompt(smollm2, question: str) -> list[int]:
    return smollm2.tokenizer.encode_chat([{"role": "user", "content": question}])


def text(smollm2, ids: list[int]) -> str:
    return smollm2.tokenizer.decode(ids)


def test_free_requests_decode_as_alone_beside_constrained_ones(smollm2, compiler) -> None:
    free = [(f"free{i}", prompt(smollm2, q), SamplingParams(max_tokens=24, temperature=0.0))
            for i, q in enumerate(FREE_QUESTIONS)]
    people = [(f"json{i}", prompt(smollm2, f"Describe person number {i} as JSON."), constrained(compiler, PERSON))
              for i in range(4)]
    engine = Engine(smollm2, EngineConfig(kv_cache_memory=64 * 2**20, max_model_len=1024, max_num_seqs=16))
    mixed = [free[0], people[0], free[1], people[1], people[2], free[2], people[3], free[3]]
    got = run_engine(engine, mixed)
    outcomes = [check_greedy_equal(smollm2, ids, oracle_tokens(smollm2, ids, params), got[rid][0])
                for rid, ids, params in free]
    assert outcomes.count("equal") >= len(free) - 1, outcomes  # a near-tie is verified by check_greedy_equal
    for rid, _, _ in people:
        jsonschema.validate(json.loads(text(smollm2, got[rid][0])), PERSON)


def test_constrained_output_survives_chunked_prefill_prefix_caching_and_preemption(smollm2, compiler) -> None:
    context = "You are a registry clerk. Records are JSON objects with a name and an age. " * 6
    people = {"type": "array", "items": PERSON, "minItems": 3, "maxItems": 3}
    requests = []
    for i in range(6):
        ids = smollm2.tokenizer.encode_chat([{"role": "system", "content": context},
                                             {"role": "user", "content": f"Record three people, batch {i}."}])
        requests.append((f"r{i}", ids, constrained(compiler, people, temperature=0.8, seed=i, max_tokens=90)))
    longest = max(len(ids) for _, ids, _ in requests) + 90
    blocks = -(-longest // 16) + 3  # one whole sequence and a little: the others are preempted as they grow
    engine = Engine(smollm2, EngineConfig(num_blocks=blocks, block_size=16, max_model_len=1024, max_num_seqs=6,
                                          max_num_batched_tokens=32))  # prompts are split into chunks
    got = run_engine(engine, requests)
    assert engine.scheduler.num_preemptions > 0
    assert engine.block_manager.prefix_hits > 0
    finished = [rid for rid, _, _ in requests if len(got[rid][0]) < 90]  # ended by the grammar, not max_tokens
    assert finished
    for rid in finished:
        jsonschema.validate(json.loads(text(smollm2, got[rid][0])), people)


def test_a_grammar_cut_by_max_tokens_ends_with_length(smollm2, compiler) -> None:
    long_list = {"type": "array", "items": {"type": "integer"}, "minItems": 50}
    engine = Engine(smollm2, EngineConfig(kv_cache_memory=32 * 2**20, max_model_len=1024))
    engine.add("cut", prompt(smollm2, "Count to fifty."), constrained(compiler, long_list, max_tokens=12))
    reasons = []
    while engine.has_unfinished():
        reasons += [e.finish_reason for out in engine.step() for e in out.events if e.finish_reason]
    assert reasons == ["length"]


def test_a_compile_over_the_time_limit_is_refused(smollm2, compiler) -> None:
    fresh = {"type": "object", "properties": {"never_compiled_before": {"type": "string"}}}
    wanted = grammar_request(response_format={"type": "json_schema", "json_schema": {"name": "s", "schema": fresh}})
    with pytest.raises(RequestError) as info:
        compiler.compile(wanted, timeout_s=0)
    assert info.value.status == 400 and info.value.code == "grammar_compile_timeout"
    assert "took longer than 0 s" in info.value.message


def test_constrained_requests_draft_under_ngram_speculation_and_keep_their_tokens(smollm2, compiler) -> None:
    inventory = {"type": "object", "properties": {
        "warehouse_items": {"type": "array", "minItems": 3, "maxItems": 3, "items": {
            "type": "object", "properties": {"product_name": {"type": "string", "maxLength": 16},
                                             "quantity_in_stock": {"type": "integer"}},
            "required": ["product_name", "quantity_in_stock"], "additionalProperties": False}}},
        "required": ["warehouse_items"], "additionalProperties": False}
    requests = [(f"json{i}", prompt(smollm2, f"Describe person number {i} as JSON."), constrained(compiler, PERSON))
                for i in range(2)]
    requests += [("stock", prompt(smollm2, "List three products with their stock as JSON."),
                  constrained(compiler, inventory, max_tokens=90)),
                 ("free", prompt(smollm2, "Name three primary colors."), SamplingParams(max_tokens=24, temperature=0.0))]
    options = dict(kv_cache_memory=64 * 2**20, max_model_len=1024, max_num_seqs=8)
    plain = run_engine(Engine(smollm2, EngineConfig(**options)), requests)
    speculative = SpeculativeConfig("ngram", 4, auto_off=False, max_step_rows=0)
    stats = {rid: RequestStats() for rid, _, _ in requests}
    got = run_engine(Engine(smollm2, EngineConfig(**options, speculative=speculative)), requests, stats=stats)
    for rid, ids, params in requests:
        if params.grammar is not None:
            check_greedy_equal(smollm2, ids, plain[rid][0], got[rid][0], grammar=params.grammar)
            jsonschema.validate(json.loads(text(smollm2, got[rid][0])), inventory if rid == "stock" else PERSON)
        else:
            check_greedy_equal(smollm2, ids, plain[rid][0], got[rid][0])
    # the object's keys, quotes and braces are forced: every constrained request drafted, most drafts held
    for rid, _, _ in requests[:3]:
        assert stats[rid].spec_draft_tokens > 0, rid
    drafted = sum(stats[rid].spec_draft_tokens for rid, _, _ in requests[:3])
    accepted = sum(stats[rid].spec_accepted_tokens for rid, _, _ in requests[:3])
    assert accepted >= drafted // 2, (accepted, drafted)


# ---------------------------------------------------------------- generated schemas

LEAVES = st.sampled_from([
    {"type": "string", "maxLength": 12}, {"type": "integer"}, {"type": "integer", "minimum": 0, "maximum": 99},
    {"type": "number"}, {"type": "boolean"}, {"enum": ["red", "green", "blue"]}, {"type": ["string", "null"]},
    {"type": "array", "items": {"type": "integer"}, "maxItems": 3}, {"const": "fixed"},
    {"type": "string", "pattern": "^[a-z]{2,5}$"}, {"type": "string", "format": "date"},
])


def objects(children):
    names = st.sampled_from(["id", "name", "count", "tags", "ok", "kind", "when", "note"])
    return st.dictionaries(names, children, min_size=1, max_size=3).flatmap(
        lambda props: st.lists(st.sampled_from(sorted(props)), unique=True).map(
            lambda required: {"type": "object", "properties": props, "required": required,
                              "additionalProperties": False}))


SCHEMAS = st.recursive(LEAVES, objects, max_leaves=5).filter(lambda s: s.get("type") == "object")


@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(SCHEMAS, min_size=6, max_size=6), st.integers(min_value=0, max_value=2**31))
def test_generated_schemas_always_validate_or_end_with_length(smollm2, compiler, schemas, seed: int) -> None:
    engine = Engine(smollm2, EngineConfig(kv_cache_memory=32 * 2**20, max_model_len=1024, max_num_seqs=8))
    requests, finishes = [], {}
    for i, schema in enumerate(schemas):
        params = constrained(compiler, schema, temperature=1.0, seed=seed + i, max_tokens=48)
        requests.append((f"s{i}", prompt(smollm2, "Fill in this record as JSON."), params))
    for rid, ids, params in requests:
        engine.add(rid, ids, params)
    tokens: dict[str, list[int]] = {rid: [] for rid, _, _ in requests}
    while engine.has_unfinished():
        for out in engine.step():
            assert out.error is None, out.error
            for event in out.events:
                if event.token_id is not None:
                    tokens[out.request_id].append(event.token_id)
                if event.finish_reason:
                    finishes[out.request_id] = event.finish_reason
    for (rid, _, _), schema in zip(requests, schemas, strict=True):
        if finishes[rid] == "length":
            continue
        assert finishes[rid] == "stop"
        jsonschema.validate(json.loads(text(smollm2, tokens[rid])), schema, format_checker=jsonschema.FormatChecker())


def test_n_choices_each_follow_the_grammar(smollm2, compiler) -> None:
    engine = Engine(smollm2, EngineConfig(kv_cache_memory=32 * 2**20, max_model_len=1024, max_n=4))
    params = dataclasses.replace(constrained(compiler, PERSON, temperature=1.0, seed=7), n=3)
    got = run_engine(engine, [("n3", prompt(smollm2, "A person as JSON."), params)])
    assert sorted(got["n3"]) == [0, 1, 2]
    for ids in got["n3"].values():
        jsonschema.validate(json.loads(text(smollm2, ids)), PERSON)


# ---------------------------------------------------------------- tool_choice auto


def test_an_opened_call_block_is_constrained_until_it_closes(smollm2, compiler) -> None:
    """``tool_choice`` auto: the model writes free text until it opens ``<tool_call>``; from there the block
    follows the call grammar, then the text is free again. The small model rarely opens a block on its own,
    so the opening is written into the choice through the engine's own ``_append`` (as if sampled) before
    the first step: the step then prefills prompt + opening, as after a preemption, and samples under the
    call grammar."""
    from backend.structured.compiler import CallGrammars
    from backend.structured.spec import auto_call_grammars
    from backend.structured.tool_calls import parse_tool_calls
    from tokenization.chat_sections import with_request_sections

    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {
        "type": "object", "properties": {"city": {"type": "string", "maxLength": 20}}, "required": ["city"]}}}]
    after_open, after_newline = auto_call_grammars(tools)
    calls = CallGrammars(compiler.compile(after_open), compiler.compile(after_newline))
    tok = smollm2.tokenizer
    ids = tok.encode_chat(with_request_sections([{"role": "user", "content": "Weather in Paris?"}], tools))
    engine = Engine(smollm2, EngineConfig(kv_cache_memory=32 * 2**20, max_model_len=1024))
    engine.add("auto", ids, SamplingParams(max_tokens=60, temperature=0.0, call_grammars=calls))
    req = engine._requests["auto"]
    seq = req.seqs[0]
    opening = tok.encode("Let me check.\n<tool_call>")
    for token in opening:
        assert seq.matcher is None  # free text until the block opens
        engine._append(req, seq, token, None, {})
    assert seq.matcher is not None
    generated = list(opening)
    while engine.has_unfinished():
        for out in engine.step():
            generated += [e.token_id for e in out.events if e.token_id is not None]
    content, parsed = parse_tool_calls(tok.decode(generated), ["get_weather"])
    assert content.startswith("Let me check.")  # and whatever free text followed the closed block
    assert len(parsed) == 1
    jsonschema.validate(json.loads(parsed[0]["function"]["arguments"]), tools[0]["function"]["parameters"])
    if seq.finish_reason == "length":
        assert seq.matcher is None or not seq.matcher.is_stopped()
    else:
        assert seq.matcher is None  # the block closed: free again
