"""KV pool sizing from the available host memory, and the lazily zeroed CPU pool."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from backend.engine import Engine, EngineConfig
from backend.engine.config import kv_bytes_per_token, pool_num_blocks
from backend.engine.memory import (
    FALLBACK_CPU_KV_MEMORY,
    available_memory,
    cgroup_headroom,
    cpu_kv_budget,
    lazy_zeros,
    meminfo_available,
)
from tests.backend.test_engine_support import TINY, tiny_loaded

MiB = 2**20


def test_meminfo_available_reads_kib(tmp_path: Path) -> None:
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   19000000 kB\n")
    assert meminfo_available(meminfo) == 19000000 * 1024
    meminfo.write_text("MemTotal: 1 kB\n")
    assert meminfo_available(meminfo) is None
    assert meminfo_available(tmp_path / "missing") is None


def test_cgroup_headroom_v2_v1_and_unlimited(tmp_path: Path) -> None:
    v2 = tmp_path / "v2"
    v2.mkdir()
    (v2 / "memory.max").write_text("4294967296\n")
    (v2 / "memory.current").write_text("1073741824\n")
    assert cgroup_headroom(v2) == 3 * 2**30
    (v2 / "memory.max").write_text("max\n")
    assert cgroup_headroom(v2) is None
    v1 = tmp_path / "v1" / "memory"
    v1.mkdir(parents=True)
    (v1 / "memory.limit_in_bytes").write_text(str(2 * 2**30))
    (v1 / "memory.usage_in_bytes").write_text(str(3 * 2**30))  # over the limit: no headroom, not negative
    assert cgroup_headroom(tmp_path / "v1") == 0
    (v1 / "memory.limit_in_bytes").write_text(str(2**63 - 4096))  # v1's "no limit"
    assert cgroup_headroom(tmp_path / "v1") is None
    assert cgroup_headroom(tmp_path / "none") is None


def test_available_memory_on_this_machine_is_positive() -> None:
    available = available_memory()
    assert available is not None and available > 0


def test_budget_is_what_the_engine_can_use_when_memory_is_plentiful() -> None:
    # 4 sequences of 100 tokens in 16-token blocks of 1 KiB: 4 x 7 blocks
    sized = cpu_kv_budget(1024, 16, 4, 100, available=64 * 2**30)
    assert sized.bytes == sized.needed == 4 * 7 * 1024
    assert "max_num_seqs x max_model_len" in sized.reason


def test_budget_is_a_fraction_of_available_memory_when_that_is_smaller() -> None:
    sized = cpu_kv_budget(1 * MiB, 16, 64, 2048, available=1000 * MiB, fraction=0.5)
    assert sized.bytes == 500 * MiB < sized.needed == 64 * 128 * MiB
    assert "50% of" in sized.reason


def test_budget_never_drops_below_one_longest_sequence() -> None:
    sized = cpu_kv_budget(1 * MiB, 16, 64, 2048, available=10 * MiB)
    assert sized.bytes == 128 * MiB  # 2048 tokens = 128 blocks
    assert "one max_model_len sequence" in sized.reason


def test_budget_falls_back_when_available_memory_is_unknown() -> None:
    assert cpu_kv_budget(1 * MiB, 16, 64, 2048, available=None).bytes == FALLBACK_CPU_KV_MEMORY
    assert cpu_kv_budget(1024, 16, 2, 32, available=None).bytes == 2 * 2 * 1024  # capped by what is needed
    with pytest.raises(ValueError):
        cpu_kv_budget(0, 16, 2, 32, available=None)


def test_engine_without_a_budget_sizes_its_pool_from_its_limits() -> None:
    config = EngineConfig(block_size=16, max_model_len=200, max_num_seqs=3)
    blocks = pool_num_blocks(config, TINY, torch.float32, torch.device("cpu"))
    assert blocks == 3 * 13  # 200 tokens = 13 blocks per sequence; TINY's pool is far below 40% of memory
    engine = Engine(tiny_loaded(), config)
    assert engine.block_manager.num_blocks == 3 * 13
    assert engine.runner.kv_cache_bytes == 3 * 13 * 16 * kv_bytes_per_token(TINY, torch.float32)
    # an explicit budget still wins
    explicit = EngineConfig(block_size=16, max_model_len=200, max_num_seqs=3, kv_cache_memory=1 * MiB)
    assert pool_num_blocks(explicit, TINY, torch.float32, torch.device("cpu")) == MiB // (
        16 * kv_bytes_per_token(TINY, torch.float32))


def _rss() -> int:
    return int(Path("/proc/self/statm").read_text().split()[1]) * 4096


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.int8])
def test_lazy_zeros_is_zero_aligned_and_writable(dtype: torch.dtype) -> None:
    t = lazy_zeros((3, 5, 7), dtype, torch.device("cpu"))
    assert t.shape == (3, 5, 7) and t.dtype == dtype and t.is_contiguous()
    assert t.data_ptr() % 64 == 0
    assert not t.any()
    t[1, 2] = 3
    assert int(t.sum()) == 3 * 7


def test_lazy_zeros_pages_become_resident_only_when_written() -> None:
    before = _rss()
    pool = lazy_zeros((256, MiB // 4), torch.float32, torch.device("cpu"))  # 256 MiB
    allocated = _rss()
    assert allocated - before < 32 * MiB
    pool[:64].fill_(1.0)  # 64 MiB written
    assert _rss() - allocated > 48 * MiB
    del pool
