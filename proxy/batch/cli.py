"""``thrifty batch …``: submit, watch, cancel and download batch jobs of a running proxy over its
OpenAI Files and Batches API (any OpenAI-compatible server with that API works too)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from proxy.config.settings import client_defaults
from proxy.wire.errors import error_message

FINAL = ("completed", "failed", "expired", "cancelled")


class CLIError(Exception):
    """A failure to report as one line (exit 1)."""


class BatchClient:
    """The few Files/Batches calls the CLI makes."""

    def __init__(self, base_url: str, api_key: str, timeout: float = 600.0,
                 transport: httpx.BaseTransport | None = None) -> None:
        """``base_url``: the API root (``.../v1``); ``transport``: another httpx transport (tests)."""
        self._http = httpx.Client(base_url=base_url.rstrip("/"), timeout=timeout, headers=_auth_headers(api_key),
                                  transport=transport)

    def _call(self, method: str, path: str, **kwargs) -> httpx.Response:
        try:
            response = self._http.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            raise CLIError(f"cannot reach {self._http.base_url}: {exc}") from None
        if response.status_code >= 400:
            try:
                payload = response.json()
            except ValueError:  # not JSON: the text says what happened
                payload = response.text[:500]
            message = error_message(payload, response.status_code)
            raise CLIError(f"{method} {path} failed with status {response.status_code}: {message}")
        return response

    def upload(self, path: Path) -> dict[str, Any]:
        with path.open("rb") as handle:
            return self.upload_content(handle, path.name)

    def upload_content(self, content: Any, filename: str = "batch.jsonl") -> dict[str, Any]:
        """Upload JSONL ``content`` (bytes or a binary file) as a ``batch`` file; the file object."""
        return self._call("POST", "/files", data={"purpose": "batch"},
                          files={"file": (filename, content, "application/jsonl")}).json()

    def create(self, file_id: str, endpoint: str, metadata: dict[str, str]) -> dict[str, Any]:
        return self._call("POST", "/batches", json={"input_file_id": file_id, "endpoint": endpoint,
                                                    "completion_window": "24h", "metadata": metadata or None}).json()

    def get(self, batch_id: str) -> dict[str, Any]:
        return self._call("GET", f"/batches/{batch_id}").json()

    def list(self, limit: int) -> list[dict[str, Any]]:
        return self._call("GET", "/batches", params={"limit": limit}).json()["data"]

    def cancel(self, batch_id: str) -> dict[str, Any]:
        return self._call("POST", f"/batches/{batch_id}/cancel").json()

    def read(self, file_id: str) -> bytes:
        """A file's content."""
        return self._call("GET", f"/files/{file_id}/content").content

    def content(self, file_id: str, out: Path) -> int:
        data = self.read(file_id)
        out.write_bytes(data)
        return data.count(b"\n")


def _auth_headers(api_key: str) -> dict[str, str]:
    """``Authorization: Bearer <key>``, or no header at all without a key (a proxy in ``open``
    auth mode takes such calls; an empty bearer token is not a valid header value)."""
    api_key = (api_key or "").strip()
    return {"authorization": f"Bearer {api_key}"} if api_key else {}


def _summary(batch: dict[str, Any]) -> str:
    counts = batch["request_counts"]
    return (f"{batch['id']}  {batch['status']:<11} {counts['completed']}/{counts['total']} done, "
            f"{counts['failed']} failed  endpoint {batch['endpoint']}")


def _errors(batch: dict[str, Any]) -> str:
    data = (batch.get("errors") or {}).get("data") or []
    lines = [f"  line {e.get('line') or '-'}: {e.get('code')}: {e.get('message')}" for e in data[:20]]
    if len(data) > 20:
        lines.append(f"  ... and {len(data) - 20} more")
    return "\n".join(lines)


