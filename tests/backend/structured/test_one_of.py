"""``oneOf`` rewritten as ``anyOf`` only where the two accept the same values.

- Soundness, generated: for Hypothesis-built ``oneOf`` schemas (fixed values, typed leaves, discriminated
  objects, required-only branches, local ``$ref``s) and a pool of instances built from the same parts,
  every instance the rewritten schema accepts, the original accepts too (``jsonschema``).
- Rewritten where provable, left (and refused by the compiler with a 400 naming ``oneOf``) where not.
- The real model, constrained by rewritten schemas, writes answers valid against the original ``oneOf``.
"""

from __future__ import annotations

import json

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backend.protocol import RequestError
from backend.structured.one_of import rewrite_exclusive_one_of
from backend.structured.spec import grammar_request

NAMES = ["kind", "size", "a", "b", "c"]
VALUES = [0, 1, 1.0, 2, True, False, None, "x", "y", "circle", "square", [], {}]

LEAVES = st.one_of(
    st.sampled_from(VALUES).map(lambda v: {"const": v}),
    st.lists(st.sampled_from(VALUES), min_size=1, max_size=3).map(lambda vs: {"enum": vs}),
    st.sampled_from(["string", "integer", "number", "boolean", "null", "array", "object"]).map(lambda t: {"type": t}),
    st.lists(st.sampled_from(["string", "integer", "null"]), min_size=1, max_size=2, unique=True).map(
        lambda ts: {"type": ts}),
)


def _object_branch(draw_props: dict, required: list[str], closed: bool) -> dict:
    branch = {"type": "object", "properties": draw_props, "required": [r for r in required if r in draw_props]}
    if closed:
        branch["additionalProperties"] = False
    return branch


OBJECTS = st.builds(_object_branch, st.dictionaries(st.sampled_from(NAMES), st.one_of(LEAVES, st.just(False)),
                                                    max_size=3),
                    st.lists(st.sampled_from(NAMES), max_size=3, unique=True), st.booleans())
REQUIRED_ONLY = st.lists(st.sampled_from(NAMES), min_size=1, max_size=2, unique=True).map(lambda r: {"required": r})
BRANCH = st.one_of(LEAVES, OBJECTS)


@st.composite
def one_of_schemas(draw) -> dict:
    if draw(st.booleans()):  # required-only branches under an object parent
        branches = draw(st.lists(REQUIRED_ONLY, min_size=2, max_size=3))
        props = {name: draw(LEAVES) for name in NAMES}
        return {"type": "object", "properties": props, "oneOf": branches}
    branches = draw(st.lists(BRANCH, min_size=2, max_size=3))
    if draw(st.booleans()):  # the first branch through a local reference
        return {"$defs": {"first": branches[0]}, "oneOf": [{"$ref": "#/$defs/first"}, *branches[1:]]}
    return {"oneOf": branches}


INSTANCES = st.one_of(st.sampled_from(VALUES), st.dictionaries(st.sampled_from(NAMES), st.sampled_from(VALUES),
                                                               max_size=4))


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(one_of_schemas(), st.lists(INSTANCES, min_size=20, max_size=20))
def test_a_rewritten_schema_never_accepts_what_the_original_refuses(schema: dict, instances: list) -> None:
    rewritten = rewrite_exclusive_one_of(schema)
    original = jsonschema.Draft202012Validator(schema)
    narrowed = jsonschema.Draft202012Validator(rewritten)
    for instance in instances:
        if narrowed.is_valid(instance):
            assert original.is_valid(instance), (json.dumps(schema), json.dumps(rewritten), instance)


@pytest.mark.parametrize("schema", [
    {"oneOf": [{"type": "string"}, {"type": "integer"}]},
    {"oneOf": [{"const": "a"}, {"enum": ["b", "c"]}]},
    {"type": "object", "oneOf": [
        {"properties": {"kind": {"const": "circle"}, "r": {"type": "number"}}, "required": ["kind", "r"]},
        {"properties": {"kind": {"const": "square"}, "side": {"type": "number"}}, "required": ["kind", "side"]}]},
    {"type": "object", "properties": {"city": {"type": "string"}, "zip": {"type": "string"}},
     "oneOf": [{"required": ["city"]}, {"required": ["zip"]}]},
    {"$defs": {"n": {"type": "number"}}, "oneOf": [{"$ref": "#/$defs/n"}, {"type": "string"}]},
])
def test_provably_exclusive_branches_become_any_of(schema: dict) -> None:
    rewritten = rewrite_exclusive_one_of(schema)
    assert "oneOf" not in json.dumps(rewritten) and "anyOf" in rewritten
    grammar_request(response_format={"type": "json_schema", "json_schema": {"name": "s", "schema": schema}})


