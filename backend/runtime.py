"""Loading a model and its tokenizer into memory, ready to generate."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path

import torch

from backend.config import BackendConfig
from backend.model import LlamaForCausalLM
from backend.tokenizer import Tokenizer
from backend.weights import ModelSource, load_weights, resolve_model
from backend.weights_dtype import convert_linears_to_bf16, resolve_weights_dtype

log = logging.getLogger(__name__)

DTYPES = {"float32": torch.float32, "fp32": torch.float32, "bfloat16": torch.bfloat16, "bf16": torch.bfloat16,
          "float16": torch.float16, "fp16": torch.float16}


def parse_dtype(name: str) -> torch.dtype:
    try:
        return DTYPES[name.lower()]
    except KeyError:
        raise ValueError(f"unknown dtype {name!r}; use one of {sorted(DTYPES)}") from None


def default_data_dir() -> Path:
    return Path.home() / ".cache" / "thrifty"


@dataclass(slots=True)
class LoadedModel:
    """A model on its device with its tokenizer."""

    model: LlamaForCausalLM
    tokenizer: Tokenizer
    source: ModelSource
    dtype: torch.dtype
    device: torch.device

    @property
    def eos_ids(self) -> set[int]:
        ids = {i for i in (self.tokenizer.eos_token_id, self.model.config.eos_token_id) if i is not None}
        return ids


def load_model(config: BackendConfig) -> LoadedModel:
    """Resolve, read and instantiate the configured model (logs progress)."""
    if config.num_threads:
        torch.set_num_threads(config.num_threads)
    data_dir = Path(config.data_dir).expanduser() if config.data_dir else default_data_dir()
    source = resolve_model(config.model_path, data_dir)
    dtype = parse_dtype(config.dtype)
    device = torch.device(config.device)
    started = time.perf_counter()
    last_logged = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.perf_counter()
        if done == total or now - last_logged[0] > 1.0:
            last_logged[0] = now
            log.info("loading weights %d/%d tensors", done, total)

    model_config, state = load_weights(source, dtype, progress)
    with torch.device("meta"):
        model = LlamaForCausalLM(model_config)
    model = model.to_empty(device=device)
    model.load_state({k: v.to(device) for k, v in state.items()})
    model.to(dtype)
    model.rope.reset_buffers()  # fp32 inverse frequencies, whatever the weights' dtype
    weights = resolve_weights_dtype(config.weights_dtype, dtype, device)
    if weights == "bf16" and dtype != torch.bfloat16:
        log.info("weights dtype bf16: %d linear layers keep bfloat16 weights", convert_linears_to_bf16(model))
    model.eval()
    tokenizer = Tokenizer.load(source, data_dir)
    log.info("model %s (%s) loaded in %.1fs", source.path, source.kind, time.perf_counter() - started)
    return LoadedModel(model, tokenizer, source, dtype, device)

