"""The GGUF reader (:mod:`backend.gguf_file`) gives exactly what the ``gguf`` package's reader gives, on a file
with every metadata type and several tensor types and on the real SmolLM2 file, and refuses malformed files
with a message instead of reading past them."""

from __future__ import annotations

from pathlib import Path

import gguf
import numpy as np
import pytest

from backend.gguf_file import GGUFFile, GGUFFormatError
from backend.weights import open_gguf
from tokenization.models import WeightsError, default_gguf_path


def _reference_value(field):
    value = field.contents()
    return list(value) if isinstance(value, list | tuple) else value


def _same(ours, reference) -> bool:
    if isinstance(ours, np.ndarray):
        return ours.tolist() == list(reference)
    if isinstance(ours, float) or isinstance(reference, float):
        return float(ours) == float(reference) or (np.isnan(ours) and np.isnan(reference))
    return ours == reference


def assert_same_as_gguf_reader(path: Path) -> GGUFFile:
    ours, reference = GGUFFile(path), gguf.GGUFReader(str(path))
    keys = [k for k in reference.fields if not k.startswith("GGUF.")]  # the reader's own header pseudo-fields
    assert sorted(ours.fields) == sorted(keys)
    for key in keys:
        assert _same(ours.fields[key], _reference_value(reference.fields[key])), key
    assert [t.name for t in ours.tensors] == [t.name for t in reference.tensors]
    for mine, theirs in zip(ours.tensors, reference.tensors, strict=True):
        assert mine.tensor_type == theirs.tensor_type and list(mine.shape) == theirs.shape.tolist(), mine.name
        assert mine.data.dtype == theirs.data.dtype and mine.data.shape == theirs.data.shape, mine.name
        assert np.array_equal(mine.data, theirs.data), mine.name
        assert mine.n_elements == int(theirs.n_elements)
    return ours


@pytest.fixture
def every_type(tmp_path) -> Path:
    """A GGUF file with each metadata value type, arrays of numbers and strings (with non-ASCII text), and
    F32, F16, Q8_0 and Q4_0 tensors of several shapes."""
    path = tmp_path / "every-type.gguf"
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_uint8("t.u8", 200)
    writer.add_int8("t.i8", -100)
    writer.add_uint16("t.u16", 60000)
    writer.add_int16("t.i16", -30000)
    writer.add_uint32("t.u32", 4_000_000_000)
    writer.add_int32("t.i32", -2_000_000_000)
    writer.add_float32("t.f32", 0.1)
    writer.add_uint64("t.u64", 2**63 + 5)
    writer.add_int64("t.i64", -(2**62))
    writer.add_float64("t.f64", 1 / 3)
    writer.add_bool("t.true", True)
    writer.add_bool("t.false", False)
    writer.add_string("t.text", "naïve café ✓")
    writer.add_string("t.empty", "")
    writer.add_array("t.ints", [1, -2, 3])
    writer.add_array("t.floats", [0.5, -1.25])
    writer.add_array("t.words", ["a", "", "Ġthere", "日本"])
    writer.add_array("t.none", [])
    rng = np.random.default_rng(0)
    writer.add_tensor("plain.f32", rng.standard_normal((3, 5)).astype(np.float32))
    writer.add_tensor("plain.f16", rng.standard_normal((7,)).astype(np.float16))
    for qtype in (gguf.GGMLQuantizationType.Q8_0, gguf.GGMLQuantizationType.Q4_0):
        values = rng.standard_normal((4, 64)).astype(np.float32)
        packed = gguf.quants.quantize(values, qtype)
        writer.add_tensor(f"quant.{qtype.name}", packed, raw_dtype=qtype)  # packed: uint8 rows of blocks
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def test_every_metadata_type_and_tensor_type_reads_as_the_gguf_package_reads_it(every_type) -> None:
    ours = assert_same_as_gguf_reader(every_type)
    assert ours.get("t.text") == "naïve café ✓" and ours.get("t.true") is True and ours.get("absent", 7) == 7
    assert ours.get("t.words") == ["a", "", "Ġthere", "日本"]
    quant = {t.name: t for t in ours.tensors}["quant.Q4_0"]
    values = gguf.quants.dequantize(quant.data, quant.tensor_type)
    assert values.shape == (4, 64)


@pytest.mark.slow
def test_the_real_model_file_reads_as_the_gguf_package_reads_it() -> None:
    ours = assert_same_as_gguf_reader(default_gguf_path())
    assert len(ours.get("tokenizer.ggml.tokens")) == int(ours.get("llama.vocab_size"))


def _corrupt(source: Path, target: Path, edit) -> Path:
    target.write_bytes(edit(source.read_bytes()))
    return target


@pytest.mark.parametrize("edit, message", [
    (lambda b: b"", "empty file"),
    (lambda b: b"GGML" + b[4:], "bad magic"),
    (lambda b: b[:4] + (7).to_bytes(4, "little") + b[8:], "version 7"),
    (lambda b: b[:40], "truncated"),  # inside the metadata
    (lambda b: b[:-100], "runs past the end"),  # the last tensor's data cut short
    (lambda b: b[:4] + b[4:8] + (10**6).to_bytes(8, "little") + b[16:], "truncated"),  # a tensor count it lacks
])
def test_malformed_files_are_refused_with_a_reason(every_type, tmp_path, edit, message) -> None:
    bad = _corrupt(every_type, tmp_path / "bad.gguf", edit)
    with pytest.raises(GGUFFormatError, match=message):
        GGUFFile(bad)
    with pytest.raises(WeightsError, match="cannot read GGUF file .*bad.gguf"):
        open_gguf(bad)


def test_a_missing_file_is_a_weights_error(tmp_path) -> None:
    with pytest.raises(WeightsError, match="cannot read GGUF file"):
        open_gguf(tmp_path / "absent.gguf")
