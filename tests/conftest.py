"""Shared fixtures: the real SmolLM2 model, loaded once per test session."""

from __future__ import annotations

import os

import pytest

# OpenMP spin-waiting makes torch 30-50x slower on a shared 2-core machine; set before torch loads
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def pytest_collection_modifyitems(config, items) -> None:
    """Files marked ``slow`` (the real model) or ``e2e`` (real processes) run first. Under xdist
    (``--dist loadfile --no-loadscope-reorder``, pyproject) files are handed out in this order as workers
    free up, so the long ones start at once and the many short files even out the end; xdist's own
    reordering puts the files with the most tests first, which left one worker on a long file at the end."""
    def heavy(item) -> bool:
        return item.get_closest_marker("slow") is not None or item.get_closest_marker("e2e") is not None

    items.sort(key=lambda item: not heavy(item))  # stable: each file stays together, in collection order


@pytest.fixture(scope="session")
def thrifty_data_dir(tmp_path_factory):
    """A data directory shared by the session (tokenizer cache and the like)."""
    return tmp_path_factory.mktemp("thrifty-data")


@pytest.fixture(scope="session")
def smollm2(thrifty_data_dir):
    """SmolLM2-135M-Instruct (the real Q4_1 GGUF weights) in fp32 on CPU, fp32 linear weights pinned: the
    transformers oracle tests compare against it exactly (the server's default ``auto`` is int4 here)."""
    from backend.config import BackendConfig
    from backend.runtime import load_model

    return load_model(BackendConfig(data_dir=str(thrifty_data_dir), dtype="float32", weights_dtype="fp32"))


@pytest.fixture(scope="session")
def smollm2_default(thrifty_data_dir):
    """SmolLM2-135M-Instruct as the server loads it by default (``auto``: int4 panels on CPU, batch invariance on,
    the fused layers where they build): greedy output does not depend on the batch, so tests compare it exactly."""
    from backend.config import BackendConfig
    from backend.runtime import load_model

    model = load_model(BackendConfig(data_dir=str(thrifty_data_dir)))
    assert model.batch_invariant_weights
    return model


@pytest.fixture(scope="session")
def hf_oracle(smollm2):
    """transformers' own Llama on the same GGUF file: the reference our forward must match."""
    import torch
    from transformers import AutoModelForCausalLM

    source = smollm2.source
    model = AutoModelForCausalLM.from_pretrained(str(source.path.parent), gguf_file=source.path.name,
                                                 dtype=torch.float32)
    model.eval()
    return model


@pytest.fixture(scope="session")
def embedder():
    """The real all-MiniLM-L6-v2 embedder from the installed wheel, loaded once."""
    from caches.embedder import SentenceTransformerEmbedder

    model = SentenceTransformerEmbedder()
    model.embed(["warm-up"])
    return model
