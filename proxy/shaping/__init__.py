"""Prompt shaping and output capping: the request-body stage between routing and the cache lookup
(:class:`proxy.shaping.stage.ShapingStage`), configured by ``[shaping]``."""
