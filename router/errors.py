"""Exceptions raised by the router package.

The proxy maps :class:`RouterError` subclasses into its own ``ThriftyError`` hierarchy; at decision
time routers never raise (they fall back to the configured default tier), so these surface only at
start-up (bad config, unreadable artifact) and in the training / evaluation commands.
"""

from __future__ import annotations

from pathlib import Path


class RouterError(Exception):
    """Base class of every error raised by :mod:`router`."""


class RouterConfigError(RouterError, ValueError):
    """A :class:`router.config.RouterConfig` value is invalid (unknown kind, tier, mode, ...)."""


class RouterArtifactError(RouterError):
    """A trained router artifact is missing, unreadable, corrupt or of an unsupported format."""

    def __init__(self, path: str | Path, reason: str) -> None:
        self.path = str(path)
        self.reason = reason
        super().__init__(f"router artifact {self.path!r}: {reason}")


class RouterDataError(RouterError):
    """Training or evaluation data is missing or malformed."""
