"""Robustness of the router evaluation: the same protocol over several seeded splits.

One domain split is one random draw of 14 test domains; how lucky the draw is moves APGR by more
than the differences between routers. :func:`evaluate_seeds` repeats the protocol of
:mod:`benchmarks.router.evaluation` for split seeds ``0..n-1``: for every seed the learned router is refitted
on that seed's training domains / rows only (uncalibrated: the Platt calibrator is monotone, so
rankings and therefore APGR/CPT do not depend on it), and the random, heuristic and learned
routers are scored on that seed's held-out domains / rows.

Two variants of the MMLU data are reported, decided a priori and independent of router scores:

* **rule applied**: MMLU domains whose strong-model accuracy is below chance (25 %) are treated as
  mis-graded and excluded from training *and* evaluation (in the public files this is
  ``high_school_mathematics``, strong 3 %);
* **no rule**: every domain is used for training and evaluation.

Embeddings and statistics are computed once for every row; a seed costs one or two classifier fits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from router.data import LabelledExample
from router.features import extract_features
from router.heuristic import heuristic_score
from router.metrics import GRID_SHARES, curve_summary, optimal_curve, routing_curve
from router.training.config import TrainingConfig
from router.training.fitting import fit_classifier
from router.training.progress import progress_bar

ROUTERS: tuple[str, ...] = ("random", "heuristic", "learned", "oracle")


@dataclass(frozen=True, slots=True)
class Pool:
    """Every labelled row with its features, computed once."""

    examples: tuple[LabelledExample, ...]
    embeddings: np.ndarray  # (n, dim)
    stats: np.ndarray  # (n, n_stats)
    heuristic: np.ndarray  # (n,) heuristic scores

    @classmethod
    def build(cls, examples: Sequence[LabelledExample], embeddings: np.ndarray) -> Pool:
        """Statistics and heuristic scores of ``examples`` (``embeddings`` in the same order)."""
        features = [extract_features(ex.body) for ex in examples]
        stats = np.vstack([f.stats.as_vector() for f in features])
        heuristic = np.array([heuristic_score(f.stats) for f in features], dtype=np.float64)
        return cls(tuple(examples), np.asarray(embeddings, dtype=np.float64), stats, heuristic)

    def column(self, name: str) -> np.ndarray:
        """``source`` / ``group`` / ``weak`` / ``strong`` / ``label`` of every row."""
        return np.array([getattr(ex, name) for ex in self.examples])


@dataclass(frozen=True, slots=True)
class SeedScore:
    """One router on one test set of one split seed."""

    seed: int
    test_set: str
    router: str
    apgr: float
    cpt50: float
    cpt80: float
    pgr: tuple[float, ...]  # PGR at GRID_SHARES


def _scores(name: str, router: str, rows: np.ndarray, pool: Pool, learned: np.ndarray, seed: int,
            weak: np.ndarray, strong: np.ndarray) -> SeedScore:
    if router == "oracle":
        curve = optimal_curve(weak, strong)
    else:
        if router == "random":
            scores = np.random.default_rng(seed).random(rows.size)
        elif router == "heuristic":
            scores = pool.heuristic[rows]
        else:
            scores = learned
        curve = routing_curve(scores, weak, strong)
    return SeedScore(seed, name, router, *curve_summary(curve))


def _fit_and_score(pool: Pool, train: np.ndarray, test: np.ndarray, config: TrainingConfig) -> np.ndarray:
    source, group = pool.column("source"), pool.column("group")
    model = fit_classifier(pool.embeddings[train], pool.stats[train], pool.column("label")[train].astype(float),
                           source[train].tolist(), group[train].tolist(), config=config, progress=False)
    return model.predict(pool.embeddings[test], pool.stats[test])


def evaluate_seeds(
    pool: Pool,
    misgraded: set[str],
    split: Callable[[int], tuple[list[str], list[int], list[int]]],
    seeds: Sequence[int],
    *,
    config: TrainingConfig | None = None,
    progress: bool = True,
) -> list[SeedScore]:
    """Scores of every router on every seed's held-out sets.

    Args:
        pool: all MMLU, GSM8K and MT-Bench rows with features.
        misgraded: MMLU domains the data-quality rule excludes.
        split: ``seed -> (test domains, GSM8K train row numbers, GSM8K test row numbers)``, row
            numbers counting GSM8K rows in pool order.
        seeds: split seeds.
        config: training hyper-parameters (calibration is switched off).
        progress: a progress bar on stderr.
    """
    cfg = replace(config or TrainingConfig(), calibration_folds=0)
    source, group = pool.column("source"), pool.column("group")
    domain = np.array([g.removeprefix("mmlu/") for g in group])
    weak, strong = pool.column("weak").astype(float), pool.column("strong").astype(float)
    gsm = np.flatnonzero(source == "gsm8k")
    mt = source == "mt_bench"
    out: list[SeedScore] = []
    for seed in progress_bar(list(seeds), progress, desc="split seeds", unit="seed"):
        test_domains, gsm_train, gsm_test = split(seed)
        is_test_domain = np.isin(domain, list(test_domains)) & (source == "mmlu")
        is_train_domain = (source == "mmlu") & ~is_test_domain
        sane = ~np.isin(domain, list(misgraded))
        gsm_train_mask = np.zeros(len(pool.examples), dtype=bool)
        gsm_train_mask[gsm[gsm_train]] = True
        for variant, keep in (("rule applied", sane), ("no rule", np.ones_like(sane))):
            train = np.flatnonzero((is_train_domain & keep) | gsm_train_mask | mt)
            mmlu_test = np.flatnonzero(is_test_domain & keep)
            tests = {f"MMLU held-out domains, {variant}": mmlu_test}
            if variant == "rule applied":
                tests["GSM8K held-out rows"] = gsm[gsm_test]
            tests = {name: rows for name, rows in tests.items() if rows.size}  # e.g. only mis-graded ones
            if not tests:
                continue
            all_test = np.concatenate(list(tests.values()))
            learned = _fit_and_score(pool, train, all_test, cfg)
            start = 0
            for name, rows in tests.items():
                scores = learned[start : start + rows.size]
                start += rows.size
                for router in ROUTERS:
                    out.append(_scores(name, router, rows, pool, scores, seed, weak[rows], strong[rows]))
    return out


def _mean_sd(values: Sequence[float]) -> str:
    v = np.asarray(values, dtype=np.float64)
    return f"{v.mean():.3f} ± {v.std(ddof=1) if v.size > 1 else 0.0:.3f}"


def _pct_mean_sd(values: Sequence[float]) -> str:
    v = np.asarray(values, dtype=np.float64) * 100
    return f"{v.mean():.1f}% ± {v.std(ddof=1) if v.size > 1 else 0.0:.1f}"


def format_seeds(results: Sequence[SeedScore]) -> str:
    """Markdown: mean ± sd (over seeds) of APGR / CPT per test set and router, then the mean curves."""
    sets = list(dict.fromkeys(r.test_set for r in results))
    seeds = sorted({r.seed for r in results})
    lines = [
        f"### Over {len(seeds)} seeded splits (seeds {seeds[0]}..{seeds[-1]}): mean ± sd",
        "",
        "| test set | router | APGR | CPT(50%) | CPT(80%) | APGR > random's (seeds) |",
        "|---|---|---|---|---|---|",
    ]
    for name in sets:
        rows = [r for r in results if r.test_set == name]
        random_apgr = {r.seed: r.apgr for r in rows if r.router == "random"}
        for router in ROUTERS:
            mine = [r for r in rows if r.router == router]
            wins = sum(r.apgr > random_apgr[r.seed] for r in mine)
            lines.append(
                f"| {name} | {router} | {_mean_sd([r.apgr for r in mine])} | {_pct_mean_sd([r.cpt50 for r in mine])} "
                f"| {_pct_mean_sd([r.cpt80 for r in mine])} | {'-' if router == 'random' else f'{wins}/{len(mine)}'} |"
            )
    for name in sets:
        rows = [r for r in results if r.test_set == name]
        lines += ["", f"Cost-quality curve, {name}: PGR (mean ± sd over seeds) at each share of large-model calls",
                  "", "| large-model calls | " + " | ".join(ROUTERS) + " |", "|---" * (1 + len(ROUTERS)) + "|"]
        for i, share in enumerate(GRID_SHARES):
            cells = [_mean_sd([r.pgr[i] for r in rows if r.router == router]) for router in ROUTERS]
            lines.append(f"| {share * 100:.0f}% | " + " | ".join(cells) + " |")
    return "\n".join(lines)
