"""Canonical request keys and scopes (property tests with Hypothesis)."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from caches.keys import canonical_json, exact_key, last_user_text, request_keys, scope_key

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

texts = st.text(max_size=24)
scalars = st.one_of(
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    texts,
)
json_values = st.recursive(
    st.one_of(st.none(), scalars),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=8,
)
non_null_values = json_values.filter(lambda v: v is not None)


@st.composite
def messages(draw: st.DrawFn) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if draw(st.booleans()):
        out.append({"role": "system", "content": draw(texts)})
    for _ in range(draw(st.integers(0, 2))):
        out.append({"role": "user", "content": draw(texts)})
        out.append({"role": "assistant", "content": draw(texts)})
    out.append({"role": "user", "content": draw(texts)})
    return out


OPTIONAL_FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "temperature": st.floats(0, 2, allow_nan=False),
    "top_p": st.floats(0, 1, allow_nan=False),
    "seed": st.integers(0, 2**31),
    "n": st.integers(1, 4),
    "stop": st.lists(texts, max_size=3) | texts,
    "max_tokens": st.integers(1, 4096),
    "logit_bias": st.dictionaries(st.integers(0, 50000).map(str), st.integers(-100, 100), max_size=3),
    "presence_penalty": st.floats(-2, 2, allow_nan=False),
    "frequency_penalty": st.floats(-2, 2, allow_nan=False),
    "response_format": st.sampled_from([{"type": "text"}, {"type": "json_object"}]),
    "tools": st.lists(
        st.fixed_dictionaries(
            {"type": st.just("function"), "function": st.fixed_dictionaries({"name": texts})}
        ),
        max_size=2,
    ),
    "tool_choice": st.sampled_from(["auto", "none", "required"]),
    "logprobs": st.booleans(),
    "top_k": st.integers(1, 100),  # a provider-specific field: included like any unknown field
}

requests = st.fixed_dictionaries(
    {"model": st.sampled_from(["small", "large", "auto"]), "messages": messages()},
    optional=OPTIONAL_FIELDS,
)

# Every field that may change the answer, with a strategy for a new (non-null) value.
ANSWER_FIELDS: dict[str, st.SearchStrategy[Any]] = {
    **OPTIONAL_FIELDS,
    "max_completion_tokens": st.integers(1, 4096),
    "some_unknown_provider_field": non_null_values,
    "metadata": st.dictionaries(st.text(max_size=4), texts, min_size=1, max_size=2),
}


def _shuffle(value: Any, rng: random.Random) -> Any:
    if isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        return {k: _shuffle(v, rng) for k, v in items}
    if isinstance(value, list):
        return [_shuffle(v, rng) for v in value]
    return value


def _reformat(body: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    indent = rng.choice([None, 0, 1, 4, "\t"])
    separators = rng.choice([None, (",", ":"), (" ,  ", " :\n ")])
    text = json.dumps(
        _shuffle(body, rng), indent=indent, separators=separators, ensure_ascii=rng.random() < 0.5
    )
    return json.loads("\n  " + text + " \n")


def _canon(value: Any) -> str:
    return canonical_json(value)


@SETTINGS
@given(body=requests, seed=st.integers(0, 2**32 - 1))
def test_key_order_and_whitespace_do_not_matter(body: dict[str, Any], seed: int) -> None:
    other = _reformat(body, random.Random(seed))
    assert exact_key(other, model="m", tenant="t") == exact_key(body, model="m", tenant="t")
    assert scope_key(other, model="m", tenant="t") == scope_key(body, model="m", tenant="t")


@SETTINGS
@given(body=requests, data=st.data())
def test_changing_any_answer_relevant_field_changes_the_key(
    body: dict[str, Any], data: st.DataObject
) -> None:
    field = data.draw(st.sampled_from(sorted(ANSWER_FIELDS)))
    new_value = data.draw(ANSWER_FIELDS[field])
    old_value = body.get("max_tokens" if field == "max_completion_tokens" else field)
    assume(old_value is None or _canon(new_value) != _canon(old_value))
    changed = dict(body)
    if field == "max_completion_tokens":
        changed.pop("max_tokens", None)
    changed[field] = new_value
    before = exact_key(body, model="m", tenant="t")
    assert exact_key(changed, model="m", tenant="t") != before
    # everything but the last user text is in the scope too
    assert scope_key(changed, model="m", tenant="t") != scope_key(body, model="m", tenant="t")


@SETTINGS
@given(body=requests, data=st.data())
def test_changing_any_message_changes_the_key(body: dict[str, Any], data: st.DataObject) -> None:
    msgs = body["messages"]
    idx = data.draw(st.integers(0, len(msgs) - 1))
    new_content = data.draw(texts)
    assume(new_content != msgs[idx]["content"])
    changed = dict(body, messages=[dict(m) for m in msgs])
    changed["messages"][idx]["content"] = new_content
    assert exact_key(changed, model="m", tenant="t") != exact_key(body, model="m", tenant="t")
    same_scope = scope_key(changed, model="m", tenant="t") == scope_key(body, model="m", tenant="t")
    # only the last user message is outside the scope
    assert same_scope == (idx == len(msgs) - 1)


@SETTINGS
@given(body=requests, role=st.sampled_from(["system", "user", "assistant", "tool"]), content=texts)
def test_adding_a_message_changes_the_key_and_scope(body: dict[str, Any], role: str, content: str) -> None:
    changed = dict(body, messages=[{"role": role, "content": content}, *body["messages"]])
    assert exact_key(changed, model="m", tenant="t") != exact_key(body, model="m", tenant="t")
    assert scope_key(changed, model="m", tenant="t") != scope_key(body, model="m", tenant="t")


@SETTINGS
@given(body=requests, tenant=st.text(max_size=8), model=st.text(max_size=8))
def test_tenant_and_model_are_part_of_key_and_scope(body: dict[str, Any], tenant: str, model: str) -> None:
    assume(tenant != "t" and model != "m")
    base_key, base_scope = exact_key(body, model="m", tenant="t"), scope_key(body, model="m", tenant="t")
    assert exact_key(body, model="m", tenant=tenant) != base_key
    assert exact_key(body, model=model, tenant="t") != base_key
    assert scope_key(body, model="m", tenant=tenant) != base_scope
    assert scope_key(body, model=model, tenant="t") != base_scope


@SETTINGS
@given(
    body=requests,
    stream=st.booleans(),
    stream_options=st.one_of(st.none(), st.fixed_dictionaries({"include_usage": st.booleans()})),
    user=st.one_of(st.none(), texts),
    ext=st.one_of(st.none(), st.fixed_dictionaries({"cache": st.booleans()})),
)
def test_transport_and_extension_fields_are_excluded(
    body: dict[str, Any], stream: bool, stream_options: Any, user: Any, ext: Any
) -> None:
    changed = dict(body, stream=stream, stream_options=stream_options, user=user, thrifty=ext)
    assert exact_key(changed, model="m", tenant="t") == exact_key(body, model="m", tenant="t")
    assert scope_key(changed, model="m", tenant="t") == scope_key(body, model="m", tenant="t")


@SETTINGS
@given(body=requests, limit=st.integers(1, 4096))
def test_max_tokens_and_max_completion_tokens_are_the_same_field(body: dict[str, Any], limit: int) -> None:
    a = {k: v for k, v in body.items() if k != "max_tokens"} | {"max_tokens": limit}
    b = {k: v for k, v in body.items() if k != "max_tokens"} | {"max_completion_tokens": limit}
    assert exact_key(a, model="m", tenant="t") == exact_key(b, model="m", tenant="t")


def test_the_body_model_field_is_replaced_by_the_resolved_model() -> None:
    body = {"model": "auto", "messages": [{"role": "user", "content": "hi"}]}
    assert exact_key(body, model="m", tenant="t") == exact_key(
        dict(body, model="other"), model="m", tenant="t"
    )


def test_answer_preserving_normalisations() -> None:
    base = {"messages": [{"role": "user", "content": "hi"}], "temperature": 0}
    key = exact_key(base, model="m", tenant="t")
    assert exact_key(dict(base, temperature=0.0), model="m", tenant="t") == key
    assert exact_key(dict(base, seed=None), model="m", tenant="t") == key
    parts = {"messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}], "temperature": 0}
    assert exact_key(parts, model="m", tenant="t") == key
    # but a different value, or whitespace inside a message, is a different request
    assert exact_key(dict(base, temperature=0.1), model="m", tenant="t") != key
    assert (
        exact_key({"messages": [{"role": "user", "content": "hi "}], "temperature": 0}, model="m", tenant="t")
        != key
    )


GOLDEN_KEY = "1101462e963514ee74a22a9b55ff61c503cc8c7abd91834914540b234f7a4155"


def test_key_is_stable_across_releases() -> None:
    """Golden value: changing the canonical form silently would orphan every stored entry."""
    body = {
        "model": "x",
        "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hello"}],
        "temperature": 0,
        "max_completion_tokens": 16,
        "stream": True,
    }
    assert exact_key(body, model="small", tenant="acme") == GOLDEN_KEY


def test_request_keys_and_last_user_text() -> None:
    body = {
        "messages": [
            {"role": "system", "content": "sys"},
            {"role": "user", "content": "first"},
            {"role": "assistant", "content": "answer"},
            {"role": "user", "content": "second"},
        ]
    }
    keys = request_keys(body, model="m", tenant="t")
    assert keys.query == "second" and keys.tenant == "t" and keys.model == "m"
    assert len(keys.exact) == 64 and len(keys.scope) == 64 and keys.exact != keys.scope
    image = {"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}]}
    assert last_user_text(image) is None
    assert last_user_text({"messages": [{"role": "system", "content": "s"}]}) is None
    assert last_user_text({"prompt": "complete me"}) == "complete me"
