"""GET /v1/models and /v1/models/{id} through the openai SDK."""

from __future__ import annotations

from dataclasses import replace

import httpx
import openai
import pytest
from openai import OpenAI

from proxy.app import create_app
from proxy.settings import ModelAlias, RouterSettings
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
    assert sorted(listed) == ["gpt-test", "org/big-model", "thrifty-auto"]
    assert [(m.id, m.object, m.owned_by) for m in retrieved] == [(name, "model", "thrifty") for name in listed]
    assert missing.value.status_code == 404
    error = raw.json()["error"]
    assert (error["type"], error["code"], error["param"]) == ("invalid_request_error", "model_not_found", "model")
    assert "no-such-model" in error["message"]
