"""API keys, per-key model lists, budgets and rate limits (``[auth]``)."""
