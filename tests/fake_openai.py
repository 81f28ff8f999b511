"""An OpenAI-compatible HTTP server on 127.0.0.1 with scripted completions, for tests.

The real ``openai`` client talks to it over HTTP, so tests exercise the same
request/response path a hosted endpoint would. It serves
``POST /v1/chat/completions``, ``POST /v1/responses`` (the Responses API; a request with the
``web_search`` tool gets a ``web_search_call`` output item before the message) and
``GET /v1/models``, and records every request. Both POST routes draw on one script; a
responder tells them apart by ``request["_path"]``.

    def test_x(fake_openai):
        fake_openai.reply("Acme was founded in 1999 [1].")         # queued, used once
        fake_openai.respond_with(lambda request: "...")             # or a function of the request
        fake_openai.reply(FakeError(500, "boom"))                   # or an HTTP error
        fake_openai.reply(FakeRaw("<html>...</html>", "text/html"))  # or a body sent as it is
        settings.llm.base_url = fake_openai.base_url
        ...
        assert fake_openai.requests[0]["messages"][0]["role"] == "system"

With an empty queue and no function, the reply is ``fake_openai.default_reply``.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

FAKE_MODEL = "fake-model"


@dataclass(frozen=True)
class FakeError:
    """A scripted HTTP error in OpenAI's error format."""

    status: int
    message: str = "scripted error"


@dataclass(frozen=True)
class FakeRaw:
    """A scripted reply sent as it is: a body that is no chat completion (an HTML page, JSON of another shape)."""

    body: str
    content_type: str = "application/json"
    status: int = 200


Reply = str | FakeError | FakeRaw
Responder = Callable[[dict[str, Any]], Reply]


@dataclass
class FakeOpenAI:
    """The server's script and what it saw. ``requests`` holds each request body plus ``_path`` and ``_headers`` (lower-case names)."""

    base_url: str = ""
    default_reply: Reply = "I don't know."
    requests: list[dict[str, Any]] = field(default_factory=list)
    _queue: deque[Reply] = field(default_factory=deque)
    _responder: Responder | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def reply(self, *replies: Reply) -> None:
        """Queue replies; each is used by one chat completion, in order."""
        self._queue.extend(replies)

    def respond_with(self, responder: Responder | None) -> None:
        """Answer every completion (once the queue is empty) with ``responder(request_body)``."""
        self._responder = responder

    @property
    def chat_requests(self) -> list[dict[str, Any]]:
        return [r for r in self.requests if r["_path"].endswith("/chat/completions")]

    @property
    def responses_requests(self) -> list[dict[str, Any]]:
        return [r for r in self.requests if r["_path"].endswith("/responses")]

    def _next_reply(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append(body)
            if self._queue:
                return self._queue.popleft()
        return self._responder(body) if self._responder else self.default_reply


def _completion(text: str, body: dict[str, Any]) -> dict[str, Any]:
    prompt_words = sum(len(str(m.get("content", "")).split()) for m in body.get("messages", []))
    completion_words = len(text.split())
    return {
        "id": f"chatcmpl-fake-{time.monotonic_ns()}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", FAKE_MODEL),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": prompt_words, "completion_tokens": completion_words,
                  "total_tokens": prompt_words + completion_words},
    }


def _response(text: str, body: dict[str, Any]) -> dict[str, Any]:
    """A Responses API answer: the text as one ``output_text`` part, after a search call when the web_search tool was asked for."""
    output: list[dict[str, Any]] = []
    if any(tool.get("type", "").startswith("web_search") for tool in body.get("tools") or []):
        query = str(body.get("input", ""))[:200]
        output.append({"type": "web_search_call", "id": "ws_fake", "status": "completed", "action": {"type": "search", "query": query}})
    output.append({"type": "message", "id": "msg_fake", "role": "assistant", "status": "completed",
                   "content": [{"type": "output_text", "text": text, "annotations": []}]})
    input_words = len(str(body.get("instructions") or "").split()) + len(str(body.get("input", "")).split())
    output_words = len(text.split())
    return {
        "id": f"resp_fake_{time.monotonic_ns()}", "object": "response", "created_at": int(time.time()),
        "model": body.get("model", FAKE_MODEL), "status": "completed", "output": output,
        "parallel_tool_calls": True, "tool_choice": body.get("tool_choice", "auto"), "tools": body.get("tools") or [],
        "usage": {"input_tokens": input_words, "output_tokens": output_words, "total_tokens": input_words + output_words,
                  "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 0}},
    }


_ROUTES = {"/v1/chat/completions": _completion, "/v1/responses": _response}


def _handler(script: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
            pass

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path.rstrip("/").endswith("/v1/models"):
                self._send(200, {"object": "list", "data": [{"id": FAKE_MODEL, "object": "model", "owned_by": "tests"}]})
            else:
                self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            body["_path"] = self.path
            body["_headers"] = {k.lower(): v for k, v in self.headers.items()}
            route = next((build for suffix, build in _ROUTES.items() if self.path.rstrip("/").endswith(suffix)), None)
            if route is None:
                self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
                return
            reply = script._next_reply(body)
            if isinstance(reply, FakeError):
                self._send(reply.status, {"error": {"message": reply.message, "type": "scripted", "code": reply.status}})
            elif isinstance(reply, FakeRaw):
                data = reply.body.encode()
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.content_type)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            else:
                self._send(200, route(reply, body))

    return Handler


class _Server(ThreadingHTTPServer):
    """The fake endpoint's server. A client that stops waiting (a scripted delay past its timeout) closes the
    connection before the reply: nothing to report, and a traceback printed from the handler's thread would land in
    whichever test runs next, on its captured stderr."""

    def handle_error(self, request, client_address) -> None:  # noqa: ANN001 - socketserver's signature
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """A running fake endpoint; ``fake_openai.base_url`` is its ``http://127.0.0.1:PORT/v1``."""
    script = FakeOpenAI()
    server = _Server(("127.0.0.1", 0), _handler(script))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), name="fake-openai", daemon=True)
    thread.start()
    script.base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        yield script
    finally:
        server.shutdown()
        server.server_close()
