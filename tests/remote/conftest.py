"""A scripted rerank server on a free loopback port (the standard library's HTTP server), for
what a real provider does now and then: rate limits, failures, dropped connections."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

pytest.importorskip("httpx", reason="RemoteReranker needs the 'remote' extra")

#: What the script answers for the n-th request (1-based) and its JSON body:
#: (status, headers, JSON body), or None to drop the connection without an answer.
Answer = tuple[int, dict[str, str], Any] | None
Script = Callable[[int, Any], Answer]


@dataclass
class ScriptedServer:
    url: str
    bodies: list[Any] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)


def pointwise_score(text: str) -> float:
    """A per-document score, as neural providers give: it never depends on the other documents."""
    return round(len(text) % 7 / 7, 6)


def cohere_answer(body: Any) -> Answer:
    results = [
        {"index": i, "relevance_score": pointwise_score(t)} for i, t in enumerate(body["documents"])
    ]
    results.sort(key=lambda r: -r["relevance_score"])
    return 200, {}, {"id": "x", "results": results, "meta": {}}


@pytest.fixture
def scripted_server() -> Iterator[Callable[[Script], ScriptedServer]]:
    servers: list[ThreadingHTTPServer] = []

    def start(script: Script) -> ScriptedServer:
        lock = threading.Lock()
        state = ScriptedServer(url="")

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"null")
                with lock:
                    state.bodies.append(body)
                    state.headers.append(dict(self.headers))
                    answer = script(len(state.bodies), body)
                if answer is None:
                    self.close_connection = True
                    return
                status, headers, payload = answer
                data = json.dumps(payload).encode()
                self.send_response(status)
                for name, value in {"Content-Type": "application/json", **headers}.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        servers.append(server)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        state.url = f"http://127.0.0.1:{server.server_address[1]}/rerank"
        return state

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()
