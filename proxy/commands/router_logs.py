"""``thrifty router export-logs``: routed requests joined with their quality signals, as the JSONL
that ``thrifty router train --logs`` reads.

One output line per routed request (``request_log.route`` set, status < 400) whose body was kept
(``[router] store_requests``, table ``router_request``) and that has at least one feedback row
from the same caller (``feedback.key_id == request_log.key_id``, so one tenant cannot label
another's requests)::

    {"request": {...}, "served_tier": "small", "score": 0.0, "request_id": "...", "feedback": "user"}

Quality ``score`` in [0, 1]: the latest explicit ``POST /v1/feedback`` score when there is one
(a person's judgement outranks a format check), otherwise the lowest automatic check score (e.g.
``json_check``: any invalid JSON answer counts as a failure).
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TextIO, TypeVar

from sqlalchemy import and_, select
from sqlalchemy.ext.asyncio import AsyncEngine

from proxy.masking import mask_text, mask_url
from proxy.storage.database_url import DatabaseUrlError, require_existing_sqlite
from proxy.storage.db import Feedback, RequestLog, RouterRequest, create_engine

USER_SOURCE = "user"
_T = TypeVar("_T")
_RELATIVE = re.compile(r"^(\d+)\s*([smhdw])$")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


class ExportError(RuntimeError):
    """The export cannot run (bad option, unreachable database, schema not migrated)."""


@dataclass(frozen=True, slots=True)
class ExportSummary:
    """What an export wrote."""

    requests: int  # routed requests with a stored body and feedback
    lines: int
    small: int
    large: int
    from_user: int
    from_checks: int


def parse_since(value: str | None, now: datetime | None = None) -> datetime | None:
    """``--since``: an ISO 8601 date/time (UTC unless it says otherwise) or an age like ``7d``/``12h``.

    Raises:
        ExportError: neither form.
    """
    if value is None or not value.strip():
        return None
    text = value.strip()
    match = _RELATIVE.match(text)
    if match:
        return (now or datetime.now(UTC)) - timedelta(**{_UNITS[match.group(2)]: int(match.group(1))})
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ExportError(f"--since {value!r}: expected an ISO date/time (2026-11-30, 2026-11-30T12:00) "
                          "or an age such as 30m, 12h, 7d, 2w") from None
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


def combine_feedback(signals: list[tuple[float, str, datetime]]) -> tuple[float, str]:
    """(quality, source) from a request's ``(score, source, created_at)`` feedback rows."""
    users = [s for s in signals if s[1] == USER_SOURCE]
    if users:
        score, _, _ = max(users, key=lambda s: s[2])
        return float(score), USER_SOURCE
    worst = min(signals, key=lambda s: s[0])
    return float(worst[0]), worst[1]


def _query(since: datetime | None):
    query = (
        select(RequestLog.id, RequestLog.route, RouterRequest.request, Feedback.score, Feedback.source,
               Feedback.created_at)
        .join(RouterRequest, RouterRequest.request_id == RequestLog.id)
        .join(Feedback, and_(Feedback.request_id == RequestLog.id, Feedback.key_id == RequestLog.key_id))
        .where(RequestLog.route.is_not(None), RequestLog.status_code < 400)
        .order_by(RequestLog.created_at, RequestLog.id, Feedback.id)
    )
    return query.where(RequestLog.created_at >= since) if since is not None else query


async def _grouped(engine: AsyncEngine, query) -> AsyncIterator[tuple[tuple, list[tuple[float, str, datetime]]]]:
    """``(leading columns, feedback rows)`` per request, streamed from the database: ``query`` selects the
    request id first and ``Feedback.score, source, created_at`` last, ordered by request."""
    current: tuple | None = None
    signals: list[tuple[float, str, datetime]] = []
    async with engine.connect() as conn:
        result = await conn.stream(query.execution_options(yield_per=500))
        async for row in result:
            head, (score, source, created) = tuple(row[:-3]), row[-3:]
            if current is not None and current[0] != head[0]:
                yield current, signals
                signals = []
            current = head
            signals.append((score, source, created))
    if current is not None:
        yield current, signals


