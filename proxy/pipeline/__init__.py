"""The request pipeline: :mod:`proxy.pipeline.compose` composes the stages (cache, router, cascade, forwarding, stream relay, accounting), each a module with one entry point."""
