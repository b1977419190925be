from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from router.classifier import load_artifact
from router.errors import RouterDataError
from router.features import STAT_NAMES, extract_features, prompt_body, stats_matrix
from router.training import (
    DIRECT_ROUTE_LABEL,
    TrainingConfig,
    embed_texts,
    fit_classifier,
    fit_direct_route,
    group_folds,
    main,
    resolve_data_dir,
)


def test_main_trains_and_writes_artifact(synthetic_data: Path, embedder, tmp_path: Path) -> None:
    out = tmp_path / "router.joblib"
    lines: list[str] = []
    code = main(
        ["--data-dir", str(synthetic_data), "--out", str(out), "--quiet"], embedder=embedder, out=lines.append
    )
    assert code == 0
    assert any("wrote" in line for line in lines)
    classifier = load_artifact(out)
    assert set(classifier.training["per_source"]) == {"mmlu", "gsm8k", "mt_bench"}
    assert "broken" not in classifier.training["mmlu_domains"]
    assert out.stat().st_size < 5 * 1024 * 1024
    hard = "Prove that the polynomial x^4 + 3x + 1 has no rational roots."
    easy = "Which animal says moo? Question 3."
    emb = embedder.embed([hard, easy])
    from router.features import request_stats

    stats = np.vstack([request_stats(prompt_body(t)).as_vector() for t in (hard, easy)])
    p_hard, p_easy = classifier.predict(emb, stats)
    assert p_hard > p_easy


def test_training_is_byte_reproducible_and_expect_checks_it(synthetic_data: Path, embedder, tmp_path: Path) -> None:
    first, second = tmp_path / "a.joblib", tmp_path / "b.joblib"
    args = ["--data-dir", str(synthetic_data), "--quiet"]
    assert main([*args, "--out", str(first)], embedder=embedder, out=lambda _: None) == 0
    lines: list[str] = []
    assert main([*args, "--out", str(second), "--expect", str(first)], embedder=embedder, out=lines.append) == 0
    assert first.read_bytes() == second.read_bytes() and "identical to" in lines[-1]
    other = tmp_path / "other.joblib"
    other.write_bytes(first.read_bytes()[:-1] + b"x")
    assert main([*args, "--out", str(second), "--expect", str(other)], embedder=embedder, out=lines.append) == 1
    assert "DIFFERS" in lines[-1]


def test_main_with_logs_only(embedder, tmp_path: Path) -> None:
    logs = tmp_path / "logs.jsonl"
    rows = []
    for i in range(30):
        hard = i % 2 == 0
        text = f"Derive the closed form of sum_k k^{i % 5 + 2} and prove it" if hard else f"say hello {i}"
        rows.append({"request": prompt_body(text), "served_tier": "small", "ok": not hard})
    rows.append({"request": prompt_body("x"), "served_tier": "large", "score": 1.0})
    logs.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    out = tmp_path / "logs.joblib"
    lines: list[str] = []
    code = main(
        ["--sources", "", "--logs", str(logs), "--out", str(out), "--quiet"],
        embedder=embedder,
        out=lines.append,
    )
    assert code == 0
    assert any("1 large-tier rows skipped" in line for line in lines)
    assert load_artifact(out).training["logs"]["used"] == 30


def test_main_reports_missing_data_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--data-dir", str(tmp_path / "nowhere"), "--out", str(tmp_path / "x.joblib"), "--quiet"])
    assert code == 2
    assert "not found" in capsys.readouterr().err
    assert not (tmp_path / "x.joblib").exists()


def test_default_data_dir_is_relative_to_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clone = tmp_path / "clone"  # a checkout inside this test's own folder: its ../shared is the test's alone
    clone.mkdir()
    monkeypatch.chdir(clone)
    with pytest.raises(RouterDataError, match="../shared/data"):
        resolve_data_dir(None)
    (tmp_path / "shared" / "data").mkdir(parents=True)
    assert resolve_data_dir(None).resolve() == (tmp_path / "shared" / "data").resolve()


def test_fit_is_deterministic_and_rejects_one_class() -> None:
    rng = np.random.default_rng(0)
    n = 120
    emb = rng.normal(size=(n, 8))
    stats = rng.normal(size=(n, len(STAT_NAMES)))
    labels = (emb[:, 0] > 0).astype(float)
    sources = ["mmlu"] * 80 + ["gsm8k"] * 40
    groups = [f"mmlu/d{i % 4}" for i in range(80)] + ["gsm8k"] * 40
    config = TrainingConfig(min_expert_rows=30)
    a = fit_classifier(emb, stats, labels, sources, groups, config=config, progress=False)
    b = fit_classifier(emb, stats, labels, sources, groups, config=config, progress=False)
    np.testing.assert_allclose(a.predict(emb, stats), b.predict(emb, stats))
    assert a.gate_classes == ("gsm8k", "mmlu")
    assert np.corrcoef(a.predict(emb, stats), labels)[0, 1] > 0.5
    with pytest.raises(RouterDataError, match="both"):
        fit_classifier(emb, stats, np.zeros(n), sources, groups, progress=False)


