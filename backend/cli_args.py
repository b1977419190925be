"""Argument types for ``thrifty backend serve``: a bad flag is refused while the arguments are parsed
(argparse's plain ``error: argument --port: ...`` and exit status 2), before the model loads.

Torch-free, so that ``thrifty --help`` and a refused flag stay fast.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable

#: --dtype names (the keys of backend.runtime.DTYPES, which parses them into torch dtypes)
DTYPE_NAMES = ("float32", "fp32", "bfloat16", "bf16", "float16", "fp16")
_DEVICE = re.compile(r"(cpu|cuda(:\d+)?)")


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None


def port(text: str) -> int:
    """A TCP port to listen on: 1-65535."""
    value = _integer(text)
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port must be between 1 and 65535, got {value}")
    return value


def at_least(minimum: int) -> Callable[[str], int]:
    """An integer type that refuses values below ``minimum``."""

    def parse(text: str) -> int:
        value = _integer(text)
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    return parse


def dtype(text: str) -> str:
    """A model dtype name (case-insensitive), one of :data:`DTYPE_NAMES`."""
    value = text.lower()
    if value not in DTYPE_NAMES:
        raise argparse.ArgumentTypeError(f"unknown dtype {text!r}; use one of {', '.join(DTYPE_NAMES)}")
    return value


def on_off(text: str) -> bool:
    """``on`` / ``off`` (also true/false, yes/no, 1/0), case-insensitive."""
    value = text.strip().lower()
    if value in ("on", "true", "yes", "1"):
        return True
    if value in ("off", "false", "no", "0"):
        return False
    raise argparse.ArgumentTypeError(f"expected on or off, got {text!r}")


def device(text: str) -> str:
    """A torch device the backend runs on: cpu, cuda or cuda:N."""
    value = text.lower()
    if not _DEVICE.fullmatch(value):
        raise argparse.ArgumentTypeError(f"unknown device {text!r}; use cpu, cuda or cuda:N")
    return value
