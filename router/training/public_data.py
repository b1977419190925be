"""The public training data: which sources there are (:data:`PUBLIC_SOURCES`), where their folder is
(:func:`resolve_data_dir`) and their labelled examples (:func:`load_public_examples`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from router.data import (
    LabelledExample,
    load_gsm8k,
    load_mmlu,
    load_mt_bench,
    model_pair,
    sane_mmlu_domains,
)
from router.errors import RouterDataError

PUBLIC_SOURCES: tuple[str, ...] = ("mmlu", "gsm8k", "mt_bench")
DEFAULT_DATA_DIR = Path("..") / "shared" / "data"


def resolve_data_dir(value: str | None) -> Path:
    """``--data-dir`` or, when omitted, ``../shared/data`` relative to the working directory.

    Raises:
        RouterDataError: the folder does not exist.
    """
    path = Path(value) if value else DEFAULT_DATA_DIR
    if not path.is_dir():
        hint = "" if value else " (default ../shared/data relative to the working directory)"
        raise RouterDataError(f"data directory {str(path)!r} not found{hint}; pass --data-dir")
    return path


def load_public_examples(
    data_dir: Path,
    sources: Sequence[str] = PUBLIC_SOURCES,
    *,
    mmlu_domains: Sequence[str] | None = None,
    drop_misgraded: bool = True,
) -> list[LabelledExample]:
    """Labelled public examples of the requested sources (MMLU domains optionally restricted)."""
    unknown = set(sources) - set(PUBLIC_SOURCES)
    if unknown:
        raise RouterDataError(f"unknown sources {sorted(unknown)}; expected some of {PUBLIC_SOURCES}")
    out: list[LabelledExample] = []
    if "mmlu" in sources:
        mmlu = load_mmlu(data_dir, mmlu_domains)
        if drop_misgraded:
            keep = sane_mmlu_domains(mmlu)
            mmlu = [ex for ex in mmlu if ex.group in keep]
        out.extend(mmlu)
    if "gsm8k" in sources:
        out.extend(load_gsm8k(data_dir))
    if "mt_bench" in sources:
        weak, strong = model_pair(data_dir)
        out.extend(load_mt_bench(data_dir, weak, strong))
    return out
