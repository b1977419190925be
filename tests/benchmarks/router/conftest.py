"""The router evaluation's tests use the router tests' synthetic public data."""

from __future__ import annotations

from tests.router.conftest import synthetic_data, tiny_classifier  # noqa: F401