def _cannot_read(exc: Exception, unmigrated: tuple[str, ...]) -> ExportError:
    """A database error as :class:`ExportError`, pointing at the migrations when one of ``unmigrated``
    (what the drivers say of a table or column the query needs but the schema lacks) appears in it."""
    text = mask_text(str(exc).splitlines()[0]) if str(exc) else type(exc).__name__
    hint = "; apply the migrations with `thrifty db upgrade`" if any(m in text for m in unmigrated) else ""
    return ExportError(f"cannot read the request log: {type(exc).__name__}: {text}{hint}")


async def export_logs(engine: AsyncEngine, out: TextIO, since: datetime | None = None,
                      progress: Callable[[int], None] | None = None) -> ExportSummary:
    """Write one JSONL line per routed request with a stored body and feedback; returns counts.

    Raises:
        ExportError: the database cannot be read (unreachable, or the schema is not migrated).
    """
    counts = {"requests": 0, "lines": 0, "small": 0, "large": 0, "user": 0, "checks": 0}
    try:
        async for (request_id, tier, body), signals in _grouped(engine, _query(since)):
            counts["requests"] += 1
            try:
                request = json.loads(body)
            except ValueError:
                continue  # cannot happen for rows the proxy wrote; skip rather than fail the export
            score, source = combine_feedback(signals)
            line = {"request": request, "served_tier": tier, "score": min(max(score, 0.0), 1.0),
                    "request_id": request_id, "feedback": source}
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
            counts["lines"] += 1
            counts["small" if tier == "small" else "large"] += 1
            counts["user" if source == USER_SOURCE else "checks"] += 1
            if progress is not None and counts["lines"] % 1000 == 0:
                progress(counts["lines"])
    except Exception as exc:  # noqa: BLE001 - driver errors differ per database; all mean "cannot read"
        raise _cannot_read(exc, ("router_request", "no such table", "does not exist")) from exc
    return ExportSummary(counts["requests"], counts["lines"], counts["small"], counts["large"], counts["user"],
                         counts["checks"])


def run_export(database_url: str, out_path: str, since: str | None = None,
               report: Callable[[str], None] | None = None) -> ExportSummary:
    """Export from ``database_url`` into ``out_path`` (``-`` for stdout); progress lines go to ``report``.

    Raises:
        ExportError: bad ``since``, unreadable database, or an unwritable output file.
    """
    say = report or (lambda line: print(line, file=sys.stderr))
    moment = parse_since(since)
    engine = open_existing(database_url)
    say(f"exporting routed requests with feedback from {mask_url(database_url)}"
        + (f" since {moment.isoformat()}" if moment else ""))

    async def run(handle: TextIO) -> ExportSummary:
        try:
            return await export_logs(engine, handle, moment, progress=lambda n: say(f"  {n} lines written..."))
        finally:
            await engine.dispose()

    if out_path == "-":
        summary = asyncio.run(run(sys.stdout))
    else:
        target = Path(out_path)
        tmp = target.with_name(target.name + ".tmp")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            with tmp.open("w", encoding="utf-8") as handle:
                summary = asyncio.run(run(handle))
            tmp.replace(target)
        except OSError as exc:
            raise ExportError(f"cannot write {target}: {exc}") from exc
        finally:
            tmp.unlink(missing_ok=True)
    say(f"wrote {summary.lines} lines to {out_path} ({summary.small} small-tier, {summary.large} large-tier; "
        f"quality from user feedback {summary.from_user}, from automatic checks {summary.from_checks})")
    if summary.lines == 0:
        say("nothing to export: routed requests need [router] store_requests = true and feedback "
            "(POST /v1/feedback or an automatic check) to appear here")
    elif summary.small == 0:
        say("note: router training learns only from small-tier rows; this export has none")
    return summary



