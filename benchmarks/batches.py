"""The benchmarks' one Batches API client: :class:`proxy.batch.cli.BatchClient` (the one ``thrifty batch``
uses), with the two steps a benchmark repeats: submit request lines as a job, read a result file back."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from jsonl_text import jsonl_lines
from proxy.batch.cli import BatchClient


def submit_lines(api: BatchClient, lines: Sequence[dict[str, Any]], endpoint: str = "/v1/chat/completions",
                 filename: str = "batch.jsonl") -> str:
    """Upload ``lines`` (batch input objects: custom_id, method, url, body) as one JSONL file and create
    a batch job over it; returns the job's id. Raises :class:`proxy.batch.cli.CLIError` when the server refuses."""
    payload = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines).encode("utf-8")
    file_id = api.upload_content(payload, filename)["id"]
    return api.create(file_id, endpoint, {})["id"]


def result_items(api: BatchClient, file_id: str) -> list[dict[str, Any]]:
    """The objects of a job's output or error file (split by :mod:`jsonl_text`)."""
    return [json.loads(line) for _, line in jsonl_lines(api.read(file_id))]
