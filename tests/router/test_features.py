from __future__ import annotations

import math

import numpy as np
import pytest

from router.features import (
    STAT_NAMES,
    TEXT_HEAD_CHARS,
    TEXT_TAIL_CHARS,
    extract_features,
    prompt_body,
    request_stats,
    routing_text,
    stats_matrix,
)


def _user(text: str) -> dict:
    return prompt_body(text)


def test_vector_matches_names() -> None:
    stats = request_stats(_user("hello there"))
    vector = stats.as_vector()
    assert vector.shape == (len(STAT_NAMES),)
    assert vector.dtype == np.float64
    assert stats_matrix([stats, stats]).shape == (2, len(STAT_NAMES))
    assert stats_matrix([]).shape == (0, len(STAT_NAMES))


def test_lengths_grow_with_text() -> None:
    short = request_stats(_user("hi"))
    long = request_stats(_user("word " * 300))
    assert long.log_last_user_chars > short.log_last_user_chars
    assert long.log_last_user_words > short.log_last_user_words
    assert long.log_total_words >= long.log_last_user_words


def test_code_markers() -> None:
    code = "Fix this:\n```python\ndef f(x):\n    return x + 1;\n```\nclass A {}"
    stats = request_stats(_user(code))
    assert stats.log_code_fences > 0
    assert stats.log_code_tokens > request_stats(_user("Tell me about cats")).log_code_tokens


def test_maths_markers() -> None:
    maths = request_stats(
        _user(r"Solve x^2 + 3x - 4 = 0 and prove that $\frac{1}{2} < 1$; compute the integral.")
    )
    plain = request_stats(_user("Tell me a story about a dog"))
    assert maths.log_math_words > plain.log_math_words
    assert maths.log_latex > 0 and plain.log_latex == 0
    assert maths.log_math_operators > plain.log_math_operators
    assert maths.digit_frac > plain.digit_frac
    assert maths.log_numbers > 0


def test_turns_tools_json_images_and_parts() -> None:
    body = {
        "messages": [
            {"role": "system", "content": "be terse"},
            {"role": "user", "content": "first question"},
            {"role": "assistant", "content": "first answer"},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "what is in this image?"},
                    {"type": "image_url", "image_url": {"url": "data:..."}},
                ],
            },
        ],
        "tools": [{"type": "function", "function": {"name": "f"}}],
        "response_format": {"type": "json_object"},
    }
    stats = request_stats(body)
    assert stats.has_system == 1.0
    assert stats.has_tools == 1.0 and stats.log_n_tools > 0
    assert stats.json_response == 1.0
    assert stats.has_image == 1.0
    assert stats.log_n_messages == pytest.approx(np.log1p(4))
    assert stats.log_n_user_turns == pytest.approx(np.log1p(2))
    text = routing_text(body)
    assert text.startswith("what is in this image?")
    assert "first question" in text  # earlier user turn appended as context
    assert "be terse" not in text and "first answer" not in text


def test_plain_request_has_no_flags() -> None:
    stats = request_stats(_user("hello"))
    assert stats.has_tools == stats.json_response == stats.has_image == stats.has_system == 0.0


def test_long_message_keeps_head_and_tail() -> None:
    text = "HEAD " + "x" * 5000 + " THE QUESTION?"
    routed = routing_text(_user(text))
    assert routed.startswith("HEAD")
    assert routed.endswith("THE QUESTION?")
    assert len(routed) <= TEXT_HEAD_CHARS + TEXT_TAIL_CHARS + 5


def test_legacy_prompt_and_empty_bodies() -> None:
    assert routing_text({"prompt": "complete me"}) == "complete me"
    assert routing_text({}) == ""
    assert extract_features({"messages": []}).text == ""
    with pytest.raises(TypeError):
        extract_features(None)  # type: ignore[arg-type]


def test_stats_scan_a_bounded_prefix_but_count_the_whole_length() -> None:
    """Cost is bounded by SCAN_CHARS per message (the old wall-clock check flaked on a loaded machine)."""
    from router.features import SCAN_CHARS

    padding = "plain words here " * (SCAN_CHARS // 17 + 10)
    stats = request_stats(_user(padding + " solve the integral and prove the theorem"))
    assert stats.log_math_words == 0.0  # beyond the scanned prefix
    assert stats.log_last_user_chars > math.log1p(SCAN_CHARS)  # lengths stay exact