# --- escalation retraining: the small tier's answers with their quality ----------------------------

SMALL_CHECK_PREFIX = "small_"  # feedback sources that judge a cascade's dropped small answer
_SERVED_SMALL = ("accepted", "escalation_failed")  # the caller got the small answer: its feedback judges it


@dataclass(frozen=True, slots=True)
class SmallAnswerExample:
    """One judged small-tier answer of a cascaded request: what escalation training learns from."""

    request: dict
    answer: str
    quality: float  # 0 = bad ... 1 = good
    source: str  # "user" or the automatic check
    outcome: str  # the cascade's decision at the time: accepted | escalated | escalation_failed
    request_id: str = ""  # the request log's id (the x-request-id the client saw)


@dataclass(frozen=True, slots=True)
class SmallAnswerSummary:
    """What :func:`read_small_answers` found."""

    cascaded: int  # cascaded requests with a stored small answer and some feedback
    examples: int  # ... whose small answer was judged
    unjudged_escalated: int  # escalated requests with feedback on the large answer only (skipped)


def small_answer_quality(outcome: str, signals: list[tuple[float, str, datetime]]) -> tuple[float, str] | None:
    """The quality of a cascade's small answer from its request's feedback rows, or None when no row
    judges it: a served small answer (accepted, or kept after the large tier failed) is judged by all
    of them (:func:`combine_feedback`); a dropped one (escalated) only by ``small_*`` checks, since
    the caller's feedback then judges the large tier's answer."""
    if outcome in _SERVED_SMALL:
        return combine_feedback(signals)
    own = [s for s in signals if s[1].startswith(SMALL_CHECK_PREFIX)]
    if not own:
        return None
    worst = min(own, key=lambda s: s[0])
    return float(worst[0]), worst[1]


def _cascade_query(since: datetime | None, *columns, feedback_optional: bool = False):
    """Cascaded requests with a stored body and small answer (their id, cascade outcome, body, then
    ``columns``) joined with their caller's feedback rows (outer join when ``feedback_optional``: one row of
    NULLs for a request without feedback), ordered by request."""
    same_caller = and_(Feedback.request_id == RequestLog.id, Feedback.key_id == RequestLog.key_id)
    query = (select(RequestLog.id, RequestLog.cascade_outcome, RouterRequest.request, *columns,
                    Feedback.score, Feedback.source, Feedback.created_at)
             .join(RouterRequest, RouterRequest.request_id == RequestLog.id))
    query = query.outerjoin(Feedback, same_caller) if feedback_optional else query.join(Feedback, same_caller)
    query = (query.where(RouterRequest.small_answer.is_not(None), RequestLog.cascade_outcome.is_not(None),
                         RequestLog.status_code < 400)
             .order_by(RequestLog.created_at, RequestLog.id, Feedback.id))
    return query.where(RequestLog.created_at >= since) if since is not None else query


async def read_small_answers(engine: AsyncEngine, since: datetime | None = None
                             ) -> tuple[list[SmallAnswerExample], SmallAnswerSummary]:
    """Every judged small answer of a cascaded request (``[router] store_requests`` on), oldest first.

    Raises:
        ExportError: the database cannot be read (unreachable, or the schema is not migrated).
    """
    examples: list[SmallAnswerExample] = []
    cascaded = unjudged = 0
    try:
        query = _cascade_query(since, RouterRequest.small_answer)
        async for (request_id, outcome, body, answer), signals in _grouped(engine, query):
            cascaded += 1
            judged = small_answer_quality(outcome, signals)
            if judged is None:
                unjudged += 1
                continue
            try:
                request = json.loads(body)
            except ValueError:
                continue  # cannot happen for rows the proxy wrote
            examples.append(SmallAnswerExample(request, answer, min(max(judged[0], 0.0), 1.0), judged[1], outcome,
                                               request_id))
    except Exception as exc:  # noqa: BLE001 - driver errors differ per database; all mean "cannot read"
        raise _cannot_read(exc, ("small_answer", "no such", "does not exist")) from exc
    return examples, SmallAnswerSummary(cascaded, len(examples), unjudged)


