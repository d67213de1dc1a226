"""The scripted rerank server as a fixture; each test gets its own and it stops after."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from scripted_server import Script, ScriptedServer


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