def test_soft_labels(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    emb = rng.normal(size=(60, 4))
    stats = np.zeros((60, len(STAT_NAMES)))
    labels = np.clip(0.5 + 0.4 * np.sign(emb[:, 0]), 0, 1)  # 0.1 / 0.9 soft targets
    model = fit_classifier(emb, stats, labels, ["logs"] * 60, ["logs"] * 60, progress=False)
    p = model.predict(emb, stats)
    assert p[emb[:, 0] > 0].mean() > 0.6 > 0.4 > p[emb[:, 0] < 0].mean()


def test_embedding_cache(embedder, tmp_path: Path) -> None:
    cache = tmp_path / "emb.npz"
    texts = ["alpha", "beta", "alpha"]
    first = embed_texts(embedder, texts, progress=False, cache_path=cache)
    assert first.shape == (3, 384) and cache.is_file()

    class NoCalls:
        dim = 384
        name = "all-MiniLM-L6-v2"

        def embed(self, batch):  # noqa: ANN001, ANN201
            raise AssertionError("cache miss")

    again = embed_texts(NoCalls(), texts, progress=False, cache_path=cache)
    np.testing.assert_allclose(first, again)


def test_direct_route_learns_which_requests_waste_the_weak_call(embedder) -> None:
    """Multiple-choice prompts whose weak answer is always escalated rank above help-desk prompts the weak
    model answers, out of fold (no row scores itself) and in the fitted router alike."""
    rng = np.random.default_rng(0)
    topics = ["rivers", "proteins", "tariffs", "sonnets", "glaciers", "enzymes", "treaties", "voltage", "orbits",
              "fungi", "mortgages", "verbs"]
    quiz = [{"messages": [{"role": "user", "content": f"Which statement about {t} is true?\nA. one\nB. two\n"
                                                       f"C. three\nD. four\nAnswer:"}]} for t in topics]
    desk = [{"messages": [{"role": "user", "content": f"How do I change the {t} setting in my account?"}]}
            for t in topics]
    bodies = quiz + desk
    useless = np.array([1.0] * len(quiz) + [0.0] * len(desk))
    order = rng.permutation(len(bodies))
    bodies, useless = [bodies[i] for i in order], useless[order]
    groups = [str(i) for i in range(len(bodies))]
    router, scores = fit_direct_route(bodies, useless, groups, embedder=embedder)
    assert scores[useless == 1].min() > scores[useless == 0].max()
    assert router.training["trained_on"] == DIRECT_ROUTE_LABEL and router.training["useless"] == len(quiz)
    fitted = np.array([router.predict_one(*_features(embedder, b)) for b in bodies])
    assert fitted[useless == 1].min() > fitted[useless == 0].max()


def _features(embedder, body):
    features = extract_features(body)
    return embedder.embed([features.text])[0], stats_matrix([features.stats])[0]


def test_group_folds_keep_a_group_together_and_use_every_fold() -> None:
    groups = [f"q{i % 7}" for i in range(30)]
    folds = group_folds(groups, 5, seed=3)
    for g in set(groups):
        assert len({int(f) for f, x in zip(folds, groups, strict=True) if x == g}) == 1
    assert set(folds.tolist()) == set(range(5))
    assert (group_folds(groups, 5, seed=3) == folds).all()


def test_direct_route_refuses_one_class(embedder) -> None:
    bodies = [{"messages": [{"role": "user", "content": f"question {i}"}]} for i in range(4)]
    with pytest.raises(RouterDataError, match="of use and some whose was not"):
        fit_direct_route(bodies, np.ones(4), [str(i) for i in range(4)], embedder=embedder)


def test_expect_naming_the_output_file_is_refused(tmp_path, capsys) -> None:
    from router.training import main as train_main

    same = tmp_path / "a.joblib"
    same.write_bytes(b"x")
    assert train_main(["--sources", "", "--out", str(same), "--expect", str(same)]) == 2
    assert "compare the artifact with itself" in capsys.readouterr().err and same.read_bytes() == b"x"
