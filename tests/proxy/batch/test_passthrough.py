"""Batch pass-through: a Thrifty in front of another Thrifty (which has the OpenAI Batch API)
hands the lines its cache misses to that upstream as one batch and merges the answers."""

from __future__ import annotations

import io
import json
import time
from dataclasses import replace

from openai import OpenAI

from proxy.config.sections import BatchSettings, CacheSettings, ModelAlias, UpstreamConfig
from proxy.http.app import create_app
from tests.support.servers import ScriptedUpstream, serve_in_thread


def _line(custom_id: str, text: str) -> dict:
    return {"custom_id": custom_id, "method": "POST", "url": "/v1/chat/completions",
            "body": {"model": "gpt-test", "messages": [{"role": "user", "content": text}], "temperature": 0}}


def test_cache_misses_go_to_the_upstream_batch_api_as_one_batch(make_settings, tmp_path):
    script = ScriptedUpstream(echo=True)
    with serve_in_thread(script) as up:
        inner_settings = replace(make_settings(up), data_dir=str(tmp_path / "inner"),
                                 batch=BatchSettings(poll_interval_s=0.05))
        inner_settings = replace(inner_settings, database=replace(
            inner_settings.database, url=f"sqlite+aiosqlite:///{tmp_path / 'inner.db'}"))
        with serve_in_thread(create_app(inner_settings)) as inner:
            outer_settings = replace(
                make_settings(up), cache=CacheSettings(enabled=True, semantic=False),
                upstreams=(UpstreamConfig("inner", inner + "/v1", api_key="sk-outer", batch_api=True),),
                models=(ModelAlias("gpt-test", "inner", "gpt-test"),),
                batch=BatchSettings(poll_interval_s=0.05, passthrough_collect_s=0.5, passthrough_poll_s=0.1))
            outer_app = create_app(outer_settings)
            with serve_in_thread(outer_app) as outer:
                client = OpenAI(base_url=outer + "/v1", api_key="sk-user", max_retries=0)
                # two questions are already in the outer proxy's cache
                for text in ("cached one", "cached two"):
                    client.chat.completions.create(model="gpt-test", temperature=0,
                                                   messages=[{"role": "user", "content": text}])
                time.sleep(0.3)  # the cache write-back runs after the answer
                direct_calls = len(script.requests)
                texts = ["cached one", "new a", "cached two", "new b", "new c"]
                uploaded = client.files.create(file=("in.jsonl", io.BytesIO(b"".join(
                    json.dumps(_line(f"p{i}", t)).encode() + b"\n" for i, t in enumerate(texts)))), purpose="batch")
                batch = client.batches.create(input_file_id=uploaded.id, endpoint="/v1/chat/completions",
                                              completion_window="24h")
                deadline = time.monotonic() + 30
                while (batch := client.batches.retrieve(batch.id)).status != "completed":
                    assert time.monotonic() < deadline, batch
                    time.sleep(0.05)
                lines = [json.loads(x) for x in client.files.content(batch.output_file_id).text.splitlines()]
                submitted = list(outer_app.state.thrifty.pipeline.upstream_batches.submitted)
    assert {x["custom_id"]: x["response"]["body"]["choices"][0]["message"]["content"] for x in lines} == {
        f"p{i}": f"echo: {t}" for i, t in enumerate(texts)}
    assert len(submitted) == 1  # the three misses went as one upstream batch
    sent_by_inner = [r["messages"][-1]["content"] for r in script.requests[direct_calls:]]
    assert sorted(sent_by_inner) == ["new a", "new b", "new c"]
    # the inner proxy ran them as a batch too: at batch priority
    assert all(r["_headers"].get("x-thrifty-priority") == "batch" for r in script.requests[direct_calls:])
