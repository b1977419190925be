"""Progress bars of the training steps (on stderr, so that stdout keeps only the summary)."""

from __future__ import annotations

import sys
from typing import Any


def progress_bar(iterable: Any, enabled: bool, **kwargs: Any) -> Any:
    """``iterable`` wrapped in a tqdm bar on stderr (``kwargs`` go to tqdm), or as is when not ``enabled``."""
    if not enabled:
        return iterable
    from tqdm import tqdm

    return tqdm(iterable, file=sys.stderr, **kwargs)
