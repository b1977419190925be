"""Weight-only quantized linear layers for the CPU (``--weights-dtype int8|int4``).

* :mod:`backend.quant.blocks` — 4-bit and 8-bit weights as (values, scales, minimums): decoded from a
  GGUF file's own Q4_0/Q4_1/Q8_0 blocks, or quantized here from float weights.
* :mod:`backend.quant.linear` — :class:`Int4Linear` and :class:`Int8Linear`: the matmul reads the packed
  weights and dequantizes inside torch's CPU kernels for small batches, and runs a dense matmul on the
  same values, dequantized once at load, for large ones (where the dense GEMM is faster).
* :mod:`backend.quant.convert` — swapping a model's ``nn.Linear`` layers for them.
"""
