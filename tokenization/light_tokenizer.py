"""A saved tokenizer read with the ``tokenizers`` library and jinja2 alone, without importing transformers.

:meth:`tokenization.tokenizer.Tokenizer.load` converts a GGUF file's tokenizer once with transformers and saves it
(``tokenizer.json``, ``tokenizer_config.json``, ``chat_template.jinja``). Reading that folder back through
transformers cost every later start ~2-3 s of CPU on a 2-core EPYC, nearly all of it importing transformers, in
the bundled backend and again in the proxy's shaping stage. :class:`LightTokenizer` reads the same folder and
offers the part of a transformers fast tokenizer that :class:`~tokenization.tokenizer.Tokenizer` calls, with the
same results: ``tests/tokenization/test_light_tokenizer.py`` holds it to transformers' own on the real SmolLM2
tokenizer, token for token and character for character.

It takes only what it can reproduce exactly: a folder whose ``tokenizer.json`` has no decoding clean-up to apply
(``clean_up_tokenization_spaces`` off) and a Jinja chat template. :func:`read_light_tokenizer` returns None for
anything else, and the caller uses transformers.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

# transformers' named special tokens, in its order (SPECIAL_TOKENS_ATTRIBUTES), then the extra ones
SPECIAL_TOKEN_NAMES = ("bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token")
EXTRA_SPECIAL_KEYS = ("extra_special_tokens", "additional_special_tokens")


def _token_text(value: Any) -> str | None:
    """A special token as the config stores it (a string, or a serialised AddedToken) → its text."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get("content"), str):
        return value["content"]
    return None


def _compile_chat_template(template: str):
    """The template under the environment transformers renders chat templates with: sandboxed, blocks trimmed,
    ``loopcontrols``, ``tojson`` without HTML escaping, ``raise_exception`` and ``strftime_now``."""
    import jinja2
    import jinja2.ext
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    def raise_exception(message: str) -> None:
        raise jinja2.exceptions.TemplateError(message)

    def tojson(x: Any, ensure_ascii: bool = False, indent: Any = None, separators: Any = None,
               sort_keys: bool = False) -> str:
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

    def strftime_now(fmt: str) -> str:
        return datetime.now().strftime(fmt)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[jinja2.ext.loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env.from_string(template)


class LightTokenizer:
    """The calls :class:`~tokenization.tokenizer.Tokenizer` makes of a transformers fast tokenizer, on a saved
    folder (build with :func:`read_light_tokenizer`)."""

    def __init__(self, folder: Path, backend: Any, config: dict[str, Any], chat_template: str) -> None:
        self.folder = folder
        self.backend_tokenizer = backend  # a tokenizers.Tokenizer, as transformers names it
        self._template_source = chat_template
        self._template = None  # compiled on first use: a tokenizer that only encodes never imports jinja2
        special = {name: _token_text(config.get(name)) for name in SPECIAL_TOKEN_NAMES}
        self.special_tokens_map = {name: text for name, text in special.items() if text is not None}
        extra: list[str] = []
        for key in EXTRA_SPECIAL_KEYS:
            values = config.get(key) or []
            if isinstance(values, dict):  # transformers 5 may store extra special tokens by name
                values = list(values.values())
            extra += [text for text in (_token_text(v) for v in values) if text is not None]
        names = [*self.special_tokens_map.values(), *extra]
        self.all_special_tokens = list(dict.fromkeys(names))  # unique, first occurrence first
        self.all_special_ids = [self._id_of(token) for token in self.all_special_tokens]
        eos = self.special_tokens_map.get("eos_token")
        self.eos_token_id = None if eos is None else self._id_of(eos)

    def save_pretrained(self, directory: str) -> None:
        """Copy the saved files into ``directory`` (as transformers' ``save_pretrained`` would write them)."""
        import shutil

        target = Path(directory)
        target.mkdir(parents=True, exist_ok=True)
        for path in self.folder.iterdir():
            if path.is_file():
                shutil.copy2(path, target / path.name)

    def _id_of(self, token: str) -> int | None:
        return self.backend_tokenizer.token_to_id(token)

    def __len__(self) -> int:
        return self.backend_tokenizer.get_vocab_size(with_added_tokens=True)

    def encode(self, text: str, add_special_tokens: bool = False) -> list[int]:
        return self.backend_tokenizer.encode(text, add_special_tokens=add_special_tokens).ids

    def decode(self, ids: Sequence[int], skip_special_tokens: bool = False) -> str:
        return self.backend_tokenizer.decode(list(ids), skip_special_tokens=skip_special_tokens)

    def convert_ids_to_tokens(self, token_id: int) -> str | None:
        return self.backend_tokenizer.id_to_token(token_id)

    def apply_chat_template(self, messages: Sequence[dict[str, Any]], tokenize: bool = False,
                            add_generation_prompt: bool = False) -> str:
        """``messages`` (plain ``{"role", "content"}`` dicts of strings) rendered as transformers renders them:
        the special tokens' texts (``bos_token``...) are template variables, and keys holding None are dropped."""
        if tokenize:
            raise ValueError("LightTokenizer renders text only (tokenize=False)")
        if self._template is None:
            self._template = _compile_chat_template(self._template_source)
        plain = [{key: value for key, value in message.items() if value is not None} for message in messages]
        return self._template.render(messages=plain, tools=None, documents=None,
                                     add_generation_prompt=add_generation_prompt, **self.special_tokens_map)


def read_light_tokenizer(folder: Path) -> LightTokenizer | None:
    """The tokenizer saved in ``folder`` read without transformers, or None where that cannot give transformers'
    exact results (no ``tokenizer.json`` or chat template, decoding clean-up on) or the folder is unreadable."""
    try:
        config = json.loads((folder / "tokenizer_config.json").read_text(encoding="utf-8"))
        template = config.get("chat_template")
        template_file = folder / "chat_template.jinja"
        if template is None and template_file.exists():
            template = template_file.read_text(encoding="utf-8")
        if not isinstance(template, str) or config.get("clean_up_tokenization_spaces"):
            return None
        if not (folder / "tokenizer.json").exists():
            return None
        from tokenizers import Tokenizer as BackendTokenizer

        backend = BackendTokenizer.from_file(str(folder / "tokenizer.json"))
    except Exception as exc:  # noqa: BLE001 - any failure: the caller uses transformers
        log.debug("tokenizer folder %s not read without transformers: %r", folder, exc)
        return None
    tokenizer = LightTokenizer(folder, backend, config, template)
    if tokenizer.eos_token_id is None or None in tokenizer.all_special_ids:
        return None  # a special token the vocabulary lacks: transformers would add it
    return tokenizer
