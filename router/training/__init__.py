"""Training the learned router: labelled examples -> features -> embeddings -> classifier artifact.

Command line (``thrifty router train`` wraps :func:`router.training.cli.main`)::

    python -m router.training --data-dir ../shared/data --out router/artifacts/default_router.joblib

reproduces the shipped artifact (fixed seeds; all 46 public MMLU domains except mis-graded ones,
all GSM8K prompts, MT-Bench). ``--logs FILE`` adds the proxy's own logged requests (labels: see
:mod:`router.data`).

Modules, each owning one step (import from them; this package re-exports nothing):

* :mod:`router.training.public_data`: the public training sources and their data folder.
* :mod:`router.training.inputs`: routing texts, request statistics and (cached) embeddings of examples.
* :mod:`router.training.config`: :class:`~router.training.config.TrainingConfig`, the hyper-parameters.
* :mod:`router.training.mixture`: the mixture of experts (experts and gate) on soft labels.
* :mod:`router.training.calibration`: calibration folds and the Platt calibrator.
* :mod:`router.training.fitting`: the calibrated classifier and its training summary.
* :mod:`router.training.direct_route`: the combined router's direct route, learned from cascaded traffic.
* :mod:`router.training.reproducibility`: one thread, for byte-identical artifacts.
* :mod:`router.training.progress`: progress bars on stderr.
* :mod:`router.training.cli`: the command line, which writes the artifact (and checks it with ``--expect``).
"""
