"""Shared builders and tolerances for the kernel tests (small irregular shapes).

Where CUDA is available the kernel tests run the compiled Triton kernels on CUDA tensors (the
conftest makes CUDA the default device and leaves ``TRITON_INTERPRET`` unset); elsewhere they run the
kernels through the Triton interpreter on CPU tensors. Never a silent skip either way."""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass

import pytest
import torch

DTYPES = [
    pytest.param(torch.float32, id="fp32"),
    pytest.param(torch.float16, id="fp16"),
    pytest.param(torch.bfloat16, id="bf16"),
]

# (atol, rtol) for Triton-vs-reference comparisons. Both sides compute in fp32 and round once, so
# elementwise ops are within 1 ulp of the output dtype; attention adds the rounding of the
# probabilities to fp16/bf16 before the P·V dot on the Triton side.
ELEMENTWISE_TOL: dict[torch.dtype, tuple[float, float]] = {
    torch.float32: (1e-5, 1e-5),
    torch.float16: (1e-3, 1e-3),
    torch.bfloat16: (8e-3, 8e-3),
}
ATTENTION_TOL: dict[torch.dtype, tuple[float, float]] = {
    torch.float32: (2e-5, 2e-5),
    torch.float16: (3e-3, 3e-3),
    torch.bfloat16: (1.6e-2, 1.6e-2),
}


def assert_close(actual: torch.Tensor, expected: torch.Tensor, tol: dict[torch.dtype, tuple[float, float]]) -> None:
    atol, rtol = tol[expected.dtype]
    torch.testing.assert_close(actual, expected, atol=atol, rtol=rtol)


def interpret_triton_without_cuda() -> None:
    """Set ``TRITON_INTERPRET=1`` (unless already set) when there is no CUDA device, so that the Triton
    kernels run on CPU through the interpreter; on a GPU leave it unset, so that they compile.

    Call it from a conftest, before any Triton kernel module is imported: ``@triton.jit`` picks the
    interpreter at decoration time, and the variable holds for the rest of the process."""
    if not torch.cuda.is_available():
        os.environ.setdefault("TRITON_INTERPRET", "1")


def kernel_device() -> torch.device:
    """Where the kernel tests put their tensors: CUDA when there is one (compiled kernels), else CPU."""
    return torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")


def seeded_generator(seed: int) -> torch.Generator:
    """A random generator on :func:`kernel_device` (a CPU generator cannot fill CUDA tensors)."""
    return torch.Generator(device=kernel_device()).manual_seed(seed)


def _interpreter_usable() -> tuple[bool, str]:
    if importlib.util.find_spec("triton") is None:
        return False, "triton is not installed"
    if kernel_device().type == "cuda":
        return True, ""  # compiled kernels on CUDA tensors
    if os.environ.get("TRITON_INTERPRET", "0").lower() not in ("1", "true", "on", "yes"):
        return False, "TRITON_INTERPRET is disabled; CPU tests of Triton kernels need the interpreter"
    return True, ""


# Never a silent skip: without a usable Triton interpreter these tests fail and say why (they ran
# as skips before, so a machine without the interpreter reported green without running a kernel).
requires_triton = pytest.mark.requires_triton


def fail_unless_triton_runs(request: pytest.FixtureRequest) -> None:
    """Fail (not skip) a test marked ``requires_triton`` that cannot run here (checked when the test
    runs, after the conftests have set ``TRITON_INTERPRET``)."""
    if request.node.get_closest_marker("requires_triton") is None:
        return
    usable, why = _interpreter_usable()
    if not usable:
        pytest.fail(f"the Triton kernel tests cannot run: {why}", pytrace=False)


