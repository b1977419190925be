"""The saved SmolLM2 tokenizer read without transformers (:mod:`tokenization.light_tokenizer`) against transformers'
own reading of the same folder: the same ids, texts, symbols, special tokens and chat prompts, on generated inputs;
folders it cannot reproduce exactly are left to transformers; a server start never imports transformers."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from transformers import AutoTokenizer

from tokenization.light_tokenizer import LightTokenizer, read_light_tokenizer
from tokenization.models import resolve_model
from tokenization.tokenizer import Tokenizer

ALPHABET = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;:!?'\"()[]{}<>=+-*/\\_#@$%^&|~`"
            "\t\n\r éüñçßøæ東京日本語한국어Ωπλ😀🚀—…\u200b\u00a0")
PIECES = ["<|im_start|>", "<|im_end|>", "<|endoftext|>", "{{ messages }}", "{% if true %}x{% endif %}", "  ", "\n\n",
          "Hello", " world", "don't", "1234567", "🍣🍣", "<tool_call>", "</s>", "<s>"]


def _texts(seed: int, count: int) -> list[str]:
    """Random strings of characters and of pieces that tokenizers treat specially (special tokens' texts, Jinja
    syntax, runs of whitespace, digits, emoji), 0-400 characters, plus a few fixed edge cases."""
    rng = random.Random(seed)
    out = ["", " ", "\n", "<|im_end|>", "a" * 500]
    for _ in range(count):
        if rng.random() < 0.5:
            out.append("".join(rng.choice(ALPHABET) for _ in range(rng.choice([1, 3, 20, 120, 400]))))
        else:
            out.append("".join(rng.choice(PIECES + list(ALPHABET)) for _ in range(rng.randint(1, 60))))
    return out


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """The real SmolLM2 tokenizer as :meth:`Tokenizer.load` saves it (converted from the GGUF file once)."""
    data_dir = tmp_path_factory.mktemp("tokenizer-data")
    Tokenizer.load(resolve_model(None), data_dir)
    (saved,) = (data_dir / "tokenizers").iterdir()
    return saved


@pytest.fixture(scope="module")
def pair(folder) -> tuple[LightTokenizer, object]:
    light = read_light_tokenizer(folder)
    assert light is not None
    return light, AutoTokenizer.from_pretrained(str(folder))


def test_special_tokens_and_vocabulary_match_transformers(pair) -> None:
    light, hf = pair
    assert len(light) == len(hf) and light.eos_token_id == hf.eos_token_id
    assert set(light.all_special_ids) == set(hf.all_special_ids)
    assert light.special_tokens_map == hf.special_tokens_map
    assert [light.convert_ids_to_tokens(i) for i in range(len(hf))] == hf.convert_ids_to_tokens(list(range(len(hf))))


def test_encoding_and_decoding_match_transformers(pair) -> None:
    light, hf = pair
    for text in _texts(seed=0, count=150):
        ids = light.encode(text)
        assert ids == hf.encode(text, add_special_tokens=False), text
        for skip in (True, False):
            assert light.decode(ids, skip_special_tokens=skip) == hf.decode(ids, skip_special_tokens=skip), text
    rng = random.Random(1)
    for _ in range(200):  # arbitrary id sequences: partial UTF-8, special tokens anywhere
        ids = [rng.randrange(len(hf)) if rng.random() < 0.9 else rng.choice(hf.all_special_ids)
               for _ in range(rng.randint(0, 30))]
        for skip in (True, False):
            assert light.decode(ids, skip_special_tokens=skip) == hf.decode(ids, skip_special_tokens=skip), ids


def test_chat_prompts_match_transformers(pair) -> None:
    light, hf = pair
    rng = random.Random(2)
    texts = _texts(seed=3, count=60)
    for _ in range(80):
        roles = [rng.choice(["system", "user", "assistant", "tool"]) for _ in range(rng.randint(1, 6))]
        messages = [{"role": role, "content": rng.choice(texts)} for role in roles]
        for generation_prompt in (True, False):
            expected = hf.apply_chat_template(messages, tokenize=False, add_generation_prompt=generation_prompt)
            got = light.apply_chat_template(messages, tokenize=False, add_generation_prompt=generation_prompt)
            assert got == expected, messages


def _copy(folder: Path, target: Path) -> Path:
    shutil.copytree(folder, target)
    return target


def test_folders_it_cannot_reproduce_are_left_to_transformers(folder, tmp_path) -> None:
    clean_up = _copy(folder, tmp_path / "clean-up")
    config = json.loads((clean_up / "tokenizer_config.json").read_text())
    (clean_up / "tokenizer_config.json").write_text(json.dumps({**config, "clean_up_tokenization_spaces": True}))
    assert read_light_tokenizer(clean_up) is None
    no_template = _copy(folder, tmp_path / "no-template")
    (no_template / "chat_template.jinja").unlink()
    assert read_light_tokenizer(no_template) is None
    missing_eos = _copy(folder, tmp_path / "missing-eos")
    (missing_eos / "tokenizer_config.json").write_text(json.dumps({**config, "eos_token": "<|no such token|>"}))
    assert read_light_tokenizer(missing_eos) is None
    broken = _copy(folder, tmp_path / "broken")
    (broken / "tokenizer.json").write_text("{not json")
    assert read_light_tokenizer(broken) is None


def test_a_cached_tokenizer_loads_without_importing_transformers_and_still_offers_it(folder) -> None:
    data_dir = folder.parent.parent  # the folder's data directory: the tokenizer is cached there
    probe = ("import sys\nfrom tokenization.models import resolve_model\nfrom tokenization.tokenizer import Tokenizer\n"
             f"tok = Tokenizer.load(resolve_model(None), __import__('pathlib').Path({str(data_dir)!r}))\n"
             "print(len(tok.encode_chat([{'role': 'user', 'content': 'Hi'}])) > 0, 'transformers' in sys.modules)\n"
             "print(type(tok.hf_tokenizer).__module__.startswith('transformers'))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.split() == ["True", "False", "True"], out.stderr[-2000:]
