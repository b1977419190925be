"""What both the bundled backend and the proxy need to turn a request into the model's tokens:
where the model is (:mod:`.models`), its tokenizer and chat template (:mod:`.tokenizer`), and how a
chat request's ``tools`` and ``response_format`` are rendered into the prompt (:mod:`.chat_sections`).

A runtime package below both: it imports neither ``backend`` nor ``proxy``, and does not import
torch itself (``transformers`` may, when a tokenizer is first loaded). The proxy's shaping stage
counts prompt tokens with it exactly as the backend will, without loading the backend's model code.
"""
