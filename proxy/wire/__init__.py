"""The OpenAI wire format the proxy speaks on both sides: request schemas, JSON Schema checks, the error hierarchy and its OpenAI error bodies, SSE chunks."""
