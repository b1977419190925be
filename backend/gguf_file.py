"""A GGUF file's metadata and tensors, read in a fraction of a second.

``gguf.GGUFReader`` builds a numpy view for every part of every metadata value: on SmolLM2's file, whose
tokenizer arrays hold ~100k strings, that took 7-8 s of each model load (and the KV sizing read it again).
This reader walks the same layout with ``struct`` over one memory map, decodes numeric arrays with one
``np.frombuffer`` each, and maps tensor data without copying. It keeps using the ``gguf`` package for what
that package is the reference of: the quantization types, their block sizes and dequantization.

Layout (GGUF v2/v3, little-endian): magic ``GGUF``, version (u32), tensor count (u64), metadata count (u64);
each metadata entry is a key (u64 length + UTF-8), a value type (u32) and the value (a string is u64 length
+ bytes; an array is an element type (u32), a count (u64) and the elements); then each tensor's name, number
of dimensions (u32), dimensions (u64 each, fastest first), type (u32) and offset (u64) into the data
section, which starts at the next multiple of ``general.alignment`` (default 32).
"""

from __future__ import annotations

import mmap
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

_MAGIC = b"GGUF"
_DEFAULT_ALIGNMENT = 32
# value type → (struct format, numpy dtype) of the scalar types
_SCALARS = {
    0: ("<B", np.uint8), 1: ("<b", np.int8), 2: ("<H", np.uint16), 3: ("<h", np.int16),
    4: ("<I", np.uint32), 5: ("<i", np.int32), 6: ("<f", np.float32), 7: ("<?", np.bool_),
    10: ("<Q", np.uint64), 11: ("<q", np.int64), 12: ("<d", np.float64),
}
_STRING, _ARRAY = 8, 9
# tensor types whose data is an array of plain values (the rest are quantized blocks, read as bytes)
_PLAIN_TENSOR_DTYPES = {"F32": np.float32, "F16": np.float16, "F64": np.float64, "I8": np.int8,
                        "I16": np.int16, "I32": np.int32, "I64": np.int64}


class GGUFFormatError(ValueError):
    """The file is not a GGUF file this reader understands (bad magic, version, type or a short file)."""


@dataclass(frozen=True, slots=True)
class GGUFTensor:
    """One tensor: ``shape`` in GGUF's order (fastest dimension first, as llama.cpp writes it); ``data`` a
    read-only numpy view of the file: plain types as their values (slowest dimension first), quantized
    types as ``uint8`` rows of blocks (the layout ``gguf.quants.dequantize`` takes)."""

    name: str
    tensor_type: Any  # gguf.GGMLQuantizationType
    shape: tuple[int, ...]
    data: np.ndarray

    @property
    def n_elements(self) -> int:
        return int(np.prod(self.shape)) if self.shape else 1