def load_small_answers(database_url: str, since: str | None = None
                       ) -> tuple[list[SmallAnswerExample], SmallAnswerSummary]:
    """:func:`read_small_answers` from ``database_url`` (``since``: as ``--since`` of the export).

    Raises:
        ExportError: bad ``since`` or an unreadable database.
    """
    return _read(database_url, since, read_small_answers)


@dataclass(frozen=True, slots=True)
class CascadedRequest:
    """One cascaded request as the direct route learns from it (:func:`read_cascaded_requests`)."""

    request: dict
    outcome: str  # accepted | escalated | escalation_failed
    quality: float | None  # the small answer's judged quality, None when nothing judged it

    @property
    def small_call_of_no_use(self) -> bool:
        """The small tier's answer was escalated, or judged bad (below 0.5)."""
        return self.outcome == "escalated" or (self.quality is not None and self.quality < 0.5)


async def read_cascaded_requests(engine: AsyncEngine, since: datetime | None = None) -> list[CascadedRequest]:
    """Every cascaded request whose body and small answer were kept (``[router] store_requests``), oldest
    first, with the cascade's decision and the small answer's judged quality when feedback or a check
    judged it (as :func:`small_answer_quality`). Feedback is not needed: the decision alone says whether
    the small call was escalated. A request without a small answer is left out: its small call failed
    (an outage must not teach the direct route that the small tier is of no use) or an earlier
    escalation's cached answer served it.

    Raises:
        ExportError: the database cannot be read (unreachable, or the schema is not migrated).
    """
    out: list[CascadedRequest] = []
    try:
        async for (_, outcome, body), signals in _grouped(engine, _cascade_query(since, feedback_optional=True)):
            judged_by = [s for s in signals if s[0] is not None]  # the outer join's row when none
            judged = small_answer_quality(outcome, judged_by) if judged_by else None
            try:
                request = json.loads(body)
            except ValueError:
                continue  # cannot happen for rows the proxy wrote
            quality = None if judged is None else min(max(judged[0], 0.0), 1.0)
            out.append(CascadedRequest(request, outcome, quality))
    except Exception as exc:  # noqa: BLE001 - driver errors differ per database; all mean "cannot read"
        raise _cannot_read(exc, ("router_request", "no such", "does not exist")) from exc
    return out


def load_cascaded_requests(database_url: str, since: str | None = None) -> list[CascadedRequest]:
    """:func:`read_cascaded_requests` from ``database_url`` (``since``: as ``--since`` of the export).

    Raises:
        ExportError: bad ``since`` or an unreadable database.
    """
    return _read(database_url, since, read_cascaded_requests)


def open_existing(database_url: str) -> AsyncEngine:
    """An engine for a database that must already exist: reading never creates an empty SQLite file.

    Raises:
        ExportError: a URL that cannot be used (see :func:`proxy.storage.database_url.async_database_url`; a plain
            ``sqlite:///`` or ``postgresql://`` URL is given its async driver) or a SQLite file that does not exist.
    """
    try:
        require_existing_sqlite(database_url)
        return create_engine(database_url)
    except DatabaseUrlError as exc:
        raise ExportError(str(exc)) from None


def _read(database_url: str, since: str | None, reader: Callable[[AsyncEngine, datetime | None], Awaitable[_T]]) -> _T:
    """Run ``reader`` on a fresh engine for ``database_url`` with ``since`` parsed, and dispose of it.

    Raises:
        ExportError: bad ``since``, a URL that is not an async SQLAlchemy URL, a SQLite file that does not
            exist (reading must not create one), or an unreadable database.
    """
    moment = parse_since(since)
    engine = open_existing(database_url)

    async def run() -> _T:
        try:
            return await reader(engine, moment)
        finally:
            await engine.dispose()

    return asyncio.run(run())
