"""Credentials in URLs never reach a UI page: the masker, the settings rows, and the rendered
Upstreams and Settings pages with upstream URLs that carry a password or a query-string key."""

from __future__ import annotations

from dataclasses import replace

import httpx
import pytest

from proxy.config.replica_names import expand_replicas
from proxy.config.sections import UpstreamConfig
from proxy.http.app import create_app
from proxy.ui.masking import MASK, mask_text, mask_url, mask_value
from proxy.ui.settings_view import masked_settings
from tests.proxy.ui.conftest import ui_settings
from tests.proxy.ui.test_routes import login
from tests.support.servers import ScriptedUpstream, serve_in_thread

SECRETS = ("upw-SECRET", "bu-SECRET", "QS-SECRET", "SIG-SECRET", "TOK-SECRET")


@pytest.mark.parametrize("url, shown", [
    ("http://alice:upw-SECRET@127.0.0.1:8001/v1", f"http://alice:{MASK}@127.0.0.1:8001/v1"),
    ("http://:upw-SECRET@h/v1", f"http://:{MASK}@h/v1"),
    ("http://u:p%40ss:w@h/", f"http://u:{MASK}@h/"),  # a password with a colon and an escaped @
    ("http://u:p@ss@h/", f"http://u:{MASK}@h/"),  # an unescaped @ in the password
    ("http://u:p@[::1]:8000/v1", f"http://u:{MASK}@[::1]:8000/v1"),  # the IPv6 host kept as written
    ("http://u:p@host:notaport/v1", f"http://u:{MASK}@host:notaport/v1"),
    ("https://x.openai.azure.com/openai?api-key=QS-SECRET&api-version=2024-02-01",
     f"https://x.openai.azure.com/openai?api-key={MASK}&api-version=2024-02-01"),
    ("https://h/?API_KEY=a&apiKey=b&Token=c&access_token=d&client_secret=e&password=f&sig=g&signature=h"
     "&code=i&auth=j&Authorization=k&X-Amz-Credential=l&keep=m",
     f"https://h/?API_KEY={MASK}&apiKey={MASK}&Token={MASK}&access_token={MASK}&client_secret={MASK}"
     f"&password={MASK}&sig={MASK}&signature={MASK}&code={MASK}&auth={MASK}&Authorization={MASK}"
     f"&X-Amz-Credential={MASK}&keep=m"),
    ("https://h/?api%2Dkey=x;token=y", f"https://h/?api%2Dkey={MASK};token={MASK}"),
    ("https://h/cb#access_token=TOK-SECRET&state=1", f"https://h/cb#access_token={MASK}&state=1"),
    ("https://h/?key=", "https://h/?key="),  # nothing to hide
    ("http://bob@h/v1", "http://bob@h/v1"),  # a user name alone is kept
    ("http://127.0.0.1:8001/v1", "http://127.0.0.1:8001/v1"),
    ("sqlite+aiosqlite:////data/thrifty.db", "sqlite+aiosqlite:////data/thrifty.db"),
    ("http://[::1", MASK),  # unparseable: hidden whole
])
def test_mask_url(url, shown):
    assert mask_url(url) == shown


def test_mask_text_finds_urls_inside_messages():
    text = "ConnectError: http://u:upw-SECRET@h/v1 and (https://h2/v1?api-key=QS-SECRET), no url here"
    masked = mask_text(text)
    assert "SECRET" not in masked
    assert masked == f"ConnectError: http://u:{MASK}@h/v1 and (https://h2/v1?api-key={MASK}), no url here"
    assert mask_text("plain words, 3:4 odds") == "plain words, 3:4 odds"


def test_mask_value_reaches_into_lists_tuples_and_dicts():
    value = {"base_urls": ["http://bob:bu-SECRET@h/v1", "http://h/v1?api-key=QS-SECRET"],
             "nested": ({"url": "https://h/?sig=SIG-SECRET"},), "x-api-key": "TOK-SECRET", "n": 3}
    masked = mask_value(value)
    assert not any(s in repr(masked) for s in SECRETS)
    assert masked["base_urls"] == [f"http://bob:{MASK}@h/v1", f"http://h/v1?api-key={MASK}"]
    assert masked["nested"] == ({"url": f"https://h/?sig={MASK}"},)
    assert masked["x-api-key"] == MASK and masked["n"] == 3


def test_settings_rows_mask_urls_in_lists_and_plain_values(tmp_path):
    settings = ui_settings("http://127.0.0.1:9", tmp_path, semantic=False)
    replicas = UpstreamConfig("replicas", base_urls=["http://bob:bu-SECRET@h:1/v1", "http://h:2/v1?api-key=QS-SECRET"])
    settings = replace(settings, upstreams=(*settings.upstreams, *expand_replicas([replicas])),
                       auth=replace(settings.auth, redis_url="redis://:TOK-SECRET@redis:6379/0"))
    rows = [(section, k, v) for section, items in masked_settings(settings) for k, v in items]
    shown = repr(rows)
    assert not any(s in shown for s in SECRETS)
    assert ("auth", "redis_url", f"redis://:{MASK}@redis:6379/0") in rows
    base_urls = [v for section, k, v in rows if section == "upstreams" and k.endswith("base_urls") and v != "[]"]
    assert base_urls and all(f"bob:{MASK}@h:1" in v and f"api-key={MASK}" in v for v in base_urls)


def test_upstreams_and_settings_pages_never_show_url_credentials(tmp_path):
    script = ScriptedUpstream()
    with serve_in_thread(script) as up:
        host = up.removeprefix("http://")
        settings = ui_settings(up, tmp_path, semantic=False)
        secret_urls = (UpstreamConfig("userinfo", f"http://alice:upw-SECRET@{host}/v1"),
                       UpstreamConfig("azure", f"http://{host}/v1?api-version=2024-02-01&sig=SIG-SECRET"),
                       *expand_replicas([UpstreamConfig("replicas", base_urls=[
                           f"http://bob:bu-SECRET@{host}/v1", f"http://{host}/v1?api-key=QS-SECRET"])]))
        settings = replace(settings, upstreams=(*settings.upstreams, *secret_urls))
        with serve_in_thread(create_app(settings)) as url, httpx.Client(base_url=url) as client:
            login(client)
            upstreams = client.get("/ui/upstreams")
            settings_page = client.get("/ui/settings")
    assert upstreams.status_code == 200 and settings_page.status_code == 200
    for page in (upstreams.text, settings_page.text):
        for secret in SECRETS:
            assert secret not in page
        assert f"api-key={MASK}" in page and f"sig={MASK}" in page and "api-version=2024-02-01" in page
    assert f"alice:{MASK}@{host}/v1" in upstreams.text and f"bob:{MASK}@{host}/v1" in upstreams.text
    assert f"alice:{MASK}@{host}/v1" in settings_page.text and f"bob:{MASK}@{host}/v1" in settings_page.text
