"""``thrifty backend serve`` refuses bad flag values while parsing its arguments: a plain message and
exit status 2, before any model loads (backend.cli_args)."""

from __future__ import annotations

import pytest

from backend import cli_args
from backend.cli import serve_parser
from proxy.cli import main


@pytest.mark.parametrize(("argv", "needle"), [
    (["--dtype", "float64x"], "argument --dtype: unknown dtype 'float64x'"),
    (["--device", "tpu"], "argument --device: unknown device 'tpu'"),
    (["--num-threads", "-1"], "argument --num-threads: must be at least 1, got -1"),
    (["--num-threads", "0"], "argument --num-threads: must be at least 1, got 0"),
    (["--port", "99999"], "argument --port: a port must be between 1 and 65535, got 99999"),
    (["--port", "-1"], "argument --port: a port must be between 1 and 65535, got -1"),
    (["--port", "0"], "argument --port: a port must be between 1 and 65535"),
    (["--port", "http"], "argument --port: expected an integer, got 'http'"),
    (["--max-n", "0"], "argument --max-n: must be at least 1, got 0"),
    (["--max-model-len", "0"], "argument --max-model-len: must be at least 1"),
    (["--block-size", "-4"], "argument --block-size: must be at least 1"),
    (["--max-num-seqs", "0"], "argument --max-num-seqs: must be at least 1"),
    (["--max-num-batched-tokens", "0"], "argument --max-num-batched-tokens: must be at least 1"),
    (["--batch-invariant", "maybe"], "argument --batch-invariant: expected on or off, got 'maybe'"),
    (["--grammar-cache-size", "0"], "argument --grammar-cache-size: must be at least 1"),
])
def test_bad_values_exit_2_with_a_plain_message_before_loading(argv: list[str], needle: str, capsys,
                                                              monkeypatch) -> None:
    def no_load(*args, **kwargs):
        raise AssertionError("the model must not load for a refused flag")

    monkeypatch.setattr("backend.runtime.load_model", no_load)
    with pytest.raises(SystemExit) as exited:
        main(["backend", "serve", *argv])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err


def test_good_values_parse() -> None:
    args = serve_parser().parse_args(["--dtype", "BF16", "--device", "cuda:1", "--port", "65535",
                                      "--num-threads", "2", "--max-n", "1"])
    assert (args.dtype, args.device, args.port, args.num_threads, args.max_n) == ("bf16", "cuda:1", 65535, 2, 1)
    defaults = serve_parser().parse_args([])
    assert (defaults.port, defaults.dtype, defaults.device, defaults.max_n) == (8001, None, None, None)


def test_the_dtype_names_are_the_ones_the_runtime_parses() -> None:
    from backend.runtime import DTYPES

    assert set(cli_args.DTYPE_NAMES) == set(DTYPES)
