"""``thrifty bench kernels``: the Triton kernels against PyTorch on CUDA."""
