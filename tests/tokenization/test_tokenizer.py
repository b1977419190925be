"""tokenization.tokenizer on a small in-memory byte-level BPE tokenizer with SmolLM2's chat template:
vocabulary symbols map back to their bytes (for OpenAI's logprobs ``token`` / ``bytes``), and an
assistant turn that only called tools, or a tool result, keeps its place in the rendered prompt."""

from __future__ import annotations

import json

import pytest

from tokenization.tokenizer import Tokenizer, bytes_to_unicode

# SmolLM2-135M-Instruct's chat template (as its GGUF file ships it)
SMOLLM2_TEMPLATE = (
    "{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}"
    "{{ '<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n' }}"
    "{% endif %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}"
    "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}")
MERGES = [("Ġ", "t"), ("h", "e"), ("Ġt", "he"), ("r", "e"), ("Ġthe", "re")]


def byte_level_tokenizer() -> Tokenizer:
    """Every byte is a token (so an emoji is split into partial UTF-8 pieces), plus " there"'s merges."""
    from tokenizers import Tokenizer as RawTokenizer
    from tokenizers import decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    symbols = ["<|im_start|>", "<|im_end|>", *bytes_to_unicode().values(), *("".join(m) for m in MERGES)]
    raw = RawTokenizer(models.BPE(vocab={s: i for i, s in enumerate(symbols)}, merges=MERGES))
    raw.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    raw.decoder = decoders.ByteLevel()
    hf = PreTrainedTokenizerFast(tokenizer_object=raw, eos_token="<|im_end|>", bos_token="<|im_start|>")
    hf.chat_template = SMOLLM2_TEMPLATE
    return Tokenizer(hf)


@pytest.fixture(scope="module")
def tok() -> Tokenizer:
    return byte_level_tokenizer()


def test_the_byte_table_is_gpt2s() -> None:
    table = bytes_to_unicode()
    assert len(table) == 256 and len(set(table.values())) == 256
    assert (table[ord(" ")], table[ord("\n")], table[ord("A")], table[0xF0], table[0x9F]) == ("Ġ", "Ċ", "A", "ð", "Ł")


def test_symbols_map_back_to_the_bytes_they_stand_for(tok: Tokenizer) -> None:
    text = "Hi there 🍣\n"
    ids = tok.encode(text)
    symbols = [tok.token_text(i) for i in ids]
    assert "Ġthere" in symbols and symbols[-1] == "Ċ" and "ð" in symbols
    pieces = [tok.symbol_bytes(s) for s in symbols]
    assert b"".join(pieces) == text.encode("utf-8")
    assert tok.symbol_bytes("Ġthere") == b" there"
    assert tok.symbol_bytes("ðŁ") == b"\xf0\x9f"  # half an emoji: bytes, not "ðŁ"'s UTF-8
    assert tok.symbol_bytes("<|im_end|>") == b"<|im_end|>"


def test_a_plain_text_tokenizer_keeps_its_symbols_text() -> None:
    class Plain:  # no byte-level decoder (e.g. SentencePiece)
        eos_token_id = 0

        def __len__(self) -> int:
            return 10

    plain = Tokenizer(Plain())
    assert plain.symbol_bytes("▁there") == b" there"
    assert plain.symbol_bytes("ðŁ") == "ðŁ".encode()


def test_assistant_tool_calls_and_tool_results_are_rendered(tok: Tokenizer) -> None:
    messages = [
        {"role": "user", "content": "What's the weather in Paris?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}},
            {"id": "c2", "type": "function", "function": {"name": "get_time", "arguments": "not json"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "22C"},
        {"role": "tool", "tool_call_id": "c2", "content": [{"type": "text", "text": "noon"}]},
    ]
    rendered = tok.render_chat(messages)
    weather = json.dumps({"name": "get_weather", "arguments": {"city": "Paris"}})
    time_call = json.dumps({"name": "get_time", "arguments": "not json"})
    assert (f"<|im_start|>assistant\n<tool_call>\n{weather}\n</tool_call>\n<tool_call>\n{time_call}\n</tool_call>"
            "<|im_end|>") in rendered
    assert "<|im_start|>tool\n22C<|im_end|>\n<|im_start|>tool\nnoon<|im_end|>\n<|im_start|>assistant\n" in rendered


def test_assistant_text_comes_before_its_tool_calls_and_legacy_function_calls_render_too(tok: Tokenizer) -> None:
    rendered = tok.render_chat([
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": "Let me look.", "tool_calls": [
            {"type": "function", "function": {"name": "find", "arguments": "{}"}}]},
        {"role": "assistant", "content": None, "function_call": {"name": "legacy", "arguments": "{\"x\": 1}"}},
    ])
    assert "Let me look.\n<tool_call>\n{\"name\": \"find\", \"arguments\": {}}\n</tool_call>" in rendered
    assert "<tool_call>\n{\"name\": \"legacy\", \"arguments\": {\"x\": 1}}\n</tool_call>" in rendered


@pytest.mark.slow
def test_smollm2s_own_tokenizer_maps_its_symbols_to_bytes(smollm2) -> None:
    tok = smollm2.tokenizer  # the session's real model (tests/conftest.py)
    text = "Hi there 🍣 日本\n"
    ids = tok.encode(text)
    assert b"".join(tok.symbol_bytes(tok.token_text(i)) for i in ids) == text.encode()
    assert tok.symbol_bytes("Ġthere") == b" there" and tok.symbol_bytes("Ċ") == b"\n"