@dataclass
class PagedCache:
    """A randomly filled paged KV cache with shuffled, non-contiguous page tables."""

    k_cache: torch.Tensor  # [NB, BS, Hk, D]
    v_cache: torch.Tensor  # [NB, BS, Hk, D]
    k_scale: torch.Tensor | None  # [NB, BS, Hk] (int8 only)
    v_scale: torch.Tensor | None
    block_tables: torch.Tensor  # [B, max_blocks] int32; unused entries hold an invalid page id
    context_lens: torch.Tensor  # [B] int32

    @property
    def block_size(self) -> int:
        return self.k_cache.shape[1]

    def slots(self, b: int, positions: range) -> torch.Tensor:
        """Slot ids of sequence b's tokens at ``positions``: [len(positions)] int64."""
        pos = torch.tensor(list(positions), dtype=torch.int64)
        pages = self.block_tables[b].long()[pos // self.block_size]
        return pages * self.block_size + pos % self.block_size


def make_paged_cache(
    context_lens: list[int],
    num_kv_heads: int,
    head_dim: int,
    block_size: int,
    dtype: torch.dtype,
    *,
    quantized: bool = False,
    spare_blocks: int = 3,
    seed: int = 0,
) -> PagedCache:
    """Allocate pages in shuffled order; fill every slot (used or not) with random data so that a
    kernel reading the wrong slot is caught. Unused block-table entries point past the cache."""
    g = seeded_generator(seed)
    pages_per_seq = [(n + block_size - 1) // block_size for n in context_lens]
    num_blocks = sum(pages_per_seq) + spare_blocks
    max_blocks = max(pages_per_seq + [1]) + 1
    perm = torch.randperm(num_blocks, generator=g)
    block_tables = torch.full((len(context_lens), max_blocks), num_blocks + 1000, dtype=torch.int32)
    used = 0
    for b, n in enumerate(pages_per_seq):
        block_tables[b, :n] = perm[used : used + n].to(torch.int32)
        used += n
    shape = (num_blocks, block_size, num_kv_heads, head_dim)
    if quantized:
        k_cache = torch.randint(-127, 128, shape, generator=g, dtype=torch.int8)
        v_cache = torch.randint(-127, 128, shape, generator=g, dtype=torch.int8)
        k_scale = torch.rand(shape[:3], generator=g) * 0.02 + 0.001
        v_scale = torch.rand(shape[:3], generator=g) * 0.02 + 0.001
    else:
        k_cache = torch.randn(shape, generator=g).to(dtype)
        v_cache = torch.randn(shape, generator=g).to(dtype)
        k_scale = v_scale = None
    return PagedCache(
        k_cache, v_cache, k_scale, v_scale, block_tables, torch.tensor(context_lens, dtype=torch.int32)
    )


def gather_dense(cache: PagedCache, b: int, which: str = "k") -> torch.Tensor:
    """Token-by-token gather of sequence b's K or V as fp32 [ctx, Hk, D], written independently of
    the reference's vectorised gather."""
    data = cache.k_cache if which == "k" else cache.v_cache
    scale = cache.k_scale if which == "k" else cache.v_scale
    rows = []
    for t in range(int(cache.context_lens[b])):
        page, off = int(cache.block_tables[b, t // cache.block_size]), t % cache.block_size
        row = data[page, off].float()  # [Hk, D]
        if scale is not None:
            row = row * scale[page, off][:, None]
        rows.append(row)
    if not rows:
        return torch.zeros(0, data.shape[2], data.shape[3])
    return torch.stack(rows)


def dense_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, scale: float) -> torch.Tensor:
    """Naive causal attention with SDPA. q: [n, Hq, D]; k/v: [ctx, Hk, D] (fp32); the n queries are
    the last n positions of the context. → [n, Hq, D] fp32."""
    n, hq, _ = q.shape
    ctx, hk, _ = k.shape
    group = hq // hk
    kk = k.repeat_interleave(group, dim=1).transpose(0, 1)  # [Hq, ctx, D]
    vv = v.repeat_interleave(group, dim=1).transpose(0, 1)
    qq = q.float().transpose(0, 1)  # [Hq, n, D]
    qpos = torch.arange(ctx - n, ctx)
    mask = torch.arange(ctx)[None, :] <= qpos[:, None]  # [n, ctx]
    out = torch.nn.functional.scaled_dot_product_attention(qq, kk, vv, attn_mask=mask, scale=scale)
    return out.transpose(0, 1)  # [n, Hq, D]
