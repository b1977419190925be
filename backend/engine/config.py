"""Engine configuration and KV-cache sizing arithmetic."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

import torch

from backend.config import CUDA_GRAPH_MODES, BackendConfig, ModelConfig
from backend.speculative.config import SpeculativeConfig

log = logging.getLogger(__name__)

_UNITS = {"": 1, "b": 1, "k": 1000, "kb": 1000, "kib": 1024, "m": 1000**2, "mb": 1000**2, "mib": 1024**2,
          "g": 1000**3, "gb": 1000**3, "gib": 1024**3, "t": 1000**4, "tb": 1000**4, "tib": 1024**4}


def parse_size(value: str | int | float) -> int:
    """``"2GiB"``, ``"512MB"``, ``"1.5g"``, ``1048576`` → bytes."""
    if isinstance(value, int | float):
        if value <= 0:
            raise ValueError(f"memory size must be positive, got {value}")
        return int(value)
    match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([a-zA-Z]*)\s*", value)
    if not match or match.group(2).lower() not in _UNITS:
        raise ValueError(f"cannot read {value!r} as a memory size; use e.g. 2GiB, 512MB or a byte count")
    size = int(float(match.group(1)) * _UNITS[match.group(2).lower()])
    if size <= 0:
        raise ValueError(f"memory size must be positive, got {value!r}")
    return size


# torch dtype of each name in backend.config.KV_CACHE_DTYPE_NAMES (None: the model's dtype)
KV_CACHE_DTYPES = {"auto": None, "int8": torch.int8, "float32": torch.float32, "fp32": torch.float32,
                   "bfloat16": torch.bfloat16, "bf16": torch.bfloat16, "float16": torch.float16, "fp16": torch.float16}
INT8_SCALE_BYTES = 4  # one float32 scale per (token, KV head) for K and for V in an int8 cache


def parse_kv_cache_dtype(name: str, model_dtype: torch.dtype) -> torch.dtype:
    """``--kv-cache-dtype``: ``auto`` (the model's dtype), ``int8`` (with per-token scales) or a float dtype."""
    key = str(name).strip().lower()
    if key not in KV_CACHE_DTYPES:
        raise ValueError(f"kv_cache_dtype must be one of {', '.join(KV_CACHE_DTYPES)}; got {name!r}")
    return KV_CACHE_DTYPES[key] or model_dtype


def kv_scale_bytes(dtype: torch.dtype) -> int:
    """Bytes of scale stored per (token, KV head) for K and again for V: 4 for int8, else 0."""
    return INT8_SCALE_BYTES if dtype == torch.int8 else 0


def kv_bytes_per_token(model: ModelConfig, dtype: torch.dtype) -> int:
    """Bytes of K and V for one token over all layers:
    2 × layers × kv_heads × (head_dim × element size + scale bytes), scale bytes = 4 for int8, else 0."""
    element = torch.empty((), dtype=dtype).element_size()
    return 2 * model.num_layers * model.num_kv_heads * (model.head_dim * element + kv_scale_bytes(dtype))


def kv_cache_bytes(model: ModelConfig, seq_len: int, batch: int, dtype: torch.dtype) -> int:
    """:func:`kv_bytes_per_token` × seq_len × batch."""
    return kv_bytes_per_token(model, dtype) * seq_len * batch


@dataclass(frozen=True, slots=True)
class EngineConfig:
    """Options of the paged, continuously batched engine.

    ``partial_block_reuse`` (with ``enable_prefix_caching``): a prefix-cache hit may end inside a block —
    the matched tokens of that block are reused by copying the cached block's K/V into a fresh block
    (token-granular reuse, see :mod:`backend.engine.block_manager`); False: hits are whole blocks only.
    Not exposed on the command line (it exists to compare the two).
    """

    block_size: int = 16
    num_blocks: int | None = None  # explicit pool size; None: from the memory budget
    kv_cache_memory: int | None = None  # bytes; None: sized from available memory on CPU, a GPU fraction on CUDA
    gpu_memory_utilization: float = 0.9
    max_model_len: int = 2048
    max_num_seqs: int = 64
    max_num_batched_tokens: int = 512
    enable_prefix_caching: bool = True
    partial_block_reuse: bool = True  # token-granular prefix-cache hits (see the class docstring)
    enable_chunked_prefill: bool = True
    max_n: int = 8
    attention_backend: str = "auto"  # torch | kernels (Triton on CUDA) | auto: kernels on CUDA, else torch
    kv_cache_dtype: str = "auto"  # auto (model dtype) | int8 (+ float32 scale per token and head) | a float dtype
    cuda_graphs: str = "auto"  # on | off | auto: decode steps replay CUDA graphs on CUDA with the kernels backend
    speculative: SpeculativeConfig = SpeculativeConfig()  # off by default (see backend.speculative)
    # every prefill row attends through the native paged kernel, as decode rows do (backend.batch_invariance)
    batch_invariant: bool = True

    def __post_init__(self) -> None:
        if self.block_size < 1:
            raise ValueError(f"block_size must be positive, got {self.block_size}")
        if self.num_blocks is not None and self.num_blocks < 1:
            raise ValueError(f"num_blocks must be positive, got {self.num_blocks}")
        if self.max_num_seqs < 1:
            raise ValueError(f"max_num_seqs must be positive, got {self.max_num_seqs}")
        if self.max_num_batched_tokens < 1:
            raise ValueError(f"max_num_batched_tokens must be positive, got {self.max_num_batched_tokens}")
        if not 0.0 < self.gpu_memory_utilization <= 1.0:
            raise ValueError(f"gpu_memory_utilization must be in (0, 1], got {self.gpu_memory_utilization}")
        parse_kv_cache_dtype(self.kv_cache_dtype, torch.float32)  # raises on an unknown name
        if self.cuda_graphs not in CUDA_GRAPH_MODES:
            raise ValueError(f"cuda_graphs must be auto, on or off, got {self.cuda_graphs!r}")

    @property
    def step_token_budget(self) -> int:
        """Tokens one step may process: without chunked prefill a whole prompt must fit in one step."""
        if self.enable_chunked_prefill:
            return self.max_num_batched_tokens
        return max(self.max_num_batched_tokens, self.max_model_len)

    @classmethod
    def from_backend_config(cls, config: BackendConfig, model: ModelConfig | None = None) -> EngineConfig:
        """The engine options of a :class:`BackendConfig` (``max_model_len`` capped by the model's)."""
        max_len = config.max_model_len
        if model is not None:
            max_len = min(max_len, model.max_position_embeddings)
        return cls(
            block_size=config.block_size,
            kv_cache_memory=parse_size(config.kv_cache_memory) if config.kv_cache_memory else None,
            gpu_memory_utilization=config.gpu_memory_utilization,
            max_model_len=max_len,
            max_num_seqs=config.max_num_seqs,
            max_num_batched_tokens=config.max_num_batched_tokens,
            enable_prefix_caching=config.enable_prefix_caching,
            enable_chunked_prefill=config.enable_chunked_prefill,
            max_n=config.max_n,
            kv_cache_dtype=config.kv_cache_dtype,
            cuda_graphs=config.cuda_graphs,
            batch_invariant=config.batch_invariant,
            speculative=SpeculativeConfig(method=config.speculative, num_tokens=config.num_speculative_tokens,
                                          model=config.speculative_model,
                                          draft_layers=config.speculative_draft_layers,
                                          max_step_rows=config.speculative_max_step_rows),
        )


def pool_num_blocks(config: EngineConfig, model: ModelConfig, dtype: torch.dtype, device: torch.device,
                    max_model_len: int | None = None, draft_bytes_per_token: int = 0) -> int:
    """Number of KV blocks the pool gets: explicit, from ``kv_cache_memory``, from free GPU memory on CUDA,
    or on CPU from the available host memory capped by what ``max_num_seqs`` × ``max_model_len`` can use
    (:func:`backend.engine.memory.cpu_kv_budget`).

    ``dtype`` is the KV cache's element type (int8 blocks include their scales); ``max_model_len``: the
    engine's effective limit (default: the config's). ``draft_bytes_per_token``: the KV of a speculative
    draft model, whose pool has as many blocks as the target's: the budget pays for both."""
    if config.num_blocks is not None:
        return config.num_blocks
    block_bytes = (kv_bytes_per_token(model, dtype) + draft_bytes_per_token) * config.block_size
    budget = config.kv_cache_memory
    if budget is None:
        if device.type == "cuda":
            free, _total = torch.cuda.mem_get_info(device)
            budget = int(free * config.gpu_memory_utilization)
        else:
            from backend.engine.memory import available_memory, cpu_kv_budget

            sized = cpu_kv_budget(block_bytes, config.block_size, config.max_num_seqs,
                                  max_model_len or config.max_model_len, available_memory())
            log.info("KV pool budget %.1f MiB: %s (--kv-cache-memory overrides)", sized.bytes / 2**20, sized.reason)
            budget = sized.bytes
    blocks = budget // block_bytes
    if blocks < 1:
        raise ValueError(f"a KV-cache budget of {budget} bytes holds no block of {block_bytes} bytes "
                         f"({config.block_size} tokens); raise --kv-cache-memory")
    return int(blocks)
