"""The bundled backend's command line carries the [backend] settings the child cannot read itself."""

from __future__ import annotations

from dataclasses import replace

from proxy.cli import build_parser
from proxy.settings import Settings
from proxy.supervisor import backend_command


def test_weights_dtype_reaches_the_backend_child() -> None:
    settings = Settings()
    settings = replace(settings, backend=replace(settings.backend, weights_dtype="int4"))
    cmd = backend_command(settings, 1234)
    assert cmd[1:5] == ["-m", "proxy.cli", "backend", "serve"]
    args = build_parser().parse_args(cmd[3:])
    assert args.weights_dtype == "int4" and args.port == 1234
