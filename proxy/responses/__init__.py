"""OpenAI's Responses API (``/v1/responses``) on top of the chat pipeline: requests are translated to
chat completions and answers back, so keys, caches, routing, caps and the request log apply as they do
to chat; responses are stored per key for ``previous_response_id`` and retrieval (docs/responses.md)."""
