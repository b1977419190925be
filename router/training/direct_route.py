"""The combined router's direct route, learned from cascaded traffic (:func:`fit_direct_route`), and the
group-keeping folds its out-of-fold scores come from (:func:`group_folds`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from caches.embedder import Embedder
from router.classifier import DifficultyClassifier
from router.data import LabelledExample
from router.errors import RouterDataError
from router.training.fitting import fit_classifier
from router.training.inputs import embed_texts, embedder_name, featurize
from router.training.mixture import has_both_classes
from router.training.reproducibility import single_threaded

DIRECT_ROUTE_LABEL = "proxy traffic: the small call was of no use (escalated, or a bad answer)"


def group_folds(groups: Sequence[str], folds: int, seed: int) -> np.ndarray:
    """Fold index ``(n,)`` of each row: rows of one group (e.g. the same question asked again) share a
    fold, groups are dealt to folds round-robin in a seeded random order."""
    import random

    distinct = sorted(set(groups))
    random.Random(seed).shuffle(distinct)
    fold_of_group = {key: position % folds for position, key in enumerate(distinct)}
    return np.array([fold_of_group[key] for key in groups], dtype=int)


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
    if not has_both_classes(labels):
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
