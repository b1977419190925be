"""`thrifty serve` imports the proxy's heavy modules while the bundled backend loads, after it has set the
thread environment that libgomp reads when torch first loads."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import os, sys
os.environ.pop("OMP_WAIT_POLICY", None)
from proxy.config.settings import Settings
from proxy.launch.supervisor import leave_cores_to_backend, preload_proxy_modules
assert "torch" not in sys.modules, "the supervisor must not load torch before it sets the thread environment"
settings = leave_cores_to_backend(Settings())
preload_proxy_modules(settings).join(120)
print(os.environ.get("OMP_WAIT_POLICY"), "torch" in sys.modules, "proxy.http.app" in sys.modules,
      "tokenizers" in sys.modules, "sklearn" in sys.modules, "sentence_transformers" in sys.modules,
      settings.cache.embed_threads)
"""


def test_preload_runs_after_the_thread_environment_and_loads_the_app() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=180, check=True)
    assert out.stdout.split() == ["PASSIVE", "True", "True", "True", "True", "False", "1"], out.stderr[-2000:]
