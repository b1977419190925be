"""Tokenizer and chat template, loaded through transformers (GGUF or a Hugging Face folder), or once converted
and saved, read back without it (:mod:`tokenization.light_tokenizer`).

Reading a tokenizer out of a GGUF file takes 10-15 s on a small CPU, so the converted tokenizer is saved
under the data directory and in the user's cache (:func:`shared_cache_dir`, keyed by the model file's path,
size and modification time), and reloaded from either on later starts: a new data directory (a second
server, a test) does not convert it again.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tokenization.light_tokenizer import LightTokenizer, read_light_tokenizer
from tokenization.models import ModelSource

log = logging.getLogger(__name__)


def _content_text(content: Any) -> str:
    """OpenAI message content (a string or a list of parts) → plain text (the server refuses non-text
    parts before rendering: backend.protocol.validate_messages)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    parts = []
    for part in content:
        if isinstance(part, dict) and part.get("type") == "text":
            parts.append(str(part.get("text", "")))
    return "".join(parts)


def _tool_call_text(call: dict[str, Any]) -> str:
    """One tool call of an assistant message as the text the model would have written: a
    ``<tool_call>`` block holding ``{"name": ..., "arguments": ...}`` (the arguments parsed back to JSON
    when they are a JSON string, as Hermes-style templates render them)."""
    function = call.get("function") or {}
    arguments: Any = function.get("arguments", "")
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            pass  # not JSON: kept as the string the client sent
    body = json.dumps({"name": function.get("name"), "arguments": arguments}, ensure_ascii=False)
    return f"<tool_call>\n{body}\n</tool_call>"


def message_text(message: dict[str, Any]) -> str:
    """A chat message's text for the template: its content, then its tool calls (``tool_calls``, or the
    legacy ``function_call``) so that an assistant turn that only called tools does not render empty."""
    calls = list(message.get("tool_calls") or [])
    if isinstance(message.get("function_call"), dict):
        calls.append({"function": message["function_call"]})
    pieces = [_content_text(message.get("content"))] + [_tool_call_text(c) for c in calls if isinstance(c, dict)]
    return "\n".join(p for p in pieces if p)


