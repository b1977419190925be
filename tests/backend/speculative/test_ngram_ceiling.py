"""The offline prompt-lookup ceiling: steps counted by hand on short token lists."""

from backend.speculative.ngram import lookup_ceiling


def test_an_answer_that_copies_its_prompt_takes_one_step_per_k_plus_one_tokens():
    prompt = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    output = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]  # the prompt again: after [1, 2] every draft is right
    # step 1 (history ends 1): no bigram match yet ([10, 1] is new) -> 1 token (2)
    # then history ends [1, 2] -> drafts 3 4 5 6 (k=4), all right, +1 -> 5 tokens: position 2 -> 7
    # history ends [6, 7] -> drafts 8 9 (room: 2 tokens left before the last) ... -> 3 tokens: done
    assert lookup_ceiling(prompt, output, k=4) == (9, 3)


def test_an_answer_with_nothing_to_copy_takes_one_step_per_token():
    assert lookup_ceiling([1, 2, 3], [7, 8, 9, 10, 11], k=4) == (4, 4)


def test_a_wrong_draft_still_yields_the_targets_own_token():
    # history [5, 6, 7, 5, 6] -> bigram (5, 6) matched -> drafts [7, ...]; the answer says 9: 0 accepted
    assert lookup_ceiling([5, 6, 7, 5], [6, 9, 1], k=4) == (2, 2)


def test_empty_and_one_token_answers():
    assert lookup_ceiling([1, 2], [], k=4) == (0, 0)
    assert lookup_ceiling([1, 2], [3], k=4) == (0, 0)
