"""Settings from TOML plus THRIFTY_* environment variables."""

from __future__ import annotations

import pytest

from proxy.config.settings import SettingsError, load_settings


def test_defaults_need_no_file_and_point_at_the_bundled_backend():
    settings = load_settings(None, {})
    assert settings.proxy.port == 8000 and settings.proxy.host == "127.0.0.1"
    assert settings.database_url.startswith("sqlite+aiosqlite:///") and settings.database_url.endswith("thrifty.db")
    assert [u.name for u in settings.upstreams] == ["local"]
    assert settings.models[0].name == settings.backend.served_model_name


def test_file_and_environment_compose(tmp_path):
    config = tmp_path / "thrifty.toml"
    config.write_text("""
data_dir = "/tmp/thrifty-x"
[proxy]
port = 9000
request_timeout_s = 12.5
[backend]
max_model_len = 1024
[[upstreams]]
name = "openai"
base_url = "https://api.example.test/v1"
api_key_env = "MY_KEY"
[models.gpt-4o]
upstream = "openai"
model = "gpt-4o-2024-08-06"
""")
    env = {"THRIFTY_PROXY__PORT": "9100", "THRIFTY_DATABASE__URL": "postgresql+asyncpg://u@h/db",
           "MY_KEY": "sk-secret", "THRIFTY_BUNDLED__ENABLED": "false", "UNRELATED": "x"}
    settings = load_settings(config, env)
    assert settings.proxy.port == 9100  # environment wins over the file
    assert settings.proxy.request_timeout_s == 12.5
    assert settings.backend.max_model_len == 1024
    assert settings.database_url == "postgresql+asyncpg://u@h/db"
    assert settings.upstream("openai").api_key == "sk-secret"
    assert [m.name for m in settings.models] == ["gpt-4o"]  # bundled disabled: no local alias
    assert str(settings.data_path) == "/tmp/thrifty-x"


@pytest.mark.parametrize(("text", "env", "message"), [
    ("[proxy]\nprot = 1\n", {}, "unknown keys"),
    ("[nonsense]\n", {}, "unknown configuration sections"),
    ("[proxy]\nport = \n", {}, "not valid TOML"),
    ("", {"THRIFTY_PROXY__PORT": "eighty"}, "cannot use 'eighty'"),
    ('[models.x]\nupstream = "nowhere"\nmodel = "m"\n', {}, "unknown upstream 'nowhere'"),
    ("", {"THRIFTY_CACHE__EMBED_DTYPE": "int4"}, "embed_dtype must be one of"),
    ("", {"THRIFTY_CACHE__EMBED_IMPLEMENTATION": "onnx"}, "embed_implementation must be one of"),
    ("[cache]\nmemo_ttl_s = -1\n", {}, "memo_ttl_s must be between 0 and 3600"),
    ("[proxy]\nrequest_timeout_s = -1\n", {}, r"\[proxy\] request_timeout_s must be > 0"),
    ("[proxy]\nconnect_timeout_s = 0\n", {}, r"\[proxy\] connect_timeout_s must be > 0"),
    ("[proxy]\nport = 70000\n", {}, "port must be between 1 and 65535"),
    ("", {"THRIFTY_PROXY__PORT": "0"}, "port must be between 1 and 65535"),
    ("[proxy]\nmax_connections = 0\n", {}, "max_connections must be at least 1"),
    ("[proxy]\nlog_batch_size = -3\n", {}, "log_batch_size must be at least 1"),
    ("[proxy]\nmax_retries = -1\n", {}, "max_retries must be >= 0"),
    ("", {"THRIFTY_PROXY__REQUEST_TIMEOUT_S": "nan"}, "request_timeout_s must be > 0"),
    ("[cache]\nsimilarity_threshold = 5\n", {}, r"similarity_threshold must be in \(0, 1\]"),
    ("[cache]\nsimilarity_threshold = 0\n", {}, r"similarity_threshold must be in \(0, 1\]"),
    ("[cache]\nttl_s = -5\n", {}, "ttl_s must be > 0"),
    ("[cache]\nreworded_part_threshold = 1.5\n", {}, r"reworded_part_threshold must be in \[0, 1\]"),
    ("[cache]\nmax_entries = 0\n", {}, "max_entries must be at least 1"),
    ('[[upstreams]]\nname = "u"\nbase_url = "not a url"\n', {}, "base_url must be an http:// or https:// URL"),
    ('[[upstreams]]\nname = "u"\nbase_url = "ftp://h/v1"\n', {}, "base_url must be an http:// or https:// URL"),
    ('[[upstreams]]\nname = "u"\nbase_url = "http:///v1"\n', {}, "base_url must be an http:// or https:// URL"),
    ('[[upstreams]]\nname = "u"\nbase_urls = ["http://a:1/v1", "b:2"]\n', {}, "base_url must be an http"),
    ('[[upstreams]]\nname = "u"\nbase_url = "http://h:99999/v1"\n', {}, "base_url must be an http"),
    ('[database]\nurl = "/tmp/x.db"\n', {}, r"\[database\] url: cannot use database URL '/tmp/x.db'"),
    ('[database]\nurl = "mysql://root:s3cretpw@h/db"\n', {}, r"cannot use database URL 'mysql://root:••••••@h/db'"),
])
def test_bad_configuration_is_reported(tmp_path, text, env, message):
    config = tmp_path / "bad.toml"
    config.write_text(text)
    with pytest.raises(SettingsError, match=message):
        load_settings(config, env)