def wait(client: BatchClient, batch_id: str, poll_s: float = 1.0) -> dict[str, Any]:
    """Poll until the batch is final, with a progress bar on stderr."""
    from tqdm import tqdm

    batch = client.get(batch_id)
    with tqdm(total=batch["request_counts"]["total"] or None, unit="line", desc=batch_id[:18], file=sys.stderr,
              dynamic_ncols=True) as bar:
        while True:
            counts = batch["request_counts"]
            if counts["total"] and bar.total != counts["total"]:
                bar.reset(total=counts["total"])
            bar.n = counts["completed"] + counts["failed"]
            bar.set_postfix_str(f"{batch['status']}, {counts['failed']} failed")
            bar.refresh()
            if batch["status"] in FINAL:
                return batch
            time.sleep(poll_s)
            batch = client.get(batch_id)


def download(client: BatchClient, batch: dict[str, Any], out: Path | None) -> list[str]:
    """Write the output (and error) file; returns what was written, for the user."""
    written = []
    output = out or Path(f"{batch['id']}_output.jsonl")
    if batch.get("output_file_id"):
        written.append(f"{client.content(batch['output_file_id'], output)} answers -> {output}")
    if batch.get("error_file_id"):
        errors = output.with_name(output.stem.removesuffix("_output") + "_error.jsonl")
        written.append(f"{client.content(batch['error_file_id'], errors)} errors -> {errors}")
    if not written:
        written.append(f"batch {batch['id']} is {batch['status']} and has no output file yet")
    return written


def build_parser() -> argparse.ArgumentParser:
    base_url, api_key = client_defaults()
    parser = argparse.ArgumentParser(prog="thrifty batch", description=__doc__)
    parser.add_argument("--base-url", default=base_url, help=f"the proxy's /v1 URL (default {base_url}; "
                        "THRIFTY_BASE_URL)")
    parser.add_argument("--api-key", default=api_key, help="API key (default: OPENAI_API_KEY)")
    sub = parser.add_subparsers(dest="command", required=True)
    submit = sub.add_parser("submit", help="upload a JSONL file and create a batch")
    submit.add_argument("file", type=Path)
    submit.add_argument("--endpoint", default="/v1/chat/completions",
                        choices=("/v1/chat/completions", "/v1/completions"))
    submit.add_argument("--wait", action="store_true", help="show progress until the batch ends, then download")
    submit.add_argument("--now", action="store_true", help="run now, outside the nightly window (urgent)")
    submit.add_argument("--metadata", action="append", default=[], metavar="KEY=VALUE")
    submit.add_argument("--out", type=Path, help="with --wait: where to write the output file")
    sub.add_parser("list", help="recent batches").add_argument("--limit", type=int, default=20)
    sub.add_parser("status", help="one batch").add_argument("batch_id")
    sub.add_parser("cancel", help="cancel a batch").add_argument("batch_id")
    down = sub.add_parser("download", help="write a batch's output (and error) file")
    down.add_argument("batch_id")
    down.add_argument("--out", type=Path, help="output file (default <batch id>_output.jsonl)")
    return parser


def run(args: argparse.Namespace) -> int:
    client = BatchClient(args.base_url, args.api_key)
    if args.command == "submit":
        if not args.file.is_file():
            raise CLIError(f"{args.file} is not a file")
        metadata = dict(item.split("=", 1) for item in args.metadata if "=" in item)
        if len(metadata) != len(args.metadata):
            raise CLIError("--metadata takes KEY=VALUE")
        if args.now:
            metadata["thrifty_urgent"] = "true"
        uploaded = client.upload(args.file)
        batch = client.create(uploaded["id"], args.endpoint, metadata)
        print(f"submitted {batch['id']} ({uploaded['id']}, {uploaded['bytes']} bytes)")
        if not args.wait:
            return 0
        batch = wait(client, batch["id"])
        print(_summary(batch))
        if batch["status"] == "failed":
            print(_errors(batch), file=sys.stderr)
            return 1
        print("\n".join(download(client, batch, args.out)))
    elif args.command == "list":
        for batch in client.list(args.limit):
            print(_summary(batch))
    elif args.command == "status":
        batch = client.get(args.batch_id)
        print(_summary(batch))
        if batch.get("errors"):
            print(_errors(batch))
    elif args.command == "cancel":
        print(_summary(client.cancel(args.batch_id)))
    elif args.command == "download":
        print("\n".join(download(client, client.get(args.batch_id), args.out)))
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return run(args)
    except CLIError as exc:
        print(f"thrifty batch: {exc}", file=sys.stderr)
        return 1
