"""The proxy's OpenAPI document with its real request bodies (``GET /openapi.json``).

The handlers read their bodies themselves (to answer malformed ones with OpenAI errors), so the
framework's generated document knows their paths but not their bodies; this module adds the
bodies from the same msgspec structs the handlers validate with, a multipart body for file
uploads, and OpenAI's error object as every operation's error response. Schema-driven fuzzers
(schemathesis) and client generators read it.
"""

from __future__ import annotations

from typing import Any

import msgspec

from proxy.auth.admin import CreateKeyBody
from proxy.http.admin import InvalidateBody
from proxy.pipeline.feedback import FeedbackBody
from proxy.wire.schemas import ChatRequest, CompletionRequest


class CreateBatchBody(msgspec.Struct):
    """``POST /v1/batches`` (documentation only: the Batches controller checks the same fields)."""

    input_file_id: str
    endpoint: str  # /v1/chat/completions | /v1/completions
    completion_window: str  # 24h
    metadata: dict[str, str] | None = None


JSON_BODIES: dict[tuple[str, str], type] = {
    ("/v1/chat/completions", "post"): ChatRequest,
    ("/v1/completions", "post"): CompletionRequest,
    ("/v1/feedback", "post"): FeedbackBody,
    ("/v1/batches", "post"): CreateBatchBody,
    ("/admin/cache/invalidate", "post"): InvalidateBody,
    ("/admin/keys", "post"): CreateKeyBody,
}
UPLOAD = {"required": True, "content": {"multipart/form-data": {"schema": {
    "type": "object", "required": ["file", "purpose"],
    "properties": {"file": {"type": "string", "format": "binary"}, "purpose": {"type": "string", "enum": ["batch"]}}}}}}
HTML = "text/html"
METRICS = "text/plain; version=0.0.4"  # Prometheus' text exposition format
UI_FORM = {"required": True, "content": {"application/x-www-form-urlencoded": {"schema": {
    "type": "object", "additionalProperties": {"type": "string"}}}}}
ERROR = {"type": "object", "required": ["error"], "properties": {"error": {
    "type": "object", "required": ["message", "type", "param", "code"],
    "properties": {"message": {"type": "string"}, "type": {"type": "string"},
                   "param": {"type": ["string", "null"]}, "code": {"type": ["string", "null"]}}}}}


def openapi_document(app: Any) -> dict[str, Any]:
    """The framework's document for ``app`` plus request bodies and the OpenAI error response."""
    doc = app.openapi_schema.to_schema()
    schemas, components = msgspec.json.schema_components(list(JSON_BODIES.values()),
                                                         ref_template="#/components/schemas/{name}")
    doc.setdefault("components", {}).setdefault("schemas", {}).update({**components, "Error": ERROR})
    for (path, method), schema in zip(JSON_BODIES, schemas, strict=True):
        operation = doc.get("paths", {}).get(path, {}).get(method)
        if operation is not None:
            operation["requestBody"] = {"required": True, "content": {"application/json": {"schema": schema}}}
    upload = doc.get("paths", {}).get("/v1/files", {}).get("post")
    if upload is not None:
        upload["requestBody"] = UPLOAD
    for path, item in doc.get("paths", {}).items():
        media = _media_type(path)
        for method, operation in item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            if media is not None:  # not JSON: the web UI's pages and Prometheus' text format
                for response in operation["responses"].values():
                    if "content" in response:
                        response["content"] = {media: {"schema": {"type": "string"}}}
            if media == HTML and method == "post":
                operation["requestBody"] = UI_FORM
            if media == HTML:  # the UI answers errors with HTML pages too
                operation["responses"].setdefault("default", {
                    "description": "an HTML error page", "content": {HTML: {"schema": {"type": "string"}}}})
            else:
                operation["responses"].setdefault("default", {
                    "description": "an OpenAI error object",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}})
    return doc


def _media_type(path: str) -> str | None:
    """The media type of ``path``'s answers when it is not JSON."""
    if path == "/ui" or path.startswith("/ui/"):
        return HTML
    return METRICS if path == "/metrics" else None
