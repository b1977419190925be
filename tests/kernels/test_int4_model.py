"""``--weights-dtype int4`` on the CUDA path: a tiny model's projections become Triton dequant-GEMM layers
(interpreted here, compiled on CUDA) and it decodes the same greedy tokens as the same layers on the
reference path, through the single-request path and the paged engine."""

from __future__ import annotations

import pytest
import torch
from torch import nn

import kernels
from backend.quant.convert import convert_linears
from backend.quant.linear import QuantizedLinearError, TritonInt4Linear
from backend.sampling import SamplingParams
from tests.backend.test_engine_support import (
    check_greedy_equal,
    oracle_tokens,
    run_engine,
    tiny_engine,
    tiny_loaded,
)
from tests.kernels.helpers import kernel_device, requires_triton

pytestmark = requires_triton


@pytest.fixture(scope="module")
def int4_tiny():
    loaded = tiny_loaded(seed=3, device=kernel_device())
    report = convert_linears(loaded.model, "int4", kernel_max_rows=0, dense_dtype=None, triton=True)
    assert not report.int8 and len(report.quantized_here) == 4 * loaded.model.config.num_layers
    return loaded


def test_projections_run_the_triton_dequant_gemm_and_the_head_stays_float(int4_tiny) -> None:
    layer = int4_tiny.model.model.layers[0].mlp.gate_up_proj
    assert isinstance(layer, TritonInt4Linear) and layer.codes.dtype == torch.uint8
    assert type(int4_tiny.model.lm_head) is nn.Linear
    prompt = [5, 17, 42, 8, 60, 3]
    params = SamplingParams(max_tokens=8, temperature=0.0, ignore_eos=True)
    with kernels.force_triton(False):
        expected = oracle_tokens(int4_tiny, prompt, params)
    with kernels.record_launches() as launched, kernels.force_triton(True):
        got = oracle_tokens(int4_tiny, prompt, params)
        engine_tokens = run_engine(tiny_engine(int4_tiny), [("r", prompt, params)])["r"][0]
    assert "q4_matmul" in launched
    check_greedy_equal(int4_tiny, prompt, expected, got)
    check_greedy_equal(int4_tiny, prompt, expected, engine_tokens)


def test_a_width_the_groups_do_not_divide_is_refused_before_any_change() -> None:
    model = nn.Sequential()
    model.add_module("proj", nn.Linear(48, 32, bias=False))
    with pytest.raises(QuantizedLinearError, match="proj: --weights-dtype int4 on CUDA needs the input width"):
        convert_linears(model, "int4", kernel_max_rows=0, dense_dtype=None, triton=True)
    assert type(model.proj) is nn.Linear
