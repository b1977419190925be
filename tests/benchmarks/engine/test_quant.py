"""``python -m benchmarks.engine.quant``: one small run prints a row per shape and row count."""

from __future__ import annotations

from benchmarks.engine.quant import main, measure


def test_measure_times_every_path() -> None:
    times = measure((64, 64), 2, ("fp32", "bf16", "int8 (bf16 act)", "int4 (bf16 act)"), copies=2, budget_s=0.0)
    assert set(times) == {"fp32", "bf16", "int8 (bf16 act)", "int4 (bf16 act)"}
    assert all(t > 0 for t in times.values())


def test_main_prints_a_markdown_row_per_shape_and_size(capsys) -> None:
    assert main(["--rows", "1,3", "--shapes", "o", "--copies", "2", "--budget", "0", "--no-fp32-act"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| o 576->576 |")]
    assert len(rows) == 2 and rows[0].count("x)") == 6 and "(1.0x)" in rows[0]  # fp32, bf16, 2 torch, 2 native


def test_native_paths_time_the_block_kernel_and_its_avx2_build() -> None:
    times = measure((64, 64), 3, ("fp32", "int4 native", "int8 blocks native"), copies=2, budget_s=0.0,
                    march="haswell")
    assert set(times) == {"fp32", "int4 native", "int8 blocks native"} and all(t > 0 for t in times.values())
