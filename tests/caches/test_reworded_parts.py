"""What two prompts do not share, when they share material (generated cases; the cache's use of it is tested in
test_semantic.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from caches.reworded_parts import differing_parts

FAST = settings(max_examples=60, deadline=None, derandomize=True)
_SENTENCES = st.lists(st.text("abcdefgh ", min_size=8, max_size=30).filter(lambda s: s.strip()), min_size=1,
                      max_size=4, unique=True)


@FAST
@given(_SENTENCES, st.sampled_from(["Explain this script", "Summarize this log"]),
       st.sampled_from(["Add a comment to each line", "Translate this into French"]),
       st.sampled_from(["```\nx = 1\nprint(x)\n```", "Dear Ann,\nThe invoice is late.\nBest, Bo"]))
def test_only_what_each_text_says_alone_is_returned(context, ask_a, ask_b, material) -> None:
    lead = ". ".join(context) + "."
    a, b = f"{lead} {ask_a}:\n\n{material}", f"{lead} {ask_b}:\n\n{material}"
    parts = differing_parts(a, b)
    assert parts == (ask_a.casefold(), ask_b.casefold())
    assert differing_parts(a, a + "\nThanks!") is None  # one text only adds: verification's business
    assert differing_parts(f"{ask_a}.", f"{ask_b}.") is None  # nothing shared: the whole texts are compared
