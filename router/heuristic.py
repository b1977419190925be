"""A hand-written difficulty score from the cheap request statistics (no training, no embedding).

It encodes the usual rules of thumb (longer prompts, maths, code, reasoning verbs, multi-turn,
tools and structured output make a request harder) with fixed weights chosen by hand, never
fitted to the benchmark data. It is the baseline the learned router has to beat, and the fallback
when no artifact is wanted.
"""

from __future__ import annotations

import math

from router.features import RequestStats

_LOG_TYPICAL_WORDS = math.log1p(40.0)


def heuristic_score(stats: RequestStats) -> float:
    """Hand-weighted difficulty score in (0, 1); higher means the large tier is more likely needed."""
    z = -1.0
    z += 0.35 * (stats.log_last_user_words - _LOG_TYPICAL_WORDS)
    z += 0.25 * (stats.log_total_words - stats.log_last_user_words)  # earlier context
    z += 0.6 * stats.log_math_words + 0.4 * stats.log_math_operators + 0.5 * stats.log_latex
    z += 1.5 * min(stats.digit_frac, 0.3)
    z += 0.4 * stats.log_code_tokens + 0.5 * stats.log_code_fences
    z += 0.5 * stats.log_reasoning_words + 0.2 * stats.log_constraint_words
    z += 0.2 * stats.log_negation_words
    z += 0.4 * stats.has_tools + 0.3 * stats.json_response + 0.3 * stats.has_image
    z += 0.3 * max(stats.log_n_user_turns - math.log1p(1.0), 0.0)
    z += 0.5 * (stats.long_word_frac - 0.1)
    return 1.0 / (1.0 + math.exp(-z))
