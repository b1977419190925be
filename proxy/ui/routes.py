"""The UI's route handlers: login/logout, one GET handler per registered page, cache invalidation
with a confirmation step, static files and a 404 page for unknown ``/ui`` paths."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any
from urllib.parse import urlencode, urlsplit

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from litestar import Request, Response, get, post
from litestar.datastructures import Cookie
from litestar.static_files import create_static_files_router
from sqlalchemy.exc import SQLAlchemyError

from proxy.config.settings import Settings
from proxy.pipeline.cache_invalidation import Invalidation, InvalidationError, invalidate
from proxy.ui.auth import (
    LOGIN_COOKIE,
    LOGIN_COOKIE_LIFETIME_S,
    SESSION_COOKIE,
    Session,
    SessionSigner,
    SessionStore,
)
from proxy.ui.masking import mask_text
from proxy.ui.pages import Page, PageContext, PageNotFound, default_pages
from proxy.ui.params import BadParameter
from proxy.wire.errors import ThriftyError

log = logging.getLogger(__name__)

HERE = Path(__file__).parent
SECURITY_HEADERS = MappingProxyType({
    # no script may run, nothing loads from elsewhere: the pages are plain HTML + inline SVG + one CSS file
    "content-security-policy": "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
                               "frame-ancestors 'none'; base-uri 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",  # "no-referrer" would make browsers send Origin: null
    "x-frame-options": "DENY",
    "cache-control": "no-store",
})
INVALIDATION_TARGETS = ("entry", "model", "tenant", "all")  # what the cache page offers


def _fmt_money(v: float | None) -> str:
    if v is None:
        return "–"
    if v == 0 or abs(v) >= 10:
        return f"${v:,.2f}"
    return f"${v:,.4f}" if abs(v) >= 0.01 else f"${v:.6f}"


def _fmt_num(v: float | None, digits: int = 0) -> str:
    return "–" if v is None else f"{v:,.{digits}f}"


def _fmt_pct(v: float | None) -> str:
    return "–" if v is None else f"{v:.1%}"


def _mask(v: Any) -> Any:
    """A text value with the credentials of the URLs in it masked; other values as they are."""
    return mask_text(v) if isinstance(v, str) else v


def _clip(v: Any, limit: int) -> Any:
    """A text value cut to ``limit`` characters, saying how many were left out."""
    if not isinstance(v, str) or len(v) <= limit:
        return v
    return f"{v[:limit]} … ({len(v) - limit:,} more characters not shown)"


def _fmt_time(v: datetime | float | None) -> str:
    if v is None:
        return "–"
    if isinstance(v, int | float):
        v = datetime.fromtimestamp(v, UTC)
    return v.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")


def template_env() -> Environment:
    """Jinja2 with autoescaping on for every template: database values are always escaped."""
    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True)
    env.filters.update(money=_fmt_money, num=_fmt_num, pct=_fmt_pct, time=_fmt_time, masked=_mask, clip=_clip,
                       qs=lambda params: urlencode({k: v for k, v in params.items() if v not in (None, "")}))
    return env


def _query(request: Request) -> dict[str, str]:
    return {k: str(request.query_params.get(k)) for k in request.query_params}


def ui_handlers(settings: Settings, state: Any, pages: list[Page] | None = None) -> list:
    """Route handlers of the web UI at ``/ui``, bound to this app's settings and state.

    ``pages``: the page registry (default: :func:`proxy.ui.pages.default_pages`).
    """
    pages = default_pages() if pages is None else pages
    env = template_env()
    admin = settings.admin
    signer = SessionSigner(admin.api_key, admin.session_lifetime_s) if admin.api_key else None
    sessions = SessionStore(state.engine)
    nav = [p for p in pages if p.nav]

    def html(template: str, status: int = 200, cookies: list[Cookie] | None = None,
             headers: dict[str, str] | None = None, **context: Any) -> Response:
        context.setdefault("session", None)
        context.setdefault("nav", nav)
        context.setdefault("current", "")
        body = env.get_template(template).render(**context)
        return Response(body, status_code=status, media_type="text/html",
                        headers={**SECURITY_HEADERS, **(headers or {})}, cookies=cookies)

    def redirect(location: str, cookies: list[Cookie] | None = None) -> Response:
        return Response(b"", status_code=303, media_type="text/html", headers={**SECURITY_HEADERS, "location": location},
                        cookies=cookies)

    def cookie(request: Request, key: str, value: str, max_age: int) -> Cookie:
        return Cookie(key=key, value=value, path="/ui", max_age=max_age, httponly=True, samesite="strict",
                      secure=request.url.scheme == "https")

    async def session_of(request: Request) -> Session | None:
        """The request's live session: signed, unexpired, and not ended by logout (on any replica)."""
        session = None if signer is None else signer.verify(request.cookies.get(SESSION_COOKIE))
        if session is None:
            return None
        try:
            return session if await sessions.live(session) else None
        except (SQLAlchemyError, OSError):
            log.exception("UI sessions unreadable; treating the request as logged out")
            return None

    def error_page(session: Session | None, status: int, title: str, message: str) -> Response:
        return html("error.html", status, session=session, title=title, message=message)

    def same_origin(request: Request) -> bool:
        origin = request.headers.get("origin")
        if not origin or origin == "null":
            return origin is None
        return urlsplit(origin).netloc == request.headers.get("host", "")

    async def checked_form(request: Request) -> tuple[Session | None, Mapping[str, Any] | Response]:
        """The session and form of a state-changing POST, or the response refusing it."""
        session = await session_of(request)
        if session is None:
            return None, redirect("/ui/login")
        form = await request.form()
        if not same_origin(request) or not SessionSigner.check_csrf(session, form.get("csrf")):
            return session, error_page(session, 403, "Refused", "This form is missing its CSRF token or comes from "
                                       "another site. Reload the page and try again.")
        return session, form

    def login_page(request: Request, status: int = 200, message: str | None = None,
                   headers: dict[str, str] | None = None) -> Response:
        if signer is None:
            return html("login.html", 503, disabled=True, csrf="", message=None)
        nonce = signer.login_nonce()
        return html("login.html", status, disabled=False, csrf=signer.login_csrf(nonce), message=message,
                    headers=headers,
                    cookies=[cookie(request, LOGIN_COOKIE, nonce, LOGIN_COOKIE_LIFETIME_S)])

    @get("/ui", name="ui:root")
    async def root(request: Request) -> Response:
        return redirect("/ui/overview" if await session_of(request) else "/ui/login")

    @get("/ui/login", name="ui:login")
    async def login_form(request: Request) -> Response:
        if await session_of(request) is not None:
            return redirect("/ui/overview")
        return login_page(request)

    @post("/ui/login", name="ui:login-post", status_code=303)
    async def login(request: Request) -> Response:
        if signer is None:
            return login_page(request)
        form = await request.form()
        if not same_origin(request) or not signer.check_login_csrf(request.cookies.get(LOGIN_COOKIE),
                                                                    form.get("csrf")):
            return login_page(request, 403, "The login form expired or came from another site; try again.")
        given = str(form.get("api_key") or "")
        address = request.client.host if request.client else "unknown"
        throttle = getattr(state, "throttle", None)
        if throttle is not None:
            try:
                await throttle.check("ui_login", address, given)
            except ThriftyError as exc:  # locked out: the key is not even checked
                return login_page(request, 429, exc.message, headers=exc.headers)
        if not signer.check_key(given):
            if throttle is not None:
                await throttle.failed("ui_login", address, given)
            else:
                log.warning("UI login refused: wrong admin key")
            return login_page(request, 401, "Wrong admin key.")
        if throttle is not None:
            await throttle.succeeded(address)
        session = signer.issue()
        await sessions.add(session)
        return redirect("/ui/overview", cookies=[
            cookie(request, SESSION_COOKIE, session.token, int(admin.session_lifetime_s)),
            cookie(request, LOGIN_COOKIE, "", 0)])

    @post("/ui/logout", name="ui:logout", status_code=303)
    async def logout(request: Request) -> Response:
        session, form = await checked_form(request)
        if isinstance(form, Response):
            return form
        assert signer is not None and session is not None
        await sessions.revoke(session)
        return redirect("/ui/login", cookies=[cookie(request, SESSION_COOKIE, "", 0)])

    def page_handler(page: Page):
        async def handler(request: Request) -> Response:
            session = await session_of(request)
            if session is None:
                return redirect("/ui/login")
            started = time.perf_counter()
            try:
                async with state.engine.connect() as conn:
                    ctx = PageContext(settings, state, _query(request), dict(request.path_params), conn)
                    data = await page.load(ctx)
            except BadParameter as exc:
                return error_page(session, 400, "Bad parameter", str(exc))
            except PageNotFound as exc:
                return error_page(session, 404, "Not found", str(exc))
            except (SQLAlchemyError, OSError) as exc:
                log.exception("UI page %s failed", page.path)
                return error_page(session, 503, "Database unavailable", mask_text(f"{type(exc).__name__}: {exc}"))
            except (OverflowError, ValueError):  # a value out of range that the parameter checks let through
                log.exception("UI page %s refused its parameters", page.path)
                return error_page(session, 400, "Bad parameter", "A parameter of this page is out of range; "
                                  "check the dates and numbers in the address.")
            loaded = time.perf_counter()
            body = env.get_template(page.template).render(session=session, nav=nav, current=page.name, page=page,
                                                          query=_query(request), **data)
            done = time.perf_counter()
            # server-side time (queries, render), as browsers' devtools and `thrifty bench ui` read it
            timing = (f"load;dur={(loaded - started) * 1000:.1f}, render;dur={(done - loaded) * 1000:.1f}, "
                      f"total;dur={(done - started) * 1000:.1f}")
            return Response(body, media_type="text/html",
                            headers={**SECURITY_HEADERS, "server-timing": timing})

        return get(page.path, name=f"ui:page:{page.path}")(handler)

    @post("/ui/cache/invalidate", name="ui:cache-invalidate", status_code=200)
    async def cache_invalidate(request: Request) -> Response:
        session, form = await checked_form(request)
        if isinstance(form, Response):
            return form
        cache = state.cache
        if cache is None:
            return error_page(session, 400, "Cache disabled", "Caching is disabled in this proxy.")
        fields = {k: str(form.get(k) or "").strip() for k in ("target", "kind", "entry_id", "model", "tenant")}
        if fields["target"] not in INVALIDATION_TARGETS:
            return error_page(session, 400, "Bad parameter",
                              f"target must be one of {', '.join(INVALIDATION_TARGETS)}, got {fields['target']!r}")
        selection = Invalidation(**fields)
        try:
            selection.check()
        except InvalidationError as exc:
            return error_page(session, 400, "Bad parameter", exc.message)
        if form.get("confirm") != "yes":
            return html("confirm.html", session=session, current="Cache", fields=fields)
        try:
            removed = sum((await invalidate(cache, selection)).values())
        except Exception as exc:  # noqa: BLE001 - the database's trouble is shown, not raised
            log.exception("UI cache invalidation failed")
            return error_page(session, 503, "Invalidation failed", mask_text(f"{type(exc).__name__}: {exc}"))
        log.info("UI cache invalidation %s removed %d entries", fields, removed)
        return redirect(f"/ui/cache?removed={removed}")

    @get("/ui/{rest:path}", name="ui:not-found")
    async def not_found(request: Request) -> Response:
        return error_page(await session_of(request), 404, "Not found", f"There is no page at {request.url.path}.")

    static = create_static_files_router(path="/ui/static", directories=[HERE / "static"], name="ui:static",
                                        include_in_schema=False)
    return [root, login_form, login, logout, cache_invalidate, *[page_handler(p) for p in pages], not_found, static]
