"""The cascade's escalation artifact (JSON, reproducible) and the escalator's decisions."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from proxy.commands.escalation_training import main
from router.config import RouterConfig
from router.errors import RouterArtifactError
from router.escalation import (
    Escalator,
    default_escalation_path,
    feature_names,
    load_escalation,
    save_escalation,
    train_escalation,
)
from router.features import prompt_body

BODY = prompt_body("Tom has 3 boxes of 4 apples and buys 5 more apples. How many apples does he have?")
GOOD = "3 boxes of 4 is 3*4 = <<3*4=12>>12 apples.\nThen 12 + 5 = <<12+5=17>>17 apples.\n#### 17"
WEAK = "I think 3 + 4 = 8, however I'm not sure, maybe around 9 or so. Actually wait, assuming 5 - 3 = 1"


def test_train_save_load_round_trip_and_byte_reproducible(synthetic_data: Path, tmp_path: Path) -> None:
    artifact, provenance = train_escalation(synthetic_data)
    assert "40 rows" in provenance
    path = tmp_path / "esc.json"
    save_escalation(artifact, path, trained_on=provenance, c=0.1)
    loaded = load_escalation(path)
    x = np.vstack([np.zeros(len(feature_names())), np.ones(len(feature_names()))])
    np.testing.assert_allclose(loaded.model.predict(x), artifact.model.predict(x), rtol=1e-12)
    np.testing.assert_allclose(loaded.score_quantiles, artifact.score_quantiles)
    assert main(["--data-dir", str(synthetic_data), "--out", str(tmp_path / "again.json"), "--expect", str(path)]) == 0
    path.write_text(path.read_text().replace('"c": 0.1', '"c": 0.2'))
    assert main(["--data-dir", str(synthetic_data), "--out", str(tmp_path / "again.json"), "--expect", str(path)]) == 1
    assert main(["--data-dir", str(tmp_path / "nowhere"), "--out", str(tmp_path / "x.json")]) == 2


def test_expect_without_out_never_writes_the_shipped_artifact(
    synthetic_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from router import escalation

    shipped = tmp_path / "shipped.json"
    shipped.write_text("not the artifact\n")
    monkeypatch.setattr(escalation, "default_escalation_path", lambda: shipped)
    # the check trains into a temporary file: a shipped file that differs fails, and stays as it was
    assert main(["--data-dir", str(synthetic_data), "--expect", str(shipped)]) == 1
    assert shipped.read_text() == "not the artifact\n"
    assert "differs from" in capsys.readouterr().err
    reference = tmp_path / "reference.json"
    assert main(["--data-dir", str(synthetic_data), "--out", str(reference)]) == 0
    assert main(["--data-dir", str(synthetic_data), "--expect", str(reference)]) == 0
    assert "identical to" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["reference.json", "shipped.json"]
    # no --out and no --expect: refused, the shipped artifact is only written when --out names it
    assert main(["--data-dir", str(synthetic_data)]) == 2
    err = capsys.readouterr().err
    assert "pass --out" in err and "Traceback" not in err
    assert shipped.read_text() == "not the artifact\n"
    assert main(["--data-dir", str(synthetic_data), "--out", str(shipped)]) == 0
    assert load_escalation(shipped).score_quantiles.shape == (101,)


@pytest.mark.parametrize("c", ["-1", "0", "nan", "inf"])
def test_a_bad_regularisation_strength_is_a_usage_error(
    synthetic_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], c: str
) -> None:
    assert main(["--data-dir", str(synthetic_data), "--out", str(tmp_path / "e.json"), "--c", c]) == 2
    assert "--c must be a positive number" in capsys.readouterr().err
    assert not (tmp_path / "e.json").exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        ("{not json", "cannot read"),
        ('{"format": "other"}', "not a thrifty escalation artifact"),
        ('{"format": "thrifty-escalation", "version": 9}', "unsupported artifact version"),
        ('{"format": "thrifty-escalation", "version": 1, "feature_names": ["x"]}', "other features"),
    ],
)
def test_broken_artifacts_are_refused_clearly(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "esc.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(RouterArtifactError, match=message):
        load_escalation(path)


def test_malformed_weights_are_refused(tmp_path: Path) -> None:
    document = json.loads(default_escalation_path().read_text())
    for key, value in (("weight", [1.0, 2.0]), ("scale", [0.0] * len(feature_names())),
                       ("score_quantiles", list(range(101))[::-1]), ("bias", "x")):
        broken = {**document, key: value}
        path = tmp_path / f"{key}.json"
        path.write_text(json.dumps(broken))
        with pytest.raises(RouterArtifactError):
            load_escalation(path)


def test_the_shipped_model_escalates_a_weak_answer_before_a_clean_one() -> None:
    escalator = Escalator.from_config(RouterConfig(kind="heuristic", threshold_mode="fixed", fixed_threshold=0.5))
    assert escalator.score(BODY, WEAK) > 0.5 > escalator.score(BODY, GOOD)
    keep, escalate = escalator.decide(BODY, GOOD), escalator.decide(BODY, WEAK)
    assert not keep.escalate and escalate.escalate and escalate.threshold == 0.5
    empty = escalator.decide(BODY, "   ")
    assert empty.escalate and np.isnan(empty.score) and "no text answer" in empty.reason
    cut = escalator.decide(BODY, GOOD, finish_reason="length")
    assert cut.escalate and "cut off" in cut.reason
    assert not escalator.decide(BODY, GOOD, finish_reason="stop").escalate


def test_share_mode_warms_up_on_the_training_scores_then_follows_traffic() -> None:
    artifact = load_escalation()
    config = RouterConfig(kind="heuristic", target_large_share=0.3, min_window=20, window_size=20)
    escalator = Escalator.from_config(config)
    assert escalator.policy.threshold() == pytest.approx(artifact.reference_threshold(0.3))
    assert artifact.reference_threshold(0.1) > artifact.reference_threshold(0.3) > artifact.reference_threshold(0.9)
    decisions = [escalator.decide(BODY, GOOD if i % 2 else WEAK) for i in range(40)]
    later = decisions[20:]
    assert 0 < sum(d.escalate for d in later) < len(later)  # the window's quantile now splits the traffic
    assert all(d.escalate for d in later if d.score > escalator.score(BODY, GOOD))


def test_a_scoring_failure_escalates_instead_of_raising() -> None:
    escalator = Escalator.from_config(RouterConfig(kind="heuristic"))
    broken = Escalator(escalator.model, escalator.policy)
    broken.model = None  # type: ignore[assignment]
    decision = broken.decide(BODY, GOOD)
    assert decision.escalate and decision.reason.startswith("error:")


def test_out_and_expect_naming_one_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    same = tmp_path / "e.json"
    same.write_text("x")
    assert main(["--out", str(same), "--expect", str(same)]) == 2
    assert "compare the artifact with itself" in capsys.readouterr().err and same.read_text() == "x"


def test_expect_tolerates_float_rounding_but_not_a_different_fit(
    synthetic_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from router.escalation import artifact_difference

    reference = tmp_path / "reference.json"
    assert main(["--data-dir", str(synthetic_data), "--out", str(reference)]) == 0
    document = json.loads(reference.read_text())
    rounded, refitted = dict(document), dict(document)
    rounded["weight"] = [w * (1 + 1e-15) for w in document["weight"]]  # another CPU's last digits
    refitted["weight"] = [w * 1.01 for w in document["weight"]]  # another model
    for name, doc in (("rounded.json", rounded), ("refitted.json", refitted)):
        (tmp_path / name).write_text(json.dumps(doc, indent=1) + "\n")
    assert artifact_difference(reference, reference) == 0.0
    assert 0.0 < artifact_difference(reference, tmp_path / "rounded.json") < 1e-12
    assert artifact_difference(reference, tmp_path / "refitted.json") == pytest.approx(0.01, rel=0.02)
    capsys.readouterr()
    assert main(["--data-dir", str(synthetic_data), "--expect", str(tmp_path / "rounded.json")]) == 0
    assert "up to float rounding" in capsys.readouterr().err
    assert main(["--data-dir", str(synthetic_data), "--expect", str(tmp_path / "refitted.json")]) == 1
    assert "largest relative difference" in capsys.readouterr().err
