"""What two prompts do not share, when they share material (generated cases; the cache's use of it is tested in
test_semantic.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from caches.reworded_parts import differing_parts, differing_requests

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


_CODE = "```python\ndef mean(xs):\n    return sum(xs) / len(xs)\n\nprint(mean([]))\n```"


@FAST
@given(st.sampled_from(["Where is the bug in this code?", "Can you find the bug in this code?",
                        "Explain this code:", "Please add type hints to this code."]),
       st.sampled_from(["Why does this crash?", "Could you fix this code?", "Translate the comments:"]),
       st.sampled_from(["I'm learning Python.", "This is from a course."]), st.booleans())
def test_two_requests_about_the_same_material_are_returned_as_written(ask_a, ask_b, context, before) -> None:
    def prompt(ask: str, material: str = _CODE, lead: str = context) -> str:
        return f"{lead} {ask}\n\n{material}" if before else f"{lead}\n\n{material}\n\n{ask}"

    assert differing_requests(prompt(ask_a), prompt(ask_b)) == (ask_a, ask_b)
    # a context sentence that differs is never compared alone; nor is anything beside a changed block
    assert differing_requests(prompt(ask_a), prompt(ask_a, lead="I'm teaching Python.")) is None
    assert differing_requests(prompt(ask_a), prompt(ask_b, material=_CODE.replace("[]", "[1]"))) is None
    # one line of text, or two places that differ: no material set off on lines of its own
    assert differing_requests(f"{context} {ask_a}", f"{context} {ask_b}") is None
    email = "Hi Ana,\nThe invoice is late.\nIt was due in May.\nBest, Bo"
    assert differing_requests(f"{ask_a}\n{email}", f"{ask_b}\n{email.replace('Ana', 'Bo').replace('Bo', 'Ana')}") is None
