"""The UI's query-string parsing: values at the edges of ``datetime`` and Unicode digits are
refused with :class:`BadParameter` (a 400 page), never an OverflowError or ValueError (a 500)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from proxy.ui.params import (
    EARLIEST,
    LATEST,
    BadParameter,
    ascii_int,
    parse_cursor,
    parse_range,
    parse_request_filter,
    parse_time,
)

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize("value", ["0001-01-01T00:00+14:00", "9999-12-31T23:00-14:00", "0001-01-01",
                                   "9999-12-31", "1969-12-31T23:59:59", "9999-01-01"])
def test_parse_time_refuses_times_out_of_range(value):
    with pytest.raises(BadParameter, match="must be between 1970-01-01 and 9998-12-31"):
        parse_time(value, "start")


def test_parse_time_keeps_times_in_range():
    assert parse_time("1970-01-01", "start") == EARLIEST
    assert parse_time("9998-12-31T23:59:59", "end") == LATEST - timedelta(seconds=1)
    assert parse_time("2026-01-31T14:00+02:00", "start") == datetime(2026, 1, 31, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize("query", [{"end": "9999-12-31"}, {"end": "0001-01-01"}, {"start": "0001-01-01T00:00+14:00"},
                                   {"start": "9999-12-31"}, {"start": "0001-01-01", "end": "0001-01-02"},
                                   {"end": "9999-12-31T23:59:59.999999"}])
def test_parse_range_refuses_edges_with_bad_parameter(query):
    with pytest.raises(BadParameter, match="must be between"):
        parse_range(query, NOW)


def test_parse_range_takes_the_last_valid_day():
    rng, preset = parse_range({"start": "9998-12-31", "end": "9998-12-31"}, NOW)
    assert preset == "custom" and rng.end == LATEST and len(rng.bucket_starts()) == 24


@pytest.mark.parametrize("status", ["²", "٢٠٠", "२००", "99999999999999999999999", "1" * 5000, "099x", "-200", "600"])
def test_request_filter_status_must_be_ascii_digits_in_range(status):
    with pytest.raises(BadParameter, match="status must be ok, error or an HTTP status code"):
        parse_request_filter({"status": status})


def test_request_filter_accepts_status_codes_and_words():
    assert parse_request_filter({"status": "429"}).status == "429"
    assert parse_request_filter({"status": "error"}).status == "error"


@pytest.mark.parametrize("query", [{"end": "9999-12-31"}, {"start": "0001-01-01T00:00+14:00"}, {"end": "0001-01-01"}])
def test_request_filter_times_out_of_range_are_bad_parameters(query):
    with pytest.raises(BadParameter, match="must be between"):
        parse_request_filter(query)


def test_request_filter_end_date_covers_its_whole_day():
    assert parse_request_filter({"end": "9998-12-31"}).end == LATEST


def test_cursor_time_out_of_range():
    with pytest.raises(BadParameter, match="before must be between"):
        parse_cursor({"before": "9999-12-31T23:59:59~req-1"})


@pytest.mark.parametrize("value, low, high, expected", [
    ("42", 0, 100, 42), ("0", 0, 0, 0), ("007", 0, 10, 7), ("101", 0, 100, None), ("", 0, 1, None),
    ("²", 0, 9, None), ("٣", 0, 9, None), ("1e3", 0, 9999, None), (" 1", 0, 9, None), ("+1", 0, 9, None),
    ("9" * 33, 0, 10**40, None), (str(2**63 - 1), 0, 2**63 - 1, 2**63 - 1), (str(2**63), 0, 2**63 - 1, None),
])
def test_ascii_int(value, low, high, expected):
    assert ascii_int(value, low, high) == expected
