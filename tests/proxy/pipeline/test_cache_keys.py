"""Per-key cache configuration: [cache.keys.<name>] parsed and checked at start-up, applied per request
through the real app over HTTP (openai SDK client, scripted upstream, real SQLite, real embedder)."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta
from pathlib import Path

import openai
import pytest

from proxy.config.settings import SettingsError, load_settings
from proxy.http.app import create_app
from proxy.identity import key_id_from_authorization
from tests.support.servers import ScriptedUpstream, serve_in_thread
from tests.support.writebacks import CacheWrites


def sha(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def write_config(tmp_path: Path, upstream: str, keys: str) -> Path:
    config = tmp_path / "thrifty.toml"
    config.write_text(f"""
data_dir = "{tmp_path}"
[database]
url = "sqlite+aiosqlite:///{tmp_path / 'proxy.db'}"
[bundled]
enabled = false
[router]
enabled = false
[proxy]
log_flush_interval_s = 0.05
[[upstreams]]
name = "fake"
base_url = "{upstream}/v1"
[models.gpt-test]
upstream = "fake"
model = "upstream-model"
[cache]
enabled = true
semantic = true
lookup_deadline_ms = 0
{keys}
""")
    return config


KEYS = f"""
[cache.keys.off]
api_key_sha256 = "{sha('sk-off')}"
enabled = false
[cache.keys.exact-only]
api_key_sha256 = "{sha('sk-exact').upper()}"
semantic = false
[cache.keys.strict]
tenant = "{key_id_from_authorization('Bearer sk-strict')}"
similarity_threshold = 0.999
[cache.keys.creative]
api_key_sha256 = "{sha('sk-creative')}"
semantic_nondeterministic = true
ttl_s = 1.5
"""


def test_cache_keys_are_parsed(tmp_path: Path) -> None:
    settings = load_settings(write_config(tmp_path, "http://127.0.0.1:1", KEYS), {})
    keys = {k.name: k for k in settings.cache.keys}
    assert set(keys) == {"off", "exact-only", "strict", "creative"}
    assert keys["off"].enabled is False and keys["off"].semantic is None
    assert keys["exact-only"].api_key_sha256 == sha("sk-exact")  # normalised to lower case
    assert keys["exact-only"].tenant_id == key_id_from_authorization("Bearer sk-exact")
    assert keys["strict"].tenant_id == key_id_from_authorization("Bearer sk-strict")
    assert keys["creative"].ttl_s == 1.5 and keys["creative"].semantic_nondeterministic is True


@pytest.mark.parametrize(("keys", "message"), [
    ('[cache.keys.a]\nenabled = false\n', "exactly one of api_key_sha256"),
    (f'[cache.keys.a]\napi_key_sha256 = "{sha("x")}"\ntenant = "anonymous"\n', "exactly one of"),
    ('[cache.keys.a]\napi_key_sha256 = "abc123"\n', "64 hex digits"),
    ('[cache.keys.a]\ntenant = "alice"\n', "tenant must look like"),
    (f'[cache.keys.a]\napi_key_sha256 = "{sha("x")}"\nsimilarity_threshold = 1.2\n', r"in \(0, 1\]"),
    (f'[cache.keys.a]\napi_key_sha256 = "{sha("x")}"\nttl_s = 0\n', "ttl_s must be > 0"),
    (f'[cache.keys.a]\napi_key_sha256 = "{sha("x")}"\nsemantic = 3\n', "semantic must be true or false"),
    (f'[cache.keys.a]\napi_key_sha256 = "{sha("x")}"\ntreshold = 0.9\n', "unknown keys"),
    (f'[cache.keys.a]\napi_key_sha256 = "{sha("x")}"\n[cache.keys.b]\n'
     f'tenant = "{key_id_from_authorization("Bearer x")}"\n', "configure the same key"),
    ("keys = 3\n", r"\[cache.keys\] must hold one table per key"),
])
def test_bad_cache_keys_stop_start_up(tmp_path: Path, keys: str, message: str) -> None:
    config = write_config(tmp_path, "http://127.0.0.1:1", keys)
    with pytest.raises(SettingsError, match=message):
        load_settings(config, {})


def ask(proxy: str, token: str, content: str, **extra):
    client = openai.OpenAI(base_url=f"{proxy}/v1", api_key=token, max_retries=0, timeout=30)
    raw = client.chat.completions.with_raw_response.create(
        model="gpt-test", messages=[{"role": "user", "content": content}], **extra)
    return raw.headers.get("x-thrifty-cache"), raw.parse()


def test_per_key_settings_apply_over_http(tmp_path: Path, embedder) -> None:
    script = ScriptedUpstream(content="Paris.")
    q, para = "What is the capital city of France?", "What's the capital city of France?"
    with serve_in_thread(script) as up:
        settings = load_settings(write_config(tmp_path, up, KEYS), {})
        now = [datetime.now(UTC)]  # the cache's clock: expiry is tested without sleeping
        app = create_app(settings, embedder=embedder, clock=lambda: now[0])
        writes = CacheWrites(app)
        settle = writes.wait  # every write-back asked so far has finished (JSON answers ask before responding)

        with serve_in_thread(app) as proxy:
            # caching off for this key: never stored, never served
            assert ask(proxy, "sk-off", q, temperature=0)[0] == "bypass"
            settle()
            assert writes.started == 0
            assert ask(proxy, "sk-off", q, temperature=0)[0] == "bypass"
            # every other key stores its answer; exact hits work for all of them
            for token in ("sk-exact", "sk-strict", "sk-plain"):
                assert ask(proxy, token, q, temperature=0)[0] == "miss"
                settle()
                assert ask(proxy, token, q, temperature=0)[0] == "exact"
            assert ask(proxy, "sk-plain", para, temperature=0)[0] == "semantic"  # the global settings
            assert ask(proxy, "sk-exact", para, temperature=0)[0] == "miss"  # semantic = false
            assert ask(proxy, "sk-strict", para, temperature=0)[0] == "miss"  # threshold 0.999
            # non-deterministic requests may hit the semantic cache for this key only; for the
            # others a sampled request is a fresh sample, never looked up nor stored
            poem, near = "Write a haiku about autumn leaves.", "Write a haiku about the autumn leaves."
            assert ask(proxy, "sk-creative", poem, temperature=0.8)[0] == "miss"
            settle()
            stored = writes.started
            assert ask(proxy, "sk-plain", poem, temperature=0.8)[0] == "bypass"
            settle()
            assert writes.started == stored  # a sampled request of this key is never stored
            assert ask(proxy, "sk-plain", poem, temperature=0.8)[0] == "bypass"
            assert ask(proxy, "sk-plain", near, temperature=0.8)[0] == "bypass"
            outcome, reply = ask(proxy, "sk-creative", near, temperature=0.8)
            assert outcome == "semantic" and reply.choices[0].message.content == "Paris."
            now[0] += timedelta(seconds=1.6)  # this key's entries live 1.5 s
            assert ask(proxy, "sk-creative", poem, temperature=0.8)[0] == "miss"
            settle()
    upstream_calls = sum(1 for r in script.requests if r["_path"].endswith("/completions"))
    assert upstream_calls == 2 + 3 + 1 + 1 + 3 + 1 + 1
