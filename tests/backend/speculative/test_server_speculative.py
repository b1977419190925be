"""Speculative decoding behind the real HTTP server (uvicorn, the openai SDK as client): the per-request
usage extension and the acceptance counters in /metrics."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import openai
import pytest
from prometheus_client.parser import text_string_to_metric_families

from backend.config import BackendConfig
from backend.engine import Engine, EngineConfig, EngineService
from backend.server import create_backend_app
from backend.speculative.config import SpeculativeConfig
from benchmarks.harness import serve_in_thread
from tests.backend.test_engine_support import tiny_loaded


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    loaded = tiny_loaded()
    engine = Engine(loaded, EngineConfig(block_size=4, num_blocks=200, max_model_len=512, max_num_seqs=8,
                                         speculative=SpeculativeConfig("draft", 4, model="itself")), draft=loaded)
    app = create_backend_app(BackendConfig(served_model_name="tiny", max_model_len=512), loaded,
                             EngineService(engine))
    with serve_in_thread(app) as base:
        yield base


def _samples(url: str) -> dict[str, float]:
    text = httpx.get(f"{url}/metrics", timeout=10).text
    return {s.name: s.value for f in text_string_to_metric_families(text) for s in f.samples}


def test_metrics_report_speculation_before_any_verification(url: str) -> None:
    """The series exist (at zero) from start-up, so dashboards and rate() see them from the first scrape;
    a request too short to draft still says in its usage that speculation was on and drafted nothing."""
    samples = _samples(url)
    assert samples["vllm:spec_decode_num_draft_tokens_total"] >= 0
    assert "thrifty_engine_spec_mean_accepted_length" in samples
    client = openai.OpenAI(base_url=f"{url}/v1", api_key="unused", max_retries=0)
    answer = client.completions.create(model="tiny", prompt=[5, 6, 7], max_tokens=1, temperature=0,
                                       extra_body={"ignore_eos": True})
    spec = answer.usage.model_dump()["speculative"]  # one token: the prompt's step makes it, nothing drafts
    assert spec == {"draft_tokens": 0, "accepted_tokens": 0, "verifications": 0, "acceptance_rate": 0.0,
                    "mean_accepted_length": 0.0}


def test_usage_extension_and_metrics_report_acceptance(url: str) -> None:
    client = openai.OpenAI(base_url=f"{url}/v1", api_key="unused", max_retries=0)
    answer = client.completions.create(model="tiny", prompt=[5, 6, 7, 8, 9], max_tokens=20, temperature=0,
                                       extra_body={"ignore_eos": True})
    usage = answer.usage.model_dump()
    assert usage["completion_tokens"] == 20
    spec = usage["speculative"]  # the target drafting for itself: every draft token is accepted
    assert spec["draft_tokens"] > 0 and spec["accepted_tokens"] == spec["draft_tokens"]
    assert spec["acceptance_rate"] == 1.0
    # every verification emits its accepted drafts plus the target's own token
    assert spec["mean_accepted_length"] == pytest.approx((spec["accepted_tokens"] + spec["verifications"])
                                                         / spec["verifications"], abs=1e-4)
    assert spec["mean_accepted_length"] > 1.0
    samples = _samples(url)
    assert samples["vllm:spec_decode_num_draft_tokens_total"] >= spec["draft_tokens"]
    assert samples["vllm:spec_decode_num_accepted_tokens_total"] == samples["vllm:spec_decode_num_draft_tokens_total"]
    assert samples["thrifty_engine_spec_acceptance_rate"] == 1.0
    assert samples["thrifty_engine_spec_mean_accepted_length"] > 1.0
