"""Training the learned router: data -> features -> embeddings -> classifier artifact.

Command line (the proxy's CLI wraps :func:`main`)::

    python -m router.training --data-dir ../shared/data --out router/artifacts/default_router.joblib

reproduces the shipped artifact (fixed seeds; all 46 public MMLU domains except mis-graded ones,
all GSM8K prompts, MT-Bench). ``--logs FILE`` adds the proxy's own logged requests (labels: see
:mod:`router.data`).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import sys
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from caches.embedder import Embedder
from router.classifier import (
    GENERAL_EXPERT,
    DifficultyClassifier,
    FeatureSpec,
    save_artifact,
)
from router.data import (
    LabelledExample,
    load_gsm8k,
    load_logs,
    load_mmlu,
    load_mt_bench,
    model_pair,
    sane_mmlu_domains,
)
from router.errors import RouterDataError
from router.features import FEATURE_VERSION, STAT_NAMES, extract_features, stats_matrix

PUBLIC_SOURCES: tuple[str, ...] = ("mmlu", "gsm8k", "mt_bench")
DEFAULT_DATA_DIR = Path("..") / "shared" / "data"


@dataclass(frozen=True, slots=True)
class TrainingConfig:
    """Hyper-parameters of :func:`fit_classifier` (chosen by domain-grouped validation).

    Attributes:
        expert_sources: (source, inverse L2 strength C) of the sources that get their own expert
            when they have at least ``min_expert_rows`` rows.
        general_c: C of the general expert (trained on every row).
        gate_c: C of the gate (multinomial logistic regression on the embedding).
        min_expert_rows: rows a source needs for its own expert.
        calibration_folds: folds of the out-of-fold scores the Platt calibrator is fitted on
            (MMLU rows are folded by domain, other rows at random); 0 skips calibration (one fit;
            the ranking, hence APGR/CPT, is the same since the calibrator is monotone).
        seed: seed of the fold assignment.
        max_iter: L-BFGS iterations per logistic regression.
    """

    expert_sources: tuple[tuple[str, float], ...] = (("mmlu", 0.1), ("gsm8k", 1.0), ("logs", 0.1))
    general_c: float = 0.1
    gate_c: float = 1.0
    min_expert_rows: int = 200
    calibration_folds: int = 5
    seed: int = 0
    max_iter: int = 2000


def _progress(iterable: Any, enabled: bool, **kwargs: Any) -> Any:
    if not enabled:
        return iterable
    from tqdm import tqdm

    return tqdm(iterable, file=sys.stderr, **kwargs)


@contextlib.contextmanager
def single_threaded() -> Iterator[None]:
    """One BLAS/OpenMP thread and one torch thread for the duration.

    Multi-threaded reductions add floating-point numbers in a run-dependent order, so two training
    runs on the same data differ in the last bits (1e-13 .. 1e-8) and so do their artifacts' bytes.
    With one thread the same data, code and library versions give a byte-identical artifact.
    """
    from threadpoolctl import threadpool_limits

    try:
        import torch
    except ImportError:  # pragma: no cover - the embedder needs torch
        torch = None  # type: ignore[assignment]
    previous = torch.get_num_threads() if torch is not None else None
    if torch is not None:
        torch.set_num_threads(1)
    try:
        with threadpool_limits(limits=1):
            yield
    finally:
        if torch is not None and previous is not None:
            torch.set_num_threads(previous)


def embedder_name(embedder: Embedder) -> str:
    """A human-readable identity of an embedder, stored in artifacts."""
    name = getattr(embedder, "name", None)
    if isinstance(name, str) and name:
        return name
    config = getattr(embedder, "_config", None)
    path = getattr(config, "model_path", None)
    if type(embedder).__name__ == "SentenceTransformerEmbedder" and path is None:
        return "all-MiniLM-L6-v2"
    return str(path or type(embedder).__name__)


def _text_key(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def embed_texts(
    embedder: Embedder,
    texts: Sequence[str],
    *,
    batch_size: int = 256,
    progress: bool = True,
    cache_path: str | Path | None = None,
) -> np.ndarray:
    """Embed ``texts`` in batches (progress bar on stderr), optionally through an on-disk cache.

    The cache is an ``.npz`` of text SHA-1 digests and vectors tagged with the embedder's name;
    a cache written by another embedder is ignored.
    """
    name = embedder_name(embedder)
    known: dict[str, np.ndarray] = {}
    cache = Path(cache_path) if cache_path else None
    if cache is not None and cache.is_file():
        with np.load(cache, allow_pickle=False) as stored:
            if str(stored["embedder"]) == name:
                known = {str(k): v for k, v in zip(stored["keys"], stored["vectors"], strict=True)}
    keys = [_text_key(t) for t in texts]
    todo = sorted({k: i for i, k in enumerate(keys) if k not in known}.values())
    batches = [todo[i : i + batch_size] for i in range(0, len(todo), batch_size)]
    for batch in _progress(batches, progress, desc="embedding", unit="batch"):
        vectors = embedder.embed([texts[i] for i in batch])
        for i, vector in zip(batch, vectors, strict=True):
            known[keys[i]] = np.asarray(vector, dtype=np.float32)
    if cache is not None and todo:
        cache.parent.mkdir(parents=True, exist_ok=True)
        all_keys = list(known)
        np.savez(
            cache,
            embedder=np.array(name),
            keys=np.array(all_keys, dtype="U40"),
            vectors=np.vstack([known[k] for k in all_keys]).astype(np.float32),
        )
    if not texts:
        return np.zeros((0, int(embedder.dim)), dtype=np.float32)
    return np.vstack([known[k] for k in keys]).astype(np.float32)


def featurize(examples: Sequence[LabelledExample]) -> tuple[list[str], np.ndarray]:
    """Routing texts and the statistics matrix of ``examples``."""
    features = [extract_features(ex.body) for ex in examples]
    return [f.text for f in features], stats_matrix([f.stats for f in features])


def _fit_lr(x: np.ndarray, y: np.ndarray, c: float, max_iter: int) -> Any:
    """Logistic regression on soft labels ``y`` in [0, 1] (fractional rows enter twice, weighted)."""
    from sklearn.linear_model import LogisticRegression

    hard = (y == 0.0) | (y == 1.0)
    soft = ~hard
    xs = np.vstack([x[hard], x[soft], x[soft]])
    ys = np.concatenate([y[hard], np.ones(soft.sum()), np.zeros(soft.sum())])
    ws = np.concatenate([np.ones(hard.sum()), y[soft], 1.0 - y[soft]])
    if len(np.unique(ys[ws > 0])) < 2:
        raise RouterDataError("training labels need both 'large needed' and 'small suffices' examples")
    model = LogisticRegression(C=c, max_iter=max_iter)
    model.fit(xs, ys, sample_weight=ws)
    return model


def _has_both_classes(y: np.ndarray) -> bool:
    return bool(np.any(y > 0.0) and np.any(y < 1.0))


def _expert_of(sources: np.ndarray, config: TrainingConfig, y: np.ndarray) -> np.ndarray:
    """Expert name of every row (its source's expert, or the general one)."""
    counts = Counter(sources.tolist())
    out = np.full(sources.shape, GENERAL_EXPERT, dtype=object)
    for source, _ in config.expert_sources:
        rows = sources == source
        if counts.get(source, 0) >= config.min_expert_rows and _has_both_classes(y[rows]):
            out[rows] = source
    return out


def _fit_mixture(
    embeddings: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    experts_of_rows: np.ndarray,
    config: TrainingConfig,
) -> tuple[dict[str, Any], Any | None, tuple[str, ...]]:
    from sklearn.linear_model import LogisticRegression

    c_of = dict(config.expert_sources)
    names = sorted({str(e) for e in experts_of_rows} - {GENERAL_EXPERT})
    experts = {
        name: _fit_lr(x[experts_of_rows == name], y[experts_of_rows == name], c_of[name], config.max_iter)
        for name in names
    }
    gate_classes = tuple(names)
    if np.any(experts_of_rows == GENERAL_EXPERT) or not names:
        experts[GENERAL_EXPERT] = _fit_lr(x, y, config.general_c, config.max_iter)
        gate_classes += (GENERAL_EXPERT,)
    gate = None
    if len(gate_classes) > 1:
        index = {name: i for i, name in enumerate(gate_classes)}
        targets = np.array([index[str(e)] for e in experts_of_rows])
        gate = LogisticRegression(C=config.gate_c, max_iter=config.max_iter)
        gate.fit(embeddings, targets)
        # the gate's class order is sorted integer labels == gate_classes order
    return experts, gate, gate_classes


def _folds(sources: np.ndarray, groups: np.ndarray, k: int, seed: int,
           grouped_sources: Collection[str] = ("mmlu",)) -> np.ndarray:
    """Fold id of every row: rows of ``grouped_sources`` by group (MMLU: by domain), other rows at random
    (seeded)."""
    rng = np.random.default_rng(seed)
    fold = np.zeros(sources.shape[0], dtype=int)
    grouped = np.isin(sources, list(grouped_sources))
    domains = sorted(set(groups[grouped].tolist()))
    for i, domain in enumerate(rng.permutation(len(domains))):
        fold[grouped & (groups == domains[domain])] = i % k
    rest = np.flatnonzero(~grouped)
    fold[rest[rng.permutation(rest.size)]] = np.arange(rest.size) % k
    return fold


def _platt(scores: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    from sklearn.linear_model import LogisticRegression

    z = np.log(np.clip(scores, 1e-6, 1 - 1e-6) / np.clip(1 - scores, 1e-6, 1)).reshape(-1, 1)
    hard = (y == 0.0) | (y == 1.0)
    soft = ~hard
    zs = np.vstack([z[hard], z[soft], z[soft]])
    ys = np.concatenate([y[hard], np.ones(soft.sum()), np.zeros(soft.sum())])
    ws = np.concatenate([np.ones(hard.sum()), y[soft], 1.0 - y[soft]])
    model = LogisticRegression(C=1e4, max_iter=1000).fit(zs, ys, sample_weight=ws)
    return float(model.coef_[0, 0]), float(model.intercept_[0])


def auroc(y: np.ndarray, p: np.ndarray) -> float | None:
    """Area under the ROC curve of scores ``p`` for labels ``y >= 0.5``; None when one class only."""
    from sklearn.metrics import roc_auc_score

    labels = (y >= 0.5).astype(int)
    if labels.min() == labels.max():
        return None
    return float(roc_auc_score(labels, p))


def fit_classifier(
    embeddings: np.ndarray,
    stats: np.ndarray,
    labels: np.ndarray,
    sources: Sequence[str],
    groups: Sequence[str],
    *,
    config: TrainingConfig | None = None,
    embedder: str = "unknown",
    progress: bool = True,
    training_info: dict[str, Any] | None = None,
    grouped_sources: Collection[str] = ("mmlu",),
) -> DifficultyClassifier:
    """Fit the mixture-of-experts classifier and its out-of-fold Platt calibrator.

    Args:
        embeddings: ``(n, dim)`` embeddings of the routing texts.
        stats: ``(n, len(STAT_NAMES))`` statistics.
        labels: ``(n,)`` targets P(large needed) in [0, 1].
        sources: source of each row (``"mmlu"``, ``"gsm8k"``, ``"mt_bench"``, ``"logs"``...).
        groups: group of each row (MMLU domain) for the calibration folds.
        grouped_sources: sources whose rows are folded by group (a group never straddles two folds); the
            other sources' rows are folded at random.
        config: hyper-parameters.
        embedder: embedder identity stored in the feature spec.
        progress: show a progress bar on stderr.
        training_info: extra summary stored in the artifact.

    Raises:
        RouterDataError: empty data, mismatched shapes, or only one class of label.
    """
    cfg = config or TrainingConfig()
    emb = np.asarray(embeddings, dtype=np.float64)
    st = np.asarray(stats, dtype=np.float64)
    y = np.clip(np.asarray(labels, dtype=np.float64), 0.0, 1.0)
    src = np.asarray(list(sources), dtype=object)
    grp = np.asarray(list(groups), dtype=object)
    n = y.shape[0]
    if n == 0:
        raise RouterDataError("no training examples")
    if not (emb.shape[0] == st.shape[0] == src.shape[0] == grp.shape[0] == n):
        raise RouterDataError("embeddings, stats, labels, sources and groups differ in length")
    if st.shape[1] != len(STAT_NAMES):
        raise RouterDataError(f"stats have {st.shape[1]} columns, expected {len(STAT_NAMES)}")
    if not _has_both_classes(y):
        raise RouterDataError("training labels need both 'large needed' and 'small suffices' examples")

    mean = st.mean(axis=0)
    scale = st.std(axis=0)
    scale[scale < 1e-9] = 1.0
    x = np.hstack([emb, (st - mean) / scale])
    experts_of_rows = _expert_of(src, cfg, y)
    spec = FeatureSpec(FEATURE_VERSION, STAT_NAMES, int(emb.shape[1]), embedder)

    def build(
        rows: np.ndarray, calibrator: tuple[float, float], reference: np.ndarray
    ) -> DifficultyClassifier:
        experts, gate, classes = _fit_mixture(emb[rows], x[rows], y[rows], experts_of_rows[rows], cfg)
        return DifficultyClassifier(
            spec=spec,
            stat_mean=mean,
            stat_scale=scale,
            experts=experts,
            gate=gate,
            gate_classes=classes,
            calibrator=calibrator,
            reference_quantiles=reference,
        )

    identity = (1.0, 0.0)
    flat = np.linspace(0.0, 1.0, 101)
    k = max(2, cfg.calibration_folds) if cfg.calibration_folds > 0 else 0  # 0: uncalibrated (evaluation)
    fold = _folds(src, grp, k, cfg.seed, grouped_sources) if k else np.zeros(n, dtype=int)
    oof = np.full(n, np.nan)
    final: DifficultyClassifier | None = None
    calibrator = identity
    # steps 0..k-1: out-of-fold mixtures for the calibrator; step k: the final fit on every row
    for step in _progress(range(k + 1), progress, desc="training (folds + final)", unit="fit"):
        if step == k:
            done = ~np.isnan(oof)
            if done.sum() >= 20 and _has_both_classes(y[done]):
                calibrator = _platt(oof[done], y[done])
            final = build(np.ones(n, dtype=bool), calibrator, flat)
            break
        train = fold != step
        held = ~train
        if not held.any() or not _has_both_classes(y[train]):
            continue
        try:
            oof[held] = build(train, identity, flat).predict(emb[held], st[held])
        except RouterDataError:
            continue
    assert final is not None
    done = ~np.isnan(oof)
    scores = final.predict(emb, st)
    reference = np.quantile(scores, np.linspace(0.0, 1.0, 101))
    summary: dict[str, Any] = dict(training_info or {})
    per_source: dict[str, Any] = {}
    for source in sorted(set(src.tolist())):
        rows = src == source
        auc = auroc(y[rows & done], oof[rows & done]) if (rows & done).any() else None
        per_source[source] = {
            "rows": int(rows.sum()),
            "mean_label": round(float(y[rows].mean()), 4),
            "oof_auc": None if auc is None else round(auc, 4),
        }
    import sklearn

    summary.update(
        per_source=per_source,
        experts=list(final.gate_classes),
        config={
            "expert_sources": [list(p) for p in cfg.expert_sources],
            "general_c": cfg.general_c,
            "gate_c": cfg.gate_c,
            "min_expert_rows": cfg.min_expert_rows,
            "calibration_folds": k,
            "seed": cfg.seed,
        },
        calibrator=[round(calibrator[0], 6), round(calibrator[1], 6)],
        sklearn_version=sklearn.__version__,
    )
    return DifficultyClassifier(
        spec=spec,
        stat_mean=mean,
        stat_scale=scale,
        experts=final.experts,
        gate=final.gate,
        gate_classes=final.gate_classes,
        calibrator=calibrator,
        reference_quantiles=reference,
        training=summary,
    )


def group_folds(groups: Sequence[str], folds: int, seed: int) -> np.ndarray:
    """Fold index ``(n,)`` of each row: rows of one group (e.g. the same question asked again) share a
    fold, groups are dealt to folds round-robin in a seeded random order."""
    import random

    distinct = sorted(set(groups))
    random.Random(seed).shuffle(distinct)
    fold_of_group = {key: position % folds for position, key in enumerate(distinct)}
    return np.array([fold_of_group[key] for key in groups], dtype=int)


DIRECT_ROUTE_LABEL = "proxy traffic: the small call was of no use (escalated, or a bad answer)"


def fit_direct_route(bodies: Sequence[Mapping[str, Any]], useless: np.ndarray, groups: Sequence[str],
                     embedder: Embedder | None = None, seed: int = 0,
                     folds: int = 5) -> tuple[DifficultyClassifier, np.ndarray]:
    """The combined router's direct route, learned from cascaded traffic: a prompt router fitted on request
    ``bodies`` with ``useless`` ``(n,)`` (1: the small tier's call was of no use, its answer escalated or
    bad) as its "large tier needed" label, on the proxy's own features (routing text embedded by
    ``embedder``, default the installed all-MiniLM-L6-v2, and request statistics). Request kinds the
    cascade nearly always escalates then go straight to the large tier, without the wasted small call.

    Returns the classifier fitted on every row and each row's out-of-fold score ``(n,)``: rows of one of
    ``groups`` (e.g. a question, its repeats and paraphrases) share a fold, here and in the calibration
    folds inside each fit; a fold whose complement holds one class gets that class's rate.

    Raises:
        RouterDataError: ``useless`` holds one class only, or the lengths differ.
    """
    if len(bodies) != len(useless) or len(bodies) != len(groups):
        raise RouterDataError("bodies, labels and groups differ in length")
    labels = np.asarray(useless, dtype=np.float64)
    if not _has_both_classes(labels):
        raise RouterDataError("the direct route needs requests whose small call was of use and some whose was not")
    examples = [LabelledExample(body=body, source="logs", group=str(group), weak=None, strong=None,
                                label=float(label), key=f"logs:{i}")
                for i, (body, label, group) in enumerate(zip(bodies, labels, groups, strict=True))]
    texts, stats = featurize(examples)
    if embedder is None:
        from caches.embedder import SentenceTransformerEmbedder

        embedder = SentenceTransformerEmbedder()
    with single_threaded():
        embeddings = embed_texts(embedder, texts, progress=False)
    group_list = [str(g) for g in groups]
    group_array = np.asarray(group_list, dtype=object)
    fold_of = group_folds(group_list, folds, seed)
    scores = np.empty(len(examples), dtype=np.float64)
    for fold in range(folds):
        held = fold_of == fold
        train = ~held
        if not held.any():
            continue
        try:
            model = fit_classifier(embeddings[train], stats[train], labels[train], ["logs"] * int(train.sum()),
                                   group_array[train], progress=False,
                                   grouped_sources=("logs",))
            scores[held] = model.predict(embeddings[held], stats[held])
        except RouterDataError:  # the other folds hold one class only
            scores[held] = float(labels[train].mean())
    final = fit_classifier(embeddings, stats, labels, ["logs"] * len(examples), group_list,
                           embedder=embedder_name(embedder), progress=False, grouped_sources=("logs",),
                           training_info={"trained_on": DIRECT_ROUTE_LABEL, "rows": len(examples),
                                          "useless": int(labels.sum())})
    return final, scores


def train_router(
    examples: Sequence[LabelledExample],
    embedder: Embedder,
    *,
    config: TrainingConfig | None = None,
    progress: bool = True,
    embedding_cache: str | Path | None = None,
    training_info: dict[str, Any] | None = None,
) -> DifficultyClassifier:
    """Featurize, embed and fit ``examples``; returns the classifier (not yet saved)."""
    if not examples:
        raise RouterDataError("no training examples")
    texts, stats = featurize(examples)
    embeddings = embed_texts(embedder, texts, progress=progress, cache_path=embedding_cache)
    return fit_classifier(
        embeddings,
        stats,
        np.array([ex.label for ex in examples]),
        [ex.source for ex in examples],
        [ex.group for ex in examples],
        config=config,
        embedder=embedder_name(embedder),
        progress=progress,
        training_info=training_info,
    )


def resolve_data_dir(value: str | None) -> Path:
    """``--data-dir`` or, when omitted, ``../shared/data`` relative to the working directory.

    Raises:
        RouterDataError: the folder does not exist.
    """
    path = Path(value) if value else DEFAULT_DATA_DIR
    if not path.is_dir():
        hint = "" if value else " (default ../shared/data relative to the working directory)"
        raise RouterDataError(f"data directory {str(path)!r} not found{hint}; pass --data-dir")
    return path


def load_public_examples(
    data_dir: Path,
    sources: Sequence[str] = PUBLIC_SOURCES,
    *,
    mmlu_domains: Sequence[str] | None = None,
    drop_misgraded: bool = True,
) -> list[LabelledExample]:
    """Labelled public examples of the requested sources (MMLU domains optionally restricted)."""
    unknown = set(sources) - set(PUBLIC_SOURCES)
    if unknown:
        raise RouterDataError(f"unknown sources {sorted(unknown)}; expected some of {PUBLIC_SOURCES}")
    out: list[LabelledExample] = []
    if "mmlu" in sources:
        mmlu = load_mmlu(data_dir, mmlu_domains)
        if drop_misgraded:
            keep = sane_mmlu_domains(mmlu)
            mmlu = [ex for ex in mmlu if ex.group in keep]
        out.extend(mmlu)
    if "gsm8k" in sources:
        out.extend(load_gsm8k(data_dir))
    if "mt_bench" in sources:
        weak, strong = model_pair(data_dir)
        out.extend(load_mt_bench(data_dir, weak, strong))
    return out


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="router.training", description="Train the learned router and write its artifact."
    )
    parser.add_argument("--data-dir", default=None, help="public data folder (default ../shared/data)")
    parser.add_argument(
        "--sources",
        default=",".join(PUBLIC_SOURCES),
        help="comma-separated public sources to train on (mmlu,gsm8k,mt_bench; '' for none)",
    )
    parser.add_argument("--logs", default=None, help="JSONL of logged requests with quality signals")
    parser.add_argument("--out", default="router_artifact.joblib",
                        help="artifact to write (default ./router_artifact.joblib; see docs/routing.md)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the calibration folds")
    parser.add_argument("--embedding-cache", default=None, help="optional .npz cache of embeddings")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    parser.add_argument(
        "--expect",
        default=None,
        help="exit 1 unless the written artifact is byte-identical to this file (another than --out)",
    )
    return parser


def _iter_summary(classifier: DifficultyClassifier) -> Iterator[str]:
    info = classifier.training
    for source, stats in info.get("per_source", {}).items():
        yield (
            f"  {source}: {stats['rows']} rows, mean label {stats['mean_label']:.3f}, "
            f"out-of-fold AUC {stats['oof_auc'] if stats['oof_auc'] is not None else 'n/a'}"
        )
    yield f"  experts: {', '.join(classifier.gate_classes)}; calibrator a,b = {info.get('calibrator')}"


def main(
    argv: Sequence[str] | None = None,
    *,
    embedder: Embedder | None = None,
    out: Callable[[str], None] = print,
) -> int:
    """Train from public data and/or logs, write the artifact; returns the exit code.

    Args:
        argv: command-line arguments (``sys.argv[1:]`` when ``None``).
        embedder: embedder to use (default: the installed all-MiniLM-L6-v2).
        out: where the summary lines go (default ``print``).
    """
    args = _parser().parse_args(argv)
    if args.expect and Path(args.expect).resolve() == Path(args.out).resolve():
        print(f"error: --out and --expect name the same file ({args.out}): the check would compare the artifact "
              "with itself; write it elsewhere (e.g. the default --out router_artifact.joblib)", file=sys.stderr)
        return 2
    sources = [s for s in args.sources.split(",") if s.strip()]
    try:
        examples: list[LabelledExample] = []
        info: dict[str, Any] = {"sources": list(sources)}
        if sources:
            data_dir = resolve_data_dir(args.data_dir)
            examples.extend(load_public_examples(data_dir, sources))
            info["mmlu_domains"] = sorted(
                {ex.group.removeprefix("mmlu/") for ex in examples if ex.source == "mmlu"}
            )
        if args.logs:
            logged, summary = load_logs(Path(args.logs))
            examples.extend(logged)
            info["logs"] = {
                "used": summary.used,
                "skipped_large_tier": summary.skipped_large,
                "skipped_invalid": summary.skipped_invalid,
            }
            out(
                f"logs: {summary.used} small-tier rows used, {summary.skipped_large} large-tier rows "
                f"skipped, {summary.skipped_invalid} invalid rows skipped"
            )
        if not examples:
            raise RouterDataError("nothing to train on: no public sources and no --logs rows")
        if embedder is None:
            from caches.embedder import EmbedderConfig, SentenceTransformerEmbedder

            # float32 whatever the CPU: the shipped artifact must reproduce byte for byte everywhere
            embedder = SentenceTransformerEmbedder(EmbedderConfig(dtype="float32"))
        with single_threaded():  # byte-reproducible artifacts
            classifier = train_router(
                examples,
                embedder,
                config=TrainingConfig(seed=args.seed),
                progress=not args.quiet,
                embedding_cache=args.embedding_cache,
                training_info=info,
            )
    except RouterDataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    path = save_artifact(classifier, args.out)
    out(f"trained on {len(examples)} examples:")
    for line in _iter_summary(classifier):
        out(line)
    out(f"wrote {path} ({path.stat().st_size / 1024:.0f} KiB)")
    if args.expect:
        expected = Path(args.expect)
        same = expected.is_file() and expected.read_bytes() == path.read_bytes()
        out(f"{'identical to' if same else 'DIFFERS from'} {expected} (byte for byte)")
        return 0 if same else 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
