"""The nightly window: when batch lines may run.

A window is ``"always"`` or a daily range of local wall-clock times, ``"HH:MM-HH:MM"``, in an IANA
time zone; a range whose end is before its start crosses midnight (``"22:00-06:00"``). The clock
is passed in, so the logic is tested without sleeping.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

_RANGE = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*$")


class WindowError(ValueError):
    """A window or time zone that cannot be used."""


@dataclass(frozen=True, slots=True)
class BatchWindow:
    """When batch lines may start: always, or between ``start`` and ``end`` local time each day."""

    start: time | None = None  # None: always open
    end: time | None = None
    zone: tzinfo | None = None  # None: the machine's local zone

    @classmethod
    def parse(cls, text: str, timezone: str = "") -> BatchWindow:
        """``"always"`` or ``"HH:MM-HH:MM"``; ``timezone`` an IANA name (empty: local time)."""
        zone: tzinfo | None = None
        if timezone:
            try:
                zone = ZoneInfo(timezone)
            except (ZoneInfoNotFoundError, ValueError):
                raise WindowError(f"timezone {timezone!r} is not an IANA time zone name (e.g. 'Europe/Paris')") from None
        if text.strip().lower() == "always":
            return cls(zone=zone)
        match = _RANGE.match(text)
        if not match:
            raise WindowError(f"window must be 'always' or a daily range 'HH:MM-HH:MM', got {text!r}")
        h1, m1, h2, m2 = (int(g) for g in match.groups())
        if not (0 <= h1 <= 23 and 0 <= h2 <= 24 and 0 <= m1 <= 59 and 0 <= m2 <= 59) or (h2 == 24 and m2):
            raise WindowError(f"window {text!r} has an impossible time of day")
        start, end = time(h1, m1), (time(0, 0) if h2 == 24 else time(h2, m2))
        if start == end:
            raise WindowError(f"window {text!r} is empty (start equals end); use 'always' for no window")
        return cls(start, end, zone)

    @property
    def always(self) -> bool:
        return self.start is None

    def _local(self, now: datetime) -> datetime:
        return now.astimezone(self.zone) if self.zone is not None else now.astimezone()

    def is_open(self, now: datetime) -> bool:
        """Whether lines may start at ``now`` (an aware datetime)."""
        if self.start is None or self.end is None:
            return True
        t = self._local(now).timetz().replace(tzinfo=None)
        if self.start < self.end:
            return self.start <= t < self.end
        return t >= self.start or t < self.end  # crosses midnight

    def next_open(self, now: datetime) -> datetime:
        """``now`` when open, else the next moment the window opens (aware, in ``now``'s zone)."""
        if self.is_open(now):
            return now
        assert self.start is not None
        local = self._local(now)
        candidate = local.replace(hour=self.start.hour, minute=self.start.minute, second=0, microsecond=0)
        if candidate <= local:
            # aware arithmetic within one ZoneInfo is wall-clock arithmetic: DST days stay right
            candidate = (local + timedelta(days=1)).replace(hour=self.start.hour, minute=self.start.minute,
                                                            second=0, microsecond=0)
        return candidate.astimezone(now.tzinfo)

    def describe(self) -> str:
        if self.start is None or self.end is None:
            return "always"
        zone = getattr(self.zone, "key", None) or "local time"
        return f"{self.start:%H:%M}-{self.end:%H:%M} {zone}"
