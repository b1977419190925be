"""The ``[shaping]`` section and its tier / model / key tables."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from proxy.config.settings import SettingsError, load_settings
from proxy.config.shaping import DEFAULT_MAX_TOKENS
from proxy.identity import key_id_from_authorization


def sha(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "thrifty.toml"
    path.write_text(text)
    return path


def test_defaults_cap_every_request_out_of_the_box() -> None:
    shaping = load_settings(None, {}).shaping
    assert (shaping.mode, shaping.default_max_tokens, shaping.max_tokens_limit) == ("safe", DEFAULT_MAX_TOKENS, 0)


def test_tables_are_parsed_and_the_environment_overrides_the_section(tmp_path: Path) -> None:
    text = f"""
[shaping]
mode = "aggressive"
max_tokens_limit = 4000

[shaping.tiers.small]
default_max_tokens = 200

[shaping.models.gpt-test]
over_limit = "reject"

[shaping.keys.alice]
api_key_sha256 = "{sha('sk-alice').upper()}"
mode = "off"
"""
    settings = load_settings(config(tmp_path, text), {"THRIFTY_SHAPING__DEFAULT_MAX_TOKENS": "300"})
    shaping = settings.shaping
    assert (shaping.mode, shaping.max_tokens_limit, shaping.default_max_tokens) == ("aggressive", 4000, 300)
    assert shaping.tiers[0].name == "small" and shaping.tiers[0].default_max_tokens == 200
    assert shaping.models[0].over_limit == "reject" and shaping.models[0].mode is None
    assert shaping.keys[0].tenant_id == key_id_from_authorization("Bearer sk-alice")


@pytest.mark.parametrize(("text", "message"), [
    ('[shaping]\nmode = "loud"\n', "mode must be one of off, safe, aggressive"),
    ("[shaping]\ndefault_max_tokens = -1\n", "whole number >= 0"),
    ('[shaping]\nover_limit = "truncate"\n', "over_limit must be one of clamp, reject"),
    ("[shaping.tiers.medium]\ndefault_max_tokens = 5\n", "names no route tier"),
    ('[shaping.models.m]\ntenant = "anonymous"\n', "belong in"),
    ("[shaping.keys.a]\nmode = \"off\"\n", "exactly one of api_key_sha256"),
    ('[shaping.keys.a]\napi_key_sha256 = "abc"\n', "64 hex digits"),
    ('[shaping.keys.a]\ntenant = "bob"\n', "tenant must look like"),
    ('[shaping.models.m]\nmax_tokens_limit = "many"\n', "cannot use 'many'"),
    ("[shaping.models.m]\ncolour = 1\n", "unknown keys"),
    ("[shaping]\nmodels = 3\n", "one table per name"),
])
def test_bad_shaping_settings_stop_start_up_with_a_clear_message(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        load_settings(config(tmp_path, text), {})
