"""Prompt shaping: make requests that mean the same thing share a byte-identical prefix, so that
provider and engine prefix caches hit.

What it changes (and only this):

- **Canonical forms**: ``tools`` and ``response_format`` are rebuilt with sorted object keys and
  tools in a stable order (by function name; unnamed ones keep their place after the named ones).
  In ``safe`` mode a JSON schema's ``properties`` keep the caller's order (providers generate
  structured output in that order); ``aggressive`` sorts them too.
- **Volatile spans**: dates, times, UUIDs, long hex ids and request/trace/session ids found in the
  leading system (or developer) message move into a short note at the end of that message, after
  its stable part. ``safe``: only lines the text marks as context (``Current date: ...``,
  ``Request ID = ...``) move, whole; ``aggressive``: every detected span is replaced by a
  reference (``[v1]``) and its value listed in the note.
- **Document order**: documents the caller marks as unordered through the request's ``thrifty``
  extension object are sorted by their text (see :func:`order_documents`).

It never reorders turns, never touches a user, assistant or tool message's text other than the
documents the caller marked, and never adds or removes a tool.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from typing import Any

from proxy.wire.errors import InvalidRequest

NOTE_HEADER = "Context for this request:"

_MONTHS = (r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|Jun(?:e)?|Jul(?:y)?|Aug(?:ust)?|"
           r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)")
_WEEKDAYS = r"(?:Mon|Tues?|Wed(?:nes)?|Thu(?:rs)?|Fri|Sat(?:ur)?|Sun)(?:day)?"
_TIME = r"\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[ \t]?[AaPp]\.?[Mm]\.?)?(?:[ \t]?(?:Z|UTC|GMT|[+-]\d{2}:?\d{2}))?"
#: Detected volatile spans, most specific first (one alternation, so spans never overlap).
VOLATILE_SPAN = re.compile(
    "|".join((
        r"\b\d{4}-\d{2}-\d{2}(?:[T ]" + _TIME + r")?",  # ISO date / datetime
        r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b",  # UUID
        r"\b(?:" + _WEEKDAYS + r",?[ \t]+)?(?:\d{1,2}[ \t]+" + _MONTHS + r"\.?|" + _MONTHS + r"\.?[ \t]+\d{1,2}(?:st|nd|rd|th)?)"
        r",?[ \t]+\d{4}(?:,?[ \t]+(?:at[ \t]+)?" + _TIME + r")?",  # 1 May 2024 / May 1st, 2024 [10:00]
        r"\b\d{1,2}/\d{1,2}/\d{2,4}(?:,?[ \t]+" + _TIME + r")?",  # 05/01/2024
        r"\b" + _TIME + r"(?![\d:])",  # 10:42, 10:42:07 PM UTC
        r"\b(?:req|request|trace|span|session|sess|msg|run|call|chatcmpl|conv)[-_][A-Za-z0-9-]{6,}\b",  # prefixed ids
        r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{16,}\b",  # long hex ids
        r"\b1[5-9]\d{8}(?:\d{3})?\b",  # unix timestamps (s or ms), 2017-2033
    )),
    re.IGNORECASE,
)
#: The label of a line that marks its value as per-request context (``Current date: ...``,
#: ``Today is ...``, ``Request ID = ...``, ``Last login: ...``, ``Session: ...``), matched after
#: lower-casing and collapsing runs of spaces, ``_`` and ``-`` to one space.
CONTEXT_LABEL = re.compile(
    r"(?:the )?(?:current |today'?s? |now |local |server |request |session |trace |user |conversation |run |"
    r"last updated )?(?:date (?:and |& )?time|datetime|date|time ?stamp|time|today|now|(?:request |session |trace |"
    r"conversation |thread |run |correlation |user )?id)"
    r"|session|conversation|thread|(?:last |latest )?(?:login|log in|seen|active|activity|sign in|visit)"
    r"|(?:generated|rendered|fetched|retrieved|sent) (?:at|on)|as of")
_LABEL_END = re.compile(r"[:=]|\bis\b", re.IGNORECASE)
_LABEL_MAX_CHARS = 48
#: Words a context value may carry besides its volatile spans (``Tuesday, 2026-12-02 at 14:03 UTC``).
_VALUE_FILLER = re.compile(r"\b(?:" + _WEEKDAYS + r"|utc|gmt|at|on|the|of|local|server|time|zone|timezone)\b",
                           re.IGNORECASE)
#: What else a context value may hold: time-zone names (``Europe/Paris``, ``CET``, ``UTC+1``) and punctuation.
_VALUE_EXTRA = re.compile(r"[A-Z][A-Za-z]+/[A-Za-z_]+(?:/[A-Za-z_]+)?|\b[A-Z]{2,5}\b|[+-]\d{1,2}(?::?\d{2})?|[\s,.()\[\]-]+")


def is_context_line(line: str) -> bool:
    """True for a ``<label>: <value>`` line whose label is about time or identity and whose value is
    a volatile span and nothing else but weekday and time-zone words (``Tuesday``, ``UTC``,
    ``(Europe/Paris)``) and punctuation. So ``Today is 2026-12-02 and you must answer in French`` is
    *not* context (moving it would move an instruction), nor is ``Current date: 2026-12-02, be
    brief``. Linear in the line's length."""
    end = _LABEL_END.search(line, 0, _LABEL_MAX_CHARS + 4)
    if end is None:
        return False
    label = re.sub(r"[\s_-]+", " ", line[:end.start()].lower()).strip(" *-")
    if CONTEXT_LABEL.fullmatch(label) is None:
        return False
    value = line[end.end():]
    if VOLATILE_SPAN.search(value) is None:
        return False
    rest = _VALUE_FILLER.sub(" ", VOLATILE_SPAN.sub(" ", value))
    return not _VALUE_EXTRA.sub("", rest).strip()


