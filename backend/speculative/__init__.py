"""Speculative decoding: drafters propose tokens, the engine's target model verifies them in one forward.

- :mod:`.config` — the options (``off | ngram | draft | self``, K) and their validation;
- :mod:`.acceptance` — exact acceptance (greedy argmax match; rejection sampling for sampled requests);
- :mod:`.ngram` — prompt-lookup drafting from the sequence's own tokens;
- :mod:`.draft_model` — a draft model (another model, or the target's first layers) with its own paged KV;
- :mod:`.decoder` — per-sequence drafting decisions (limits, automatic off) and acceptance counters.


The package import stays light (only the torch-free config): the engine imports the rest lazily.
"""