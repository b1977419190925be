"""``--weights-dtype``: choosing fp32/bf16/int8/int4 linear weights from CPU features, and the bf16 layers themselves."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from torch import nn

from backend.sampling import SamplingParams
from backend.weights_dtype import (
    BF16Linear,
    WeightsPlan,
    convert_linears_to_bf16,
    cpu_flags,
    plan_weights,
    resolve_weights_dtype,
)
from tests.backend.test_engine_support import (
    TINY,
    check_greedy_equal,
    oracle_tokens,
    run_engine,
    tiny_engine,
    tiny_loaded,
)

CPU = torch.device("cpu")


def test_cpu_flags_are_read_from_cpuinfo(tmp_path: Path) -> None:
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nflags\t\t: fpu avx2 avx512f avx512_bf16\nbugs\t\t: none\n")
    assert cpu_flags(info) == {"fpu", "avx2", "avx512f", "avx512_bf16"}
    assert cpu_flags(tmp_path / "missing") == set()


def test_explicit_names_win_and_auto_follows_the_cpu() -> None:
    assert resolve_weights_dtype("fp32", torch.float32, CPU) == "fp32"
    assert resolve_weights_dtype("float32", torch.float32, CPU) == "fp32"
    assert resolve_weights_dtype("BF16", torch.float32, CPU) == "bf16"
    assert resolve_weights_dtype("auto", torch.float32, CPU, flags={"avx2", "avx512_bf16"}) == "bf16"
    assert resolve_weights_dtype("auto", torch.float32, CPU, flags={"avx2", "amx_bf16"}) == "bf16"
    assert resolve_weights_dtype("auto", torch.float32, CPU, flags={"avx2", "fma"}) == "fp32"  # emulated bf16: slow
    assert resolve_weights_dtype("auto", torch.bfloat16, CPU, flags={"avx512_bf16"}) == "fp32"  # already bf16
    assert resolve_weights_dtype("auto", torch.float32, torch.device("cuda"), flags={"avx512_bf16"}) == "fp32"


def test_auto_reads_a_four_bit_gguf_as_int4_on_the_cpu_only() -> None:
    assert resolve_weights_dtype("auto", torch.float32, CPU, flags={"avx2"}, four_bit_file=True) == "int4"
    assert resolve_weights_dtype("auto", torch.float32, CPU, flags={"avx512_bf16"}, four_bit_file=True) == "int4"
    assert resolve_weights_dtype("auto", torch.float32, torch.device("cuda"), four_bit_file=True) == "fp32"
    assert resolve_weights_dtype("auto", torch.bfloat16, CPU, four_bit_file=True) == "fp32"
    assert resolve_weights_dtype("int8", torch.float32, CPU) == "int8"
    assert resolve_weights_dtype("INT4", torch.float32, CPU) == "int4"


def test_the_plan_picks_the_dense_dtype_and_kernel_threshold_from_the_cpu() -> None:
    avx512 = plan_weights("int4", torch.float32, CPU, flags={"avx2", "avx512f", "avx512_bf16"})
    avx2 = plan_weights("int4", torch.float32, CPU, flags={"avx2", "fma"})
    assert avx512.dense_dtype == torch.bfloat16 and avx2.dense_dtype == torch.float32  # no emulated bf16 GEMMs
    assert avx512.kernel_max_rows >= 1 and avx2.kernel_max_rows >= 1
    assert avx512.int8_kernel_max_rows >= 1
    assert plan_weights("auto", torch.float32, CPU, flags={"avx2"}) == WeightsPlan("fp32")
    assert plan_weights("auto", torch.float32, CPU, flags={"avx2"}, four_bit_file=True).name == "int4"
    assert avx512.native_max_rows >= 1 and not avx512.triton
    assert plan_weights("int4", torch.float32, CPU, flags={"avx2"}, native_block_mm=False).native_max_rows == 0


def test_int4_on_cuda_plans_the_triton_dequant_gemm() -> None:
    cuda = torch.device("cuda")
    plan = plan_weights("int4", torch.float16, cuda)
    assert plan.name == "int4" and plan.triton and plan.native_max_rows == 0
    assert plan_weights("auto", torch.float32, cuda, four_bit_file=True).name == "fp32"  # unmeasured: not auto


def test_bad_names_and_dtypes_are_refused() -> None:
    with pytest.raises(ValueError, match="weights_dtype must be one of auto, fp32, bf16, int8, int4"):
        resolve_weights_dtype("int3", torch.float32, CPU)
    with pytest.raises(ValueError, match="float16"):
        resolve_weights_dtype("bf16", torch.float16, CPU)
    with pytest.raises(ValueError, match="int8 runs on the CPU only"):
        resolve_weights_dtype("int8", torch.float32, torch.device("cuda"))
    with pytest.raises(ValueError, match="int4 runs on the CPU and CUDA only"):
        resolve_weights_dtype("int4", torch.float32, torch.device("mps"))
    with pytest.raises(ValueError, match="int8 needs a float32 or bfloat16 model"):
        resolve_weights_dtype("int8", torch.float16, CPU)


def test_conversion_keeps_bf16_weights_and_the_embedding_in_fp32() -> None:
    loaded = tiny_loaded()
    model = loaded.model
    reference = {n: m.weight.detach().clone() for n, m in model.named_modules() if isinstance(m, nn.Linear)}
    assert convert_linears_to_bf16(model) == len(reference) == TINY.num_layers * 4 + 1
    for name, module in model.named_modules():
        if name in reference:
            assert isinstance(module, BF16Linear) and module.weight.dtype == torch.bfloat16
            assert torch.equal(module.weight, reference[name].to(torch.bfloat16))
    assert model.model.embed_tokens.weight.dtype == torch.float32
    x = torch.randn(5, TINY.hidden_size)
    out = model.lm_head(x)
    assert out.dtype == torch.float32 and out.shape == (5, TINY.vocab_size)
    exact = x @ reference["lm_head"].t()
    assert torch.allclose(out, exact, rtol=0.05, atol=0.05 * float(exact.abs().max()))


def test_engine_with_bf16_weights_matches_its_single_request_path() -> None:
    loaded = tiny_loaded()
    convert_linears_to_bf16(loaded.model)
    params = SamplingParams(max_tokens=12, temperature=0.0, ignore_eos=True)
    prompts = {f"r{i}": [2 + (i * 13 + j * 7) % (TINY.vocab_size - 2) for j in range(5 + 6 * i)] for i in range(4)}
    got = run_engine(tiny_engine(loaded), [(rid, p, params) for rid, p in prompts.items()])
    for rid, prompt in prompts.items():
        check_greedy_equal(loaded, prompt, oracle_tokens(loaded, prompt, params), got[rid][0])
