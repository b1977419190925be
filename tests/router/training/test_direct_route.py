"""The direct route learned from cascaded traffic, and its group-keeping folds."""

from __future__ import annotations

import numpy as np
import pytest

from router.errors import RouterDataError
from router.features import extract_features, stats_matrix
from router.training.direct_route import DIRECT_ROUTE_LABEL, fit_direct_route, group_folds


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
