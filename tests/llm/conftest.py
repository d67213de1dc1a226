"""A real HTTP server speaking ``/v1/chat/completions`` on 127.0.0.1, answering as the oracle.

Tests script its next replies (``server.script("429", "ok")``): "ok" answers as the oracle,
"429"/"503"/"500" answer that status, "slow" sleeps past the client's timeout, "malformed"
sends a body that is not JSON, "no-choices" valid JSON that is not a completion.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections import deque
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tests.llm.oracle import document, serve

CORPUS_SIZE = 100


def hidden_relevance(size: int = CORPUS_SIZE) -> dict[str, float]:
    """doc000 is the least relevant, doc099 the most: the oracle's hidden truth."""
    return {document(i).split()[0]: float(i) for i in range(size)}


class ChatServer:
    def __init__(self) -> None:
        self.relevance = hidden_relevance()
        self.replies: deque[str] = deque()
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.counted: list[dict[str, int]] = []
        self.slow_seconds = 1.0
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with server._lock:
                    server.requests.append(body)
                    server.headers.append(dict(self.headers))
                    reply = server.replies.popleft() if server.replies else "ok"
                if self.path != "/v1/chat/completions":
                    self._send(404, b'{"error": "not found"}')
                elif reply in ("429", "503", "500"):
                    headers = {"Retry-After": "0"} if reply == "429" else {}
                    self._send(int(reply), b'{"error": {"message": "scripted"}}', headers)
                elif reply == "slow":
                    time.sleep(server.slow_seconds)
                    self._send(200, json.dumps(serve(body, server.relevance)).encode())
                elif reply == "malformed":
                    self._send(200, b"{'choices': [ this is not json")
                elif reply == "no-choices":
                    self._send(200, b'{"object": "error", "detail": "nothing"}')
                else:
                    completion = serve(body, server.relevance)
                    with server._lock:
                        server.counted.append(completion["usage"])
                    self._send(200, json.dumps(completion).encode())

            def _send(self, status: int, payload: bytes, headers: dict | None = None) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                # the client may have given up already (the timeout test)
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self.wfile.write(payload)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def script(self, *replies: str) -> None:
        with self._lock:
            self.replies.extend(replies)


@pytest.fixture
def chat_server() -> Iterator[ChatServer]:
    server = ChatServer()
    thread = threading.Thread(target=server.httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.httpd.shutdown()
        server.httpd.server_close()
        thread.join(timeout=5)