@pytest.mark.parametrize("schema", [
    {"oneOf": [{"type": "number"}, {"type": "integer"}]},  # 3 matches both
    {"oneOf": [{"enum": [1, 2]}, {"const": 2.0}]},  # 2 == 2.0 in JSON Schema
    {"oneOf": [{"required": ["a"]}, {"required": ["b"]}]},  # no object parent: a string matches both
    {"type": "object", "properties": {"a": {}, "b": {}}, "oneOf": [{"required": ["a"]}, {"required": ["a", "b"]}]},
    {"oneOf": [{"type": "string", "maxLength": 3}, {"type": "string", "minLength": 2}]},
])
def test_overlapping_branches_keep_one_of(schema: dict) -> None:
    assert "oneOf" in json.dumps(rewrite_exclusive_one_of(schema))


def test_an_overlapping_one_of_is_still_refused_by_name(smollm2) -> None:
    from backend.structured.compiler import GrammarCompiler

    compiler = GrammarCompiler(smollm2.tokenizer.hf_tokenizer, smollm2.model.config.vocab_size)
    wanted = grammar_request(response_format={"type": "json_schema", "json_schema": {"name": "s", "schema": {
        "type": "object", "properties": {"v": {"oneOf": [{"type": "number"}, {"type": "integer"}]}}}}})
    with pytest.raises(RequestError) as info:
        compiler.compile(wanted)
    assert info.value.status == 400 and "oneOf" in info.value.message


def test_the_real_model_answers_rewritten_one_of_schemas_validly(smollm2) -> None:
    from backend.engine import Engine, EngineConfig
    from backend.sampling import SamplingParams
    from backend.structured.compiler import GrammarCompiler
    from tests.backend.test_engine_support import run_engine

    shape = {"type": "object", "required": ["shape"], "additionalProperties": False, "properties": {"shape": {"oneOf": [
        {"type": "object", "properties": {"kind": {"const": "circle"}, "radius": {"type": "number"}},
         "required": ["kind", "radius"], "additionalProperties": False},
        {"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number"}},
         "required": ["kind", "side"], "additionalProperties": False}]}}}
    place = {"type": "object", "additionalProperties": False,
             "properties": {"city": {"type": "string", "maxLength": 20}, "zip": {"type": "string", "maxLength": 8}},
             "oneOf": [{"required": ["city"]}, {"required": ["zip"]}]}
    compiler = GrammarCompiler(smollm2.tokenizer.hf_tokenizer, smollm2.model.config.vocab_size)
    requests, schemas = [], {}
    for i, (schema, question) in enumerate([(shape, "Describe a circle of radius 2 as JSON."),
                                            (shape, "Describe a square as JSON."),
                                            (place, "Where is the Eiffel Tower? Answer as JSON."),
                                            (place, "Give a postal code as JSON.")]):
        wanted = grammar_request(response_format={"type": "json_schema", "json_schema": {"name": "s", "schema": schema}})
        params = SamplingParams(max_tokens=60, temperature=0.8, seed=i, grammar=compiler.compile(wanted))
        requests.append((f"r{i}", smollm2.tokenizer.encode_chat([{"role": "user", "content": question}]), params))
        schemas[f"r{i}"] = schema
    got = run_engine(Engine(smollm2, EngineConfig(kv_cache_memory=32 * 2**20, max_model_len=1024)), requests)
    finished = 0
    for rid, schema in schemas.items():
        ids = got[rid][0]
        if len(ids) >= 60:
            continue  # cut by max_tokens
        jsonschema.validate(json.loads(smollm2.tokenizer.decode(ids)), schema)  # the original oneOf
        finished += 1
    assert finished >= 3
