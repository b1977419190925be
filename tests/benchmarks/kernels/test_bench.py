"""benchmarks.kernels.bench: exits cleanly without CUDA, and its cases are well-formed (checked on CPU)."""

from __future__ import annotations

import pytest
import torch

from benchmarks.kernels import bench
from tests.kernels.helpers import requires_triton


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the no-CUDA path")
def test_main_without_cuda_prints_message_and_returns_zero(capsys):
    assert bench.main(["--ops", "decode", "--batch", "1"]) == 0
    assert "CUDA is not available" in capsys.readouterr().out


def test_parse_args():
    cfg = bench.parse_args(["--ops", "decode,rotary", "--batch", "1,4", "--context", "512", "--dtype", "fp16", "--int8"])
    assert cfg.ops == ("decode", "rotary") and cfg.batches == (1, 4) and cfg.contexts == (512,)
    assert cfg.dtype == torch.float16 and cfg.int8
    with pytest.raises(SystemExit):
        bench.parse_args(["--ops", "nope"])


@requires_triton
def test_cases_run_and_agree_on_cpu():
    cfg = bench.BenchConfig(
        batches=(2,), contexts=(20,), dtype=torch.float32, num_q_heads=6, num_kv_heads=2, head_dim=32,
        hidden=64, intermediate=48, block_size=8, int8=True,
    )
    rows = bench.run(cfg, torch.device("cpu"), timer=lambda fn: 1.0)
    body = rows[2:]
    ops = {r.split("|")[1].strip() for r in body}
    assert ops == set(bench.OPS) | {"decode-int8"}
    for row in body:
        err = float(row.rstrip(" |").rsplit("|", 1)[1])
        assert err < 1e-2, row
