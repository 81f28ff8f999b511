"""Who may use the review page: the holder of the token `cikb serve` printed, through the bound host only.

A request proves the token once (``?token=`` in the printed URL, or an ``X-Cikb-Token`` /
``Authorization: Bearer`` header); the page then keeps it in an HttpOnly, SameSite=Strict
cookie. State-changing requests are POST forms that carry the token again (CSRF). The Host
header must name the bound host (or a name given with ``--allow-host``), so a page on another
origin that re-binds its DNS name to 127.0.0.1 gets 403, not the knowledge base. No response can
be framed (``X-Frame-Options``, CSP ``frame-ancestors``).
"""

from __future__ import annotations

import ipaddress
import secrets
from dataclasses import dataclass
from urllib.parse import urlencode

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

TOKEN_FIELD = "token"
HEADER = "x-cikb-token"


def new_token() -> str:
    return secrets.token_urlsafe(24)


# Every response refuses to be framed: a page on another origin (another port of 127.0.0.1 shares the
# cookie) must not be able to show the review page in a frame and have its buttons clicked.
FRAME_HEADERS = ((b"x-frame-options", b"DENY"), (b"content-security-policy", b"frame-ancestors 'none'"))
WILDCARDS = ("0.0.0.0", "::")


@dataclass(frozen=True)
class Guard:
    """The token and the Host header values a request must carry.

    ``extra_hosts``: further names (or addresses) the page answers to, given explicitly: bound to every
    interface (0.0.0.0), the page answers only to the loopback names and these.
    """

    token: str
    host: str
    port: int
    extra_hosts: tuple[str, ...] = ()

    @property
    def cookie(self) -> str:
        return f"cikb_token_{self.port}"  # browsers share cookies across ports: one name per server

    def allowed_hosts(self) -> set[str]:
        given = [] if self.host in WILDCARDS else [self.host]
        names = {f"[{name}]" if ":" in name else name.lower() for name in [*given, *self.extra_hosts]}
        if _loopback(self.host) or self.host in WILDCARDS:
            names |= {"localhost", "127.0.0.1", "[::1]"}
        return {f"{name}:{self.port}" for name in names}

    @property
    def exposed(self) -> bool:
        """Bound to an address other machines can reach (plain HTTP)."""
        return not _loopback(self.host)

    def host_ok(self, host_header: str | None) -> bool:
        return (host_header or "").lower() in self.allowed_hosts()

    def matches(self, candidate: str | None) -> bool:
        return bool(candidate) and secrets.compare_digest(candidate.encode(), self.token.encode())

    def url(self) -> str:
        host = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(self.host, self.host)  # a wildcard is no name to ask for
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}/?{urlencode({TOKEN_FIELD: self.token})}"


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


class TokenMiddleware:
    """403 for a wrong Host header or a request without the token; the token in a query string becomes a cookie."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def unframeable(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *FRAME_HEADERS]}
            await send(message)

        request = Request(scope)
        response = self._check(request)
        if response is None:
            await self.app(scope, receive, unframeable)
        else:
            await response(scope, receive, unframeable)

    def _check(self, request: Request) -> Response | None:
        guard = self.guard
        if not guard.host_ok(request.headers.get("host")):
            return PlainTextResponse("forbidden: this page answers only on the host cikb serve is bound to", status_code=403)
        if guard.matches(request.query_params.get(TOKEN_FIELD)) and request.method == "GET":
            return self._remember(request)
        if guard.matches(request.cookies.get(guard.cookie)) or guard.matches(_header_token(request)):
            return None
        return PlainTextResponse("forbidden: open the URL `cikb serve` printed (it carries ?token=...)", status_code=403)

    def _remember(self, request: Request) -> Response:
        """Set the cookie and reload without the token, so it stays out of the address bar and history."""
        query = [(k, v) for k, v in request.query_params.multi_items() if k != TOKEN_FIELD]
        # "//evil.example/" is a path here but another host to a browser following the redirect: one leading slash.
        target = "/" + request.url.path.lstrip("/") + (f"?{urlencode(query)}" if query else "")
        response = RedirectResponse(target, status_code=303)
        response.set_cookie(self.guard.cookie, self.guard.token, httponly=True, samesite="strict", path="/")
        return response


def _header_token(request: Request) -> str | None:
    if token := request.headers.get(HEADER):
        return token
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    return value if scheme.lower() == "bearer" else None


async def checked_form(request: Request, guard: Guard) -> dict[str, str]:
    """A POST form's fields, after its own token field matched (403 otherwise): the CSRF check."""
    form = await request.form()
    fields = {key: value for key, value in form.items() if isinstance(value, str)}
    if not guard.matches(fields.get(TOKEN_FIELD)):
        raise HTTPException(403, "forbidden: the form did not carry this page's token")
    return fields
