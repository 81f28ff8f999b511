"""The server path fails with one clear line, never a traceback: nothing listening, a rejected API key, no URL."""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterator

import pytest
from cikb.store import StoreUnavailableError, open_store

from cikb.core.config import Settings
from cikb.core.errors import BadInputError, CikbError


def _server_settings(tmp_path: Path, url: str | None, api_key: str | None = None) -> Settings:
    return Settings(data_dir=tmp_path / "data", store={"mode": "server", "url": url, "api_key": api_key, "timeout": 2})


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class _RejectingQdrant(BaseHTTPRequestHandler):
    """Answers every request as a Qdrant with another API key would."""

    def do_GET(self) -> None:
        body = json.dumps({"status": {"error": "Unauthorized"}}).encode()
        self.send_response(401 if self.headers.get("api-key") != "right-key" else 200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def rejecting_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _RejectingQdrant)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_an_unreachable_server_is_one_clear_error(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{_closed_port()}"
    with pytest.raises(StoreUnavailableError) as err:
        open_store(_server_settings(tmp_path, url))
    message = str(err.value)
    assert isinstance(err.value, CikbError)
    assert url in message and "CIKB_STORE__URL" in message and "\n" not in message
    assert err.value.__suppress_context__  # the CLI prints the line; no chained traceback


@pytest.mark.filterwarnings("ignore:Api key is used with an insecure connection")
def test_a_rejected_api_key_is_one_clear_error(tmp_path: Path, rejecting_server: str) -> None:
    with pytest.raises(StoreUnavailableError, match=r"refused the API key \(HTTP 401\); check CIKB_STORE__API_KEY"):
        open_store(_server_settings(tmp_path, rejecting_server, api_key="wrong-key"))


def test_server_mode_without_a_url_says_what_to_set(tmp_path: Path) -> None:
    with pytest.raises(BadInputError, match="CIKB_STORE__URL"):
        open_store(_server_settings(tmp_path, None))
