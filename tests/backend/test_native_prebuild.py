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