def shape_prompt(data: dict[str, Any], *, aggressive: bool, note_position: str = "system",
                 marks: list[DocumentMark] | None = None) -> list[str]:
    """Shape a chat request body in place (nested values replaced, not mutated); returns the
    actions taken (e.g. ``["tools-canonical", "volatile-moved:1"]``). ``note_position``: where the
    volatile spans go (see :func:`move_volatile_spans`). ``marks``: the body's document marks when
    the caller has already checked them (:func:`document_marks`)."""
    actions: list[str] = []
    tools = data.get("tools")
    if isinstance(tools, list) and tools:
        canonical = canonical_tools(tools, sort_properties=aggressive)
        if canonical != tools or _key_orders(canonical) != _key_orders(tools):
            actions.append("tools-canonical")
        data["tools"] = canonical
    response_format = data.get("response_format")
    if isinstance(response_format, dict):
        canonical_format = canonical_json_value(response_format, sort_properties=aggressive)
        if _key_orders(canonical_format) != _key_orders(response_format):
            actions.append("response-format-canonical")
        data["response_format"] = canonical_format
    if isinstance(data.get("messages"), list):
        ordered = order_documents(data, marks)  # first: the caller's indexes name the caller's messages
        if ordered:
            actions.append(f"documents-ordered:{ordered}")
        moved = move_volatile_spans(data["messages"], aggressive=aggressive, position=note_position)
        if moved:
            data["messages"] = moved[0]
            actions.append(f"volatile-moved:{moved[1]}")
    return actions


# --- canonical forms -----------------------------------------------------------------------------

def canonical_json_value(value: Any, *, sort_properties: bool, _in_properties: bool = False) -> Any:
    """``value`` with every object's keys sorted, except the member order of a JSON schema's
    ``properties`` object unless ``sort_properties``. Lists keep their order."""
    if isinstance(value, dict):
        keys = list(value) if _in_properties and not sort_properties else sorted(value, key=str)
        return {k: canonical_json_value(value[k], sort_properties=sort_properties,
                                        _in_properties=k == "properties" and isinstance(value[k], dict)
                                        and not _in_properties)
                for k in keys}
    if isinstance(value, list):
        return [canonical_json_value(v, sort_properties=sort_properties) for v in value]
    return value


def _tool_name(tool: Any) -> str | None:
    if isinstance(tool, dict):
        function = tool.get("function")
        name = function.get("name") if isinstance(function, dict) else tool.get("name")
        if isinstance(name, str):
            return name
    return None


def canonical_tools(tools: list[Any], *, sort_properties: bool) -> list[Any]:
    """Tools with canonical key order, sorted by function name (a stable sort: tools without a
    name, which the upstream will refuse anyway, keep their relative order at the end)."""
    canonical = [canonical_json_value(t, sort_properties=sort_properties) for t in tools]
    named = sorted((t for t in canonical if _tool_name(t) is not None), key=lambda t: _tool_name(t) or "")
    return named + [t for t in canonical if _tool_name(t) is None]


