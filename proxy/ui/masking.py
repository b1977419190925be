"""Masking of credentials in what the UI shows: re-exported from :mod:`proxy.masking` (shared with the CLI)."""

from __future__ import annotations

from proxy.masking import MASK, mask_text, mask_url, mask_value, secret_param

__all__ = ["MASK", "mask_text", "mask_url", "mask_value", "secret_param"]
