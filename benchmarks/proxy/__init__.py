"""The proxy's benchmarks: added latency and pass-through CPU (``thrifty bench proxy``), sustained load
(``thrifty bench load``) and the stub upstream they run against."""
