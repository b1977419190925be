"""``thrifty bench batch``: batch throughput beside interactive load, and resume after kill -9."""
