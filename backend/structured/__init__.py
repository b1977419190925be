"""Grammar-constrained decoding for the bundled backend (llguidance).

- :mod:`backend.structured.spec` turns a chat request's ``response_format``, ``tools`` / ``tool_choice``,
  ``guided_choice`` and ``guided_regex`` into one llguidance grammar (or none);
- :mod:`backend.structured.compiler` compiles grammars against the tokenizer with a time limit and an LRU
  cache, and hands each sequence its own matcher;
- :mod:`backend.structured.masks` computes the allowed-token masks of a step's constrained sequences on a
  worker thread while the forward pass runs, and applies them to their logits rows;
- :mod:`backend.structured.tool_calls` turns the model's ``<tool_call>`` blocks into OpenAI ``tool_calls``.
"""
