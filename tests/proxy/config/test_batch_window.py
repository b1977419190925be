"""The nightly window with an injected clock (no sleeping)."""

from __future__ import annotations

import io
import json
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openai import OpenAI

from proxy.config.batch_window import BatchWindow, WindowError
from proxy.config.sections import BatchSettings
from proxy.http.app import create_app
from tests.support.servers import ScriptedUpstream, serve_in_thread

PARIS = ZoneInfo("Europe/Paris")


def at(hour: int, minute: int = 0, day: int = 10, month: int = 6) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=PARIS)


def test_always_is_always_open():
    window = BatchWindow.parse("always")
    assert window.always and window.is_open(at(12)) and window.next_open(at(12)) == at(12)


def test_a_daily_range_in_its_time_zone():
    window = BatchWindow.parse("01:00-06:00", "Europe/Paris")
    assert not window.is_open(at(0, 59)) and window.is_open(at(1)) and window.is_open(at(5, 59))
    assert not window.is_open(at(6))  # the end is exclusive
    assert window.next_open(at(6)) == at(1, day=11)
    assert window.next_open(at(0, 30)) == at(1)
    # the same instant written in UTC: 23:30 UTC on the 9th is 01:30 in Paris (summer time)
    assert window.is_open(datetime(2026, 6, 9, 23, 30, tzinfo=UTC))


def test_a_range_across_midnight():
    window = BatchWindow.parse("22:00-04:00", "Europe/Paris")
    assert window.is_open(at(23)) and window.is_open(at(3, 59)) and not window.is_open(at(4))
    assert not window.is_open(at(21, 59))
    assert window.next_open(at(12)) == at(22)


def test_next_open_across_a_daylight_saving_change():
    window = BatchWindow.parse("01:00-02:00", "Europe/Paris")
    before = datetime(2026, 3, 28, 12, 0, tzinfo=PARIS)  # the clocks go forward on the 29th
    opens = window.next_open(before)
    assert opens.astimezone(PARIS).hour == 1 and opens.astimezone(PARIS).day == 29
    assert opens.utcoffset() == timedelta(hours=1)


@pytest.mark.parametrize("text, zone", [("night", ""), ("25:00-03:00", ""), ("01:00-01:00", ""),
                                        ("1-5", ""), ("01:00-06:00", "Not/AZone")])
def test_bad_windows_are_refused_with_a_reason(text, zone):
    with pytest.raises(WindowError):
        BatchWindow.parse(text, zone)


@given(st.integers(0, 23), st.integers(0, 59), st.integers(0, 23), st.integers(0, 59),
       st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2030, 1, 1)))
def test_next_open_is_open_and_never_in_the_past(h1, m1, h2, m2, moment):
    if (h1, m1) == (h2, m2):
        return
    window = BatchWindow.parse(f"{h1:02d}:{m1:02d}-{h2:02d}:{m2:02d}", "UTC")
    now = moment.replace(tzinfo=UTC)
    opens = window.next_open(now)
    assert opens >= now and window.is_open(opens)
    assert opens - now <= timedelta(days=1)


class Clock:
    """A settable clock for the worker."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def test_a_batch_waits_for_its_window_and_urgent_metadata_skips_it(make_settings):
    clock = Clock(datetime(2026, 6, 10, 12, 0, tzinfo=UTC))
    script = ScriptedUpstream(echo=True)
    with serve_in_thread(script) as up:
        settings = replace(make_settings(up), batch=BatchSettings(window="01:00-06:00", timezone="UTC",
                                                                  poll_interval_s=0.02))
        app = create_app(settings, clock=clock)
        with serve_in_thread(app) as proxy:
            client = OpenAI(base_url=proxy + "/v1", api_key="sk-w", max_retries=0)
            body = b"".join(json.dumps({"custom_id": f"n{i}", "method": "POST", "url": "/v1/chat/completions",
                                        "body": {"model": "gpt-test", "messages": [{"role": "user", "content": "x"}]}}
                                       ).encode() + b"\n" for i in range(3))
            file_id = client.files.create(file=("n.jsonl", io.BytesIO(body)), purpose="batch").id
            nightly = client.batches.create(input_file_id=file_id, endpoint="/v1/chat/completions",
                                            completion_window="24h")
            urgent = client.batches.create(input_file_id=file_id, endpoint="/v1/chat/completions",
                                           completion_window="24h", metadata={"thrifty_urgent": "true"})
            deadline = time.monotonic() + 20
            while client.batches.retrieve(urgent.id).status != "completed":
                assert time.monotonic() < deadline
                time.sleep(0.02)
            waiting = client.batches.retrieve(nightly.id)
            assert waiting.status == "in_progress" and waiting.request_counts.completed == 0
            assert len(script.requests) == 3  # only the urgent batch ran
            clock.now = datetime(2026, 6, 11, 1, 0, tzinfo=UTC)  # the window opens
            while client.batches.retrieve(nightly.id).status != "completed":
                assert time.monotonic() < deadline
                time.sleep(0.02)
            assert len(script.requests) == 6


def test_batch_work_yields_to_interactive_traffic(make_settings):
    """While interactive requests are answered (and busy_quiet_s after), only busy_concurrency
    lines per upstream start; with none, concurrency does."""
    import time as clock

    script = ScriptedUpstream(echo=True)
    with serve_in_thread(script) as up:
        settings = replace(make_settings(up), batch=BatchSettings(concurrency=4, busy_concurrency=1,
                                                                  busy_quiet_s=30.0))
        app = create_app(settings)
        worker, pipeline = app.state.thrifty.batches.worker, app.state.thrifty.pipeline
        assert worker._lines_allowed() == 4  # noqa: SLF001 - nothing interactive yet
        with serve_in_thread(app) as proxy:
            OpenAI(base_url=proxy + "/v1", api_key="sk-i", max_retries=0).chat.completions.create(
                model="gpt-test", messages=[{"role": "user", "content": "interactive"}])
            assert worker._lines_allowed() == 1  # noqa: SLF001
            pipeline.interactive_seen = clock.monotonic() - 31.0  # as 31 s later
            assert worker._lines_allowed() == 4  # noqa: SLF001
