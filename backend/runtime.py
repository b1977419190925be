"""Loading a model and its tokenizer into memory, ready to generate."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path

import torch

from backend.batch_invariance import weights_plan
from backend.config import BackendConfig
from backend.fused_layers_cpu import FusedLayers
from backend.layer_ops_cpu import native_layer_ops
from backend.model import LlamaForCausalLM
from backend.native_prebuild import start_native_kernel_builds
from backend.weights import gguf_projection_types, load_weights, open_gguf, read_gguf_4bit_blocks
from backend.weights_dtype import apply_weights_plan
from tokenization.models import ModelSource, WeightsError, resolve_model
from tokenization.tokenizer import Tokenizer

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
    weights_dtype: str = "fp32"  # the resolved --weights-dtype: fp32 | bf16 | int8 | int4
    batch_invariant_weights: bool = False  # every linear runs the native block kernel for every row count

    @property
    def eos_ids(self) -> set[int]:
        ids = {i for i in (self.tokenizer.eos_token_id, self.model.config.eos_token_id) if i is not None}
        return ids


def load_model(config: BackendConfig, option: str = "--model") -> LoadedModel:
    """Resolve, read and instantiate the configured model (logs progress); ``option`` is the flag that
    named ``config.model_path``, for the error when it cannot be resolved."""
    if config.num_threads:
        torch.set_num_threads(config.num_threads)
    data_dir = Path(config.data_dir).expanduser() if config.data_dir else default_data_dir()
    source = resolve_model(config.model_path, data_dir, option)
    dtype = parse_dtype(config.dtype)
    device = torch.device(config.device)
    started = time.perf_counter()
    last_logged = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.perf_counter()
        if done == total or now - last_logged[0] > 1.0:
            last_logged[0] = now
            log.info("loading weights %d/%d tensors", done, total)

    # the native CPU kernels compile (first start on a machine) while the weights load
    native_cpu = device.type == "cpu" and dtype == torch.float32  # the native CPU kernels serve this model
    kernels_built = start_native_kernel_builds() if native_cpu else None
    reader = open_gguf(source.path) if source.kind == "gguf" else None
    model_config, state = load_weights(source, dtype, progress, reader)
    with torch.device("meta"):
        model = LlamaForCausalLM(model_config, initialize=False)  # every weight is loaded below
    model = model.to_empty(device=device)
    model.load_state({k: v.to(device) for k, v in state.items()})
    model.to(dtype)
    model.rope.reset_buffers()  # fp32 inverse frequencies, whatever the weights' dtype
    projection_types = gguf_projection_types(reader) if reader is not None and source.kind == "gguf" else {}
    four_bit_file = bool(projection_types) and set(projection_types.values()) <= {"Q4_0", "Q4_1"}
    if kernels_built is not None:
        kernels_built()  # before the weights plan or the layers ask for a kernel
    try:
        plan = weights_plan(config.weights_dtype, dtype, device, four_bit_file, config.batch_invariant)
    except ValueError as exc:  # a bad --weights-dtype for this device/dtype: a plain start-up error
        raise WeightsError(str(exc)) from exc
    blocks = None
    if plan.name == "int4" and projection_types:
        blocks, other_types = read_gguf_4bit_blocks(reader, model_config)
        for name, type_name in sorted(other_types.items()):
            log.warning("weights int4: tensor %s is %s, not Q4_0/Q4_1 blocks: quantized to 4 bits from its "
                        "dequantized values (use --weights-dtype fp32 or bf16 to keep them as stored)",
                        name, type_name)
    log.info("weights dtype %s", apply_weights_plan(model, plan, dtype, blocks))
    if native_cpu:
        native = native_layer_ops()  # one native call per norm / rotary / SiLU instead of many small ops
        if native is not None:
            model.use_layer_ops(native)
            model.use_fused_layers(FusedLayers.from_model)  # all layers in one call, where the weights allow
            model.fused_layers()  # built now where the weights allow (~15 s the first time), not in a request
    model.eval()
    tokenizer = Tokenizer.load(source, data_dir)
    log.info("model %s (%s) loaded in %.1fs", source.path, source.kind, time.perf_counter() - started)
    return LoadedModel(model, tokenizer, source, dtype, device, plan.name, plan.batch_invariant)

