"""The native CPU kernels build side by side (:mod:`backend.native_prebuild`): each loader ends with its kernel,
built once, and what the model later asks for is that same cached kernel."""

from __future__ import annotations

from backend.native_prebuild import _kernel_loaders, start_native_kernel_builds


def test_every_kernel_builds_on_its_own_thread_and_is_then_cached() -> None:
    wait = start_native_kernel_builds()
    wait()
    loaders = _kernel_loaders()
    kernels = [loader() for loader in loaders]
    missing = [loader.__name__ for loader, kernel in zip(loaders, kernels, strict=True) if kernel is None]
    assert not missing, missing
    assert [loader() for loader in loaders] == kernels  # cached: nothing is built or imported twice
    wait()  # waiting again is harmless


def test_setuptools_is_imported_before_any_loader_thread_starts() -> None:
    """The extension builder's first import brings in setuptools, whose distutils shim inserts a finder into
    sys.meta_path and removes it; a thread importing at that moment skips PathFinder and fails on an installed
    package. So that import happens on the caller's thread, before the first loader thread is submitted (checked
    in a fresh interpreter, where nothing has imported setuptools yet)."""
    import subprocess
    import sys

    script = """
import sys
from concurrent.futures import ThreadPoolExecutor
seen = []
submit = ThreadPoolExecutor.submit
def recording_submit(self, fn, *args, **kwargs):
    seen.append("setuptools" in sys.modules and "torch.utils.cpp_extension" in sys.modules)
    return submit(self, fn, *args, **kwargs)
ThreadPoolExecutor.submit = recording_submit
from backend.native_prebuild import start_native_kernel_builds
assert "setuptools" not in sys.modules
start_native_kernel_builds()()
print(len(seen), all(seen))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    count, all_before = done.stdout.split()[-2:]
    assert int(count) >= 5 and all_before == "True", done.stdout
