"""Starting processes: the proxy under uvicorn (``thrifty proxy serve``) and the bundled backend as a supervised child (``thrifty serve``)."""