def bytes_to_unicode() -> dict[int, str]:
    """GPT-2's byte-level BPE alphabet: each byte value → the printable character that stands for it
    in vocabulary symbols (printable Latin-1 bytes stand for themselves, the rest are shifted past 255)."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    table = {b: chr(b) for b in printable}
    shifted = 0
    for b in range(256):
        if b not in table:
            table[b] = chr(256 + shifted)
            shifted += 1
    return table


def _is_byte_level(hf_tokenizer) -> bool:
    """Whether the tokenizer decodes with a byte-level (GPT-2 style) decoder."""
    backend = getattr(hf_tokenizer, "backend_tokenizer", None)
    if backend is None:
        return False
    try:
        decoder = json.loads(backend.to_str()).get("decoder") or {}
    except (ValueError, AttributeError):
        return False
    kinds = [decoder.get("type")] + [d.get("type") for d in decoder.get("decoders") or [] if isinstance(d, dict)]
    return "ByteLevel" in kinds


def shared_cache_dir() -> Path | None:
    """The user's cache for artifacts derived from model files: ``$THRIFTY_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/thrifty``, else ``~/.cache/thrifty``; None when ``THRIFTY_CACHE_DIR`` is empty (off)
    or no home directory is known."""
    explicit = os.environ.get("THRIFTY_CACHE_DIR")
    if explicit is not None:
        return Path(explicit).expanduser() if explicit.strip() else None
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg) / "thrifty"
    try:
        return Path.home() / ".cache" / "thrifty"
    except RuntimeError:  # no home directory
        return None


def _load_cached(folder: Path):
    """A tokenizer saved by :meth:`Tokenizer.load` in ``folder``, or None (absent or unreadable): read without
    transformers where :mod:`tokenization.light_tokenizer` gives its exact results, else through transformers."""
    if not (folder / "tokenizer_config.json").exists():
        return None
    light = read_light_tokenizer(folder)
    if light is not None:
        return light
    from transformers import AutoTokenizer

    try:
        return AutoTokenizer.from_pretrained(str(folder))
    except Exception as exc:  # noqa: BLE001 - a broken cache is rebuilt
        log.warning("tokenizer cache %s unreadable (%s); rebuilding", folder, exc)
        return None


def _save(tok, folder: Path) -> None:
    """Save ``tok`` as ``folder`` all at once (written beside it, then renamed), so that a process starting
    meanwhile (the proxy and the backend of one ``thrifty serve``) never reads half a tokenizer."""
    staging = folder.parent / f".{folder.name}.{os.getpid()}.partial"
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        tok.save_pretrained(str(staging))
        try:
            os.rename(staging, folder)
        except OSError:
            if not (folder / "tokenizer_config.json").exists():
                raise
            # another process saved it first: keep theirs
    except OSError as exc:
        log.warning("cannot cache tokenizer in %s: %s", folder, exc)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


class Tokenizer:
    """Encodes, decodes and renders chat messages for one model."""

    def __init__(self, hf_tokenizer) -> None:
        self._tok = hf_tokenizer  # a transformers tokenizer, or a LightTokenizer with the calls made of it here
        self._hf = None  # the transformers tokenizer loaded for a LightTokenizer, once asked for
        self.eos_token_id: int | None = hf_tokenizer.eos_token_id
        self.vocab_size = len(hf_tokenizer)
        # byte-level BPE symbol character → byte value (empty: symbols are plain text)
        self._byte_of = {c: b for b, c in bytes_to_unicode().items()} if _is_byte_level(hf_tokenizer) else {}

    @classmethod
    def load(cls, source: ModelSource, cache_dir: Path | None) -> Tokenizer:
        """The tokenizer of ``source``: a safetensors folder's own, or a GGUF file's, converted once and then
        read from ``cache_dir`` (the data directory) or the user's cache (:func:`shared_cache_dir`)."""
        if source.kind == "safetensors":
            from transformers import AutoTokenizer

            return cls(AutoTokenizer.from_pretrained(str(source.path)))
        stat = source.path.stat()
        digest = hashlib.sha256(f"{source.path.resolve()}:{stat.st_size}:{stat.st_mtime_ns}".encode()).hexdigest()[:16]
        shared = shared_cache_dir()
        folders = [base / "tokenizers" / digest for base in (cache_dir, shared) if base is not None]
        for i, folder in enumerate(folders):
            tok = _load_cached(folder)
            if tok is not None:
                for missing in folders[:i]:  # e.g. a new data directory: give it its own copy
                    _save(tok, missing)
                return cls(tok)
        from transformers import AutoTokenizer

        tok = AutoTokenizer.from_pretrained(str(source.path.parent), gguf_file=source.path.name)
        for folder in folders:
            _save(tok, folder)
        return cls(tok)

    @property
    def hf_tokenizer(self):
        """The transformers tokenizer (grammar compilers build their token tables from it); one read without
        transformers is loaded through it now, from the same folder."""
        if isinstance(self._tok, LightTokenizer):
            if self._hf is None:
                from transformers import AutoTokenizer

                self._hf = AutoTokenizer.from_pretrained(str(self._tok.folder))
            return self._hf
        return self._tok

    def encode(self, text: str) -> list[int]:
        return list(self._tok.encode(text, add_special_tokens=False))

    def decode(self, ids: Sequence[int], skip_special_tokens: bool = True) -> str:
        return self._tok.decode(list(ids), skip_special_tokens=skip_special_tokens)

    def render_chat(self, messages: Sequence[dict[str, Any]]) -> str:
        """Apply the model's chat template with a generation prompt."""
        plain = [{"role": m.get("role", "user"), "content": message_text(m)} for m in messages]
        return self._tok.apply_chat_template(plain, tokenize=False, add_generation_prompt=True)

    def encode_chat(self, messages: Sequence[dict[str, Any]]) -> list[int]:
        return self.encode(self.render_chat(messages))

    def token_text(self, token_id: int) -> str:
        """The vocabulary symbol of ``token_id`` (byte-level BPE: "Ġthere", "Ċ"; see :meth:`symbol_bytes`)."""
        return self._tok.convert_ids_to_tokens(token_id)

    def symbol_bytes(self, symbol: str) -> bytes:
        """The bytes a vocabulary symbol stands for: byte-level BPE symbols are mapped back through
        GPT-2's byte table ("Ġthere" → b" there", "ðŁ" → b"\\xf0\\x9f"); special tokens and other
        tokenizers' symbols are their UTF-8 text (with SentencePiece's "▁" as a space)."""
        if self._byte_of and all(c in self._byte_of for c in symbol):
            return bytes(self._byte_of[c] for c in symbol)
        return symbol.replace("\u2581", " ").encode("utf-8")

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