class GGUFFile:
    """The parsed metadata (:attr:`fields`: key → Python value; arrays as lists, or numpy arrays when
    numeric) and tensors (:attr:`tensors`, in file order) of one GGUF file.

    Raises :class:`GGUFFormatError` for a malformed file and ``OSError`` for one that cannot be opened."""

    def __init__(self, path: str | Path) -> None:
        import gguf

        self.path = Path(path)
        with open(self.path, "rb") as handle:
            try:
                self._map = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
            except ValueError as exc:  # an empty file cannot be mapped
                raise GGUFFormatError(f"{self.path}: empty file") from exc
        buf = self._map
        self._pos = 0
        if self._take(4) != _MAGIC:
            raise GGUFFormatError(f"{self.path}: not a GGUF file (bad magic)")
        self.version = self._unpack("<I")
        if self.version not in (2, 3):
            raise GGUFFormatError(f"{self.path}: GGUF version {self.version} is not supported (2 or 3)")
        tensor_count, field_count = self._unpack("<Q"), self._unpack("<Q")
        self.fields: dict[str, Any] = {}
        for _ in range(field_count):
            key = self._string()
            self.fields[key] = self._value(self._unpack("<I"))
        infos = []
        for _ in range(tensor_count):
            name = self._string()
            n_dims = self._unpack("<I")
            dims = tuple(int(d) for d in struct.unpack_from(f"<{n_dims}Q", buf, self._pos))
            self._pos += 8 * n_dims
            raw_type, offset = self._unpack("<I"), self._unpack("<Q")
            infos.append((name, dims, raw_type, offset))
        alignment = int(self.fields.get("general.alignment", _DEFAULT_ALIGNMENT))
        if alignment <= 0 or alignment & (alignment - 1):
            raise GGUFFormatError(f"{self.path}: general.alignment {alignment} is not a power of two")
        start = -(-self._pos // alignment) * alignment
        self.tensors: list[GGUFTensor] = []
        names = set()
        for name, dims, raw_type, offset in infos:
            if name in names:
                raise GGUFFormatError(f"{self.path}: tensor {name!r} appears twice")
            names.add(name)
            self.tensors.append(self._tensor(gguf, name, dims, raw_type, start + offset))

    def get(self, key: str, default: Any = None) -> Any:
        """The metadata value of ``key``, or ``default``."""
        return self.fields.get(key, default)

    # ------------------------------------------------------------------ parsing

    def _need(self, pos: int, size: int) -> None:
        """Refuse to read ``size`` header bytes from ``pos`` past the end of the file."""
        if pos + size > len(self._map):
            raise GGUFFormatError(f"{self.path}: file ends inside its header (truncated?)")

    def _take(self, n: int) -> bytes:
        self._need(self._pos, n)
        out = self._map[self._pos:self._pos + n]
        self._pos += n
        return out

    def _unpack(self, fmt: str) -> Any:
        size = struct.calcsize(fmt)
        self._need(self._pos, size)
        (value,) = struct.unpack_from(fmt, self._map, self._pos)
        self._pos += size
        return value

    def _string(self) -> str:
        return self._take(self._unpack("<Q")).decode("utf-8", errors="replace")

    def _value(self, value_type: int) -> Any:
        if value_type in _SCALARS:
            value = self._unpack(_SCALARS[value_type][0])
            return bool(value) if value_type == 7 else value
        if value_type == _STRING:
            return self._string()
        if value_type != _ARRAY:
            raise GGUFFormatError(f"{self.path}: unknown metadata value type {value_type}")
        element_type, count = self._unpack("<I"), self._unpack("<Q")
        if element_type in _SCALARS:
            dtype = np.dtype(_SCALARS[element_type][1]).newbyteorder("<")
            size = count * dtype.itemsize
            self._need(self._pos, size)
            values = np.frombuffer(self._map, dtype=dtype, count=count, offset=self._pos).copy()
            self._pos += size
            return values
        if element_type == _STRING:
            return self._strings(count)
        return [self._value(element_type) for _ in range(count)]  # arrays of arrays: rare and small

    def _strings(self, count: int) -> list[str]:
        buf, pos = self._map, self._pos
        out = []
        unpack = struct.Struct("<Q").unpack_from
        for _ in range(count):
            self._need(pos, 8)
            (length,) = unpack(buf, pos)
            pos += 8
            self._need(pos, length)
            out.append(buf[pos:pos + length].decode("utf-8", errors="replace"))
            pos += length
        self._pos = pos
        return out

    def _tensor(self, gguf, name: str, dims: tuple[int, ...], raw_type: int, offset: int) -> GGUFTensor:
        try:
            tensor_type = gguf.GGMLQuantizationType(raw_type)
            block_size, type_size = gguf.GGML_QUANT_SIZES[tensor_type]
        except (ValueError, KeyError) as exc:
            raise GGUFFormatError(f"{self.path}: tensor {name!r} has unknown type {raw_type}") from exc
        n_elements = int(np.prod(dims)) if dims else 1
        shape = tuple(reversed(dims))  # slowest first, as numpy indexes
        plain = _PLAIN_TENSOR_DTYPES.get(tensor_type.name)
        if plain is not None:
            dtype, count = np.dtype(plain).newbyteorder("<"), n_elements
        else:
            if not shape or shape[-1] % block_size:
                raise GGUFFormatError(f"{self.path}: tensor {name!r}: rows of {shape[-1] if shape else 0} values "
                                      f"are not whole {tensor_type.name} blocks of {block_size}")
            dtype, count = np.dtype(np.uint8), n_elements // block_size * type_size
            shape = (*shape[:-1], shape[-1] // block_size * type_size)
        if offset + count * dtype.itemsize > len(self._map):
            raise GGUFFormatError(f"{self.path}: tensor {name!r} runs past the end of the file (truncated?)")
        data = np.frombuffer(self._map, dtype=dtype, count=count, offset=offset).reshape(shape)
        return GGUFTensor(name, tensor_type, dims, data)