def test_missing_file_is_reported(tmp_path):
    with pytest.raises(SettingsError, match="does not exist"):
        load_settings(tmp_path / "nope.toml", {})


def test_sample_config_in_the_repo_loads():
    from pathlib import Path

    sample = Path(__file__).resolve().parents[3] / "thrifty.example.toml"
    settings = load_settings(sample, {})
    assert settings.proxy.port == 8000


def test_cache_memo_ttl_reaches_the_exact_cache(tmp_path):
    from proxy.pipeline.components import cache_config

    settings = load_settings(None, {"THRIFTY_CACHE__MEMO_TTL_S": "0", "THRIFTY_DATA_DIR": str(tmp_path)})
    assert settings.cache.memo_ttl_s == 0
    assert cache_config(settings).exact.memo_ttl_s == 0
    assert cache_config(load_settings(None, {"THRIFTY_DATA_DIR": str(tmp_path)})).exact.memo_ttl_s == 2.0


def test_zero_keeps_meaning_off_where_the_example_says_so():
    settings = load_settings(None, {"THRIFTY_PROXY__MAX_RETRIES": "0", "THRIFTY_CACHE__MEMO_TTL_S": "0",
                                    "THRIFTY_PROXY__RETRY_BACKOFF_S": "0"})
    assert settings.proxy.max_retries == 0 and settings.cache.memo_ttl_s == 0


@pytest.mark.parametrize(("url", "expected"), [
    ("sqlite:////tmp/x.db", "sqlite+aiosqlite:////tmp/x.db"),
    ("postgresql://u:p@127.0.0.1:5432/test", "postgresql+asyncpg://u:p@127.0.0.1:5432/test"),
    ("postgres://u@h/db", "postgresql+asyncpg://u@h/db"),
    ("postgresql+asyncpg://u@h/db", "postgresql+asyncpg://u@h/db"),
])
def test_plain_database_urls_get_their_async_driver(url, expected):
    assert load_settings(None, {"THRIFTY_DATABASE__URL": url}).database_url == expected


def test_the_reworded_part_threshold_reaches_the_semantic_cache_and_zero_turns_it_off(tmp_path):
    from proxy.pipeline.components import cache_config

    default = cache_config(load_settings(None, {"THRIFTY_DATA_DIR": str(tmp_path)})).semantic
    assert default.reworded_part_threshold == 0.55
    for value, expected in (("0.7", 0.7), ("0", None)):
        settings = load_settings(None, {"THRIFTY_CACHE__REWORDED_PART_THRESHOLD": value, "THRIFTY_DATA_DIR": str(tmp_path)})
        assert cache_config(settings).semantic.reworded_part_threshold == expected
