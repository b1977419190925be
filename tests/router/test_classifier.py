from __future__ import annotations

from pathlib import Path

import joblib
import numpy as np
import pytest

from router.classifier import ARTIFACT_FORMAT_VERSION, load_artifact, save_artifact
from router.errors import RouterArtifactError
from router.features import STAT_NAMES


def _inputs(n: int = 3) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    emb = rng.normal(size=(n, 384))
    emb /= np.linalg.norm(emb, axis=1, keepdims=True)
    return emb, rng.normal(size=(n, len(STAT_NAMES)))


def test_round_trip(tiny_classifier, tmp_path: Path) -> None:
    path = save_artifact(tiny_classifier, tmp_path / "sub" / "router.joblib")
    loaded = load_artifact(path)
    emb, stats = _inputs()
    np.testing.assert_allclose(loaded.predict(emb, stats), tiny_classifier.predict(emb, stats))
    assert loaded.spec == tiny_classifier.spec
    assert loaded.gate_classes == tiny_classifier.gate_classes
    p = loaded.predict_one(emb[0], stats[0])
    assert 0.0 < p < 1.0
    assert 0.0 <= loaded.reference_threshold(0.3) <= 1.0
    assert loaded.reference_threshold(0.1) >= loaded.reference_threshold(0.5)


def test_predict_rejects_wrong_shapes(tiny_classifier) -> None:
    emb, stats = _inputs()
    with pytest.raises(ValueError, match="embedding dim"):
        tiny_classifier.predict(emb[:, :100], stats)
    with pytest.raises(ValueError, match="stats shape"):
        tiny_classifier.predict(emb, stats[:, :3])


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.joblib"
    with pytest.raises(RouterArtifactError, match="file not found") as info:
        load_artifact(path)
    assert info.value.path == str(path)
    assert str(path) in str(info.value)


def test_corrupt_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.joblib"
    path.write_bytes(b"\x00not a pickle at all" * 10)
    with pytest.raises(RouterArtifactError, match="cannot be read"):
        load_artifact(path)


def test_truncated_file(tiny_classifier, tmp_path: Path) -> None:
    path = save_artifact(tiny_classifier, tmp_path / "ok.joblib")
    path.write_bytes(path.read_bytes()[:200])
    with pytest.raises(RouterArtifactError, match="cannot be read"):
        load_artifact(path)


def test_not_a_router_artifact(tmp_path: Path) -> None:
    path = tmp_path / "other.joblib"
    joblib.dump({"hello": "world"}, path)
    with pytest.raises(RouterArtifactError, match="not a thrifty router artifact"):
        load_artifact(path)


def _tamper(tiny_classifier, tmp_path: Path, **changes) -> Path:
    path = save_artifact(tiny_classifier, tmp_path / "t.joblib")
    payload = joblib.load(path)
    for key, value in changes.items():
        if value is None:
            del payload[key]
        else:
            payload[key] = value
    joblib.dump(payload, path)
    return path


def test_wrong_version(tiny_classifier, tmp_path: Path) -> None:
    path = _tamper(tiny_classifier, tmp_path, format_version=ARTIFACT_FORMAT_VERSION + 1)
    with pytest.raises(RouterArtifactError, match="format version"):
        load_artifact(path)


def test_incompatible_features(tiny_classifier, tmp_path: Path) -> None:
    spec = {"feature_version": 999, "stat_names": list(STAT_NAMES), "embedding_dim": 384, "embedder": "x"}
    with pytest.raises(RouterArtifactError, match="incompatible features"):
        load_artifact(_tamper(tiny_classifier, tmp_path, feature_spec=spec))


def test_missing_field(tiny_classifier, tmp_path: Path) -> None:
    with pytest.raises(RouterArtifactError, match="missing fields"):
        load_artifact(_tamper(tiny_classifier, tmp_path, experts=None))


def test_inconsistent_contents(tiny_classifier, tmp_path: Path) -> None:
    with pytest.raises(RouterArtifactError, match="inconsistent"):
        load_artifact(_tamper(tiny_classifier, tmp_path, stat_mean=np.zeros(3)))
