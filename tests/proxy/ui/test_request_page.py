"""The request detail page: a huge stored prompt is cut to a bounded prefix with a note of what was
left out, and measured floats are rounded."""

from __future__ import annotations

import re

import httpx

from proxy.ui.pages import MAX_PROMPT_CHARS, ShownMessage, clip_prompt
from tests.proxy.ui.test_routes import login
from tests.support.request_log import wait_for_log_rows

PROMPT_CHARS = 300_000
TAIL = "TAIL-MARKER"


def test_clip_prompt_keeps_a_prefix_of_all_messages_and_counts_the_rest():
    messages = [("system", "s" * 10), ("user", "u" * 30), ("assistant", "a" * 5), ("user", "b" * 7)]
    shown = clip_prompt(messages, budget=25)
    assert shown.messages == [ShownMessage("system", "s" * 10), ShownMessage("user", "u" * 15, 15)]
    assert (shown.hidden_messages, shown.hidden_chars, shown.omitted_chars) == (2, 12, 27)
    whole = clip_prompt(messages, budget=52)
    assert [m.text for m in whole.messages] == [t for _, t in messages] and whole.omitted_chars == 0
    assert sum(len(m.text) for m in clip_prompt([("user", "x" * 10**6)] * 50).messages) == MAX_PROMPT_CHARS


def test_a_huge_prompt_is_shown_as_a_bounded_prefix_with_rounded_numbers(ui_proxy):
    content = "y" * (PROMPT_CHARS - len(TAIL)) + TAIL  # one unbroken word
    answered = httpx.post(f"{ui_proxy.url}/v1/chat/completions", timeout=60,
                          json={"model": "thrifty-auto", "messages": [{"role": "user", "content": content}]})
    assert answered.status_code == 200, answered.text
    wait_for_log_rows(ui_proxy.db_path, "id", 1)
    with httpx.Client(base_url=ui_proxy.url) as client:
        login(client)
        page = client.get(f"/ui/requests/{answered.headers['x-request-id']}")
    assert page.status_code == 200
    html = page.text
    assert len(html) < MAX_PROMPT_CHARS + 20_000  # the page, not the 300,000-character prompt
    assert TAIL not in html
    shown = re.search(r'<pre>(y+)</pre>', html)
    assert shown and len(shown.group(1)) == MAX_PROMPT_CHARS
    omitted = f"{PROMPT_CHARS - MAX_PROMPT_CHARS:,}"
    assert 'id="prompt-clipped"' in html and f"{omitted} more characters" in html
    # measured floats are rounded: latency to 0.1 ms, the route score to 3 decimals
    latency = re.search(r"<th>latency ms</th><td>([^<]*)</td>", html).group(1)
    score = re.search(r"<th>route score</th><td>([^<]*)</td>", html).group(1)
    assert re.fullmatch(r"[\d,]+\.\d", latency), latency
    assert re.fullmatch(r"\d\.\d{3}", score), score
