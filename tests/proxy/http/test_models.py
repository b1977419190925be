"""GET /v1/models and /v1/models/{id} through the openai SDK."""

from __future__ import annotations

import json
from dataclasses import replace

import httpx
import openai
import pytest
from openai import OpenAI

from proxy.config.sections import ModelAlias, RouterSettings
from proxy.http.app import create_app
from tests.support.servers import ScriptedUpstream, serve_in_thread


def test_models_retrieve_answers_every_listed_model_and_404s_others(make_settings):
    with serve_in_thread(ScriptedUpstream()) as up:
        settings = make_settings(up, router=RouterSettings(enabled=True, small_model="gpt-test",
                                                           large_model="org/big-model", kind="heuristic"))
        settings = replace(settings, models=(*settings.models, ModelAlias("org/big-model", "fake", "big")))
        with serve_in_thread(create_app(settings)) as proxy:
            client = OpenAI(base_url=proxy + "/v1", api_key="sk-test", max_retries=0)
            listed = [m.id for m in client.models.list()]
            retrieved = [client.models.retrieve(name) for name in listed]
            with pytest.raises(openai.NotFoundError) as missing:
                client.models.retrieve("no-such-model")
            raw = httpx.get(f"{proxy}/v1/models/no-such-model")
    assert sorted(listed) == ["all-minilm-l6-v2", "gpt-test", "org/big-model", "thrifty-auto"]
    owners = {"gpt-test": "test", "org/big-model": "fake", "thrifty-auto": "thrifty", "all-minilm-l6-v2": "thrifty"}
    assert [(m.id, m.object, m.owned_by) for m in retrieved] == [(name, "model", owners[name]) for name in listed]
    assert missing.value.status_code == 404
    error = raw.json()["error"]
    assert (error["type"], error["code"], error["param"]) == ("invalid_request_error", "model_not_found", "model")
    assert "no-such-model" in error["message"]


def test_model_cards_carry_created_owner_and_context_length(make_settings):
    """``created`` and ``owned_by`` come from the upstream's own card, and so does the context length
    (vLLM's ``max_model_len``), given as ``context_window`` and ``max_model_len``; a model its upstream
    does not list gets the proxy's start time, its upstream's name and no context length; the routed
    name gets the smaller of its tiers' windows once both are known."""
    script = ScriptedUpstream(model_name="upstream-model", model_created=1_700_000_000)
    with serve_in_thread(_CardUpstream(script)) as up:
        settings = make_settings(up, router=RouterSettings(enabled=True, small_model="gpt-test",
                                                           large_model="gpt-test", kind="heuristic"))
        settings = replace(settings, models=(*settings.models, ModelAlias("unlisted", "fake", "not-there")))
        with serve_in_thread(create_app(settings)) as proxy:
            cards = {m["id"]: m for m in httpx.get(f"{proxy}/v1/models").json()["data"]}
            one = httpx.get(f"{proxy}/v1/models/gpt-test").json()
    assert cards["gpt-test"] == one == {"id": "gpt-test", "object": "model", "created": 1_700_000_000,
                                        "owned_by": "test", "context_window": 4096, "max_model_len": 4096}
    assert cards["thrifty-auto"]["context_window"] == 4096 and cards["thrifty-auto"]["owned_by"] == "thrifty"
    unlisted = cards["unlisted"]
    assert unlisted["owned_by"] == "fake" and "context_window" not in unlisted and unlisted["created"] > 1_700_000_000
    assert cards["all-minilm-l6-v2"]["context_window"] == 256 and cards["all-minilm-l6-v2"]["dimensions"] == 384


class _CardUpstream:
    """The scripted upstream with ``max_model_len`` on its model card."""

    def __init__(self, inner: ScriptedUpstream) -> None:
        self._inner = inner

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["method"] == "GET" and scope["path"].endswith("/models"):
            body = json.dumps({"object": "list", "data": [{"id": "upstream-model", "object": "model",
                                                             "created": 1_700_000_000, "owned_by": "test",
                                                             "max_model_len": 4096}]}).encode()
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-type", b"application/json")]})
            await send({"type": "http.response.body", "body": body})
            return
        await self._inner(scope, receive, send)


def test_unknown_paths_and_methods_name_what_is_missing(make_settings):
    with serve_in_thread(ScriptedUpstream()) as up, serve_in_thread(create_app(make_settings(up))) as proxy:
        missing = httpx.post(f"{proxy}/v1/audio/speech", json={})
        wrong = httpx.get(f"{proxy}/v1/embeddings")
        client = OpenAI(base_url=proxy + "/v1", api_key="sk-test", max_retries=0)
        with pytest.raises(openai.NotFoundError) as sdk:
            client.images.generate(prompt="a cat")
    assert missing.status_code == 404
    error = missing.json()["error"]
    assert error["code"] == "unknown_endpoint" and error["type"] == "invalid_request_error"
    assert "POST /v1/audio/speech" in error["message"]
    for endpoint in ("POST /v1/chat/completions", "POST /v1/embeddings", "GET /v1/models", "POST /v1/completions"):
        assert endpoint in error["message"]
    assert wrong.status_code == 405 and wrong.json()["error"]["code"] == "method_not_allowed"
    assert "GET is not supported on /v1/embeddings" in wrong.json()["error"]["message"]
    assert "/v1/images/generations" in sdk.value.body["message"]
