"""Layout in a real browser (Debian's Chromium driven by Playwright): a prompt of one long unbroken
word wraps inside the page instead of making it millions of pixels wide."""

from __future__ import annotations

import httpx
from playwright.sync_api import sync_playwright

from tests.proxy.ui.conftest import ADMIN_KEY
from tests.proxy.ui.test_browser import CHROMIUM, CHROMIUM_ARGS
from tests.support.request_log import wait_for_log_rows

WIDTH = 1360


def test_a_long_unbroken_prompt_wraps_within_the_page(ui_proxy):
    content = "z" * 50_000 + " " + "https://example.com/" + "q" * 5_000
    answered = httpx.post(f"{ui_proxy.url}/v1/chat/completions", timeout=60,
                          json={"model": "thrifty-auto", "messages": [{"role": "user", "content": content}]})
    assert answered.status_code == 200
    wait_for_log_rows(ui_proxy.db_path, "id", 1)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": WIDTH, "height": 900})
            page.set_default_timeout(15_000)
            page.goto(f"{ui_proxy.url}/ui/login")
            page.fill("input[name=api_key]", ADMIN_KEY)
            page.click("button[type=submit]")
            page.wait_for_url("**/ui/overview")
            page.goto(f"{ui_proxy.url}/ui/requests/{answered.headers['x-request-id']}")
            widths = page.evaluate("""() => ({doc: document.documentElement.scrollWidth,
                                              pre: document.querySelector('#prompt pre').scrollWidth})""")
            clipped = page.inner_text("#prompt-clipped")
        finally:
            browser.close()
    assert widths["doc"] <= WIDTH and widths["pre"] <= WIDTH, widths
    assert "more characters" in clipped
