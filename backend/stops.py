"""Stop-string handling for streamed text."""

from __future__ import annotations

from collections.abc import Sequence


class StopChecker:
    """Finds stop strings in generated text and holds back text that may be the start of one."""

    def __init__(self, stops: Sequence[str]) -> None:
        self._stops = [s for s in stops if s]
        self._longest = max((len(s) for s in self._stops), default=0)
        self.emitted = 0  # characters of the text already released

    def release(self, text: str, final: bool = False) -> tuple[str, bool]:
        """Given the whole text so far, return (new text safe to emit, whether a stop was hit)."""
        for stop in self._stops:
            start = max(0, self.emitted - len(stop) + 1)
            index = text.find(stop, start)
            if index != -1:
                out = text[self.emitted : index]
                self.emitted = index
                return out, True
        limit = len(text) if final else len(text) - self._held_back(text)
        limit = max(limit, self.emitted)
        out = text[self.emitted : limit]
        self.emitted = limit
        return out, False

    def _held_back(self, text: str) -> int:
        """Length of the longest text suffix that is a proper prefix of some stop string."""
        for size in range(min(self._longest - 1, len(text)), 0, -1):
            suffix = text[-size:]
            if any(stop.startswith(suffix) for stop in self._stops):
                return size
        return 0
