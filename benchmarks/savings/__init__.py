"""Savings at constant quality: the replay upstream, the trace format and ``thrifty eval savings``."""