def _key_orders(value: Any) -> Any:
    """A structure that differs whenever any object's key order differs (``==`` on dicts ignores it)."""
    if isinstance(value, dict):
        return [(k, _key_orders(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [_key_orders(v) for v in value]
    return value


# --- volatile spans ------------------------------------------------------------------------------

def split_volatile(text: str, *, aggressive: bool) -> tuple[str, list[str]]:
    """``(stable text, note lines)``: the marked context lines (safe) or every detected span
    (aggressive, replaced by ``[vN]`` references) taken out of ``text``."""
    if not aggressive:
        lines = text.split("\n")
        notes = [line.strip() for line in lines if is_context_line(line)]
        if not notes:
            return text, []
        return "\n".join(line for line in lines if not is_context_line(line)).rstrip(), notes
    values: list[str] = []

    def reference(match: re.Match[str]) -> str:
        values.append(match.group(0))
        return f"[v{len(values)}]"

    stable = VOLATILE_SPAN.sub(reference, text)
    return stable, [f"[v{i}] = {v}" for i, v in enumerate(values, 1)]


def move_volatile_spans(messages: list[Any], *, aggressive: bool,
                        position: str = "system") -> tuple[list[Any], int] | None:
    """Messages with the leading system/developer message's volatile spans moved into a note;
    ``None`` when nothing moved. ``position``: ``"system"`` puts the note at the end of that
    message, after its stable part; ``"end"`` puts it in a system message after the last message,
    so the whole conversation before it is a stable prefix (more prefix-cache hits in multi-turn
    and RAG traffic, but some chat templates accept a system message only first). Only a
    plain-string (or single text part) content is shaped; other messages stay the same objects."""
    if not messages or not isinstance(messages[0], dict) or messages[0].get("role") not in ("system", "developer"):
        return None
    first = messages[0]
    content = first.get("content")
    single_part = (isinstance(content, list) and len(content) == 1 and isinstance(content[0], dict)
                   and content[0].get("type") == "text" and isinstance(content[0].get("text"), str))
    text = content[0]["text"] if single_part else content
    if not isinstance(text, str) or NOTE_HEADER in text:
        return None  # already shaped (a caller replaying our output) or not text
    stable, notes = split_volatile(text, aggressive=aggressive)
    if not notes or not stable.strip():
        return None  # nothing volatile, or nothing stable to protect (never leave an empty system message)
    note = f"{NOTE_HEADER}\n" + "\n".join(notes)
    shaped = stable if position == "end" else f"{stable}\n\n{note}"
    new_content: Any = [{**content[0], "text": shaped}] if single_part else shaped
    tail = [{"role": "system", "content": note}] if position == "end" else []
    return [{**first, "content": new_content}, *messages[1:], *tail], len(notes)


# --- document order ------------------------------------------------------------------------------

#: what the request's ``thrifty`` object may hold: ``documents`` (here) and ``cache`` (caches.policy)
EXTENSION_KEYS = ("cache", "documents")


@dataclass(frozen=True, slots=True)
class DocumentMark:
    """One list of unordered documents: in message ``message``, content parts ``parts`` (a
    ``[start, end)`` range) or the pieces of its string content split by ``separator``."""

    message: int
    parts: tuple[int, int] | None = None
    separator: str | None = None


def document_marks(data: dict[str, Any], *, chat: bool) -> list[DocumentMark]:
    """The request's ``thrifty`` extension checked against the caller's own messages (whatever the
    shaping mode, so a malformed mark is refused the same way under every policy).

    Raises:
        InvalidRequest: ``thrifty`` not an object or with an unknown field; ``documents`` on an endpoint
            without chat messages; a mark naming no message, a range outside it, both or neither of
            ``parts`` and ``separator``, or two marks that overlap on one message.
    """
    ext = data.get("thrifty")
    if ext is None:  # absent, or null as some clients send unset optional fields
        return []
    if not isinstance(ext, dict):
        raise InvalidRequest("'thrifty' must be an object, e.g. {\"documents\": [...]}", param="thrifty")
    unknown = sorted(set(ext) - set(EXTENSION_KEYS))
    if unknown:
        raise InvalidRequest(f"'thrifty' has unknown field(s) {', '.join(map(repr, unknown))}; known: "
                             f"{', '.join(EXTENSION_KEYS)}", param="thrifty")
    marks = ext.get("documents")
    if marks is None:
        return []
    messages = data.get("messages")
    if not chat or not isinstance(messages, list):
        raise InvalidRequest("'thrifty.documents' marks documents in chat messages; this request has none "
                             "(use /v1/chat/completions)", param="thrifty.documents")
    if not isinstance(marks, list):
        raise InvalidRequest("'thrifty.documents' must be a list of {message, parts | separator} objects",
                             param="thrifty.documents")
    out: list[DocumentMark] = []
    for j, mark in enumerate(marks):
        where = f"thrifty.documents[{j}]"
        index = mark.get("message") if isinstance(mark, dict) else None
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(messages) \
                or not isinstance(messages[index], dict):
            raise InvalidRequest(f"'{where}.message' must be the index of a message (0 to {len(messages) - 1})",
                                 param=where)
        if ("parts" in mark) == ("separator" in mark):
            raise InvalidRequest(f"'{where}' needs exactly one of 'parts': [start, end] or a non-empty 'separator'",
                                 param=where)
        content = messages[index].get("content")
        if "parts" in mark:
            span = mark["parts"]
            if not (isinstance(content, list) and isinstance(span, list) and len(span) == 2
                    and all(isinstance(v, int) and not isinstance(v, bool) for v in span)
                    and 0 <= span[0] <= span[1] <= len(content)):
                raise InvalidRequest(f"'{where}.parts' must be [start, end] within message {index}'s list of "
                                     "content parts", param=where)
            out.append(DocumentMark(index, parts=(span[0], span[1])))
        else:
            if not isinstance(mark["separator"], str) or not mark["separator"]:
                raise InvalidRequest(f"'{where}.separator' must be a non-empty string", param=where)
            if not isinstance(content, str):
                raise InvalidRequest(f"'{where}.separator' needs message {index} to have a string content",
                                     param=where)
            out.append(DocumentMark(index, separator=mark["separator"]))
    _refuse_overlaps(out)
    return out


def _refuse_overlaps(marks: list[DocumentMark]) -> None:
    """A 400 when two marks overlap on one message (a separator mark takes the whole message; part
    ranges may sit side by side). Sorted per message, so linear-logarithmic in the marks."""
    whole = (-1, sys.maxsize)
    spans = sorted((m.message, *(m.parts or whole), j) for j, m in enumerate(marks))
    reach, reach_mark, message = -1, -1, -1  # furthest end so far on ``message`` and the mark that set it
    for index, start, end, j in spans:
        if index != message:
            reach, reach_mark, message = -1, -1, index
        elif start < reach:
            where = f"thrifty.documents[{max(j, reach_mark)}]"
            raise InvalidRequest(f"'{where}' overlaps an earlier mark on message {index}; give each document "
                                 "list once", param=where)
        if end > reach:
            reach, reach_mark = end, j


def order_documents(data: dict[str, Any], marks: list[DocumentMark] | None = None) -> int:
    """Sort the documents the caller marked as unordered; returns how many were ordered.

    The mark is ``"thrifty": {"documents": [{"message": i, "parts": [start, end]}]}`` for a message
    whose content is a list of parts (parts ``start`` to ``end - 1`` are documents), or
    ``{"message": i, "separator": "\\n\\n"}`` for a string content made only of documents joined by
    the separator. Documents are sorted by their text; each keeps its exact content. A malformed
    mark is a 400 that says what to fix (:func:`document_marks`, unless ``marks`` holds its result).
    """
    marks = document_marks(data, chat=True) if marks is None else marks
    if not marks:
        return 0
    messages = list(data["messages"])
    count = 0
    for mark in marks:
        message = messages[mark.message]
        content = message["content"]
        if mark.parts is not None:
            start, end = mark.parts
            documents = sorted(content[start:end], key=_part_sort_key)
            messages[mark.message] = {**message, "content": [*content[:start], *documents, *content[end:]]}
            count += end - start
        else:
            assert mark.separator is not None
            documents = content.split(mark.separator)
            messages[mark.message] = {**message, "content": mark.separator.join(sorted(documents))}
            count += len(documents)
    data["messages"] = messages
    return count


def _part_sort_key(part: Any) -> str:
    if isinstance(part, dict) and isinstance(part.get("text"), str):
        return part["text"]
    return repr(part)
