"""The admin web UI at ``/ui``: server-rendered pages (Jinja2 + inline SVG charts, no JavaScript).

``ui_handlers(settings, state)`` returns the Litestar route handlers; ``proxy.http.app.create_app``
registers them. Pages read through ``proxy.storage.stats``, the admin API's queries.
"""

from __future__ import annotations

from proxy.ui.pages import Page, PageContext, default_pages
from proxy.ui.routes import ui_handlers

__all__ = ["Page", "PageContext", "default_pages", "ui_handlers"]
