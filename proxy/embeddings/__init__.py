"""``POST /v1/embeddings``: the bundled MiniLM served by the proxy itself, other embedding models
forwarded to their upstream, and an exact cache per input text (docs/embeddings.md)."""
