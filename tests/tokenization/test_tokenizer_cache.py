"""The converted GGUF tokenizer is cached in the data directory and in the user's cache, so that a second
server or a new data directory does not convert it again (10-15 s on a small CPU). The conversion itself is
not what these tests are about: it is replaced by a counter that returns a small real tokenizer."""

from __future__ import annotations

from pathlib import Path

import pytest
from transformers import AutoTokenizer

from tests.tokenization.test_tokenizer import byte_level_tokenizer
from tokenization.models import ModelSource
from tokenization.tokenizer import Tokenizer, shared_cache_dir


@pytest.fixture
def conversions(monkeypatch) -> list[str]:
    """Each GGUF conversion's file name; cached folders still load through transformers itself."""
    calls: list[str] = []
    original = AutoTokenizer.from_pretrained

    def from_pretrained(path, *args, gguf_file=None, **kwargs):
        if gguf_file is not None:
            calls.append(gguf_file)
            return byte_level_tokenizer().hf_tokenizer
        return original(path, *args, **kwargs)

    monkeypatch.setattr(AutoTokenizer, "from_pretrained", from_pretrained)
    return calls


@pytest.fixture
def model(tmp_path) -> ModelSource:
    path = tmp_path / "model" / "model.gguf"
    path.parent.mkdir()
    path.write_bytes(b"the cache key is this file's path, size and modification time")
    return ModelSource(path, "gguf")


def _folders(base: Path) -> list[Path]:
    return sorted((base / "tokenizers").glob("*")) if (base / "tokenizers").exists() else []


def test_a_new_data_directory_reuses_the_users_cache(conversions, model, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("THRIFTY_CACHE_DIR", str(tmp_path / "user-cache"))
    first = Tokenizer.load(model, tmp_path / "data-1")
    assert conversions == ["model.gguf"]
    assert len(_folders(tmp_path / "data-1")) == 1 and len(_folders(tmp_path / "user-cache")) == 1
    second = Tokenizer.load(model, tmp_path / "data-2")  # another server's data directory
    assert conversions == ["model.gguf"]  # not converted again
    assert len(_folders(tmp_path / "data-2")) == 1  # and it got its own copy
    assert second.encode("Hi there 🍣") == first.encode("Hi there 🍣")
    assert not list((tmp_path / "user-cache" / "tokenizers").glob(".*"))  # no staging folder left behind


def test_a_changed_model_file_is_converted_again(conversions, model, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("THRIFTY_CACHE_DIR", str(tmp_path / "user-cache"))
    Tokenizer.load(model, tmp_path / "data")
    model.path.write_bytes(b"another model, another size")
    Tokenizer.load(model, tmp_path / "data")
    assert len(conversions) == 2 and len(_folders(tmp_path / "user-cache")) == 2


def test_a_broken_cache_falls_back_to_the_other_then_to_converting(conversions, model, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("THRIFTY_CACHE_DIR", str(tmp_path / "user-cache"))
    Tokenizer.load(model, tmp_path / "data")
    (data_copy,) = _folders(tmp_path / "data")
    (data_copy / "tokenizer_config.json").write_text("{ not json")
    assert Tokenizer.load(model, tmp_path / "data").encode("there") and conversions == ["model.gguf"]
    (user_copy,) = _folders(tmp_path / "user-cache")
    (user_copy / "tokenizer_config.json").write_text("{ not json")
    (data_copy / "tokenizer_config.json").write_text("{ not json")
    assert Tokenizer.load(model, tmp_path / "data").encode("there")
    assert conversions == ["model.gguf", "model.gguf"]


def test_an_empty_cache_variable_turns_the_users_cache_off(conversions, model, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("THRIFTY_CACHE_DIR", "")
    assert shared_cache_dir() is None
    Tokenizer.load(model, tmp_path / "data")
    Tokenizer.load(model, tmp_path / "other")
    assert len(conversions) == 2


def test_the_users_cache_follows_xdg_then_home(monkeypatch, tmp_path) -> None:
    monkeypatch.delenv("THRIFTY_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert shared_cache_dir() == tmp_path / "xdg" / "thrifty"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert shared_cache_dir() == tmp_path / "home" / ".cache" / "thrifty"


def test_an_unwritable_cache_still_loads_the_tokenizer(conversions, model, tmp_path, monkeypatch) -> None:
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder would go")
    monkeypatch.setenv("THRIFTY_CACHE_DIR", str(blocked))
    assert Tokenizer.load(model, tmp_path / "data").encode("there")
    assert conversions == ["model.gguf"]
