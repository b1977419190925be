"""Tokenizer and chat template, loaded through transformers (GGUF or a Hugging Face folder).

Reading a tokenizer out of a GGUF file takes several seconds, so the converted tokenizer is saved
once under the data directory and reloaded from there on later starts.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from backend.weights import ModelSource

log = logging.getLogger(__name__)


def _content_text(content: Any) -> str:
    """OpenAI message content (a string or a list of parts) → plain text."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    parts = []
    for part in content:
        if isinstance(part, dict) and part.get("type") == "text":
            parts.append(str(part.get("text", "")))
    return "".join(parts)


class Tokenizer:
    """Encodes, decodes and renders chat messages for one model."""

    def __init__(self, hf_tokenizer) -> None:
        self._tok = hf_tokenizer
        self.eos_token_id: int | None = hf_tokenizer.eos_token_id
        self.vocab_size = len(hf_tokenizer)

    @classmethod
    def load(cls, source: ModelSource, cache_dir: Path | None) -> Tokenizer:
        from transformers import AutoTokenizer

        if source.kind == "safetensors":
            return cls(AutoTokenizer.from_pretrained(str(source.path)))
        stat = source.path.stat()
        digest = hashlib.sha256(f"{source.path.resolve()}:{stat.st_size}:{stat.st_mtime_ns}".encode()).hexdigest()[:16]
        cached = cache_dir / "tokenizers" / digest if cache_dir else None
        if cached and (cached / "tokenizer_config.json").exists():
            try:
                return cls(AutoTokenizer.from_pretrained(str(cached)))
            except Exception as exc:  # noqa: BLE001 - a broken cache is rebuilt
                log.warning("tokenizer cache %s unreadable (%s); rebuilding", cached, exc)
        tok = AutoTokenizer.from_pretrained(str(source.path.parent), gguf_file=source.path.name)
        if cached:
            try:
                cached.mkdir(parents=True, exist_ok=True)
                tok.save_pretrained(str(cached))
            except OSError as exc:
                log.warning("cannot cache tokenizer in %s: %s", cached, exc)
        return cls(tok)

    def encode(self, text: str) -> list[int]:
        return list(self._tok.encode(text, add_special_tokens=False))

    def decode(self, ids: Sequence[int], skip_special_tokens: bool = True) -> str:
        return self._tok.decode(list(ids), skip_special_tokens=skip_special_tokens)

    def render_chat(self, messages: Sequence[dict[str, Any]]) -> str:
        """Apply the model's chat template with a generation prompt."""
        plain = [{"role": m.get("role", "user"), "content": _content_text(m.get("content"))} for m in messages]
        return self._tok.apply_chat_template(plain, tokenize=False, add_generation_prompt=True)

    def encode_chat(self, messages: Sequence[dict[str, Any]]) -> list[int]:
        return self.encode(self.render_chat(messages))

    def token_text(self, token_id: int) -> str:
        return self._tok.convert_ids_to_tokens(token_id)

    @property
    def special_ids(self) -> set[int]:
        return set(self._tok.all_special_ids)


class IncrementalDetokenizer:
    """Turns a growing list of token ids into text deltas without re-decoding everything.

    Keeps a small window of previous tokens so that multi-token characters and leading-space
    merges decode correctly; a delta ending in an incomplete UTF-8 sequence is held back.
    """

    def __init__(self, tokenizer: Tokenizer, prompt_tail: Sequence[int] = ()) -> None:
        self._tok = tokenizer
        self._ids: list[int] = list(prompt_tail[-4:])
        self._prefix_offset = 0
        self._read_offset = len(self._ids)
        self.text = ""

    def add(self, token_id: int) -> str:
        self._ids.append(token_id)
        prefix = self._tok.decode(self._ids[self._prefix_offset : self._read_offset])
        full = self._tok.decode(self._ids[self._prefix_offset :])
        if len(full) > len(prefix) and not full.endswith("\ufffd"):
            delta = full[len(prefix) :]
            self._prefix_offset = self._read_offset
            self._read_offset = len(self._ids)
            self.text += delta
            return delta
        return ""
