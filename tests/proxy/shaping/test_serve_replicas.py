"""``thrifty serve`` with two bundled backend replicas (real processes, real SmolLM2), driven by the
``openai`` SDK: requests that share a system prompt land on the backend that already holds it."""

from __future__ import annotations

import httpx
import pytest
from openai import OpenAI

from proxy.launch.supervisor import free_port
from tests.support.processes import thrifty_serve

pytestmark = pytest.mark.e2e
MODEL = "smollm2-135m-instruct"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("serve-replicas")
    port = free_port()
    config = workdir / "thrifty.toml"
    config.write_text(f"""
[proxy]
port = {port}
[cache]
enabled = false
[router]
enabled = false
[backend]
kv_cache_memory = "256MiB"
num_threads = 1
[bundled]
replicas = 2
""")
    with thrifty_serve(config, port, workdir) as base:
        yield base


def test_requests_sharing_a_system_prompt_reuse_one_replicas_prefix_cache(served) -> None:
    client = OpenAI(base_url=served + "/v1", api_key="sk-test", max_retries=0, timeout=120)
    systems = [f"You are assistant number {i} of the ACME help desk. Answer in one short sentence and be polite "
               f"to the customer at all times, whatever they ask about parcels, invoices or returns." for i in range(6)]
    for system in systems:
        for question in ("Where is my parcel?", "Can I return a gift?"):
            raw = client.chat.completions.with_raw_response.create(
                model=MODEL, temperature=0, max_tokens=2,
                messages=[{"role": "system", "content": system}, {"role": "user", "content": question}])
            reply = raw.parse()
            if question == "Can I return a gift?":  # the second request with this system prompt
                assert reply.usage.prompt_tokens_details.cached_tokens >= 32  # its system prompt's blocks
    metrics = httpx.get(served + "/metrics", timeout=10).text
    counts = {name: float(line.rsplit(" ", 1)[1]) for name in ("local", "local#1") for line in metrics.splitlines()
              if line.startswith(f'thrifty_upstream_request_duration_seconds_count{{upstream="{name}"}}')}
    assert counts.keys() == {"local", "local#1"} and all(n >= 2 for n in counts.values())  # both replicas serve
