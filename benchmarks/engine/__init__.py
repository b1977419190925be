"""The bundled engine's benchmarks and evaluations: ``thrifty bench engine`` / ``engine-profile`` /
``speculative``, ``thrifty eval kv-cache``, and the quantized weights' quality checks."""
