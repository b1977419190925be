"""Prompt shaping through a real `thrifty serve` process (proxy + bundled SmolLM2 backend), driven by
the official openai SDK: a key with shaping on gets the same greedy answers as a key with it off on
requests shaping leaves as they are, answers the requests it rewrites (canonical tools), and only the
first key's responses say shaping acted.

A rewritten request is another token sequence, so its greedy answer may differ: the bundled int4 model
answers the tools request below differently once its tools are canonical (the fp32 model gives the same
answer, tests/proxy/shaping/test_real_backend.py)."""

from __future__ import annotations

import hashlib

import pytest
from openai import OpenAI

from proxy.launch.supervisor import free_port
from tests.proxy.shaping.test_real_backend import MODEL, REQUESTS
from tests.support.processes import thrifty_serve

pytestmark = pytest.mark.e2e
ON_KEY, OFF_KEY = "sk-shaping-on", "sk-shaping-off"


@pytest.fixture(scope="module")
def served_with_two_keys(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("serve-shaping")
    port = free_port()
    config = workdir / "thrifty.toml"
    off_hash = hashlib.sha256(OFF_KEY.encode()).hexdigest()
    config.write_text(f"""
[proxy]
port = {port}
[cache]
enabled = false
semantic = false
[router]
enabled = false
[backend]
enable_prefix_caching = false  # each answer from a fresh prefill: the comparison is about shaping alone
[shaping]
mode = "safe"
[shaping.keys.off]
api_key_sha256 = "{off_hash}"
mode = "off"
""")
    with thrifty_serve(config, port, workdir) as base:
        yield base


def test_shaping_on_and_off_give_the_same_greedy_answers_through_serve(served_with_two_keys) -> None:
    answers: dict[str, list[str]] = {}
    actions: list[str] = []
    for key in (OFF_KEY, ON_KEY):
        client = OpenAI(base_url=f"{served_with_two_keys}/v1", api_key=key, max_retries=0, timeout=300)
        answers[key] = []
        for body in REQUESTS:
            raw = client.chat.completions.with_raw_response.create(model=MODEL, temperature=0, max_tokens=24, **body)
            answers[key].append(raw.parse().choices[0].message.content)
            shaping = raw.headers.get("x-thrifty-shaping", "")
            if key == ON_KEY:
                assert shaping.startswith("safe")
                actions.append(shaping)
            else:
                assert not shaping.startswith(("safe", "aggressive"))
    assert all(answers[OFF_KEY]) and all(answers[ON_KEY])
    # the two plain requests pass unchanged and get the very same answers; the tools request is rewritten
    assert actions == ["safe; unchanged", "safe; unchanged", "safe; tools-canonical"]
    assert answers[ON_KEY][:2] == answers[OFF_KEY][:2]
